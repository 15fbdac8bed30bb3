"""The prompt configuration an editor works on: blocks, variables, environment and the settings
for what spec B leaves open. Loaded from and saved to JSON, YAML or TOML (same fields in each).

JSON form::

    {"blocks": [{"id", "zone", "order", "role", "content", "template", "complete",
                 "purpose"?, "source"?}],
     "variables": [{"name", "description", "mutable", "zones", "args", "example",
                    "values"?, "env"?}],
     "environment": {"base": {...}, "turns": [{...}, ...], "contributors": [
                     {"id", "patch": {...} | [{...}, ...], "failTurns": [n, ...] | "fail": true,
                      "error": "..."}]},
     "settings": {...},
     "sampleInput": "..."}

``environment`` may also be the plain form, one mapping that is the base environment itself
(``{"platform": "qq"}``); a mapping holding any of ``base``, ``turns``, ``contributors`` is the
per-turn form above, and then may hold nothing else.

A variable's value on turn *t*: ``values`` if given — a list is one value per simulated turn
(the last one repeats), anything else is the value on every turn, so a variable whose value is
itself a list writes a list of lists — else the environment path ``env`` (``"guild.name"``) read
on that turn's environment, else ``example``. A variable with ``args`` may give a table keyed by
the space-joined arguments (``"*"`` is the fallback); any other value serves every call.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import yaml

from inspector import safe_yaml, wording
from inspector.files import write_atomic
from inspector.jsjson import UNDEFINED

from .evaluate import DEFAULT_OUTPUT_LIMIT, MAX_OUTPUT_LIMIT

ZONES = ("system", "context", "input")
ROLES = ("system", "user", "assistant")
FORMATS = ("json", "yaml", "toml")
# The template languages a config's blocks may be written in; the first is the default.
DIALECTS = ("v2-doc", "chatluna-renderer")

# System-zone order bands (spec B.2), as (purpose, first, last). Only [-300, 299] is binding.
ORDER_RANGE = (-300, 299)
ORDER_BANDS = (
    ("identity", -300, -300),
    ("deployment", -200, -101),
    ("safety", -100, -100),
    ("persona", 0, 0),
    ("scene", 1, 49),
    ("world-book", 50, 79),
    ("examples", 80, 99),
    ("tools", 100, 199),
    ("capabilities", 200, 249),
    ("platform", 250, 299),
)
PURPOSES = tuple(name for name, _a, _b in ORDER_BANDS)


def is_variable_name(name: str) -> bool:
    """A variable name is one word: not empty, no white space, no braces (a tag could not name it)."""
    return bool(name) and not any(c.isspace() or c in "{}" for c in name)


def in_system_range(order: float) -> bool:
    """Whether a system block's order is inside the binding range (outside it ChatLuna throws)."""
    return ORDER_RANGE[0] <= order <= ORDER_RANGE[1]


def band_of(order: float) -> str | None:
    """The purpose of the band ``order`` falls in, or None between bands."""
    return next((name for name, lo, hi in ORDER_BANDS if lo <= order <= hi), None)


def band_range(purpose: str) -> tuple[int, int]:
    """The (first, last) order of a purpose's band; KeyError for an unknown purpose."""
    for name, lo, hi in ORDER_BANDS:
        if name == purpose:
            return lo, hi
    raise KeyError(purpose)


class ConfigError(ValueError):
    """A config file that cannot be used; the message names the file and the field."""


# A config is read whole into memory and every block is parsed; past this a file is refused with a
# message rather than stalling the editor or the CLI.
MAX_CONFIG_BYTES = 16 * 1024 * 1024
# Values nest far less than this in any real config; the limit keeps every recursive walk of them
# (copying, merging, JSON output) clear of Python's recursion limit.
MAX_NESTING = 64


