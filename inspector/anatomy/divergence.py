"""Where two requests first differ, as the provider reads them: the one answer every view gives.

A provider's prefix cache serves a request up to the first point where it stops being identical
to an earlier one, read in render order: tools, request settings, system prompt, messages
(provider-caching §3.1, §3.5 step 2). So the divergence is found by walking both requests part by
part *by position* (a tool, the request settings, a system text, a message, as the wire sends
them), not by aligning them as a diff does: a part that moved is a difference at the place it left.
Cache breakpoint markers (Anthropic ``cache_control``, Covel's sentinel) are not text the provider
reads, so they are no part of the comparison.

The point is named as an anatomy path of the request where the differing part sits earlier in
render order (the current request, unless the earlier one had a tool or system text where the
current one has something later), at the deepest anatomy node holding it. Its offset is in UTF-16
code units inside the differing part, as Covel's prefix report and the cache analysis count.

:func:`request_divergence` is the plain path over two normalised requests; the cache analysis
(:mod:`inspector.cache.analysis`) walks its interned parts the same way on its fast path, and
``tests/inspector/anatomy/test_divergence.py`` checks both name the same point for every pair of
the demo store.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.cache.layout import hashed_settings
from inspector.cache.parts import message_text, strip_cache_control
from inspector.cache.rules import default_rules
from inspector.covel import markers
from inspector.jsjson import utf16_len, utf16_to_index
from inspector.json_deep import json_key, json_text
from inspector.prefix.report import CONTEXT_AFTER, CONTEXT_BEFORE
from inspector.wire.model import (
    SRC_KERNEL_SENTINEL,
    SRC_SYSTEM_MESSAGE,
    Message,
    NormalisedRequest,
)
from inspector.wire.protocols import ANTHROPIC_MESSAGES as ANTHROPIC

# Render order of the areas a request is read in; an earlier area decides which request names a
# difference between parts of two areas.
TOOLS, SETTINGS, SYSTEM, MESSAGES = range(4)
AREA_NAMES = ("tools", "request settings", "system prompt", "messages")
IDENTICAL = "(identical)"
ENDS_EARLIER = "(request ends earlier)"


# --- text comparison -------------------------------------------------------------------------


def common_prefix_plain(a: str, b: str) -> int:
    """Leading code points ``a`` and ``b`` share, one character at a time (the reference for
    :func:`common_prefix`)."""
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def common_prefix(a: str, b: str) -> int:
    """Leading code points ``a`` and ``b`` share (Python indices, what anatomy offsets are).

    Binary search on slice equality: the comparisons run in C, and long prompts share most of
    their text. Gives what :func:`common_prefix_plain` gives (a hypothesis test checks it)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def context_around(text: str | None, offset_chars: int) -> str | None:
    """The text around a difference at code point ``offset_chars``: :data:`CONTEXT_BEFORE`
    characters before it, :data:`CONTEXT_AFTER` from it, as Covel's report shows a difference."""
    if text is None:
        return None
    return text[max(0, offset_chars - CONTEXT_BEFORE):offset_chars + CONTEXT_AFTER]


def context_point(excerpt: str, offset_units: int) -> int:
    """Where the difference lies in an excerpt :func:`context_around` cut, given the difference's
    offset in UTF-16 units (what a cache pair records): the excerpt starts
    :data:`CONTEXT_BEFORE` characters before the point, or at the part's start."""
    return min(CONTEXT_BEFORE, utf16_to_index(excerpt, offset_units))


# --- what the provider reads ---------------------------------------------------------------


@dataclass(slots=True)
class ReadPart:
    """One part the provider reads: a tool, the request settings, a system text or a message."""

    area: int  # TOOLS, SETTINGS, SYSTEM or MESSAGES: where it counts in render order
    kind: str  # "tool", "settings", "system" or "message": what it is
    key: Any  # equal keys: the provider reads the same
    text: str  # what the offset counts in
    index: int  # tool index, system group index, or recorded message index
    blocks: tuple[int, ...] = ()  # positions in request.system (system) or request.messages


def _message_key(m: Message) -> tuple:
    return (m.wire_role or m.role, m.name,
            tuple((p.kind, p.text, p.name, p.call_id, p.media_type) for p in m.parts))


