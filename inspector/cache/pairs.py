"""Making a runtime's pairs: each request of a finished turn compared with the one before it
(the previous turn's first request for a turn's first), with what the provider caches
(:mod:`.prediction`), where and why the cached prefix ends (:mod:`.reasons`), the difference's name
(:mod:`.naming`), its cost (:mod:`.pricing`) and the layout evidence (:mod:`.findings`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from inspector import wording
from inspector.cache.calls import Call
from inspector.cache.findings import LayoutEvidence, breakpoint_locations, data_blocks_last
from inspector.cache.naming import DifferenceNamer, context_around
from inspector.cache.prediction import (
    Comparison,
    breakpoint_write,
    cold_write,
    compare,
    keyed_reach,
    mark_reads,
    predict_automatic,
    predict_explicit,
    ttl_seconds,
)
from inspector.cache.pricing import missed_savings_usd, reported_uncached_cost_usd, uncached_cost_usd, write_ttl_option
from inspector.cache.reasons import reason, region
from inspector.cache.results import CachePair, RuntimeSummary
from inspector.cache.routing import ROUTE_APPENDED, ROUTE_CAUSE
from inspector.cache.rules import CacheRules
from inspector.cache.side_events import SideEvents
from inspector.cache.verdicts import judge
from inspector.tokens import encoding_for_model

__all__ = ["PairMaker", "RuntimeState", "token_provenance"]


def token_provenance(model: str | None, rules: CacheRules) -> str:
    """``exact`` when the tokenizer in use is the model's own (OpenAI models), else ``proxy``."""
    return _provenance_of(model, rules.tokenizer)


@functools.lru_cache(maxsize=256)
def _provenance_of(model: str | None, tokenizer: str) -> str:
    # A session asks this for every request, of a handful of models.
    choice = encoding_for_model(model)
    return "exact" if choice.provenance == "exact" and choice.encoding == tokenizer else "proxy"


class RuntimeState:
    """Where a runtime's pairing stands: its pending turn, the calls later ones are compared
    with, its totals and its layout evidence."""

    __slots__ = ("runtime_id", "turn_id", "pending", "last", "last_ok", "last_read", "turn_first", "step",
                 "summary", "evidence", "first_row")

    def __init__(self, session_id: str, runtime_id: str | None, first_row: int = 0) -> None:
        self.runtime_id = runtime_id
        self.first_row = first_row  # the row of its first request
        self.turn_id: str | None = None
        self.pending: list[Call] = []
        self.last: Call | None = None
        self.last_ok: Call | None = None  # the latest call whose response was not an error
        # The runtime's latest request read (possibly still pending): the next one reuses its parts.
        self.last_read: Call | None = None
        self.turn_first: Call | None = None
        self.step = -1
        self.summary = RuntimeSummary(session_id, runtime_id)
        self.evidence = LayoutEvidence()

    def breakpoint_limit(self) -> int:
        """The breakpoints its rules allow (those of its latest pair), for the findings."""
        return self.last.rules.max_breakpoints if self.last is not None and self.last.rules.max_breakpoints else 0


