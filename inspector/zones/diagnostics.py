"""The static check (spec B.4): every diagnostic an editor can show without rendering.

The eight of B.4 (unknown variable, zone not allowed, mutable variable in the system zone, wrong
argument count, duplicate block id, order out of range, input without ``{prompt}``, more than one
complete block) plus parse problems, and the tool's own findings: order ties, variables never
used, an order outside the band a block says it belongs to (``purpose``), a ``{while}`` whose
condition is a constant, a loop name shadowing a variable, a bare-word argument taken as text, a
``complete`` flag outside the system zone, and a non-template block that writes a variable tag.

A variable declared ``mutable`` in a system block is an error (ChatLuna throws). One declared
immutable whose sample values differ between simulated turns is a warning under the same code:
the docs forbid variables that change with the environment in the system zone too, but ChatLuna
cannot know that statically; at run time pinning keeps the first value and adds a note.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from dataclasses import dataclass, replace

from inspector import wording
from inspector.jsjson import js_number, js_truthy

from . import diagnostic as dg
from .blocks import PROMPT, RenderResult, build_environment, simulated_turns
from .config import ORDER_RANGE, Block, PromptConfig, Variable, band_range, in_system_range, same_value
from .diagnostic import Diagnostic
from .evaluate import name_target, to_text
from .renderer import DIALECT as RENDERER_DIALECT
from .renderer import check_template
from .renderer import parse as parse_renderer
from .renderer import references as renderer_references
from .template import ForBlock, IfBlock, Operand, RepeatBlock, Template, VarTag, WhileBlock, parse

__all__ = ["Diagnostic", "check", "check_block", "CheckContext", "references", "registered_blocks", "order_ties",
           "attribute", "worst_by_block", "combined_problems"]


@dataclass(slots=True, frozen=True)
class Reference:
    name: str
    start: int  # the name's span
    end: int
    tag_start: int
    tag_end: int
    nargs: int
    kind: str  # "tag" | "operand" | "argument"
    # The loop names in scope where the name is read that can matter to it: its first part when
    # an enclosing {for} binds that name, else nothing (``name_target`` asks no more).
    loop_scope: frozenset[str]


_NO_LOOPS: frozenset[str] = frozenset()


def references(template: Template) -> tuple[list[Reference], list[ForBlock], list[WhileBlock]]:
    """Every name the template reads, with the loop name in scope it refers to, if any; the
    loops; the while blocks."""
    refs: list[Reference] = []
    loops: list[ForBlock] = []
    whiles: list[WhileBlock] = []
    # Loop name -> how many enclosing {for} bind it right now.
    bound: dict[str, int] = {}

    def scope_of(name: str) -> frozenset[str]:
        head = name.partition(".")[0]
        return frozenset((head,)) if bound.get(head) else _NO_LOOPS

    def operand(op: Operand | None, kind: str, tag: tuple[int, int]) -> None:
        if op is not None and op.kind == "word":
            refs.append(Reference(op.value, op.start, op.end, tag[0], tag[1], 0, kind, scope_of(op.value)))

    # An explicit stack of (pending items, loop name the items are inside or None): blocks nest as
    # deep as the source allows. An item is a node, or ("operand", operand, tag span), in source order.
    stack: list[tuple[Iterator, str | None]] = [(iter(template.nodes), None)]
    while stack:
        items, var = stack[-1]
        node = next(items, None)
        if node is None:
            stack.pop()
            if var is not None:
                bound[var] -= 1
            continue
        if type(node) is tuple:
            operand(node[1], "operand", node[2])
        elif isinstance(node, VarTag):
            refs.append(Reference(node.name, node.name_start, node.name_end, node.start, node.end,
                                  len(node.args), "tag", scope_of(node.name)))
            for arg in node.args:
                operand(arg, "argument", (node.start, node.end))
        elif isinstance(node, IfBlock):
            pending: list = []
            for branch in node.branches:
                if branch.condition is not None:
                    span = (branch.start, branch.tag_end)
                    pending.append(("operand", branch.condition.left, span))
                    pending.append(("operand", branch.condition.right, span))
                pending.extend(branch.body)
            stack.append((iter(pending), None))
        elif isinstance(node, ForBlock):
            operand(node.iterable, "operand", (node.start, node.tag_end))
            loops.append(node)
            bound[node.var] = bound.get(node.var, 0) + 1
            stack.append((iter(node.body), node.var))
        elif isinstance(node, WhileBlock):
            operand(node.condition.left, "operand", (node.start, node.tag_end))
            operand(node.condition.right, "operand", (node.start, node.tag_end))
            whiles.append(node)
            stack.append((iter(node.body), None))
        elif isinstance(node, RepeatBlock):
            operand(node.count, "operand", (node.start, node.tag_end))
            stack.append((iter(node.body), None))

    return refs, loops, whiles


class CheckContext:
    """What every block's check needs from the whole config, computed once per ``check``."""

    def __init__(self, config: PromptConfig) -> None:
        self.config = config
        self.variables: dict[str, Variable] = {}
        for v in config.variables:
            self.variables.setdefault(v.name, v)
        self.known = set(self.variables) | {PROMPT}
        self.sorted_known = sorted(self.known)
        self.hints: dict[str, str] = {}  # unknown name -> the known name it is closest to (quoted), or ""
        self.suggest_left = SUGGEST_BUDGET
        self.varying = self._varying()

    def _varying(self) -> set[str]:
        turns = simulated_turns(self.config)
        out = {v.name for v in self.config.variables if v.varies()}
        fed = [v for v in self.config.variables if v.env is not None and not v.has_values]
        if fed and turns > 1:
            # One environment at a time: the first turn's values, then each later turn's compared.
            first_env = build_environment(self.config, 0, log_failures=False)[0]
            first = {v.name: v.value_at(0, first_env)[1] for v in fed}
            for t in range(1, turns):
                env = build_environment(self.config, t, log_failures=False)[0]
                for v in fed:
                    if v.name not in out and not same_value(v.value_at(t, env)[1], first[v.name]):
                        out.add(v.name)
                if all(v.name in out for v in fed):
                    break
        return out


