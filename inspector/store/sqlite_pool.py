"""The connections of a SQLite store: a small pool of read-only ``sqlite3`` connections.

The desktop app reads from several worker threads at once, and opening a connection costs a
few file system calls and a schema read, so connections are kept and handed out again. Each is
made by the store's opener (``mode=ro`` or ``immutable=1``, :mod:`inspector.store.sqlite_open`),
then made ``query_only`` with the store's busy timeout. A connection comes back with its
transaction rolled back, as it was handed out.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from .sql import SqliteConnection

__all__ = ["IDLE_CONNECTIONS", "SqlitePool"]

# Connections kept open between reads; more are made while that many are busy, and closed when
# they come back to a full pool.
IDLE_CONNECTIONS = 4


class SqlitePool:
    """Read-only connections made by ``connect()``. The first is made at once and probed, so a
    file that cannot be read fails here, not in the first query (raises ``sqlite3.Error``)."""

    dialect = "sqlite"

    def __init__(self, connect: Callable[[], sqlite3.Connection], busy_timeout: float) -> None:
        self._connect = connect
        self._busy_ms = int(busy_timeout * 1000)
        self._idle: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._out = 0
        self._disposed = False
        first = self._new()
        try:
            # Reading sqlite_master makes SQLite open the file (and its -wal and -shm) and take a
            # read lock; connecting alone is lazy and would defer every error to the first query.
            first.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except BaseException:
            first.close()
            raise
        self._idle.append(first)

    def _new(self) -> sqlite3.Connection:
        raw = self._connect()
        try:
            raw.execute("PRAGMA query_only=ON")  # belt and braces on top of mode=ro / immutable=1
            raw.execute(f"PRAGMA busy_timeout={self._busy_ms}")
        except BaseException:
            raw.close()
            raise
        return raw

    def checked_out(self) -> int:
        """Connections handed out and not yet back."""
        return self._out

    def idle(self) -> int:
        """Connections kept open, ready to be handed out."""
        return len(self._idle)

    def acquire(self) -> sqlite3.Connection:
        with self._lock:
            if self._disposed:
                raise sqlite3.ProgrammingError("Cannot operate on a closed database.")
            raw = self._idle.pop() if self._idle else None
            self._out += 1
        if raw is None:
            try:
                raw = self._new()
            except BaseException:
                with self._lock:
                    self._out -= 1
                raise
        return raw

    def release(self, raw: sqlite3.Connection) -> None:
        try:
            if raw.in_transaction:
                raw.rollback()
        except sqlite3.Error:
            # A connection that cannot even roll back is not handed out again.
            with self._lock:
                self._out -= 1
            raw.close()
            return
        with self._lock:
            self._out -= 1
            keep = not self._disposed and len(self._idle) < IDLE_CONNECTIONS
            if keep:
                self._idle.append(raw)
        if not keep:
            raw.close()

    @contextmanager
    def connection(self) -> Iterator[SqliteConnection]:
        raw = self.acquire()
        try:
            yield SqliteConnection(raw)
        finally:
            self.release(raw)

    def raw_connection(self) -> sqlite3.Connection:
        """A connection of its own for a caller that keeps it (and closes it): made like the
        pooled ones, never handed to anyone else."""
        with self._lock:
            if self._disposed:
                raise sqlite3.ProgrammingError("Cannot operate on a closed database.")
        return self._new()

    def dispose(self) -> None:
        """Close the idle connections; those still out are closed when they come back."""
        with self._lock:
            self._disposed = True
            idle, self._idle = self._idle, []
        for raw in idle:
            raw.close()
