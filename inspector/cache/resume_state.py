"""A finished analysis's resume state as plain JSON, so a kept analysis can go on in a new process
from where it ended (:meth:`inspector.cache.analysis.SessionCacheAnalyser.restored`).

A runtime's state is mostly numbers and strings: its totals, its layout evidence, where its turn
stands. The exceptions are its *live calls*: the requests later ones are compared with (the last
one, the last that succeeded, its turn's first) and those of its pending turn. They hold parsed
layouts and token counts, so they are not written down: each is named by its event id with the
few values the analysis changed on it (its response, its step, which of its breakpoints later
requests read), and the analyser reads its row again and builds it anew. What the layout
evidence shares with a call (the set of its breakpoints read, which a later pair adds to) is
shared again when it is read back.

The JSON is read back from a folder anyone could have written, so it is never unpickled or
evaluated: :func:`parse_state` checks every value's type and shape and raises :class:`StateError`
on the first that is wrong; the caller then analyses the session afresh.
"""

from __future__ import annotations

import dataclasses
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from inspector.cache.findings import LayoutEvidence, PairEvidence
from inspector.cache.results import RuntimeSummary
from inspector.cache.rules import CacheRules
from inspector.store import TokenUsage

__all__ = ["FORMAT", "CallFacts", "ParsedState", "RuntimeFacts", "StateError", "parse_state", "part_doc",
           "restore_evidence", "state_doc"]

FORMAT = 1

_ROLES = ("last", "lastOk", "turnFirst", "lastRead")
_SUMMARY_FIELDS = tuple(f.name for f in dataclasses.fields(RuntimeSummary))
_USAGE_FIELDS = tuple(f.name for f in dataclasses.fields(TokenUsage))


class StateError(ValueError):
    """A resume state that cannot be used: malformed, or not what this version writes."""


# ----------------------------------------------------------------------------- writing


def state_doc(states: Iterable[Any], rows: int, routes: dict[tuple, deque], cursor: Any,
              side_seen: Iterable[str], worker_part: dict[str, Any] | None = None,
              routing_rates: dict[str, int | None] | None = None) -> dict[str, Any] | None:
    """The JSON form of an analyser's state after :meth:`pairs` or :meth:`resume` ran to its end:
    ``states`` its runtimes' (:class:`inspector.cache.pairs.RuntimeState`, in the order of their
    first requests), ``rows`` the rows read, ``routes`` its route loads
    (:class:`inspector.cache.routing.Routes`), ``cursor`` its
    :class:`inspector.cache.resume.ResumeCursor`, ``side_seen`` the side events read;
    ``worker_part`` the :func:`part_doc` of the runtimes the worker process paired, when the
    analysis was shared with it, and ``routing_rates`` the routing rate of each request's pair by
    its event id (a shared analysis counts them where both sides' rows meet, not on the calls).
    None when the state holds something JSON cannot say (a value of
    an odd type from an odd store)."""
    try:
        runtimes = [_runtime_doc(state) for state in states]
        read_turns = {tuple(turn) for turn in cursor.read_turns}
        if worker_part is not None:
            runtimes = sorted(runtimes + worker_part["runtimes"], key=lambda doc: doc["firstRow"])
            read_turns.update(tuple(turn) for turn in worker_part["readTurns"])
        if routing_rates is not None:
            for call in (call for runtime in runtimes for call in runtime["calls"]):
                call["routingRate"] = routing_rates.get(call["event"], call["routingRate"])
        doc = {
            "format": FORMAT,
            "rows": rows,
            "runtimes": runtimes,
            "routes": [[route[0], _hex(route[1]), _hex(route[2]), list(times)] for route, times in routes.items()],
            "cursor": {"seen": sorted(_texts(cursor.calls_seen)),
                       "readTurns": sorted(([_text(t), _text_or_none(r)] for t, r in read_turns), key=str),
                       "lastEvent": _text_or_none(cursor.last_event_id), "key": cursor.cursor,
                       "lastOrder": list(cursor.last_order) if cursor.last_order is not None else None},
            "sideSeen": sorted(_texts(side_seen)),
        }
    except _Unsayable:
        return None
    return doc


