"""Parsing a template into the renderer's tree: expressions, and the blocks around them.

Expressions follow the renderer's grammar, loosest first: ``c ? a : b`` (right-associative),
``||``, ``&&``, ``== !=``, ``< <= > >=``, ``+ -``, ``* / %`` (all left-associative), the prefix
operators ``! - +``, then postfix ``.name``, ``[expr]`` and ``(args)``. A call of a plain name
(``f(x)``) calls the registered function of that name; a call of anything else calls the value.

A tag whose trimmed content starts with ``if ``, ``for ``, ``while `` or ``repeat `` opens a block
that runs to its closer (``{/if}``, ``{/for}`` …), or to the end of the text when none comes; in
an ``{if}``, ``{elseif c}`` starts another branch and ``{else}`` the alternative (an ``{elseif}``
after ``{else}`` still adds a branch, and a second ``{else}`` starts the alternative afresh). Only
the innermost open block's closer is recognised: any other tag is parsed as a tag. A tag whose
expression does not parse is kept as written; ``{for x}`` without `` in `` is kept as
``{for x}``, trimmed. A block *header* that does not parse makes the renderer throw: the whole
render fails (``Template.fatal``).

Bounded: blocks are parsed with an explicit stack, so nesting depth costs no recursion, and an
expression nested past :data:`MAX_NESTING` (brackets, calls, ``?:``, prefix operators) or whose
tree is deeper than :data:`MAX_TREE_DEPTH` is refused as a parse problem rather than recursing
without bound. Long flat chains (``a + b + c …``, ``a.b.c …``) are any length.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from inspector import wording

from .. import diagnostic as dg
from .lexer import (
    ESCAPE,
    TAG,
    TEXT,
    UNTERMINATED,
    ExpressionError,
    Token,
    scan_template,
    tokenize_expression,
    trim_span,
)

__all__ = [
    "MAX_BLOCK_DEPTH",
    "MAX_NESTING",
    "MAX_TREE_DEPTH",
    "Binary",
    "Call",
    "Conditional",
    "Expr",
    "ExprTag",
    "ForBlock",
    "Identifier",
    "IfBlock",
    "Index",
    "Literal",
    "Member",
    "Problem",
    "RepeatBlock",
    "Template",
    "Text",
    "Unary",
    "WhileBlock",
    "parse",
    "parse_expression",
]

# Recursion units one expression may use while parsing: a bracket, call or ?: level costs
# ten (one per precedence level it descends), a prefix operator one.
MAX_NESTING = 400
# The deepest expression tree evaluation may recurse through (flat chains cost nothing).
MAX_TREE_DEPTH = 150
# Blocks nested deeper than this are refused (JavaScript's stack overflows at a few thousand,
# and the renderer writes nothing below depth 10 anyway).
MAX_BLOCK_DEPTH = 1000
# Parse problems listed per template; past this one note says how many more there are.
MAX_PROBLEMS = 200


# --- expression tree ---------------------------------------------------------------------------

class Expr:
    __slots__ = ("depth", "end", "start")


class Literal(Expr):
    __slots__ = ("value",)

    def __init__(self, value: Any, start: int, end: int) -> None:
        self.value, self.start, self.end, self.depth = value, start, end, 0


class Identifier(Expr):
    __slots__ = ("name",)

    def __init__(self, name: str, start: int, end: int) -> None:
        self.name, self.start, self.end, self.depth = name, start, end, 0


class Member(Expr):
    __slots__ = ("object", "property")

    def __init__(self, obj: Expr, prop: str, end: int) -> None:
        self.object, self.property, self.start, self.end, self.depth = obj, prop, obj.start, end, obj.depth


class Index(Expr):
    __slots__ = ("index", "object")

    def __init__(self, obj: Expr, index: Expr, end: int) -> None:
        self.object, self.index, self.start, self.end = obj, index, obj.start, end
        self.depth = max(obj.depth, index.depth + 1)


class Call(Expr):
    """``callee`` is a name (a registered function) or an expression (a value to call)."""
    __slots__ = ("arguments", "callee")

    def __init__(self, callee: str | Expr, args: list[Expr], start: int, end: int, callee_depth: int) -> None:
        self.callee, self.arguments, self.start, self.end = callee, args, start, end
        self.depth = max([callee_depth] + [a.depth + 1 for a in args])


class Binary(Expr):
    __slots__ = ("left", "operator", "right")

    def __init__(self, op: str, left: Expr, right: Expr) -> None:
        self.operator, self.left, self.right, self.start, self.end = op, left, right, left.start, right.end
        self.depth = max(left.depth, right.depth + 1)


class Unary(Expr):
    __slots__ = ("argument", "operator")

    def __init__(self, op: str, argument: Expr, start: int) -> None:
        self.operator, self.argument, self.start, self.end = op, argument, start, argument.end
        self.depth = argument.depth + 1


class Conditional(Expr):
    __slots__ = ("alternate", "consequent", "test")

    def __init__(self, test: Expr, consequent: Expr, alternate: Expr) -> None:
        self.test, self.consequent, self.alternate = test, consequent, alternate
        self.start, self.end = test.start, alternate.end
        self.depth = max(test.depth, consequent.depth, alternate.depth) + 1


_EQUALITY = ("==", "!=")
_RELATIONAL = ("<=", ">=", "<", ">")
_ADDITIVE = ("+", "-")
_MULTIPLICATIVE = ("*", "/", "%")


class _ExpressionParser:
    __slots__ = ("level", "pos", "tokens")

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.pos = 0
        self.level = 0

    def fail(self, message: str, token: Token | None = None) -> ExpressionError:
        token = token or self.tokens[self.pos]
        return ExpressionError(message, token.start, max(token.end, token.start))

    def peek(self) -> Token:
        return self.tokens[self.pos]

    def is_op(self, values: tuple[str, ...]) -> bool:
        tok = self.tokens[self.pos]
        return tok.type == "operator" and tok.value in values

    def is_punct(self, value: str) -> bool:
        tok = self.tokens[self.pos]
        return tok.type == "punctuation" and tok.value == value

    def check(self, node: Expr) -> Expr:
        if node.depth > MAX_TREE_DEPTH:
            raise ExpressionError(wording.RENDERER_EXPRESSION_TREE_TOO_DEEP.format(limit=MAX_TREE_DEPTH),
                                  node.start, node.end)
        return node

    def parse(self) -> Expr:
        expr = self.conditional()
        if self.peek().type != "eof":
            raise self.fail(wording.RENDERER_EXPRESSION_TRAILING)
        return expr

    def conditional(self) -> Expr:
        self.level += 10
        if self.level > MAX_NESTING:
            raise self.fail(wording.RENDERER_EXPRESSION_TOO_DEEP.format(limit=MAX_NESTING // 10))
        expr = self.logical_or()
        if self.is_punct("?"):
            self.pos += 1
            consequent = self.conditional()
            if not self.is_punct(":"):
                raise self.fail(wording.RENDERER_EXPRESSION_NO_COLON)
            self.pos += 1
            alternate = self.conditional()
            expr = self.check(Conditional(expr, consequent, alternate))
        self.level -= 10
        return expr

    def _chain(self, operand, operators: tuple[str, ...]) -> Expr:
        left = operand()
        while self.is_op(operators):
            op = self.peek().value
            self.pos += 1
            left = self.check(Binary(op, left, operand()))
        return left

    def logical_or(self) -> Expr:
        return self._chain(self.logical_and, ("||",))

    def logical_and(self) -> Expr:
        return self._chain(self.equality, ("&&",))

    def equality(self) -> Expr:
        return self._chain(self.relational, _EQUALITY)

    def relational(self) -> Expr:
        return self._chain(self.additive, _RELATIONAL)

    def additive(self) -> Expr:
        return self._chain(self.multiplicative, _ADDITIVE)

    def multiplicative(self) -> Expr:
        return self._chain(self.unary, _MULTIPLICATIVE)

    def unary(self) -> Expr:
        if self.is_op(("!", "-", "+")):
            tok = self.peek()
            self.pos += 1
            self.level += 1
            if self.level > MAX_NESTING:
                raise self.fail(wording.RENDERER_EXPRESSION_PREFIXES, tok)
            node = self.check(Unary(tok.value, self.unary(), tok.start))
            self.level -= 1
            return node
        return self.postfix()

    def postfix(self) -> Expr:
        expr = self.primary()
        while True:
            if self.is_punct("."):
                self.pos += 1
                prop = self.peek()
                if prop.type != "identifier":
                    raise self.fail(wording.RENDERER_EXPRESSION_NO_NAME, prop)
                self.pos += 1
                expr = self.check(Member(expr, prop.value, prop.end))
            elif self.is_punct("["):
                self.pos += 1
                index = self.conditional()
                if not self.is_punct("]"):
                    raise self.fail(wording.RENDERER_EXPRESSION_NO_BRACKET)
                end = self.peek().end
                self.pos += 1
                expr = self.check(Index(expr, index, end))
            elif self.is_punct("("):
                self.pos += 1
                args = self.arguments()
                if not self.is_punct(")"):
                    raise self.fail(wording.RENDERER_EXPRESSION_NO_PARENTHESIS)
                end = self.peek().end
                self.pos += 1
                callee: str | Expr = expr.name if isinstance(expr, Identifier) else expr
                expr = self.check(Call(callee, args, expr.start, end, 0 if isinstance(callee, str) else expr.depth))
            else:
                return expr

    def primary(self) -> Expr:
        tok = self.peek()
        if tok.type in ("string", "number"):
            self.pos += 1
            return Literal(tok.value, tok.start, tok.end)
        if tok.type == "keyword":
            self.pos += 1
            return Literal({"true": True, "false": False, "null": None}[tok.value], tok.start, tok.end)
        if tok.type == "identifier":
            self.pos += 1
            return Identifier(tok.value, tok.start, tok.end)
        if self.is_punct("("):
            self.pos += 1
            expr = self.conditional()
            if not self.is_punct(")"):
                raise self.fail(wording.RENDERER_EXPRESSION_NO_PARENTHESIS)
            self.pos += 1
            return expr
        raise self.fail(wording.RENDERER_EXPRESSION_END if tok.type == "eof"
                        else wording.RENDERER_EXPRESSION_UNEXPECTED.format(token=repr(tok.value)))

    def arguments(self) -> list[Expr]:
        args: list[Expr] = []
        if self.is_punct(")"):
            return args
        while True:
            args.append(self.conditional())
            if self.is_punct(","):
                self.pos += 1
            else:
                return args


def parse_expression(text: str, start: int = 0, end: int | None = None) -> Expr:
    """The expression in ``text[start:end]`` (node positions index ``text``). Raises
    :class:`~inspector.zones.renderer.lexer.ExpressionError`."""
    lo, hi = trim_span(text, start, end)
    return _ExpressionParser(tokenize_expression(text, lo, hi)).parse()


# --- template tree -----------------------------------------------------------------------------

@dataclass(slots=True)
class Text:
    value: str
    start: int
    end: int
    verbatim: bool  # the value is the source span unchanged


@dataclass(slots=True)
class ExprTag:
    expression: Expr
    start: int
    end: int


@dataclass(slots=True)
class IfBlock:
    condition: Expr | None  # None: the header did not parse (the render fails)
    consequent: list
    start: int
    tag_end: int
    elseifs: list[tuple[Expr | None, list, int, int]] = field(default_factory=list)  # (condition, body, tag span)
    alternate: list | None = None
    closed: bool = False


@dataclass(slots=True)
class ForBlock:
    variable: str
    iterable: Expr | None
    body: list
    start: int
    tag_end: int
    closed: bool = False


@dataclass(slots=True)
class WhileBlock:
    condition: Expr | None
    body: list
    start: int
    tag_end: int
    closed: bool = False


@dataclass(slots=True)
class RepeatBlock:
    count: Expr | None
    body: list
    start: int
    tag_end: int
    closed: bool = False


@dataclass(frozen=True, slots=True)
class Problem:
    """A parse problem, Python indices into the source; ``fatal``: ChatLuna's render throws."""
    severity: str
    message: str
    start: int
    end: int
    fatal: bool = False