class PairMaker:
    """Makes the pairs of the runtimes of one analysis, with its side events and its namer."""

    __slots__ = ("side", "namer")

    def __init__(self, side: SideEvents, namer: DifferenceNamer) -> None:
        self.side = side
        self.namer = namer

    def flush(self, state: RuntimeState, trigger: float) -> Iterator[tuple]:
        """The pairs of the runtime's pending turn, completed by the request at row ``trigger``
        (AT_END after the last row); keyed (trigger, the runtime's first row, index), the order
        in which an analysis of the whole session makes them."""
        calls = state.pending
        if not calls:
            return
        state.pending = []
        self.side.bind(calls)
        for n, call in enumerate(calls):
            last = state.last
            if last is not None and last.turn_id == call.turn_id:
                prev, kind = last, "tool-loop"
            else:
                # A turn's first request against the previous turn's first (none at the start).
                prev, kind = state.turn_first, "turn"
                state.turn_first = call
            gap = None
            if last is not None and last.t is not None and call.t is not None:
                gap = round(call.t - last.t, 3)
            route_gap, pair = self._pair(state, prev, call, kind, gap)
            # Its locator, if needed later, is built without the shortcut; keeping the reference
            # would chain every call of the session in memory.
            call.ref = None
            state.last = call
            if not call.failed:
                state.last_ok = call
            state.summary.add(pair)
            state.evidence.add_pair(pair, call)
            yield ("p", (trigger, state.first_row, n), pair, route_gap, call.row)

    def _pair(self, state: RuntimeState, prev: Call | None, cur: Call, kind: str,
              gap: float | None) -> tuple[tuple[int, str] | None, CachePair]:
        """The pair, and the gap its routing note goes in (see inspector.cache.routing.settle)."""
        rules = cur.rules
        total = cur.total_tokens
        total_units = cur.layout.cum_units[-1]
        provenance = token_provenance(cur.model, rules)
        usage = cur.usage
        reported = usage.cached_input_tokens if usage is not None else None
        reported_write = usage.cache_write_input_tokens if usage is not None else None
        reported_input = usage.input_tokens if usage is not None else None
        miss_reason = usage.cache_miss_reason if usage is not None else None
        missed = usage.cache_missed_input_tokens if usage is not None else None
        explicit = rules.mode == "explicit"
        ttl = ttl_seconds(rules, prev, cur)
        if explicit and len(cur.layout.breakpoints) > (rules.max_breakpoints or 0):
            state.evidence.too_many.append((cur.turn_id, len(cur.layout.breakpoints)))

        route_gap: tuple[int, str] | None = None
        if prev is None:
            comparison = Comparison(0, 0, 0, 0, 0)
            predicted = 0
            write = cold_write(rules, cur) if explicit else breakpoint_write(rules, cur, 0)
            why, detail = "cold-start", wording.COLD_START
            verdict = judge(rules, provenance, why, detail, 0, 0, gap, ttl, miss_reason, missed)
            detail = verdict.reason_detail
            name, where, was, now = "(no earlier request)", "end", None, None
        else:
            comparison = compare(prev, cur)
            d = comparison.index
            where = region(prev, cur, d)
            name = self.namer.name(prev, cur, comparison)
            was, now = context_around(prev, cur, comparison)
            # What a failed request sent never reached the cache: predict from the latest request
            # that succeeded (none: nothing to read).
            source, basis = prev, comparison
            if prev.failed:
                source = state.last_ok
                basis = compare(source, cur) if source is not None else Comparison(0, 0, 0, 0, 0)
            if source is not None and source.model is not None and cur.model is not None and source.model != cur.model:
                source = None  # caches are per model
            if source is None:
                predicted = untimed = 0
                write = cold_write(rules, cur) if explicit else breakpoint_write(rules, cur, 0)
            elif explicit:
                reach = keyed_reach(source, cur, basis.index)[0]
                predicted, write = predict_explicit(rules, source, cur, reach, gap, True)
                untimed, _ = predict_explicit(rules, source, cur, reach, gap, False)
                mark_reads(source, reach, gap, rules)
            else:
                untimed = predict_automatic(rules, basis.shared_tokens, source, cur)
                expired = ttl is not None and gap is not None and gap > ttl
                predicted = 0 if expired else untimed
                write = breakpoint_write(rules, cur, predicted)
            why, detail = reason(self.side, prev, cur, comparison, where, predicted, untimed, gap, ttl, reported)
            verdict = judge(rules, provenance, why, detail, comparison.shared_tokens, predicted, gap, ttl,
                            miss_reason, missed)
            if verdict.reason == "unexplained":
                route_gap = (len(detail), ROUTE_CAUSE)
            elif reported is None or reported < predicted:
                route_gap = (len(detail) if why != "unexplained" else len(verdict.reason_detail), ROUTE_APPENDED)
            why, detail = verdict.reason, verdict.reason_detail
            if prev.failed and why != "model-changed":
                detail += "; " + wording.COMPARED_WITH_FAILED
            state.evidence.collect(prev, cur, where, kind, why, detail, name, was, now)
        cur.shared_tokens = comparison.shared_tokens

        if explicit and cur.layout.breakpoints:
            state.evidence.bp_calls.append((cur.turn_id, breakpoint_locations(cur), cur.bp_reads))
        if kind == "turn" and data_blocks_last(cur):
            state.evidence.data_last.append(cur.turn_id)

        uncached = max(0, total - predicted)
        uncached_cost = uncached_cost_usd(rules, uncached, write,
                                          write_ttl_option([ttl for _, ttl in cur.layout.breakpoints]))
        missed = missed_savings_usd(rules, comparison.shared_tokens, predicted)
        reported_cost = reported_uncached_cost_usd(rules, reported_input, reported)
        return route_gap, CachePair(
            session_id=cur.session_id,
            runtime_id=cur.runtime_id,
            turn_id=cur.turn_id,
            previous_turn_id=prev.turn_id if prev is not None and kind == "turn" else None,
            event_id=cur.event_id,
            previous_event_id=prev.event_id if prev is not None else None,
            kind=kind,
            step=cur.step,
            attempt=cur.attempt,
            model=cur.model,
            provider=cur.provider,
            protocol=cur.protocol,
            started_at=cur.started_at,
            rules=rules,
            token_provenance=provenance,
            shared_chars=comparison.shared_units,
            total_chars=total_units,
            shared_tokens=comparison.shared_tokens,
            total_tokens=total,
            first_difference=name,
            region=where,
            offset=comparison.offset_units,
            was=was,
            now=now,
            predicted_cached_tokens=predicted,
            predicted_cache_write_tokens=write,
            reported_cached_tokens=reported,
            reported_cache_write_tokens=reported_write,
            reported_input_tokens=reported_input,
            gap_seconds=gap,
            ttl_seconds=ttl,
            reason=why,
            reason_detail=detail,
            breakpoints=len(cur.layout.breakpoints),
            uncached_tokens=uncached,
            uncached_cost_usd=uncached_cost,
            reported_uncached_cost_usd=reported_cost,
            missed_savings_usd=missed,
            routing_rate=cur.routing_rate,
            confidence=verdict.confidence,
            provider_miss_reason=verdict.provider_miss_reason,
            provider_missed_tokens=verdict.provider_missed_tokens,
            verdicts_disagree=verdict.verdicts_disagree,
        )