# Name comparisons one check may spend on "did you mean" hints: each unknown name is compared with
# every known one, so thousands of distinct misspellings against thousands of variables would be
# quadratic; past this the remaining unknown names get no hint.
SUGGEST_BUDGET = 20_000


def _unknown_variable(name: str, ctx: CheckContext) -> str:
    """The message for an unknown variable ``name``, with the known name it is closest to."""
    suggestion = _suggest(name, ctx)
    if suggestion:
        return wording.UNKNOWN_VARIABLE_SUGGESTED.format(name=repr(name), suggestion=suggestion)
    return wording.UNKNOWN_VARIABLE.format(name=repr(name))


def _suggest(name: str, ctx: CheckContext) -> str:
    hint = ctx.hints.get(name)
    if hint is None:
        hint = ""
        if ctx.suggest_left >= len(ctx.sorted_known):
            ctx.suggest_left -= len(ctx.sorted_known)
            close = difflib.get_close_matches(name, ctx.sorted_known, n=1, cutoff=0.75)
            hint = repr(close[0]) if close else ""
        ctx.hints[name] = hint
    return hint


def _argument_count(var: Variable, given: int) -> str:
    """The message for ``var`` called with ``given`` arguments it does not take."""
    low, high = var.min_args, len(var.args)
    names = " ".join(a.name for a in var.args)
    if high == 0:
        return wording.NO_ARGUMENTS.format(variable=repr(var.name), given=given)
    if low == high:
        template = wording.ONE_ARGUMENT if high == 1 else wording.ARGUMENTS
        return template.format(variable=repr(var.name), count=high, names=names, given=given)
    return wording.ARGUMENT_RANGE.format(variable=repr(var.name), low=low, high=high, names=names, given=given)


