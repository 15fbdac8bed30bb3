"""What a command prints: the one way text and JSON reach standard output, for the CLI and for
every engine's subcommands (which must not reach up into ``inspector.cli``)."""

from __future__ import annotations

import sys
import unicodedata
from collections.abc import Collection, Sequence
from typing import Any

from .jsjson import js_stringify, replace_lone_surrogates


def terminal_bytes(text: str) -> bytes:
    """``text`` as the UTF-8 bytes Node writes to a stream: a lone surrogate becomes U+FFFD (the
    prefix report must match Covel's script byte for byte)."""
    return replace_lone_surrogates(text).encode("utf-8")


def write_text(text: str) -> None:
    """``text`` on stdout as :func:`terminal_bytes`."""
    out = sys.stdout
    data = terminal_bytes(text)
    out.flush()
    out.buffer.write(data)
    out.buffer.flush()


def dump_json(value: Any) -> str:
    """``value`` as ``JSON.stringify(value, null, 2)`` writes it, with a final newline."""
    return js_stringify(value, indent=2) + "\n"


def display_width(text: str) -> int:
    """The columns ``text`` takes in a terminal: East Asian wide and full-width characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def table_lines(rows: Sequence[Sequence[str]], right: Collection[int] = ()) -> list[str]:
    """``rows`` (the header first) as lines of columns two spaces apart, each column as wide as its
    widest cell on screen (:func:`display_width`); columns in ``right`` aligned to the right;
    trailing spaces dropped."""
    widths = [max(display_width(row[i]) for row in rows) for i in range(len(rows[0]))] if rows else []
    lines = []
    for row in rows:
        cells = []
        for i, cell in enumerate(row):
            pad = " " * (widths[i] - display_width(cell))
            cells.append(pad + cell if i in right else cell + pad)
        lines.append("  ".join(cells).rstrip())
    return lines
