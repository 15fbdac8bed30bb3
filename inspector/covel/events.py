"""Covel's trace event types (covel-db.md §2.1, covel-assembly.md §7.2) and which of them move a
runtime or a turn through its lifecycle: the one place a reader learns what a ``type`` means.

Types are plain strings as Covel writes them; a type not listed is kept as stored by the readers
("unknown"), never dropped.
"""

from __future__ import annotations

__all__ = [
    "EXECUTION_COMPLETED",
    "EXECUTION_STARTED",
    "KNOWN_TYPES",
    "LLM_CALLING",
    "LLM_PAIRING_TYPES",
    "LLM_RESPONDED",
    "RUNTIME_COMPLETED",
    "RUNTIME_DEFERRED",
    "RUNTIME_FAILED",
    "RUNTIME_LIFECYCLE_TYPES",
    "RUNTIME_SKIPPED",
    "RUNTIME_STARTED",
    "TURN_COMPLETED",
    "TURN_END_TYPES",
    "TURN_FAILED",
    "TURN_LIFECYCLE_TYPES",
    "TURN_STARTED",
]

LLM_CALLING = "llm.calling"
LLM_RESPONDED = "llm.responded"

RUNTIME_STARTED = "runtime.started"
RUNTIME_COMPLETED = "runtime.completed"
RUNTIME_FAILED = "runtime.failed"
RUNTIME_SKIPPED = "runtime.skipped"
RUNTIME_DEFERRED = "runtime.deferred"

# The trace recorder's rows for one execution (covel-db.md §2.1).
TURN_STARTED = "turn.started"
TURN_COMPLETED = "turn.completed"
TURN_FAILED = "turn.failed"
# The SSE-level pair some Covel versions also write (covel-assembly.md §7.2).
EXECUTION_STARTED = "execution.started"
EXECUTION_COMPLETED = "execution.completed"

# Rows whose small payload names one runtime and moves it through its lifecycle
# (started → completed / failed / skipped / deferred).
RUNTIME_LIFECYCLE_TYPES = (RUNTIME_STARTED, RUNTIME_COMPLETED, RUNTIME_FAILED, RUNTIME_SKIPPED, RUNTIME_DEFERRED)

# Rows that say an execution ended; the store takes a turn's end time from the last of them.
TURN_END_TYPES = (TURN_COMPLETED, TURN_FAILED)

# Rows about the execution as a whole (start, end, the SSE pair).
TURN_LIFECYCLE_TYPES = frozenset({TURN_STARTED, TURN_COMPLETED, TURN_FAILED, EXECUTION_STARTED,
                                  EXECUTION_COMPLETED})

# What pairing model requests with their responses reads (store.calls.pair_llm_calls): the
# calls, the responses, and the runtime.started rows that give each call its stage.
LLM_PAIRING_TYPES = (LLM_CALLING, LLM_RESPONDED, RUNTIME_STARTED)

# Every type covel-db.md §2.1 and covel-assembly.md §7.2 list.
KNOWN_TYPES = frozenset({
    *TURN_LIFECYCLE_TYPES, "turn.suspended", "turn.resumed",
    *RUNTIME_LIFECYCLE_TYPES, "runtime.progress",
    LLM_CALLING, LLM_RESPONDED, "tool.calling", "tool.completed", "tool.failed",
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
