"""Writes a Covel store into PostgreSQL the way Covel's ``STORE_BACKEND=pg`` keeps it
(covel-db.md §5): the same tables and columns as the SQLite file, JSON columns as ``jsonb``,
timestamps still ISO text, index names with a ``pg_`` prefix, the write-order ``seq`` drawn from
a per-table sequence, and media bytes inline in ``media_assets.body``.

The rows come from a ``covel.db`` (the demo generator's or any other), copied in write order, so
a PostgreSQL store and a SQLite file can be filled with the same data and read side by side.
This is the one place in the project that writes to PostgreSQL, and it only ever writes to a
database the user named for it.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.engine import URL, make_url

from inspector.store.sqlite_open import read_only_connection
from inspector.store.urls import scrub_text, secret_values, shown_url

__all__ = [
    "JSON_COLUMNS",
    "PgDemoSummary",
    "PgWriteError",
    "copy_to_postgres",
    "generate_demo_pg",
    "is_postgres_url",
    "libpq_conninfo",
]

# Columns Covel's PostgreSQL schema declares ``jsonb`` (its Drizzle schema for PostgreSQL; the
# SQLite file holds the same values as JSON text). ``server_settings.value`` stays text on both.
JSON_COLUMNS: dict[str, frozenset[str]] = {
    table: frozenset(cols)
    for table, cols in {
        "worlds": ("tags", "metadata"),
        "sessions": ("active_plugins", "metadata", "runtime_model_overrides", "setup_runtimes",
                     "pre_game_completed"),
        "turn_results": ("runtime_results", "conflicts", "audit_result", "retry_scope"),
        "runtime_results": ("output", "tool_calls", "token_usage"),
        "tool_calls": ("input", "output"),
        "state_schemas": ("schema",),
        "state_entries": ("value",),
        "state_changes": ("value",),
        "events": ("payload",),
        "messages": ("metadata",),
        "character_schemas": ("types", "attributes"),
        "characters": ("fields",),
        "plugin_data": ("value",),
        "world_data_import_ledger": ("derived_from",),
        "trace_events": ("payload",),
        "runtime_outputs": ("results", "meta_data"),
        "interaction_records": ("payload", "meta_data"),
        "turn_messages": ("ui", "pending_input"),
        "session_summaries": ("focus_sections",),
        "player_inputs": ("values",),
        "lorebook_entries": ("keys", "extra"),
        "state_snapshots": ("payload",),
        "media_assets": ("meta",),
        "suspensions": ("resume_schema", "pending_continuation"),
        "job_status": ("data",),
        "runtime_exports": ("value",),
    }.items()
}

# Marks a schema this module filled, so a later run may replace it without --force while a real
# Covel store is never dropped by accident. Stored as the comment of its trace_events table.
DEMO_MARK = "prompt-inspector demo store"

_PG_DRIVERS = ("postgresql", "postgres")


class PgWriteError(Exception):
    """The PostgreSQL store could not be written; the message says why and where."""


@dataclass(frozen=True)
class PgDemoSummary:
    url: str  # password hidden
    schema: str
    sessions: int
    turns: int
    executions: int
    llm_calls: int
    rows: int


def is_postgres_url(text: str) -> bool:
    """True for ``postgresql://…``, ``postgres://…`` and ``postgresql+driver://…``."""
    head = text.split("://", 1)[0] if "://" in text else ""
    return head.split("+", 1)[0] in _PG_DRIVERS


def libpq_conninfo(url: str | URL) -> str:
    """The URL as libpq reads it (no SQLAlchemy driver suffix)."""
    parsed = make_url(url) if isinstance(url, str) else url
    return parsed.set(drivername="postgresql").render_as_string(hide_password=False)


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _pg_type(table: str, column: str, declared: str) -> str:
    if column in JSON_COLUMNS.get(table, ()):
        return "jsonb"
    kind = declared.upper()
    if "INT" in kind:
        return "integer"
    if "REAL" in kind or "FLOA" in kind or "DOUB" in kind:
        return "double precision"
    if "BLOB" in kind:
        return "bytea"
    return "text"


@dataclass
class _Column:
    name: str
    pg_type: str
    not_null: bool
    default: str | None
    from_sqlite: bool = True


