"""What koishi-plugin-chatluna 1.3.36 sends for a preset: the messages in its order, the user's
input through ``format_user_prompt``, the lore entries a history activates and where they go,
the author's note. Every template goes through the ``chatluna-renderer`` dialect.

The order (ChatLuna's prompt pipeline): the preset's prompts, rendered, in file order; the chat
history; then the injections, each placed in the messages so far: the author's note (a user
message), then the activated lore entries grouped by ``insertPosition`` (each group one user
message: the entries' contents joined by a line break, put into ``config.loreBooksPrompt`` (a
LangChain ``{input}`` template, default ``{input}``), rendered); last the user's input, formatted. Positions (``findMessageIndex``): an entry without
``insertPosition`` goes to the end (after the history); ``before_char_defs`` before the
``description`` prompt (else second); ``after_char_defs`` after the ``scenario`` prompt, else
after ``description``, else one past the prompts; ``before_example_messages`` before the
``first_message`` prompt, else after ``description``, else second; ``after_example_messages``
after ``description``, else before the last prompt; anything else second. The note ``in_chat``
goes ``insertDepth`` messages before the last message so far.

Not modelled: the token budget (ChatLuna drops history rounds and lore entries when the model's
context is full), long-term memory and knowledge retrieval (``knowledge`` is checked, not
searched), agent scratchpads.

Templates are parsed and rendered once per text: :class:`PresetCache` keeps the results, so an
edit re-renders only the template that changed.
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from inspector import wording
from inspector.messages import localized
from inspector.numbering import shown
from inspector.zones import diagnostic as dg
from inspector.zones.diagnostic import ERROR, WARNING, Diagnostic, SourcePositions, field_diagnostic, make
from inspector.zones.renderer import check_template, render_detailed

from .functions import BUILTIN_FUNCTIONS, DEFAULT_NOW, DEFAULT_SEED, Builtins, parse_now
from .lore import LORE_PATTERN, Activation, LoreMatcher, PatternBank, keys_of
from .model import Preset

INPUT_MISSING_PROMPT = dg.INPUT_MISSING_PROMPT
NETWORK_FUNCTION = dg.NETWORK_FUNCTION
LORE_PROMPT = "lore-prompt"

DEFAULT_INPUT = "你好"
# The conversation ChatLuna would describe to the templates, as sample values (``--vars`` sets
# any of them): getSystemPromptVariables plus the sender fields format_user_prompt adds.
DEFAULT_VARIABLES: dict[str, Any] = {
    "name": "香草",  # ChatLuna's default botNames[0]
    "bot_id": "10001",
    "is_group": True,
    "is_private": False,
    "group_id": "123456",
    "group_name": "测试群",
    "user_id": "42",
    "platform": "onebot",
    "user": "Alice",
    "noop": "",
    "idle_duration": "now",
}
# format_user_prompt's own variables (the others: the clock's date, time and weekday, built, prompt).
SENDER_VARIABLES = ("sender_id", "sender")
ROLES = ("system", "user", "assistant")
MAX_HISTORY = 10_000


@dataclass(frozen=True)
class PresetOptions:
    input: str = DEFAULT_INPUT
    variables: Mapping[str, Any] = field(default_factory=dict)  # over the defaults
    history: Sequence[Mapping[str, str]] = ()  # oldest first, {role, content}
    now: str = DEFAULT_NOW
    seed: int = DEFAULT_SEED
    random_values: tuple[float, ...] = ()


@dataclass(frozen=True)
class Message:
    role: str
    content: str
    source: str  # prompt | history | lore | authors_note | input
    index: int | None = None  # the prompt's or history message's position
    type: str | None = None
    position: str | None = None  # lore group / note: the insertPosition asked for
    entries: tuple[int, ...] = ()  # lore: the world_lores indices in the group

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"role": self.role, "content": self.content, "source": self.source}
        if self.index is not None:
            out["index"] = self.index
        if self.type is not None:
            out["type"] = self.type
        if self.position is not None:
            out["position"] = self.position
        if self.entries:
            out["entries"] = list(self.entries)
        return out


@dataclass(frozen=True)
class LoreHit:
    entry: int  # world_lores index
    keywords: tuple[str, ...]
    order: float
    position: str  # insertPosition, or "default"
    depth: int
    by_message: int | None  # 0 = the input, 1 = the newest history message …
    by_entry: int | None
    inserted_at: int | None  # index in messages (None: its group failed to render)

    def to_json(self) -> dict[str, Any]:
        by: dict[str, Any] = {"message": self.by_message} if self.by_entry is None else {"entry": self.by_entry}
        return {"entry": self.entry, "keywords": list(self.keywords), "order": self.order,
                "position": self.position, "depth": self.depth, "activatedBy": by, "insertedAt": self.inserted_at}


@dataclass(frozen=True)
class NoteState:
    active: bool
    turn: int
    reason: str
    inserted_at: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"active": self.active, "turn": self.turn, "reason": self.reason, "insertedAt": self.inserted_at}


@dataclass(frozen=True)
class TemplateRender:
    block_id: str
    source: str
    text: str
    failed: bool  # ChatLuna's render would throw
    diagnostics: tuple[Diagnostic, ...]
    variables: tuple[str, ...]


@dataclass(frozen=True)
class PresetRender:
    messages: tuple[Message, ...]
    input: str
    formatted_input: str
    prompts: tuple[TemplateRender, ...]  # one per preset prompt, in order
    lore: tuple[LoreHit, ...]
    authors_note: NoteState | None
    diagnostics: tuple[Diagnostic, ...]
    variables: Mapping[str, Any]
    now: str
    seed: int

    @property
    def has_errors(self) -> bool:
        return any(d.severity == ERROR for d in self.diagnostics)

    def to_json(self) -> dict[str, Any]:
        return {
            "messages": [m.to_json() for m in self.messages],
            "input": {"text": self.input, "formatted": self.formatted_input},
            "lore": [h.to_json() for h in self.lore],
            "authorsNote": self.authors_note.to_json() if self.authors_note is not None else None,
            "variables": dict(self.variables),
            "clock": {"now": self.now, "seed": self.seed},
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }


class PresetCache:
    """Results that stay valid between edits: template renders (by text, variables and clock),
    lore matchers (by the entries, each remembering its matches by the scanned messages) and the
    compiled keyword patterns (by the keywords)."""

    def __init__(self, size: int = 4096) -> None:
        self.size = size
        self._renders: OrderedDict[tuple, TemplateRender] = OrderedDict()
        self._matchers: OrderedDict[tuple, LoreMatcher] = OrderedDict()
        self._banks: dict[frozenset, PatternBank] = {}

    def _keep(self, table: OrderedDict, key: tuple, value: Any) -> Any:
        table[key] = value
        if len(table) > self.size:
            table.popitem(last=False)
        return value

    def matcher(self, preset: Preset) -> LoreMatcher:
        key = (tuple(preset.lore_entries), preset.lore_settings)
        found = self._matchers.get(key)
        if found is None:
            # The compiled patterns depend on the keywords only: an edited entry content reuses them.
            keys = keys_of(preset.lore_entries)
            bank = self._banks.get(keys)
            if bank is None:
                bank = self._banks[keys] = PatternBank(keys)
                if len(self._banks) > 8:
                    self._banks.pop(next(iter(self._banks)))
            found = self._keep(self._matchers, key, LoreMatcher(list(preset.lore_entries), preset.lore_settings, bank))
        return found

    def matches(self, matcher: LoreMatcher, texts: tuple[str, ...]) -> list[Activation]:
        return matcher.memo_match(texts)


class _Context:
    """One render's variables, functions and caches."""

    def __init__(self, preset: Preset, options: PresetOptions, cache: PresetCache) -> None:
        self.cache = cache
        self.builtins = Builtins(parse_now(options.now), options.seed, tuple(options.random_values))
        self.functions = self.builtins.providers()
        variables: dict[str, Any] = dict(DEFAULT_VARIABLES)
        variables["date"] = self.builtins.locale_date_time()
        variables["time"] = self.builtins.locale_time()
        variables["weekday"] = self.builtins.weekday([], {})
        variables.update(options.variables)
        variables.setdefault("built", {"preset": preset.keywords[0] if preset.keywords else "",
                                       "platform": variables.get("platform"),
                                       "conversationId": "00000000-0000-4000-8000-000000000000"})
        variables["prompt"] = options.input
        self.system_variables = variables
        user = {"sender_id": variables.get("user_id"), "sender": variables.get("user"),
                **{k: options.variables[k] for k in SENDER_VARIABLES if k in options.variables}}
        user.update({k: v for k, v in variables.items()})
        self.user_variables = user
        self.known = frozenset(variables) | frozenset(SENDER_VARIABLES)
        clock = (options.now, options.seed, tuple(options.random_values))
        self.system_key = (json.dumps(variables, ensure_ascii=False, sort_keys=True, default=str), clock)
        self.user_key = (json.dumps(user, ensure_ascii=False, sort_keys=True, default=str), clock)

    def render(self, block_id: str, source: str, user: bool = False) -> TemplateRender:
        key = (block_id, source, self.user_key if user else self.system_key)
        found = self.cache._renders.get(key)
        if found is not None:
            return found
        variables = self.user_variables if user else self.system_variables
        self.builtins.restart()
        output = render_detailed(source, variables, self.functions, spans=False)
        checked = check_template(source, self.known, BUILTIN_FUNCTIONS)
        diagnostics = _merge(checked, output.diagnostics)
        diagnostics += _function_notes(self.builtins, source)
        diagnostics = tuple(d.for_block(block_id) for d in diagnostics)
        failed = output.failed
        result = TemplateRender(block_id, source, "" if failed else output.text, failed, diagnostics,
                                tuple(output.variables))
        return self.cache._keep(self.cache._renders, key, result)


