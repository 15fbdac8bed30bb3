"""Immutable records returned by :class:`inspector.store.Store`.

Payloads are kept as the raw column value and parsed on first access: a session of a large
store holds many multi-megabyte ``llm.calling`` payloads and most views only need a few of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


from ..jsjson import js_parse
from .columns import UNKNOWN_TURN
from ..json_guards import int_accepting_integral_float, str_or_none
from .values import ValueNotes

__all__ = [
    "LlmCall",
    "SessionInfo",
    "SessionSummary",
    "SuspensionRecord",
    "TokenUsage",
    "ToolCallRecord",
    "TraceEvent",
    "TurnInfo",
    "TurnMessage",
    "TurnResult",
    "parse_json_object",
    "parse_json_value",
    "token_usage",
]

RawJson = bytes | str | None


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return type(value).__name__


def _loads(raw: bytes | str) -> Any:
    # One JSON reading rule for the whole core: JavaScript's, with its fallbacks and limits.
    return js_parse(raw)


def parse_json_object(raw: RawJson, *, merge_data: bool = False) -> tuple[dict[str, Any], str | None]:
    """Parse a JSON column that should hold an object; never raises.

    Returns ``(object, None)`` or ``({}, reason)``. With ``merge_data`` the legacy nesting of
    fields under ``data`` is flattened the way Covel's debug UI does it: ``data`` first, the top
    level wins.
    """
    if raw is None:
        return {}, "payload is NULL"
    if isinstance(raw, memoryview):
        raw = bytes(raw)
    if isinstance(raw, (dict, list, int, float)):
        # PostgreSQL drivers may hand back jsonb already decoded; a number is what its text says.
        value: Any = raw
    else:
        try:
            value = _loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            size = len(raw)
            return {}, f"payload is not valid JSON ({size} bytes): {exc}"
    if not isinstance(value, dict):
        return {}, f"payload is a JSON {_kind(value)}, not an object"
    if merge_data:
        nested = value.get("data")
        if isinstance(nested, dict):
            value = {**nested, **value}
    return value, None


def parse_json_value(raw: RawJson) -> tuple[Any, str | None]:
    """Parse a JSON column of any shape; never raises. Returns ``(value, None)`` or
    ``(None, reason)``; SQL NULL gives ``(None, None)``."""
    if raw is None:
        return None, None
    if isinstance(raw, memoryview):
        raw = bytes(raw)
    if isinstance(raw, (dict, list, int, float)):
        return raw, None
    try:
        return _loads(raw), None
    except (ValueError, UnicodeDecodeError) as exc:
        return None, f"not valid JSON ({len(raw)} bytes): {exc}"


_TEXT_TYPES = (str, type(None))
_EVENT_TEXT_COLUMNS = ("id", "session_id", "type", "trace_id", "turn_id", "created_at")


def trace_event(row: Any, values: ValueNotes) -> TraceEvent:
    """The :class:`TraceEvent` of a row ``(id, session_id, type, trace_id, turn_id, created_at,
    seq, payload)``, its values converted where their type is not Covel's (:mod:`.values`)."""
    texts = row[:6]
    seq = row[6]
    if all(type(v) in _TEXT_TYPES for v in texts) and row[4] is not None and (seq is None or type(seq) is int):
        return TraceEvent(*texts, seq, row[7])
    converted = [values.text("trace_events", name, v) for name, v in zip(_EVENT_TEXT_COLUMNS, texts)]
    converted[4] = converted[4] or UNKNOWN_TURN  # rows without a turn id are shown under one turn
    return TraceEvent(*converted, values.order("trace_events", "seq", seq), row[7])  # type: ignore[arg-type]


@dataclass(slots=True, frozen=True)
class TraceEvent:
    """One ``trace_events`` row. ``seq`` is the column (None on old files), not ``payload.seq``."""

    id: str
    session_id: str
    type: str
    trace_id: str
    turn_id: str
    created_at: str
    seq: int | None
    raw_payload: RawJson = field(repr=False)
    _payload: dict[str, Any] | None = field(default=None, init=False, repr=False, compare=False)
    _payload_error: str | None = field(default=None, init=False, repr=False, compare=False)

    def _parse(self) -> dict[str, Any]:
        cached = self._payload
        if cached is None:
            cached, error = parse_json_object(self.raw_payload, merge_data=True)
            # Frozen dataclass: the cache is not part of the value, so bypass the guard.
            object.__setattr__(self, "_payload", cached)
            object.__setattr__(self, "_payload_error", error)
        return cached

    @property
    def payload(self) -> dict[str, Any]:
        """The payload object (legacy ``data`` merged); ``{}`` when it cannot be read."""
        return self._parse()

    @property
    def payload_error(self) -> str | None:
        """Why :attr:`payload` is empty, or None when the payload parsed as an object."""
        self._parse()
        return self._payload_error

    @property
    def raw_text(self) -> str | None:
        """The payload column as text, for showing the JSON exactly as stored."""
        raw = self.raw_payload
        if isinstance(raw, (bytes, bytearray, memoryview)):
            return bytes(raw).decode("utf-8", errors="replace")
        return raw

    @property
    def runtime_id(self) -> str | None:
        return str_or_none(self.payload.get("runtimeId"))

    @property
    def plugin_id(self) -> str | None:
        return str_or_none(self.payload.get("pluginId"))

    @property
    def attempt(self) -> int | None:
        return int_accepting_integral_float(self.payload.get("attempt"))


