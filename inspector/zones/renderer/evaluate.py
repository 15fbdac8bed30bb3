"""Rendering a parsed template as ChatLuna's renderer does.

* An expression tag writes ``String(value ?? "")``; when evaluating it throws (an unregistered
  function, a value that cannot be called), the tag writes nothing.
* An unknown name reads as ``""``; a name no variable defines but a registered function does is
  that function called with no arguments (a failure there also reads as ``""``); a variable
  holding a function is called with no arguments. Names are looked up in the loop variables
  (innermost first), then the variables, then ``Object.prototype`` (so ``{toString}`` is
  ``[object Undefined]``), as in a JavaScript object chain.
* Both sides of every binary operator are evaluated (``&&`` and ``||`` do not short-circuit);
  ``?:`` evaluates only the branch taken. A call passes its arguments as ``String(arg)``.
* ``{if}``: the first true branch; ``{for x in list}`` runs over an array only; ``{while}`` stops
  after ``loop_limit`` iterations (10,000) with a ``loop-limit`` warning, as the renderer's
  ``console.warn`` does; ``{repeat n}`` runs ``floor(Number(n))`` times and skips, with a warning,
  a count that is NaN or negative.
* Block bodies nested ten deep write nothing (the renderer's ``maxDepth``).
* A block header that fails to parse or throws when evaluated makes the renderer throw: the render
  fails, the text is ``""`` and an error says why.
* ``variables`` lists the names read, first reads first (the renderer's ``render().variables``):
  every name in an expression that evaluated without throwing, including untaken ``?:`` branches.

Bounds the renderer does not have (so that nothing hangs or fills memory): all loops of one render
together run at most :data:`TOTAL_ITERATIONS` times, the render takes at most :data:`TOTAL_STEPS`
steps (a node rendered or an expression node evaluated), and the text stops at ``output_limit``
characters; each stops the render with an error saying so.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from inspector import wording
from inspector.jsjson import UNDEFINED

from .. import diagnostic as dg
from ..evaluate import DEFAULT_OUTPUT_LIMIT
from .js_values import (
    OBJECT_PROTOTYPE_NAMES,
    JsThrow,
    binary,
    call_value,
    get_property,
    global_property,
    is_function,
    to_number,
    to_output,
    to_string,
    truthy,
    unary,
)
from .parser import (
    Binary,
    Call,
    Conditional,
    Expr,
    ExprTag,
    ForBlock,
    Identifier,
    IfBlock,
    Index,
    Literal,
    Member,
    RepeatBlock,
    Template,
    Text,
    Unary,
    WhileBlock,
    expression_names,
)

__all__ = [
    "MAX_DEPTH",
    "TOTAL_ITERATIONS",
    "TOTAL_STEPS",
    "FunctionProvider",
    "UNKNOWN_FUNCTION",
    "WHILE_LIMIT",
    "Finding",
    "Rendered",
    "names_read",
    "render_tree",
]

UNKNOWN_FUNCTION = dg.UNKNOWN_FUNCTION
MAX_DEPTH = 10  # the renderer's default maxDepth: bodies this deep write nothing
WHILE_LIMIT = 10_000  # the renderer's MAX_ITERATIONS for one {while}
# Loop iterations one render may run in all (the renderer has no such bound; a nested
# {while true} would run 10,000 × 10,000 times there).
TOTAL_ITERATIONS = 200_000
# Steps (nodes rendered, expression nodes evaluated) one render may take in all: a loop body of
# many tags, or one huge expression, repeated within the iteration budget.
TOTAL_STEPS = 1_000_000

# (evaluated arguments, each String(arg); the variables, loop variables included) -> value
FunctionProvider = Callable[[list[Any], Mapping[str, Any]], Any]


@dataclass(frozen=True, slots=True)
class Finding:
    """A runtime diagnostic, Python indices into the source."""
    code: str
    severity: str
    message: str
    start: int
    end: int
    variable: str | None = None


@dataclass(slots=True)
class Rendered:
    text: str
    variables: list[str]
    findings: list[Finding]
    failed: bool  # ChatLuna's render throws: text is ""
    # (source start, source end, text start, text end, verbatim) per piece written, in order.
    spans: list[tuple[int, int, int, int, bool]] = field(default_factory=list)
    iterations: int = 0  # loop iterations run
    steps: int = 0  # nodes rendered and expression nodes evaluated


class _Fatal(Exception):
    """The renderer throws: the render fails."""


class _Stop(Exception):
    """A bound of ours is reached: the render stops where it is."""


_CHAIN = (Binary, Member, Index)


def names_read(expr: Expr) -> Iterator[str]:
    """The names an expression reads, in the renderer's order (``collectVariables``): every
    identifier and called function name; not property names."""
    return (name for name, _called, _start, _end in expression_names(expr))


class _Scope(Mapping):
    """The variables as a function provider sees them: loop variables over the given ones."""

    def __init__(self, base: Mapping, loops: list[tuple[str, Any]]) -> None:
        self._base = base
        self._loops = {name: value for name, value in loops}

    def __getitem__(self, key: str) -> Any:
        if key in self._loops:
            return self._loops[key]
        return self._base[key]

    def __iter__(self) -> Iterator[str]:
        yield from self._loops
        for key in self._base:
            if key not in self._loops:
                yield key

    def __len__(self) -> int:
        return sum(1 for _ in self)


class _Renderer:
    def __init__(self, template: Template, variables: Mapping, functions: Mapping[str, FunctionProvider],
                 loop_limit: int, output_limit: int, spans: bool) -> None:
        self.source = template.source
        self.variables = variables
        self.functions = functions
        self.loop_limit = loop_limit
        self.output_limit = output_limit
        self.out: list[str] = []
        self.length = 0
        self.want_spans = spans
        self.spans: list[tuple[int, int, int, int, bool]] = []
        self.read: dict[str, None] = {}
        self.findings: dict[tuple, Finding] = {}
        self.loops: list[tuple[str, Any]] = []
        self.iterations = 0
        self.steps = 0
        self.iteration_budget = TOTAL_ITERATIONS
        self.step_budget = TOTAL_STEPS
        self.in_header = False

    # --- findings and output ---

    def note(self, code: str, severity: str, message: str, start: int, end: int, variable: str | None = None) -> None:
        key = (code, start, end, message)
        if key not in self.findings:
            self.findings[key] = Finding(code, severity, message, start, end, variable)

    def write(self, text: str, start: int, end: int, verbatim: bool) -> None:
        if not text:
            return
        room = self.output_limit - self.length
        if len(text) > room:
            text = text[:max(room, 0)]
            self.emit(text, start, start + len(text) if verbatim else end, verbatim)
            self.note(dg.OUTPUT_LIMIT, dg.ERROR, wording.RENDERER_OUTPUT_LIMIT.format(limit=self.output_limit),
                      start, end)
            raise _Stop
        self.emit(text, start, end, verbatim)

    def emit(self, text: str, start: int, end: int, verbatim: bool) -> None:
        if not text:
            return
        if self.want_spans:
            self.spans.append((start, end, self.length, self.length + len(text), verbatim))
        self.out.append(text)
        self.length += len(text)

    def collect(self, expr: Expr) -> None:
        read = self.read
        for name in names_read(expr):
            if name not in read:
                read[name] = None

    def iterate(self, start: int, end: int) -> None:
        self.iterations += 1
        if self.iterations > self.iteration_budget:
            self.note(dg.LOOP_LIMIT, dg.ERROR, wording.RENDERER_ITERATION_LIMIT.format(limit=TOTAL_ITERATIONS),
                      start, end)
            raise _Stop

    def step(self, cost: int, start: int, end: int) -> None:
        self.steps += cost
        if self.steps > self.step_budget:
            self.note(dg.LOOP_LIMIT, dg.ERROR, wording.RENDERER_STEP_LIMIT.format(limit=TOTAL_STEPS), start, end)
            raise _Stop

    # --- expressions ---

    def lookup(self, node: Identifier) -> Any:
        name = node.name
        for loop_name, value in reversed(self.loops):
            if loop_name == name:
                found = value
                break
        else:
            try:
                found = self.variables[name]
            except KeyError:
                found = UNDEFINED
            if found is UNDEFINED:
                _known, found = global_property(name)
        if found is not UNDEFINED:
            return call_value(found) if is_function(found) else found
        provider = self.functions.get(name)
        if provider is not None:
            try:
                return provider([], _Scope(self.variables, self.loops))
            except Exception as exc:  # the renderer catches it, warns and reads ""
                self.note(dg.INTERNAL_ERROR, dg.WARNING, wording.RENDERER_FUNCTION_FAILED_READ.format(
                    name=repr(name), error=f"{type(exc).__name__}: {exc}"), node.start, node.end, name)
                return ""
        self.note(dg.UNKNOWN_VARIABLE, dg.WARNING, wording.RENDERER_UNKNOWN_VARIABLE_READ.format(name=repr(name)),
                  node.start, node.end, name)
        return ""

    def call(self, node: Call, callee_value: Any = None) -> Any:
        if isinstance(node.callee, str):
            name = node.callee
            provider = self.functions.get(name)
            if provider is None:
                if name == "toString":  # Object.prototype.toString, with this undefined
                    provider = lambda _args, _vars: "[object Undefined]"
                elif name == "constructor":  # Object(args) is the args array itself
                    provider = lambda args, _vars: args
                elif name in OBJECT_PROTOTYPE_NAMES:
                    raise JsThrow(f"{name} cannot be called this way")
                else:
                    sentence = (wording.RENDERER_UNKNOWN_FUNCTION_IN_HEADER if self.in_header
                                else wording.RENDERER_UNKNOWN_FUNCTION_IN_TAG)
                    self.note(UNKNOWN_FUNCTION, dg.ERROR if self.in_header else dg.WARNING,
                              sentence.format(name=repr(name)), node.start, node.start + len(name), name)
                    raise JsThrow(f"Unknown function: {name}", reported=True)
            args = [to_string(self.eval(a)) for a in node.arguments]
            try:
                return provider(args, _Scope(self.variables, self.loops))
            except JsThrow:
                raise
            except Exception as exc:
                self.note(dg.INTERNAL_ERROR, dg.WARNING, wording.RENDERER_FUNCTION_FAILED.format(
                    name=repr(name), error=f"{type(exc).__name__}: {exc}"), node.start, node.end, name)
                raise JsThrow(str(exc)) from None
        if not is_function(callee_value):
            raise JsThrow("Expression is not callable")
        args = [to_string(self.eval(a)) for a in node.arguments]
        return call_value(callee_value, *args)

    def eval(self, node: Expr) -> Any:
        # A chain (a + b + c, a.b.c, f(x)(y)) is walked down its left side without recursing,
        # then folded back up in evaluation order.
        spine: list[Expr] = []
        while isinstance(node, _CHAIN) or (isinstance(node, Call) and not isinstance(node.callee, str)):
            spine.append(node)
            node = node.left if isinstance(node, Binary) else node.callee if isinstance(node, Call) else node.object
        self.step(len(spine) + 1, node.start, node.end)
        value = self.eval_leaf(node)
        for link in reversed(spine):
            if isinstance(link, Binary):
                value = binary(link.operator, value, self.eval(link.right))
            elif isinstance(link, Member):
                value = self.member(value, link.property)
            elif isinstance(link, Index):
                value = self.member(value, self.eval(link.index))
            else:
                value = self.call(link, value)
        return value

    @staticmethod
    def member(obj: Any, key: Any) -> Any:
        if obj is None or obj is UNDEFINED:
            return ""
        value, called = get_property(obj, key)
        if called:
            return value
        return "" if value is None or value is UNDEFINED else value

    def eval_leaf(self, node: Expr) -> Any:
        if isinstance(node, Literal):
            return node.value
        if isinstance(node, Identifier):
            return self.lookup(node)
        if isinstance(node, Call):
            return self.call(node)
        if isinstance(node, Unary):
            return unary(node.operator, self.eval(node.argument))
        if isinstance(node, Conditional):
            if truthy(self.eval(node.test)):
                return self.eval(node.consequent)
            return self.eval(node.alternate)
        raise TypeError(f"not an expression: {node!r}")

    def header(self, expr: Expr | None, start: int, end: int) -> Any:
        """A block header's value; a throw there makes the whole render fail."""
        self.in_header = True
        try:
            value = self.eval(expr)
        except JsThrow as exc:
            if not exc.reported:
                self.note(dg.PARSE_ERROR, dg.ERROR, wording.RENDERER_HEADER_THROWS.format(error=str(exc)), start, end)
            raise _Fatal from None
        finally:
            self.in_header = False
        self.collect(expr)
        return value

    # --- blocks ---

    def render(self, nodes: list, depth: int) -> None:
        if depth >= MAX_DEPTH:
            return
        for node in nodes:
            self.step(1, node.start, node.start)
            kind = type(node)
            if kind is Text:
                self.write(node.value, node.start, node.end, node.verbatim)
            elif kind is ExprTag:
                try:
                    value = self.eval(node.expression)
                except JsThrow as exc:
                    if not exc.reported:
                        self.note(dg.VALUE_TYPE, dg.WARNING, wording.RENDERER_TAG_THROWS.format(error=str(exc)),
                                  node.start, node.end)
                    continue
                self.collect(node.expression)
                self.write(to_output(value), node.start, node.end, False)
            elif kind is IfBlock:
                self.render_if(node, depth)
            elif kind is ForBlock:
                items = self.header(node.iterable, node.start, node.tag_end)
                if not isinstance(items, (list, tuple)):
                    continue
                for item in items:
                    self.iterate(node.start, node.tag_end)
                    self.loops.append((node.variable, item))
                    try:
                        self.render(node.body, depth + 1)
                    finally:
                        self.loops.pop()
            elif kind is WhileBlock:
                count = 0
                while count < self.loop_limit:
                    if not truthy(self.header(node.condition, node.start, node.tag_end)):
                        break
                    self.iterate(node.start, node.tag_end)
                    self.render(node.body, depth + 1)
                    count += 1
                if count >= self.loop_limit:
                    self.note(dg.LOOP_LIMIT, dg.WARNING, wording.RENDERER_WHILE_LIMIT.format(limit=self.loop_limit),
                              node.start, node.tag_end)
            elif kind is RepeatBlock:
                value = self.header(node.count, node.start, node.tag_end)
                n = to_number(value)
                if math.isnan(n) or n < 0:
                    self.note(dg.VALUE_TYPE, dg.WARNING, wording.RENDERER_REPEAT_COUNT.format(
                        value=repr(to_string(value))), node.start, node.tag_end)
                    continue
                times = math.inf if math.isinf(n) else math.floor(n)
                i = 0
                while i < times:
                    self.iterate(node.start, node.tag_end)
                    self.render(node.body, depth + 1)
                    i += 1

    def render_if(self, node: IfBlock, depth: int) -> None:
        branch = None
        if truthy(self.header(node.condition, node.start, node.tag_end)):
            branch = node.consequent
        else:
            for condition, body, start, end in node.elseifs:
                if truthy(self.header(condition, start, end)):
                    branch = body
                    break
            if branch is None:
                branch = node.alternate
        if branch:
            self.render(branch, depth + 1)


