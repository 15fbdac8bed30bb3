"""Building a :class:`~inspector.turn.model.Turn` from the rows of one execution.

Covel writes no stage or DAG-level event, so both are derived the way the spec describes:
``runtime.started.stage`` names a runtime's stage (none = an event/manual runtime, which runs
after all stages), and runtimes of one stage whose intervals overlap ran in the same DAG level.
Event types the model does not interpret are kept in :attr:`Turn.events` as they are.
"""

from __future__ import annotations

from typing import Any

from inspector import wording
from inspector.covel.events import (
    KNOWN_TYPES,
    RUNTIME_LIFECYCLE_TYPES,
    TURN_LIFECYCLE_TYPES,
)
from inspector.json_guards import (
    int_accepting_integral_float,
    nonempty_str_or_none,
    number_or_none,
)
from inspector.store import (
    LlmCall,
    Store,
    SuspensionRecord,
    ToolCallRecord,
    TraceEvent,
    TurnResult,
    pair_llm_calls,
)

from .grouping import stages_of
from .labels import event_label
from .model import (
    Committed,
    Compaction,
    HookEvent,
    ModelCall,
    ProposalFailure,
    Pruning,
    Retry,
    Runtime,
    RuntimeLifecycle,
    RuntimeOutput,
    SeededResult,
    Suspension,
    ToolUse,
    TransportAttempt,
    Turn,
    TurnEvent,
    TurnNotFoundError,
)
from .retry import find_retry
from .texts import error_text
from .times import earlier_of, epoch_ms, later_of, offset_ms

__all__ = ["build_turn"]