@dataclass(slots=True)
class Template:
    source: str
    nodes: list
    problems: list[Problem]

    @property
    def fatal(self) -> Problem | None:
        return next((p for p in self.problems if p.fatal), None)


_CLOSERS = {IfBlock: "/if", ForBlock: "/for", WhileBlock: "/while", RepeatBlock: "/repeat"}
_STRAY = {"/if", "/for", "/while", "/repeat"}


def _kept_as_text(content: str, trimmed: str, start: int, end: int, error: ExpressionError) -> Problem:
    if trimmed.startswith("elseif "):
        return Problem(dg.ERROR, wording.RENDERER_ELSEIF_OUTSIDE_IF.format(), start, end)
    first = trimmed[:1]
    looks_like_tag = first.isidentifier() and "\n" not in content
    severity = dg.WARNING if looks_like_tag else dg.INFO
    return Problem(severity, wording.RENDERER_NOT_A_TAG.format(detail=error.message), start, end)


def _header(source: str, tag_start: int, tag_end: int, offset: int, problems: list[Problem]) -> Expr | None:
    """The expression of a block header, from ``offset`` to the tag's ``}``; a header that does
    not parse is a fatal problem (the renderer throws)."""
    try:
        return parse_expression(source, offset, tag_end - 1)
    except ExpressionError as exc:
        problems.append(Problem(dg.ERROR, wording.RENDERER_HEADER_UNPARSED.format(detail=exc.message),
                                exc.start if exc.start < tag_end else tag_start, max(exc.end, exc.start),
                                fatal=True))
        return None


