"""What the reader does about columns a file lacks and values it cannot decode.

Covel has no migrations, and a file can be damaged or written by something else, so a table may
lack columns every query names. :func:`adapt_tables` decides once, when the store opens, what
each missing column becomes:

* ``trace_events`` without ``id``, ``type`` or ``payload``: refused (:class:`NotACovelStoreError`)
  — rows cannot be told apart, nor model requests found, nor read.
* ``trace_events`` without ``session_id`` / ``turn_id``: every row is read as belonging to one
  session :data:`UNKNOWN_SESSION` / one turn :data:`UNKNOWN_TURN` (the least surprising
  grouping: nothing is hidden, nothing is attributed to a real session or turn it may not belong
  to); without ``trace_id`` or ``created_at``: those values are NULL, and rows are ordered by
  what exists (``seq``, ``id``).
* another table without the column that ties it to a session (``session_id``; ``turn_results``
  also ``turn_id``; ``sessions`` its ``id``): not read at all; without ``id``, ``turn_id`` or
  ``created_at``: NULL.

A filled column is a select-list entry of a subquery named like the table, so every query that
reads ``FROM`` the table's source (:meth:`inspector.store.schema.Tables.source`) reads it as if
the table had it; :meth:`~inspector.store.schema.Tables.has` still says it is not there. Each
decision is one schema note.

:func:`fetch_all` runs a query whose text columns may hold bytes that are not UTF-8 (which makes
sqlite3 abandon the whole query): it is read again decoding them as Covel does, with one note.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from .errors import NotACovelStoreError
from ..jsjson import node_text
from .sql import Binds, Connection, SqliteConnection, quote, text_literal
from .values import ValueNotes, stored_forms

__all__ = ["UNKNOWN_SESSION", "UNKNOWN_TURN", "adapt_sql", "adapt_tables", "fetch_all", "matches", "matches_any", "typed_chunks"]

UNKNOWN_SESSION = "(no session id)"
UNKNOWN_TURN = "(no turn id)"

_TRACE_REQUIRED = {
    "id": "its rows cannot be told apart",
    "type": "model requests cannot be told from other events",
    "payload": "what was sent to the models is not in it",
}
_TRACE_FILLED: dict[str, tuple[str | None, str]] = {
    "session_id": (UNKNOWN_SESSION, f"every trace row is read as one session, {UNKNOWN_SESSION!r}"),
    "turn_id": (UNKNOWN_TURN, f"the trace rows of a session are read as one turn, {UNKNOWN_TURN!r}"),
    "trace_id": (None, "trace ids unknown"),
    "created_at": (None, "times unknown, events ordered by what exists (seq, id)"),
}
# Per side table: the columns that tie its rows to what the reader shows them under, and the
# columns read as NULL when missing.
_SIDE_TABLES = {
    "sessions": (("id",), ()),
    "turn_results": (("session_id", "turn_id"), ("id", "created_at")),
    "turn_messages": (("session_id",), ("id", "turn_id", "created_at")),
    "session_summaries": (("session_id",), ("id", "created_at")),
    "tool_calls": (("session_id",), ("id", "turn_id", "created_at")),
    "suspensions": (("session_id",), ("id", "turn_id", "created_at")),
}


def adapt_tables(tables: Any, dialect: str, location: str) -> tuple[list[str], set[str]]:
    """Adapt the reflected ``tables`` (:class:`inspector.store.schema.Tables`) to missing columns, as the module
    says. Returns the notes and the side tables left out; raises :class:`NotACovelStoreError`
    when ``trace_events`` cannot be read at all."""
    notes: list[str] = []
    trace = tables.columns["trace_events"]
    missing = [name for name in _TRACE_REQUIRED if name not in trace]
    if missing:
        names = " or ".join(missing)
        raise NotACovelStoreError(
            f"{location}: trace_events has no {names} column, so {_TRACE_REQUIRED[missing[0]]}: "
            "not a Covel store, or a damaged one", location=location)
    fill: dict[str, str | None] = {}
    for name, (value, meaning) in _TRACE_FILLED.items():
        if name not in trace:
            fill[name] = value
            notes.append(f"trace_events has no {name} column: {meaning}")
    _fill(tables, "trace_events", fill, dialect)

    dropped: set[str] = set()
    for table, (keys, filled) in _SIDE_TABLES.items():
        if table not in tables.columns:
            continue
        lacking = [k for k in keys if k not in tables.columns[table]]
        if lacking:
            dropped.add(table)
            del tables.columns[table]
            notes.append(f"{table} has no {' or '.join(lacking)} column: the table is not read")
            continue
        side = {name: None for name in filled if name not in tables.columns[table]}
        if side:
            notes.append(f"{table} has no {', '.join(side)} column: read as empty")
            _fill(tables, table, side, dialect)
    return notes, dropped


def _fill(tables: Any, table: str, values: dict[str, str | None], dialect: str) -> None:
    if not values:
        return
    cols = [quote(c) for c in tables.ordered[table]]
    if dialect == "sqlite":
        cols.append("rowid")
    cols.extend(f"{'NULL' if value is None else text_literal(value)} AS {quote(name)}" for name, value in values.items())
    tables.subqueries[table] = f"SELECT {', '.join(cols)} FROM {quote(table)}"
    tables.filled[table] = set(values)


def adapt_sql(sql: str, tables: Any, table: str = "trace_events") -> str:
    """Hand-written ``sql`` reading ``FROM table`` made to read the filled subquery instead,
    when :func:`adapt_tables` filled columns of that table (unchanged otherwise)."""
    if table not in tables.filled:
        return sql
    return sql.replace(f"FROM {table}", f"FROM {tables.source(table)}")


def typed_chunks(values: list[Any], size: int) -> Iterator[list[Any]]:
    """``values`` in lists of at most ``size``, each of one Python type: an IN list's binds all
    take the type of its first value, and a column of a damaged store can mix them."""
    by_type: dict[type, list[Any]] = {}
    for value in values:
        by_type.setdefault(type(value), []).append(value)
    for same in by_type.values():
        for start in range(0, len(same), size):
            yield same[start:start + size]


def _in(column: str, forms: list[Any], binds: Binds) -> str:
    return f"{column} IN ({', '.join(binds.add(f) for f in forms)})"


def matches(column: str, value: Any, binds: Binds) -> str:
    """``column = value``, where a text that stands for a BLOB (``x'…'``) also finds the BLOB
    and :data:`UNKNOWN_TURN` also finds NULL (the turn those rows are shown under)."""
    if isinstance(value, str):
        forms = stored_forms(value)
        if value == UNKNOWN_TURN:
            return f"{column} IS NULL OR {column} = {binds.add(value)}"
        if len(forms) > 1:
            return _in(column, forms, binds)
    return f"{column} = {binds.add(value)}"


def matches_any(column: str, values: Iterable[Any], binds: Binds) -> str:
    """``column IN values`` with :func:`matches`'s rules."""
    forms: list[Any] = []
    for value in values:
        forms.extend(stored_forms(value) if isinstance(value, str) else [value])
    if not forms:
        return "1 = 0"
    if UNKNOWN_TURN in forms:
        return f"{column} IS NULL OR {_in(column, forms, binds)}"
    return _in(column, forms, binds)


