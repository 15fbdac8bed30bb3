"""Reading sessions, turns, events, LLM calls and the journal, on newest and old schemas."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from inspector.store import LlmCall, Store, TokenUsage, TraceEvent, open_store, parse_json_object
from inspector.store import sqlite_open


def _open(db) -> Store:
    return db.open()


# ------------------------------------------------------------------ sessions


def test_sessions_newest_schema(make_db, build_sample, backend: str) -> None:
    db = make_db()
    build_sample(db)
    with _open(db) as store:
        assert store.schema_notes == []
        assert store.has_seq
        s1, s2 = store.sessions()
    assert (s1.id, s1.world_id, s1.world_name, s1.phase, s1.status, s1.locale) == (
        "s1", "w1", "Lantern Barrow", "playing", "active", "en")
    assert s1.completed_player_turns == 1
    assert (s1.execution_count, s1.event_count, s1.llm_call_count) == (4, 14, 4)
    assert s1.created_at == "2026-10-06T08:00:00.000Z"
    assert (s2.id, s2.world_name, s2.execution_count, s2.event_count, s2.llm_call_count) == ("s2", None, 1, 1, 1)


def test_sessions_old_schema_uses_turn_count(make_db, build_sample, backend: str) -> None:
    db = make_db(schema="old")
    build_sample(db)
    with _open(db) as store:
        assert not store.has_seq
        notes = "\n".join(store.schema_notes)
        s1, _s2 = store.sessions()
    assert "trace_events has no seq column: events ordered by created_at, id" in notes
    assert "turn_count instead of completed_player_turns" in notes
    assert "no phase column" in notes
    assert "no worlds table" in notes
    assert "turn_results has no origin column" in notes
    assert "no session_summaries table" in notes
    assert s1.completed_player_turns == 1
    assert s1.phase is None and s1.world_id == "w1" and s1.world_name is None
    assert s1.locale == "en"
    assert (s1.execution_count, s1.event_count, s1.llm_call_count) == (4, 14, 4)


def test_completed_player_turns_wins_over_turn_count(make_db, backend: str) -> None:
    db = make_db(schema="old")
    db.conn.execute("ALTER TABLE sessions ADD COLUMN completed_player_turns INTEGER")
    db.columns["sessions"].add("completed_player_turns")
    db._insert("sessions", {"id": "a", "created_at": "x", "updated_at": "x", "turn_count": 3,
                            "completed_player_turns": 7})
    db._insert("sessions", {"id": "b", "created_at": "y", "updated_at": "y", "turn_count": 2,
                            "completed_player_turns": None})
    db.event("a", "t", "turn.started", {}, at=1)
    with _open(db) as store:
        turns = {s.id: s.completed_player_turns for s in store.sessions()}
    # NULL completed_player_turns (PostgreSQL of that era) falls back to turn_count.
    assert turns == {"a": 7, "b": 2}


def test_session_known_only_from_trace_rows(make_db, backend: str) -> None:
    db = make_db()
    db.event("ghost", "t1", "turn.started", {}, at=1)
    with _open(db) as store:
        (ghost,) = store.sessions()
    assert ghost.id == "ghost" and ghost.status is None and ghost.created_at is None
    assert (ghost.event_count, ghost.execution_count) == (1, 1)


# ------------------------------------------------------------------ turns


def test_turns_cover_trace_only_and_result_only_turns(make_db, build_sample, backend: str) -> None:
    db = make_db()
    build_sample(db)
    with _open(db) as store:
        turns = store.turns("s1")
        assert store.turns("nobody") == []
    assert [(t.number, t.turn_id) for t in turns] == [(1, "t1"), (2, "t2"), (3, "c1"), (4, "t4")]
    t1, t2, c1, t4 = turns
    assert (t1.origin, t1.commit_status, t1.trace_id, t1.duration_ms) == ("player", "committed", "tr-a", 9)
    assert (t1.started_at, t1.ended_at) == ("2026-10-06T08:00:00.010Z", "2026-10-06T08:00:00.019Z")
    assert t1.runtime_ids == ("setup/init",)
    assert (t1.event_count, t1.llm_call_count) == (5, 1)
    assert t2.retry_scope == {"sourceTurnId": "t1", "runtimeIds": ["narrator/main"], "sourceCommitted": True,
                              "sourceFailedRuntimeIds": []}
    assert (t2.event_count, t2.llm_call_count, t2.runtime_ids) == (8, 3, ("narrator/main",))
    assert t1.retry_scope is None
    # Trace-only (a command invocation): no result row.
    assert (c1.origin, c1.commit_status, c1.has_result, c1.event_count) == (None, None, False, 1)
    assert c1.duration_ms == 0 and c1.created_at == "2026-10-06T08:00:00.040Z"
    # Result-only (trace pruned by retention).
    assert (t4.origin, t4.commit_status, t4.has_result, t4.event_count) == ("manual", "failed", True, 0)
    assert (t4.started_at, t4.ended_at, t4.trace_id, t4.duration_ms, t4.runtime_ids) == (None, None, None, 3, ())


def test_turn_order_uses_the_earlier_of_result_and_first_event(make_db, backend: str) -> None:
    db = make_db()
    db.session("s", created=0)
    db.result("s", "late-trace", at=5)
    db.event("s", "early", "turn.started", {}, at=3)
    db.result("s", "early", at=9)
    db.event("s", "late-trace", "turn.started", {}, at=7)
    with _open(db) as store:
        assert [t.turn_id for t in store.turns("s")] == ["early", "late-trace"]


def test_null_origin_means_player_and_old_results_without_origin(make_db, backend: str) -> None:
    db = make_db(schema="old")
    db.conn.execute("ALTER TABLE turn_results ADD COLUMN origin TEXT")
    db.columns["turn_results"].add("origin")
    db.session("s")
    db.result("s", "a", at=1, origin=None)
    db.result("s", "b", at=2, origin="follower")
    with _open(db) as store:
        assert [(t.turn_id, t.origin) for t in store.turns("s")] == [("a", "player"), ("b", "follower")]

    db2 = make_db("old.db", schema="old")
    db2.session("s")
    db2.result("s", "a", at=1)
    with _open(db2) as store:
        (turn,) = store.turns("s")
    assert (turn.origin, turn.retry_scope, turn.commit_status) == ("player", None, "committed")


def test_turns_survive_bad_payloads(make_db) -> None:
    db = make_db()
    db.session("s")
    db.event("s", "t", "runtime.started", None, at=1, raw="{not json")
    db.event("s", "t", "runtime.started", None, at=2, raw='"just a string"')
    db.event("s", "t", "runtime.started", {"data": {"runtimeId": "old/rt"}}, at=3)
    db.event("s", "t", "runtime.started", {"runtimeId": "new/rt"}, at=4)
    with _open(db) as store:
        (turn,) = store.turns("s")
    assert turn.runtime_ids == ("old/rt", "new/rt")
    assert turn.event_count == 4


# ------------------------------------------------------------------ events and payloads


def test_canonical_order_with_seq(make_db, backend: str) -> None:
    db = make_db()
    db.session("s")
    # Same millisecond: write order (seq) beats the id.
    db.event("s", "t", "a", {}, at=5, eid="zz")
    db.event("s", "t", "b", {}, at=5, eid="aa")
    db.event("s", "t", "c", {}, at=4, eid="mm")
    with _open(db) as store:
        events = store.events("s")
    if backend == "sqlite":
        assert [(e.id, e.seq) for e in events] == [("mm", 0), ("zz", 0), ("aa", 1)]
    else:
        # PostgreSQL numbers writes from one sequence per table (covel-db.md §5): same order.
        assert [(e.id, e.seq) for e in events] == [("mm", 3), ("zz", 1), ("aa", 2)]


def test_canonical_order_without_seq(make_db, backend: str) -> None:
    db = make_db(schema="old")
    db.session("s")
    db.event("s", "t", "a", {}, at=5, eid="zz")
    db.event("s", "t", "b", {}, at=5, eid="aa")
    db.event("s", "t", "c", {}, at=4, eid="mm")
    with _open(db) as store:
        events = store.events("s")
    assert [(e.id, e.seq) for e in events] == [("mm", None), ("aa", None), ("zz", None)]


def test_event_filters_and_lookup(make_db, build_sample, backend: str) -> None:
    db = make_db()
    build_sample(db)
    with _open(db) as store:
        assert [e.type for e in store.events("s1", turn_id="t1")] == [
            "turn.started", "runtime.started", "llm.calling", "llm.responded", "turn.completed"]
        assert len(store.events("s1", types=["llm.calling"])) == 4
        assert len(store.events("s1", types="llm.responded")) == 3
        assert store.events("s1", turn_id="t1", types=[]) == []
        first = store.events("s1")[0]
        again = store.event(first.id)
        assert again == first and again is not first
        assert store.event("missing") is None


def test_payload_accessors_and_legacy_data_merge(make_db, backend: str) -> None:
    db = make_db()
    db.session("s")
    db.event("s", "t", "llm.calling", {"data": {"runtimeId": "a/b", "pluginId": "a", "attempt": 2, "x": 1},
                                       "x": 2}, at=1)
    db.event("s", "t", "llm.calling", {"runtimeId": "top", "data": {"runtimeId": "nested"}}, at=2)
    with _open(db) as store:
        legacy, modern = store.events("s")
    assert legacy.payload["x"] == 2
    assert (legacy.runtime_id, legacy.plugin_id, legacy.attempt, legacy.payload_error) == ("a/b", "a", 2, None)
    assert modern.runtime_id == "top"
    # SQLite hands the column over as bytes, PostgreSQL the jsonb's text form.
    assert isinstance(legacy.raw_payload, bytes if backend == "sqlite" else str)
    assert json.loads(legacy.raw_text or "") ["x"] == 2


@pytest.mark.parametrize(
    ("raw", "error"),
    [
        (None, "payload is NULL"),
        ("null", "payload is a JSON null, not an object"),
        ("[1, 2]", "payload is a JSON array, not an object"),
        ("42", "payload is a JSON number, not an object"),
        ("{oops", "payload is not valid JSON"),
        ("", "payload is not valid JSON"),
        (b"\xff\xfe{}", "payload is not valid JSON"),
    ],
)
def test_bad_payload_is_listed_with_an_error(make_db, raw: Any, error: str) -> None:
    db = make_db()
    db.session("s")
    db.event("s", "t", "llm.calling", None, at=1, raw=raw, eid="bad")
    db.event("s", "t", "llm.calling", {"runtimeId": "r"}, at=2, eid="good")
    with _open(db) as store:
        bad, good = store.events("s")
        calls = store.llm_calls("s")
        rows = list(store.iter_llm_calling_rows("s"))
    assert bad.id == "bad"
    assert bad.payload == {}
    assert bad.payload_error is not None and bad.payload_error.startswith(error)
    assert (bad.runtime_id, bad.attempt) == (None, None)
    assert good.payload_error is None
    assert [c.calling.id for c in calls] == ["bad", "good"]
    assert [r[3] for r in rows] == ["bad", "good"]


def test_payload_is_parsed_once(make_db, backend: str) -> None:
    db = make_db()
    db.session("s")
    db.event("s", "t", "x", {"a": 1}, at=1)
    with _open(db) as store:
        (ev,) = store.events("s")
    assert ev.payload is ev.payload


def test_parse_json_object_reads_json_as_javascript_does() -> None:
    # JSON.parse refuses NaN, so Covel could not have read such a row either: say so.
    value, error = parse_json_object('{"a": NaN}')
    assert value == {} and error is not None and "NaN" in error
    assert parse_json_object({"already": "decoded"}) == ({"already": "decoded"}, None)


def test_parse_json_object_reads_any_nesting_depth_as_covel_does() -> None:
    # V8's JSON.parse has no depth limit, so Covel reads these rows; so do we (json_deep).
    for depth in (900, 1030, 10_000):
        value, error = parse_json_object(('{"a":' + "[" * depth + "]" * depth + "}").encode())
        assert error is None and list(value) == ["a"]
        levels, node = 0, value["a"]
        while node:
            levels, node = levels + 1, node[0]
        assert levels == depth - 1


# ------------------------------------------------------------------ llm calls


def test_llm_pairing_retry_and_tool_loop(make_db, build_sample, backend: str) -> None:
    db = make_db()
    build_sample(db)
    with _open(db) as store:
        calls = store.llm_calls("s1", turn_id="t2")
        everything = store.llm_calls("s1")
        only_setup = store.llm_calls("s1", runtime_id="setup/init")
    assert [(c.step, c.attempt, c.response is not None) for c in calls] == [
        (0, 0, True), (1, 0, False), (1, 1, True)]
    first, unanswered, retry = calls
    assert first.response is not None and first.response.payload["attempt"] == 0
    assert retry.response is not None and retry.response.payload["attempt"] == 1
    assert unanswered.usage is None
    assert retry.usage == TokenUsage(100, 20, 80, None)
    assert first.usage is None  # responded without usage
    assert {c.stage for c in calls} == {"narrative"}
    assert (first.runtime_id, first.plugin_id, first.model, first.provider) == (
        "narrator/main", "narrator", "deepseek-flash", "deepseek")
    assert first.started_at == "2026-10-06T08:00:00.020Z"  # payload.startedAt, not created_at
    assert first.turn_id == "t2" and first.session_id == "s1" and first.id == first.calling.id
    assert len(everything) == 4
    assert [(c.stage, c.step) for c in only_setup] == [("setup", 0)]
    assert only_setup[0].usage == TokenUsage(10, 2, None, None)


def test_llm_pairing_binds_to_latest_unanswered_same_attempt(make_db, backend: str) -> None:
    db = make_db()
    db.session("s")
    db.calling("s", "t", "a/x", 0, at=1)
    db.calling("s", "t", "b/y", 0, at=2)  # another runtime interleaved: its own group
    db.calling("s", "t", "a/x", 1, at=3)
    db.calling("s", "t", "a/x", 2, at=4)
    db.responded("s", "t", "a/x", 1, at=5)
    db.responded("s", "t", "b/y", 0, at=6)
    db.responded("s", "t", "a/x", 0, at=7)
    db.calling("s", "t", "a/x", 0, at=8)  # next tool-loop step
    db.calling("s", "t", "a/x", 0, at=9)  # and another, never answered
    db.responded("s", "t", "a/x", 0, at=10)
    db.responded("s", "other-turn", "a/x", 0, at=11)  # orphan: no calling in that turn
    with _open(db) as store:
        calls = store.llm_calls("s")
    summary = [(c.runtime_id, c.step, c.attempt, c.response.created_at[-4:-1] if c.response else None)
               for c in calls]
    assert summary == [
        ("a/x", 0, 0, "007"),
        ("b/y", 0, 0, "006"),
        ("a/x", 0, 1, "005"),
        ("a/x", 0, 2, None),
        ("a/x", 1, 0, None),
        ("a/x", 2, 0, "010"),
    ]
    assert all(c.stage is None for c in calls)


def test_first_surviving_call_is_a_retry(make_db, backend: str) -> None:
    db = make_db()
    db.session("s")
    db.calling("s", "t", "a/x", 1, at=1)
    db.calling("s", "t", "a/x", 2, at=2)
    db.calling("s", "t", "a/x", 0, at=3)
    with _open(db) as store:
        assert [(c.step, c.attempt) for c in store.llm_calls("s")] == [(0, 1), (0, 2), (1, 0)]


def test_provider_requests_and_provider_fallback(make_db, backend: str) -> None:
    db = make_db()
    db.session("s")
    requests = [{"schemaVersion": 1, "provider": "anthropic", "body": {"model": "m"}},
                {"schemaVersion": 2, "bodyRef": 0}]
    db.calling("s", "t", "a/x", at=1, provider=None, providerRequests=requests)
    db.event("s", "t", "llm.calling", {"runtimeId": "old/rt"}, at=2)
    with _open(db) as store:
        modern, legacy = store.llm_calls("s")
    assert modern.provider_requests == requests
    assert modern.provider == "anthropic"
    assert legacy.provider_requests == [] and legacy.provider is None and legacy.model is None
    assert legacy.started_at == legacy.calling.created_at
    assert isinstance(modern, LlmCall) and isinstance(modern.calling, TraceEvent)


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


# ------------------------------------------------------------------ streaming


class _RecordingCursor(sqlite3.Cursor):
    """Records how many payload rows each fetch of the llm.calling stream asks for."""

    fetches: list[int] = []

    def execute(self, sql: str, *args: Any) -> Any:  # type: ignore[override]
        if "CAST(payload AS BLOB)" in sql and "rowid IN" in sql:
            _RecordingCursor.fetches.append(len(args[0]))
        return super().execute(sql, *args)


class _RecordingConnection(sqlite3.Connection):
    def cursor(self, factory: Any = _RecordingCursor) -> Any:  # type: ignore[override]
        return super().cursor(factory)


def _many_calls(db, sessions: int = 2, per_session: int = 25) -> list[str]:
    ids = []
    for n in range(per_session):
        for s in range(sessions):
            # Several rows per millisecond so seq, not id, decides.
            ids.append(db.event(f"s{s}", f"t{n // 5}", "llm.calling", {"runtimeId": "a/x", "n": n}, at=n // 3,
                                eid=f"id-{999 - len(ids):03d}"))
            db.event(f"s{s}", f"t{n // 5}", "llm.responded", {"runtimeId": "a/x"}, at=n // 3)
    return ids


def test_stream_canonical_order_with_seq(make_db, backend: str) -> None:
    db = make_db()
    ids = _many_calls(db)
    with _open(db) as store:
        rows = list(store.iter_llm_calling_rows(batch=7))
        expected = [e.id for s in ("s0", "s1") for e in store.events(s, types=["llm.calling"])]
    assert sorted(r[3] for r in rows) == sorted(ids) == sorted(expected)
    assert all(type(r) is tuple and len(r) == 4 for r in rows)
    raw_type = bytes if backend == "sqlite" else str
    assert all(isinstance(r[2], raw_type) and json.loads(r[2])["runtimeId"] == "a/x" for r in rows)
    # SQLite's seq restarts for every (session, millisecond); PostgreSQL's sequence follows the
    # write order of the whole table, so rows of two sessions in one millisecond interleave
    # differently. Ties on (created_at, seq) come in rowid order on SQLite, as Covel's prefix
    # script gets them (store/ordering.py); by id on PostgreSQL.
    order = "created_at, seq, rowid" if backend == "sqlite" else "created_at, rowid"
    assert [r[3] for r in rows] == _reference_order(db.path, order)


def test_stream_canonical_order_without_seq_and_session_filter(make_db, backend: str) -> None:
    db = make_db(schema="old")
    _many_calls(db)
    with _open(db) as store:
        rows = list(store.iter_llm_calling_rows())
        only = list(store.iter_llm_calling_rows(session_id="s1", batch=4))
    tiebreak = "rowid" if backend == "sqlite" else "id"
    assert [r[3] for r in rows] == _reference_order(db.path, f"created_at, {tiebreak}")
    assert [r[3] for r in only] == _reference_order(db.path, f"created_at, {tiebreak}", session="s1")
    assert {(r[0]) for r in only} == {"s1"} and len(only) == 25


def _reference_order(path: Path, order_by: str, session: str | None = None) -> list[str]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        where = "type = 'llm.calling'" + (" AND session_id = ?" if session else "")
        params = (session,) if session else ()
        return [r[0] for r in conn.execute(f"SELECT id FROM trace_events WHERE {where} ORDER BY {order_by}", params)]
    finally:
        conn.close()


def test_stream_fetches_in_batches(make_db, monkeypatch: pytest.MonkeyPatch) -> None:
    db = make_db()
    _many_calls(db)
    db.close()

    def recording_connect(uri: str, timeout: float) -> sqlite3.Connection:
        return sqlite3.connect(uri, uri=True, timeout=timeout, check_same_thread=False,
                               factory=_RecordingConnection)

    monkeypatch.setattr(sqlite_open, "_sqlite_connect", recording_connect)
    _RecordingCursor.fetches = []
    with open_store(db.path) as store:
        stream = store.iter_llm_calling_rows(batch=8)
        first = next(stream)
        # Only the ids are sorted up front; payloads come one batch at a time, on demand.
        assert _RecordingCursor.fetches == [8]
        rest = list(stream)
    assert len(rest) + 1 == 50 and first[0] in ("s0", "s1")
    assert _RecordingCursor.fetches == [8, 8, 8, 8, 8, 8, 2]


def test_abandoned_streams_release_their_connection(make_db, backend: str) -> None:
    db = make_db()
    _many_calls(db)
    with _open(db) as store:
        stream = store.iter_llm_calling_rows(batch=2)
        next(stream)
        pool = store._engine.pool
        assert pool.checkedout() == 1  # type: ignore[attr-defined]
        stream.close()
        assert pool.checkedout() == 0  # type: ignore[attr-defined]
        left_open = store.iter_llm_calling_rows(batch=2)
        next(left_open)
    # close() closed the stream that was still open.
    with pytest.raises(StopIteration):
        next(left_open)


# ------------------------------------------------------------------ big payloads and dialects


def test_fifty_megabyte_payloads(make_db, backend: str) -> None:
    db = make_db()
    db.session("s")
    big = "x" * (50 * 1024 * 1024)
    db.calling("s", "t", "narrator/main", at=1, messages=[{"role": "system", "content": big}])
    db.responded("s", "t", "narrator/main", at=2)
    db.message("s", "t", at=3, order=0, content=big)
    del big
    started = time.monotonic()
    with _open(db) as store:
        (call,) = store.llm_calls("s")
        assert len(call.calling.payload["messages"][0]["content"]) == 50 * 1024 * 1024
        assert call.response is not None
        (turn,) = store.turns("s")
        assert turn.runtime_ids == ("narrator/main",)
        ((sid, tid, raw, _eid),) = list(store.iter_llm_calling_rows())
        assert (sid, tid) == ("s", "t") and len(raw) > 50 * 1024 * 1024
        (message,) = store.turn_messages("s")
        assert len(message.content or "") == 50 * 1024 * 1024
    assert time.monotonic() - started < 60


def test_postgresql_queries_read_jsonb_and_order_bytewise(make_db, build_sample, backend: str) -> None:
    db = make_db()
    build_sample(db)
    with _open(db) as store:
        dialect = store._engine.dialect
        stmt = sa.select(*store._event_columns(), store._runtime_id_expr()).order_by(*store._order("trace_events"))
        sql = str(stmt.compile(dialect=dialect))
        turns = store.turns("s1")
    assert [t.runtime_ids for t in turns][:2] == [("setup/init",), ("narrator/main",)]
    if backend == "sqlite":
        assert "json_extract" in sql and "CAST(trace_events.payload AS BLOB)" in sql
    else:
        # Runtime ids are read inside the server; payloads leave it as text; ids compare as bytes.
        assert "json_extract" not in sql and "BLOB" not in sql
        assert "CAST(trace_events.payload AS TEXT)" in sql
        assert "jsonb_typeof" in sql and "->>" in sql
        assert 'trace_events.id COLLATE "C"' in sql


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


def test_pair_llm_calls_ignores_other_types(make_db, backend: str) -> None:
    from inspector.store import pair_llm_calls

    db = make_db()
    db.session("s")
    db.event("s", "t", "runtime.started", {"runtimeId": "a/x", "stage": "narrative"}, at=1)
    db.calling("s", "t", "a/x", at=2)
    db.event("s", "t", "tool.completed", {"runtimeId": "a/x", "attempt": 0}, at=3)
    db.responded("s", "t", "a/x", at=4)
    with _open(db) as store:
        events = store.events("s", "t")
        assert [c.id for c in pair_llm_calls(events)] == [c.id for c in store.llm_calls("s", "t")]
    (call,) = pair_llm_calls(events)
    assert call.response is not None and call.response.type == "llm.responded" and call.stage == "narrative"


@pytest.mark.parametrize("schema", ["new", "old"])
def test_one_turn_is_read_in_canonical_order(make_db, schema: str, backend: str) -> None:
    db = make_db(schema=schema)
    db.session("s")
    db.event("s", "t", "a", {}, at=5, eid="zz")
    db.event("s", "t", "b", {}, at=5, eid="aa")
    db.event("s", "other", "x", {}, at=5, eid="bb")
    db.event("s", "t", "c", {}, at=4, eid="mm")
    db.event("s", "t", "d", {}, at=6, eid="ab")
    with _open(db) as store:
        whole = [e.id for e in store.events("s") if e.turn_id == "t"]
        one = [e.id for e in store.events("s", "t")]
        typed = [e.id for e in store.events("s", "t", ["a", "b"])]
    assert one == whole
    assert one == (["mm", "zz", "aa", "ab"] if schema == "new" else ["mm", "aa", "zz", "ab"])
    assert typed == [i for i in one if i in ("zz", "aa")]


# --- filter facets worked out by the database ------------------------------------------------

_FACET_PAYLOADS = [
    {"runtimeId": "narrator/main", "model": "deepseek-chat"},
    {"runtimeId": "guide/main", "model": "claude-haiku-4-5", "data": {"runtimeId": "ignored", "model": "ignored"}},
    {"data": {"runtimeId": "legacy/nested", "model": "gpt-4o"}},  # old schema: fields under data
    {"runtimeId": 7, "data": {"runtimeId": "hidden-by-top-level"}},  # not a string: no facet
    {"runtimeId": None, "model": None},
    {"runtimeId": "角色/追踪", "model": "模型😀"},
    {"runtimeId": "", "model": "quote\"and\\backslash"},
    ["not", "an", "object"],
    "just a string",
    {"data": "not an object", "model": "m-only"},
]


def test_facets_from_the_database_equal_the_python_scan(make_db, backend: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector import views

    db = make_db()
    db.session("s1")
    for i, payload in enumerate(_FACET_PAYLOADS):
        db.event("s1", "t1", "llm.calling", payload, at=i)
    if backend == "sqlite":  # jsonb cannot hold text that is not JSON
        db.event("s1", "t1", "llm.calling", raw="{not json", at=99)
    db.commit()
    with db.open() as store:
        computed = store.llm_call_facets()
        monkeypatch.setattr(store, "llm_call_facets", lambda: None)
        scanned = views.request_facets(store)
    assert computed == scanned
    assert computed == {"runtimes": ["", "guide/main", "legacy/nested", "narrator/main", "角色/追踪"],
                        "models": ["claude-haiku-4-5", "deepseek-chat", "gpt-4o", "m-only",
                                   "quote\"and\\backslash", "模型😀"]}


def test_llm_calling_rows_by_id_are_the_streamed_rows_in_the_order_asked(make_db, backend: str) -> None:
    db = make_db()
    db.session("s")
    for n in range(5):
        db.event("s", f"t{n}", "llm.calling", {"runtimeId": f"r{n % 2}", "n": n}, at=n + 1, eid=f"c{n}")
    if backend == "sqlite":  # PostgreSQL's json column takes no broken payload
        db.event("s", "t9", "llm.calling", None, at=9, raw=b"\xff\xfe{}", eid="bad")
    db.event("s", "t9", "llm.responded", {"runtimeId": "r0"}, at=10, eid="reply")
    with _open(db) as store:
        streamed = {r[3]: tuple(r) for r in store.iter_llm_calling_rows("s")}
        asked = ["c3", "bad", "c0", "missing", "c4"]
        got = store.llm_calling_rows_by_id(asked)
        assert store.llm_calling_rows_by_id([]) == []
    assert [tuple(r) for r in got] == [streamed[i] for i in asked if i in streamed]


@pytest.mark.parametrize("raw", ['{"runtimeId":"r","text":"灯"}', b'{"runtimeId":"r"}', b"\xff\xfe{}", "", None, 42, 4.5,
                                 "x" * 300_000])
def test_request_rows_carry_the_payload_bytes_as_stored(make_db, raw: Any) -> None:
    # Text and blob payloads are read through blob handles, the rest selected: either way the
    # bytes CAST(payload AS BLOB) gives, by both ways of reading request rows.
    db = make_db()
    db.session("s")
    db.event("s", "t", "llm.calling", None, at=1, raw=raw, eid="odd")
    db.event("s", "t", "llm.calling", {"runtimeId": "r"}, at=2, eid="good")
    with _open(db) as store:
        rows = list(store.iter_llm_calling_rows("s"))
        by_id = store.llm_calling_rows_by_id(["good", "odd", "absent"])
    conn = sqlite3.connect(db.path)
    try:
        expected = dict(conn.execute("SELECT id, CAST(payload AS BLOB) FROM trace_events"))
    finally:
        conn.close()
    assert [(r[3], r[2]) for r in rows] == [("odd", expected["odd"]), ("good", expected["good"])]
    assert [(r[3], r[2]) for r in by_id] == [("good", expected["good"]), ("odd", expected["odd"])]
    assert all(r[:2] == ("s", "t") for r in rows + by_id)


def _mapped(path: Path) -> bool | None:
    """Whether this process maps the file ``path`` (None where the system does not say)."""
    maps = Path("/proc/self/maps")
    if not maps.exists():
        return None
    return any(line.split()[-1] == str(path) for line in maps.read_text().splitlines() if line.count(" ") >= 5)


def _mmap_sizes(store: Store) -> list[int]:
    """``PRAGMA mmap_size`` of every connection the store's pool holds."""
    held = []
    with contextlib.ExitStack() as stack:
        for _ in range(store._engine.pool.size()):
            conn = stack.enter_context(store._connect())
            held.append(conn.exec_driver_sql("PRAGMA mmap_size").scalar())
    return held


