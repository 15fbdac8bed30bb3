"""The ``prompt-inspector turn DB TURN`` text: a turn as an indented outline.

Steps, attempts and transport attempts are written 1-based (:mod:`inspector.numbering`), as every
text a person reads; the turn's JSON keeps Covel's 0-based fields (see :mod:`inspector.turn.model`).
"""

from __future__ import annotations

from typing import Any

from inspector.numbering import shown, step_attempt_text

from .model import (
    Compaction,
    HookEvent,
    ModelCall,
    ParallelGroup,
    ProposalFailure,
    Pruning,
    Runtime,
    ToolUse,
    Turn,
    TurnEvent,
)
from .texts import short

__all__ = ["turn_outline"]


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
            self.add(depth + 1, f"error: {short(r.error, 160)}")
        if r.reason:
            self.add(depth + 1, f"reason: {short(r.reason, 160)}")
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
        parts = [f"call {c.event_id}", step_attempt_text(c.step, c.attempt),
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
                self.add(depth + 1, f"http attempt {shown(a.index)}: {state} {_fmt_ms(a.duration_ms)}{reason}")
        if c.error:
            self.add(depth + 1, f"error: {short(c.error, 160)}")

    def _tool(self, tool: ToolUse, depth: int) -> None:
        head = f"tool {tool.name or '?'}  {tool.status}"
        if tool.step is not None:
            head += f"  (step {shown(tool.step)})"
        if tool.duration_ms is not None:
            head += f"  {_fmt_ms(tool.duration_ms)}"
        if tool.approval_status:
            head += f"  {tool.approval_status}"
        self.add(depth, head)
        if tool.input is not None:
            self.add(depth + 1, f"input: {short(tool.input)}")
        if tool.output is not None:
            self.add(depth + 1, f"output: {short(tool.output)}")
        if tool.error is not None:
            self.add(depth + 1, f"error: {short(tool.error)}")

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
        self.add(depth, f"proposal failed {f.proposal_type or '?'} {f.proposal_id or ''}: {short(f.error, 120)}")

    def _event(self, ev: TurnEvent, depth: int) -> None:
        self.add(depth, f"{'?' if not ev.known else '·'} {ev.label}")

    def _committed(self) -> None:
        c = self.turn.committed
        if not (c.player or c.story or c.runtime_messages or c.outputs):
            return
        self.add(0, "committed")
        for m in c.player:
            self.add(1, f"player: {short(m.content, 120)}")
        for m in c.story:
            self.add(1, f"story ({m.source_runtime_id}): {short(m.content, 120)}")
        for m in c.runtime_messages:
            self.add(1, f"{m.source_runtime_id or m.source_type}: {short(m.content, 120)}")
        for o in c.outputs:
            detail = short(o.output, 100) if o.output is not None else (short(o.error, 100) if o.error else "")
            self.add(1, f"output {o.runtime_id} {o.status or '?'}: {detail}".rstrip(": "))



def turn_outline(turn: Turn) -> str:
    """The outline ``prompt-inspector turn`` prints for ``turn``."""
    return _TextOutline(turn).render()