def part_doc(states: Iterable[Any], read_turns: Iterable[tuple]) -> dict[str, Any] | None:
    """The worker process's part of a shared analysis's state (:func:`state_doc`): its runtimes
    and the (turn, runtime) pairs it read. None when JSON cannot say it."""
    try:
        return {"runtimes": [_runtime_doc(state) for state in states],
                "readTurns": [[_text(t), _text_or_none(r)] for t, r in read_turns]}
    except _Unsayable:
        return None


class _Unsayable(Exception):
    """A value the JSON form cannot hold."""


def _hex(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, bytes):
        raise _Unsayable
    return value.hex()


def _runtime_doc(state: Any) -> dict[str, Any]:
    live: list[Any] = []  # the live calls, each once, in row order

    def index(call: Any) -> int | None:
        if call is None:
            return None
        for i, seen in enumerate(live):
            if seen is call:
                return i
        live.append(call)
        return len(live) - 1

    roles = {role: index(call) for role, call in zip(
        _ROLES, (state.last, state.last_ok, state.turn_first, state.last_read), strict=True)}
    pending = [index(call) for call in state.pending]
    order = sorted(range(len(live)), key=lambda i: live[i].row)
    moved = {old: new for new, old in enumerate(order)}
    evidence = state.evidence
    reads_of = {id(e.reads): e.event_id for e in evidence.priced}
    for call in live:
        reads_of.setdefault(id(call.bp_reads), call.event_id)
    bp_calls = []
    for turn_id, locations, reads in evidence.bp_calls:
        owner = reads_of.get(id(reads))
        if owner is None:
            raise _Unsayable
        bp_calls.append([turn_id, [list(loc) for loc in locations], owner])
    summary = [getattr(state.summary, name) for name in _SUMMARY_FIELDS]
    summary[_SUMMARY_FIELDS.index("reasons")] = [list(item) for item in state.summary.reasons.items()]
    return {
        "runtime": _text_or_none(state.runtime_id),
        "firstRow": state.first_row,
        "turn": _text_or_none(state.turn_id),
        "step": state.step,
        "calls": [_call_doc(live[i]) for i in order],
        "roles": {role: moved[i] if i is not None else None for role, i in roles.items()},
        "pending": [moved[i] for i in pending],
        "summary": summary,
        "evidence": {
            "turnPairs": evidence.turn_pairs,
            "historyMoves": list(evidence.history_moves),
            "sliding": list(evidence.sliding),
            "systemChanges": [list(item) for item in evidence.system_changes],
            "dataLast": list(evidence.data_last),
            "tooMany": [list(item) for item in evidence.too_many],
            "bpCalls": bp_calls,
            "priced": [_priced_doc(e) for e in evidence.priced],
            "examples": evidence.examples,
        },
    }


def _text_or_none(value: Any) -> str | None:
    if value is not None and not isinstance(value, str):
        raise _Unsayable
    return value


def _text(value: Any) -> str:
    """An id the state names: text (a store of odd shape may hold others; such a state is not kept)."""
    if not isinstance(value, str):
        raise _Unsayable
    return value


def _texts(values: Iterable[Any]) -> list[str]:
    return [_text(value) for value in values]


def _call_doc(call: Any) -> dict[str, Any]:
    usage = call.usage
    return {"event": _text(call.event_id), "row": call.row, "step": call.step, "written": list(call.written),
            "usage": None if usage is None else [getattr(usage, name) for name in _USAGE_FIELDS],
            "responseAt": call.response_at, "failed": call.failed, "shared": call.shared_tokens,
            "routingRate": call.routing_rate, "reads": sorted(call.bp_reads)}


