"""One turn (execution) stepped through: stages, parallel groups, runtimes, model calls, tool loops.

Built from the trace rows of one ``turn_id`` plus the ``turn_results``, ``tool_calls``,
``suspensions`` and ``turn_messages`` rows of the same execution (covel-assembly.md §7,
covel-db.md §1.3–1.8, §2). Headless: the CLI prints it and the Qt timeline draws it.

Covel writes no stage or DAG-level event, so both are derived the way the spec describes:
``runtime.started.stage`` names a runtime's stage (none = an event/manual runtime, which runs
after all stages), and runtimes of one stage whose intervals overlap ran in the same DAG level.
Event types this module does not interpret are kept in :attr:`Turn.events` as they are.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from inspector.covel import markers
from inspector.store import (
    LlmCall,
    SessionSummary,
    Store,
    SuspensionRecord,
    TokenUsage,
    ToolCallRecord,
    TraceEvent,
    TurnMessage,
    TurnResult,
    pair_llm_calls,
)
from inspector.store.values import int_or_none, nonempty_text_or_none, number_or_none

__all__ = [
    "LIFECYCLE_TYPES",
    "STAGE_ORDER",
    "CallHistory",
    "Committed",
    "Compaction",
    "HistoryRow",
    "HistoryWindow",
    "HookEvent",
    "ModelCall",
    "ParallelGroup",
    "ProposalFailure",
    "Pruning",
    "Retry",
    "Runtime",
    "RuntimeLifecycle",
    "RuntimeOutput",
    "SeededResult",
    "Stage",
    "SummaryUse",
    "Suspension",
    "ToolUse",
    "TransportAttempt",
    "Turn",
    "TurnEvent",
    "TurnNotFoundError",
    "build_turn",
    "iter_history",
    "turn_history",
]

# Execution order of the stages of a playing session (setup runs alone, in the setup phase).
STAGE_ORDER = ("setup", "pre-turn", "narrative", "post-turn", "audit")

# Rows whose payload names one runtime and moves it through its lifecycle.
LIFECYCLE_TYPES = ("runtime.started", "runtime.completed", "runtime.failed", "runtime.skipped",
                   "runtime.deferred")

# Every type covel-db.md §2.1 and covel-assembly.md §7.2 list. Anything else is "unknown": kept and
# shown as stored, attached to its runtime when the payload names one.
KNOWN_TYPES = frozenset({
    "turn.started", "turn.completed", "turn.failed", "turn.suspended", "turn.resumed",
    "execution.started", "execution.completed",
    *LIFECYCLE_TYPES, "runtime.progress",
    "llm.calling", "llm.responded", "tool.calling", "tool.completed", "tool.failed",
    "message.completed", "context.pruned", "context.compacted",
    "hook.fired", "hook.rewrote", "hook.aborted", "proposal.failed",
    "block.emitted", "ui.rendered", "state.patch.applied", "domain-event.previewed",
    "gateway.calling", "gateway.responded", "gateway.failed",
    "utils.fetch.calling", "utils.fetch.responded", "utils.fetch.failed",
    "function.executing", "function.completed",
    "recursive.calling", "recursive.completed", "recursive.failed",
    "command.invoked", "command.completed", "command.failed",
    "asset.progress", "asset.generated", "job-status.updated",
})

_TURN_TYPES = frozenset({"turn.started", "turn.completed", "turn.failed", "execution.started",
                         "execution.completed"})
_KIND_BY_TYPE = {
    "llm.calling": "call", "llm.responded": "response",
    "tool.calling": "tool", "tool.completed": "tool", "tool.failed": "tool",
    "context.pruned": "pruned", "context.compacted": "compacted",
    "hook.fired": "hook", "hook.rewrote": "hook", "hook.aborted": "hook",
    "proposal.failed": "proposal", "turn.suspended": "suspension", "turn.resumed": "suspension",
    "message.completed": "message",
}

_LEGACY_PRUNED = re.compile(markers.LEGACY_PRUNED_MARKER_PATTERN)


class TurnNotFoundError(LookupError):
    """No trace row and no result row names the execution (or the event is not a model call)."""


# --- small helpers --------------------------------------------------------------------------

# The JSON field guards (one module for their rules).
_str, _num, _int = nonempty_text_or_none, number_or_none, int_or_none


def _error_text(value: Any) -> str | None:
    if isinstance(value, dict):
        value = value.get("message") if isinstance(value.get("message"), str) else str(value)
    return value if isinstance(value, str) and value else None


def _ms(value: str | None) -> float | None:
    """Epoch milliseconds of an ISO timestamp, None when missing or unreadable."""
    if not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp() * 1000.0
    except ValueError:
        return None


def _same_shape(a: str, b: str) -> bool:
    # JavaScript's toISOString always writes the same width ending in Z, and such strings sort
    # as the instants they name; anything else is parsed.
    return len(a) == len(b) and a[-1:] == b[-1:] == "Z"


def _before(a: str, b: str) -> bool:
    """a is strictly earlier than b."""
    if _same_shape(a, b):
        return a < b
    ma, mb = _ms(a), _ms(b)
    if ma is None or mb is None:
        return a < b
    return ma < mb


def _later(a: str | None, b: str | None) -> str | None:
    if a is None:
        return b
    if b is None:
        return a
    return b if _before(a, b) else a


def _earlier(a: str | None, b: str | None) -> str | None:
    if a is None:
        return b
    if b is None:
        return a
    return b if _before(b, a) else a


def _not_after(moment: str | None, limit: str | None) -> bool:
    if moment is None or limit is None:
        return moment is None
    return not _before(limit, moment)


def _short(value: Any, limit: int = 100) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        text = value
    else:
        from inspector.jsjson import js_stringify

        try:
            text = js_stringify(value)
        except (TypeError, ValueError):
            text = repr(value)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _message_text(message: Any) -> str:
    """The text of a kernel message: a string content, or its text parts joined."""
    if not isinstance(message, dict):
        return ""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content
                       if isinstance(part, dict) and isinstance(part.get("text"), str))
    return ""


# --- the shared runtime lifecycle rule ------------------------------------------------------

@dataclass(slots=True)
class RuntimeLifecycle:
    """A runtime's lifecycle folded from its ``runtime.*`` rows in write order.

    ``status`` is ``runtime.completed``'s status as written (``success``…, ``completed`` when it
    has none), ``failed``, ``skipped`` or ``deferred``; ``started`` while only ``runtime.started``
    was seen; None before any lifecycle row. A later terminal row overrides an earlier one, a
    ``runtime.started`` never overrides a terminal status. This is the one place the rule lives:
    the navigator's runtime groups and the turn model both fold through it.
    """

    stage: str | None = None
    status: str | None = None
    started_at: str | None = None
    ended_at: str | None = None
    duration_ms: float | None = None
    error: str | None = None
    reason: str | None = None
    started_event_id: str | None = None
    end_event_id: str | None = None

    @property
    def terminal(self) -> bool:
        return self.status not in (None, "started")

    def apply(self, ev: TraceEvent) -> bool:
        """Fold one row in; False (and no change) when it is not a lifecycle row."""
        etype = ev.type
        if etype not in LIFECYCLE_TYPES:
            return False
        payload = ev.payload
        if etype == "runtime.started":
            if self.stage is None:
                self.stage = _str(payload.get("stage"))
            if self.started_at is None:
                self.started_at = ev.created_at
                self.started_event_id = ev.id
            if self.status is None:
                self.status = "started"
            return True
        if etype == "runtime.completed":
            self.status = _str(payload.get("status")) or "completed"
            error = _error_text(payload.get("error"))
            if error is not None:
                self.error = error
        elif etype == "runtime.failed":
            self.status = "failed"
            self.error = _error_text(payload.get("error"))
        elif etype == "runtime.skipped":
            self.status = "skipped"
            self.reason = _str(payload.get("reason")) or _error_text(payload.get("error"))
        else:
            self.status = "deferred"
            self.reason = _str(payload.get("reason"))
        if self.stage is None:
            # runtime.skipped rows carry the stage too; a skip before any start still has a lane.
            self.stage = _str(payload.get("stage"))
        duration = _num(payload.get("durationMs"))
        if duration is not None:
            self.duration_ms = duration
        self.ended_at = ev.created_at
        self.end_event_id = ev.id
        return True


# --- records of the turn model ----------------------------------------------------------------

@dataclass(slots=True)
class TurnEvent:
    """One trace row of the turn, in canonical order, for stepping.

    ``kind``: turn, runtime, call, response, tool, pruned, compacted, hook, proposal, suspension,
    message, other (a known type the model does not break down) or unknown (a type it does not
    know). ``target`` / ``target_id`` say what the row belongs to: ``turn`` (the turn id),
    ``runtime`` (runtime id), ``call`` (the ``llm.calling`` event id), ``tool`` (the tool use's
    key) or ``suspension`` (suspension id).
    """

    index: int
    event_id: str
    type: str
    kind: str
    known: bool
    created_at: str
    seq: int | None
    offset_ms: float | None
    runtime_id: str | None
    stage: str | None
    target: str
    target_id: str | None
    label: str
    event: TraceEvent = field(repr=False)

    @property
    def payload(self) -> dict[str, Any]:
        return self.event.payload

    @property
    def payload_error(self) -> str | None:
        return self.event.payload_error


@dataclass(slots=True)
class TransportAttempt:
    """One HTTP attempt of a model call (``providerRequests[]``)."""

    index: int
    started_at: str | None
    duration_ms: float | None
    status_code: int | None
    failed: bool
    retry_reason: str | None
    provider: str | None
    protocol: str | None


@dataclass(slots=True)
class ModelCall:
    """An ``llm.calling`` row and its ``llm.responded`` (None when unanswered)."""

    event_id: str
    response_event_id: str | None
    runtime_id: str | None
    plugin_id: str | None
    step: int
    attempt: int
    model: str | None
    provider: str | None
    slot: str | None
    protocol: str | None
    started_at: str
    ended_at: str | None
    start_ms: float | None
    end_ms: float | None
    queue_wait_ms: float | None
    duration_ms: float | None
    finish_reason: str | None
    error: str | None
    usage: TokenUsage | None
    streaming: bool
    transport: list[TransportAttempt]
    requested_tools: list[str]
    call: LlmCall = field(repr=False)

    @property
    def answered(self) -> bool:
        return self.response_event_id is not None

    def to_json(self) -> dict[str, Any]:
        usage = self.usage
        return {
            "eventId": self.event_id,
            "attempt": self.attempt,
            "step": self.step,
            "model": self.model,
            "provider": self.provider,
            "inputTokens": usage.input_tokens if usage else None,
            "cachedTokens": usage.cached_input_tokens if usage else None,
        }


@dataclass(slots=True)
class ToolUse:
    """One tool call of a runtime: its trace rows and/or its ``tool_calls`` row.

    ``status`` is ``completed``, ``failed`` or ``started`` (no end row). ``call_event_id`` is the
    model call whose response asked for it (by tool-call id, else the runtime's latest call before
    it) and ``step`` that call's tool-loop step.
    """

    key: str
    name: str | None
    status: str
    tool_call_id: str | None
    runtime_id: str | None
    plugin_id: str | None
    call_event_id: str | None
    step: int | None
    started_at: str | None
    ended_at: str | None
    start_ms: float | None
    end_ms: float | None
    duration_ms: float | None
    input: Any
    output: Any
    error: Any
    approval_status: str | None
    calling_event_id: str | None
    end_event_id: str | None
    row_id: str | None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "status": self.status}


@dataclass(slots=True)
class Pruning:
    """``context.pruned``: budget trimming before the model call ``call_event_id``."""

    event_id: str
    created_at: str
    runtime_id: str | None
    call_event_id: str | None
    pruned_messages: int | None
    truncated_tool_results: int | None
    truncated_summaries: int | None


@dataclass(slots=True)
class Compaction:
    """``context.compacted``: the history barrier run by ``runtime_id`` before ``call_event_id``."""

    event_id: str
    created_at: str
    runtime_id: str | None
    call_event_id: str | None
    summary_id: str | None
    summary_ids: list[str]
    messages_compacted: int | None
    token_savings: int | None
    focus_sections: list[str]
    summaries_merged: int | None
    summary_tokens: int | None
    total_summary_tokens: int | None
    truncated: bool | None


@dataclass(slots=True)
class HookEvent:
    event_id: str
    created_at: str
    action: str  # fired, rewrote or aborted
    hook: str | None
    runtime_id: str | None
    plugin_id: str | None
    detail: dict[str, Any] = field(repr=False)


@dataclass(slots=True)
class ProposalFailure:
    event_id: str
    created_at: str
    runtime_id: str | None
    plugin_id: str | None
    proposal_id: str | None
    proposal_type: str | None
    error: str | None


@dataclass(slots=True)
class Suspension:
    """A suspension of this turn (or, in :attr:`Turn.resumes`, the one this execution resumed)."""

    suspension_id: str | None
    turn_id: str | None
    runtime_id: str | None
    plugin_id: str | None
    reason: str | None
    resume_schema: Any
    created_at: str | None
    resolved_at: str | None
    suspended_event_id: str | None
    resumed_event_id: str | None
    resumed_at: str | None
    record: SuspensionRecord | None = field(default=None, repr=False)

    @property
    def resolved(self) -> bool:
        return self.resolved_at is not None or self.resumed_event_id is not None


@dataclass(slots=True)
class Runtime:
    """One runtime of the turn: its bar on the timeline and everything that happened inside it.

    ``status``: success (or another status ``runtime.completed`` wrote), failed, skipped,
    deferred; suspended (no terminal row, a suspension of it exists); started (no terminal row);
    or the ``turn_results`` status when the trace has no terminal row. ``group`` numbers the
    parallel group (1-based across the turn), None when the runtime has no times.
    """

    runtime_id: str | None
    plugin_id: str | None
    stage: str | None
    status: str | None
    started_at: str | None
    ended_at: str | None
    start_ms: float | None
    end_ms: float | None
    duration_ms: float | None
    group: int | None
    error: str | None
    reason: str | None
    calls: list[ModelCall] = field(default_factory=list)
    tools: list[ToolUse] = field(default_factory=list)
    pruned: list[Pruning] = field(default_factory=list)
    compacted: list[Compaction] = field(default_factory=list)
    hooks: list[HookEvent] = field(default_factory=list)
    proposal_failures: list[ProposalFailure] = field(default_factory=list)
    suspensions: list[Suspension] = field(default_factory=list)
    events: list[TurnEvent] = field(default_factory=list, repr=False)
    result: dict[str, Any] | None = field(default=None, repr=False)
    traced: bool = True

    @property
    def steps(self) -> int:
        """Tool-loop steps (model calls with attempt 0 start one)."""
        return len({c.step for c in self.calls})

    def to_json(self) -> dict[str, Any]:
        return {
            "runtimeId": self.runtime_id,
            "pluginId": self.plugin_id,
            "status": self.status,
            "startedAt": self.started_at,
            "endedAt": self.ended_at,
            "group": self.group,
            "calls": [c.to_json() for c in self.calls],
            "tools": [t.to_json() for t in self.tools],
        }


@dataclass(slots=True)
class ParallelGroup:
    """Runtimes of one stage whose intervals overlap: one DAG level."""

    index: int
    stage: str | None
    started_at: str | None
    ended_at: str | None
    start_ms: float | None
    end_ms: float | None
    runtimes: list[Runtime]


@dataclass(slots=True)
class Stage:
    name: str
    known: bool
    started_at: str | None
    ended_at: str | None
    start_ms: float | None
    end_ms: float | None
    runtimes: list[Runtime]
    groups: list[ParallelGroup]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "runtimes": [r.to_json() for r in self.runtimes]}


@dataclass(slots=True)
class SeededResult:
    """A result a runtime retry reused instead of running the runtime again."""

    runtime_id: str | None
    plugin_id: str | None
    stage: str | None
    status: str | None
    from_turn_id: str
    output: Any = field(repr=False)


@dataclass(slots=True)
class Retry:
    """This execution re-ran runtimes of ``source_turn_id``.

    ``kind`` is the recovery action type (``retry_turn``, ``retry_runtime``,
    ``retry_failed_runtimes``) or ``runtime-retry`` when only the retry scope says so. ``source``
    names where the scope came from: ``turn_results``, ``trace`` (payload retry-scope fields) or
    ``recovery-action`` (``turn.started.recoveryAction`` alone).
    """

    kind: str
    source: str
    source_turn_id: str | None
    runtime_ids: list[str]
    source_committed: bool | None
    source_failed_runtime_ids: list[str]
    recovery_action: dict[str, Any] | None
    seeded: list[SeededResult]


@dataclass(slots=True)
class RuntimeOutput:
    runtime_id: str | None
    plugin_id: str | None
    stage: str | None
    status: str | None
    output: Any
    error: str | None


@dataclass(slots=True)
class Committed:
    """What the turn wrote: its journal rows (player input, story, other runtime rows) and the
    outputs of the runtimes it ran (seeded results excluded)."""

    player: list[TurnMessage]
    story: list[TurnMessage]
    runtime_messages: list[TurnMessage]
    outputs: list[RuntimeOutput]


@dataclass(slots=True)
class Turn:
    session_id: str
    turn_id: str
    trace_id: str | None
    origin: str | None
    commit_status: str | None
    commit_source: str | None  # turn_results, trace (turn/execution.completed.committed) or None
    parent_turn_id: str | None
    started_at: str | None
    ended_at: str | None
    start_ms: float | None
    end_ms: float | None
    duration_ms: float | None
    runtime_count: int | None
    abort_reason: str | None
    error: str | None
    stages: list[Stage]
    unstaged: list[Runtime]
    unstaged_groups: list[ParallelGroup]
    events: list[TurnEvent]
    turn_events: list[TurnEvent]
    retry: Retry | None
    suspensions: list[Suspension]
    resumes: list[Suspension]
    committed: Committed
    result: TurnResult | None = field(repr=False)
    notes: list[str] = field(default_factory=list)

    # -- navigation ----------------------------------------------------------------------------

    def runtimes(self) -> Iterator[Runtime]:
        """Every runtime in execution order: stage by stage, then the unstaged ones."""
        for stage in self.stages:
            yield from stage.runtimes
        yield from self.unstaged

    def runtime(self, runtime_id: str | None) -> Runtime | None:
        return next((r for r in self.runtimes() if r.runtime_id == runtime_id), None)

    def groups(self) -> list[ParallelGroup]:
        """Every parallel group in execution order (their ``index`` runs 1, 2, …)."""
        out = [g for stage in self.stages for g in stage.groups]
        out.extend(self.unstaged_groups)
        return out

    def call(self, event_id: str) -> ModelCall | None:
        for runtime in self.runtimes():
            for call in runtime.calls:
                if call.event_id == event_id or call.response_event_id == event_id:
                    return call
        return None

    def offset_ms(self, moment: str | None) -> float | None:
        """Milliseconds from the turn's start to ``moment`` (an ISO timestamp)."""
        at = _ms(moment)
        if at is None or self.start_ms is None:
            return None
        return at - self.start_ms

    # -- output --------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The ``turn --json`` contract."""
        return {
            "turnId": self.turn_id,
            "origin": self.origin,
            "commitStatus": self.commit_status,
            "stages": [s.to_json() for s in self.stages],
            "unstaged": [r.to_json() for r in self.unstaged],
        }

    def to_text(self) -> str:
        return _TextOutline(self).render()


