"""Text renderings of one request for copying and exporting: the anatomy as Markdown or JSON, the
provider bodies, the kernel messages, the response and the raw trace row; plus the text a view
shows for an anatomy node and an atomic file writer.

Kept out of the UI so the clipboard, the Export menu and the tests produce identical bytes.
"""

from __future__ import annotations

import json
from typing import Any

from inspector.covel import markers
from inspector.highlight import SENTINEL_CHIP
from inspector.jsjson import js_stringify
from inspector.views import DetailNode, RequestDetail

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
