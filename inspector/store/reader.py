"""Read-only access to a Covel store (``covel.db`` or a PostgreSQL URL) through SQLAlchemy Core.

Covel has no migrations, so every query is built from the columns the file actually has
(see the spec ``covel-db.md`` §1); adaptations are listed in :attr:`Store.schema_notes`.
"""

from __future__ import annotations

import os
import re
import sqlite3
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

import orjson
import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.pool import QueuePool

from .errors import (
    EmptyDatabaseError,
    NotACovelStoreError,
    NotADatabaseError,
    StoreError,
    StoreLockedError,
    StoreNotFoundError,
    StoreOpenError,
)
from . import postgres as pg
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
)

__all__ = ["Store", "open_store", "pair_llm_calls", "DEFAULT_BUSY_TIMEOUT"]

DEFAULT_BUSY_TIMEOUT = 2.0
SQLITE_HEADER = b"SQLite format 3\x00"
_SCHEME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*://")

# Tables whose columns drive query building. Anything else in the file is ignored.
_TABLES = ("sessions", "worlds", "trace_events", "turn_results", "turn_messages", "session_summaries",
           "tool_calls", "suspensions")

# sqlite3 error names (Python 3.11+ exposes them) that mean "could not open read-only", which for
# a WAL file in a read-only directory is the -shm that cannot be created.
_RO_RETRY_NAMES = ("SQLITE_CANTOPEN", "SQLITE_READONLY", "SQLITE_IOERR_SHMOPEN", "SQLITE_IOERR_SHMSIZE")
_RO_RETRY_MESSAGES = ("unable to open database file", "readonly database", "disk i/o error")


def _sqlite_connect(uri: str, timeout: float) -> sqlite3.Connection:
    """The one place a sqlite3 connection is made (tests substitute it to simulate failures)."""
    # check_same_thread=False: the desktop app reads from worker threads through the pool.
    return sqlite3.connect(uri, uri=True, timeout=timeout, check_same_thread=False)


def _sqlite_uri(path: Path, mode: str) -> str:
    # Percent-encode so '?', '#' and '%' in a file name cannot be read as URI syntax.
    posix = path.as_posix()
    if re.match(r"^[A-Za-z]:", posix):
        posix = "/" + posix
    query = "mode=ro" if mode == "ro" else "mode=ro&immutable=1"
    return f"file:{quote(posix, safe='/:')}?{query}"


def open_store(path_or_url: str | os.PathLike[str], *, busy_timeout: float = DEFAULT_BUSY_TIMEOUT) -> Store:
    """Open a Covel store read-only.

    ``path_or_url`` is a file path, or an SQLAlchemy URL (``postgresql+psycopg://…``,
    ``sqlite:///…``). A ``sqlite:///<file>`` URL without query options is opened exactly like the
    path so it gets the same checks and never creates the file.
    """
    target = os.fspath(path_or_url)
    if isinstance(target, bytes):
        target = os.fsdecode(target)
    if _SCHEME_RE.match(target):
        url = make_url(target)
        database = url.database or ""
        if (
            url.get_backend_name() == "sqlite"
            and database
            and database != ":memory:"
            and not database.startswith("file:")
            and not url.query
        ):
            return _open_sqlite_path(Path(database), busy_timeout, url_text=target)
        return _open_url(url, busy_timeout)
    return _open_sqlite_path(Path(target), busy_timeout, url_text=None)


def _check_sqlite_file(path: Path) -> None:
    # Checked before SQLite sees the file: SQLite treats a missing or empty file as a new
    # database, and "file is not a database" errors name no file.
    if not path.exists():
        raise StoreNotFoundError(f"{path} does not exist", location=str(path))
    if path.is_dir():
        raise StoreNotFoundError(f"{path} is a directory, not a database file", location=str(path))
    try:
        with path.open("rb") as handle:
            header = handle.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise StoreOpenError(f"{path} cannot be read: {exc.strerror or exc}", location=str(path)) from exc
    if not header:
        raise EmptyDatabaseError(f"{path} is empty (0 bytes): not a Covel store", location=str(path))
    if header != SQLITE_HEADER:
        raise NotADatabaseError(f"{path} is not a SQLite database", location=str(path))