# --- building the turn ---------------------------------------------------------------------------

def build_turn(store: Store, session_id: str, turn_id: str) -> Turn:
    """The stage-by-stage model of one execution. Raises :class:`TurnNotFoundError` when neither a
    trace row nor a result row of the session names ``turn_id``."""
    events = store.events(session_id, turn_id)
    results = store.turn_results(session_id, [turn_id])
    if not events and not results:
        raise TurnNotFoundError(f"no turn {turn_id!r} in session {session_id!r}")
    builder = _Builder(store, session_id, turn_id, events, results[-1] if results else None)
    return builder.build()


class _RuntimeAcc:
    __slots__ = ("runtime", "life", "first_at", "last_at")

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.life = RuntimeLifecycle()
        self.first_at: str | None = None
        self.last_at: str | None = None

    def touch(self, moment: str | None) -> None:
        if moment is None:
            return
        self.first_at = _earlier(self.first_at, moment)
        self.last_at = _later(self.last_at, moment)


class _Builder:
    def __init__(self, store: Store, session_id: str, turn_id: str, events: list[TraceEvent],
                 result: TurnResult | None) -> None:
        self.store = store
        self.session_id = session_id
        self.turn_id = turn_id
        self.raw = events
        self.result = result
        self.notes: list[str] = []
        self.accs: dict[str | None, _RuntimeAcc] = {}
        self.turn_events: list[TurnEvent] = []
        self.events: list[TurnEvent] = []
        self.start: str | None = None

    # -- runtimes ------------------------------------------------------------------------------

    def _acc(self, runtime_id: str | None, plugin_id: str | None) -> _RuntimeAcc:
        acc = self.accs.get(runtime_id)
        if acc is None:
            acc = self.accs[runtime_id] = _RuntimeAcc(Runtime(
                runtime_id=runtime_id, plugin_id=plugin_id, stage=None, status=None, started_at=None,
                ended_at=None, start_ms=None, end_ms=None, duration_ms=None, group=None, error=None,
                reason=None))
        elif acc.runtime.plugin_id is None and plugin_id is not None:
            acc.runtime.plugin_id = plugin_id
        return acc

    # -- main ----------------------------------------------------------------------------------

    def build(self) -> Turn:
        raw = self.raw
        # Rows come in canonical order, so the first is the earliest; a turn whose trace was
        # pruned starts when its pending result row was written.
        self.start = raw[0].created_at if raw else (self.result.created_at if self.result else None)
        start_ms = _ms(self.start)

        calls = pair_llm_calls(raw)
        by_calling: dict[str, ModelCall] = {}
        by_response: dict[str, ModelCall] = {}
        for call in calls:
            model_call = self._model_call(call, start_ms)
            by_calling[model_call.event_id] = model_call
            if model_call.response_event_id is not None:
                by_response[model_call.response_event_id] = model_call

        tools_by_key: dict[str, ToolUse] = {}
        open_tools: dict[tuple[str | None, str], list[ToolUse]] = {}
        pending_links: list[tuple[int, Any]] = []  # pruned/compacted waiting for their next call
        calls_of_runtime_in_order: dict[str | None, list[tuple[int, ModelCall]]] = {}
        turn_info: dict[str, Any] = {"runtime_count": None, "recovery": None, "committed": None,
                                     "end": None, "duration": None, "abort": None, "error": None}
        suspended_events: dict[str | None, TraceEvent] = {}
        resumed_events: list[TraceEvent] = []
        scope_from_trace: dict[str, Any] | None = None
        story_runtimes: set[str | None] = set()

        for index, ev in enumerate(raw):
            etype = ev.type
            payload = ev.payload
            rid = ev.runtime_id
            known = etype in KNOWN_TYPES
            kind = self._kind(etype, known)
            target, target_id = "turn", self.turn_id
            acc: _RuntimeAcc | None = None

            if scope_from_trace is None and isinstance(payload.get("sourceTurnId"), str):
                scope_from_trace = payload

            if etype in _TURN_TYPES:
                self._turn_row(ev, turn_info)
            elif etype in ("turn.suspended", "turn.resumed"):
                sid = _str(payload.get("suspensionId"))
                target, target_id = "suspension", sid
                if etype == "turn.suspended":
                    suspended_events[sid] = ev
                else:
                    resumed_events.append(ev)
            elif etype in LIFECYCLE_TYPES or rid is not None:
                acc = self._acc(rid, ev.plugin_id)
                target, target_id = "runtime", rid
            elif etype in ("llm.calling", "llm.responded", "tool.calling", "tool.completed", "tool.failed",
                           "context.pruned", "message.completed", "proposal.failed"):
                # Rows of these types that name no runtime still belong to one: the unnamed one.
                acc = self._acc(None, ev.plugin_id)
                target, target_id = "runtime", None

            if acc is not None:
                acc.life.apply(ev)
                acc.touch(ev.created_at)
                runtime = acc.runtime
                if etype == "llm.calling":
                    model_call = by_calling.get(ev.id)
                    if model_call is not None:
                        runtime.calls.append(model_call)
                        calls_of_runtime_in_order.setdefault(rid, []).append((index, model_call))
                        target, target_id = "call", ev.id
                        acc.touch(model_call.started_at)
                elif etype == "llm.responded":
                    model_call = by_response.get(ev.id)
                    if model_call is not None:
                        target, target_id = "call", model_call.event_id
                    else:
                        self.notes.append(f"llm.responded {ev.id} matches no llm.calling of its runtime")
                elif etype in ("tool.calling", "tool.completed", "tool.failed"):
                    tool = self._tool_row(ev, runtime, tools_by_key, open_tools, start_ms)
                    target, target_id = "tool", tool.key
                elif etype == "context.pruned":
                    pruning = Pruning(
                        event_id=ev.id, created_at=ev.created_at, runtime_id=rid, call_event_id=None,
                        pruned_messages=_int(payload.get("prunedMessageCount")),
                        truncated_tool_results=_int(payload.get("truncatedToolResultCount")),
                        truncated_summaries=_int(payload.get("truncatedSummaryCount")))
                    runtime.pruned.append(pruning)
                    pending_links.append((index, pruning))
                elif etype in ("hook.fired", "hook.rewrote", "hook.aborted"):
                    runtime.hooks.append(self._hook(ev))
                elif etype == "proposal.failed":
                    runtime.proposal_failures.append(self._proposal(ev))
                elif etype == "message.completed":
                    story_runtimes.add(rid)
                elif etype == "context.compacted":
                    compaction = self._compaction(ev, rid)
                    runtime.compacted.append(compaction)
                    pending_links.append((index, compaction))
            elif etype == "context.compacted":
                # The compactor's row names no runtime: it is the barrier run by the runtime whose
                # model call comes next (covel-assembly.md §6).
                pending_links.append((index, self._compaction(ev, None)))

            turn_event = TurnEvent(
                index=index, event_id=ev.id, type=etype, kind=kind, known=known, created_at=ev.created_at,
                seq=ev.seq, offset_ms=self._offset(ev.created_at, start_ms), runtime_id=rid if acc else None,
                stage=None, target=target, target_id=target_id, label="", event=ev)
            self.events.append(turn_event)
            if acc is not None:
                acc.runtime.events.append(turn_event)

        self._link_pending(pending_links, calls_of_runtime_in_order)
        self._merge_tool_rows(tools_by_key, start_ms)
        self._link_tools_to_calls()

        retry = self._retry(turn_info["recovery"], scope_from_trace)
        seeded_ids = {s.runtime_id for s in retry.seeded} if retry else set()
        self._apply_results(retry, seeded_ids)
        suspensions, resumes = self._suspensions(suspended_events, resumed_events)
        self._finish_runtimes(start_ms)
        stages, unstaged, unstaged_groups = self._stages(start_ms)

        for turn_event in self.events:
            if turn_event.target in ("turn", "suspension"):
                self.turn_events.append(turn_event)
            else:
                owner = self.accs.get(turn_event.runtime_id)
                turn_event.stage = owner.runtime.stage if owner is not None else None
            turn_event.label = _label(turn_event)

        end = turn_info["end"] or (raw[-1].created_at if raw else None)
        result = self.result
        duration = _num(result.duration_ms) if result and result.duration_ms is not None else turn_info["duration"]
        if duration is None and self.start and end:
            a, b = _ms(self.start), _ms(end)
            duration = (b - a) if a is not None and b is not None else None
        commit_status, commit_source = None, None
        if result is not None and result.commit_status:
            commit_status, commit_source = result.commit_status, "turn_results"
        elif turn_info["committed"] is not None:
            commit_status = "committed" if turn_info["committed"] else "uncommitted"
            commit_source = "trace"
        origin = (result.origin or "player") if result is not None else None
        if result is not None and result.runtime_results_error:
            self.notes.append(f"turn_results.runtime_results: {result.runtime_results_error}")

        turn = Turn(
            session_id=self.session_id, turn_id=self.turn_id,
            trace_id=raw[0].trace_id if raw else None, origin=origin, commit_status=commit_status,
            commit_source=commit_source, parent_turn_id=result.parent_turn_id if result else None,
            started_at=self.start, ended_at=end, start_ms=start_ms, end_ms=_ms(end), duration_ms=duration,
            runtime_count=turn_info["runtime_count"], abort_reason=turn_info["abort"], error=turn_info["error"],
            stages=stages, unstaged=unstaged, unstaged_groups=unstaged_groups, events=self.events,
            turn_events=self.turn_events, retry=retry, suspensions=suspensions, resumes=resumes,
            committed=self._committed(story_runtimes, seeded_ids), result=result, notes=self.notes)
        return turn

    # -- per-row helpers -----------------------------------------------------------------------

    @staticmethod
    def _kind(etype: str, known: bool) -> str:
        if not known:
            return "unknown"
        if etype in _TURN_TYPES:
            return "turn"
        if etype.startswith("runtime."):
            return "runtime"
        return _KIND_BY_TYPE.get(etype, "other")

    @staticmethod
    def _offset(moment: str | None, start_ms: float | None) -> float | None:
        at = _ms(moment)
        return at - start_ms if at is not None and start_ms is not None else None

    def _turn_row(self, ev: TraceEvent, info: dict[str, Any]) -> None:
        payload = ev.payload
        etype = ev.type
        if etype in ("turn.started", "execution.started"):
            count = _int(payload.get("runtimeCount"))
            if count is not None and info["runtime_count"] is None:
                info["runtime_count"] = count
            action = payload.get("recoveryAction")
            if isinstance(action, dict) and info["recovery"] is None:
                info["recovery"] = action
            return
        info["end"] = _later(info["end"], ev.created_at)
        if isinstance(payload.get("committed"), bool):
            info["committed"] = payload["committed"]
        duration = _num(payload.get("durationMs"))
        if duration is not None:
            info["duration"] = duration
        abort = _str(payload.get("abortReason"))
        if abort is not None:
            info["abort"] = abort
        if etype == "turn.failed":
            info["error"] = _error_text(payload.get("error")) or info["error"]

    def _model_call(self, call: LlmCall, start_ms: float | None) -> ModelCall:
        payload = call.calling.payload
        response = call.response.payload if call.response is not None else {}
        transport: list[TransportAttempt] = []
        protocol = None
        for i, request in enumerate(call.provider_requests):
            if not isinstance(request, dict):
                continue
            if protocol is None:
                protocol = _str(request.get("protocol"))
            index = _int(request.get("transportAttempt"))
            transport.append(TransportAttempt(
                index=index if index is not None else i, started_at=_str(request.get("startedAt")),
                duration_ms=_num(request.get("durationMs")), status_code=_int(request.get("statusCode")),
                failed=request.get("failed") is True, retry_reason=_str(request.get("transportRetryReason")),
                provider=_str(request.get("provider")), protocol=_str(request.get("protocol"))))
        requested = []
        tool_calls = response.get("toolCalls")
        if isinstance(tool_calls, list):
            requested = [tc["name"] for tc in tool_calls
                         if isinstance(tc, dict) and isinstance(tc.get("name"), str)]
        ended = call.response.created_at if call.response is not None else None
        duration = _num(response.get("durationMs"))
        if duration is None and ended is not None:
            a, b = _ms(call.started_at), _ms(ended)
            duration = b - a if a is not None and b is not None else None
        finish = _str(response.get("finishReason"))
        return ModelCall(
            event_id=call.id, response_event_id=call.response.id if call.response is not None else None,
            runtime_id=call.runtime_id, plugin_id=call.plugin_id, step=call.step, attempt=call.attempt,
            model=call.model, provider=call.provider or (transport[0].provider if transport else None),
            slot=_str(payload.get("slot")), protocol=protocol, started_at=call.started_at, ended_at=ended,
            start_ms=self._offset(call.started_at, start_ms), end_ms=self._offset(ended, start_ms),
            queue_wait_ms=_num(payload.get("queueWaitMs")), duration_ms=duration, finish_reason=finish,
            error=_error_text(response.get("error")), usage=call.usage,
            streaming=payload.get("streaming") is True, transport=transport, requested_tools=requested,
            call=call)

    def _tool_row(self, ev: TraceEvent, runtime: Runtime, by_key: dict[str, ToolUse],
                  open_tools: dict[tuple[str | None, str], list[ToolUse]], start_ms: float | None) -> ToolUse:
        payload = ev.payload
        name = _str(payload.get("toolName")) or _str(payload.get("name"))
        call_id = _str(payload.get("toolCallId"))
        rid = runtime.runtime_id
        tool: ToolUse | None = None
        if ev.type != "tool.calling":
            # Bind the end row to its calling row: by tool-call id, else the oldest open call of
            # the same tool in this runtime.
            if call_id is not None:
                candidates = open_tools.get((rid, call_id), [])
            else:
                candidates = open_tools.get((rid, "\x00" + (name or "")), [])
            if candidates:
                tool = candidates.pop(0)
        if tool is None:
            key = call_id or ev.id
            if key in by_key:
                key = ev.id
            tool = ToolUse(
                key=key, name=name, status="started", tool_call_id=call_id, runtime_id=rid,
                plugin_id=runtime.plugin_id or ev.plugin_id, call_event_id=None, step=None, started_at=None,
                ended_at=None, start_ms=None, end_ms=None, duration_ms=None, input=None, output=None,
                error=None, approval_status=None, calling_event_id=None, end_event_id=None, row_id=None)
            by_key[key] = tool
            runtime.tools.append(tool)
            if ev.type == "tool.calling":
                open_key = (rid, call_id) if call_id is not None else (rid, "\x00" + (name or ""))
                open_tools.setdefault(open_key, []).append(tool)
        if tool.name is None:
            tool.name = name
        if ev.type == "tool.calling":
            tool.calling_event_id = ev.id
            tool.started_at = ev.created_at
            tool.start_ms = self._offset(ev.created_at, start_ms)
            tool.input = payload.get("input")
        else:
            tool.status = "completed" if ev.type == "tool.completed" else "failed"
            tool.end_event_id = ev.id
            tool.ended_at = ev.created_at
            tool.end_ms = self._offset(ev.created_at, start_ms)
            duration = _num(payload.get("durationMs"))
            if duration is not None:
                tool.duration_ms = duration
            if ev.type == "tool.completed":
                tool.output = payload.get("output")
            else:
                tool.error = payload.get("error") if "error" in payload else payload.get("reason")
        return tool

    def _merge_tool_rows(self, by_key: dict[str, ToolUse], start_ms: float | None) -> None:
        """Join ``tool_calls`` rows (executed calls) to the trace's tool uses by runtime and tool
        name, in order; rows whose trace was pruned become tool uses of their own."""
        rows = self.store.tool_calls(self.session_id, self.turn_id)
        if not rows:
            return
        unmatched: dict[tuple[str | None, str | None], list[ToolUse]] = {}
        for acc in self.accs.values():
            for tool in acc.runtime.tools:
                if tool.status != "failed":
                    unmatched.setdefault((tool.runtime_id, tool.name), []).append(tool)
        for row in rows:
            queue = unmatched.get((row.runtime_id, row.tool_name))
            if queue:
                tool = queue.pop(0)
            else:
                tool = self._tool_from_row(row, by_key, start_ms)
            tool.row_id = row.id
            tool.approval_status = row.approval_status
            if tool.status == "started":
                # Only executed calls get a row, so the missing end row was pruned or lost.
                tool.status = "completed"
            if tool.input is None:
                tool.input = row.input
            if tool.output is None:
                tool.output = row.output
            if tool.duration_ms is None and row.duration_ms is not None:
                tool.duration_ms = _num(row.duration_ms)  # a damaged row may hold text

    def _tool_from_row(self, row: ToolCallRecord, by_key: dict[str, ToolUse], start_ms: float | None) -> ToolUse:
        acc = self._acc(row.runtime_id, row.plugin_id)
        acc.touch(row.created_at)
        tool = ToolUse(
            key=row.id, name=row.tool_name, status="completed", tool_call_id=None, runtime_id=row.runtime_id,
            plugin_id=row.plugin_id, call_event_id=None, step=None, started_at=None, ended_at=row.created_at,
            start_ms=None, end_ms=self._offset(row.created_at, start_ms), duration_ms=None, input=None,
            output=None, error=None, approval_status=None, calling_event_id=None, end_event_id=None,
            row_id=row.id)
        by_key[row.id] = tool
        acc.runtime.tools.append(tool)
        return tool

    def _link_tools_to_calls(self) -> None:
        order = {ev.event_id: ev.index for ev in self.events}
        for acc in self.accs.values():
            runtime = acc.runtime
            if not runtime.tools or not runtime.calls:
                continue
            by_tool_id: dict[str, ModelCall] = {}
            for call in runtime.calls:
                response = call.call.response
                if response is None:
                    continue
                tool_calls = response.payload.get("toolCalls")
                if isinstance(tool_calls, list):
                    for tc in tool_calls:
                        if isinstance(tc, dict) and isinstance(tc.get("id"), str):
                            by_tool_id.setdefault(tc["id"], call)
            for tool in runtime.tools:
                owner = by_tool_id.get(tool.tool_call_id or "")
                if owner is None:
                    anchor = tool.calling_event_id or tool.end_event_id
                    position = order.get(anchor) if anchor else None
                    if position is not None:
                        before = [c for c in runtime.calls if order.get(c.event_id, -1) < position]
                        owner = before[-1] if before else None
                if owner is not None:
                    tool.call_event_id = owner.event_id
                    tool.step = owner.step

    def _hook(self, ev: TraceEvent) -> HookEvent:
        payload = ev.payload
        hook = None
        for key in ("hook", "hookName", "name", "event"):
            hook = _str(payload.get(key))
            if hook:
                break
        return HookEvent(event_id=ev.id, created_at=ev.created_at, action=ev.type.split(".", 1)[1], hook=hook,
                         runtime_id=ev.runtime_id, plugin_id=ev.plugin_id, detail=payload)

    def _proposal(self, ev: TraceEvent) -> ProposalFailure:
        payload = ev.payload
        return ProposalFailure(event_id=ev.id, created_at=ev.created_at, runtime_id=ev.runtime_id,
                               plugin_id=ev.plugin_id, proposal_id=_str(payload.get("proposalId")),
                               proposal_type=_str(payload.get("proposalType")),
                               error=_error_text(payload.get("error")))

    @staticmethod
    def _compaction(ev: TraceEvent, runtime_id: str | None) -> Compaction:
        payload = ev.payload
        ids = payload.get("summaryIds")
        focus = payload.get("focusSections")
        truncated = payload.get("summaryTruncated")
        return Compaction(
            event_id=ev.id, created_at=ev.created_at, runtime_id=runtime_id, call_event_id=None,
            summary_id=_str(payload.get("summaryId")),
            summary_ids=[i for i in ids if isinstance(i, str)] if isinstance(ids, list) else [],
            messages_compacted=_int(payload.get("messagesCompacted")),
            token_savings=_int(payload.get("tokenSavings")),
            focus_sections=[f for f in focus if isinstance(f, str)] if isinstance(focus, list) else [],
            summaries_merged=_int(payload.get("summariesMerged")),
            summary_tokens=_int(payload.get("summaryTokens")),
            total_summary_tokens=_int(payload.get("totalSummaryTokens")),
            truncated=truncated if isinstance(truncated, bool) else None)

    def _link_pending(self, pending: list[tuple[int, Any]],
                      calls: dict[str | None, list[tuple[int, ModelCall]]]) -> None:
        """Point each pruning/compaction at the model call it preceded."""
        for index, item in pending:
            if item.runtime_id is not None or isinstance(item, Pruning):
                following = [c for i, c in calls.get(item.runtime_id, []) if i > index]
                item.call_event_id = following[0].event_id if following else None
                continue
            # An unattributed compaction: the next model call of any runtime ran after the barrier.
            nxt = min(((i, c) for cs in calls.values() for i, c in cs if i > index), default=None,
                      key=lambda pair: pair[0])
            if nxt is None:
                self.notes.append(f"context.compacted {item.event_id}: no model call follows it")
                continue
            item.call_event_id = nxt[1].event_id
            item.runtime_id = nxt[1].runtime_id
            acc = self.accs.get(item.runtime_id)
            if acc is not None:
                acc.runtime.compacted.append(item)
                for turn_event in self.events:
                    if turn_event.event_id == item.event_id:
                        turn_event.runtime_id = item.runtime_id
                        turn_event.target, turn_event.target_id = "call", item.call_event_id
                        acc.runtime.events.append(turn_event)
                        acc.runtime.events.sort(key=lambda e: e.index)
                        break

    # -- turn-level parts --------------------------------------------------------------------------

    def _retry(self, recovery: dict[str, Any] | None, trace_scope: dict[str, Any] | None) -> Retry | None:
        result = self.result
        scope = result.retry_scope if result is not None else None
        source = "turn_results"
        if scope is None and trace_scope is not None:
            scope, source = trace_scope, "trace"
        action_type = _str(recovery.get("type")) if recovery else None
        action_payload = recovery.get("payload") if recovery and isinstance(recovery.get("payload"), dict) else {}
        if scope is None and recovery is None:
            return None
        if scope is None:
            scope, source = {}, "recovery-action"
        source_turn = _str(scope.get("sourceTurnId")) or _str(action_payload.get("retryFromTurnId"))
        runtime_ids = _str_list(scope.get("runtimeIds"))
        if not runtime_ids:
            runtime_ids = _str_list(action_payload.get("runtimeIds"))
            single = _str(action_payload.get("runtimeId"))
            if single and single not in runtime_ids:
                runtime_ids.append(single)
        committed = scope.get("sourceCommitted")
        retry = Retry(
            kind=action_type or "runtime-retry", source=source, source_turn_id=source_turn,
            runtime_ids=runtime_ids, source_committed=committed if isinstance(committed, bool) else None,
            source_failed_runtime_ids=_str_list(scope.get("sourceFailedRuntimeIds")),
            recovery_action=recovery, seeded=[])
        if source_turn and runtime_ids:
            retry.seeded = self._seeds(source_turn, set(runtime_ids))
        return retry

    def _seeds(self, source_turn: str, rerun: set[str]) -> list[SeededResult]:
        """Successful results of the source and of earlier committed retries of the same source
        (covel-assembly.md §7.1): reused, not re-run."""
        rows = self.store.turn_results(self.session_id)
        latest: dict[str, TurnResult] = {}
        for row in rows:
            latest[row.turn_id] = row
        me = latest.get(self.turn_id)
        my_key = (me.created_at or "", me.seq or 0) if me is not None else None
        sources: list[TurnResult] = []
        if source_turn in latest:
            sources.append(latest[source_turn])
        for tid, row in latest.items():
            if tid in (self.turn_id, source_turn):
                continue
            scope = row.retry_scope
            if not scope or scope.get("sourceTurnId") != source_turn or row.commit_status != "committed":
                continue
            if my_key is not None and (row.created_at or "", row.seq or 0) >= my_key:
                continue
            sources.append(row)
        seeded: dict[str, SeededResult] = {}
        for row in sources:
            for entry in row.runtime_results:
                rid = _str(entry.get("runtimeId"))
                if rid is None or rid in rerun or entry.get("status") != "success":
                    continue
                seeded[rid] = SeededResult(
                    runtime_id=rid, plugin_id=_str(entry.get("pluginId")), stage=_str(entry.get("stage")),
                    status="success", from_turn_id=row.turn_id, output=entry.get("output"))
        return list(seeded.values())

    def _apply_results(self, retry: Retry | None, seeded_ids: set[str | None]) -> None:
        result = self.result
        if result is None:
            return
        rerun = set(retry.runtime_ids) if retry else set()
        for entry in result.runtime_results:
            rid = _str(entry.get("runtimeId"))
            acc = self.accs.get(rid)
            if acc is None:
                if retry is not None and rerun and rid not in rerun:
                    # A runtime retry's result row may carry the seeds it reused: they did not
                    # run in this execution, so they get no bar.
                    if rid not in seeded_ids:
                        retry.seeded.append(SeededResult(
                            runtime_id=rid, plugin_id=_str(entry.get("pluginId")), stage=_str(entry.get("stage")),
                            status=_str(entry.get("status")), from_turn_id=retry.source_turn_id or self.turn_id,
                            output=entry.get("output")))
                        seeded_ids.add(rid)
                    continue
                # The trace was pruned (or never written): the result is all that is known.
                acc = self._acc(rid, _str(entry.get("pluginId")))
                acc.runtime.traced = False
            acc.runtime.result = entry

    def _suspensions(self, suspended: dict[str | None, TraceEvent],
                     resumed: list[TraceEvent]) -> tuple[list[Suspension], list[Suspension]]:
        rows = self.store.suspensions(self.session_id)
        by_id = {row.id: row for row in rows}
        resumed_by_id: dict[str | None, TraceEvent] = {}
        for ev in resumed:
            resumed_by_id.setdefault(_str(ev.payload.get("suspensionId")), ev)

        def make(row: SuspensionRecord | None, sid: str | None, ev: TraceEvent | None) -> Suspension:
            payload = ev.payload if ev is not None else {}
            resume = resumed_by_id.get(sid) if sid is not None else None
            return Suspension(
                suspension_id=sid, turn_id=row.turn_id if row else (_str(payload.get("turnId")) or self.turn_id),
                runtime_id=row.runtime_id if row else _str(payload.get("runtimeId")),
                plugin_id=row.plugin_id if row else _str(payload.get("pluginId")),
                reason=row.reason if row else _str(payload.get("reason")),
                resume_schema=row.resume_schema if row else payload.get("resumeSchema"),
                created_at=row.created_at if row else (ev.created_at if ev else None),
                resolved_at=row.resolved_at if row else None,
                suspended_event_id=ev.id if ev else None,
                resumed_event_id=resume.id if resume else None,
                resumed_at=resume.created_at if resume else None, record=row)

        own: list[Suspension] = []
        seen: set[str | None] = set()
        for row in rows:
            if row.turn_id == self.turn_id:
                own.append(make(row, row.id, suspended.get(row.id)))
                seen.add(row.id)
        for sid, ev in suspended.items():
            if sid not in seen:
                own.append(make(by_id.get(sid) if sid else None, sid, ev))
                seen.add(sid)
        resumes: list[Suspension] = []
        for sid, ev in resumed_by_id.items():
            if sid in seen:
                continue
            row = by_id.get(sid) if sid else None
            payload = ev.payload
            resumes.append(Suspension(
                suspension_id=sid, turn_id=row.turn_id if row else _str(payload.get("turnId")),
                runtime_id=row.runtime_id if row else _str(payload.get("runtimeId")),
                plugin_id=row.plugin_id if row else _str(payload.get("pluginId")),
                reason=row.reason if row else _str(payload.get("reason")),
                resume_schema=row.resume_schema if row else payload.get("resumeSchema"),
                created_at=row.created_at if row else None, resolved_at=row.resolved_at if row else None,
                suspended_event_id=None, resumed_event_id=ev.id, resumed_at=ev.created_at, record=row))
        for suspension in own:
            if suspension.runtime_id is not None:
                self._acc(suspension.runtime_id, suspension.plugin_id).runtime.suspensions.append(suspension)
        return own, resumes

    def _finish_runtimes(self, start_ms: float | None) -> None:
        for acc in self.accs.values():
            runtime, life = acc.runtime, acc.life
            entry = runtime.result or {}
            runtime.stage = life.stage or _str(entry.get("stage"))
            if life.terminal:
                runtime.status = life.status
            elif isinstance(entry.get("status"), str) and entry["status"]:
                runtime.status = entry["status"]
            elif runtime.suspensions:
                runtime.status = "suspended"
            else:
                runtime.status = life.status
            runtime.error = life.error or _error_text(entry.get("error"))
            runtime.reason = life.reason or _str(entry.get("reason"))
            runtime.started_at = life.started_at or acc.first_at
            runtime.ended_at = (life.ended_at if life.terminal else None) or acc.last_at
            if runtime.ended_at is not None and runtime.started_at is not None:
                runtime.ended_at = _later(runtime.ended_at, runtime.started_at)
            runtime.start_ms = self._offset(runtime.started_at, start_ms)
            runtime.end_ms = self._offset(runtime.ended_at, start_ms)
            duration = life.duration_ms if life.duration_ms is not None else _num(entry.get("durationMs"))
            if duration is None and runtime.start_ms is not None and runtime.end_ms is not None and life.terminal:
                duration = runtime.end_ms - runtime.start_ms
            runtime.duration_ms = duration

    def _stages(self, start_ms: float | None) -> tuple[list[Stage], list[Runtime], list[ParallelGroup]]:
        by_stage: dict[str, list[Runtime]] = {}
        unstaged: list[Runtime] = []
        for acc in self.accs.values():
            runtime = acc.runtime
            if runtime.stage is None:
                unstaged.append(runtime)
            else:
                by_stage.setdefault(runtime.stage, []).append(runtime)

        def first_start(runtimes: list[Runtime]) -> float:
            known = [r.start_ms for r in runtimes if r.start_ms is not None]
            return min(known) if known else float("inf")

        names = [s for s in STAGE_ORDER if s in by_stage]
        names += sorted((s for s in by_stage if s not in STAGE_ORDER), key=lambda s: first_start(by_stage[s]))
        counter = [0]
        stages: list[Stage] = []
        for name in names:
            runtimes, groups = _order_and_group(by_stage[name], name, counter)
            starts = [r.started_at for r in runtimes if r.started_at]
            ends = [r.ended_at for r in runtimes if r.ended_at]
            started = min(starts, key=lambda s: _ms(s) or 0.0) if starts else None
            ended = max(ends, key=lambda s: _ms(s) or 0.0) if ends else None
            stages.append(Stage(name=name, known=name in STAGE_ORDER, started_at=started, ended_at=ended,
                                start_ms=self._offset(started, start_ms), end_ms=self._offset(ended, start_ms),
                                runtimes=runtimes, groups=groups))
        unstaged, unstaged_groups = _order_and_group(unstaged, None, counter)
        return stages, unstaged, unstaged_groups

    def _committed(self, story_runtimes: set[str | None], seeded_ids: set[str | None]) -> Committed:
        messages = self.store.turn_messages(self.session_id, self.turn_id)
        narrative = {rid for rid, acc in self.accs.items() if acc.runtime.stage == "narrative"}
        player, story, others = [], [], []
        for message in messages:
            if message.source_type == "player":
                player.append(message)
            elif message.source_runtime_id in story_runtimes or message.source_runtime_id in narrative:
                story.append(message)
            else:
                others.append(message)
        outputs = []
        if self.result is not None:
            for entry in self.result.runtime_results:
                rid = _str(entry.get("runtimeId"))
                if rid in seeded_ids and rid not in self.accs:
                    continue
                outputs.append(RuntimeOutput(
                    runtime_id=rid, plugin_id=_str(entry.get("pluginId")), stage=_str(entry.get("stage")),
                    status=_str(entry.get("status")), output=entry.get("output"),
                    error=_error_text(entry.get("error"))))
        return Committed(player=player, story=story, runtime_messages=others, outputs=outputs)


