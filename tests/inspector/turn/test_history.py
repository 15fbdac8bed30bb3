"""The history one model call saw: on the demo database, and on purpose-built journals."""

from __future__ import annotations

import json

import pytest
from turn_rows import MAIN, Db, demo_turn

from inspector.covel import markers
from inspector.turn.builder import build_turn
from inspector.turn.history import iter_history, turn_history
from inspector.turn.model import TurnNotFoundError


def test_demo_retry_call_sees_source_player_message_as_current(demo, executions) -> None:
    retry_turn = demo_turn(demo, executions, 5)
    (call,) = retry_turn.runtime("world-init/dimension-tracker").calls
    history = turn_history(demo, MAIN, retry_turn.turn_id, call.event_id)
    (current,) = history.rows_in("current")
    assert current.message.turn_id == retry_turn.retry.source_turn_id and current.message.source_type == "player"
    assert current.request_index == history.history_end


def test_demo_compaction_and_what_each_call_saw(demo, executions) -> None:
    turn = demo_turn(demo, executions, 8)  # player turn 8: the compaction barrier
    narrator = turn.runtime("narrator/main")
    (compaction,) = narrator.compacted
    (call,) = narrator.calls
    assert compaction.call_event_id == call.event_id and compaction.runtime_id == "narrator/main"
    assert compaction.messages_compacted == 10 and compaction.summary_id
    event = next(e for e in turn.events if e.type == "context.compacted")
    assert (event.kind, event.target, event.target_id, event.stage) == ("compacted", "call", call.event_id,
                                                                        "narrative")
    assert event not in turn.turn_events

    seen = turn_history(demo, MAIN, turn.turn_id, call.event_id)
    compacted = seen.rows_in("compacted")
    assert len(compacted) == 10 and {r.summary_id for r in compacted} == {compaction.summary_id}
    (summary,) = seen.summaries
    assert summary.sent and summary.summary.id == compaction.summary_id
    assert sorted(summary.replaces) == sorted(r.message.id for r in compacted)
    sent = seen.rows_in("sent")
    assert sent and all(r.request_index < seen.history_end for r in sent)
    assert summary.request_index < min(r.request_index for r in sent)
    assert seen.window is None and seen.unmatched_envelopes == 0

    # The guide ran before the barrier: nothing was compacted yet, and its maxTurns=4 window kept
    # the last four turns.
    (guide_call,) = turn.runtime("guide/main").calls
    before = turn_history(demo, MAIN, turn.turn_id, guide_call.event_id)
    assert before.rows_in("compacted") == [] and before.summaries == []
    assert before.window is not None and len(before.window.turn_ids) == 4
    assert before.window.user_messages == 4 and before.window.dropped == len(before.rows_in("outside-window"))
    assert before.rows_in("not-sent") == []
    # The tracker (maxTurns=2, no summaries) after the barrier: the summary stays out.
    tracker_call = turn.runtime("char-creator/character-tracker").calls[0]
    tracker = turn_history(demo, MAIN, turn.turn_id, tracker_call.event_id)
    assert [s.sent for s in tracker.summaries] == [False]
    assert len({r.message.turn_id for r in tracker.rows_in("sent")}) == 2


def test_demo_history_binds_a_repeated_player_message_to_history(demo, executions) -> None:
    journal = demo.turn_messages(MAIN)
    repeated = None
    for execution in executions:
        mine = [m for m in journal if m.turn_id == execution.turn_id and m.source_type == "player"]
        earlier = [m for m in journal if m.created_at < (mine[0].created_at if mine else "")
                   and m.source_type == "player"]
        if mine and any(m.content == mine[0].content for m in earlier):
            repeated = execution
            break
    assert repeated is not None, "the demo seed plays one player message twice"
    turn = build_turn(demo, MAIN, repeated.turn_id)
    call = turn.runtime("narrator/main").calls[0]
    history = turn_history(demo, MAIN, turn.turn_id, call.event_id)
    text = turn.committed.player[0].content
    twin = [r for r in history.rows if r.message.content == text]
    assert twin and all(r.state == "sent" and r.request_index < history.history_end for r in twin)
    payload = demo.event(call.event_id).payload
    assert payload["messages"][history.history_end]["content"] == text


