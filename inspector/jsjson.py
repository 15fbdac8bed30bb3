"""JavaScript value semantics that a byte-exact port of a Node script needs.

Covel's tools measure strings in UTF-16 code units, serialise with ``JSON.stringify`` and round
with ``Math.round``. Python counts code points, prints ``1.0`` for an integral float, keeps object
keys in insertion order and rounds half to even. Everything here closes those gaps, and nothing
else in the project re-implements them.

Values are the ones a JSON parser gives: dict, list, str, int, float, bool, None. ``UNDEFINED``
stands for JavaScript's ``undefined`` (an absent key), which ``JSON.stringify`` omits.
"""

from __future__ import annotations

import json
import math
import re
import sys
from json.encoder import encode_basestring as _encode_basestring
from typing import Any

import orjson

from .json_deep import parse_iterative

__all__ = [
    "UNDEFINED",
    "JsBytes",
    "js_column",
    "node_text",
    "js_parse",
    "js_stringify",
    "js_quote",
    "js_number",
    "js_to_string",
    "js_truthy",
    "js_round",
    "has_astral",
    "utf16_len",
    "utf16_to_index",
    "js_slice",
    "common_prefix_utf16",
    "replace_lone_surrogates",
    "JS_SPACE",
    "js_trim",
    "js_is_blank",
    "js_to_number",
    "js_code_units",
]


class _Undefined:
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNDEFINED"

    def __bool__(self) -> bool:
        return False


UNDEFINED: Any = _Undefined()


class JsBytes:
    """A ``Uint8Array``: what node:sqlite gives for a BLOB column (a Covel id stored as BLOB).

    An object, so equal only to itself (``===``): two rows' BLOBs never compare equal, even with
    the same bytes. ``String()`` joins the bytes with commas (``"1,2,3"``); ``JSON.stringify``
    writes an object of index keys (``{"0":1,"1":2,"2":3}``).
    """

    __slots__ = ("data",)

    def __init__(self, data: bytes | bytearray | memoryview) -> None:
        self.data = bytes(data)

    def __repr__(self) -> str:
        return f"JsBytes({self.data!r})"

    def items(self) -> list[tuple[str, int]]:
        return [(str(i), b) for i, b in enumerate(self.data)]


def js_column(value: Any) -> Any:
    """A SQLite column value as node:sqlite hands it to JavaScript: bytes (a BLOB) become a
    :class:`JsBytes`; text, numbers and NULL are already the JavaScript values."""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return JsBytes(value)
    return value

_MAX_SAFE = 2**53
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_ARRAY_INDEX = re.compile(r"(?:0|[1-9][0-9]{0,9})")
_MAX_ARRAY_INDEX = 2**32 - 2


def node_text(data: bytes | bytearray | memoryview) -> str:
    """The string Node gives for a SQLite TEXT value holding these bytes (node:sqlite and
    better-sqlite3 both decode with V8's UTF-8 decoder): each invalid sequence, including an
    encoded surrogate, becomes U+FFFD, one per maximal invalid subpart as Python's "replace"
    handler does too. The one rule for turning stored payload bytes into text."""
    return bytes(data).decode("utf-8", "replace")


def js_parse(data: str | bytes | bytearray | memoryview) -> Any:
    """Parse JSON as ``JSON.parse`` would, for the values it can produce.

    Bytes are a stored payload: they are read as :func:`node_text` reads them, so invalid UTF-8
    becomes U+FFFD as it does for Covel. orjson is several times faster than the stdlib; it
    refuses a few inputs JavaScript accepts (integers past 64 bits, lone surrogate escapes,
    invalid UTF-8 bytes, nesting past 1,024 levels), for which the stdlib parser is the fallback,
    and past the stdlib's recursion limit the iterative parser of :mod:`inspector.json_deep`.
    Raises ``ValueError`` on text that is not JSON.
    """
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        if isinstance(data, (bytes, bytearray, memoryview)):
            data = node_text(data)
        # json.loads accepts NaN/Infinity literals; JSON.parse does not.
        try:
            return json.loads(data, parse_constant=_reject_constant, parse_int=_parse_int)
        except RecursionError:
            pass
    # Nested deeper than the recursive parsers go: V8 keeps its own stack, and so does this one.
    return parse_iterative(data)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _parse_int(text: str) -> int | float:
    # An integer literal of more than 309 digits is past the largest double: JavaScript reads
    # +-Infinity. int() would refuse literals past Python's 4300-digit conversion limit.
    if len(text) > 310:
        return float(text)
    return int(text)


