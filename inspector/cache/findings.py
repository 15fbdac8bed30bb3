"""Covel's layout checks over a runtime's pairs: the evidence gathered pair by pair
(:class:`LayoutEvidence`) and the findings it adds up to once the runtime's last pair is made.

Besides the layout problems, the findings that save money (:meth:`LayoutEvidence.add_pair`):
a breakpoint closing a prefix shorter than the model caches (a wasted slot), cache writes no
later request read (dead writes), a 1-hour TTL that would cost less than the 5-minute one given
the runtime's gaps, and what its input cost in each billing class.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from inspector import wording
from inspector.anatomy.labelling import BAG_LABELS
from inspector.cache.calls import Call
from inspector.cache.pricing import (
    LONG_TTL_OPTION,
    PER_MILLION,
    SHORT_TTL_OPTION,
    keep_alive_break_even_seconds,
    reuse_cost_tokens,
    write_ttl_option,
)
from inspector.cache.results import CachePair, Finding
from inspector.cache.rules import CacheRules
from inspector.cache.session_totals import CostClasses

__all__ = ["LayoutEvidence", "PairEvidence", "breakpoint_locations", "data_blocks_last"]

# A layout check fires when its pattern shows in at least this many turns and in at least half of
# the runtime's turn pairs: one prompt edit is not a layout problem, a change every turn is.
_FINDING_MIN_TURNS = 2
_FINDING_MIN_SHARE = 0.5
_APPENDED = ("history_moves", "sliding", "system_changes", "data_last", "too_many", "bp_calls", "priced")
# A 1-hour TTL is suggested only when it saves at least this share of what the cached part costs
# with 5-minute entries: a rounding-sized saving is not worth a change to the engine.
_TTL_MIN_SAVING_SHARE = 0.05


def data_blocks_last(cur: Call) -> bool:
    """The request's last message is the turn context's data blocks."""
    loc = cur.locator()
    if loc.n == 0:
        return False
    last = loc.facts[-1]
    return last.sys_like and last.turn_data_score == 2


def breakpoint_locations(call: Call) -> list[tuple[str, int]]:
    """Where each honoured breakpoint of the request sits, by the anatomy's words, with its part."""
    lay = call.layout
    out = []
    for j, _ in lay.breakpoints[: call.rules.max_breakpoints or 0]:
        if j < lay.n_tools + lay.n_settings:
            where = "tools"
        elif j < call.message_start:
            where = f"system block {j - lay.n_tools - lay.n_settings + 1}"
        else:
            loc = call.locator()
            m = loc.elem_first[j - call.message_start]
            bag = loc.classify(m)[0] if m < loc.n else "tool-loop"
            where = BAG_LABELS[bag]
        out.append((where, j))
    return out


