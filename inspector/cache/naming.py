"""Naming the first difference of a pair as an anatomy path, as the request view and Covel's
``prompt:prefix --extended`` report name it (:mod:`inspector.prefix.extended`).

The fast way (the default) labels only the part that differs, from the facts cached on the parts
(:class:`inspector.cache.calls.Locator`); ``naming_mode="full"`` labels both whole requests with the
full labeller, a check for the fast way (tests compare the two).
"""

from __future__ import annotations

from typing import Any

from inspector.anatomy.labelling import BAG_LABELS, SINGLE_MESSAGE_BAGS, Anatomy, label_request
from inspector.cache.calls import Call
from inspector.cache.prediction import Comparison
from inspector.prefix import extended as prefix_naming
from inspector.prefix.report import CONTEXT_AFTER, CONTEXT_BEFORE  # the text around a difference, as Covel's report shows it
from inspector.wire.model import (
    SRC_KERNEL_SENTINEL,
    SRC_SYSTEM_BLOCK,
    SRC_SYSTEM_MESSAGE,
    TEXT,
    Message,
    NormalisedRequest,
)
from inspector.wire.model import Part as WirePart
from inspector.wire.parse import from_kernel, from_provider_body, request_for

__all__ = ["NAMING_MODES", "DifferenceNamer", "context_around"]

NAMING_MODES = ("fast", "full")


