"""Following a live store: the rows appended since a cursor, read in one snapshot.

SQLite reads rows past the last rowid seen (one writer, rowids in commit order). PostgreSQL has
no rowid: it reads the sessions it knows from :data:`FOLLOW_OVERLAP_SECONDS` before the newest
row seen and drops the ids seen, since a transaction that committed late may hold rows with an
earlier ``created_at``.
"""

from __future__ import annotations

from typing import Any

from ..json_guards import str_or_none
from .iso_time import iso_minus
from .ordering import canonical_key
from .records import parse_json_object
from .schema import Reader, Schema
from .sql import Binds, Connection, in_list, select

__all__ = ["FOLLOW_OVERLAP_SECONDS", "follow_read", "follow_start"]

# Rows written up to this long before the newest row seen are read again on PostgreSQL.
FOLLOW_OVERLAP_SECONDS = 30.0

_FOLLOWED = ("trace_events", "turn_results")


def follow_start(store: Reader) -> dict[str, Any]:
    """A cursor at the current end of the store, for :func:`follow_read`."""
    schema = store.schema
    t = schema.tables
    with store.connect() as conn:
        if schema.dialect_name == "sqlite":
            return {"rowids": {table: _max_rowid(schema, conn, table) for table in _FOLLOWED}}
        sessions = {sid for (sid,) in conn.all(select([schema.trace("session_id")], t.source("trace_events"),
                                                      distinct=True))}
        marks = {}
        for table in _FOLLOWED:
            if not t.has(table):
                continue
            created = t.value(table, "created_at")
            newest = conn.scalar(select([f"max({created})"], t.source(table)))
            seen: set[str] = set()
            if newest is not None:
                binds = Binds()
                since = binds.add(iso_minus(newest, FOLLOW_OVERLAP_SECONDS))
                seen = {rid for (rid,) in conn.all(select([t.col(table, "id")], t.source(table),
                                                          where=[f"{created} >= {since}"]), binds.values)}
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
    runtime_expr = schema.runtime_id_expr()
    extra = f"{runtime_expr} AS runtime_id" if runtime_expr is not None else schema.payload_expr()
    event_cols = [schema.trace("id"), schema.trace("session_id"), schema.trace("type"), schema.trace("turn_id"),
                  t.value("trace_events", "created_at"), schema.seq(), extra]
    results_on = t.has("turn_results")
    with store.connect() as conn:
        if schema.dialect_name == "postgresql":
            # One snapshot for the read and the "existed before" probe.
            conn.repeatable_read()  # type: ignore[attr-defined]
        new_cursor: dict[str, Any]
        if schema.dialect_name == "sqlite":
            old = cursor["rowids"]
            top = {table: _max_rowid(schema, conn, table) for table in _FOLLOWED}
            # The bounds are the cursor's integers, written into the text.
            bounds = {table: f"rowid > {int(old[table])} AND rowid <= {int(top[table])}"
                      for table in _FOLLOWED if t.has(table)}
            event_rows = conn.all(select(event_cols, t.source("trace_events"), where=[bounds["trace_events"]]))
            result_rows = []
            if results_on:
                result_rows = conn.all(select(_results_columns(schema), t.source("turn_results"),
                                              where=[bounds["turn_results"]], order_by=["rowid"]))
            limits = {table: f"rowid <= {int(top[table])}" for table in bounds}
            new_cursor = {"rowids": top}
        else:
            sessions = set(cursor["sessions"])
            if t.has("sessions"):
                sessions |= {sid for (sid,) in conn.all(select([t.col("sessions", "id")], t.source("sessions")))}
            marks = dict(cursor["marks"])
            event_rows, marks["trace_events"] = _rows_since(
                schema, conn, "trace_events", event_cols, sessions, cursor["marks"].get("trace_events"))
            result_rows = []
            if results_on:
                result_rows, marks["turn_results"] = _rows_since(
                    schema, conn, "turn_results", _results_columns(schema), sessions,
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


def _results_columns(schema: Schema) -> list[str]:
    t = schema.tables
    status = t.col("turn_results", "commit_status") if t.has("turn_results", "commit_status") else "NULL"
    return [t.col("turn_results", "id"), t.col("turn_results", "session_id"), t.col("turn_results", "turn_id"),
            status, t.value("turn_results", "created_at")]


def _max_rowid(schema: Schema, conn: Connection, table: str) -> int:
    if not schema.tables.has(table):
        return 0
    return int(conn.scalar(f"SELECT max(rowid) FROM {schema.tables.source(table)}") or 0)


def _rows_since(schema: Schema, conn: Connection, table: str, columns: list[str], sessions: set[str],
                mark: tuple[str | None, set[str]] | None) -> tuple[list[Any], tuple[str | None, set[str]]]:
    newest, seen = mark if mark is not None else (None, set())
    t = schema.tables
    created = t.value(table, "created_at")
    since = iso_minus(newest, FOLLOW_OVERLAP_SECONDS) if newest is not None else None
    rows: list[Any] = []
    ids = sorted(sessions)
    for start in range(0, max(len(ids), 1), 500):
        # (session_id, created_at, seq) is indexed; created_at alone is not.
        binds = Binds()
        where = [in_list(t.col(table, "session_id"), ids[start:start + 500], binds)]
        if since is not None:
            where.append(f"{created} >= {binds.add(since)}")
        rows.extend(conn.all(select(columns, t.source(table), where=where), binds.values))
    fresh = [r for r in rows if r[0] not in seen]
    top = max([newest or ""] + [r[4] or "" for r in rows]) or None
    horizon = iso_minus(top, FOLLOW_OVERLAP_SECONDS) if top is not None else None
    keep = {r[0] for r in rows if horizon is None or (r[4] or "") >= horizon}
    return fresh, (top, keep)


def _turns_existing_before(schema: Schema, conn: Connection, events: list[tuple[Any, ...]], result_rows: list[Any],
                           limits: dict[str, str]) -> set[tuple[str, str]]:
    """The (session, turn) pairs among the new rows that had rows before them."""
    new_ids: dict[str, set[str]] = {"trace_events": {e[0] for e in events},
                                    "turn_results": {r[0] for r in result_rows}}
    touched: dict[str, set[str]] = {}
    for e in events:
        touched.setdefault(e[1], set()).add(e[3])
    for r in result_rows:
        touched.setdefault(r[1], set()).add(r[2])
    existing: set[tuple[str, str]] = set()
    t = schema.tables
    for table in _FOLLOWED:
        if not t.has(table):
            continue
        for sid, turn_ids in touched.items():
            wanted = sorted(turn_ids)
            for start in range(0, len(wanted), 500):
                binds = Binds()
                where = [f"{t.col(table, 'session_id')} = {binds.add(sid)}",
                         in_list(t.col(table, "turn_id"), wanted[start:start + 500], binds)]
                if table in limits:
                    where.append(limits[table])
                query = select([t.col(table, "turn_id"), t.col(table, "id")], t.source(table), where=where)
                for tid, rid in conn.all(query, binds.values):
                    if rid not in new_ids[table]:
                        existing.add((sid, tid))
    return existing
