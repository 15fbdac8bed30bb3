"""Assembly of the three zones (spec B.2), the prompt digest and environment pinning (B.5), and the
turn simulator.

One render:

* **system**: system-zone blocks by ``order`` (registration order breaks ties). A ``complete``
  block replaces every other system block; two or more fail the assembly. Role ``system`` blocks
  join into one message with ``settings.system_joiner`` (a blank line by default; blocks that
  render empty are left out of the join), role ``user``/``assistant`` blocks become ``prelude``
  messages in the same order.
* **context**: one message per block that renders non-empty, role ``settings.context_role``
  unless the block names one.
* **input**: the blocks transform the raw input; ``chain`` (default) feeds each block's output
  to the next as ``{prompt}``, ``first``/``last`` apply only one.
* ``sectionNames``: the ids of the system-zone blocks that took effect, in emission order
  (``settings.section_names = "all"`` appends the context and input blocks); ``digest`` is the hex
  SHA-256 of those ids joined by ``"\\n"``, so it changes with the layout, never with content;
  ``contentDigest`` is the SHA-256 of the system prefix's JSON (``{"system", "prelude"}``).

Pinning: with ``settings.pinning`` on, the system zone is rendered once, with turn 0's values,
and reused; on a later turn whose values differ from the pinned snapshot (or from the previous
turn, ``note_compare = "previous"``), an "environment updated" note listing the changed values is
added to the context messages. What is compared is ``settings.pin_compare``.
"""

from __future__ import annotations

import copy
import hashlib
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from inspector import wording
from inspector.jsjson import UNDEFINED, js_stringify, utf16_len

from . import diagnostic as dg
from .config import Block, PromptConfig, Variable, same_value
from .evaluate import TOTAL_ITERATIONS, Evaluation, RenderContext, evaluate, to_text
from .renderer import DIALECT as RENDERER_DIALECT
from .renderer import TOTAL_ITERATIONS as RENDERER_ITERATIONS
from .renderer import TOTAL_STEPS as RENDERER_STEPS
from .renderer import WHILE_LIMIT, render_detailed
from .template import parse

log = logging.getLogger("inspector.zones")

PROMPT = "prompt"  # the input zone's placeholder for the raw input (B.2)
NOTE_SOURCE = "environment-note"

# What happened to the system zone on a turn (``RenderResult.system_action``).
SYSTEM_RENDERED = "rendered"  # turn 0 (and a failed assembly): rendered, nothing before to compare with
SYSTEM_REUSED = "reused"  # pinned: turn 0's system zone, nothing changed since
SYSTEM_NOTE = "note"  # pinned, and an "environment updated" note says what changed
SYSTEM_RERENDERED = "re-rendered"  # pinning off: rendered again, and it differs from the turn before
SYSTEM_UNCHANGED = "unchanged"  # pinning off: rendered again, the same as the turn before


# --- environment -------------------------------------------------------------------------------

def merge(base: dict, patch: dict, mode: str) -> dict:
    """Later keys win. ``shallow`` replaces top-level keys (what ChatLuna's own contributor example
    assumes: it spreads ``env.extra`` itself); ``deep`` merges nested tables."""
    out = dict(base)
    for key, value in patch.items():
        if mode == "deep" and isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value, mode)
        else:
            out[key] = copy.deepcopy(value)
    return out


def build_environment(config: PromptConfig, turn: int, *, log_failures: bool = True
                      ) -> tuple[dict, list[dg.Diagnostic]]:
    """The environment of ``turn``: the base, that turn's patch, then every contributor in
    registration order. A contributor that fails is logged as a warning (and returned as one)
    and skipped."""
    env_cfg = config.environment
    mode = config.settings.environment_merge
    env = copy.deepcopy(env_cfg.base)
    if env_cfg.turns:
        env = merge(env, env_cfg.turns[min(turn, len(env_cfg.turns) - 1)], mode)
    warnings: list[dg.Diagnostic] = []
    for contributor in env_cfg.contributors:
        if contributor.fails_at(turn):
            message = wording.CONTRIBUTOR_FAILED.format(name=repr(contributor.id), turn=turn, error=contributor.error)
            if log_failures:
                log.warning(message)
            warnings.append(dg.field_diagnostic(dg.CONTRIBUTOR_FAILED, dg.WARNING, message, None, "environment"))
            continue
        env = merge(env, contributor.patch_at(turn), mode)
    return env, warnings


