"""A ChatLuna preset file (koishi-plugin-chatluna 1.3.36's ``RawPreset`` YAML) read into plain
records, with every field checked.

What ChatLuna itself does on load (``loadPreset``): ``prompts`` become messages in file order, a
string content trimmed; ``world_lores`` splits into the first item that is not an entry (the
settings object) and the entries (an item with both ``keywords`` and ``content``; a single keyword
string becomes a list); ``authors_note`` (or ``author_notes``) gets ``insertFrequency`` 1,
``insertPosition`` ``in_chat`` and ``insertDepth`` 0 by default; ``config`` defaults to ``{}``.
It checks nothing else: a misspelt key is ignored, ``enabled: "false"`` counts as enabled.
Here each such problem is a diagnostic naming its path (``world_lores[3].enabled``); the file is
refused (:class:`PresetError`) only when it is not a preset at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml

from inspector import wording
from inspector.zones.config import MAX_CONFIG_BYTES, MAX_NESTING, ConfigError, too_deep, value_kind, yaml_error_text
from inspector.zones.diagnostic import ERROR, WARNING, Diagnostic, field_diagnostic

from . import yaml_core

# Diagnostic codes of preset files (the template codes come from the renderer).
PRESET_FIELD = "preset-field"
PRESET_UNKNOWN_KEY = "preset-unknown-key"

ROLES = {"system": "system", "user": "user", "assistant": "assistant",
         # createMessage accepts these spellings too
         "human": "user", "ai": "assistant", "model": "assistant"}
PROMPT_TYPES = ("personality", "description", "first_message", "scenario")
# Types findMessageIndex looks for besides the four of the type declaration.
POSITION_TYPES = ("example_message_first", "example_message_last")
LORE_POSITIONS = ("before_char_defs", "after_char_defs", "before_scenario", "after_scenario",
                  "before_example_messages", "after_example_messages")
NOTE_POSITIONS = ("after_char_defs", "in_chat")

TOP_KEYS = ("keywords", "prompts", "format_user_prompt", "world_lores", "version", "authors_note",
            "author_notes", "knowledge", "config")
LORE_SETTING_KEYS = ("scanDepth", "tokenLimit", "recursiveScan", "maxRecursionDepth", "insertPosition")
LORE_ENTRY_KEYS = ("keywords", "content", "insertPosition", "scanDepth", "recursiveScan", "maxRecursionDepth",
                   "matchWholeWord", "constant", "caseSensitive", "enabled", "order")
NOTE_KEYS = ("content", "insertPosition", "insertDepth", "insertFrequency")
KNOWLEDGE_KEYS = ("knowledge", "prompt")
CONFIG_STRING_KEYS = ("longMemoryPrompt", "loreBooksPrompt", "longMemoryExtractPrompt", "longMemoryNewQuestionPrompt",
                      "reActInstruction")
CONFIG_KEYS = ("maxOutputToken", *CONFIG_STRING_KEYS, "postHandler")


class PresetError(ConfigError):
    """A file that is not a ChatLuna preset (not YAML, not a mapping, too large or deep)."""


@dataclass(frozen=True)
class Prompt:
    role: str  # system | user | assistant
    content: str  # the text ChatLuna renders: a string content trimmed, or the text parts joined
    type: str | None = None
    # The content was a list of parts; parts other than text are kept by ChatLuna but not rendered.
    other_parts: int = 0


@dataclass(frozen=True)
class LoreEntry:
    index: int  # position in world_lores
    keywords: tuple[str, ...]
    content: str
    insert_position: str | None = None
    scan_depth: int | None = None
    recursive_scan: bool | None = None
    max_recursion_depth: int | None = None
    match_whole_word: bool | None = None
    constant: bool = False
    case_sensitive: bool | None = None
    enabled: bool = True
    order: float = 0


@dataclass(frozen=True)
class LoreSettings:
    scan_depth: int | None = None
    token_limit: int | None = None
    recursive_scan: bool | None = None
    max_recursion_depth: int | None = None
    insert_position: str | None = None
    index: int | None = None  # position in world_lores, when given


@dataclass(frozen=True)
class AuthorsNote:
    content: str
    insert_position: str = "in_chat"
    insert_depth: int = 0
    insert_frequency: int = 1
    key: str = "authors_note"


@dataclass(frozen=True)
class Knowledge:
    knowledge: tuple[str, ...]
    prompt: str | None = None


@dataclass
class Preset:
    keywords: tuple[str, ...] = ()
    prompts: list[Prompt] = field(default_factory=list)
    format_user_prompt: str | None = None
    lore_settings: LoreSettings | None = None  # None: no world_lores
    lore_entries: list[LoreEntry] = field(default_factory=list)
    authors_note: AuthorsNote | None = None
    knowledge: Knowledge | None = None
    version: str | None = None
    config: dict[str, Any] = field(default_factory=dict)
    # What the loader found wrong, as diagnostics (block_id: the field's path).
    load_diagnostics: tuple[Diagnostic, ...] = ()
    origin: str = "<preset>"

    @property
    def lore_books_prompt(self) -> str:
        value = self.config.get("loreBooksPrompt")
        return value if isinstance(value, str) else "{input}"


def is_preset_data(data: Any) -> bool:
    """Whether parsed YAML/JSON is a ChatLuna preset rather than a zones config: a mapping with
    ``prompts`` and/or ``keywords`` at the top and none of a zones config's own keys."""
    return (isinstance(data, dict) and ("prompts" in data or "keywords" in data)
            and not any(k in data for k in ("blocks", "variables", "environment", "settings", "sampleInput")))


