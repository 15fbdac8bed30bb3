"""Covel's ``{{ variable }}`` templates: the runtime body (root ``PLUGIN.md`` body or a
``RUNTIME.md``) is interpolated once and becomes part 2 of the system prompt.

Interpolation, as Covel does it (spec covel-assembly §1.2, design doc §4, Covel's
``packages/context/src/prompt-internals.ts``):

* every match of ``{{\\s*([^}]+?)\\s*}}`` is replaced, left to right, in one pass over the body
  (inserted values are never scanned again);
* the path is trimmed and split on ``.``; each step reads an *own* property of a non-null object
  (an object's key, an array's index or ``length``), so ``constructor`` or ``toString`` are found
  only when a value really has such a key; anything else gives ``undefined``;
* ``undefined`` and ``null`` insert nothing; a string is inserted as it is; a number or boolean
  as ``String(value)``; an object or array as ``JSON.stringify(value, null, 2)``;
* inside a *tagged block* — from a line that starts with ``<name>`` to the next ``</name>`` — the
  inserted value is XML-escaped (``&``, ``<``, ``>``), so a value cannot close the block; outside,
  and in prose that merely mentions a tag mid-line, values go in raw. An opening line with no
  ``</name>`` after it starts no block.
* A ``.md`` body's YAML front matter (``---`` … ``---`` at the very top) is not part of the
  body and is never interpolated.

Diagnostics (same ``Diagnostic`` type as the zones check): ``covel-unknown-variable`` (error: the
path is in no catalog entry, so it renders empty), ``covel-volatile-in-system`` (warning: the value
changes between turns, so the system prompt — and the prefix cache — changes with it),
``covel-escaped-in-tag`` (info: the value is XML-escaped here).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any

from inspector import wording
from inspector.covel.assembly import xml_escape
from inspector.jsjson import UNDEFINED, js_number, js_stringify

from . import diagnostic as dg
from .diagnostic import Diagnostic
from inspector.jsjson import JS_SPACE, js_trim

# Covel's own pattern, with JavaScript's \s spelt out (Python's differs).
_VARIABLE = re.compile(rf"\{{\{{[{JS_SPACE}]*([^}}]+?)[{JS_SPACE}]*\}}\}}")
_TAG_LINE = re.compile(r"^<([A-Za-z0-9_-]+)>", re.M)
_FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(?:.*?\r?\n)??---[ \t]*(?:\r?\n|\Z)", re.S)

# A few catalog examples share this world so a rendered preview reads like a real session.
_NPCS_EXAMPLE = ("阿满 [npc] | 茶馆老板娘，嗓门大心肠软 | mood: 平静\n"
                 "石头 (aka 石头哥) [npc] | 镇西铁匠，话少 | injury: 左手烫伤\n"
                 "夜猫子 [player] | 外地来的游客 | -")


@dataclass(frozen=True, slots=True)
class CovelVariable:
    path: str
    description: str
    changes_between_turns: bool
    # Any deeper path is valid (an object whose keys the catalog does not list).
    open: bool = False
    example: Any = None
    # What to use instead when the value changes between turns.
    instead: str = ""


_TURN_SEGMENT = wording.COVEL_INSTEAD_TURN_SEGMENT.format()

CATALOG: tuple[CovelVariable, ...] = (
    CovelVariable("player.message", wording.COVEL_ABOUT_MESSAGE, True, example="我去石桥那边看看。",
                  instead=wording.COVEL_INSTEAD_MESSAGE),
    CovelVariable("player.lastFormValues", wording.COVEL_ABOUT_FORM, True, example="", instead=_TURN_SEGMENT),
    CovelVariable("player.lastFormValuesRaw", wording.COVEL_ABOUT_FORM_RAW, True, open=True, example=None,
                  instead=_TURN_SEGMENT),
    CovelVariable("player.character", wording.COVEL_ABOUT_CHARACTER, True, open=True,
                  example={"name": "夜猫子", "type": "player", "description": "外地来的游客"},
                  instead=wording.COVEL_INSTEAD_CHARACTER),
    CovelVariable("characters.npcs", wording.COVEL_ABOUT_NPCS, True, example=_NPCS_EXAMPLE,
                  instead=wording.COVEL_INSTEAD_PROFILES.format()),
    CovelVariable("session.id", wording.COVEL_ABOUT_SESSION_ID, False, example="demo-lantern-deepseek"),
    CovelVariable("session.turnNumber", wording.COVEL_ABOUT_TURN_NUMBER, True, example=4, instead=_TURN_SEGMENT),
    CovelVariable("inputs", wording.COVEL_ABOUT_INPUTS, True, open=True, example={},
                  instead=wording.COVEL_INSTEAD_INPUTS),
    CovelVariable("world.name", wording.COVEL_ABOUT_WORLD_NAME, False, example="灯岭镇"),
    CovelVariable("world.description", wording.COVEL_ABOUT_WORLD_DESCRIPTION, False,
                  example="依山而建的小镇，每月十五办灯会。"),
    CovelVariable("world.tags", wording.COVEL_ABOUT_WORLD_TAGS, False, example=["古镇", "日常"]),
    CovelVariable("world.lore", wording.COVEL_ABOUT_WORLD_LORE, False, example="灯岭镇的灯会始于三百年前……"),
    CovelVariable("world.schema", wording.COVEL_ABOUT_WORLD_SCHEMA, False, open=True,
                  example={"fields": ["mood", "injury"]}),
    CovelVariable("world.entries", wording.COVEL_ABOUT_WORLD_ENTRIES, False, open=True, example=[]),
    CovelVariable("world.dimensions", wording.COVEL_ABOUT_DIMENSIONS.format(), True, open=True,
                  example={"reputation": {"name": "名望", "schema": {"type": "number", "min": 0, "max": 100},
                                          "value": 42, "version": 7}},
                  instead=wording.COVEL_INSTEAD_DIMENSIONS),
    CovelVariable("userSettings", wording.COVEL_ABOUT_USER_SETTINGS, False, open=True, example={}),
)

_BY_PATH = {v.path: v for v in CATALOG}


def _groups() -> dict[str, CovelVariable]:
    """``world``, ``player`` … : a path to a whole group renders the group as JSON, and changes
    between turns when anything in it does."""
    out: dict[str, CovelVariable] = {}
    for head in dict.fromkeys(v.path.split(".")[0] for v in CATALOG if "." in v.path):
        members = [v for v in CATALOG if v.path.startswith(head + ".")]
        volatile = [v for v in members if v.changes_between_turns]
        instead = (wording.COVEL_INSTEAD_GROUP_VOLATILE.format(paths=", ".join(v.path for v in volatile),
                                                               detail=volatile[0].instead)
                   if volatile else wording.COVEL_INSTEAD_GROUP)
        out[head] = CovelVariable(head, wording.COVEL_ABOUT_GROUP.format(group=head), bool(volatile),
                                  example=None, instead=instead)
    return out


_GROUPS = _groups()
_INDEX = re.compile(r"(?:0|[1-9][0-9]*)\Z")


def lookup(path: str) -> CovelVariable | None:
    """The catalog entry a dotted path falls under, or None."""
    if path in _BY_PATH:
        return _BY_PATH[path]
    if path in _GROUPS:
        return _GROUPS[path]
    parts = path.split(".")
    for i in range(len(parts) - 1, 0, -1):
        entry = _BY_PATH.get(".".join(parts[:i]))
        if entry is None:
            continue
        if entry.open:
            return entry
        # A list's own properties are its indices and length; a string has none (not an object).
        tail = parts[i:]
        if isinstance(entry.example, list) and len(tail) == 1 and (tail[0] == "length" or _INDEX.match(tail[0])):
            return entry
        return None
    return None


def example_variables() -> dict[str, Any]:
    """The catalog's examples as the nested object interpolation reads."""
    root: dict[str, Any] = {}
    for v in CATALOG:
        node = root
        *heads, last = v.path.split(".")
        for h in heads:
            node = node.setdefault(h, {})
        node[last] = v.example
    return root