# A simulation steps through at most this many turns (``render --turns``, the editor's turn table,
# the check's "does this value change between turns"); each step renders every block, so the bound
# keeps a config that names turn 100000000 (a ``failTurns`` entry, say) from running without end.
MAX_TURNS = 1000


def simulated_turns(config: PromptConfig) -> int:
    """How many turns the config's per-turn values describe (at least 1, at most ``MAX_TURNS``)."""
    counts = [1, len(config.environment.turns)]
    counts += [len(v.values) for v in config.variables if v.per_turn]
    for c in config.environment.contributors:
        if isinstance(c.patch, list):
            counts.append(len(c.patch))
        counts += [t + 1 for t in c.fail_turns]
    return min(max(counts), MAX_TURNS)


# --- results -----------------------------------------------------------------------------------

@dataclass(slots=True)
class Message:
    role: str
    content: str
    source: str | None  # block id, or NOTE_SOURCE

    def to_json(self) -> dict:
        return {"role": self.role, "content": self.content, "source": self.source}


@dataclass(slots=True)
class RenderedBlock:
    """What one block contributed, and where, so an editor can map between source and preview."""
    block_id: str
    zone: str
    role: str
    # "system" | "prelude" | "context" | "input" | "empty" (rendered to nothing) | "excluded"
    target: str
    text: str
    message_index: int = -1  # index in prelude / contexts; 0 for system and input
    offset: int = -1  # where ``text`` starts in that message (Python index), -1 when not placed
    # (source start, source end, text start, text end, verbatim), Python indices into the block's
    # content and ``text``; empty for a block that is not a template (its text is its content).
    spans: list[tuple[int, int, int, int, bool]] = field(default_factory=list)
    reason: str = ""  # why a block is excluded

    def source_to_text(self, index: int) -> int | None:
        """Where a position of the block's content shows in ``text`` (a tag maps to the start of
        its value); None when that part produced nothing. A non-template block maps one to one."""
        if not self.spans:
            return index if 0 <= index <= len(self.text) and self.target not in ("excluded",) else None
        for s0, s1, t0, _t1, verbatim in self.spans:
            if s0 <= index < s1:
                return t0 + (index - s0 if verbatim else 0)
        return None

    def text_to_source(self, index: int) -> int | None:
        """The content position a position of ``text`` came from (the tag's start for a value)."""
        if not self.spans:
            return index if 0 <= index <= len(self.text) and self.target not in ("excluded",) else None
        for s0, _s1, t0, t1, verbatim in self.spans:
            if t0 <= index < t1:
                return s0 + (index - t0 if verbatim else 0)
        return None

    def to_json(self) -> dict:
        return {"blockId": self.block_id, "zone": self.zone, "role": self.role, "target": self.target,
                "text": self.text, "messageIndex": self.message_index,
                "offset": -1 if self.offset < 0 else self.offset, "reason": self.reason or None}


