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

The message-bag rules live in :class:`BagLayout`, over one :class:`MessageFacts` record per
message; the cache analysis applies the same class to the records it keeps per distinct message.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
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
    m = markers.PRUNED_MARKER_LINE.search(text, start, end)
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
    tc_elsewhere = tc_in_messages or any(k == "turn-context" for k, _ in extras)
    kinds = leading_system_kinds([blocks[i].text for i in extra_ids], tc_elsewhere)
    for i, kind in zip(extra_ids, kinds):
        b = _Builder(blocks[i].text, ("system", i))
        extras.append(_extra_node(b, kind, 0, len(b.text)))
    return prompt, extras


def leading_system_kind(text: str) -> str:
    """What a leading system message after the system prompt is by its own text: ``pruned``
    (the pruned-history marker), ``legacy-summary``, ``response-format`` or ``other``."""
    stripped = text.strip()
    if markers.is_pruned_marker(stripped):
        return "pruned"
    if stripped.startswith(markers.LEGACY_COMPACTED_PREFIX):
        return "legacy-summary"
    if stripped.startswith(markers.RESPONSE_FORMAT_PREFIX):
        return "response-format"
    return "other"


def leading_system_kinds(texts: Sequence[str], turn_context_elsewhere: bool) -> list[str]:
    """:func:`leading_system_kind` of each leading system message after the prompt, in order,
    except that without a turn context elsewhere (among the messages, or inside the prompt text)
    the last ``other`` one is the ``turn-context``: a request without history has its turn
    context among the leading system messages."""
    kinds = [leading_system_kind(t) for t in texts]
    if not turn_context_elsewhere and "other" in kinds:
        kinds[len(kinds) - 1 - kinds[::-1].index("other")] = "turn-context"
    return kinds


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


class MessageFacts:
    """What the bag rules (§1.6) ask of one message, worked out once.

    Every fact depends on the message alone, so a caller that meets the same message in many
    requests (the cache analysis) keeps one record per distinct message and builds a
    :class:`BagLayout` over the records of each request.
    """

    __slots__ = ("message", "role", "text", "inner", "sys_like", "tool_call", "tool_related", "plain_assistant",
                 "pictures", "pruned", "envelope", "legacy_summary", "summary", "response_format", "plain_user",
                 "cue", "turn_data_score", "eligible_tc", "opener", "blank_cue")

    def __init__(self, message: Message) -> None:
        m = message
        role = m.role
        late = m.late_system
        # Message.text joins the parts on every call.
        text = m.text
        inner = text[slice(*m.inner_span())] if late else text
        has_call = m.has_kind(TOOL_CALL)
        has_result = m.has_kind(TOOL_RESULT)
        self.message = m
        self.role = role
        self.text = text
        self.inner = inner
        self.sys_like = sys_like = role == "system" or late
        self.tool_call = role == "assistant" and has_call
        self.tool_related = role == "tool" or self.tool_call or has_result
        self.plain_assistant = role == "assistant" and not has_call
        self.pictures = role == "user" and not late and m.has_kind(IMAGE, IMAGE_NOTE)
        lead = inner.lstrip()
        self.pruned = sys_like and markers.is_pruned_marker(inner)
        self.envelope = role == "user" and text.lstrip().startswith(markers.COMPACTED_HISTORY_OPEN)
        self.legacy_summary = sys_like and lead.startswith(markers.LEGACY_COMPACTED_PREFIX)
        self.summary = self.envelope or self.legacy_summary
        self.response_format = sys_like and lead.startswith(markers.RESPONSE_FORMAT_PREFIX)
        self.plain_user = role == "user" and not late and not self.envelope and not has_result
        self.cue = self.plain_user and text.lstrip().startswith(markers.CLOSING_CUE_PREFIXES)
        # For a system-like message: 2 when it carries turn data tags, 1 when any tagged block,
        # else 0 (0 for every other message; only system-like ones can be a turn context).
        self.turn_data_score = (
            (2 if _TURN_DATA_LINE.search(inner) else 1 if _ANY_TAG_LINE.search(inner) else 0) if sys_like else 0
        )
        self.eligible_tc = sys_like and not (self.pruned or self.summary or self.response_format)
        stripped = text.strip()
        self.opener = role == "user" and stripped == markers.ANTHROPIC_CONTINUATION_OPENER
        self.blank_cue = stripped in markers.BLANK_INPUT_CUES or stripped.startswith(markers.MANUAL_TRIGGER_CUE_PREFIXES)


