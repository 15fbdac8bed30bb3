"""The turn model's records: the one runtime lifecycle rule, shared with the navigator's views."""

from __future__ import annotations

import json

from turn_rows import MAIN, demo_turn, ts

from inspector import views
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
