"""The sessions of a store and their figures, each read through Covel's indexes.

Every figure is read one session at a time, never by grouping the whole trace table: the
distinct session and turn ids by skipping along the ``session_id`` and ``(session_id, turn_id)``
indexes, the model requests as a range of the ``(session_id, type, created_at)`` index.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..covel.events import LLM_CALLING
from .columns import fetch_all
from .conversion import session_info
from .records import SessionInfo
from .schema import Reader, Schema
from .sql import Connection, quote, select

__all__ = ["EVENT_COUNT_LIMIT", "approximate_trace_rows", "request_sessions", "session_event_counts",
           "session_records", "sessions"]

# Distinct values of an index's leading column, one index seek per value (a "loose index scan"):
# both SQLite and PostgreSQL would otherwise read the whole index, ten million entries on a large
# store, to list a few hundred sessions.
DISTINCT_SESSIONS_SQL = (
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
_LLM_COUNT_SQL = f"SELECT count(*) FROM trace_events WHERE session_id = :sid AND type = '{LLM_CALLING}'"
_EVENT_COUNT_SQL = "SELECT count(*) FROM trace_events WHERE session_id = :sid"


def sessions(store: Reader, *, event_counts: bool | None = None) -> list[SessionInfo]:
    """All sessions, including ids seen only in trace rows, ordered by created_at, id.

    ``event_counts=False`` leaves :attr:`SessionInfo.event_count` None: counting every row of a
    ten-million-row store is the one figure that has to walk a whole index (seconds; see
    :func:`session_event_counts`). None (the default) counts them when the store holds at most
    :data:`EVENT_COUNT_LIMIT` rows.
    """
    schema = store.schema
    t, values = schema.tables, schema.values
    if event_counts is None:
        event_counts = approximate_trace_rows(store) <= EVENT_COUNT_LIMIT
    with store.connect() as conn:
        trace_sessions = [sid for (sid,) in fetch_all(conn, schema.sql(DISTINCT_SESSIONS_SQL),
                                                      values, "trace_events") if sid is not None]
        rows: list[dict[str, Any]] = []
        if t.has("sessions"):
            rows = session_rows(schema, conn)
        known = {row["id"] for row in rows}
        result_sessions: list[str] = []
        if t.has("turn_results"):
            result_sessions = [sid for (sid,) in fetch_all(
                conn, DISTINCT_SESSIONS_SQL.replace("trace_events", "turn_results"), values, "turn_results")
                if sid is not None]
        every = list(dict.fromkeys([*known, *trace_sessions, *result_sessions]))
        present = set(trace_sessions)
        calls = {sid: _count(schema, conn, _LLM_COUNT_SQL, sid) if sid in present else 0 for sid in every}
        executions = {sid: _execution_count(schema, conn, sid, sid in present) for sid in every}
        totals: dict[str, int | None] = {sid: None for sid in every}
        if event_counts:
            totals = {sid: _count(schema, conn, _EVENT_COUNT_SQL, sid) if sid in present else 0 for sid in every}
    infos = [session_info(values, row["id"], row, totals, calls, executions) for row in rows if row["id"] is not None]
    infos.extend(session_info(values, sid, {}, totals, calls, executions) for sid in every if sid not in known)
    if None in known:
        values.note(("sessions", "id", "null"), "sessions has rows without an id: they are not shown")
    infos.sort(key=lambda s: (s.created_at is None, s.created_at or "", s.id))
    return infos


def approximate_trace_rows(store: Reader) -> int:
    """About how many trace rows the store holds, without counting them: SQLite's largest rowid
    (rows are appended; retention leaves it an upper bound), PostgreSQL's planner estimate."""
    dialect = store.schema.dialect_name
    with store.connect() as conn:
        if dialect == "postgresql":
            value = conn.scalar("SELECT reltuples FROM pg_catalog.pg_class WHERE oid = to_regclass('trace_events')")
            return max(0, int(value or 0))
        if dialect == "sqlite":
            return int(conn.scalar("SELECT max(rowid) FROM trace_events") or 0)
        return 0


def session_event_counts(store: Reader, session_ids: Iterable[str]) -> dict[str, int]:
    """Trace rows per session (each a range of the ``session_id`` index), for figures filled in
    after the window is usable."""
    with store.connect() as conn:
        return {sid: _count(store.schema, conn, _EVENT_COUNT_SQL, sid) for sid in session_ids}


def request_sessions(store: Reader) -> list[str]:
    """Session ids that have trace rows (one index seek each)."""
    with store.connect() as conn:
        return [sid for (sid,) in conn.all(DISTINCT_SESSIONS_SQL) if sid is not None]


def session_records(store: Reader, session_ids: Iterable[str] | None = None) -> dict[str, dict[str, Any]]:
    """The ``sessions`` table rows (with the world's name), keyed by id, without the counts
    :func:`sessions` gathers from the trace: cheap enough to read on every change."""
    if not store.schema.tables.has("sessions"):
        return {}
    with store.connect() as conn:
        rows = session_rows(store.schema, conn)
    wanted = None if session_ids is None else set(session_ids)
    return {r["id"]: r for r in rows if wanted is None or r["id"] in wanted}


def _count(schema: Schema, conn: Connection, sql: str, session_id: str) -> int:
    return int(conn.scalar(schema.sql(sql), {"sid": session_id}) or 0)


def _execution_count(schema: Schema, conn: Connection, session_id: str, in_trace: bool) -> int:
    """Distinct execution ids of a session over trace rows and result rows."""
    parts = []
    if in_trace:
        parts.append("SELECT tid FROM turn_ids WHERE tid IS NOT NULL")
    if schema.tables.has("turn_results"):
        parts.append("SELECT turn_id FROM turn_results WHERE session_id = :sid")
    if not parts:
        return 0
    sql = (_DISTINCT_TURNS_CTE if in_trace else "") + "SELECT count(*) FROM (" + " UNION ".join(parts) + ") AS u"
    return _count(schema, conn, sql, session_id)


def session_rows(schema: Schema, conn: Connection) -> list[dict[str, Any]]:
    """The ``sessions`` rows as stored (the columns the file has), with ``world_name`` joined."""
    t = schema.tables
    wanted = ["id", "world_id", "locale", "phase", "status", "completed_player_turns", "turn_count",
              "created_at", "updated_at"]
    cols = [t.read("sessions", name) for name in wanted if t.has("sessions", name)]
    source = t.source("sessions")
    if t.has("worlds", "name") and t.has("worlds", "id") and t.has("sessions", "world_id"):
        source += f" LEFT OUTER JOIN {t.source('worlds')} ON {t.col('worlds', 'id')} = {t.col('sessions', 'world_id')}"
        cols.append(f"{t.col('worlds', 'name')} AS {quote('world_name')}")
    return fetch_all(conn, select(cols, source), schema.values, "sessions", as_dicts=True)
