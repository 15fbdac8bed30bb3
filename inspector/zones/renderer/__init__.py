"""The ``chatluna-renderer`` dialect: ChatLuna's published template renderer
(``@chatluna/shared-prompt-renderer`` 1.0.5), reimplemented so a rendered text equals the
renderer's ``text`` to the byte.

* :mod:`.lexer`: template pieces (text, ``{{``/``}}``, tags) and expression tokens;
* :mod:`.parser`: the expression grammar and the block tree (bounded, iterative);
* :mod:`.js_values`: the JavaScript value rules the evaluator applies;
* :mod:`.evaluate`: rendering, with the renderer's loop cap and depth and our own bounds;
* :mod:`.check`: the names a template reads, for the static check;
* :mod:`.highlight`: highlighting runs read from the scanner and the parser.

``render_template`` renders; ``check_template`` finds problems without rendering. Both give
:class:`~inspector.zones.diagnostic.Diagnostic` with UTF-16 spans. ``render_template`` also
gives the parse problems (an unclosed or stray block tag is an error, yet ChatLuna renders it), and
what rendering found: when ChatLuna's render would throw (a block header that does not parse or
calls an unregistered function) the text is ``""`` with an error saying why
(``render_detailed(...).failed`` says it directly); a ``loop-limit`` or ``output-limit`` error
means one of our bounds stopped the text where ChatLuna would have gone on.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from inspector import wording

from .. import diagnostic as dg
from ..diagnostic import Diagnostic
from .check import Reference, references
from .evaluate import (
    MAX_DEPTH,
    TOTAL_ITERATIONS,
    TOTAL_STEPS,
    UNKNOWN_FUNCTION,
    WHILE_LIMIT,
    FunctionProvider,
    Rendered,
    render_tree,
)
from .highlight import runs as highlight_runs
from .js_values import truthy
from .parser import Literal, Template, WhileBlock, parse, walk

__all__ = [
    "DIALECT",
    "MAX_DEPTH",
    "TOTAL_ITERATIONS",
    "TOTAL_STEPS",
    "UNKNOWN_FUNCTION",
    "WHILE_LIMIT",
    "FunctionProvider",
    "Reference",
    "RendererOutput",
    "Template",
    "check_template",
    "highlight_runs",
    "parse",
    "references",
    "render_detailed",
    "render_template",
]

DIALECT = "chatluna-renderer"


@dataclass(frozen=True)
class RendererOutput:
    text: str                      # the renderer's `text`, to the byte
    variables: tuple[str, ...]     # names the template read (as the renderer's `variables`)
    diagnostics: tuple[Diagnostic, ...]   # inspector.zones.diagnostic.Diagnostic, UTF-16 spans


def _problems(template: Template, positions: dg.SourcePositions) -> list[Diagnostic]:
    return [dg.make(dg.PARSE_ERROR, p.severity, p.message, positions, p.start, p.end) for p in template.problems]


@dataclass(slots=True)
class DetailedOutput:
    """:class:`RendererOutput` plus what the blocks view needs: whether ChatLuna's render fails,
    and where each piece of the text came from (``spans``, Python indices)."""
    text: str
    variables: tuple[str, ...]
    diagnostics: tuple[Diagnostic, ...]
    failed: bool
    spans: list[tuple[int, int, int, int, bool]]
    iterations: int = 0  # of the budgets: loop iterations and steps this render used
    steps: int = 0


def render_detailed(source: str, variables: Mapping[str, Any], functions: Mapping[str, FunctionProvider] = {}, *,
                    loop_limit: int = WHILE_LIMIT, output_limit: int | None = None,
                    spans: bool = True, iteration_budget: int = TOTAL_ITERATIONS,
                    step_budget: int = TOTAL_STEPS) -> DetailedOutput:
    """:func:`render_template` with more detail; ``iteration_budget``/``step_budget`` let several
    templates of one render share the bounds (pass what is left; the result says what was used)."""
    try:
        template = parse(source)
        rendered: Rendered = render_tree(template, variables, functions, loop_limit=loop_limit,
                                         output_limit=output_limit, spans=spans,
                                         iteration_budget=iteration_budget, step_budget=step_budget)
    except Exception as exc:  # a bug of ours: shown as one error, never a traceback
        return DetailedOutput("", (), (dg.failure(exc, "render"),), True, [])
    found = template.problems or rendered.findings
    positions = dg.SourcePositions(source) if found else None
    diagnostics = _problems(template, positions) if template.problems else []
    for f in rendered.findings:
        diagnostics.append(dg.make(f.code, f.severity, f.message, positions, f.start, f.end, variable=f.variable))
    diagnostics.sort(key=lambda d: (d.start, d.end, d.code))
    return DetailedOutput(rendered.text, tuple(rendered.variables), tuple(diagnostics), rendered.failed,
                          rendered.spans, rendered.iterations, rendered.steps)


def render_template(source: str, variables: Mapping[str, Any], functions: Mapping[str, FunctionProvider] = {}, *,
                    loop_limit: int = 10_000, output_limit: int | None = None) -> RendererOutput:
    """Render ``source`` as ChatLuna's renderer does. ``loop_limit`` is the ``{while}`` cap;
    ``output_limit`` the characters the text may reach (default 4 Mi). Never raises."""
    out = render_detailed(source, variables, functions, loop_limit=loop_limit, output_limit=output_limit,
                          spans=False)
    return RendererOutput(out.text, out.variables, out.diagnostics)


def check_template(source: str, known_variables: Collection[str], known_functions: Collection[str]
                   ) -> tuple[Diagnostic, ...]:
    """Parse problems, and every name that is neither a known variable, a known function, a
    loop variable nor an ``Object.prototype`` name; a call must name a known function."""
    try:
        return _check(source, known_variables, known_functions)
    except Exception as exc:  # a bug of ours: shown as one error, never a traceback
        return (dg.failure(exc, "check"),)


def _check(source: str, known_variables: Collection[str], known_functions: Collection[str]
           ) -> tuple[Diagnostic, ...]:
    template = parse(source)
    positions = dg.SourcePositions(source)
    out = _problems(template, positions)
    for ref in references(template):
        if ref.kind == "function":
            if ref.name in known_functions or ref.name in ("toString", "constructor"):
                continue
            sentence = (wording.RENDERER_UNKNOWN_FUNCTION_VARIABLE if ref.name in known_variables
                        else wording.RENDERER_UNKNOWN_FUNCTION)
            out.append(dg.make(UNKNOWN_FUNCTION, dg.ERROR, sentence.format(name=repr(ref.name)), positions,
                               ref.start, ref.end, variable=ref.name))
        elif not (ref.builtin or ref.name in known_variables or ref.name in known_functions):
            out.append(dg.make(dg.UNKNOWN_VARIABLE, dg.ERROR, wording.RENDERER_UNKNOWN_VARIABLE.format(
                name=repr(ref.name)), positions, ref.start, ref.end, variable=ref.name))
    for node in walk(template.nodes):
        if isinstance(node, WhileBlock) and isinstance(node.condition, Literal) and truthy(node.condition.value):
            out.append(dg.make(dg.LOOP_LIMIT, dg.WARNING, wording.RENDERER_WHILE_ALWAYS_TRUE.format(limit=WHILE_LIMIT),
                               positions, node.start, node.tag_end))
    out.sort(key=lambda d: (d.start, d.end, d.code))
    return tuple(out)
