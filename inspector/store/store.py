"""The read-only Covel store object: its connections, its lifecycle, and the reads it offers.

Each read lives in the module named for what it reads (sessions, turns, trace events, payload
rows, the side tables, following); :class:`Store` owns the connections (a pool of ``sqlite3``
connections, :mod:`inspector.store.sqlite_pool`, or a server's engine, :mod:`inspector.store.server`)
and the schema they build their queries from, and hands them itself
(:class:`inspector.store.schema.Reader`).
"""

from __future__ import annotations

import sqlite3
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from . import calls, facets, following, id_prefixes, payload_rows, side_tables, trace_events, turns
from . import sessions as session_list
from .errors import StoreError
from .kept_turns import kept_turn_figures
from .read_errors import is_driver_error, read_failure, translate_error
from .records import (
    LlmCall,
    SessionInfo,
    SessionSummary,
    SuspensionRecord,
    ToolCallRecord,
    TraceEvent,
    TurnInfo,
    TurnMessage,
    TurnResult,
)
from .schema import Schema, adaptation_notes, has_json_functions, reflect
from .sql import Connection
from .sqlite_open import Opened
from .values import ValueNotes

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from sqlalchemy.engine import URL

__all__ = ["Store"]


class Pool(Protocol):
    """The connections of a store: :class:`inspector.store.sqlite_pool.SqlitePool` or
    :class:`inspector.store.server.ServerPool`."""

    dialect: str

    def connection(self) -> AbstractContextManager[Connection]: ...

    def checked_out(self) -> int: ...

    def dispose(self) -> None: ...

_NOT_LOOKED_UP = object()
_REOPENED = "the file changed on disk since it was opened, so it was opened again"


