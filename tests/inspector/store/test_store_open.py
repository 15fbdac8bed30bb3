"""Opening a store: read-only guarantees, bad input, locks, WAL, URLs."""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path

import pytest

from inspector.store import (
    EmptyDatabaseError,
    NotACovelStoreError,
    NotADatabaseError,
    StoreError,
    StoreLockedError,
    StoreNotFoundError,
    open_store,
)
from inspector.store import sqlite_open


def _snapshot(path: Path) -> tuple[bytes, int, list[str]]:
    return path.read_bytes(), path.stat().st_mtime_ns, sorted(os.listdir(path.parent))


def test_missing_path_names_the_file(tmp_path: Path) -> None:
    target = tmp_path / "nope.db"
    with pytest.raises(StoreNotFoundError, match="nope.db does not exist"):
        open_store(target)
    assert not target.exists()


def test_directory_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(StoreNotFoundError, match="is a directory"):
        open_store(tmp_path)


def test_empty_file_is_reported_and_left_alone(tmp_path: Path) -> None:
    target = tmp_path / "empty.db"
    target.touch()
    before = _snapshot(target)
    with pytest.raises(EmptyDatabaseError, match=r"empty\.db is empty"):
        open_store(target)
    assert _snapshot(target) == before
    assert target.stat().st_size == 0


def test_text_file_is_not_sqlite(tmp_path: Path) -> None:
    target = tmp_path / "notes.db"
    target.write_text("hello, I am not a database\n" * 10)
    with pytest.raises(NotADatabaseError, match=r"notes\.db is not a SQLite database"):
        open_store(target)


