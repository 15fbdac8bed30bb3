"""Trace rows (``trace_events``) as :class:`TraceEvent`, in canonical order, and lookups by id."""

from __future__ import annotations

from collections.abc import Iterable

from ..covel.events import LLM_CALLING
from .columns import fetch_all, matches
from .sql import Binds, in_list, select
from .ordering import canonical_key, order_key
from .records import TraceEvent, trace_event
from .schema import Reader

__all__ = ["event", "event_key", "events", "existing_event_ids", "llm_calling_order", "write_order_key"]


def events(store: Reader, session_id: str, turn_id: str | None = None,
           types: Iterable[str] | None = None) -> list[TraceEvent]:
    """Trace events of a session (optionally one turn / some types) in canonical order."""
    schema = store.schema
    values = schema.values
    binds = Binds()
    where = [matches(schema.trace("session_id"), session_id, binds)]
    if turn_id is not None:
        where.append(matches(schema.trace("turn_id"), turn_id, binds))
    if types is not None:
        where.append(in_list(schema.trace("type"), [types] if isinstance(types, str) else types, binds))
    source = schema.tables.source("trace_events")
    if turn_id is None:
        sql = select(schema.event_columns(), source, where=where, order_by=schema.order("trace_events"))
        with store.connect() as conn:
            return [trace_event(row, values) for row in fetch_all(conn, sql, values, "trace_events", binds.values)]
    # With an ORDER BY, SQLite walks the session's (created_at, seq) index and reads every row
    # of the session to find one turn's; unordered it takes the (session_id, turn_id) index.
    # Sorting a turn's rows here gives the same order: comparing str code points equals
    # comparing the UTF-8 bytes, and NULL sorts first.
    sql = select(schema.event_columns(), source, where=where)
    with store.connect() as conn:
        found = [trace_event(row, values) for row in fetch_all(conn, sql, values, "trace_events", binds.values)]
    found.sort(key=order_key)
    return found


def event(store: Reader, event_id: str) -> TraceEvent | None:
    schema = store.schema
    binds = Binds()
    sql = select(schema.event_columns(), schema.tables.source("trace_events"),
                 where=[matches(schema.trace("id"), event_id, binds)], limit=1)
    with store.connect() as conn:
        rows = fetch_all(conn, sql, schema.values, "trace_events", binds.values)
    return trace_event(rows[0], schema.values) if rows else None


def llm_calling_order(store: Reader, session_id: str) -> dict[str, tuple[str, int, str]]:
    """Each ``llm.calling`` row of a session: its event id → its canonical order key
    (:func:`inspector.store.ordering.canonical_key`), the order :func:`events` gives them (write
    order, covel-db.md §1.3), read without the payloads."""
    schema = store.schema
    values = schema.values
    binds = Binds()
    sql = select([schema.trace("id"), schema.tables.value("trace_events", "created_at"), schema.seq()],
                 schema.tables.source("trace_events"),
                 where=[matches(schema.trace("session_id"), session_id, binds),
                        f"{schema.trace('type')} = {binds.add(LLM_CALLING)}"])
    order: dict[str, tuple[str, int, str]] = {}
    with store.connect() as conn:
        for event_id, created_at, seq in fetch_all(conn, sql, values, "trace_events", binds.values):
            eid = values.text("trace_events", "id", event_id) or ""
            seqv = values.order("trace_events", "seq", seq)
            order[eid] = canonical_key(values.text("trace_events", "created_at", created_at), seqv, eid)
    return order


def existing_event_ids(store: Reader, event_ids: Iterable[str]) -> set[str]:
    """Those of ``event_ids`` that are trace rows of this store now (primary-key lookups)."""
    schema = store.schema
    wanted = list(event_ids)
    found: set[str] = set()
    with store.connect() as conn:
        for start in range(0, len(wanted), 500):
            binds = Binds()
            sql = select([schema.trace("id")], schema.tables.source("trace_events"),
                         where=[in_list(schema.trace("id"), wanted[start:start + 500], binds)])
            found.update(eid for (eid,) in conn.all(sql, binds.values))
    return found


def write_order_key(store: Reader) -> str | None:
    """The column that numbers trace rows in write order across the whole table, for following
    new rows: SQLite's ``rowid``; PostgreSQL's ``seq`` (one sequence per table, covel-db.md §5);
    None when the store has none."""
    schema = store.schema
    if schema.dialect_name == "sqlite":
        return "rowid"
    if schema.dialect_name == "postgresql" and schema.has_seq:
        return "seq"
    return None


def event_key(store: Reader, event_id: str) -> int | None:
    """The :func:`write_order_key` value of a trace row (a primary-key lookup), or None."""
    key_name = write_order_key(store)
    if key_name is None:
        return None
    schema = store.schema
    binds = Binds()
    sql = select(["rowid" if key_name == "rowid" else schema.trace("seq")], schema.tables.source("trace_events"),
                 where=[f"{schema.trace('id')} = {binds.add(event_id)}"], limit=1)
    with store.connect() as conn:
        value = conn.scalar(sql, binds.values)
    return int(value) if value is not None else None