def same_value(a: Any, b: Any) -> bool:
    """Whether two config values are the same JavaScript value: ``1`` and ``1.0`` are one number,
    ``true`` and ``1`` are not, and objects compare by their keys and values, not key order.
    Every "did this value change between turns" question goes through here."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_value(a[k], b[k]) for k in a)
    if type(a) is not type(b):
        return False
    return a == b if isinstance(a, str) else a is b


_UNSET: Any = UNDEFINED


@dataclass
class Block:
    id: str
    zone: str
    content: str = ""
    order: int | float = 0
    role: str | None = None
    template: bool = False
    complete: bool = False
    # Which system-zone band the block means to sit in (one of PURPOSES); lets the check say so
    # when its order is elsewhere. Not a ChatLuna field.
    purpose: str | None = None
    # The plugin that registered it (ChatLuna's sourceOf), shown beside diagnostics.
    source: str | None = None

    def effective_role(self, context_role: str) -> str:
        if self.zone == "context":
            return self.role or context_role
        return self.role or "system"


@dataclass
class ArgSpec:
    name: str
    optional: bool = False
    description: str = ""


@dataclass
class Variable:
    name: str
    description: str = ""
    mutable: bool = False
    zones: tuple[str, ...] | None = None  # None: every zone
    args: tuple[ArgSpec, ...] = ()
    example: Any = _UNSET
    values: Any = _UNSET
    env: str | None = None

    @property
    def per_turn(self) -> bool:
        return isinstance(self.values, list)

    @property
    def has_values(self) -> bool:
        return self.values is not _UNSET

    @property
    def has_example(self) -> bool:
        return self.example is not _UNSET

    @property
    def min_args(self) -> int:
        return sum(1 for a in self.args if not a.optional)

    def allows(self, zone: str) -> bool:
        return self.zones is None or zone in self.zones

    def value_at(self, turn: int, environment: dict | None = None) -> tuple[bool, Any]:
        """(found, value) on ``turn`` before any call arguments are applied."""
        if self.values is not _UNSET:
            if isinstance(self.values, list):
                if not self.values:
                    return False, UNDEFINED
                return True, self.values[min(max(turn, 0), len(self.values) - 1)]
            return True, self.values
        if self.env is not None:
            value: Any = environment if environment is not None else {}
            for part in self.env.split("."):
                if isinstance(value, dict) and part in value:
                    value = value[part]
                else:
                    return False, UNDEFINED
            return True, value
        if self.example is not _UNSET:
            return True, self.example
        return False, UNDEFINED

    def varies(self) -> bool:
        """Whether the simulated values differ from turn to turn (environment-fed values are
        judged by the simulation itself)."""
        if not isinstance(self.values, list) or len(self.values) < 2:
            return False
        first = self.values[0]
        return any(not same_value(v, first) for v in self.values[1:])


@dataclass
class Contributor:
    id: str
    patch: Any = field(default_factory=dict)  # a dict, or a list of dicts one per turn
    fail: bool = False
    fail_turns: tuple[int, ...] = ()
    error: str = "contributor threw"

    def patch_at(self, turn: int) -> dict:
        if isinstance(self.patch, list):
            if not self.patch:
                return {}
            return self.patch[min(max(turn, 0), len(self.patch) - 1)]
        return self.patch

    def fails_at(self, turn: int) -> bool:
        return self.fail or turn in self.fail_turns


@dataclass
class Environment:
    base: dict = field(default_factory=dict)
    turns: list[dict] = field(default_factory=list)
    contributors: list[Contributor] = field(default_factory=list)
    # Read from the plain form (the mapping itself is the base environment); saved the same way
    # while it has no turns or contributors.
    plain: bool = False


@dataclass
class Settings:
    """Every rule spec B marks ambiguous where users could reasonably differ (README: "Choices")."""
    system_joiner: str = "\n\n"
    context_role: str = "user"
    input_mode: str = "chain"  # chain | first | last
    section_names: str = "system"  # system | all
    environment_merge: str = "shallow"  # shallow | deep
    pinning: bool = True
    pin_compare: str = "system-variables"  # system-variables | all-variables | environment
    note_compare: str = "pinned"  # pinned | previous
    note_title: str = "环境已更新"
    note_detail: str = "values"  # values | names
    note_position: str = "last"  # first | last
    loop_cap: int = 100
    # Characters of text one render's templates may write in all (every block shares it).
    output_limit: int = DEFAULT_OUTPUT_LIMIT
    complete_outside_system: str = "ignore"  # ignore | error
    standalone_tags: str = "trim"  # trim | keep
    # Which template language the blocks are written in: the v2 design document's (v2-doc) or the
    # one ChatLuna's published renderer runs (chatluna-renderer).
    dialect: str = "v2-doc"  # v2-doc | chatluna-renderer

    @property
    def trim_standalone(self) -> bool:
        return self.standalone_tags == "trim"


_SETTING_CHOICES = {
    "input_mode": ("chain", "first", "last"),
    "section_names": ("system", "all"),
    "environment_merge": ("shallow", "deep"),
    "pin_compare": ("system-variables", "all-variables", "environment"),
    "note_compare": ("pinned", "previous"),
    "note_detail": ("values", "names"),
    "note_position": ("first", "last"),
    "context_role": ROLES,
    "complete_outside_system": ("ignore", "error"),
    "standalone_tags": ("trim", "keep"),
    "dialect": DIALECTS,
}


@dataclass
class PromptConfig:
    blocks: list[Block] = field(default_factory=list)
    variables: list[Variable] = field(default_factory=list)
    environment: Environment = field(default_factory=Environment)
    settings: Settings = field(default_factory=Settings)
    sample_input: str = ""
    path: Path | None = None

    def variable(self, name: str) -> Variable | None:
        for v in self.variables:
            if v.name == name:
                return v
        return None

    def block(self, block_id: str) -> Block | None:
        for b in self.blocks:
            if b.id == block_id:
                return b
        return None


# --- reading -----------------------------------------------------------------------------------

def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(p.title() for p in rest)


_SETTING_KEYS = {_camel(f.name): f.name for f in fields(Settings)}
# The largest value a whole-number setting may take, where one is needed (every such setting is
# >= 0). A setting named here but raised past its bound is a config error naming the bound.
_SETTING_MAXIMA = {"output_limit": MAX_OUTPUT_LIMIT}


class _Reader:
    def __init__(self, origin: str) -> None:
        self.origin = origin

    def fail(self, where: str, message: str) -> ConfigError:
        return ConfigError(wording.CONFIG_PROBLEM.format(origin=self.origin, place=where, detail=message))

    def table(self, value: Any, where: str) -> dict:
        if not isinstance(value, dict):
            raise self.fail(where, wording.CONFIG_EXPECTED_TABLE.format(found=value_kind(value)))
        return value

    def keys(self, data: dict, where: str, allowed: set[str]) -> None:
        unknown = sorted(str(k) for k in data if k not in allowed)
        if unknown:
            raise self.fail(where, wording.CONFIG_UNKNOWN_KEY.format(key=repr(unknown[0]),
                                                                     known=", ".join(sorted(allowed))))

    def string(self, data: dict, key: str, where: str, default: Any = _UNSET, *, choices=None) -> Any:
        if key not in data or data[key] is None:
            if default is _UNSET:
                raise self.fail(where, wording.CONFIG_REQUIRED.format(key=repr(key)))
            return default
        value = data[key]
        if not isinstance(value, str):
            raise self.fail(where, wording.CONFIG_NOT_STRING.format(key=repr(key), found=value_kind(value)))
        if choices is not None and value not in choices:
            raise self.fail(where, wording.CONFIG_NOT_CHOICE.format(key=repr(key), choices=", ".join(choices),
                                                                    value=repr(value)))
        return value

    def boolean(self, data: dict, key: str, where: str, default: bool) -> bool:
        value = data.get(key, default)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise self.fail(where, wording.CONFIG_NOT_BOOLEAN.format(key=repr(key), found=value_kind(value)))
        return value

    def number(self, data: dict, key: str, where: str, default: Any) -> Any:
        value = data.get(key, default)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
            raise self.fail(where, wording.CONFIG_NOT_NUMBER.format(key=repr(key), found=value_kind(value)))
        return value


def value_kind(value: Any, mapping: str = wording.FOUND_A_TABLE) -> str:
    """A value as an error message names what was found ("the number 3", "a list"); a mapping
    is ``mapping`` (a config's "table", a preset's "mapping")."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return wording.FOUND_BOOLEAN.format(value=str(value).lower())
    if isinstance(value, (int, float)):
        return wording.FOUND_NUMBER.format(value=value)
    if isinstance(value, str):
        return wording.FOUND_STRING.format(value=repr(value)) if len(value) < 40 else wording.FOUND_A_STRING
    if isinstance(value, list):
        return wording.FOUND_A_LIST
    if isinstance(value, dict):
        return mapping
    return type(value).__name__