def test_sqlite_without_trace_events(tmp_path: Path) -> None:
    target = tmp_path / "other.db"
    conn = sqlite3.connect(target)
    conn.execute("CREATE TABLE things (id TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(NotACovelStoreError, match=r"other\.db has no trace_events table: not a Covel store\?"):
        open_store(target)


def test_errors_share_a_base_class(tmp_path: Path) -> None:
    with pytest.raises(StoreError) as info:
        open_store(tmp_path / "missing.db")
    assert info.value.location == str(tmp_path / "missing.db")


def test_opening_never_modifies_a_rollback_journal_file(make_db, build_sample) -> None:
    db = make_db()
    build_sample(db)
    db.close()
    before = _snapshot(db.path)
    time.sleep(0.01)
    with open_store(db.path) as store:
        store.sessions()
        store.turns("s1")
        store.events("s1")
        store.llm_calls("s1")
        list(store.iter_llm_calling_rows())
        store.turn_messages("s1")
        assert store.read_only_mode == "ro"
        assert store.url.startswith("file:") and store.url.endswith("?mode=ro")
        # No -journal/-wal/-shm while the store is open either.
        assert sorted(os.listdir(db.path.parent)) == before[2]
    assert _snapshot(db.path) == before


def test_path_with_uri_special_characters(tmp_path: Path, make_db, build_sample) -> None:
    db = make_db("we?ird #name%.db")
    build_sample(db)
    db.close()
    with open_store(db.path) as store:
        assert [s.id for s in store.sessions()] == ["s1", "s2"]
    assert sorted(os.listdir(tmp_path)) == ["we?ird #name%.db"]


def test_writes_are_refused(make_db, build_sample) -> None:
    db = make_db()
    build_sample(db)
    db.close()
    with open_store(db.path) as store:
        with store.connect() as conn, pytest.raises(Exception, match="readonly|read-only"):
            conn.all("DELETE FROM trace_events")


def test_reads_beside_a_wal_writer_holding_a_transaction(make_db, build_sample) -> None:
    db = make_db(wal=True)
    build_sample(db)
    db.commit()
    writer = db.conn
    writer.execute("BEGIN IMMEDIATE")
    db.event("s1", "t9", "turn.started", {}, at=90)
    try:
        with open_store(db.path, busy_timeout=0.2) as store:
            events = store.events("s1")
            assert "t9" not in {e.turn_id for e in events}
            assert len(events) == 14
            writer.commit()
            # Committed rows become visible to the next read.
            assert "t9" in {e.turn_id for e in store.events("s1")}
    finally:
        db.close()


def test_locked_database_gives_a_clear_retry_message(make_db, build_sample) -> None:
    db = make_db()
    build_sample(db)
    db.commit()
    db.conn.execute("BEGIN EXCLUSIVE")
    try:
        started = time.monotonic()
        with pytest.raises(StoreLockedError, match=r"covel\.db is locked.*try again"):
            open_store(db.path, busy_timeout=0.2)
        assert time.monotonic() - started >= 0.15
    finally:
        db.close()


def test_lock_taken_after_open_is_reported_on_read(make_db, build_sample) -> None:
    db = make_db()
    build_sample(db)
    db.commit()
    with open_store(db.path, busy_timeout=0.1) as store:
        db.conn.execute("BEGIN EXCLUSIVE")
        try:
            with pytest.raises(StoreLockedError, match="locked"):
                store.events("s1")
        finally:
            db.conn.rollback()
        assert len(store.events("s1")) == 14
    db.close()


def _read_only_folder(monkeypatch: pytest.MonkeyPatch, folder: Path) -> list[str]:
    """Stands in for a WAL file in a read-only folder: a mode=ro open there fails as when the
    -shm cannot be used. (Tests run as root, where folder permissions would not stop SQLite.)"""
    real_connect = sqlite_open._sqlite_connect
    attempts: list[str] = []

    def fake_connect(uri: str, timeout: float) -> object:
        attempts.append(uri)
        conn = real_connect(uri, timeout)
        if "immutable=1" in uri or str(folder) not in uri:
            return conn
        conn.close()
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(sqlite_open, "_sqlite_connect", fake_connect)
    return attempts


def test_read_only_folder_with_changes_in_the_wal_reads_a_private_copy(
        make_db, build_sample, monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    cache = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    db = make_db(wal=True)
    build_sample(db)
    db.commit()  # the writer stays open: its -wal holds every row, its -shm is there
    try:
        listing = sorted(os.listdir(db.path.parent))
        attempts = _read_only_folder(monkeypatch, db.path.parent)
        with open_store(db.path) as store:
            assert store.read_only_mode == "copy"
            assert any(note.startswith("read through a private copy") and "read-only mode failed" in note
                       for note in store.schema_notes)
            assert [s.id for s in store.sessions()] == ["s1", "s2"]
            assert sorted(os.listdir(db.path.parent)) == listing
            # The writer carries on: the snapshot stays as it was (no copy per commit).
            db.session("s3")
            db.commit()
            assert [s.id for s in store.sessions()] == ["s1", "s2"]
            assert len(os.listdir(cache / "prompt-inspector" / "snapshots")) == 1
        assert "immutable=1" not in attempts[0]
        assert os.listdir(cache / "prompt-inspector" / "snapshots") == []
    finally:
        db.close()


def test_read_only_folder_with_an_empty_wal_falls_back_to_immutable(
        make_db, build_sample, monkeypatch: pytest.MonkeyPatch) -> None:
    db = make_db(wal=True)
    build_sample(db)
    db.commit()
    db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every row in the file, the -wal empty
    try:
        attempts = _read_only_folder(monkeypatch, db.path.parent)
        with open_store(db.path) as store:
            assert store.read_only_mode == "immutable"
            assert any("immutable=1 because read-only mode failed" in note for note in store.schema_notes)
            assert [s.id for s in store.sessions()] == ["s1", "s2"]
        assert "immutable=1" not in attempts[0] and "immutable=1" in attempts[-1]
    finally:
        db.close()


def test_other_open_errors_are_not_retried(make_db, build_sample, monkeypatch: pytest.MonkeyPatch) -> None:
    db = make_db()
    build_sample(db)
    db.close()

    def fake_connect(uri: str, timeout: float) -> object:
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(sqlite_open, "_sqlite_connect", fake_connect)
    with pytest.raises(StoreLockedError):
        open_store(db.path)


def test_sqlite_url_is_opened_like_a_path(make_db, build_sample, tmp_path: Path) -> None:
    db = make_db()
    build_sample(db)
    db.close()
    url = f"sqlite:///{db.path}"
    with open_store(url) as store:
        assert store.url == url
        assert store.read_only_mode == "ro"
        assert len(store.sessions()) == 2
    with pytest.raises(StoreNotFoundError):
        open_store(f"sqlite:///{tmp_path / 'absent.db'}")
    assert not (tmp_path / "absent.db").exists()


def test_a_sqlite_url_with_options_is_read_only(make_db, build_sample) -> None:
    db = make_db()
    build_sample(db)
    db.close()
    before = _snapshot(db.path)
    # A URL with query options: parsed by SQLAlchemy's URL rules, opened by open_sqlite.
    url = f"sqlite:///file:{db.path}?mode=ro&uri=true"
    with open_store(url) as store:
        assert store.read_only_mode == "ro"
        assert store.path == db.path
        assert store.has_seq
        assert [t.turn_id for t in store.turns("s1")] == ["t1", "t2", "c1", "t4"]
        assert len(list(store.iter_llm_calling_rows())) == 5
        with store.connect() as conn:
            assert conn.scalar("PRAGMA query_only") == 1
    assert _snapshot(db.path) == before


def test_closed_store_refuses_queries(make_db, build_sample) -> None:
    db = make_db()
    build_sample(db)
    db.close()
    store = open_store(db.path)
    store.close()
    store.close()
    assert store.closed
    with pytest.raises(StoreError, match="closed"):
        store.sessions()
    with pytest.raises(StoreError, match="closed"):
        store.iter_llm_calling_rows()


def test_pathlike_and_str_both_work(make_db, build_sample) -> None:
    db = make_db()
    build_sample(db)
    db.close()
    for target in (db.path, str(db.path)):
        with open_store(target) as store:
            assert store.path == db.path
