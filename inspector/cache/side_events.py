"""The rows beside the requests that the analysis reads: responses (usage, failure), compactions
and prunings, per turn and runtime, and the binding of each response to the request it answers
(:func:`inspector.covel.pairing.bind_responses`, Covel's rule).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import orjson

from inspector.cache.calls import Call
from inspector.covel.outcome import response_failed
from inspector.covel.pairing import ResponseBinder
from inspector.json_guards import int_accepting_integral_float
from inspector.store import TokenUsage, TraceEvent
from inspector.store.ordering import order_key
from inspector.store.records import token_usage

__all__ = ["SIDE_EVENTS", "Response", "SideEvents", "response_fields"]


SIDE_EVENTS = ("llm.responded", "context.compacted", "context.pruned")


@dataclass(slots=True)
class Response:
    created_at: str
    attempt: int
    usage: TokenUsage | None
    failed: bool
    written: tuple = ()  # its row's place in write order (inspector.store.ordering.order_key)
    used: bool = False


_RESPONSE_RUNTIME = b'{"runtimeId":"'
_USAGE_KEY = b',"usage":'
_DIAGNOSTICS_KEY = b'"diagnostics":'


def response_fields(ev: Any) -> tuple[str | None, int, Any, bool, Any]:
    """``(runtimeId, attempt, usage, failed, diagnostics)`` of an ``llm.responded`` row without
    parsing the reply text that comes before ``usage`` (covel-db.md §2.2 key order). The text after
    the last ``usage`` key parses as the rest of the top-level object only when that key is the
    top-level one; anything unexpected falls back to the stored payload. So does a row with
    Covel's ``diagnostics``, which come before ``usage``: inside a JSON string a quote is escaped,
    so the bytes ``"diagnostics":`` appear only where some object has that key, and the few rows
    that have them are parsed whole."""
    raw = ev.raw_payload
    if (isinstance(raw, (bytes, bytearray)) and raw.startswith(_RESPONSE_RUNTIME)
            and _DIAGNOSTICS_KEY not in raw):
        end = raw.find(b'"', len(_RESPONSE_RUNTIME))
        p = raw.rfind(_USAGE_KEY)
        if end > 0 and p > end and b"\\" not in raw[len(_RESPONSE_RUNTIME) : end]:
            try:
                tail = orjson.loads(b"{" + raw[p + 1 :])
            except orjson.JSONDecodeError:
                tail = None
            if isinstance(tail, dict) and "attempt" in tail:
                attempt = int_accepting_integral_float(tail.get("attempt")) or 0
                return (raw[len(_RESPONSE_RUNTIME) : end].decode("utf-8", "replace"), attempt, tail.get("usage"),
                        response_failed(tail), None)
    payload = ev.payload
    return ev.runtime_id, ev.attempt or 0, payload.get("usage"), response_failed(payload), payload.get("diagnostics")


def usage_values(usage: TokenUsage | None) -> tuple | None:
    if usage is None:
        return None
    return (usage.input_tokens, usage.output_tokens, usage.cached_input_tokens, usage.cache_write_input_tokens,
            usage.cache_miss_reason, usage.cache_missed_input_tokens)


class SideEvents:
    """What a session's side events say: per (turn, runtime) its responses, the turns compacted,
    the (turn, runtime) pairs pruned, and the ids of the rows read (a resume reads only new ones)."""

    __slots__ = ("responses", "compactions", "prunes", "seen")

    def __init__(self) -> None:
        self.responses: dict[tuple[str, str | None], list[Response]] = {}
        self.compactions: set[str] = set()
        self.prunes: set[tuple[str, str | None]] = set()
        self.seen: set[str] = set()

    def load(self, events: Iterable[TraceEvent]) -> None:
        for ev in events:
            self.seen.add(ev.id)
            if ev.type == "llm.responded":
                runtime_id, attempt, usage_raw, failed, diagnostics = response_fields(ev)
                self.responses.setdefault((ev.turn_id, runtime_id), []).append(
                    Response(ev.created_at, attempt, token_usage(usage_raw, diagnostics), failed, order_key(ev)))
            elif ev.type == "context.compacted":
                self.compactions.add(ev.turn_id)
            else:
                self.prunes.add((ev.turn_id, ev.runtime_id))

    def of_runtime(self, runtime_id: str | None) -> tuple:
        """What the side events say of one runtime (and of the session's compactions), for the
        worker process that pairs it: it need not read and parse them all again."""
        responses = [(turn_id, [(r.created_at, r.attempt, usage_values(r.usage), r.failed, r.written) for r in found])
                     for (turn_id, runtime), found in self.responses.items() if runtime == runtime_id]
        prunes = [turn_id for turn_id, runtime in self.prunes if runtime == runtime_id]
        return runtime_id, responses, prunes, sorted(self.compactions)

    def take(self, handed: tuple) -> None:
        """The worker's side: take what :meth:`of_runtime` gave of one of its runtimes."""
        runtime_id, responses, prunes, compactions = handed
        for turn_id, found in responses:
            self.responses[(turn_id, runtime_id)] = [
                Response(created_at, attempt, None if usage is None else TokenUsage(*usage), failed, written)
                for created_at, attempt, usage, failed, written in found]
        self.prunes.update((turn_id, runtime_id) for turn_id in prunes)
        self.compactions.update(compactions)

    def bind(self, calls: list[Call]) -> None:
        """Give each of one turn's calls (one runtime's) the response that answers it, by Covel's
        rule (:class:`inspector.covel.pairing.ResponseBinder`): the requests' and responses' rows
        walked in write order (``Call.written``, ``Response.written``). A response already bound
        (an earlier flush of the same turn) is not bound again."""
        if not calls:
            return
        responses = self.responses.get((calls[0].turn_id, calls[0].runtime_id), [])
        events: list[tuple[tuple, int, int]] = [(c.written, 0, i) for i, c in enumerate(calls)]
        events += [(r.written, 1, j) for j, r in enumerate(responses) if not r.used]
        events.sort()
        binder: ResponseBinder[Call] = ResponseBinder()
        for _, kind, index in events:
            if kind == 0:
                call = calls[index]
                if call.response_at is None:
                    binder.calling(call.attempt, call)
                continue
            response = responses[index]
            answered = binder.response(response.attempt)
            if answered is not None:
                answered.usage = response.usage
                answered.response_at = response.created_at
                answered.failed = response.failed
                response.used = True