def _str_list(value: Any) -> list[str]:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _order_and_group(runtimes: list[Runtime], stage: str | None,
                     counter: list[int]) -> tuple[list[Runtime], list[ParallelGroup]]:
    """Sort runtimes by start and split them into parallel groups.

    Two runtimes share a group when their intervals overlap or they started in the same
    millisecond; overlap is transitive (a level is one connected run). Runtimes without any time
    (known only from ``turn_results``) keep their order at the end, in no group.
    """
    timed = [r for r in runtimes if r.start_ms is not None]
    untimed = [r for r in runtimes if r.start_ms is None]
    # Stable: runtimes that started together keep their trace order.
    timed.sort(key=lambda r: r.start_ms if r.start_ms is not None else 0.0)
    groups: list[ParallelGroup] = []
    current: ParallelGroup | None = None
    for runtime in timed:
        start = runtime.start_ms if runtime.start_ms is not None else 0.0
        end = runtime.end_ms if runtime.end_ms is not None else start
        if current is not None and current.start_ms is not None and current.end_ms is not None and (
                start < current.end_ms or start == current.start_ms):
            current.runtimes.append(runtime)
            if end > current.end_ms:
                current.end_ms = end
                current.ended_at = runtime.ended_at or runtime.started_at
        else:
            counter[0] += 1
            current = ParallelGroup(index=counter[0], stage=stage, started_at=runtime.started_at,
                                    ended_at=runtime.ended_at or runtime.started_at, start_ms=start, end_ms=end,
                                    runtimes=[runtime])
            groups.append(current)
        runtime.group = current.index
    return timed + untimed, groups


