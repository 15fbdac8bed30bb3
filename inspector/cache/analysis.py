"""Prompt-cache analysis: where each request stops repeating the one before, why, and what the
provider will cache.

For every runtime of a session it pairs each turn's first request with the previous turn's, and
each later call of a turn (tool-loop step or retry) with the call before it. Per pair it measures
the shared prefix in the order providers hash a request (tools, request settings, system,
messages) in UTF-16 units and in tokens, names the first difference as an anatomy part,
predicts the cached tokens under the provider's rules (:mod:`inspector.cache.rules`), puts the
reported cached tokens beside them, gives the reason the cached prefix ends where it does, and
prices what was not cached. After the last pair it runs Covel's layout checks.

Speed is the design constraint: a 1,000-turn session holds about half a gigabyte of payloads,
and almost all of it repeats from one request to the next. So a payload is read only as far as
the provider body (the kernel copy that follows it is skipped); the leading messages whose bytes
recur from the runtime's previous request are taken as they were, without parsing, and a later
message whose bytes were seen before is known by them; what is new is interned by content (equal
parts are the same object, compared by identity); anatomy facts and names are computed once per
distinct part, and tokens once per distinct line of text (see ``_segments``). The anatomy's
message-bag rules (:class:`inspector.anatomy.labelling.BagLayout`) run over the per-message facts cached on
the parts instead of labelling every request in full, and classify only the messages the
analysis asks about; the full labeller is still used for the part that differs when it needs one.

Results are delivered progressively: :meth:`SessionCacheAnalyser.pairs` is a generator that
yields each pair as soon as its turn of that runtime is complete and the batch of requests that
completed it has been read (batches grow from two requests to ``_READ_AHEAD``).
"""

from __future__ import annotations

import bisect
import contextlib
import dataclasses
import functools
import hashlib
import operator
import queue
import re
import threading
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import numpy as np
import orjson

from inspector.prefix import extended as naming
from inspector.prefix.report import CONTEXT_AFTER, CONTEXT_BEFORE  # the text around a difference, as Covel's report shows it
from inspector.anatomy.labelling import (
    BAG_LABELS,
    SINGLE_MESSAGE_BAGS,
    Anatomy,
    BagLayout,
    MessageFacts,
    label_request,
    leading_system_kind,
    leading_system_kinds,
)
from inspector.cache.rules import CacheRules, RuleSet, default_rules
from inspector.collector import fewer_collections
from inspector.jsjson import utf16_len
from inspector.json_deep import NESTED_TOO_DEEP, json_key as _json_key, json_text as _json_text
from inspector.store import Store, TokenUsage, TraceEvent, parse_json_object
from inspector.store.values import int_or_none
from inspector.tokens import encode_many, encoding_for_model, get_encoding
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
    THINKING,
    TOOL_CALL,
    TOOL_RESULT,
    TEXT,
    Message,
    NormalisedRequest,
)
from inspector.wire.parse import (
    chat_message_alone,
    detect_protocol,
    from_kernel,
    from_provider_body,
    provider_attempts,
    request_for,
)
from inspector.wire.protocols import ANTHROPIC_MESSAGES, GOOGLE_GENERATIVE_AI, OPENAI_CHAT, OPENAI_RESPONSES

__all__ = [
    "FINDING_KINDS",
    "KINDS",
    "REASONS",
    "REGIONS",
    "CacheAnalysis",
    "CachePair",
    "Finding",
    "RuntimeSummary",
    "SessionCacheAnalyser",
    "analyse_session",
    "analyse_store",
    "iter_cache_pairs",
]

KINDS = ("turn", "tool-loop")
REASONS = (
    "cold-start",
    "expired",
    "model-changed",
    "tools-changed",
    "system-changed",
    "history-rewritten",
    "turn-context",
    "below-minimum",
    "unexplained",
)
# Where the first difference lies, in hash order; "end" when one request is a prefix of the other.
REGIONS = ("tools", "settings", "system", "history", "turn-context", "end")
_AREAS = ("tools", "settings", "system", "messages", "end")
FINDING_KINDS = (
    "turn-volatile-system-text",
    "too-many-breakpoints",
    "breakpoint-on-volatile-content",
    "data-blocks-last",
    "sliding-history-window",
    "moving-history-insertion",
)

# Body fields that change what a provider hashes before the system prompt: the tool choice and
# structured-output schemas ("hits need an exact prefix match including ... tools and
# structured-output schemas", provider-caching.md §3.2).
_SETTINGS_FIELDS = ("tool_choice", "response_format", "text")
# Anthropic keeps separate caches for tools, system and messages: a change of these request fields
# drops the messages cache only (provider-caching §3.1), so they are not a part of the prefix there
# but a gate in front of the messages (_Call.messages_gate).
_ANTHROPIC_MESSAGE_GATES = ("tool_choice", "thinking")
_PROMPT_FIELDS = ("messages", "input", "instructions", "system", "contents", "systemInstruction")
# A layout check fires when its pattern shows in at least this many turns and in at least half of
# the runtime's turn pairs: one prompt edit is not a layout problem, a change every turn is.
_FINDING_MIN_TURNS = 2
_FINDING_MIN_SHARE = 0.5
# Requests read before their tokens are counted and their pairs made, at most.
_READ_AHEAD = 256


# =============================================================================================
# Reading a payload: only as far as the provider body
# =============================================================================================


class _Unreadable(ValueError):
    """A payload the analysis cannot use (not JSON, no request in it)."""


_PR_PREFIX = b'{"providerRequests":['
_BODY_KEY = b'"body":'
# Covel writes the entry keys in a fixed order (covel-db.md §2.2-2.3): ``body`` is followed by
# ``complete``, and the top-level ``messages`` (the kernel copy) follows the scalars the analysis
# needs. These markers are only guesses of where to cut; each cut slice is parsed, and a guess
# that lands anywhere but at the intended depth makes the parse fail (a quote inside a string is
# escaped, so a marker cannot lie inside a string, and a nested one leaves brackets unbalanced).
_AFTER_BODY = b',"complete":'
# What usually follows the body, longer: a longer needle is found with longer skips.
_AFTER_COMPLETE_BODY = b',"complete":true,"omittedFieldCount":'
_KERNEL_MESSAGES = b',"messages":'


@dataclass(slots=True)
class _Decoded:
    body: dict | None  # the parsed provider body (None while only its bytes are known)
    protocol: str | None
    provider: str | None
    model: str | None
    runtime_id: str | None
    attempt: int
    started_at: str | None
    kernel_messages: list | None = None
    kernel_tools: list | None = None
    raw_body: bytes | None = None  # the provider body's bytes, as Covel wrote them
    raw: Any = None  # the whole payload, for the full parser when the bytes do not suffice
    body_span: tuple[int, int] | None = None  # where raw_body lies in raw (read by _fast_decode)

    def hint(self) -> tuple | None:
        """What _fast_decode found, for the worker process to take instead of reading the payload's
        head again (_decoded_from_hint); None when the payload was not read that way."""
        if self.body_span is None or self.raw_body is None:
            return None
        return (len(self.raw), *self.body_span, self.protocol, self.provider, self.model, self.runtime_id,
                self.attempt, self.started_at)


def _decoded_from_hint(raw: Any, hint: tuple | None) -> _Decoded:
    """``decode_payload(raw)``, taking what the app's side found in the same row (_Decoded.hint):
    a trace row is written once, so the same bytes decode the same. Decoded again when the hint
    does not fit them."""
    if hint is None or type(raw) is not bytes or len(raw) != hint[0]:
        return decode_payload(raw)
    _, start, end, protocol, provider, model, runtime_id, attempt, started_at = hint
    return _Decoded(None, protocol, provider, model, runtime_id, attempt, started_at, raw_body=raw[start:end],
                    raw=raw, body_span=(start, end))


# The marker's one upper-case letter, rare in a body: a byte is searched for with memchr, about
# twice as fast over a body as searching for the whole marker.
_RARE_AT = _AFTER_COMPLETE_BODY.index(b"F")
_RARE = _AFTER_COMPLETE_BODY[_RARE_AT : _RARE_AT + 1]


def _find_after_complete_body(raw: bytes, start: int) -> int:
    """``raw.find(_AFTER_COMPLETE_BODY, start)``, by the marker's rare letter."""
    at = raw.find(_RARE, start + _RARE_AT)
    misses = 0
    while at >= 0:
        if raw.startswith(_AFTER_COMPLETE_BODY, at - _RARE_AT):
            return at - _RARE_AT
        misses += 1
        if misses > 16:  # a body full of the letter: the plain search from here
            return raw.find(_AFTER_COMPLETE_BODY, at - _RARE_AT + 1)
        at = raw.find(_RARE, at + 1)
    return -1


_TOP_SCALARS = ("runtimeId", "model", "provider", "attempt", "startedAt")
_KEY_NEEDLES = {k: b',"' + k.encode() + b'":' for k in _TOP_SCALARS}


def _fast_decode(raw: bytes) -> _Decoded | None:
    """The provider body and the few scalars the analysis needs, without parsing the kernel copy
    of the messages that makes up the other half of a payload. None when the payload is not laid
    out the way Covel writes it; the caller then parses it whole."""
    if not raw.startswith(_PR_PREFIX):
        return None
    start = len(_PR_PREFIX)
    b = raw.find(_BODY_KEY, start, start + 4096)
    if b < 0:
        return None
    try:
        head = orjson.loads(raw[start:b] + b'"_":0}')
        vpos = b + len(_BODY_KEY)
        # The cut is verified like any other: the slices around it must parse (see above).
        e = _find_after_complete_body(raw, vpos)
        if e < 0:
            e = raw.find(_AFTER_BODY, vpos)
        if e < 0 or not isinstance(head, dict) or head.get("schemaVersion") not in (None, 1):
            return None
        if raw[vpos] != 0x7B:
            return None
        m = raw.find(_KERNEL_MESSAGES, e)
        if m < 0:
            return None
        mid = orjson.loads(b'{"_":[{"_":0' + raw[e:m] + b"}")
        if not isinstance(mid, dict):
            return None
        found = {k: mid[k] for k in _TOP_SCALARS if k in mid}
        missing = [k for k in _TOP_SCALARS if k not in found]
        if missing:
            # attempt and startedAt follow the kernel copy: the last occurrence of such a key is
            # the top-level one when everything from it to the end parses as one object's members.
            starts = [s for s in (raw.rfind(_KEY_NEEDLES[k]) for k in missing) if s > m]
            if starts:
                tail = orjson.loads(b"{" + raw[min(starts) + 1 :])
                if not isinstance(tail, dict):
                    return None
                found.update((k, tail[k]) for k in missing if k in tail)
    except orjson.JSONDecodeError:
        return None
    provider = found.get("provider")
    if not isinstance(provider, str):
        provider = head.get("provider") if isinstance(head.get("provider"), str) else None
    decoded = _make_decoded(None, head.get("protocol"), provider, found)
    decoded.raw_body = raw[vpos:e]
    decoded.raw = raw
    decoded.body_span = (vpos, e)
    return decoded


def _make_decoded(body: dict | None, protocol: Any, provider: str | None, fields: dict) -> _Decoded:
    declared = protocol if isinstance(protocol, str) else None
    chosen = declared if declared in (OPENAI_CHAT, OPENAI_RESPONSES, ANTHROPIC_MESSAGES, GOOGLE_GENERATIVE_AI) else None
    if body is not None and chosen is None:
        chosen = detect_protocol(body)
    elif body is None and declared is not None and chosen is None:
        chosen = declared
    model = fields.get("model")
    if not isinstance(model, str):
        model = body.get("model") if body is not None and isinstance(body.get("model"), str) else None
    attempt = fields.get("attempt")
    runtime = fields.get("runtimeId")
    started = fields.get("startedAt")
    return _Decoded(
        body=body,
        protocol=chosen,
        provider=provider,
        model=model,
        runtime_id=runtime if isinstance(runtime, str) else None,
        attempt=attempt if isinstance(attempt, int) and not isinstance(attempt, bool) else 0,
        started_at=started if isinstance(started, str) else None,
    )


def _full_decode(raw: Any) -> _Decoded:
    """Any payload the store can read, the way ``request_for`` reads it."""
    payload, error = parse_json_object(raw, merge_data=True)
    if error is not None:
        raise _Unreadable(error)
    provider = payload.get("provider") if isinstance(payload.get("provider"), str) else None
    for attempt in provider_attempts(payload):
        if attempt.body is None:
            continue
        if provider is None and attempt.provider is not None:
            provider = attempt.provider
        if any(k in attempt.body for k in _PROMPT_FIELDS):
            return _make_decoded(attempt.body, attempt.protocol, provider, payload)
        break
    decoded = _make_decoded(None, None, provider, payload)
    messages = payload.get("messages")
    tools = payload.get("tools")
    if not isinstance(messages, list):
        raise _Unreadable("the request has no provider body and no messages list")
    decoded.kernel_messages = messages
    decoded.kernel_tools = tools if isinstance(tools, list) else []
    return decoded


def decode_payload(raw: Any) -> _Decoded:
    if isinstance(raw, memoryview):
        raw = bytes(raw)
    if isinstance(raw, str):
        raw_bytes = raw.encode("utf-8", "surrogatepass")
    else:
        raw_bytes = raw
    if isinstance(raw_bytes, (bytes, bytearray)):
        fast = _fast_decode(bytes(raw_bytes))
        if fast is not None:
            return fast
    return _full_decode(raw)


# =============================================================================================
# Parts: the units of comparison, interned by content
# =============================================================================================


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
                pieces = _tokenize_segments(self.text, encoding, {})
            found = pieces[0] if len(pieces) == 1 else np.concatenate(pieces) if pieces else _NO_TOKENS
            self.tokens[encoding] = found
        return found

    def token_count(self, encoding: str, image_tokens: int) -> int:
        """Tokens under ``encoding`` (once a _TokenJob has counted them), images included."""
        n = self.counts[encoding]
        return n + self.images * image_tokens if self.images else n


