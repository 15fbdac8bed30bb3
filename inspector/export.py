"""Text renderings for copying and exporting: of one request, the anatomy as Markdown or JSON, the
provider bodies, the kernel messages, the response and the raw trace row, and the text a view
shows for an anatomy node; the app's File → Export documents (a session's cache table as CSV or
HTML, a comparison, a turn summary), each what the ``cache``, ``compare`` and ``turn`` commands
print; and :func:`save_export`, which writes one atomically and never over an input.

Kept out of the UI so the clipboard, the Export menu, the command line and the tests produce
identical bytes.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from inspector.covel import markers
from inspector.files import check_output_path, write_atomic
from inspector.highlight import SENTINEL_CHIP
from inspector.jsjson import js_stringify
from inspector.output import dump_json
from inspector.views import DetailNode, RequestDetail

if TYPE_CHECKING:
    from inspector.cache.results import CacheAnalysis
    from inspector.cache.rules import RuleSet
    from inspector.turn.model import Turn
    from inspector.turn.summary import TurnSummary

# Between system-prompt parts when a grouping node's text is composed from its children; Covel
# joins parts with the same separator (covel-assembly.md §1.2).
_JOIN = markers.PART_SEPARATOR


def node_text(node: DetailNode) -> str:
    """What a view shows for ``node``: its own text with a cache sentinel at every cache
    breakpoint child (so the view can draw the chip where the provider cuts the cache), or, for a
    grouping node without text, its children's texts joined in request order."""
    breakpoints = [c for c in node.children if c.is_breakpoint]
    if node.is_breakpoint:
        return markers.CACHE_SENTINEL
    if node.text:
        if not breakpoints:
            return node.text
        out = node.text
        # Insert from the end so earlier offsets stay valid.
        for bp in sorted(breakpoints, key=lambda b: b.start, reverse=True):
            at = max(0, min(len(out), bp.start - node.start))
            out = out[:at] + markers.CACHE_SENTINEL + out[at:]
        return out
    pieces: list[str] = []
    for child in node.children:
        if child.is_breakpoint:
            pieces.append(markers.CACHE_SENTINEL)
        else:
            text = node_text(child)
            if text:
                pieces.append(text)
    return _JOIN.join(pieces)


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _fence(text: str) -> str:
    # A fence longer than any backtick run inside, so recorded Markdown cannot close it early.
    longest = 0
    run = 0
    for ch in text:
        run = run + 1 if ch == "`" else 0
        longest = max(longest, run)
    return "`" * max(3, longest + 1)


def _md_text(text: str) -> str:
    return text.replace(markers.CACHE_SENTINEL, SENTINEL_CHIP)


def anatomy_markdown(detail: RequestDetail) -> str:
    """The anatomy as Markdown: a summary, then per top-level part (tools, system prompt, each
    bag) a heading, a table of its parts with tokens and share, and each part's text fenced."""
    row = detail.row
    lines = [
        f"# Request {row['eventId']}",
        "",
        f"- runtime: {row.get('runtimeId') or '(none)'}",
        f"- turn: {row.get('turnId')}, step {row.get('step')}, attempt {row.get('attempt')}",
        f"- model: {row.get('model') or '?'} via {row.get('provider') or '?'}"
        f" ({detail.request.protocol or 'kernel messages'})",
    ]
    tokens = f"- tokens: {detail.total_estimate:,} Covel estimate"
    if detail.exact_counted:
        tokens = f"- tokens: {detail.total_exact:,} exact ({detail.encoding}, {detail.encoding_provenance}); " \
                 f"{detail.total_estimate:,} Covel estimate"
    lines.append(tokens)
    if row.get("inputTokens") is not None:
        lines.append(f"- reported input: {row['inputTokens']:,}, cached {row.get('cachedTokens') or 0:,}")
    for problem in detail.request.problems:
        lines.append(f"- problem: {problem}")
    lines.append("")

    for root in detail.roots:
        title = root.label + (f" [{root.role}]" if root.role and root.kind != "system-prompt" else "")
        lines += [f"## {title}", ""]
        parts = root.children or [root]
        lines += ["| part | role | recognised by | tokens | estimate | share |",
                  "|---|---|---|---:|---:|---:|"]
        for part in parts:
            if part.is_breakpoint:
                lines.append(f"| {SENTINEL_CHIP} | | {part.recognised_by} | | | |")
                continue
            exact = f"{part.exact:,}" if detail.exact_counted else ""
            lines.append(f"| {_md_cell(part.label)} | {part.role or ''} | {part.recognised_by} | {exact} | "
                         f"{part.estimate:,} | {part.share * 100:.1f}% |")
        lines.append("")
        for part in parts:
            if part.is_breakpoint:
                lines += [f"**{SENTINEL_CHIP}**", ""]
                continue
            text = _md_text(node_text(part))
            fence = _fence(text)
            lines += [f"### {part.label}", "", fence, text, fence, ""]
    return "\n".join(lines).rstrip("\n") + "\n"


