"""Where the first difference of a pair lies (its region) and why the cached prefix ends there
(its reason), by the anatomy's rules for the parts involved.
"""

from __future__ import annotations

from inspector.anatomy.labelling import leading_system_kind, leading_system_kinds
from inspector.cache.calls import AREAS, Call
from inspector.cache.prediction import Comparison, keyed_reach, predict_explicit
from inspector.cache.side_events import SideEvents

__all__ = ["reason", "region"]


def region(prev: Call, cur: Call, d: int) -> str:
    """Where the first difference (part ``d``) lies: one of :data:`~inspector.cache.results.REGIONS`."""
    if d >= len(cur.parts):
        return "end"
    # The earlier area in hash order wins: a system block in one request facing a message in
    # the other means the system prompt changed.
    area = min(prev.area(d), cur.area(d))
    if area < 3:
        return AREAS[area]
    if d >= len(prev.parts):
        return "turn-context"
    if d < prev.message_start:
        return _extra_region(prev, d)
    # What the element was in the earlier request decides: a difference where that request
    # had its turn context (or beyond it) is the healthy case even when the current request
    # has history there now (the first turns grow a history where the turn context stood).
    ploc = prev.locator()
    m = ploc.elem_first[d - prev.message_start]
    return "turn-context" if m >= ploc.n else ploc.region(m)


def _extra_region(call: Call, d: int) -> str:
    """Region of a leading system message after the system prompt, by the anatomy's rule for
    such extras: the pruned marker and older summaries are history; the response format and,
    when the messages hold no turn context, the last other one (the turn context of a request
    without history) are the turn context; any other is a pre-history insertion."""
    lay = call.layout
    first = lay.n_tools + lay.n_settings + lay.n_prompt
    texts = [part.text for part in lay.parts[first : call.message_start]]
    kind = leading_system_kinds(texts, call.locator().tc is not None)[d - first]
    return "turn-context" if kind in ("turn-context", "response-format") else "history"


def reason(side: SideEvents, prev: Call, cur: Call, cmp: Comparison, region: str, predicted: int, untimed: int,
           gap: float | None, ttl: float | None, reported: int | None) -> tuple[str, str]:
    """Why the cached prefix ends where it does: one of :data:`~inspector.cache.results.REASONS`,
    and the detail a person reads."""
    rules = cur.rules
    if prev.model is not None and cur.model is not None and prev.model != cur.model:
        return "model-changed", f"{prev.model} → {cur.model}: caches are per model"
    if untimed > 0 and predicted == 0:
        return "expired", f"{gap:g} s since this runtime's last request, over the {ttl:g} s TTL ({rules.source})"
    reach, changed = keyed_reach(prev, cur, cmp.index)
    if changed and reach < cmp.index:
        return "options-changed", _options_detail(changed, rules.source)
    if region in ("tools", "settings"):
        what = "tool definitions" if region == "tools" else "tool choice or output schema"
        return "tools-changed", f"the {what} changed: nothing after them can be read from the cache"
    if region == "system":
        if prev.area(cmp.index) != cur.area(cmp.index):
            return "system-changed", ("the system prompt gained or lost a part here (a leading system message "
                                      "joined it or left it): the history after it is re-sent uncached")
        return "system-changed", "the system prompt changed: the history after it is re-sent uncached"
    if region == "history":
        return "history-rewritten", _history_detail(side, prev, cur, cmp)
    moved = _breakpoint_moved_earlier(prev, cur, cmp, predicted)
    if moved is not None:
        return "options-changed", moved
    if rules.mode == "explicit" and not cur.layout.breakpoints:
        return "turn-context", "the prefix runs to the turn context, but the request has no cache_control breakpoint"
    if predicted == 0:
        minimum = rules.min_cacheable_tokens
        below = cmp.shared_tokens < minimum
        if rules.mode == "explicit" and not below:
            # Long enough in all, but was any breakpoint's prefix long enough on its own?
            below = predict_explicit(rules, prev, cur, cmp.index, gap, False, minimum=0)[0] > 0
            if not below:
                return "turn-context", ("the prefix runs to the turn context, but no breakpoint of the earlier "
                                        "request ends within it and the lookback: there was nothing to read")
        if below:
            return "below-minimum", (f"{cmp.shared_tokens} shared tokens; {rules.source} caches no prefix "
                                     f"under {minimum} tokens")
    if reported == 0 and predicted > 0:
        # The cause is filled in by routing.settle (ROUTE_CAUSE): the route's load or no visible reason.
        return "unexplained", f"{predicted} tokens predicted cached but none reported; "
    return "turn-context", "the prefix runs to the turn context or later"