class _TooDeep(Exception):
    pass


def _plain(value: Any, depth: int = 0) -> Any:
    """TOML dates and YAML timestamps become ISO strings, so values stay JSON values."""
    if isinstance(value, (dict, list)) and depth >= MAX_NESTING:
        raise _TooDeep()
    if isinstance(value, dict):
        return {str(k): _plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v, depth + 1) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return str(value)


_BLOCK_KEYS = {"id", "zone", "order", "role", "content", "template", "complete", "purpose", "source"}
_VARIABLE_KEYS = {"name", "description", "mutable", "zones", "args", "example", "values", "env"}
_ENV_KEYS = {"base", "turns", "contributors"}
_CONTRIBUTOR_KEYS = {"id", "patch", "fail", "failTurns", "error"}
_TOP_KEYS = {"blocks", "variables", "environment", "settings", "sampleInput"}


def from_data(data: Any, origin: str = "<config>", path: Path | None = None) -> PromptConfig:
    r = _Reader(origin)
    try:
        data = _plain(r.table(data, "top level"))
    except _TooDeep:
        raise r.fail("top level", wording.CONFIG_NESTED_TOO_DEEP.format(limit=MAX_NESTING)) from None
    r.keys(data, "top level", _TOP_KEYS)
    blocks_raw = data.get("blocks", [])
    if not isinstance(blocks_raw, list):
        raise r.fail("blocks", wording.CONFIG_EXPECTED_LIST.format(found=value_kind(blocks_raw)))
    blocks = [_block(r, raw, i) for i, raw in enumerate(blocks_raw)]
    vars_raw = data.get("variables", [])
    if not isinstance(vars_raw, list):
        raise r.fail("variables", wording.CONFIG_EXPECTED_LIST.format(found=value_kind(vars_raw)))
    variables = [_variable(r, raw, i) for i, raw in enumerate(vars_raw)]
    names: set[str] = set()
    for i, v in enumerate(variables):
        if v.name in names:
            raise r.fail(f"variables[{i}]", wording.CONFIG_VARIABLE_TWICE.format(name=repr(v.name)))
        names.add(v.name)
    environment = _environment(r, data.get("environment", {}))
    settings = _settings(r, data.get("settings", {}))
    sample = r.string(data, "sampleInput", "top level", "")
    return PromptConfig(blocks, variables, environment, settings, sample, path)


