"""The rules the cache analysis shares with the store, each in one place: usage -> token usage
(inspector.store.records.token_usage), which response answers which request
(inspector.covel.pairing.ResponseBinder) and whether a request failed (inspector.covel.outcome).
The analysis's fast reading of a response row must give what the store's reading gives."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.cache.side_events import SideEvents, response_fields
from inspector.covel.outcome import response_failed
from inspector.covel.pairing import ResponseBinder
from inspector.store import TraceEvent
from inspector.store.calls import pair_llm_calls
from inspector.store.ordering import order_key
from inspector.store.records import token_usage


def event(n: int, etype: str, payload: dict[str, Any], *, turn: str = "t") -> TraceEvent:
    return TraceEvent(f"e{n:04d}", "s", etype, "tr", turn, f"2026-10-06T08:00:{n // 100:02d}.{n % 100:02d}0Z", n,
                      orjson.dumps(payload))


_USAGE_VALUES = [3, 0, 3.0, 2.5, True, "3", None, -1, 2**60]


@pytest.mark.parametrize("value", _USAGE_VALUES)
def test_usage_reads_the_same_in_the_store_and_the_analysis(value):
    usage = {"inputTokens": value, "outputTokens": 1, "cachedInputTokens": value, "cacheWriteInputTokens": 2.0}
    payload = {"runtimeId": "r", "text": "…", "usage": usage, "finishReason": "stop", "attempt": 0}
    calling = event(1, "llm.calling", {"runtimeId": "r", "attempt": 0, "startedAt": "x"})
    responded = event(2, "llm.responded", payload)
    store_usage = pair_llm_calls([calling, responded])[0].usage
    side = SideEvents()
    side.load([responded])
    assert side.responses[("t", "r")][0].usage == store_usage == token_usage(usage)


@pytest.mark.parametrize("usage", [None, [], "usage", 3])
def test_usage_that_is_not_an_object_is_none_in_both(usage):
    responded = event(2, "llm.responded", {"runtimeId": "r", "usage": usage, "attempt": 0})
    calling = event(1, "llm.calling", {"runtimeId": "r", "attempt": 0})
    side = SideEvents()
    side.load([responded])
    assert pair_llm_calls([calling, responded])[0].usage is None
    assert side.responses[("t", "r")][0].usage is None


@pytest.mark.parametrize(("finish", "attempt"), [("error", 0), ("stop", 1), (None, 1.0), ("ERROR", 2), ("error", True)])
def test_the_fast_response_reading_equals_the_stored_payload(finish, attempt):
    payload = {"runtimeId": "r", "text": 'a "usage": {} ,"usage":', "usage": {"inputTokens": 5}, "attempt": attempt}
    if finish is not None:
        payload["finishReason"] = finish
    ev = event(1, "llm.responded", payload)
    fast = response_fields(ev)
    stored = SimpleNamespace(raw_payload=None, payload=ev.payload, runtime_id=ev.runtime_id, attempt=ev.attempt)
    assert fast == response_fields(stored)
    assert fast[3] is response_failed(ev.payload)


@pytest.mark.parametrize(("diagnostics", "expected"), [
    ({"cacheMissReason": {"type": "system_changed"}, "cacheMissedInputTokens": 1200}, ("system_changed", 1200)),
    ({"cache": {"cache_miss_reason": {"type": "tools_changed"}, "cache_missed_input_tokens": 800.0}},
     ("tools_changed", 800)),
    ({"cache": {"hit": False}, "latencyMs": 3}, (None, None)),
    ("diagnostics as text", (None, None)),
])
def test_covels_response_diagnostics_carry_the_providers_verdict_in_both_readings(diagnostics, expected):
    """Covel's ``diagnostics`` come before ``usage``: the fast reading gives way to the stored
    payload for such a row, so both give the same verdict, and a reason in the usage wins."""
    usage = {"inputTokens": 1500, "cachedInputTokens": 0}
    payload = {"runtimeId": "r", "text": 'says "diagnostics": {}', "diagnostics": diagnostics, "usage": usage,
               "attempt": 0}
    responded = event(2, "llm.responded", payload)
    calling = event(1, "llm.calling", {"runtimeId": "r", "attempt": 0})
    side = SideEvents()
    side.load([responded])
    from_side = side.responses[("t", "r")][0].usage
    assert from_side == pair_llm_calls([calling, responded])[0].usage
    assert (from_side.cache_miss_reason, from_side.cache_missed_input_tokens) == expected
    in_usage = {**usage, "cacheMissReason": "model_changed"}
    assert token_usage(in_usage, diagnostics).cache_miss_reason == "model_changed"


def test_the_word_diagnostics_inside_the_reply_text_keeps_the_fast_reading():
    """Inside a JSON string the quotes are escaped: the bytes ``"diagnostics":`` are not there."""
    ev = event(1, "llm.responded", {"runtimeId": "r", "text": 'a "diagnostics": 1', "usage": {"inputTokens": 5},
                                    "attempt": 0})
    assert b'"diagnostics":' not in ev.raw_payload
    assert response_fields(ev)[2] == {"inputTokens": 5}


# A turn's rows in write order: ("c", attempt) a request, ("r", attempt) a response.
_ROWS = st.lists(st.tuples(st.sampled_from("cr"), st.integers(min_value=0, max_value=2)), max_size=14)


@settings(max_examples=300, deadline=None)
@given(_ROWS)
def test_the_store_and_the_analysis_bind_the_same_responses(rows):
    events = []
    for n, (kind, attempt) in enumerate(rows):
        if kind == "c":
            events.append(event(n, "llm.calling", {"runtimeId": "r", "attempt": attempt}))
        else:
            events.append(event(n, "llm.responded", {"runtimeId": "r", "attempt": attempt, "usage": {}}))
    by_store = {call.calling.id: call.response.id if call.response is not None else None
                for call in pair_llm_calls(events)}

    side = SideEvents()
    side.load([ev for ev in events if ev.type == "llm.responded"])
    # The analysis walks the rows in write order, as the store does (Call.written).
    calls = [SimpleNamespace(turn_id="t", runtime_id="r", attempt=ev.attempt or 0, written=order_key(ev),
                             response_at=None, usage=None, failed=False, event_id=ev.id)
             for ev in events if ev.type == "llm.calling"]
    side.bind(calls)  # type: ignore[arg-type]
    response_at = {ev.created_at: ev.id for ev in events if ev.type == "llm.responded"}
    by_analysis = {c.event_id: response_at.get(c.response_at) for c in calls}
    assert by_analysis == by_store

    binder: ResponseBinder[str] = ResponseBinder()
    by_binder: dict[str, str | None] = {ev.id: None for ev in events if ev.type == "llm.calling"}
    for ev in events:
        if ev.type == "llm.calling":
            binder.calling(ev.attempt or 0, ev.id)
        else:
            answered = binder.response(ev.attempt or 0)
            if answered is not None:
                by_binder[answered] = ev.id
    assert by_binder == by_store


def test_a_response_binds_to_the_latest_waiting_request_of_its_attempt():
    binder: ResponseBinder[str] = ResponseBinder()
    binder.calling(0, "a")
    binder.calling(1, "b")
    binder.calling(0, "c")
    assert binder.response(0) == "c"
    assert binder.response(0) == "a"
    assert binder.response(0) is None
    assert binder.response(2) is None
    assert binder.response(1) == "b"


@pytest.mark.parametrize("attempt", [0, 1, 2.0, True, "1", None])
def test_a_requests_attempt_reads_as_the_store_reads_it(attempt):
    from inspector.cache.payload import decode_payload

    payload = {"providerRequests": [{"provider": "openai", "protocol": "openai-chat-v1",
                                     "body": {"model": "m", "messages": []}, "complete": True}],
               "model": "m", "runtimeId": "r", "messages": [], "attempt": attempt}
    calling = event(1, "llm.calling", payload)
    assert decode_payload(calling.raw_payload).attempt == (calling.attempt or 0)
    assert decode_payload(orjson.dumps({**payload, "providerRequests": []})).attempt == (calling.attempt or 0)


def test_the_providers_miss_reason_survives_the_hand_over_to_the_worker():
    usage = {"inputTokens": 9, "cachedInputTokens": 0,
             "cache_miss_reason": {"type": "system_changed"}, "cache_missed_input_tokens": 1200}
    side = SideEvents()
    side.load([event(1, "llm.responded", {"runtimeId": "r", "text": "…", "usage": usage, "finishReason": "stop",
                                          "attempt": 0})])
    worker = SideEvents()
    worker.take(side.of_runtime("r"))
    read = worker.responses[("t", "r")][0].usage
    assert read == side.responses[("t", "r")][0].usage
    assert (read.cache_miss_reason, read.cache_missed_input_tokens) == ("system_changed", 1200)
