"""Reading an ``llm.calling`` payload only as far as the provider body.

A payload holds the provider body and, after it, Covel's kernel copy of the same messages (about
half its bytes). :func:`decode_payload` finds where the body ends by the keys Covel writes after
it (covel-db.md §2.2-2.3) and reads the few top-level scalars the analysis needs, so the kernel
copy is never parsed; a payload laid out any other way is parsed whole, the way
:func:`inspector.wire.parse.request_for` reads it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson

from inspector.json_guards import int_accepting_integral_float, str_or_none
from inspector.store import parse_json_object
from inspector.wire.fields import PROMPT_FIELDS
from inspector.wire.parse import detect_protocol, provider_attempts
from inspector.wire.protocols import ALL_PROTOCOLS

__all__ = ["Decoded", "Unreadable", "decode_payload", "decoded_from_hint", "full_decode"]


class Unreadable(ValueError):
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
class Decoded:
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
        head again (decoded_from_hint); None when the payload was not read that way."""
        if self.body_span is None or self.raw_body is None:
            return None
        return (len(self.raw), *self.body_span, self.protocol, self.provider, self.model, self.runtime_id,
                self.attempt, self.started_at)


def decoded_from_hint(raw: Any, hint: tuple | None) -> Decoded:
    """``decode_payload(raw)``, taking what the app's side found in the same row (Decoded.hint):
    a trace row is written once, so the same bytes decode the same. Decoded again when the hint
    does not fit them."""
    if hint is None or type(raw) is not bytes or len(raw) != hint[0]:
        return decode_payload(raw)
    _, start, end, protocol, provider, model, runtime_id, attempt, started_at = hint
    return Decoded(None, protocol, provider, model, runtime_id, attempt, started_at, raw_body=raw[start:end],
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


def _fast_decode(raw: bytes) -> Decoded | None:
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


def _make_decoded(body: dict | None, protocol: Any, provider: str | None, fields: dict) -> Decoded:
    declared = protocol if isinstance(protocol, str) else None
    chosen = declared if declared in ALL_PROTOCOLS else None
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
    return Decoded(
        body=body,
        protocol=chosen,
        provider=provider,
        model=model,
        runtime_id=str_or_none(runtime),
        # Covel writes attempt as a JavaScript number: read as the store reads it (TraceEvent.attempt).
        attempt=int_accepting_integral_float(attempt) or 0,
        started_at=str_or_none(started),
    )


def full_decode(raw: Any) -> Decoded:
    """Any payload the store can read, the way ``request_for`` reads it."""
    payload, error = parse_json_object(raw, merge_data=True)
    if error is not None:
        raise Unreadable(error)
    provider = payload.get("provider") if isinstance(payload.get("provider"), str) else None
    for attempt in provider_attempts(payload):
        if attempt.body is None:
            continue
        if provider is None and attempt.provider is not None:
            provider = attempt.provider
        if any(k in attempt.body for k in PROMPT_FIELDS):
            return _make_decoded(attempt.body, attempt.protocol, provider, payload)
        break
    decoded = _make_decoded(None, None, provider, payload)
    messages = payload.get("messages")
    tools = payload.get("tools")
    if not isinstance(messages, list):
        raise Unreadable("the request has no provider body and no messages list")
    decoded.kernel_messages = messages
    decoded.kernel_tools = tools if isinstance(tools, list) else []
    return decoded


def decode_payload(raw: Any) -> Decoded:
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
    return full_decode(raw)