# --- labels -----------------------------------------------------------------------------------

def _label(ev: TurnEvent) -> str:
    """A one-line description of a row for the stepping list; unknown rows show their payload."""
    payload = ev.payload
    etype = ev.type
    who = ev.runtime_id or ""
    if ev.kind == "unknown" or ev.kind == "other":
        body = ev.event.raw_text
        text = f"{etype} {who}".rstrip()
        if ev.payload_error:
            return f"{text}  ({ev.payload_error})"
        return f"{text}  {_short(body, 160)}" if body else text
    if etype == "llm.calling":
        attempt = _int(payload.get("attempt")) or 0
        return f"llm.calling {who} attempt {attempt} {payload.get('model') or ''}".rstrip()
    if etype == "llm.responded":
        usage = payload.get("usage") if isinstance(payload.get("usage"), dict) else {}
        finish = payload.get("finishReason") or ""
        tokens = f" in {usage.get('inputTokens')} out {usage.get('outputTokens')}" if usage else ""
        error = f" error: {_short(payload.get('error'), 80)}" if payload.get("error") else ""
        return f"llm.responded {who} {finish}{tokens}{error}".rstrip()
    if etype.startswith("tool."):
        name = payload.get("toolName") or payload.get("name") or "?"
        return f"{etype} {who} {name}"
    if etype == "runtime.started":
        stage = payload.get("stage")
        return f"runtime.started {who}" + (f" ({stage})" if stage else " (no stage)")
    if etype == "runtime.completed":
        return f"runtime.completed {who} {payload.get('status') or ''}".rstrip()
    if etype in ("runtime.failed", "runtime.skipped", "runtime.deferred"):
        detail = _error_text(payload.get("error")) or _str(payload.get("reason")) or ""
        return f"{etype} {who} {_short(detail, 80)}".rstrip()
    if etype == "context.pruned":
        return f"context.pruned {who} {payload.get('prunedMessageCount')} messages"
    if etype == "context.compacted":
        return (f"context.compacted {who} {payload.get('messagesCompacted')} messages → summary "
                f"{payload.get('summaryId')}").replace("  ", " ")
    if etype in ("turn.suspended", "turn.resumed"):
        return f"{etype} {payload.get('suspensionId') or ''} {_short(payload.get('reason'), 60)}".rstrip()
    if etype == "turn.started":
        action = payload.get("recoveryAction")
        extra = f" recovery {action.get('type')}" if isinstance(action, dict) else ""
        return f"turn.started {payload.get('runtimeCount')} runtimes{extra}"
    if etype in ("turn.completed", "execution.completed"):
        committed = payload.get("committed")
        extra = "" if committed is None else (" committed" if committed else " not committed")
        return f"{etype}{extra}"
    if etype.startswith("hook."):
        hook = payload.get("hook") or payload.get("hookName") or payload.get("name") or ""
        return f"{etype} {who} {hook}".rstrip()
    if etype == "proposal.failed":
        return f"proposal.failed {who} {payload.get('proposalType') or ''}: {_short(payload.get('error'), 60)}"
    if etype == "message.completed":
        return f"message.completed {who} {payload.get('len')} chars"
    return f"{etype} {who}".rstrip()


