"""Trace rows (``trace_events``) as :class:`TraceEvent`, in canonical order, and lookups by id."""

from __future__ import annotations

from collections.abc import Iterable

import sqlalchemy as sa

from ..covel.events import LLM_CALLING
from .columns import fetch_all, matches
from .ordering import canonical_key, order_key
from .records import TraceEvent, trace_event
from .schema import Reader

__all__ = ["event", "event_key", "events", "existing_event_ids", "llm_calling_order", "write_order_key"]


def events(store: Reader, session_id: str, turn_id: str | None = None,
           types: Iterable[str] | None = None) -> list[TraceEvent]:
    """Trace events of a session (optionally one turn / some types) in canonical order."""
    schema = store.schema
    values = schema.values
    te = schema.tables["trace_events"]
    stmt = sa.select(*schema.event_columns()).where(matches(te.c.session_id, session_id))
    if turn_id is not None:
        stmt = stmt.where(matches(te.c.turn_id, turn_id))
    if types is not None:
        type_list = [types] if isinstance(types, str) else list(types)
        stmt = stmt.where(te.c.type.in_(type_list))
    if turn_id is None:
        stmt = stmt.order_by(*schema.order("trace_events"))
        with store.connect() as conn:
            return [trace_event(row, values) for row in fetch_all(conn, stmt, values, "trace_events")]
    # With an ORDER BY, SQLite walks the session's (created_at, seq) index and reads every row
    # of the session to find one turn's; unordered it takes the (session_id, turn_id) index.
    # Sorting a turn's rows here gives the same order: comparing str code points equals
    # comparing the UTF-8 bytes, and NULL sorts first.
    with store.connect() as conn:
        found = [trace_event(row, values) for row in fetch_all(conn, stmt, values, "trace_events")]
    found.sort(key=order_key)
    return found


def event(store: Reader, event_id: str) -> TraceEvent | None:
    schema = store.schema
    te = schema.tables["trace_events"]
    stmt = sa.select(*schema.event_columns()).where(matches(te.c.id, event_id)).limit(1)
    with store.connect() as conn:
        rows = fetch_all(conn, stmt, schema.values, "trace_events")
    return trace_event(rows[0], schema.values) if rows else None


def llm_calling_order(store: Reader, session_id: str) -> dict[str, tuple[str, int, str]]:
    """Each ``llm.calling`` row of a session: its event id → its canonical order key
    (:func:`inspector.store.ordering.canonical_key`), the order :func:`events` gives them (write
    order, covel-db.md §1.3), read without the payloads."""
    schema = store.schema
    values = schema.values
    te = schema.tables["trace_events"]
    stmt = sa.select(te.c.id, schema.tables.read("trace_events", "created_at"), schema.seq()).where(
        matches(te.c.session_id, session_id), te.c.type == LLM_CALLING)
    order: dict[str, tuple[str, int, str]] = {}
    with store.connect() as conn:
        for event_id, created_at, seq in fetch_all(conn, stmt, values, "trace_events"):
            eid = values.text("trace_events", "id", event_id) or ""
            seqv = values.order("trace_events", "seq", seq)
            order[eid] = canonical_key(values.text("trace_events", "created_at", created_at), seqv, eid)
    return order


def existing_event_ids(store: Reader, event_ids: Iterable[str]) -> set[str]:
    """Those of ``event_ids`` that are trace rows of this store now (primary-key lookups)."""
    te = store.schema.tables["trace_events"]
    wanted = list(event_ids)
    found: set[str] = set()
    with store.connect() as conn:
        for start in range(0, len(wanted), 500):
            chunk = wanted[start:start + 500]
            found.update(eid for (eid,) in conn.execute(sa.select(te.c.id).where(te.c.id.in_(chunk))))
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
    te = store.schema.tables["trace_events"]
    col = sa.literal_column("rowid") if key_name == "rowid" else te.c.seq
    with store.connect() as conn:
        value = conn.execute(sa.select(col).where(te.c.id == event_id).limit(1)).scalar()
    return int(value) if value is not None else None
