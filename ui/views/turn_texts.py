"""The stepper's texts: tooltips of runtimes, calls and tools, what the detail pane shows for a
row, the summary panel's HTML. Formatting only: every number comes from the core (steps and
attempts shown 1-based through :mod:`inspector.numbering`)."""

from __future__ import annotations

import html
import json
from typing import TYPE_CHECKING, Any

from inspector.messages import CONTEXT as CORE_CONTEXT
from inspector.numbering import shown
from inspector.turn.labels import event_name
from inspector.turn.model import ModelCall, Runtime, ToolUse, Turn, TurnEvent

from .core_texts import core_text
from .formats import format_duration, format_number
from .part_names import stage_label, value_label

if TYPE_CHECKING:
    from inspector.turn.summary import TurnSummary


def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("TurnView", text)


def event_type_text(etype: str) -> str:
    """A trace row's type as a person reads it ("Model call" for ``llm.calling``, translated): the
    core's name (:func:`inspector.turn.labels.event_name`) in the catalog's core context; an
    unknown type as recorded."""
    from PySide6.QtCore import QCoreApplication

    name = event_name(etype)
    return etype if name is None else QCoreApplication.translate(CORE_CONTEXT, name)


def offset_text(ms: float | None) -> str:
    if ms is None:
        return "?"
    sign = "+" if ms >= 0 else "−"
    return f"{sign}{abs(ms) / 1000:.3f} s"


def pretty_json(value: Any) -> str:
    if isinstance(value, str):
        # A tool's JSON arguments often arrive as a string; show them pretty when they parse.
        try:
            value = json.loads(value)
        except ValueError:
            return value
    try:
        return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=False, default=str)
    except (TypeError, ValueError):
        return repr(value)


def short(value: Any, limit: int = 120) -> str:
    text = value if isinstance(value, str) else pretty_json(value) if value is not None else ""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def runtime_tooltip(r: Runtime) -> str:
    lines = [f"<b>{html.escape(r.runtime_id or _tr('(no runtime id)'))}</b>"]
    facts = [(_tr("Plugin"), r.plugin_id), (_tr("Stage"), stage_label(r.stage) or _tr("none (after stages)")),
             (_tr("Status"), value_label(r.status) if r.status else None), (_tr("Parallel group"), str(r.group) if r.group is not None else None),
             (_tr("Start"), offset_text(r.start_ms) if r.start_ms is not None else None),
             (_tr("End"), offset_text(r.end_ms) if r.end_ms is not None else None),
             (_tr("Duration"), format_duration(r.duration_ms) or None),
             (_tr("Model calls"), str(len(r.calls))), (_tr("Tool calls"), str(len(r.tools))),
             (_tr("Error"), short(r.error, 200) if r.error else None),
             (_tr("Reason"), short(r.reason, 200) if r.reason else None)]
    lines += [f"{html.escape(k)}: {html.escape(v)}" for k, v in facts if v]
    return "<br>".join(lines)


def call_tooltip(c: ModelCall) -> str:
    usage = c.usage
    facts = [(_tr("Step"), str(shown(c.step))), (_tr("Attempt"), str(shown(c.attempt))), (_tr("Model"), c.model),
             (_tr("Provider"), c.provider), (_tr("Start"), offset_text(c.start_ms)),
             (_tr("Queue wait"), format_duration(c.queue_wait_ms) or None),
             (_tr("Duration"), format_duration(c.duration_ms) or None),
             (_tr("Input tokens"), format_number(usage.input_tokens) if usage else None),
             (_tr("Cached tokens"), format_number(usage.cached_input_tokens) if usage else None),
             (_tr("Output tokens"), format_number(usage.output_tokens) if usage else None),
             (_tr("Finish reason"), c.finish_reason or (None if c.answered else _tr("no response"))),
             (_tr("Tools requested"), ", ".join(c.requested_tools) or None),
             (_tr("Error"), short(c.error, 200) if c.error else None)]
    head = f"<b>{html.escape(_tr('Model call'))}</b> {html.escape(c.runtime_id or '')}"
    return "<br>".join([head] + [f"{html.escape(k)}: {html.escape(v)}" for k, v in facts if v])


def tool_tooltip(t: ToolUse) -> str:
    facts = [(_tr("Status"), value_label(t.status) if t.status else None), (_tr("Step"), str(shown(t.step)) if t.step is not None else None),
             (_tr("Duration"), format_duration(t.duration_ms) or None), (_tr("Approval"), t.approval_status),
             (_tr("Input"), short(t.input) if t.input is not None else None),
             (_tr("Output"), short(t.output) if t.output is not None else None),
             (_tr("Error"), short(t.error) if t.error is not None else None)]
    head = f"<b>{html.escape(_tr('Tool call'))} {html.escape(t.name or '?')}</b>"
    return "<br>".join([head] + [f"{html.escape(k)}: {html.escape(v)}" for k, v in facts if v])