def parse_preset_text(text: str, origin: str = "<preset>") -> Any:
    """The YAML of a preset file (js-yaml's reading); :class:`PresetError` with the line and
    column when it is not YAML, or too large or deep."""
    if len(text) > MAX_CONFIG_BYTES:
        raise PresetError(wording.PRESET_TOO_LARGE.format(origin=origin, length=len(text), limit=MAX_CONFIG_BYTES))
    try:
        data = yaml_core.load(text)
    except yaml.YAMLError as exc:
        raise PresetError(yaml_error_text(exc, origin)) from None
    except RecursionError:
        raise PresetError(wording.FILE_NOT_VALID_DEEP.format(origin=origin, format="YAML")) from None
    if too_deep(data):
        raise PresetError(wording.PRESET_NESTED_TOO_DEEP.format(origin=origin, limit=MAX_NESTING))
    return data


def loads_preset(text: str, origin: str = "<preset>") -> Preset:
    return preset_from_data(parse_preset_text(text, origin), origin)


def _kind(value: Any) -> str:
    return value_kind(value, wording.FOUND_A_MAPPING)


def _plain(value: Any) -> Any:
    """Dates and timestamps as ISO strings (js-yaml reads them as Date objects, which String()
    would spell differently; no preset field expects one)."""
    stack: list[Any] = [value]
    if hasattr(value, "isoformat") and not isinstance(value, (dict, list, str)):
        return value.isoformat()
    while stack:
        item = stack.pop()
        pairs = item.items() if isinstance(item, dict) else enumerate(item) if isinstance(item, list) else ()
        for key, inner in list(pairs):
            if isinstance(inner, (dict, list)):
                stack.append(inner)
            elif hasattr(inner, "isoformat") and not isinstance(inner, str):
                item[key] = inner.isoformat()
    return value


