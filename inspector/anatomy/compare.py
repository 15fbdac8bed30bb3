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
A part left over on both sides with the same key and text (a depth insertion that moved with the
history) is one row, *moved*, at its place in the later request.

The alignment shows what changed; where the two requests first differ is another question, the
provider's: :func:`inspector.anatomy.divergence.request_divergence` answers it, and the
comparison's :attr:`Comparison.first_difference` is that answer located in the rows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any

from inspector.anatomy.divergence import (
    Divergence,
    PartPoint,
    common_prefix,
    request_divergence,
)
from inspector.covel import markers
from inspector.export import node_text
from inspector.jsjson import js_quote
from inspector.numbering import shown_label
from inspector.output import table_lines
from inspector.views import DetailNode, RequestDetail

EQUAL = "equal"
CHANGED = "changed"
MOVED = "moved"
ADDED = "added"
REMOVED = "removed"
STATUSES = (EQUAL, CHANGED, MOVED, ADDED, REMOVED)
# The unit of Divergence.offset, said in the JSON so a reader need not guess.
OFFSET_UNIT = "utf-16"

# Parts Covel places at a depth from the end of the history: they move as the history grows, by
# design, so they never anchor the alignment (a history message does) and show as moved instead.
FLOATING_KINDS = frozenset({"system-insertion"})

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
    first_diff_offset: int | None  # character index into both texts where they first differ
    section: str
    left_text: str = ""
    right_text: str = ""
    left_path: str = ""
    right_path: str = ""
    # The texts differ only in their cache breakpoint markers: the provider reads them the same.
    breakpoints_differ: bool = False

    @property
    def left_label(self) -> str:
        return self.left.label if self.left is not None else ""

    @property
    def right_label(self) -> str:
        return self.right.label if self.right is not None else ""

    @property
    def label(self) -> str:
        """The part's name, both sides' when they differ (``assistant #2 → assistant #4``)."""
        left, right = self.left_label, self.right_label
        if left and right and left != right:
            return f"{left} → {right}"
        return left or right

    def to_json(self) -> dict[str, Any]:
        return {
            "section": self.section,
            "label": self.label,
            "leftLabel": self.left_label or None,
            "rightLabel": self.right_label or None,
            "status": self.status,
            "firstDiffOffset": self.first_diff_offset,
            "breakpointsDiffer": self.breakpoints_differ,
            "left": self.left_path or None,
            "right": self.right_path or None,
            "leftTokens": self.left.exact if self.left is not None else None,
            "rightTokens": self.right.exact if self.right is not None else None,
        }


# A row with the index of the part each side shows (None where that side has none).
_Aligned = tuple[Row, int | None, int | None]


@dataclass(slots=True)
class FirstDifference:
    """Where the provider stops reading the two requests the same (:class:`Divergence`), in the
    rows: ``left_row``/``right_row`` hold the point on each side (None where that request has no
    part there), ``left_offset``/``right_offset`` are character indices into those rows' texts
    (for marking), ``row_index`` is the row of the side the point is named on."""

    divergence: Divergence
    row_index: int
    left_row: int | None
    right_row: int | None
    left_offset: int
    right_offset: int

    @property
    def path(self) -> str:
        return self.divergence.name

    @property
    def offset(self) -> int:
        """UTF-16 code units into the differing part (:data:`OFFSET_UNIT`)."""
        return self.divergence.offset

    @property
    def was(self) -> str | None:
        return self.divergence.was

    @property
    def now(self) -> str | None:
        return self.divergence.now

    def status(self, rows: list[Row]) -> str:
        return rows[self.row_index].status