def _priced_doc(e: PairEvidence) -> list[Any]:
    return [e.turn_id, e.event_id, e.previous_event_id, e.gap, e.write_ttl, e.input_tokens, e.cached_tokens,
            e.written_tokens, e.shared_tokens, e.total_tokens, [list(s) for s in e.short_breakpoints],
            [[j, n] for j, n in e.breakpoint_ends.items()], sorted(e.reads)]


# ----------------------------------------------------------------------------- reading


@dataclass(slots=True)
class CallFacts:
    """A live call as the state names it; its row is read again to build it."""

    event_id: str
    row: int
    step: int
    written: tuple[str, int, str]
    usage: TokenUsage | None
    response_at: str | None
    failed: bool
    shared_tokens: int | None
    routing_rate: int | None
    reads: set[int]


@dataclass(slots=True)
class RuntimeFacts:
    runtime_id: str | None
    first_row: int
    turn_id: str | None
    step: int
    calls: list[CallFacts]  # in row order
    roles: dict[str, int | None]  # "last", "lastOk", "turnFirst", "lastRead" -> index into calls
    pending: list[int]
    summary: RuntimeSummary
    # the evidence, its priced entries and breakpoint calls still to be given their reads sets
    evidence: dict[str, Any]


@dataclass(slots=True)
class ParsedState:
    rows: int
    runtimes: list[RuntimeFacts]
    routes: dict[tuple, deque]
    calls_seen: set[str]
    read_turns: set[tuple[str, str | None]]
    last_event_id: str | None
    cursor: int | None
    last_order: tuple[str, int, str] | None
    side_seen: set[str]


def parse_state(doc: Any, session_id: str) -> ParsedState:
    """The resume state ``doc`` checked value by value (:class:`StateError` on the first wrong
    one)."""
    doc = _dict(doc, "the resume state")
    if doc.get("format") != FORMAT:
        raise StateError(f"its resume state's format is {doc.get('format')!r}, not {FORMAT}")
    cursor = _dict(doc.get("cursor"), "its cursor")
    routes: dict[tuple, deque] = {}
    for item in _list(doc.get("routes"), "its routes"):
        model, key, digest, times = _list(item, "a route", 4)
        route = (_opt_str(model, "a route's model"), _opt_bytes(key), _bytes(digest))
        routes[route] = deque(_number(t, "a route's time") for t in _list(times, "a route's times"))
    last_order = cursor.get("lastOrder")
    return ParsedState(
        rows=_int(doc.get("rows"), "its row count"),
        runtimes=[_runtime(item, session_id) for item in _list(doc.get("runtimes"), "its runtimes")],
        routes=routes,
        calls_seen={_str(e, "a request seen") for e in _list(cursor.get("seen"), "the requests seen")},
        read_turns={(_str(t, "a turn read"), _opt_str(r, "a runtime read"))
                    for t, r in (_list(item, "a turn read", 2) for item in _list(cursor.get("readTurns"), "turns"))},
        last_event_id=_opt_str(cursor.get("lastEvent"), "the last request"),
        cursor=None if cursor.get("key") is None else _int(cursor.get("key"), "the cursor"),
        last_order=None if last_order is None else _order(last_order),
        side_seen={_str(e, "a side event seen") for e in _list(doc.get("sideSeen"), "the side events seen")},
    )