class PairEvidence:
    """What one pair tells the money findings: its request's billed tokens (the provider's counts
    where recorded, the prediction otherwise), its honoured breakpoints, and which of them later
    requests read."""

    __slots__ = ("turn_id", "event_id", "previous_event_id", "gap", "rules", "write_ttl", "input_tokens",
                 "cached_tokens", "written_tokens", "shared_tokens", "total_tokens", "short_breakpoints",
                 "breakpoint_ends", "reads")

    def __init__(self, pair: CachePair, call: Call) -> None:
        rules = pair.rules
        self.turn_id = pair.turn_id
        self.event_id = pair.event_id
        self.previous_event_id = pair.previous_event_id
        self.gap = pair.gap_seconds
        self.rules = rules
        self.write_ttl = write_ttl_option([ttl for _, ttl in call.layout.breakpoints])
        reported = pair.reported_cached_tokens is not None and pair.reported_input_tokens is not None
        if reported:
            self.input_tokens = pair.reported_input_tokens or 0
            self.cached_tokens = pair.reported_cached_tokens or 0
            self.written_tokens = pair.reported_cache_write_tokens or 0
        else:
            self.input_tokens = pair.total_tokens
            self.cached_tokens = pair.predicted_cached_tokens
            self.written_tokens = pair.predicted_cache_write_tokens
        self.shared_tokens = pair.shared_tokens
        self.total_tokens = pair.total_tokens
        # (location, prefix tokens) of each honoured breakpoint whose prefix the model does not cache
        self.short_breakpoints: list[tuple[str, int]] = []
        # part index -> the prefix tokens up to and including it, for the honoured breakpoints
        self.breakpoint_ends: dict[int, int] = {}
        self.reads = call.bp_reads  # filled in later, as later requests are compared with this one
        if rules.mode == "explicit" and call.layout.breakpoints:
            cum = call.cum_tokens()
            # A proxy count within its error band of the minimum may be long enough after all.
            band = (rules.proxy_token_error or 0.0) if pair.token_provenance == "proxy" else 0.0
            short_of = rules.min_cacheable_tokens * (1 - band)
            for where, j in breakpoint_locations(call):
                self.breakpoint_ends[j] = cum[j + 1]
                if cum[j + 1] < short_of:
                    self.short_breakpoints.append((where, cum[j + 1]))

    @classmethod
    def restored(cls, values: tuple, rules: CacheRules, reads: set[int]) -> PairEvidence:
        """One read back from a resume state (:mod:`inspector.cache.resume_state`): its values in
        the order of ``__slots__`` but ``rules`` and ``reads``, which are given."""
        (turn_id, event_id, previous, gap, write_ttl, input_tokens, cached, written, shared, total, short,
         ends) = values
        e = cls.__new__(cls)
        e.turn_id, e.event_id, e.previous_event_id, e.gap, e.rules = turn_id, event_id, previous, gap, rules
        e.write_ttl, e.input_tokens, e.cached_tokens, e.written_tokens = write_ttl, input_tokens, cached, written
        e.shared_tokens, e.total_tokens, e.short_breakpoints, e.breakpoint_ends = shared, total, short, ends
        e.reads = reads
        return e

    def read_later(self, readers_cached: int = 0) -> int:
        """The prefix tokens of this request's cache that a later request read: through the
        breakpoints marked read, or as much as the requests compared with it read from the cache
        (``readers_cached``; a prefix read past what this request found cached reads its write)."""
        return max(readers_cached, max((self.breakpoint_ends.get(j, 0) for j in self.reads), default=0))

    def dead_write_tokens(self, readers_cached: int = 0) -> int:
        """Of the tokens this request wrote, those no later request compared with it read."""
        if self.written_tokens <= 0:
            return 0
        start = self.cached_tokens
        read = max(0, min(self.read_later(readers_cached), start + self.written_tokens) - start)
        return self.written_tokens - read


def _usd(tokens: float, rules: CacheRules) -> float:
    return tokens * (rules.input_price_per_mtok or 0.0) / PER_MILLION


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:.0f} min" if seconds >= 90 else f"{seconds:.0f} s"


