"""The template language of ChatLuna v2 blocks (spec B.3): scanner, parser and syntax tree.

The docs give the constructs, not a grammar; what this module decides, in one place:

* A tag is ``{`` … ``}`` on one line. Inside it, tokens are separated by whitespace: double- or
  single-quoted strings (backslash escapes the next character; ``\\n`` and ``\\t`` are a newline
  and a tab), numbers (``-?digits[.digits]``), the comparison operators ``== != <= >= < >``,
  ``/name`` closers and bare words (``[^\\W\\d]\\w*`` with ``.``, ``:`` or ``-`` joining parts).
  A ``}`` inside a quoted string does not end the tag.
* ``{{`` is a literal ``{`` and ``}}`` a literal ``}``, inside or outside tags' neighbourhood
  (``{{{name}}}`` is ``{`` + the value + ``}``). A lone ``}`` is plain text.
* ``{name a b}`` inserts (or calls) a variable; ``{if c}``/``{elseif c}``/``{else}``/``{/if}``,
  ``{for x in list}``/``{/for}``, ``{while c}``/``{/while}``, ``{repeat n}``/``{/repeat}``.
  A condition is one operand (tested for truthiness) or ``operand OP operand``; ``true``,
  ``false`` and ``null`` are constants.
* Parsing never raises. A ``{`` that does not open a well-formed tag, a tag with bad syntax, a
  stray ``{else}``/closer and an unclosed block keep their own source text verbatim (the block's
  body is still parsed as ordinary content) and yield a ``parse-error`` diagnostic. A ``{`` whose
  content does not begin with a word (``{}``, ``{"json": 1}``, ``{ 3 }``, or no ``}`` on the
  line) is most likely literal text and gets a warning; anything that starts like a tag gets an
  error, and so does a tag whose quoted string is never closed on its line.
* A closer that matches a block further out closes the blocks in between as unclosed, the way an
  HTML parser recovers, so one missing ``{/for}`` does not swallow the rest of the template.

Every node carries ``start``/``end`` (Python ``str`` indices, end exclusive); the top-level nodes
of a parse tile the whole source, and so do the children of each block between its tags.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterator, Union

from inspector import wording

from . import diagnostic as dg

KEYWORDS = ("if", "elseif", "else", "for", "while", "repeat")
BLOCK_KEYWORDS = ("if", "for", "while", "repeat")
CONSTANTS = {"true": True, "false": False, "null": None}
OPERATORS = ("==", "!=", "<=", ">=", "<", ">")

_SPECIAL = re.compile(r"\{\{|\}\}|\{")
_TAG_TOKEN = re.compile(r"""
    (?P<ws>[ \t\r\f\v]+)
  | (?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
  | (?P<number>-?[0-9]+(?:\.[0-9]+)?(?![\w.]))
  | (?P<op>==|!=|<=|>=|<|>)
  | (?P<close>/[^\W\d]\w*)
  | (?P<word>[^\W\d]\w*(?:[.:-]\w+)*)
""", re.X)
_ESCAPES = {"n": "\n", "t": "\t"}


# --- syntax tree -------------------------------------------------------------------------------

@dataclass(slots=True, eq=False)
class Text:
    start: int
    end: int
    text: str
    # "text": plain text; "escape": ``{{`` or ``}}``; "literal": a malformed tag kept verbatim.
    kind: str = "text"


@dataclass(slots=True, eq=False)
class Operand:
    start: int
    end: int
    kind: str  # "string" | "number" | "word" | "constant"
    value: object  # the literal value, or the word itself for "word"


@dataclass(slots=True, eq=False)
class Condition:
    start: int
    end: int
    left: Operand
    op: str | None = None
    right: Operand | None = None


@dataclass(slots=True, eq=False)
class VarTag:
    start: int
    end: int
    name: str
    name_start: int
    name_end: int
    args: tuple[Operand, ...] = ()


@dataclass(slots=True, eq=False)
class Branch:
    start: int  # the {if}/{elseif}/{else} tag
    end: int  # end of the branch's body
    tag_end: int
    keyword: str
    condition: Condition | None
    body: tuple["Node", ...]


@dataclass(slots=True, eq=False)
class IfBlock:
    start: int
    end: int
    branches: tuple[Branch, ...]
    close_start: int


@dataclass(slots=True, eq=False)
class ForBlock:
    start: int
    end: int
    tag_end: int
    var: str
    var_start: int
    var_end: int
    iterable: Operand
    body: tuple["Node", ...]
    close_start: int


@dataclass(slots=True, eq=False)
class WhileBlock:
    start: int
    end: int
    tag_end: int
    condition: Condition
    body: tuple["Node", ...]
    close_start: int


@dataclass(slots=True, eq=False)
class RepeatBlock:
    start: int
    end: int
    tag_end: int
    count: Operand
    body: tuple["Node", ...]
    close_start: int


Node = Union[Text, VarTag, IfBlock, ForBlock, WhileBlock, RepeatBlock]


@dataclass(slots=True, eq=False)
class Template:
    source: str
    nodes: tuple[Node, ...]
    diagnostics: tuple[dg.Diagnostic, ...]
    positions: dg.SourcePositions = field(repr=False)

    def walk(self) -> Iterator[object]:
        """Every node, branch, condition and operand, outermost first."""
        yield from _walk(self.nodes)

    @property
    def has_tags(self) -> bool:
        return any(not isinstance(n, Text) or n.kind == "escape" for n in self.nodes)


def _children(node) -> list:
    """What :func:`_walk` visits under ``node``, in order: ``(part,)`` for a branch, condition or
    operand (visited, not descended into) and nodes (descended into)."""
    if isinstance(node, VarTag):
        return [(a,) for a in node.args]
    if isinstance(node, IfBlock):
        out: list = []
        for branch in node.branches:
            out.append((branch,))
            if branch.condition is not None:
                out.extend((x,) for x in _condition_parts(branch.condition))
            out.extend(branch.body)
        return out
    if isinstance(node, ForBlock):
        return [(node.iterable,), *node.body]
    if isinstance(node, WhileBlock):
        return [*((x,) for x in _condition_parts(node.condition)), *node.body]
    if isinstance(node, RepeatBlock):
        return [(node.count,), *node.body]
    return []


def _walk(nodes) -> Iterator[object]:
    # An explicit stack: blocks nest as deep as the source allows, far past Python's recursion limit.
    stack = [iter(nodes)]
    while stack:
        item = next(stack[-1], None)
        if item is None:
            stack.pop()
            continue
        if type(item) is tuple:
            yield item[0]
            continue
        yield item
        if not isinstance(item, Text):
            stack.append(iter(_children(item)))


def _condition_parts(cond: Condition) -> list[object]:
    return [cond, cond.left] if cond.right is None else [cond, cond.left, cond.right]


# --- scanning ----------------------------------------------------------------------------------

@dataclass(slots=True)
class Token:
    start: int
    end: int
    kind: str  # string | number | op | close | word | bad
    text: str


@dataclass(slots=True)
class Piece:
    """One lexical unit of the source: text, an escape, or a complete ``{…}`` tag."""
    start: int
    end: int
    kind: str  # "text" | "escape" | "tag" | "stray-brace" | "open-string" (a brace kept as text)
    tokens: list[Token] = field(default_factory=list)


_OPEN_STRING = -2


def _tag_end(source: str, open_at: int) -> int:
    """Index of the ``}`` closing the tag opened at ``open_at``; -1 when the line has none,
    ``_OPEN_STRING`` when a quoted string in the tag runs to the end of the line."""
    j = open_at + 1
    n = len(source)
    while j < n:
        c = source[j]
        if c == "}":
            return j
        if c == "\n" or c == "{":
            return -1
        if c == '"' or c == "'":
            j += 1
            while j < n and source[j] != c:
                if source[j] == "\n":
                    return _OPEN_STRING
                j += 2 if source[j] == "\\" and j + 1 < n and source[j + 1] != "\n" else 1
            if j >= n:
                return _OPEN_STRING
        j += 1
    return -1


def _tokens(source: str, start: int, end: int) -> list[Token]:
    out: list[Token] = []
    pos = start
    match = _TAG_TOKEN.match
    while pos < end:
        m = match(source, pos, end)
        if m is None:
            # Up to the next whitespace: one bad token, so the message can quote it.
            stop = pos + 1
            while stop < end and not source[stop].isspace():
                stop += 1
            out.append(Token(pos, stop, "bad", source[pos:stop]))
            pos = stop
            continue
        kind = m.lastgroup
        if kind != "ws":
            out.append(Token(m.start(), m.end(), kind, m.group()))
        pos = m.end()
    return out


def scan(source: str) -> list[Piece]:
    """The source cut into pieces that cover it exactly, in order."""
    pieces: list[Piece] = []
    pos = 0
    n = len(source)
    search = _SPECIAL.search
    while pos < n:
        m = search(source, pos)
        if m is None:
            pieces.append(Piece(pos, n, "text"))
            break
        at = m.start()
        if at > pos:
            pieces.append(Piece(pos, at, "text"))
        special = m.group()
        if special != "{":
            pieces.append(Piece(at, at + 2, "escape"))
            pos = at + 2
            continue
        close = _tag_end(source, at)
        if close < 0:
            pieces.append(Piece(at, at + 1, "open-string" if close == _OPEN_STRING else "stray-brace"))
            pos = at + 1
            continue
        pieces.append(Piece(at, close + 1, "tag", _tokens(source, at + 1, close)))
        pos = close + 1
    return pieces


# --- parsing -----------------------------------------------------------------------------------

class _TagError(Exception):
    def __init__(self, message: str, start: int | None = None, end: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.start = start
        self.end = end


def _unquote(text: str) -> str:
    body = text[1:-1]
    if "\\" not in body:
        return body
    out = []
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            out.append(_ESCAPES.get(nxt, nxt))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _operand(tok: Token) -> Operand:
    if tok.kind == "string":
        return Operand(tok.start, tok.end, "string", _unquote(tok.text))
    if tok.kind == "number":
        # A JavaScript number is a double: past Python's int-conversion limit only the double is
        # kept (float() has no such limit; a literal too large for one is Infinity).
        value: object = float(tok.text) if "." in tok.text or len(tok.text) > 4000 else int(tok.text)
        return Operand(tok.start, tok.end, "number", value)
    if tok.kind == "word":
        if tok.text in CONSTANTS:
            return Operand(tok.start, tok.end, "constant", CONSTANTS[tok.text])
        return Operand(tok.start, tok.end, "word", tok.text)
    raise _TagError(wording.TEMPLATE_EXPECTED_VALUE.format(token=repr(tok.text)), tok.start, tok.end)


def _condition(keyword: str, toks: list[Token], tag_start: int, tag_end: int) -> Condition:
    if not toks:
        raise _TagError(wording.TEMPLATE_NEEDS_CONDITION.format(keyword=keyword))
    if len(toks) == 1:
        left = _operand(toks[0])
        return Condition(left.start, left.end, left)
    if len(toks) == 3 and toks[1].kind == "op":
        left, right = _operand(toks[0]), _operand(toks[2])
        return Condition(left.start, right.end, left, toks[1].text, right)
    ops = [t for t in toks if t.kind == "op"]
    if not ops:
        raise _TagError(wording.TEMPLATE_CONDITION_SHAPE.format(operators=" ".join(OPERATORS)),
                        toks[1].start, toks[-1].end)
    raise _TagError(wording.TEMPLATE_CONDITION_TWO_VALUES, toks[0].start, toks[-1].end)


# What the tag analysis returns: ("var", VarTag) | ("open", kind, payload) | ("branch", kw, cond)
# | ("close", kind)
def _analyse_tag(piece: Piece, source: str) -> tuple:
    toks = piece.tokens
    bad = next((t for t in toks if t.kind == "bad"), None)
    first = toks[0] if toks else None
    if first is None or first.kind not in ("word", "close"):
        # Not shaped like a tag at all: most likely literal text (JSON, a set, a brace in prose).
        raise _TagError("", None, None)
    if bad is not None:
        raise _TagError(wording.TEMPLATE_UNEXPECTED_IN_TAG.format(token=repr(bad.text)), bad.start, bad.end)
    head = first.text
    rest = toks[1:]
    if first.kind == "close":
        kind = head[1:]
        if kind not in BLOCK_KEYWORDS:
            closers = ", ".join("{/%s}" % k for k in BLOCK_KEYWORDS)
            raise _TagError(wording.TEMPLATE_UNKNOWN_CLOSER.format(closer=head, closers=closers),
                            first.start, first.end)
        if rest:
            raise _TagError(wording.TEMPLATE_CLOSER_TAKES_NOTHING.format(closer=head), rest[0].start, rest[-1].end)
        return ("close", kind)
    if head in ("if", "elseif", "while"):
        cond = _condition(head, rest, piece.start, piece.end)
        return ("open", head, cond) if head != "elseif" else ("branch", "elseif", cond)
    if head == "else":
        if rest:
            raise _TagError(wording.TEMPLATE_ELSE_TAKES_NOTHING.format(), rest[0].start, rest[-1].end)
        return ("branch", "else", None)
    if head == "for":
        if (len(rest) != 3 or rest[0].kind != "word" or rest[0].text in CONSTANTS or "." in rest[0].text
                or rest[1].kind != "word" or rest[1].text != "in"):
            raise _TagError(wording.TEMPLATE_FOR_SHAPE.format())
        iterable = _operand(rest[2])
        return ("open", "for", (rest[0], iterable))
    if head == "repeat":
        if len(rest) != 1:
            raise _TagError(wording.TEMPLATE_REPEAT_SHAPE.format())
        return ("open", "repeat", _operand(rest[0]))
    if head in CONSTANTS:
        raise _TagError(wording.TEMPLATE_CONSTANT_TAG.format(name=head), first.start, first.end)
    for tok in rest:
        if tok.kind == "op":
            raise _TagError(wording.TEMPLATE_OPERATOR_OUTSIDE_CONDITION.format(operator=tok.text), tok.start, tok.end)
    args = tuple(_operand(t) for t in rest)
    return ("var", VarTag(piece.start, piece.end, head, first.start, first.end, args))


@dataclass(slots=True)
class _Frame:
    kind: str
    piece: Piece
    payload: object
    body: list
    branches: list  # for if: [(piece, keyword, condition, body)]


def _literal(piece: Piece, source: str) -> Text:
    return Text(piece.start, piece.end, source[piece.start:piece.end], "literal")


class _Splice:
    """Nodes to be spliced into the enclosing body in place of this marker (an unclosed block's
    contents): kept as a marker so a deep run of unclosed blocks is not copied once per level."""

    __slots__ = ("items",)

    def __init__(self, items: list) -> None:
        self.items = items


def _expand(items: list) -> list:
    """``items`` with every :class:`_Splice` replaced by its contents, however deep."""
    if not any(type(x) is _Splice for x in items):
        return items
    out: list = []
    stack = [iter(items)]
    while stack:
        x = next(stack[-1], None)
        if x is None:
            stack.pop()
        elif type(x) is _Splice:
            stack.append(iter(x.items))
        else:
            out.append(x)
    return out


def _flatten(frame: _Frame, source: str) -> _Splice:
    """An unclosed block: its tags become literal text, its bodies stay parsed."""
    out: list = [_literal(frame.piece, source)]
    if frame.kind == "if":
        out.append(_Splice(frame.branches[0][3]))
        for piece, _kw, _cond, body in frame.branches[1:]:
            out.append(_literal(piece, source))
            out.append(_Splice(body))
    else:
        out.append(_Splice(frame.body))
    return _Splice(out)


def _close(frame: _Frame, close: Piece, structural: list[Piece]) -> Node:
    structural.append(frame.piece)
    structural.extend(piece for piece, _kw, _c, _b in frame.branches[1:])
    structural.append(close)
    if frame.kind == "if":
        branches = []
        for i, (piece, kw, cond, body) in enumerate(frame.branches):
            end = frame.branches[i + 1][0].start if i + 1 < len(frame.branches) else close.start
            branches.append(Branch(piece.start, end, piece.end, kw, cond, tuple(_expand(body))))
        return IfBlock(frame.piece.start, close.end, tuple(branches), close.start)
    body = tuple(_expand(frame.body))
    if frame.kind == "for":
        var_tok, iterable = frame.payload
        return ForBlock(frame.piece.start, close.end, frame.piece.end, var_tok.text, var_tok.start, var_tok.end,
                        iterable, body, close.start)
    if frame.kind == "while":
        return WhileBlock(frame.piece.start, close.end, frame.piece.end, frame.payload, body, close.start)
    return RepeatBlock(frame.piece.start, close.end, frame.piece.end, frame.payload, body, close.start)


def parse_uncached(source: str, trim_standalone: bool = True) -> Template:
    positions = dg.SourcePositions(source)
    diags: list[dg.Diagnostic] = []
    structural: list[Piece] = []

    def report(severity: str, message: str, start: int, end: int) -> None:
        diags.append(dg.make(dg.PARSE_ERROR, severity, message, positions, start, end))

    root: list = []
    stack: list[_Frame] = []

    def body() -> list:
        if not stack:
            return root
        top = stack[-1]
        return top.branches[-1][3] if top.kind == "if" else top.body

    # How many blocks of each kind are open, so a closer that matches none is known at once.
    open_kinds = dict.fromkeys(BLOCK_KEYWORDS, 0)

    def unclosed(frame: _Frame) -> None:
        report(dg.ERROR, wording.TEMPLATE_BLOCK_UNCLOSED.format(block=frame.kind), frame.piece.start, frame.piece.end)
        open_kinds[frame.kind] -= 1
        body().append(_flatten(frame, source))

    for piece in scan(source):
        if piece.kind == "text":
            body().append(Text(piece.start, piece.end, source[piece.start:piece.end]))
            continue
        if piece.kind == "escape":
            body().append(Text(piece.start, piece.end, source[piece.start], "escape"))
            continue
        if piece.kind == "open-string":
            report(dg.ERROR, wording.TEMPLATE_STRING_UNCLOSED.format(), piece.start, piece.end)
            body().append(_literal(piece, source))
            continue
        if piece.kind == "stray-brace":
            report(dg.WARNING, wording.TEMPLATE_STRAY_BRACE.format(), piece.start, piece.end)
            body().append(_literal(piece, source))
            continue
        try:
            shape = _analyse_tag(piece, source)
        except _TagError as exc:
            if exc.message:
                report(dg.ERROR, wording.TEMPLATE_TAG_KEPT.format(detail=exc.message),
                       piece.start if exc.start is None else exc.start,
                       piece.end if exc.end is None else exc.end)
            else:
                report(dg.WARNING, wording.TEMPLATE_NOT_A_TAG.format(), piece.start, piece.end)
            body().append(_literal(piece, source))
            continue
        what = shape[0]
        if what == "var":
            body().append(shape[1])
        elif what == "open":
            frame = _Frame(shape[1], piece, shape[2], [], [])
            if frame.kind == "if":
                frame.branches.append((piece, "if", shape[2], []))
            stack.append(frame)
            open_kinds[frame.kind] += 1
        elif what == "branch":
            kw = shape[1]
            top = stack[-1] if stack else None
            if top is None or top.kind != "if":
                report(dg.ERROR, wording.TEMPLATE_BRANCH_OUTSIDE_IF.format(keyword=kw), piece.start, piece.end)
                body().append(_literal(piece, source))
            elif top.branches[-1][1] == "else":
                report(dg.ERROR, wording.TEMPLATE_BRANCH_AFTER_ELSE.format(keyword=kw), piece.start, piece.end)
                body().append(_literal(piece, source))
            else:
                top.branches.append((piece, kw, shape[2], []))
        else:  # close
            kind = shape[1]
            if not open_kinds[kind]:
                report(dg.ERROR, wording.TEMPLATE_STRAY_CLOSER.format(block=kind), piece.start, piece.end)
                body().append(_literal(piece, source))
                continue
            while stack[-1].kind != kind:
                unclosed(stack.pop())
            frame = stack.pop()
            open_kinds[kind] -= 1
            body().append(_close(frame, piece, structural))
    while stack:
        unclosed(stack.pop())
    root = _expand(root)
    if trim_standalone and structural:
        _trim_standalone(source, root, structural, positions)
    diags.sort(key=lambda d: (d.start, d.end))
    return Template(source, tuple(root), tuple(diags), positions)


def _standalone_lines(source: str, structural: list[Piece], positions: dg.SourcePositions) -> list[tuple[int, int]]:
    """The lines that hold one block tag and nothing but spaces or tabs, as (start, end) ranges
    including the line break."""
    out = []
    # Per line: (first index not a space or tab, end of the line less trailing spaces, tabs and
    # CRs), found once per line however many tags it holds.
    bounds: dict[int, tuple[int, int]] = {}
    n = len(source)
    for piece in structural:
        line_start, line_end = positions.line_span(piece.start)
        edges = bounds.get(line_start)
        if edges is None:
            m = _LEADING_BLANKS.match(source, line_start, line_end)
            first = m.end()
            last = line_end
            while last > first and source[last - 1] in " \t\r":
                last -= 1
            edges = bounds[line_start] = (first, last)
        if edges[0] >= piece.start and edges[1] <= piece.end:
            out.append((line_start, line_end + 1 if line_end < n else n))
    out.sort()
    return out


_LEADING_BLANKS = re.compile(r"[ \t]*")


def _trim_standalone(source: str, nodes, structural: list[Piece], positions: dg.SourcePositions) -> None:
    # Mustache's "standalone tag" rule: a line that holds only a block tag leaves no blank line
    # behind. Only whitespace is ever removed, so spans still cover the source.
    lines = _standalone_lines(source, structural, positions)
    if not lines:
        return
    ends = [hi for _lo, hi in lines]
    for node in _walk(nodes):
        if not isinstance(node, Text) or node.kind != "text":
            continue
        kept = []
        pos = node.start
        # The lines are disjoint and sorted: start at the first that ends after the text starts.
        for k in range(bisect.bisect_right(ends, pos), len(lines)):
            lo, hi = lines[k]
            if lo >= node.end:
                break
            if hi <= pos:
                continue
            if lo > pos:
                kept.append(source[pos:lo])
            pos = max(pos, min(hi, node.end))
        if pos == node.start:
            continue
        if pos < node.end:
            kept.append(source[pos:node.end])
        node.text = "".join(kept)


@lru_cache(maxsize=4096)
def parse(source: str, trim_standalone: bool = True) -> Template:
    """Parse a template; never raises. Cached by source text, so re-checking an edited config only
    parses the blocks whose text changed. The result must be treated as immutable.

    ``trim_standalone``: a line holding only a block tag (``{if …}``, ``{else}``, ``{/for}`` …)
    and spaces is removed from the output with its line break, so block tags on their own lines
    leave no blank lines (the docs' examples are written that way)."""
    return parse_uncached(source, trim_standalone)


# --- lexical classes for highlighting ----------------------------------------------------------

def lex(source: str) -> list[tuple[int, int, str]]:
    """``(start, end, kind)`` runs covering ``source`` exactly, from the same scanner the parser
    uses. Kinds: text, escape, brace, keyword, closer, name, string, number, operator, constant,
    literal (a brace or tag kept as text)."""
    out: list[tuple[int, int, str]] = []
    for piece in scan(source):
        if piece.kind == "text":
            out.append((piece.start, piece.end, "text"))
        elif piece.kind == "escape":
            out.append((piece.start, piece.end, "escape"))
        elif piece.kind in ("stray-brace", "open-string"):
            out.append((piece.start, piece.end, "literal"))
        else:
            try:
                _analyse_tag(piece, source)
            except _TagError:
                out.append((piece.start, piece.end, "literal"))
                continue
            out.append((piece.start, piece.start + 1, "brace"))
            pos = piece.start + 1
            for i, tok in enumerate(piece.tokens):
                if tok.start > pos:
                    out.append((pos, tok.start, "text"))
                out.append((tok.start, tok.end, _token_class(tok, i, piece.tokens)))
                pos = tok.end
            if piece.end - 1 > pos:
                out.append((pos, piece.end - 1, "text"))
            out.append((piece.end - 1, piece.end, "brace"))
    return out


def _token_class(tok: Token, index: int, toks: list[Token]) -> str:
    if tok.kind == "close":
        return "closer"
    if tok.kind == "op":
        return "operator"
    if tok.kind in ("string", "number"):
        return tok.kind
    if tok.text in CONSTANTS:
        return "constant"
    if index == 0 and tok.text in KEYWORDS:
        return "keyword"
    if index == 2 and toks[0].text == "for" and tok.text == "in":
        return "keyword"
    return "name"
