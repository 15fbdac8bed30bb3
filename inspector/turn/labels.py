"""What a trace row is called where a person reads it (:func:`event_name`: ``llm.calling`` is a
"Model call"), and one-line descriptions of trace rows for the stepping list and the outline
(:func:`event_label`); an unknown row shows its payload. Attempts are written 1-based
(:mod:`inspector.numbering`).

The names are English, marked for the catalog (:func:`inspector.messages.marked`, context
``CommandLine``): the command line translates them with :func:`inspector.messages.translate`, the
app with its translator, so both call a row the same."""

from __future__ import annotations

from inspector.json_guards import int_accepting_integral_float, nonempty_str_or_none
from inspector.messages import marked
from inspector.numbering import shown

from .model import TurnEvent
from .texts import error_text, short

__all__ = ["EVENT_NAMES", "event_label", "event_name"]

EVENT_NAMES: dict[str, str] = {
    "turn.started": marked("Turn started"),
    "turn.completed": marked("Turn completed"),
    "turn.failed": marked("Turn failed"),
    "turn.suspended": marked("Turn suspended"),
    "turn.resumed": marked("Turn resumed"),
    "execution.started": marked("Execution started"),
    "execution.completed": marked("Execution completed"),
    "runtime.started": marked("Runtime started"),
    "runtime.progress": marked("Runtime progress"),
    "runtime.completed": marked("Runtime completed"),
    "runtime.failed": marked("Runtime failed"),
    "runtime.skipped": marked("Runtime skipped"),
    "runtime.deferred": marked("Runtime deferred"),
    "llm.calling": marked("Model call"),
    "llm.responded": marked("Model response"),
    "tool.calling": marked("Tool call"),
    "tool.completed": marked("Tool result"),
    "tool.failed": marked("Tool failed"),
    "message.completed": marked("Message written"),
    "context.pruned": marked("History pruned"),
    "context.compacted": marked("History compacted"),
    "hook.fired": marked("Hook ran"),
    "hook.rewrote": marked("Hook rewrote the request"),
    "hook.aborted": marked("Hook aborted"),
    "proposal.failed": marked("Proposal failed"),
    "block.emitted": marked("Block emitted"),
    "ui.rendered": marked("UI rendered"),
    "state.patch.applied": marked("State patch applied"),
    "domain-event.previewed": marked("Domain event previewed"),
    "gateway.calling": marked("Gateway call"),
    "gateway.responded": marked("Gateway response"),
    "gateway.failed": marked("Gateway call failed"),
    "utils.fetch.calling": marked("Fetch"),
    "utils.fetch.responded": marked("Fetch response"),
    "utils.fetch.failed": marked("Fetch failed"),
    "function.executing": marked("Function running"),
    "function.completed": marked("Function completed"),
    "recursive.calling": marked("Nested call"),
    "recursive.completed": marked("Nested call completed"),
    "recursive.failed": marked("Nested call failed"),
    "command.invoked": marked("Command invoked"),
    "command.completed": marked("Command completed"),
    "command.failed": marked("Command failed"),
    "asset.progress": marked("Asset progress"),
    "asset.generated": marked("Asset generated"),
    "job-status.updated": marked("Job status updated"),
}
"""Every known trace type (:data:`inspector.covel.events.KNOWN_TYPES`, a test keeps the two
together) → what a person calls it, in English."""


def event_name(etype: str) -> str | None:
    """What a person calls a row of type ``etype`` ("Model call" for ``llm.calling``), in English;
    None for a type the model does not know (shown as recorded)."""
    return EVENT_NAMES.get(etype)


def event_label(ev: TurnEvent) -> str:
    """A one-line description of a row for the stepping list; unknown rows show their payload."""
    payload = ev.payload
    etype = ev.type
    who = ev.runtime_id or ""
    if ev.kind == "unknown" or ev.kind == "other":
        body = ev.event.raw_text
        text = f"{etype} {who}".rstrip()
        if ev.payload_error:
            return f"{text}  ({ev.payload_error})"
        return f"{text}  {short(body, 160)}" if body else text
    if etype == "llm.calling":
        attempt = int_accepting_integral_float(payload.get("attempt")) or 0
        return f"llm.calling {who} attempt {shown(attempt)} {payload.get('model') or ''}".rstrip()
    if etype == "llm.responded":
        usage = payload.get("usage") if isinstance(payload.get("usage"), dict) else {}
        finish = payload.get("finishReason") or ""
        tokens = f" in {usage.get('inputTokens')} out {usage.get('outputTokens')}" if usage else ""
        error = f" error: {short(payload.get('error'), 80)}" if payload.get("error") else ""
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
        detail = error_text(payload.get("error")) or nonempty_str_or_none(payload.get("reason")) or ""
        return f"{etype} {who} {short(detail, 80)}".rstrip()
    if etype == "context.pruned":
        return f"context.pruned {who} {payload.get('prunedMessageCount')} messages"
    if etype == "context.compacted":
        return (f"context.compacted {who} {payload.get('messagesCompacted')} messages → summary "
                f"{payload.get('summaryId')}").replace("  ", " ")
    if etype in ("turn.suspended", "turn.resumed"):
        return f"{etype} {payload.get('suspensionId') or ''} {short(payload.get('reason'), 60)}".rstrip()
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
        return f"proposal.failed {who} {payload.get('proposalType') or ''}: {short(payload.get('error'), 60)}"
    if etype == "message.completed":
        return f"message.completed {who} {payload.get('len')} chars"
    return f"{etype} {who}".rstrip()