def _zones_text(v: Variable) -> str:
    return ", ".join(v.zones) if v.zones else "none"


def _zone_problems(var: Variable, zone: str, ctx: CheckContext, pos: dg.SourcePositions, start: int, end: int,
                   bid: str) -> list[Diagnostic]:
    """A variable read in ``zone``: whether it may be, and whether it can enter the system zone."""
    out: list[Diagnostic] = []
    base = var.name
    if not var.allows(zone):
        out.append(dg.make(dg.ZONE_NOT_ALLOWED, dg.ERROR, wording.ZONE_NOT_ALLOWED.format(
                           variable=repr(base), zones=_zones_text(var), zone=zone),
                           pos, start, end, block_id=bid, variable=base))
    if zone == "system" and var.mutable:
        out.append(dg.make(dg.MUTABLE_IN_SYSTEM, dg.ERROR, wording.MUTABLE_IN_SYSTEM.format(variable=repr(base)), pos, start, end,
                           block_id=bid, variable=base))
    elif zone == "system" and base in ctx.varying:
        out.append(dg.make(dg.MUTABLE_IN_SYSTEM, dg.WARNING, wording.VARYING_IN_SYSTEM.format(variable=repr(base)),
                           pos, start, end, block_id=bid, variable=base))
    return out


def _prompt_outside_input(zone: str, pos: dg.SourcePositions, start: int, end: int, bid: str) -> Diagnostic:
    return dg.make(dg.ZONE_NOT_ALLOWED, dg.ERROR, wording.PROMPT_OUTSIDE_INPUT.format(zone=zone), pos, start, end, block_id=bid, variable=PROMPT)


def _missing_prompt(bid: str) -> Diagnostic:
    return dg.field_diagnostic(dg.INPUT_MISSING_PROMPT, dg.ERROR, wording.INPUT_TEMPLATE_WITHOUT_PROMPT.format(), bid,
                               "content")


def _check_renderer_block(block: Block, ctx: CheckContext) -> list[Diagnostic]:
    """A template block in the ``chatluna-renderer`` dialect: the renderer's parse problems and
    unknown names (:func:`~inspector.zones.renderer.check_template`; there are no registered
    functions in a zones config), then the zone rules for each variable read."""
    bid = block.id
    zone = block.zone
    out = [d.for_block(bid) for d in check_template(block.content, ctx.known, ())]
    pos = dg.SourcePositions(block.content)
    has_prompt = False
    for ref in renderer_references(parse_renderer(block.content)):
        if ref.kind != "variable":
            continue
        if ref.name == PROMPT and PROMPT not in ctx.variables:
            has_prompt = True
            if zone != "input":
                out.append(_prompt_outside_input(zone, pos, ref.start, ref.end, bid))
            continue
        var = ctx.variables.get(ref.name)
        if var is None:
            continue
        has_prompt = has_prompt or ref.name == PROMPT
        out.extend(_zone_problems(var, zone, ctx, pos, ref.start, ref.end, bid))
    if zone == "input" and not has_prompt:
        out.append(_missing_prompt(bid))
    out.sort(key=lambda d: (d.start, d.end, d.code))
    return out


def _renderer_variables_read(content: str, ctx: CheckContext) -> list[tuple[str, int, int, int, int]]:
    """(name, start, end, tag start, tag end) of each declared variable a renderer template reads."""
    return [(r.name, r.start, r.end, r.tag_start, r.tag_end) for r in renderer_references(parse_renderer(content))
            if r.kind == "variable" and r.name in ctx.variables]