# --- the template ------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class CovelReference:
    path: str
    start: int  # the whole {{ … }}
    end: int
    path_start: int
    path_end: int
    tag: str | None  # the tagged block it sits in, if any


def body_start(source: str) -> int:
    """Where the interpolated body begins: after YAML front matter, if any."""
    m = _FRONT_MATTER.match(source)
    return m.end() if m else 0


def tagged_blocks(source: str, start: int = 0) -> list[tuple[int, int, str]]:
    """(content start, content end, name) of each tagged block from ``start`` on."""
    out = []
    pos = start
    unclosed: set[str] = set()  # names with no closing tag after some earlier opening line
    while True:
        m = _TAG_LINE.search(source, pos)
        if m is None:
            return out
        name = m.group(1)
        close = -1 if name in unclosed else source.find(f"</{name}>", m.end())
        if close < 0:
            # Nor after any later opening line: no need to search the rest of the text again.
            unclosed.add(name)
            pos = m.end()
            continue
        out.append((m.end(), close, name))
        pos = close + len(name) + 3


def _variables(source: str, start: int):
    """The matches of ``_VARIABLE`` from ``start`` on, as ``finditer`` gives them, in linear time.

    A match runs from ``{{`` to the first ``}`` after it (the path cannot hold one), which must
    begin ``}}``. ``finditer`` retries at every ``{`` of a failed attempt and rescans to that same
    ``}`` each time, quadratic on a long run of unterminated ``{{``; here a failed ``}`` skips
    every ``{{`` before it at once, and each match is tried on its own stretch only."""
    pos = start
    find = source.find
    while True:
        at = find("{{", pos)
        if at < 0:
            return
        close = find("}", at + 2)
        if close < 0:
            return
        if close + 1 < len(source) and source[close + 1] == "}":
            m = _VARIABLE.match(source, at, close + 2)
            if m is not None:
                yield m
                pos = m.end()
                continue
            # Nothing between the braces ("{{}}"): the next "{" may still start one.
            pos = at + 1
            continue
        # A lone "}": no "{{" before it can reach a "}}".
        pos = close + 1