def anatomy_json(detail: RequestDetail) -> str:
    return json.dumps(detail.to_json(), indent=2, ensure_ascii=False) + "\n"


def _pretty(value: Any) -> str:
    text = js_stringify(value, 2)
    return "undefined" if text is None else text


def attempt_body_json(attempt: Any) -> str:
    """One transport attempt's resolved body, pretty (two-space indent, JavaScript's rules so
    numbers and key order read as Covel wrote them)."""
    return _pretty(attempt.body) + "\n"


def provider_body_json(detail: RequestDetail, index: int | None = None) -> str:
    """The resolved provider body of attempt ``index``; without an index, the only attempt's body,
    or an array of every attempt's body when there were retries. Empty when nothing was recorded."""
    if not detail.attempts:
        return ""
    if index is not None:
        return attempt_body_json(detail.attempts[index])
    if len(detail.attempts) == 1:
        return attempt_body_json(detail.attempts[0])
    return _pretty([a.body for a in detail.attempts]) + "\n"


def attempt_facts(attempt: Any) -> dict[str, Any]:
    """The facts a view lists above an attempt's body."""
    if attempt.complete is None:
        completeness = "unknown"
    elif attempt.complete and not attempt.omitted_field_count:
        completeness = "complete"
    else:
        completeness = "partial"
    return {
        "index": attempt.index,
        "transportAttempt": attempt.transport_attempt,
        "completeness": completeness,
        "omittedFields": attempt.omitted_field_count or 0,
        "statusCode": attempt.status_code,
        "retryReason": attempt.retry_reason,
        "bodyRef": attempt.body_ref,
        "bodyError": attempt.body_error,
        "failed": attempt.failed,
        "durationMs": attempt.duration_ms,
        "protocol": attempt.protocol,
    }


def kernel_messages_json(detail: RequestDetail) -> str:
    payload = detail.payload
    data: dict[str, Any] = {"messages": payload.get("messages", [])}
    if "tools" in payload:
        data["tools"] = payload.get("tools")
    return _pretty(data) + "\n"


def raw_event_json(detail: RequestDetail) -> str:
    return _pretty(detail.raw_event) + "\n"


def response_text(detail: RequestDetail) -> str:
    """The response as readable text: the model's text, then tool calls and usage as JSON."""
    response = detail.response
    if not response:
        return ""
    out: list[str] = []
    text = response.get("text")
    if isinstance(text, str) and text:
        out += [text, ""]
    calls = response.get("toolCalls")
    if calls:
        out += ["<tool-calls>", _pretty(calls), "</tool-calls>", ""]
    usage = response.get("usage")
    if usage is not None:
        out += ["<usage>", _pretty(usage), "</usage>", ""]
    meta = {k: response.get(k) for k in ("finishReason", "durationMs", "streaming") if k in response}
    if meta:
        out += ["<response-facts>", _pretty(meta), "</response-facts>"]
    return "\n".join(out).rstrip("\n") + "\n"


# -- File → Export ---------------------------------------------------------------------------------

# What each export writes, in the order a save dialog offers them: (format, file suffix).
EXPORT_FORMATS: dict[str, tuple[tuple[str, str], ...]] = {
    "cache": (("csv", ".csv"), ("html", ".html")),
    "comparison": (("text", ".txt"), ("json", ".json")),
    "turn": (("markdown", ".md"), ("json", ".json")),
}


def _check_format(what: str, fmt: str) -> None:
    if fmt not in dict(EXPORT_FORMATS[what]):
        raise ValueError(f"no {fmt!r} export of a {what}: {', '.join(f for f, _ in EXPORT_FORMATS[what])}")


def report_source(store_name: str, rules: RuleSet) -> str:
    """The HTML cache report's source line: the store as a message names it, then the rules files
    (as ``cache --html`` writes it)."""
    return f"{store_name} · rules: " + ", ".join(str(p) for p in rules.paths)


def cache_table_export(analyses: Iterable[CacheAnalysis], fmt: str, *, source: str = "") -> str:
    """A cache analysis as ``cache --csv`` (``csv``: one row per pair) or ``cache --html`` (``html``:
    the self-contained report) writes it."""
    from inspector.cache import report

    _check_format("cache", fmt)
    analyses = list(analyses)
    return report.pairs_csv(analyses) if fmt == "csv" else report.report_html(analyses, source=source)