class LayoutEvidence:
    """What a runtime's pairs showed so far of each layout problem."""

    __slots__ = ("turn_pairs", "history_moves", "sliding", "system_changes", "data_last", "too_many", "bp_calls",
                 "priced", "examples")

    def __init__(self) -> None:
        self.turn_pairs = 0
        self.history_moves: list[str] = []
        self.sliding: list[str] = []
        self.system_changes: list[tuple[str, str]] = []  # (turn id, part name)
        self.data_last: list[str] = []
        self.too_many: list[tuple[str, int]] = []
        # per call with breakpoints: (turn id, [(location label, part index)], the indices read
        # later — filled in when a later request is compared with that call)
        self.bp_calls: list[tuple[str, list[tuple[str, int]], set[int]]] = []
        self.priced: list[PairEvidence] = []  # one per pair, for the money findings
        self.examples: dict[str, dict[str, Any]] = {}

    def add_pair(self, pair: CachePair, call: Call) -> None:
        """A pair just made, with its request: the evidence of the money findings."""
        self.priced.append(PairEvidence(pair, call))

    def collect(self, prev: Call, cur: Call, region: str, kind: str, reason: str, detail: str, name: str,
                was: str | None, now: str | None) -> None:
        """A turn pair's evidence: a system or history change and its example."""
        if kind != "turn" or reason in ("model-changed", "cold-start"):
            return
        self.turn_pairs += 1
        example = {"turnId": cur.turn_id, "previousTurnId": prev.turn_id, "part": name, "was": was, "now": now}
        if region == "system":
            self.system_changes.append((cur.turn_id, name))
            self.examples.setdefault("turn-volatile-system-text", example)
        elif region == "history":
            if detail.startswith(wording.HISTORY_INSERTION_MOVED):
                self.history_moves.append(cur.turn_id)
                self.examples.setdefault("moving-history-insertion", example)
            elif detail.startswith(wording.HISTORY_SLID):
                self.sliding.append(cur.turn_id)
                self.examples.setdefault("sliding-history-window", example)

    def snapshot(self) -> tuple:
        """What :meth:`restore` puts back: the lists' lengths, the breakpoint reads, the examples."""
        return (self.turn_pairs, {name: len(getattr(self, name)) for name in _APPENDED},
                [(reads, set(reads)) for _, _, reads in self.bp_calls], dict(self.examples))

    def restore(self, snapshot: tuple) -> None:
        turn_pairs, lengths, reads_before, examples = snapshot
        self.turn_pairs = turn_pairs
        for name, n in lengths.items():
            del getattr(self, name)[n:]
        for reads, before in reads_before:
            reads.clear()
            reads.update(before)
        self.examples = dict(examples)

    def findings(self, sid: str, rid: str | None, pairs: int, breakpoint_limit: int) -> list[Finding]:
        """The findings of a runtime with ``pairs`` pairs whose rules allow ``breakpoint_limit``
        breakpoints."""
        out: list[Finding] = []
        turns = self.turn_pairs

        def frequent(items: list) -> bool:
            return len(items) >= _FINDING_MIN_TURNS and len(items) >= _FINDING_MIN_SHARE * turns

        if frequent(self.system_changes):
            part = Counter(n for _, n in self.system_changes).most_common(1)[0][0]
            ids = [t for t, _ in self.system_changes]
            out.append(Finding(
                "turn-volatile-system-text", "warning", sid, rid, part, len(ids), turns, ids[:10],
                wording.VOLATILE_SYSTEM_TEXT.format(part=part, count=len(ids), turns=turns),
                self.examples.get("turn-volatile-system-text")))
        if self.too_many:
            most = max(n for _, n in self.too_many)
            out.append(Finding(
                "too-many-breakpoints", "warning", sid, rid, "cache breakpoints", len(self.too_many),
                pairs, [t for t, _ in self.too_many][:10],
                wording.TOO_MANY_BREAKPOINTS.format(count=len(self.too_many), limit=breakpoint_limit, most=most)))
        writes: Counter = Counter()
        reads: Counter = Counter()
        turns_of: dict[str, list[str]] = {}
        for turn_id, locations, read in self.bp_calls:
            for where, j in locations:
                writes[where] += 1
                if j in read:
                    reads[where] += 1
                turns_of.setdefault(where, []).append(turn_id)
        for where, n in writes.items():
            if n >= _FINDING_MIN_TURNS and reads[where] == 0:
                out.append(Finding(
                    "breakpoint-on-volatile-content", "warning", sid, rid, where, n, n, turns_of[where][:10],
                    wording.BREAKPOINT_NEVER_READ.format(where=where, count=n)))
        if self.data_last:
            out.append(Finding(
                "data-blocks-last", "warning", sid, rid, "turn context", len(self.data_last), turns + 1,
                self.data_last[:10],
                wording.DATA_BLOCKS_LAST))
        if frequent(self.sliding):
            out.append(Finding(
                "sliding-history-window", "warning", sid, rid, "history", len(self.sliding), turns,
                self.sliding[:10],
                wording.SLIDING_HISTORY.format(count=len(self.sliding), turns=turns),
                self.examples.get("sliding-history-window")))
        if frequent(self.history_moves):
            out.append(Finding(
                "moving-history-insertion", "warning", sid, rid, "history › depth insertion",
                len(self.history_moves), turns, self.history_moves[:10],
                wording.MOVING_INSERTION.format(count=len(self.history_moves), turns=turns),
                self.examples.get("moving-history-insertion")))
        out.extend(self.money_findings(sid, rid))
        return out

    def money_findings(self, sid: str, rid: str | None) -> list[Finding]:
        """Wasted breakpoint slots, dead writes, the 1-hour TTL, and the input's cost classes."""
        out: list[Finding] = []
        evidence = self.priced
        if not evidence:
            return out
        out.extend(self._wasted_breakpoints(sid, rid))
        dead = self._dead_writes(sid, rid)
        if dead is not None:
            out.append(dead)
        ttl = self._one_hour_ttl(sid, rid)
        if ttl is not None:
            out.append(ttl)
        classes = CostClasses()
        for e in evidence:
            classes.add(e.rules, e.input_tokens, e.cached_tokens, e.written_tokens, e.write_ttl)
        if classes.priced:
            out.append(Finding(
                "cost-classes", "info", sid, rid, "input cost", classes.requests, len(evidence), [],
                wording.COST_CLASSES.format(
                    requests=classes.requests, usd=f"{classes.total_usd:.4f}",
                    classes="; ".join(wording.cost_class_row(name, f"{usd:.4f}", tokens)
                                      for name, tokens, usd in classes.rows())),
                classes.to_json()))
        return out

    def _wasted_breakpoints(self, sid: str, rid: str | None) -> list[Finding]:
        with_breakpoints = [e for e in self.priced if e.breakpoint_ends]
        if not with_breakpoints:
            return []
        if all(len(e.short_breakpoints) == len(e.breakpoint_ends) for e in with_breakpoints):
            # No breakpoint of the runtime ever reaches the minimum: one finding for the runtime,
            # not one per place it marks.
            return [self._runtime_too_short(sid, rid, with_breakpoints)]
        wasted: dict[str, list[tuple[str, int, CacheRules]]] = {}
        for e in with_breakpoints:
            for where, tokens in e.short_breakpoints:
                wasted.setdefault(where, []).append((e.turn_id, tokens, e.rules))
        out = []
        for where, hits in wasted.items():
            if len(hits) < min(_FINDING_MIN_TURNS, len(with_breakpoints)):
                continue
            longest = max(t for _, t, _ in hits)
            rules = hits[-1][2]
            out.append(Finding(
                "wasted-breakpoint", "warning", sid, rid, where, len(hits), len(with_breakpoints),
                list(dict.fromkeys(t for t, _, _ in hits))[:10],
                wording.WASTED_BREAKPOINT.format(where=where, longest=longest, minimum=rules.min_cacheable_tokens,
                                                 count=len(hits), total=len(with_breakpoints),
                                                 slots=rules.max_breakpoints),
                {"maxPrefixTokens": longest, "minCacheableTokens": rules.min_cacheable_tokens}))
        return out

    def _runtime_too_short(self, sid: str, rid: str | None, with_breakpoints: list[PairEvidence]) -> Finding:
        rules = with_breakpoints[-1].rules
        places = list(dict.fromkeys(where for e in with_breakpoints for where, _ in e.short_breakpoints))
        longest = max(tokens for e in with_breakpoints for _, tokens in e.short_breakpoints)
        return Finding(
            "wasted-breakpoint", "warning", sid, rid, "every breakpoint", len(with_breakpoints),
            len(with_breakpoints), list(dict.fromkeys(e.turn_id for e in with_breakpoints))[:10],
            wording.NO_BREAKPOINT_CAN_CACHE.format(longest=longest, minimum=rules.min_cacheable_tokens,
                                                   total=len(with_breakpoints), places=", ".join(places),
                                                   slots=rules.max_breakpoints),
            {"maxPrefixTokens": longest, "minCacheableTokens": rules.min_cacheable_tokens, "places": places})

    def _dead_writes(self, sid: str, rid: str | None) -> Finding | None:
        # Only requests a later one was compared with: the last request of a turn's tool loop, or of
        # a session still being played, may yet be read by one the analysis does not pair with it.
        readers_cached: dict[str, int] = {}
        for e in self.priced:
            if e.previous_event_id is not None:
                readers_cached[e.previous_event_id] = max(readers_cached.get(e.previous_event_id, 0), e.cached_tokens)
        judged = [e for e in self.priced if e.written_tokens > 0 and e.event_id in readers_cached
                  and e.rules.write_multiplier_for(e.write_ttl) > 1.0]
        dead = [(e, e.dead_write_tokens(readers_cached[e.event_id])) for e in judged]
        dead = [(e, n) for e, n in dead if n > 0]
        if len(dead) < _FINDING_MIN_TURNS:
            return None
        tokens = sum(n for _, n in dead)
        premium = sum(_usd(n * (e.rules.write_multiplier_for(e.write_ttl) - 1.0), e.rules) for e, n in dead)
        return Finding(
            "dead-cache-writes", "warning", sid, rid, "cache writes", len(dead), len(judged),
            list(dict.fromkeys(e.turn_id for e, _ in dead))[:10],
            wording.DEAD_WRITES.format(count=len(dead), total=len(judged), tokens=tokens, usd=f"{premium:.4f}"),
            {"deadWriteTokens": tokens, "wastedPremiumUsd": round(premium, 6)})

    def _one_hour_ttl(self, sid: str, rid: str | None) -> Finding | None:
        rules = self.priced[-1].rules
        if (rules.mode != "explicit" or LONG_TTL_OPTION not in rules.ttl_options
                or rules.input_price_per_mtok is None
                or all(e.write_ttl == LONG_TTL_OPTION for e in self.priced)):
            return None
        short_ttl = rules.ttl_for(SHORT_TTL_OPTION)
        long_ttl = rules.ttl_for(LONG_TTL_OPTION)
        short_cost = long_cost = 0.0
        bridged: list[str] = []
        gaps = 0
        for e in self.priced:
            if e.rules.source != rules.source:
                continue
            extent = e.cached_tokens + e.written_tokens
            if extent < rules.min_cacheable_tokens:
                continue
            reused = min(e.shared_tokens, extent) if e.gap is not None else 0
            new = extent - reused
            short_cost += reuse_cost_tokens(rules, reused, new, e.gap, SHORT_TTL_OPTION)
            long_cost += reuse_cost_tokens(rules, reused, new, e.gap, LONG_TTL_OPTION)
            if e.gap is not None:
                gaps += 1
                if short_ttl < e.gap <= long_ttl and reused:
                    bridged.append(e.turn_id)
        if not bridged or long_cost >= short_cost * (1 - _TTL_MIN_SAVING_SHARE):
            return None
        saving = _usd(short_cost - long_cost, rules)
        keep_alive = keep_alive_break_even_seconds(rules)
        said = {"count": len(bridged), "gaps": gaps, "short": _minutes(short_ttl), "long": _minutes(long_ttl),
                "option": LONG_TTL_OPTION, "saving": f"{saving:.4f}", "cost": f"{_usd(long_cost, rules):.4f}",
                "was": f"{_usd(short_cost, rules):.4f}"}
        message = (wording.ONE_HOUR_TTL.format(**said) if keep_alive is None
                   else wording.ONE_HOUR_TTL_KEEP_ALIVE.format(keep=_minutes(keep_alive), **said))
        return Finding(
            "one-hour-ttl-pays", "info", sid, rid, "cache TTL", len(bridged), gaps,
            list(dict.fromkeys(bridged))[:10],
            message,
            {"shortTtlCostUsd": round(_usd(short_cost, rules), 6), "longTtlCostUsd": round(_usd(long_cost, rules), 6),
             "keepAliveBreakEvenSeconds": keep_alive})