def _runtime(doc: Any, session_id: str) -> RuntimeFacts:
    doc = _dict(doc, "a runtime")
    calls = [_call(item) for item in _list(doc.get("calls"), "its calls")]
    rows = [c.row for c in calls]
    if rows != sorted(set(rows)):
        raise StateError("its calls are not in row order")
    roles_doc = _dict(doc.get("roles"), "its roles")
    roles = {role: None if roles_doc.get(role) is None else _index(roles_doc.get(role), len(calls))
             for role in _ROLES}
    values = _list(doc.get("summary"), "its summary", len(_SUMMARY_FIELDS))
    at = _SUMMARY_FIELDS.index("reasons")
    reasons = Counter({_str(k, "a reason"): _int(n, "a reason's count")
                       for k, n in (_list(item, "a reason", 2) for item in _list(values[at], "its reasons"))})
    summary = RuntimeSummary(**{**dict(zip(_SUMMARY_FIELDS, values, strict=True)), "reasons": reasons})
    _check_summary(summary, session_id)
    return RuntimeFacts(
        runtime_id=_opt_str(doc.get("runtime"), "its runtime"),
        first_row=_int(doc.get("firstRow"), "its first row"),
        turn_id=_opt_str(doc.get("turn"), "its turn"),
        step=_int(doc.get("step"), "its step"),
        calls=calls,
        roles=roles,
        pending=[_index(i, len(calls)) for i in _list(doc.get("pending"), "its pending turn")],
        summary=summary,
        evidence=_evidence(doc.get("evidence")),
    )


def _check_summary(summary: RuntimeSummary, session_id: str) -> None:
    if summary.session_id != session_id:
        raise StateError("its summary is another session's")
    _opt_str(summary.runtime_id, "its summary's runtime")
    for name in ("pairs", "turns", "total_tokens", "shared_tokens", "predicted_cached_tokens",
                 "reported_cached_tokens", "reported_pairs"):
        _int(getattr(summary, name), f"its summary's {name}")
    for name in ("uncached_cost_usd", "reported_uncached_cost_usd", "missed_savings_usd"):
        _number(getattr(summary, name), f"its summary's {name}")
    if type(summary.priced) is not bool:
        raise StateError("its summary is malformed")


def _call(doc: Any) -> CallFacts:
    doc = _dict(doc, "a call")
    usage = doc.get("usage")
    if usage is not None:
        values = _list(usage, "a call's usage", len(_USAGE_FIELDS))
        usage = TokenUsage(*(v if isinstance(v, str) and name == "cache_miss_reason" else _opt_int(v, "a usage value")
                             for name, v in zip(_USAGE_FIELDS, values, strict=True)))
    failed = doc.get("failed")
    if type(failed) is not bool:
        raise StateError("a call's failure is malformed")
    return CallFacts(
        event_id=_str(doc.get("event"), "a call's event"),
        row=_int(doc.get("row"), "a call's row"),
        step=_int(doc.get("step"), "a call's step"),
        written=_order(doc.get("written")),
        usage=usage,
        response_at=_opt_str(doc.get("responseAt"), "a call's response time"),
        failed=failed,
        shared_tokens=_opt_int(doc.get("shared"), "a call's shared tokens"),
        routing_rate=_opt_int(doc.get("routingRate"), "a call's routing rate"),
        reads={_int(j, "a breakpoint read") for j in _list(doc.get("reads"), "a call's reads")},
    )


def _evidence(doc: Any) -> dict[str, Any]:
    doc = _dict(doc, "its evidence")
    examples = _dict(doc.get("examples"), "its examples")
    for example in examples.values():
        for value in _dict(example, "an example").values():
            _opt_str(value, "an example's value")
    return {
        "turn_pairs": _int(doc.get("turnPairs"), "its turn pairs"),
        "history_moves": _strs(doc.get("historyMoves")),
        "sliding": _strs(doc.get("sliding")),
        "system_changes": [(_str(a, "a change"), _str(b, "a change")) for a, b in
                           (_list(item, "a change", 2) for item in _list(doc.get("systemChanges"), "changes"))],
        "data_last": _strs(doc.get("dataLast")),
        "too_many": [(_str(a, "a turn"), _int(b, "a breakpoint count")) for a, b in
                     (_list(item, "a count", 2) for item in _list(doc.get("tooMany"), "counts"))],
        "bp_calls": [(_str(t, "a turn"), [_location(loc) for loc in _list(locs, "locations")], _str(owner, "a call"))
                     for t, locs, owner in (_list(item, "a breakpoint call", 3)
                                            for item in _list(doc.get("bpCalls"), "breakpoint calls"))],
        "priced": [_priced(item) for item in _list(doc.get("priced"), "its priced pairs")],
        "examples": examples,
    }


