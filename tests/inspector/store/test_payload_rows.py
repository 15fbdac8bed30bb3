"""Bulk llm.calling rows with raw payloads, the SQLite fast path and the plain path (inspector.store.payload_rows)."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from inspector.store.sqlite_pool import IDLE_CONNECTIONS
from inspector.store import Store, open_store, parse_json_object
from inspector.store import sqlite_open


def _open(db) -> Store:
    return db.open()


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
        pool = store._pool
        assert pool.checked_out() == 1
        stream.close()
        assert pool.checked_out() == 0
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
        for _ in range(IDLE_CONNECTIONS):
            conn = stack.enter_context(store.connect())
            held.append(conn.scalar("PRAGMA mmap_size"))
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
            with store.connect() as conn:  # another pooled connection: not mapped
                assert conn.scalar("PRAGMA mmap_size") == 0
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


@pytest.mark.parametrize("schema", ["new", "old"])
def test_the_sqlite_fast_path_gives_the_plain_paths_rows(make_db, schema: str) -> None:
    # The blob-handle reads stand in for the plain streamed query: same rows, same order, same bytes.
    from inspector.store import payload_rows

    db = make_db(schema=schema)
    db.session("s")
    db.session("z")
    for n in range(7):
        db.event("s" if n % 3 else "z", f"t{n % 2}", "llm.calling", {"runtimeId": "r", "text": "灯" * (n * 999)},
                 at=n // 2 + 1, eid=f"c{n}")
    db.event("s", "t0", "llm.calling", None, at=9, raw=b'{"runtimeId":"b"}', eid="blob")
    db.event("s", "t0", "llm.calling", None, at=9, raw=None, eid="null")
    db.event("s", "t0", "llm.responded", {"runtimeId": "r"}, at=10, eid="reply")
    with db.open() as store:
        for session in (None, "s"):
            fast = list(payload_rows.iter_llm_calling_rows(store, session, 2))
            plain = list(payload_rows.iter_llm_calling_rows(store, session, 2, fast=False))
            assert [tuple(r) for r in fast] == [tuple(r) for r in plain] and len(fast) == (9 if session is None else 6)
        ids = ["null", "c3", "absent", "blob", "c0"]
        assert payload_rows.llm_calling_rows_by_id(store, ids) == [
            tuple(r) for r in payload_rows.llm_calling_rows_by_id(store, ids, fast=False)]
