"""Building a turn: on the demo database, and on purpose-built event sequences."""

from __future__ import annotations

import json
import sqlite3

import pytest
from turn_rows import MAIN, POST_TURN, demo_turn, ts

from inspector.store import open_store
from inspector.turn.builder import build_turn
from inspector.turn.model import STAGE_ORDER, TurnNotFoundError
from inspector.turn.outline import turn_outline


def test_demo_turn_stages_groups_and_tool_loop(demo, executions) -> None:
    turn = demo_turn(demo, executions, 0)
    assert (turn.origin, turn.commit_status, turn.commit_source) == ("player", "committed", "turn_results")
    assert [s.name for s in turn.stages] == ["pre-turn", "narrative", "post-turn"]
    assert turn.unstaged == [] and turn.retry is None and turn.runtime_count == 5
    pre, narrative, post = turn.stages
    assert [r.runtime_id for r in pre.runtimes] == ["guide/main"]
    assert [r.runtime_id for r in narrative.runtimes] == ["narrator/main"]
    # The three post-turn runtimes started in the same millisecond: one parallel group, in trace order.
    assert [r.runtime_id for r in post.runtimes] == POST_TURN
    assert [[r.runtime_id for r in g.runtimes] for g in post.groups] == [POST_TURN]
    assert [g.index for g in turn.groups()] == [1, 2, 3]
    assert {r.group for r in post.runtimes} == {3}
    assert all(r.status == "success" for r in turn.runtimes())
    # Strict barriers: each stage starts after the previous one ended.
    assert pre.end_ms <= narrative.start_ms and narrative.end_ms <= post.start_ms
    tracker = turn.runtime("char-creator/character-tracker")
    assert [(c.step, c.attempt) for c in tracker.calls] == [(0, 0), (1, 0)]
    assert tracker.steps == 2
    (tool,) = tracker.tools
    assert (tool.name, tool.status, tool.step, tool.call_event_id) == (
        "character-upsert", "completed", 0, tracker.calls[0].event_id)
    assert tool.input["type"] == "npc" and tool.output["ok"] is True
    assert tool.approval_status == "auto-approved" and tool.row_id is not None
    assert tool.start_ms < tool.end_ms
    for call in tracker.calls:
        assert call.queue_wait_ms is not None and call.usage is not None and call.usage.input_tokens > 0
        assert call.start_ms < call.end_ms and call.model == "deepseek-chat" and call.provider == "deepseek"
        assert call.protocol == "openai-chat-v1" and len(call.transport) == 1
    assert tracker.calls[0].requested_tools == ["character-upsert"]
    # Bars lie inside the turn, calls inside their runtime.
    for runtime in turn.runtimes():
        assert 0 <= runtime.start_ms <= runtime.end_ms <= turn.duration_ms
        for call in runtime.calls:
            assert runtime.start_ms <= call.start_ms <= call.end_ms <= runtime.end_ms


def test_demo_events_are_stepped_in_trace_order(demo, executions) -> None:
    turn = demo_turn(demo, executions, 0)
    raw = demo.events(MAIN, executions[0].turn_id)
    assert [e.event_id for e in turn.events] == [e.id for e in raw]
    assert [e.index for e in turn.events] == list(range(len(raw)))
    calls = {c.event_id: c for r in turn.runtimes() for c in r.calls}
    for event in turn.events:
        assert event.known and event.label
        if event.type == "llm.calling":
            assert (event.kind, event.target, event.target_id) == ("call", "call", event.event_id)
        elif event.type == "llm.responded":
            assert event.kind == "response" and calls[event.target_id].response_event_id == event.event_id
        elif event.type.startswith("tool."):
            assert event.kind == "tool" and event.target == "tool"
        elif event.type.startswith("runtime."):
            assert (event.kind, event.target) == ("runtime", "runtime") and event.stage in STAGE_ORDER
        elif event.type.startswith("turn."):
            assert (event.kind, event.target, event.target_id) == ("turn", "turn", turn.turn_id)
    assert [e.type for e in turn.turn_events] == ["turn.started", "turn.completed"]
    assert turn.events[0].offset_ms == 0 and turn.events[-1].offset_ms == turn.duration_ms
    narrator = turn.runtime("narrator/main")
    assert [e.type for e in narrator.events] == ["runtime.started", "llm.calling", "llm.responded",
                                                 "message.completed", "runtime.completed"]


