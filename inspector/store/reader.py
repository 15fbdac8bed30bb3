"""Read-only access to a Covel store (``covel.db`` or a PostgreSQL URL) through SQLAlchemy Core.

Covel has no migrations, so every query is built from the columns the file actually has
(see the spec ``covel-db.md`` §1); adaptations are listed in :attr:`Store.schema_notes`.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import URL, Connection, Engine, make_url

from .errors import (
    NotACovelStoreError,
    StoreError,
    StoreOpenError,
)
from . import postgres as pg
from .ordering import order_keys
from .sqlite_open import DEFAULT_BUSY_TIMEOUT, Opened, SqliteRequest, open_sqlite, sqlite_request
from .read_errors import is_driver_error, read_failure, translate_error
from .urls import bad_url_message, looks_like_url, shown_url
from .columns import UNKNOWN_TURN, adapt_sql, node_text_factory, adapt_tables, fetch_all, matches, matches_any, typed_chunks
from .values import ValueNotes
from ..covel.events import RUNTIME_LIFECYCLE_TYPES
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
    parse_json_object,
    parse_json_value,
    trace_event,
)

__all__ = ["Store", "open_store", "pair_llm_calls", "DEFAULT_BUSY_TIMEOUT"]


# Tables whose columns drive query building. Anything else in the file is ignored.
_TABLES = ("sessions", "worlds", "trace_events", "turn_results", "turn_messages", "session_summaries",
           "tool_calls", "suspensions")


def open_store(path_or_url: str | os.PathLike[str], *, busy_timeout: float = DEFAULT_BUSY_TIMEOUT) -> Store:
    """Open a Covel store read-only.

    ``path_or_url`` is a file path, or an SQLAlchemy URL (``postgresql+psycopg://…``,
    ``sqlite:///…``). Every SQLite file, named by path or URL, is opened by
    :func:`inspector.store.sqlite_open.open_sqlite`: never read-write, never creating a file.
    """
    target = os.fspath(path_or_url)
    if isinstance(target, bytes):
        target = os.fsdecode(target)
    if not looks_like_url(target):
        return _open_sqlite(SqliteRequest(Path(target), busy_timeout), url_text=None)
    try:
        url = make_url(target)
        url.port  # noqa: B018 - a bad port or an unclosed IPv6 bracket fails here, not in the driver
    except (sa_exc.ArgumentError, ValueError) as exc:
        message, shown = bad_url_message(target, exc)  # scheme and host only: no user, password, query
        raise StoreOpenError(message, location=shown) from None
    if url.get_backend_name() == "sqlite":
        # Options (timeout, immutable) travel with the store to a worker process (open_spec).
        return _open_sqlite(sqlite_request(url, target, busy_timeout), url_text=target,
                            sa_url=url if url.query else None)
    return _open_url(url, busy_timeout)


def _open_sqlite(request: SqliteRequest, *, url_text: str | None, sa_url: URL | None = None) -> Store:
    def reopen() -> Opened:
        return open_sqlite(request)

    opened = reopen()
    path = request.path.expanduser().absolute()
    try:
        return Store(opened.engine, path=path, url=url_text if url_text is not None else opened.uri,
                     location=str(path), read_only_mode=opened.mode, busy_timeout=request.busy_timeout,
                     notes=opened.notes, sa_url=sa_url, sqlite=(opened, reopen))
    except BaseException:
        opened.release()
        raise


def _open_url(url: URL, busy_timeout: float) -> Store:
    url = pg.normalise_url(url)
    location = shown_url(url)
    if not pg.is_postgres(url):
        # No read-only guard is known for other backends: refused rather than trusted.
        raise StoreOpenError(f"{location}: {url.get_backend_name()} is not a Covel store backend; give the path "
                             "of covel.db, a sqlite:/// URL or a postgresql:// URL", location=location)
    try:
        engine = sa.create_engine(url, connect_args=pg.connect_args(url), **pg.engine_args())
    except (sa_exc.ArgumentError, sa_exc.NoSuchModuleError, ImportError) as exc:
        hint = "" if isinstance(exc, sa_exc.ArgumentError) else \
            "; the PostgreSQL driver that comes with Prompt Inspector is psycopg: use postgresql://"
        raise StoreOpenError(f"cannot open {location}: {pg.driver_message(exc, url)}{hint}", location=location) from exc
    event.listen(engine, "connect", lambda dbapi_connection, _record: pg.make_read_only(dbapi_connection))
    try:
        # The guarantee is checked, not assumed: a URL option or a driver that ignored the
        # read-only request must not leave a writable session on the team's database.
        with engine.connect() as conn:
            if conn.exec_driver_sql("SHOW transaction_read_only").scalar() != "on":
                raise StoreOpenError(f"{location}: the connection could not be made read-only, so it was "
                                     "not used", location=location)
    except sa_exc.DBAPIError as exc:
        engine.dispose()
        raise translate_error(exc.orig, location, busy_timeout, url) from exc
    except StoreError:
        engine.dispose()
        raise
    return Store(engine, path=None, url=location, location=location, read_only_mode="ro",
                 busy_timeout=busy_timeout, notes=[], sa_url=url)


def _iso_ms(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def _iso_minus(value: str, seconds: float) -> str:
    """``value`` (Covel's ISO text) moved back by ``seconds``, in the same toISOString() shape;
    text that is not a timestamp is returned as it is."""
    from datetime import timedelta, timezone

    when = _iso_ms(value)
    if when is None:
        return value
    if when.tzinfo is not None:
        when = when.astimezone(timezone.utc)
    earlier = when - timedelta(seconds=seconds)
    return earlier.strftime("%Y-%m-%dT%H:%M:%S.") + f"{earlier.microsecond // 1000:03d}Z"


_REOPENED = "the file changed on disk since it was opened, so it was opened again"


class _WatchConnection:
    """The connection :meth:`Store.change_token` keeps (its value is per connection)."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        self.lock = threading.Lock()

    def close(self) -> None:
        with self.lock:
            self.raw.close()


class _Tables:
    """Lightweight table objects holding only the columns the database really has.

    ``types`` (PostgreSQL only) maps each column to its SQL type, so that :meth:`read` can hand
    every column to the rest of the core the way a ``covel.db`` holds it: JSON as text and
    timestamps as ISO strings.
    """

    def __init__(self, columns: dict[str, list[str]], types: dict[str, dict[str, str]] | None = None) -> None:
        self.columns = {name: set(cols) for name, cols in columns.items()}
        self.types = types or {}
        self.objects = {name: sa.table(name, *(sa.column(c) for c in cols)) for name, cols in columns.items()}

    def has(self, table: str, column: str | None = None) -> bool:
        if table not in self.columns:
            return False
        return column is None or column in self.columns[table]

    def __getitem__(self, table: str) -> sa.TableClause:
        return self.objects[table]

    def type_of(self, table: str, column: str) -> str | None:
        return self.types.get(table, {}).get(column)

    def read(self, table: str, column: str) -> sa.ColumnElement[Any]:
        """The column as a select-list entry, converted to what SQLite would give (same label)."""
        col = self.objects[table].c[column]
        sql_type = self.type_of(table, column)
        if sql_type is None:
            return col
        if pg.is_json_type(sql_type):
            # jsonb arrives decoded from the driver, and a decoded JSON string would look like
            # text to the JSON readers; its text form keeps one code path for both backends.
            return sa.cast(col, sa.Text).label(column)
        if pg.is_timestamp_type(sql_type):
            # Covel stores ISO text (covel-db.md §5); a store migrated to timestamp columns is read
            # back in the same toISOString() shape, so ordering and parsing stay as on SQLite.
            utc = sa.func.timezone("UTC", col) if "with time zone" in sql_type else col
            return sa.func.to_char(utc, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"').label(column)
        return col

    def sort_key(self, table: str, column: str) -> sa.ColumnElement[Any]:
        """An ORDER BY key that compares text byte-wise, as Covel's ``@covel/store`` does."""
        col = self.objects[table].c[column]
        sql_type = self.type_of(table, column)
        if sql_type is not None and pg.is_text_type(sql_type):
            # PostgreSQL's default collation is locale-aware; "C" compares bytes.
            return col.collate("C")
        return col


# Bulk payload reads that ask for it (the cache analysis's) memory-map the database file: SQLite
# then copies a payload's pages from the mapping instead of reading each 4 kB page with a system
# call (0.11 s against 0.17 s for the benchmark session's 486 MB). The pages read count in the
# process's resident memory while the mapping lasts, so reads over a whole store (the prefix
# report, a search without its index) do not map. Not on Windows, where a file mapped by this
# process keeps Covel from truncating its database (VACUUM) while the mapping lasts.
_MAPPED_READ_BYTES = 0 if sys.platform == "win32" else 1 << 31


def _request_row(connection: sqlite3.Connection, row: tuple) -> tuple[Any, ...]:
    """``(session_id, turn_id, payload, id)`` of a ``Store._ROW_FETCH_SQL`` row. A text or blob
    payload is read through a blob handle: SQLite copies its overflow pages straight into the
    returned bytes, where a selected value is built in SQLite's memory first and then copied
    again (0.26 s against 0.31 s for the benchmark session's 486 MB). A text reads as its stored
    bytes, as ``CAST(payload AS BLOB)`` gives it."""
    if not row[5]:
        return row[1], row[2], row[3], row[4]
    with connection.blobopen("trace_events", "payload", row[0], readonly=True) as blob:
        return row[1], row[2], blob.read(), row[4]


def pair_llm_calls(events: Iterable[TraceEvent]) -> list[LlmCall]:
    """Pair ``llm.calling`` with ``llm.responded`` events given in canonical order.

    Pairing (spec §2.2): per (turn, runtimeId), walking in write order, an attempt-0 calling
    starts a new tool-loop step; a response binds to the latest unanswered calling with the same
    attempt. ``runtime.started`` rows among ``events`` give each call its stage; events of any
    other type are ignored, so a whole turn's events can be passed as they are.
    """
    stages: dict[tuple[str, str | None], str] = {}
    groups: dict[tuple[str, str | None], list[Any]] = {}
    entries: list[list[Any]] = []
    for ev in events:
        etype = ev.type
        if etype == "runtime.started":
            stage = ev.payload.get("stage")
            key = (ev.turn_id, ev.runtime_id)
            if isinstance(stage, str) and key not in stages:
                stages[key] = stage
        elif etype == "llm.calling":
            key = (ev.turn_id, ev.runtime_id)
            attempt = ev.attempt or 0
            group = groups.setdefault(key, [-1, []])
            # A group whose first surviving calling is a retry (earlier rows pruned) still
            # needs a step to live in.
            if attempt == 0 or group[0] < 0:
                group[0] += 1
            entry = [ev, None, attempt, group[0]]
            group[1].append(entry)
            entries.append(entry)
        elif etype == "llm.responded":
            group = groups.get((ev.turn_id, ev.runtime_id))
            if group is None:
                continue
            attempt = ev.attempt or 0
            for entry in reversed(group[1]):
                if entry[1] is None and entry[2] == attempt:
                    entry[1] = ev
                    break

    calls: list[LlmCall] = []
    for calling, response, attempt, step in entries:
        rid = calling.runtime_id
        payload = calling.payload
        provider = payload.get("provider")
        if not isinstance(provider, str):
            provider = None
            requests = payload.get("providerRequests")
            if isinstance(requests, list):
                for request in requests:
                    if isinstance(request, dict) and isinstance(request.get("provider"), str):
                        provider = request["provider"]
                        break
        model = payload.get("model")
        started = payload.get("startedAt")
        calls.append(LlmCall(
            calling=calling,
            response=response,
            runtime_id=rid,
            plugin_id=calling.plugin_id,
            attempt=attempt,
            step=step,
            stage=stages.get((calling.turn_id, rid)),
            model=model if isinstance(model, str) else None,
            provider=provider,
            started_at=started if isinstance(started, str) else calling.created_at,
        ))
    return calls


# Distinct values of an index's leading column, one index seek per value (a "loose index scan"):
# both SQLite and PostgreSQL would otherwise read the whole index, ten million entries on a large
# store, to list a few hundred sessions.
_DISTINCT_SESSIONS_SQL = (
    "WITH RECURSIVE ids(sid) AS ("
    " SELECT (SELECT min(session_id) FROM trace_events)"
    " UNION ALL"
    " SELECT (SELECT min(session_id) FROM trace_events WHERE session_id > ids.sid) FROM ids WHERE ids.sid IS NOT NULL"
    ") SELECT sid FROM ids"
)
# The same along (session_id, turn_id): the execution ids of one session.
_DISTINCT_TURNS_CTE = (
    "WITH RECURSIVE turn_ids(tid) AS ("
    " SELECT (SELECT min(turn_id) FROM trace_events WHERE session_id = :sid)"
    " UNION ALL"
    " SELECT (SELECT min(turn_id) FROM trace_events WHERE session_id = :sid AND turn_id > turn_ids.tid)"
    " FROM turn_ids WHERE turn_ids.tid IS NOT NULL"
    ") "
)
# Up to this many trace rows, sessions() counts each session's rows at once (a few hundred ms).
EVENT_COUNT_LIMIT = 1_000_000
_LLM_COUNT_SQL = "SELECT count(*) FROM trace_events WHERE session_id = :sid AND type = 'llm.calling'"
_EVENT_COUNT_SQL = "SELECT count(*) FROM trace_events WHERE session_id = :sid"


class Store:
    """A read-only Covel store. Use :func:`open_store` to create one; close it (or use ``with``).

    ``read_only_mode`` is ``"ro"`` (SQLite ``mode=ro``, or a read-only PostgreSQL session),
    ``"immutable"`` (SQLite ``immutable=1``) or ``"copy"`` (a private copy of the file); why is in
    :attr:`schema_notes` (:mod:`inspector.store.sqlite_open` decides). A SQLite store read as a
    snapshot is opened again, in the way the file's state then calls for, when the file changes.
    Safe to share between threads; each call borrows a pooled connection.
    """

    def __init__(
        self,
        engine: Engine,
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
        self._engine = engine
        # How the SQLite file was opened, and how to open it again when it changes.
        self._opened, self._reopen = sqlite if sqlite is not None else (None, None)
        self._generation = 0
        self._sa_url = sa_url
        self.path = path
        self.url = url
        self.location = location
        self.read_only_mode = read_only_mode
        self.busy_timeout = busy_timeout
        self.schema_notes: list[str] = list(notes)
        self._closed = False
        self._lock = threading.Lock()
        self._streams: weakref.WeakSet[Iterator[Any]] = weakref.WeakSet()
        self._dialect = engine.dialect.name
        try:
            with self._connect() as conn:
                self._tables = self._reflect(conn)
                self._has_json1 = self._check_json1(conn)
        except BaseException:
            engine.dispose()
            raise
        self.has_seq = self._tables.has("trace_events", "seq")
        self._note_adaptations()

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
        self._engine.dispose()
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

    # ----------------------------------------------------------------- plumbing

    @contextmanager
    def _connect(self) -> Iterator[Connection]:
        if self._closed:
            raise StoreError(f"{self.location}: the store is closed", location=self.location)
        self._reopen_if_stale()
        conn = None  # set once connected: an error after that happened while reading
        try:
            with self._engine.connect() as conn:
                yield conn
        except Exception as exc:  # a driver's error, wrapped by SQLAlchemy or raised by a raw cursor
            if not is_driver_error(exc):
                raise
            raise read_failure(exc, self.location, self.busy_timeout, self._sa_url, self.path,
                               reading=conn is not None, fallback=translate_error) from exc

    def _reflect(self, conn: Connection) -> _Tables:
        if self._dialect == "postgresql":
            return self._reflect_postgres(conn)
        inspector = sa.inspect(conn)
        names = set(inspector.get_table_names())
        if "trace_events" not in names:
            raise NotACovelStoreError(
                f"{self.location} has no trace_events table: not a Covel store?", location=self.location
            )
        columns = {
            name: [col["name"] for col in inspector.get_columns(name)] for name in _TABLES if name in names
        }
        return _Tables(columns)

    def _reflect_postgres(self, conn: Connection) -> _Tables:
        schema, tables = pg.catalogue_columns(conn)
        if schema is None:
            raise NotACovelStoreError(
                f"{self.location}: no schema named in the search_path ({pg.search_path(conn)}) exists in this "
                "database, so there are no Covel tables to read", location=self.location)
        if "trace_events" not in tables:
            if not tables:
                why = (f"schema {schema!r} has no tables at all. Is this the database Covel uses with "
                       "STORE_BACKEND=pg, and has Covel started on it once? (Covel creates its tables at start-up; "
                       "another schema can be chosen with ?options=-csearch_path%3DNAME in the URL.)")
            else:
                why = f"schema {schema!r} has no trace_events table: not a Covel store?"
            raise NotACovelStoreError(f"{self.location}: {why}", location=self.location)
        wanted = {name: tables[name] for name in _TABLES if name in tables}
        return _Tables({name: [c for c, _ in cols] for name, cols in wanted.items()},
                       {name: dict(cols) for name, cols in wanted.items()})

    def _check_json1(self, conn: Connection) -> bool:
        if self._dialect != "sqlite":
            return False
        try:
            conn.exec_driver_sql("SELECT json_valid('{}')").scalar()
        except sa_exc.OperationalError:
            return False
        return True

    def _note_adaptations(self) -> None:
        t = self._tables
        notes = self.schema_notes
        self._values = ValueNotes(notes)  # odd values found while reading add their notes here
        try:
            notes.extend(adapt_tables(t, self._dialect, self.location)[0])
        except StoreError:
            self._engine.dispose()
            raise
        if not self.has_seq:
            notes.append("trace_events has no seq column: events ordered by created_at, id")
        if not t.has("sessions"):
            notes.append("no sessions table: sessions are known only from trace_events")
        else:
            if not t.has("sessions", "completed_player_turns") and t.has("sessions", "turn_count"):
                notes.append("sessions has turn_count instead of completed_player_turns (older schema)")
            elif not t.has("sessions", "completed_player_turns"):
                notes.append("sessions has no completed_player_turns or turn_count column")
            if not t.has("sessions", "phase"):
                notes.append("sessions has no phase column (older schema): phase unknown")
        if not t.has("worlds"):
            notes.append("no worlds table: world names unknown")
        if not t.has("turn_results"):
            notes.append("no turn_results table: turns are known only from trace_events")
        else:
            if not t.has("turn_results", "seq"):
                notes.append("turn_results has no seq column: results ordered by created_at, id")
            if not t.has("turn_results", "origin"):
                notes.append("turn_results has no origin column: every result counted as a player turn")
            if not t.has("turn_results", "retry_scope"):
                notes.append("turn_results has no retry_scope column: runtime retries not identified")
        if not t.has("turn_messages"):
            notes.append("no turn_messages table: the model-history journal is unavailable")
        if not t.has("session_summaries"):
            notes.append("no session_summaries table: compaction summaries are unavailable")
        if self._dialect == "sqlite" and not self._has_json1:
            notes.append("SQLite lacks JSON functions: runtime ids are read by parsing payloads in Python")

    def _order(self, table: str, *, middle: str | None = "seq", as_script: bool = False) -> list[sa.ColumnElement[Any]]:
        return order_keys(self._tables, self._dialect, table, middle=middle, as_script=as_script)

    def _payload_expr(self) -> sa.ColumnElement[Any]:
        payload = self._tables["trace_events"].c.payload
        if self._dialect == "sqlite":
            # As BLOB: orjson parses bytes directly, and a row with invalid UTF-8 becomes a
            # payload_error instead of a decode exception that would abort the whole query.
            return sa.cast(payload, sa.LargeBinary).label("payload")
        # jsonb would come back decoded by the driver; the raw text keeps one code path.
        return sa.cast(payload, sa.Text).label("payload")

    def _event_columns(self) -> list[sa.ColumnElement[Any]]:
        tc = self._tables["trace_events"]
        seq = tc.c.seq if self.has_seq else sa.null().label("seq")
        return [tc.c.id, tc.c.session_id, tc.c.type, tc.c.trace_id, tc.c.turn_id,
                self._tables.read("trace_events", "created_at"), seq, self._payload_expr()]

    def _runtime_id_expr(self) -> sa.ColumnElement[Any] | None:
        payload = self._tables["trace_events"].c.payload
        if self._dialect == "sqlite" and self._has_json1:
            top = sa.func.json_extract(payload, "$.runtimeId")
            nested = sa.func.json_extract(payload, "$.data.runtimeId")
            # json_extract raises on malformed JSON, which would fail the whole listing.
            return sa.case((sa.func.json_valid(payload) == 1, sa.func.coalesce(top, nested)), else_=sa.null())
        if self._dialect == "postgresql":
            from sqlalchemy.dialects.postgresql import JSONB

            sql_type = self._tables.type_of("trace_events", "payload")
            if sql_type == "jsonb":
                doc = sa.type_coerce(payload, JSONB)
            elif sql_type == "json":
                doc = sa.cast(payload, JSONB)
            else:
                # A text column may hold rows that are not JSON; casting them would fail the
                # whole listing, so those payloads are parsed in Python instead.
                return None
            return sa.case(
                (sa.func.jsonb_typeof(doc) == "object",
                 sa.func.coalesce(doc["runtimeId"].astext, doc["data"]["runtimeId"].astext)),
                else_=sa.null(),
            )
        return None

    def _event_from_row(self, row: Any) -> TraceEvent:
        return trace_event(row, self._values)

    # ----------------------------------------------------------------- sessions

    def sessions(self, *, event_counts: bool | None = None) -> list[SessionInfo]:
        """All sessions, including ids seen only in trace rows, ordered by created_at, id.

        Every figure is read through Covel's indexes, one session at a time, never by grouping
        the whole trace table: the distinct session and turn ids by skipping along the
        ``session_id`` and ``(session_id, turn_id)`` indexes, the model requests as a range of the
        ``(session_id, type, created_at)`` index. ``event_counts=False`` leaves
        :attr:`SessionInfo.event_count` None: counting every row of a ten-million-row store is the
        one figure that has to walk a whole index (seconds; see :meth:`session_event_counts`).
        None (the default) counts them when the store holds at most :data:`EVENT_COUNT_LIMIT` rows.
        """
        t = self._tables
        if event_counts is None:
            event_counts = self.approximate_trace_rows() <= EVENT_COUNT_LIMIT
        with self._connect() as conn:
            trace_sessions = [sid for (sid,) in fetch_all(conn, sa.text(self._sql(_DISTINCT_SESSIONS_SQL)),
                                                          self._values, "trace_events") if sid is not None]
            rows: list[dict[str, Any]] = []
            if t.has("sessions"):
                rows = self._session_rows(conn)
            known = {row["id"] for row in rows}
            result_sessions: list[str] = []
            if t.has("turn_results"):
                result_sessions = [sid for (sid,) in fetch_all(conn, sa.text(
                    _DISTINCT_SESSIONS_SQL.replace("trace_events", "turn_results")), self._values, "turn_results")
                    if sid is not None]
            every = list(dict.fromkeys([*known, *trace_sessions, *result_sessions]))
            present = set(trace_sessions)
            calls = {sid: self._count(conn, _LLM_COUNT_SQL, sid) if sid in present else 0 for sid in every}
            executions = {sid: self._execution_count(conn, sid, sid in present) for sid in every}
            totals: dict[str, int | None] = {sid: None for sid in every}
            if event_counts:
                totals = {sid: self._count(conn, _EVENT_COUNT_SQL, sid) if sid in present else 0 for sid in every}
        infos = [self._session_info(row["id"], row, totals, calls, executions) for row in rows if row["id"] is not None]
        infos.extend(self._session_info(sid, {}, totals, calls, executions) for sid in every if sid not in known)
        if None in known:
            self._values.note(("sessions", "id", "null"), "sessions has rows without an id: they are not shown")
        infos.sort(key=lambda s: (s.created_at is None, s.created_at or "", s.id))
        return infos

    def approximate_trace_rows(self) -> int:
        """About how many trace rows the store holds, without counting them: SQLite's largest
        rowid (rows are appended; retention leaves it an upper bound), PostgreSQL's planner
        estimate."""
        with self._connect() as conn:
            if self._dialect == "postgresql":
                value = conn.execute(sa.text(
                    "SELECT reltuples FROM pg_catalog.pg_class WHERE oid = to_regclass('trace_events')")).scalar()
                return max(0, int(value or 0))
            if self._dialect == "sqlite":
                return int(conn.exec_driver_sql("SELECT max(rowid) FROM trace_events").scalar() or 0)
            return 0

    def session_event_counts(self, session_ids: Iterable[str]) -> dict[str, int]:
        """Trace rows per session (each a range of the ``session_id`` index), for figures filled
        in after the window is usable."""
        with self._connect() as conn:
            return {sid: self._count(conn, _EVENT_COUNT_SQL, sid) for sid in session_ids}

    def _sql(self, sql: str) -> str:
        return adapt_sql(sql, self._tables, self._engine.dialect)

    def _count(self, conn: Connection, sql: str, session_id: str) -> int:
        return int(conn.execute(sa.text(self._sql(sql)), {"sid": session_id}).scalar() or 0)

    def _execution_count(self, conn: Connection, session_id: str, in_trace: bool) -> int:
        """Distinct execution ids of a session over trace rows and result rows."""
        parts = []
        if in_trace:
            parts.append("SELECT tid FROM turn_ids WHERE tid IS NOT NULL")
        if self._tables.has("turn_results"):
            parts.append("SELECT turn_id FROM turn_results WHERE session_id = :sid")
        if not parts:
            return 0
        sql = (_DISTINCT_TURNS_CTE if in_trace else "") + "SELECT count(*) FROM (" + " UNION ".join(parts) + ") AS u"
        return self._count(conn, sql, session_id)

    def _session_rows(self, conn: Connection) -> list[dict[str, Any]]:
        t = self._tables
        se = t["sessions"]
        wanted = ["id", "world_id", "locale", "phase", "status", "completed_player_turns", "turn_count",
                  "created_at", "updated_at"]
        cols: list[sa.ColumnElement[Any]] = [t.read("sessions", name) for name in wanted if t.has("sessions", name)]
        frm: sa.FromClause = se
        if t.has("worlds", "name") and t.has("worlds", "id") and t.has("sessions", "world_id"):
            wo = t["worlds"]
            frm = se.outerjoin(wo, wo.c.id == se.c.world_id)
            cols.append(wo.c.name.label("world_name"))
        return [dict(row._mapping) for row in fetch_all(conn, sa.select(*cols).select_from(frm), self._values, "sessions")]

    def _session_info(self, sid: Any, row: dict[str, Any], totals: dict[Any, int | None], calls: dict[Any, int],
                      executions: dict[Any, int]) -> SessionInfo:
        """A session's row and counts (keyed by its stored id), its values converted (:mod:`.values`)."""
        v = self._values
        world = v.text("worlds", "name", row.get("world_name"))
        row = v.row("sessions", {k: value for k, value in row.items() if k != "world_name"})
        completed = row.get("completed_player_turns")
        if completed is None:
            # PostgreSQL of that era allowed NULL here while turn_count still held the number.
            completed = row.get("turn_count")
        return SessionInfo(
            id=v.text("sessions" if row else "trace_events", "id" if row else "session_id", sid),  # type: ignore[arg-type]
            world_id=row.get("world_id"),
            world_name=world,
            locale=row.get("locale"),
            phase=row.get("phase"),
            status=row.get("status"),
            completed_player_turns=completed,
            execution_count=executions[sid],
            event_count=totals[sid],
            llm_call_count=calls[sid],
            created_at=row.get("created_at"),
            updated_at=row.get("updated_at"),
        )

    # ----------------------------------------------------------------- turns

    def turns(self, session_id: str) -> list[TurnInfo]:
        """Executions of a session in order of first appearance (result row or first trace row)."""
        return self._turn_infos(session_id, None)

    def turns_by_id(self, session_id: str, turn_ids: Iterable[str]) -> list[TurnInfo]:
        """:meth:`turns` restricted to some executions, read through the ``turn_id`` indexes only
        (cost grows with those turns, not with the session), in the same order. ``number`` counts
        within the returned turns only: the caller knows where they sit in the session."""
        wanted = list(dict.fromkeys([turn_ids] if isinstance(turn_ids, str) else turn_ids))
        return self._turn_infos(session_id, wanted) if wanted else []

    def _turn_infos(self, session_id: str, only: list[str] | None) -> list[TurnInfo]:
        """The rule behind :meth:`turns` and :meth:`turns_by_id` (``only``: those executions)."""
        t = self._tables
        te = t["trace_events"]
        results: dict[str, dict[str, Any]] = {}
        first_key: dict[str, tuple[str, int]] = {}
        chunks = [None] if only is None else [only[i:i + 500] for i in range(0, len(only), 500)]

        with self._connect() as conn:
            if t.has("turn_results"):
                tr = t["turn_results"]
                wanted = ["turn_id", "created_at", "seq", "origin", "commit_status", "duration_ms",
                          "retry_scope", "parent_turn_id"]
                cols = [t.read("turn_results", name) for name in wanted if t.has("turn_results", name)]
                for chunk in chunks:
                    stmt = (sa.select(*cols).where(matches(tr.c.session_id, session_id))
                            .order_by(*self._order("turn_results")))
                    if chunk is not None:
                        stmt = stmt.where(matches_any(tr.c.turn_id, chunk))
                    for row in fetch_all(conn, stmt, self._values, "turn_results"):
                        data = self._values.row("turn_results", dict(row._mapping))
                        tid = data["turn_id"] = data["turn_id"] or UNKNOWN_TURN
                        key = (data.get("created_at") or "", data.get("seq") or 0)
                        if tid not in first_key or key < first_key[tid]:
                            first_key[tid] = key
                        # A turn can have several rows (re-written on commit); the last one is current.
                        results[tid] = data

            runtime_expr = self._runtime_id_expr()
            if runtime_expr is not None:
                agg = self._turn_aggregates(conn, session_id, chunks, runtime_expr, first_key)
            else:
                agg = self._turn_aggregates_by_scan(conn, session_id, only, chunks, first_key)

            unnamed = [tid for tid, info in agg.items() if info["llm"] and not info["runtimes"]]
            if unnamed and runtime_expr is not None:
                # Older or pruned logs may lack lifecycle rows: name runtimes from their calls.
                for start in range(0, len(unnamed), 500):
                    chunk = unnamed[start : start + 500]
                    stmt = (sa.select(te.c.turn_id, runtime_expr)
                            .where(matches(te.c.session_id, session_id), te.c.type == "llm.calling",
                                   matches_any(te.c.turn_id, chunk))
                            .order_by(*self._order("trace_events")))
                    for turn_id, rid in fetch_all(conn, stmt, self._values, "trace_events"):
                        info = agg.get(self._values.text("trace_events", "turn_id", turn_id) or UNKNOWN_TURN)
                        if info is not None and isinstance(rid, str) and rid:
                            info["runtimes"].setdefault(rid, None)

        order = sorted(first_key, key=lambda tid: (first_key[tid], tid or ""))
        turns: list[TurnInfo] = []
        for number, tid in enumerate(order, start=1):
            res = results.get(tid)
            ev = agg.get(tid)
            started = (ev["started"] or ev["first"]) if ev else None
            ended = (ev["ended"] or ev["last"]) if ev else None
            duration = res.get("duration_ms") if res else None
            if duration is None and started and ended:
                a, b = _iso_ms(started), _iso_ms(ended)
                if a is not None and b is not None:
                    duration = int(round((b - a).total_seconds() * 1000))
            retry_scope = None
            if res and res.get("retry_scope") is not None:
                parsed, error = parse_json_object(res["retry_scope"])
                retry_scope = parsed if error is None else None
            origin = None
            if res is not None:
                origin = res.get("origin") or "player"
            turns.append(TurnInfo(
                turn_id=tid,
                trace_id=ev["trace_id"] if ev else None,
                number=number,
                origin=origin,
                commit_status=res.get("commit_status") if res else None,
                created_at=(res.get("created_at") if res else None) or (ev["first"] if ev else None),
                started_at=started,
                ended_at=ended,
                duration_ms=int(duration) if isinstance(duration, (int, float)) else duration,
                retry_scope=retry_scope,
                parent_turn_id=res.get("parent_turn_id") if res else None,
                event_count=ev["count"] if ev else 0,
                llm_call_count=ev["llm"] if ev else 0,
                runtime_ids=tuple(ev["runtimes"]) if ev else (),
                has_result=res is not None,
            ))
        return turns

    def _turn_aggregates(self, conn: Connection, session_id: str, chunks: list[list[str] | None],
                         runtime_expr: sa.ColumnElement[Any], first_key: dict[str, tuple[str, int]]
                         ) -> dict[str, dict[str, Any]]:
        """Per-execution figures of :meth:`turns`, aggregated by the database.

        Equal to walking the session's rows in canonical order, but only three narrow reads: a
        GROUP BY along the ``(session_id, turn_id)`` index (counts, first and last times), the rows
        at each turn's first timestamp through the ``(session_id, created_at, seq)`` index (its
        trace id and first ``seq``), and the small lifecycle rows (runtime ids in order). Walking a
        900,000-row session in Python took seconds; this takes a fraction of one.
        """
        t = self._tables
        te = t["trace_events"]
        created = t.read("trace_events", "created_at")
        sql_type = t.type_of("trace_events", "created_at")
        if sql_type is not None and pg.is_text_type(sql_type):
            # min()/max() must compare as the canonical order does: byte-wise.
            created = t.sort_key("trace_events", "created_at")
        is_llm = sa.case((te.c.type == "llm.calling", 1), else_=0)
        started = sa.case((te.c.type == "turn.started", created), else_=sa.null())
        ended = sa.case((te.c.type.in_(("turn.completed", "turn.failed")), created), else_=sa.null())
        # Keyed by the stored turn id while the database is asked about it, by its text after.
        agg: dict[Any, dict[str, Any]] = {}
        raw_first: dict[Any, Any] = {}
        v, text = self._values, lambda name, value: self._values.text("trace_events", name, value)
        for chunk in chunks:
            stmt = (sa.select(te.c.turn_id, sa.func.count(), sa.func.sum(is_llm), sa.func.min(created),
                              sa.func.max(created), sa.func.min(started), sa.func.max(ended),
                              sa.func.min(te.c.created_at))
                    .where(matches(te.c.session_id, session_id)).group_by(te.c.turn_id))
            if chunk is not None:
                stmt = stmt.where(matches_any(te.c.turn_id, chunk))
            for turn_id, count, llm, first, last, turn_started, turn_ended, raw in fetch_all(conn, stmt, v,
                                                                                              "trace_events"):
                agg[turn_id] = {"trace_id": None, "first": text("created_at", first), "count": int(count),
                                "last": text("created_at", last), "llm": int(llm or 0),
                                "started": text("created_at", turn_started), "ended": text("created_at", turn_ended),
                                "runtimes": {}}
                raw_first[turn_id] = raw
        # The first row of each turn: among the rows at its first timestamp, lowest (seq, id).
        seq = te.c.seq if self.has_seq else sa.null().label("seq")
        by_time: dict[Any, list[str]] = {}
        for turn_id, raw in raw_first.items():
            by_time.setdefault(raw, []).append(turn_id)
        best: dict[str, tuple[int, str, str]] = {}
        for part in typed_chunks(list(by_time), 500):
            stmt = (sa.select(te.c.turn_id, te.c.created_at, seq, te.c.id, te.c.trace_id)
                    .where(matches(te.c.session_id, session_id), te.c.created_at.in_(part)))
            for turn_id, raw, seqv, event_id, trace_id in fetch_all(conn, stmt, v, "trace_events"):
                if turn_id not in agg or raw_first[turn_id] != raw:
                    continue
                seqv = v.order("trace_events", "seq", seqv)
                key = (-1 if seqv is None else seqv, text("id", event_id) or "", text("trace_id", trace_id))
                if turn_id not in best or key[:2] < best[turn_id][:2]:
                    best[turn_id] = key
        by_text: dict[str, dict[str, Any]] = {}
        for turn_id, info in agg.items():
            seqv, _event_id, trace_id = best.get(turn_id, (-1, "", None))
            info["trace_id"] = trace_id
            key = (info["first"] or "", max(seqv, 0))
            turn_id = text("turn_id", turn_id) or UNKNOWN_TURN
            by_text.setdefault(turn_id, info)
            if turn_id not in first_key or key < first_key[turn_id]:
                first_key[turn_id] = key
        # Runtime ids in order of first appearance among the lifecycle rows.
        lifecycle: list[tuple[Any, ...]] = []
        for chunk in chunks:
            stmt = (sa.select(created, seq, te.c.id, te.c.turn_id, runtime_expr)
                    .where(matches(te.c.session_id, session_id), te.c.type.in_(RUNTIME_LIFECYCLE_TYPES)))
            if chunk is not None:
                stmt = stmt.where(matches_any(te.c.turn_id, chunk))
            lifecycle.extend((text("created_at", r[0]) or "", v.order("trace_events", "seq", r[1]),
                              text("id", r[2]) or "", text("turn_id", r[3]) or UNKNOWN_TURN, r[4])
                             for r in fetch_all(conn, stmt, v, "trace_events"))
        lifecycle.sort(key=lambda r: (r[0], -1 if r[1] is None else r[1], r[2]))
        for _created, _seq, _event_id, turn_id, rid in lifecycle:
            info = by_text.get(turn_id)
            if info is not None and isinstance(rid, str) and rid:
                info["runtimes"].setdefault(rid, None)
        return by_text

    def _turn_aggregates_by_scan(self, conn: Connection, session_id: str, only: list[str] | None,
                                 chunks: list[list[str] | None], first_key: dict[str, tuple[str, int]]
                                 ) -> dict[str, dict[str, Any]]:
        """:meth:`_turn_aggregates` for a store whose payloads the database cannot read as JSON
        (SQLite without JSON functions, a PostgreSQL text column): every row's payload is parsed
        here for its runtime id, so the rows are walked in canonical order."""
        t = self._tables
        te = t["trace_events"]
        extra = self._payload_expr()
        seq = te.c.seq if self.has_seq else sa.null().label("seq")
        stmt = (sa.select(te.c.turn_id, te.c.type, te.c.trace_id, t.read("trace_events", "created_at"), seq, extra)
                .where(matches(te.c.session_id, session_id)))
        v, name = self._values, "trace_events"

        def rows(query: Any) -> list[tuple[Any, ...]]:  # the values converted (see .values)
            return [(v.text(name, "turn_id", r[0]) or UNKNOWN_TURN, r[1], v.text(name, "trace_id", r[2]),
                     v.text(name, "created_at", r[3]), v.order(name, "seq", r[4]), r[5],
                     *(v.text(name, "id", x) or "" for x in r[6:])) for r in fetch_all(conn, query, v, name)]
        if only is None:
            ordered: Iterable[Any] = rows(stmt.order_by(*self._order("trace_events")))
        else:
            # Unordered, SQLite takes the (session_id, turn_id) index (see events()); the
            # rows are put in canonical order here.
            picked = []
            for chunk in chunks:
                picked.extend(rows(stmt.add_columns(te.c.id).where(matches_any(te.c.turn_id, chunk))))
            picked.sort(key=lambda r: (r[3] or "", -1 if r[4] is None else r[4], r[6]))
            ordered = [r[:6] for r in picked]
        agg: dict[str, dict[str, Any]] = {}
        for turn_id, etype, trace_id, created_at, seqv, extra_value in ordered:
            info = agg.get(turn_id)
            if info is None:
                info = agg[turn_id] = {
                    "trace_id": trace_id, "first": created_at, "last": created_at, "count": 0,
                    "llm": 0, "started": None, "ended": None, "runtimes": {},
                }
                key = (created_at or "", seqv or 0)
                if turn_id not in first_key or key < first_key[turn_id]:
                    first_key[turn_id] = key
            info["count"] += 1
            info["last"] = created_at
            if etype == "llm.calling":
                info["llm"] += 1
            elif etype == "turn.started" and info["started"] is None:
                info["started"] = created_at
            elif etype in ("turn.completed", "turn.failed"):
                info["ended"] = created_at
            rid = parse_json_object(extra_value, merge_data=True)[0].get("runtimeId")
            if isinstance(rid, str) and rid:
                info["runtimes"].setdefault(rid, None)
        return agg

    # ----------------------------------------------------------------- events

    def events(self, session_id: str, turn_id: str | None = None,
               types: Iterable[str] | None = None) -> list[TraceEvent]:
        """Trace events of a session (optionally one turn / some types) in canonical order."""
        te = self._tables["trace_events"]
        stmt = sa.select(*self._event_columns()).where(matches(te.c.session_id, session_id))
        if turn_id is not None:
            stmt = stmt.where(matches(te.c.turn_id, turn_id))
        if types is not None:
            type_list = [types] if isinstance(types, str) else list(types)
            stmt = stmt.where(te.c.type.in_(type_list))
        if turn_id is None:
            stmt = stmt.order_by(*self._order("trace_events"))
            with self._connect() as conn:
                return [self._event_from_row(row) for row in fetch_all(conn, stmt, self._values, "trace_events")]
        # With an ORDER BY, SQLite walks the session's (created_at, seq) index and reads every row
        # of the session to find one turn's (25 ms on a 1,000-turn session); unordered it takes
        # the (session_id, turn_id) index. Sorting a turn's rows here gives the same order:
        # comparing str code points equals comparing the UTF-8 bytes, and NULL sorts first.
        with self._connect() as conn:
            events = [self._event_from_row(row) for row in fetch_all(conn, stmt, self._values, "trace_events")]
        if self.has_seq:
            events.sort(key=lambda e: (e.created_at or "", -1 if e.seq is None else e.seq, e.id or ""))
        else:
            events.sort(key=lambda e: (e.created_at or "", e.id or ""))
        return events

    def event(self, event_id: str) -> TraceEvent | None:
        te = self._tables["trace_events"]
        stmt = sa.select(*self._event_columns()).where(matches(te.c.id, event_id)).limit(1)
        with self._connect() as conn:
            rows = fetch_all(conn, stmt, self._values, "trace_events")
        return self._event_from_row(rows[0]) if rows else None

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
        if self._dialect == "sqlite":
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
        with self._connect() as conn:
            if self._dialect == "postgresql":
                try:
                    return conn.exec_driver_sql("SELECT pg_current_snapshot()::text").scalar()
                except sa_exc.ProgrammingError:  # before PostgreSQL 13
                    conn.rollback()
                    return conn.exec_driver_sql("SELECT txid_current_snapshot()::text").scalar()
            return conn.execute(sa.select(sa.func.count()).select_from(self._tables["trace_events"])).scalar()

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
            old_watch = getattr(self, "_watch", None)
            self._watch = None
            self._opened, self._engine = fresh, fresh.engine
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
            if self._closed:
                raise StoreError(f"{self.location}: the store is closed", location=self.location)
            watch = getattr(self, "_watch", None)
            if watch is None:
                watch = self._watch = _WatchConnection(self._engine.raw_connection())
                # close() closes what is in _streams: the kept connection goes back with them.
                self._streams.add(watch)  # type: ignore[arg-type]
        return watch

    # Rows written up to this long before the newest row seen are read again on PostgreSQL: a
    # transaction that committed late may hold rows with an earlier created_at (SQLite's rowid
    # has no such gap: one writer, rowids in commit order).
    FOLLOW_OVERLAP_SECONDS = 30.0

    def follow_start(self) -> dict[str, Any]:
        """A cursor at the current end of the store, for :meth:`follow_read`."""
        te = self._tables["trace_events"]
        with self._connect() as conn:
            if self._dialect == "sqlite":
                cursor: dict[str, Any] = {"rowids": {table: self._max_rowid(conn, table)
                                                     for table in ("trace_events", "turn_results")}}
                return cursor
            sessions = {sid for (sid,) in conn.execute(sa.select(te.c.session_id).distinct())}
            marks = {}
            for table in ("trace_events", "turn_results"):
                if not self._tables.has(table):
                    continue
                newest = conn.execute(sa.select(sa.func.max(self._tables.read(table, "created_at")))).scalar()
                seen: set[str] = set()
                if newest is not None:
                    since = _iso_minus(newest, self.FOLLOW_OVERLAP_SECONDS)
                    tb = self._tables[table]
                    seen = {rid for (rid,) in conn.execute(
                        sa.select(tb.c.id).where(self._tables.read(table, "created_at") >= since))}
                marks[table] = (newest, seen)
        return {"sessions": sessions, "marks": marks}

    def follow_read(self, cursor: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """Rows written since ``cursor`` (from :meth:`follow_start` or a previous call), read in
        one snapshot, and the cursor after them.

        Returns ``({"events": [...], "results": [...], "existing": {(session, turn), ...}}, cursor)``:
        ``events`` are ``(id, session_id, type, turn_id, created_at, seq, runtime_id)`` of new
        ``trace_events`` rows in canonical order; ``results`` are ``(session_id, turn_id,
        commit_status, created_at)`` of new ``turn_results`` rows in their order; ``existing``
        holds the touched executions that already had rows before these (the others are new).
        SQLite reads rows past the last rowid seen; PostgreSQL (no rowid) reads the sessions it
        knows from ``FOLLOW_OVERLAP_SECONDS`` before the newest row seen and drops ids seen.
        A session that exists only in PostgreSQL trace rows appears when it has a ``sessions`` row.
        """
        t = self._tables
        te = t["trace_events"]
        runtime_expr = self._runtime_id_expr()
        extra = runtime_expr.label("runtime_id") if runtime_expr is not None else self._payload_expr()
        seq = te.c.seq if self.has_seq else sa.null().label("seq")
        event_cols = [te.c.id, te.c.session_id, te.c.type, te.c.turn_id, t.read("trace_events", "created_at"), seq,
                      extra]
        results_on = t.has("turn_results")
        with self._connect() as conn:
            if self._dialect == "postgresql":
                # One snapshot for the read and the "existed before" probe.
                conn = conn.execution_options(isolation_level="REPEATABLE READ")
            new_cursor: dict[str, Any]
            if self._dialect == "sqlite":
                old = cursor["rowids"]
                top = {table: self._max_rowid(conn, table) for table in ("trace_events", "turn_results")}
                rowid = sa.literal_column("rowid")
                bounds: dict[str, Any] = {}
                for table in ("trace_events", "turn_results"):
                    if t.has(table):
                        bounds[table] = sa.and_(rowid > old[table], rowid <= top[table])
                event_rows = list(conn.execute(sa.select(*event_cols).where(bounds["trace_events"])))
                result_rows = []
                if results_on:
                    result_rows = list(conn.execute(self._follow_results_select().where(bounds["turn_results"])
                                                    .order_by(rowid)))
                limits = {table: rowid <= top[table] for table in bounds}
                new_cursor = {"rowids": top}
            else:
                sessions = set(cursor["sessions"])
                if t.has("sessions"):
                    sessions |= {sid for (sid,) in conn.execute(sa.select(t["sessions"].c.id))}
                marks = dict(cursor["marks"])
                event_rows, marks["trace_events"] = self._rows_since(
                    conn, "trace_events", sa.select(*event_cols), sessions, cursor["marks"].get("trace_events"))
                result_rows = []
                if results_on:
                    result_rows, marks["turn_results"] = self._rows_since(
                        conn, "turn_results", self._follow_results_select(), sessions,
                        cursor["marks"].get("turn_results"))
                limits = {}
                new_cursor = {"sessions": sessions, "marks": marks}
            event_rows.sort(key=lambda r: (r[4] or "", -1 if r[5] is None else r[5], r[0]))
            events = []
            for row in event_rows:
                rid = row[6] if runtime_expr is not None else \
                    parse_json_object(row[6], merge_data=True)[0].get("runtimeId")
                events.append((row[0], row[1], row[2], row[3], row[4], row[5], rid if isinstance(rid, str) else None))
            results = [(r[1], r[2], r[3], r[4]) for r in result_rows]
            existing = self._turns_existing_before(conn, events, result_rows, limits)
        return {"events": events, "results": results, "existing": existing}, new_cursor

    def _follow_results_select(self) -> sa.Select[Any]:
        t = self._tables
        tr = t["turn_results"]
        status = tr.c.commit_status if t.has("turn_results", "commit_status") else sa.null().label("commit_status")
        return sa.select(tr.c.id, tr.c.session_id, tr.c.turn_id, status, t.read("turn_results", "created_at"))

    def _max_rowid(self, conn: Connection, table: str) -> int:
        if not self._tables.has(table):
            return 0
        return int(conn.execute(sa.select(sa.func.max(sa.literal_column("rowid")))
                                .select_from(self._tables[table])).scalar() or 0)

    def _rows_since(self, conn: Connection, table: str, stmt: sa.Select[Any], sessions: set[str],
                    mark: tuple[str | None, set[str]] | None) -> tuple[list[Any], tuple[str | None, set[str]]]:
        newest, seen = mark if mark is not None else (None, set())
        tb = self._tables[table]
        created = self._tables.read(table, "created_at")
        since = _iso_minus(newest, self.FOLLOW_OVERLAP_SECONDS) if newest is not None else None
        rows: list[Any] = []
        ids = sorted(sessions)
        for start in range(0, max(len(ids), 1), 500):
            # (session_id, created_at, seq) is indexed; created_at alone is not.
            query = stmt.where(tb.c.session_id.in_(ids[start:start + 500]))
            if since is not None:
                query = query.where(created >= since)
            rows.extend(conn.execute(query))
        fresh = [r for r in rows if r[0] not in seen]
        top = max([newest or ""] + [r[4] or "" for r in rows]) or None
        horizon = _iso_minus(top, self.FOLLOW_OVERLAP_SECONDS) if top is not None else None
        keep = {r[0] for r in rows if horizon is None or (r[4] or "") >= horizon}
        return fresh, (top, keep)

    def _turns_existing_before(self, conn: Connection, events: list[tuple[Any, ...]], result_rows: list[Any],
                               limits: dict[str, Any]) -> set[tuple[str, str]]:
        """The (session, turn) pairs among the new rows that had rows before them."""
        new_ids: dict[str, set[str]] = {"trace_events": {e[0] for e in events},
                                        "turn_results": {r[0] for r in result_rows}}
        touched: dict[str, set[str]] = {}
        for e in events:
            touched.setdefault(e[1], set()).add(e[3])
        for r in result_rows:
            touched.setdefault(r[1], set()).add(r[2])
        existing: set[tuple[str, str]] = set()
        for table in ("trace_events", "turn_results"):
            if not self._tables.has(table):
                continue
            tb = self._tables[table]
            for sid, turn_ids in touched.items():
                wanted = sorted(turn_ids)
                for start in range(0, len(wanted), 500):
                    query = sa.select(tb.c.turn_id, tb.c.id).where(
                        tb.c.session_id == sid, tb.c.turn_id.in_(wanted[start:start + 500]))
                    if table in limits:
                        query = query.where(limits[table])
                    for tid, rid in conn.execute(query):
                        if rid not in new_ids[table]:
                            existing.add((sid, tid))
        return existing

    def session_records(self, session_ids: Iterable[str] | None = None) -> dict[str, dict[str, Any]]:
        """The ``sessions`` table rows (with the world's name), keyed by id, without the counts
        :meth:`sessions` gathers from the trace: cheap enough to read on every change."""
        if not self._tables.has("sessions"):
            return {}
        with self._connect() as conn:
            rows = self._session_rows(conn)
        wanted = None if session_ids is None else set(session_ids)
        return {r["id"]: r for r in rows if wanted is None or r["id"] in wanted}

    # ----------------------------------------------------------------- llm calls

    def llm_calls(self, session_id: str, turn_id: str | None = None,
                  runtime_id: str | None = None) -> list[LlmCall]:
        """``llm.calling`` events paired with their responses, in write order of the calls
        (see :func:`pair_llm_calls`)."""
        events = self.events(session_id, turn_id, ("llm.calling", "llm.responded", "runtime.started"))
        calls = pair_llm_calls(events)
        if runtime_id is not None:
            calls = [call for call in calls if call.runtime_id == runtime_id]
        return calls

    # runtimeId and model of an llm.calling payload as parse_json_object(merge_data=True) reads
    # them: the top-level field when present (a non-string there hides the nested one), else the
    # legacy payload.data field; a string or nothing. JSON null is present-but-not-a-string.
    _FACET_SQLITE = """
          CASE WHEN json_type(p, '$.{key}') IS NOT NULL
                 THEN CASE WHEN json_type(p, '$.{key}') = 'text' THEN json_extract(p, '$.{key}') END
               WHEN json_type(p, '$.data') = 'object' AND json_type(p, '$.data.{key}') = 'text'
                 THEN json_extract(p, '$.data.{key}') END"""
    _FACETS_SQLITE = """
        SELECT DISTINCT {runtime}, {model}
        FROM (SELECT CAST(payload AS TEXT) AS p FROM trace_events WHERE type = 'llm.calling')
        WHERE json_valid(p) AND json_type(p) = 'object'
    """
    _FACET_POSTGRES = """
          CASE WHEN p ? '{key}'
                 THEN CASE WHEN jsonb_typeof(p -> '{key}') = 'string' THEN p ->> '{key}' END
               WHEN jsonb_typeof(p -> 'data') = 'object' AND jsonb_typeof(p -> 'data' -> '{key}') = 'string'
                 THEN p -> 'data' ->> '{key}' END"""
    _FACETS_POSTGRES = """
        SELECT DISTINCT {runtime}, {model}
        FROM (SELECT payload::jsonb AS p FROM trace_events WHERE type = 'llm.calling') AS calls
        WHERE jsonb_typeof(p) = 'object'
    """

    def llm_call_facets(self) -> dict[str, list[str]] | None:
        """Distinct runtime ids and models of every ``llm.calling`` row, sorted, worked out by the
        database (no payload crosses into Python, so a GUI thread is not starved while it runs);
        None where the database cannot read the payloads as JSON (the caller scans instead)."""
        if self._closed:
            raise StoreError(f"{self.location}: the store is closed", location=self.location)
        if self._dialect == "sqlite":
            field, query = self._FACET_SQLITE, self._FACETS_SQLITE
        elif self._dialect == "postgresql" and pg.is_json_type(
                self._tables.type_of("trace_events", "payload") or ""):
            field, query = self._FACET_POSTGRES, self._FACETS_POSTGRES
        else:
            return None
        sql = query.format(runtime=field.format(key="runtimeId"), model=field.format(key="model"))
        runtimes: set[str] = set()
        models: set[str] = set()
        try:
            with self._connect() as conn:
                for runtime, model in conn.execute(sa.text(sql)):
                    if isinstance(runtime, str):
                        runtimes.add(runtime)
                    if isinstance(model, str):
                        models.add(model)
        except sa_exc.OperationalError:
            return None  # a SQLite without JSON functions, or text it cannot decode
        return {"runtimes": sorted(runtimes), "models": sorted(models)}

    def iter_llm_calling_rows(
        self, session_id: str | None = None, batch: int = 256, *, mapped: bool = False
    ) -> Iterator[tuple[str, str, bytes | str | None, str]]:
        """Stream ``(session_id, turn_id, raw payload, event id)`` of every ``llm.calling`` row in
        the order Covel's prefix script reads them (store/ordering.py), ``batch`` rows per fetch. Close the iterator (or exhaust it) to free its
        connection; :meth:`close` closes any still open. ``mapped``: read a SQLite file
        memory-mapped while the stream lasts (faster; see _MAPPED_READ_BYTES)."""
        if self._closed:
            raise StoreError(f"{self.location}: the store is closed", location=self.location)
        te = self._tables["trace_events"]
        stmt = sa.select(te.c.session_id, te.c.turn_id, self._payload_expr(), te.c.id).where(
            te.c.type == "llm.calling"
        )
        if session_id is not None:
            stmt = stmt.where(te.c.session_id == session_id)
        stmt = stmt.order_by(*self._order("trace_events", as_script=True))
        if self._dialect == "sqlite":
            stream = self._stream_by_rowid(stmt, max(1, int(batch)), mapped)
        else:
            stream = self._stream(stmt, max(1, int(batch)))
        with self._lock:
            self._streams.add(stream)
        return stream

    def llm_calling_rows_by_id(self, event_ids: list[str], *,
                               mapped: bool = False) -> list[tuple[str, str, bytes | str | None, str]]:
        """The :meth:`iter_llm_calling_rows` rows of these events, in the order given; an id that
        names no row is left out. For the cache analysis's worker, which is handed the ids of its
        rows (trace rows are written once, so any snapshot reads the same payload). ``mapped`` as
        for :meth:`iter_llm_calling_rows`."""
        if self._closed:
            raise StoreError(f"{self.location}: the store is closed", location=self.location)
        if not event_ids:
            return []
        if self._dialect == "sqlite":
            found = self._rows_by_id_sqlite(event_ids, mapped)
        else:
            te = self._tables["trace_events"]
            stmt = sa.select(te.c.session_id, te.c.turn_id, self._payload_expr(), te.c.id).where(te.c.id.in_(event_ids))
            with self._connect() as conn:
                found = {row[3]: (row[0], row[1], row[2], row[3]) for row in conn.execute(stmt)}
        return [found[i] for i in event_ids if i in found]

    def _rows_by_id_sqlite(self, event_ids: list[str], mapped: bool) -> dict[str, tuple[Any, ...]]:
        """llm_calling_rows_by_id on SQLite: the payloads read through blob handles (_request_row),
        in one read transaction with the query that finds the rows."""
        with self._sqlite_snapshot(mapped) as (raw, cursor):
            cursor.execute(self._sql(self._ROW_FETCH_SQL) + "id IN (" + ",".join("?" * len(event_ids)) + ")", event_ids)
            return {row[4]: _request_row(raw, row) for row in cursor.fetchall()}

    @contextmanager
    def _sqlite_snapshot(self, mapped: bool = False) -> Iterator[tuple[sqlite3.Connection, sqlite3.Cursor]]:
        """The driver's connection and a cursor in one read transaction: every query and blob
        read in it sees the same snapshot while a writer carries on. With ``mapped``, the
        database file is memory-mapped for the transaction where that is safe (_MAPPED_READ_BYTES)."""
        with self._connect() as conn:
            raw = conn.connection.driver_connection  # type: ignore[union-attr]
            began = not raw.in_transaction
            mapped = mapped and began and _MAPPED_READ_BYTES > 0
            if mapped:
                raw.execute(f"PRAGMA mmap_size={_MAPPED_READ_BYTES}")
            try:
                if began:
                    raw.execute("BEGIN")
                cursor = raw.cursor()
                try:
                    with node_text_factory(raw):  # bad UTF-8 -> U+FFFD, as in Node
                        yield raw, cursor
                finally:
                    cursor.close()
                    if began and raw.in_transaction:
                        raw.execute("ROLLBACK")
            finally:
                if mapped:
                    # Unmapped at once, even when the read failed: a pooled connection does not
                    # keep the file's pages counted in the app's resident memory.
                    raw.execute("PRAGMA mmap_size=0")

    def request_key_column(self) -> str | None:
        """The column that numbers trace rows in write order across the whole table, for
        following new rows: SQLite's ``rowid``; PostgreSQL's ``seq`` (one sequence per table,
        covel-db.md §5); None when the store has none."""
        if self._dialect == "sqlite":
            return "rowid"
        if self._dialect == "postgresql" and self.has_seq:
            return "seq"
        return None

    def request_sessions(self) -> list[str]:
        """Session ids that have trace rows (one index seek each, see :meth:`sessions`)."""
        with self._connect() as conn:
            return [sid for (sid,) in conn.execute(sa.text(_DISTINCT_SESSIONS_SQL)) if sid is not None]

    def iter_llm_calling_since(self, session_id: str, after: int | None,
                               batch: int = 128) -> Iterator[tuple[int, str, bytes | str | None]]:
        """Stream ``(key, event id, raw payload)`` of one session's ``llm.calling`` rows whose
        :meth:`request_key_column` value is above ``after`` (all when None), read through the
        ``(session_id, type, created_at)`` index, unordered. Close the iterator to free its
        connection."""
        key_name = self.request_key_column()
        if key_name is None:
            raise StoreError(f"{self.location}: trace rows have no write-order key", location=self.location)
        te = self._tables["trace_events"]
        key = sa.literal_column("rowid") if key_name == "rowid" else te.c.seq
        stmt = sa.select(key, te.c.id, self._payload_expr()).where(te.c.session_id == session_id,
                                                                   te.c.type == "llm.calling")
        if after is not None:
            stmt = stmt.where(key > after)
        stream = self._stream(stmt, max(1, int(batch)))
        with self._lock:
            self._streams.add(stream)
        return stream

    def existing_event_ids(self, event_ids: Iterable[str]) -> set[str]:
        """Those of ``event_ids`` that are trace rows of this store now (primary-key lookups)."""
        te = self._tables["trace_events"]
        wanted = list(event_ids)
        found: set[str] = set()
        with self._connect() as conn:
            for start in range(0, len(wanted), 500):
                chunk = wanted[start:start + 500]
                found.update(eid for (eid,) in conn.execute(sa.select(te.c.id).where(te.c.id.in_(chunk))))
        return found

    def event_key(self, event_id: str) -> int | None:
        """The :meth:`request_key_column` value of a trace row (a primary-key lookup), or None."""
        key_name = self.request_key_column()
        if key_name is None:
            return None
        te = self._tables["trace_events"]
        col = sa.literal_column("rowid") if key_name == "rowid" else te.c.seq
        with self._connect() as conn:
            value = conn.execute(sa.select(col).where(te.c.id == event_id).limit(1)).scalar()
        return int(value) if value is not None else None

    # The columns iter_llm_calling_rows and llm_calling_rows_by_id give, on SQLite, followed by a
    # condition: a text or blob payload is read through a blob handle (_request_row), any other
    # (NULL, a number) comes as the query's value.
    _ROW_FETCH_SQL = (
        "SELECT rowid, session_id, turn_id, CASE WHEN typeof(payload) IN ('text', 'blob') THEN NULL "
        "ELSE CAST(payload AS BLOB) END, id, typeof(payload) IN ('text', 'blob') FROM trace_events WHERE "
    )

    def _stream_by_rowid(self, stmt: sa.Select[Any], batch: int, mapped: bool) -> Iterator[tuple[Any, ...]]:
        """Stream in two steps: sort the row ids alone, then fetch the rows by rowid.

        Sorting the full rows makes SQLite's sorter carry every payload, and for a store of
        hundreds of megabytes it spills them to temporary files: about three times slower than
        sorting the keys. One read transaction keeps both steps on the same snapshot while a
        writer carries on.
        """
        keys_stmt = stmt.with_only_columns(sa.literal_column("rowid"))
        compiled = keys_stmt.compile(dialect=self._engine.dialect)
        params = compiled.construct_params()
        args = tuple(params[name] for name in (compiled.positiontup or ()))
        with self._sqlite_snapshot(mapped) as (raw, cursor):
            rowids = [r[0] for r in cursor.execute(str(compiled), args)]
            for start in range(0, len(rowids), batch):
                chunk = rowids[start : start + batch]
                cursor.execute(self._sql(self._ROW_FETCH_SQL) + "rowid IN (" + ",".join("?" * len(chunk)) + ")", chunk)
                found = {row[0]: row for row in cursor.fetchall()}
                for rowid in chunk:
                    row = found.get(rowid)
                    if row is not None:
                        yield _request_row(raw, row)

    def _stream(self, stmt: sa.Select[Any], batch: int) -> Iterator[tuple[Any, ...]]:
        with self._connect() as conn:
            if self._dialect == "sqlite":
                # The sqlite3 cursor streams; bypassing SQLAlchemy's Rows keeps the driver's own tuples.
                compiled = stmt.compile(dialect=conn.dialect)
                params = compiled.construct_params()
                args = tuple(params[name] for name in (compiled.positiontup or ()))
                cursor = (raw := conn.connection.driver_connection).cursor()  # type: ignore[union-attr]
                try:
                    with node_text_factory(raw):
                        cursor.execute(str(compiled), args)
                        fetch: Callable[[int], list[tuple[Any, ...]]] = cursor.fetchmany
                        while rows := fetch(batch):
                            yield from rows
                finally:
                    cursor.close()
            else:
                result = conn.execution_options(stream_results=True, yield_per=batch).execute(stmt)
                try:
                    for partition in result.partitions():
                        for row in partition:
                            yield tuple(row)
                finally:
                    result.close()

    # ----------------------------------------------------------------- journal

    def turn_messages(self, session_id: str, turn_id: str | None = None) -> list[TurnMessage]:
        """The model-history journal in Covel's order: created_at, "order", id."""
        t = self._tables
        if not t.has("turn_messages"):
            return []
        keys = [t.sort_key("turn_messages", "created_at")] if t.has("turn_messages", "created_at") else []
        if t.has("turn_messages", "order"):
            keys.append(t["turn_messages"].c["order"])
        keys.append(t.sort_key("turn_messages", "id"))
        rows = self._session_table_rows(
            "turn_messages", ["id", "session_id", "turn_id", "source_type", "source_plugin_id", "source_runtime_id",
                              "role", "name", "content", "ui", "pending_input", "order", "created_at",
                              "compacted_at_turn_id"], session_id, turn_id, keys)
        return [
            TurnMessage(
                id=r["id"],
                session_id=r["session_id"],
                turn_id=r.get("turn_id"),
                source_type=r.get("source_type"),
                source_plugin_id=r.get("source_plugin_id"),
                source_runtime_id=r.get("source_runtime_id"),
                role=r.get("role"),
                name=r.get("name"),
                content=r.get("content"),
                ui=r.get("ui"),
                pending_input=r.get("pending_input"),
                order=r.get("order"),
                created_at=r.get("created_at"),
                compacted_by=r.get("compacted_at_turn_id"),
            )
            for r in rows
        ]

    def session_summaries(self, session_id: str) -> list[SessionSummary]:
        rows = self._session_table_rows("session_summaries", ["id", "session_id", "turn_range_start", "turn_range_end",
                                                              "content", "focus_sections", "created_at"], session_id)
        summaries = []
        for r in rows:
            value = parse_json_value(r.get("focus_sections"))[0]
            sections = tuple(str(s) for s in value) if isinstance(value, list) else ()
            summaries.append(SessionSummary(
                id=r["id"],
                session_id=r["session_id"],
                turn_range_start=r.get("turn_range_start"),
                turn_range_end=r.get("turn_range_end"),
                content=r.get("content"),
                focus_sections=sections,
                created_at=r.get("created_at"),
            ))
        return summaries

    # ----------------------------------------------------------------- executions

    def session_of_turn(self, turn_id: str) -> str | None:
        """The session an execution id belongs to (from ``turn_results``, else ``trace_events``), or
        None when no row names it."""
        t = self._tables
        with self._connect() as conn:
            if t.has("turn_results"):
                tr = t["turn_results"]
                found = conn.execute(
                    sa.select(tr.c.session_id).where(tr.c.turn_id == turn_id).limit(1)
                ).scalar()
                if found is not None:
                    return found
            te = t["trace_events"]
            # trace_events is indexed on (session_id, turn_id) only: probing each session keeps
            # the lookup on that index instead of scanning every payload page of the table.
            sessions = sa.select(te.c.session_id).distinct().subquery()
            inner = te.alias("probe")
            stmt = (sa.select(sessions.c.session_id)
                    .where(sa.exists().where(inner.c.session_id == sessions.c.session_id,
                                             inner.c.turn_id == turn_id))
                    .limit(1))
            return conn.execute(stmt).scalar()

    def turn_results(self, session_id: str, turn_ids: Iterable[str] | None = None) -> list[TurnResult]:
        """``turn_results`` rows of a session (optionally only some executions) in canonical order.

        An execution can have several rows (the pending row is re-written on commit); all are
        returned, the last one of a turn is its current state.
        """
        wanted = None if turn_ids is None else [turn_ids] if isinstance(turn_ids, str) else list(turn_ids)
        if not self._tables.has("turn_results") or wanted == []:
            return []
        rows = self._session_table_rows(
            "turn_results", ["id", "session_id", "turn_id", "origin", "parent_turn_id", "commit_status", "duration_ms",
                             "created_at", "seq", "runtime_results", "retry_scope", "audit_result"], session_id,
            wanted, self._order("turn_results"))
        return [
            TurnResult(
                id=r["id"],
                session_id=r["session_id"],
                turn_id=r["turn_id"] or UNKNOWN_TURN,
                origin=r.get("origin"),
                parent_turn_id=r.get("parent_turn_id"),
                commit_status=r.get("commit_status"),
                duration_ms=r.get("duration_ms"),
                created_at=r.get("created_at"),
                seq=r.get("seq"),
                raw_runtime_results=r.get("runtime_results"),
                raw_retry_scope=r.get("retry_scope"),
                raw_audit_result=r.get("audit_result"),
            )
            for r in rows
        ]

    def _session_table_rows(self, table: str, names: list[str], session_id: str, turn_id: str | list[str] | None = None,
                            keys: list[Any] | None = None) -> list[dict[str, Any]]:
        """Rows of an optional session-scoped table as dicts (of one execution or some, when
        ``turn_id`` is a list), ordered by ``keys`` (default ``created_at, id``).

        Covel has no migrations: the table or some of ``names`` may be missing in an older file,
        so only the columns that exist are read (absent ones come back as missing keys). Values
        of the wrong type are converted (:mod:`.values`)."""
        t = self._tables
        if not t.has(table):
            return []
        tb = t[table]
        stmt = sa.select(*[t.read(table, name) for name in names if name in tb.c])  # filled ones too
        stmt = stmt.where(matches(tb.c.session_id, session_id))
        if turn_id is not None:
            stmt = stmt.where(matches_any(tb.c.turn_id, turn_id) if isinstance(turn_id, list)
                              else matches(tb.c.turn_id, turn_id))
        if keys is None:
            keys = [t.sort_key(table, "created_at")] if t.has(table, "created_at") else []
            keys.append(t.sort_key(table, "id"))
        stmt = stmt.order_by(*keys)
        with self._connect() as conn:
            return [self._values.row(table, dict(row._mapping)) for row in fetch_all(conn, stmt, self._values, table)]

    def tool_calls(self, session_id: str, turn_id: str | None = None) -> list[ToolCallRecord]:
        """``tool_calls`` rows of a session (optionally one execution), ordered by created_at, id."""
        rows = self._session_table_rows(
            "tool_calls", ["id", "session_id", "turn_id", "tool_name", "plugin_id", "runtime_id", "input",
                           "output", "duration_ms", "approval_status", "created_at"], session_id, turn_id)
        return [
            ToolCallRecord(
                id=r["id"],
                session_id=r["session_id"],
                turn_id=r.get("turn_id"),
                tool_name=r.get("tool_name"),
                plugin_id=r.get("plugin_id"),
                runtime_id=r.get("runtime_id"),
                raw_input=r.get("input"),
                raw_output=r.get("output"),
                duration_ms=r.get("duration_ms"),
                approval_status=r.get("approval_status"),
                created_at=r.get("created_at"),
            )
            for r in rows
        ]

    def suspensions(self, session_id: str, turn_id: str | None = None) -> list[SuspensionRecord]:
        """``suspensions`` rows of a session (optionally one execution), ordered by created_at, id."""
        rows = self._session_table_rows(
            "suspensions", ["id", "session_id", "turn_id", "runtime_id", "plugin_id", "reason", "resume_schema",
                            "pending_continuation", "created_at", "resolved_at"], session_id, turn_id)
        return [
            SuspensionRecord(
                id=r["id"],
                session_id=r["session_id"],
                turn_id=r.get("turn_id"),
                runtime_id=r.get("runtime_id"),
                plugin_id=r.get("plugin_id"),
                reason=r.get("reason"),
                raw_resume_schema=r.get("resume_schema"),
                raw_pending_continuation=r.get("pending_continuation"),
                created_at=r.get("created_at"),
                resolved_at=r.get("resolved_at"),
            )
            for r in rows
        ]