def parse_uncached(source: str) -> Template:
    problems: list[Problem] = []
    root: list = []
    # Open blocks, innermost last: (block, the list the next node goes in).
    stack: list[tuple[Any, list]] = []
    current = root
    too_deep = False
    for kind, start, end, value in scan_template(source):
        if kind == TEXT or kind == UNTERMINATED:
            current.append(Text(value, start, end, True))
            if kind == UNTERMINATED:
                problems.append(Problem(dg.WARNING, wording.RENDERER_BRACE_UNCLOSED.format(), start,
                                        min(end, start + 1)))
            continue
        if kind == ESCAPE:
            current.append(Text(value, start, end, False))
            continue
        assert kind == TAG
        lo, hi = trim_span(source, start + 1, end - 1)
        trimmed = source[lo:hi]
        if stack:
            block = stack[-1][0]
            if trimmed == _CLOSERS[type(block)]:
                block.closed = True
                stack.pop()
                current = stack[-1][1] if stack else root
                continue
            if isinstance(block, IfBlock):
                if trimmed.startswith("elseif "):
                    body: list = []
                    block.elseifs.append((_header(source, start, end, lo + 7, problems), body, start, end))
                    current = body
                    stack[-1] = (block, body)
                    continue
                if trimmed == "else":
                    block.alternate = []
                    current = block.alternate
                    stack[-1] = (block, current)
                    continue
        opened: Any = None
        if trimmed.startswith(("if ", "for ", "while ", "repeat ")) and len(stack) >= MAX_BLOCK_DEPTH:
            if not too_deep:
                problems.append(Problem(dg.ERROR, wording.RENDERER_BLOCKS_TOO_DEEP.format(limit=MAX_BLOCK_DEPTH),
                                        start, end, fatal=True))
                too_deep = True
            current.append(Text(source[start:end], start, end, True))
            continue
        if trimmed.startswith("if "):
            opened = IfBlock(_header(source, start, end, lo + 3, problems), [], start, end)
        elif trimmed.startswith("for "):
            rest_lo, rest_hi = trim_span(source, lo + 4, hi)
            at = source.find(" in ", rest_lo, rest_hi)
            if at < 0:
                current.append(Text("{" + trimmed + "}", start, end, False))
                problems.append(Problem(dg.WARNING, wording.RENDERER_FOR_WITHOUT_IN.format(), start, end))
                continue
            var_lo, var_hi = trim_span(source, rest_lo, at)
            opened = ForBlock(source[var_lo:var_hi], _header(source, start, end, at + 4, problems), [], start, end)
        elif trimmed.startswith("while "):
            opened = WhileBlock(_header(source, start, end, lo + 6, problems), [], start, end)
        elif trimmed.startswith("repeat "):
            opened = RepeatBlock(_header(source, start, end, lo + 7, problems), [], start, end)
        if opened is not None:
            current.append(opened)
            current = opened.consequent if isinstance(opened, IfBlock) else opened.body
            stack.append((opened, current))
            continue
        if trimmed in _STRAY:  # "/" cannot start an expression: kept as text
            current.append(Text(source[start:end], start, end, True))
            problems.append(Problem(dg.ERROR, wording.RENDERER_STRAY_CLOSER.format(closer=trimmed, block=trimmed[1:]),
                                    start, end))
            continue
        try:
            expression = parse_expression(source, lo, hi)
        except ExpressionError as exc:
            current.append(Text(source[start:end], start, end, True))
            problems.append(_kept_as_text(value, trimmed, start, end, exc))
            continue
        current.append(ExprTag(expression, start, end))
        if trimmed in ("else", "elseif"):
            problems.append(Problem(dg.ERROR, wording.RENDERER_BRANCH_AS_VARIABLE.format(keyword=trimmed,
                                                                                      name=repr(trimmed)), start, end))
        elif trimmed in ("if", "for", "while", "repeat"):
            problems.append(Problem(dg.ERROR, wording.RENDERER_KEYWORD_AS_VARIABLE.format(keyword=trimmed,
                                                                                       name=repr(trimmed)), start, end))
    for block, _body in stack:
        name = _CLOSERS[type(block)][1:]
        problems.append(Problem(dg.ERROR, wording.RENDERER_BLOCK_UNCLOSED.format(block=name), block.start,
                                block.tag_end))
    problems.sort(key=lambda p: (p.start, p.end))
    if len(problems) > MAX_PROBLEMS:
        kept = problems[:MAX_PROBLEMS]
        fatal = next((p for p in problems[MAX_PROBLEMS:] if p.fatal), None)
        if fatal is not None and not any(p.fatal for p in kept):
            kept.append(fatal)
        rest = problems[len(kept):]
        kept.append(Problem(dg.INFO, wording.RENDERER_MORE_PROBLEMS.format(count=len(problems) - len(kept)),
                            rest[0].start, rest[0].end))
        problems = kept
    return Template(source, root, problems)