def _block(r: _Reader, raw: Any, i: int) -> Block:
    where = f"blocks[{i}]"
    raw = r.table(raw, where)
    if isinstance(raw.get("id"), str):
        where += f" (id {raw['id']!r})"
    r.keys(raw, where, _BLOCK_KEYS)
    block_id = r.string(raw, "id", where)
    zone = r.string(raw, "zone", where, choices=ZONES)
    content = r.string(raw, "content", where, "")
    order = r.number(raw, "order", where, 0)
    role = r.string(raw, "role", where, None, choices=ROLES)
    purpose = r.string(raw, "purpose", where, None, choices=PURPOSES)
    return Block(block_id, zone, content, order, role, r.boolean(raw, "template", where, False),
                 r.boolean(raw, "complete", where, False), purpose, r.string(raw, "source", where, None))


def _variable(r: _Reader, raw: Any, i: int) -> Variable:
    where = f"variables[{i}]"
    raw = r.table(raw, where)
    if isinstance(raw.get("name"), str):
        where += f" ({raw['name']!r})"
    r.keys(raw, where, _VARIABLE_KEYS)
    name = r.string(raw, "name", where)
    if not is_variable_name(name):
        raise r.fail(where, wording.CONFIG_BAD_VARIABLE_NAME.format(name=repr(name)))
    zones_raw = raw.get("zones")
    zones: tuple[str, ...] | None = None
    if zones_raw is not None:
        if not isinstance(zones_raw, list) or not all(isinstance(z, str) for z in zones_raw):
            raise r.fail(where, wording.CONFIG_ZONES_NOT_LIST.format(found=value_kind(zones_raw)))
        for z in zones_raw:
            if z not in ZONES:
                raise r.fail(where, wording.CONFIG_UNKNOWN_ZONE.format(name=repr(z), known=", ".join(ZONES)))
        zones = tuple(zones_raw)
    args_raw = raw.get("args") or []
    if not isinstance(args_raw, list):
        raise r.fail(where, wording.CONFIG_ARGS_NOT_LIST.format(found=value_kind(args_raw)))
    args = []
    for j, a in enumerate(args_raw):
        if isinstance(a, str):
            args.append(ArgSpec(a))
        elif isinstance(a, dict):
            aw = f"{where}.args[{j}]"
            r.keys(a, aw, {"name", "optional", "description"})
            args.append(ArgSpec(r.string(a, "name", aw), r.boolean(a, "optional", aw, False),
                                r.string(a, "description", aw, "")))
        else:
            raise r.fail(f"{where}.args[{j}]", wording.CONFIG_BAD_ARGUMENT.format(found=value_kind(a)))
    env = r.string(raw, "env", where, None)
    return Variable(name, r.string(raw, "description", where, ""), r.boolean(raw, "mutable", where, False),
                    zones, tuple(args), raw.get("example", _UNSET), raw.get("values", _UNSET), env)