def js_quote(text: str) -> str:
    """``JSON.stringify(text)``: like Python's escaping, plus lone surrogates as ``\\udxxx``."""
    quoted = _encode_basestring(text)
    if _LONE_SURROGATE.search(quoted):
        quoted = _LONE_SURROGATE.sub(lambda m: "\\u%04x" % ord(m.group()), quoted)
    return quoted


def js_number(value: int | float) -> str:
    """``Number.prototype.toString`` for a JSON number (ECMAScript Number::toString, radix 10)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if -_MAX_SAFE <= value <= _MAX_SAFE:
            return str(value)
        try:
            value = float(value)
        except OverflowError:
            return "Infinity" if value > 0 else "-Infinity"
    if value != value:
        return "NaN"
    if value in (math.inf, -math.inf):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"  # -0 prints as 0
    sign = "-" if value < 0 else ""
    # repr gives the shortest round-tripping digits, as JS does; only the layout differs.
    mantissa, _, exponent = repr(abs(value)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    point = len(whole) + (int(exponent) if exponent else 0)
    if whole == "0":
        # 0.00123 -> digits "123", the point sits before the leading zeros of the fraction.
        point = -(len(fraction) - len(fraction.lstrip("0"))) + (int(exponent) if exponent else 0)
    digits = digits.rstrip("0") or "0"
    k, n = len(digits), point
    if k <= n <= 21:
        out = digits + "0" * (n - k)
    elif 0 < n <= 21:
        out = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        out = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        exp = ("+" if e >= 0 else "-") + str(abs(e))
        out = digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + exp
    return sign + out


def _is_array_index(key: str) -> bool:
    return _ARRAY_INDEX.fullmatch(key) is not None and int(key) <= _MAX_ARRAY_INDEX


def _ordered_items(obj: dict) -> list[tuple[str, Any]]:
    """JS own-property order: array-index keys ascending first, then the rest as inserted."""
    index_keys = [k for k in obj if _is_array_index(k)]
    if not index_keys:
        return list(obj.items())
    index_keys.sort(key=int)
    rest = [k for k in obj if not _is_array_index(k)]
    return [(k, obj[k]) for k in index_keys] + [(k, obj[k]) for k in rest]


_OPEN = object()  # _stringify_scalar's answer for an array or object


def _stringify_scalar(value: Any) -> Any:
    """JSON.stringify of a non-container; None for undefined; _OPEN for an array or object."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return js_quote(value)
    if isinstance(value, (int, float)):
        text = js_number(value)
        return "null" if text in ("NaN", "Infinity", "-Infinity") else text
    if value is UNDEFINED:
        return None
    if isinstance(value, (list, tuple, dict, JsBytes, bytes, bytearray, memoryview)):
        return _OPEN  # bytes (a BLOB column) are written as the Uint8Array node:sqlite gives
    raise TypeError(f"not a JSON value: {type(value).__name__}")


def _stringify_exact(value: Any, indent: str) -> str | None:
    """The general JSON.stringify; returns None for values JSON.stringify omits (undefined).

    Iterative (an explicit stack of open containers), so any depth a parser gives is written.
    """
    top = _stringify_scalar(value)
    if top is not _OPEN:
        return top
    out: list[str] = []
    colon = ": " if indent else ":"
    # Each open container: [its items iterator, is an object, depth, members written].
    stack: list[list[Any]] = []

    def open_container(container: Any, depth: int) -> None:
        if isinstance(container, dict):
            stack.append([iter(_ordered_items(container)), True, depth, 0])
            out.append("{")
        elif isinstance(container, (JsBytes, bytes, bytearray, memoryview)):
            stack.append([iter(js_column(container).items()), True, depth, 0])
            out.append("{")
        else:
            stack.append([iter(container), False, depth, 0])
            out.append("[")

    open_container(value, 0)
    while stack:
        frame = stack[-1]
        items, is_object, depth, count = frame
        for item in items:
            if is_object:
                key, item = item
                text = _stringify_scalar(item)
                if text is None:
                    continue
            else:
                text = _stringify_scalar(item)
                if text is None:
                    text = "null"
            if count:
                out.append(",")
            if indent:
                out.append("\n" + indent * (depth + 1))
            if is_object:
                out.append(js_quote(str(key)) + colon)
            count += 1
            if text is _OPEN:
                frame[3] = count
                open_container(item, depth + 1)
                break
            out.append(text)
        else:
            stack.pop()
            if count and indent:
                out.append("\n" + indent * depth)
            out.append("}" if is_object else "]")
    return "".join(out)


def js_stringify(value: Any, indent: int | None = None) -> str | None:
    """``JSON.stringify(value, null, indent)``, character for character.

    Returns None where JavaScript returns ``undefined`` (for ``UNDEFINED``).
    """
    fast = _stringify_orjson(value, indent)
    if fast is not None:
        return fast
    return _stringify_exact(value, " " * indent if indent else "")


