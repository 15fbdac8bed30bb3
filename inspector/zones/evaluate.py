"""Evaluating a parsed template against variable values.

ChatLuna is JavaScript, so where the docs say nothing, values behave as they would there:

* a value is inserted as ``String(value)`` (a list joins with ``,``, an object is
  ``[object Object]``, which also raises a ``value-type`` warning), except that a missing value,
  ``null`` and ``undefined`` insert nothing;
* truthiness is JavaScript's (an empty list is true, ``0`` and ``""`` are false);
* ``==``/``!=`` are JavaScript's loose equality and ``< <= > >=`` its relational comparison
  (two strings compare by UTF-16 code units, otherwise both sides become numbers);
* a dotted name (``user.name``) reads the first part as a variable or loop name, then walks *own*
  properties: object keys, list indices and ``length``.

An unknown variable renders as its own tag text (the docs' FAQ: a misspelt variable shows up as
literal braces). A bare-word call argument that names no variable is that word as a string.

Loops: ``{for}`` over anything but a list runs zero times (``value-type`` warning, except for a
missing value); ``{repeat n}`` runs once for each whole number ``i`` with ``0 <= i < n`` (so 2.5
runs three times, a negative count never), warning when ``n`` is not a whole number ≥ 0;
``{while}`` and every loop stop after ``loop_cap`` iterations with a ``loop-limit`` error.

Budgets: one :class:`RenderContext` belongs to one render (every block of it, and of one step of a
turn simulation, draws from the same one): after ``TOTAL_ITERATIONS`` loop iterations in all the
render stops looping (``loop-limit``), and once the text it wrote would pass ``output_limit``
characters (``settings.outputLimit``, default :data:`DEFAULT_OUTPUT_LIMIT`) it stops writing
(``output-limit``); either is reported once per render, so a live preview can never hang or fill
memory however the loops nest or multiply. Evaluation walks the tree with an explicit stack, so
any nesting depth the source can hold renders without touching Python's recursion limit.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Container
from dataclasses import dataclass, field
from typing import Any

from inspector import wording
from inspector.jsjson import (
    UNDEFINED, js_code_units, js_number, js_to_number, js_to_string, js_truthy, utf16_len,
)

from . import diagnostic as dg
from .template import (
    Condition,
    ForBlock,
    IfBlock,
    Operand,
    RepeatBlock,
    Template,
    Text,
    VarTag,
    WhileBlock,
)

DEFAULT_LOOP_CAP = 100
# JavaScript's whitespace (what \s matches, and what trim() and Number() strip): WhiteSpace plus
# LineTerminator. Python's \s and str.strip() differ: they take U+001C..U+001F and U+0085, and
# miss U+FEFF.

# Loop iterations one render may run in all, over every block.
TOTAL_ITERATIONS = 10_000
# Characters of text one render's templates may write in all (4 Mi; ``settings.outputLimit``).
DEFAULT_OUTPUT_LIMIT = 4 * 1024 * 1024
# The most a config may raise ``settings.outputLimit`` to (64 Mi characters): the render holds
# its text in memory several times over, so a larger limit is a way to exhaust it.
MAX_OUTPUT_LIMIT = 64 * 1024 * 1024

# resolve(name, args) -> value, for a name in the catalog; args are already evaluated.
Resolver = Callable[[str, tuple], Any]


def name_target(name: str, loop_names: Container[str], known: Container[str]) -> tuple[str, str] | None:
    """What a (possibly dotted) name refers to: ("loop", head) when its first part is a loop name
    in scope (loop names shadow the catalog), ("variable", name) for an exact catalog name, then
    ("variable", head) when the first part is one; None when nothing. One rule for rendering and
    for the static check."""
    head = name.partition(".")[0]
    if head in loop_names:
        return "loop", head
    if name in known:
        return "variable", name
    if head != name and head in known:
        return "variable", head
    return None


@dataclass(slots=True)
class Evaluation:
    text: str
    # (source start, source end, output start, output end, verbatim), Python indices, in output
    # order: where each piece of the output came from; verbatim pieces are the source unchanged.
    spans: list[tuple[int, int, int, int, bool]]
    values: dict[str, Any]
    diagnostics: list[dg.Diagnostic] = field(default_factory=list)
    # Catalog variables actually read (not loop names), in first-use order.
    used: list[str] = field(default_factory=list)


# --- JavaScript value semantics ----------------------------------------------------------------

def to_text(value: Any) -> str:
    if value is None or value is UNDEFINED:
        return ""
    return js_to_string(value)


def is_js_number(v: Any) -> bool:
    """Whether a value is a JavaScript number: an int or float, not a bool (Python's bool is an
    int). Both dialects ask this here."""
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def to_number(value: Any) -> float:
    if value is None:
        return 0.0
    if value is UNDEFINED:
        return math.nan
    if value is True:
        return 1.0
    if value is False:
        return 0.0
    if is_js_number(value):
        try:
            return float(value)
        except OverflowError:  # an integer past the largest double: JavaScript's ±Infinity
            return math.inf if value > 0 else -math.inf
    if isinstance(value, str):
        return js_to_number(value)
    if isinstance(value, (list, tuple)):
        return to_number(js_to_string(value))
    return math.nan


def to_primitive(value: Any) -> Any:
    """ToPrimitive with the default hint, for JSON values: an array is its ``join(",")``, an
    object ``[object Object]``, anything else itself."""
    if isinstance(value, (list, tuple)) or isinstance(value, dict):
        return js_to_string(value)
    return value


def loose_equals(a: Any, b: Any) -> bool:
    nullish_a = a is None or a is UNDEFINED
    nullish_b = b is None or b is UNDEFINED
    if nullish_a or nullish_b:
        return nullish_a and nullish_b
    if isinstance(a, (list, tuple, dict)) and isinstance(b, (list, tuple, dict)):
        return a is b
    a, b = to_primitive(a), to_primitive(b)
    if isinstance(a, str) and isinstance(b, str):
        return a == b
    if isinstance(a, bool) and isinstance(b, bool):
        return a is b
    x, y = to_number(a), to_number(b)
    return x == y


def compare(a: Any, op: str, b: Any) -> bool:
    if op == "==":
        return loose_equals(a, b)
    if op == "!=":
        return not loose_equals(a, b)
    a, b = to_primitive(a), to_primitive(b)
    if isinstance(a, str) and isinstance(b, str):
        x, y = js_code_units(a), js_code_units(b)
    else:
        x, y = to_number(a), to_number(b)
        if math.isnan(x) or math.isnan(y):
            return False
    if op == "<":
        return x < y
    if op == "<=":
        return x <= y
    if op == ">":
        return x > y
    return x >= y


def own_property(value: Any, key: str) -> tuple[bool, Any]:
    if isinstance(value, dict):
        return (True, value[key]) if key in value else (False, UNDEFINED)
    if isinstance(value, (list, tuple, str)):
        if key == "length":
            return True, (len(value) if not isinstance(value, str) else utf16_len(value))
        if key.isdigit() and (key == "0" or not key.startswith("0")) and isinstance(value, (list, tuple)):
            index = int(key)
            if index < len(value):
                return True, value[index]
    return False, UNDEFINED


def walk_path(value: Any, parts: list[str]) -> Any:
    for part in parts:
        found, value = own_property(value, part)
        if not found:
            return UNDEFINED
    return value


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if value is UNDEFINED:
        return "undefined"
    if isinstance(value, bool):
        return wording.FOUND_A_BOOLEAN
    if is_js_number(value):
        return wording.FOUND_NUMBER.format(value=js_number(value))
    if isinstance(value, str):
        return wording.FOUND_A_STRING
    if isinstance(value, dict):
        return wording.FOUND_AN_OBJECT
    return type(value).__name__


# --- evaluation --------------------------------------------------------------------------------

class _Budget(Exception):
    pass


class RenderContext:
    """What one render shares across every template it evaluates: the budget (loop iterations
    and characters written; the first evaluation that runs out reports it, later ones stop
    silently) and ``String(value)`` of each list value, computed once per render however many
    tags, conditions and call arguments read it."""

    __slots__ = ("iteration_limit", "output_limit", "iterations", "output", "reported", "_strings",
                 "renderer_iterations", "renderer_steps")

    def __init__(self, iteration_limit: int = TOTAL_ITERATIONS, output_limit: int = DEFAULT_OUTPUT_LIMIT) -> None:
        self.iteration_limit = iteration_limit
        self.output_limit = output_limit
        self.iterations = 0
        self.output = 0
        self.reported = False
        # What the chatluna-renderer dialect's templates of this render used of its own budgets
        # (inspector.zones.renderer: TOTAL_ITERATIONS loop iterations, TOTAL_STEPS steps).
        self.renderer_iterations = 0
        self.renderer_steps = 0
        self._strings: dict[int, tuple[Any, str]] = {}

    def flat(self, value: Any) -> Any:
        """``value``, or for a list its ``String(value)``: what a comparison or ``to_text`` sees."""
        if not isinstance(value, (list, tuple)):
            return value
        hit = self._strings.get(id(value))
        if hit is None or hit[0] is not value:
            # The value is kept with its text, so its id cannot be reused during the render.
            hit = self._strings[id(value)] = (value, js_to_string(value))
        return hit[1]

    def text_of(self, value: Any) -> str:
        """:func:`to_text`, with a list's text computed once per render."""
        return to_text(self.flat(value))


