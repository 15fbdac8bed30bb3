"""An iterative ``JSON.parse``: the same values as :func:`inspector.jsjson.js_parse`, at any depth.

V8's ``JSON.parse`` keeps its own stack, so Covel reads a payload nested thousands of levels
deep; orjson refuses more than 1,024 levels and the stdlib parser recurses on the C stack. This
parser keeps an explicit stack of open containers instead, and is only the fallback for what the
fast parsers refuse (it is several times slower). It follows ECMA-404 as ``JSON.parse`` does:
whitespace is space, tab, LF and CR only; no NaN/Infinity literals; a duplicate key keeps its
first position and takes the last value (a Python dict assignment does exactly that, and
``__proto__`` is an ordinary key to ``JSON.parse``); an integer literal of more than 309 digits
is past the largest double and reads as +-Infinity; ``\\ud800`` escapes stay lone surrogates.
"""

from __future__ import annotations

import json
import re
from json.decoder import scanstring
from typing import Any

import orjson

__all__ = ["parse_iterative", "dumps_iterative", "repr_any_depth", "json_key", "json_text", "sorted_json_text",
           "NESTED_TOO_DEEP"]

# The per-row message where a walk of ours still recurses on a payload V8 reads at this depth.
NESTED_TOO_DEEP = ("the payload is nested deeper than this analysis can walk (Python's recursion limit); "
                   "Covel reads it, the prefix report and the request view show it")

_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_LITERALS = {"true": True, "false": False, "null": None}
_MAX_INT_DIGITS = 310  # past this an integer literal is beyond the largest double


def _number(text: str, is_integer: bool) -> int | float:
    if is_integer and len(text) <= _MAX_INT_DIGITS:
        return int(text)
    return float(text)


class _OpenObject:
    __slots__ = ("obj", "key")

    def __init__(self, key: str) -> None:
        self.obj: dict[str, Any] = {}
        self.key = key


def _fail(what: str, pos: int) -> ValueError:
    return ValueError(f"{what} at character {pos}")


def parse_iterative(text: str) -> Any:
    """Parse ``text`` (a str) as ``JSON.parse`` would; raises ``ValueError`` on text that is not JSON."""
    ws = _WS.match
    number = _NUMBER.match
    # Open containers: a list, or an object with the key whose value comes next.
    stack: list[Any] = []
    pos = ws(text, 0).end()
    end = len(text)
    while True:
        # A value starts at pos.
        if pos >= end:
            raise _fail("unexpected end of JSON input", pos)
        ch = text[pos]
        if ch == "{":
            pos = ws(text, pos + 1).end()
            if pos < end and text[pos] == "}":
                value: Any = {}
                pos += 1
            else:
                if pos >= end or text[pos] != '"':
                    raise _fail("expected a property name", pos)
                key, pos = scanstring(text, pos + 1, True)
                pos = ws(text, pos).end()
                if pos >= end or text[pos] != ":":
                    raise _fail("expected ':' after a property name", pos)
                pos = ws(text, pos + 1).end()
                stack.append(_OpenObject(key))
                continue
        elif ch == "[":
            pos = ws(text, pos + 1).end()
            if pos < end and text[pos] == "]":
                value = []
                pos += 1
            else:
                stack.append([])
                continue
        elif ch == '"':
            value, pos = scanstring(text, pos + 1, True)
        else:
            match = number(text, pos)
            if match is not None:
                value = _number(match.group(), match.group(1) is None and match.group(2) is None)
                pos = match.end()
            else:
                for word, literal in _LITERALS.items():
                    if text.startswith(word, pos):
                        value = literal
                        pos += len(word)
                        break
                else:
                    raise _fail(f"unexpected character {ch!r}", pos)
        # A value is complete: hand it to the containers it closes.
        while True:
            if not stack:
                pos = ws(text, pos).end()
                if pos != end:
                    raise _fail("unexpected text after the JSON value", pos)
                return value
            top = stack[-1]
            pos = ws(text, pos).end()
            nxt = text[pos] if pos < end else ""
            if type(top) is list:
                top.append(value)
                if nxt == ",":
                    pos = ws(text, pos + 1).end()
                    break
                if nxt == "]":
                    pos += 1
                    value = stack.pop()
                    continue
                raise _fail("expected ',' or ']' in an array", pos)
            obj = top.obj
            obj[top.key] = value
            if nxt == ",":
                pos = ws(text, pos + 1).end()
                if pos >= end or text[pos] != '"':
                    raise _fail("expected a property name", pos)
                top.key, pos = scanstring(text, pos + 1, True)
                pos = ws(text, pos).end()
                if pos >= end or text[pos] != ":":
                    raise _fail("expected ':' after a property name", pos)
                pos = ws(text, pos + 1).end()
                break
            if nxt == "}":
                pos += 1
                stack.pop()
                value = obj
                continue
            raise _fail("expected ',' or '}' in an object", pos)