@dataclass(slots=True, frozen=True)
class TokenUsage:
    """Usage reported on ``llm.responded``; ``input_tokens`` includes cache reads and writes."""

    input_tokens: int | None
    output_tokens: int | None
    cached_input_tokens: int | None
    cache_write_input_tokens: int | None
    # Anthropic's own verdict on a miss (cache diagnostics), where the store keeps it: the
    # ``cache_miss_reason`` type and ``cache_missed_input_tokens``.
    cache_miss_reason: str | None = None
    cache_missed_input_tokens: int | None = None


def token_usage(usage: Any, diagnostics: Any = None) -> TokenUsage | None:
    """The :class:`TokenUsage` of an ``llm.responded`` payload's ``usage`` field (None when it is
    not an object). Covel writes the counts as JavaScript numbers, so ``3.0`` counts as 3.

    The provider's miss verdict is read from the usage, else from the payload's ``diagnostics``
    (covel-db.md §2.2 names the field but not its shape: its own members, or those of its
    ``cache`` member, under the same camelCase or wire names as in the usage)."""
    if not isinstance(usage, dict):
        return None
    verdict = usage
    if _either(usage, "cacheMissReason", "cache_miss_reason") is None:
        verdict = _diagnosed_verdict(diagnostics) or usage
    return TokenUsage(
        input_tokens=int_accepting_integral_float(usage.get("inputTokens")),
        output_tokens=int_accepting_integral_float(usage.get("outputTokens")),
        cached_input_tokens=int_accepting_integral_float(usage.get("cachedInputTokens")),
        cache_write_input_tokens=int_accepting_integral_float(usage.get("cacheWriteInputTokens")),
        cache_miss_reason=_miss_reason(_either(verdict, "cacheMissReason", "cache_miss_reason")),
        cache_missed_input_tokens=int_accepting_integral_float(
            _either(verdict, "cacheMissedInputTokens", "cache_missed_input_tokens")),
    )


def _diagnosed_verdict(diagnostics: Any) -> dict | None:
    """The member of Covel's response ``diagnostics`` that holds a cache miss reason, if any."""
    if not isinstance(diagnostics, dict):
        return None
    for found in (diagnostics, diagnostics.get("cache")):
        if isinstance(found, dict) and _either(found, "cacheMissReason", "cache_miss_reason") is not None:
            return found
    return None


def _either(usage: dict, camel: str, wire: str) -> Any:
    # Covel's camelCase usage, or the provider's wire name where the usage is passed on as it came.
    value = usage.get(camel)
    return usage.get(wire) if value is None else value


def _miss_reason(value: Any) -> str | None:
    """The ``type`` of a ``cache_miss_reason`` object (a bare string is taken as the type)."""
    if isinstance(value, dict):
        value = value.get("type")
    return value if isinstance(value, str) and value else None


@dataclass(slots=True, frozen=True)
class LlmCall:
    """An ``llm.calling`` event paired with its ``llm.responded`` (None when unanswered).

    ``step`` numbers tool-loop steps of one runtime within one turn (0-based); ``attempt`` is the
    runtime-level retry index inside a step.
    """

    calling: TraceEvent
    response: TraceEvent | None
    runtime_id: str | None
    plugin_id: str | None
    attempt: int
    step: int
    stage: str | None
    model: str | None
    provider: str | None
    started_at: str

    @property
    def id(self) -> str:
        return self.calling.id

    @property
    def session_id(self) -> str:
        return self.calling.session_id

    @property
    def turn_id(self) -> str:
        return self.calling.turn_id

    @property
    def usage(self) -> TokenUsage | None:
        """Token usage from the response; None when there is no response or it has no usage."""
        if self.response is None:
            return None
        payload = self.response.payload
        return token_usage(payload.get("usage"), payload.get("diagnostics"))

    @property
    def provider_requests(self) -> list[Any]:
        """``providerRequests`` exactly as recorded (v2 ``bodyRef`` entries unresolved)."""
        requests = self.calling.payload.get("providerRequests")
        return requests if isinstance(requests, list) else []


@dataclass(slots=True, frozen=True)
class TurnMessage:
    """One ``turn_messages`` row. ``compacted_by`` is the ``session_summaries.id`` that replaced it."""

    id: str
    session_id: str
    turn_id: str
    source_type: str | None
    source_plugin_id: str | None
    source_runtime_id: str | None
    role: str | None
    name: str | None
    content: str | None
    ui: str | None = field(repr=False)
    pending_input: str | None = field(repr=False)
    order: int | None
    created_at: str | None
    compacted_by: str | None