def _merge(first: Sequence[Diagnostic], second: Sequence[Diagnostic]) -> tuple[Diagnostic, ...]:
    seen = {(d.code, d.start) for d in first}
    return tuple(first) + tuple(d for d in second if (d.code, d.start) not in seen)


def _function_notes(builtins: Builtins, source: str) -> tuple[Diagnostic, ...]:
    out = []
    positions = SourcePositions(source)
    for note in builtins.notes:
        found = re.search(re.escape(note.function) + r"\b", source)
        start, end = (found.start(), found.end()) if found else (0, 0)
        out.append(make(note.code, WARNING, note.message, positions, start, end))
    return tuple(dict.fromkeys(out))


def with_prompt_text(preset: Preset, index: int, text: str) -> Preset:
    """A copy of the preset with prompt ``index``'s content replaced (the editor's one edit)."""
    prompts = list(preset.prompts)
    prompts[index] = replace(prompts[index], content=text)
    return replace(preset, prompts=prompts)


def format_lore_prompt(template: str, value: str) -> tuple[str | None, str | None]:
    """LangChain's f-string formatting of ``loreBooksPrompt`` with ``input``: (text, None), or
    (None, why) where LangChain throws (another variable, a lone brace)."""
    out: list[str] = []
    i, n = 0, len(template)
    while i < n:
        ch = template[i]
        if ch == "{":
            if template.startswith("{{", i):
                out.append("{")
                i += 2
                continue
            end = template.find("}", i + 1)
            if end == -1:
                return None, wording.LORE_PROMPT_UNCLOSED.format()
            name = template[i + 1:end]
            if name != "input":
                return None, wording.LORE_PROMPT_OTHER_VARIABLE.format(name=name)
            out.append(value)
            i = end + 1
            continue
        if ch == "}":
            if template.startswith("}}", i):
                out.append("}")
                i += 2
                continue
            return None, wording.LORE_PROMPT_SINGLE_CLOSER.format()
        out.append(ch)
        i += 1
    return "".join(out), None


