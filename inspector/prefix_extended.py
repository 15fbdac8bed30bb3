"""What ``prefix --extended`` adds to Covel's report: exact tokens, and the first difference named
as an anatomy part (``turn context › <world-dimensions>``) instead of ``message 12 (system) +40``.

It rides on :func:`inspector.prefix.build_report` through its ``on_pair`` hook, so the original
numbers are computed once and stay byte-identical; the extra fields are appended after them.
"""

from __future__ import annotations

from typing import Any

from .anatomy import Anatomy, label_request
from .jsjson import js_stringify, utf16_to_index
from .prefix import Pair, Request, RequestPart, RuntimeEntry, report_json
from .tokens import count_exact, encoding_for_model
from .wire.model import NormalisedRequest
from .wire.parse import request_for


def _request(payload: Any) -> NormalisedRequest:
    return request_for(payload if isinstance(payload, dict) else {})[0]


def _common_prefix(a: str, b: str) -> int:
    limit = min(len(a), len(b))
    i = 0
    while i < limit and a[i] == b[i]:
        i += 1
    return i


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
            anatomy_label = self._name_difference(previous_payload, payload, part, cut)
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

    def _name_difference(self, previous_payload: Any, payload: Any, part: RequestPart, cut: int) -> str:
        current = _request(payload)
        anatomy = label_request(current)
        if part.kind == "tool":
            path = self._tool_path(anatomy, part.index)
        elif part.kind in ("system", "instructions"):
            path = self._system_path(anatomy, current, cut)
        elif part.kind == "system-block":
            previous = _request(previous_payload)
            path = self._system_block_path(anatomy, current, previous, part.index)
        else:
            previous = _request(previous_payload)
            path = self._message_path(anatomy, current, previous, part, cut)
        return Anatomy.path_label(path) if path else part.label

    @staticmethod
    def _tool_path(anatomy: Anatomy, index: int):
        tools = next((n for n in anatomy.roots if n.kind == "tools"), None)
        if tools is None or index >= len(tools.children):
            return []
        return [tools, tools.children[index]]

    @staticmethod
    def _system_path(anatomy: Anatomy, request: NormalisedRequest, cut: int):
        # A system string may have been split into several blocks; find the one holding the cut.
        for i, block in enumerate(request.system):
            if block.origin_offset <= cut <= block.origin_offset + len(block.text):
                return anatomy.path_at(("system", i), cut - block.origin_offset)
        return []

    @staticmethod
    def _system_block_path(anatomy: Anatomy, current: NormalisedRequest, previous: NormalisedRequest, index: int):
        # The part text is the block's JSON; locate the change in the block's own text instead.
        for i, block in enumerate(current.system):
            if block.origin_index == index:
                before = next((b.text for b in previous.system if b.origin_index == index), "")
                return anatomy.path_at(("system", i), _common_prefix(before, block.text))
        return []

    @staticmethod
    def _message_path(anatomy: Anatomy, current: NormalisedRequest, previous: NormalisedRequest,
                      part: RequestPart, cut: int):
        positions = [pos for pos, m in enumerate(current.messages) if m.index == part.index]
        if not positions:
            return []
        content = None
        raw = current.messages[positions[0]].raw
        if isinstance(raw, dict):
            content = raw.get("content")
        if isinstance(content, str) and len(positions) == 1:
            return anatomy.path_at(("message", positions[0]), cut)
        # Structured content (or a Gemini content split into several messages): compare texts.
        before = [m for m in previous.messages if m.index == part.index]
        for n, pos in enumerate(positions):
            now_text = current.messages[pos].text
            was_text = before[n].text if n < len(before) else ""
            if now_text != was_text or n == len(positions) - 1:
                return anatomy.path_at(("message", pos), _common_prefix(was_text, now_text))
        return []

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


__all__ = ["ExtendedPrefix", "report_json"]