def check_block(block: Block, ctx: CheckContext) -> list[Diagnostic]:
    """The diagnostics of one block's text (not those that depend on other blocks)."""
    out: list[Diagnostic] = []
    bid = block.id
    if not block.template:
        if block.zone == "input":
            if "{prompt}" in block.content:
                at = block.content.index("{prompt}")
                out.append(dg.make(dg.INPUT_MISSING_PROMPT, dg.ERROR, wording.INPUT_NOT_TEMPLATE.format(),
                                   dg.SourcePositions(block.content), at, at + len("{prompt}"), block_id=bid))
            else:
                out.append(dg.field_diagnostic(dg.INPUT_MISSING_PROMPT, dg.ERROR, wording.INPUT_WITHOUT_PROMPT.format(), bid,
                                               "content"))
        elif "{" in block.content and ctx.config.settings.dialect == RENDERER_DIALECT:
            read = _renderer_variables_read(block.content, ctx)
            if read:
                _name, _s, _e, tag_start, tag_end = read[0]
                out.append(dg.make(dg.TEMPLATE_OFF, dg.WARNING, wording.TAG_READS_VARIABLE.format(
                                   tag=block.content[tag_start:tag_end]), dg.SourcePositions(block.content), tag_start, tag_end,
                                   block_id=bid))
        elif "{" in block.content:
            template = parse(block.content, ctx.config.settings.trim_standalone)
            refs, _l, _w = references(template)
            named = [r for r in refs if r.kind == "tag" and r.name in ctx.variables]
            if named:
                r = named[0]
                out.append(dg.make(dg.TEMPLATE_OFF, dg.WARNING, wording.TAG_NAMES_VARIABLE.format(tag=f"{{{r.name}}}"),
                                   template.positions, r.tag_start, r.tag_end, block_id=bid))
        return out
    if ctx.config.settings.dialect == RENDERER_DIALECT:
        return _check_renderer_block(block, ctx)

    template = parse(block.content, ctx.config.settings.trim_standalone)
    out.extend(d.for_block(bid) for d in template.diagnostics)
    pos = template.positions
    refs, loops, whiles = references(template)
    zone = block.zone
    has_prompt = False
    for ref in refs:
        target = name_target(ref.name, ref.loop_scope, ctx.known)
        if target is None:
            if ref.kind == "argument":
                out.append(dg.make(dg.BARE_WORD, dg.INFO, wording.BARE_WORD.format(name=repr(ref.name), text=ref.name),
                                   pos, ref.start, ref.end, block_id=bid))
            else:
                out.append(dg.make(dg.UNKNOWN_VARIABLE, dg.ERROR, _unknown_variable(ref.name, ctx), pos, ref.start, ref.end, block_id=bid,
                                   variable=ref.name))
            continue
        kind, base = target
        if kind == "loop":
            continue
        if base == PROMPT and base not in ctx.variables:
            if ref.kind == "tag" and ref.name == PROMPT:
                has_prompt = True
            if zone != "input":
                out.append(_prompt_outside_input(zone, pos, ref.start, ref.end, bid))
            continue
        if base == PROMPT and ref.kind == "tag":
            has_prompt = True
        var = ctx.variables[base]
        out.extend(_zone_problems(var, zone, ctx, pos, ref.start, ref.end, bid))
        if base == ref.name and ref.kind != "argument":
            n, lo, hi = ref.nargs, var.min_args, len(var.args)
            if not (lo <= n <= hi):
                out.append(dg.make(dg.ARG_COUNT, dg.ERROR, _argument_count(var, n),
                                   pos, ref.tag_start, ref.tag_end, block_id=bid, variable=base))
    for loop in loops:
        if loop.var in ctx.variables:
            out.append(dg.make(dg.SHADOWED_VARIABLE, dg.WARNING, wording.LOOP_SHADOWS.format(name=repr(loop.var)),
                               pos, loop.var_start, loop.var_end, block_id=bid))
    for node in whiles:
        cond = node.condition
        if cond.op is None and cond.left.kind != "word" and js_truthy(cond.left.value):
            out.append(dg.make(dg.LOOP_LIMIT, dg.WARNING, wording.WHILE_CONSTANT.format(
                               value=repr(to_text(cond.left.value)), limit=ctx.config.settings.loop_cap),
                               pos, node.start, node.tag_end, block_id=bid))
    if zone == "input" and not has_prompt:
        out.append(_missing_prompt(bid))
    out.sort(key=lambda d: (d.start, d.end, d.code))
    return out