class _Checker:
    def __init__(self) -> None:
        self.found: list[Diagnostic] = []

    def problem(self, path: str, key: str | None, message: str, severity: str = ERROR,
                code: str = PRESET_FIELD) -> None:
        self.found.append(field_diagnostic(code, severity, message, path, key or path))

    def unknown_keys(self, data: dict, path: str, known: tuple[str, ...], what: str) -> None:
        for key in data:
            if key not in known:
                self.problem(path, str(key), wording.preset_unknown_key(what, path, repr(str(key)), ", ".join(known)),
                             WARNING, PRESET_UNKNOWN_KEY)

    def string(self, data: dict, key: str, path: str, *, required: bool = False) -> str | None:
        value = data.get(key)
        if value is None:
            if required:
                self.problem(path, key, wording.PRESET_FIELD_REQUIRED.format(path=path, key=key))
            return None
        if not isinstance(value, str):
            self.problem(path, key, wording.PRESET_NOT_STRING.format(path=path, key=key, found=_kind(value)))
            return None
        return value

    def boolean(self, data: dict, key: str, path: str) -> bool | None:
        value = data.get(key)
        if value is None:
            return None
        if not isinstance(value, bool):
            sentence = wording.PRESET_NOT_BOOLEAN_FALSE_WORD if value in ("false", "no", 0) else wording.PRESET_NOT_BOOLEAN
            self.problem(path, key, sentence.format(path=path, key=key, found=_kind(value)))
            return None
        return value

    def whole(self, data: dict, key: str, path: str, *, minimum: int | None = 0) -> int | None:
        value = data.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value \
                or (isinstance(value, float) and not value.is_integer()):
            self.problem(path, key, wording.PRESET_NOT_WHOLE.format(path=path, key=key, found=_kind(value)))
            return None
        if minimum is not None and value < minimum:
            self.problem(path, key, wording.PRESET_BELOW_MINIMUM.format(path=path, key=key, minimum=minimum,
                                                                        found=_kind(value)))
            return None
        return int(value)

    def number(self, data: dict, key: str, path: str) -> float | None:
        value = data.get(key)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
            self.problem(path, key, wording.PRESET_NOT_NUMBER.format(path=path, key=key, found=_kind(value)))
            return None
        return value

    def choice(self, data: dict, key: str, path: str, choices: tuple[str, ...]) -> str | None:
        value = self.string(data, key, path)
        if value is not None and value not in choices:
            self.problem(path, key, wording.PRESET_NOT_CHOICE.format(path=path, key=key, choices=", ".join(choices),
                                                                     value=repr(value)))
            return None
        return value


def preset_from_data(data: Any, origin: str = "<preset>") -> Preset:
    if not isinstance(data, dict):
        raise PresetError(wording.PRESET_NOT_MAPPING.format(origin=origin, found=_kind(data)))
    data = _plain(data)
    c = _Checker()
    c.unknown_keys(data, "top level", TOP_KEYS, "a preset")
    preset = Preset(origin=origin)
    preset.keywords = _keywords(c, data)
    preset.prompts = _prompts(c, data)
    preset.format_user_prompt = c.string(data, "format_user_prompt", "top level")
    if data.get("world_lores") is not None:
        preset.lore_settings, preset.lore_entries = _world_lores(c, data["world_lores"])
    preset.authors_note = _authors_note(c, data)
    preset.knowledge = _knowledge(c, data.get("knowledge"))
    version = data.get("version")
    if version is not None and not isinstance(version, (str, int, float)) or isinstance(version, bool):
        c.problem("top level", "version", wording.PRESET_VERSION_NOT_STRING.format(found=_kind(version)))
    elif version is not None:
        preset.version = version if isinstance(version, str) else str(version)
    preset.config = _config(c, data.get("config"))
    preset.load_diagnostics = tuple(c.found)
    return preset


def _keywords(c: _Checker, data: dict) -> tuple[str, ...]:
    value = data.get("keywords")
    if value is None:
        c.problem("keywords", "keywords", wording.PRESET_KEYWORDS_REQUIRED)
        return ()
    if not isinstance(value, list) or not value:
        c.problem("keywords", "keywords", wording.PRESET_KEYWORDS_NOT_LIST.format(found=_kind(value)))
        return ()
    out = []
    for i, item in enumerate(value):
        if not isinstance(item, str):
            c.problem(f"keywords[{i}]", "keywords", wording.PRESET_KEYWORD_NOT_STRING.format(index=i, found=_kind(item)))
        else:
            out.append(item)
    return tuple(out)