# --- text outline -------------------------------------------------------------------------------

def _fmt_ms(value: float | None) -> str:
    if value is None:
        return "?"
    return f"{value:,.0f} ms"


def _fmt_offset(value: float | None) -> str:
    if value is None:
        return "?"
    sign = "+" if value >= 0 else "-"
    return f"{sign}{abs(value) / 1000:.3f}s"


class _TextOutline:
    def __init__(self, turn: Turn) -> None:
        self.turn = turn
        self.lines: list[str] = []

    def add(self, depth: int, text: str) -> None:
        self.lines.append("  " * depth + text)

    def render(self) -> str:
        t = self.turn
        self.add(0, f"turn {t.turn_id}  session {t.session_id}")
        facts = [f"origin {t.origin or '?'}", f"commit {t.commit_status or '?'}"]
        if t.commit_source == "trace":
            facts[-1] += " (from trace)"
        facts.append(f"started {t.started_at or '?'}")
        facts.append(_fmt_ms(t.duration_ms))
        if t.runtime_count is not None:
            facts.append(f"{t.runtime_count} runtimes announced")
        if t.parent_turn_id:
            facts.append(f"parent {t.parent_turn_id}")
        self.add(1, " · ".join(facts))
        if t.abort_reason:
            self.add(1, f"aborted: {t.abort_reason}")
        if t.error:
            self.add(1, f"failed: {t.error}")
        self._retry()
        for suspension in t.resumes:
            self.add(1, f"resumes suspension {suspension.suspension_id} of turn {suspension.turn_id or '?'} "
                        f"({suspension.runtime_id or '?'}; {suspension.reason or 'no reason'})")
        for stage in t.stages:
            self.add(0, f"stage {stage.name}{'' if stage.known else ' (unknown stage)'}  "
                        f"{_fmt_offset(stage.start_ms)} → {_fmt_offset(stage.end_ms)}")
            self._groups(stage.groups, stage.runtimes)
        if t.unstaged:
            self.add(0, "after all stages (event/manual runtimes, no stage)")
            self._groups(t.unstaged_groups, t.unstaged)
        for suspension in t.suspensions:
            state = (f"resumed {suspension.resumed_at or suspension.resolved_at}" if suspension.resolved
                     else "waiting for resume")
            self.add(0, f"suspended {suspension.suspension_id} by {suspension.runtime_id or '?'}: "
                        f"{suspension.reason or 'no reason'} ({state})")
        if t.turn_events:
            self.add(0, "turn events")
            for ev in t.turn_events:
                mark = "?" if not ev.known else "·"
                self.add(1, f"{mark} {_fmt_offset(ev.offset_ms)} {ev.label}")
        self._committed()
        for note in t.notes:
            self.add(0, f"note: {note}")
        return "\n".join(self.lines) + "\n"

    def _retry(self) -> None:
        retry = self.turn.retry
        if retry is None:
            return
        self.add(1, f"retry ({retry.kind}) of turn {retry.source_turn_id or '?'}"
                    + (f", source committed: {retry.source_committed}" if retry.source_committed is not None else ""))
        if retry.runtime_ids:
            self.add(2, "re-ran: " + ", ".join(retry.runtime_ids))
        if retry.source_failed_runtime_ids:
            self.add(2, "failed in source: " + ", ".join(retry.source_failed_runtime_ids))
        if retry.seeded:
            self.add(2, "seeded: " + ", ".join(f"{s.runtime_id} (from {s.from_turn_id[:8]})" for s in retry.seeded))

    def _groups(self, groups: list[ParallelGroup], runtimes: list[Runtime]) -> None:
        grouped = {id(r) for g in groups for r in g.runtimes}
        for group in groups:
            parallel = f", {len(group.runtimes)} in parallel" if len(group.runtimes) > 1 else ""
            self.add(1, f"group {group.index}  {_fmt_offset(group.start_ms)} → {_fmt_offset(group.end_ms)}{parallel}")
            for runtime in group.runtimes:
                self._runtime(runtime, 2)
        rest = [r for r in runtimes if id(r) not in grouped]
        if rest:
            self.add(1, "no times recorded (turn_results only)")
            for runtime in rest:
                self._runtime(runtime, 2)

    def _runtime(self, r: Runtime, depth: int) -> None:
        head = f"{r.runtime_id or '(no runtime id)'}"
        if r.plugin_id:
            head += f" [{r.plugin_id}]"
        head += f"  {r.status or '?'}"
        if r.start_ms is not None:
            head += f"  {_fmt_offset(r.start_ms)} → {_fmt_offset(r.end_ms)}"
        if r.duration_ms is not None:
            head += f"  {_fmt_ms(r.duration_ms)}"
        self.add(depth, head)
        if r.error:
            self.add(depth + 1, f"error: {_short(r.error, 160)}")
        if r.reason:
            self.add(depth + 1, f"reason: {_short(r.reason, 160)}")
        items: list[tuple[int, str, Any]] = []
        positions = {e.event_id: e.index for e in r.events}
        for c in r.calls:
            items.append((positions.get(c.event_id, 0), "call", c))
        for tool in r.tools:
            anchor = tool.calling_event_id or tool.end_event_id
            items.append((positions.get(anchor, 1 << 30) if anchor else 1 << 30, "tool", tool))
        for p in r.pruned:
            items.append((positions.get(p.event_id, 0), "pruned", p))
        for c in r.compacted:
            items.append((positions.get(c.event_id, 0), "compacted", c))
        for h in r.hooks:
            items.append((positions.get(h.event_id, 0), "hook", h))
        for f in r.proposal_failures:
            items.append((positions.get(f.event_id, 0), "proposal", f))
        for ev in r.events:
            if not ev.known or ev.kind == "other":
                items.append((ev.index, "event", ev))
        items.sort(key=lambda item: item[0])
        for _pos, kind, item in items:
            getattr(self, f"_{kind}")(item, depth + 1)
        for s in r.suspensions:
            self.add(depth + 1, f"suspended ({s.suspension_id}): {s.reason or 'no reason'}")

    def _call(self, c: ModelCall, depth: int) -> None:
        usage = c.usage
        parts = [f"call {c.event_id}", f"step {c.step} attempt {c.attempt}",
                 f"{c.model or '?'} via {c.provider or '?'}", _fmt_offset(c.start_ms)]
        if c.queue_wait_ms is not None:
            parts.append(f"queue {_fmt_ms(c.queue_wait_ms)}")
        if c.duration_ms is not None:
            parts.append(_fmt_ms(c.duration_ms))
        if usage is not None:
            tokens = f"in {usage.input_tokens if usage.input_tokens is not None else '?'}"
            if usage.cached_input_tokens is not None:
                tokens += f" (cached {usage.cached_input_tokens})"
            tokens += f" out {usage.output_tokens if usage.output_tokens is not None else '?'}"
            parts.append(tokens)
        parts.append(c.finish_reason or ("no response" if not c.answered else "?"))
        self.add(depth, "  ".join(parts))
        if len(c.transport) > 1 or any(a.retry_reason or a.failed for a in c.transport):
            for a in c.transport:
                state = "failed" if a.failed else (str(a.status_code) if a.status_code is not None else "?")
                reason = f" retry: {a.retry_reason}" if a.retry_reason else ""
                self.add(depth + 1, f"http attempt {a.index}: {state} {_fmt_ms(a.duration_ms)}{reason}")
        if c.error:
            self.add(depth + 1, f"error: {_short(c.error, 160)}")

    def _tool(self, tool: ToolUse, depth: int) -> None:
        head = f"tool {tool.name or '?'}  {tool.status}"
        if tool.step is not None:
            head += f"  (step {tool.step})"
        if tool.duration_ms is not None:
            head += f"  {_fmt_ms(tool.duration_ms)}"
        if tool.approval_status:
            head += f"  {tool.approval_status}"
        self.add(depth, head)
        if tool.input is not None:
            self.add(depth + 1, f"input: {_short(tool.input)}")
        if tool.output is not None:
            self.add(depth + 1, f"output: {_short(tool.output)}")
        if tool.error is not None:
            self.add(depth + 1, f"error: {_short(tool.error)}")

    def _pruned(self, p: Pruning, depth: int) -> None:
        extra = []
        if p.truncated_tool_results:
            extra.append(f"{p.truncated_tool_results} tool results truncated")
        if p.truncated_summaries:
            extra.append(f"{p.truncated_summaries} summaries truncated")
        self.add(depth, f"context.pruned: {p.pruned_messages if p.pruned_messages is not None else '?'} messages"
                        + (f", {', '.join(extra)}" if extra else "")
                        + (f" before call {p.call_event_id}" if p.call_event_id else ""))

    def _compacted(self, c: Compaction, depth: int) -> None:
        self.add(depth, f"context.compacted: {c.messages_compacted if c.messages_compacted is not None else '?'} "
                        f"messages → summary {c.summary_id or '?'}, saved {c.token_savings or 0} tokens"
                        + (f", merged {c.summaries_merged}" if c.summaries_merged else "")
                        + (f" (before call {c.call_event_id})" if c.call_event_id else ""))

    def _hook(self, h: HookEvent, depth: int) -> None:
        self.add(depth, f"hook {h.action} {h.hook or '?'}")

    def _proposal(self, f: ProposalFailure, depth: int) -> None:
        self.add(depth, f"proposal failed {f.proposal_type or '?'} {f.proposal_id or ''}: {_short(f.error, 120)}")

    def _event(self, ev: TurnEvent, depth: int) -> None:
        self.add(depth, f"{'?' if not ev.known else '·'} {ev.label}")

    def _committed(self) -> None:
        c = self.turn.committed
        if not (c.player or c.story or c.runtime_messages or c.outputs):
            return
        self.add(0, "committed")
        for m in c.player:
            self.add(1, f"player: {_short(m.content, 120)}")
        for m in c.story:
            self.add(1, f"story ({m.source_runtime_id}): {_short(m.content, 120)}")
        for m in c.runtime_messages:
            self.add(1, f"{m.source_runtime_id or m.source_type}: {_short(m.content, 120)}")
        for o in c.outputs:
            detail = _short(o.output, 100) if o.output is not None else (_short(o.error, 100) if o.error else "")
            self.add(1, f"output {o.runtime_id} {o.status or '?'}: {detail}".rstrip(": "))


