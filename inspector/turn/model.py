"""One turn (execution) stepped through: the records of the turn model.

A :class:`Turn` holds its stages, parallel groups, runtimes, model calls, tool loops and what it
committed; :func:`inspector.turn.builder.build_turn` makes one from the trace rows of one
``turn_id`` plus the ``turn_results``, ``tool_calls``, ``suspensions`` and ``turn_messages`` rows
of the same execution (covel-assembly.md §7, covel-db.md §1.3–1.8, §2). Headless: the CLI prints
it (:mod:`inspector.turn.outline`) and the Qt timeline draws it.

Numbering: ``step``, ``attempt`` and a transport attempt's ``index`` are 0-based, as Covel records
them, here and in ``turn --json``; every text a person reads adds one ("step 1 · attempt 1").
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from inspector.covel.events import RUNTIME_LIFECYCLE_TYPES
from inspector.covel.outcome import finish_reason_failed
from inspector.json_guards import nonempty_str_or_none, number_or_none
from inspector.store import (
    LlmCall,
    SuspensionRecord,
    TokenUsage,
    TraceEvent,
    TurnMessage,
    TurnResult,
)

from .texts import error_text
from .times import epoch_ms

__all__ = [
    "STAGE_ORDER",
    "SUCCESS_STATUSES",
    "Committed",
    "Compaction",
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
    "Suspension",
    "ToolUse",
    "TransportAttempt",
    "Turn",
    "TurnEvent",
    "TurnNotFoundError",
]

# Execution order of the stages of a playing session (setup runs alone, in the setup phase).
STAGE_ORDER = ("setup", "pre-turn", "narrative", "post-turn", "audit")

# Runtime statuses that mean it ran to success: runtime.completed's own status, or "completed"
# when it wrote none (see RuntimeLifecycle).
SUCCESS_STATUSES = ("success", "completed")


class TurnNotFoundError(LookupError):
    """No trace row and no result row names the execution (or the event is not a model call)."""



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
        if etype not in RUNTIME_LIFECYCLE_TYPES:
            return False
        payload = ev.payload
        if etype == "runtime.started":
            if self.stage is None:
                self.stage = nonempty_str_or_none(payload.get("stage"))
            if self.started_at is None:
                self.started_at = ev.created_at
                self.started_event_id = ev.id
            if self.status is None:
                self.status = "started"
            return True
        if etype == "runtime.completed":
            self.status = nonempty_str_or_none(payload.get("status")) or "completed"
            error = error_text(payload.get("error"))
            if error is not None:
                self.error = error
        elif etype == "runtime.failed":
            self.status = "failed"
            self.error = error_text(payload.get("error"))
        elif etype == "runtime.skipped":
            self.status = "skipped"
            self.reason = nonempty_str_or_none(payload.get("reason")) or error_text(payload.get("error"))
        else:
            self.status = "deferred"
            self.reason = nonempty_str_or_none(payload.get("reason"))
        if self.stage is None:
            # runtime.skipped rows carry the stage too; a skip before any start still has a lane.
            self.stage = nonempty_str_or_none(payload.get("stage"))
        duration = number_or_none(payload.get("durationMs"))
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

    @property
    def failed(self) -> bool:
        """The request failed, by the one rule (:func:`inspector.covel.outcome.finish_reason_failed`)."""
        return finish_reason_failed(self.finish_reason)

    def to_json(self) -> dict[str, Any]:
        """The call in ``turn --json``: ``step`` and ``attempt`` as Covel recorded them (0-based)."""
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
    def succeeded(self) -> bool:
        return self.status in SUCCESS_STATUSES

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
        at = epoch_ms(moment)
        if at is None or self.start_ms is None:
            return None
        return at - self.start_ms

    # -- output --------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The ``turn --json`` contract. Positions are the recorded ones: a call's ``step`` and
        ``attempt`` count from 0 (the text outline shows them from 1); ``group`` counts from 1."""
        return {
            "turnId": self.turn_id,
            "origin": self.origin,
            "commitStatus": self.commit_status,
            "stages": [s.to_json() for s in self.stages],
            "unstaged": [r.to_json() for r in self.unstaged],
        }
