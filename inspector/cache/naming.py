"""Naming the first difference of a pair as an anatomy path, as the request view and Covel's
``prompt:prefix --extended`` report name it (:mod:`inspector.prefix.extended`).

The fast way (the default) labels only the part that differs, from the facts cached on the parts
(:class:`inspector.cache.calls.Locator`); ``naming_mode="full"`` labels both whole requests with the
full labeller, a check for the fast way (tests compare the two). Either way the system prompt is
labelled with its kernel copy's rules (:func:`inspector.anatomy.kernel_view.label_as_shown`), as
the request view and Compare show it, so the name is the one
:func:`inspector.anatomy.divergence.request_divergence` gives.
"""

from __future__ import annotations

from typing import Any

from inspector.anatomy.divergence import common_prefix
from inspector.anatomy.divergence import context_around as text_around
from inspector.anatomy.kernel_view import label_as_shown
from inspector.anatomy.labelling import BAG_LABELS, SINGLE_MESSAGE_BAGS, Anatomy, label_request
from inspector.cache.calls import Call
from inspector.cache.prediction import Comparison
from inspector.prefix import extended as prefix_naming
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
    payload (:attr:`payloads`, by event id) as the analysis reads it. ``store``: where the fast
    way reads a request's kernel copy again, for the few differences in the system prompt proper
    (the analysis does not keep it); without one the system prompt is labelled from its body."""

    __slots__ = ("mode", "payloads", "_store")

    def __init__(self, mode: str = "fast", store: Any = None) -> None:
        if mode not in NAMING_MODES:
            raise ValueError(f"naming_mode must be 'fast' or 'full', not {mode!r}")
        self.mode = mode
        self.payloads: dict[str, Any] = {}
        self._store = store

    def _kernel(self, call: Call) -> NormalisedRequest | None:
        if self.mode == "full":
            return from_kernel(self.payloads[call.event_id])
        event = self._store.event(call.event_id) if self._store is not None else None
        return from_kernel(event.payload) if event is not None and isinstance(event.payload, dict) else None

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
                     request: NormalisedRequest | None, anatomy: Anatomy | None = None) -> str | None:
        lay = cur.layout
        s = cmp.index - lay.n_tools - lay.n_settings
        sources, origin = lay.system_origins[s]
        if request is None or anatomy is None:
            request = system_request(cur)
            request.messages = stand_in_turn_context() if cur.locator().tc is not None else []
            # The kernel copy's sentinels cut only the first system text (the prompt proper), and
            # only a provider body lacks them: the one case worth reading the request again.
            kernel = self._kernel(cur) if s == 0 and cur.protocol is not None else None
            anatomy = label_as_shown(request, kernel)
        if s == 0:
            sources = (*sources, SRC_KERNEL_SENTINEL)  # the pieces the kernel copy cut it into
        if sources[0] == SRC_SYSTEM_BLOCK:
            before = prev.parts[cmp.index].text if cmp.index < len(prev.parts) else ""
            for i, block in enumerate(request.system):
                if block.source == SRC_SYSTEM_BLOCK and block.origin_index == origin:
                    path = anatomy.path_at(("system", i), common_prefix(before, block.text))
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
                    k, cut = n, common_prefix(was, m.text)
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
        anatomy = label_as_shown(current, self._kernel(cur))
        lay = cur.layout
        d = cmp.index
        if d < lay.n_tools:
            path = prefix_naming.tool_path(anatomy, d)
            return Anatomy.path_label(path) if path else f"tools › tool #{d}"
        if d < lay.n_tools + lay.n_settings:
            return "request settings"
        if d < cur.message_start:
            name = self._system_name(prev, cur, cmp, current, anatomy)
            return name or f"system prompt (part {d - lay.n_tools - lay.n_settings + 1})"
        # The recorded list index of the element: on the chat, Responses and kernel views the
        # leading system messages sit in the same list before it.
        lead = sum(1 for sources, _ in lay.system_origins
                   if sources in ((SRC_SYSTEM_MESSAGE,), (SRC_KERNEL_SENTINEL,)))
        e = d - cur.message_start
        path = prefix_naming.message_path(anatomy, current, previous, e + lead, cmp.offset_chars)
        return Anatomy.path_label(path) if path else f"message {e + 1}"


def context_around(prev: Call, cur: Call, cmp: Comparison) -> tuple[str | None, str | None]:
    """Text around the first difference in each request (:func:`inspector.anatomy.divergence.context_around`)."""
    d = cmp.index
    if d >= len(cur.parts):
        return None, None
    was_text = prev.parts[d].text if d < len(prev.parts) else None
    return text_around(was_text, cmp.offset_chars), text_around(cur.parts[d].text, cmp.offset_chars)


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