# What orjson writes the same way as JSON.stringify, checked on its output in one C pass: the
# bytes are mapped to classes (a digit -> "0", "e" "E" -> "e", "+" "-" -> "+"; ".", quote and colon
# kept; anything else -> " "), then four substring searches. orjson writes every float as digits
# with "." and a digit or "e" and a sign ("1.0", "1e-7", "1e+16", "-0.0"), and JavaScript writes some
# of them differently ("1", "10000000000000000", "0"); a key that is an array index ends in a digit
# before '":' (JavaScript puts those keys first); an integer of 16 digits may be past 2**53, where
# JavaScript rounds. Strings are escaped alike (control characters as \b \t \n \f \r or lowercase
# \u00xx, nothing else), and orjson refuses lone surrogates, integers past 64 bits, nesting past
# 255 levels and anything that is not a JSON value (UNDEFINED, JsBytes), which then take the exact
# writer. A false alarm (such a pattern inside a string, "v1.5") only costs the exact writer.
_CLASSES = bytes(
    ord("0") if 48 <= b <= 57 else ord("e") if b in b"eE" else ord("+") if b in b"+-"
    else b if b in b'.":' else ord(" ")
    for b in range(256)
)
_SUSPECT = (b"0.0", b"0e+", b'0":', b"0" * 16)
# Values orjson would write that are no JSON value (datetime, dataclass) or that the exact writer
# reads by isinstance (subclasses) are refused, so they take the exact writer as before.
_PASSTHROUGH = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_SUBCLASS
_ORJSON_INDENT = {None: _PASSTHROUGH, 0: _PASSTHROUGH, 2: _PASSTHROUGH | orjson.OPT_INDENT_2}


def _stringify_orjson(value: Any, indent: int | None) -> str | None:
    """The fast path of :func:`js_stringify` (same text, or None where it cannot vouch for it)."""
    option = _ORJSON_INDENT.get(indent)
    if option is None:
        return None
    try:
        data = orjson.dumps(value, option=option)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return None
    classes = data.translate(_CLASSES)
    if any(suspect in classes for suspect in _SUSPECT):
        return None
    return data.decode("utf-8")


def js_to_string(value: Any) -> str:
    """``String(value)``, as a template literal interpolates it."""
    if value is UNDEFINED:
        return "undefined"
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return js_number(value)
    if isinstance(value, (JsBytes, bytes, bytearray, memoryview)):
        return ",".join(map(str, js_column(value).data))
    if isinstance(value, (list, tuple)):
        return _join_array(value)
    return "[object Object]"


def _join_array(value: list | tuple) -> str:
    """``Array.prototype.join(",")`` (String of an array), iterative: nested arrays flatten."""
    out: list[str] = []
    stack = [iter(value)]
    first = [True]
    while stack:
        for item in stack[-1]:
            if not first[-1]:
                out.append(",")
            first[-1] = False
            if isinstance(item, (list, tuple)):
                stack.append(iter(item))
                first.append(True)
                break
            if item is not None and item is not UNDEFINED:
                out.append(js_to_string(item))
        else:
            stack.pop()
            first.pop()
    return "".join(out)


def js_truthy(value: Any) -> bool:
    if value is UNDEFINED or value is None or value is False:
        return False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value != 0 and value == value
    if isinstance(value, str):
        return value != ""
    return True


def js_round(x: float) -> int:
    """``Math.round``: halves round towards +infinity (Python's round() goes to even)."""
    floor = math.floor(x)
    return floor + 1 if x - floor >= 0.5 else floor


def _calibrate_ucs4_overhead() -> int | None:
    """CPython stores a str at the narrowest width that fits its widest character, so a string
    stored 4 bytes wide holds an astral character. ``sys.getsizeof`` reveals the width in O(1);
    scanning the text (``max(text)``) costs more than everything else a large report does.
    Returns the fixed overhead of a 4-byte-wide str, or None where that does not hold."""
    probes = ["\U00010000" * n for n in (1, 2, 7)]
    overheads = {sys.getsizeof(p) - 4 * (len(p) + 1) for p in probes}
    narrow = {sys.getsizeof("\uffff" * n) - 4 * (n + 1) for n in (1, 2, 7)}
    if len(overheads) == 1 and not (overheads & narrow):
        return overheads.pop()
    return None


_UCS4_OVERHEAD = _calibrate_ucs4_overhead()


def has_astral(text: str) -> bool:
    if text.isascii():
        return False
    if _UCS4_OVERHEAD is not None:
        return sys.getsizeof(text) == _UCS4_OVERHEAD + 4 * (len(text) + 1)
    return max(text) > "\uffff"