def test_demo_skipped_runtime_keeps_its_place_in_the_group(demo, executions) -> None:
    turn = demo_turn(demo, executions, 1)
    post = turn.stages[-1]
    affinity = turn.runtime("affinity/main")
    assert affinity.status == "skipped" and affinity.calls == [] and affinity.reason.startswith("guard")
    assert [r.runtime_id for r in post.groups[0].runtimes] == POST_TURN


def test_demo_model_retry_is_a_second_attempt_of_the_same_step(demo, executions) -> None:
    narrator = demo_turn(demo, executions, 2).runtime("narrator/main")
    first, retry = narrator.calls
    assert (first.step, first.attempt, retry.step, retry.attempt) == (0, 0, 0, 1)
    assert first.finish_reason == "error" and "socket hang up" in first.error
    assert retry.finish_reason == "stop" and retry.error is None and first.end_ms < retry.start_ms


def test_demo_transport_retry(demo, executions) -> None:
    (call,) = demo_turn(demo, executions, 3).runtime("narrator/main").calls
    assert [(a.index, a.status_code, a.retry_reason) for a in call.transport] == [
        (0, 429, "http-429"), (1, 200, None)]
    assert call.attempt == 0


def test_demo_failed_runtime_then_retry_execution(demo, executions) -> None:
    source = demo_turn(demo, executions, 4)
    failed = source.runtime("world-init/dimension-tracker")
    assert failed.status == "failed" and "502" in failed.error
    (call,) = failed.calls
    assert [a.retry_reason for a in call.transport] == ["http-5xx", None]
    assert [o.status for o in source.committed.outputs if o.runtime_id == failed.runtime_id] == ["failed"]

    retry_turn = demo_turn(demo, executions, 5)
    assert (retry_turn.origin, retry_turn.commit_status) == ("manual", "committed")
    retry = retry_turn.retry
    assert retry is not None and retry.kind == "retry_failed_runtimes" and retry.source == "turn_results"
    assert retry.source_turn_id == source.turn_id and retry.source_committed is True
    assert retry.runtime_ids == retry.source_failed_runtime_ids == ["world-init/dimension-tracker"]
    assert retry.recovery_action["payload"]["retryFromTurnId"] == source.turn_id
    assert sorted(s.runtime_id for s in retry.seeded) == sorted(
        ["guide/main", "narrator/main", "char-creator/character-tracker", "affinity/main"])
    assert {s.from_turn_id for s in retry.seeded} == {source.turn_id}
    # Only the re-run runtime is a bar; seeds did not run again.
    assert [(s.name, [r.runtime_id for r in s.runtimes]) for s in retry_turn.stages] == [
        ("post-turn", ["world-init/dimension-tracker"])]
    rerun = retry_turn.runtime("world-init/dimension-tracker")
    assert rerun.status == "success" and [t.name for t in rerun.tools] == ["dimension-update"]
    assert [o.runtime_id for o in retry_turn.committed.outputs] == ["world-init/dimension-tracker"]
    assert retry_turn.committed.player == [] and retry_turn.committed.story == []
    assert "re-ran: world-init/dimension-tracker" in turn_outline(retry_turn)


def test_demo_committed_turn_content(demo, executions) -> None:
    turn = demo_turn(demo, executions, 0)
    committed = turn.committed
    assert [m.role for m in committed.player] == ["user"]
    assert [m.source_runtime_id for m in committed.story] == ["narrator/main"]
    assert committed.runtime_messages == []
    assert [o.runtime_id for o in committed.outputs] == ["guide/main", "narrator/main", *POST_TURN]
    story = turn.runtime("narrator/main").events[3]
    assert story.type == "message.completed" and story.payload["content"] == committed.story[0].content