class _Loop:
    """An active loop on the evaluation stack."""

    __slots__ = ("node", "kind", "items", "index", "scoped")

    def __init__(self, node, kind: str, items=None, times: int = 0) -> None:
        self.node = node
        self.kind = kind  # "for" | "while" | "repeat"
        self.items = items if items is not None else times  # the list, or the repeat count
        self.index = 0
        self.scoped = False


class _Evaluator:
    __slots__ = ("template", "known", "resolve", "loop_cap", "out", "length", "spans", "values", "diags", "used",
                 "loop_values", "budget", "_used", "_noted")

    def __init__(self, template: Template, known: Container[str], resolve: Resolver, loop_cap: int,
                 budget: RenderContext) -> None:
        self.template = template
        self.known = known
        self.resolve = resolve
        self.loop_cap = max(0, loop_cap)
        self.out: list[str] = []
        self.length = 0
        self.spans: list[tuple[int, int, int, int, bool]] = []
        self.values: dict[str, Any] = {}
        self.diags: list[dg.Diagnostic] = []
        self.used: list[str] = []
        self._used: set[str] = set()
        self._noted: set[tuple[str, tuple[str, ...]]] = set()
        # Loop name -> the values it has in the loops open now, innermost last.
        self.loop_values: dict[str, list[Any]] = {}
        self.budget = budget

    def report(self, code: str, severity: str, message: str, start: int, end: int) -> None:
        self.diags.append(dg.make(code, severity, message, self.template.positions, start, end))

    def emit(self, text: str, start: int, end: int, verbatim: bool = False) -> None:
        if not text:
            return
        budget = self.budget
        if budget.output + len(text) > budget.output_limit:
            budget.output = budget.output_limit + 1
            if not budget.reported:
                budget.reported = True
                self.report(dg.OUTPUT_LIMIT, dg.ERROR, wording.TEMPLATE_OUTPUT_LIMIT.format(limit=budget.output_limit),
                            start, end)
            raise _Budget()
        budget.output += len(text)
        self.out.append(text)
        self.spans.append((start, end, self.length, self.length + len(text), verbatim))
        self.length += len(text)

    def lookup(self, name: str, args: tuple) -> tuple[bool, Any]:
        """A name as a loop variable or catalog variable, with a dotted tail walked."""
        target = name_target(name, self.loop_values, self.known)
        if target is None:
            return False, UNDEFINED
        kind, base = target
        tail = name[len(base) + 1:].split(".") if len(name) > len(base) else None
        if kind == "loop":
            value = self.loop_values[base][-1]
        else:
            value = self.resolve(base, args if base == name else ())
            self._note(base, args if base == name else (), value)
        return True, walk_path(value, tail) if tail else value

    def _note(self, name: str, args: tuple, value: Any) -> None:
        if args:
            flat = self.budget.flat
            parts = tuple(to_text(a) if isinstance(a, str) else js_to_string(flat(a)) for a in args)
            # The parts are the render's cached texts, so a repeated call is found without
            # joining a long argument into a new key string every time.
            if (name, parts) not in self._noted:
                self._noted.add((name, parts))
                key = name + " " + " ".join(parts)
                if key not in self.values:
                    self.values[key] = value
        elif name not in self.values:
            self.values[name] = value
        if name not in self._used:
            self._used.add(name)
            self.used.append(name)

    def operand(self, op: Operand, *, bare_is_literal: bool) -> Any:
        if op.kind != "word":
            return op.value
        found, value = self.lookup(op.value, ())
        if found:
            return value
        return op.value if bare_is_literal else UNDEFINED

    def condition(self, cond: Condition) -> bool:
        left = self.operand(cond.left, bare_is_literal=False)
        if cond.op is None:
            return js_truthy(left)
        right = self.operand(cond.right, bare_is_literal=False)
        if cond.op in ("==", "!=") and isinstance(left, (list, tuple, dict)) and isinstance(right, (list, tuple, dict)):
            return compare(left, cond.op, right)  # two objects: the same one or not
        # Otherwise a list compares as its String(), computed once per render.
        return compare(self.budget.flat(left), cond.op, self.budget.flat(right))

    def tick(self, start: int, end: int) -> None:
        budget = self.budget
        budget.iterations += 1
        if budget.iterations > budget.iteration_limit:
            if not budget.reported:
                budget.reported = True
                self.report(dg.LOOP_LIMIT, dg.ERROR,
                            wording.TEMPLATE_ITERATION_LIMIT.format(limit=budget.iteration_limit), start, end)
            raise _Budget()

    def run(self, nodes) -> None:
        """Evaluate ``nodes`` with an explicit stack: body iterators, and :class:`_Loop` frames
        that push their body once per iteration."""
        stack: list = [iter(nodes)]
        push = stack.append
        while stack:
            top = stack[-1]
            if type(top) is _Loop:
                self._advance(top, stack)
                continue
            node = next(top, None)
            if node is None:
                stack.pop()
                continue
            if isinstance(node, Text):
                self.emit(node.text, node.start, node.end,
                          node.kind != "escape" and len(node.text) == node.end - node.start)
            elif isinstance(node, VarTag):
                self.var(node)
            elif isinstance(node, IfBlock):
                for branch in node.branches:
                    if branch.condition is None or self.condition(branch.condition):
                        push(iter(branch.body))
                        break
            elif isinstance(node, ForBlock):
                loop = self.for_loop(node)
                if loop is not None:
                    push(loop)
            elif isinstance(node, WhileBlock):
                push(_Loop(node, "while"))
            elif isinstance(node, RepeatBlock):
                loop = self.repeat_loop(node)
                if loop is not None:
                    push(loop)

    def _advance(self, loop: _Loop, stack: list) -> None:
        """Start the next iteration of ``loop`` (pushing its body), or finish it (popping it)."""
        node = loop.node
        if loop.kind == "for":
            if loop.scoped:
                self._unscope(node.var)
                loop.scoped = False
            if loop.index >= len(loop.items):
                stack.pop()
                return
            self.tick(node.start, node.tag_end)
            self.loop_values.setdefault(node.var, []).append(loop.items[loop.index])
            loop.scoped = True
        elif loop.kind == "repeat":
            if loop.index >= loop.items:
                stack.pop()
                return
            self.tick(node.start, node.tag_end)
        else:
            if not self.condition(node.condition):
                stack.pop()
                return
            if loop.index >= self.loop_cap:
                self.report(dg.LOOP_LIMIT, dg.ERROR, wording.TEMPLATE_WHILE_LIMIT.format(limit=self.loop_cap),
                            node.start, node.tag_end)
                stack.pop()
                return
            self.tick(node.start, node.tag_end)
        loop.index += 1
        stack.append(iter(node.body))

    def _unscope(self, name: str) -> None:
        values = self.loop_values[name]
        values.pop()
        if not values:
            del self.loop_values[name]

    def var(self, node: VarTag) -> None:
        args = tuple(self.operand(a, bare_is_literal=True) for a in node.args)
        found, value = self.lookup(node.name, args)
        if not found:
            self.emit(self.template.source[node.start:node.end], node.start, node.end)
            return
        if isinstance(value, dict):
            self.report(dg.VALUE_TYPE, dg.WARNING, wording.TEMPLATE_OBJECT_VALUE.format(name=node.name),
                        node.start, node.end)
        self.emit(self.budget.text_of(value), node.start, node.end)

    def for_loop(self, node: ForBlock) -> _Loop | None:
        items = self.operand(node.iterable, bare_is_literal=False)
        if not isinstance(items, (list, tuple)):
            if items is not None and items is not UNDEFINED:
                self.report(dg.VALUE_TYPE, dg.WARNING, wording.TEMPLATE_FOR_NOT_LIST.format(found=_describe(items)),
                            node.iterable.start, node.iterable.end)
            return None
        if len(items) > self.loop_cap:
            self.report(dg.LOOP_LIMIT, dg.ERROR,
                        wording.TEMPLATE_FOR_LIMIT.format(count=len(items), limit=self.loop_cap), node.start, node.tag_end)
            items = items[: self.loop_cap]
        return _Loop(node, "for", items)

    def repeat_loop(self, node: RepeatBlock) -> _Loop | None:
        raw = self.operand(node.count, bare_is_literal=False)
        n = to_number(self.budget.flat(raw))
        if math.isnan(n):
            self.report(dg.VALUE_TYPE, dg.WARNING, wording.TEMPLATE_REPEAT_NOT_NUMBER.format(found=_describe(raw)),
                        node.count.start, node.count.end)
            return None
        if n < 0 or not math.isfinite(n) or n != math.floor(n):
            times = max(0, math.ceil(n)) if math.isfinite(n) else (0 if n < 0 else math.inf)
            message = (wording.TEMPLATE_REPEAT_ENDLESS.format(count=js_number(n)) if times == math.inf
                       else wording.TEMPLATE_REPEAT_NOT_WHOLE.format(count=js_number(n), times=times))
            self.report(dg.VALUE_TYPE, dg.WARNING, message, node.count.start, node.count.end)
        times = 0 if n <= 0 else math.ceil(n) if math.isfinite(n) else math.inf
        if times > self.loop_cap:
            self.report(dg.LOOP_LIMIT, dg.ERROR, wording.TEMPLATE_REPEAT_LIMIT.format(count=js_number(n),
                                                                                      limit=self.loop_cap),
                        node.start, node.tag_end)
            times = self.loop_cap
        return _Loop(node, "repeat", times=int(times))


def evaluate(template: Template, known: Container[str], resolve: Resolver, *,
             loop_cap: int = DEFAULT_LOOP_CAP, budget: RenderContext | None = None) -> Evaluation:
    """Render ``template`` with the catalog names ``known`` and their values from ``resolve``;
    never raises for anything in the template or the values. ``budget``: the render's shared
    :class:`RenderContext` (a fresh one when not given)."""
    ev = _Evaluator(template, known, resolve, loop_cap, budget if budget is not None else RenderContext())
    try:
        ev.run(template.nodes)
    except _Budget:
        pass
    return Evaluation("".join(ev.out), ev.spans, ev.values, ev.diags, ev.used)