@dataclass(slots=True)
class Comparison:
    left: RequestDetail
    right: RequestDetail
    rows: list[Row] = field(default_factory=list)
    first_difference: FirstDifference | None = None

    @property
    def identical(self) -> bool:
        """Every part equal, breakpoints included."""
        return all(r.status == EQUAL and not r.breakpoints_differ for r in self.rows)

    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(STATUSES, 0)
        for row in self.rows:
            out[row.status] += 1
        return out

    def to_json(self) -> dict[str, Any]:
        fd = self.first_difference
        return {
            "left": self.left.row["eventId"],
            "right": self.right.row["eventId"],
            "counts": self.counts(),
            "firstDifference": fd.path if fd is not None else None,
            "offset": fd.offset if fd is not None else None,
            "offsetUnit": OFFSET_UNIT,
            "was": fd.was if fd is not None else None,
            "now": fd.now if fd is not None else None,
            "firstDifferenceRows": None if fd is None else {
                "named": fd.row_index, "left": fd.left_row, "right": fd.right_row,
                "status": fd.status(self.rows)},
            "rows": [r.to_json() for r in self.rows],
        }

    def to_text(self) -> str:
        """The comparison for a person: who is compared, the counts, the first difference with the
        text around it, and a numbered row per aligned part (numbers from 1)."""
        fd = self.first_difference
        counts = self.counts()
        lines = [
            f"left  {self.left.row['eventId']}",
            f"right {self.right.row['eventId']}",
            ", ".join(f"{counts[s]} {s}" for s in STATUSES) + " parts",
        ]
        if fd is None:
            lines.append("The provider reads both requests the same"
                         + ("." if self.identical else " (only cache breakpoints differ)."))
        else:
            lines.append(f"first difference: {shown_label(fd.path)} at character {fd.divergence.offset_chars + 1} of its part "
                         f"({fd.offset} {OFFSET_UNIT} units in), row {fd.row_index + 1}")
            lines.append(f"  was: {_quoted(fd.was)}")
            lines.append(f"  now: {_quoted(fd.now)}")
        lines.append("")
        table = [("#", "status", "section", "part", "left tok", "right tok", "")]
        for i, row in enumerate(self.rows):
            note = ""
            if fd is not None and i in (fd.row_index, fd.left_row, fd.right_row):
                note = "◀ first difference"
            elif row.first_diff_offset is not None:
                note = f"char {row.first_diff_offset + 1}"
            elif row.breakpoints_differ:
                note = "cache breakpoint moved"
            table.append((str(i + 1), row.status, row.section, shown_label(row.label),
                          "" if row.left is None else f"{row.left.exact:,}",
                          "" if row.right is None else f"{row.right.exact:,}", note))
        lines.extend(table_lines(table, right={0, 4, 5}))
        return "\n".join(lines) + "\n"


def _quoted(text: str | None) -> str:
    # As Covel's report prints an excerpt (JSON-quoted), "(no such part)" where there is none.
    return js_quote(text) if text is not None else "(no such part)"


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


def _without_markers(text: str) -> str:
    return text.replace(markers.CACHE_SENTINEL, "") if markers.CACHE_SENTINEL in text else text


def _pair(a: Part, b: Part) -> Row:
    if a.text == b.text:
        return Row(a.node, b.node, EQUAL, None, a.section, a.text, b.text, a.path, b.path)
    if _without_markers(a.text) == _without_markers(b.text):
        return Row(a.node, b.node, EQUAL, None, a.section, a.text, b.text, a.path, b.path, breakpoints_differ=True)
    off = common_prefix(a.text, b.text)
    return Row(a.node, b.node, CHANGED, off, a.section, a.text, b.text,
               _deepest_path(a, off), _deepest_path(b, off))


def _removed(a: Part) -> Row:
    return Row(a.node, None, REMOVED, None, a.section, a.text, "", a.path, "")


def _added(b: Part) -> Row:
    return Row(None, b.node, ADDED, None, b.section, "", b.text, "", b.path)