def find_message_index(types: Sequence[str | None], system_count: int, position: str) -> int:
    """ChatLuna's findMessageIndex over the messages so far (their prompt types), as it is."""
    if position == "in_chat":
        return len(types) - 1

    def find(kind: str) -> int:
        return next((i for i, t in enumerate(types) if t == kind), -1)

    description = find("description")
    char_defs = description  # ChatLuna looks "description" up twice (its personality lookup)
    scenario, example_first = find("scenario"), find("example_message_first")
    example_last, first_message = find("example_message_last"), find("first_message")
    if position in ("before_char_defs", "before_char"):
        return char_defs if char_defs != -1 else 1
    if position in ("after_char_defs", "after_char"):
        if scenario != -1:
            return scenario + 1
        return char_defs + 1 if char_defs != -1 else system_count + 1
    if position == "before_example_messages":
        if example_first != -1:
            return example_first
        if first_message != -1:
            return first_message
        return char_defs + 1 if char_defs != -1 else 1
    if position == "after_example_messages":
        if example_last != -1:
            return example_last + 1
        return char_defs + 1 if char_defs != -1 else system_count - 1
    return 1


def _splice_index(index: int, length: int) -> int:
    """Array.prototype.splice's start: negative counts from the end, clamped to [0, length]."""
    if index < 0:
        return max(length + index, 0)
    return min(index, length)