def dumps_iterative(value: Any, *, sort_keys: bool = False) -> str:
    """Compact JSON of a parsed value at any depth (Python's number spelling, non-ASCII kept):
    the fallback where orjson refuses (more than 255 levels, integers past 64 bits) and the
    stdlib and ``repr`` would recurse. Not JSON.stringify: see ``jsjson.js_stringify`` for that."""
    scalar = json.JSONEncoder(ensure_ascii=False, allow_nan=True).encode
    out: list[str] = []
    stack: list[list[Any]] = []

    def open_container(container: Any) -> None:
        if isinstance(container, dict):
            items = sorted(container.items(), key=lambda kv: str(kv[0])) if sort_keys else list(container.items())
            stack.append([iter(items), True, 0])
            out.append("{")
        else:
            stack.append([iter(container), False, 0])
            out.append("[")

    if not isinstance(value, (dict, list, tuple)):
        return scalar(value) if isinstance(value, (str, int, float, bool, type(None))) else scalar(repr(value))
    open_container(value)
    while stack:
        frame = stack[-1]
        items, is_object, count = frame
        for item in items:
            if count:
                out.append(",")
            count += 1
            if is_object:
                key, item = item
                out.append(scalar(str(key)) + ":")
            if isinstance(item, (dict, list, tuple)):
                frame[2] = count
                open_container(item)
                break
            out.append(scalar(item) if isinstance(item, (str, int, float, bool, type(None))) else scalar(repr(item)))
        else:
            stack.pop()
            out.append("}" if is_object else "]")
    return "".join(out)


def repr_any_depth(value: Any) -> str:
    """``repr(value)``, or past Python's recursion limit the :func:`dumps_iterative` text."""
    try:
        return repr(value)
    except RecursionError:  # nested deeper than repr goes (V8 reads such payloads)
        return dumps_iterative(value, sort_keys=True)


# The writers of parsed values, one rule each. All are compact orjson where orjson takes the value
# and never raise; they differ in key order and in what stands in where orjson refuses (integers
# past 64 bits, more than 255 levels). JavaScript's JSON.stringify is jsjson.js_stringify.


def json_key(value: Any) -> bytes:
    """Compact JSON with sorted keys as a comparison key (equal values, equal keys), else
    :func:`repr_any_depth`: a key is compared, never shown."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except (TypeError, orjson.JSONEncodeError):
        return repr_any_depth(value).encode()


def json_text(value: Any) -> str:
    """Compact JSON in the value's own key order (what a provider tokenizes of a tool or a
    setting), else :func:`repr_any_depth`."""
    try:
        return orjson.dumps(value).decode()
    except (TypeError, orjson.JSONEncodeError):
        return repr_any_depth(value)


def sorted_json_text(value: Any) -> str:
    """Compact JSON with sorted keys for showing a value (the text of a tool call's arguments, a
    block the readers keep as JSON): where orjson refuses, the standard library's JSON (integers
    of any size), and past its recursion limit :func:`dumps_iterative`."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()
    except (TypeError, ValueError):
        try:
            return json.dumps(value, sort_keys=True, ensure_ascii=False, default=repr)
        except (TypeError, ValueError, RecursionError):
            return dumps_iterative(value, sort_keys=True)