def comparison_export(comparison: Any, fmt: str, *, names: tuple[str, str] | None = None) -> str:
    """A comparison (:class:`inspector.anatomy.compare.Comparison`) as ``compare`` (``text``) or
    ``compare --json`` (``json``) prints it; the text opens with the two requests' names ("Turn 3 ·
    narrator/main · step 1 → Turn 4 · narrator/main · step 1") when ``names`` are given."""
    _check_format("comparison", fmt)
    if fmt == "json":
        return dump_json(comparison.to_json())
    return (f"{names[0]} → {names[1]}\n" if names else "") + comparison.to_text()


def summary_json(summary: TurnSummary) -> dict[str, Any]:
    """What a turn did (:class:`inspector.turn.summary.TurnSummary`) as JSON."""
    return {
        "runtimes": summary.runtimes, "ran": summary.ran, "succeeded": summary.succeeded,
        "failed": summary.failed, "skipped": summary.skipped, "deferred": summary.deferred,
        "suspended": summary.suspended, "calls": summary.calls, "retries": summary.retries,
        "inputTokens": summary.input_tokens, "cachedTokens": summary.cached_tokens,
        "cacheWriteTokens": summary.cache_write_tokens, "outputTokens": summary.output_tokens,
        "inputCostUsd": summary.input_cost_usd, "unpricedCalls": summary.unpriced_calls,
        "player": summary.player, "story": summary.story,
        "tools": [{"runtimeId": t.runtime_id, "name": t.name, "status": t.status, "input": t.input,
                   "output": t.output, "error": t.error} for t in summary.tools],
        "failures": [{"runtimeId": runtime, "reason": reason} for runtime, reason in summary.failures],
    }


def _summary_markdown(turn: Turn, summary: TurnSummary, title: str) -> list[str]:
    s = summary
    lines = [f"# {_md_text(title)}", "",
             f"- session: {turn.session_id}", f"- turn: {turn.turn_id}",
             f"- origin: {turn.origin or '?'}, status: {turn.commit_status or '?'}",
             f"- runtimes: {s.runtimes} ({s.ran} ran, {s.succeeded} succeeded, {s.failed} failed, "
             f"{s.skipped} skipped, {s.deferred} deferred, {s.suspended} suspended)",
             f"- model calls: {s.calls} ({s.retries} retries)",
             f"- tokens: input {s.input_tokens:,}, cached {s.cached_tokens:,}, cache writes "
             f"{s.cache_write_tokens:,}, output {s.output_tokens:,}"]
    if s.input_cost_usd is not None:
        unpriced = f" ({s.unpriced_calls} calls without a price)" if s.unpriced_calls else ""
        lines.append(f"- input cost: ${s.input_cost_usd:.4f}{unpriced}")
    else:
        lines.append("- input cost: no price for these models")
    lines.append("")
    for heading, text in (("Player input", s.player), ("Story", s.story)):
        if text:
            fence = _fence(text)
            lines += [f"## {heading}", "", fence, text, fence, ""]
    if s.tools:
        lines += ["## Tool effects", "", "| runtime | tool | status |", "|---|---|---|"]
        lines += [f"| {_md_cell(t.runtime_id or '')} | {_md_cell(t.name or '?')} | {_md_cell(t.status)} |"
                  for t in s.tools]
        lines.append("")
    if s.failures:
        lines += ["## Failures", ""] + [f"- {runtime}: {_md_cell(reason)}" for runtime, reason in s.failures] + [""]
    return lines


def turn_summary_export(turn: Turn, summary: TurnSummary, fmt: str, *, number: int | None = None) -> str:
    """What a turn did: ``markdown``, its summary (the figures the stepper shows) then the outline
    ``turn`` prints, under the turn's name as ``turn`` prints it ("Turn 4" for ``number`` 4, its
    short id without a number); ``json``, ``{"summary": …, "turn": …}`` with the turn as
    ``turn --json`` prints it."""
    from inspector.ids import turn_name
    from inspector.turn.outline import turn_outline

    _check_format("turn", fmt)
    if fmt == "json":
        return dump_json({"summary": summary_json(summary), "turn": turn.to_json()})
    outline = turn_outline(turn).rstrip("\n")
    fence = _fence(outline)
    lines = _summary_markdown(turn, summary, turn_name(number, turn.turn_id))
    lines += ["## Outline", "", fence + "text", outline, fence]
    return "\n".join(lines) + "\n"


def save_export(path: str | os.PathLike[str], text: str,
                inputs: Sequence[str | os.PathLike[str] | None] = ()) -> Path:
    """Write ``text`` to ``path`` atomically (a reader sees the old file or the new one, never
    half). Never over one of ``inputs`` (the open database, with the files SQLite keeps beside
    it), another database or a folder: :class:`inspector.files.OutputPathError`; a write that
    fails raises :class:`inspector.files.SaveError` and leaves the old file as it was."""
    check_output_path(path, [p for p in inputs if p is not None])
    return write_atomic(path, text)
