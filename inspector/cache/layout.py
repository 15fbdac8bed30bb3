"""A request as parts in the order providers hash it: tools, request settings, system, messages.

:func:`build_layout` takes what equals the runtime's previous request from its layout (the same
part objects, their counts carried over), so only what is new is parsed, interned and counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.cache.cache_keys import option_values
from inspector.cache.parts import Part, PartTable, element_of, strip_cache_control, text_part
from inspector.cache.payload import Decoded
from inspector.cache.rules import CacheRules
from inspector.cache.wire_reader import Body, read_body
from inspector.json_deep import json_key, json_text
from inspector.wire.fields import PROMPT_FIELDS
from inspector.wire.model import (
    SRC_INSTRUCTIONS,
    SRC_KERNEL_SENTINEL,
    SRC_SYSTEM_BLOCK,
    SRC_SYSTEM_INSTRUCTION,
    SRC_SYSTEM_MESSAGE,
    SRC_SYSTEM_STRING,
)
from inspector.wire.protocols import ANTHROPIC_MESSAGES, GOOGLE_GENERATIVE_AI, OPENAI_CHAT, OPENAI_RESPONSES

__all__ = ["Layout", "automatic_breakpoint", "breakpoint_ttls", "build_layout", "hashed_settings"]


# The wires whose content blocks carry breakpoints: Anthropic's cache_control, OpenAI's
# prompt_cache_breakpoint (GPT-5.6 and later).
_MARKED_WIRES = (ANTHROPIC_MESSAGES, OPENAI_CHAT, OPENAI_RESPONSES)


# Body fields that change what a provider hashes before the system prompt: the tool choice and
# structured-output schemas ("hits need an exact prefix match including ... tools and
# structured-output schemas", provider-caching.md §3.2).
_SETTINGS_FIELDS = ("tool_choice", "response_format", "text")


def hashed_settings(protocol: str | None, fields: dict, keyed: frozenset[str]) -> dict:
    """The request settings a provider hashes before the system prompt (the settings part), from
    a body's fields other than its message list; {} when it has none. ``text`` (the structured
    output format) is a setting on the Responses wire only. An option that keys a cache level of
    its own (``keyed``, the body members of the rules' keyed options: Anthropic's ``tool_choice``)
    is not part of the prefix but a key beside it (``Layout.options``)."""
    return {k: fields[k] for k in _SETTINGS_FIELDS
            if k in fields and k not in keyed and (k != "text" or protocol == OPENAI_RESPONSES)}


def automatic_breakpoint(protocol: str | None, fields: dict) -> tuple[bool, str | None]:
    """Anthropic automatic caching: a top-level ``cache_control`` puts one breakpoint (one of the
    four slots) on the request's last cacheable block (provider-caching.md §3.1, newer doc).
    ``(present, its ttl option)``."""
    if protocol != ANTHROPIC_MESSAGES or "cache_control" not in fields:
        return False, None
    found = strip_cache_control(fields)[1]
    return (True, found[0]) if found else (False, None)


def _openai_breakpoint_mode(protocol: str | None, fields: dict, marked: bool) -> tuple[str | None, str | None]:
    """OpenAI GPT-5.6 and later: ``(mode, ttl)`` of ``prompt_cache_options`` when the body uses
    that scheme (the options, or a ``prompt_cache_breakpoint`` on a block); ``(None, None)``
    otherwise. The mode defaults to implicit; without a ttl the model's own (the rules table's
    ttl_seconds, 30 minutes on GPT-5.6 and later) applies."""
    if protocol not in (OPENAI_CHAT, OPENAI_RESPONSES):
        return None, None
    options = fields.get("prompt_cache_options")
    if not isinstance(options, dict):
        return ("implicit", None) if marked else (None, None)
    mode = options.get("mode") if options.get("mode") in ("implicit", "explicit") else "implicit"
    ttl = options.get("ttl")
    return mode, ttl if isinstance(ttl, str) else None


@dataclass(slots=True)
class Layout:
    protocol: str | None
    parts: list[Part]
    n_tools: int
    n_settings: int
    n_system: int
    # Leading system parts that are the system prompt proper; the rest of the system area are
    # further leading system messages (a turn context before any history, a depth insertion that
    # landed first, the pruned marker), which the anatomy labels as extras.
    n_prompt: int
    # (part index, cache_control ttl option) per marker, in render order (Anthropic only)
    breakpoints: list[tuple[int, str | None]]
    # per system part: (block sources it becomes, origin index) for naming
    system_origins: list[tuple[tuple[str, ...], int | None]]
    # the recorded system fields, for naming a system difference with the real labeller
    system_body: dict
    retention: str | None
    # what the runtime's next request compares against to reuse parts
    body: Body | None
    raw_tools: Any
    raw_system: Any
    encoding: str
    image_tokens: int
    # cum[i]: tokens of parts [0, i); None until its TokenJob is finished
    cum: list[int] | None
    cum_units: list[int]  # the same in UTF-16 units
    n_pre: int  # parts before the message list's elements
    same_as_ref: int  # leading parts identical (the same objects) to the reference layout's
    # the reference layout, until the counts of the parts shared with it are taken from it
    ref: Layout | None = None
    # (field, value key) of each option that keys a cache level (inspector.cache.cache_keys)
    options: tuple = ()
    # OpenAI GPT-5.6+: prompt_cache_options.mode ("implicit"/"explicit") when the body uses
    # breakpoints, else None; and its ttl option
    breakpoint_mode: str | None = None
    breakpoint_ttl: str | None = None


def build_layout(dec: Decoded, table: PartTable, rules: CacheRules, ref: Layout | None) -> Layout:
    """The request as parts in hash order. ``ref`` is the runtime's previous request: what equals
    its content takes its parts as they are, so only what is new is parsed, interned and counted."""
    encoding = rules.tokenizer
    if ref is not None and (ref.protocol != dec.protocol or ref.encoding != encoding
                            or ref.image_tokens != rules.image_tokens):
        ref = None
    body = read_body(dec, ref.body if ref is not None else None, table)
    protocol = dec.protocol
    if body is None:
        rest: dict = {}
        elements = [element_of(el, None, table) for el in (dec.kernel_messages or [])]
        element_parts = [e.part for e in elements]
        tools: Any = dec.kernel_tools or []
    else:
        rest = body.rest
        elements = body.elements
        element_parts = body.parts
        tools = rest.get("tools") or []
    if not isinstance(tools, list):
        tools = []
    parts: list[Part] = []
    marks: list[tuple[int, str | None]] = []

    # -- tools --
    if ref is not None and tools == ref.raw_tools:
        parts.extend(ref.parts[: ref.n_tools])
        marks.extend(m for m in ref.breakpoints if m[0] < ref.n_tools)
    else:
        for tool in tools:
            clean, found = strip_cache_control(tool) if protocol == ANTHROPIC_MESSAGES else (tool, [])
            key = ("t", protocol, json_key(clean))
            parts.append(table.get(key, lambda: Part(key, json_text(clean), element=clean, protocol=protocol,
                                                     kind="tool")))
            marks.extend((len(parts) - 1, ttl) for ttl in found)
    n_tools = len(parts)

    # -- request settings --
    options: tuple = ()
    if body is not None:
        options = option_values(rules.keyed_options, rest)
        settings = hashed_settings(protocol, rest, rules.keyed_fields)
        if settings:
            key = ("g", json_key(settings))
            parts.append(table.get(key, lambda: Part(key, json_text(settings), element=settings, kind="settings")))
    n_settings = len(parts) - n_tools

    # -- system: a field of its own, or the leading system messages of the list --
    lead = 0
    if body is None or protocol in (OPENAI_CHAT, OPENAI_RESPONSES):
        while lead < len(elements) and elements[lead].system_like:
            lead += 1
    leading = tuple(e.part for e in elements[:lead])
    if body is None or protocol == OPENAI_CHAT:
        raw_system: Any = leading
        system_body = {"messages": [p.element for p in leading]}
    elif protocol == ANTHROPIC_MESSAGES:
        raw_system = rest.get("system")
        system_body = {"system": raw_system}
    elif protocol == GOOGLE_GENERATIVE_AI:
        raw_system = rest.get("systemInstruction")
        system_body = {"systemInstruction": raw_system}
    elif protocol == OPENAI_RESPONSES:
        raw_system = (rest.get("instructions"), leading)
        system_body = {"instructions": rest.get("instructions"), "input": [p.element for p in leading]}
    else:
        raw_system = leading
        system_body = {"messages": [p.element for p in leading]}
    base = len(parts)
    if ref is not None and raw_system == ref.raw_system:
        first = ref.n_tools + ref.n_settings
        parts.extend(ref.parts[first : first + ref.n_system])
        marks.extend((j - first + base, t) for j, t in ref.breakpoints if first <= j < first + ref.n_system)
        origins = ref.system_origins
    else:
        origins = _system_parts(protocol, body is None, raw_system, table, parts, marks)
    n_system = len(parts) - base
    n_prompt = n_system if protocol == ANTHROPIC_MESSAGES else sum(1 for o in origins if o == origins[0])

    # -- messages --
    message_start = len(parts)
    parts += element_parts[lead:] if lead else element_parts
    if protocol in _MARKED_WIRES:
        for n, elem in enumerate(elements[lead:], start=message_start):
            if elem.marks:  # few elements carry a breakpoint: the others cost one test each
                marks.extend((n, ttl) for ttl in elem.marks)
    auto, auto_ttl = automatic_breakpoint(protocol, rest)
    if auto and parts:
        marks.append((len(parts) - 1, auto_ttl))
    mode, mode_ttl = _openai_breakpoint_mode(protocol, rest, bool(marks))

    # -- counts, carried over from the reference for the parts they share from the start --
    # Parts before the list's elements (tools, settings, a system field) come first; the
    # elements that recur from the start of the list follow them unchanged.
    n_pre = message_start - lead
    k = 0
    if ref is not None:
        ref_parts = ref.parts
        limit = min(len(parts), len(ref_parts))
        while k < limit and k < n_pre and parts[k] is ref_parts[k]:
            k += 1
        if k == n_pre == ref.n_pre and body is not None:
            k = min(limit, n_pre + body.reused)
        cum_units = ref.cum_units[: k + 1]
    else:
        cum_units = [0]
    units = cum_units[-1]
    for part in parts[k:]:
        units += part.units
        cum_units.append(units)

    retention = rest.get("prompt_cache_retention")
    layout = Layout(protocol, parts, n_tools, n_settings, n_system, n_prompt, marks, origins, system_body,
                     retention if isinstance(retention, str) else None, body, tools, raw_system, encoding,
                     rules.image_tokens, None, cum_units, n_pre, k, ref)
    layout.options = options
    layout.breakpoint_mode, layout.breakpoint_ttl = mode, mode_ttl
    return layout


def _system_parts(protocol: str | None, kernel: bool, raw_system: Any, table: PartTable, parts: list[Part],
                  marks: list[tuple[int, str | None]]) -> list[tuple[tuple[str, ...], int | None]]:
    """Append the system parts; return, per part, the system block sources and origin index the
    wire reader gives it (naming a system difference looks the block up by them)."""
    origins: list[tuple[tuple[str, ...], int | None]] = []
    if kernel:
        for i, part in enumerate(raw_system):
            parts.append(part)
            origins.append(((SRC_KERNEL_SENTINEL,) if i == 0 else (SRC_SYSTEM_MESSAGE,), i))
    elif protocol == ANTHROPIC_MESSAGES:
        if isinstance(raw_system, str):
            if raw_system:
                parts.append(text_part(raw_system, table))
                origins.append(((SRC_SYSTEM_STRING,), None))
        elif isinstance(raw_system, list):
            for i, block in enumerate(raw_system):
                clean, found = strip_cache_control(block)
                if isinstance(clean, dict) and isinstance(clean.get("text"), str) and clean.get("type", "text") == "text":
                    parts.append(text_part(clean["text"], table))
                else:
                    key = ("j", protocol, json_key(clean))
                    parts.append(table.get(key, lambda: Part(key, json_text(clean), kind="system-text")))
                marks.extend((len(parts) - 1, ttl) for ttl in found)
                origins.append(((SRC_SYSTEM_BLOCK,), i))
    elif protocol == GOOGLE_GENERATIVE_AI:
        if isinstance(raw_system, str):
            parts.append(text_part(raw_system, table))
            origins.append(((SRC_SYSTEM_INSTRUCTION,), 0))
        elif isinstance(raw_system, dict) and isinstance(raw_system.get("parts"), list):
            for i, piece in enumerate(raw_system["parts"]):
                if isinstance(piece, dict) and isinstance(piece.get("text"), str):
                    parts.append(text_part(piece["text"], table))
                    origins.append(((SRC_SYSTEM_INSTRUCTION,), i))
    elif protocol == OPENAI_RESPONSES:
        instructions, items = raw_system
        if isinstance(instructions, str) and instructions:
            parts.append(text_part(instructions, table))
            origins.append(((SRC_INSTRUCTIONS,), None))
        for i, part in enumerate(items):
            parts.append(part)
            origins.append(((SRC_SYSTEM_MESSAGE,), i))
    else:
        for i, part in enumerate(raw_system):
            parts.append(part)
            origins.append(((SRC_SYSTEM_MESSAGE,), i))
    return origins


def breakpoint_ttls(protocol: str | None, body: Any) -> list[str | None]:
    """The ``cache_control.ttl`` option of each breakpoint of a recorded provider body, in render
    order (tools, system blocks, message content blocks, then the automatic one), as :func:`build_layout` finds them
    (``Layout.breakpoints``) but without building parts: only Anthropic's wire has them."""
    if protocol != ANTHROPIC_MESSAGES or not isinstance(body, dict) or not any(k in body for k in PROMPT_FIELDS):
        return []
    found: list[str | None] = []
    tools = body.get("tools")
    if isinstance(tools, list):
        for tool in tools:
            found += strip_cache_control(tool)[1]
    system = body.get("system")
    if isinstance(system, list):
        for block in system:
            found += strip_cache_control(block)[1]
    messages = body.get("messages")
    if isinstance(messages, list):
        for element in messages:
            if type(element) is dict and type(element.get("content")) is list:
                for block in element["content"]:
                    found += strip_cache_control(block)[1]
    auto, ttl = automatic_breakpoint(protocol, body)
    if auto and (tools or system or messages):
        found.append(ttl)
    return found
