"""The analysis's own reader of a provider body's message list, from its bytes.

:mod:`inspector.wire.parse` reads a whole request; a session's requests repeat almost all of the
one before, so this reader takes the leading elements that recur byte for byte from the previous
body (a memcmp, no parse), knows a later element seen before by its bytes, and parses only what is
new. Its answer is the same list of elements the full parse gives (tests/inspector/cache check
both).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

import numpy as np
import orjson

from inspector.cache.parts import Elem, Part, PartTable, element_of
from inspector.cache.payload import Decoded, full_decode
from inspector.wire.fields import LIST_KEYS, PROMPT_FIELDS
from inspector.wire.parse import detect_protocol
from inspector.wire.protocols import OPENAI_RESPONSES

__all__ = ["Body", "read_body"]


# A key no provider body has, for the list while the rest of the body is parsed around it.
_REST_KEY = "\u0000list"


_REST_KEY_JSON = b'"\\u0000list"'


_dumps = orjson.dumps


@dataclass(slots=True)
class Body:
    """A provider body split into its message list and everything else (``rest``), with the
    byte span of each leading element whose span is known, when the body was read from bytes."""

    rest: dict
    elements: list[Elem]
    parts: list[Part]  # the parts of ``elements``, in the same order
    data: bytes | None = None
    list_start: int = 0  # index just after the list's "["
    # end of each leading element whose bytes are known, relative to ``list_start``
    ends: list[int] = field(default_factory=list)
    rest_prefix: dict = field(default_factory=dict)  # the members before the list
    reused: int = 0  # leading elements taken as they were from the previous body
    suffix: int = 0  # length of the bytes from the list's "]" to the end, when known


def _same_elements(data: bytes, start: int, ref: Body) -> int:
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


def _body_from_bytes(data: bytes, protocol: str | None, ref: Body | None, table: PartTable) -> Body | None:
    """Read a body from its bytes, taking the leading elements that recur byte for byte from the
    previous request's body (a memcmp, no parse). When the members after the list are those of
    the previous body, the new elements are cut apart and known by their bytes (_cut_elements).
    What remains is parsed in one piece; such an element's end is recorded only when
    re-serialising it gives exactly the bytes found there. A recorded end is always a true
    element boundary."""
    list_key = LIST_KEYS.get(protocol or "")
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
                elem = element_of(el, protocol, table)
        else:
            elem = element_of(el, protocol, table)
        elements.append(elem)
        parts.append(elem.part)
    suffix = 0
    if recording:
        # Every element's end is known, so the list's "]" is: remember what follows it.
        close = list_start + ends[-1] if ends else list_start
        if data[close : close + 1] == b"]":
            suffix = len(data) - close
    return Body(rest, elements, parts, data, list_start, ends, prefix, k, suffix)  # type: ignore[arg-type]


def _cut_elements(data: bytes, pos: int, close: int, protocol: str | None, table: PartTable, list_start: int,
                  elements: list[Elem], parts: list[Part], ends: list[int]) -> int:
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


def _body_from_dict(body: dict, protocol: str | None, table: PartTable) -> Body:
    list_key = LIST_KEYS.get(protocol or "", "messages")
    items = body.get(list_key)
    if protocol == OPENAI_RESPONSES and isinstance(items, str):
        items = [items]
    if not isinstance(items, list):
        items = []
    rest = {k: v for k, v in body.items() if k != list_key}
    elements = [element_of(el, protocol, table) for el in items]
    return Body(rest, elements, [e.part for e in elements])


def read_body(dec: Decoded, ref: Body | None, table: PartTable) -> Body | None:
    """The body as elements: from its bytes when possible (taking what recurs from ``ref``, the
    runtime's previous body), else parsed; None on the kernel view."""
    if dec.raw_body is not None:
        body = _body_from_bytes(dec.raw_body, dec.protocol, ref, table)
        if body is not None:
            return body
        try:
            parsed = orjson.loads(dec.raw_body)
        except orjson.JSONDecodeError:
            parsed = None
        if isinstance(parsed, dict) and any(k in parsed for k in PROMPT_FIELDS):
            if dec.protocol not in LIST_KEYS:
                dec.protocol = detect_protocol(parsed)
            return _body_from_dict(parsed, dec.protocol, table)
        # A body without prompt fields: the full reader decides (kernel view, request_for's rule).
        full = full_decode(dec.raw)
        dec.body, dec.kernel_messages, dec.kernel_tools = full.body, full.kernel_messages, full.kernel_tools
        dec.protocol = full.protocol
        dec.raw_body = None
    if dec.body is not None:
        return _body_from_dict(dec.body, dec.protocol, table)
    return None
