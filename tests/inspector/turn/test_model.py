"""The turn model's records: the one runtime lifecycle rule, shared with the navigator's views."""

from __future__ import annotations

import json

from turn_rows import MAIN, demo_turn, ts

from inspector import views
from inspector.covel.outcome import response_failed
from inspector.turn.builder import build_turn
from inspector.turn.model import RuntimeLifecycle


def test_runtime_lifecycle_rule() -> None:
    from inspector.store import TraceEvent

    def row(etype: str, payload: dict, at: int) -> TraceEvent:
        return TraceEvent(f"e{at}", "s", etype, "t", "t", ts(at), 0, json.dumps(payload))

    life = RuntimeLifecycle()
    assert life.apply(row("llm.calling", {"runtimeId": "a"}, 1)) is False and life.status is None
    life.apply(row("runtime.started", {"runtimeId": "a", "stage": "post-turn"}, 2))
    assert (life.status, life.terminal, life.stage) == ("started", False, "post-turn")
    life.apply(row("runtime.deferred", {"runtimeId": "a", "reason": "detached"}, 3))
    assert (life.status, life.reason, life.terminal) == ("deferred", "detached", True)
    life.apply(row("runtime.started", {"runtimeId": "a", "stage": "audit"}, 4))
    assert (life.status, life.stage, life.started_at) == ("deferred", "post-turn", ts(2))
    life.apply(row("runtime.completed", {"runtimeId": "a", "durationMs": 9}, 5))
    assert (life.status, life.duration_ms, life.ended_at, life.end_event_id) == ("completed", 9, ts(5), "e5")


def test_views_use_the_same_runtime_status_rule(demo, executions) -> None:
    for index in (1, 4, 5):
        turn = demo_turn(demo, executions, index)
        groups = views.turn_runtime_groups(demo, MAIN, turn.turn_id)
        assert {g["runtimeId"]: g["status"] for g in groups} == {
            r.runtime_id: r.status for r in turn.runtimes()}
        assert {g["runtimeId"]: g["stage"] for g in groups} == {r.runtime_id: r.stage for r in turn.runtimes()}


def test_a_call_failed_by_the_one_outcome_rule(demo, executions) -> None:
    # covel-db.md §2.2: a failed request's response says finishReason "error" (with the message).
    calls = [(t.number, r.runtime_id, c) for t in executions
             for r in build_turn(demo, MAIN, t.turn_id).runtimes() for c in r.calls]
    failed = [(n, rid) for n, rid, c in calls if c.failed]
    assert failed == [(3, "narrator/main"), (5, "world-init/dimension-tracker")]
    for _n, _rid, c in calls:
        assert c.failed == response_failed(c.call.response.payload if c.call.response else None)
        assert c.failed == (c.finish_reason == "error")