def test_demo_history_of_every_call(demo, executions) -> None:
    turn = demo_turn(demo, executions, 10)
    histories = list(iter_history(demo, turn))
    assert [h.event_id for h in histories] == [c.event_id for r in turn.runtimes() for c in r.calls]
    for history in histories:
        assert history.rows and history.rows_in("sent")
        assert not history.rows_in("pruned") and not history.notes
        json.dumps(history.to_json())
        assert history.event_id in history.to_text()


def _history_db(db: Db, *, request: list[dict], pruned_count: int | None = None) -> str:
    db.message("h1", "first question", at=10)
    db.message("h1", "first answer", at=10, role="assistant", runtime="n/main", order=2)
    db.message("h2", "second question", at=20, compacted="sum-late")
    db.message("h2", "second answer", at=20, role="assistant", runtime="n/main", order=2)
    db.message("h3", "third question", at=30)
    db.message("h3", "side note", at=30, role="assistant", runtime="side/x", order=3)
    db.message("h3", "third answer", at=30, role="assistant", runtime="n/main", order=2)
    db.summary("sum-late", "later summary", at=900)
    db.message("now", "current question", at=200)
    if pruned_count is not None:
        db.ev("now", "context.pruned", {"runtimeId": "n/main", "prunedMessageCount": pruned_count}, at=99)
    return db.call("now", "n/main", at=100, messages=request)


def test_history_window_and_filtered_rows(db) -> None:
    request = [{"role": "system", "content": "rules"},
               {"role": "user", "content": "second question"}, {"role": "assistant", "content": "second answer"},
               {"role": "user", "content": "third question"},
               {"role": "assistant", "content": [{"type": "text", "text": "third "}, {"type": "text",
                                                                                      "text": "answer"}]},
               {"role": "system", "content": "turn data"}, {"role": "user", "content": "current question"}]
    call = _history_db(db, request=request)
    with db.open() as store:
        history = turn_history(store, "s", "now", call)
        with pytest.raises(TurnNotFoundError):
            turn_history(store, "s", "other", call)
    states = [(r.message.content, r.state, r.request_index) for r in history.rows]
    assert states == [("first question", "outside-window", None), ("first answer", "outside-window", None),
                      # compacted only by a summary written after this call: still raw here
                      ("second question", "sent", 1), ("second answer", "sent", 2),
                      ("third question", "sent", 3), ("third answer", "sent", 4), ("side note", "not-sent", None)]
    assert history.history_end == 6 and history.summaries == []
    window = history.window
    assert (window.first_turn_id, window.turn_ids, window.user_messages, window.dropped) == (
        "h2", ["h2", "h3"], 2, 2)
    assert history.to_json()["window"]["turnIds"] == ["h2", "h3"]
    assert "window: 2 turns" in history.to_text()


def test_history_pruned_by_the_budget(db) -> None:
    request = [{"role": "system", "content": "rules"}, {"role": "system", "content": markers.PRUNED_MARKER_EN},
               {"role": "user", "content": "third question"}, {"role": "assistant", "content": "third answer"},
               {"role": "user", "content": "current question"}]
    call = _history_db(db, request=request, pruned_count=4)
    with db.open() as store:
        history = turn_history(store, "s", "now", call)
    assert history.pruned_marker and [p.pruned_messages for p in history.pruning] == [4]
    assert [r.state for r in history.rows] == ["pruned"] * 4 + ["sent", "sent", "not-sent"]
    assert history.window is None


def test_history_summary_envelopes(db) -> None:
    db.message("h0", "ancient", at=5, compacted="sum-1")
    db.summary("sum-1", "They met at the well.", at=50)
    db.summary("sum-gone", "Rewritten later.", at=60)
    envelope = markers.COMPACTED_HISTORY_OPEN + "# sections: plot\nThey met at the well.\n" + \
        markers.COMPACTED_HISTORY_CLOSE
    stale = markers.COMPACTED_HISTORY_OPEN + "an older text\n" + markers.COMPACTED_HISTORY_CLOSE
    request = [{"role": "system", "content": "rules"}, {"role": "user", "content": stale},
               {"role": "user", "content": envelope}, {"role": "user", "content": "third question"},
               {"role": "user", "content": "current question"}]
    call = _history_db(db, request=request)
    with db.open() as store:
        history = turn_history(store, "s", "now", call)
    by_id = {s.summary.id: s for s in history.summaries}
    assert (by_id["sum-1"].sent, by_id["sum-1"].request_index, len(by_id["sum-1"].replaces)) == (True, 2, 1)
    assert by_id["sum-gone"].sent is False and "sum-late" not in by_id
    assert history.rows[0].state == "compacted" and history.rows[0].summary_id == "sum-1"
    assert history.unmatched_envelopes == 1 and "match no stored summary" in history.notes[0]