def _priced(doc: Any) -> tuple:
    (turn_id, event_id, previous, gap, write_ttl, input_tokens, cached, written, shared, total, short, ends,
     reads) = _list(doc, "a priced pair", 13)
    return (_str(turn_id, "a turn"), _str(event_id, "an event"), _opt_str(previous, "an event"),
            None if gap is None else _number(gap, "a gap"), _opt_str(write_ttl, "a ttl"),
            _int(input_tokens, "tokens"), _int(cached, "tokens"), _int(written, "tokens"), _int(shared, "tokens"),
            _int(total, "tokens"), [_location(loc) for loc in _list(short, "short breakpoints")],
            {_int(j, "a part"): _int(n, "tokens") for j, n in (_list(e, "an end", 2) for e in _list(ends, "ends"))},
            {_int(j, "a breakpoint read") for j in _list(reads, "reads")})


def restore_evidence(parsed: dict[str, Any], reads_of: dict[str, set[int]],
                     rules_of: Callable[[str], CacheRules]) -> LayoutEvidence:
    """The :class:`LayoutEvidence` of :func:`parse_state`'s ``evidence``: ``reads_of`` gives the
    live calls' breakpoint-read sets by event id (shared with the evidence, as in the analysis
    that wrote the state), ``rules_of`` a priced pair's rules by its event id."""
    evidence = LayoutEvidence()
    for name in ("turn_pairs", "history_moves", "sliding", "system_changes", "data_last", "too_many", "examples"):
        setattr(evidence, name, parsed[name])
    for values in parsed["priced"]:
        event_id, reads = values[1], values[12]
        shared = reads_of.setdefault(event_id, reads)
        shared.update(reads)
        evidence.priced.append(PairEvidence.restored(values[:12], rules_of(event_id), shared))
    for turn_id, locations, owner in parsed["bp_calls"]:
        evidence.bp_calls.append((turn_id, locations, reads_of.setdefault(owner, set())))
    return evidence


# ----------------------------------------------------------------------------- value checks


def _dict(value: Any, what: str) -> dict[str, Any]:
    if type(value) is not dict:
        raise StateError(f"{what} is malformed")
    return value


def _list(value: Any, what: str, length: int | None = None) -> list[Any]:
    if type(value) is not list or (length is not None and len(value) != length):
        raise StateError(f"{what} is malformed")
    return value


def _str(value: Any, what: str) -> str:
    if type(value) is not str:
        raise StateError(f"{what} is malformed")
    return value


def _opt_str(value: Any, what: str) -> str | None:
    return None if value is None else _str(value, what)


def _strs(value: Any) -> list[str]:
    return [_str(v, "a turn") for v in _list(value, "turns")]


def _int(value: Any, what: str) -> int:
    if type(value) is not int:
        raise StateError(f"{what} is malformed")
    return value


def _opt_int(value: Any, what: str) -> int | None:
    return None if value is None else _int(value, what)


def _number(value: Any, what: str) -> float:
    if type(value) not in (int, float):
        raise StateError(f"{what} is malformed")
    return value


def _index(value: Any, length: int) -> int:
    if type(value) is not int or not 0 <= value < length:
        raise StateError("a call index is out of range")
    return value


def _bytes(value: Any) -> bytes:
    try:
        return bytes.fromhex(_str(value, "a route key"))
    except ValueError:
        raise StateError("a route key is malformed") from None


def _opt_bytes(value: Any) -> bytes | None:
    return None if value is None else _bytes(value)


def _order(value: Any) -> tuple[str, int, str]:
    created, seq, event_id = _list(value, "a write-order key", 3)
    return (_str(created, "a time"), _int(seq, "a sequence number"), _str(event_id, "an event"))


def _location(value: Any) -> tuple[str, int]:
    where, n = _list(value, "a breakpoint location", 2)
    return (_str(where, "a location"), _int(n, "a part index"))
