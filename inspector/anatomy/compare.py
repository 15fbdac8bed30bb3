"""Part-by-part comparison of two requests.

A flat text diff of two prompts says "something changed at character 18,412"; what a user needs is
"the <world-dimensions> block of the turn context changed at its 40th character". So the two
requests are aligned by their anatomy: both are cut into parts (each tool, each system-prompt part
and cache breakpoint, each message node of each bag), parts are matched by key (bag, kind,
label without message positions) with :class:`difflib.SequenceMatcher`, and only matched pairs are
compared as text.

Alignment runs twice: first on (key, text) so identical parts anchor even when history was pruned
from the front (which shifts every later part), then on keys alone inside each unmatched stretch,
so a part whose text changed still pairs with its counterpart instead of showing as removed+added.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any

from inspector.export import node_text
from inspector.views import DetailNode, RequestDetail

EQUAL = "equal"
CHANGED = "changed"
ADDED = "added"
REMOVED = "removed"

# Message labels carry the position in the request ("user #12"); positions move when history
# grows, so they must not be part of the key.
_POSITION = re.compile(r"\s*#\d+")


@dataclass(slots=True)
class Part:
    """One comparable unit: the node and the labels leading to it."""

    node: DetailNode
    section: str  # "tools", "system prompt", or the bag label
    key: tuple[str, str, str]
    text: str

    @property
    def path(self) -> str:
        return f"{self.section} › {self.node.label}" if self.section != self.node.label else self.node.label


@dataclass(slots=True)
class Row:
    left: DetailNode | None
    right: DetailNode | None
    status: str
    first_diff_offset: int | None
    section: str
    left_text: str = ""
    right_text: str = ""
    left_path: str = ""
    right_path: str = ""

    @property
    def label(self) -> str:
        node = self.left if self.left is not None else self.right
        return node.label if node is not None else ""

    def to_json(self) -> dict[str, Any]:
        return {
            "section": self.section,
            "label": self.label,
            "status": self.status,
            "firstDiffOffset": self.first_diff_offset,
            "left": self.left_path or None,
            "right": self.right_path or None,
            "leftTokens": self.left.exact if self.left is not None else None,
            "rightTokens": self.right.exact if self.right is not None else None,
        }


@dataclass(slots=True)
class FirstDifference:
    row_index: int
    offset: int  # Python str index into both texts (0 for a part present on one side only)
    path: str  # anatomy path of the deepest node at the offset, on the side that has it
    status: str


@dataclass(slots=True)
class Comparison:
    left: RequestDetail
    right: RequestDetail
    rows: list[Row] = field(default_factory=list)
    first_difference: FirstDifference | None = None

    @property
    def identical(self) -> bool:
        return self.first_difference is None

    def counts(self) -> dict[str, int]:
        out = {EQUAL: 0, CHANGED: 0, ADDED: 0, REMOVED: 0}
        for row in self.rows:
            out[row.status] += 1
        return out

    def to_json(self) -> dict[str, Any]:
        fd = self.first_difference
        return {
            "left": self.left.row["eventId"],
            "right": self.right.row["eventId"],
            "counts": self.counts(),
            "firstDifference": None if fd is None else {
                "row": fd.row_index, "offset": fd.offset, "path": fd.path, "status": fd.status},
            "rows": [r.to_json() for r in self.rows],
        }


def _key(section: str, node: DetailNode) -> tuple[str, str, str]:
    # The role is left out: Covel sends the turn context as a system message on the first turn
    # and folds it into a user message once history exists, yet it is the same part. History
    # message labels still name their role ("user #3"), so user and assistant never pair.
    return (section, node.kind, _POSITION.sub("", node.label))


def parts_of(detail: RequestDetail) -> list[Part]:
    """The comparable parts of a request, in request order."""
    out: list[Part] = []
    for root in detail.roots:
        if root.kind == "tools":
            section = root.label
            nodes = root.children
        elif root.kind == "system-prompt":
            section = root.label
            nodes = root.children or [root]
        elif root.children and not root.text:
            section = root.label  # a grouping bag: one part per message
            nodes = root.children
        else:
            section = root.label  # a single-message bag is its own part
            nodes = [root]
        for node in nodes:
            out.append(Part(node, section, _key(section, node), node_text(node)))
    return out


def _common_prefix(a: str, b: str) -> int:
    n = min(len(a), len(b))
    lo = 0
    # Compare in halving chunks: long prompts share most of their text.
    step = 1 << max(0, n.bit_length() - 1)
    while step:
        if lo + step <= n and a[lo:lo + step] == b[lo:lo + step]:
            lo += step
        step >>= 1
    while lo < n and a[lo] == b[lo]:
        lo += 1
    return lo


def _deepest_path(part: Part, offset: int) -> str:
    """Anatomy path of the deepest node of ``part`` containing ``offset`` (an index into
    ``part.text``, which starts at ``part.node.start`` of the node's source)."""
    labels = [part.section] if part.section != part.node.label else []
    node = part.node
    labels.append(node.label)
    if not node.text:
        return " › ".join(labels)
    at = node.start + offset
    while True:
        nxt = next((c for c in node.children if not c.is_breakpoint and c.source == node.source
                    and c.start <= at < c.end), None)
        if nxt is None:
            break
        labels.append(nxt.label)
        node = nxt
    return " › ".join(labels)


def _pair(a: Part, b: Part) -> Row:
    if a.text == b.text:
        return Row(a.node, b.node, EQUAL, None, a.section, a.text, b.text, a.path, b.path)
    off = _common_prefix(a.text, b.text)
    return Row(a.node, b.node, CHANGED, off, a.section, a.text, b.text,
               _deepest_path(a, off), _deepest_path(b, off))


def _removed(a: Part) -> Row:
    return Row(a.node, None, REMOVED, None, a.section, a.text, "", a.path, "")


def _added(b: Part) -> Row:
    return Row(None, b.node, ADDED, None, b.section, "", b.text, "", b.path)


def _align_by_key(left: list[Part], right: list[Part]) -> list[Row]:
    rows: list[Row] = []
    sm = SequenceMatcher(None, [p.key for p in left], [p.key for p in right], autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            rows += [_pair(left[i], right[j]) for i, j in zip(range(i1, i2), range(j1, j2))]
        elif op == "replace":
            # Different keys at the same place: shown as a removal and an addition, never paired,
            # because pairing a tool with a history message would invent a "change".
            rows += [_removed(left[i]) for i in range(i1, i2)]
            rows += [_added(right[j]) for j in range(j1, j2)]
        elif op == "delete":
            rows += [_removed(left[i]) for i in range(i1, i2)]
        else:
            rows += [_added(right[j]) for j in range(j1, j2)]
    return rows


def compare_parts(left: list[Part], right: list[Part]) -> list[Row]:
    rows: list[Row] = []
    sm = SequenceMatcher(None, [(p.key, p.text) for p in left], [(p.key, p.text) for p in right], autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            rows += [_pair(left[i], right[j]) for i, j in zip(range(i1, i2), range(j1, j2))]
        else:
            rows += _align_by_key(left[i1:i2], right[j1:j2])
    return rows


def compare_details(a: RequestDetail, b: RequestDetail) -> Comparison:
    """Align ``a`` (left) and ``b`` (right) part by part; see the module docstring."""
    left, right = parts_of(a), parts_of(b)
    rows = compare_parts(left, right)
    comparison = Comparison(a, b, rows)
    differing = [i for i, row in enumerate(rows) if row.status != EQUAL]
    # A cache breakpoint added or removed is a marker, not text the provider reads: the first
    # difference is the first part whose text differs, and a breakpoint only when nothing else
    # does (one request may show breakpoints the other's wire does not carry).
    content = [i for i in differing if not _is_marker(rows[i])]
    if differing:
        i = (content or differing)[0]
        row = rows[i]
        path = row.left_path or row.right_path
        if row.status == CHANGED:
            path = row.right_path or row.left_path
        comparison.first_difference = FirstDifference(i, row.first_diff_offset or 0, path, row.status)
    return comparison


def _is_marker(row: Row) -> bool:
    node = row.left if row.left is not None else row.right
    return node is not None and node.is_breakpoint