def _prompts(c: _Checker, data: dict) -> list[Prompt]:
    value = data.get("prompts")
    if value is None:
        c.problem("prompts", "prompts", wording.PRESET_PROMPTS_REQUIRED.format())
        return []
    if not isinstance(value, list):
        c.problem("prompts", "prompts", wording.PRESET_PROMPTS_NOT_LIST.format(found=_kind(value)))
        return []
    out = []
    for i, raw in enumerate(value):
        path = f"prompts[{i}]"
        if not isinstance(raw, dict):
            c.problem(path, None, wording.PRESET_PROMPT_NOT_MAPPING.format(path=path, found=_kind(raw)))
            continue
        c.unknown_keys(raw, path, ("role", "type", "content"), "a prompt")
        role = raw.get("role")
        if not isinstance(role, str) or role not in ROLES:
            sentence = wording.PRESET_PROMPT_ROLE_UNKNOWN if role is not None else wording.PRESET_PROMPT_ROLE_MISSING
            c.problem(path, "role", sentence.format(path=path, found=_kind(role)))
            continue
        kind = c.string(raw, "type", path)
        if kind is not None and kind not in PROMPT_TYPES + POSITION_TYPES:
            c.problem(path, "type", wording.PRESET_PROMPT_TYPE_UNKNOWN.format(path=path, type=repr(kind),
                                                                              types=", ".join(PROMPT_TYPES)),
                      WARNING)
        content = raw.get("content")
        if content is None:
            c.problem(path, "content", wording.PRESET_PROMPT_CONTENT_REQUIRED.format(path=path))
            continue
        if isinstance(content, str):
            out.append(Prompt(ROLES[role], content.strip(_TRIM), kind))
            continue
        if not isinstance(content, list):
            c.problem(path, "content", wording.PRESET_PROMPT_CONTENT_KIND.format(path=path, found=_kind(content)))
            continue
        texts, others = [], 0
        for j, part in enumerate(content):
            if not isinstance(part, dict) or not isinstance(part.get("type"), str):
                c.problem(path, "content", wording.PRESET_PROMPT_PART_KIND.format(path=path, index=j,
                                                                                  found=_kind(part)))
            elif part["type"] == "text":
                if not isinstance(part.get("text"), str):
                    c.problem(path, "content", wording.PRESET_PROMPT_PART_TEXT.format(
                        path=path, index=j, found=_kind(part.get("text"))))
                else:
                    texts.append(part["text"])
            else:
                others += 1
        out.append(Prompt(ROLES[role], "".join(texts), kind, others))
    return out


# String.prototype.trim's white space (the JS set, not Python's).
_TRIM = "\t\n\v\f\r \u00a0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000\ufeff"

# Positions ChatLuna 1.3.36 has no rule for (the entry goes in as the second message).
_UNRULED_POSITIONS = ("before_scenario", "after_scenario")


def _lore_position(c: _Checker, raw: dict, path: str) -> str | None:
    position = c.choice(raw, "insertPosition", path, LORE_POSITIONS)
    if position in _UNRULED_POSITIONS:
        c.problem(path, "insertPosition", wording.PRESET_LORE_POSITION_UNRULED.format(path=path,
                                                                                      position=repr(position)),
                  WARNING)
    return position


def _world_lores(c: _Checker, value: Any) -> tuple[LoreSettings, list[LoreEntry]]:
    if not isinstance(value, list):
        c.problem("world_lores", "world_lores", wording.PRESET_LORES_NOT_LIST.format(found=_kind(value)))
        return LoreSettings(), []
    settings: LoreSettings | None = None
    entries: list[LoreEntry] = []
    for i, raw in enumerate(value):
        path = f"world_lores[{i}]"
        if not isinstance(raw, dict):
            c.problem(path, None, wording.PRESET_LORE_NOT_MAPPING.format(path=path, found=_kind(raw)))
            continue
        if "keywords" in raw and "content" in raw:
            entry = _lore_entry(c, raw, path, i)
            if entry is not None:
                entries.append(entry)
            continue
        half = next((k for k in ("keywords", "content") if k in raw), None)
        if half is not None:
            missing = "content" if half == "keywords" else "keywords"
            sentence = wording.PRESET_LORE_HALF_ENTRY_SETTINGS if settings is None else wording.PRESET_LORE_HALF_ENTRY
            c.problem(path, missing, sentence.format(path=path, present=half, missing=missing))
        if settings is not None:
            c.problem(path, None, wording.PRESET_LORE_SECOND_SETTINGS.format(path=path, index=settings.index),
                      WARNING)
            continue
        c.unknown_keys({k: v for k, v in raw.items() if k not in ("keywords", "content")}, path,
                       LORE_SETTING_KEYS, "the lore book's settings")
        settings = LoreSettings(c.whole(raw, "scanDepth", path), c.whole(raw, "tokenLimit", path),
                                c.boolean(raw, "recursiveScan", path), c.whole(raw, "maxRecursionDepth", path),
                                _lore_position(c, raw, path), i)
        if settings.insert_position is not None:
            c.problem(path, "insertPosition", wording.PRESET_LORE_SETTINGS_POSITION.format(path=path), WARNING)
    return settings or LoreSettings(), entries