def _align_by_key(left: list[Part], right: list[Part]) -> list[_Aligned]:
    rows: list[_Aligned] = []
    sm = SequenceMatcher(None, [p.key for p in left], [p.key for p in right], autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            rows += [(_pair(left[i], right[j]), i, j) for i, j in zip(range(i1, i2), range(j1, j2))]
        elif op == "replace":
            # Different keys at the same place: shown as a removal and an addition, never paired,
            # because pairing a tool with a history message would invent a "change".
            rows += [(_removed(left[i]), i, None) for i in range(i1, i2)]
            rows += [(_added(right[j]), None, j) for j in range(j1, j2)]
        elif op == "delete":
            rows += [(_removed(left[i]), i, None) for i in range(i1, i2)]
        else:
            rows += [(_added(right[j]), None, j) for j in range(j1, j2)]
    return rows


def _aligned(left: list[Part], right: list[Part]) -> list[_Aligned]:
    """Rows with the index of the part each side shows (None where that side has none)."""
    rows: list[_Aligned] = []
    sm = SequenceMatcher(lambda element: element[0][1] in FLOATING_KINDS, [(p.key, p.text) for p in left],
                         [(p.key, p.text) for p in right], autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            rows += [(_pair(left[i], right[j]), i, j) for i, j in zip(range(i1, i2), range(j1, j2))]
        else:
            for row, i, j in _align_by_key(left[i1:i2], right[j1:j2]):
                rows.append((row, None if i is None else i + i1, None if j is None else j + j1))
    return _merge_moves(rows, left)


def _merge_moves(rows: list[_Aligned], left: list[Part]) -> list[_Aligned]:
    """A removed part and an added part with the same key and text are one part that moved: one
    row, at its place in the later request."""
    removed: dict[tuple, list[int]] = {}
    for n, (row, i, _j) in enumerate(rows):
        if row.status == REMOVED and i is not None:
            removed.setdefault((left[i].key, left[i].text), []).append(n)
    if not removed:
        return rows
    gone: set[int] = set()
    out = list(rows)
    for n, (row, _i, j) in enumerate(rows):
        if row.status != ADDED or row.right is None:
            continue
        candidates = removed.get((_key(row.section, row.right), row.right_text))
        if not candidates:
            continue
        m = candidates.pop(0)
        old, i, _ = rows[m]
        out[n] = (Row(old.left, row.right, MOVED, None, row.section, old.left_text, row.right_text,
                      old.left_path, row.right_path), i, j)
        gone.add(m)
    return [r for n, r in enumerate(out) if n not in gone]


def _body(detail: RequestDetail) -> dict | None:
    """The recorded provider body the request view shows (None on the kernel view)."""
    if detail.request.source != "provider":
        return None
    return next((a.body for a in detail.attempts if a.body is not None), None)


def compare_details(a: RequestDetail, b: RequestDetail) -> Comparison:
    """Align ``a`` (left) and ``b`` (right) part by part; see the module docstring."""
    left, right = parts_of(a), parts_of(b)
    aligned = _aligned(left, right)
    comparison = Comparison(a, b, [row for row, _i, _j in aligned])
    divergence = request_divergence(a.request, b.request, a.anatomy, b.anatomy, left_body=_body(a), right_body=_body(b))
    if divergence is not None:
        comparison.first_difference = _locate(divergence, aligned, left, right)
    return comparison


def _locate(divergence: Divergence, aligned: list[_Aligned], left: list[Part],
            right: list[Part]) -> FirstDifference:
    left_at = _part_at(left, divergence.left)
    right_at = _part_at(right, divergence.right)
    left_row = next((n for n, (_r, i, _j) in enumerate(aligned) if left_at is not None and i == left_at[0]), None)
    right_row = next((n for n, (_r, _i, j) in enumerate(aligned) if right_at is not None and j == right_at[0]), None)
    named = left_row if divergence.named_side == "left" else right_row
    if named is None:
        named = right_row if right_row is not None else left_row
    return FirstDifference(divergence, named if named is not None else 0, left_row, right_row,
                           left_at[1] if left_at is not None else 0, right_at[1] if right_at is not None else 0)


def _part_at(parts: list[Part], point: PartPoint) -> tuple[int, int] | None:
    """The part holding ``point`` and the character index of the point in the part's text; a
    point between two parts of its source (white space the anatomy leaves out) is at the start of
    the next one."""
    if point.part is None:
        return None
    if point.part.kind == "tool":
        tools = [n for n, p in enumerate(parts) if p.node.kind == "tool"]
        return (tools[point.part.index], 0) if point.part.index < len(tools) else None
    if point.source is None:
        return None
    for inclusive in (False, True):
        for n, part in enumerate(parts):
            at = _index_in(part.node, point.source, point.source_offset, inclusive)
            if at is not None:
                return n, at
    following = [(node.start, n) for n, part in enumerate(parts) for node in part.node.walk()
                 if node.text and not node.is_breakpoint and node.source == point.source
                 and node.start > point.source_offset]
    return (min(following)[1], 0) if following else None


def _index_in(node: DetailNode, source: tuple[str, int], offset: int, inclusive: bool) -> int | None:
    """Where ``offset`` of ``source`` falls in :func:`node_text` of ``node``; None when the node
    does not hold it."""
    if node.is_breakpoint:
        return None
    if node.text:
        if node.source != source or not (node.start <= offset < node.end or (inclusive and offset == node.end)):
            return None
        at = offset - node.start
        # node_text draws a sentinel at each breakpoint child: the point moves past those before it.
        shift = sum(len(markers.CACHE_SENTINEL) for c in node.children
                    if c.is_breakpoint and 0 <= c.start - node.start <= at)
        return at + shift
    pos = 0
    for child in node.children:
        piece = node_text(child)
        if not child.is_breakpoint:
            inner = _index_in(child, source, offset, inclusive)
            if inner is not None:
                return pos + inner
        if piece:
            pos += len(piece) + len(markers.PART_SEPARATOR)  # node_text's joiner
    return None