# --- history as one call saw it -----------------------------------------------------------------

@dataclass(slots=True)
class HistoryRow:
    """A committed journal row and what became of it in one request.

    ``state``: ``sent`` (found in the request at ``request_index``), ``current`` (the request's
    current player message: a retry re-sends its source turn's), ``compacted`` (replaced by
    summary ``summary_id`` before the call), ``outside-window`` (older than the oldest row the
    runtime kept: a ``maxTurns`` window), ``pruned`` (older than the oldest kept row and the
    request was budget-pruned), ``not-sent`` (newer than the window but absent: the runtime's
    history filter left it out).
    """

    message: TurnMessage
    state: str
    request_index: int | None
    summary_id: str | None


@dataclass(slots=True)
class SummaryUse:
    summary: SessionSummary
    sent: bool
    request_index: int | None
    replaces: list[str]


@dataclass(slots=True)
class HistoryWindow:
    """The span of history a windowed runtime kept: from ``first_message_id`` on."""

    first_message_id: str
    first_turn_id: str
    turn_ids: list[str]
    user_messages: int
    dropped: int


@dataclass(slots=True)
class CallHistory:
    session_id: str
    turn_id: str
    event_id: str
    runtime_id: str | None
    at: str
    rows: list[HistoryRow]
    summaries: list[SummaryUse]
    window: HistoryWindow | None
    pruned_marker: bool
    pruning: list[Pruning]
    request_messages: int
    history_end: int
    unmatched_envelopes: int
    notes: list[str]

    def rows_in(self, state: str) -> list[HistoryRow]:
        return [row for row in self.rows if row.state == state]

    def to_json(self) -> dict[str, Any]:
        return {
            "eventId": self.event_id,
            "turnId": self.turn_id,
            "runtimeId": self.runtime_id,
            "at": self.at,
            "rows": [{"messageId": r.message.id, "turnId": r.message.turn_id, "role": r.message.role,
                      "state": r.state, "requestIndex": r.request_index, "summaryId": r.summary_id}
                     for r in self.rows],
            "summaries": [{"summaryId": s.summary.id, "sent": s.sent, "requestIndex": s.request_index,
                           "replaces": s.replaces} for s in self.summaries],
            "window": None if self.window is None else {
                "firstMessageId": self.window.first_message_id, "firstTurnId": self.window.first_turn_id,
                "turnIds": self.window.turn_ids, "userMessages": self.window.user_messages,
                "dropped": self.window.dropped},
            "prunedMarker": self.pruned_marker,
            "unmatchedEnvelopes": self.unmatched_envelopes,
        }

    def to_text(self) -> str:
        lines = [f"history of call {self.event_id} ({self.runtime_id or '?'}) at {self.at}"]
        counts: dict[str, int] = {}
        for row in self.rows:
            counts[row.state] = counts.get(row.state, 0) + 1
        lines.append("  " + ", ".join(f"{n} {state}" for state, n in counts.items()))
        if self.window is not None:
            w = self.window
            lines.append(f"  window: {len(w.turn_ids)} turns ({w.user_messages} player messages) from "
                         f"turn {w.first_turn_id}, {w.dropped} older rows left out")
        for s in self.summaries:
            lines.append(f"  summary {s.summary.id}: {'sent' if s.sent else 'not sent'}, replaces "
                         f"{len(s.replaces)} rows")
        for row in self.rows:
            m = row.message
            where = f"#{row.request_index}" if row.request_index is not None else ""
            via = f" by {row.summary_id}" if row.summary_id else ""
            lines.append(f"  {row.state:<14} {where:<5} {m.turn_id[:8]} {m.role or '?':<9} "
                         f"{_short(m.content, 60)}{via}")
        lines.extend(f"  note: {n}" for n in self.notes)
        return "\n".join(lines) + "\n"