def _environment(r: _Reader, raw: Any) -> Environment:
    """Two forms: a mapping with none of the keys ``base``, ``turns``, ``contributors`` is the base
    environment itself (``{"platform": "qq"}``); a mapping with any of them is the per-turn form,
    and then no other key may sit beside them."""
    raw = r.table(raw if raw is not None else {}, "environment")
    if raw and not any(k in _ENV_KEYS for k in raw):
        return Environment(dict(raw), plain=True)
    others = sorted(str(k) for k in raw if k not in _ENV_KEYS)
    if others:
        used = ", ".join(repr(k) for k in sorted(_ENV_KEYS) if k in raw)
        raise r.fail("environment", wording.CONFIG_MIXED_ENVIRONMENT.format(key=repr(others[0]), used=used))
    base = r.table(raw.get("base") or {}, "environment.base")
    turns = raw.get("turns") or []
    if not isinstance(turns, list):
        raise r.fail("environment.turns", wording.CONFIG_EXPECTED_TABLES.format(found=value_kind(turns)))
    for i, t in enumerate(turns):
        r.table(t, f"environment.turns[{i}]")
    contributors = []
    for i, c in enumerate(raw.get("contributors") or []):
        where = f"environment.contributors[{i}]"
        c = r.table(c, where)
        r.keys(c, where, _CONTRIBUTOR_KEYS)
        patch = c.get("patch", {})
        if isinstance(patch, list):
            for j, p in enumerate(patch):
                r.table(p, f"{where}.patch[{j}]")
        else:
            r.table(patch, f"{where}.patch")
        fail_turns = c.get("failTurns") or []
        if not isinstance(fail_turns, list) or not all(isinstance(t, int) and not isinstance(t, bool)
                                                       for t in fail_turns):
            raise r.fail(where, wording.CONFIG_FAIL_TURNS)
        contributors.append(Contributor(r.string(c, "id", where), patch, r.boolean(c, "fail", where, False),
                                        tuple(fail_turns), r.string(c, "error", where, "contributor threw")))
    return Environment(base, list(turns), contributors)