def references(source: str, *, front_matter: bool = False) -> list[CovelReference]:
    start = body_start(source) if front_matter else 0
    blocks = tagged_blocks(source, start)
    out = []
    b = 0
    for m in _variables(source, start):
        while b < len(blocks) and blocks[b][1] <= m.start():
            b += 1
        tag = None
        if b < len(blocks) and blocks[b][0] <= m.start() and m.end() <= blocks[b][1]:
            tag = blocks[b][2]
        out.append(CovelReference(js_trim(m.group(1)), m.start(), m.end(), m.start(1), m.end(1), tag))
    return out


def resolve(variables: Any, path: str) -> Any:
    current = variables
    for part in path.split("."):
        if isinstance(current, dict):
            if part not in current:
                return UNDEFINED
            current = current[part]
        elif isinstance(current, list):
            if part == "length":
                current = len(current)
            elif part.isdigit() and (part == "0" or not part.startswith("0")) and int(part) < len(current):
                current = current[int(part)]
            else:
                return UNDEFINED
        else:
            return UNDEFINED
    return current


def render_value(value: Any) -> str:
    if value is None or value is UNDEFINED:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return js_number(value)
    text = js_stringify(value, indent=2)
    return "" if text is None else text


def interpolate(source: str, variables: Any, *, front_matter: bool = False) -> str:
    """The body with every ``{{ path }}`` replaced, exactly as Covel renders it."""
    refs = references(source, front_matter=front_matter)
    start = body_start(source) if front_matter else 0
    out = [source[start:refs[0].start] if refs else source[start:]]
    for i, ref in enumerate(refs):
        text = render_value(resolve(variables, ref.path))
        out.append(xml_escape(text) if ref.tag is not None else text)
        out.append(source[ref.end:refs[i + 1].start if i + 1 < len(refs) else len(source)])
    return "".join(out)


def check_covel(source: str, template_id: str | None = None, *, front_matter: bool = False,
                in_system_prompt: bool = True) -> list[Diagnostic]:
    """Diagnostics of one runtime body. Offsets are into ``source`` (front matter included)."""
    pos = dg.SourcePositions(source)
    known = [v.path for v in CATALOG]
    out: list[Diagnostic] = []
    for ref in references(source, front_matter=front_matter):
        entry = lookup(ref.path)
        if entry is None:
            close = difflib.get_close_matches(ref.path, known, n=1, cutoff=0.7)
            message = (wording.COVEL_UNKNOWN_VARIABLE_SUGGESTED.format(path=repr(ref.path), suggestion=repr(close[0]))
                       if close else wording.COVEL_UNKNOWN_VARIABLE.format(path=repr(ref.path)))
            out.append(dg.make(dg.COVEL_UNKNOWN_VARIABLE, dg.ERROR, message, pos, ref.path_start, ref.path_end,
                               block_id=template_id, variable=ref.path))
            continue
        if entry.changes_between_turns and in_system_prompt:
            out.append(dg.make(dg.COVEL_VOLATILE_IN_SYSTEM, dg.WARNING, wording.COVEL_VOLATILE_IN_SYSTEM.format(
                               path=repr(ref.path), detail=entry.instead),
                               pos, ref.start, ref.end, block_id=template_id, variable=ref.path))
        if ref.tag is not None:
            out.append(dg.make(dg.COVEL_ESCAPED_IN_TAG, dg.INFO, wording.COVEL_ESCAPED_IN_TAG.format(tag=ref.tag),
                               pos, ref.start, ref.end, block_id=template_id, variable=ref.path))
    return out


def is_covel_template_path(path: str) -> bool:
    """Files ``lint``/``render`` treat as a Covel runtime body rather than a zones config."""
    lower = path.lower()
    return lower.endswith((".md", ".covel", ".covel.txt"))