@dataclass(slots=True, frozen=True)
class SessionSummary:
    id: str
    session_id: str
    turn_range_start: str | None
    turn_range_end: str | None
    content: str | None
    focus_sections: tuple[str, ...]
    created_at: str | None


@dataclass(slots=True, frozen=True)
class SessionInfo:
    """A session with counts over its trace rows. Fields of the ``sessions`` row are None when the
    session is known only from trace rows (its row was deleted) or the column does not exist."""

    id: str
    world_id: str | None
    world_name: str | None
    locale: str | None
    phase: str | None
    status: str | None
    completed_player_turns: int | None
    execution_count: int
    event_count: int | None  # None: not counted (a large store; see Store.session_event_counts)
    llm_call_count: int
    created_at: str | None
    updated_at: str | None


@dataclass(slots=True, frozen=True)
class TurnInfo:
    """One execution. ``origin``/``commit_status`` are None when there is no ``turn_results`` row
    (retention pruned it, the turn is still running, or it is a ``command.*`` invocation)."""

    turn_id: str
    trace_id: str | None
    number: int
    origin: str | None
    commit_status: str | None
    created_at: str | None
    started_at: str | None
    ended_at: str | None
    duration_ms: int | None
    retry_scope: dict[str, Any] | None
    parent_turn_id: str | None
    event_count: int
    llm_call_count: int
    runtime_ids: tuple[str, ...]
    has_result: bool


@dataclass(slots=True, frozen=True)
class TurnResult:
    """One ``turn_results`` row. JSON columns are parsed on first access.

    ``origin`` is the column as stored (None when NULL or absent: older rows mean ``player``).
    """

    id: str
    session_id: str
    turn_id: str
    origin: str | None
    parent_turn_id: str | None
    commit_status: str | None
    duration_ms: int | None
    created_at: str | None
    seq: int | None
    raw_runtime_results: RawJson = field(repr=False)
    raw_retry_scope: RawJson = field(repr=False)
    raw_audit_result: RawJson = field(repr=False)
    _results: tuple[dict[str, Any], ...] | None = field(default=None, init=False, repr=False, compare=False)
    _results_error: str | None = field(default=None, init=False, repr=False, compare=False)

    def _parse_results(self) -> tuple[dict[str, Any], ...]:
        cached = self._results
        if cached is None:
            value, error = parse_json_value(self.raw_runtime_results)
            if error is None and value is not None and not isinstance(value, list):
                error = f"runtime_results is a JSON {_kind(value)}, not an array"
            items = value if isinstance(value, list) else []
            cached = tuple(item for item in items if isinstance(item, dict))
            if error is None and len(cached) != len(items):
                error = f"{len(items) - len(cached)} runtime_results entries are not objects"
            object.__setattr__(self, "_results", cached)
            object.__setattr__(self, "_results_error", error)
        return cached

    @property
    def runtime_results(self) -> tuple[dict[str, Any], ...]:
        """The RuntimeResult objects (entries that are not objects are left out)."""
        return self._parse_results()

    @property
    def runtime_results_error(self) -> str | None:
        self._parse_results()
        return self._results_error

    @property
    def retry_scope(self) -> dict[str, Any] | None:
        """``{sourceTurnId, runtimeIds, sourceCommitted, sourceFailedRuntimeIds}`` or None."""
        if self.raw_retry_scope is None:
            return None
        value, error = parse_json_object(self.raw_retry_scope)
        return value if error is None else None

    @property
    def audit_result(self) -> dict[str, Any] | None:
        if self.raw_audit_result is None:
            return None
        value, error = parse_json_object(self.raw_audit_result)
        return value if error is None else None


@dataclass(slots=True, frozen=True)
class ToolCallRecord:
    """One ``tool_calls`` row (approved, executed calls only; rejected ones are trace-only)."""

    id: str
    session_id: str
    turn_id: str
    tool_name: str | None
    plugin_id: str | None
    runtime_id: str | None
    raw_input: RawJson = field(repr=False)
    raw_output: RawJson = field(repr=False)
    duration_ms: int | None
    approval_status: str | None
    created_at: str | None

    @property
    def input(self) -> Any:
        """The input decoded from JSON, or the stored text when it is not JSON."""
        value, error = parse_json_value(self.raw_input)
        return self.raw_input if error is not None else value

    @property
    def output(self) -> Any:
        value, error = parse_json_value(self.raw_output)
        return self.raw_output if error is not None else value


@dataclass(slots=True, frozen=True)
class SuspensionRecord:
    """One ``suspensions`` row; ``resolved_at`` is None while the turn waits for its resume."""

    id: str
    session_id: str
    turn_id: str
    runtime_id: str | None
    plugin_id: str | None
    reason: str | None
    raw_resume_schema: RawJson = field(repr=False)
    raw_pending_continuation: RawJson = field(repr=False)
    created_at: str | None
    resolved_at: str | None

    @property
    def resume_schema(self) -> Any:
        value, error = parse_json_value(self.raw_resume_schema)
        return self.raw_resume_schema if error is not None else value
