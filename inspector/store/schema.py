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

from . import postgres as pg
from .columns import adapt_sql, adapt_tables
from .errors import NotACovelStoreError
from .ordering import order_keys
from .sql import Connection, quote
from .values import ValueNotes

__all__ = ["TABLES", "Reader", "Schema", "Tables", "adaptation_notes", "has_json_functions", "reflect"]

# Tables whose columns drive query building. Anything else in the file is ignored.
TABLES = ("sessions", "worlds", "trace_events", "turn_results", "turn_messages", "session_summaries",
          "tool_calls", "suspensions")

# Covel's timestamps as JavaScript's toISOString() writes them, in PostgreSQL's to_char().
_ISO_FORMAT = """'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'"""


class Tables:
    """The columns the database really has, per table, and the SQL that reads them.

    :meth:`source` is what a query names after FROM: the table itself, or a subquery named like
    it that also gives the columns the file lacks (``subqueries``, made by
    :func:`inspector.store.columns.adapt_tables`); ``filled`` names those columns. ``types`` (PostgreSQL only) maps each column to its SQL type,
    so that :meth:`read` can hand every column to the rest of the core the way a ``covel.db``
    holds it: JSON as text and timestamps as ISO strings.
    """

    def __init__(self, columns: dict[str, list[str]], types: dict[str, dict[str, str]] | None = None) -> None:
        self.columns = {name: set(cols) for name, cols in columns.items()}
        self.ordered = {name: list(cols) for name, cols in columns.items()}
        self.types = types or {}
        self.subqueries: dict[str, str] = {}
        self.filled: dict[str, set[str]] = {}

    def has(self, table: str, column: str | None = None) -> bool:
        if table not in self.columns:
            return False
        return column is None or column in self.columns[table]

    def readable(self, table: str, column: str) -> bool:
        """Whether a query may name the column: the file has it, or it is filled."""
        return column in self.columns[table] or column in self.filled.get(table, ())

    def source(self, table: str, alias: str | None = None) -> str:
        """The FROM item of ``table`` (named ``alias`` when given)."""
        if table in self.subqueries:
            return f"({self.subqueries[table]}) AS {quote(alias or table)}"
        return quote(table) if alias is None else f"{quote(table)} AS {quote(alias)}"

    def col(self, table: str, column: str) -> str:
        """The column as stored, qualified by its table."""
        return f"{quote(table)}.{quote(column)}"

    def type_of(self, table: str, column: str) -> str | None:
        return self.types.get(table, {}).get(column)

    def value(self, table: str, column: str) -> str:
        """The column converted to what SQLite would give (see the class docstring)."""
        col = self.col(table, column)
        sql_type = self.type_of(table, column)
        if sql_type is None:
            return col
        if pg.is_json_type(sql_type):
            # jsonb arrives decoded from the driver, and a decoded JSON string would look like
            # text to the JSON readers; its text form keeps one code path for both backends.
            return f"CAST({col} AS TEXT)"
        if pg.is_timestamp_type(sql_type):
            # Covel stores ISO text (covel-db.md §5); a store migrated to timestamp columns is read
            # back in the same toISOString() shape, so ordering and parsing stay as on SQLite.
            utc = f"timezone('UTC', {col})" if "with time zone" in sql_type else col
            return f"to_char({utc}, {_ISO_FORMAT})"
        return col

    def read(self, table: str, column: str) -> str:
        """:meth:`value` as a select-list entry named like the column."""
        return f"{self.value(table, column)} AS {quote(column)}"

    def sort_key(self, table: str, column: str) -> str:
        """An ORDER BY key that compares text byte-wise, as Covel's ``@covel/store`` does."""
        col = self.col(table, column)
        sql_type = self.type_of(table, column)
        if sql_type is not None and pg.is_text_type(sql_type):
            # PostgreSQL's default collation is locale-aware; "C" compares bytes.
            return f'{col} COLLATE "C"'
        return col


