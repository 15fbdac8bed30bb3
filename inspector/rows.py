"""Typed rows for the views: what a session or an execution row of the navigator, ``sessions`` and
``turns`` shows. Each row's :meth:`to_json` is the JSON contract the command line prints (its
keys, their order and values); the views read the attributes.

Numbers a damaged store holds as text stay as stored (:mod:`inspector.store.values`), so the
count fields are typed ``Any`` where the store may hand over such a value.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from .store import SessionInfo, TurnInfo
from .store.turn_counts import TurnCounts, completed_player_turns

__all__ = ["SessionRow", "TurnRow"]


@dataclass(slots=True)
class SessionRow:
    """One session: its ``sessions`` row and the figures read from its trace. ``events`` is None
    when not counted (a large store; see :func:`inspector.views.session_event_counts`)."""

    session_id: str
    world: str
    world_id: str | None
    locale: str | None
    phase: str | None
    status: str | None
    completed_player_turns: Any
    executions: int
    events: int | None
    llm_calls: int
    created_at: str | None
    updated_at: str | None

    @classmethod
    def of(cls, s: SessionInfo) -> SessionRow:
        return cls(s.id, s.world_name or s.world_id or "", s.world_id, s.locale, s.phase, s.status,
                   s.completed_player_turns, s.execution_count, s.event_count, s.llm_call_count, s.created_at,
                   s.updated_at)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> SessionRow:
        return cls(d["sessionId"], d.get("world") or "", d.get("worldId"), d.get("locale"), d.get("phase"),
                   d.get("status"), d.get("completedPlayerTurns"), d.get("executions") or 0, d.get("events"),
                   d.get("llmCalls") or 0, d.get("createdAt"), d.get("updatedAt"))

    def to_json(self) -> dict[str, Any]:
        return {
            "sessionId": self.session_id,
            "world": self.world,
            "worldId": self.world_id,
            "locale": self.locale,
            "phase": self.phase,
            "status": self.status,
            "completedPlayerTurns": self.completed_player_turns,
            "executions": self.executions,
            "events": self.events,
            "llmCalls": self.llm_calls,
            "createdAt": self.created_at,
            "updatedAt": self.updated_at,
        }

    @property
    def counts(self) -> TurnCounts:
        """Its turns and executions (:mod:`inspector.store.turn_counts`)."""
        return TurnCounts.of(self.completed_player_turns, self.executions)

    def followed(self, *, events: int, requests: int, new_executions: int,
                 record: dict[str, Any] | None) -> SessionRow:
        """This row after rows were appended while following: the counts grown by what was added,
        and the ``sessions`` row's fields (``record``, from ``Store.session_records``) taken as they
        are now, with the older schema's ``turn_count`` where ``completed_player_turns`` is empty."""
        row = replace(self, llm_calls=int(self.llm_calls or 0) + requests,
                      executions=int(self.executions or 0) + new_executions)
        if row.events is not None:  # None: not counted yet on a large store
            row.events = int(row.events) + events
        if record:
            row.phase, row.status, row.locale = record.get("phase"), record.get("status"), record.get("locale")
            row.completed_player_turns = completed_player_turns(record)
            row.updated_at = record.get("updated_at")
        return row


@dataclass(slots=True)
class TurnRow:
    """One execution of a session (a turn_id), numbered in order of first appearance."""

    number: int | None
    turn_id: str
    trace_id: str | None
    origin: str | None
    commit_status: str | None
    created_at: str | None
    started_at: str | None
    ended_at: str | None
    duration_ms: Any
    retry_scope: dict[str, Any] | None
    parent_turn_id: str | None
    events: int
    llm_calls: int
    runtime_ids: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, t: TurnInfo) -> TurnRow:
        return cls(t.number, t.turn_id, t.trace_id, t.origin, t.commit_status, t.created_at, t.started_at,
                   t.ended_at, t.duration_ms, t.retry_scope, t.parent_turn_id, t.event_count, t.llm_call_count,
                   list(t.runtime_ids))

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> TurnRow:
        return cls(d.get("number"), d["turnId"], d.get("traceId"), d.get("origin"), d.get("commitStatus"),
                   d.get("createdAt"), d.get("startedAt"), d.get("endedAt"), d.get("durationMs"),
                   d.get("retryScope"), d.get("parentTurnId"), d.get("events") or 0, d.get("llmCalls") or 0,
                   list(d.get("runtimeIds") or []))

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "turnId": self.turn_id,
            "traceId": self.trace_id,
            "origin": self.origin,
            "commitStatus": self.commit_status,
            "createdAt": self.created_at,
            "startedAt": self.started_at,
            "endedAt": self.ended_at,
            "durationMs": self.duration_ms,
            "retryScope": self.retry_scope,
            "parentTurnId": self.parent_turn_id,
            "events": self.events,
            "llmCalls": self.llm_calls,
            "runtimeIds": list(self.runtime_ids),
        }