def _open_sqlite_path(path: Path, busy_timeout: float, *, url_text: str | None) -> Store:
    path = path.expanduser().absolute()
    _check_sqlite_file(path)
    location = str(path)
    notes: list[str] = []
    engine = _sqlite_engine(path, "ro", busy_timeout)
    try:
        _probe(engine)
        mode = "ro"
    except sa_exc.DBAPIError as exc:
        engine.dispose()
        if not _is_ro_open_failure(exc.orig):
            raise _translate(exc.orig, location, busy_timeout) from exc
        # Read-only open of a WAL file needs its -shm; in a read-only directory it cannot be
        # created, and immutable=1 is the only way in (it ignores the -wal and every lock).
        engine = _sqlite_engine(path, "immutable", busy_timeout)
        try:
            _probe(engine)
        except sa_exc.DBAPIError as exc2:
            engine.dispose()
            raise _translate(exc2.orig, location, busy_timeout) from exc2
        mode = "immutable"
        notes.append(
            f"opened with immutable=1 because read-only mode failed ({exc.orig}): "
            "changes still in the -wal file and later writes are not visible"
        )
    url = url_text if url_text is not None else _sqlite_uri(path, mode)
    return Store(engine, path=path, url=url, location=location, read_only_mode=mode,
                 busy_timeout=busy_timeout, notes=notes)


def _sqlite_engine(path: Path, mode: str, busy_timeout: float) -> Engine:
    uri = _sqlite_uri(path, mode)
    engine = sa.create_engine(
        "sqlite://",
        creator=lambda: _sqlite_connect(uri, busy_timeout),
        poolclass=QueuePool,
        pool_size=4,
        max_overflow=4,
    )
    _install_read_only_hooks(engine, busy_timeout)
    return engine


def _open_url(url: URL, busy_timeout: float) -> Store:
    url = pg.normalise_url(url)
    location = url.render_as_string(hide_password=True)
    postgres = pg.is_postgres(url)
    connect_args: dict[str, Any] = {}
    engine_args: dict[str, Any] = {}
    if url.get_backend_name() == "sqlite":
        connect_args = {"timeout": busy_timeout, "check_same_thread": False}
    elif postgres:
        connect_args = pg.connect_args(url)
        # A desktop session outlives server restarts; a dead pooled connection is replaced
        # instead of failing the next view.
        engine_args["pool_pre_ping"] = True
    try:
        engine = sa.create_engine(url, connect_args=connect_args, **engine_args)
    except (sa_exc.ArgumentError, sa_exc.NoSuchModuleError, ImportError) as exc:
        hint = ""
        if postgres and not isinstance(exc, sa_exc.ArgumentError):
            hint = "; the PostgreSQL driver that comes with Prompt Inspector is psycopg: use postgresql://"
        raise StoreOpenError(f"cannot open {location}: {exc}{hint}", location=location) from exc
    _install_read_only_hooks(engine, busy_timeout)
    try:
        _probe(engine)
    except sa_exc.DBAPIError as exc:
        engine.dispose()
        raise _translate(exc.orig, location, busy_timeout, url) from exc
    except StoreError:
        engine.dispose()
        raise
    mode = "ro" if url.get_backend_name() != "sqlite" else _sqlite_url_mode(url)
    path = None
    if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
        path = Path(url.database.removeprefix("file:").split("?", 1)[0])
    return Store(engine, path=path, url=location, location=location, read_only_mode=mode,
                 busy_timeout=busy_timeout, notes=[], sa_url=url)


def _sqlite_url_mode(url: URL) -> str:
    database = url.database or ""
    if "immutable=1" in database or url.query.get("immutable") == "1":
        return "immutable"
    return "ro" if ("mode=ro" in database or url.query.get("mode") == "ro") else "query_only"


