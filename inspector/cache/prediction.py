"""What the provider caches: the shared prefix of two requests (:func:`compare`), and the cached
and written tokens under the provider's rules (:mod:`inspector.cache.rules`), automatic prefix
caches and Anthropic's explicit breakpoints alike.
"""

from __future__ import annotations

from dataclasses import dataclass

from inspector.anatomy.divergence import common_prefix
from inspector.cache.cache_keys import CacheKey, changed_options
from inspector.cache.calls import Call
from inspector.cache.rules import CacheRules
from inspector.jsjson import utf16_len

__all__ = ["Comparison", "cold_write", "compare", "duration_seconds", "keyed_reach", "mark_reads",
           "predict_automatic", "predict_explicit", "ttl_seconds"]


@dataclass(slots=True)
class Comparison:
    index: int  # first differing part of the current request (len(parts) when none)
    shared_tokens: int
    shared_units: int
    offset_units: int  # within the differing part
    offset_chars: int  # the same, in code points


def compare(prev: Call, cur: Call) -> Comparison:
    a = prev.parts
    b = cur.parts
    limit = min(len(a), len(b))
    d = cur.layout.same_as_ref if cur.ref is prev else 0
    while d < limit and (a[d] is b[d] or a[d].key == b[d].key):
        d += 1
    shared = cur.layout.cum[d]
    units = cur.layout.cum_units[d]
    offset_units = offset_chars = 0
    if d < limit:
        was, now = a[d], b[d]
        if was.text != now.text:
            offset_chars = common_prefix(was.text, now.text)
            offset_units = utf16_len(now.text[:offset_chars])
            enc = cur.rules.tokenizer
            ta, tb = was.token_array(enc), now.token_array(enc)
            n = min(len(ta), len(tb))
            if n:
                differs = ta[:n] != tb[:n]
                first = int(differs.argmax())
                shared += first if differs[first] else n
        units += offset_units
    return Comparison(d, shared, units, offset_units, offset_chars)


def keyed_reach(prev: Call, cur: Call, reach: int) -> tuple[int, list[CacheKey]]:
    """``reach`` (the first part the current request cannot read) limited by the options that
    key a cache level and changed between the two requests (inspector.cache.cache_keys): a
    dropped level and every later one are not read. Also those options."""
    changed = changed_options(cur.rules.keyed_options, prev.layout.options, cur.layout.options)
    for key in changed:
        reach = min(reach, level_start(cur, key.first_dropped))
    return reach, changed


def level_start(call: Call, level: str) -> int:
    """The first part of a cache level (inspector.cache.cache_keys.LEVELS) of a request."""
    lay = call.layout
    if level == "tools":
        return 0
    if level == "system":
        return lay.n_tools + lay.n_settings
    return call.message_start


def predict_automatic(rules: CacheRules, shared: int, prev: Call, cur: Call | None = None) -> int:
    """Cached tokens of an automatic prefix cache, from the shared prefix (ignoring time). With
    ``cur``, a changed option that keys the cache (OpenAI ``prompt_cache_key``) cuts the prefix,
    and an earlier request on OpenAI's breakpoint scheme (GPT-5.6 and later) left entries only
    at its breakpoints."""
    minimum = rules.min_cacheable_tokens
    if cur is not None:
        reach, changed = keyed_reach(prev, cur, len(cur.parts))
        if changed:
            shared = min(shared, cur.layout.cum[reach])
        if prev.layout.breakpoint_mode is not None:
            return _at_breakpoints(prev, shared, minimum)
    return automatic_cached(rules, shared, prev.total_tokens, prev.shared_tokens)


