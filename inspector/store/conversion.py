"""Rows read from a store → the records the rest of the core uses (:mod:`inspector.store.records`).

Each function takes a row already read by the columns the file has (a missing column is a
missing key) with its values converted (:mod:`inspector.store.values`), and gives the record.
"""

from __future__ import annotations

from typing import Any

from .columns import UNKNOWN_TURN
from .iso_time import iso_datetime
from .records import (
    SessionInfo,
    SessionSummary,
    SuspensionRecord,
    ToolCallRecord,
    TurnInfo,
    TurnMessage,
    TurnResult,
    parse_json_object,
    parse_json_value,
)
from .turn_counts import completed_player_turns
from .values import ValueNotes

__all__ = ["session_info", "session_summary", "suspension", "tool_call", "turn_info", "turn_message", "turn_result"]


def turn_message(r: dict[str, Any]) -> TurnMessage:
    return TurnMessage(
        id=r["id"],
        session_id=r["session_id"],
        turn_id=r.get("turn_id"),  # type: ignore[arg-type]
        source_type=r.get("source_type"),
        source_plugin_id=r.get("source_plugin_id"),
        source_runtime_id=r.get("source_runtime_id"),
        role=r.get("role"),
        name=r.get("name"),
        content=r.get("content"),
        ui=r.get("ui"),
        pending_input=r.get("pending_input"),
        order=r.get("order"),
        created_at=r.get("created_at"),
        compacted_by=r.get("compacted_at_turn_id"),
    )


def session_summary(r: dict[str, Any]) -> SessionSummary:
    value = parse_json_value(r.get("focus_sections"))[0]
    sections = tuple(str(s) for s in value) if isinstance(value, list) else ()
    return SessionSummary(
        id=r["id"],
        session_id=r["session_id"],
        turn_range_start=r.get("turn_range_start"),
        turn_range_end=r.get("turn_range_end"),
        content=r.get("content"),
        focus_sections=sections,
        created_at=r.get("created_at"),
    )


def turn_result(r: dict[str, Any]) -> TurnResult:
    return TurnResult(
        id=r["id"],
        session_id=r["session_id"],
        turn_id=r["turn_id"] or UNKNOWN_TURN,
        origin=r.get("origin"),
        parent_turn_id=r.get("parent_turn_id"),
        commit_status=r.get("commit_status"),
        duration_ms=r.get("duration_ms"),
        created_at=r.get("created_at"),
        seq=r.get("seq"),
        raw_runtime_results=r.get("runtime_results"),
        raw_retry_scope=r.get("retry_scope"),
        raw_audit_result=r.get("audit_result"),
    )


def tool_call(r: dict[str, Any]) -> ToolCallRecord:
    return ToolCallRecord(
        id=r["id"],
        session_id=r["session_id"],
        turn_id=r.get("turn_id"),  # type: ignore[arg-type]
        tool_name=r.get("tool_name"),
        plugin_id=r.get("plugin_id"),
        runtime_id=r.get("runtime_id"),
        raw_input=r.get("input"),
        raw_output=r.get("output"),
        duration_ms=r.get("duration_ms"),
        approval_status=r.get("approval_status"),
        created_at=r.get("created_at"),
    )


def suspension(r: dict[str, Any]) -> SuspensionRecord:
    return SuspensionRecord(
        id=r["id"],
        session_id=r["session_id"],
        turn_id=r.get("turn_id"),  # type: ignore[arg-type]
        runtime_id=r.get("runtime_id"),
        plugin_id=r.get("plugin_id"),
        reason=r.get("reason"),
        raw_resume_schema=r.get("resume_schema"),
        raw_pending_continuation=r.get("pending_continuation"),
        created_at=r.get("created_at"),
        resolved_at=r.get("resolved_at"),
    )


def session_info(values: ValueNotes, sid: Any, row: dict[str, Any], totals: dict[Any, int | None],
                 calls: dict[Any, int], executions: dict[Any, int]) -> SessionInfo:
    """A session's row and counts (keyed by its stored id), its values converted (:mod:`.values`)."""
    v = values
    world = v.text("worlds", "name", row.get("world_name"))
    row = v.row("sessions", {k: value for k, value in row.items() if k != "world_name"})
    completed = completed_player_turns(row)
    return SessionInfo(
        id=v.text("sessions" if row else "trace_events", "id" if row else "session_id", sid),  # type: ignore[arg-type]
        world_id=row.get("world_id"),
        world_name=world,
        locale=row.get("locale"),
        phase=row.get("phase"),
        status=row.get("status"),
        completed_player_turns=completed,
        execution_count=executions[sid],
        event_count=totals[sid],
        llm_call_count=calls[sid],
        created_at=row.get("created_at"),
        updated_at=row.get("updated_at"),
    )


def _duration_between(started: str | None, ended: str | None) -> int | None:
    if not (started and ended):
        return None
    a, b = iso_datetime(started), iso_datetime(ended)
    if a is None or b is None:
        return None
    return int(round((b - a).total_seconds() * 1000))


def turn_info(tid: str, number: int, res: dict[str, Any] | None, ev: dict[str, Any] | None) -> TurnInfo:
    """One execution from its last ``turn_results`` row (``res``) and its trace figures (``ev``,
    see :mod:`inspector.store.turns`); either may be missing."""
    started = (ev["started"] or ev["first"]) if ev else None
    ended = (ev["ended"] or ev["last"]) if ev else None
    duration = res.get("duration_ms") if res else None
    if duration is None:
        duration = _duration_between(started, ended)
    retry_scope = None
    if res and res.get("retry_scope") is not None:
        parsed, error = parse_json_object(res["retry_scope"])
        retry_scope = parsed if error is None else None
    origin = None
    if res is not None:
        origin = res.get("origin") or "player"
    return TurnInfo(
        turn_id=tid,
        trace_id=ev["trace_id"] if ev else None,
        number=number,
        origin=origin,
        commit_status=res.get("commit_status") if res else None,
        created_at=(res.get("created_at") if res else None) or (ev["first"] if ev else None),
        started_at=started,
        ended_at=ended,
        duration_ms=int(duration) if isinstance(duration, (int, float)) else duration,
        retry_scope=retry_scope,
        parent_turn_id=res.get("parent_turn_id") if res else None,
        event_count=ev["count"] if ev else 0,
        llm_call_count=ev["llm"] if ev else 0,
        runtime_ids=tuple(ev["runtimes"]) if ev else (),
        has_result=res is not None,
    )