def check_history(history: Any, origin: str = "--history") -> list[dict[str, str]]:
    """A sample history (oldest first, each {role, content}); ValueError naming the bad item."""
    if not isinstance(history, list):
        raise ValueError(localized("{origin}: expected a JSON list of {{role, content}} messages", origin=origin))
    if len(history) > MAX_HISTORY:
        raise ValueError(localized("{origin}: {count} messages; at most {limit} are read", origin=origin,
                                   count=len(history), limit=MAX_HISTORY))
    out = []
    for i, item in enumerate(history):
        if not isinstance(item, dict) or set(item) - {"role", "content"}:
            raise ValueError(localized("{origin}: message {index} must be an object with role and content only",
                                       origin=origin, index=shown(i)))
        role, content = item.get("role"), item.get("content")
        if role not in ROLES:
            raise ValueError(localized("{origin}: message {index}: role must be one of {roles}, found {role}",
                                       origin=origin, index=shown(i), roles=", ".join(ROLES), role=repr(role)))
        if not isinstance(content, str):
            raise ValueError(localized("{origin}: message {index}: content must be a string", origin=origin,
                                       index=shown(i)))
        out.append({"role": role, "content": content})
    return out


def _note_turn(history: Sequence[Mapping[str, str]]) -> int:
    return sum(1 for m in history if m.get("role") == "user") + 1


def _note_active(frequency: int, turn: int) -> tuple[bool, str]:
    """ChatLuna's counter: chatCount starts at 1 on the first chat and is one less than the chat's
    number after it; the note goes in when frequency divides it (0: never, < 0: always)."""
    if frequency == 0:
        return False, wording.NOTE_NEVER
    if frequency < 0:
        return True, wording.NOTE_ALWAYS
    count = 1 if turn == 1 else turn - 1
    if count % frequency == 0:
        return True, wording.NOTE_DUE.format(turn=turn, count=count, frequency=frequency)
    return False, wording.NOTE_NOT_DUE.format(turn=turn, count=count, frequency=frequency)


def _lore_pattern_diagnostics(matcher: LoreMatcher) -> tuple[Diagnostic, ...]:
    return tuple(field_diagnostic(LORE_PATTERN, ERROR,
                                  wording.LORE_KEYWORD_NOT_PATTERN.format(index=p.entry.index, keyword=repr(p.keyword),
                                                                          reason=p.reason),
                                  f"world_lores[{p.entry.index}]", "keywords") for p in matcher.problems)


def _slash_keywords(preset: Preset) -> tuple[Diagnostic, ...]:
    out = []
    for entry in preset.lore_entries:
        for word in entry.keywords:
            if re.fullmatch(r"/.+/[dgimsuvy]*", word, re.S):
                out.append(field_diagnostic(LORE_PATTERN, WARNING,
                                            wording.LORE_KEYWORD_SLASHES.format(index=entry.index, keyword=repr(word)),
                                            f"world_lores[{entry.index}]", "keywords"))
    return tuple(out)


def render_preset(preset: Preset, options: PresetOptions | None = None, cache: PresetCache | None = None) -> PresetRender:
    """Everything ChatLuna would send for ``preset`` on one turn, and every problem found."""
    options = options or PresetOptions()
    cache = cache or PresetCache()
    ctx = _Context(preset, options, cache)
    diagnostics: list[Diagnostic] = list(preset.load_diagnostics)

    prompt_renders = tuple(ctx.render(f"prompts[{i}]", p.content) for i, p in enumerate(preset.prompts))
    messages: list[Message] = [Message(p.role, r.text, "prompt", i, p.type)
                               for i, (p, r) in enumerate(zip(preset.prompts, prompt_renders))]
    types: list[str | None] = [p.type for p in preset.prompts]
    for r in prompt_renders:
        diagnostics.extend(r.diagnostics)
    for i, m in enumerate(options.history):
        messages.append(Message(m["role"], m["content"], "history", i))
        types.append(None)

    formatted, input_diagnostics = _format_input(preset, ctx, options.input)
    diagnostics.extend(input_diagnostics)

    # The author's note goes in before the lore entries: both hooks queue their injection when a
    # chat starts, run in parallel, and the note's queues at once while the lore hook first awaits
    # the stored history; the injections are applied in the order queued.
    note_state = None
    if preset.authors_note is not None:
        note_state = _insert_note(preset, ctx, options, messages, types, diagnostics)

    hits: list[LoreHit] = []
    if preset.lore_entries:
        matcher = cache.matcher(preset)
        diagnostics.extend(_lore_pattern_diagnostics(matcher))
        diagnostics.extend(_slash_keywords(preset))
        scanned = (formatted, *(m["content"] for m in reversed(options.history)))
        activations = cache.matches(matcher, scanned)
        hits = _insert_lore(preset, ctx, activations, messages, types, diagnostics)
    for entry in preset.lore_entries:
        rendered = ctx.render(f"world_lores[{entry.index}]", entry.content)
        diagnostics.extend(rendered.diagnostics)

    messages.append(Message("user", formatted, "input"))
    hits = [replace(h, inserted_at=_final_index(messages, h.entry)) for h in hits]
    if note_state is not None and note_state.active:
        at = next((i for i, m in enumerate(messages) if m.source == "authors_note"), None)
        note_state = replace(note_state, inserted_at=at)
    return PresetRender(tuple(messages), options.input, formatted, prompt_renders, tuple(hits), note_state,
                        tuple(dict.fromkeys(diagnostics)), ctx.system_variables, options.now, options.seed)