def _settings(r: _Reader, raw: Any) -> Settings:
    raw = r.table(raw if raw is not None else {}, "settings")
    r.keys(raw, "settings", set(_SETTING_KEYS))
    values: dict[str, Any] = {}
    defaults = Settings()
    for key, attr in _SETTING_KEYS.items():
        if key not in raw:
            continue
        default = getattr(defaults, attr)
        if isinstance(default, bool):
            values[attr] = r.boolean(raw, key, "settings", default)
        elif isinstance(default, int):
            n = r.number(raw, key, "settings", default)
            if not isinstance(n, int) or n < 0:
                raise r.fail("settings", wording.CONFIG_NOT_WHOLE.format(key=repr(key), found=value_kind(n)))
            most = _SETTING_MAXIMA.get(attr)
            if most is not None and n > most:
                raise r.fail("settings", wording.CONFIG_ABOVE_MAXIMUM.format(
                    key=repr(key), most=f"{most:,}", mebi=most // (1 << 20), found=value_kind(n)))
            values[attr] = n
        else:
            values[attr] = r.string(raw, key, "settings", default, choices=_SETTING_CHOICES.get(attr))
    return Settings(**values)


def sample_path(fmt: str = "json") -> Path:
    """The shipped sample config: a group-chat persona with safety rules, tool guidance,
    world-book entries, and time, group and speaker variables."""
    from resources import resource_path

    return resource_path("samples", "zones", f"group-chat.{fmt}")


def format_of(path: str | Path) -> str:
    suffix = Path(path).suffix.lower()
    if suffix == ".json":
        return "json"
    if suffix in (".yaml", ".yml"):
        return "yaml"
    if suffix == ".toml":
        return "toml"
    if not suffix:
        raise ConfigError(wording.CONFIG_NO_EXTENSION.format(path=path))
    raise ConfigError(wording.CONFIG_UNKNOWN_SUFFIX.format(path=path, suffix=repr(suffix)))


def loads_config(text: str, fmt: str, origin: str = "<config>", path: Path | None = None) -> PromptConfig:
    try:
        data = _parse_text(text, fmt, origin)
    except RecursionError:
        raise ConfigError(wording.FILE_NOT_VALID_DEEP.format(origin=origin, format=fmt.upper())) from None
    except ConfigError:
        raise
    except ValueError as exc:
        # Beyond the syntax errors each parser reports with a place: an integer literal past
        # Python's digit limit, and the like.
        reason = str(exc)
        if "integer string conversion" in reason:
            raise ConfigError(wording.FILE_NOT_VALID_DIGITS.format(origin=origin, format=fmt.upper())) from None
        raise ConfigError(wording.FILE_NOT_VALID.format(origin=origin, format=fmt.upper(), problem=reason)) from None
    return from_data(data, origin, path)


def _parse_text(text: str, fmt: str, origin: str) -> Any:
    if fmt == "json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ConfigError(wording.FILE_NOT_VALID_AT.format(origin=origin, format="JSON", problem=exc.msg,
                                                                 line=exc.lineno, column=exc.colno)) from None
    elif fmt == "yaml":
        try:
            data = safe_yaml.load(text)
        except yaml.YAMLError as exc:
            raise ConfigError(yaml_error_text(exc, origin)) from None
        if data is None:
            data = {}
    elif fmt == "toml":
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(wording.FILE_NOT_VALID.format(origin=origin, format="TOML", problem=exc)) from None
    else:
        raise ConfigError(wording.CONFIG_FILE_UNKNOWN_FORMAT.format(origin=origin, format=repr(fmt)))
    return data


def yaml_error_text(exc: yaml.YAMLError, origin: str) -> str:
    """What a YAML reader's error says about ``origin``, with the line and column when it knows them."""
    mark = getattr(exc, "problem_mark", None)
    problem = getattr(exc, "problem", None) or str(exc)
    if mark is None:
        return wording.FILE_NOT_VALID.format(origin=origin, format="YAML", problem=problem)
    return wording.FILE_NOT_VALID_AT.format(origin=origin, format="YAML", problem=problem, line=mark.line + 1,
                                            column=mark.column + 1)


def refuse_special_file(path: str | Path, error_type: type[Exception] = ConfigError) -> None:
    """:func:`inspector.inputs.refuse_special_file`, raising ``error_type``."""
    from inspector.inputs import InputFileError, refuse_special_file as refuse

    try:
        refuse(path)
    except InputFileError as exc:
        raise error_type(str(exc)) from None