def _is_decode_error(exc: BaseException) -> bool:
    return "could not decode" in str(exc).lower()


def fetch_all(conn: Connection, sql: str, values: ValueNotes, table: str,
              params: dict[str, Any] | None = None, *, as_dicts: bool = False) -> list[Any]:
    """All rows of ``sql`` (as dicts by column name with ``as_dicts``); text that is not UTF-8 is
    read as Covel reads it (U+FFFD for each bad sequence, one note per table) instead of failing
    the query."""
    read = conn.dicts if as_dicts else conn.all
    try:
        return read(sql, params)
    except conn.OperationalError as exc:
        if not (isinstance(conn, SqliteConnection) and _is_decode_error(exc)):
            raise
    with node_text_factory(conn.raw):
        rows = read(sql, params)
    values.note((table, "utf-8"), f"{table} holds text that is not valid UTF-8: each bad byte sequence "
                                  "is shown as U+FFFD, as Covel reads it")
    return rows


@contextmanager
def node_text_factory(raw: Any) -> Iterator[None]:
    """While in the block, the ``sqlite3`` connection ``raw`` reads TEXT as Covel (Node) does: each
    byte sequence that is not UTF-8 becomes U+FFFD. The connection's own factory is put back after."""
    before = raw.text_factory
    raw.text_factory = node_text
    try:
        yield
    finally:
        raw.text_factory = before
