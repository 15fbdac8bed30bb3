"""JSON as a person reads it: the request view's "Unescaped" mode of its JSON tabs.

The structure keeps JSON's shape (braces, brackets, keys, two-space indentation, members in
their own order), but a string value is shown as its text rather than as a JSON literal: ``\\n``
is a line break, ``\\"`` a quote, ``\\u7075`` the character. A string holding a line break becomes
a block between ``\"\"\"`` lines, each of its lines indented under its key, so a prompt of many
paragraphs reads as paragraphs. The result is for reading, not for parsing: the escaped tab
keeps the exact JSON to copy.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["BLOCK_QUOTE", "readable_json", "readable_value"]

BLOCK_QUOTE = '"""'
_STEP = "  "


def _string(value: str, indent: str, out: list[str]) -> None:
    if "\n" not in value and "\r" not in value:
        out.append(f'"{value}"')
        return
    inner = indent + _STEP
    out.append(BLOCK_QUOTE)
    for line in value.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        out.append("\n")
        if line:
            out.append(inner + line)
    out.append("\n" + inner + BLOCK_QUOTE)


def _write(value: Any, indent: str, out: list[str]) -> None:
    if isinstance(value, str):
        _string(value, indent, out)
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        inner = indent + _STEP
        out.append("{")
        first = True
        for key, item in value.items():
            out.append("\n" if first else ",\n")
            first = False
            out.append(f'{inner}"{key}": ')
            _write(item, inner, out)
        out.append("\n" + indent + "}")
    elif isinstance(value, list):
        if not value:
            out.append("[]")
            return
        inner = indent + _STEP
        out.append("[")
        for i, item in enumerate(value):
            out.append(",\n" if i else "\n")
            out.append(inner)
            _write(item, inner, out)
        out.append("\n" + indent + "]")
    else:
        out.append(json.dumps(value))


def readable_value(value: Any) -> str:
    """A parsed JSON value, string values unescaped."""
    out: list[str] = []
    _write(value, "", out)
    return "".join(out)


def readable_json(text: str) -> str:
    """``text`` (a JSON document) with its string values unescaped; text that is not JSON is
    returned as it is (there is nothing to unescape)."""
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return readable_value(value)