def reflect(conn: Connection, location: str) -> Tables:
    """The Covel tables of the database behind ``conn``; :class:`NotACovelStoreError` when it
    has no ``trace_events``."""
    if conn.dialect == "postgresql":
        return _reflect_postgres(conn, location)
    names = {name for (name,) in conn.all("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "trace_events" not in names:
        raise NotACovelStoreError(f"{location} has no trace_events table: not a Covel store?", location=location)
    # table_xinfo lists generated columns too; hidden (virtual-table) columns are not read.
    return Tables({name: [row[1] for row in conn.all(f"PRAGMA table_xinfo({quote(name)})") if row[6] in (0, 2, 3)]
                   for name in TABLES if name in names})


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
    if conn.dialect != "sqlite":
        return False
    try:
        conn.scalar("SELECT json_valid('{}')")
    except conn.OperationalError:
        return False
    return True


class Schema:
    """The reflected tables of one store with its dialect: the SQL every reader builds its
    queries from. ``values`` converts values of the wrong type and notes them once."""

    def __init__(self, tables: Tables, dialect_name: str, has_json1: bool, values: ValueNotes) -> None:
        self.tables = tables
        self.dialect_name = dialect_name
        self.has_json1 = has_json1
        self.values = values
        self.has_seq = tables.has("trace_events", "seq")

    def order(self, table: str, *, middle: str | None = "seq", as_script: bool = False) -> list[str]:
        """The canonical ORDER BY keys of ``table`` (:func:`inspector.store.ordering.order_keys`)."""
        return order_keys(self.tables, self.dialect_name, table, middle=middle, as_script=as_script)

    def sql(self, sql: str) -> str:
        """Hand-written SQL over ``trace_events`` made to read its filled columns (:func:`adapt_sql`)."""
        return adapt_sql(sql, self.tables)

    def trace(self, column: str) -> str:
        """A ``trace_events`` column as stored."""
        return self.tables.col("trace_events", column)

    def seq(self) -> str:
        """``trace_events.seq``, or NULL in a file without it."""
        return self.trace("seq") if self.has_seq else "NULL"

    def payload_expr(self) -> str:
        """The payload as the readers take it, named ``payload``."""
        payload = self.trace("payload")
        if self.dialect_name == "sqlite":
            # As BLOB: orjson parses bytes directly, and a row with invalid UTF-8 becomes a
            # payload_error instead of a decode exception that would abort the whole query.
            return f"CAST({payload} AS BLOB) AS payload"
        # jsonb would come back decoded by the driver; the raw text keeps one code path.
        return f"CAST({payload} AS TEXT) AS payload"

    def event_columns(self) -> list[str]:
        """The select list a :class:`TraceEvent` is built from (``records.trace_event``)."""
        t = self.tables
        return [t.read("trace_events", name) for name in ("id", "session_id", "type", "trace_id", "turn_id",
                                                           "created_at")] + \
            [f"{self.seq()} AS seq", self.payload_expr()]

    def runtime_id_expr(self) -> str | None:
        """A payload's ``runtimeId`` (else ``data.runtimeId``) read by the database, or None where
        it cannot read the payloads as JSON (the caller parses them)."""
        payload = self.trace("payload")
        if self.dialect_name == "sqlite" and self.has_json1:
            top = f"json_extract({payload}, '$.runtimeId')"
            nested = f"json_extract({payload}, '$.data.runtimeId')"
            # json_extract raises on malformed JSON, which would fail the whole listing.
            return f"CASE WHEN json_valid({payload}) = 1 THEN coalesce({top}, {nested}) ELSE NULL END"
        if self.dialect_name == "postgresql":
            sql_type = self.tables.type_of("trace_events", "payload")
            if sql_type == "jsonb":
                doc = payload
            elif sql_type == "json":
                doc = f"CAST({payload} AS JSONB)"
            else:
                # A text column may hold rows that are not JSON; casting them would fail the
                # whole listing, so those payloads are parsed in Python instead.
                return None
            return (f"CASE WHEN jsonb_typeof({doc}) = 'object' THEN coalesce(({doc} ->> 'runtimeId'), "
                    f"(({doc} -> 'data') ->> 'runtimeId')) ELSE NULL END")
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