def _is_envelope(text: str) -> bool:
    stripped = text.lstrip()
    return stripped.startswith(markers.COMPACTED_HISTORY_OPEN) or stripped.startswith(markers.LEGACY_COMPACTED_PREFIX)


def _is_pruned_marker(text: str) -> bool:
    stripped = text.strip()
    return (stripped == markers.PRUNED_MARKER_EN or stripped.startswith(markers.PRUNED_MARKER_ZH_PREFIX)
            or _LEGACY_PRUNED.match(stripped) is not None)


def turn_history(store: Store, session_id: str, turn_id: str, event_id: str) -> CallHistory:
    """Which committed journal rows and summaries entered the request of ``llm.calling``
    ``event_id``, found by matching the request's kernel messages against the journal as it stood
    when the call started. Raises :class:`TurnNotFoundError` when the event is not a model call of
    that turn."""
    ev = store.event(event_id)
    if ev is None or ev.type != "llm.calling" or ev.turn_id != turn_id or ev.session_id != session_id:
        raise TurnNotFoundError(f"{event_id!r} is not an llm.calling event of turn {turn_id!r}")
    payload = ev.payload
    at = _str(payload.get("startedAt")) or ev.created_at
    runtime_id = ev.runtime_id
    notes: list[str] = []
    raw_messages = payload.get("messages")
    messages = raw_messages if isinstance(raw_messages, list) else []
    if not isinstance(raw_messages, list):
        notes.append("the call recorded no kernel messages: nothing can be matched")
    texts = [_message_text(m) for m in messages]
    stripped = [t.strip() for t in texts]
    roles = [m.get("role") if isinstance(m, dict) else None for m in messages]

    journal = store.turn_messages(session_id)
    all_summaries = store.session_summaries(session_id)
    known_summaries = {s.id: s for s in all_summaries}
    candidates = [m for m in journal
                  if m.turn_id != turn_id and m.created_at is not None and _not_after(m.created_at, at)]

    # History ends where the current player message stands, and that text may repeat an older
    # message, so matching stays in front of it. A retry re-sends its source turn's message.
    current_rows = [m for m in journal if m.turn_id == turn_id and m.source_type == "player"]
    if not current_rows:
        results = store.turn_results(session_id, [turn_id])
        scope = results[-1].retry_scope if results else None
        source = _str(payload.get("sourceTurnId")) or (_str(scope.get("sourceTurnId")) if scope else None)
        if source:
            current_rows = [m for m in candidates if m.turn_id == source and m.source_type == "player"]
    history_end = len(messages)
    current_id = None
    if current_rows and current_rows[-1].content is not None:
        text = current_rows[-1].content.strip()
        for i in range(len(messages) - 1, -1, -1):
            if roles[i] == "user" and stripped[i] == text:
                history_end = i
                current_id = current_rows[-1].id
                break

    # Which rows were compacted when the call started. Compaction always takes the oldest
    # uncompacted rows, so the compacted rows form a prefix of the journal; counting back from
    # today's prefix by the rows each later context.compacted took gives the prefix at the call.
    # (compacted_by alone cannot say: a merge re-points rows to the oldest summary and keeps its
    # creation time.) Counting back also survives the retention sweep, which deletes the oldest
    # trace rows first.
    compacted_now = [m for m in journal if m.compacted_by]
    later = 0
    for compaction in store.events(session_id, types=("context.compacted",)):
        if not _not_after(compaction.created_at, at):
            later += _int(compaction.payload.get("messagesCompacted")) or 0
    compacted_then = {m.id for m in compacted_now[:max(0, len(compacted_now) - later)]}

    def replaced_before_call(m: TurnMessage) -> bool:
        if m.id not in compacted_then:
            return False
        summary = known_summaries.get(m.compacted_by or "")
        return summary is None or _not_after(summary.created_at, at)

    # Walk backwards: the newest rows sit right before the current message, so a repeated text
    # binds to its nearest occurrence. Compacted rows are matched too: a merge re-points rows to
    # the oldest summary's id and keeps its creation time, so compacted_by cannot tell when a row
    # was compacted; the request itself can.
    found: dict[str, int] = {}
    j = history_end - 1
    for m in reversed(candidates):
        if m.id == current_id:
            continue
        content = (m.content or "").strip()
        k = j
        while k >= 0 and not (roles[k] == m.role and stripped[k] == content):
            k -= 1
        if k >= 0:
            found[m.id] = k
            j = k - 1

    pruned_marker = any(roles[i] == "system" and _is_pruned_marker(texts[i]) for i in range(history_end))
    pruning: list[Pruning] = []
    for other in store.events(session_id, turn_id, ("context.pruned", "llm.calling")):
        if other.id == event_id:
            break
        if other.runtime_id != runtime_id:
            continue
        if other.type == "llm.calling":
            # Pruning before an earlier call of this runtime belongs to that call.
            pruning.clear()
        else:
            pruning.append(Pruning(
                event_id=other.id, created_at=other.created_at, runtime_id=runtime_id, call_event_id=event_id,
                pruned_messages=_int(other.payload.get("prunedMessageCount")),
                truncated_tool_results=_int(other.payload.get("truncatedToolResultCount")),
                truncated_summaries=_int(other.payload.get("truncatedSummaryCount"))))
    pruned = pruned_marker or any((p.pruned_messages or 0) > 0 for p in pruning)

    first_sent = next((i for i, m in enumerate(candidates) if m.id in found), None)
    rows: list[HistoryRow] = []
    for i, m in enumerate(candidates):
        if m.id == current_id:
            rows.append(HistoryRow(m, "current", history_end, None))
        elif m.id in found:
            rows.append(HistoryRow(m, "sent", found[m.id], None))
        elif replaced_before_call(m):
            rows.append(HistoryRow(m, "compacted", None, m.compacted_by))
        elif first_sent is not None and i < first_sent:
            rows.append(HistoryRow(m, "pruned" if pruned else "outside-window", None, None))
        else:
            rows.append(HistoryRow(m, "not-sent", None, None))

    window = None
    dropped = sum(1 for r in rows if r.state == "outside-window")
    if dropped and first_sent is not None:
        sent_rows = [r.message for r in rows if r.state == "sent"]
        window = HistoryWindow(
            first_message_id=candidates[first_sent].id, first_turn_id=candidates[first_sent].turn_id,
            turn_ids=list(dict.fromkeys(m.turn_id for m in sent_rows)),
            user_messages=sum(1 for m in sent_rows if m.role == "user"), dropped=dropped)

    envelopes = [i for i in range(history_end) if roles[i] == "user" and _is_envelope(texts[i])]
    matched: set[int] = set()
    uses: list[SummaryUse] = []
    for summary in all_summaries:
        if not _not_after(summary.created_at, at):
            continue
        content = (summary.content or "").strip()
        index = next((i for i in envelopes if content and content in texts[i]), None)
        if index is not None:
            matched.add(index)
        replaces = [m.id for m in journal if m.compacted_by == summary.id]
        uses.append(SummaryUse(summary=summary, sent=index is not None, request_index=index, replaces=replaces))
    unmatched = len(envelopes) - len(matched)
    if unmatched:
        notes.append(f"{unmatched} <compacted_history> envelopes match no stored summary text "
                     "(rewritten by a later merge, or deleted)")
    return CallHistory(session_id=session_id, turn_id=turn_id, event_id=event_id, runtime_id=runtime_id, at=at,
                       rows=rows, summaries=uses, window=window, pruned_marker=pruned_marker, pruning=pruning,
                       request_messages=len(messages), history_end=history_end, unmatched_envelopes=unmatched,
                       notes=notes)


def iter_history(store: Store, turn: Turn) -> Iterable[CallHistory]:
    """:func:`turn_history` of every model call of ``turn``, in execution order."""
    for runtime in turn.runtimes():
        for call in runtime.calls:
            yield turn_history(store, turn.session_id, turn.turn_id, call.event_id)