@lru_cache(maxsize=1024)
def parse(source: str) -> Template:
    """:func:`parse_uncached`, cached by source text (the tree is never modified once built)."""
    return parse_uncached(source)


def walk(nodes: list) -> Iterator[Any]:
    """Every node of a tree, blocks before their bodies, without recursion."""
    stack: list[Iterator] = [iter(nodes)]
    while stack:
        node = next(stack[-1], None)
        if node is None:
            stack.pop()
            continue
        yield node
        if isinstance(node, IfBlock):
            bodies = [node.consequent] + [body for _c, body, _s, _e in node.elseifs] + [node.alternate or []]
            stack.append(iter([child for body in bodies for child in body]))
        elif isinstance(node, (ForBlock, WhileBlock, RepeatBlock)):
            stack.append(iter(node.body))


def expression_names(expr: Expr) -> Iterator[tuple[str, bool, int, int]]:
    """``(name, called, start, end)`` of each name an expression reads, in source order, which
    is the renderer's order (``collectVariables``): every identifier and called function name
    (``called`` true), never a property name. Iterative: any nesting the parser allowed."""
    stack: list[Expr] = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, Identifier):
            yield node.name, False, node.start, node.end
        elif isinstance(node, Member):
            stack.append(node.object)
        elif isinstance(node, Index):
            stack.append(node.index)
            stack.append(node.object)
        elif isinstance(node, Call):
            stack.extend(reversed(node.arguments))
            if isinstance(node.callee, str):
                yield node.callee, True, node.start, node.start + len(node.callee)
            else:
                stack.append(node.callee)
        elif isinstance(node, Binary):
            stack.append(node.right)
            stack.append(node.left)
        elif isinstance(node, Unary):
            stack.append(node.argument)
        elif isinstance(node, Conditional):
            stack.append(node.alternate)
            stack.append(node.consequent)
            stack.append(node.test)
