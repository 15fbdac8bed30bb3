"""The pool of read-only sqlite3 connections a SQLite store reads through (inspector.store.sqlite_pool)."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from inspector.store.sqlite_pool import IDLE_CONNECTIONS, SqlitePool


@pytest.fixture
def database(tmp_path: Path) -> Path:
    path = tmp_path / "pool.db"
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE t (a INTEGER)")
        con.executemany("INSERT INTO t VALUES (?)", [(n,) for n in range(5)])
    con.close()
    return path


def _pool(path: Path, made: list[sqlite3.Connection] | None = None) -> SqlitePool:
    def connect() -> sqlite3.Connection:
        raw = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        if made is not None:
            made.append(raw)
        return raw
    return SqlitePool(connect, busy_timeout=2.5)


def test_every_connection_is_query_only_with_the_busy_timeout(database: Path) -> None:
    pool = _pool(database)
    with pool.connection() as conn:
        assert conn.scalar("PRAGMA query_only") == 1
        assert conn.scalar("PRAGMA busy_timeout") == 2500
        assert conn.all("SELECT a FROM t WHERE a >= :low ORDER BY a", {"low": 3}) == [(3,), (4,)]
        assert conn.dicts("SELECT a AS value FROM t WHERE a = 0") == [{"value": 0}]
        assert list(conn.stream("SELECT a FROM t ORDER BY a", None, 2)) == [(n,) for n in range(5)]
    pool.dispose()


def test_a_file_that_cannot_be_read_fails_when_the_pool_is_made(tmp_path: Path) -> None:
    bad = tmp_path / "not.db"
    bad.write_bytes(b"not a database at all, just text" * 10)
    with pytest.raises(sqlite3.DatabaseError):
        SqlitePool(lambda: sqlite3.connect(f"file:{bad}?mode=ro", uri=True), busy_timeout=1)


def test_connections_are_handed_out_again_with_their_transaction_ended(database: Path) -> None:
    made: list[sqlite3.Connection] = []
    pool = _pool(database, made)
    with pool.connection() as conn:
        conn.raw.execute("BEGIN")
        conn.all("SELECT * FROM t")
        assert conn.raw.in_transaction and pool.checked_out() == 1
    assert pool.checked_out() == 0 and pool.idle() == 1
    with pool.connection() as again:
        assert again.raw is made[0] and not again.raw.in_transaction
    assert len(made) == 1
    pool.dispose()


def test_busy_connections_are_added_and_at_most_the_idle_limit_is_kept(database: Path) -> None:
    made: list[sqlite3.Connection] = []
    pool = _pool(database, made)
    held = [pool.acquire() for _ in range(IDLE_CONNECTIONS + 2)]
    assert pool.checked_out() == IDLE_CONNECTIONS + 2 and len(made) == IDLE_CONNECTIONS + 2
    for raw in held:
        pool.release(raw)
    assert pool.idle() == IDLE_CONNECTIONS and pool.checked_out() == 0
    closed = [raw for raw in made if raw not in pool._idle]
    for raw in closed:
        with pytest.raises(sqlite3.ProgrammingError):
            raw.execute("SELECT 1")
    pool.dispose()


def test_dispose_closes_idle_connections_now_and_busy_ones_when_they_return(database: Path) -> None:
    made: list[sqlite3.Connection] = []
    pool = _pool(database, made)
    busy, idle = pool.acquire(), pool.acquire()
    pool.release(idle)
    pool.dispose()
    with pytest.raises(sqlite3.ProgrammingError):
        idle.execute("SELECT 1")
    assert busy.execute("SELECT count(*) FROM t").fetchone() == (5,)  # still usable by its holder
    pool.release(busy)
    with pytest.raises(sqlite3.ProgrammingError):
        busy.execute("SELECT 1")
    with pytest.raises(sqlite3.ProgrammingError):
        pool.acquire()


def test_threads_read_at_once_through_their_own_connections(database: Path) -> None:
    pool = _pool(database)
    barrier = threading.Barrier(3)
    seen: list[int] = []

    def read() -> None:
        with pool.connection() as conn:
            barrier.wait(timeout=10)
            seen.append(conn.scalar("SELECT sum(a) FROM t"))

    threads = [threading.Thread(target=read) for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert seen == [10, 10, 10] and pool.checked_out() == 0 and pool.idle() == 3
    pool.dispose()
