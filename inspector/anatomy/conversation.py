"""The request as the conversation it is: one card per message (the tools and the system prompt
are a card each), in request order, for the request view's Conversation tab.

A card says who speaks (``role``), which part of Covel's assembly the message is (``label``: the
anatomy's own label, a ``bag › message`` path for a message in a multi-message bag), its tokens,
and its text cut into the segments the anatomy found in it (the tags of the turn context, the
pieces of the system prompt), with the cache breakpoints between them. Segments longer than
:data:`COLLAPSE_CHARS` characters or :data:`COLLAPSE_LINES` lines start collapsed and carry a
short preview, so a view never lays out megabytes before the user asks for them.

The texts are the recorded strings, not JSON: a newline is a line break, and a cache sentinel
stays in the text (the views show it as a chip).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from inspector.export import node_text
from inspector.views import DetailNode, RequestDetail

__all__ = ["COLLAPSE_CHARS", "COLLAPSE_LINES", "Card", "Segment", "conversation", "find_hits"]

COLLAPSE_CHARS = 1_500
COLLAPSE_LINES = 24
PREVIEW_LINES = 3
PREVIEW_CHARS = 300
PATH_SEPARATOR = " › "  # as Anatomy.path_label joins labels


@dataclass(frozen=True, slots=True)
class Segment:
    """A piece of a card's text. ``label`` None: the message's own text (or text between the
    labelled parts). ``breakpoint`` set: a zero-width cache breakpoint, labelled so."""

    label: str | None
    kind: str | None
    text: str
    exact: int | None
    estimate: int | None
    collapsed: bool
    preview: str
    breakpoint: str | None = None


@dataclass(frozen=True, slots=True)
class Card:
    index: int  # 0-based position in the conversation (shown through inspector.numbering)
    role: str | None  # None: the tools, which no role sends
    label: str  # the anatomy's label, or "bag › message"
    kind: str
    recognised_by: str
    exact: int
    estimate: int
    share: float
    segments: tuple[Segment, ...]
    # The message's text as the anatomy's text pane shows it (inspector.export.node_text): a cache
    # sentinel where a breakpoint sits; what copying the card gives.
    text: str = ""

    @property
    def breakpoints(self) -> tuple[str, ...]:
        """The labels of the cache breakpoints in this card, in order."""
        return tuple(s.breakpoint for s in self.segments if s.breakpoint is not None)

    @property
    def chars(self) -> int:
        return sum(len(s.text) for s in self.segments)


def _folded(text: str) -> tuple[bool, str]:
    long = len(text) > COLLAPSE_CHARS or text.count("\n") >= COLLAPSE_LINES
    if not long:
        return False, ""
    lines = text.lstrip("\n").split("\n", PREVIEW_LINES)[:PREVIEW_LINES]
    preview = "\n".join(lines)
    if len(preview) > PREVIEW_CHARS:
        preview = preview[:PREVIEW_CHARS]
    return True, preview


def _segment(label: str | None, kind: str | None, text: str, exact: int | None, estimate: int | None) -> Segment:
    collapsed, preview = _folded(text)
    return Segment(label, kind, text, exact, estimate, collapsed, preview)


def _breakpoint(node: DetailNode) -> Segment:
    return Segment(None, node.kind, "", None, None, False, "", breakpoint=node.label)


def _segments(node: DetailNode, exact_counted: bool) -> tuple[Segment, ...]:
    def tokens(n: DetailNode) -> int | None:
        return n.exact if exact_counted else None

    if node.text:
        parts = sorted(node.children, key=lambda c: (c.start, not c.is_breakpoint))
        labelled = [c for c in parts if not c.is_breakpoint]
        if not labelled:
            # The message is one piece; its breakpoints cut it where they sit.
            out: list[Segment] = []
            pos = node.start
            for bp in (c for c in parts if c.is_breakpoint):
                at = max(pos, min(node.end, bp.start))
                if at > pos:
                    out.append(_segment(None, None, node.text[pos - node.start:at - node.start], None, None))
                out.append(_breakpoint(bp))
                pos = at
            rest = node.text[pos - node.start:]
            if rest or not out:
                out.append(_segment(None, None, rest, tokens(node) if not out else None,
                                    node.estimate if not out else None))
            return tuple(out)
        out = []
        pos = node.start
        for child in parts:
            start = max(pos, min(node.end, child.start))
            gap = node.text[pos - node.start:start - node.start]
            if gap.strip():
                out.append(_segment(None, None, gap, None, None))
            if child.is_breakpoint:
                out.append(_breakpoint(child))
                pos = start
                continue
            end = max(start, min(node.end, child.end))
            out.append(_segment(child.label, child.kind, node.text[start - node.start:end - node.start],
                                tokens(child), child.estimate))
            pos = end
        tail = node.text[pos - node.start:]
        if tail.strip():
            out.append(_segment(None, None, tail, None, None))
        return tuple(out)
    out = []
    for child in node.children:
        if child.is_breakpoint:
            out.append(_breakpoint(child))
        else:
            out.append(_segment(child.label, child.kind, node_text(child), tokens(child), child.estimate))
    return tuple(out)


def conversation(detail: RequestDetail) -> list[Card]:
    """The cards of ``detail``'s request, in request order."""
    exact = detail.exact_counted
    cards: list[Card] = []

    def add(node: DetailNode, label: str, role: str | None) -> None:
        cards.append(Card(len(cards), role, label, node.kind, node.recognised_by, node.exact if exact else 0,
                          node.estimate, node.share, _segments(node, exact), node_text(node)))

    for root in detail.roots:
        if root.kind == "tools":
            add(root, root.label, None)
        elif root.kind == "system-prompt":
            add(root, root.label, root.role or "system")
        elif root.source is not None or root.text:
            add(root, root.label, root.role)
        else:
            # A bag of messages: a card per message, named by the bag and the message.
            for child in root.children:
                if child.is_breakpoint:
                    if cards:
                        last = cards[-1]
                        cards[-1] = Card(last.index, last.role, last.label, last.kind, last.recognised_by,
                                         last.exact, last.estimate, last.share,
                                         last.segments + (_breakpoint(child),), last.text)
                    continue
                add(child, root.label + PATH_SEPARATOR + child.label, child.role)
    return cards


def find_hits(text: str, needle: str, limit: int | None = None) -> list[tuple[int, int]]:
    """``(start, end)`` of every occurrence of ``needle`` in ``text``, ignoring ASCII case only
    (the search's rule, inspector.search.needles), without overlaps; at most ``limit``."""
    if not needle or not text:
        return []
    # re's ASCII flag limits IGNORECASE to A-Z / a-z, as the search's bytes.lower() does; a C scan
    # (a 100,000-character provider body in about a millisecond).
    out: list[tuple[int, int]] = []
    for match in re.finditer(re.escape(needle), text, re.IGNORECASE | re.ASCII):
        out.append(match.span())
        if limit is not None and len(out) >= limit:
            break
    return out