def registered_blocks(config: PromptConfig) -> list[int]:
    """The registration indexes of the blocks ChatLuna registers: a later block with a used id
    throws and is left out, and so is a ``complete`` block outside the system zone when the
    settings reject it."""
    seen: set[str] = set()
    kept = []
    reject_complete = config.settings.complete_outside_system == "error"
    for i, block in enumerate(config.blocks):
        if block.id in seen:
            continue
        seen.add(block.id)
        if block.complete and block.zone != "system" and reject_complete:
            continue
        kept.append(i)
    return kept


def order_ties(config: PromptConfig) -> dict[tuple[str, float], list[int]]:
    """Registered blocks that share a zone and an order (registration order then decides which
    comes first), by (zone, order), in registration order; only groups of two or more."""
    groups: dict[tuple[str, float], list[int]] = {}
    for i in registered_blocks(config):
        block = config.blocks[i]
        groups.setdefault((block.zone, block.order), []).append(i)
    return {key: indexes for key, indexes in groups.items() if len(indexes) > 1}


def _num(order) -> str:
    return js_number(order)


def check(config: PromptConfig) -> list[Diagnostic]:
    """Every static diagnostic of ``config``, block by block in registration order, then the
    config-wide ones. Parses are cached by block text, so calling this after each edit re-parses
    only what changed."""
    ctx = CheckContext(config)
    per_block: dict[int, list[Diagnostic]] = {i: [] for i in range(len(config.blocks))}
    seen: dict[str, int] = {}
    complete: list[int] = []
    used: set[str] = set()
    reject_complete = config.settings.complete_outside_system == "error"

    for i, block in enumerate(config.blocks):
        found = per_block[i]
        if block.id in seen:
            found.append(dg.field_diagnostic(dg.DUPLICATE_ID, dg.ERROR, wording.DUPLICATE_ID.format(
                                             block=repr(block.id), number=seen[block.id] + 1), block.id, "id"))
            continue
        seen[block.id] = i
        if block.zone == "system":
            lo, hi = ORDER_RANGE
            if not in_system_range(block.order):
                found.append(dg.field_diagnostic(dg.ORDER_OUT_OF_RANGE, dg.ERROR, wording.ORDER_OUT_OF_RANGE.format(
                                                 order=_num(block.order), low=lo, high=hi), block.id, "order"))
            if block.purpose is not None:
                blo, bhi = band_range(block.purpose)
                if not (blo <= block.order <= bhi):
                    band = f"{blo}" if blo == bhi else f"{blo}..{bhi}"
                    found.append(dg.field_diagnostic(dg.ORDER_BAND, dg.WARNING, wording.ORDER_OUTSIDE_BAND.format(
                                                     order=_num(block.order), band_name=block.purpose, band=band),
                                                     block.id, "order"))
            if block.complete:
                complete.append(i)
        elif block.complete:
            if reject_complete:
                found.append(dg.field_diagnostic(dg.COMPLETE_OUTSIDE_SYSTEM, dg.ERROR, wording.COMPLETE_OUTSIDE_SYSTEM.format(),
                                                 block.id, "complete"))
                continue
            found.append(dg.field_diagnostic(dg.COMPLETE_OUTSIDE_SYSTEM, dg.WARNING, wording.COMPLETE_IGNORED.format(zone=block.zone),
                                             block.id, "complete"))
        if block.purpose is not None and block.zone != "system":
            found.append(dg.field_diagnostic(dg.ORDER_BAND, dg.WARNING, wording.PURPOSE_OUTSIDE_SYSTEM.format(
                                             purpose=repr(block.purpose), zone=block.zone),
                                             block.id, "purpose"))
        found.extend(check_block(block, ctx))
        if block.template and config.settings.dialect == RENDERER_DIALECT:
            used.update(name for name, *_span in _renderer_variables_read(block.content, ctx))
        elif block.template:
            refs, _l, _w = references(parse(block.content, ctx.config.settings.trim_standalone))
            for ref in refs:
                target = name_target(ref.name, ref.loop_scope, ctx.known)
                if target is not None and target[0] == "variable":
                    used.add(target[1])

    for (zone, order), indexes in order_ties(config).items():
        first = config.blocks[indexes[0]].id
        for i in indexes[1:]:
            per_block[i].insert(0, dg.field_diagnostic(
                dg.ORDER_TIE, dg.WARNING, wording.ORDER_TIE.format(zone=zone, order=_num(order), block=repr(first)),
                config.blocks[i].id, "order"))

    if len(complete) > 1:
        ids = ", ".join(repr(config.blocks[i].id) for i in complete)
        for i in complete:
            per_block[i].insert(0, dg.field_diagnostic(
                dg.MULTIPLE_COMPLETE, dg.ERROR, wording.MULTIPLE_COMPLETE_CHECK.format(count=len(complete), ids=ids),
                config.blocks[i].id, "complete"))

    out = [d if config.blocks[i].source is None else replace(d, source=config.blocks[i].source)
           for i in range(len(config.blocks)) for d in per_block[i]]
    for v in config.variables:
        if v.name not in used and v.name != PROMPT:
            out.append(dg.field_diagnostic(dg.UNUSED_VARIABLE, dg.WARNING, wording.UNUSED_VARIABLE.format(name=repr(v.name)), None, "variables", variable=v.name))
    return out