def test_history_of_a_call_without_messages(db) -> None:
    db.message("h1", "first question", at=10)
    db.ev("now", "runtime.started", {"runtimeId": "n/main", "stage": "narrative"}, at=11)
    call = db.ev("now", "llm.calling", {"runtimeId": "n/main", "attempt": 0}, at=12)
    with db.open() as store:
        history = turn_history(store, "s", "now", call)
        with pytest.raises(TurnNotFoundError):
            turn_history(store, "s", "now", "missing-event")
    assert [r.state for r in history.rows] == ["not-sent"] and history.request_messages == 0
    assert "no kernel messages" in history.notes[0]


def test_history_across_a_summary_merge(db) -> None:
    # Two compactions, the second merged into the first summary afterwards: every compacted row now
    # points at sum-1 (created at 15), yet a call between the two still saw h2 raw.
    for turn, at in (("h1", 10), ("h2", 20), ("h3", 30)):
        db.message(turn, f"{turn} question", at=at, compacted="sum-1" if turn != "h3" else None)
        db.message(turn, f"{turn} answer", at=at, role="assistant", runtime="n/main", order=2,
                   compacted="sum-1" if turn != "h3" else None)
    db.summary("sum-1", "merged text", at=15)
    db.ev("c1", "context.compacted", {"summaryId": "sum-1", "messagesCompacted": 2}, at=16)
    db.ev("c2", "context.compacted", {"summaryId": "sum-2", "messagesCompacted": 2, "summariesMerged": 1}, at=150)
    old = markers.COMPACTED_HISTORY_OPEN + "h1 in brief\n" + markers.COMPACTED_HISTORY_CLOSE
    between = db.call("mid", "n/main", at=100, messages=[
        {"role": "user", "content": old}, {"role": "user", "content": "h2 question"},
        {"role": "assistant", "content": "h2 answer"}, {"role": "user", "content": "h3 question"},
        {"role": "assistant", "content": "h3 answer"}, {"role": "user", "content": "mid question"}])
    db.message("mid", "mid question", at=120)
    after = db.call("late", "n/main", at=200, messages=[
        {"role": "user", "content": old}, {"role": "user", "content": "h3 question"},
        {"role": "assistant", "content": "h3 answer"}, {"role": "user", "content": "mid question"},
        {"role": "user", "content": "late question"}])
    with db.open() as store:
        mid = turn_history(store, "s", "mid", between)
        late = turn_history(store, "s", "late", after)
    assert [r.state for r in mid.rows] == ["compacted", "compacted", "sent", "sent", "sent", "sent"]
    assert mid.unmatched_envelopes == 1 and mid.window is None
    assert [r.state for r in late.rows] == ["compacted"] * 4 + ["sent", "sent", "sent"]
    assert {r.summary_id for r in late.rows_in("compacted")} == {"sum-1"}


def test_history_knows_a_multi_line_chinese_pruned_marker(db) -> None:
    # The zh marker is known by its start (covel-assembly.md §1.4), line breaks after it included:
    # with no context.pruned row, the marker alone says the older rows were pruned, not windowed.
    marker = markers.PRUNED_MARKER_ZH_PREFIX + "，\n较早的消息已被删减 ...]"
    request = [{"role": "system", "content": "rules"}, {"role": "system", "content": marker},
               {"role": "user", "content": "third question"}, {"role": "assistant", "content": "third answer"},
               {"role": "user", "content": "current question"}]
    call = _history_db(db, request=request)
    with db.open() as store:
        history = turn_history(store, "s", "now", call)
    assert history.pruned_marker and history.pruning == []
    assert [r.state for r in history.rows] == ["pruned"] * 4 + ["sent", "sent", "not-sent"]
