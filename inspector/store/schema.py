"""What a store's file really holds, and how every query is built from it.

Covel has no migrations, so every query is built from the columns the file actually has
(covel-db.md §1). :func:`reflect` reads the tables once when the store opens; :class:`Schema`
holds them with the dialect and builds the expressions the readers share (payload, runtime id,
canonical order); :func:`adaptation_notes` says, once, what an older schema lacks and how the
reader copes (the old-schema fallbacks, listed in ``Store.schema_notes``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import Connection, Dialect

from . import postgres as pg
from .columns import adapt_sql, adapt_tables
from .errors import NotACovelStoreError
from .ordering import order_keys
from .values import ValueNotes

__all__ = ["TABLES", "Reader", "Schema", "Tables", "adaptation_notes", "has_json_functions", "reflect"]

# Tables whose columns drive query building. Anything else in the file is ignored.
TABLES = ("sessions", "worlds", "trace_events", "turn_results", "turn_messages", "session_summaries",
          "tool_calls", "suspensions")


class Tables:
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


def reflect(conn: Connection, location: str) -> Tables:
    """The Covel tables of the database behind ``conn``; :class:`NotACovelStoreError` when it
    has no ``trace_events``."""
    if conn.dialect.name == "postgresql":
        return _reflect_postgres(conn, location)
    inspector = sa.inspect(conn)
    names = set(inspector.get_table_names())
    if "trace_events" not in names:
        raise NotACovelStoreError(f"{location} has no trace_events table: not a Covel store?", location=location)
    return Tables({name: [col["name"] for col in inspector.get_columns(name)] for name in TABLES if name in names})


def _reflect_postgres(conn: Connection, location: str) -> Tables:
    schema, tables = pg.catalogue_columns(conn)
    if schema is None:
        raise NotACovelStoreError(
            f"{location}: no schema named in the search_path ({pg.search_path(conn)}) exists in this "
            "database, so there are no Covel tables to read", location=location)
    if "trace_events" not in tables:
        if not tables:
            why = (f"schema {schema!r} has no tables at all. Is this the database Covel uses with "
                   "STORE_BACKEND=pg, and has Covel started on it once? (Covel creates its tables at start-up; "
                   "another schema can be chosen with ?options=-csearch_path%3DNAME in the URL.)")
        else:
            why = f"schema {schema!r} has no trace_events table: not a Covel store?"
        raise NotACovelStoreError(f"{location}: {why}", location=location)
    wanted = {name: tables[name] for name in TABLES if name in tables}
    return Tables({name: [c for c, _ in cols] for name, cols in wanted.items()},
                  {name: dict(cols) for name, cols in wanted.items()})


def has_json_functions(conn: Connection) -> bool:
    """Whether SQLite's JSON functions are there (PostgreSQL's are used through its own path)."""
    if conn.dialect.name != "sqlite":
        return False
    try:
        conn.exec_driver_sql("SELECT json_valid('{}')").scalar()
    except sa_exc.OperationalError:
        return False
    return True


class Schema:
    """The reflected tables of one store with its dialect: the expressions every reader builds
    its queries from. ``values`` converts values of the wrong type and notes them once."""

    def __init__(self, tables: Tables, dialect: Dialect, has_json1: bool, values: ValueNotes) -> None:
        self.tables = tables
        self.dialect = dialect
        self.dialect_name = dialect.name
        self.has_json1 = has_json1
        self.values = values
        self.has_seq = tables.has("trace_events", "seq")

    def order(self, table: str, *, middle: str | None = "seq", as_script: bool = False) -> list[sa.ColumnElement[Any]]:
        """The canonical ORDER BY keys of ``table`` (:func:`inspector.store.ordering.order_keys`)."""
        return order_keys(self.tables, self.dialect_name, table, middle=middle, as_script=as_script)

    def sql(self, sql: str) -> str:
        """Hand-written SQL over ``trace_events`` made to read its filled columns (:func:`adapt_sql`)."""
        return adapt_sql(sql, self.tables, self.dialect)

    def seq(self) -> sa.ColumnElement[Any]:
        """``trace_events.seq``, or NULL named ``seq`` in a file without it."""
        return self.tables["trace_events"].c.seq if self.has_seq else sa.null().label("seq")

    def payload_expr(self) -> sa.ColumnElement[Any]:
        payload = self.tables["trace_events"].c.payload
        if self.dialect_name == "sqlite":
            # As BLOB: orjson parses bytes directly, and a row with invalid UTF-8 becomes a
            # payload_error instead of a decode exception that would abort the whole query.
            return sa.cast(payload, sa.LargeBinary).label("payload")
        # jsonb would come back decoded by the driver; the raw text keeps one code path.
        return sa.cast(payload, sa.Text).label("payload")

    def event_columns(self) -> list[sa.ColumnElement[Any]]:
        """The select list a :class:`TraceEvent` is built from (``records.trace_event``)."""
        tc = self.tables["trace_events"]
        return [tc.c.id, tc.c.session_id, tc.c.type, tc.c.trace_id, tc.c.turn_id,
                self.tables.read("trace_events", "created_at"), self.seq(), self.payload_expr()]

    def runtime_id_expr(self) -> sa.ColumnElement[Any] | None:
        """A payload's ``runtimeId`` (else ``data.runtimeId``) read by the database, or None where
        it cannot read the payloads as JSON (the caller parses them)."""
        payload = self.tables["trace_events"].c.payload
        if self.dialect_name == "sqlite" and self.has_json1:
            top = sa.func.json_extract(payload, "$.runtimeId")
            nested = sa.func.json_extract(payload, "$.data.runtimeId")
            # json_extract raises on malformed JSON, which would fail the whole listing.
            return sa.case((sa.func.json_valid(payload) == 1, sa.func.coalesce(top, nested)), else_=sa.null())
        if self.dialect_name == "postgresql":
            from sqlalchemy.dialects.postgresql import JSONB

            sql_type = self.tables.type_of("trace_events", "payload")
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


def adaptation_notes(tables: Tables, dialect: str, location: str, has_json1: bool) -> list[str]:
    """What the file lacks and how the reader copes, one note each: missing columns are filled
    or tables left out (:func:`adapt_tables`, which may refuse the file), then the older schemas'
    fallbacks."""
    t = tables
    notes = list(adapt_tables(t, dialect, location)[0])
    if not t.has("trace_events", "seq"):
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
    if dialect == "sqlite" and not has_json1:
        notes.append("SQLite lacks JSON functions: runtime ids are read by parsing payloads in Python")
    return notes


class Reader(Protocol):
    """What the store's reading modules need of a :class:`inspector.store.Store`: its schema,
    a pooled connection, and a place to register open streams so that closing the store closes
    them."""

    schema: Schema
    location: str

    def connect(self) -> AbstractContextManager[Connection]: ...

    def check_open(self) -> None: ...

    def track(self, stream: Iterator[Any]) -> Iterator[Any]: ...