def test_request_rows_read_memory_mapped_when_asked_and_unmapped_after(make_db) -> None:
    # The file is mapped only while rows asked for that way are read (never on Windows): a pooled
    # connection keeps no mapping, so the app's resident memory does not carry the pages it read.
    db = make_db(wal=True)
    db.session("s")
    for n in range(6):
        db.event("s", f"t{n}", "llm.calling", None, at=n + 1, raw=json.dumps({"runtimeId": "r", "text": "灯" * 9000}),
                 eid=f"c{n}")
    db.commit()
    writer = sqlite3.connect(db.path)
    writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the rows in the file, where a mapping reads them
    try:
        with open_store(db.path) as store:
            assert len(list(store.iter_llm_calling_rows("s"))) == 6
            assert _mapped(db.path) in (False, None)  # not asked for
            stream = store.iter_llm_calling_rows("s", batch=2, mapped=True)
            first = next(stream)
            assert _mapped(db.path) in (sys.platform != "win32", None)
            with store._connect() as conn:  # another pooled connection: not mapped
                assert conn.exec_driver_sql("PRAGMA mmap_size").scalar() == 0
            # A writer appends and checkpoints meanwhile; the stream reads on from its own snapshot.
            for n in range(6, 40):
                writer.execute("INSERT INTO trace_events (id, session_id, type, trace_id, turn_id, payload,"
                               " created_at, seq) VALUES (?, 's', 'llm.calling', 't', 't', ?, ?, 0)",
                               (f"c{n}", "x" * 50_000, f"2026-10-06T09:00:{n:02d}.000Z"))
                writer.commit()
            writer.execute("PRAGMA wal_checkpoint(PASSIVE)")
            rest = list(stream)
            assert [r[3] for r in [first, *rest]] == [f"c{n}" for n in range(6)]
            assert all(r[2].startswith(b'{"runtimeId": "r"') and len(r[2]) > 27_000 for r in [first, *rest])
            assert store.llm_calling_rows_by_id(["c39", "c0"], mapped=True)[0][2] == b"x" * 50_000
            abandoned = store.iter_llm_calling_rows("s", batch=2, mapped=True)
            next(abandoned)
            abandoned.close()  # a cancelled analysis leaves its stream unfinished
            assert set(_mmap_sizes(store)) == {0}
            assert _mapped(db.path) in (False, None)
    finally:
        writer.close()