def test_failed_and_skipped_runtimes(db) -> None:
    db.ev("t", "turn.started", {"runtimeCount": 3}, at=0)
    db.started("t", "a/x", "post-turn", at=10)
    db.started("t", "b/y", "post-turn", at=10)
    db.call("t", "a/x", at=20)
    db.ev("t", "runtime.failed", {"runtimeId": "a/x", "pluginId": "a", "error": {"message": "boom"}}, at=30)
    db.ev("t", "runtime.skipped", {"runtimeId": "b/y", "pluginId": "b", "reason": "guard: nothing to do"}, at=11)
    # Skipped before it started: no runtime.started, only the skip row naming its stage.
    db.ev("t", "runtime.skipped", {"runtimeId": "c/z", "pluginId": "c", "stage": "audit",
                                   "reason": "dependency-cycle"}, at=40)
    db.ev("t", "turn.completed", {"durationMs": 45, "committed": False}, at=45)
    with db.open() as store:
        turn = build_turn(store, "s", "t")
    failed, skipped, early = turn.runtime("a/x"), turn.runtime("b/y"), turn.runtime("c/z")
    assert (failed.status, failed.error, failed.end_ms) == ("failed", "boom", 30)
    assert (skipped.status, skipped.reason, skipped.group) == ("skipped", "guard: nothing to do", failed.group)
    assert (early.status, early.stage, early.start_ms, early.end_ms) == ("skipped", "audit", 40, 40)
    assert [s.name for s in turn.stages] == ["post-turn", "audit"]
    assert [g.index for g in turn.groups()] == [1, 2]
    # No result row: the commit status comes from the trace.
    assert (turn.commit_status, turn.commit_source, turn.origin) == ("uncommitted", "trace", None)


def test_retry_of_one_runtime_seeded_from_committed_turns(db) -> None:
    ok = {"status": "success", "stage": "post-turn"}
    db.result("src", [{"runtimeId": "g/main", "pluginId": "g", "stage": "pre-turn", "status": "success",
                       "output": "hint"},
                      {"runtimeId": "n/main", "pluginId": "n", "stage": "narrative", "status": "success"},
                      {"runtimeId": "a/x", "pluginId": "a", **ok},
                      {"runtimeId": "b/y", "pluginId": "b", "status": "failed", "stage": "post-turn"},
                      {"runtimeId": "c/z", "pluginId": "c", "status": "failed", "stage": "post-turn"}], at=100)
    # An earlier retry of the same source fixed b/y; a later one re-runs c/z only.
    scope1 = {"sourceTurnId": "src", "runtimeIds": ["b/y"], "sourceCommitted": True,
              "sourceFailedRuntimeIds": ["b/y", "c/z"]}
    db.result("r1", [{"runtimeId": "b/y", "pluginId": "b", **ok}], at=200, origin="manual", scope=scope1)
    scope2 = {**scope1, "runtimeIds": ["c/z"]}
    db.ev("r2", "turn.started", {"runtimeCount": 1, "recoveryAction": {
        "type": "retry_runtime", "payload": {"runtimeId": "c/z", "retryFromTurnId": "src"}}}, at=300)
    db.started("r2", "c/z", "post-turn", at=301)
    db.call("r2", "c/z", at=310, **scope2)
    db.completed("r2", "c/z", at=320)
    db.ev("r2", "turn.completed", {"durationMs": 21, "committed": True}, at=321)
    # The retry's result row also carries a seed it did not run (a/x).
    db.result("r2", [{"runtimeId": "c/z", "pluginId": "c", **ok}, {"runtimeId": "a/x", "pluginId": "a", **ok}],
              at=300, origin="manual", scope=scope2)
    with db.open() as store:
        turn = build_turn(store, "s", "r2")
    retry = turn.retry
    assert retry.kind == "retry_runtime" and retry.source == "turn_results" and retry.runtime_ids == ["c/z"]
    seeds = {s.runtime_id: s.from_turn_id for s in retry.seeded}
    assert seeds == {"g/main": "src", "n/main": "src", "a/x": "src", "b/y": "r1"}
    assert [r.runtime_id for r in turn.runtimes()] == ["c/z"]
    assert [o.runtime_id for o in turn.committed.outputs] == ["c/z"]
    text = turn_outline(turn)
    assert "retry (retry_runtime) of turn src" in text and "b/y (from r1)" in text