@dataclass(slots=True)
class RenderResult:
    turn: int
    system: str
    prelude: list[Message]
    contexts: list[Message]
    input: str
    values: dict[str, Any]
    section_names: list[str]
    digest: str
    content_digest: str
    blocks: list[RenderedBlock]
    environment: dict
    warnings: list[dg.Diagnostic]
    error: dg.Diagnostic | None = None
    system_action: str = SYSTEM_RENDERED  # one of the SYSTEM_* actions
    note: str | None = None
    changes: dict[str, tuple[Any, Any]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def messages(self) -> list[Message]:
        """The request as the model would receive it, minus history: system, prelude, contexts,
        then the transformed input."""
        out = []
        if self.system:
            out.append(Message("system", self.system, None))
        out.extend(self.prelude)
        out.extend(self.contexts)
        if self.input:
            out.append(Message("user", self.input, PROMPT))
        return out

    def block(self, block_id: str) -> RenderedBlock | None:
        return next((b for b in self.blocks if b.block_id == block_id), None)

    def to_json(self) -> dict:
        return {
            "turn": self.turn,
            "system": self.system,
            "prelude": [m.to_json() for m in self.prelude],
            "contexts": [m.content for m in self.contexts],
            "contextMessages": [m.to_json() for m in self.contexts],
            "input": self.input,
            "values": {k: (None if v is UNDEFINED else v) for k, v in self.values.items()},
            "sectionNames": list(self.section_names),
            "digest": self.digest,
            "contentDigest": self.content_digest,
            "systemAction": self.system_action,
            "note": self.note,
            "changes": {k: {"from": _json_value(a), "to": _json_value(b)} for k, (a, b) in self.changes.items()},
            "blocks": [b.to_json() for b in self.blocks],
            "warnings": [d.to_json() for d in self.warnings],
            "error": None if self.error is None else self.error.to_json(),
        }


def _json_value(value: Any) -> Any:
    return None if value is UNDEFINED else value


def digest_of(section_names: list[str]) -> str:
    return hashlib.sha256("\n".join(section_names).encode("utf-8", "surrogatepass")).hexdigest()


def content_digest_of(system: str, prelude: list[Message]) -> str:
    data = {"system": system, "prelude": [{"role": m.role, "content": m.content} for m in prelude]}
    return hashlib.sha256(js_stringify(data).encode("utf-8", "surrogatepass")).hexdigest()


# --- blocks in order ---------------------------------------------------------------------------

@dataclass(slots=True)
class Layout:
    """Which blocks take part, in emission order per zone, and which were left out and why."""
    system: list[Block]
    context: list[Block]
    input: list[Block]
    excluded: list[tuple[Block, str]]
    complete: Block | None
    error: dg.Diagnostic | None


def in_assembly_order(indexed: list[tuple[int, Block]]) -> list[tuple[int, Block]]:
    """``(registration index, block)`` pairs of one zone sorted as the assembly sorts them: by
    ``order``, ties broken by registration order (spec B.2)."""
    return sorted(indexed, key=lambda item: (item[1].order, item[0]))


def layout(config: PromptConfig) -> Layout:
    seen: set[str] = set()
    zones: dict[str, list[tuple[int, Block]]] = {"system": [], "context": [], "input": []}
    excluded: list[tuple[Block, str]] = []
    reject_complete = config.settings.complete_outside_system == "error"
    for index, block in enumerate(config.blocks):
        if block.id in seen:
            excluded.append((block, wording.EXCLUDED_DUPLICATE_ID))
            continue
        seen.add(block.id)
        if block.complete and block.zone != "system" and reject_complete:
            excluded.append((block, "complete is only allowed on system blocks"))
            continue
        zones[block.zone].append((index, block))
    ordered = {z: [b for _i, b in in_assembly_order(items)] for z, items in zones.items()}
    system = ordered["system"]
    complete = [b for b in system if b.complete]
    error = None
    chosen = None
    if len(complete) > 1:
        ids = ", ".join(repr(b.id) for b in complete)
        error = dg.field_diagnostic(dg.MULTIPLE_COMPLETE, dg.ERROR,
                                    wording.MULTIPLE_COMPLETE.format(count=len(complete), ids=ids), complete[1].id,
                                    "complete")
    elif complete:
        chosen = complete[0]
        for b in system:
            if b is not chosen:
                excluded.append((b, wording.REPLACED_BY_COMPLETE.format(block=repr(chosen.id))))
        system = [chosen]
    return Layout(system, ordered["context"], ordered["input"], excluded, chosen, error)


# --- rendering ---------------------------------------------------------------------------------

class _Values:
    """Variable values on one turn: declared variables plus the input zone's ``{prompt}``."""

    def __init__(self, config: PromptConfig, turn: int, env: dict) -> None:
        self.turn = turn
        self.env = env
        self.by_name: dict[str, Variable] = {}
        for v in config.variables:
            self.by_name.setdefault(v.name, v)

    def known(self, zone: str) -> set[str] | dict:
        if zone == "input":
            return self.by_name.keys() | {PROMPT}
        return self.by_name.keys()

    def resolver(self, prompt_text: str | None, text_of=to_text):
        def resolve(name: str, args: tuple) -> Any:
            if name == PROMPT and prompt_text is not None:
                return prompt_text
            var = self.by_name.get(name)
            if var is None:
                return UNDEFINED
            found, value = var.value_at(self.turn, self.env)
            if not found:
                return UNDEFINED
            if var.args and isinstance(value, dict):
                key = " ".join(text_of(a) for a in args)
                if key in value:
                    return value[key]
                return value.get("*", UNDEFINED)
            return value
        return resolve


def render_context(settings) -> RenderContext:
    """The context (budget, value texts) one render (one turn, one simulation step) shares
    across all its blocks."""
    return RenderContext(TOTAL_ITERATIONS, settings.output_limit)


class _RendererVariables(Mapping):
    """A zone's variables as the renderer dialect reads them: a name the block may see, with its
    value on this turn; a name without a value is absent (the renderer reads it as nothing)."""

    def __init__(self, names, resolve) -> None:
        self._names = names
        self._resolve = resolve

    def __getitem__(self, name: str) -> Any:
        if name not in self._names:
            raise KeyError(name)
        value = self._resolve(name, ())
        if value is UNDEFINED:
            raise KeyError(name)
        return value

    def __iter__(self):
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


# What rendering a block in the renderer dialect reports besides the static check (which gives
# unknown names and parse problems itself): the loop cap, the budgets, runtime throws; and the
# errors of a render ChatLuna's renderer would fail.
_RENDERER_RUNTIME = frozenset({dg.LOOP_LIMIT, dg.OUTPUT_LIMIT, dg.VALUE_TYPE, dg.INTERNAL_ERROR})


def _render_renderer_block(block: Block, values: _Values, budget: RenderContext, prompt_text: str | None
                           ) -> tuple[str, Evaluation]:
    """A block in the ``chatluna-renderer`` dialect: ChatLuna's renderer's text, its variables
    read, and where each piece came from; the render's characters, loop iterations and steps
    count against ``budget`` (all blocks of one render share it)."""
    variables = _RendererVariables(values.known(block.zone), values.resolver(prompt_text, budget.text_of))
    room = max(0, budget.output_limit - budget.output)
    out = render_detailed(block.content, variables, {}, loop_limit=WHILE_LIMIT, output_limit=room,
                          iteration_budget=RENDERER_ITERATIONS - budget.renderer_iterations,
                          step_budget=RENDERER_STEPS - budget.renderer_steps)
    budget.output += len(out.text)
    budget.renderer_iterations += out.iterations
    budget.renderer_steps += out.steps
    used = [name for name in out.variables if name in variables]
    read: dict[str, Any] = {}
    for name in used:
        try:
            read[name] = variables[name]
        except KeyError:
            read[name] = UNDEFINED
    diagnostics = [d for d in out.diagnostics
                   if d.code in _RENDERER_RUNTIME or (out.failed and d.severity == dg.ERROR)]
    # A budget running out is reported once per render, by the block it happened in.
    stops = [d for d in diagnostics if d.code in (dg.LOOP_LIMIT, dg.OUTPUT_LIMIT) and d.severity == dg.ERROR]
    if stops and budget.reported:
        diagnostics = [d for d in diagnostics if d not in stops]
    budget.reported = budget.reported or bool(stops)
    return out.text, Evaluation(out.text, out.spans, read, diagnostics, used)


def _render_block(block: Block, values: _Values, settings, budget: RenderContext, prompt_text: str | None = None
                  ) -> tuple[str, Evaluation | None]:
    if not block.template:
        return block.content, None
    if settings.dialect == RENDERER_DIALECT:
        return _render_renderer_block(block, values, budget, prompt_text)
    template = parse(block.content, settings.trim_standalone)
    ev = evaluate(template, values.known(block.zone), values.resolver(prompt_text, budget.text_of),
                  loop_cap=settings.loop_cap, budget=budget)
    return ev.text, ev


def _block_warnings(block: Block, ev: Evaluation | None) -> list[dg.Diagnostic]:
    return [replace(d, block_id=block.id, source=block.source) for d in ev.diagnostics] if ev is not None else []


@dataclass(slots=True)
class _SystemZone:
    system: str
    prelude: list[Message]
    blocks: list[RenderedBlock]
    values: dict[str, Any]
    warnings: list[dg.Diagnostic]


def _render_system(config: PromptConfig, lay: Layout, values: _Values, budget: RenderContext) -> _SystemZone:
    settings = config.settings
    joiner = settings.system_joiner
    parts: list[str] = []
    length = 0
    prelude: list[Message] = []
    rendered: list[RenderedBlock] = []
    used: dict[str, Any] = {}
    warnings: list[dg.Diagnostic] = []
    for block in lay.system:
        text, ev = _render_block(block, values, settings, budget)
        warnings += _block_warnings(block, ev)
        if ev is not None:
            for k, v in ev.values.items():
                used.setdefault(k, v)
        role = block.effective_role(settings.context_role)
        spans = ev.spans if ev is not None else []
        if role == "system":
            if not text:
                rendered.append(RenderedBlock(block.id, "system", role, "empty", text, spans=spans))
                continue
            if parts:
                length += len(joiner)
            rendered.append(RenderedBlock(block.id, "system", role, "system", text, 0, length, spans))
            parts.append(text)
            length += len(text)
        elif not text:
            # An empty user/assistant message is refused by most chat APIs, and an empty context
            # block is dropped the same way.
            rendered.append(RenderedBlock(block.id, "system", role, "empty", text, spans=spans))
        else:
            rendered.append(RenderedBlock(block.id, "system", role, "prelude", text, len(prelude), 0, spans))
            prelude.append(Message(role, text, block.id))
    return _SystemZone(joiner.join(parts), prelude, rendered, used, warnings)


def _changed(old: dict[str, Any], new: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    out: dict[str, tuple[Any, Any]] = {}
    for key in list(old) + [k for k in new if k not in old]:
        a, b = old.get(key, UNDEFINED), new.get(key, UNDEFINED)
        if a is UNDEFINED and b is UNDEFINED:
            continue
        if not same_value(a, b):
            out[key] = (a, b)
    return out


def _flatten(env: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(env, dict) and env:
        out: dict[str, Any] = {}
        for k, v in env.items():
            out.update(_flatten(v, f"{prefix}.{k}" if prefix else str(k)))
        return out
    return {prefix: env} if prefix else {}


def note_text(config: PromptConfig, changes: dict[str, tuple[Any, Any]]) -> str:
    title = config.settings.note_title
    if config.settings.note_detail == "names":
        return f"{title}: " + ", ".join(changes)
    lines = [title]
    for name, (_old, new) in changes.items():
        shown = "" if new is UNDEFINED or new is None else (
            new if isinstance(new, str) else js_stringify(new))
        lines.append(f"- {name}: {shown}")
    return "\n".join(lines)


class Session:
    """Renders the turns of one simulated conversation, remembering what pinning needs. The editor
    keeps none: ``render`` and ``simulate_turns`` make one per call, which is cheap."""

    def __init__(self, config: PromptConfig, input_text: str | None = None) -> None:
        self.config = config
        self.input_text = config.sample_input if input_text is None else input_text
        self.layout = layout(config)
        self._turns: dict[int, tuple[dict, list[dg.Diagnostic], _Values]] = {}
        self._systems: dict[int, _SystemZone] = {}

    def _turn(self, turn: int) -> tuple[dict, list[dg.Diagnostic], _Values]:
        if turn not in self._turns:
            env, warnings = build_environment(self.config, turn)
            self._turns[turn] = (env, warnings, _Values(self.config, turn, env))
        return self._turns[turn]

    def _system(self, turn: int, budget: RenderContext) -> _SystemZone:
        # A system zone rendered for an earlier turn is reused; one rendered now draws from the
        # budget of the render that needs it.
        if turn not in self._systems:
            self._systems[turn] = _render_system(self.config, self.layout, self._turn(turn)[2], budget)
        return self._systems[turn]

    def _forget(self, turn: int) -> None:
        # Only the pinned turn and the two a next step compares are worth keeping: a long
        # simulation holds three system zones, not one per turn.
        keep = {0, turn - 1, turn}
        for cache in (self._systems, self._turns):
            for t in [t for t in cache if t not in keep]:
                del cache[t]

    def _snapshot(self, turn: int, budget: RenderContext) -> dict[str, Any]:
        mode = self.config.settings.pin_compare
        env, _w, values = self._turn(turn)
        if mode == "environment":
            return _flatten(env)
        if mode == "all-variables":
            return {v.name: v.value_at(turn, env)[1] for v in self.config.variables}
        return dict(self._system(turn, budget).values)

    def render(self, turn: int = 0) -> RenderResult:
        turn = max(0, turn)
        config, settings, lay = self.config, self.config.settings, self.layout
        budget = render_context(settings)
        env, env_warnings, values = self._turn(turn)
        warnings = list(env_warnings)
        if lay.error is not None:
            return failed_result(turn, lay.error, env, warnings)

        # System zone: rendered now, or reused from the pinned turn.
        action, note, changes = SYSTEM_RENDERED, None, {}
        if settings.pinning and turn > 0:
            system = self._system(0, budget)
            base = self._snapshot(turn - 1 if settings.note_compare == "previous" else 0, budget)
            changes = _changed(base, self._snapshot(turn, budget))
            if changes:
                action, note = SYSTEM_NOTE, note_text(config, changes)
            else:
                action = SYSTEM_REUSED
        else:
            system = self._system(turn, budget)
            if turn > 0:
                before = self._system(turn - 1, budget)
                same = before.system == system.system and [(m.role, m.content) for m in before.prelude] == \
                    [(m.role, m.content) for m in system.prelude]
                action = SYSTEM_UNCHANGED if same else SYSTEM_RERENDERED
        warnings += system.warnings
        blocks = [RenderedBlock(b.block_id, b.zone, b.role, b.target, b.text, b.message_index, b.offset,
                                list(b.spans)) for b in system.blocks]
        used: dict[str, Any] = dict(system.values)

        contexts: list[Message] = []
        if note is not None and settings.note_position == "first":
            contexts.append(Message(settings.context_role, note, NOTE_SOURCE))
        for block in lay.context:
            text, ev = _render_block(block, values, settings, budget)
            warnings += _block_warnings(block, ev)
            if ev is not None:
                used.update(ev.values)
            role = block.effective_role(settings.context_role)
            spans = ev.spans if ev is not None else []
            if not text:
                blocks.append(RenderedBlock(block.id, "context", role, "empty", text, spans=spans))
                continue
            blocks.append(RenderedBlock(block.id, "context", role, "context", text, len(contexts), 0, spans))
            contexts.append(Message(role, text, block.id))
        if note is not None and settings.note_position == "last":
            contexts.append(Message(settings.context_role, note, NOTE_SOURCE))

        current = self.input_text
        chain = lay.input
        if settings.input_mode == "first":
            chain = chain[:1]
        elif settings.input_mode == "last":
            chain = chain[-1:]
        in_chain = {id(c) for c in chain}
        for block in lay.input:
            if id(block) not in in_chain:
                blocks.append(RenderedBlock(block.id, "input", "user", "excluded", "",
                                            reason=wording.INPUT_MODE_ONE_BLOCK.format(mode=repr(settings.input_mode))))
        for block in chain:
            text, ev = _render_block(block, values, settings, budget, prompt_text=current)
            warnings += _block_warnings(block, ev)
            if ev is not None:
                used.update(ev.values)
            blocks.append(RenderedBlock(block.id, "input", "user", "input", text, 0, 0,
                                        ev.spans if ev is not None else []))
            current = text

        for block, reason in lay.excluded:
            blocks.append(RenderedBlock(block.id, block.zone, block.effective_role(settings.context_role),
                                        "excluded", "", reason=reason))

        self._forget(turn)
        names = [b.id for b in lay.system]
        if settings.section_names == "all":
            names += [b.id for b in lay.context] + [b.id for b in chain]
        return RenderResult(turn, system.system, list(system.prelude), contexts, current, used, names,
                            digest_of(names), content_digest_of(system.system, system.prelude), blocks, env,
                            warnings, None, action, note, changes)


def failed_result(turn: int, error: dg.Diagnostic, environment: dict | None = None,
                  warnings: list[dg.Diagnostic] | None = None) -> RenderResult:
    """A render that produced nothing: empty zones, ``error`` set."""
    return RenderResult(turn, "", [], [], "", {}, [], digest_of([]), content_digest_of("", []), [],
                        {} if environment is None else environment, [] if warnings is None else warnings,
                        error, SYSTEM_RENDERED)


def render(config: PromptConfig, turn: int = 0, input_text: str | None = None) -> RenderResult:
    """The assembled prompt of ``turn`` (0-based) for ``input_text`` (default: the config's
    ``sampleInput``). Never raises for anything in the config; a failed assembly (two complete
    blocks) comes back with ``error`` set and empty zones."""
    return Session(config, input_text).render(turn)


@dataclass(slots=True)
class TurnRow:
    turn: int
    system_action: str  # rendered | reused | note | re-rendered | unchanged
    note: str | None
    changes: dict[str, tuple[Any, Any]]
    digest: str
    content_digest: str
    system_length: int  # UTF-16 code units
    warnings: list[dg.Diagnostic]
    error: dg.Diagnostic | None

    @property
    def system_rerendered(self) -> bool:
        return self.system_action in (SYSTEM_RENDERED, SYSTEM_RERENDERED)

    @property
    def note_added(self) -> bool:
        return self.note is not None

    def to_json(self) -> dict:
        return {"turn": self.turn, "systemAction": self.system_action, "note": self.note,
                "changes": {k: {"from": _json_value(a), "to": _json_value(b)} for k, (a, b) in self.changes.items()},
                "digest": self.digest, "contentDigest": self.content_digest, "systemLength": self.system_length,
                "warnings": [d.to_json() for d in self.warnings],
                "error": None if self.error is None else self.error.to_json()}


class TurnSimulator:
    """Step through turns one at a time (the editor's turn stepper)."""

    def __init__(self, config: PromptConfig, input_text: str | None = None) -> None:
        self.session = Session(config, input_text)
        self.turn = -1

    def result(self, turn: int) -> RenderResult:
        return self.session.render(turn)

    def step(self) -> TurnRow:
        self.turn += 1
        return row_of(self.session.render(self.turn))


def row_of(result: RenderResult) -> TurnRow:
    return TurnRow(result.turn, result.system_action, result.note, result.changes, result.digest,
                   result.content_digest, utf16_len(result.system), result.warnings, result.error)


def simulate_turns(config: PromptConfig, n_turns: int | None = None, input_text: str | None = None
                   ) -> list[TurnRow]:
    """One row per turn: whether the system zone was rendered, reused, re-rendered or reused with
    an "environment updated" note, and the digests. ``n_turns`` defaults to the number of turns
    the config's per-turn values describe; either is capped at ``MAX_TURNS``."""
    n = simulated_turns(config) if n_turns is None else min(max(0, n_turns), MAX_TURNS)
    sim = TurnSimulator(config, input_text)
    return [sim.step() for _ in range(n)]