def automatic_cached(rules: CacheRules, shared: int, prev_total: int, prev_shared: int | None) -> int:
    """The cached tokens an automatic prefix cache gives a request sharing ``shared`` tokens with
    the earlier one (``prev_total`` tokens long, itself sharing ``prev_shared`` with the one before
    it), by the rules' minimum and granularity; time not considered. The one statement of the
    granularity rule: the analysis predicts with it and the demo generator reports with it."""
    minimum = rules.min_cacheable_tokens
    if shared < minimum:
        return 0
    if rules.granularity == "step":
        step = rules.step_tokens or 1
        cached = shared // step * step
    elif rules.granularity == "units":
        # Persisted units of the earlier request: its whole input, the prefix it shared with the
        # request before it, and fixed intervals (provider-caching.md §3.4).
        candidates = [prev_total]
        if prev_shared is not None:
            candidates.append(prev_shared)
        if rules.unit_tokens:
            candidates.append(shared // rules.unit_tokens * rules.unit_tokens)
        cached = max((c for c in candidates if c <= shared), default=0)
    else:
        cached = shared
    return cached if cached >= minimum else 0


def _at_breakpoints(prev: Call, shared: int, minimum: int) -> int:
    """OpenAI GPT-5.6+: a cached prefix is matched exactly at a breakpoint the earlier request
    wrote, never at a shorter unmarked prefix nor rounded to a block; in implicit mode the
    provider adds one at the end of the newest message (the whole earlier prompt)."""
    cum = prev.cum_tokens()
    ends = [cum[j + 1] for j, _ in prev.layout.breakpoints]
    if prev.layout.breakpoint_mode == "implicit":
        ends.append(prev.total_tokens)
    cached = max((e for e in ends if e <= shared), default=0)
    return cached if cached >= minimum else 0


def breakpoint_write(rules: CacheRules, cur: Call, read: int) -> int:
    """OpenAI GPT-5.6+ (``cur.layout.breakpoint_mode`` set): the tokens the request writes (the
    provider's ``cache_write_tokens``): an entry at each of its breakpoints long enough to be
    cached and, in implicit mode, one at the end of its newest message; what the furthest of
    them holds beyond what was read is new. 0 for a request not on that scheme."""
    mode = cur.layout.breakpoint_mode
    if mode is None:
        return 0
    cum = cur.cum_tokens()
    ends = [cum[j + 1] for j, _ in cur.layout.breakpoints]
    if mode == "implicit":
        ends.append(cur.total_tokens)
    furthest = max((e for e in ends if e >= rules.min_cacheable_tokens), default=0)
    return max(0, furthest - read)


def _blocks_cum(call: Call) -> list[int]:
    cum = [0]
    total = 0
    for part in call.parts:
        total += part.blocks
        cum.append(total)
    return cum


def predict_explicit(rules: CacheRules, prev: Call, cur: Call, d: int, gap: float | None,
                      honour_ttl: bool, minimum: int | None = None) -> tuple[int, int]:
    """Anthropic: ``(read, write)`` tokens. An entry exists where the earlier request
    had a breakpoint over a prefix still identical and at least the minimum long; each of the
    current request's first ``max_breakpoints`` breakpoints finds the longest such entry within
    ``lookback_blocks`` blocks before it. ``d`` is the first part that cannot be read, the
    options that key a cache level already applied (:func:`keyed_reach`). ``minimum`` replaces
    the rules' minimum (to ask what the minimum alone prevented)."""
    minimum = rules.min_cacheable_tokens if minimum is None else minimum
    limit = rules.max_breakpoints or 0
    cum = cur.cum_tokens()
    pcum = prev.cum_tokens()
    entries: dict[int, float] = {}
    for j, ttl in prev.layout.breakpoints[:limit]:
        if j < d and pcum[j + 1] >= minimum:
            life = rules.ttl_for(ttl)
            entries[j] = max(entries.get(j, 0.0), life)
    honoured = cur.layout.breakpoints[:limit]
    blocks = _blocks_cum(cur)
    lookback = rules.lookback_blocks or 0
    read = 0
    for b, _ttl in honoured:
        for j in range(b, -1, -1):
            if blocks[b + 1] - blocks[j + 1] > lookback:
                break
            life = entries.get(j)
            if life is None:
                continue
            if honour_ttl and gap is not None and gap > life:
                continue
            read = max(read, cum[j + 1])
            break
    write = 0
    for b, _ttl in reversed(honoured):
        if cum[b + 1] >= minimum:
            write = max(0, cum[b + 1] - read)
            break
    return read, write


def ttl_seconds(rules: CacheRules, prev: Call | None, cur: Call) -> float | None:
    """How long the earlier request's cache lives, as the pair shows it."""
    if rules.mode == "explicit":
        # Each entry has its own TTL (cache_control.ttl); the shortest of the earlier request's
        # breakpoints is the one shown.
        if prev is None or not prev.layout.breakpoints:
            return rules.ttl_seconds
        return min(rules.ttl_for(t) for _, t in prev.layout.breakpoints[: rules.max_breakpoints or 0])
    option = (prev.layout.breakpoint_ttl if prev is not None else None) or cur.layout.breakpoint_ttl
    if option is not None and (seconds := duration_seconds(option)) is not None:
        return seconds
    retention = (prev.layout.retention if prev is not None else None) or cur.layout.retention
    if retention == "24h" and rules.extended_ttl_seconds is not None:
        return float(rules.extended_ttl_seconds)
    return rules.ttl_seconds


_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def duration_seconds(option: str) -> float | None:
    """A TTL option as the wire writes it ("30m", "12h") in seconds; None when unreadable."""
    number, unit = option[:-1], option[-1:]
    if unit not in _UNIT_SECONDS or not number.isdigit():
        return None
    return float(int(number) * _UNIT_SECONDS[unit])


def cold_write(rules: CacheRules, cur: Call) -> int:
    """Anthropic: the tokens a request writes with nothing to read, up to its last honoured
    breakpoint long enough to be cached."""
    cum = cur.cum_tokens()
    for b, _ in reversed(cur.layout.breakpoints[: rules.max_breakpoints or 0]):
        if cum[b + 1] >= rules.min_cacheable_tokens:
            return cum[b + 1]
    return 0


def mark_reads(prev: Call, d: int, gap: float | None, rules: CacheRules) -> None:
    """Note on ``prev`` which of its breakpoints a later request read (its prefix up to part
    ``d`` still equal, within the entry's TTL): a breakpoint never read is a finding."""
    for j, ttl in prev.layout.breakpoints[: rules.max_breakpoints or 0]:
        if j < d and (gap is None or gap <= rules.ttl_for(ttl)):
            prev.bp_reads.add(j)