def test_retry_scope_from_the_trace_alone(db) -> None:
    scope = {"sourceTurnId": "src", "runtimeIds": ["a/x"], "sourceCommitted": True, "sourceFailedRuntimeIds": []}
    db.started("r", "a/x", "post-turn", at=1)
    db.call("r", "a/x", at=2, **scope)
    with db.open() as store:
        turn = build_turn(store, "s", "r")
    assert (turn.retry.kind, turn.retry.source, turn.retry.source_turn_id) == ("runtime-retry", "trace", "src")
    assert turn.retry.seeded == [] and turn.origin is None and turn.commit_status is None


def test_suspension_and_resume(db) -> None:
    db.ev("t1", "turn.started", {"runtimeCount": 2}, at=0)
    db.started("t1", "n/main", "narrative", at=1)
    db.call("t1", "n/main", at=5)
    db.completed("t1", "n/main", at=9)
    db.started("t1", "q/ask", "post-turn", at=10)
    db.call("t1", "q/ask", at=12)
    db.ev("t1", "turn.completed", {"committed": True}, at=20)
    db.ev("t1", "turn.suspended", {"sessionId": "s", "turnId": "t1", "suspensionId": "su-1",
                                   "reason": "pick a door", "resumeSchema": {"type": "object"}}, at=21)
    db.suspension("su-1", "t1", "q/ask", at=19, resolved=500)
    db.result("t1", [{"runtimeId": "n/main", "status": "success", "stage": "narrative"}], at=0)
    db.ev("t2", "turn.started", {"runtimeCount": 1}, at=490)
    db.ev("t2", "turn.resumed", {"suspensionId": "su-1", "turnId": "t1"}, at=500)
    db.started("t2", "q/ask", "post-turn", at=501)
    db.call("t2", "q/ask", at=505)
    db.completed("t2", "q/ask", at=510)
    db.result("t2", [{"runtimeId": "q/ask", "status": "success", "stage": "post-turn"}], at=490, origin="resume")
    with db.open() as store:
        suspended = build_turn(store, "s", "t1")
        resumed = build_turn(store, "s", "t2")
    ask = suspended.runtime("q/ask")
    assert ask.status == "suspended" and ask.end_ms == 13  # its last row: the model's answer
    (suspension,) = suspended.suspensions
    assert (suspension.suspension_id, suspension.runtime_id, suspension.reason) == ("su-1", "q/ask", "pick a door")
    assert suspension.suspended_event_id is not None and suspension.resolved and suspension.resumed_event_id is None
    assert ask.suspensions == [suspension]
    event = next(e for e in suspended.events if e.type == "turn.suspended")
    assert (event.kind, event.target, event.target_id) == ("suspension", "suspension", "su-1")
    assert event in suspended.turn_events
    assert "suspended su-1 by q/ask: pick a door" in turn_outline(suspended)

    assert resumed.origin == "resume" and resumed.suspensions == []
    (resume,) = resumed.resumes
    assert (resume.suspension_id, resume.turn_id, resume.runtime_id) == ("su-1", "t1", "q/ask")
    assert resume.resumed_at == ts(500) and resume.resume_schema["properties"]["door"] == {"type": "string"}
    assert resumed.runtime("q/ask").status == "success"
    assert "resumes suspension su-1 of turn t1" in turn_outline(resumed)


def test_suspension_known_only_from_the_trace(db) -> None:
    db.started("t", "q/ask", "post-turn", at=1)
    db.ev("t", "turn.suspended", {"suspensionId": "su-x", "reason": "wait", "runtimeId": "q/ask"}, at=3)
    with db.open() as store:
        turn = build_turn(store, "s", "t")
    (suspension,) = turn.suspensions
    assert (suspension.runtime_id, suspension.record, suspension.resolved) == ("q/ask", None, False)
    assert turn.runtime("q/ask").status == "suspended"