def _lore_entry(c: _Checker, raw: dict, path: str, index: int) -> LoreEntry | None:
    c.unknown_keys(raw, path, LORE_ENTRY_KEYS, "a lore entry")
    keywords = raw["keywords"]
    if isinstance(keywords, str):
        keywords = [keywords]
    if not isinstance(keywords, list):
        c.problem(path, "keywords", wording.PRESET_LORE_KEYWORDS_KIND.format(path=path, found=_kind(keywords)))
        return None
    words = []
    for j, word in enumerate(keywords):
        if not isinstance(word, str):
            c.problem(path, "keywords", wording.PRESET_LORE_KEYWORD_NOT_STRING.format(path=path, index=j,
                                                                                     found=_kind(word)))
        else:
            words.append(word)
    content = c.string(raw, "content", path, required=True)
    if content is None:
        return None
    order = c.number(raw, "order", path)
    return LoreEntry(index, tuple(words), content, _lore_position(c, raw, path), c.whole(raw, "scanDepth", path),
                     c.boolean(raw, "recursiveScan", path), c.whole(raw, "maxRecursionDepth", path),
                     c.boolean(raw, "matchWholeWord", path), bool(c.boolean(raw, "constant", path)),
                     c.boolean(raw, "caseSensitive", path), c.boolean(raw, "enabled", path) is not False,
                     order if order is not None else 0)


def _authors_note(c: _Checker, data: dict) -> AuthorsNote | None:
    key = "authors_note" if data.get("authors_note") else "author_notes"
    raw = data.get(key)
    if not raw:
        return None
    if not isinstance(raw, dict):
        c.problem(key, key, wording.PRESET_NOTE_NOT_MAPPING.format(path=key, found=_kind(raw)))
        return None
    c.unknown_keys(raw, key, NOTE_KEYS, "the author's note")
    content = c.string(raw, "content", key, required=True)
    if content is None:
        return None
    position = c.choice(raw, "insertPosition", key, NOTE_POSITIONS)
    depth = c.whole(raw, "insertDepth", key)
    frequency = c.whole(raw, "insertFrequency", key, minimum=None)
    return AuthorsNote(content, position or "in_chat", depth or 0, 1 if frequency is None else frequency, key)


def _knowledge(c: _Checker, raw: Any) -> Knowledge | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        c.problem("knowledge", "knowledge", wording.PRESET_KNOWLEDGE_NOT_MAPPING.format(found=_kind(raw)))
        return None
    c.unknown_keys(raw, "knowledge", KNOWLEDGE_KEYS, "knowledge")
    value = raw.get("knowledge")
    names: list[str] = []
    if isinstance(value, str):
        names = [value]
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        names = list(value)
    else:
        c.problem("knowledge", "knowledge", wording.PRESET_KNOWLEDGE_NAMES.format(found=_kind(value)))
    return Knowledge(tuple(names), c.string(raw, "prompt", "knowledge"))


def _config(c: _Checker, raw: Any) -> dict[str, Any]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        c.problem("config", "config", wording.PRESET_CONFIG_NOT_MAPPING.format(found=_kind(raw)))
        return {}
    c.unknown_keys(raw, "config", CONFIG_KEYS, "config")
    out: dict[str, Any] = {}
    for key in CONFIG_STRING_KEYS:
        value = c.string(raw, key, "config")
        if value is not None:
            out[key] = value
    tokens = c.whole(raw, "maxOutputToken", "config", minimum=1)
    if tokens is not None:
        out["maxOutputToken"] = tokens
    handler = raw.get("postHandler")
    if handler is not None:
        if not isinstance(handler, dict):
            c.problem("config", "postHandler", wording.PRESET_POST_HANDLER_NOT_MAPPING.format(found=_kind(handler)))
        else:
            c.unknown_keys(handler, "config.postHandler", ("prefix", "postfix", "variables", "censor"),
                           "the post handler")
            out["postHandler"] = handler
    return out