def too_deep(value: Any, limit: int = MAX_NESTING) -> bool:
    """Whether lists and tables in ``value`` nest more than ``limit`` levels; iterative, so any
    depth is measured without recursion."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth >= limit:
                return True
            stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
    return False


def read_text_file(path: str | Path, error_type: type[Exception] = ConfigError, what: str = "file") -> str:
    """A config-like input's text (UTF-8, a BOM dropped), at most :data:`MAX_CONFIG_BYTES`; every
    failure is one ``error_type`` naming the file (``what`` names the kind of file in messages)."""
    path = Path(path)
    refuse_special_file(path, error_type)
    try:
        size = path.stat().st_size
        if size > MAX_CONFIG_BYTES:
            raise error_type(wording.read_too_large(what, str(path), size, MAX_CONFIG_BYTES))
        raw = path.read_bytes()
    except FileNotFoundError:
        raise error_type(wording.READ_NO_FILE.format(path=path)) from None
    except IsADirectoryError:
        raise error_type(wording.read_folder(what, str(path))) from None
    except OSError as exc:
        raise error_type(wording.READ_FAILED.format(path=path, error=exc.strerror)) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error_type(wording.READ_NOT_UTF8.format(path=path, offset=exc.start)) from None


def load_config(path: str | Path) -> PromptConfig:
    path = Path(path)
    fmt = format_of(path)
    text = read_text_file(path, ConfigError, "config")
    return loads_config(text, fmt, str(path), path)


# --- writing -----------------------------------------------------------------------------------

def to_data(config: PromptConfig) -> dict[str, Any]:
    """The config as plain data, in the field order of the JSON form; defaults are left out."""
    blocks = []
    for b in config.blocks:
        item: dict[str, Any] = {"id": b.id, "zone": b.zone, "order": b.order}
        if b.role is not None:
            item["role"] = b.role
        if b.template:
            item["template"] = True
        if b.complete:
            item["complete"] = True
        if b.purpose is not None:
            item["purpose"] = b.purpose
        if b.source is not None:
            item["source"] = b.source
        item["content"] = b.content
        blocks.append(item)
    variables = []
    for v in config.variables:
        item = {"name": v.name}
        if v.description:
            item["description"] = v.description
        item["mutable"] = v.mutable
        if v.zones is not None:
            item["zones"] = list(v.zones)
        if v.args:
            item["args"] = [a.name if not a.optional and not a.description else
                            {"name": a.name, **({"optional": True} if a.optional else {}),
                             **({"description": a.description} if a.description else {})} for a in v.args]
        if v.example is not _UNSET:
            item["example"] = v.example
        if v.values is not _UNSET:
            item["values"] = v.values
        if v.env is not None:
            item["env"] = v.env
        variables.append(item)
    env: dict[str, Any] = {}
    if _writes_plain(config.environment):
        env = dict(config.environment.base)
    elif config.environment.base:
        env["base"] = config.environment.base
    if config.environment.turns:
        env["turns"] = config.environment.turns
    if config.environment.contributors:
        env["contributors"] = []
        for c in config.environment.contributors:
            item = {"id": c.id, "patch": c.patch}
            if c.fail:
                item["fail"] = True
            if c.fail_turns:
                item["failTurns"] = list(c.fail_turns)
            if c.error != "contributor threw":
                item["error"] = c.error
            env["contributors"].append(item)
    defaults = Settings()
    settings = {_camel(f.name): getattr(config.settings, f.name) for f in fields(Settings)
                if getattr(config.settings, f.name) != getattr(defaults, f.name)}
    data: dict[str, Any] = {"blocks": blocks, "variables": variables}
    if env:
        data["environment"] = env
    if settings:
        data["settings"] = settings
    if config.sample_input:
        data["sampleInput"] = config.sample_input
    return data


def _writes_plain(environment: Environment) -> bool:
    """Whether the environment is written in the plain form: read that way, nothing per-turn, and
    no key of its own that would read back as the per-turn form."""
    return (environment.plain and not environment.turns and not environment.contributors
            and not any(k in _ENV_KEYS for k in environment.base))


def dump_config(config: PromptConfig, fmt: str) -> str:
    data = to_data(config)
    if fmt == "json":
        return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    if fmt == "yaml":
        return yaml.dump(data, Dumper=_YamlDumper, allow_unicode=True, sort_keys=False, width=100)
    if fmt == "toml":
        return _toml_document(data)
    raise ConfigError(wording.CONFIG_UNKNOWN_FORMAT.format(format=repr(fmt)))


def save_config(config: PromptConfig, path: str | Path, fmt: str | None = None) -> Path:
    """Write atomically: a temporary file in the same folder, fsync, the old file kept as
    ``.bak``, then one rename."""
    path = Path(path)
    return write_atomic(path, dump_config(config, fmt or format_of(path)), keep_backup=True)


class _YamlDumper(yaml.SafeDumper):
    pass


def _yaml_str(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    # YAML readers fold NEL and the Unicode line/paragraph separators into line breaks in plain,
    # single-quoted and block scalars; only a double-quoted scalar keeps them (as escapes).
    if any(c in "\x85\u2028\u2029" for c in text):
        return dumper.represent_scalar("tag:yaml.org,2002:str", text, style='"')
    return dumper.represent_str(text)


_YamlDumper.add_representer(str, _yaml_str)


# TOML has no writer in the standard library; this one covers the values a config holds (tables,
# arrays, strings, numbers, booleans). TOML has no null: a null value is left out, which reads
# back as absent.

def _toml_key(key: str) -> str:
    if key and all(c.isascii() and (c.isalnum() or c in "-_") for c in key):
        return key
    return _toml_string(key)


def _toml_string(text: str) -> str:
    out = ['"']
    for c in text:
        code = ord(c)
        if c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif code < 0x20 or code == 0x7F or 0xD800 <= code <= 0xDFFF:
            out.append(f"\\u{code:04X}" if code < 0xD800 or code > 0xDFFF else "\uFFFD")
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def _toml_multiline(text: str) -> str:
    # A multi-line basic string keeps prompts readable; the newline right after the opening quotes
    # is dropped by readers, and quotes are escaped so no run of three can end the string early.
    body = _toml_string(text)[1:-1].replace("\\n", "\n")
    return '"""\n' + body + '"""'


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value:
            return "nan"
        if value in (float("inf"), float("-inf")):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _toml_multiline(value) if "\n" in value else _toml_string(value)
    if isinstance(value, list):
        if any(v is None for v in value):
            raise ConfigError(wording.CONFIG_TOML_NULL)
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        items = [f"{_toml_key(str(k))} = {_toml_value(v)}" for k, v in value.items() if v is not None]
        return "{ " + ", ".join(items) + " }" if items else "{}"
    raise ConfigError(wording.CONFIG_TOML_TYPE.format(type=type(value).__name__))


def _toml_table(lines: list[str], header: str, table: dict) -> None:
    lines.append(header)
    for key, value in table.items():
        if value is None:
            continue
        lines.append(f"{_toml_key(key)} = {_toml_value(value)}")
    lines.append("")


def _toml_document(data: dict) -> str:
    lines: list[str] = []
    if "sampleInput" in data:
        lines.append(f"sampleInput = {_toml_value(data['sampleInput'])}")
        lines.append("")
    if "settings" in data:
        _toml_table(lines, "[settings]", data["settings"])
    env = data.get("environment")
    if env and not any(k in _ENV_KEYS for k in env):
        _toml_table(lines, "[environment]", env)
    elif env:
        if "base" in env:
            _toml_table(lines, "[environment.base]", env["base"])
        for turn in env.get("turns", []):
            _toml_table(lines, "[[environment.turns]]", turn)
        for c in env.get("contributors", []):
            _toml_table(lines, "[[environment.contributors]]", c)
    for v in data["variables"]:
        _toml_table(lines, "[[variables]]", v)
    for b in data["blocks"]:
        _toml_table(lines, "[[blocks]]", b)
    return "\n".join(lines).rstrip("\n") + "\n"