class BagLayout:
    """The message bags of one request (§1.6) over its messages' facts.

    The positions the rules hinge on (turn context, current input, where the head of the request
    ends, where the tool loop starts, the execution story) are found up front; each message is
    classified on demand by :meth:`classify`, so a caller that needs one message's bag does not
    pay for the others'.
    """

    __slots__ = ("facts", "n", "tc", "current", "current_rb", "head_end", "loop", "story_end", "story_valid",
                 "_first_summary")

    def __init__(self, facts: Sequence[MessageFacts]) -> None:
        self.facts = facts
        n = self.n = len(facts)
        tc, current = self._find_turn_context()
        self.current_rb = POSITION
        if current is None:
            current = self._find_current_without_tc()
            self.current_rb = GUESS
        self.tc = tc
        self.current = current
        if current is not None:
            head_end = tc if tc is not None else current
            if tc is None:
                while head_end > 0 and (facts[head_end - 1].pictures or facts[head_end - 1].response_format):
                    head_end -= 1
            loop = next((i for i in range(current + 1, n) if facts[i].tool_related), n)
            k = current + 1
            story_end = k
            while story_end < loop and facts[story_end].plain_assistant:
                story_end += 1
            # An execution story (assistant messages after the player's) counts only when a user
            # message follows it: the closing cue, or any user message after at least one story
            # message.
            self.story_valid = (story_end < loop and facts[story_end].plain_user
                                and (story_end > k or facts[story_end].cue))
            self.story_end = story_end
        else:
            loop = self._loop_after_last_plain_assistant()
            head_end = loop
            self.story_end = loop
            self.story_valid = False
        self.head_end = head_end
        self.loop = loop
        self._first_summary: int | None | bool = False

    def _loop_after_last_plain_assistant(self) -> int:
        facts = self.facts
        n = self.n
        last_plain = max((i for i in range(n) if facts[i].plain_assistant), default=-1)
        return next((i for i in range(last_plain + 1, n) if facts[i].tool_related), n)

    def _find_turn_context(self) -> tuple[int | None, int | None]:
        """(turn context, current message): the last system-like message followed, after
        optional pictures or response-format messages, by the player's user message. Candidates
        carrying turn data tags beat ones with any tagged block, which beat plain ones; among
        equals the last wins. Scanning from the end, the first candidate scoring 2 (the highest
        there is) is that one; below 2 the first candidate that beats every later one is."""
        facts = self.facts
        n = self.n
        best: tuple[int, int, int] | None = None
        for i in range(n - 1, -1, -1):
            f = facts[i]
            if not f.eligible_tc:
                continue
            j = i + 1
            while j < n and (facts[j].pictures or facts[j].response_format):
                j += 1
            if j >= n or not facts[j].plain_user or facts[j].cue:
                continue
            if f.turn_data_score == 2:
                return i, j
            if best is None or f.turn_data_score > best[0]:
                best = (f.turn_data_score, i, j)
        return (best[1], best[2]) if best else (None, None)

    def _find_current_without_tc(self) -> int | None:
        """The player's message when no turn context precedes it: the user message after the last
        pictures message, else the one before a closing cue's execution story, else the last plain
        user message before the tool loop."""
        facts = self.facts
        n = self.n
        for i in range(n - 1, -1, -1):
            if facts[i].pictures:
                j = i + 1
                while j < n and facts[j].response_format:
                    j += 1
                if j < n and facts[j].plain_user:
                    return j
        cue = next((i for i in range(n - 1, -1, -1) if facts[i].cue), None)
        if cue is not None:
            k = cue - 1
            while k >= 0 and facts[k].plain_assistant:
                k -= 1
            if k >= 0 and k < cue - 1 and facts[k].plain_user:
                return k
        loop = self._loop_after_last_plain_assistant()
        return next((i for i in range(loop - 1, -1, -1) if facts[i].plain_user and not facts[i].cue), None)

    @property
    def first_summary(self) -> int | None:
        """The first summary before the head's end; messages before it are pre-history."""
        if self._first_summary is False:
            facts = self.facts
            self._first_summary = next((i for i in range(self.head_end) if facts[i].summary), None)
        return self._first_summary  # type: ignore[return-value]

    def classify(self, k: int) -> tuple[str, str, str, str]:
        """``(bag, kind, label, recognised_by)`` of message ``k``."""
        f = self.facts[k]
        if k < self.head_end:
            if f.pruned:
                return "pre-history", "pruned-marker", "pruned-history marker", MARKER
            if f.envelope:
                return "summaries", "compacted-history", "<compacted_history>", MARKER
            if f.legacy_summary:
                return "summaries", "legacy-compacted-history", "[Compacted history: …] (legacy)", MARKER
            first_summary = self.first_summary
            if first_summary is not None and k < first_summary:
                return "pre-history", "pre-history-message", f"{f.role} #{k} (pre-history extension message)", POSITION
            if f.opener:
                return "history", "continuation-opener", "continuation opener", MARKER
            if f.sys_like:
                return "history", "system-insertion", f"system #{k} (depth insertion or late system segment)", GUESS
            return "history", "message", f"{f.role} #{k}", POSITION
        current = self.current
        if current is not None and k < self.loop:
            if k < current:
                if k == self.tc:
                    return "turn-context", "turn-context", "turn context", POSITION
                if f.response_format:
                    return "response-format", "response-format", "response format", MARKER
                if f.pictures:
                    return "pictures", "pictures", "pictures", STRUCTURE
                return "history", "message", f"{f.role} #{k}", GUESS
            if k == current:
                if f.blank_cue:
                    return "current-input", "current-input", "current input (blank-input cue)", MARKER
                return "current-input", "current-input", "current input", self.current_rb
            if self.story_valid and k < self.story_end:
                return "execution-story", "story-message", f"assistant #{k} (execution story)", POSITION
            if self.story_valid and k == self.story_end:
                return "closing-cue", "closing-cue", "closing cue", MARKER if f.cue else GUESS
            return ("post-history", "post-history-message",
                    f"{f.role} #{k} (post-history segment or depth-0 insertion)", GUESS)
        if f.tool_call:
            return "tool-loop", "tool-call", f"assistant #{k} (tool calls)", STRUCTURE
        if f.tool_related:
            return "tool-loop", "tool-result", f"tool #{k} (tool result)", STRUCTURE
        return "tool-loop", "tool-loop-hint", f"{f.role} #{k} (steering or retry hint)", POSITION

    def history_start(self) -> int | None:
        """The first message of the history bag (after pre-history and summaries)."""
        for k in range(self.head_end):
            if self.classify(k)[0] == "history":
                return k
        return None


def _message_node(f: MessageFacts, pos: int, bag: str, kind: str, label: str, rb: str,
                  breakpoints: dict[int, list[int | None]]) -> AnatomyNode:
    msg = f.message
    text = f.text
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
    facts = [MessageFacts(m) for m in request.messages]
    layout = BagLayout(facts)
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

    prompt, extras = _label_system(request, runtime_body, layout.tc is not None)
    if prompt is not None:
        roots.append(prompt)

    items: list[tuple[str, AnatomyNode]] = list(extras)
    by_message: dict[int, AnatomyNode] = {}
    for pos, f in enumerate(facts):
        bag, kind, label, rb = layout.classify(pos)
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
