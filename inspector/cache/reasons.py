"""Where the first difference of a pair lies (its region) and why the cached prefix ends there
(its reason), by the anatomy's rules for the parts involved.
"""

from __future__ import annotations

from inspector import wording
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
        return "model-changed", wording.MODEL_CHANGED.format(old=prev.model, new=cur.model)
    if untimed > 0 and predicted == 0:
        return "expired", wording.EXPIRED.format(gap=f"{gap:g}", ttl=f"{ttl:g}", source=rules.source)
    reach, changed = keyed_reach(prev, cur, cmp.index)
    if changed and reach < cmp.index:
        return "options-changed", _options_detail(changed, rules.source)
    if region in ("tools", "settings"):
        return "tools-changed", wording.TOOLS_CHANGED if region == "tools" else wording.SETTINGS_CHANGED
    if region == "system":
        if prev.area(cmp.index) != cur.area(cmp.index):
            return "system-changed", wording.SYSTEM_REGROUPED
        return "system-changed", wording.SYSTEM_CHANGED
    if region == "history":
        return "history-rewritten", _history_detail(side, prev, cur, cmp)
    moved = _breakpoint_moved_earlier(prev, cur, cmp, predicted)
    if moved is not None:
        return "options-changed", moved
    if rules.mode == "explicit" and not cur.layout.breakpoints:
        return "turn-context", wording.NO_BREAKPOINT
    if predicted == 0:
        minimum = rules.min_cacheable_tokens
        below = cmp.shared_tokens < minimum
        if rules.mode == "explicit" and not below:
            # Long enough in all, but was any breakpoint's prefix long enough on its own?
            below = predict_explicit(rules, prev, cur, cmp.index, gap, False, minimum=0)[0] > 0
            if not below:
                return "turn-context", wording.NOTHING_TO_READ
        if below:
            return "below-minimum", wording.BELOW_MINIMUM.format(shared=cmp.shared_tokens, source=rules.source,
                                                                 minimum=minimum)
    if reported == 0 and predicted > 0:
        # The cause is filled in by routing.settle (ROUTE_CAUSE): the route's load or no visible reason.
        return "unexplained", wording.UNEXPLAINED.format(predicted=predicted, cause="")
    return "turn-context", wording.TURN_CONTEXT


def _options_detail(changed, source: str) -> str:
    fields = ", ".join(key.field for key in changed)
    levels = sorted({level for key in changed for level in key.drops}, key=("tools", "system", "messages").index)
    template = wording.OPTIONS_CHANGED_MANY if len(levels) > 1 else wording.OPTIONS_CHANGED_ONE
    return template.format(fields=fields, levels=" and ".join(levels), source=source)


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
        return wording.BREAKPOINT_MOVED_EARLIER.format(after=after, before=before, shared=cmp.shared_tokens)
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
        return wording.HISTORY_COMPACTED
    if kind == "pruned-marker" or prev_kind == "pruned-marker" or (cur.turn_id, cur.runtime_id) in side.prunes:
        return wording.HISTORY_PRUNED
    if kind == "system-insertion" or prev_kind == "system-insertion":
        return wording.HISTORY_INSERTION_MOVED
    if d >= cur.message_start:
        loc = cur.locator()
        if loc.elem_first[d - cur.message_start] == loc.history_start():
            return wording.HISTORY_SLID
    return wording.HISTORY_MESSAGE_DIFFERS