def test_events_with_no_stage_run_after_all_stages(db) -> None:
    db.ev("t", "turn.started", {"runtimeCount": 3}, at=0)
    db.started("t", "n/main", "narrative", at=1)
    db.completed("t", "n/main", at=5)
    db.started("t", "ev/react", None, at=6)  # event-triggered: no stage
    db.started("t", "ev/other", None, at=6)
    db.call("t", "ev/react", at=8)
    db.completed("t", "ev/react", at=9)
    db.completed("t", "ev/other", at=7)
    db.call("t", None, at=12)  # a direct call site that names no runtime
    db.ev("t", "turn.completed", {"committed": True}, at=14)
    with db.open() as store:
        turn = build_turn(store, "s", "t")
    assert [s.name for s in turn.stages] == ["narrative"]
    assert [r.runtime_id for r in turn.unstaged] == ["ev/react", "ev/other", None]
    react, other, unnamed = turn.unstaged
    assert react.group == other.group == 2 and unnamed.group == 3
    assert [len(g.runtimes) for g in turn.unstaged_groups] == [2, 1]
    assert unnamed.stage is None and unnamed.status is None and len(unnamed.calls) == 1
    contract = turn.to_json()
    assert [r["runtimeId"] for r in contract["unstaged"]] == ["ev/react", "ev/other", None]
    assert contract["unstaged"][0]["calls"][0]["inputTokens"] == 10
    assert "after all stages" in turn_outline(turn)


def test_unknown_event_types_and_stages_are_kept_as_they_are(db) -> None:
    db.ev("t", "turn.started", {"runtimeCount": 1}, at=0)
    db.started("t", "x/main", "epilogue", at=1)  # a stage this inspector does not know
    db.started("t", "n/main", "narrative", at=1)
    db.ev("t", "sparkle.emitted", {"runtimeId": "x/main", "glitter": 3}, at=2)
    db.ev("t", "weather.changed", {"sky": "grey"}, at=3)
    db.ev("t", "mystery", None, at=4, raw="{not json")
    db.ev("t", "block.emitted", {"runtimeId": "n/main", "block": "map"}, at=4)
    db.completed("t", "x/main", at=5)
    db.completed("t", "n/main", at=5)
    with db.open() as store:
        turn = build_turn(store, "s", "t")
    assert [(s.name, s.known) for s in turn.stages] == [("narrative", True), ("epilogue", False)]
    sparkle = next(e for e in turn.events if e.type == "sparkle.emitted")
    assert (sparkle.kind, sparkle.known, sparkle.target, sparkle.stage) == ("unknown", False, "runtime", "epilogue")
    assert sparkle in turn.runtime("x/main").events and '"glitter": 3' in sparkle.label
    weather, mystery = [e for e in turn.turn_events if not e.known]
    assert weather.type == "weather.changed" and '{"sky": "grey"}' in weather.label
    assert mystery.payload == {} and "not valid JSON" in mystery.label
    block = next(e for e in turn.events if e.type == "block.emitted")
    assert (block.kind, block.known) == ("other", True)
    text = turn_outline(turn)
    assert "? sparkle.emitted x/main" in text and "? " in text.split("turn events")[1]
    assert "stage epilogue (unknown stage)" in text and "· block.emitted n/main" in text


def test_parallel_groups_from_overlapping_intervals(db) -> None:
    db.started("t", "a/1", "post-turn", at=10)
    db.started("t", "b/2", "post-turn", at=12)  # starts later but overlaps a/1
    db.started("t", "e/5", "post-turn", at=25)  # overlaps b/2 only: same level (transitive)
    db.completed("t", "a/1", at=20)
    db.completed("t", "b/2", at=30)
    db.completed("t", "e/5", at=31)
    db.started("t", "c/3", "post-turn", at=31)  # starts when the last one ended: the next level
    db.completed("t", "c/3", at=40)
    db.started("t", "d/4", "audit", at=41)
    db.completed("t", "d/4", at=42)
    with db.open() as store:
        turn = build_turn(store, "s", "t")
    post, audit = turn.stages
    assert [[r.runtime_id for r in g.runtimes] for g in post.groups] == [["a/1", "b/2", "e/5"], ["c/3"]]
    assert [(g.start_ms, g.end_ms) for g in post.groups] == [(0, 21), (21, 30)]
    assert [r.group for r in audit.runtimes] == [3]
    assert post.runtimes[0].duration_ms == 1  # as runtime.completed reported it