def _install_read_only_hooks(engine: Engine, busy_timeout: float) -> None:
    dialect = engine.dialect.name

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        try:
            if dialect == "sqlite":
                # Belt and braces on top of mode=ro, and the only guard for a plain sqlite URL.
                cursor.execute("PRAGMA query_only=ON")
                cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout * 1000)}")
        finally:
            cursor.close()
        if dialect == "postgresql":
            pg.make_read_only(dbapi_connection)


def _probe(engine: Engine) -> None:
    # Reading sqlite_master forces SQLite to open the file, the -wal/-shm and take a read lock;
    # opening alone is lazy and would defer every error to the first real query.
    with engine.connect() as conn:
        if engine.dialect.name == "sqlite":
            conn.exec_driver_sql("SELECT count(*) FROM sqlite_master").scalar()
        elif engine.dialect.name == "postgresql":
            # The guarantee is checked, not assumed: a URL option or a driver that ignored the
            # read-only request must not leave a writable session on the team's database.
            if conn.exec_driver_sql("SHOW transaction_read_only").scalar() != "on":
                location = engine.url.render_as_string(hide_password=True)
                raise StoreOpenError(f"{location}: the connection could not be made read-only, so it was "
                                     "not used", location=location)
        else:
            conn.execute(sa.select(sa.literal(1))).scalar()


def _is_ro_open_failure(orig: BaseException | None) -> bool:
    if not isinstance(orig, sqlite3.Error):
        return False
    name = getattr(orig, "sqlite_errorname", "") or ""
    if any(name.startswith(prefix) for prefix in _RO_RETRY_NAMES):
        return True
    message = str(orig).lower()
    return any(text in message for text in _RO_RETRY_MESSAGES)


def _translate(orig: BaseException | None, location: str, busy_timeout: float,
               url: URL | None = None) -> StoreError:
    if orig is not None and not isinstance(orig, sqlite3.Error):
        return pg.translate_error(orig, location, url)
    message = str(orig)
    lower = message.lower()
    name = getattr(orig, "sqlite_errorname", "") or ""
    if "locked" in lower or name.startswith("SQLITE_BUSY"):
        return StoreLockedError(
            f"{location} is locked by another process ({message}; waited {busy_timeout:g} s). "
            "Covel is probably writing; try again in a moment.",
            location=location,
        )
    if "not a database" in lower or name.startswith("SQLITE_NOTADB"):
        return NotADatabaseError(f"{location} is not a SQLite database ({message})", location=location)
    return StoreOpenError(f"{location}: {message}", location=location)


