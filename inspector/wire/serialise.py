"""Kernel request → provider body, the way Covel's protocol adapters build it (covel-assembly.md
§3-4, covel-db.md §2.3), plus the recorded-body projection and the prompt cache key.

Kernel messages are Covel's ``LLMMessage`` dicts (``role``, ``content``, ``toolCalls``,
``toolCallId``, ``name``); kernel tools are ``{"name", "description", "jsonSchema"}``. The cache
sentinel never reaches a wire: it is stripped, or on Anthropic explicit caching it becomes the
boundary between ``system`` blocks.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence
from urllib.parse import urlsplit

from inspector.covel import markers as M
from inspector.jsjson import js_parse

from .fields import SYSTEM_ROLES
from .protocols import (
    ALL_PROTOCOLS,
    ANTHROPIC_EXPLICIT_CACHE,
    ANTHROPIC_MESSAGES,
    GOOGLE_GENERATIVE_AI,
    OPENAI_CHAT,
    OPENAI_RESPONSES,
    PROMPT_CACHE_KEY_PROTOCOLS,
    allowed_body_fields,
)

__all__ = [
    "serialise",
    "to_openai_chat",
    "to_openai_responses",
    "to_anthropic_messages",
    "to_gemini",
    "project_body",
    "prompt_cache_key_for",
    "strip_sentinels",
    "split_cache_segments",
    "late_system_flags",
    "wrap_system_instruction",
    "omit_image_data",
    "DEFAULT_ANTHROPIC_MAX_TOKENS",
    "EPHEMERAL",
]

EPHEMERAL = {"type": "ephemeral"}
# Covel reserves 4000 tokens for the response by default and sends the reserve as the output
# limit (covel-assembly.md §5); Anthropic requires some limit, so that is ours when none is given.
DEFAULT_ANTHROPIC_MAX_TOKENS = 4000
_DEFAULT_MEDIA_TYPE = "image/png"
_IMAGE_NOTE = re.compile(M.IMAGE_OMITTED_PATTERN)
_DATA_URL = re.compile(r"^data:([^;,]*)(?:;[^,]*)?;base64,(.*)$", re.DOTALL)
_WHOLE_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*://\S+$")
_ANTHROPIC_CACHEABLE = frozenset({"text", "image", "tool_use", "tool_result"})


# --- shared helpers ---------------------------------------------------------------------------


def strip_sentinels(text: str) -> str:
    """``stripPromptCacheMarkers``: remove every sentinel, change nothing else."""
    return text.replace(M.CACHE_SENTINEL, "")


def split_cache_segments(text: str) -> list[tuple[str, bool]]:
    """``splitPromptCacheSegments`` with provenance: ``(piece, precedes_sentinel)`` pairs.

    Pieces are trailing-whitespace-trimmed and empty pieces dropped. The leading blank line a
    piece inherits from the part separator is kept, because only trailing whitespace is trimmed.
    """
    raw = text.split(M.CACHE_SENTINEL)
    out: list[tuple[str, bool]] = []
    for i, piece in enumerate(raw):
        piece = piece.rstrip()
        if piece:
            out.append((piece, i < len(raw) - 1))
    return out


def wrap_system_instruction(text: str) -> str:
    return M.SYSTEM_INSTRUCTION_OPEN + text + M.SYSTEM_INSTRUCTION_CLOSE


def late_system_flags(messages: Sequence[Mapping[str, Any]]) -> list[bool]:
    """True for a system message after the first non-system message (spec §4)."""
    flags: list[bool] = []
    seen_conversation = False
    for message in messages:
        is_system = message.get("role") in SYSTEM_ROLES
        flags.append(is_system and seen_conversation)
        seen_conversation = seen_conversation or not is_system
    return flags


def _parts(content: Any) -> list[dict]:
    if content is None:
        return []
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return list(content)


def _texts(content: Any) -> list[str]:
    """Text of each text part, sentinel-free; image parts are not text and are skipped."""
    return [strip_sentinels(p.get("text", "")) for p in _parts(content) if p.get("type") == "text"]


def _has_non_text(content: Any) -> bool:
    return any(p.get("type") != "text" for p in _parts(content))


@dataclass(frozen=True)
class _Image:
    kind: str  # "url", "base64" or "note"
    data: str
    media_type: str

    def data_url(self) -> str:
        return self.data if self.kind == "url" else f"data:{self.media_type};base64,{self.data}"


def _image(part: Mapping[str, Any]) -> _Image:
    image = part.get("image", "")
    media_type = part.get("mediaType") or _DEFAULT_MEDIA_TYPE
    if not isinstance(image, str):
        raise TypeError("kernel image parts carry a string (URL, data URL or base64)")
    if _IMAGE_NOTE.match(image):
        return _Image("note", image, media_type)
    if image.startswith(("http://", "https://")):
        return _Image("url", image, media_type)
    match = _DATA_URL.match(image)
    if match:
        return _Image("base64", match.group(2), match.group(1) or media_type)
    return _Image("base64", image, media_type)


def _arguments(raw: Any) -> Any:
    if isinstance(raw, (dict, list)):
        return raw
    if raw is None or raw == "":
        return {}
    try:
        return js_parse(raw)
    except ValueError as exc:
        raise ValueError(f"tool call arguments are not JSON: {raw!r}") from exc


def _tool_text(content: Any) -> str:
    return "".join(_texts(content))


def _sampling_items(sampling: Mapping[str, Any] | None) -> list[tuple[str, Any]]:
    return list((sampling or {}).items())


# --- OpenAI Chat ------------------------------------------------------------------------------


def _chat_user_parts(content: Any) -> str | list[dict]:
    if isinstance(content, str):
        return strip_sentinels(content)
    out: list[dict] = []
    for part in _parts(content):
        if part.get("type") == "text":
            out.append({"type": "text", "text": strip_sentinels(part.get("text", ""))})
        elif part.get("type") == "image":
            image = _image(part)
            if image.kind == "note":
                out.append({"type": "text", "text": image.data})
            else:
                out.append({"type": "image_url", "image_url": {"url": image.data_url()}})
    return out


def _chat_late_user(content: Any, parts_factory) -> str | list[dict]:
    if isinstance(content, str):
        return wrap_system_instruction(strip_sentinels(content))
    return [
        parts_factory(M.SYSTEM_INSTRUCTION_OPEN),
        *_chat_like_text_parts(content, parts_factory),
        parts_factory(M.SYSTEM_INSTRUCTION_CLOSE),
    ]


def _chat_like_text_parts(content: Any, parts_factory) -> list[dict]:
    return [parts_factory(text) for text in _texts(content)]


def _chat_text_part(text: str) -> dict:
    return {"type": "text", "text": text}


def _chat_messages(messages: Sequence[Mapping[str, Any]], late_system_as_user: bool) -> list[dict]:
    out: list[dict] = []
    for message, late in zip(messages, late_system_flags(messages)):
        role = message.get("role")
        content = message.get("content")
        if role in SYSTEM_ROLES:
            if late and late_system_as_user:
                wire: dict[str, Any] = {"role": "user", "content": _chat_late_user(content, _chat_text_part)}
            elif isinstance(content, str):
                wire = {"role": role, "content": strip_sentinels(content)}
            else:
                wire = {"role": role, "content": _chat_like_text_parts(content, _chat_text_part)}
        elif role == "user":
            wire = {"role": "user", "content": _chat_user_parts(content)}
        elif role == "assistant":
            text = "".join(_texts(content))
            wire = {"role": "assistant", "content": text if (text or not message.get("toolCalls")) else None}
            if message.get("toolCalls"):
                wire["tool_calls"] = [
                    {
                        "id": call["id"],
                        "type": "function",
                        "function": {"name": call["name"], "arguments": call.get("arguments") or "{}"},
                    }
                    for call in message["toolCalls"]
                ]
        elif role == "tool":
            wire = {"role": "tool", "tool_call_id": message.get("toolCallId"), "content": _tool_text(content)}
        else:
            raise ValueError(f"unknown kernel role {role!r}")
        if message.get("name") and role != "tool":
            wire["name"] = message["name"]
        out.append(wire)
    return out


def to_openai_chat(
    messages: Sequence[Mapping[str, Any]],
    tools: Sequence[Mapping[str, Any]] = (),
    *,
    model: str,
    sampling: Mapping[str, Any] | None = None,
    late_system_as_user: bool = False,
    max_tokens: int | None = None,
    stream: bool = True,
    prompt_cache_key: str | None = None,
) -> dict:
    body: dict[str, Any] = {"model": model, "messages": _chat_messages(messages, late_system_as_user)}
    if tools:
        body["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": t["name"],
                    "description": t.get("description", ""),
                    "parameters": t.get("jsonSchema", {"type": "object", "properties": {}}),
                },
            }
            for t in tools
        ]
    body.update(_sampling_items(sampling))
    if max_tokens is not None:
        body["max_tokens"] = max_tokens
    if prompt_cache_key:
        body["prompt_cache_key"] = prompt_cache_key
    body["stream"] = stream
    if stream:
        body["stream_options"] = {"include_usage": True}
    return body


# --- OpenAI Responses -------------------------------------------------------------------------


def _input_text(text: str) -> dict:
    return {"type": "input_text", "text": text}


def _responses_user_content(content: Any) -> str | list[dict]:
    if isinstance(content, str):
        return strip_sentinels(content)
    out: list[dict] = []
    for part in _parts(content):
        if part.get("type") == "text":
            out.append(_input_text(strip_sentinels(part.get("text", ""))))
        elif part.get("type") == "image":
            image = _image(part)
            if image.kind == "note":
                out.append(_input_text(image.data))
            else:
                out.append({"type": "input_image", "image_url": image.data_url()})
    return out


def to_openai_responses(
    messages: Sequence[Mapping[str, Any]],
    tools: Sequence[Mapping[str, Any]] = (),
    *,
    model: str,
    sampling: Mapping[str, Any] | None = None,
    late_system_as_user: bool = False,
    max_tokens: int | None = None,
    stream: bool = True,
    prompt_cache_key: str | None = None,
) -> dict:
    flags = late_system_flags(messages)
    instructions: list[str] = []
    items: list[dict] = []
    for message, late in zip(messages, flags):
        role = message.get("role")
        content = message.get("content")
        if role in SYSTEM_ROLES and not late:
            instructions.append("\n".join(_texts(content)))
        elif role in SYSTEM_ROLES:
            if late_system_as_user:
                items.append({"role": "user", "content": _chat_late_user(content, _input_text)})
            else:
                text = "\n".join(_texts(content))
                items.append({"role": role, "content": text})
        elif role == "user":
            items.append({"role": "user", "content": _responses_user_content(content)})
        elif role == "assistant":
            text = "".join(_texts(content))
            if text:
                items.append({"role": "assistant", "content": text})
            for call in message.get("toolCalls") or ():
                items.append(
                    {
                        "type": "function_call",
                        "call_id": call["id"],
                        "name": call["name"],
                        "arguments": call.get("arguments") or "{}",
                    }
                )
        elif role == "tool":
            items.append(
                {"type": "function_call_output", "call_id": message.get("toolCallId"), "output": _tool_text(content)}
            )
        else:
            raise ValueError(f"unknown kernel role {role!r}")

    body: dict[str, Any] = {"model": model}
    joined = M.PART_SEPARATOR.join(t for t in instructions if t)
    if joined:
        body["instructions"] = joined
    body["input"] = items
    if tools:
        body["tools"] = [
            {
                "type": "function",
                "name": t["name"],
                "description": t.get("description", ""),
                "parameters": t.get("jsonSchema", {"type": "object", "properties": {}}),
            }
            for t in tools
        ]
    body.update(_sampling_items(sampling))
    if max_tokens is not None:
        body["max_output_tokens"] = max_tokens
    if prompt_cache_key:
        body["prompt_cache_key"] = prompt_cache_key
    body["stream"] = stream
    return body


# --- Anthropic Messages -----------------------------------------------------------------------


def _anthropic_image(image: _Image) -> dict:
    if image.kind == "url":
        return {"type": "image", "source": {"type": "url", "url": image.data}}
    return {"type": "image", "source": {"type": "base64", "media_type": image.media_type, "data": image.data}}


def _anthropic_user_content(content: Any) -> str | list[dict]:
    if isinstance(content, str):
        return strip_sentinels(content)
    blocks: list[dict] = []
    for part in _parts(content):
        if part.get("type") == "text":
            blocks.append({"type": "text", "text": strip_sentinels(part.get("text", ""))})
        elif part.get("type") == "image":
            image = _image(part)
            blocks.append({"type": "text", "text": image.data} if image.kind == "note" else _anthropic_image(image))
    return blocks


def _anthropic_system(texts: Sequence[str], cache_strategy: str | None) -> str | list[dict] | None:
    joined = M.PART_SEPARATOR.join(t for t in texts if t)
    if not joined:
        return None
    if cache_strategy != ANTHROPIC_EXPLICIT_CACHE or M.CACHE_SENTINEL not in joined:
        return strip_sentinels(joined) or None
    pieces = split_cache_segments(joined)
    boundaries = [i for i, (_, before_sentinel) in enumerate(pieces) if before_sentinel]
    # Newer rule: only the first and last stable boundary, leaving two breakpoints for messages.
    marked = {boundaries[0], boundaries[-1]} if boundaries else set()
    blocks: list[dict] = []
    for i, (text, _) in enumerate(pieces):
        block: dict[str, Any] = {"type": "text", "text": text}
        if i in marked:
            block["cache_control"] = dict(EPHEMERAL)
        blocks.append(block)
    return blocks


def _mark_anthropic(messages: list[dict], start: int) -> int | None:
    """Put ``cache_control`` on the last cacheable block at or before message ``start``."""
    for index in range(start, -1, -1):
        content = messages[index]["content"]
        if isinstance(content, str):
            if content:
                messages[index]["content"] = [{"type": "text", "text": content, "cache_control": dict(EPHEMERAL)}]
                return index
            continue
        for block in reversed(content):
            if block.get("type") in _ANTHROPIC_CACHEABLE:
                block["cache_control"] = dict(EPHEMERAL)
                return index
    return None


def to_anthropic_messages(
    messages: Sequence[Mapping[str, Any]],
    tools: Sequence[Mapping[str, Any]] = (),
    *,
    model: str,
    sampling: Mapping[str, Any] | None = None,
    cache_strategy: str | None = ANTHROPIC_EXPLICIT_CACHE,
    max_tokens: int | None = None,
    stream: bool = True,
) -> dict:
    """Late system messages always become ``<system-instruction>`` user messages here."""
    flags = late_system_flags(messages)
    system_texts: list[str] = []
    wire: list[dict] = []
    first_late: int | None = None
    for message, late in zip(messages, flags):
        role = message.get("role")
        content = message.get("content")
        if role in SYSTEM_ROLES and not late:
            # Sentinels stay until the system field is built: they are its block boundaries.
            system_texts.append(
                content if isinstance(content, str) else M.PART_SEPARATOR.join(
                    p.get("text", "") for p in _parts(content) if p.get("type") == "text"
                )
            )
        elif role in SYSTEM_ROLES:
            if first_late is None:
                first_late = len(wire)
            text = M.PART_SEPARATOR.join(_texts(content))
            wire.append({"role": "user", "content": wrap_system_instruction(text)})
        elif role == "user":
            wire.append({"role": "user", "content": _anthropic_user_content(content)})
        elif role == "assistant":
            text = "".join(_texts(content))
            calls = message.get("toolCalls") or ()
            if not calls:
                wire.append({"role": "assistant", "content": text})
                continue
            blocks: list[dict] = [{"type": "text", "text": text}] if text else []
            blocks.extend(
                {"type": "tool_use", "id": c["id"], "name": c["name"], "input": _arguments(c.get("arguments"))}
                for c in calls
            )
            wire.append({"role": "assistant", "content": blocks})
        elif role == "tool":
            block = {"type": "tool_result", "tool_use_id": message.get("toolCallId"), "content": _tool_text(content)}
            previous = wire[-1] if wire else None
            # Parallel tool results travel together in one user turn, as the API expects.
            if (
                previous is not None
                and previous["role"] == "user"
                and isinstance(previous["content"], list)
                and previous["content"]
                and all(b.get("type") == "tool_result" for b in previous["content"])
            ):
                previous["content"].append(block)
            else:
                wire.append({"role": "user", "content": [block]})
        else:
            raise ValueError(f"unknown kernel role {role!r}")

    if wire and wire[0]["role"] == "assistant":
        wire.insert(0, {"role": "user", "content": M.ANTHROPIC_CONTINUATION_OPENER})
        if first_late is not None:
            first_late += 1

    explicit = cache_strategy == ANTHROPIC_EXPLICIT_CACHE
    if explicit and wire:
        moving = _mark_anthropic(wire, len(wire) - 1)
        if first_late is not None and first_late > 0:
            # Find the history end without marking first, so an equal target adds nothing.
            target = _last_cacheable_index(wire, first_late - 1)
            if target is not None and target != moving:
                _mark_anthropic(wire, target)

    body: dict[str, Any] = {"model": model, "max_tokens": max_tokens or DEFAULT_ANTHROPIC_MAX_TOKENS}
    system = _anthropic_system(system_texts, cache_strategy)
    if system is not None:
        body["system"] = system
    body["messages"] = wire
    if tools:
        body["tools"] = [
            {
                "name": t["name"],
                **({"description": t["description"]} if t.get("description") else {}),
                "input_schema": t.get("jsonSchema", {"type": "object", "properties": {}}),
            }
            for t in tools
        ]
    body.update(_sampling_items(sampling))
    body["stream"] = stream
    return body


def _last_cacheable_index(messages: Sequence[dict], start: int) -> int | None:
    for index in range(start, -1, -1):
        content = messages[index]["content"]
        if isinstance(content, str):
            if content:
                return index
        elif any(b.get("type") in _ANTHROPIC_CACHEABLE for b in content):
            return index
    return None


# --- Gemini -----------------------------------------------------------------------------------

_GEMINI_CONFIG_NAMES = {
    "temperature": "temperature",
    "top_p": "topP",
    "top_k": "topK",
    "frequency_penalty": "frequencyPenalty",
    "presence_penalty": "presencePenalty",
    "seed": "seed",
    "stop": "stopSequences",
}


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(word.capitalize() for word in rest)


def _gemini_system_text(content: Any) -> list[str]:
    if _has_non_text(content):
        raise ValueError("Gemini system instructions require text")
    return _texts(content)


def _gemini_user_parts(content: Any) -> list[dict]:
    out: list[dict] = []
    for part in _parts(content):
        if part.get("type") == "text":
            text = strip_sentinels(part.get("text", ""))
            if text:
                out.append({"text": text})
        elif part.get("type") == "image":
            image = _image(part)
            if image.kind == "note":
                out.append({"text": image.data})
            elif image.kind == "url":
                out.append({"fileData": {"mimeType": image.media_type, "fileUri": image.data}})
            else:
                out.append({"inlineData": {"mimeType": image.media_type, "data": image.data}})
    return out


def _has_function_parts(content: Mapping[str, Any]) -> bool:
    return any("functionCall" in p or "functionResponse" in p for p in content["parts"])


def _is_function_response(content: Mapping[str, Any]) -> bool:
    return bool(content["parts"]) and all("functionResponse" in p for p in content["parts"])


class _GeminiContents:
    """Builds ``contents`` with the merging rules of spec §4."""

    def __init__(self, merge: bool) -> None:
        self.merge = merge
        self.contents: list[dict] = []

    def push(self, role: str, parts: list[dict]) -> None:
        if not parts:
            return
        last = self.contents[-1] if self.contents else None
        if self.merge and last is not None and last["role"] == role:
            new_is_response = all("functionResponse" in p for p in parts)
            # Parallel function responses share one content; nothing else joins them.
            if new_is_response and _is_function_response(last):
                last["parts"].extend(parts)
                return
            if not _has_function_parts(last) and not new_is_response:
                last["parts"].extend(parts)
                return
        self.contents.append({"role": role, "parts": parts})

    def awaiting_responses(self) -> bool:
        return bool(self.contents) and any("functionCall" in p for p in self.contents[-1]["parts"])


def to_gemini(
    messages: Sequence[Mapping[str, Any]],
    tools: Sequence[Mapping[str, Any]] = (),
    *,
    sampling: Mapping[str, Any] | None = None,
    late_system_as_user: bool = True,
    max_tokens: int | None = None,
) -> dict:
    """The ``generateContent`` body. Model and streaming live in the URL, not the body."""
    flags = late_system_flags(messages)
    system_parts: list[dict] = []
    builder = _GeminiContents(merge=late_system_as_user)
    call_names: dict[str, str] = {}
    deferred: list[dict] = []

    def flush() -> None:
        for part in deferred:
            builder.push("user", [part])
        deferred.clear()

    for message, late in zip(messages, flags):
        role = message.get("role")
        content = message.get("content")
        if role != "tool" and deferred and not (late and builder.awaiting_responses()):
            flush()
        if role in SYSTEM_ROLES and (not late or not late_system_as_user):
            system_parts.extend({"text": t} for t in _gemini_system_text(content) if t)
        elif role in SYSTEM_ROLES:
            text = "\n".join(_gemini_system_text(content))
            if not text:
                continue
            part = {"text": wrap_system_instruction(text)}
            # Between a function call and its responses nothing else may stand.
            if builder.awaiting_responses():
                deferred.append(part)
            else:
                builder.push("user", [part])
        elif role == "user":
            builder.push("user", _gemini_user_parts(content))
        elif role == "assistant":
            parts = [{"text": t} for t in _texts(content) if t]
            for call in message.get("toolCalls") or ():
                call_names[call["id"]] = call["name"]
                parts.append({"functionCall": {"name": call["name"], "args": _arguments(call.get("arguments"))}})
            builder.push("model", parts)
        elif role == "tool":
            call_id = message.get("toolCallId")
            name = call_names.get(call_id) or message.get("name") or ""
            builder.push(
                "user", [{"functionResponse": {"name": name, "response": {"content": _tool_text(content)}}}]
            )
        else:
            raise ValueError(f"unknown kernel role {role!r}")
    flush()

    body: dict[str, Any] = {"contents": builder.contents}
    if system_parts:
        body["systemInstruction"] = {"parts": system_parts}
    config: dict[str, Any] = {}
    for key, value in _sampling_items(sampling):
        config[_GEMINI_CONFIG_NAMES.get(key, _camel(key))] = value
    if max_tokens is not None:
        config["maxOutputTokens"] = max_tokens
    if config:
        body["generationConfig"] = config
    if tools:
        body["tools"] = [
            {
                "functionDeclarations": [
                    {
                        "name": t["name"],
                        **({"description": t["description"]} if t.get("description") else {}),
                        "parametersJsonSchema": t.get("jsonSchema", {"type": "object", "properties": {}}),
                    }
                    for t in tools
                ]
            }
        ]
    return body


# --- dispatch ---------------------------------------------------------------------------------


def serialise(
    protocol: str,
    messages: Sequence[Mapping[str, Any]],
    tools: Sequence[Mapping[str, Any]] = (),
    *,
    model: str,
    sampling: Mapping[str, Any] | None = None,
    late_system_as_user: bool | None = None,
    cache_strategy: str | None = None,
    max_tokens: int | None = None,
    stream: bool = True,
    prompt_cache_key: str | None = None,
) -> dict:
    """The body a Covel adapter sends for ``protocol``.

    ``late_system_as_user=None`` takes each protocol's default: off on the OpenAI wires, on for
    Gemini; Anthropic always wraps and ignores it. ``cache_strategy=None`` means
    ``anthropic-explicit`` on Anthropic (Covel fills it in for that protocol) and is unused
    elsewhere. ``prompt_cache_key`` is sent only on the OpenAI wires. Gemini carries neither
    ``model`` nor ``stream`` in its body.
    """
    if protocol == OPENAI_CHAT or protocol == OPENAI_RESPONSES:
        build = to_openai_chat if protocol == OPENAI_CHAT else to_openai_responses
        return build(
            messages,
            tools,
            model=model,
            sampling=sampling,
            late_system_as_user=bool(late_system_as_user),
            max_tokens=max_tokens,
            stream=stream,
            prompt_cache_key=prompt_cache_key if protocol in PROMPT_CACHE_KEY_PROTOCOLS else None,
        )
    if protocol == ANTHROPIC_MESSAGES:
        return to_anthropic_messages(
            messages,
            tools,
            model=model,
            sampling=sampling,
            cache_strategy=cache_strategy or ANTHROPIC_EXPLICIT_CACHE,
            max_tokens=max_tokens,
            stream=stream,
        )
    if protocol == GOOGLE_GENERATIVE_AI:
        return to_gemini(
            messages,
            tools,
            sampling=sampling,
            late_system_as_user=True if late_system_as_user is None else late_system_as_user,
            max_tokens=max_tokens,
        )
    raise ValueError(f"unknown protocol {protocol!r}; expected one of {', '.join(ALL_PROTOCOLS)}")


# --- recorded body projection (covel-db.md §2.3) ----------------------------------------------


def _redact(value: Any) -> tuple[Any, int]:
    if isinstance(value, str):
        if _WHOLE_URL.match(value):
            try:
                parts = urlsplit(value)
                secret = parts.username is not None or parts.password is not None or bool(parts.query)
            except ValueError:
                secret = False
            if secret:
                return M.REDACTED_URL, 1
        return value, 0
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        count = 0
        for key, item in value.items():
            out[key], n = _redact(item)
            count += n
        return out, count
    if isinstance(value, list):
        items: list[Any] = []
        count = 0
        for item in value:
            redacted, n = _redact(item)
            items.append(redacted)
            count += n
        return items, count
    return value, 0


def project_body(body: Mapping[str, Any], protocol: str) -> tuple[dict, bool, int]:
    """What ``providerRequests[].body`` keeps: ``(projected, complete, omitted_field_count)``.

    Only whole-string URLs are redacted (resource references such as image URLs); prompt text
    that mentions a URL is model input and stays as written.
    """
    allowed = allowed_body_fields(protocol)
    projected: dict[str, Any] = {}
    omitted = 0
    redacted = 0
    for key, value in body.items():
        if key not in allowed:
            omitted += 1
            continue
        projected[key], n = _redact(value)
        redacted += n
    return projected, omitted == 0 and redacted == 0, omitted


def prompt_cache_key_for(session_id: str, runtime_id: str) -> str:
    digest = hashlib.sha256(f"{session_id}\n{runtime_id}".encode("utf-8")).hexdigest()
    return "covel-" + digest[:32]


# --- the trace copy of kernel messages (covel-db.md §2.2) -------------------------------------


def omit_image_data(messages: Sequence[Mapping[str, Any]]) -> list[dict]:
    """The ``llm.calling`` copy: base64 image data replaced by the omission note, URLs kept.

    The part keeps its shape (``type: image``, ``mediaType``); only ``image`` becomes the note,
    which the serialisers above send on as plain text.
    """
    out: list[dict] = []
    for message in messages:
        content = message.get("content")
        if not isinstance(content, list):
            out.append(dict(message))
            continue
        parts: list[dict] = []
        for part in content:
            if part.get("type") == "image":
                image = _image(part)
                if image.kind == "base64":
                    part = {**part, "image": M.IMAGE_OMITTED_TEMPLATE.format(count=len(image.data))}
            parts.append(dict(part))
        out.append({**message, "content": parts})
    return out