def test_tools_pruning_hooks_and_proposals(db) -> None:
    rid = "t/tool"
    db.started("t", rid, "post-turn", at=1)
    db.ev("t", "hook.fired", {"runtimeId": rid, "hook": "PreLLMCall"}, at=2)
    db.ev("t", "context.pruned", {"runtimeId": rid, "prunedMessageCount": 4, "truncatedToolResultCount": 1}, at=3)
    first = db.call("t", rid, at=5, tool_calls=[{"id": "call-1", "name": "lookup", "arguments": "{}"},
                                                {"id": "call-2", "name": "delete", "arguments": "{}"}])
    db.ev("t", "tool.calling", {"runtimeId": rid, "toolName": "lookup", "toolCallId": "call-1", "input": {"q": 1}},
          at=7)
    db.ev("t", "tool.failed", {"runtimeId": rid, "toolName": "delete", "toolCallId": "call-2",
                               "error": "rejected by policy"}, at=8)
    db.ev("t", "tool.completed", {"runtimeId": rid, "toolName": "lookup", "toolCallId": "call-1",
                                  "output": {"hits": 2}, "durationMs": 3}, at=10)
    second = db.call("t", rid, at=12)
    db.ev("t", "tool.calling", {"runtimeId": rid, "toolName": "slow", "toolCallId": "call-3"}, at=14)
    db.ev("t", "hook.aborted", {"runtimeId": rid, "hook": "PostToolUse"}, at=15)
    db.ev("t", "hook.rewrote", {"hook": "PostRuntime"}, at=15)  # names no runtime: a turn event
    db.ev("t", "proposal.failed", {"runtimeId": rid, "pluginId": "t", "proposalId": "p1",
                                   "proposalType": "state.patch", "error": "conflict"}, at=16)
    db.completed("t", rid, at=18)
    db.tool_row("t", rid, "lookup", at=10, output={"hits": 2})
    db.tool_row("t", rid, "slow", at=16, output={"done": True})
    db.tool_row("t", rid, "archived", at=17, output=[1])  # its trace rows were pruned
    with db.open() as store:
        turn = build_turn(store, "s", "t")
    runtime = turn.runtime(rid)
    (pruning,) = runtime.pruned
    assert (pruning.call_event_id, pruning.pruned_messages, pruning.truncated_tool_results) == (first, 4, 1)
    tools = {t.name: t for t in runtime.tools}
    assert [t.name for t in runtime.tools] == ["lookup", "delete", "slow", "archived"]
    assert (tools["lookup"].status, tools["lookup"].step, tools["lookup"].call_event_id) == ("completed", 0, first)
    assert tools["lookup"].input == {"q": 1} and tools["lookup"].output == {"hits": 2}
    assert tools["lookup"].duration_ms == 3 and tools["lookup"].row_id is not None
    assert (tools["delete"].status, tools["delete"].error, tools["delete"].row_id) == (
        "failed", "rejected by policy", None)
    # Its end row is missing but the tool_calls row says it ran.
    assert (tools["slow"].status, tools["slow"].step, tools["slow"].output) == ("completed", 1, {"done": True})
    assert (tools["archived"].status, tools["archived"].input, tools["archived"].calling_event_id) == (
        "completed", {"q": 1}, None)
    assert [(h.action, h.hook) for h in runtime.hooks] == [("fired", "PreLLMCall"), ("aborted", "PostToolUse")]
    (failure,) = runtime.proposal_failures
    assert (failure.proposal_type, failure.error) == ("state.patch", "conflict")
    assert [e.type for e in turn.turn_events] == ["hook.rewrote"]
    assert [c.event_id for c in runtime.calls] == [first, second]
    assert turn.to_json()["stages"][0]["runtimes"][0]["tools"] == [
        {"name": "lookup", "status": "completed"}, {"name": "delete", "status": "failed"},
        {"name": "slow", "status": "completed"}, {"name": "archived", "status": "completed"}]
    text = turn_outline(turn)
    assert "context.pruned: 4 messages, 1 tool results truncated" in text
    assert "proposal failed state.patch p1: conflict" in text and "hook aborted PostToolUse" in text