class DifferenceNamer:
    """Names the first difference of a pair. In the ``full`` mode it is handed each request's
    payload (:attr:`payloads`, by event id) as the analysis reads it."""

    __slots__ = ("mode", "payloads")

    def __init__(self, mode: str = "fast") -> None:
        if mode not in NAMING_MODES:
            raise ValueError(f"naming_mode must be 'fast' or 'full', not {mode!r}")
        self.mode = mode
        self.payloads: dict[str, Any] = {}

    def name(self, prev: Call, cur: Call, cmp: Comparison) -> str:
        """The first difference as an anatomy path (``history › user #0``)."""
        d = cmp.index
        if d >= len(cur.parts):
            return "(request ends earlier)" if len(prev.parts) > len(cur.parts) else "(identical)"
        # Name the part from the request where it sits earlier in hash order: a tool or system block
        # the current request no longer has is named as it was.
        if prev.area(d) < cur.area(d):
            cur, prev = prev, cur
        if self.mode == "full":
            return self._name_full(prev, cur, cmp)
        lay = cur.layout
        part = cur.parts[d]
        if d < lay.n_tools:
            return f"tools › {part.tool_name() or f'tool #{d}'}"
        if d < lay.n_tools + lay.n_settings:
            return "request settings"
        if d < cur.message_start:
            return self._system_name(prev, cur, cmp, None) or f"system prompt (part {d - lay.n_tools - lay.n_settings + 1})"
        return self._message_name(prev, cur, cmp)

    def _system_name(self, prev: Call, cur: Call, cmp: Comparison,
                     request: NormalisedRequest | None) -> str | None:
        lay = cur.layout
        s = cmp.index - lay.n_tools - lay.n_settings
        sources, origin = lay.system_origins[s]
        if request is None:
            request = system_request(cur)
            request.messages = stand_in_turn_context() if cur.locator().tc is not None else []
        anatomy = label_request(request)
        if sources == (SRC_SYSTEM_BLOCK,):
            before = prev.parts[cmp.index].text if cmp.index < len(prev.parts) else ""
            for i, block in enumerate(request.system):
                if block.source == SRC_SYSTEM_BLOCK and block.origin_index == origin:
                    path = anatomy.path_at(("system", i), prefix_naming.common_prefix(before, block.text))
                    return Anatomy.path_label(path) if path else None
            return None
        path = prefix_naming.system_origin_path(anatomy, request, sources, origin, cmp.offset_chars)
        return Anatomy.path_label(path) if path else None

    def _message_name(self, prev: Call, cur: Call, cmp: Comparison) -> str:
        loc = cur.locator()
        e = cmp.index - cur.message_start
        first = loc.elem_first[e]
        part = cur.parts[cmp.index]
        msgs = part.messages()
        if not msgs:
            return f"message {e + 1}"
        # Which of the element's messages holds the change, and where in its text.
        k, cut = 0, cmp.offset_chars
        if not (isinstance(part.key, tuple) and part.key[0] == "c"):
            # The earlier request's element at the same message index (its system part count
            # may differ).
            before: list[Message] = []
            pe = prev.message_start + e
            if pe < len(prev.parts):
                before = prev.parts[pe].messages()
            for n, m in enumerate(msgs):
                was = before[n].text if n < len(before) else ""
                if m.text != was or n == len(msgs) - 1:
                    k, cut = n, prefix_naming.common_prefix(was, m.text)
                    break
        pos = first + k
        bag, kind, label, _ = loc.classify(pos)
        if kind in ("turn-context", "compacted-history"):
            mini = NormalisedRequest(source="provider", protocol=part.protocol, model=None,
                                     messages=[msgs[k]] + (stand_in_user() if kind == "turn-context" else []))
            path = label_request(mini).path_at(("message", 0), cut)
            if path:
                return Anatomy.path_label(path)
        return label if bag in SINGLE_MESSAGE_BAGS else f"{BAG_LABELS[bag]} › {label}"

    def _name_full(self, prev: Call, cur: Call, cmp: Comparison) -> str:
        """The same name through the full labeller on whole requests (slow; a check for the fast
        path, see tests)."""
        current = request_for(self.payloads[cur.event_id])[0]
        previous = request_for(self.payloads[prev.event_id])[0]
        anatomy = label_request(current)
        lay = cur.layout
        d = cmp.index
        if d < lay.n_tools:
            path = prefix_naming.tool_path(anatomy, d)
            return Anatomy.path_label(path) if path else f"tools › tool #{d}"
        if d < lay.n_tools + lay.n_settings:
            return "request settings"
        if d < cur.message_start:
            name = self._system_name(prev, cur, cmp, current)
            return name or f"system prompt (part {d - lay.n_tools - lay.n_settings + 1})"
        # The recorded list index of the element: on the chat, Responses and kernel views the
        # leading system messages sit in the same list before it.
        lead = sum(1 for sources, _ in lay.system_origins
                   if sources in ((SRC_SYSTEM_MESSAGE,), (SRC_KERNEL_SENTINEL,)))
        e = d - cur.message_start
        path = prefix_naming.message_path(anatomy, current, previous, e + lead, cmp.offset_chars)
        return Anatomy.path_label(path) if path else f"message {e + 1}"


def context_around(prev: Call, cur: Call, cmp: Comparison) -> tuple[str | None, str | None]:
    """Text around the first difference (40 before, 80 after), like Covel's report."""
    d = cmp.index
    if d >= len(cur.parts):
        return None, None
    now_text = cur.parts[d].text
    was_text = prev.parts[d].text if d < len(prev.parts) else None
    start = max(0, cmp.offset_chars - CONTEXT_BEFORE)
    end = cmp.offset_chars + CONTEXT_AFTER
    return (was_text[start:end] if was_text is not None else None), now_text[start:end]


def system_request(call: Call) -> NormalisedRequest:
    body = call.layout.system_body
    if call.protocol is None:
        return from_kernel({"messages": body.get("messages", [])})
    return from_provider_body(dict(body), call.protocol)


def stand_in_user() -> list[Message]:
    return [Message("user", [WirePart(kind=TEXT, text=".")], 1)]


def stand_in_turn_context() -> list[Message]:
    """Messages that make the labeller find a turn context among the messages, which is all the
    system prompt's labelling depends on (it looks for an embedded one otherwise)."""
    return [Message("system", [WirePart(kind=TEXT, text="<runtime-inputs>{}</runtime-inputs>")], 0)] + stand_in_user()