def read_parts(request: NormalisedRequest, body: dict | None = None, keyed: frozenset[str] | None = None
               ) -> list[ReadPart]:
    """``request`` as the provider reads it, part by part in render order. ``body``: the recorded
    provider body, for the request settings (none on the kernel view); ``keyed``: the body members
    that key a cache level beside the prefix (``CacheRules.keyed_fields``; the shipped table's
    when not given)."""
    out: list[ReadPart] = []
    for i, tool in enumerate(request.tools):
        clean = tool.raw if tool.raw is not None else {"name": tool.name}
        if request.protocol == ANTHROPIC:  # the one wire whose tools carry cache_control
            clean = strip_cache_control(clean)[0]
        out.append(ReadPart(TOOLS, "tool", ("t", json_key(clean)), json_text(clean), i))
    if body is not None:
        if keyed is None:
            keyed = default_rules().resolve(None, request.protocol, request.model).keyed_fields
        settings = hashed_settings(request.protocol, body, keyed)
        if settings:
            out.append(ReadPart(SETTINGS, "settings", ("g", json_key(settings)), json_text(settings), 0))
    group: list[int] = []
    n_system = 0

    def close() -> None:
        nonlocal n_system
        if group:
            text = _system_text(request, group)
            # Only the first system text is the system prompt proper (every block of Anthropic's
            # system field is): further leading system messages are the extras the anatomy puts
            # in message bags (a turn context before any history, a depth insertion that landed
            # first, the pruned marker), so they are read as part of the messages.
            area = SYSTEM if n_system == 0 or request.protocol == ANTHROPIC else MESSAGES
            out.append(ReadPart(area, "system", ("s", text), text, n_system, tuple(group)))
            n_system += 1
            group.clear()

    last_origin: tuple | None = None
    for i, block in enumerate(request.system):
        origin = (SRC_SYSTEM_MESSAGE if block.source == SRC_KERNEL_SENTINEL else block.source, block.origin_index)
        if block.origin_offset == 0 or origin != last_origin:
            close()
        group.append(i)
        last_origin = origin
    close()
    positions: dict[int, list[int]] = {}
    for pos, m in enumerate(request.messages):
        positions.setdefault(m.index, []).append(pos)
    for index, where in positions.items():
        msgs = [request.messages[p] for p in where]
        key = ("m", tuple(_message_key(m) for m in msgs))
        out.append(ReadPart(MESSAGES, "message", key, message_text(msgs)[0], index, tuple(where)))
    return out


def _system_text(request: NormalisedRequest, group: list[int]) -> str:
    """The recorded text of one system part: its pieces laid at their offsets, a sentinel where
    the kernel copy had one between them."""
    out = ""
    for i in group:
        block = request.system[i]
        gap = block.origin_offset - len(out)
        if gap > 0:
            out += markers.CACHE_SENTINEL if gap == len(markers.CACHE_SENTINEL) else "\u0000" * gap
        out += block.text
    return out


# --- the divergence --------------------------------------------------------------------------


@dataclass(slots=True)
class PartPoint:
    """The divergence in one of the two requests."""

    part: ReadPart | None  # None: the request has no part at that position
    path: list[Any]  # AnatomyNode, root to deepest
    source: tuple[str, int] | None  # the anatomy source holding the point, and the offset in it
    source_offset: int

    @property
    def label(self) -> str:
        return " › ".join(n.label for n in self.path)


@dataclass(slots=True)
class Divergence:
    """Where two requests first differ for the provider.

    ``name``: the anatomy path of the point (in the request named by ``named_side``), or
    :data:`ENDS_EARLIER`; ``index``: the position of the differing part in render order;
    ``offset``: UTF-16 code units into the differing part (Covel's and the analysis's unit);
    ``offset_chars``: the same in code points; ``left``/``right``: the point in each request;
    ``was``/``now``: the text around it in each (:func:`context_around`)."""

    name: str
    index: int
    area: int
    offset: int
    offset_chars: int
    named_side: str  # "left" or "right"
    left: PartPoint
    right: PartPoint
    was: str | None
    now: str | None


