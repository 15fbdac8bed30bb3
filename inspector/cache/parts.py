"""Parts: the units a request is compared in (a tool, the settings, a system piece, a message),
interned by content so equal content is one object whose tokens, facts and names are worked out
once, and the intern table shared by analyses (:data:`PARTS`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from inspector.anatomy.labelling import MessageFacts
from inspector.cache.segments import NO_TOKENS, tokenize_segments
from inspector.jsjson import utf16_len
from inspector.json_deep import json_key
from inspector.wire.fields import SYSTEM_ROLES
from inspector.wire.model import IMAGE, IMAGE_NOTE, OTHER, TEXT, THINKING, TOOL_CALL, TOOL_RESULT, Message
from inspector.wire.parse import chat_message_alone, from_kernel, from_provider_body
from inspector.wire.protocols import ANTHROPIC_MESSAGES, GOOGLE_GENERATIVE_AI, OPENAI_CHAT, OPENAI_RESPONSES

__all__ = ["PARTS", "Elem", "Part", "PartTable", "element_of", "message_text", "strip_cache_control", "text_part"]


_DUMMY_USER = {"role": "user", "content": ""}


class Part:
    """One tool, settings block, system piece or message, as the provider hashes it.

    ``text`` is what is tokenized and compared character by character; ``key`` decides equality.
    Parts are shared between requests: equal content is the same object, so its tokens, facts
    and names are worked out once.
    """

    __slots__ = ("key", "text", "units", "images", "blocks", "element", "protocol", "kind", "_facts",
                 "tokens", "counts", "_pieces", "_tool_name", "_messages")

    def __init__(self, key: tuple, text: str, *, images: int = 0, blocks: int = 1, element: Any = None,
                 protocol: str | None = None, kind: str = "message") -> None:
        self.key = key
        self.text = text
        self.units = utf16_len(text)
        self.images = images
        self.blocks = blocks
        self.element = element
        self.protocol = protocol
        self.kind = kind  # "tool", "settings", "system-text" or "message"
        self._facts: list[MessageFacts] | None = None
        self._messages: list[Message] | None = None
        self._tool_name: str | None = None
        self.counts: dict[str, int] = {}  # tokens per encoding
        self._pieces: dict[str, list[np.ndarray]] = {}  # the token ids of each segment of the text
        self.tokens: dict[str, np.ndarray] = {}  # all token ids, joined when a comparison needs them

    def messages(self) -> list[Message]:
        """The element as normalised messages (a Gemini content may hold several)."""
        if self._messages is None:
            self._messages = _parse_element(self.element, self.protocol)
        return self._messages

    def facts(self) -> list[MessageFacts]:
        if self._facts is None:
            self._facts = [MessageFacts(m) for m in self.messages()]
        return self._facts

    def tool_name(self) -> str:
        if self._tool_name is None:
            if self.protocol is None:
                tools = from_kernel({"messages": [], "tools": [self.element]}).tools
            else:
                tools = from_provider_body({"tools": [self.element]}, self.protocol).tools
            self._tool_name = tools[0].name if tools and tools[0].name else ""
        return self._tool_name

    def token_array(self, encoding: str) -> np.ndarray:
        found = self.tokens.get(encoding)
        if found is None:
            pieces = self._pieces.get(encoding)
            if pieces is None:
                pieces = tokenize_segments(self.text, encoding, {})
            found = pieces[0] if len(pieces) == 1 else np.concatenate(pieces) if pieces else NO_TOKENS
            self.tokens[encoding] = found
        return found

    def token_count(self, encoding: str, image_tokens: int) -> int:
        """Tokens under ``encoding`` (once a TokenJob has counted them), images included."""
        n = self.counts[encoding]
        return n + self.images * image_tokens if self.images else n


def _parse_element(element: Any, protocol: str | None) -> list[Message]:
    """Normalise one message element on its own. Where the reader folds leading system messages
    into the system prompt, an element it folded is read again behind a dummy user message; every
    message gets the index it has there (1), so it is the same either way."""
    if protocol == GOOGLE_GENERATIVE_AI:
        return from_provider_body({"contents": [element]}, protocol).messages
    if protocol == ANTHROPIC_MESSAGES:
        return from_provider_body({"messages": [element]}, protocol).messages
    if protocol == OPENAI_CHAT:
        return [chat_message_alone(element)]
    list_key = "input" if protocol == OPENAI_RESPONSES else "messages"
    read = from_kernel if protocol is None else lambda body: from_provider_body(body, protocol)
    request = read({list_key: [element]})
    if request.system_message_count:
        return read({list_key: [_DUMMY_USER, element]}).messages[1:]
    for message in request.messages:
        message.index = 1
    return request.messages


def message_text(msgs: list[Message]) -> tuple[str, int]:
    """The text a provider tokenizes for structured content, and the number of images in it."""
    pieces: list[str] = []
    images = 0
    for m in msgs:
        for p in m.parts:
            if p.kind in (IMAGE, IMAGE_NOTE):
                images += 1
            elif p.kind == TOOL_CALL:
                pieces.append(f"{p.name or ''}{p.text}")
            elif p.kind in (TEXT, TOOL_RESULT, THINKING, OTHER):
                pieces.append(p.text)
    return "\n".join(pieces), images


class PartTable:
    """Intern table: content key -> Part. Shared by analyses so a second look is warm.

    Bounded by the text it holds (a 1,000-turn session has a few million distinct characters);
    cleared only between analyses, at the start of one, when over the bound. Comparisons fall
    back to key equality, so two objects for one content would only cost speed, never a wrong
    answer.
    """

    def __init__(self, max_chars: int = 40_000_000) -> None:
        self.max_chars = max_chars
        self.chars = 0
        self.parts: dict[tuple, Part] = {}
        # (protocol, an element's JSON bytes as recorded) -> its Elem: an element that recurs
        # anywhere in a later request is known by its bytes, without keying and interning it again
        self.elements: dict[tuple[str | None, bytes], Elem] = {}
        # encoding -> text segment -> token ids (see split_segments)
        self.segments: dict[str, dict[str, np.ndarray]] = {}
        self.lock = threading.Lock()

    def trim(self) -> None:
        with self.lock:
            if self.chars > self.max_chars:
                self._clear()

    def clear(self) -> None:
        with self.lock:
            self._clear()

    def _clear(self) -> None:
        self.parts.clear()
        self.elements.clear()
        self.segments.clear()
        self.chars = 0

    def element(self, protocol: str | None, raw: bytes, el: Any) -> Elem:
        key = (protocol, raw)
        found = self.elements.get(key)
        if found is None:
            found = self.elements.setdefault(key, element_of(el, protocol, self))
            self.chars += len(raw)
        return found

    def get(self, key: tuple, make: Callable[[], Part]) -> Part:
        part = self.parts.get(key)
        if part is None:
            built = make()
            with self.lock:
                part = self.parts.setdefault(key, built)
                if part is built:
                    self.chars += len(built.text)
        return part


PARTS = PartTable()


def strip_cache_control(value: Any) -> tuple[Any, list[str | None]]:
    """``value`` without Anthropic ``cache_control`` markers (they are not content), and the TTL
    option of each marker removed, in order."""
    if isinstance(value, dict) and "cache_control" in value:
        cc = value["cache_control"]
        ttl = cc.get("ttl") if isinstance(cc, dict) and isinstance(cc.get("ttl"), str) else None
        return {k: v for k, v in value.items() if k != "cache_control"}, ([ttl] if cc not in (None, False) else [])
    return value, []


# The wires whose content blocks may carry a prompt_cache_breakpoint (GPT-5.6 and later).
_OPENAI_WIRES = (OPENAI_CHAT, OPENAI_RESPONSES)


def _breakpoint_ttl(marker: Any) -> str | None:
    """The ttl option of an OpenAI ``prompt_cache_breakpoint`` (None: the request's)."""
    ttl = marker.get("ttl") if isinstance(marker, dict) else None
    return ttl if isinstance(ttl, str) else None


def _message_part(el: Any, protocol: str | None, table: PartTable) -> tuple[Part, list[str | None]]:
    """A message element as a Part, and the cache_control markers it carried (Anthropic)."""
    marks: list[str | None] = []
    if type(el) is dict:
        content = el.get("content")
        if protocol == ANTHROPIC_MESSAGES and type(content) is list:
            blocks = []
            for block in content:
                clean, found = strip_cache_control(block)
                marks.extend(found)
                blocks.append(clean)
            if marks:
                el = {**el, "content": blocks}
            # A one-text-block content and the same text as a string are the same tokens.
            if len(blocks) == 1 and isinstance(blocks[0], dict) and blocks[0].get("type") == "text" \
                    and isinstance(blocks[0].get("text"), str) and len(blocks[0]) == 2:
                el = {**el, "content": blocks[0]["text"]}
                content = el["content"]
        elif protocol in _OPENAI_WIRES and type(content) is list:
            blocks = []
            for block in content:
                if type(block) is dict and "prompt_cache_breakpoint" in block:
                    marks.append(_breakpoint_ttl(block["prompt_cache_breakpoint"]))
                    block = {k: v for k, v in block.items() if k != "prompt_cache_breakpoint"}
                blocks.append(block)
            if marks:
                el = {**el, "content": blocks}
        if type(content) is str and len(el) == 2 and type(el.get("role")) is str:
            role = el["role"]
            key: tuple = ("c", role, content)
            part = table.parts.get(key)
            if part is None:
                part = table.get(key, lambda: Part(key, content, element={"role": role, "content": content},
                                                    protocol=protocol))
            return part, marks
    key = ("j", protocol, json_key(el))

    def make() -> Part:
        msgs = _parse_element(el, protocol)
        text, images = message_text(msgs)
        blocks = len(el["content"]) if isinstance(el, dict) and isinstance(el.get("content"), list) else 1
        part = Part(key, text, images=images, blocks=max(1, blocks), element=el, protocol=protocol)
        part._messages = msgs
        return part

    return table.get(key, make), marks


def text_part(text: str, table: PartTable) -> Part:
    key = ("s", text)
    return table.get(key, lambda: Part(key, text, kind="system-text"))


class Elem:
    """One element of the request's message list: its part, its cache_control markers, and
    whether the wire readers would fold it into the system prompt when it leads."""

    __slots__ = ("part", "marks", "system_like")

    def __init__(self, part: Part, marks: list[str | None], system_like: bool) -> None:
        self.part = part
        self.marks = marks
        self.system_like = system_like


def _system_like(el: Any, protocol: str | None) -> bool:
    if not isinstance(el, dict):
        return False
    role = el.get("role")
    if protocol == OPENAI_RESPONSES:
        return role in SYSTEM_ROLES and el.get("type") in (None, "message")
    return role in SYSTEM_ROLES


def element_of(el: Any, protocol: str | None, table: PartTable) -> Elem:
    part, marks = _message_part(el, protocol, table)
    return Elem(part, marks, _system_like(el, protocol))
