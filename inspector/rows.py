"""Typed rows for the views: what a session, an execution, a runtime or a model request row of the
navigator, ``sessions``, ``turns`` and ``requests`` shows. Each row's :meth:`to_json` is the JSON contract the command line prints (its
keys, their order and values); the views read the attributes.

Numbers a damaged store holds as text stay as stored (:mod:`inspector.store.values`), so the
count fields are typed ``Any`` where the store may hand over such a value.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from .store import LlmCall, SessionInfo, TurnInfo
from .store.turn_counts import TurnCounts, completed_player_turns

__all__ = ["RequestRow", "RuntimeRow", "SessionRow", "TurnRow"]


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


def _first_protocol(call: LlmCall) -> tuple[str | None, str | None]:
    """The protocol and provider of the first transport attempt that names them as text."""
    for request in call.provider_requests:
        if isinstance(request, dict):
            protocol = request.get("protocol")
            provider = request.get("provider")
            return (protocol if isinstance(protocol, str) else None, provider if isinstance(provider, str) else None)
    return None, None


@dataclass(slots=True)
class RequestRow:
    """One model request (an ``llm.calling`` event with its response and usage when recorded).
    ``step`` and ``attempt`` count from 0, as Covel writes them."""

    event_id: str
    session_id: str | None
    turn_id: str | None
    runtime_id: str | None
    plugin_id: str | None
    stage: str | None
    step: Any
    attempt: Any
    model: Any
    provider: Any
    protocol: str | None
    transport_attempts: int
    started_at: Any
    response_event_id: str | None
    finish_reason: str | None
    duration_ms: int | float | None
    input_tokens: Any
    output_tokens: Any
    cached_tokens: Any
    cache_write_tokens: Any

    @classmethod
    def of(cls, call: LlmCall) -> RequestRow:
        usage = call.usage
        protocol, wire_provider = _first_protocol(call)
        response = call.response.payload if call.response is not None else {}
        duration = response.get("durationMs")
        finish = response.get("finishReason")
        return cls(
            call.id, call.session_id, call.turn_id, call.runtime_id, call.plugin_id, call.stage, call.step,
            call.attempt, call.model, call.provider or wire_provider, protocol, len(call.provider_requests),
            call.started_at, call.response.id if call.response is not None else None,
            finish if isinstance(finish, str) else None,
            duration if isinstance(duration, (int, float)) and not isinstance(duration, bool) else None,
            usage.input_tokens if usage else None, usage.output_tokens if usage else None,
            usage.cached_input_tokens if usage else None, usage.cache_write_input_tokens if usage else None)

    @classmethod
    def of_event(cls, event: Any) -> RequestRow:
        """An ``llm.calling`` event the store assembled no call for: what its own row and payload
        say, no response and no usage."""
        payload = event.payload
        return cls(event.id, event.session_id, event.turn_id, event.runtime_id, event.plugin_id, None, 0,
                   event.attempt or 0, payload.get("model"), payload.get("provider"), None, 0,
                   payload.get("startedAt"), None, None, None, None, None, None, None)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> RequestRow:
        return cls(d["eventId"], d.get("sessionId"), d.get("turnId"), d.get("runtimeId"), d.get("pluginId"),
                   d.get("stage"), d.get("step"), d.get("attempt"), d.get("model"), d.get("provider"),
                   d.get("protocol"), d.get("transportAttempts") or 0, d.get("startedAt"), d.get("responseEventId"),
                   d.get("finishReason"), d.get("durationMs"), d.get("inputTokens"), d.get("outputTokens"),
                   d.get("cachedTokens"), d.get("cacheWriteTokens"))

    def to_json(self) -> dict[str, Any]:
        return {
            "eventId": self.event_id,
            "sessionId": self.session_id,
            "turnId": self.turn_id,
            "runtimeId": self.runtime_id,
            "pluginId": self.plugin_id,
            "stage": self.stage,
            "step": self.step,
            "attempt": self.attempt,
            "model": self.model,
            "provider": self.provider,
            "protocol": self.protocol,
            "transportAttempts": self.transport_attempts,
            "startedAt": self.started_at,
            "responseEventId": self.response_event_id,
            "finishReason": self.finish_reason,
            "durationMs": self.duration_ms,
            "inputTokens": self.input_tokens,
            "outputTokens": self.output_tokens,
            "cachedTokens": self.cached_tokens,
            "cacheWriteTokens": self.cache_write_tokens,
        }


def _sum_known(values: Any) -> int | None:
    """The sum of the integers among ``values``; None when there is none (no call reported usage)."""
    known = [v for v in values if isinstance(v, int)]
    return sum(known) if known else None


@dataclass(slots=True)
class RuntimeRow:
    """One runtime of an execution with its requests in trace order. ``stage``, ``status``,
    ``duration_ms`` and ``error`` follow its lifecycle events
    (:class:`inspector.turn.model.RuntimeLifecycle`); the counts are its requests'."""

    runtime_id: str | None
    plugin_id: str | None
    stage: str | None = None
    status: str | None = None
    duration_ms: Any = None
    error: Any = None
    requests: list[RequestRow] = field(default_factory=list)

    @property
    def request_count(self) -> int:
        return len(self.requests)

    @property
    def input_tokens(self) -> int | None:
        return _sum_known(r.input_tokens for r in self.requests)

    @property
    def cached_tokens(self) -> int | None:
        return _sum_known(r.cached_tokens for r in self.requests)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> RuntimeRow:
        return cls(d.get("runtimeId"), d.get("pluginId"), d.get("stage"), d.get("status"), d.get("durationMs"),
                   d.get("error"), [RequestRow.from_json(r) for r in d.get("requests") or []])

    def to_json(self) -> dict[str, Any]:
        return {
            "runtimeId": self.runtime_id,
            "pluginId": self.plugin_id,
            "stage": self.stage,
            "status": self.status,
            "durationMs": self.duration_ms,
            "error": self.error,
            "requests": [r.to_json() for r in self.requests],
            "requestCount": self.request_count,
            "inputTokens": self.input_tokens,
            "cachedTokens": self.cached_tokens,
        }