_KIND_BY_TYPE = {
    "llm.calling": "call", "llm.responded": "response",
    "tool.calling": "tool", "tool.completed": "tool", "tool.failed": "tool",
    "context.pruned": "pruned", "context.compacted": "compacted",
    "hook.fired": "hook", "hook.rewrote": "hook", "hook.aborted": "hook",
    "proposal.failed": "proposal", "turn.suspended": "suspension", "turn.resumed": "suspension",
    "message.completed": "message",
}


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
        self.first_at = earlier_of(self.first_at, moment)
        self.last_at = later_of(self.last_at, moment)


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
        start_ms = epoch_ms(self.start)

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

            if etype in TURN_LIFECYCLE_TYPES:
                self._turn_row(ev, turn_info)
            elif etype in ("turn.suspended", "turn.resumed"):
                sid = nonempty_str_or_none(payload.get("suspensionId"))
                target, target_id = "suspension", sid
                if etype == "turn.suspended":
                    suspended_events[sid] = ev
                else:
                    resumed_events.append(ev)
            elif etype in RUNTIME_LIFECYCLE_TYPES or rid is not None:
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
                        self.notes.append(wording.UNMATCHED_RESPONSE.format(id=ev.id))
                elif etype in ("tool.calling", "tool.completed", "tool.failed"):
                    tool = self._tool_row(ev, runtime, tools_by_key, open_tools, start_ms)
                    target, target_id = "tool", tool.key
                elif etype == "context.pruned":
                    pruning = Pruning(
                        event_id=ev.id, created_at=ev.created_at, runtime_id=rid, call_event_id=None,
                        pruned_messages=int_accepting_integral_float(payload.get("prunedMessageCount")),
                        truncated_tool_results=int_accepting_integral_float(payload.get("truncatedToolResultCount")),
                        truncated_summaries=int_accepting_integral_float(payload.get("truncatedSummaryCount")))
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
                seq=ev.seq, offset_ms=offset_ms(ev.created_at, start_ms), runtime_id=rid if acc else None,
                stage=None, target=target, target_id=target_id, label="", event=ev)
            self.events.append(turn_event)
            if acc is not None:
                acc.runtime.events.append(turn_event)

        self._link_pending(pending_links, calls_of_runtime_in_order)
        self._merge_tool_rows(tools_by_key, start_ms)
        self._link_tools_to_calls()

        retry = find_retry(self.store, self.session_id, self.turn_id, self.result, turn_info["recovery"],
                           scope_from_trace)
        seeded_ids = {s.runtime_id for s in retry.seeded} if retry else set()
        self._apply_results(retry, seeded_ids)
        suspensions, resumes = self._suspensions(suspended_events, resumed_events)
        self._finish_runtimes(start_ms)
        stages, unstaged, unstaged_groups = stages_of([acc.runtime for acc in self.accs.values()], start_ms)

        for turn_event in self.events:
            if turn_event.target in ("turn", "suspension"):
                self.turn_events.append(turn_event)
            else:
                owner = self.accs.get(turn_event.runtime_id)
                turn_event.stage = owner.runtime.stage if owner is not None else None
            turn_event.label = event_label(turn_event)

        end = turn_info["end"] or (raw[-1].created_at if raw else None)
        result = self.result
        duration = number_or_none(result.duration_ms) if result and result.duration_ms is not None else turn_info["duration"]
        if duration is None and self.start and end:
            a, b = epoch_ms(self.start), epoch_ms(end)
            duration = (b - a) if a is not None and b is not None else None
        commit_status, commit_source = None, None
        if result is not None and result.commit_status:
            commit_status, commit_source = result.commit_status, "turn_results"
        elif turn_info["committed"] is not None:
            commit_status = "committed" if turn_info["committed"] else "uncommitted"
            commit_source = "trace"
        origin = (result.origin or "player") if result is not None else None
        if result is not None and result.runtime_results_error:
            self.notes.append(wording.RUNTIME_RESULTS_UNREADABLE.format(error=result.runtime_results_error))

        turn = Turn(
            session_id=self.session_id, turn_id=self.turn_id,
            trace_id=raw[0].trace_id if raw else None, origin=origin, commit_status=commit_status,
            commit_source=commit_source, parent_turn_id=result.parent_turn_id if result else None,
            started_at=self.start, ended_at=end, start_ms=start_ms, end_ms=epoch_ms(end), duration_ms=duration,
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
        if etype in TURN_LIFECYCLE_TYPES:
            return "turn"
        if etype.startswith("runtime."):
            return "runtime"
        return _KIND_BY_TYPE.get(etype, "other")

    def _turn_row(self, ev: TraceEvent, info: dict[str, Any]) -> None:
        payload = ev.payload
        etype = ev.type
        if etype in ("turn.started", "execution.started"):
            count = int_accepting_integral_float(payload.get("runtimeCount"))
            if count is not None and info["runtime_count"] is None:
                info["runtime_count"] = count
            action = payload.get("recoveryAction")
            if isinstance(action, dict) and info["recovery"] is None:
                info["recovery"] = action
            return
        info["end"] = later_of(info["end"], ev.created_at)
        if isinstance(payload.get("committed"), bool):
            info["committed"] = payload["committed"]
        duration = number_or_none(payload.get("durationMs"))
        if duration is not None:
            info["duration"] = duration
        abort = nonempty_str_or_none(payload.get("abortReason"))
        if abort is not None:
            info["abort"] = abort
        if etype == "turn.failed":
            info["error"] = error_text(payload.get("error")) or info["error"]

    def _model_call(self, call: LlmCall, start_ms: float | None) -> ModelCall:
        payload = call.calling.payload
        response = call.response.payload if call.response is not None else {}
        transport: list[TransportAttempt] = []
        protocol = None
        for i, request in enumerate(call.provider_requests):
            if not isinstance(request, dict):
                continue
            if protocol is None:
                protocol = nonempty_str_or_none(request.get("protocol"))
            index = int_accepting_integral_float(request.get("transportAttempt"))
            transport.append(TransportAttempt(
                index=index if index is not None else i, started_at=nonempty_str_or_none(request.get("startedAt")),
                duration_ms=number_or_none(request.get("durationMs")), status_code=int_accepting_integral_float(request.get("statusCode")),
                failed=request.get("failed") is True, retry_reason=nonempty_str_or_none(request.get("transportRetryReason")),
                provider=nonempty_str_or_none(request.get("provider")), protocol=nonempty_str_or_none(request.get("protocol"))))
        requested = []
        tool_calls = response.get("toolCalls")
        if isinstance(tool_calls, list):
            requested = [tc["name"] for tc in tool_calls
                         if isinstance(tc, dict) and isinstance(tc.get("name"), str)]
        ended = call.response.created_at if call.response is not None else None
        duration = number_or_none(response.get("durationMs"))
        if duration is None and ended is not None:
            a, b = epoch_ms(call.started_at), epoch_ms(ended)
            duration = b - a if a is not None and b is not None else None
        finish = nonempty_str_or_none(response.get("finishReason"))
        return ModelCall(
            event_id=call.id, response_event_id=call.response.id if call.response is not None else None,
            runtime_id=call.runtime_id, plugin_id=call.plugin_id, step=call.step, attempt=call.attempt,
            model=call.model, provider=call.provider or (transport[0].provider if transport else None),
            slot=nonempty_str_or_none(payload.get("slot")), protocol=protocol, started_at=call.started_at, ended_at=ended,
            start_ms=offset_ms(call.started_at, start_ms), end_ms=offset_ms(ended, start_ms),
            queue_wait_ms=number_or_none(payload.get("queueWaitMs")), duration_ms=duration, finish_reason=finish,
            error=error_text(response.get("error")), usage=call.usage,
            streaming=payload.get("streaming") is True, transport=transport, requested_tools=requested,
            call=call)

    def _tool_row(self, ev: TraceEvent, runtime: Runtime, by_key: dict[str, ToolUse],
                  open_tools: dict[tuple[str | None, str], list[ToolUse]], start_ms: float | None) -> ToolUse:
        payload = ev.payload
        name = nonempty_str_or_none(payload.get("toolName")) or nonempty_str_or_none(payload.get("name"))
        call_id = nonempty_str_or_none(payload.get("toolCallId"))
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
            tool.start_ms = offset_ms(ev.created_at, start_ms)
            tool.input = payload.get("input")
        else:
            tool.status = "completed" if ev.type == "tool.completed" else "failed"
            tool.end_event_id = ev.id
            tool.ended_at = ev.created_at
            tool.end_ms = offset_ms(ev.created_at, start_ms)
            duration = number_or_none(payload.get("durationMs"))
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
                tool.duration_ms = number_or_none(row.duration_ms)  # a damaged row may hold text

    def _tool_from_row(self, row: ToolCallRecord, by_key: dict[str, ToolUse], start_ms: float | None) -> ToolUse:
        acc = self._acc(row.runtime_id, row.plugin_id)
        acc.touch(row.created_at)
        tool = ToolUse(
            key=row.id, name=row.tool_name, status="completed", tool_call_id=None, runtime_id=row.runtime_id,
            plugin_id=row.plugin_id, call_event_id=None, step=None, started_at=None, ended_at=row.created_at,
            start_ms=None, end_ms=offset_ms(row.created_at, start_ms), duration_ms=None, input=None,
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
            hook = nonempty_str_or_none(payload.get(key))
            if hook:
                break
        return HookEvent(event_id=ev.id, created_at=ev.created_at, action=ev.type.split(".", 1)[1], hook=hook,
                         runtime_id=ev.runtime_id, plugin_id=ev.plugin_id, detail=payload)

    def _proposal(self, ev: TraceEvent) -> ProposalFailure:
        payload = ev.payload
        return ProposalFailure(event_id=ev.id, created_at=ev.created_at, runtime_id=ev.runtime_id,
                               plugin_id=ev.plugin_id, proposal_id=nonempty_str_or_none(payload.get("proposalId")),
                               proposal_type=nonempty_str_or_none(payload.get("proposalType")),
                               error=error_text(payload.get("error")))

    @staticmethod
    def _compaction(ev: TraceEvent, runtime_id: str | None) -> Compaction:
        payload = ev.payload
        ids = payload.get("summaryIds")
        focus = payload.get("focusSections")
        truncated = payload.get("summaryTruncated")
        return Compaction(
            event_id=ev.id, created_at=ev.created_at, runtime_id=runtime_id, call_event_id=None,
            summary_id=nonempty_str_or_none(payload.get("summaryId")),
            summary_ids=[i for i in ids if isinstance(i, str)] if isinstance(ids, list) else [],
            messages_compacted=int_accepting_integral_float(payload.get("messagesCompacted")),
            token_savings=int_accepting_integral_float(payload.get("tokenSavings")),
            focus_sections=[f for f in focus if isinstance(f, str)] if isinstance(focus, list) else [],
            summaries_merged=int_accepting_integral_float(payload.get("summariesMerged")),
            summary_tokens=int_accepting_integral_float(payload.get("summaryTokens")),
            total_summary_tokens=int_accepting_integral_float(payload.get("totalSummaryTokens")),
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
                self.notes.append(wording.COMPACTION_WITHOUT_CALL.format(id=item.event_id))
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

    def _apply_results(self, retry: Retry | None, seeded_ids: set[str | None]) -> None:
        result = self.result
        if result is None:
            return
        rerun = set(retry.runtime_ids) if retry else set()
        for entry in result.runtime_results:
            rid = nonempty_str_or_none(entry.get("runtimeId"))
            acc = self.accs.get(rid)
            if acc is None:
                if retry is not None and rerun and rid not in rerun:
                    # A runtime retry's result row may carry the seeds it reused: they did not
                    # run in this execution, so they get no bar.
                    if rid not in seeded_ids:
                        retry.seeded.append(SeededResult(
                            runtime_id=rid, plugin_id=nonempty_str_or_none(entry.get("pluginId")), stage=nonempty_str_or_none(entry.get("stage")),
                            status=nonempty_str_or_none(entry.get("status")), from_turn_id=retry.source_turn_id or self.turn_id,
                            output=entry.get("output")))
                        seeded_ids.add(rid)
                    continue
                # The trace was pruned (or never written): the result is all that is known.
                acc = self._acc(rid, nonempty_str_or_none(entry.get("pluginId")))
                acc.runtime.traced = False
            acc.runtime.result = entry

    def _suspensions(self, suspended: dict[str | None, TraceEvent],
                     resumed: list[TraceEvent]) -> tuple[list[Suspension], list[Suspension]]:
        rows = self.store.suspensions(self.session_id)
        by_id = {row.id: row for row in rows}
        resumed_by_id: dict[str | None, TraceEvent] = {}
        for ev in resumed:
            resumed_by_id.setdefault(nonempty_str_or_none(ev.payload.get("suspensionId")), ev)

        def make(row: SuspensionRecord | None, sid: str | None, ev: TraceEvent | None) -> Suspension:
            payload = ev.payload if ev is not None else {}
            resume = resumed_by_id.get(sid) if sid is not None else None
            return Suspension(
                suspension_id=sid, turn_id=row.turn_id if row else (nonempty_str_or_none(payload.get("turnId")) or self.turn_id),
                runtime_id=row.runtime_id if row else nonempty_str_or_none(payload.get("runtimeId")),
                plugin_id=row.plugin_id if row else nonempty_str_or_none(payload.get("pluginId")),
                reason=row.reason if row else nonempty_str_or_none(payload.get("reason")),
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
                suspension_id=sid, turn_id=row.turn_id if row else nonempty_str_or_none(payload.get("turnId")),
                runtime_id=row.runtime_id if row else nonempty_str_or_none(payload.get("runtimeId")),
                plugin_id=row.plugin_id if row else nonempty_str_or_none(payload.get("pluginId")),
                reason=row.reason if row else nonempty_str_or_none(payload.get("reason")),
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
            runtime.stage = life.stage or nonempty_str_or_none(entry.get("stage"))
            if life.terminal:
                runtime.status = life.status
            elif isinstance(entry.get("status"), str) and entry["status"]:
                runtime.status = entry["status"]
            elif runtime.suspensions:
                runtime.status = "suspended"
            else:
                runtime.status = life.status
            runtime.error = life.error or error_text(entry.get("error"))
            runtime.reason = life.reason or nonempty_str_or_none(entry.get("reason"))
            runtime.started_at = life.started_at or acc.first_at
            runtime.ended_at = (life.ended_at if life.terminal else None) or acc.last_at
            if runtime.ended_at is not None and runtime.started_at is not None:
                runtime.ended_at = later_of(runtime.ended_at, runtime.started_at)
            runtime.start_ms = offset_ms(runtime.started_at, start_ms)
            runtime.end_ms = offset_ms(runtime.ended_at, start_ms)
            duration = life.duration_ms if life.duration_ms is not None else number_or_none(entry.get("durationMs"))
            if duration is None and runtime.start_ms is not None and runtime.end_ms is not None and life.terminal:
                duration = runtime.end_ms - runtime.start_ms
            runtime.duration_ms = duration

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
                rid = nonempty_str_or_none(entry.get("runtimeId"))
                if rid in seeded_ids and rid not in self.accs:
                    continue
                outputs.append(RuntimeOutput(
                    runtime_id=rid, plugin_id=nonempty_str_or_none(entry.get("pluginId")), stage=nonempty_str_or_none(entry.get("stage")),
                    status=nonempty_str_or_none(entry.get("status")), output=entry.get("output"),
                    error=error_text(entry.get("error"))))
        return Committed(player=player, story=story, runtime_messages=others, outputs=outputs)