def _columns(conn: sqlite3.Connection, table: str) -> tuple[list[_Column], list[str]]:
    cols: list[_Column] = []
    primary: list[tuple[int, str]] = []
    for _cid, name, declared, not_null, default, pk in conn.execute(f"PRAGMA table_info({_quote(table)})"):
        if name == "seq":
            # Covel's PostgreSQL store numbers writes from one sequence per table (§5).
            cols.append(_Column(name, "bigserial", True, None, from_sqlite=False))
            continue
        if pk:
            primary.append((pk, name))
        cols.append(_Column(name, _pg_type(table, name, declared or ""), bool(not_null) or bool(pk), default))
    if table == "media_assets":
        # PostgreSQL keeps the bytes inline and the path only for assets stored elsewhere.
        at = next((i for i, c in enumerate(cols) if c.name == "size"), len(cols) - 1) + 1
        cols[at:at] = [_Column("body", "bytea", False, None, from_sqlite=False)]
        for col in cols:
            if col.name == "path":
                col.not_null = False
        if not any(c.name == "object_key" for c in cols):
            path_at = next((i for i, c in enumerate(cols) if c.name == "path"), len(cols) - 1) + 1
            cols[path_at:path_at] = [_Column("object_key", "text", False, None, from_sqlite=False)]
    return cols, [name for _, name in sorted(primary)]


def _indexes(conn: sqlite3.Connection, table: str) -> list[tuple[str, bool, list[str]]]:
    out = []
    for _seq, name, unique, origin, _partial in conn.execute(f"PRAGMA index_list({_quote(table)})"):
        if origin != "c":  # primary keys and UNIQUE constraints come with the table
            continue
        cols = [row[2] for row in conn.execute(f"PRAGMA index_info({_quote(name)})")]
        out.append(("pg_" + name, bool(unique), cols))
    return out


def _table_ddl(table: str, cols: list[_Column], primary: list[str]) -> str:
    lines = []
    for col in cols:
        parts = [_quote(col.name), col.pg_type]
        if len(primary) == 1 and primary[0] == col.name:
            parts.append("PRIMARY KEY")
        elif col.not_null and col.pg_type != "bigserial":
            parts.append("NOT NULL")
        if col.default is not None:
            default = col.default
            parts.append(f"DEFAULT {default}::jsonb" if col.pg_type == "jsonb" else f"DEFAULT {default}")
        lines.append("  " + " ".join(parts))
    if len(primary) > 1:
        lines.append(f"  PRIMARY KEY ({', '.join(_quote(c) for c in primary)})")
    return f"CREATE TABLE {_quote(table)} (\n" + ",\n".join(lines) + "\n)"