def _iso_ms(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


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


# Rows that name their runtime in a small payload (covel-db.md §2.1).
RUNTIME_LIFECYCLE_TYPES = ("runtime.started", "runtime.completed", "runtime.failed", "runtime.skipped",
                           "runtime.deferred")


class Store:
    """A read-only Covel store. Use :func:`open_store` to create one; close it (or use ``with``).

    ``read_only_mode`` is ``"ro"`` (SQLite ``mode=ro``, or a read-only PostgreSQL session),
    ``"immutable"`` (SQLite ``immutable=1`` fallback; see :attr:`schema_notes`) or
    ``"query_only"`` (a ``sqlite:`` URL with its own options, guarded only by ``PRAGMA query_only``).
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
    ) -> None:
        self._engine = engine
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

    @property
    def closed(self) -> bool:
        return self._closed

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
        try:
            with self._engine.connect() as conn:
                yield conn
        except sa_exc.DBAPIError as exc:
            raise _translate(exc.orig, self.location, self.busy_timeout, self._sa_url) from exc
        except sqlite3.Error as exc:
            raise _translate(exc, self.location, self.busy_timeout) from exc

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

    def _order(self, table: str, *, middle: str | None = "seq") -> list[sa.ColumnElement[Any]]:
        t = self._tables
        keys = [t.sort_key(table, "created_at")]
        if middle is not None and t.has(table, middle):
            keys.append(t[table].c[middle])
        keys.append(t.sort_key(table, "id"))
        return keys

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

    @staticmethod
    def _event_from_row(row: Any) -> TraceEvent:
        return TraceEvent(row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7])

    # ----------------------------------------------------------------- sessions

    def sessions(self) -> list[SessionInfo]:
        """All sessions, including ids seen only in trace rows, ordered by created_at, id."""
        t = self._tables
        te = t["trace_events"]
        with self._connect() as conn:
            counts: dict[str, tuple[int, int]] = {}
            llm = sa.func.sum(sa.case((te.c.type == "llm.calling", 1), else_=0))
            for sid, total, calls in conn.execute(
                sa.select(te.c.session_id, sa.func.count(), llm).group_by(te.c.session_id)
            ):
                counts[sid] = (int(total), int(calls or 0))

            pairs: sa.Select[Any] | sa.CompoundSelect = sa.select(te.c.session_id, te.c.turn_id)
            if t.has("turn_results"):
                tr = t["turn_results"]
                pairs = sa.union(pairs, sa.select(tr.c.session_id, tr.c.turn_id))
            sub = pairs.subquery()
            executions = {
                sid: int(n)
                for sid, n in conn.execute(
                    sa.select(sub.c.session_id, sa.func.count(sa.distinct(sub.c.turn_id))).group_by(sub.c.session_id)
                )
            }

            rows: list[dict[str, Any]] = []
            if t.has("sessions"):
                rows = self._session_rows(conn)

        infos: list[SessionInfo] = []
        seen: set[str] = set()
        for row in rows:
            sid = row["id"]
            seen.add(sid)
            total, calls = counts.get(sid, (0, 0))
            infos.append(self._session_info(sid, row, total, calls, executions.get(sid, 0)))
        for sid in sorted(set(counts) | set(executions)):
            if sid not in seen:
                total, calls = counts.get(sid, (0, 0))
                infos.append(self._session_info(sid, {}, total, calls, executions.get(sid, 0)))
        infos.sort(key=lambda s: (s.created_at is None, s.created_at or "", s.id))
        return infos

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
        return [dict(row._mapping) for row in conn.execute(sa.select(*cols).select_from(frm))]

    @staticmethod
    def _session_info(sid: str, row: dict[str, Any], total: int, calls: int, executions: int) -> SessionInfo:
        completed = row.get("completed_player_turns")
        if completed is None:
            # PostgreSQL of that era allowed NULL here while turn_count still held the number.
            completed = row.get("turn_count")
        return SessionInfo(
            id=sid,
            world_id=row.get("world_id"),
            world_name=row.get("world_name"),
            locale=row.get("locale"),
            phase=row.get("phase"),
            status=row.get("status"),
            completed_player_turns=int(completed) if completed is not None else None,
            execution_count=executions,
            event_count=total,
            llm_call_count=calls,
            created_at=row.get("created_at"),
            updated_at=row.get("updated_at"),
        )

    # ----------------------------------------------------------------- turns

    def turns(self, session_id: str) -> list[TurnInfo]:
        """Executions of a session in order of first appearance (result row or first trace row)."""
        t = self._tables
        te = t["trace_events"]
        results: dict[str, dict[str, Any]] = {}
        first_key: dict[str, tuple[str, int]] = {}

        with self._connect() as conn:
            if t.has("turn_results"):
                tr = t["turn_results"]
                wanted = ["turn_id", "created_at", "seq", "origin", "commit_status", "duration_ms",
                          "retry_scope", "parent_turn_id"]
                cols = [t.read("turn_results", name) for name in wanted if t.has("turn_results", name)]
                stmt = (sa.select(*cols).where(tr.c.session_id == session_id)
                        .order_by(*self._order("turn_results")))
                for row in conn.execute(stmt):
                    data = dict(row._mapping)
                    tid = data["turn_id"]
                    key = (data.get("created_at") or "", data.get("seq") or 0)
                    if tid not in first_key or key < first_key[tid]:
                        first_key[tid] = key
                    # A turn can have several rows (re-written on commit); the last one is current.
                    results[tid] = data

            runtime_expr = self._runtime_id_expr()
            if runtime_expr is not None:
                # Runtime ids come from the small lifecycle rows; parsing every llm.calling
                # payload in SQL to find the same ids costs ten times the rest of the listing.
                extra = sa.case((te.c.type.in_(RUNTIME_LIFECYCLE_TYPES), runtime_expr),
                                else_=sa.null()).label("runtime_id")
            else:
                extra = self._payload_expr()
            seq = te.c.seq if self.has_seq else sa.null().label("seq")
            stmt = (sa.select(te.c.turn_id, te.c.type, te.c.trace_id, t.read("trace_events", "created_at"), seq, extra)
                    .where(te.c.session_id == session_id)
                    .order_by(*self._order("trace_events")))
            agg: dict[str, dict[str, Any]] = {}
            for turn_id, etype, trace_id, created_at, seqv, extra_value in conn.execute(stmt):
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
                if runtime_expr is None:
                    rid = parse_json_object(extra_value, merge_data=True)[0].get("runtimeId")
                else:
                    rid = extra_value
                if isinstance(rid, str) and rid:
                    info["runtimes"].setdefault(rid, None)

            unnamed = [tid for tid, info in agg.items() if info["llm"] and not info["runtimes"]]
            if unnamed and runtime_expr is not None:
                # Older or pruned logs may lack lifecycle rows: name runtimes from their calls.
                for start in range(0, len(unnamed), 500):
                    chunk = unnamed[start : start + 500]
                    stmt = (sa.select(te.c.turn_id, runtime_expr)
                            .where(te.c.session_id == session_id, te.c.type == "llm.calling",
                                   te.c.turn_id.in_(chunk))
                            .order_by(*self._order("trace_events")))
                    for turn_id, rid in conn.execute(stmt):
                        if isinstance(rid, str) and rid:
                            agg[turn_id]["runtimes"].setdefault(rid, None)

        order = sorted(first_key, key=lambda tid: (first_key[tid], tid))
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
                duration_ms=int(duration) if duration is not None else None,
                retry_scope=retry_scope,
                parent_turn_id=res.get("parent_turn_id") if res else None,
                event_count=ev["count"] if ev else 0,
                llm_call_count=ev["llm"] if ev else 0,
                runtime_ids=tuple(ev["runtimes"]) if ev else (),
                has_result=res is not None,
            ))
        return turns

    # ----------------------------------------------------------------- events

    def events(self, session_id: str, turn_id: str | None = None,
               types: Iterable[str] | None = None) -> list[TraceEvent]:
        """Trace events of a session (optionally one turn / some types) in canonical order."""
        te = self._tables["trace_events"]
        stmt = sa.select(*self._event_columns()).where(te.c.session_id == session_id)
        if turn_id is not None:
            stmt = stmt.where(te.c.turn_id == turn_id)
        if types is not None:
            type_list = [types] if isinstance(types, str) else list(types)
            stmt = stmt.where(te.c.type.in_(type_list))
        if turn_id is None:
            stmt = stmt.order_by(*self._order("trace_events"))
            with self._connect() as conn:
                return [self._event_from_row(row) for row in conn.execute(stmt)]
        # With an ORDER BY, SQLite walks the session's (created_at, seq) index and reads every row
        # of the session to find one turn's (25 ms on a 1,000-turn session); unordered it takes
        # the (session_id, turn_id) index. Sorting a turn's rows here gives the same order:
        # comparing str code points equals comparing the UTF-8 bytes, and NULL sorts first.
        with self._connect() as conn:
            events = [self._event_from_row(row) for row in conn.execute(stmt)]
        if self.has_seq:
            events.sort(key=lambda e: (e.created_at or "", -1 if e.seq is None else e.seq, e.id))
        else:
            events.sort(key=lambda e: (e.created_at or "", e.id))
        return events

    def event(self, event_id: str) -> TraceEvent | None:
        te = self._tables["trace_events"]
        stmt = sa.select(*self._event_columns()).where(te.c.id == event_id)
        with self._connect() as conn:
            row = conn.execute(stmt).first()
        return self._event_from_row(row) if row is not None else None

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

    def iter_llm_calling_rows(
        self, session_id: str | None = None, batch: int = 256
    ) -> Iterator[tuple[str, str, bytes | str | None, str]]:
        """Stream ``(session_id, turn_id, raw payload, event id)`` of every ``llm.calling`` row in
        canonical order, ``batch`` rows per fetch. Close the iterator (or exhaust it) to free its
        connection; :meth:`close` closes any still open."""
        if self._closed:
            raise StoreError(f"{self.location}: the store is closed", location=self.location)
        te = self._tables["trace_events"]
        stmt = sa.select(te.c.session_id, te.c.turn_id, self._payload_expr(), te.c.id).where(
            te.c.type == "llm.calling"
        )
        if session_id is not None:
            stmt = stmt.where(te.c.session_id == session_id)
        stmt = stmt.order_by(*self._order("trace_events"))
        if self._dialect == "sqlite":
            stream = self._stream_by_rowid(stmt, max(1, int(batch)))
        else:
            stream = self._stream(stmt, max(1, int(batch)))
        with self._lock:
            self._streams.add(stream)
        return stream

    # The columns iter_llm_calling_rows yields, fetched by rowid on SQLite.
    _ROWID_FETCH_SQL = (
        "SELECT rowid, session_id, turn_id, CAST(payload AS BLOB), id FROM trace_events WHERE rowid IN "
    )

    def _stream_by_rowid(self, stmt: sa.Select[Any], batch: int) -> Iterator[tuple[Any, ...]]:
        """Stream in two steps: sort the row ids alone, then fetch the rows by rowid.

        Sorting the full rows makes SQLite's sorter carry every payload, and for a store of
        hundreds of megabytes it spills them to temporary files: about three times slower than
        sorting the keys. One read transaction keeps both steps on the same snapshot while a
        writer carries on.
        """
        keys_stmt = stmt.with_only_columns(sa.literal_column("rowid"))
        with self._connect() as conn:
            raw = conn.connection.driver_connection  # type: ignore[union-attr]
            began = not raw.in_transaction
            if began:
                raw.execute("BEGIN")
            cursor = raw.cursor()
            try:
                compiled = keys_stmt.compile(dialect=conn.dialect)
                params = compiled.construct_params()
                args = tuple(params[name] for name in (compiled.positiontup or ()))
                rowids = [r[0] for r in cursor.execute(str(compiled), args)]
                for start in range(0, len(rowids), batch):
                    chunk = rowids[start : start + batch]
                    cursor.execute(self._ROWID_FETCH_SQL + "(" + ",".join("?" * len(chunk)) + ")", chunk)
                    found = {row[0]: row[1:] for row in cursor.fetchall()}
                    for rowid in chunk:
                        row = found.get(rowid)
                        if row is not None:
                            yield row
            finally:
                cursor.close()
                if began and raw.in_transaction:
                    raw.execute("ROLLBACK")

    def _stream(self, stmt: sa.Select[Any], batch: int) -> Iterator[tuple[Any, ...]]:
        with self._connect() as conn:
            if self._dialect == "sqlite":
                # The sqlite3 cursor already streams; going around SQLAlchemy's Row objects
                # keeps the per-row cost to the driver's own tuple.
                compiled = stmt.compile(dialect=conn.dialect)
                params = compiled.construct_params()
                args = tuple(params[name] for name in (compiled.positiontup or ()))
                cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
                try:
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
        tm = t["turn_messages"]
        names = ["id", "session_id", "turn_id", "source_type", "source_plugin_id", "source_runtime_id", "role",
                 "name", "content", "ui", "pending_input", "order", "created_at", "compacted_at_turn_id"]
        cols = [t.read("turn_messages", name) for name in names if t.has("turn_messages", name)]
        stmt = sa.select(*cols).where(tm.c.session_id == session_id)
        if turn_id is not None:
            stmt = stmt.where(tm.c.turn_id == turn_id)
        keys: list[sa.ColumnElement[Any]] = []
        if t.has("turn_messages", "created_at"):
            keys.append(t.sort_key("turn_messages", "created_at"))
        if t.has("turn_messages", "order"):
            keys.append(tm.c["order"])
        keys.append(t.sort_key("turn_messages", "id"))
        stmt = stmt.order_by(*keys)
        with self._connect() as conn:
            rows = [dict(row._mapping) for row in conn.execute(stmt)]
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
        t = self._tables
        if not t.has("session_summaries"):
            return []
        ss = t["session_summaries"]
        names = ["id", "session_id", "turn_range_start", "turn_range_end", "content", "focus_sections",
                 "created_at"]
        cols = [t.read("session_summaries", name) for name in names if t.has("session_summaries", name)]
        keys = ([t.sort_key("session_summaries", "created_at")] if t.has("session_summaries", "created_at") else [])
        stmt = sa.select(*cols).where(ss.c.session_id == session_id).order_by(*keys, t.sort_key("session_summaries", "id"))
        with self._connect() as conn:
            rows = [dict(row._mapping) for row in conn.execute(stmt)]
        summaries = []
        for r in rows:
            focus = r.get("focus_sections")
            sections: tuple[str, ...] = ()
            if isinstance(focus, list):
                sections = tuple(str(s) for s in focus)
            elif isinstance(focus, (str, bytes)):
                try:
                    value = orjson.loads(focus)
                except ValueError:
                    value = None
                if isinstance(value, list):
                    sections = tuple(str(s) for s in value)
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
        t = self._tables
        if not t.has("turn_results"):
            return []
        tr = t["turn_results"]
        names = ["id", "session_id", "turn_id", "origin", "parent_turn_id", "commit_status", "duration_ms",
                 "created_at", "seq", "runtime_results", "retry_scope", "audit_result"]
        cols = [t.read("turn_results", name) for name in names if t.has("turn_results", name)]
        stmt = sa.select(*cols).where(tr.c.session_id == session_id)
        if turn_ids is not None:
            wanted = [turn_ids] if isinstance(turn_ids, str) else list(turn_ids)
            if not wanted:
                return []
            stmt = stmt.where(tr.c.turn_id.in_(wanted))
        stmt = stmt.order_by(*self._order("turn_results"))
        with self._connect() as conn:
            rows = [dict(row._mapping) for row in conn.execute(stmt)]
        return [
            TurnResult(
                id=r["id"],
                session_id=r["session_id"],
                turn_id=r["turn_id"],
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

    def _session_table_rows(self, table: str, names: list[str], session_id: str,
                            turn_id: str | None) -> list[dict[str, Any]]:
        """Rows of an optional session-scoped table as dicts, ordered by ``created_at, id``.

        Covel has no migrations: the table or some of ``names`` may be missing in an older file,
        so only the columns that exist are read (absent ones come back as missing keys)."""
        t = self._tables
        if not t.has(table):
            return []
        tb = t[table]
        stmt = sa.select(*[t.read(table, name) for name in names if t.has(table, name)]).where(tb.c.session_id == session_id)
        if turn_id is not None:
            stmt = stmt.where(tb.c.turn_id == turn_id)
        keys = [t.sort_key(table, "created_at")] if t.has(table, "created_at") else []
        stmt = stmt.order_by(*keys, t.sort_key(table, "id"))
        with self._connect() as conn:
            return [dict(row._mapping) for row in conn.execute(stmt)]

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