_NO_TOKENS = np.zeros(0, dtype=np.uint32)
# tiktoken's pre-tokenizer (the o200k_base and cl100k_base split patterns) ends a piece at a line
# break followed by a character that is neither white space nor "/": no alternative of either
# pattern matches across such a point, and none looks behind. BPE never merges across pieces, so
# the tokens of a text are the tokens of its segments cut there, joined. Long texts that differ
# from one request to the next (turn contexts, memory blocks, narration) share most of their
# lines, which are then tokenized once. Python's ``\s`` covers every character the tokenizer's
# ``\s`` (Unicode White_Space) does, so this cuts at no point where a piece could continue. The
# pattern matches the line break itself, not the empty point after it: a pattern that starts with
# a literal character is searched for, while an empty one is tried at every character.
_SEGMENT_BREAK = re.compile(r"\n(?=[^\s/])")


def _segments(text: str) -> list[str] | tuple[str, ...]:
    """``text`` cut after each line break where a segment starts (_SEGMENT_BREAK)."""
    if not text:
        return ()
    if "\n" not in text:
        return (text,)
    pieces = _SEGMENT_BREAK.split(text)
    last = pieces.pop()
    out = [piece + "\n" for piece in pieces]
    out.append(last)
    return out


def _tokenize_segments(text: str, encoding: str, cache: dict[str, np.ndarray]) -> list[np.ndarray]:
    """The token ids of ``text``'s segments, each looked up in (or added to) ``cache``."""
    return _segment_ids(_segments(text), encoding, cache)


def _segment_ids(segments: Iterable[str], encoding: str, cache: dict[str, np.ndarray]) -> list[np.ndarray]:
    """The token ids of each segment, looked up in ``cache``; one missing is tokenized and added."""
    out = []
    for segment in segments:
        ids = cache.get(segment)
        if ids is None:
            ids = cache.setdefault(segment, np.array(get_encoding(encoding).encode_ordinary(segment), dtype=np.uint32))
        out.append(ids)
    return out


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


def _message_text(msgs: list[Message]) -> tuple[str, int]:
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


class _PartTable:
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
        # (protocol, an element's JSON bytes as recorded) -> its _Elem: an element that recurs
        # anywhere in a later request is known by its bytes, without keying and interning it again
        self.elements: dict[tuple[str | None, bytes], _Elem] = {}
        # encoding -> text segment -> token ids (see _segments)
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

    def element(self, protocol: str | None, raw: bytes, el: Any) -> _Elem:
        key = (protocol, raw)
        found = self.elements.get(key)
        if found is None:
            found = self.elements.setdefault(key, _elem(el, protocol, self))
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


_PARTS = _PartTable()