def test_a_tool_call_left_open(db) -> None:
    db.started("t", "a/x", "post-turn", at=1)
    db.call("t", "a/x", at=2)
    db.ev("t", "tool.calling", {"runtimeId": "a/x", "toolName": "wait"}, at=4)
    with db.open() as store:
        turn = build_turn(store, "s", "t")
    runtime = turn.runtime("a/x")
    (tool,) = runtime.tools
    assert (tool.status, tool.tool_call_id, tool.end_ms) == ("started", None, None)
    assert runtime.status == "started" and runtime.end_ms == 3  # the last row seen


def test_result_only_turn_and_missing_turn(db) -> None:
    db.result("gone", [{"runtimeId": "n/main", "pluginId": "n", "stage": "narrative", "status": "success",
                        "output": "story"}, {"runtimeId": "x/y", "status": "failed", "error": "late"}], at=50)
    with db.open() as store:
        turn = build_turn(store, "s", "gone")
        with pytest.raises(TurnNotFoundError):
            build_turn(store, "s", "never")
    assert turn.started_at == ts(50) and turn.events == [] and turn.duration_ms == 50
    narrator = turn.runtime("n/main")
    assert (narrator.status, narrator.traced, narrator.group, narrator.start_ms) == ("success", False, None, None)
    assert [s.name for s in turn.stages] == ["narrative"]
    assert [(r.runtime_id, r.status, r.error) for r in turn.unstaged] == [("x/y", "failed", "late")]
    assert "no times recorded" in turn_outline(turn)


def test_compaction_without_a_following_call_is_noted(db) -> None:
    db.started("t", "n/main", "narrative", at=1)
    db.ev("t", "context.compacted", {"summaryId": "sum", "messagesCompacted": 2}, at=2)
    with db.open() as store:
        turn = build_turn(store, "s", "t")
    assert turn.runtime("n/main").compacted == []
    assert [e.type for e in turn.turn_events] == ["context.compacted"]
    assert any("no model call follows" in note for note in turn.notes)


def test_old_file_with_only_a_trace_table(tmp_path) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE trace_events (id TEXT PRIMARY KEY, session_id TEXT, type TEXT, trace_id TEXT,"
                 " turn_id TEXT, payload TEXT, created_at TEXT)")
    rows = [("e1", "runtime.started", {"runtimeId": "n/main", "stage": "narrative"}, 1),
            ("e2", "llm.calling", {"runtimeId": "n/main", "attempt": 0}, 2),
            ("e3", "runtime.completed", {"runtimeId": "n/main", "status": "success"}, 3)]
    for eid, etype, payload, at in rows:
        conn.execute("INSERT INTO trace_events VALUES (?,?,?,?,?,?,?)",
                     (eid, "s", etype, "t", "t", json.dumps(payload), ts(at)))
    conn.commit()
    conn.close()
    with open_store(path) as store:
        assert store.session_of_turn("t") == "s"
        turn = build_turn(store, "s", "t")
    (call,) = turn.runtime("n/main").calls
    assert call.started_at == ts(2) and call.usage is None and not call.answered
    assert turn.commit_status is None and turn.committed.outputs == [] and turn.events[0].seq is None


def test_setup_turn_then_continuation(db) -> None:
    db.started("setup-turn", "w/setup", "setup", at=1)
    db.call("setup-turn", "w/setup", at=3)
    db.completed("setup-turn", "w/setup", at=5)
    db.result("setup-turn", [{"runtimeId": "w/setup", "status": "success", "stage": "setup"}], at=1)
    db.started("main-turn", "n/main", "narrative", at=7)
    db.completed("main-turn", "n/main", at=9)
    db.result("main-turn", [], at=7, origin="continuation")
    with db.open() as store:
        setup = build_turn(store, "s", "setup-turn")
        main = build_turn(store, "s", "main-turn")
    assert [s.name for s in setup.stages] == ["setup"] and setup.stages[0].known
    (call,) = setup.runtime("w/setup").calls
    assert setup.call(call.event_id) is call and setup.call(call.response_event_id) is call
    assert setup.call("nope") is None and setup.runtime("nope") is None
    assert setup.offset_ms(call.started_at) == call.start_ms == 1
    assert setup.offset_ms("2026-10-06T08:00:00.003+00:00") == 2  # other ISO spellings parse
    assert setup.offset_ms(None) is None
    assert main.origin == "continuation" and main.to_json()["origin"] == "continuation"