# ------------------------------------------------------------------ Covel's script's order


@pytest.mark.parametrize("schema", ["new", "old"])
def test_llm_calling_rows_tied_on_created_at_and_seq_come_in_write_order(make_db, backend: str, schema: str) -> None:
    """What Covel's prefix script's "ORDER BY created_at, seq" gives on SQLite: ties in rowid
    order, whatever the ids. PostgreSQL: seq is one sequence (write order); without seq, id."""
    db = make_db(schema=schema)
    for n, (sid, eid) in enumerate([("s1", "id-z"), ("s0", "id-a"), ("s1", "id-m"), ("s0", "id-0")]):
        db.event(sid, f"t{n}", "llm.calling", {"runtimeId": "a/x", "n": n}, at=7, eid=eid)
    with _open(db) as store:
        order = [r[3] for r in store.iter_llm_calling_rows()]
        one = [r[3] for r in store.iter_llm_calling_rows("s1")]
    if backend == "postgresql" and schema == "old":
        assert order == ["id-0", "id-a", "id-m", "id-z"] and one == ["id-m", "id-z"]
    else:
        assert order == ["id-z", "id-a", "id-m", "id-0"] and one == ["id-z", "id-m"]


def test_llm_calling_rows_with_odd_id_types_and_invalid_utf8(tmp_path: Path) -> None:
    """Ids as node:sqlite gives them to Covel: TEXT with invalid UTF-8 as U+FFFD (not a decode
    error that ends the stream), a BLOB as bytes, an INTEGER as a number."""
    path = tmp_path / "covel.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE trace_events (id PRIMARY KEY, session_id, type TEXT NOT NULL, trace_id, turn_id,"
                 " payload, created_at, seq)")
    rows = [(b"e1", "CAST(? AS TEXT)", b"s\xff", b"t\xc3", b'{"runtimeId":"r\xfe"}'),
            (b"e2", "?", b"\x01\x02", 7, b'{"runtimeId":"r"}')]
    for n, (eid, mark, sid, tid, payload) in enumerate(rows):
        conn.execute(f"INSERT INTO trace_events VALUES (?, {mark}, 'llm.calling', 'tr', ?, CAST(? AS TEXT), ?, ?)",
                     (eid, sid, tid, payload, f"2025-01-01T00:00:0{n}.000Z", 0))
    conn.commit()
    conn.close()
    with open_store(path) as store:
        got = list(store.iter_llm_calling_rows())
        assert [r[:2] for r in got] == [("s\ufffd", b"t\xc3"), (b"\x01\x02", 7)]
        assert [parse_json_object(r[2])[0] for r in got] == [{"runtimeId": "r\ufffd"}, {"runtimeId": "r"}]
        assert [r[:2] for r in store.llm_calling_rows_by_id([b"e2", b"e1"])] == [(b"\x01\x02", 7), ("s\ufffd", b"t\xc3")]