def _final_index(messages: list[Message], entry_index: int) -> int | None:
    return next((i for i, m in enumerate(messages) if m.source == "lore" and entry_index in m.entries), None)


def _format_input(preset: Preset, ctx: _Context, text: str) -> tuple[str, list[Diagnostic]]:
    template = preset.format_user_prompt
    if template is None:
        return text, []
    rendered = ctx.render("format_user_prompt", template, user=True)
    out = list(rendered.diagnostics)
    if "prompt" not in rendered.variables and not re.search(r"\{\s*prompt\s*\}", template):
        out.append(field_diagnostic(INPUT_MISSING_PROMPT, ERROR, wording.PRESET_INPUT_WITHOUT_PROMPT.format(),
                                    "format_user_prompt", "content"))
    return rendered.text, out


def _insert_lore(preset: Preset, ctx: _Context, activations: list[Activation], messages: list[Message],
                 types: list[str | None], diagnostics: list[Diagnostic]) -> list[LoreHit]:
    """Insert the activated entries, one message per insertPosition group (groups in the order
    their first entry comes; an entry with empty content is activated but left out)."""
    groups: dict[str, list[Activation]] = {}
    for a in activations:
        if a.entry.content:
            groups.setdefault(a.entry.insert_position or "default", []).append(a)
    system_count = len(preset.prompts)
    for position, members in groups.items():
        text, problem = format_lore_prompt(preset.lore_books_prompt, "\n".join(a.entry.content for a in members))
        if problem is not None:
            diagnostics.append(field_diagnostic(LORE_PROMPT, ERROR, wording.LORE_PROMPT_THROWS.format(detail=problem),
                                                "config", "loreBooksPrompt"))
            break
        # The entries' own diagnostics are reported per entry (with their spans); the group's
        # text is only rendered here.
        rendered = ctx.render(f"lore:{position}", text or "")
        message = Message("user", rendered.text, "lore", position=position,
                          entries=tuple(a.entry.index for a in members))
        if position == "default":
            at = len(messages)
        else:
            at = _splice_index(find_message_index(types, system_count, position), len(messages))
        messages.insert(at, message)
        types.insert(at, None)
    return [_hit(a, a.entry.insert_position or "default") for a in activations]


def _hit(a: Activation, position: str) -> LoreHit:
    return LoreHit(a.entry.index, a.entry.keywords, a.entry.order, position, a.depth, a.by_message, a.by_entry, None)


def _insert_note(preset: Preset, ctx: _Context, options: PresetOptions, messages: list[Message],
                 types: list[str | None], diagnostics: list[Diagnostic]) -> NoteState:
    note = preset.authors_note
    assert note is not None
    rendered = ctx.render(note.key, note.content)
    diagnostics.extend(rendered.diagnostics)
    turn = _note_turn(options.history)
    active, reason = _note_active(note.insert_frequency, turn)
    if not active:
        return NoteState(False, turn, reason)
    if rendered.text == "":
        return NoteState(False, turn, wording.NOTE_EMPTY)
    index = find_message_index(types, len(preset.prompts), note.insert_position)
    if note.insert_position == "in_chat":
        index = max(0, index - note.insert_depth)
    at = _splice_index(index, len(messages))
    messages.insert(at, Message("user", rendered.text, "authors_note", position=note.insert_position))
    types.insert(at, None)
    return NoteState(True, turn, reason)
