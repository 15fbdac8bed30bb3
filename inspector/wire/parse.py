"""Read a recorded request (kernel messages or a provider body) into a ``NormalisedRequest``.

Recorded data is untrusted: every reader here tolerates wrong types anywhere, keeps what it can
read and writes what it could not into ``NormalisedRequest.problems``. Nothing in this module
raises on JSON-like input.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from inspector.covel import markers
from inspector.json_deep import sorted_json_text
from inspector.json_guards import bool_or_none, int_refusing_float, number_or_none, str_or_none
from inspector.wire.model import (
    IMAGE,
    IMAGE_NOTE,
    OTHER,
    SRC_INSTRUCTIONS,
    SRC_KERNEL_SENTINEL,
    SRC_SYSTEM_BLOCK,
    SRC_SYSTEM_INSTRUCTION,
    SRC_SYSTEM_MESSAGE,
    SRC_SYSTEM_STRING,
    TEXT,
    THINKING,
    TOOL_CALL,
    TOOL_RESULT,
    WRAP_PARTS,
    WRAP_STRING,
    CacheBreakpoint,
    Message,
    NormalisedRequest,
    Part,
    ProviderAttempt,
    SystemBlock,
    Tool,

)
from inspector.wire.fields import PROMPT_FIELDS, SYSTEM_ROLES
from inspector.wire.protocols import (
    ANTHROPIC_MESSAGES,
    GOOGLE_GENERATIVE_AI,
    OPENAI_CHAT,
    OPENAI_RESPONSES,
)

_IMAGE_OMITTED = re.compile(markers.IMAGE_OMITTED_PATTERN)
_OPEN = markers.SYSTEM_INSTRUCTION_OPEN
_CLOSE = markers.SYSTEM_INSTRUCTION_CLOSE

# Fields each protocol reader consumes; every other body field lands in ``sampling``.
_CONSUMED = {
    OPENAI_CHAT: frozenset({"model", "messages", "tools"}),
    OPENAI_RESPONSES: frozenset({"model", "input", "instructions", "tools"}),
    ANTHROPIC_MESSAGES: frozenset({"model", "system", "messages", "tools"}),
    GOOGLE_GENERATIVE_AI: frozenset({"model", "contents", "systemInstruction", "tools"}),
}
# Kernel payload fields that shape the request but are not messages or tools.
_KERNEL_SAMPLING_KEYS = ("maxOutputTokens", "responseFormat", "defaults", "streaming")



# --- type guards: recorded JSON may hold anything anywhere (inspector.json_guards) ----------


def _list(value: Any, what: str, problems: list[str]) -> list:
    if value is None:
        return []
    if isinstance(value, list):
        return value
    problems.append(f"{what} is not a list ({type(value).__name__})")
    return []


def _text_of(value: Any) -> str:
    """Text of a value that should be a string; anything else is shown as its JSON."""
    if isinstance(value, str):
        return value
    if value is None:
        return ""
    return sorted_json_text(value)


def _has_cache_control(block: Any) -> bool:
    return isinstance(block, dict) and block.get("cache_control") not in (None, False)


# --- images -----------------------------------------------------------------------------------


def _image_part(ref: Any, media_type: str | None, raw: Any) -> Part:
    """An image reference (URL, data URL, bare base64 or the trace's omission note) as a part."""
    if not isinstance(ref, str):
        return Part(kind=IMAGE, text="image (no readable reference)", media_type=media_type, raw=raw)
    if _IMAGE_OMITTED.match(ref):
        return Part(kind=IMAGE_NOTE, text=ref, media_type=media_type, raw=raw)
    if ref.startswith("data:"):
        head, _, data = ref.partition(",")
        kind = head[5:].split(";", 1)[0] or media_type
        return Part(kind=IMAGE, text=f"data URL image ({len(data)} base64 characters)", media_type=kind, raw=raw)
    if ref.startswith(("http://", "https://")) or ref == markers.REDACTED_URL:
        return Part(kind=IMAGE, text=ref, media_type=media_type, raw=raw)
    return Part(kind=IMAGE, text=f"base64 image ({len(ref)} characters)", media_type=media_type, raw=raw)


def _text_part(text: str, raw: Any, cache_control: bool = False) -> Part:
    # The trace replaces base64 images by a note; when a builder wrote it as text we still want
    # the picture note recognised as one.
    if _IMAGE_OMITTED.match(text):
        return Part(kind=IMAGE_NOTE, text=text, cache_control=cache_control, raw=raw)
    return Part(kind=TEXT, text=text, cache_control=cache_control, raw=raw)


def _other(block: Any) -> Part:
    return Part(kind=OTHER, text=sorted_json_text(block), cache_control=_has_cache_control(block), raw=block)


# --- system text, sentinel and late system instructions ---------------------------------------


def _split_system(
    text: str, *, source: str, origin_index: int | None, raw: Any, cache_control: bool = False
) -> list[SystemBlock]:
    """Split a system text at the cache sentinel, keeping each piece's exact text.

    Pieces are not trimmed (unlike the Anthropic adapter) so joining them with the sentinel gives
    the recorded string back; empty pieces are dropped because there is nothing to show.
    """
    if markers.CACHE_SENTINEL not in text:
        return [
            SystemBlock(
                text,
                cache_control=cache_control,
                breakpoint_after=cache_control,
                source=source,
                origin_index=origin_index,
                raw=raw,
            )
        ]
    blocks: list[SystemBlock] = []
    pieces = text.split(markers.CACHE_SENTINEL)
    offset = 0
    for i, piece in enumerate(pieces):
        last = i == len(pieces) - 1
        if piece:
            blocks.append(
                SystemBlock(
                    piece,
                    cache_control=cache_control and last,
                    breakpoint_after=not last or cache_control,
                    source=source,
                    origin_index=origin_index,
                    origin_offset=offset,
                    raw=raw,
                )
            )
        elif not last and blocks:
            # An empty piece between two sentinels still marks a boundary on the previous piece.
            blocks[-1].breakpoint_after = True
        offset += len(piece) + len(markers.CACHE_SENTINEL)
    return blocks


def _mark_late_system(msg: Message) -> None:
    """Recognise a ``<system-instruction>``-wrapped user message (covel-assembly.md §4)."""
    if msg.role != "user":
        return
    if len(msg.parts) == 1 and msg.parts[0].kind == TEXT:
        t = msg.parts[0].text
        if len(t) >= len(_OPEN) + len(_CLOSE) and t.startswith(_OPEN) and t.endswith(_CLOSE):
            msg.late_system = True
            msg.wrap = WRAP_STRING
        return
    if len(msg.parts) >= 2 and msg.parts[0].kind == TEXT and msg.parts[-1].kind == TEXT:
        if msg.parts[0].text == _OPEN and msg.parts[-1].text == _CLOSE:
            msg.late_system = True
            msg.wrap = WRAP_PARTS


# Each wire role as the normalised role it stands for.
_ROLES = {
    **dict.fromkeys(SYSTEM_ROLES, "system"),
    "user": "user",
    "assistant": "assistant",
    "model": "assistant",
    "tool": "tool",
    "function": "tool",
}


def _role(value: Any, problems: list[str], where: str) -> tuple[str, str | None]:
    """Normalised role and the wire role as written."""
    raw = str_or_none(value)
    if raw in _ROLES:
        return _ROLES[raw], raw
    problems.append(f"{where}: unknown role {raw!r}" if raw is not None else f"{where}: role missing")
    return "user", raw


def _collect_breakpoints(req: NormalisedRequest) -> None:
    for i, block in enumerate(req.system):
        if block.breakpoint_after or block.cache_control:
            origin = "cache_control" if block.cache_control else "sentinel"
            req.cache_breakpoints.append(CacheBreakpoint("system", i, None, origin))
    for pos, msg in enumerate(req.messages):
        for j in _message_breakpoints(msg):
            req.cache_breakpoints.append(CacheBreakpoint("message", pos, j, "cache_control"))


def _message_breakpoints(msg: Message) -> list[int]:
    """The parts of ``msg`` that carry ``cache_control``; marks the message when there are any."""
    found = [j for j, part in enumerate(msg.parts) if part.cache_control]
    if found:
        msg.cache_breakpoint = True
    return found


def _fold_leading_system(
    req: NormalisedRequest, msgs: list[Message], split_first: bool, first_source: str
) -> None:
    """Move the leading system messages into ``req.system``; the rest stay messages."""
    count = 0
    for msg in msgs:
        if msg.role != "system" or msg.late_system:
            break
        source = first_source if count == 0 else SRC_SYSTEM_MESSAGE
        text = msg.text
        if count == 0 and split_first:
            req.system.extend(_split_system(text, source=source, origin_index=msg.index, raw=msg.raw))
        else:
            req.system.append(SystemBlock(text, source=source, origin_index=msg.index, raw=msg.raw))
        count += 1
    req.system_message_count = count
    req.messages.extend(msgs[count:])


# --- kernel -----------------------------------------------------------------------------------


def _simple_content(content: Any, problems: list[str], where: str, noun: str) -> list[Part] | None:
    """The parts of a content that is not a list (None, a string, or malformed), or None when it is
    a list the caller must read block by block. Every wire shares these three cases."""
    if content is None:
        return []
    if isinstance(content, str):
        return [_text_part(content, content)]
    if not isinstance(content, list):
        problems.append(f"{where}.content is neither text nor a list of {noun}")
        return [_other(content)]
    return None


def _kernel_parts(content: Any, problems: list[str], where: str) -> list[Part]:
    simple = _simple_content(content, problems, where, "parts")
    if simple is not None:
        return simple
    parts: list[Part] = []
    for block in content:
        if not isinstance(block, dict):
            problems.append(f"{where}.content has a part that is not an object")
            parts.append(_other(block))
            continue
        kind = block.get("type")
        if kind == "text":
            parts.append(_text_part(_text_of(block.get("text")), block))
        elif kind == "image":
            parts.append(_image_part(block.get("image"), str_or_none(block.get("mediaType")), block))
        else:
            parts.append(_other(block))
    return parts


def _message(m: Any, i: int, problems: list[str], keys: _MessageKeys) -> Message:
    """Element ``i`` of a message list in the kernel's or OpenAI Chat's shape, which differ only
    in their key names and in where a tool call keeps its function (``keys``)."""
    where = f"messages[{i}]"
    if not isinstance(m, dict):
        problems.append(f"{where} is not an object")
        return Message("user", [_other(m)], i, raw=m)
    role, wire_role = _role(m.get("role"), problems, where)
    parts = keys.content(m.get("content"), problems, where)
    reasoning = m.get(keys.reasoning)
    if isinstance(reasoning, str) and reasoning:
        parts.insert(0, Part(kind=THINKING, text=reasoning, raw=reasoning))
    for call in _list(m.get(keys.tool_calls), f"{where}.{keys.tool_calls}", problems):
        fn = keys.function_of(call) if isinstance(call, dict) else None
        if not isinstance(fn, dict):
            parts.append(_other(call))
            continue
        parts.append(_function_call(fn, call.get("id"), call))
    if role == "tool":
        call_id = str_or_none(m.get(keys.tool_call_id))
        parts = [
            Part(kind=TOOL_RESULT, text=x.text, call_id=call_id, cache_control=x.cache_control, raw=x.raw)
            if x.kind == TEXT
            else x
            for x in parts
        ]
    return Message(role, parts, i, name=str_or_none(m.get("name")), raw=m, wire_role=wire_role)


@dataclass(frozen=True, slots=True)
class _MessageKeys:
    content: Callable[[Any, list[str], str], list[Part]]
    reasoning: str
    tool_calls: str
    tool_call_id: str
    function_of: Callable[[dict], Any]  # a tool call's function object


def _kernel_message(i: int, m: Any, problems: list[str]) -> Message:
    return _message(m, i, problems, _KERNEL_KEYS)


def from_kernel(payload: Any) -> NormalisedRequest:
    """The kernel view of an ``llm.calling`` payload (covel-db.md §2.2)."""
    req = NormalisedRequest(source="kernel", protocol=None, model=None)
    if not isinstance(payload, dict):
        req.problems.append("payload is not an object")
        return req
    req.model = str_or_none(payload.get("model"))
    msgs = [
        _kernel_message(i, m, req.problems)
        for i, m in enumerate(_list(payload.get("messages"), "messages", req.problems))
    ]
    _fold_leading_system(req, msgs, split_first=True, first_source=SRC_KERNEL_SENTINEL)
    for i, t in enumerate(_list(payload.get("tools"), "tools", req.problems)):
        if not isinstance(t, dict):
            req.problems.append(f"tools[{i}] is not an object")
            continue
        req.tools.append(
            Tool(_text_of(t.get("name")), _text_of(t.get("description")), t.get("jsonSchema"), raw=t)
        )
    req.sampling = {k: payload[k] for k in _KERNEL_SAMPLING_KEYS if k in payload}
    _collect_breakpoints(req)
    return req


# --- OpenAI Chat ------------------------------------------------------------------------------


def _chat_parts(content: Any, problems: list[str], where: str) -> list[Part]:
    simple = _simple_content(content, problems, where, "parts")
    if simple is not None:
        return simple
    parts: list[Part] = []
    for block in content:
        if isinstance(block, str):
            parts.append(_text_part(block, block))
            continue
        if not isinstance(block, dict):
            problems.append(f"{where}.content has a part that is not an object")
            parts.append(_other(block))
            continue
        kind = block.get("type")
        cc = _has_cache_control(block)
        if kind in ("text", "input_text", "output_text"):
            parts.append(_text_part(_text_of(block.get("text")), block, cc))
        elif kind in ("image_url", "input_image"):
            ref = block.get("image_url")
            if isinstance(ref, dict):
                ref = ref.get("url")
            if ref is None and kind == "input_image":
                ref = block.get("file_id")
            part = _image_part(ref, None, block)
            part.cache_control = cc
            parts.append(part)
        elif kind == "refusal":
            parts.append(_text_part(_text_of(block.get("refusal")), block, cc))
        elif kind in ("reasoning_text", "summary_text"):
            parts.append(Part(kind=THINKING, text=_text_of(block.get("text")), raw=block))
        else:
            parts.append(_other(block))
    return parts


def _function_call(fn: dict, call_id: Any, raw: Any) -> Part:
    """A tool call given as a ``name`` beside its ``arguments`` (text, or JSON written as text):
    the kernel's and OpenAI's shapes."""
    return Part(kind=TOOL_CALL, text=_text_of(fn.get("arguments")), name=str_or_none(fn.get("name")), call_id=str_or_none(call_id),
                raw=raw)


def _chat_message(m: Any, i: int, p: list[str]) -> Message:
    """Element ``i`` of an OpenAI Chat ``messages`` list."""
    msg = _message(m, i, p, _CHAT_KEYS)
    if isinstance(m, dict):
        _mark_late_system(msg)
    return msg


_KERNEL_KEYS = _MessageKeys(_kernel_parts, "reasoningContent", "toolCalls", "toolCallId", lambda call: call)
_CHAT_KEYS = _MessageKeys(_chat_parts, "reasoning_content", "tool_calls", "tool_call_id", lambda call: call.get("function"))


def chat_message_alone(element: Any) -> Message:
    """One OpenAI Chat message element read on its own, as :func:`from_provider_body` reads it
    at index 1 of a list that does not fold it into the system prompt (behind a user message)."""
    msg = _chat_message(element, 1, [])
    _message_breakpoints(msg)
    return msg


def _chat(body: dict, req: NormalisedRequest) -> None:
    p = req.problems
    msgs = [_chat_message(m, i, p) for i, m in enumerate(_list(body.get("messages"), "messages", p))]
    _fold_leading_system(req, msgs, split_first=True, first_source=SRC_SYSTEM_MESSAGE)
    for i, t in enumerate(_list(body.get("tools"), "tools", p)):
        fn = t.get("function") if isinstance(t, dict) else None
        if isinstance(fn, dict):
            req.tools.append(Tool(_text_of(fn.get("name")), _text_of(fn.get("description")), fn.get("parameters"), t))
        elif isinstance(t, dict):
            req.tools.append(Tool(_text_of(t.get("name") or t.get("type")), _text_of(t.get("description")), t.get("parameters"), t))
        else:
            p.append(f"tools[{i}] is not an object")


# --- OpenAI Responses -------------------------------------------------------------------------


def _responses(body: dict, req: NormalisedRequest) -> None:
    p = req.problems
    instructions = body.get("instructions")
    if isinstance(instructions, str):
        if instructions:
            req.system.extend(_split_system(instructions, source=SRC_INSTRUCTIONS, origin_index=None, raw=instructions))
    elif instructions is not None:
        p.append("instructions is not text")
    raw_input = body.get("input")
    items = [raw_input] if isinstance(raw_input, str) else _list(raw_input, "input", p)
    msgs: list[Message] = []
    for i, item in enumerate(items):
        where = f"input[{i}]"
        if isinstance(item, str):
            msgs.append(Message("user", [_text_part(item, item)], i, raw=item, wire_role=None))
            continue
        if not isinstance(item, dict):
            p.append(f"{where} is not an object")
            msgs.append(Message("user", [_other(item)], i, raw=item))
            continue
        kind = item.get("type")
        if kind == "function_call":
            msgs.append(Message("assistant", [_function_call(item, item.get("call_id"), item)], i, raw=item,
                                wire_role=None))
        elif kind == "function_call_output":
            part = Part(kind=TOOL_RESULT, text=_text_of(item.get("output")), call_id=str_or_none(item.get("call_id")), raw=item)
            msgs.append(Message("tool", [part], i, raw=item, wire_role=None))
        elif kind == "reasoning":
            summary = item.get("summary")
            texts = [s.get("text") for s in summary if isinstance(s, dict)] if isinstance(summary, list) else []
            part = Part(kind=THINKING, text="\n".join(t for t in texts if isinstance(t, str)), raw=item)
            msgs.append(Message("assistant", [part], i, raw=item, wire_role=None))
        elif kind in (None, "message") and "role" in item:
            role, wire_role = _role(item.get("role"), p, where)
            msg = Message(role, _chat_parts(item.get("content"), p, where), i, raw=item, wire_role=wire_role)
            _mark_late_system(msg)
            msgs.append(msg)
        else:
            msgs.append(Message("user", [_other(item)], i, raw=item, wire_role=None))
    # Leading system items in ``input`` are kept as separate system blocks after ``instructions``.
    count = 0
    for msg in msgs:
        if msg.role != "system" or msg.late_system:
            break
        req.system.append(SystemBlock(msg.text, source=SRC_SYSTEM_MESSAGE, origin_index=msg.index, raw=msg.raw))
        count += 1
    req.system_message_count = count
    req.messages.extend(msgs[count:])
    for i, t in enumerate(_list(body.get("tools"), "tools", p)):
        if not isinstance(t, dict):
            p.append(f"tools[{i}] is not an object")
            continue
        name = t.get("name") if t.get("name") is not None else t.get("type")
        req.tools.append(Tool(_text_of(name), _text_of(t.get("description")), t.get("parameters"), t))


# --- Anthropic Messages -----------------------------------------------------------------------


def _anthropic_image(block: dict) -> Part:
    src = block.get("source")
    if not isinstance(src, dict):
        return _other(block)
    media = str_or_none(src.get("media_type"))
    if src.get("type") == "url":
        part = _image_part(src.get("url"), media, block)
    elif src.get("type") == "base64":
        data = src.get("data")
        if isinstance(data, str) and _IMAGE_OMITTED.match(data):
            part = Part(kind=IMAGE_NOTE, text=data, media_type=media, raw=block)
        else:
            n = len(data) if isinstance(data, str) else 0
            part = Part(kind=IMAGE, text=f"base64 image ({n} characters)", media_type=media, raw=block)
    else:
        part = _image_part(src.get("url") or src.get("data"), media, block)
    part.cache_control = _has_cache_control(block)
    return part


def _anthropic_parts(content: Any, problems: list[str], where: str) -> list[Part]:
    simple = _simple_content(content, problems, where, "blocks")
    if simple is not None:
        return simple
    parts: list[Part] = []
    for block in content:
        if not isinstance(block, dict):
            problems.append(f"{where}.content has a block that is not an object")
            parts.append(_other(block))
            continue
        kind = block.get("type")
        cc = _has_cache_control(block)
        if kind == "text":
            parts.append(_text_part(_text_of(block.get("text")), block, cc))
        elif kind == "image":
            parts.append(_anthropic_image(block))
        elif kind == "tool_use":
            parts.append(
                Part(
                    kind=TOOL_CALL,
                    text=sorted_json_text(block.get("input")),
                    name=str_or_none(block.get("name")),
                    call_id=str_or_none(block.get("id")),
                    cache_control=cc,
                    raw=block,
                )
            )
        elif kind == "tool_result":
            inner = block.get("content")
            if isinstance(inner, list):
                text = "\n".join(
                    _text_of(b.get("text")) if isinstance(b, dict) and b.get("type") == "text" else sorted_json_text(b)
                    for b in inner
                )
            else:
                text = _text_of(inner)
            parts.append(Part(kind=TOOL_RESULT, text=text, call_id=str_or_none(block.get("tool_use_id")), cache_control=cc, raw=block))
        elif kind == "thinking":
            parts.append(Part(kind=THINKING, text=_text_of(block.get("thinking")), raw=block))
        elif kind == "redacted_thinking":
            parts.append(Part(kind=THINKING, text="(redacted thinking)", raw=block))
        else:
            parts.append(_other(block))
    return parts


def _anthropic(body: dict, req: NormalisedRequest) -> None:
    p = req.problems
    system = body.get("system")
    if isinstance(system, str):
        if system:
            req.system.extend(_split_system(system, source=SRC_SYSTEM_STRING, origin_index=None, raw=system))
    elif isinstance(system, list):
        for i, block in enumerate(system):
            if isinstance(block, dict) and isinstance(block.get("text"), str):
                cc = _has_cache_control(block)
                req.system.extend(
                    _split_system(block["text"], source=SRC_SYSTEM_BLOCK, origin_index=i, raw=block, cache_control=cc)
                )
            else:
                p.append(f"system[{i}] is not a text block")
                req.system.append(SystemBlock(sorted_json_text(block), source=SRC_SYSTEM_BLOCK, origin_index=i, raw=block))
    elif system is not None:
        p.append("system is neither text nor a list of blocks")
    for i, m in enumerate(_list(body.get("messages"), "messages", p)):
        where = f"messages[{i}]"
        if not isinstance(m, dict):
            p.append(f"{where} is not an object")
            req.messages.append(Message("user", [_other(m)], i, raw=m))
            continue
        role, wire_role = _role(m.get("role"), p, where)
        parts = _anthropic_parts(m.get("content"), p, where)
        # Tool results travel as user messages on this wire; normalising them to ``tool`` makes
        # a tool loop look the same on every protocol (``wire_role`` keeps the original).
        if role == "user" and parts and all(x.kind == TOOL_RESULT for x in parts):
            role = "tool"
        msg = Message(role, parts, i, raw=m, wire_role=wire_role)
        _mark_late_system(msg)
        req.messages.append(msg)
    for i, t in enumerate(_list(body.get("tools"), "tools", p)):
        if not isinstance(t, dict):
            p.append(f"tools[{i}] is not an object")
            continue
        name = t.get("name") if t.get("name") is not None else t.get("type")
        req.tools.append(Tool(_text_of(name), _text_of(t.get("description")), t.get("input_schema"), t))


# --- Gemini -----------------------------------------------------------------------------------


def _gemini_part(block: Any) -> Part:
    if not isinstance(block, dict):
        return _other(block)
    if "text" in block:
        text = _text_of(block.get("text"))
        if block.get("thought") is True:
            return Part(kind=THINKING, text=text, raw=block)
        return _text_part(text, block)
    inline = block.get("inlineData")
    if isinstance(inline, dict):
        data = inline.get("data")
        mime = str_or_none(inline.get("mimeType"))
        if isinstance(data, str) and _IMAGE_OMITTED.match(data):
            return Part(kind=IMAGE_NOTE, text=data, media_type=mime, raw=block)
        n = len(data) if isinstance(data, str) else 0
        return Part(kind=IMAGE, text=f"base64 image ({n} characters)", media_type=mime, raw=block)
    file_data = block.get("fileData")
    if isinstance(file_data, dict):
        return _image_part(file_data.get("fileUri"), str_or_none(file_data.get("mimeType")), block)
    call = block.get("functionCall")
    if isinstance(call, dict):
        return Part(kind=TOOL_CALL, text=sorted_json_text(call.get("args")), name=str_or_none(call.get("name")), call_id=str_or_none(call.get("id")), raw=block)
    resp = block.get("functionResponse")
    if isinstance(resp, dict):
        return Part(kind=TOOL_RESULT, text=sorted_json_text(resp.get("response")), name=str_or_none(resp.get("name")), call_id=str_or_none(resp.get("id")), raw=block)
    return _other(block)


def _gemini_groups(parts: list[Part]) -> list[tuple[int, list[Part], bool]]:
    """Split a merged content back into messages: ``(first part index, parts, wrapped)``.

    The adapter merges consecutive same-role messages, so a boundary is guessed at every text
    part that follows another text part, and every wrapped instruction stands alone. Media,
    thought and function parts stay with the text they follow, which keeps a pictures message
    (caption + images) together.
    """
    groups: list[tuple[int, list[Part], bool]] = []
    current: list[Part] = []
    start = 0
    has_text = False
    for i, part in enumerate(parts):
        wrapped = (
            part.kind == TEXT
            and len(part.text) >= len(_OPEN) + len(_CLOSE)
            and part.text.startswith(_OPEN)
            and part.text.endswith(_CLOSE)
        )
        if wrapped:
            if current:
                groups.append((start, current, False))
            groups.append((i, [part], True))
            current, has_text, start = [], False, i + 1
            continue
        if part.kind == TEXT and has_text:
            groups.append((start, current, False))
            current, has_text, start = [], False, i
        current.append(part)
        has_text = has_text or part.kind == TEXT
    if current:
        groups.append((start, current, False))
    return groups


def _gemini(body: dict, req: NormalisedRequest) -> None:
    p = req.problems
    si = body.get("systemInstruction")
    if isinstance(si, str):
        req.system.extend(_split_system(si, source=SRC_SYSTEM_INSTRUCTION, origin_index=0, raw=si))
    elif isinstance(si, dict):
        for i, part in enumerate(_list(si.get("parts"), "systemInstruction.parts", p)):
            if isinstance(part, dict) and isinstance(part.get("text"), str):
                req.system.extend(_split_system(part["text"], source=SRC_SYSTEM_INSTRUCTION, origin_index=i, raw=part))
            else:
                p.append(f"systemInstruction.parts[{i}] is not a text part")
    elif si is not None:
        p.append("systemInstruction is not an object")
    for i, c in enumerate(_list(body.get("contents"), "contents", p)):
        where = f"contents[{i}]"
        if not isinstance(c, dict):
            p.append(f"{where} is not an object")
            req.messages.append(Message("user", [_other(c)], i, raw=c))
            continue
        role, wire_role = _role(c.get("role", "user"), p, where)
        parts = [_gemini_part(b) for b in _list(c.get("parts"), f"{where}.parts", p)]
        if role == "user" and parts and all(x.kind == TOOL_RESULT for x in parts):
            role = "tool"
        if not parts:
            req.messages.append(Message(role, [], i, raw=c, wire_role=wire_role))
            continue
        for offset, group, wrapped in _gemini_groups(parts):
            msg = Message(role, group, i, raw=c, wire_role=wire_role, part_offset=offset)
            if wrapped and role == "user":
                msg.late_system = True
                msg.wrap = WRAP_STRING
            req.messages.append(msg)
    for i, t in enumerate(_list(body.get("tools"), "tools", p)):
        decls = t.get("functionDeclarations") if isinstance(t, dict) else None
        if not isinstance(decls, list):
            if isinstance(t, dict):
                req.tools.append(Tool(next(iter(t), ""), "", None, t))
            else:
                p.append(f"tools[{i}] is not an object")
            continue
        for d in decls:
            if not isinstance(d, dict):
                p.append(f"tools[{i}].functionDeclarations has an entry that is not an object")
                continue
            params = d.get("parametersJsonSchema", d.get("parameters"))
            req.tools.append(Tool(_text_of(d.get("name")), _text_of(d.get("description")), params, d))


# --- provider bodies --------------------------------------------------------------------------

_READERS = {
    OPENAI_CHAT: _chat,
    OPENAI_RESPONSES: _responses,
    ANTHROPIC_MESSAGES: _anthropic,
    GOOGLE_GENERATIVE_AI: _gemini,
}


def detect_protocol(body: Any) -> str | None:
    """Guess the wire from the body's shape, for records whose protocol is missing or unknown."""
    if not isinstance(body, dict):
        return None
    if "contents" in body or "systemInstruction" in body:
        return GOOGLE_GENERATIVE_AI
    if "system" in body:
        return ANTHROPIC_MESSAGES
    messages = body.get("messages")
    if isinstance(messages, list):
        for m in messages:
            content = m.get("content") if isinstance(m, dict) else None
            if isinstance(content, list) and any(
                isinstance(b, dict) and b.get("type") in ("tool_use", "tool_result") for b in content
            ):
                return ANTHROPIC_MESSAGES
    if "input" in body or "instructions" in body:
        return OPENAI_RESPONSES
    if "messages" in body:
        return OPENAI_CHAT
    return None


def from_provider_body(body: Any, protocol: str | None) -> NormalisedRequest:
    """A recorded ``providerRequests[].body`` (covel-db.md §2.3) for any of the four wires."""
    declared = protocol if isinstance(protocol, str) else None
    chosen = declared if declared in _READERS else detect_protocol(body)
    req = NormalisedRequest(
        source="provider",
        protocol=chosen,
        model=None,
        declared_protocol=declared,
        protocol_detected=chosen is not None and chosen != declared,
    )
    if not isinstance(body, dict):
        req.problems.append("body is not an object")
        return req
    req.model = str_or_none(body.get("model"))
    if chosen is None:
        req.problems.append(f"protocol {declared!r} unknown and not recognisable from the body")
        req.sampling = {k: v for k, v in body.items() if k != "model"}
        return req
    _READERS[chosen](body, req)
    consumed = _CONSUMED[chosen]
    req.sampling = {k: v for k, v in body.items() if k not in consumed}
    _collect_breakpoints(req)
    return req


# --- providerRequests -------------------------------------------------------------------------


def _bad_ref(ref: int, n: int) -> str:
    return f"bodyRef {ref} points nowhere (only {n} entries)"


_BACKWARD_ONLY = "bodyRef must point backwards to an entry with a body"


def _has_own_body(entry: Any) -> bool:
    return (
        isinstance(entry, dict)
        and int_refusing_float(entry.get("schemaVersion")) in (None, 1)
        and isinstance(entry.get("body"), dict)
    )


def provider_attempts(payload: Any) -> list[ProviderAttempt]:
    """Every ``providerRequests`` entry, v2 ``bodyRef`` duplicates resolved (covel-db.md §2.3).

    A bad reference leaves ``body`` None with ``body_error`` set. A v2 entry that omits
    ``complete``/``omittedFieldCount``/``provider``/``protocol`` inherits them from the entry it
    points at, since they describe the shared body.
    """
    if not isinstance(payload, dict):
        return []
    entries = payload.get("providerRequests")
    if not isinstance(entries, list):
        return []
    n = len(entries)
    out: list[ProviderAttempt] = []
    for i, e in enumerate(entries):
        if not isinstance(e, dict):
            out.append(
                ProviderAttempt(i, None, None, None, None, None, "entry is not an object",
                                None, None, None, None, None, None, None, None, False, raw=e)
            )
            continue
        version = int_refusing_float(e.get("schemaVersion"))
        body: dict | None = None
        body_ref: int | None = None
        error: str | None = None
        inherit: dict = {}
        if version == 2:
            ref = e.get("bodyRef")
            body_ref = int_refusing_float(ref)
            if body_ref is None:
                error = "bodyRef missing or not an integer"
            elif body_ref < 0 or body_ref >= n:
                error = _bad_ref(body_ref, n)
            elif body_ref >= i or not _has_own_body(entries[body_ref]):
                error = _BACKWARD_ONLY
            else:
                inherit = entries[body_ref]
                body = inherit["body"]
        elif version in (None, 1):
            raw_body = e.get("body")
            if isinstance(raw_body, dict):
                body = raw_body
            else:
                error = "body missing" if raw_body is None else "body is not an object"
        else:
            raw_body = e.get("body")
            body = raw_body if isinstance(raw_body, dict) else None
            error = None if body is not None else f"unknown schemaVersion {e.get('schemaVersion')!r}"

        def pick(key: str) -> Any:
            return e[key] if key in e else inherit.get(key)

        complete = bool_or_none(pick("complete"))
        retry = str_or_none(e.get("transportRetryReason"))
        out.append(
            ProviderAttempt(
                index=i,
                schema_version=version,
                provider=str_or_none(pick("provider")),
                protocol=str_or_none(pick("protocol")),
                body=body,
                body_ref=body_ref,
                body_error=error,
                complete=complete,
                omitted_field_count=int_refusing_float(pick("omittedFieldCount")),
                started_at=str_or_none(e.get("startedAt")),
                duration_ms=number_or_none(e.get("durationMs")),
                transport_attempt=int_refusing_float(e.get("transportAttempt")),
                logical_attempt=int_refusing_float(e.get("logicalAttempt")),
                retry_reason=retry,
                status_code=int_refusing_float(e.get("statusCode")),
                failed=e.get("failed") is True,
                raw=e,
            )
        )
    return out


def request_for(payload: Any) -> tuple[NormalisedRequest, list[ProviderAttempt]]:
    """What the model saw: the first attempt with a resolved body, else the kernel messages.

    A body without any prompt field (a Gemini body whose ``contents`` an old allow-list dropped)
    would show an empty prompt, so the kernel view is used then, with a note in ``problems``.
    """
    attempts = provider_attempts(payload)
    for attempt in attempts:
        if attempt.body is None:
            continue
        if not any(k in attempt.body for k in PROMPT_FIELDS):
            req = from_kernel(payload)
            req.problems.append(
                f"provider body of attempt {attempt.index} holds no prompt fields; showing the kernel view"
            )
            return req, attempts
        req = from_provider_body(attempt.body, attempt.protocol)
        req.complete = attempt.complete
        req.omitted_field_count = attempt.omitted_field_count
        if req.model is None and isinstance(payload, dict):
            req.model = str_or_none(payload.get("model"))
        return req, attempts
    return from_kernel(payload), attempts
