"""The tables beside the trace: the journal, results, tool calls, suspensions (inspector.store.side_tables)."""

from __future__ import annotations

import json


from inspector.store import Store


def _open(db) -> Store:
    return db.open()


# ------------------------------------------------------------------ journal


def test_turn_messages_order_and_compaction(make_db, backend: str) -> None:
    db = make_db()
    db.session("s")
    db.message("s", "t1", at=5, order=2, content="narration", role="assistant", runtime="narrator/main",
               mid="m-a", compacted="sum-1")
    db.message("s", "t1", at=5, order=0, content="I look around", mid="m-z", compacted="sum-1")
    db.message("s", "t2", at=9, order=0, content="next", mid="m-b")
    db.message("s", "t2", at=9, order=0, content="same order", mid="m-a2")
    db.summary("s", "sum-1", at=8, start="t1", end="t1", content="They looked around.", focus=["scene"])
    with _open(db) as store:
        messages = store.turn_messages("s")
        only_t2 = store.turn_messages("s", turn_id="t2")
        (summary,) = store.session_summaries("s")
        assert store.session_summaries("nobody") == []
    assert [m.id for m in messages] == ["m-z", "m-a", "m-a2", "m-b"]
    assert [m.id for m in only_t2] == ["m-a2", "m-b"]
    assert messages[1].compacted_by == "sum-1" and messages[3].compacted_by is None
    assert (messages[1].source_type, messages[1].source_runtime_id, messages[1].source_plugin_id) == (
        "runtime", "narrator/main", "narrator")
    assert (summary.id, summary.turn_range_start, summary.focus_sections) == ("sum-1", "t1", ("scene",))


def test_old_schema_journal_and_missing_summaries(make_db, backend: str) -> None:
    db = make_db(schema="old")
    db.session("s")
    db.message("s", "t", at=1, order=1, content="b", mid="2")
    db.message("s", "t", at=1, order=0, content="a", mid="1")
    with _open(db) as store:
        assert [m.content for m in store.turn_messages("s")] == ["a", "b"]
        assert store.session_summaries("s") == []


# ------------------------------------------------------------------ executions, tools, suspensions

_EXTRA_TABLES = """
CREATE TABLE tool_calls (
  id TEXT PRIMARY KEY, session_id TEXT NOT NULL, turn_id TEXT NOT NULL, tool_name TEXT NOT NULL,
  plugin_id TEXT NOT NULL, runtime_id TEXT NOT NULL, input TEXT, output TEXT, duration_ms INTEGER NOT NULL,
  approval_status TEXT NOT NULL, created_at TEXT NOT NULL
);
CREATE TABLE suspensions (
  id TEXT PRIMARY KEY, session_id TEXT NOT NULL, turn_id TEXT NOT NULL, runtime_id TEXT NOT NULL,
  plugin_id TEXT NOT NULL, reason TEXT NOT NULL, resume_schema TEXT NOT NULL, pending_continuation TEXT NOT NULL,
  created_at TEXT NOT NULL, resolved_at TEXT
);
"""


def test_session_of_turn_from_results_then_trace(make_db, build_sample, backend: str) -> None:
    db = make_db()
    build_sample(db)
    with _open(db) as store:
        assert store.session_of_turn("t4") == "s1"  # result row only
        assert store.session_of_turn("t3") is None  # never written
        assert store.session_of_turn("c1") == "s1"  # trace only
        assert store.session_of_turn("u1") == "s2"
        assert store.session_of_turn("nope") is None


def test_session_of_turn_without_results_table(make_db, backend: str) -> None:
    db = make_db(schema="old")
    db.conn.execute("DROP TABLE turn_results")
    db.event("s9", "t9", "turn.started", {"runtimeCount": 0}, at=1)
    with _open(db) as store:
        assert store.session_of_turn("t9") == "s9"
        assert store.turn_results("s9") == []


def test_turn_results_rows_and_lazy_json(make_db) -> None:
    db = make_db()
    db.session("s")
    db.result("s", "t1", at=5, status="pending")
    db.conn.execute(
        "UPDATE turn_results SET runtime_results = ? WHERE turn_id = 't1'",
        (json.dumps([{"runtimeId": "a/x", "status": "success"}, "junk"]),))
    db.result("s", "t1", at=9, status="committed",
              retry_scope={"sourceTurnId": "t0", "runtimeIds": ["a/x"], "sourceCommitted": True,
                           "sourceFailedRuntimeIds": []})
    db.result("s", "t2", at=7, origin="manual")
    db.conn.execute("UPDATE turn_results SET runtime_results = '{bad' WHERE turn_id = 't2'")
    with _open(db) as store:
        rows = store.turn_results("s")
        only = store.turn_results("s", ["t1"])
        assert store.turn_results("s", []) == []
    assert [(r.turn_id, r.commit_status) for r in rows] == [("t1", "pending"), ("t2", "committed"),
                                                            ("t1", "committed")]
    pending, bad, committed = rows
    assert [r.id for r in only] == [pending.id, committed.id]
    assert pending.runtime_results == ({"runtimeId": "a/x", "status": "success"},)
    assert pending.runtime_results_error == "1 runtime_results entries are not objects"
    assert pending.retry_scope is None and committed.retry_scope["sourceTurnId"] == "t0"
    assert bad.runtime_results == () and "not valid JSON" in (bad.runtime_results_error or "")
    assert bad.origin == "manual" and committed.origin == "player"
    assert committed.runtime_results == () and committed.runtime_results_error is None
    assert committed.audit_result is None and committed.seq == 0


def test_tool_calls_and_suspensions(make_db) -> None:
    db = make_db()
    db.conn.executescript(_EXTRA_TABLES)
    db.conn.execute("INSERT INTO tool_calls VALUES ('tc2','s','t','upsert','p','p/r','{\"a\":1}','not json',4,"
                    "'auto-approved','2026-10-06T08:00:00.009Z')")
    db.conn.execute("INSERT INTO tool_calls VALUES ('tc1','s','t','get','p','p/r',NULL,'[1]',2,"
                    "'auto-approved','2026-10-06T08:00:00.005Z')")
    db.conn.execute("INSERT INTO tool_calls VALUES ('tc3','s','other','get','p','p/r',NULL,NULL,2,"
                    "'auto-approved','2026-10-06T08:00:00.001Z')")
    db.conn.execute("INSERT INTO suspensions VALUES ('su1','s','t','p/r','p','needs a choice','{\"type\":\"object\"}',"
                    "'{\"pending\":[]}','2026-10-06T08:00:00.010Z',NULL)")
    with _open(db) as store:
        tools = store.tool_calls("s", "t")
        everything = store.tool_calls("s")
        (suspension,) = store.suspensions("s", "t")
        assert store.suspensions("s", "other") == []
    assert [t.id for t in tools] == ["tc1", "tc2"] and len(everything) == 3
    first, second = tools
    assert first.input is None and first.output == [1]
    assert second.input == {"a": 1} and second.output == "not json"  # kept as stored
    assert (second.tool_name, second.runtime_id, second.duration_ms, second.approval_status) == (
        "upsert", "p/r", 4, "auto-approved")
    assert suspension.resume_schema == {"type": "object"} and suspension.resolved_at is None
    assert (suspension.runtime_id, suspension.reason) == ("p/r", "needs a choice")


def test_missing_tool_and_suspension_tables_read_as_empty(make_db, build_sample, backend: str) -> None:
    db = make_db()
    build_sample(db)
    with _open(db) as store:
        assert store.tool_calls("s1") == [] and store.suspensions("s1") == []