def _name_point(anatomy: Any, request: NormalisedRequest, part: ReadPart, cut: int,
                other: list[Message]) -> tuple[list[Any], tuple[str, int] | None, int]:
    """The anatomy path at code point ``cut`` of ``part``, the source holding it and the offset
    in that source's text. ``other``: the other request's messages at the same place among the
    messages, which decide which of a part's messages holds the difference."""
    if part.kind == "tool":
        tools = next((n for n in anatomy.roots if n.kind == "tools"), None)
        if tools is None or part.index >= len(tools.children):
            return [], None, 0
        return [tools, tools.children[part.index]], None, 0
    if part.kind == "settings":
        return [], None, 0
    if part.kind == "system":
        for i in part.blocks:
            block = request.system[i]
            if block.origin_offset <= cut <= block.origin_offset + len(block.text):
                local = cut - block.origin_offset
                return anatomy.path_at(("system", i), local), ("system", i), local
        return [], None, 0
    msgs = [request.messages[p] for p in part.blocks]
    if len(msgs) == 1 and msgs[0].text == part.text:
        pos, local = part.blocks[0], cut
    else:
        # Structured content, or a Gemini content normalised to several messages: the first of
        # them whose text differs from the other request's, where its text first differs.
        pos, local = part.blocks[-1], 0
        for n, m in enumerate(msgs):
            was = other[n].text if n < len(other) else ""
            if m.text != was or n == len(msgs) - 1:
                pos, local = part.blocks[n], common_prefix(was, m.text)
                break
    return anatomy.path_at(("message", pos), local), ("message", pos), local


def request_divergence(left: NormalisedRequest, right: NormalisedRequest, left_anatomy: Any, right_anatomy: Any,
                       *, left_body: dict | None = None, right_body: dict | None = None) -> Divergence | None:
    """The first point where ``right`` (the later request) stops reading as ``left`` did; None
    when the provider reads both the same (they may still differ in their cache breakpoints)."""
    a, b = read_parts(left, left_body), read_parts(right, right_body)
    d = 0
    limit = min(len(a), len(b))
    while d < limit and a[d].key == b[d].key:
        d += 1
    if d == limit and len(a) == len(b):
        return None
    was_part = a[d] if d < len(a) else None
    now_part = b[d] if d < len(b) else None
    was_text = was_part.text if was_part is not None else None
    now_text = now_part.text if now_part is not None else None
    chars = common_prefix(was_text, now_text) if was_text is not None and now_text is not None else 0
    units = utf16_len(now_text[:chars]) if now_text is not None else 0
    left_point = _point(left_anatomy, left, a, d, chars, right, b)
    right_point = _point(right_anatomy, right, b, d, chars, left, a)
    area_left = was_part.area if was_part is not None else len(AREA_NAMES)
    area_right = now_part.area if now_part is not None else len(AREA_NAMES)
    if now_part is None:
        named, name = "left", ENDS_EARLIER
    else:
        named = "left" if area_left < area_right else "right"
        point, part = (left_point, was_part) if named == "left" else (right_point, now_part)
        name = point.label or _fallback_name(part)  # type: ignore[arg-type]
    return Divergence(name, d, min(area_left, area_right), units, chars, named, left_point, right_point,
                      context_around(was_text, chars) if now_part is not None else None,
                      context_around(now_text, chars))


def _point(anatomy: Any, request: NormalisedRequest, parts: list[ReadPart], d: int, cut: int,
           other_request: NormalisedRequest, other_parts: list[ReadPart]) -> PartPoint:
    if d >= len(parts):
        return PartPoint(None, [], None, 0)
    part = parts[d]
    other: list[Message] = []
    if part.kind == "message":
        ordinal = sum(1 for p in parts[:d] if p.kind == "message")
        messages = [p for p in other_parts if p.kind == "message"]
        if ordinal < len(messages):
            other = [other_request.messages[i] for i in messages[ordinal].blocks]
    path, source, offset = _name_point(anatomy, request, part, cut, other)
    return PartPoint(part, path, source, offset)


def _fallback_name(part: ReadPart) -> str:
    if part.kind == "tool":
        return f"tools › tool #{part.index}"
    if part.kind == "settings":
        return "request settings"
    if part.kind == "system":
        return f"system prompt (part {part.index + 1})"
    return f"message {part.index + 1}"