def attribute(blocks: list[Block], diagnostics: list[Diagnostic]) -> list[tuple[Diagnostic, int | None]]:
    """Pair each diagnostic with the registration index of its block. Diagnostics name blocks by
    id; a duplicate id's own diagnostic belongs to the later block(s) with that id, in order,
    everything else to the first one (the one that is assembled)."""
    first: dict[str, int] = {}
    later: dict[str, list[int]] = {}
    for i, b in enumerate(blocks):
        if b.id in first:
            later.setdefault(b.id, []).append(i)
        else:
            first[b.id] = i
    taken: dict[str, int] = {}
    out: list[tuple[Diagnostic, int | None]] = []
    for d in diagnostics:
        if d.block_id is None:
            out.append((d, None))
            continue
        index = first.get(d.block_id)
        if d.code == dg.DUPLICATE_ID:
            k = taken.get(d.block_id, 0)
            options = later.get(d.block_id, [])
            if k < len(options):
                index = options[k]
            taken[d.block_id] = k + 1
        out.append((d, index))
    return out


def worst_by_block(rows: list[tuple[Diagnostic, int | None]]) -> dict[int, tuple[str, int, str]]:
    """Per block index: (the worst severity, how many diagnostics, the first worst one's message)."""
    out: dict[int, tuple[str, int, str]] = {}
    for diag, index in rows:
        if index is None:
            continue
        current = out.get(index)
        if current is None:
            out[index] = (diag.severity, 1, diag.message)
        else:
            severity, count, message = current
            if dg.severity_rank(diag.severity) < dg.severity_rank(severity):
                out[index] = (diag.severity, count + 1, diag.message)
            else:
                out[index] = (severity, count + 1, message)
    return out


def combined_problems(diagnostics: list[Diagnostic], result: RenderResult) -> list[Diagnostic]:
    """The check's ``diagnostics`` and what rendering ``result`` found besides: its warnings the
    check did not give, and its error when the check names no such problem (or the engine failed)."""
    seen = {(d.code, d.block_id, d.start, d.end, d.message) for d in diagnostics}
    extra = [w for w in result.warnings if (w.code, w.block_id, w.start, w.end, w.message) not in seen]
    error = result.error
    if error is not None and (error.code == dg.INTERNAL_ERROR or not any(d.code == error.code for d in diagnostics)):
        extra.append(error)
    return diagnostics + extra