class _Worker:
    """One daemon thread that runs the calls given to it in order. A ThreadPoolExecutor's
    threads are joined when the interpreter exits, so quitting the app would wait for a long
    tokenization (a 50 MB message takes about 20 s) nobody needs any more."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._calls: queue.SimpleQueue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def submit(self, call: Callable[[], Any]) -> Future:
        future: Future = Future()
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                self._thread.start()
        self._calls.put((future, call))
        return future

    def _run(self) -> None:
        while True:
            future, call = self._calls.get()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(call())
            except BaseException as exc:  # handed to whoever waits for the result
                future.set_exception(exc)


# One thread tokenizes for every analysis (see SessionCacheAnalyser._consume).
_TOKENIZER = _Worker("cache-tokenizer")

_dumps = orjson.dumps
_SORTED = orjson.OPT_SORT_KEYS


def _strip_cache_control(value: Any) -> tuple[Any, list[str | None]]:
    """``value`` without Anthropic ``cache_control`` markers (they are not content), and the TTL
    option of each marker removed, in order."""
    if isinstance(value, dict) and "cache_control" in value:
        cc = value["cache_control"]
        ttl = cc.get("ttl") if isinstance(cc, dict) and isinstance(cc.get("ttl"), str) else None
        return {k: v for k, v in value.items() if k != "cache_control"}, ([ttl] if cc not in (None, False) else [])
    return value, []


def _message_part(el: Any, protocol: str | None, table: _PartTable) -> tuple[Part, list[str | None]]:
    """A message element as a Part, and the cache_control markers it carried (Anthropic)."""
    marks: list[str | None] = []
    if type(el) is dict:
        content = el.get("content")
        if protocol == ANTHROPIC_MESSAGES and type(content) is list:
            blocks = []
            for block in content:
                clean, found = _strip_cache_control(block)
                marks.extend(found)
                blocks.append(clean)
            if marks:
                el = {**el, "content": blocks}
            # A one-text-block content and the same text as a string are the same tokens.
            if len(blocks) == 1 and isinstance(blocks[0], dict) and blocks[0].get("type") == "text" \
                    and isinstance(blocks[0].get("text"), str) and len(blocks[0]) == 2:
                el = {**el, "content": blocks[0]["text"]}
                content = el["content"]
        if type(content) is str and len(el) == 2 and type(el.get("role")) is str:
            role = el["role"]
            key: tuple = ("c", role, content)
            part = table.parts.get(key)
            if part is None:
                part = table.get(key, lambda: Part(key, content, element={"role": role, "content": content},
                                                    protocol=protocol))
            return part, marks
    key = ("j", protocol, _json_key(el))

    def make() -> Part:
        msgs = _parse_element(el, protocol)
        text, images = _message_text(msgs)
        blocks = len(el["content"]) if isinstance(el, dict) and isinstance(el.get("content"), list) else 1
        part = Part(key, text, images=images, blocks=max(1, blocks), element=el, protocol=protocol)
        part._messages = msgs
        return part

    return table.get(key, make), marks


def _text_part(text: str, table: _PartTable) -> Part:
    key = ("s", text)
    return table.get(key, lambda: Part(key, text, kind="system-text"))


class _Elem:
    """One element of the request's message list: its part, its cache_control markers, and
    whether the wire readers would fold it into the system prompt when it leads."""

    __slots__ = ("part", "marks", "system_like")

    def __init__(self, part: Part, marks: list[str | None], system_like: bool) -> None:
        self.part = part
        self.marks = marks
        self.system_like = system_like


_LIST_KEYS = {
    OPENAI_CHAT: "messages",
    ANTHROPIC_MESSAGES: "messages",
    OPENAI_RESPONSES: "input",
    GOOGLE_GENERATIVE_AI: "contents",
}
# A key no provider body has, for the list while the rest of the body is parsed around it.
_REST_KEY = "\u0000list"
_REST_KEY_JSON = b'"\\u0000list"'


@dataclass(slots=True)
class _Body:
    """A provider body split into its message list and everything else (``rest``), with the
    byte span of each leading element whose span is known, when the body was read from bytes."""

    rest: dict
    elements: list[_Elem]
    parts: list[Part]  # the parts of ``elements``, in the same order
    data: bytes | None = None
    list_start: int = 0  # index just after the list's "["
    # end of each leading element whose bytes are known, relative to ``list_start``
    ends: list[int] = field(default_factory=list)
    rest_prefix: dict = field(default_factory=dict)  # the members before the list
    reused: int = 0  # leading elements taken as they were from the previous body
    suffix: int = 0  # length of the bytes from the list's "]" to the end, when known


def _system_like(el: Any, protocol: str | None) -> bool:
    if not isinstance(el, dict):
        return False
    role = el.get("role")
    if protocol is None:
        return role == "system"
    if protocol == OPENAI_RESPONSES:
        return role in ("system", "developer") and el.get("type") in (None, "message")
    return role in ("system", "developer")


def _elem(el: Any, protocol: str | None, table: _PartTable) -> _Elem:
    part, marks = _message_part(el, protocol, table)
    return _Elem(part, marks, _system_like(el, protocol))


def _same_elements(data: bytes, start: int, ref: _Body) -> int:
    """How many of the previous body's leading elements recur byte for byte at ``data[start:]``.

    Elements and their commas are contiguous in both bodies, so the elements that recur are those
    that end before the first byte where the two lists differ; one vectorised comparison finds it."""
    ends = ref.ends
    if not ends:
        return 0
    length = min(ends[-1], len(data) - start)
    if length <= 0:
        return 0
    was = np.frombuffer(ref.data, dtype=np.uint8, count=length, offset=ref.list_start)  # type: ignore[arg-type]
    now = np.frombuffer(data, dtype=np.uint8, count=length, offset=start)
    differs = was != now
    first = int(differs.argmax())
    if not differs[first]:
        first = length
    k = bisect.bisect_right(ends, first)
    # A recurring element ends where the previous one did (JSON values are prefix-free), but a
    # truncated or malformed body must not pass: check the delimiter that follows.
    while k and data[start + ends[k - 1] : start + ends[k - 1] + 1] not in (b",", b"]"):
        k -= 1
    return k


def _body_from_bytes(data: bytes, protocol: str | None, ref: _Body | None, table: _PartTable) -> _Body | None:
    """Read a body from its bytes, taking the leading elements that recur byte for byte from the
    previous request's body (a memcmp, no parse). When the members after the list are those of
    the previous body, the new elements are cut apart and known by their bytes (_cut_elements).
    What remains is parsed in one piece; such an element's end is recorded only when
    re-serialising it gives exactly the bytes found there. A recorded end is always a true
    element boundary."""
    list_key = _LIST_KEYS.get(protocol or "")
    if list_key is None:
        return None
    marker = b'"' + list_key.encode() + b'":['
    at = data.find(marker)
    if at < 0:
        return None
    list_start = at + len(marker)
    if ref is not None and ref.data is None:
        ref = None
    try:
        if ref is not None and ref.list_start == list_start and data.startswith(memoryview(ref.data)[:list_start]):  # type: ignore[index]
            prefix = ref.rest_prefix
        else:
            # The prefix closed as an object must parse: that proves the list key is top level.
            parsed = orjson.loads(data[:list_start] + b"]}")
            if not isinstance(parsed, dict):
                return None
            prefix = {k: v for k, v in parsed.items() if k != list_key}
        k = _same_elements(data, list_start, ref) if ref is not None else 0
        if k:
            elements = ref.elements[:k]  # type: ignore[union-attr]
            parts = ref.parts[:k]  # type: ignore[union-attr]
            ends = ref.ends[:k]  # type: ignore[union-attr]
            pos = list_start + ends[-1]
            pos += 1 if data[pos] == 0x2C else 0
        else:
            elements, parts, ends, pos = [], [], [], list_start
        new = None
        rest: dict | None = None
        if ref is not None and ref.suffix and prefix is ref.rest_prefix \
                and data.endswith(memoryview(ref.data)[-ref.suffix :]):  # type: ignore[index]
            # Same members after the list as last time (tools, limits): read only the new
            # elements, which must parse as the items of one array: that proves where the list
            # ends. Most are cut apart and known by their bytes (_cut_elements); the rest are
            # parsed in one piece.
            close = len(data) - ref.suffix
            pos = _cut_elements(data, pos, close, protocol, table, list_start, elements, parts, ends)
            try:
                new = orjson.loads(b"[" + data[pos : close + 1]) if pos < close else []
                rest = ref.rest
            except orjson.JSONDecodeError:
                new = None
        if not isinstance(new, list):
            remainder = orjson.loads(b"{" + _REST_KEY_JSON + b":[" + data[pos:])
            if not isinstance(remainder, dict):
                return None
            new = remainder.pop(_REST_KEY)
            if not isinstance(new, list):
                return None
            rest = {**prefix, **remainder} if remainder else prefix
    except (orjson.JSONDecodeError, IndexError):
        return None
    recording = len(ends) == len(elements)
    # An element whose bytes were seen before (in any earlier request) is taken as it was.
    for el in new:
        if recording:
            dumped = _dumps(el)
            n = len(dumped)
            if data.startswith(dumped, pos) and data[pos + n : pos + n + 1] in (b",", b"]"):
                elem = table.element(protocol, dumped, el)
                ends.append(pos + n - list_start)
                pos += n + 1
            else:
                recording = False
                elem = _elem(el, protocol, table)
        else:
            elem = _elem(el, protocol, table)
        elements.append(elem)
        parts.append(elem.part)
    suffix = 0
    if recording:
        # Every element's end is known, so the list's "]" is: remember what follows it.
        close = list_start + ends[-1] if ends else list_start
        if data[close : close + 1] == b"]":
            suffix = len(data) - close
    return _Body(rest, elements, parts, data, list_start, ends, prefix, k, suffix)  # type: ignore[arg-type]


def _cut_elements(data: bytes, pos: int, close: int, protocol: str | None, table: _PartTable, list_start: int,
                  elements: list[_Elem], parts: list[Part], ends: list[int]) -> int:
    """Take the elements from ``data[pos:close]`` (``close``: the list's "]") without parsing the
    ones seen before: each is cut where the next one starts (a "}," followed by how this one
    starts, its first key) and looked up by its bytes; only one not seen is parsed. A cut is
    kept only when what it cuts off is known or parses as one JSON value: a JSON value is never
    a proper prefix of another, so that value is exactly the element, and a cut that falls inside
    an element (a nested object with the same first key) makes the slice unparseable. Stops at
    the first element that does not cut cleanly and returns where it stopped (``close`` when all
    were taken), for the caller to parse the rest."""
    if pos >= close or not data.startswith(b'{"', pos):
        return pos
    colon = data.find(b'":', pos + 2, min(close, pos + 66))
    if colon < 0:
        return pos
    needle = b"}," + data[pos : colon + 2]
    known = table.elements.get
    while pos < close:
        cut = data.find(needle, pos, close)
        stop = cut + 1 if cut >= 0 else close
        raw = data[pos:stop]
        elem = known((protocol, raw))
        if elem is None:
            try:
                el = orjson.loads(raw)
            except orjson.JSONDecodeError:
                return pos
            elem = table.element(protocol, raw, el)
        elements.append(elem)
        parts.append(elem.part)
        ends.append(stop - list_start)
        pos = stop + 1
    return close


def _body_from_dict(body: dict, protocol: str | None, table: _PartTable) -> _Body:
    list_key = _LIST_KEYS.get(protocol or "", "messages")
    items = body.get(list_key)
    if protocol == OPENAI_RESPONSES and isinstance(items, str):
        items = [items]
    if not isinstance(items, list):
        items = []
    rest = {k: v for k, v in body.items() if k != list_key}
    elements = [_elem(el, protocol, table) for el in items]
    return _Body(rest, elements, [e.part for e in elements])


@dataclass(slots=True)
class _Layout:
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
    body: _Body | None
    raw_tools: Any
    raw_system: Any
    encoding: str
    image_tokens: int
    # cum[i]: tokens of parts [0, i); None until its _TokenJob is finished
    cum: list[int] | None
    cum_units: list[int]  # the same in UTF-16 units
    n_pre: int  # parts before the message list's elements
    same_as_ref: int  # leading parts identical (the same objects) to the reference layout's
    # the reference layout, until the counts of the parts shared with it are taken from it
    ref: _Layout | None = None
    # Anthropic: the request fields whose change drops the messages cache (a JSON key; None
    # on other wires)
    message_gates: Any = None


def _read_body(dec: _Decoded, ref: _Layout | None, table: _PartTable) -> _Body | None:
    """The body as elements: from its bytes when possible, else parsed; None on the kernel view."""
    if dec.raw_body is not None:
        body = _body_from_bytes(dec.raw_body, dec.protocol, ref.body if ref is not None else None, table)
        if body is not None:
            return body
        try:
            parsed = orjson.loads(dec.raw_body)
        except orjson.JSONDecodeError:
            parsed = None
        if isinstance(parsed, dict) and any(k in parsed for k in _PROMPT_FIELDS):
            if dec.protocol not in _LIST_KEYS:
                dec.protocol = detect_protocol(parsed)
            return _body_from_dict(parsed, dec.protocol, table)
        # A body without prompt fields: the full reader decides (kernel view, request_for's rule).
        full = _full_decode(dec.raw)
        dec.body, dec.kernel_messages, dec.kernel_tools = full.body, full.kernel_messages, full.kernel_tools
        dec.protocol = full.protocol
        dec.raw_body = None
    if dec.body is not None:
        return _body_from_dict(dec.body, dec.protocol, table)
    return None


def _layout(dec: _Decoded, table: _PartTable, rules: CacheRules, ref: _Layout | None) -> _Layout:
    """The request as parts in hash order. ``ref`` is the runtime's previous request: what equals
    its content takes its parts as they are, so only what is new is parsed, interned and counted."""
    encoding = rules.tokenizer
    if ref is not None and (ref.protocol != dec.protocol or ref.encoding != encoding
                            or ref.image_tokens != rules.image_tokens):
        ref = None
    body = _read_body(dec, ref, table)
    protocol = dec.protocol
    if body is None:
        rest: dict = {}
        elements = [_elem(el, None, table) for el in (dec.kernel_messages or [])]
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
            clean, found = _strip_cache_control(tool) if protocol == ANTHROPIC_MESSAGES else (tool, [])
            key = ("t", protocol, _json_key(clean))
            parts.append(table.get(key, lambda: Part(key, _json_text(clean), element=clean, protocol=protocol,
                                                     kind="tool")))
            marks.extend((len(parts) - 1, ttl) for ttl in found)
    n_tools = len(parts)

    # -- request settings --
    gates: Any = None
    if body is not None:
        hashed = _SETTINGS_FIELDS
        if protocol == ANTHROPIC_MESSAGES:
            gates = _json_key({k: rest[k] for k in _ANTHROPIC_MESSAGE_GATES if k in rest})
            hashed = tuple(k for k in _SETTINGS_FIELDS if k not in _ANTHROPIC_MESSAGE_GATES)
        settings = {k: rest[k] for k in hashed if k in rest and (k != "text" or protocol == OPENAI_RESPONSES)}
        if settings:
            key = ("g", _json_key(settings))
            parts.append(table.get(key, lambda: Part(key, _json_text(settings), element=settings, kind="settings")))
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
    if protocol == ANTHROPIC_MESSAGES:
        for n, elem in enumerate(elements[lead:], start=message_start):
            marks.extend((n, ttl) for ttl in elem.marks)

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
    layout = _Layout(protocol, parts, n_tools, n_settings, n_system, n_prompt, marks, origins, system_body,
                     retention if isinstance(retention, str) else None, body, tools, raw_system, encoding,
                     rules.image_tokens, None, cum_units, n_pre, k, ref)
    layout.message_gates = gates
    return layout


class _TokenJob:
    """The text new in a batch of layouts, tokenized on the tokenizer thread (see
    SessionCacheAnalyser._consume).

    Planned and finished on the analysing thread, which alone touches parts and the segment
    cache; the tokenizer thread only encodes strings, all of a batch in one call
    (:func:`inspector.tokens.encode_many`), so it waits for the interpreter lock once per batch
    rather than once per line. ``before`` is the job still running when this one is planned: what
    it tokenizes is not asked for again (it is finished first)."""

    __slots__ = ("table", "layouts", "parts", "new", "planned")

    def __init__(self, layouts: list[_Layout], table: _PartTable, before: _TokenJob | None) -> None:
        self.table = table
        self.layouts = layouts
        self.parts: list[tuple[Part, str, list[str]]] = []  # (part, encoding, its segments)
        self.new: dict[str, dict[str, None]] = {}  # encoding -> segments in no cache yet
        self.planned: set[tuple[int, str]] = set()
        running = before.planned if before is not None else set()
        for lay in layouts:
            encoding = lay.encoding
            cache = table.segments.setdefault(encoding, {})
            pending = before.new.get(encoding, {}) if before is not None else {}
            new = self.new.setdefault(encoding, {})
            for part in lay.parts[lay.same_as_ref :]:
                key = (id(part), encoding)
                if encoding in part.counts or key in self.planned or key in running:
                    continue
                self.planned.add(key)
                segments = _segments(part.text)
                for segment in segments:
                    if segment not in cache and segment not in pending:
                        new[segment] = None
                self.parts.append((part, encoding, segments))

    def run(self) -> dict[str, list[np.ndarray]]:
        return {encoding: encode_many(encoding, list(segments)) for encoding, segments in self.new.items() if segments}

    def finish(self, ids: dict[str, list[np.ndarray]]) -> None:
        """Store the token ids, count each part, and sum the layouts' tokens (_sum_tokens)."""
        table = self.table
        for encoding, found in ids.items():
            table.segments.setdefault(encoding, {}).update(zip(self.new[encoding], found))
            table.chars += sum(len(segment) for segment in self.new[encoding])
        for part, encoding, segments in self.parts:
            if encoding not in part.counts:
                # Looked up, not assumed: another analysis may have cleared the table meanwhile.
                pieces = _segment_ids(segments, encoding, table.segments.setdefault(encoding, {}))
                part._pieces[encoding] = pieces
                part.counts[encoding] = sum(len(p) for p in pieces)
        _sum_tokens(self.layouts)


def _sum_tokens(layouts: list[_Layout]) -> None:
    """The running token sums of layouts read one after another (each after its reference),
    once their new parts are counted."""
    for lay in layouts:
        k = lay.same_as_ref
        cum = lay.ref.cum[: k + 1] if lay.ref is not None else [0]  # type: ignore[index]
        total = cum[-1]
        encoding, image_tokens = lay.encoding, lay.image_tokens
        for part in lay.parts[k:]:
            total += part.token_count(encoding, image_tokens)
            cum.append(total)
        lay.cum = cum
        lay.ref = None  # the layouts of a runtime must not chain in memory


def _system_parts(protocol: str | None, kernel: bool, raw_system: Any, table: _PartTable, parts: list[Part],
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
                parts.append(_text_part(raw_system, table))
                origins.append(((SRC_SYSTEM_STRING,), None))
        elif isinstance(raw_system, list):
            for i, block in enumerate(raw_system):
                clean, found = _strip_cache_control(block)
                if isinstance(clean, dict) and isinstance(clean.get("text"), str) and clean.get("type", "text") == "text":
                    parts.append(_text_part(clean["text"], table))
                else:
                    key = ("j", protocol, _json_key(clean))
                    parts.append(table.get(key, lambda: Part(key, _json_text(clean), kind="system-text")))
                marks.extend((len(parts) - 1, ttl) for ttl in found)
                origins.append(((SRC_SYSTEM_BLOCK,), i))
    elif protocol == GOOGLE_GENERATIVE_AI:
        if isinstance(raw_system, str):
            parts.append(_text_part(raw_system, table))
            origins.append(((SRC_SYSTEM_INSTRUCTION,), 0))
        elif isinstance(raw_system, dict) and isinstance(raw_system.get("parts"), list):
            for i, piece in enumerate(raw_system["parts"]):
                if isinstance(piece, dict) and isinstance(piece.get("text"), str):
                    parts.append(_text_part(piece["text"], table))
                    origins.append(((SRC_SYSTEM_INSTRUCTION,), i))
    elif protocol == OPENAI_RESPONSES:
        instructions, items = raw_system
        if isinstance(instructions, str) and instructions:
            parts.append(_text_part(instructions, table))
            origins.append(((SRC_INSTRUCTIONS,), None))
        for i, part in enumerate(items):
            parts.append(part)
            origins.append(((SRC_SYSTEM_MESSAGE,), i))
    else:
        for i, part in enumerate(raw_system):
            parts.append(part)
            origins.append(((SRC_SYSTEM_MESSAGE,), i))
    return origins


# =============================================================================================
# Calls
# =============================================================================================


def _leading_tokens_digest(lay: _Layout, size: int) -> bytes:
    """A digest of the layout's first ``size`` token ids (all of them when it has fewer)."""
    chunks: list[np.ndarray] = []
    have = 0
    for part in lay.parts:
        for piece in part._pieces.get(lay.encoding, ()):
            chunks.append(piece)
            have += len(piece)
            if have >= size:
                return hashlib.blake2b(np.concatenate(chunks)[:size].tobytes(), digest_size=16).digest()
    return hashlib.blake2b(np.concatenate(chunks).tobytes() if chunks else b"", digest_size=16).digest()


def _overflow_note(rules: CacheRules, rate: int | None) -> str | None:
    """Why a request may have missed although its prefix was cached: its route carried more
    requests a minute than one machine takes (provider-caching §3.2)."""
    if not _over_routing_limit(rules, rate):
        return None
    return (f"{rate} requests on its route (model, cache key, first {rules.routing_prefix_tokens} "
            f"tokens) in the minute up to it, over the ~{rules.overflow_requests_per_minute:g} a minute one "
            f"machine takes ({rules.source}): some overflow to machines without the cache")


# A pair's reason detail may name its route's load (_overflow_note), which is known only once every
# request before it has been read, by whichever process read it (cache_worker). So the detail is
# made with a gap at that place, and _settle fills it: with "; <note>" or nothing after a reason
# (_ROUTE_APPENDED), or with the note or _NO_VISIBLE_REASON in an unexplained miss (_ROUTE_CAUSE).
_ROUTE_APPENDED = "appended"
_ROUTE_CAUSE = "cause"
_NO_VISIBLE_REASON = "no visible reason (eviction, routing overflow, or a relay that drops caching)"


def _settle(pair: CachePair, gap: tuple[int, str] | None) -> None:
    """Fill the routing gap of ``pair.reason_detail`` once ``pair.routing_rate`` is known."""
    if gap is None:
        return
    at, kind = gap
    note = _overflow_note(pair.rules, pair.routing_rate)
    if kind == _ROUTE_CAUSE:
        text = note if note is not None else _NO_VISIBLE_REASON
    else:
        text = f"; {note}" if note is not None else ""
    pair.reason_detail = pair.reason_detail[:at] + text + pair.reason_detail[at:]


def _over_routing_limit(rules: CacheRules, rate: int | None) -> bool:
    limit = rules.overflow_requests_per_minute
    return limit is not None and rate is not None and rate > limit


def _epoch(iso: str | None) -> float | None:
    if not iso:
        return None
    try:
        return datetime.fromisoformat(iso).timestamp()
    except ValueError:
        return None


class _Call:
    """One ``llm.calling`` reduced to what the analysis needs."""

    __slots__ = ("event_id", "session_id", "turn_id", "runtime_id", "model", "provider", "protocol", "attempt",
                 "step", "started_at", "t", "layout", "rules", "usage", "response_at", "_locator",
                 "shared_tokens", "bp_reads", "ref", "failed", "routing_rate", "row")

    def __init__(self, event_id: str, session_id: str, turn_id: str, dec: _Decoded, layout: _Layout,
                 rules: CacheRules, row: int = 0) -> None:
        self.event_id = event_id
        self.row = row  # its place among the session's llm.calling rows
        self.session_id = session_id
        self.turn_id = turn_id
        self.runtime_id = dec.runtime_id
        self.model = dec.model
        self.provider = dec.provider
        self.protocol = dec.protocol
        self.attempt = dec.attempt
        self.step = 0
        self.started_at = dec.started_at
        self.t = _epoch(dec.started_at)
        self.layout = layout
        self.rules = rules
        self.usage: TokenUsage | None = None
        self.response_at: str | None = None
        self._locator: _Locator | None = None
        self.shared_tokens: int | None = None  # with the request it was compared to
        self.bp_reads: set[int] = set()
        # The call whose layout this one's was built against (``layout.same_as_ref`` counts the
        # parts they share); dropped once the locator is built, so calls do not chain in memory.
        self.ref: _Call | None = None
        # Its response reported an error: the provider may never have read it, so it wrote nothing
        # to the cache and later requests cannot hit what it sent.
        self.failed = False
        self.routing_rate: int | None = None  # see CachePair.routing_rate

    @property
    def parts(self) -> list[Part]:
        return self.layout.parts

    @property
    def message_start(self) -> int:
        lay = self.layout
        return lay.n_tools + lay.n_settings + lay.n_system

    def cum_tokens(self) -> list[int]:
        return self.layout.cum

    @property
    def total_tokens(self) -> int:
        return self.layout.cum[-1]

    def locator(self) -> _Locator:
        if self._locator is None:
            self._locator = _Locator(self)
            self.ref = None
        return self._locator


# =============================================================================================
# The anatomy's message bags, over cached facts
# =============================================================================================


class _Locator(BagLayout):
    """The anatomy's message bags of one request (:class:`inspector.anatomy.labelling.BagLayout`) over the
    facts cached on its parts, with where each element's messages start (a Gemini content may
    hold several messages)."""

    __slots__ = ("elem_first",)

    def __init__(self, call: _Call) -> None:
        start = call.message_start
        facts: list[MessageFacts] = []
        firsts: list[int] = []
        ref = call.ref
        if ref is not None and ref._locator is not None and ref.message_start == start:
            # The messages it shares with the call its layout was built against have the same facts.
            m = max(0, call.layout.same_as_ref - start)
            ref_loc = ref._locator
            if m:
                count = ref_loc.elem_first[m] if m < len(ref_loc.elem_first) else ref_loc.n
                facts = ref_loc.facts[:count]  # type: ignore[assignment]
                firsts = ref_loc.elem_first[:m]
                start += m
        lists = [part.facts() for part in call.parts[start:]]
        new = [f for group in lists for f in group]
        if len(new) == len(lists):
            firsts += range(len(facts), len(facts) + len(new))
        else:
            at = len(facts)
            for group in lists:
                firsts.append(at)
                at += len(group)
        facts += new
        self.elem_first = firsts
        super().__init__(facts)

    def region(self, k: int) -> str:
        """``history`` before the turn context (or the current input), else ``turn-context``."""
        return "history" if k < self.head_end else "turn-context"


# =============================================================================================
# Results
# =============================================================================================


def _js_number(value: float | int | None) -> float | int | None:
    """A whole number as an int, so JSON shows ``3600`` as JavaScript would, not ``3600.0``."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


@dataclass(slots=True)
class CachePair:
    """One compared request: the current call and the one its prefix is measured against."""

    session_id: str
    runtime_id: str | None
    turn_id: str
    previous_turn_id: str | None
    event_id: str
    previous_event_id: str | None
    kind: str
    step: int
    attempt: int
    model: str | None
    provider: str | None
    protocol: str | None
    started_at: str | None
    rules: CacheRules
    token_provenance: str
    shared_chars: int
    total_chars: int
    shared_tokens: int
    total_tokens: int
    first_difference: str
    region: str
    offset: int
    was: str | None
    now: str | None
    predicted_cached_tokens: int
    predicted_cache_write_tokens: int
    reported_cached_tokens: int | None
    reported_cache_write_tokens: int | None
    reported_input_tokens: int | None
    gap_seconds: float | None
    ttl_seconds: float | None
    reason: str
    reason_detail: str
    breakpoints: int
    uncached_tokens: int
    uncached_cost_usd: float | None
    reported_uncached_cost_usd: float | None
    missed_savings_usd: float | None
    # Requests sent with this one's route (model, cache key, first tokens) in the minute up to it,
    # it included; None where the rules do not route by prefix (provider-caching §3.2).
    routing_rate: int | None = None

    @property
    def routing_over_limit(self) -> bool:
        """More requests went on its route in its minute than one machine takes: some of them
        may have gone to machines without the cache."""
        return _over_routing_limit(self.rules, self.routing_rate)

    def __reduce__(self) -> tuple[type[CachePair], tuple]:
        # The worker process sends thousands of pairs (cache_worker): pickled as their values in
        # field order, they take half the time of the dataclass default, which looks the fields
        # up again for every pair, each way.
        return CachePair, _pair_values(self)

    def to_json(self) -> dict[str, Any]:
        return {
            "sessionId": self.session_id,
            "runtimeId": self.runtime_id,
            "turnId": self.turn_id,
            "previousTurnId": self.previous_turn_id,
            "eventId": self.event_id,
            "previousEventId": self.previous_event_id,
            "kind": self.kind,
            "step": self.step,
            "attempt": self.attempt,
            "model": self.model,
            "provider": self.provider,
            "protocol": self.protocol,
            "startedAt": self.started_at,
            "rules": self.rules.source,
            "tokenizer": self.rules.tokenizer,
            "tokenProvenance": self.token_provenance,
            "sharedChars": self.shared_chars,
            "totalChars": self.total_chars,
            "sharedTokens": self.shared_tokens,
            "totalTokens": self.total_tokens,
            "firstDifference": self.first_difference,
            "region": self.region,
            "offset": self.offset,
            "predictedCachedTokens": self.predicted_cached_tokens,
            "predictedCacheWriteTokens": self.predicted_cache_write_tokens,
            "reportedCachedTokens": self.reported_cached_tokens,
            "reportedCacheWriteTokens": self.reported_cache_write_tokens,
            "reportedInputTokens": self.reported_input_tokens,
            "gapSeconds": _js_number(self.gap_seconds),
            "ttlSeconds": _js_number(self.ttl_seconds),
            "reason": self.reason,
            "reasonDetail": self.reason_detail,
            "breakpoints": self.breakpoints,
            "uncachedTokens": self.uncached_tokens,
            "inputPricePerMTok": _js_number(self.rules.input_price_per_mtok),
            "uncachedCostUsd": _js_number(self.uncached_cost_usd),
            "reportedUncachedCostUsd": _js_number(self.reported_uncached_cost_usd),
            "missedSavingsUsd": _js_number(self.missed_savings_usd),
            "routingRate": self.routing_rate,
        }


_pair_values = operator.attrgetter(*(f.name for f in dataclasses.fields(CachePair)))


@dataclass(slots=True)
class Finding:
    """A layout problem in how Covel assembled a runtime's requests, with the part it concerns."""

    kind: str
    severity: str  # "warning" or "info"
    session_id: str
    runtime_id: str | None
    part: str
    count: int
    out_of: int
    turn_ids: list[str]
    message: str
    example: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "severity": self.severity,
            "sessionId": self.session_id,
            "runtimeId": self.runtime_id,
            "part": self.part,
            "count": self.count,
            "outOf": self.out_of,
            "turnIds": self.turn_ids,
            "message": self.message,
            "example": self.example,
        }


@dataclass(slots=True)
class RuntimeSummary:
    session_id: str
    runtime_id: str | None
    pairs: int = 0
    turns: int = 0
    total_tokens: int = 0
    shared_tokens: int = 0
    predicted_cached_tokens: int = 0
    reported_cached_tokens: int = 0
    reported_pairs: int = 0
    uncached_cost_usd: float = 0.0
    reported_uncached_cost_usd: float = 0.0
    missed_savings_usd: float = 0.0
    priced: bool = False
    reasons: Counter = field(default_factory=Counter)

    def add(self, pair: CachePair) -> None:
        self.pairs += 1
        if pair.kind == "turn":
            self.turns += 1
        self.total_tokens += pair.total_tokens
        self.shared_tokens += pair.shared_tokens
        self.predicted_cached_tokens += pair.predicted_cached_tokens
        if pair.reported_cached_tokens is not None:
            self.reported_pairs += 1
            self.reported_cached_tokens += pair.reported_cached_tokens
        if pair.uncached_cost_usd is not None:
            self.priced = True
            self.uncached_cost_usd += pair.uncached_cost_usd
            self.missed_savings_usd += pair.missed_savings_usd or 0.0
        if pair.reported_uncached_cost_usd is not None:
            self.reported_uncached_cost_usd += pair.reported_uncached_cost_usd
        self.reasons[pair.reason] += 1

    def to_json(self) -> dict[str, Any]:
        return {
            "sessionId": self.session_id,
            "runtimeId": self.runtime_id,
            "pairs": self.pairs,
            "turns": self.turns,
            "totalTokens": self.total_tokens,
            "sharedTokens": self.shared_tokens,
            "predictedCachedTokens": self.predicted_cached_tokens,
            "reportedCachedTokens": self.reported_cached_tokens if self.reported_pairs else None,
            "uncachedCostUsd": _js_number(round(self.uncached_cost_usd, 6)) if self.priced else None,
            "reportedUncachedCostUsd": _js_number(round(self.reported_uncached_cost_usd, 6)) if self.priced else None,
            "missedSavingsUsd": _js_number(round(self.missed_savings_usd, 6)) if self.priced else None,
            "reasons": dict(self.reasons),
        }


@dataclass(slots=True)
class CacheAnalysis:
    session_id: str
    pairs: list[CachePair]
    findings: list[Finding]
    summaries: list[RuntimeSummary]
    warnings: list[str]

    def to_json(self) -> dict[str, Any]:
        return {
            "sessionId": self.session_id,
            "pairs": [p.to_json() for p in self.pairs],
            "findings": [f.to_json() for f in self.findings],
            "runtimes": [s.to_json() for s in self.summaries],
            "warnings": list(self.warnings),
        }


# =============================================================================================
# Prediction
# =============================================================================================


@dataclass(slots=True)
class _Comparison:
    index: int  # first differing part of the current request (len(parts) when none)
    shared_tokens: int
    shared_units: int
    offset_units: int  # within the differing part
    offset_chars: int  # the same, in code points


def _compare(prev: _Call, cur: _Call) -> _Comparison:
    a = prev.parts
    b = cur.parts
    limit = min(len(a), len(b))
    d = cur.layout.same_as_ref if cur.ref is prev else 0
    while d < limit and (a[d] is b[d] or a[d].key == b[d].key):
        d += 1
    shared = cur.layout.cum[d]
    units = cur.layout.cum_units[d]
    offset_units = offset_chars = 0
    if d < limit:
        was, now = a[d], b[d]
        if was.text != now.text:
            offset_chars = naming.common_prefix(was.text, now.text)
            offset_units = utf16_len(now.text[:offset_chars])
            enc = cur.rules.tokenizer
            ta, tb = was.token_array(enc), now.token_array(enc)
            n = min(len(ta), len(tb))
            if n:
                differs = ta[:n] != tb[:n]
                first = int(differs.argmax())
                shared += first if differs[first] else n
        units += offset_units
    return _Comparison(d, shared, units, offset_units, offset_chars)


def _predict_automatic(rules: CacheRules, shared: int, prev: _Call) -> int:
    """Cached tokens of an automatic prefix cache, from the shared prefix (ignoring time)."""
    minimum = rules.min_cacheable_tokens
    if shared < minimum:
        return 0
    if rules.granularity == "step":
        step = rules.step_tokens or 1
        cached = shared // step * step
    elif rules.granularity == "units":
        # Persisted units of the earlier request: its whole input, the prefix it shared with the
        # request before it, and fixed intervals (provider-caching.md §3.4).
        candidates = [prev.total_tokens]
        if prev.shared_tokens is not None:
            candidates.append(prev.shared_tokens)
        if rules.unit_tokens:
            candidates.append(shared // rules.unit_tokens * rules.unit_tokens)
        cached = max((c for c in candidates if c <= shared), default=0)
    else:
        cached = shared
    return cached if cached >= minimum else 0


def _blocks_cum(call: _Call) -> list[int]:
    cum = [0]
    total = 0
    for part in call.parts:
        total += part.blocks
        cum.append(total)
    return cum


def _predict_explicit(rules: CacheRules, prev: _Call, cur: _Call, d: int, gap: float | None,
                      honour_ttl: bool, minimum: int | None = None) -> tuple[int, int]:
    """Anthropic: ``(read, write)`` tokens. An entry exists where the earlier request
    had a breakpoint over a prefix still identical and at least the minimum long; each of the
    current request's first ``max_breakpoints`` breakpoints finds the longest such entry within
    ``lookback_blocks`` blocks before it. ``minimum`` replaces the rules' minimum (to ask what the
    minimum alone prevented)."""
    minimum = rules.min_cacheable_tokens if minimum is None else minimum
    limit = rules.max_breakpoints or 0
    cum = cur.cum_tokens()
    pcum = prev.cum_tokens()
    entries: dict[int, float] = {}
    for j, ttl in prev.layout.breakpoints[:limit]:
        if j < d and pcum[j + 1] >= minimum:
            life = rules.ttl_for(ttl)
            entries[j] = max(entries.get(j, 0.0), life)
    honoured = cur.layout.breakpoints[:limit]
    blocks = _blocks_cum(cur)
    lookback = rules.lookback_blocks or 0
    read = 0
    for b, _ttl in honoured:
        for j in range(b, -1, -1):
            if blocks[b + 1] - blocks[j + 1] > lookback:
                break
            life = entries.get(j)
            if life is None:
                continue
            if honour_ttl and gap is not None and gap > life:
                continue
            read = max(read, cum[j + 1])
            break
    write = 0
    for b, _ttl in reversed(honoured):
        if cum[b + 1] >= minimum:
            write = max(0, cum[b + 1] - read)
            break
    return read, write


# =============================================================================================
# The analyser
# =============================================================================================


def _provenance(model: str | None, rules: CacheRules) -> str:
    """``exact`` when the tokenizer in use is the model's own (OpenAI models), else ``proxy``."""
    return _provenance_of(model, rules.tokenizer)


@functools.lru_cache(maxsize=256)
def _provenance_of(model: str | None, tokenizer: str) -> str:
    # A session asks this for every request, of a handful of models.
    choice = encoding_for_model(model)
    return "exact" if choice.provenance == "exact" and choice.encoding == tokenizer else "proxy"


class _RuntimeState:
    __slots__ = ("runtime_id", "turn_id", "pending", "last", "last_ok", "last_read", "turn_first", "step",
                 "turn_pairs", "history_moves", "sliding", "system_changes", "data_last", "too_many",
                 "bp_calls", "summary", "examples", "first_row")

    def __init__(self, session_id: str, runtime_id: str | None, first_row: int = 0) -> None:
        self.runtime_id = runtime_id
        self.first_row = first_row  # the row of its first request
        self.turn_id: str | None = None
        self.pending: list[_Call] = []
        self.last: _Call | None = None
        self.last_ok: _Call | None = None  # the latest call whose response was not an error
        # The runtime's latest request read (possibly still pending): the next one reuses its parts.
        self.last_read: _Call | None = None
        self.turn_first: _Call | None = None
        self.step = -1
        self.turn_pairs = 0
        self.history_moves: list[str] = []
        self.sliding: list[str] = []
        self.system_changes: list[tuple[str, str]] = []  # (turn id, part name)
        self.data_last: list[str] = []
        self.too_many: list[tuple[str, int]] = []
        # per call with breakpoints: (turn id, [(location label, part index)], the indices read
        # later — filled in when a later request is compared with that call)
        self.bp_calls: list[tuple[str, list[tuple[str, int]], set[int]]] = []
        self.summary = RuntimeSummary(session_id, runtime_id)
        self.examples: dict[str, dict[str, Any]] = {}


_SIDE_EVENTS = ("llm.responded", "context.compacted", "context.pruned")


def _event_order(ev: TraceEvent) -> tuple:
    """A trace row's place in the store's canonical order (created_at, seq, id)."""
    return (ev.created_at or "", -1 if ev.seq is None else ev.seq, ev.id)


def _copy_summary(summary: RuntimeSummary) -> RuntimeSummary:
    copied = dataclasses.replace(summary)
    copied.reasons = Counter(summary.reasons)
    return copied


class _Checkpoint:
    """A runtime's state before its pending (last) turn is flushed, to put it back after: flushing
    mutates the state, the pending calls, the calls they are compared with (breakpoints read)
    and the turn's responses (bound)."""

    def __init__(self, state: _RuntimeState, responses: dict[tuple[str, str | None], list[_Response]]) -> None:
        self.state = state
        self.pending = list(state.pending)
        self.calls = [(c, c.ref, c.shared_tokens, c.usage, c.response_at, c.failed, set(c.bp_reads))
                      for c in self.pending]
        self.scalars = (state.last, state.last_ok, state.turn_first, state.turn_pairs)
        self.lengths = {name: len(getattr(state, name)) for name in _APPENDED}
        self.reads = [(reads, set(reads)) for _, _, reads in state.bp_calls]
        self.summary = _copy_summary(state.summary)
        self.examples = dict(state.examples)
        keys = {(c.turn_id, c.runtime_id) for c in self.pending}
        self.used = [(r, r.used) for key in keys for r in responses.get(key, [])]

    def restore(self) -> None:
        state = self.state
        state.pending = self.pending
        for call, ref, shared, usage, response_at, failed, reads in self.calls:
            call.ref, call.shared_tokens, call.usage = ref, shared, usage
            call.response_at, call.failed = response_at, failed
            call.bp_reads.clear()
            call.bp_reads.update(reads)
        state.last, state.last_ok, state.turn_first, state.turn_pairs = self.scalars
        for name, n in self.lengths.items():
            del getattr(state, name)[n:]
        for reads, before in self.reads:
            reads.clear()
            reads.update(before)
        state.summary = _copy_summary(self.summary)
        state.examples = dict(self.examples)
        for response, used in self.used:
            response.used = used


_APPENDED = ("history_moves", "sliding", "system_changes", "data_last", "too_many", "bp_calls")


@dataclass(slots=True)
class _Response:
    created_at: str
    attempt: int
    usage: TokenUsage | None
    failed: bool
    used: bool = False


class _Routes:
    """How many requests went on each route in the minute up to each one, it included, counted in
    the order the requests were written (CachePair.routing_rate)."""

    __slots__ = ("_times",)

    def __init__(self) -> None:
        self._times: dict[tuple, deque[float]] = {}

    def count(self, route: tuple, t: float) -> int:
        times = self._times.get(route)
        if times is None:
            times = self._times[route] = deque()
        while times and times[0] <= t - 60:
            times.popleft()
        times.append(t)
        return len(times)


class _Share:
    """The runtimes this process pairs when it shares a session with the worker process
    (cache_worker). This side reads every row and decides; the worker is handed the ids of its
    rows (``give``) as they are read, and reads them from the store itself.

    Pairing a request costs about what its payload weighs, so the runtimes are dealt out by the
    payload bytes of their requests among the first rows (``window``): the heaviest first, each
    to the side further below its target share; a runtime first seen later goes the same way,
    weighing its first request. This side's share is under half (_THIS_SIDE_SHARE) because it
    also reads and decodes every row."""

    __slots__ = ("give", "hand_over", "owner", "loads")

    def __init__(self, give: Callable[[int, tuple, tuple | None], None],
                 hand_over: Callable[[str | None], None] | None = None) -> None:
        self.give = give
        # Called when a runtime is dealt to the worker, before any of its rows is given.
        self.hand_over = hand_over
        self.owner: dict[str | None, int] = {}
        self.loads = [0, 0]

    def window(self, rows: Iterable[tuple]) -> Iterator[tuple]:
        """``rows`` unchanged, the runtimes of the first _SHARE_WINDOW rows dealt out first."""
        it = iter(rows)
        first: list[tuple] = []
        weights: dict[str | None, int] = {}
        for row in it:
            first.append(row)
            with contextlib.suppress(_Unreadable, ValueError, TypeError):  # said when the row is read
                runtime = decode_payload(row[2]).runtime_id
                weights[runtime] = weights.get(runtime, 0) + _weight(row)
            if len(first) >= _SHARE_WINDOW:
                break
        for runtime in sorted(weights, key=lambda r: -weights[r]):  # stable: ties in order of appearance
            self._deal(runtime, weights[runtime])
        yield from first
        yield from it

    def _deal(self, runtime_id: str | None, weight: int) -> int:
        side = 0 if self.loads[0] / _THIS_SIDE_SHARE < self.loads[1] / (1 - _THIS_SIDE_SHARE) else 1
        self.owner[runtime_id] = side
        self.loads[side] += weight
        if side == 1 and self.hand_over is not None:
            self.hand_over(runtime_id)
        return side

    def owns(self, runtime_id: str | None, row: tuple) -> bool:
        side = self.owner.get(runtime_id)
        if side is None:
            side = self._deal(runtime_id, _weight(row))
        return side == 0


def _weight(row: tuple) -> int:
    return len(row[2] or b"")


# Rows read before the runtimes are dealt out (_Share.window), and the share of the payload
# bytes the reading side keeps.
_SHARE_WINDOW = 64
_THIS_SIDE_SHARE = 0.4


class _Merge:
    """The items of the two sides of a shared analysis, merged into the order and the routing
    loads an analysis alone gives. A pair is given out once both sides have passed the row that
    completed it: then every pair before it has come, and every request up to it has been
    counted on its route, in row order, as the analyser alone counts them."""

    def __init__(self) -> None:
        self.pairs: tuple[deque[tuple], deque[tuple]] = (deque(), deque())
        self.routes: tuple[deque[tuple], deque[tuple]] = (deque(), deque())
        self.marks = [-1.0, -1.0]
        self.counter = _Routes()
        self.rates: dict[int, int] = {}
        self.groups: list[tuple[int, list[Finding], RuntimeSummary]] = []

    def add(self, side: int, item: tuple) -> None:
        if item[0] == "p":
            self.pairs[side].append(item)
        else:
            self.marks[side] = item[1]
            self.routes[side].extend(item[2])

    def receive(self, messages: list[tuple]) -> None:
        """Messages of the worker (side 1): batches of items, then its runtimes' groups."""
        for message in messages:
            if message[0] == "items":
                for item in message[1]:
                    self.add(1, item)
            elif message[0] == "end":
                self.groups = message[1]

    def ready(self) -> Iterator[tuple[tuple, CachePair]]:
        limit = min(self.marks)
        mine, theirs = self.routes
        while True:
            a = mine[0] if mine and mine[0][0] < limit else None
            b = theirs[0] if theirs and theirs[0][0] < limit else None
            if a is None and b is None:
                break
            row, t, route = mine.popleft() if b is None or (a is not None and a[0] < b[0]) else theirs.popleft()
            self.rates[row] = self.counter.count(route, t)
        first, second = self.pairs
        while first or second:
            queue_ = first if first and (not second or first[0][1] < second[0][1]) else second
            item = queue_[0]
            if item[1][0] >= limit and limit != _AT_END:
                break
            queue_.popleft()
            pair = item[2]
            pair.routing_rate = self.rates.pop(item[4], None)
            _settle(pair, item[3])
            yield item[1], pair


# The key of the pairs made after the last row: after every pair keyed by a row number.
_AT_END = float("inf")


def _settled(items: Iterable[tuple]) -> Iterator[CachePair]:
    """The pairs of an analyser's stream, their routing notes filled in (it counted the routes)."""
    for item in items:
        if item[0] == "p":
            pair = item[2]
            _settle(pair, item[3])
            yield pair


class SessionCacheAnalyser:
    """The cache analysis of one session, delivered as it goes.

    ``pairs()`` is a generator: each :class:`CachePair` is yielded as soon as the turn it belongs
    to is complete for its runtime (its responses are bound then) and the batch of requests read
    with the one that completed it is counted, in the session's order of turns. After it is
    exhausted, :attr:`findings`, :attr:`summaries` and :attr:`warnings` are
    complete. Closing the generator early (a view switching session) releases the store's
    cursor. The analyser reads the store only while ``pairs()`` or ``resume()`` runs.

    While a store grows (following a running engine), :meth:`resume` brings a finished analysis
    up to date from the rows written since, yielding only new and changed pairs.
    """

    def __init__(self, store: Store, session_id: str, *, rules: RuleSet | None = None,
                 runtime_id: str | None = None, naming_mode: str = "fast",
                 warn: Callable[[str], None] | None = None) -> None:
        if naming_mode not in ("fast", "full"):
            raise ValueError(f"naming_mode must be 'fast' or 'full', not {naming_mode!r}")
        self.store = store
        self.session_id = session_id
        self.rules = rules if rules is not None else default_rules()
        self.runtime_filter = runtime_id
        self.naming_mode = naming_mode
        self._warn = warn
        self.findings: list[Finding] = []
        self.summaries: list[RuntimeSummary] = []
        self.warnings: list[str] = []
        self._states: dict[str | None, _RuntimeState] = {}
        self._responses: dict[tuple[str, str | None], list[_Response]] = {}
        self._compactions: set[str] = set()
        self._prunes: set[tuple[str, str | None]] = set()
        self._routes = _Routes()
        # Set to False to analyse in this process even when a worker process is running.
        self.use_worker = True
        self._share: _Share | None = None  # which runtimes go to the worker, when this side decides
        self._shared = False  # pairing only some runtimes (either side of a shared analysis)
        self.shared_with_worker = False  # pairs() ran with the worker process to its end
        self._rows = 0  # llm.calling rows read so far (a call's ``row``)
        # per runtime, in the order of their first requests: (that request's row, the runtime's
        # findings, its summary); complete with findings and summaries
        self.groups: list[tuple[int, list[Finding], RuntimeSummary]] = []
        self._payloads: dict[str, Any] = {}  # naming_mode "full" only
        self._done = False
        # What resume() needs to read only what was written since the last run.
        self._resumable = False
        self._calls_seen: set[str] = set()
        self._side_seen: set[str] = set()
        self._read_turns: set[tuple[str, str | None]] = set()
        self._last_event_id: str | None = None
        self._cursor: int | None = None
        self._last_order: tuple | None = None

    # -- public --------------------------------------------------------------------------------

    def pairs(self) -> Iterator[CachePair]:
        if self._done:
            raise RuntimeError("pairs() was already run; create a new analyser")
        with fewer_collections():
            worker = self._parallel_worker()
            if worker is not None:
                yield from self._pairs_in_parallel(worker)
                return
            self._done = True
            yield from _settled(self._items())

    def resume(self, turn_ids: Iterable[str] | None = None) -> Iterator[CachePair]:
        """After :meth:`pairs` (or a previous resume) ran to its end: the pairs that are new or
        changed since, reading only the requests written since and the side events of the turns
        they may touch. Each turn's last pairs are made again (its later requests or responses may
        change them), keyed by ``event_id`` like the earlier ones. ``turn_ids``: the executions
        with new rows when the caller knows them (a follow delta); None reads every side event of
        the session. Whenever the new rows could change an earlier, settled pair (a row sorting
        before one already read, a response to a settled turn), the session is analysed again
        from the start and every pair is yielded. Findings and summaries are then those of the
        whole session so far, equal to a fresh analysis's. An analysis shared with a worker
        process (:mod:`inspector.cache.worker`) holds only its own runtimes: its first resume
        analyses the session again, in this process."""
        with fewer_collections():
            if not self._resumable:
                yield from self._restart()
                return
            self._resumable = False
            side = self._new_side_events(turn_ids)
            rows = self._new_calling_rows()
            if side is None or rows is None:
                yield from self._restart()
                return
            self._load_side_events(side)
            yield from _settled(self._consume(iter(rows)))
            yield from _settled(self._finish())

    def _restart(self) -> Iterator[CachePair]:
        fresh = self._fresh()
        for name in fresh.__dict__:
            setattr(self, name, getattr(fresh, name))
        self._done = True
        yield from _settled(self._items())

    def _fresh(self, warn: Callable[[str], None] | None = None) -> SessionCacheAnalyser:
        """A new analyser of the same session, with the same settings, that analyses alone."""
        fresh = SessionCacheAnalyser(self.store, self.session_id, rules=self.rules, runtime_id=self.runtime_filter,
                                     naming_mode=self.naming_mode, warn=warn if warn is not None else self._warn)
        fresh.use_worker = False
        return fresh

    # -- sharing the work with a worker process -----------------------------------------------

    def shared_items(self, rows: Iterable[tuple], *, side_events_handed: bool = False) -> Iterator[tuple]:
        """The worker's side of a shared analysis: the stream of items (see below) of the rows it
        is handed, each ``(session_id, turn_id, raw, event_id, row number, decode hint)``. With
        ``side_events_handed``, the side events of its runtimes come from the app's side
        (:meth:`take_side_events`, before their rows) instead of being read again."""
        if self._done:
            raise RuntimeError("pairs() was already run; create a new analyser")
        self._done = True
        self.use_worker = False
        self._shared = True
        with fewer_collections():
            _PARTS.trim()
            if not side_events_handed:
                self._load_side_events(self.store.events(self.session_id, types=_SIDE_EVENTS))
            yield from self._consume(rows)
            yield from self._finish()

    def _side_events_of(self, runtime_id: str | None) -> tuple:
        """What the side events say of one runtime (and of the session's compactions), for the
        worker process that pairs it: it need not read and parse them all again."""
        responses = [(turn_id, [(r.created_at, r.attempt, _usage_values(r.usage), r.failed) for r in found])
                     for (turn_id, runtime), found in self._responses.items() if runtime == runtime_id]
        prunes = [turn_id for turn_id, runtime in self._prunes if runtime == runtime_id]
        return runtime_id, responses, prunes, sorted(self._compactions)

    def take_side_events(self, handed: tuple) -> None:
        """The worker's side: take what ``_side_events_of`` gave of one of its runtimes."""
        runtime_id, responses, prunes, compactions = handed
        for turn_id, found in responses:
            self._responses[(turn_id, runtime_id)] = [
                _Response(created_at, attempt, None if usage is None else TokenUsage(*usage), failed)
                for created_at, attempt, usage, failed in found]
        self._prunes.update((turn_id, runtime_id) for turn_id in prunes)
        self._compactions.update(compactions)

    def _parallel_worker(self) -> Any:
        """A worker process claimed for this analysis, when one is ready and it can help."""
        if not self.use_worker or self.runtime_filter is not None or self._shared:
            return None
        spec = getattr(self.store, "open_spec", None)
        if spec is None:
            return None
        from inspector.cache.worker import claim_worker

        return claim_worker()

    def _pairs_in_parallel(self, worker: Any) -> Iterator[CachePair]:
        """pairs(), with the worker process pairing about half of the runtimes."""
        from inspector.cache.worker import WorkerGone

        merge = _Merge()
        delivered: tuple | None = None  # the key of the last pair yielded
        try:
            job = worker.start_job(self.store.open_spec, self.session_id, self.rules, self.naming_mode)
        except WorkerGone:
            self.use_worker = False
            yield from self.pairs()
            return
        self._done = True
        self._shared = True
        self._share = _Share(job.give, lambda runtime_id: job.hand_over(self._side_events_of(runtime_id)))
        own = self._items(job.rows_end)
        try:
            try:
                for item in own:
                    merge.add(0, item)
                    if item[0] == "m":
                        job.flush()
                        merge.receive(job.take(block=False))
                        for key, pair in merge.ready():
                            delivered = key
                            yield pair
                while not job.ended:
                    merge.receive(job.take(block=True))
                    for key, pair in merge.ready():
                        delivered = key
                        yield pair
            except WorkerGone as exc:
                own.close()
                job.close()
                yield from self._finish_alone(delivered, str(exc))
                return
        finally:
            own.close()
            job.close()
        self.groups = sorted(self.groups + merge.groups, key=lambda group: group[0])
        self.findings = [f for _, found, _ in self.groups for f in found]
        self.summaries = [summary for _, _, summary in self.groups]
        self._resumable = False  # this analyser holds only its own runtimes (see resume())
        self.shared_with_worker = True

    def _finish_alone(self, delivered: tuple | None, why: str) -> Iterator[CachePair]:
        """The worker failed: analyse the session again here and yield the pairs after the last
        one delivered (an analysis makes them in the same order), so none is lost or repeated."""
        said = set(self.warnings)
        warn = self._warn

        def once(message: str) -> None:
            if message not in said and warn is not None:
                warn(message)

        fresh = self._fresh(warn=once)
        fresh._done = True
        fresh._note(f"the analysis's worker process failed ({why}); the analysis finished in this process")
        for item in fresh._items():
            if item[0] == "p" and (delivered is None or item[1] > delivered):
                _settle(item[2], item[3])
                yield item[2]
        for name in fresh.__dict__:
            setattr(self, name, getattr(fresh, name))

    # -- the stream of pairs and marks ---------------------------------------------------------
    #
    # The analysis runs as a stream of items: ("p", key, pair, gap, row) for a pair, keyed by its
    # place in the order of a whole analysis (_flush), with the gap for its routing note (_settle)
    # and the row of its request; ("m", watermark, routes) after each batch: every pair keyed
    # before ``watermark`` (a row number) has come, with the (row, time, route) of each request
    # of the batch when this analyser holds only some runtimes (_Share). Alone, an analyser counts
    # each route's load itself, in row order (_take), and its pairs come out in key order.

    def _items(self, rows_read: Callable[[], None] | None = None) -> Iterator[tuple]:
        """The whole stream; ``rows_read`` is called once the last row has been read."""
        _PARTS.trim()
        self._load_side_events(self.store.events(self.session_id, types=_SIDE_EVENTS))
        rows = self.store.iter_llm_calling_rows(self.session_id, mapped=True)
        try:
            yield from self._consume(rows if self._share is None else self._share.window(rows), rows_read)
        finally:
            close = getattr(rows, "close", None)
            if close is not None:
                close()
        yield from self._finish()

    def _consume(self, rows: Iterable[tuple], rows_read: Callable[[], None] | None = None) -> Iterator[tuple]:
        # Requests are read a few at a time; the first batches are small so the first pairs come
        # at once. The tokenizer releases the interpreter lock, so each batch's new text is
        # tokenized on a thread of its own while the next batch is read and the one before it
        # paired: on a second core the tokens cost next to nothing.
        running: tuple[list[_Call], int, _TokenJob, Future] | None = None
        for calls, read in self._batches(rows):
            job = _TokenJob([call.layout for call in calls], _PARTS, running[2] if running else None)
            started = _TOKENIZER.submit(job.run)
            if running is not None:
                yield from self._take(*running)
            running = (calls, read, job, started)
        if rows_read is not None:
            rows_read()
        if running is not None:
            yield from self._take(*running)
        yield ("m", self._rows, [])

    def _batches(self, rows: Iterable[tuple]) -> Iterator[tuple[list[_Call], int]]:
        """Batches of calls, each with the number of rows read when it was full."""
        batch: list[_Call] = []
        size = 2
        for row in rows:
            call = self._read(row)
            if call is not None:
                batch.append(call)
            if len(batch) >= size:
                yield batch, self._rows
                batch = []
                size = min(2 * size, _READ_AHEAD)
        if batch:
            yield batch, self._rows

    def _finish(self) -> Iterator[tuple]:
        """Flush each runtime's last turn, then put those turns back as pending: a later resume
        adds the requests that arrive for them and makes their pairs again."""
        saved = [_Checkpoint(state, self._responses) for state in self._states.values() if state.pending]
        for state in self._states.values():
            yield from self._flush(state, _AT_END)
        self.groups = [(state.first_row, self._findings(state), _copy_summary(state.summary))
                       for state in self._states.values()]
        for checkpoint in saved:
            checkpoint.restore()
        self.findings = [f for _, found, _ in self.groups for f in found]
        self.summaries = [summary for _, _, summary in self.groups]
        self._resumable = True
        yield ("m", _AT_END, [])

    def _new_side_events(self, turn_ids: Iterable[str] | None) -> list[TraceEvent] | None:
        """The side events not read yet (None when one of them belongs to a settled turn)."""
        if turn_ids is None:
            events = self.store.events(self.session_id, types=_SIDE_EVENTS)
        else:
            wanted = dict.fromkeys(turn_ids)
            wanted.update(dict.fromkeys(s.turn_id for s in self._states.values() if s.pending))
            events = [ev for tid in wanted if tid is not None
                      for ev in self.store.events(self.session_id, tid, types=_SIDE_EVENTS)]
        fresh = [ev for ev in events if ev.id not in self._side_seen]
        if not fresh:
            return fresh
        open_turns = {(s.turn_id, s.runtime_id) for s in self._states.values() if s.pending}
        settled = self._read_turns - open_turns
        settled_ids = {tid for tid, _ in settled}
        for ev in fresh:
            if ev.type == "context.compacted":
                if ev.turn_id in settled_ids:
                    return None
            elif ev.type == "llm.responded":
                if (ev.turn_id, _response_fields(ev)[0]) in settled:
                    return None
            elif (ev.turn_id, ev.runtime_id) in settled:
                return None
        return fresh

    def _new_calling_rows(self) -> list[tuple] | None:
        """``iter_llm_calling_rows`` rows written since the last run, in canonical order (None
        when the store cannot say which are new, or one sorts before a row already read)."""
        if self.store.request_key_column() is None:
            return None
        if self._cursor is None and self._last_event_id is not None:
            self._cursor = self.store.event_key(self._last_event_id)
            last = self.store.event(self._last_event_id)
            if self._cursor is None or last is None:
                return None
            self._last_order = _event_order(last)
        found: list[tuple[tuple, tuple]] = []
        stream = self.store.iter_llm_calling_since(self.session_id, self._cursor)
        try:
            for key, event_id, raw in stream:
                self._cursor = key if self._cursor is None else max(self._cursor, key)
                if event_id in self._calls_seen:
                    continue
                ev = self.store.event(event_id)
                if ev is None:
                    continue
                found.append((_event_order(ev), (ev.session_id, ev.turn_id, raw, event_id)))
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                close()
        found.sort(key=lambda item: item[0])
        if found and self._last_order is not None and found[0][0] < self._last_order:
            return None
        if found:
            self._last_order = found[-1][0]
        return [row for _, row in found]

    def _take(self, calls: list[_Call], read: int, job: _TokenJob, tokenized: Future) -> Iterator[tuple]:
        """Once the new text of requests just read is tokenized, count their tokens, then add
        each to its runtime's turn, making the pairs of every turn that the request completes."""
        job.finish(tokenized.result())
        routes: list[tuple[int, float, tuple]] = []
        alone = not self._shared
        for call in calls:
            state = self._states[call.runtime_id]
            if state.turn_id != call.turn_id:
                yield from self._flush(state, call.row)
                state.turn_id = call.turn_id
                state.step = -1
            if call.attempt == 0 or state.step < 0:
                state.step += 1
            call.step = state.step
            route = self._route(call)
            if route is not None:
                if alone:
                    call.routing_rate = self._routes.count(route, call.t)  # type: ignore[arg-type]
                else:
                    routes.append((call.row, call.t, route))
            state.pending.append(call)
        yield ("m", read, routes)

    def _route(self, call: _Call) -> tuple | None:
        """The route that picks the machine whose cache a request can read (provider-caching
        §3.2): the model, the cache key, and a hash of the first tokens. None where the rules do
        not route by prefix or the request has no time."""
        size = call.rules.routing_prefix_tokens
        if size is None or call.t is None:
            return None
        lay = call.layout
        rest = lay.body.rest if lay.body is not None else {}
        key = rest.get("prompt_cache_key", rest.get("user"))
        return (call.model, None if key is None else _json_key(key), _leading_tokens_digest(lay, size))

    # -- reading -------------------------------------------------------------------------------

    def _note(self, message: str) -> None:
        self.warnings.append(message)
        if self._warn is not None:
            self._warn(message)

    def _load_side_events(self, events: Iterable[TraceEvent]) -> None:
        for ev in events:
            self._side_seen.add(ev.id)
            if ev.type == "llm.responded":
                runtime_id, attempt, usage_raw, failed = _response_fields(ev)
                usage = None
                if isinstance(usage_raw, dict):
                    usage = TokenUsage(
                        input_tokens=int_or_none(usage_raw.get("inputTokens")),
                        output_tokens=int_or_none(usage_raw.get("outputTokens")),
                        cached_input_tokens=int_or_none(usage_raw.get("cachedInputTokens")),
                        cache_write_input_tokens=int_or_none(usage_raw.get("cacheWriteInputTokens")),
                    )
                self._responses.setdefault((ev.turn_id, runtime_id), []).append(
                    _Response(ev.created_at, attempt, usage, failed))
            elif ev.type == "context.compacted":
                self._compactions.add(ev.turn_id)
            else:
                self._prunes.add((ev.turn_id, ev.runtime_id))

    def _read(self, row: tuple) -> _Call | None:
        session_id, turn_id, raw = row[0], row[1], row[2]
        event_id = row[3] if len(row) > 3 else ""
        index = row[4] if len(row) > 4 else self._rows  # the worker is handed rows with their number
        self._rows = index + 1
        self._calls_seen.add(event_id)
        self._last_event_id = event_id
        share = self._share
        try:
            # The worker is handed each row with what the app's side decoded of it.
            dec = decode_payload(raw) if len(row) < 6 else _decoded_from_hint(raw, row[5])
        except (_Unreadable, ValueError, TypeError) as exc:
            self._note(f"skipped trace_events row {event_id} (turn {turn_id}): {exc}")
            return None
        if self.runtime_filter is not None and dec.runtime_id != self.runtime_filter:
            return None
        if share is not None and not share.owns(dec.runtime_id, row):
            share.give(index, row, dec.hint())
            return None
        rules = self.rules.resolve(dec.provider, dec.protocol, dec.model)
        state = self._states.get(dec.runtime_id)
        reference = state.last_read if state is not None else None
        try:
            layout = _layout(dec, _PARTS, rules, reference.layout if reference is not None else None)
        except RecursionError:  # our walks recurse; V8 (Covel) reads such a payload
            self._note(f"skipped trace_events row {event_id} (turn {turn_id}): {NESTED_TOO_DEEP}")
            return None
        if state is None:
            state = self._states[dec.runtime_id] = _RuntimeState(self.session_id, dec.runtime_id, index)
        self._read_turns.add((turn_id, dec.runtime_id))
        if self.naming_mode == "full":
            self._payloads[event_id] = parse_json_object(raw, merge_data=True)[0]
        call = _Call(event_id, session_id, turn_id, dec, layout, rules, index)
        if reference is not None and layout.same_as_ref:
            call.ref = reference
        state.last_read = call
        return call

    def _bind_responses(self, calls: list[_Call]) -> None:
        """Store rule (covel-db.md §2.2): walking in write order, a response binds to the latest
        unanswered call with its attempt. Calls are timed by their start, responses by their row."""
        if not calls:
            return
        responses = self._responses.get((calls[0].turn_id, calls[0].runtime_id), [])
        events: list[tuple[str, int, int]] = [(c.started_at or "", 0, i) for i, c in enumerate(calls)]
        events += [(r.created_at or "", 1, j) for j, r in enumerate(responses) if not r.used]
        events.sort()
        open_calls: list[_Call] = []
        for _, kind, index in events:
            if kind == 0:
                open_calls.append(calls[index])
                continue
            response = responses[index]
            for call in reversed(open_calls):
                if call.attempt == response.attempt and call.response_at is None:
                    call.usage = response.usage
                    call.response_at = response.created_at
                    call.failed = response.failed
                    response.used = True
                    break

    # -- pairs ---------------------------------------------------------------------------------

    def _flush(self, state: _RuntimeState, trigger: float) -> Iterator[tuple]:
        """The pairs of the runtime's pending turn, completed by the request at row ``trigger``
        (_AT_END after the last row); keyed (trigger, the runtime's first row, index), the order
        in which an analysis of the whole session makes them."""
        calls = state.pending
        if not calls:
            return
        state.pending = []
        self._bind_responses(calls)
        for n, call in enumerate(calls):
            last = state.last
            if last is not None and last.turn_id == call.turn_id:
                prev, kind = last, "tool-loop"
            else:
                # A turn's first request against the previous turn's first (none at the start).
                prev, kind = state.turn_first, "turn"
                state.turn_first = call
            gap = None
            if last is not None and last.t is not None and call.t is not None:
                gap = round(call.t - last.t, 3)
            route_gap, pair = self._pair(state, prev, call, kind, gap)
            # Its locator, if needed later, is built without the shortcut; keeping the reference
            # would chain every call of the session in memory.
            call.ref = None
            state.last = call
            if not call.failed:
                state.last_ok = call
            state.summary.add(pair)
            yield ("p", (trigger, state.first_row, n), pair, route_gap, call.row)

    def _pair(self, state: _RuntimeState, prev: _Call | None, cur: _Call, kind: str,
              gap: float | None) -> tuple[tuple[int, str] | None, CachePair]:
        """The pair, and the gap its routing note goes in (see _settle)."""
        rules = cur.rules
        total = cur.total_tokens
        total_units = cur.layout.cum_units[-1]
        provenance = _provenance(cur.model, rules)
        usage = cur.usage
        reported = usage.cached_input_tokens if usage is not None else None
        reported_write = usage.cache_write_input_tokens if usage is not None else None
        reported_input = usage.input_tokens if usage is not None else None
        explicit = rules.mode == "explicit"
        ttl = self._ttl(rules, prev, cur)
        if explicit and len(cur.layout.breakpoints) > (rules.max_breakpoints or 0):
            state.too_many.append((cur.turn_id, len(cur.layout.breakpoints)))

        route_gap: tuple[int, str] | None = None
        if prev is None:
            comparison = _Comparison(0, 0, 0, 0, 0)
            predicted = 0
            write = self._cold_write(rules, cur) if explicit else 0
            reason, detail = "cold-start", "the first request of this runtime in the session"
            name, region, was, now = "(no earlier request)", "end", None, None
        else:
            comparison = _compare(prev, cur)
            d = comparison.index
            region = self._region(prev, cur, d)
            name = self._name(prev, cur, comparison)
            was, now = _context(prev, cur, comparison)
            # What a failed request sent never reached the cache: predict from the latest request
            # that succeeded (none: nothing to read).
            source, basis = prev, comparison
            if prev.failed:
                source = state.last_ok
                basis = _compare(source, cur) if source is not None else _Comparison(0, 0, 0, 0, 0)
            if source is not None and source.model is not None and cur.model is not None and source.model != cur.model:
                source = None  # caches are per model
            if source is None:
                predicted = untimed = 0
                write = self._cold_write(rules, cur) if explicit else 0
            elif explicit:
                reach = basis.index
                if source.layout.message_gates != cur.layout.message_gates:
                    # A cache entry in the messages cannot be read: only tools and system remain.
                    reach = min(reach, cur.message_start)
                predicted, write = _predict_explicit(rules, source, cur, reach, gap, True)
                untimed, _ = _predict_explicit(rules, source, cur, reach, gap, False)
                self._mark_reads(source, reach, gap, rules)
            else:
                untimed = _predict_automatic(rules, basis.shared_tokens, source)
                expired = ttl is not None and gap is not None and gap > ttl
                predicted = 0 if expired else untimed
                write = 0
            reason, detail = self._reason(state, prev, cur, comparison, region, predicted, untimed, gap, ttl,
                                          reported)
            if reason == "unexplained":
                route_gap = (len(detail), _ROUTE_CAUSE)
            elif reason != "unexplained" and (reported is None or reported < predicted):
                route_gap = (len(detail), _ROUTE_APPENDED)
            if prev.failed and reason != "model-changed":
                detail += "; the request compared with failed, so the prediction uses the last one that succeeded"
            if explicit and source is not None and source.layout.message_gates != cur.layout.message_gates:
                detail += ("; tool_choice or thinking changed: Anthropic keeps the tools and system caches "
                           "but not the messages cache")
            self._collect(state, prev, cur, region, kind, reason, detail, name, was, now)
        cur.shared_tokens = comparison.shared_tokens

        if explicit and cur.layout.breakpoints:
            state.bp_calls.append((cur.turn_id, self._bp_locations(cur), cur.bp_reads))
        if kind == "turn" and self._data_blocks_last(cur):
            state.data_last.append(cur.turn_id)

        price = rules.input_price_per_mtok
        uncached = max(0, total - predicted)
        uncached_cost = reported_cost = missed = None
        if price is not None:
            write_premium = write * (rules.write_multiplier_for(self._write_ttl(cur)) - 1.0) if explicit else 0.0
            uncached_cost = round((uncached + max(0.0, write_premium)) * price / 1e6, 8)
            missed = round(max(0, comparison.shared_tokens - predicted) * price * (1 - rules.read_multiplier) / 1e6, 8)
            if reported is not None and reported_input is not None:
                reported_cost = round(max(0, reported_input - reported) * price / 1e6, 8)
        return route_gap, CachePair(
            session_id=cur.session_id,
            runtime_id=cur.runtime_id,
            turn_id=cur.turn_id,
            previous_turn_id=prev.turn_id if prev is not None and kind == "turn" else None,
            event_id=cur.event_id,
            previous_event_id=prev.event_id if prev is not None else None,
            kind=kind,
            step=cur.step,
            attempt=cur.attempt,
            model=cur.model,
            provider=cur.provider,
            protocol=cur.protocol,
            started_at=cur.started_at,
            rules=rules,
            token_provenance=provenance,
            shared_chars=comparison.shared_units,
            total_chars=total_units,
            shared_tokens=comparison.shared_tokens,
            total_tokens=total,
            first_difference=name,
            region=region,
            offset=comparison.offset_units,
            was=was,
            now=now,
            predicted_cached_tokens=predicted,
            predicted_cache_write_tokens=write,
            reported_cached_tokens=reported,
            reported_cache_write_tokens=reported_write,
            reported_input_tokens=reported_input,
            gap_seconds=gap,
            ttl_seconds=ttl,
            reason=reason,
            reason_detail=detail,
            breakpoints=len(cur.layout.breakpoints),
            uncached_tokens=uncached,
            uncached_cost_usd=uncached_cost,
            reported_uncached_cost_usd=reported_cost,
            missed_savings_usd=missed,
            routing_rate=cur.routing_rate,
        )

    @staticmethod
    def _ttl(rules: CacheRules, prev: _Call | None, cur: _Call) -> float | None:
        if rules.mode == "explicit":
            # Each entry has its own TTL (cache_control.ttl); the shortest of the earlier request's
            # breakpoints is the one shown.
            if prev is None or not prev.layout.breakpoints:
                return rules.ttl_seconds
            return min(rules.ttl_for(t) for _, t in prev.layout.breakpoints[: rules.max_breakpoints or 0])
        retention = (prev.layout.retention if prev is not None else None) or cur.layout.retention
        if retention == "24h" and rules.extended_ttl_seconds is not None:
            return float(rules.extended_ttl_seconds)
        return rules.ttl_seconds

    @staticmethod
    def _write_ttl(cur: _Call) -> str | None:
        return cur.layout.breakpoints[-1][1] if cur.layout.breakpoints else None

    @staticmethod
    def _cold_write(rules: CacheRules, cur: _Call) -> int:
        cum = cur.cum_tokens()
        for b, _ in reversed(cur.layout.breakpoints[: rules.max_breakpoints or 0]):
            if cum[b + 1] >= rules.min_cacheable_tokens:
                return cum[b + 1]
        return 0

    @staticmethod
    def _mark_reads(prev: _Call, d: int, gap: float | None, rules: CacheRules) -> None:
        for j, ttl in prev.layout.breakpoints[: rules.max_breakpoints or 0]:
            if j < d and (gap is None or gap <= rules.ttl_for(ttl)):
                prev.bp_reads.add(j)

    # -- where and why -------------------------------------------------------------------------

    @staticmethod
    def _area(call: _Call, d: int) -> int:
        """Index into ``_AREAS`` of part ``d``."""
        lay = call.layout
        if d >= len(lay.parts):
            return 4
        if d < lay.n_tools:
            return 0
        if d < lay.n_tools + lay.n_settings:
            return 1
        if d < lay.n_tools + lay.n_settings + lay.n_prompt:
            return 2
        return 3

    def _region(self, prev: _Call, cur: _Call, d: int) -> str:
        if d >= len(cur.parts):
            return "end"
        # The earlier area in hash order wins: a system block in one request facing a message in
        # the other means the system prompt changed.
        area = min(self._area(prev, d), self._area(cur, d))
        if area < 3:
            return _AREAS[area]
        if d >= len(prev.parts):
            return "turn-context"
        if d < prev.message_start:
            return self._extra_region(prev, d)
        # What the element was in the earlier request decides: a difference where that request
        # had its turn context (or beyond it) is the healthy case even when the current request
        # has history there now (the first turns grow a history where the turn context stood).
        ploc = prev.locator()
        m = ploc.elem_first[d - prev.message_start]
        return "turn-context" if m >= ploc.n else ploc.region(m)

    @staticmethod
    def _extra_region(call: _Call, d: int) -> str:
        """Region of a leading system message after the system prompt, by the anatomy's rule for
        such extras: the pruned marker and older summaries are history; the response format and,
        when the messages hold no turn context, the last other one (the turn context of a request
        without history) are the turn context; any other is a pre-history insertion."""
        lay = call.layout
        first = lay.n_tools + lay.n_settings + lay.n_prompt
        texts = [part.text for part in lay.parts[first : call.message_start]]
        kind = leading_system_kinds(texts, call.locator().tc is not None)[d - first]
        return "turn-context" if kind in ("turn-context", "response-format") else "history"

    def _reason(self, state: _RuntimeState, prev: _Call, cur: _Call, cmp: _Comparison, region: str,
                predicted: int, untimed: int, gap: float | None, ttl: float | None,
                reported: int | None) -> tuple[str, str]:
        rules = cur.rules
        if prev.model is not None and cur.model is not None and prev.model != cur.model:
            return "model-changed", f"{prev.model} → {cur.model}: caches are per model"
        if untimed > 0 and predicted == 0:
            return "expired", f"{gap:g} s since this runtime's last request, over the {ttl:g} s TTL ({rules.source})"
        if region in ("tools", "settings"):
            what = "tool definitions" if region == "tools" else "tool choice or output schema"
            return "tools-changed", f"the {what} changed: nothing after them can be read from the cache"
        if region == "system":
            if self._area(prev, cmp.index) != self._area(cur, cmp.index):
                return "system-changed", ("the system prompt gained or lost a part here (a leading system message "
                                          "joined it or left it): the history after it is re-sent uncached")
            return "system-changed", "the system prompt changed: the history after it is re-sent uncached"
        if region == "history":
            return "history-rewritten", self._history_detail(prev, cur, cmp)
        if rules.mode == "explicit" and not cur.layout.breakpoints:
            return "turn-context", "the prefix runs to the turn context, but the request has no cache_control breakpoint"
        if predicted == 0:
            minimum = rules.min_cacheable_tokens
            below = cmp.shared_tokens < minimum
            if rules.mode == "explicit" and not below:
                # Long enough in all, but was any breakpoint's prefix long enough on its own?
                below = _predict_explicit(rules, prev, cur, cmp.index, gap, False, minimum=0)[0] > 0
                if not below:
                    return "turn-context", ("the prefix runs to the turn context, but no breakpoint of the earlier "
                                            "request ends within it and the lookback: there was nothing to read")
            if below:
                return "below-minimum", (f"{cmp.shared_tokens} shared tokens; {rules.source} caches no prefix "
                                         f"under {minimum} tokens")
        if reported == 0 and predicted > 0:
            # The cause is filled in by _settle (_ROUTE_CAUSE): the route's load or no visible reason.
            return "unexplained", f"{predicted} tokens predicted cached but none reported; "
        return "turn-context", "the prefix runs to the turn context or later"

    @staticmethod
    def _kind_at(call: _Call, d: int) -> tuple[str | None, str | None]:
        """``(bag, kind)`` of part ``d`` by the anatomy's names, for a message or a leading system
        message after the prompt; ``(None, None)`` for anything else."""
        lay = call.layout
        if d >= len(lay.parts) or d < lay.n_tools + lay.n_settings + lay.n_prompt:
            return None, None
        if d < call.message_start:
            kind = leading_system_kind(lay.parts[d].text)
            if kind == "pruned":
                return "pre-history", "pruned-marker"
            if kind == "legacy-summary":
                return "summaries", "legacy-compacted-history"
            return "pre-history", "system-insertion"
        loc = call.locator()
        m = loc.elem_first[d - call.message_start]
        if m >= loc.n:
            return None, None
        bag, kind, _, _ = loc.classify(m)
        return bag, kind

    def _history_detail(self, prev: _Call, cur: _Call, cmp: _Comparison) -> str:
        d = cmp.index
        bag, kind = self._kind_at(cur, d)
        _, prev_kind = self._kind_at(prev, d)
        if cur.turn_id in self._compactions or bag == "summaries" or prev_kind in ("compacted-history", "legacy-compacted-history"):
            return "history compacted: summaries replaced the oldest messages"
        if kind == "pruned-marker" or prev_kind == "pruned-marker" or (cur.turn_id, cur.runtime_id) in self._prunes:
            return "history pruned to stay within the token budget"
        if kind == "system-insertion" or prev_kind == "system-insertion":
            return "a depth insertion inside the history moved"
        if d >= cur.message_start:
            loc = cur.locator()
            if loc.elem_first[d - cur.message_start] == loc.history_start():
                return "the history window slid: its oldest message changed"
        return "a history message differs from the previous request's"

    def _data_blocks_last(self, cur: _Call) -> bool:
        loc = cur.locator()
        if loc.n == 0:
            return False
        last = loc.facts[-1]
        return last.sys_like and last.turn_data_score == 2

    # -- names ---------------------------------------------------------------------------------

    def _name(self, prev: _Call, cur: _Call, cmp: _Comparison) -> str:
        d = cmp.index
        if d >= len(cur.parts):
            return "(request ends earlier)" if len(prev.parts) > len(cur.parts) else "(identical)"
        # Name the part from the request where it sits earlier in hash order: a tool or system block
        # the current request no longer has is named as it was.
        if self._area(prev, d) < self._area(cur, d):
            cur, prev = prev, cur
        if self.naming_mode == "full":
            return self._name_full(prev, cur, cmp)
        lay = cur.layout
        part = cur.parts[d]
        if d < lay.n_tools:
            return f"tools › {part.tool_name() or f'tool #{d}'}"
        if d < lay.n_tools + lay.n_settings:
            return "request settings"
        if d < cur.message_start:
            return self._system_name(prev, cur, cmp, None) or f"system prompt (part {d - lay.n_tools - lay.n_settings + 1})"
        return self._message_name(prev, cur, cmp)

    def _system_name(self, prev: _Call, cur: _Call, cmp: _Comparison,
                     request: NormalisedRequest | None) -> str | None:
        lay = cur.layout
        s = cmp.index - lay.n_tools - lay.n_settings
        sources, origin = lay.system_origins[s]
        if request is None:
            request = _system_request(cur)
            request.messages = _stand_in_turn_context() if cur.locator().tc is not None else []
        anatomy = label_request(request)
        if sources == (SRC_SYSTEM_BLOCK,):
            before = prev.parts[cmp.index].text if cmp.index < len(prev.parts) else ""
            for i, block in enumerate(request.system):
                if block.source == SRC_SYSTEM_BLOCK and block.origin_index == origin:
                    path = anatomy.path_at(("system", i), naming.common_prefix(before, block.text))
                    return Anatomy.path_label(path) if path else None
            return None
        path = naming.system_origin_path(anatomy, request, sources, origin, cmp.offset_chars)
        return Anatomy.path_label(path) if path else None

    def _message_name(self, prev: _Call, cur: _Call, cmp: _Comparison) -> str:
        loc = cur.locator()
        e = cmp.index - cur.message_start
        first = loc.elem_first[e]
        part = cur.parts[cmp.index]
        msgs = part.messages()
        if not msgs:
            return f"message {e + 1}"
        # Which of the element's messages holds the change, and where in its text.
        k, cut = 0, cmp.offset_chars
        if not (isinstance(part.key, tuple) and part.key[0] == "c"):
            # The earlier request's element at the same message index (its system part count
            # may differ).
            before: list[Message] = []
            pe = prev.message_start + e
            if pe < len(prev.parts):
                before = prev.parts[pe].messages()
            for n, m in enumerate(msgs):
                was = before[n].text if n < len(before) else ""
                if m.text != was or n == len(msgs) - 1:
                    k, cut = n, naming.common_prefix(was, m.text)
                    break
        pos = first + k
        bag, kind, label, _ = loc.classify(pos)
        if kind in ("turn-context", "compacted-history"):
            mini = NormalisedRequest(source="provider", protocol=part.protocol, model=None,
                                     messages=[msgs[k]] + (_stand_in_user() if kind == "turn-context" else []))
            path = label_request(mini).path_at(("message", 0), cut)
            if path:
                return Anatomy.path_label(path)
        return label if bag in SINGLE_MESSAGE_BAGS else f"{BAG_LABELS[bag]} › {label}"

    def _name_full(self, prev: _Call, cur: _Call, cmp: _Comparison) -> str:
        """The same name through the full labeller on whole requests (slow; a check for the fast
        path, see tests)."""
        current = request_for(self._payloads[cur.event_id])[0]
        previous = request_for(self._payloads[prev.event_id])[0]
        anatomy = label_request(current)
        lay = cur.layout
        d = cmp.index
        if d < lay.n_tools:
            path = naming.tool_path(anatomy, d)
            return Anatomy.path_label(path) if path else f"tools › tool #{d}"
        if d < lay.n_tools + lay.n_settings:
            return "request settings"
        if d < cur.message_start:
            name = self._system_name(prev, cur, cmp, current)
            return name or f"system prompt (part {d - lay.n_tools - lay.n_settings + 1})"
        # The recorded list index of the element: on the chat, Responses and kernel views the
        # leading system messages sit in the same list before it.
        lead = sum(1 for sources, _ in lay.system_origins
                   if sources in ((SRC_SYSTEM_MESSAGE,), (SRC_KERNEL_SENTINEL,)))
        e = d - cur.message_start
        path = naming.message_path(anatomy, current, previous, e + lead, cmp.offset_chars)
        return Anatomy.path_label(path) if path else f"message {e + 1}"

    # -- layout checks -------------------------------------------------------------------------

    def _collect(self, state: _RuntimeState, prev: _Call, cur: _Call, region: str, kind: str, reason: str,
                 detail: str, name: str, was: str | None, now: str | None) -> None:
        if kind != "turn" or reason in ("model-changed", "cold-start"):
            return
        state.turn_pairs += 1
        example = {"turnId": cur.turn_id, "previousTurnId": prev.turn_id, "part": name, "was": was, "now": now}
        if region == "system":
            state.system_changes.append((cur.turn_id, name))
            state.examples.setdefault("turn-volatile-system-text", example)
        elif region == "history":
            if detail.startswith("a depth insertion"):
                state.history_moves.append(cur.turn_id)
                state.examples.setdefault("moving-history-insertion", example)
            elif detail.startswith("the history window slid"):
                state.sliding.append(cur.turn_id)
                state.examples.setdefault("sliding-history-window", example)

    def _bp_locations(self, call: _Call) -> list[tuple[str, int]]:
        lay = call.layout
        out = []
        for j, _ in lay.breakpoints[: call.rules.max_breakpoints or 0]:
            if j < lay.n_tools + lay.n_settings:
                where = "tools"
            elif j < call.message_start:
                where = f"system block {j - lay.n_tools - lay.n_settings + 1}"
            else:
                loc = call.locator()
                m = loc.elem_first[j - call.message_start]
                bag = loc.classify(m)[0] if m < loc.n else "tool-loop"
                where = BAG_LABELS[bag]
            out.append((where, j))
        return out

    def _findings(self, state: _RuntimeState) -> list[Finding]:
        out: list[Finding] = []
        sid, rid = self.session_id, state.runtime_id
        turns = state.turn_pairs

        def frequent(items: list) -> bool:
            return len(items) >= _FINDING_MIN_TURNS and len(items) >= _FINDING_MIN_SHARE * turns

        if frequent(state.system_changes):
            part = Counter(n for _, n in state.system_changes).most_common(1)[0][0]
            ids = [t for t, _ in state.system_changes]
            out.append(Finding(
                "turn-volatile-system-text", "warning", sid, rid, part, len(ids), turns, ids[:10],
                f"The system prompt changes between turns at {part} in {len(ids)} of {turns} turns (a "
                "{{ player.character }}-style value inside it?): everything after it, the whole history "
                "included, is re-sent uncached every turn. Move turn-volatile values to the turn context.",
                state.examples.get("turn-volatile-system-text")))
        if state.too_many:
            most = max(n for _, n in state.too_many)
            limit = self._limit_for(state)
            out.append(Finding(
                "too-many-breakpoints", "warning", sid, rid, "cache breakpoints", len(state.too_many),
                state.summary.pairs, [t for t, _ in state.too_many][:10],
                f"{len(state.too_many)} requests carry more than {limit} cache_control breakpoints (up to {most}); "
                "Anthropic accepts at most that many, so the prediction honours only the first ones."))
        writes: Counter = Counter()
        reads: Counter = Counter()
        turns_of: dict[str, list[str]] = {}
        for turn_id, locations, read in state.bp_calls:
            for where, j in locations:
                writes[where] += 1
                if j in read:
                    reads[where] += 1
                turns_of.setdefault(where, []).append(turn_id)
        for where, n in writes.items():
            if n >= _FINDING_MIN_TURNS and reads[where] == 0:
                out.append(Finding(
                    "breakpoint-on-volatile-content", "warning", sid, rid, where, n, n, turns_of[where][:10],
                    f"The cache_control breakpoint on the {where} is written {n} times and never read: the content "
                    "before it changes every turn, so each write pays the write premium for nothing."))
        if state.data_last:
            out.append(Finding(
                "data-blocks-last", "warning", sid, rid, "turn context", len(state.data_last), turns + 1,
                state.data_last[:10],
                "The turn context (data blocks such as <runtime-inputs>) is the last message of the request; "
                "Covel keeps it before the player message because small models copy data-block syntax into "
                "tool calls when it comes last."))
        if frequent(state.sliding):
            out.append(Finding(
                "sliding-history-window", "warning", sid, rid, "history", len(state.sliding), turns,
                state.sliding[:10],
                f"The oldest history message changes in {len(state.sliding)} of {turns} turns: the history window "
                "slides every turn, so no turn can reuse the previous turn's history from the cache. Trim in "
                "larger steps (Covel prunes in 30 % steps) or summarise instead.",
                state.examples.get("sliding-history-window")))
        if frequent(state.history_moves):
            out.append(Finding(
                "moving-history-insertion", "warning", sid, rid, "history › depth insertion",
                len(state.history_moves), turns, state.history_moves[:10],
                f"A depth insertion inside the history (a lorebook or extension segment at depth n) moves in "
                f"{len(state.history_moves)} of {turns} turns: the history is re-sent uncached from that point "
                "every turn. Place it in the turn context or at depth 0.",
                state.examples.get("moving-history-insertion")))
        return out

    @staticmethod
    def _limit_for(state: _RuntimeState) -> int:
        return state.last.rules.max_breakpoints if state.last is not None and state.last.rules.max_breakpoints else 0


_RESPONSE_RUNTIME = b'{"runtimeId":"'
_USAGE_KEY = b',"usage":'


def _response_fields(ev: Any) -> tuple[str | None, int, Any, bool]:
    """``(runtimeId, attempt, usage, failed)`` of an ``llm.responded`` row without parsing the reply text
    that comes before ``usage`` (covel-db.md §2.2 key order). The text after the last ``usage``
    key parses as the rest of the top-level object only when that key is the top-level one;
    anything unexpected falls back to the stored payload."""
    raw = ev.raw_payload
    if isinstance(raw, (bytes, bytearray)) and raw.startswith(_RESPONSE_RUNTIME):
        end = raw.find(b'"', len(_RESPONSE_RUNTIME))
        p = raw.rfind(_USAGE_KEY)
        if end > 0 and p > end and b"\\" not in raw[len(_RESPONSE_RUNTIME) : end]:
            try:
                tail = orjson.loads(b"{" + raw[p + 1 :])
            except orjson.JSONDecodeError:
                tail = None
            if isinstance(tail, dict) and "attempt" in tail:
                attempt = int_or_none(tail.get("attempt")) or 0
                return (raw[len(_RESPONSE_RUNTIME) : end].decode("utf-8", "replace"), attempt, tail.get("usage"),
                        tail.get("finishReason") == "error")
    payload = ev.payload
    return ev.runtime_id, ev.attempt or 0, payload.get("usage"), payload.get("finishReason") == "error"


def _usage_values(usage: TokenUsage | None) -> tuple | None:
    if usage is None:
        return None
    return (usage.input_tokens, usage.output_tokens, usage.cached_input_tokens, usage.cache_write_input_tokens)


def _context(prev: _Call, cur: _Call, cmp: _Comparison) -> tuple[str | None, str | None]:
    """Text around the first difference (40 before, 80 after), like Covel's report."""
    d = cmp.index
    if d >= len(cur.parts):
        return None, None
    now_text = cur.parts[d].text
    was_text = prev.parts[d].text if d < len(prev.parts) else None
    start = max(0, cmp.offset_chars - CONTEXT_BEFORE)
    end = cmp.offset_chars + CONTEXT_AFTER
    return (was_text[start:end] if was_text is not None else None), now_text[start:end]


def _system_request(call: _Call) -> NormalisedRequest:
    body = call.layout.system_body
    if call.protocol is None:
        return from_kernel({"messages": body.get("messages", [])})
    return from_provider_body(dict(body), call.protocol)


def _stand_in_user() -> list[Message]:
    from inspector.wire.model import Part as WirePart

    return [Message("user", [WirePart(kind=TEXT, text=".")], 1)]


def _stand_in_turn_context() -> list[Message]:
    """Messages that make the labeller find a turn context among the messages, which is all the
    system prompt's labelling depends on (it looks for an embedded one otherwise)."""
    from inspector.wire.model import Part as WirePart

    return [Message("system", [WirePart(kind=TEXT, text="<runtime-inputs>{}</runtime-inputs>")], 0)] + _stand_in_user()


# =============================================================================================
# Entry points
# =============================================================================================


def iter_cache_pairs(store: Store, session_id: str, *, rules: RuleSet | None = None,
                     runtime_id: str | None = None) -> Iterator[CachePair]:
    """The pairs of one session, progressively (see :class:`SessionCacheAnalyser`)."""
    return SessionCacheAnalyser(store, session_id, rules=rules, runtime_id=runtime_id).pairs()


def analyse_session(store: Store, session_id: str, *, rules: RuleSet | None = None,
                    runtime_id: str | None = None, on_pair: Callable[[CachePair], None] | None = None,
                    should_stop: Callable[[], bool] | None = None, naming_mode: str = "fast",
                    warn: Callable[[str], None] | None = None) -> CacheAnalysis:
    """The whole analysis of one session. ``on_pair`` sees each pair as it is made;
    ``should_stop`` is polled between pairs (a cancelled view) and ends the run early."""
    analyser = SessionCacheAnalyser(store, session_id, rules=rules, runtime_id=runtime_id,
                                    naming_mode=naming_mode, warn=warn)
    pairs: list[CachePair] = []
    gen = analyser.pairs()
    try:
        for pair in gen:
            pairs.append(pair)
            if on_pair is not None:
                on_pair(pair)
            if should_stop is not None and should_stop():
                break
    finally:
        gen.close()
    return CacheAnalysis(session_id, pairs, analyser.findings, analyser.summaries, analyser.warnings)


def analyse_store(store: Store, session_id: str | None = None, *, rules: RuleSet | None = None,
                  runtime_id: str | None = None, warn: Callable[[str], None] | None = None) -> list[CacheAnalysis]:
    """Every session (or the one asked for), in the store's session order."""
    ids: Iterable[str] = [session_id] if session_id is not None else [s.id for s in store.sessions()]
    return [analyse_session(store, sid, rules=rules, runtime_id=runtime_id, warn=warn) for sid in ids]
