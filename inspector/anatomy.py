"""Label every part of a normalised request with Covel's structure (covel-assembly.md §1.6).

The result is a tree. Every node says how it was recognised (``recognised_by``):

* ``sentinel`` - by its place between cache sentinels (or the Anthropic system blocks cut at them);
* ``marker`` - by a tag, bracket prefix or fixed sentence Covel writes (``inspector.covel.markers``);
* ``position`` - by where it sits relative to parts recognised otherwise;
* ``structure`` - by message shape (image parts, tool calls, tool results);
* ``guess`` - by exclusion; the label says what else it could be.

Nodes locate their text: ``source`` is ``("system", block_index)``, ``("message", position in
request.messages)`` or ``("tool", tool_index)`` and ``start``/``end`` are offsets into that
source's text (``SystemBlock.text``, ``Message.text``, ``Tool.text``). Offsets map back to the
deepest node with ``Anatomy.path_at``.

Tree shape: ``tools``; ``system-prompt`` (children: preamble, runtime-body, stable-segments,
world-info-before, session-injects, world-info-after, turn-segments, response-format and
zero-width cache-breakpoint nodes); then the message bags in request order. A bag that is one
message by construction (turn-context, pictures, current-input, closing-cue, response-format) is
that message's node itself, so a path reads ``turn context › <world-dimensions>``; the other bags
(pre-history, summaries, history, execution-story, post-history, tool-loop) are grouping nodes
over one node per message, one grouping node per contiguous run.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from inspector.covel import markers
from inspector.wire.model import (
    IMAGE,
    IMAGE_NOTE,
    SRC_INSTRUCTIONS,
    SRC_KERNEL_SENTINEL,
    SRC_SYSTEM_BLOCK,
    SRC_SYSTEM_INSTRUCTION,
    SRC_SYSTEM_MESSAGE,
    SRC_SYSTEM_STRING,
    TOOL_CALL,
    TOOL_RESULT,
    Message,
    NormalisedRequest,
)

SENTINEL = "sentinel"
MARKER = "marker"
POSITION = "position"
GUESS = "guess"
STRUCTURE = "structure"

# Bags, in the order Covel assembles them (covel-assembly.md §1.3). ``response-format`` is not a
# kernel part but an adapter/runtime system message that can sit between the turn context and
# the player message, so it gets its own bag rather than breaking the turn-context rule.
BAGS = (
    "pre-history",
    "summaries",
    "history",
    "turn-context",
    "response-format",
    "pictures",
    "current-input",
    "execution-story",
    "closing-cue",
    "post-history",
    "tool-loop",
)
SINGLE_MESSAGE_BAGS = frozenset({"turn-context", "pictures", "current-input", "closing-cue", "response-format"})
BAG_LABELS = {
    "pre-history": "pre-history",
    "summaries": "summaries",
    "history": "history",
    "turn-context": "turn context",
    "response-format": "response format",
    "pictures": "pictures",
    "current-input": "current input",
    "execution-story": "execution story",
    "closing-cue": "closing cue",
    "post-history": "post-history (or depth-0 insertions)",
    "tool-loop": "tool loop",
}

_TAG_OPEN = re.compile(r"^<([A-Za-z][\w.:-]*)(?:[ \t][^>\n]*)?>", re.M)
_PREAMBLE_LINE = re.compile(r"^(?:" + "|".join(re.escape(t) for t in markers.PREAMBLE_TAGS) + ")", re.M)
_TURN_DATA_LINE = re.compile(r"^<(" + "|".join(re.escape(t) for t in markers.TURN_DATA_TAGS) + r")>", re.M)
_STAGE_ACTIVATION = re.compile(r'"source"\s*:\s*"stage"')
_PRUNED = re.compile(
    r"^(?:"
    + re.escape(markers.PRUNED_MARKER_EN)
    + "|"
    + re.escape(markers.PRUNED_MARKER_ZH_PREFIX)
    + r"[^\n]*|"
    + markers.LEGACY_PRUNED_MARKER_PATTERN.strip("^$")
    + r")$",
    re.M,
)
_ANY_TAG_LINE = re.compile(r"^<[A-Za-z]", re.M)
_SESSION_INJECT_TAGS = frozenset({markers.AVAILABLE_EVENTS_TAG, "runtime-activation"})
_SYSTEM_SEGMENT_TAGS = frozenset(
    t for t, where in markers.KNOWN_SEGMENT_TAGS.items() if where in ("system", "either")
)
_TURN_SEGMENT_TAGS = frozenset(t for t, where in markers.KNOWN_SEGMENT_TAGS.items() if where == "turn")


@dataclass(slots=True)
class AnatomyNode:
    kind: str
    label: str
    text: str
    recognised_by: str
    role: str | None = None
    source: tuple[str, int] | None = None
    start: int = 0
    end: int = 0
    children: list[AnatomyNode] = field(default_factory=list)
    bag: str | None = None


class Anatomy:
    """The labelled tree of one request, with lookups by bag, by message and by offset."""

    __slots__ = ("request", "roots", "bags", "by_message", "_index")

    def __init__(
        self,
        request: NormalisedRequest,
        roots: list[AnatomyNode],
        bags: dict[str, list[AnatomyNode]],
        by_message: dict[int, AnatomyNode],
    ):
        self.request = request
        self.roots = roots
        self.bags = bags
        self.by_message = by_message
        # source -> [(ancestors, node)] for the highest nodes carrying that source
        self._index: dict[tuple[str, int], list[tuple[tuple[AnatomyNode, ...], AnatomyNode]]] = {}
        stack: list[tuple[AnatomyNode, tuple[AnatomyNode, ...]]] = [(r, ()) for r in reversed(roots)]
        while stack:
            node, ancestors = stack.pop()
            parent_source = ancestors[-1].source if ancestors else None
            if node.source is not None and node.source != parent_source:
                self._index.setdefault(node.source, []).append((ancestors, node))
            below = ancestors + (node,)
            stack.extend((c, below) for c in reversed(node.children))
        for nodes in self._index.values():
            nodes.sort(key=lambda entry: entry[1].start)

    def walk(self) -> Iterator[AnatomyNode]:
        """Every node, depth first, in request order."""
        stack = list(reversed(self.roots))
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def path_at(self, source: tuple[str, int], offset: int) -> list[AnatomyNode]:
        """Root-to-deepest nodes whose text contains ``offset`` of ``source``.

        An offset equal to a node's end (one text is a prefix of the other in a diff) maps to the
        node ending there when no node contains it; an offset in a gap between parts maps to the
        nearest common ancestor.
        """
        entries = self._index.get(tuple(source), [])
        if not entries:
            return []
        for inclusive in (False, True):
            for ancestors, node in entries:
                if _contains(node, offset, inclusive):
                    path = list(ancestors) + [node]
                    while True:
                        nxt = next((c for c in node.children if _contains(c, offset, inclusive)), None)
                        if nxt is None:
                            return path
                        path.append(nxt)
                        node = nxt
        return list(entries[0][0])

    @staticmethod
    def path_label(path: list[AnatomyNode]) -> str:
        return " › ".join(n.label for n in path)


def _contains(node: AnatomyNode, offset: int, inclusive: bool) -> bool:
    if node.kind == "cache-breakpoint":
        return False
    if node.start <= offset < node.end:
        return True
    return inclusive and offset == node.end


# --- text scanning ----------------------------------------------------------------------------


def _strip_span(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _scan(text: str, start: int, end: int) -> list[tuple[str | None, int, int]]:
    """Tagged blocks (a line starting ``<name>`` up to ``</name>``) and the untagged stretches
    between them, as ``(tag or None, start, end)``; whitespace-only stretches are dropped.

    Linear: a tag whose closing tag does not occur after it is remembered, so an unclosed opener
    repeated many times does not rescan the text each time.
    """
    tokens: list[tuple[str | None, int, int]] = []
    last_close: dict[str, int] = {}
    pos = gap = start
    while pos < end:
        m = _TAG_OPEN.search(text, pos, end)
        if m is None:
            break
        name = m.group(1)
        close = f"</{name}>"
        last = last_close.get(name)
        if last is None:
            last = text.rfind(close, 0, end)
            last_close[name] = last
        if last < m.end():
            pos = m.end()
            continue
        c = text.find(close, m.end(), end)
        s, e = _strip_span(text, gap, m.start())
        if s < e:
            tokens.append((None, s, e))
        tokens.append((name, m.start(), c + len(close)))
        pos = gap = c + len(close)
    s, e = _strip_span(text, gap, end)
    if s < e:
        tokens.append((None, s, e))
    return tokens


def _is_pruned(text: str) -> bool:
    return _PRUNED.fullmatch(text.strip()) is not None


def _preamble_end(text: str, start: int, end: int) -> int:
    """End of the run of bracket-tagged lines at ``start`` (``start`` when there is none)."""
    pos = start
    while pos < end and _PREAMBLE_LINE.match(text, pos, end):
        nl = text.find("\n", pos, end)
        if nl < 0:
            return end
        pos = nl + 1
    return _strip_span(text, start, pos)[1] if pos > start else start


# --- node builders ----------------------------------------------------------------------------


class _Builder:
    """Builds nodes for one source text."""

    __slots__ = ("text", "source")

    def __init__(self, text: str, source: tuple[str, int]):
        self.text = text
        self.source = source

    def node(self, kind: str, label: str, start: int, end: int, rb: str, **kw) -> AnatomyNode:
        return AnatomyNode(kind, label, self.text[start:end], rb, source=self.source, start=start, end=end, **kw)

    def preamble(self, start: int, end: int, rb: str) -> AnatomyNode:
        node = self.node("preamble", "preamble", start, end, rb)
        line_starts = [m.start() for m in _PREAMBLE_LINE.finditer(self.text, start, end)]
        for i, ls in enumerate(line_starts):
            le = line_starts[i + 1] if i + 1 < len(line_starts) else end
            s, e = _strip_span(self.text, ls, le)
            tag = next(t for t in markers.PREAMBLE_TAGS if self.text.startswith(t, ls))
            node.children.append(self.node("preamble-line", tag, s, e, MARKER))
        return node

    def tagged_children(self, node: AnatomyNode, tokens, kind: str, untagged_label: str) -> None:
        for name, s, e in tokens:
            if name is None:
                node.children.append(self.node(kind, untagged_label, s, e, GUESS))
            else:
                node.children.append(self.node(kind, f"<{name}>", s, e, MARKER))

    def group(self, kind: str, label: str, tokens, rb: str, child_kind: str | None = None,
              untagged_label: str = "untagged text") -> AnatomyNode:
        node = self.node(kind, label, tokens[0][1], tokens[-1][2], rb)
        if child_kind is not None:
            self.tagged_children(node, tokens, child_kind, untagged_label)
        return node

    def runtime_body(self, start: int, end: int, rb: str) -> AnatomyNode:
        node = self.node("runtime-body", "runtime body", start, end, rb)
        for name, s, e in _scan(self.text, start, end):
            if name is not None:
                node.children.append(self.node("body-block", f"<{name}>", s, e, MARKER))
        return node


def _runs(tokens, classify) -> list[tuple[str, list]]:
    """Consecutive tokens with the same class, as ``(class, tokens)``."""
    runs: list[tuple[str, list]] = []
    for tok in tokens:
        cls = classify(tok)
        if runs and runs[-1][0] == cls:
            runs[-1][1].append(tok)
        else:
            runs.append((cls, [tok]))
    return runs


def _is_session_inject(text: str, name: str | None, s: int, e: int) -> bool:
    if name == markers.AVAILABLE_EVENTS_TAG:
        return True
    # The activation block is a session inject only when its source is ``stage`` (§1.2 part 5).
    return name == "runtime-activation" and _STAGE_ACTIVATION.search(text, s, e) is not None


_PART_LABELS = {
    "stable-segments": "stable segments",
    "world-info-before": "world info (before plugin)",
    "world-info-after": "world info (after plugin)",
    "session-injects": "session injects",
    "turn-segments": "turn segments",
}


def _parts_from_runs(b: _Builder, runs, rb_tagged: str, rb_plain: str, labels=None) -> list[AnatomyNode]:
    out: list[AnatomyNode] = []
    labels = labels or {}
    for cls, toks in runs:
        label = labels.get(cls, _PART_LABELS[cls])
        if cls in ("world-info-before", "world-info-after"):
            out.append(b.group(cls, label, toks, rb_plain))
        elif cls == "session-injects":
            out.append(b.group(cls, label, toks, MARKER, "inject"))
        else:
            child_kind = "segment" if cls == "stable-segments" else "turn-segment"
            tagged = any(n is not None for n, _, _ in toks)
            out.append(b.group(cls, label, toks, rb_tagged if tagged else rb_plain, child_kind, "untagged segment"))
    return out


def _classify_world_info_piece(b: _Builder, tokens) -> list[AnatomyNode]:
    """A closed piece holding system-prompt parts 4-6 (only part 6 carries the sentinel)."""
    seen_inject = False
    has_inject = any(_is_session_inject(b.text, *t) for t in tokens)

    def classify(tok):
        nonlocal seen_inject
        if _is_session_inject(b.text, *tok):
            seen_inject = True
            return "session-injects"
        if not has_inject:
            return "world-info-after"
        return "world-info-after" if seen_inject else "world-info-before"

    labels = {} if has_inject else {"world-info-after": "world info (after plugin; may include before-plugin entries)"}
    return _parts_from_runs(b, _runs(tokens, classify), SENTINEL, GUESS, labels)


def _classify_open_tail(b: _Builder, tokens, rb: str) -> list[AnatomyNode]:
    """After the last sentinel: part 7, plus parts 4-5 when part 6 was empty."""
    state = "start"

    def classify(tok):
        nonlocal state
        name = tok[0]
        if _is_session_inject(b.text, *tok) and state in ("start", "wi", "inj"):
            state = "inj"
            return "session-injects"
        if name is None and state in ("start", "wi"):
            state = "wi"
            return "world-info-before"
        state = "turn"
        return "turn-segments"

    return _parts_from_runs(b, _runs(tokens, classify), rb, GUESS)


def _classify_unsplit(b: _Builder, tokens) -> list[AnatomyNode]:
    """Parts 3-7 of a system prompt without sentinels, by tags and by exclusion."""
    state = "stable"

    def classify(tok):
        nonlocal state
        name = tok[0]
        inject = _is_session_inject(b.text, *tok)
        if inject and state in ("stable", "wi", "inj"):
            state = "inj"
            return "session-injects"
        if state == "stable":
            if name is not None and name not in _TURN_SEGMENT_TAGS:
                return "stable-segments"
            state = "wi" if name is None else "turn"
        if state == "wi":
            if name in _TURN_SEGMENT_TAGS:
                state = "turn"
                return "turn-segments"
            return "world-info-before"
        if state == "inj":
            state = "after" if name is None else "turn"
        if state == "after":
            if name is None:
                return "world-info-after"
            state = "turn"
        return "turn-segments"

    return _parts_from_runs(b, _runs(tokens, classify), MARKER, GUESS)


# --- system -----------------------------------------------------------------------------------


def _find_embedded_extras(text: str, start: int, end: int, want_turn_context: bool) -> list[tuple[str, int]]:
    """Starts of paragraphs that were separate leading system messages joined into one system
    text (Anthropic joins them with blank lines): pruned marker, turn context, response format."""
    found: list[tuple[str, int]] = []
    m = _PRUNED.search(text, start, end)
    if m is not None and (m.start() == start or text.startswith("\n\n", m.start() - 2)):
        found.append(("pruned", m.start()))
    rf = text.find(markers.RESPONSE_FORMAT_PREFIX, start, end)
    if rf >= 0 and (rf == start or text.startswith("\n\n", rf - 2)):
        found.append(("response-format", rf))
    if want_turn_context:
        for m in _TURN_DATA_LINE.finditer(text, start, end):
            if m.group(1) == "runtime-activation":
                close = text.find("</runtime-activation>", m.end(), end)
                if _STAGE_ACTIVATION.search(text, m.end(), close if close >= 0 else end):
                    continue
            para = text.rfind("\n\n", start, m.start())
            found.append(("turn-context", start if para < 0 else para + 2))
            break
    found.sort(key=lambda x: x[1])
    return found


def _turn_context_children(b: _Builder, start: int, end: int) -> list[AnatomyNode]:
    tokens = _scan(b.text, start, end)
    first_para = b.text.find("\n\n", start, end)
    first_para = end if first_para < 0 else first_para
    last_data = max((s for n, s, _ in tokens if n in markers.TURN_DATA_TAGS), default=-1)
    out: list[AnatomyNode] = []
    for name, s, e in tokens:
        if name is None:
            out.append(b.node("text", "untagged text", s, e, GUESS))
        elif name in markers.TURN_DATA_TAGS:
            out.append(b.node("turn-data", f"<{name}>", s, e, MARKER))
        elif name in markers.KNOWN_SEGMENT_TAGS or (s > first_para and s > last_data):
            out.append(b.node("turn-segment", f"<{name}>", s, e, MARKER))
        else:
            # Plugin-declared inject tags come first in the turn data, before <runtime-inputs>.
            out.append(b.node("inject", f"<{name}>", s, e, MARKER))
    return out


def _extra_node(b: _Builder, kind: str, start: int, end: int) -> tuple[str, AnatomyNode]:
    s, e = _strip_span(b.text, start, end)
    if kind == "pruned":
        return "pre-history", b.node("pruned-marker", "pruned-history marker", s, e, MARKER, role="system", bag="pre-history")
    if kind == "response-format":
        return "response-format", b.node("response-format", "response format", s, e, MARKER, role="system", bag="response-format")
    if kind == "legacy-summary":
        return "summaries", b.node("legacy-compacted-history", "[Compacted history: …] (legacy)", s, e, MARKER, role="system", bag="summaries")
    if kind == "turn-context":
        node = b.node("turn-context", "turn context", s, e, POSITION, role="system", bag="turn-context")
        node.children = _turn_context_children(b, s, e)
        return "turn-context", node
    return "pre-history", b.node("system-message", "leading system message (pre-history or depth insertion)", s, e, GUESS, role="system", bag="pre-history")


def _label_system(req: NormalisedRequest, runtime_body: str | None, tc_in_messages: bool):
    blocks = req.system
    if not blocks:
        return None, []
    first = blocks[0]
    if first.source in (SRC_KERNEL_SENTINEL, SRC_SYSTEM_MESSAGE, SRC_SYSTEM_INSTRUCTION):
        prompt_ids = [i for i, b in enumerate(blocks) if b.source == first.source and b.origin_index == first.origin_index]
    elif first.source in (SRC_SYSTEM_STRING, SRC_INSTRUCTIONS, SRC_SYSTEM_BLOCK):
        prompt_ids = [i for i, b in enumerate(blocks) if b.source == first.source]
    else:
        prompt_ids = [0]
    prompt_set = set(prompt_ids)
    extra_ids = [i for i in range(len(blocks)) if i not in prompt_set]

    # A trailing response-format block (Anthropic object mode) is its own part, not a piece.
    rf_blocks = [i for i in prompt_ids if blocks[i].text.lstrip().startswith(markers.RESPONSE_FORMAT_PREFIX)]
    pieces = [i for i in prompt_ids if i not in rf_blocks]
    closed = {}
    for pos, i in enumerate(pieces):
        blk = blocks[i]
        is_last = pos == len(pieces) - 1
        # Anthropic keeps cache_control on only two sentinel pieces, but every block except the
        # open tail was cut at a sentinel.
        closed[i] = blk.breakpoint_after or blk.cache_control or (blk.source == SRC_SYSTEM_BLOCK and not is_last)
    # One piece means no sentinel: its parts are found by content even if it carries a breakpoint.
    split = len(pieces) > 1
    joined_source = first.source in (SRC_SYSTEM_STRING, SRC_SYSTEM_BLOCK, SRC_INSTRUCTIONS)

    children: list[AnatomyNode] = []
    extras: list[tuple[str, AnatomyNode]] = []
    stage = 0
    for pos, i in enumerate(pieces):
        blk = blocks[i]
        b = _Builder(blk.text, ("system", i))
        start, end = _strip_span(blk.text, 0, len(blk.text))
        if pos == len(pieces) - 1:
            found = _find_embedded_extras(blk.text, start, end, joined_source and not tc_in_messages)
            for k, (kind, fs) in enumerate(found):
                fe = found[k + 1][1] if k + 1 < len(found) else end
                extras.append(_extra_node(b, kind, fs, fe))
            if found:
                end = _strip_span(blk.text, start, found[0][1])[1]
        if start < end:
            if not split:
                children.extend(_label_unsplit(b, start, end, runtime_body))
            elif closed[i]:
                if stage == 0 and _PREAMBLE_LINE.match(blk.text, start, end):
                    children.append(b.preamble(start, end, SENTINEL))
                    stage = 1
                elif stage <= 1:
                    children.append(b.runtime_body(start, end, SENTINEL))
                    stage = 2
                else:
                    tokens = _scan(blk.text, start, end)
                    if stage == 2 and tokens and tokens[0][0] is not None and not _is_session_inject(blk.text, *tokens[0]):
                        node = b.group("stable-segments", "stable segments", tokens, SENTINEL, "segment", "untagged segment")
                        children.append(node)
                        stage = 3
                    else:
                        children.extend(_classify_world_info_piece(b, tokens))
                        stage = 4
            else:
                tokens = _scan(blk.text, start, end)
                if tokens:
                    children.extend(_classify_open_tail(b, tokens, SENTINEL))
        if blk.breakpoint_after or blk.cache_control:
            origin = "cache_control" if blk.cache_control else "sentinel"
            n = len(blk.text)  # zero width, at the piece's end where the sentinel stood
            children.append(
                AnatomyNode("cache-breakpoint", f"cache breakpoint ({origin})", "", SENTINEL if origin == "sentinel" else STRUCTURE,
                            source=("system", i), start=n, end=n)
            )
    for i in rf_blocks:
        b = _Builder(blocks[i].text, ("system", i))
        s, e = _strip_span(b.text, 0, len(b.text))
        children.append(b.node("response-format", "response format", s, e, MARKER))

    if len(prompt_ids) == 1:
        blk = blocks[prompt_ids[0]]
        end = max((c.end for c in children), default=len(blk.text))
        prompt = AnatomyNode("system-prompt", "system prompt", blk.text[:end], POSITION,
                             role="system", source=("system", prompt_ids[0]), start=0, end=end, children=children)
    else:
        prompt = AnatomyNode("system-prompt", "system prompt", "", POSITION, role="system", children=children)

    # Further leading system messages kept as their own blocks.
    special = []
    for i in extra_ids:
        stripped = blocks[i].text.strip()
        if _is_pruned(stripped):
            special.append((i, "pruned"))
        elif stripped.startswith(markers.LEGACY_COMPACTED_PREFIX):
            special.append((i, "legacy-summary"))
        elif stripped.startswith(markers.RESPONSE_FORMAT_PREFIX):
            special.append((i, "response-format"))
        else:
            special.append((i, "other"))
    if not tc_in_messages and not any(k == "turn-context" for k, _ in extras):
        others = [i for i, k in special if k == "other"]
        if others:
            special = [(i, "turn-context" if i == others[-1] else k) for i, k in special]
    for i, kind in special:
        b = _Builder(blocks[i].text, ("system", i))
        extras.append(_extra_node(b, kind, 0, len(b.text)))
    return prompt, extras


def _label_unsplit(b: _Builder, start: int, end: int, runtime_body: str | None) -> list[AnatomyNode]:
    out: list[AnatomyNode] = []
    text = b.text
    pe = _preamble_end(text, start, end)
    if pe > start:
        out.append(b.preamble(start, pe, MARKER))
        start = _strip_span(text, pe, end)[0]
    if start >= end:
        return out
    body_end = -1
    known = runtime_body.strip() if isinstance(runtime_body, str) else ""
    if known:
        at = text.find(known, start, end)
        if at >= 0:
            if at > start:
                s, e = _strip_span(text, start, at)
                if s < e:
                    out.append(b.node("unrecognised", "unrecognised text before the runtime body", s, e, GUESS))
            out.append(b.runtime_body(at, at + len(known), MARKER))
            body_end = at + len(known)
    tokens = _scan(text, start if body_end < 0 else body_end, end)
    if body_end < 0:
        # Without the body text, the body runs until the first tag Covel places after it.
        cut = next((k for k, (n, _, _) in enumerate(tokens) if n in _SYSTEM_SEGMENT_TAGS), None)
        if cut is None:
            cut = next((k for k, (n, _, _) in enumerate(tokens) if n in _TURN_SEGMENT_TAGS), len(tokens))
        if cut > 0:
            body_tokens, tokens = tokens[:cut], tokens[cut:]
            out.append(b.runtime_body(body_tokens[0][1], body_tokens[-1][2], GUESS))
    if tokens:
        out.extend(_classify_unsplit(b, tokens))
    return out


# --- messages ---------------------------------------------------------------------------------


class _MessageFacts:
    """Per-message predicates computed once (Message.text joins parts on every call)."""

    __slots__ = ("texts", "inner", "msgs")

    def __init__(self, msgs: list[Message]):
        self.msgs = msgs
        self.texts = [m.text for m in msgs]
        self.inner = [t[slice(*m.inner_span())] if m.late_system else t for m, t in zip(msgs, self.texts)]

    def sys_like(self, i: int) -> bool:
        m = self.msgs[i]
        return m.role == "system" or m.late_system

    def tool_related(self, i: int) -> bool:
        m = self.msgs[i]
        return m.role == "tool" or (m.role == "assistant" and m.has_kind(TOOL_CALL)) or m.has_kind(TOOL_RESULT)

    def plain_assistant(self, i: int) -> bool:
        m = self.msgs[i]
        return m.role == "assistant" and not m.has_kind(TOOL_CALL)

    def pictures(self, i: int) -> bool:
        m = self.msgs[i]
        return m.role == "user" and not m.late_system and m.has_kind(IMAGE, IMAGE_NOTE)

    def pruned(self, i: int) -> bool:
        return self.sys_like(i) and _is_pruned(self.inner[i])

    def envelope(self, i: int) -> bool:
        return self.msgs[i].role == "user" and self.texts[i].lstrip().startswith(markers.COMPACTED_HISTORY_OPEN)

    def legacy_summary(self, i: int) -> bool:
        return self.sys_like(i) and self.inner[i].lstrip().startswith(markers.LEGACY_COMPACTED_PREFIX)

    def summary(self, i: int) -> bool:
        return self.envelope(i) or self.legacy_summary(i)

    def response_format(self, i: int) -> bool:
        return self.sys_like(i) and self.inner[i].lstrip().startswith(markers.RESPONSE_FORMAT_PREFIX)

    def plain_user(self, i: int) -> bool:
        m = self.msgs[i]
        return m.role == "user" and not m.late_system and not self.envelope(i) and not m.has_kind(TOOL_RESULT)

    def cue(self, i: int) -> bool:
        return self.plain_user(i) and self.texts[i].lstrip().startswith(markers.CLOSING_CUE_PREFIXES)


def _find_turn_context(f: _MessageFacts) -> tuple[int | None, int | None]:
    """(turn context, current message) by the §1.6 rule: the last system-like message followed,
    after an optional pictures message, by the player's user message. Candidates carrying turn
    data tags beat ones with any tagged block, which beat plain ones."""
    n = len(f.msgs)
    best: tuple[int, int, int] | None = None
    for i in range(n):
        if not f.sys_like(i) or f.pruned(i) or f.summary(i) or f.response_format(i):
            continue
        j = i + 1
        while j < n and (f.pictures(j) or f.response_format(j)):
            j += 1
        if j >= n or not f.plain_user(j) or f.cue(j):
            continue
        inner = f.inner[i]
        score = 2 if _TURN_DATA_LINE.search(inner) else 1 if _ANY_TAG_LINE.search(inner) else 0
        if best is None or score >= best[0]:
            best = (score, i, j)
    return (best[1], best[2]) if best else (None, None)


def _find_current_without_tc(f: _MessageFacts) -> int | None:
    n = len(f.msgs)
    for i in range(n - 1, -1, -1):
        if f.pictures(i):
            j = i + 1
            while j < n and f.response_format(j):
                j += 1
            if j < n and f.plain_user(j):
                return j
    cue = next((i for i in range(n - 1, -1, -1) if f.cue(i)), None)
    if cue is not None:
        k = cue - 1
        while k >= 0 and f.plain_assistant(k):
            k -= 1
        if k >= 0 and k < cue - 1 and f.plain_user(k):
            return k
    last_plain = max((i for i in range(n) if f.plain_assistant(i)), default=-1)
    loop = next((i for i in range(last_plain + 1, n) if f.tool_related(i)), n)
    return next((i for i in range(loop - 1, -1, -1) if f.plain_user(i) and not f.cue(i)), None)


def _assign_bags(f: _MessageFacts) -> tuple[list[tuple[str, str, str, str]], int | None]:
    """Per message ``(bag, kind, label, recognised_by)``; also the turn context position."""
    msgs = f.msgs
    n = len(msgs)
    tc, current = _find_turn_context(f)
    current_rb = POSITION
    if current is None:
        current = _find_current_without_tc(f)
        current_rb = GUESS
    out: list[tuple[str, str, str, str] | None] = [None] * n

    if current is not None:
        head_end = tc if tc is not None else current
        if tc is None:
            while head_end > 0 and (f.pictures(head_end - 1) or f.response_format(head_end - 1)):
                head_end -= 1
        loop = next((i for i in range(current + 1, n) if f.tool_related(i)), n)
    else:
        last_plain = max((k for k in range(n) if f.plain_assistant(k)), default=-1)
        loop = next((i for i in range(last_plain + 1, n) if f.tool_related(i)), n)
        head_end = loop

    first_summary = next((i for i in range(head_end) if f.summary(i)), None)
    for i in range(head_end):
        m = msgs[i]
        if f.pruned(i):
            out[i] = ("pre-history", "pruned-marker", "pruned-history marker", MARKER)
        elif f.envelope(i):
            out[i] = ("summaries", "compacted-history", "<compacted_history>", MARKER)
        elif f.legacy_summary(i):
            out[i] = ("summaries", "legacy-compacted-history", "[Compacted history: …] (legacy)", MARKER)
        elif first_summary is not None and i < first_summary:
            out[i] = ("pre-history", "pre-history-message", f"{m.role} #{i} (pre-history extension message)", POSITION)
        elif m.role == "user" and f.texts[i].strip() == markers.ANTHROPIC_CONTINUATION_OPENER:
            out[i] = ("history", "continuation-opener", "continuation opener", MARKER)
        elif f.sys_like(i):
            out[i] = ("history", "system-insertion", f"system #{i} (depth insertion or late system segment)", GUESS)
        else:
            out[i] = ("history", "message", f"{m.role} #{i}", POSITION)

    if current is not None:
        for i in range(head_end, current):
            if i == tc:
                out[i] = ("turn-context", "turn-context", "turn context", POSITION)
            elif f.response_format(i):
                out[i] = ("response-format", "response-format", "response format", MARKER)
            elif f.pictures(i):
                out[i] = ("pictures", "pictures", "pictures", STRUCTURE)
            else:
                out[i] = ("history", "message", f"{msgs[i].role} #{i}", GUESS)
        blank = f.texts[current].strip()
        if blank in markers.BLANK_INPUT_CUES or blank.startswith(markers.MANUAL_TRIGGER_CUE_PREFIXES):
            out[current] = ("current-input", "current-input", "current input (blank-input cue)", MARKER)
        else:
            out[current] = ("current-input", "current-input", "current input", current_rb)
        k = current + 1
        story_end = k
        while story_end < loop and f.plain_assistant(story_end):
            story_end += 1
        if story_end < loop and f.plain_user(story_end) and (story_end > k or f.cue(story_end)):
            for i in range(k, story_end):
                out[i] = ("execution-story", "story-message", f"assistant #{i} (execution story)", POSITION)
            rb = MARKER if f.cue(story_end) else GUESS
            out[story_end] = ("closing-cue", "closing-cue", "closing cue", rb)
            k = story_end + 1
        for i in range(k, loop):
            out[i] = ("post-history", "post-history-message",
                      f"{msgs[i].role} #{i} (post-history segment or depth-0 insertion)", GUESS)

    for i in range(loop, n):
        if out[i] is not None:
            continue
        m = msgs[i]
        if m.role == "assistant" and m.has_kind(TOOL_CALL):
            out[i] = ("tool-loop", "tool-call", f"assistant #{i} (tool calls)", STRUCTURE)
        elif f.tool_related(i):
            out[i] = ("tool-loop", "tool-result", f"tool #{i} (tool result)", STRUCTURE)
        else:
            out[i] = ("tool-loop", "tool-loop-hint", f"{m.role} #{i} (steering or retry hint)", POSITION)
    return out, tc  # type: ignore[return-value]


def _message_node(f: _MessageFacts, pos: int, bag: str, kind: str, label: str, rb: str,
                  breakpoints: dict[int, list[int | None]]) -> AnatomyNode:
    msg = f.msgs[pos]
    text = f.texts[pos]
    b = _Builder(text, ("message", pos))
    node = AnatomyNode(kind, label, text, rb, role=msg.role, source=("message", pos), start=0, end=len(text), bag=bag)
    if kind == "turn-context":
        s, e = msg.inner_span() if msg.late_system else (0, len(text))
        node.children = _turn_context_children(b, s, e)
    elif kind == "compacted-history":
        s = text.find(markers.COMPACTED_HISTORY_OPEN)
        c = text.find(markers.COMPACTED_HISTORY_CLOSE, s)
        e = c + len(markers.COMPACTED_HISTORY_CLOSE) if c >= 0 else len(text)
        node.children.append(b.node("compacted-history-envelope", "<compacted_history>", s, e, MARKER))
        ns, ne = _strip_span(text, e, len(text))
        if ns < ne:
            rb_note = MARKER if any(text.startswith(note, ns) for note in markers.COMPACTED_HISTORY_NOTES) else GUESS
            node.children.append(b.node("summary-note", "summary note", ns, ne, rb_note))
    for part_index in breakpoints.get(pos, ()):
        at = len(text)
        if part_index is not None:
            at = next((e for j, _, e in msg.part_spans() if j == part_index), at)
        node.children.append(
            AnatomyNode("cache-breakpoint", "cache breakpoint (cache_control)", "", STRUCTURE,
                        role=msg.role, source=("message", pos), start=at, end=at, bag=bag)
        )
    return node


def label_request(request: NormalisedRequest, runtime_body: str | None = None) -> Anatomy:
    """The anatomy of one request; ``runtime_body`` (the plugin body text, when known) lets an
    unsplit system prompt's body be found by content instead of guessed."""
    f = _MessageFacts(request.messages)
    assigned, tc = _assign_bags(f)
    breakpoints: dict[int, list[int | None]] = {}
    for bp in request.cache_breakpoints:
        if bp.where == "message":
            breakpoints.setdefault(bp.index, []).append(bp.part_index)

    roots: list[AnatomyNode] = []
    if request.tools:
        tools = AnatomyNode("tools", "tools", "", STRUCTURE)
        for i, tool in enumerate(request.tools):
            t = tool.text
            tools.children.append(AnatomyNode("tool", tool.name or f"tool #{i}", t, STRUCTURE, source=("tool", i), start=0, end=len(t)))
        roots.append(tools)

    prompt, extras = _label_system(request, runtime_body, tc is not None)
    if prompt is not None:
        roots.append(prompt)

    items: list[tuple[str, AnatomyNode]] = list(extras)
    by_message: dict[int, AnatomyNode] = {}
    for pos, (bag, kind, label, rb) in enumerate(assigned):
        node = _message_node(f, pos, bag, kind, label, rb, breakpoints)
        by_message[pos] = node
        items.append((bag, node))
    bags: dict[str, list[AnatomyNode]] = {}
    for bag, node in items:
        node.bag = bag
        bags.setdefault(bag, []).append(node)
        if bag in SINGLE_MESSAGE_BAGS:
            roots.append(node)
            continue
        last = roots[-1] if roots else None
        if last is not None and last.kind == bag and last.source is None and last.bag == bag:
            last.children.append(node)
        else:
            roots.append(AnatomyNode(bag, BAG_LABELS[bag], "", _bag_rb(bag), children=[node], bag=bag))
    return Anatomy(request, roots, bags, by_message)


def _bag_rb(bag: str) -> str:
    return {
        "pre-history": POSITION,
        "summaries": MARKER,
        "history": POSITION,
        "execution-story": POSITION,
        "post-history": GUESS,
        "tool-loop": STRUCTURE,
    }.get(bag, POSITION)