class _WatchConnection:
    """The connection :meth:`Store.change_token` keeps (its value is per connection)."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        self.lock = threading.Lock()

    def close(self) -> None:
        with self.lock:
            self.raw.close()


class Store:
    """A read-only Covel store. Use :func:`inspector.store.open_store` to create one; close it
    (or use ``with``).

    ``read_only_mode`` is ``"ro"`` (SQLite ``mode=ro``, or a read-only PostgreSQL session),
    ``"immutable"`` (SQLite ``immutable=1``) or ``"copy"`` (a private copy of the file); why is in
    :attr:`schema_notes` (:mod:`inspector.store.sqlite_open` decides), with what an older schema
    lacks (:func:`inspector.store.schema.adaptation_notes`). A SQLite store read as a snapshot is
    opened again, in the way the file's state then calls for, when the file changes. Safe to
    share between threads; each call borrows a pooled connection.
    """

    def __init__(
        self,
        pool: Pool,
        *,
        path: Path | None,
        url: str,
        location: str,
        read_only_mode: str,
        busy_timeout: float,
        notes: list[str],
        sa_url: URL | None = None,
        sqlite: tuple[Opened, Callable[[], Opened]] | None = None,
    ) -> None:
        self._pool = pool
        # How the SQLite file was opened, and how to open it again when it changes.
        self._opened, self._reopen = sqlite if sqlite is not None else (None, None)
        self._generation = 0
        self._sa_url = sa_url
        self._watch: _WatchConnection | None = None
        self.path = path
        self.url = url
        self.location = location
        self.read_only_mode = read_only_mode
        self.busy_timeout = busy_timeout
        self.schema_notes: list[str] = list(notes)
        self._closed = False
        self._lock = threading.Lock()
        self._streams: weakref.WeakSet[Iterator[Any]] = weakref.WeakSet()
        # Whether turn listings are kept between runs (inspector.store.kept_turns); set before
        # the first listing.
        self.keep_turn_figures = True
        self._kept_turns: Any = _NOT_LOOKED_UP
        try:
            with self.connect() as conn:
                tables = reflect(conn, location)
                json1 = has_json_functions(conn)
            # Odd values found while reading add their notes to schema_notes too.
            self.schema = Schema(tables, pool.dialect, json1, ValueNotes(self.schema_notes))
            self.schema_notes.extend(adaptation_notes(tables, pool.dialect, location, json1))
        except BaseException:
            pool.dispose()
            raise
        self.has_seq = self.schema.has_seq

    # ----------------------------------------------------------------- lifecycle

    def close(self) -> None:
        with self._lock:
            if self._closed:
                return
            self._closed = True
            streams = list(self._streams)
        for stream in streams:
            try:
                stream.close()  # type: ignore[attr-defined]
            except ValueError:
                # Running in another thread right now; it returns its connection when it stops.
                pass
        self._pool.dispose()
        if self._opened is not None:
            self._opened.release()  # the private copy, if any, goes with it

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def open_spec(self) -> str | None:
        """What :func:`open_store` opens this store again with, in another process (the cache
        analysis's worker, :mod:`inspector.cache.worker`); None for an in-memory database."""
        if self._sa_url is None:
            return str(self.path) if self.path is not None else None
        database = self._sa_url.database
        if self._sa_url.get_backend_name() == "sqlite" and (not database or database == ":memory:"):
            return None
        return self._sa_url.render_as_string(hide_password=False)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({self.location!r}, mode={self.read_only_mode!r})"

    # ----------------------------------------------------------------- what the reading modules use

    def check_open(self) -> None:
        if self._closed:
            raise StoreError(f"{self.location}: the store is closed", location=self.location)

    @contextmanager
    def connect(self) -> Iterator[Connection]:
        """A pooled connection; every driver error in the block becomes the store's own error."""
        self.check_open()
        self._reopen_if_stale()
        conn = None  # set once connected: an error after that happened while reading
        try:
            with self._pool.connection() as conn:
                yield conn
        except Exception as exc:  # a driver's error, raised by it or wrapped by SQLAlchemy
            if not is_driver_error(exc):
                raise
            raise read_failure(exc, self.location, self.busy_timeout, self._sa_url, self.path,
                               reading=conn is not None, fallback=translate_error) from exc

    def track(self, stream: Iterator[Any]) -> Iterator[Any]:
        """Register an open stream, closed by :meth:`close` if still open then."""
        with self._lock:
            self._streams.add(stream)
        return stream

    # ----------------------------------------------------------------- following a live store

    def change_token(self) -> Any:
        """A value that differs between two calls when another connection committed in between
        (it may also differ when nothing this reader shows changed); cheap enough to poll.

        SQLite: ``PRAGMA data_version`` of a connection kept for it (the value is per connection,
        so a pooled one would not do); it sees commits through the WAL in read-only mode. A file
        read as a snapshot (``immutable``, ``copy``) is opened again when it changes on disk, which
        moves the token too. PostgreSQL: the current snapshot ``xmin:xmax:xip``, which every
        commit in the cluster moves and reading never does.
        """
        dialect = self.schema.dialect_name
        if dialect == "sqlite":
            self._reopen_if_stale()
            watch = self._watch_connection()
            with watch.lock:
                cursor = watch.raw.cursor()
                try:
                    cursor.execute("PRAGMA data_version")
                    return self._generation, cursor.fetchone()[0]
                except sqlite3.Error as exc:
                    raise translate_error(exc, self.location, self.busy_timeout) from exc
                finally:
                    cursor.close()
        with self.connect() as conn:
            try:
                return conn.scalar("SELECT CAST(pg_current_snapshot() AS TEXT)")
            except conn.ProgrammingError:  # before PostgreSQL 13
                conn.rollback()  # type: ignore[attr-defined]
                return conn.scalar("SELECT CAST(txid_current_snapshot() AS TEXT)")

    def _reopen_if_stale(self) -> None:
        """A SQLite file read as a snapshot because nothing had it open (or through a private
        copy) is opened again as soon as that changes, e.g. Covel starts writing and its -wal and
        -shm appear: reads then go through ``mode=ro`` and see the writes, never a torn file."""
        opened = self._opened
        if opened is None or self._reopen is None or not opened.stale():
            return
        with self._lock:
            if self._closed or self._opened is not opened:
                return
            fresh = self._reopen()
            old_watch = self._watch
            self._watch = None
            self._opened, self._pool = fresh, fresh.pool
            if self.url == opened.uri:
                self.url = fresh.uri
            self.read_only_mode = fresh.mode
            self._generation += 1
            kept = [note for note in self.schema_notes if note not in opened.notes and not note.startswith(_REOPENED)]
            # In place: the list is shared with what adds notes while reading.
            self.schema_notes[:] = [*fresh.notes, f"{_REOPENED} (it was read as {opened.mode}, now {fresh.mode})",
                                    *kept]
        if old_watch is not None:
            old_watch.close()
        opened.release()

    def _watch_connection(self) -> _WatchConnection:
        with self._lock:
            self.check_open()
            watch = self._watch
            if watch is None:
                watch = self._watch = _WatchConnection(self._pool.raw_connection())  # type: ignore[attr-defined]
                # close() closes what is in _streams: the kept connection goes back with them.
                self._streams.add(watch)  # type: ignore[arg-type]
        return watch

    FOLLOW_OVERLAP_SECONDS = following.FOLLOW_OVERLAP_SECONDS

    def follow_start(self) -> dict[str, Any]:
        """A cursor at the current end of the store (:func:`inspector.store.following.follow_start`)."""
        return following.follow_start(self)

    def follow_read(self, cursor: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """Rows written since ``cursor`` (:func:`inspector.store.following.follow_read`)."""
        return following.follow_read(self, cursor)

    # ----------------------------------------------------------------- sessions

    def sessions(self, *, event_counts: bool | None = None) -> list[SessionInfo]:
        """All sessions (:func:`inspector.store.sessions.sessions`)."""
        return session_list.sessions(self, event_counts=event_counts)

    def approximate_trace_rows(self) -> int:
        return session_list.approximate_trace_rows(self)

    def session_event_counts(self, session_ids: Iterable[str]) -> dict[str, int]:
        return session_list.session_event_counts(self, session_ids)

    def session_records(self, session_ids: Iterable[str] | None = None) -> dict[str, dict[str, Any]]:
        return session_list.session_records(self, session_ids)

    def request_sessions(self) -> list[str]:
        return session_list.request_sessions(self)

    def ids_with_prefix(self, kind: str, prefix: str, limit: int = 10) -> list[str]:
        """Ids of ``kind`` that start with ``prefix`` (:func:`inspector.store.id_prefixes.ids_with_prefix`)."""
        return id_prefixes.ids_with_prefix(self, kind, prefix, limit)

    # ----------------------------------------------------------------- turns

    def turns(self, session_id: str) -> list[TurnInfo]:
        """Executions of a session in order of first appearance (result row or first trace row);
        a session listed before reads only its new rows (:mod:`inspector.store.kept_turns`)."""
        with self._lock:
            if self._kept_turns is _NOT_LOOKED_UP:
                self._kept_turns = kept_turn_figures(self) if self.keep_turn_figures else None
        return turns.turn_infos(self, session_id, None, self._kept_turns)

    def turns_by_id(self, session_id: str, turn_ids: Iterable[str]) -> list[TurnInfo]:
        """:meth:`turns` restricted to some executions, read through the ``turn_id`` indexes only
        (cost grows with those turns, not with the session), in the same order. ``number`` counts
        within the returned turns only: the caller knows where they sit in the session."""
        wanted = list(dict.fromkeys([turn_ids] if isinstance(turn_ids, str) else turn_ids))
        return turns.turn_infos(self, session_id, wanted) if wanted else []

    def session_of_turn(self, turn_id: str) -> str | None:
        return side_tables.session_of_turn(self, turn_id)

    def turn_results(self, session_id: str, turn_ids: Iterable[str] | None = None) -> list[TurnResult]:
        return side_tables.turn_results(self, session_id, turn_ids)

    # ----------------------------------------------------------------- events and calls

    def events(self, session_id: str, turn_id: str | None = None,
               types: Iterable[str] | None = None) -> list[TraceEvent]:
        """Trace events of a session (optionally one turn / some types) in canonical order."""
        return trace_events.events(self, session_id, turn_id, types)

    def event(self, event_id: str) -> TraceEvent | None:
        return trace_events.event(self, event_id)

    def llm_calling_order(self, session_id: str) -> dict[str, tuple[str, int, str]]:
        """Each model request of a session → its canonical (write) order key
        (:func:`inspector.store.trace_events.llm_calling_order`)."""
        return trace_events.llm_calling_order(self, session_id)

    def existing_event_ids(self, event_ids: Iterable[str]) -> set[str]:
        return trace_events.existing_event_ids(self, event_ids)

    def request_key_column(self) -> str | None:
        return trace_events.write_order_key(self)

    def event_key(self, event_id: str) -> int | None:
        return trace_events.event_key(self, event_id)

    def llm_calls(self, session_id: str, turn_id: str | None = None,
                  runtime_id: str | None = None) -> list[LlmCall]:
        return calls.llm_calls(self, session_id, turn_id, runtime_id)

    def llm_call_facets(self) -> dict[str, list[str]] | None:
        return facets.llm_call_facets(self)

    def iter_llm_calling_rows(self, session_id: str | None = None, batch: int = 256, *,
                              mapped: bool = False) -> Iterator[tuple[str, str, bytes | str | None, str]]:
        """Every ``llm.calling`` row with its raw payload, streamed
        (:func:`inspector.store.payload_rows.iter_llm_calling_rows`)."""
        return payload_rows.iter_llm_calling_rows(self, session_id, batch, mapped=mapped)

    def llm_calling_rows_by_id(self, event_ids: list[str], *,
                               mapped: bool = False) -> list[tuple[str, str, bytes | str | None, str]]:
        return payload_rows.llm_calling_rows_by_id(self, event_ids, mapped=mapped)

    def iter_llm_calling_since(self, session_id: str, after: int | None,
                               batch: int = 128) -> Iterator[tuple[int, str, bytes | str | None]]:
        return payload_rows.iter_llm_calling_since(self, session_id, after, batch)

    # ----------------------------------------------------------------- journal and side tables

    def turn_messages(self, session_id: str, turn_id: str | None = None) -> list[TurnMessage]:
        return side_tables.turn_messages(self, session_id, turn_id)

    def session_summaries(self, session_id: str) -> list[SessionSummary]:
        return side_tables.session_summaries(self, session_id)

    def tool_calls(self, session_id: str, turn_id: str | None = None) -> list[ToolCallRecord]:
        return side_tables.tool_calls(self, session_id, turn_id)

    def suspensions(self, session_id: str, turn_id: str | None = None) -> list[SuspensionRecord]:
        return side_tables.suspensions(self, session_id, turn_id)
