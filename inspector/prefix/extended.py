"""What ``prefix --extended`` adds to Covel's report: exact tokens, and the first difference named
as an anatomy part (``turn context › <world-dimensions>``) instead of ``message 12 (system) +40``.

It rides on :func:`inspector.prefix.report.build_report` through its ``on_pair`` hook, so the original
numbers are computed once and stay byte-identical; the extra fields are appended after them.
"""

from __future__ import annotations

from typing import Any

from inspector.anatomy.divergence import common_prefix
from inspector.anatomy.kernel_view import label_as_shown
from inspector.anatomy.labelling import Anatomy, AnatomyNode
from inspector.jsjson import js_stringify, utf16_to_index
from inspector.prefix.report import Pair, Request, RequestPart, RuntimeEntry, report_json
from inspector.tokens import count_exact, encoding_for_model
from inspector.wire.model import NormalisedRequest
from inspector.wire.parse import from_kernel, request_for


def _request(payload: Any) -> NormalisedRequest:
    return request_for(payload if isinstance(payload, dict) else {})[0]


# --- naming a difference as an anatomy path ------------------------------------------------
#
# Shared by ``prefix --extended`` and the cache analysis (``inspector.cache.analysis``), so a
# difference has one name whichever report shows it.


def tool_path(anatomy: Anatomy, index: int) -> list[AnatomyNode]:
    tools = next((n for n in anatomy.roots if n.kind == "tools"), None)
    if tools is None or index >= len(tools.children):
        return []
    return [tools, tools.children[index]]


def system_path(anatomy: Anatomy, request: NormalisedRequest, cut: int) -> list[AnatomyNode]:
    """Path at ``cut`` in a system *string* (it may have been split into several blocks)."""
    for i, block in enumerate(request.system):
        if block.origin_offset <= cut <= block.origin_offset + len(block.text):
            return anatomy.path_at(("system", i), cut - block.origin_offset)
    return []


def system_origin_path(anatomy: Anatomy, request: NormalisedRequest, sources: tuple[str, ...],
                       origin_index: int | None, cut: int) -> list[AnatomyNode]:
    """Path at ``cut`` in the recorded system text that ``sources`` + ``origin_index`` name (a
    leading system message, a Gemini ``systemInstruction`` part, a Responses ``instructions``)."""
    for i, block in enumerate(request.system):
        if block.source not in sources or block.origin_index != origin_index:
            continue
        if block.origin_offset <= cut <= block.origin_offset + len(block.text):
            return anatomy.path_at(("system", i), cut - block.origin_offset)
    return []


def system_block_path(anatomy: Anatomy, current: NormalisedRequest, previous: NormalisedRequest,
                      index: int) -> list[AnatomyNode]:
    """Path at the change in Anthropic ``system`` block ``index`` (its own text, not its JSON)."""
    for i, block in enumerate(current.system):
        if block.origin_index == index:
            before = next((b.text for b in previous.system if b.origin_index == index), "")
            return anatomy.path_at(("system", i), common_prefix(before, block.text))
    return []


def message_path(anatomy: Anatomy, current: NormalisedRequest, previous: NormalisedRequest,
                 index: int, cut: int) -> list[AnatomyNode]:
    """Path at the change in recorded message ``index``: at ``cut`` when its content is one string,
    else where its normalised text first differs from the previous request's."""
    positions = [pos for pos, m in enumerate(current.messages) if m.index == index]
    if not positions:
        return []
    content = None
    raw = current.messages[positions[0]].raw
    if isinstance(raw, dict):
        content = raw.get("content")
    if isinstance(content, str) and len(positions) == 1:
        return anatomy.path_at(("message", positions[0]), cut)
    # Structured content (or a Gemini content split into several messages): compare texts.
    before = [m for m in previous.messages if m.index == index]
    for n, pos in enumerate(positions):
        now_text = current.messages[pos].text
        was_text = before[n].text if n < len(before) else ""
        if now_text != was_text or n == len(positions) - 1:
            return anatomy.path_at(("message", pos), common_prefix(was_text, now_text))
    return []


def name_difference(previous_payload: Any, payload: Any, part: RequestPart, cut: int) -> str:
    """The anatomy path of a prefix-report part at code point ``cut``; the part's own label when
    no anatomy node holds it."""
    current = _request(payload)
    anatomy = label_as_shown(current, from_kernel(payload if isinstance(payload, dict) else {}))
    if part.kind == "tool":
        path = tool_path(anatomy, part.index)
    elif part.kind in ("system", "instructions"):
        path = system_path(anatomy, current, cut)
    elif part.kind == "system-block":
        path = system_block_path(anatomy, current, _request(previous_payload), part.index)
    else:
        path = message_path(anatomy, current, _request(previous_payload), part.index, cut)
    return Anatomy.path_label(path) if path else part.label


class ExtendedPrefix:
    def __init__(self) -> None:
        self.extra: dict[int, dict[str, Any]] = {}

    # -- computing ------------------------------------------------------------------------

    def on_pair(self, entry: RuntimeEntry, pair: Pair, previous_payload: Any, payload: Any,
                previous_request: Request, request: Request) -> None:
        model = payload.get("model") if isinstance(payload, dict) else None
        encoding = encoding_for_model(model if isinstance(model, str) else None)
        counts = [count_exact(text, encoding.encoding) for text in request.texts]
        exact = sum(counts)
        shared_exact = exact
        anatomy_label = pair.first_difference
        if pair.position is not None:
            part = request.part(pair.position)
            cut = utf16_to_index(part.text, pair.offset)
            shared_exact = sum(counts[: pair.position]) + count_exact(part.text[:cut], encoding.encoding)
            anatomy_label = name_difference(previous_payload, payload, part, cut)
        self.extra[id(pair)] = {
            "turnId": pair.turn_id,
            "previousTurnId": pair.previous_turn_id,
            "eventId": pair.event_id,
            "previousEventId": pair.previous_event_id,
            "encoding": encoding.encoding,
            "encodingProvenance": encoding.provenance,
            "exactTokens": exact,
            "sharedExactTokens": shared_exact,
            "firstDifferencePart": anatomy_label,
        }

    # -- output ---------------------------------------------------------------------------

    def report_json(self, entries: list[RuntimeEntry]) -> str:
        out = []
        for entry in entries:
            data = entry.to_json()
            data["pairs"] = [{**pair.to_json(), **self.extra.get(id(pair), {})} for pair in entry.pairs]
            out.append(data)
        return js_stringify(out, indent=2)

    def table_appendix(self, entries: list[RuntimeEntry]) -> str:
        lines = ["", "Exact tokens (tiktoken) and the first difference as an anatomy part:"]
        for entry in entries:
            if not entry.pairs:
                continue
            extras = [self.extra[id(p)] for p in entry.pairs if id(p) in self.extra]
            if not extras:
                continue
            total = sum(e["exactTokens"] for e in extras)
            shared = sum(e["sharedExactTokens"] for e in extras)
            pct = round(100 * shared / total) if total else 0
            lines.append(
                f"{entry.session_id} {entry.runtime_label}: {round(total / len(extras))} exact tokens per first request, "
                f"{round(shared / len(extras))} shared ({pct}%), last break at {extras[-1]['firstDifferencePart']}"
            )
        return "\n".join(lines) + "\n"


__all__ = [
    "ExtendedPrefix",
    "message_path",
    "name_difference",
    "report_json",
    "system_block_path",
    "system_origin_path",
    "system_path",
    "tool_path",
]