def utf16_len(text: str) -> int:
    """``text.length`` in JavaScript: UTF-16 code units."""
    if not has_astral(text):
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def utf16_to_index(text: str, offset: int) -> int:
    """The number of whole code points in the first ``offset`` UTF-16 units of ``text``."""
    if not has_astral(text):
        return min(offset, len(text))
    units = 0
    for i, ch in enumerate(text):
        units += 2 if ch > "\uffff" else 1
        if units > offset:
            return i
    return len(text)


def js_slice(text: str, start: int, end: int | None = None) -> str:
    """``text.slice(start, end)`` in UTF-16 units; a cut through a pair leaves a lone surrogate."""
    if not has_astral(text):
        return text[start:end]
    units = text.encode("utf-16-le", "surrogatepass")
    stop = None if end is None else 2 * end
    return units[2 * start : stop].decode("utf-16-le", "surrogatepass")


def common_prefix_utf16(a: str, b: str) -> int:
    """How many leading UTF-16 code units ``a`` and ``b`` share (a charCodeAt loop)."""
    limit = min(len(a), len(b))
    lo, hi = 0, limit
    # Binary search on slice equality runs in C; a per-character Python loop would not.
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    units = utf16_len(a[:lo])
    # Two different code points can still share their first UTF-16 unit: two astral characters
    # with the same high surrogate, or a lone high surrogate (from a JSON escape) and an astral
    # character starting with it. Then the second units differ (JSON.parse never leaves a high and
    # a low surrogate side by side as two code points), so at most one more unit is shared.
    if lo < limit and _first_unit(a[lo]) == _first_unit(b[lo]):
        units += 1
    return units


def _first_unit(ch: str) -> int:
    code = ord(ch)
    return 0xD800 + ((code - 0x10000) >> 10) if code > 0xFFFF else code


def replace_lone_surrogates(text: str) -> str:
    """What Node writes to a UTF-8 stream for a lone surrogate: U+FFFD."""
    if text.isascii():
        return text
    return _LONE_SURROGATE.sub("\ufffd", text)


# --- String.prototype.trim, \s and Number() ----------------------------------------------------
# The JavaScript string semantics the engines' TypeScript relies on and Python spells differently.
# ``String.prototype.trim`` and the regular-expression class ``\s`` use one set of characters
# (WhiteSpace and LineTerminator: it includes U+FEFF, and not U+001C..U+001F or U+0085, which
# Python's ``str.strip`` and ``\s`` do treat as whitespace). ``Number(value)`` reads hexadecimal,
# binary and octal literals, an empty string as 0 and rejects ``1_000`` and ``infinity``.

# The members of WhiteSpace + LineTerminator, as a character-class body for re patterns.
JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
# The same set spelled out for str.strip, which only looks at the ends (a regex would scan the
# whole text, and histories are long).
_SPACE_CHARS = "\t\n\v\f\r \u00a0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000\ufeff"
_DECIMAL = re.compile(r"[+-]?(?:Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)")
_RADIX = re.compile(r"0([xXoObB])([0-9A-Za-z]+)")
_RADIX_BASE = {"x": 16, "o": 8, "b": 2}


def js_trim(text: str) -> str:
    """``text.trim()``."""
    return text.strip(_SPACE_CHARS)


def js_is_blank(value: Any) -> bool:
    """Whether ``value?.trim()`` is falsy: not a string, or only JavaScript whitespace."""
    return not isinstance(value, str) or not js_trim(value)


def js_to_number(value: Any) -> float:
    """``Number(value)`` for a JSON value (NaN where JavaScript gives NaN)."""
    if value is None:
        return 0.0
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)):
        return _to_float(value)
    if isinstance(value, (dict, list)):
        # ToPrimitive: an array becomes its join(","), an object "[object Object]".
        return js_to_number(js_to_string(value))
    if not isinstance(value, str):
        return math.nan
    text = js_trim(value)
    if not text:
        return 0.0
    if _DECIMAL.fullmatch(text):
        return float(text.replace("Infinity", "inf"))
    radix = _RADIX.fullmatch(text)
    if radix:
        try:
            return _to_float(int(radix.group(2), _RADIX_BASE[radix.group(1).lower()]))
        except ValueError:
            return math.nan
    return math.nan


def _to_float(number: int | float) -> float:
    try:
        return float(number)
    except OverflowError:  # an integer past the largest double is Infinity in JavaScript
        return math.inf if number > 0 else -math.inf


def js_code_units(text: str) -> bytes:
    """A sort key that orders strings as JavaScript's ``<`` does: by UTF-16 code unit, which
    differs from Python's code-point order for astral characters against U+E000..U+FFFF."""
    return text.encode("utf-16-be", "surrogatepass")
