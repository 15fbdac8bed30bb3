"""What a command prints: the one way text and JSON reach standard output, for the CLI and for
every engine's subcommands (which must not reach up into ``inspector.cli``)."""

from __future__ import annotations

import sys
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