def render_tree(template: Template, variables: Mapping, functions: Mapping[str, FunctionProvider], *,
                loop_limit: int = WHILE_LIMIT, output_limit: int | None = None, spans: bool = False,
                iteration_budget: int = TOTAL_ITERATIONS, step_budget: int = TOTAL_STEPS) -> Rendered:
    """Render a parsed template. Never raises for anything in the template or the values.
    ``iteration_budget``/``step_budget``: what is left of the render's budgets when several
    templates share one (``Rendered.iterations``/``steps`` say what this one used)."""
    limit = DEFAULT_OUTPUT_LIMIT if output_limit is None else max(0, output_limit)
    if template.fatal is not None:
        return Rendered("", [], [], True, [])
    r = _Renderer(template, variables, functions, max(0, loop_limit), limit, spans)
    r.iteration_budget = max(0, iteration_budget)
    r.step_budget = max(0, step_budget)
    failed = False
    try:
        r.render(template.nodes, 0)
    except _Fatal:
        failed = True
    except _Stop:
        pass
    except RecursionError:
        r.note(dg.PARSE_ERROR, dg.ERROR, wording.RENDERER_TOO_DEEP, 0, 0)
        failed = True
    if failed:
        return Rendered("", [], list(r.findings.values()), True, [], r.iterations, r.steps)
    return Rendered("".join(r.out), list(r.read), list(r.findings.values()), False, r.spans, r.iterations, r.steps)
