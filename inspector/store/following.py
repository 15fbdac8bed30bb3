"""Following a live store: the rows appended since a cursor, read in one snapshot.

SQLite reads rows past the last rowid seen (one writer, rowids in commit order). PostgreSQL has
no rowid: it reads the sessions it knows from :data:`FOLLOW_OVERLAP_SECONDS` before the newest
row seen and drops the ids seen, since a transaction that committed late may hold rows with an
earlier ``created_at``.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ..json_guards import str_or_none
from .iso_time import iso_minus
from .ordering import canonical_key
from .records import parse_json_object
from .schema import Reader, Schema

__all__ = ["FOLLOW_OVERLAP_SECONDS", "follow_read", "follow_start"]

# Rows written up to this long before the newest row seen are read again on PostgreSQL.
FOLLOW_OVERLAP_SECONDS = 30.0

_FOLLOWED = ("trace_events", "turn_results")


def follow_start(store: Reader) -> dict[str, Any]:
    """A cursor at the current end of the store, for :func:`follow_read`."""
    schema = store.schema
    t = schema.tables
    te = t["trace_events"]
    with store.connect() as conn:
        if schema.dialect_name == "sqlite":
            return {"rowids": {table: _max_rowid(schema, conn, table) for table in _FOLLOWED}}
        sessions = {sid for (sid,) in conn.execute(sa.select(te.c.session_id).distinct())}
        marks = {}
        for table in _FOLLOWED:
            if not t.has(table):
                continue
            newest = conn.execute(sa.select(sa.func.max(t.read(table, "created_at")))).scalar()
            seen: set[str] = set()
            if newest is not None:
                since = iso_minus(newest, FOLLOW_OVERLAP_SECONDS)
                tb = t[table]
                seen = {rid for (rid,) in conn.execute(sa.select(tb.c.id).where(t.read(table, "created_at") >= since))}
            marks[table] = (newest, seen)
    return {"sessions": sessions, "marks": marks}


def follow_read(store: Reader, cursor: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Rows written since ``cursor`` (from :func:`follow_start` or a previous call), read in one
    snapshot, and the cursor after them.

    Returns ``({"events": [...], "results": [...], "existing": {(session, turn), ...}}, cursor)``:
    ``events`` are ``(id, session_id, type, turn_id, created_at, seq, runtime_id)`` of new
    ``trace_events`` rows in canonical order; ``results`` are ``(session_id, turn_id,
    commit_status, created_at)`` of new ``turn_results`` rows in their order; ``existing`` holds
    the touched executions that already had rows before these (the others are new). A session
    that exists only in PostgreSQL trace rows appears when it has a ``sessions`` row.
    """
    schema = store.schema
    t = schema.tables
    te = t["trace_events"]
    runtime_expr = schema.runtime_id_expr()
    extra = runtime_expr.label("runtime_id") if runtime_expr is not None else schema.payload_expr()
    event_cols = [te.c.id, te.c.session_id, te.c.type, te.c.turn_id, t.read("trace_events", "created_at"),
                  schema.seq(), extra]
    results_on = t.has("turn_results")
    with store.connect() as conn:
        if schema.dialect_name == "postgresql":
            # One snapshot for the read and the "existed before" probe.
            conn = conn.execution_options(isolation_level="REPEATABLE READ")
        new_cursor: dict[str, Any]
        if schema.dialect_name == "sqlite":
            old = cursor["rowids"]
            top = {table: _max_rowid(schema, conn, table) for table in _FOLLOWED}
            rowid = sa.literal_column("rowid")
            bounds: dict[str, Any] = {}
            for table in _FOLLOWED:
                if t.has(table):
                    bounds[table] = sa.and_(rowid > old[table], rowid <= top[table])
            event_rows = list(conn.execute(sa.select(*event_cols).where(bounds["trace_events"])))
            result_rows = []
            if results_on:
                result_rows = list(conn.execute(_results_select(schema).where(bounds["turn_results"])
                                                .order_by(rowid)))
            limits = {table: rowid <= top[table] for table in bounds}
            new_cursor = {"rowids": top}
        else:
            sessions = set(cursor["sessions"])
            if t.has("sessions"):
                sessions |= {sid for (sid,) in conn.execute(sa.select(t["sessions"].c.id))}
            marks = dict(cursor["marks"])
            event_rows, marks["trace_events"] = _rows_since(
                schema, conn, "trace_events", sa.select(*event_cols), sessions, cursor["marks"].get("trace_events"))
            result_rows = []
            if results_on:
                result_rows, marks["turn_results"] = _rows_since(
                    schema, conn, "turn_results", _results_select(schema), sessions,
                    cursor["marks"].get("turn_results"))
            limits = {}
            new_cursor = {"sessions": sessions, "marks": marks}
        event_rows.sort(key=lambda r: canonical_key(r[4], r[5], r[0]))
        events = []
        for row in event_rows:
            rid = row[6] if runtime_expr is not None else \
                parse_json_object(row[6], merge_data=True)[0].get("runtimeId")
            events.append((row[0], row[1], row[2], row[3], row[4], row[5], str_or_none(rid)))
        results = [(r[1], r[2], r[3], r[4]) for r in result_rows]
        existing = _turns_existing_before(schema, conn, events, result_rows, limits)
    return {"events": events, "results": results, "existing": existing}, new_cursor


def _results_select(schema: Schema) -> sa.Select[Any]:
    t = schema.tables
    tr = t["turn_results"]
    status = tr.c.commit_status if t.has("turn_results", "commit_status") else sa.null().label("commit_status")
    return sa.select(tr.c.id, tr.c.session_id, tr.c.turn_id, status, t.read("turn_results", "created_at"))


def _max_rowid(schema: Schema, conn: Connection, table: str) -> int:
    if not schema.tables.has(table):
        return 0
    return int(conn.execute(sa.select(sa.func.max(sa.literal_column("rowid")))
                            .select_from(schema.tables[table])).scalar() or 0)


def _rows_since(schema: Schema, conn: Connection, table: str, stmt: sa.Select[Any], sessions: set[str],
                mark: tuple[str | None, set[str]] | None) -> tuple[list[Any], tuple[str | None, set[str]]]:
    newest, seen = mark if mark is not None else (None, set())
    tb = schema.tables[table]
    created = schema.tables.read(table, "created_at")
    since = iso_minus(newest, FOLLOW_OVERLAP_SECONDS) if newest is not None else None
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
    horizon = iso_minus(top, FOLLOW_OVERLAP_SECONDS) if top is not None else None
    keep = {r[0] for r in rows if horizon is None or (r[4] or "") >= horizon}
    return fresh, (top, keep)


def _turns_existing_before(schema: Schema, conn: Connection, events: list[tuple[Any, ...]], result_rows: list[Any],
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
    for table in _FOLLOWED:
        if not schema.tables.has(table):
            continue
        tb = schema.tables[table]
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