def _sqlite_tables(conn: sqlite3.Connection) -> list[str]:
    return [name for (name,) in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")]


def _cell(table: str, col: _Column, value: Any, row_id: Any) -> Any:
    if isinstance(value, bytes) and col.pg_type in ("jsonb", "text"):
        try:
            value = value.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise PgWriteError(f"{table} row {row_id!r}: {col.name} is not UTF-8 text ({exc})") from None
    if isinstance(value, str) and "\x00" in value:
        raise PgWriteError(f"{table} row {row_id!r}: {col.name} contains a NUL character, which PostgreSQL "
                           "text and jsonb cannot hold")
    return value


def copy_to_postgres(
    source: str | os.PathLike[str],
    url: str | URL,
    *,
    media: dict[str, bytes] | None = None,
    overwrite: bool = False,
    progress: Callable[[str, int], None] | None = None,
) -> int:
    """Copy every table of the SQLite store ``source`` into the schema the URL's connection
    selects (its ``search_path``), in write order. Returns the number of rows copied.

    ``media`` maps a sha256 to the bytes stored in ``media_assets.body``. A schema that already
    holds Covel tables is replaced only if this module filled it, unless ``overwrite`` is set.
    """
    import psycopg

    conninfo = libpq_conninfo(url)
    shown = shown_url(url)
    total = 0
    # Opened the one way every SQLite store is read: never writable, nothing created beside it.
    with read_only_connection(source) as src:
        tables = _sqlite_tables(src)
        try:
            pg = psycopg.connect(conninfo, autocommit=False)
        except psycopg.Error as exc:
            raise PgWriteError(f"cannot connect to {shown}: {scrub_text(str(exc), secret_values(url)).strip()}") from None
        with pg:
            schema = pg.execute("SELECT current_schema()").fetchone()[0]
            if schema is None:
                raise PgWriteError(f"{shown}: no schema on the search_path exists; create it first")
            _clear(pg, schema, tables, overwrite, shown)
            for table in tables:
                cols, primary = _columns(src, table)
                pg.execute(_table_ddl(table, cols, primary))
                total += _copy_rows(src, pg, table, cols, media or {})
                for name, unique, idx_cols in _indexes(src, table):
                    kw = "CREATE UNIQUE INDEX" if unique else "CREATE INDEX"
                    pg.execute(f"{kw} {_quote(name)} ON {_quote(table)} ({', '.join(_quote(c) for c in idx_cols)})")
                if progress is not None:
                    progress(table, total)
            if "trace_events" in tables:
                pg.execute(f"COMMENT ON TABLE trace_events IS '{DEMO_MARK}'")
            # Fresh statistics, as a long-running Covel database would have them.
            pg.commit()
        with closing(psycopg.connect(conninfo, autocommit=True)) as maint:
            for table in tables:
                maint.execute(f"ANALYZE {_quote(table)}")
    return total


def _clear(pg: Any, schema: str, tables: list[str], overwrite: bool, shown: str) -> None:
    existing = {name for (name,) in pg.execute(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = %s AND c.relkind IN ('r', 'p')", (schema,))}
    clash = sorted(existing & set(tables))
    if not clash:
        return
    mark = None
    if "trace_events" in existing:
        mark = pg.execute("SELECT obj_description(%s::regclass, 'pg_class')",
                          (f"{_quote(schema)}.trace_events",)).fetchone()[0]
    if mark != DEMO_MARK and not overwrite:
        raise PgWriteError(f"{shown}: schema {schema!r} already holds tables ({', '.join(clash[:5])}"
                           f"{', …' if len(clash) > 5 else ''}) that this program did not write; "
                           "pass overwrite (--force) to replace them")
    for table in clash:
        pg.execute(f"DROP TABLE {_quote(schema)}.{_quote(table)} CASCADE")


def _copy_rows(src: sqlite3.Connection, pg: Any, table: str, cols: list[_Column], media: dict[str, bytes]) -> int:
    copied = [c for c in cols if c.from_sqlite]
    extra_body = table == "media_assets" and any(c.name == "body" for c in cols)
    targets = [c.name for c in copied] + (["body"] if extra_body else [])
    select = ", ".join(_quote(c.name) for c in copied)
    names = ", ".join(_quote(c) for c in targets)
    count = 0
    sha_at = next((i for i, c in enumerate(copied) if c.name == "sha256"), None)
    path_at = next((i for i, c in enumerate(copied) if c.name == "path"), None)
    id_at = next((i for i, c in enumerate(copied) if c.name == "id"), 0)
    # rowid order is insertion order: the order Covel wrote the rows, which the sequence behind
    # each seq column must follow.
    rows: Iterator[tuple[Any, ...]] = src.execute(f"SELECT {select} FROM {_quote(table)} ORDER BY rowid")
    with pg.cursor() as cur, cur.copy(f"COPY {_quote(table)} ({names}) FROM STDIN") as copy:
        for row in rows:
            values = [_cell(table, col, value, row[id_at]) for col, value in zip(copied, row)]
            if extra_body:
                body = media.get(values[sha_at]) if sha_at is not None else None
                if body is not None and path_at is not None:
                    values[path_at] = None
                values.append(body)
            copy.write_row(values)
            count += 1
    return count


def generate_demo_pg(
    url: str,
    *,
    turns: int = 12,
    seed: int = 20261130,
    scale: float = 1.0,
    sessions: int | None = None,
    overwrite: bool = False,
) -> PgDemoSummary:
    """Write the demo store (the same rows :func:`generate_demo` writes) into PostgreSQL."""
    from .generator import build_demo_file

    with tempfile.TemporaryDirectory(prefix="pi-demo-") as tmp:
        path = Path(tmp) / "covel.db"
        built = build_demo_file(path, turns=turns, seed=seed, scale=scale, sessions=sessions)
        rows = copy_to_postgres(path, url, media=built.media, overwrite=overwrite)
    import psycopg

    with closing(psycopg.connect(libpq_conninfo(url))) as conn:
        schema = conn.execute("SELECT current_schema()").fetchone()[0]
    return PgDemoSummary(shown_url(url), schema, built.sessions, built.turns, built.executions, built.llm_calls, rows)
