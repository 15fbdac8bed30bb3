"""The JavaScript string semantics writing-agent's TypeScript relies on and Python spells differently.

``String.prototype.trim`` and the regular-expression class ``\\s`` use one set of characters
(WhiteSpace and LineTerminator: it includes U+FEFF, and not U+001C..U+001F or U+0085, which
Python's ``str.strip`` and ``\\s`` do treat as whitespace). ``Number(value)`` reads hexadecimal,
binary and octal literals, an empty string as 0 and rejects ``1_000`` and ``infinity``. A history
pasted from a Windows editor starts with a BOM; an order typed by hand has ``"order": ""``: both
must read as the original reads them.
"""

from __future__ import annotations

import math
import re
from typing import Any

from inspector.jsjson import js_to_string

__all__ = ["JS_SPACE", "js_trim", "js_is_blank", "js_to_number"]

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
        return math.copysign(math.inf, number)
