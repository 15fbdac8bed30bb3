"""A turn's summary: counts by status, tokens, and the input cost priced by the cache analysis's
own formula (inspector.cache.pricing), a 1-hour cache write at its own multiplier."""

from __future__ import annotations

import pytest
from turn_rows import MAIN, demo_turn

from inspector.cache.analysis import analyse_session
from inspector.cache.layout import build_layout
from inspector.cache.parts import PartTable
from inspector.cache.payload import full_decode
from inspector.cache.pricing import input_cost_usd, write_ttl_option
from inspector.cache.rules import default_rules
from inspector.turn.builder import build_turn
from inspector.turn.summary import call_input_cost_usd, summarize, write_ttl

MODEL = "claude-sonnet-4-5"
EPHEMERAL_1H = {"type": "ephemeral", "ttl": "1h"}
EPHEMERAL = {"type": "ephemeral"}


def anthropic_request(system_cc: dict, message_cc: dict | None) -> dict:
    message = {"type": "text", "text": "what now?"}
    if message_cc is not None:
        message["cache_control"] = message_cc
    body = {"model": MODEL, "max_tokens": 100,
            "tools": [{"name": "look", "input_schema": {"type": "object"}, "cache_control": EPHEMERAL}],
            "system": [{"type": "text", "text": "You are the narrator. " * 200, "cache_control": system_cc}],
            "messages": [{"role": "user", "content": [message]}]}
    return {"provider": "anthropic", "protocol": "anthropic-messages-v1", "body": body, "complete": True,
            "startedAt": "2026-10-06T08:00:00.000Z", "durationMs": 5, "transportAttempt": 0, "statusCode": 200}


def test_demo_summary_counts(demo, executions) -> None:
    turn = demo_turn(demo, executions, 4)
    s = summarize(turn)
    assert (s.runtimes, s.ran, s.succeeded, s.failed, s.skipped) == (5, 5, 4, 1, 0)
    assert s.failures[0][0] == "world-init/dimension-tracker" and "502" in s.failures[0][1]
    calls = [c for r in turn.runtimes() for c in r.calls]
    assert s.calls == len(calls) and s.retries == sum(1 for c in calls if c.attempt > 0)
    assert s.input_tokens == sum(c.usage.input_tokens for c in calls)
    assert [t.name for t in s.tools] == ["character-upsert"] and s.story and s.player


@pytest.fixture
def anthropic_turn(db):
    """Two Anthropic calls: the first writes with a 1-hour TTL, the second with the default."""
    usage = {"inputTokens": 10_000, "outputTokens": 5, "cachedInputTokens": 2_000, "cacheWriteInputTokens": 5_000}
    db.started("t", "n/main", "narrative", at=0)
    db.call("t", "n/main", at=10, usage=usage, model=MODEL, provider="anthropic",
            providerRequests=[anthropic_request(EPHEMERAL, EPHEMERAL_1H)])
    db.call("t", "n/main", at=20, usage=usage, model=MODEL, provider="anthropic",
            providerRequests=[anthropic_request(EPHEMERAL_1H, EPHEMERAL)])
    db.completed("t", "n/main", at=30)
    store = db.open()
    yield store, build_turn(store, "s", "t")
    store.close()


def test_a_one_hour_write_is_priced_at_its_own_multiplier(anthropic_turn) -> None:
    _, turn = anthropic_turn
    first, second = turn.runtime("n/main").calls
    rules = default_rules().resolve("anthropic", "anthropic-messages-v1", MODEL)
    price = rules.input_price_per_mtok
    assert price is not None and rules.write_multiplier_for("1h") == 2.0 and rules.write_multiplier_for(None) == 1.25
    # Render order is tools, system, messages: the last breakpoint's TTL prices the write.
    assert write_ttl(first.call.calling.payload) == "1h"
    assert write_ttl(second.call.calling.payload) is None
    assert call_input_cost_usd(first) == pytest.approx((3_000 + 2_000 * 0.1 + 5_000 * 2.0) * price / 1e6)
    assert call_input_cost_usd(second) == pytest.approx((3_000 + 2_000 * 0.1 + 5_000 * 1.25) * price / 1e6)
    s = summarize(turn)
    assert s.input_cost_usd == call_input_cost_usd(first) + call_input_cost_usd(second)
    assert s.cache_write_tokens == 10_000 and s.unpriced_calls == 0


def test_the_stepper_costs_what_the_cache_analysis_costs(anthropic_turn) -> None:
    store, turn = anthropic_turn
    calls = {c.event_id: c for c in turn.runtime("n/main").calls}
    pairs = analyse_session(store, "s").pairs
    assert sorted(p.event_id for p in pairs) == sorted(calls)
    analysis_total = 0.0
    for pair in pairs:
        call = calls[pair.event_id]
        # The analysis's own reading of the request: its rules and its layout's breakpoints.
        payload = call.call.calling.payload
        layout = build_layout(full_decode(payload), PartTable(), pair.rules, None)
        ttls = [ttl for _, ttl in layout.breakpoints]
        assert write_ttl(payload) == write_ttl_option(ttls)
        cost = input_cost_usd(pair.rules, pair.reported_input_tokens, pair.reported_cached_tokens,
                              pair.reported_cache_write_tokens, write_ttl_option(ttls))
        assert call_input_cost_usd(call) == cost
        analysis_total += cost
    assert summarize(turn).input_cost_usd == analysis_total


def test_unpriced_models_and_calls_without_usage(db) -> None:
    db.started("t", "n/main", "narrative", at=0)
    db.call("t", "n/main", at=10)  # model "m" of provider "p": no price in the shipped rules
    db.completed("t", "n/main", at=30)
    with db.open() as store:
        s = summarize(build_turn(store, "s", "t"))
    assert s.input_cost_usd is None and s.unpriced_calls == 1 and s.calls == 1 and s.input_tokens == 10


def test_main_session_is_priced_like_before(demo, executions) -> None:
    # DeepSeek caches automatically: no breakpoints, the family's one write multiplier.
    turn = demo_turn(demo, executions, 0)
    assert turn.session_id == MAIN
    for call in (c for r in turn.runtimes() for c in r.calls):
        rules = default_rules().resolve(call.provider, call.protocol, call.model)
        u = call.usage
        plain = max(0, u.input_tokens - (u.cached_input_tokens or 0) - (u.cache_write_input_tokens or 0))
        expected = (plain + (u.cached_input_tokens or 0) * rules.read_multiplier
                    + (u.cache_write_input_tokens or 0) * rules.write_multiplier) * rules.input_price_per_mtok / 1e6
        assert write_ttl(call.call.calling.payload) is None
        assert call_input_cost_usd(call) == pytest.approx(expected)
