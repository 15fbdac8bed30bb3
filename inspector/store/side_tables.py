"""The session-scoped tables beside the trace: results, the model-history journal, summaries,
tool calls, suspensions. Each may be missing, or lack columns, in an older file."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import conversion
from .columns import fetch_all, matches, matches_any
from .records import (
    SessionSummary,
    SuspensionRecord,
    ToolCallRecord,
    TurnMessage,
    TurnResult,
)
from .schema import Reader
from .sql import Binds, quote, select

__all__ = ["session_of_turn", "session_summaries", "suspensions", "tool_calls", "turn_messages", "turn_results"]


def session_table_rows(store: Reader, table: str, names: list[str], session_id: str,
                       turn_id: str | list[str] | None = None, keys: list[Any] | None = None) -> list[dict[str, Any]]:
    """Rows of an optional session-scoped table as dicts (of one execution or some, when
    ``turn_id`` is a list), ordered by ``keys`` (default ``created_at, id``).

    Covel has no migrations: the table or some of ``names`` may be missing in an older file, so
    only the columns that exist are read (absent ones come back as missing keys). Values of the
    wrong type are converted (:mod:`.values`)."""
    schema = store.schema
    t = schema.tables
    if not t.has(table):
        return []
    binds = Binds()
    where = [matches(t.col(table, "session_id"), session_id, binds)]
    if turn_id is not None:
        where.append(matches_any(t.col(table, "turn_id"), turn_id, binds) if isinstance(turn_id, list)
                     else matches(t.col(table, "turn_id"), turn_id, binds))
    if keys is None:
        keys = [t.sort_key(table, "created_at")] if t.has(table, "created_at") else []
        keys.append(t.sort_key(table, "id"))
    sql = select([t.read(table, name) for name in names if t.readable(table, name)],  # filled ones too
                 t.source(table), where=where, order_by=keys)
    with store.connect() as conn:
        return [schema.values.row(table, row)
                for row in fetch_all(conn, sql, schema.values, table, binds.values, as_dicts=True)]


def turn_messages(store: Reader, session_id: str, turn_id: str | None = None) -> list[TurnMessage]:
    """The model-history journal in Covel's order: created_at, "order", id."""
    t = store.schema.tables
    if not t.has("turn_messages"):
        return []
    keys = [t.sort_key("turn_messages", "created_at")] if t.has("turn_messages", "created_at") else []
    if t.has("turn_messages", "order"):
        keys.append(t.col("turn_messages", "order"))
    keys.append(t.sort_key("turn_messages", "id"))
    rows = session_table_rows(
        store, "turn_messages", ["id", "session_id", "turn_id", "source_type", "source_plugin_id", "source_runtime_id",
                                 "role", "name", "content", "ui", "pending_input", "order", "created_at",
                                 "compacted_at_turn_id"], session_id, turn_id, keys)
    return [conversion.turn_message(r) for r in rows]


def session_summaries(store: Reader, session_id: str) -> list[SessionSummary]:
    rows = session_table_rows(store, "session_summaries", ["id", "session_id", "turn_range_start", "turn_range_end",
                                                           "content", "focus_sections", "created_at"], session_id)
    return [conversion.session_summary(r) for r in rows]


def session_of_turn(store: Reader, turn_id: str) -> str | None:
    """The session an execution id belongs to (from ``turn_results``, else ``trace_events``), or
    None when no row names it."""
    t = store.schema.tables
    binds = Binds(turn=turn_id)
    with store.connect() as conn:
        if t.has("turn_results"):
            found = conn.scalar(select([t.col("turn_results", "session_id")], t.source("turn_results"),
                                       where=[f"{t.col('turn_results', 'turn_id')} = :turn"], limit=1), binds.values)
            if found is not None:
                return found
        # trace_events is indexed on (session_id, turn_id) only: probing each session keeps
        # the lookup on that index instead of scanning every payload page of the table.
        sessions = select([f"{t.col('trace_events', 'session_id')} AS sid"], t.source("trace_events"), distinct=True)
        sql = (f"SELECT sessions.sid FROM ({sessions}) AS sessions WHERE EXISTS (SELECT 1 FROM "
               f"{t.source('trace_events', 'probe')} "
               f"WHERE probe.{quote('session_id')} = sessions.sid AND probe.{quote('turn_id')} = :turn) LIMIT 1")
        return conn.scalar(sql, binds.values)


def turn_results(store: Reader, session_id: str, turn_ids: Iterable[str] | None = None) -> list[TurnResult]:
    """``turn_results`` rows of a session (optionally only some executions) in canonical order.

    An execution can have several rows (the pending row is re-written on commit); all are
    returned, the last one of a turn is its current state.
    """
    wanted = None if turn_ids is None else [turn_ids] if isinstance(turn_ids, str) else list(turn_ids)
    if not store.schema.tables.has("turn_results") or wanted == []:
        return []
    rows = session_table_rows(
        store, "turn_results", ["id", "session_id", "turn_id", "origin", "parent_turn_id", "commit_status",
                                "duration_ms", "created_at", "seq", "runtime_results", "retry_scope", "audit_result"],
        session_id, wanted, store.schema.order("turn_results"))
    return [conversion.turn_result(r) for r in rows]


def tool_calls(store: Reader, session_id: str, turn_id: str | None = None) -> list[ToolCallRecord]:
    """``tool_calls`` rows of a session (optionally one execution), ordered by created_at, id."""
    rows = session_table_rows(
        store, "tool_calls", ["id", "session_id", "turn_id", "tool_name", "plugin_id", "runtime_id", "input",
                              "output", "duration_ms", "approval_status", "created_at"], session_id, turn_id)
    return [conversion.tool_call(r) for r in rows]


def suspensions(store: Reader, session_id: str, turn_id: str | None = None) -> list[SuspensionRecord]:
    """``suspensions`` rows of a session (optionally one execution), ordered by created_at, id."""
    rows = session_table_rows(
        store, "suspensions", ["id", "session_id", "turn_id", "runtime_id", "plugin_id", "reason", "resume_schema",
                               "pending_continuation", "created_at", "resolved_at"], session_id, turn_id)
    return [conversion.suspension(r) for r in rows]
