"""The static check of a renderer template: what every name refers to, without rendering.

Every expression is looked at, in every branch (a render only sees the branches it takes). A
name is a loop variable when an enclosing ``{for}`` binds it, else a variable or a function the
caller knows, else one of ``Object.prototype``'s (``toString`` …), else unknown. A call ``f(x)``
must name a registered function: the renderer does not call variables that way, and an
unregistered name makes it throw.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .js_values import OBJECT_PROTOTYPE_NAMES
from .parser import (
    Expr,
    ExprTag,
    ForBlock,
    IfBlock,
    RepeatBlock,
    Template,
    Text,
    WhileBlock,
    expression_names,
)

__all__ = ["Reference", "references"]

VARIABLE = "variable"
FUNCTION = "function"


@dataclass(frozen=True, slots=True)
class Reference:
    """A name an expression reads: ``kind`` is ``variable`` (a bare name) or ``function`` (a
    call ``name(…)``); ``start``/``end`` span the name, ``tag_start``/``tag_end`` its tag; loop
    variables are not references. ``builtin``: one of ``Object.prototype``'s names."""
    name: str
    kind: str
    start: int
    end: int
    tag_start: int
    tag_end: int
    builtin: bool


def _names(expr: Expr) -> Iterator[tuple[str, str, int, int]]:
    """(name, kind, start, end) of each name in ``expr``, in source order."""
    for name, called, start, end in expression_names(expr):
        yield name, FUNCTION if called else VARIABLE, start, end


def references(template: Template) -> list[Reference]:
    """Every name the template's expressions read (all branches), loop variables left out."""
    out: list[Reference] = []
    bound: dict[str, int] = {}

    def add(expr: Expr | None, tag_start: int, tag_end: int) -> None:
        if expr is None:
            return
        for name, kind, start, end in _names(expr):
            if kind == VARIABLE and bound.get(name):
                continue
            out.append(Reference(name, kind, start, end, tag_start, tag_end,
                                 name in OBJECT_PROTOTYPE_NAMES))

    # An explicit stack of (pending items, loop variable bound while they are walked).
    stack: list[tuple[Iterator, str | None]] = [(iter(template.nodes), None)]
    while stack:
        items, var = stack[-1]
        node = next(items, None)
        if node is None:
            stack.pop()
            if var is not None:
                bound[var] -= 1
            continue
        kind = type(node)
        if kind is Text:
            continue
        if kind is tuple:  # ("expr", expression, tag start, tag end), queued in source order
            add(node[1], node[2], node[3])
        elif kind is ExprTag:
            add(node.expression, node.start, node.end)
        elif kind is IfBlock:
            pending: list = [("expr", node.condition, node.start, node.tag_end)] + node.consequent
            for condition, body, start, end in node.elseifs:
                pending.append(("expr", condition, start, end))
                pending.extend(body)
            pending.extend(node.alternate or ())
            stack.append((iter(pending), None))
        elif kind is ForBlock:
            add(node.iterable, node.start, node.tag_end)
            bound[node.variable] = bound.get(node.variable, 0) + 1
            stack.append((iter(node.body), node.variable))
        elif kind is WhileBlock:
            add(node.condition, node.start, node.tag_end)
            stack.append((iter(node.body), None))
        elif kind is RepeatBlock:
            add(node.count, node.start, node.tag_end)
            stack.append((iter(node.body), None))
    return out