def _options_detail(changed, source: str) -> str:
    fields = ", ".join(key.field for key in changed)
    levels = sorted({level for key in changed for level in key.drops}, key=("tools", "system", "messages").index)
    return (f"{fields} changed: the {' and '.join(levels)} cache{'s' if len(levels) > 1 else ''} "
            f"{'are' if len(levels) > 1 else 'is'} keyed by it, so nothing from there on is read ({source})")


def _breakpoint_moved_earlier(prev: Call, cur: Call, cmp: Comparison, predicted: int) -> str | None:
    """Explicit breakpoints: the current request's last honoured breakpoint ends before the
    earlier request's did, within the prefix they share, and that is why less is read."""
    rules = cur.rules
    if rules.mode != "explicit":
        return None
    limit = rules.max_breakpoints or 0
    was, now = prev.layout.breakpoints[:limit], cur.layout.breakpoints[:limit]
    if not was or not now:
        return None
    before = prev.cum_tokens()[was[-1][0] + 1]
    after = cur.cum_tokens()[now[-1][0] + 1]
    if after < before <= cmp.shared_tokens and predicted < before and predicted <= after:
        return (f"cache_control moved earlier: the last breakpoint's prefix is {after} tokens, {before} in the "
                f"previous request, so at most {after} of the {cmp.shared_tokens} shared tokens can be read")
    return None


def _kind_at(call: Call, d: int) -> tuple[str | None, str | None]:
    """``(bag, kind)`` of part ``d`` by the anatomy's names, for a message or a leading system
    message after the prompt; ``(None, None)`` for anything else."""
    lay = call.layout
    if d >= len(lay.parts) or d < lay.n_tools + lay.n_settings + lay.n_prompt:
        return None, None
    if d < call.message_start:
        kind = leading_system_kind(lay.parts[d].text)
        if kind == "pruned":
            return "pre-history", "pruned-marker"
        if kind == "legacy-summary":
            return "summaries", "legacy-compacted-history"
        return "pre-history", "system-insertion"
    loc = call.locator()
    m = loc.elem_first[d - call.message_start]
    if m >= loc.n:
        return None, None
    bag, kind, _, _ = loc.classify(m)
    return bag, kind


def _history_detail(side: SideEvents, prev: Call, cur: Call, cmp: Comparison) -> str:
    d = cmp.index
    bag, kind = _kind_at(cur, d)
    _, prev_kind = _kind_at(prev, d)
    if cur.turn_id in side.compactions or bag == "summaries" or prev_kind in ("compacted-history", "legacy-compacted-history"):
        return "history compacted: summaries replaced the oldest messages"
    if kind == "pruned-marker" or prev_kind == "pruned-marker" or (cur.turn_id, cur.runtime_id) in side.prunes:
        return "history pruned to stay within the token budget"
    if kind == "system-insertion" or prev_kind == "system-insertion":
        return "a depth insertion inside the history moved"
    if d >= cur.message_start:
        loc = cur.locator()
        if loc.elem_first[d - cur.message_start] == loc.history_start():
            return "the history window slid: its oldest message changed"
    return "a history message differs from the previous request's"