def summary_html(turn: Turn, s: TurnSummary) -> str:
    """The summary panel's HTML for ``turn`` and its summary ``s``."""
    e = html.escape
    out = [f"<h3>{e(_tr('What this turn did'))}</h3>"]
    counts = [_tr("{n} ran").format(n=s.ran), _tr("{n} succeeded").format(n=s.succeeded)]
    for n, label in ((s.failed, _tr("{n} failed")), (s.skipped, _tr("{n} skipped")),
                     (s.deferred, _tr("{n} deferred")), (s.suspended, _tr("{n} suspended"))):
        if n:
            counts.append(label.format(n=n))
    out.append(f"<p><b>{e(_tr('Runtimes'))}</b>: {e(', '.join(counts))}</p>")
    if s.failures:
        out.append("<ul>" + "".join(f"<li>{e(rid)}: {e(short(why, 200))}</li>" for rid, why in s.failures)
                   + "</ul>")
    if turn.retry is not None:
        r = turn.retry
        out.append(f"<p><b>{e(_tr('Retry'))}</b>: {e(r.kind)} · "
                   + e(_tr("re-ran {ids}").format(ids=", ".join(r.runtime_ids) or "?"))
                   + (" · " + e(_tr("{n} results reused").format(n=len(r.seeded))) if r.seeded else "") + "</p>")
    tokens = _tr("{calls} calls · input {input} (cached {cached}) · output {output}").format(
        calls=s.calls, input=format_number(s.input_tokens) or "0", cached=format_number(s.cached_tokens) or "0",
        output=format_number(s.output_tokens) or "0")
    if s.retries:
        tokens += " · " + _tr("{n} retried").format(n=s.retries)
    out.append(f"<p><b>{e(_tr('Tokens'))}</b>: {e(tokens)}</p>")
    if s.input_cost_usd is not None:
        cost = _tr("${usd} input at list price").format(usd=f"{s.input_cost_usd:.4f}")
        if s.unpriced_calls:
            cost += " · " + _tr("{n} calls without a price").format(n=s.unpriced_calls)
        out.append(f"<p><b>{e(_tr('Cost'))}</b>: {e(cost)}</p>")
    else:
        out.append(f"<p><b>{e(_tr('Cost'))}</b>: {e(_tr('no price known for these models'))}</p>")
    if s.tools:
        out.append(f"<p><b>{e(_tr('Tool effects'))}</b></p><ul>")
        for t in s.tools:
            result = t.error if t.error is not None else t.output
            out.append(f"<li><b>{e(t.name or '?')}</b> ({e(t.runtime_id or '?')}, {e(value_label(t.status))}): "
                       f"{e(short(t.input, 160))} → {e(short(result, 120))}</li>")
        out.append("</ul>")
    if s.player:
        out.append(f"<p><b>{e(_tr('Player'))}</b>: {e(s.player)}</p>")
    if s.story:
        paragraphs = "".join(f"<p>{e(p)}</p>" for p in s.story.split("\n") if p.strip())
        out.append(f"<p><b>{e(_tr('Story'))}</b></p>{paragraphs}")
    else:
        out.append(f"<p><b>{e(_tr('Story'))}</b>: {e(_tr('this turn wrote no story'))}</p>")
    for note in turn.notes:
        out.append(f"<p><i>{e(core_text(note))}</i></p>")
    return "".join(out)


def state_label(state: str) -> str:
    labels = {"sent": _tr("sent"), "current": _tr("current"), "compacted": _tr("compacted"),
              "outside-window": _tr("outside window"), "pruned": _tr("pruned"), "not-sent": _tr("not sent")}
    return labels.get(state, state)


def raw_text(ev: TurnEvent) -> str:
    if ev.payload_error:
        return f"{ev.payload_error}\n\n{ev.event.raw_text or ''}"
    return pretty_json(ev.payload)


def response_text(call: ModelCall, ev: TurnEvent) -> str:
    payload = ev.payload
    lines = []
    usage = call.usage
    if usage is not None:
        lines.append(_tr("Usage: input {input} (cached {cached}, cache write {write}) · output {output}").format(
            input=format_number(usage.input_tokens) or "?", cached=format_number(usage.cached_input_tokens) or "0",
            write=format_number(usage.cache_write_input_tokens) or "0",
            output=format_number(usage.output_tokens) or "?"))
    lines.append(_tr("Finish reason: {reason} · duration {duration}").format(
        reason=call.finish_reason or "?", duration=format_duration(call.duration_ms) or "?"))
    if call.error:
        lines.append(_tr("Error: {error}").format(error=call.error))
    text = payload.get("text")
    lines.append("")
    lines.append(_tr("— Text —"))
    lines.append(text if isinstance(text, str) and text else _tr("(no text)"))
    tool_calls = payload.get("toolCalls")
    if isinstance(tool_calls, list) and tool_calls:
        lines.append("")
        lines.append(_tr("— Tool calls —"))
        for tc in tool_calls:
            if isinstance(tc, dict):
                lines.append(f"{tc.get('name') or '?'}  ({tc.get('id') or ''})")
                lines.append(pretty_json(tc.get("arguments")))
            else:
                lines.append(pretty_json(tc))
    return "\n".join(lines)


def tool_text(tool: ToolUse, ev: TurnEvent) -> str:
    lines = [f"{tool.name or '?'} · {value_label(tool.status)}"]
    if tool.duration_ms is not None:
        lines[0] += f" · {format_duration(tool.duration_ms)}"
    if tool.approval_status:
        lines[0] += f" · {tool.approval_status}"
    if tool.step is not None:
        lines.append(_tr("Asked for by step {n}").format(n=shown(tool.step)))
    lines += ["", _tr("— Input —"), pretty_json(tool.input) if tool.input is not None else _tr("(none recorded)")]
    if tool.status != "failed" or tool.output is not None:
        lines += ["", _tr("— Output —"),
                  pretty_json(tool.output) if tool.output is not None else _tr("(none recorded)")]
    if tool.error is not None:
        lines += ["", _tr("— Error —"), pretty_json(tool.error)]
    lines += ["", _tr("— This row —"), raw_text(ev)]
    return "\n".join(lines)
