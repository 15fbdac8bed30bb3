"""Guards for values of the wrong type: one place for the rules, for store columns and JSON fields.

SQLite stores any type in any column, and a file Covel did not write (or a damaged one) can hold
a BLOB where Covel writes text, text where it writes a number, text that is not UTF-8. The store
hands every such value over in a defined shape instead of failing on it:

* a **text** column (ids, types, timestamps, names, message text) gives ``str``: a BLOB as
  SQLite's own literal ``x'…'`` (its bytes in hex), a number as its digits, text that is not
  valid UTF-8 as Covel reads it, each bad sequence U+FFFD (:func:`inspector.jsjson.node_text`,
  applied by :func:`inspector.store.columns.fetch_all`);
* a **number** column shown to the user (``completed_player_turns``, ``duration_ms``) gives the
  number; anything else is shown as it is stored (its text, a BLOB as ``x'…'``);
* an **order** column (``seq``, ``"order"``) gives an ``int`` or None: a value that is not a
  whole number orders the row as if it had none;
* JSON columns (payloads, ``runtime_results``…) are passed on unchanged; their readers
  (:func:`inspector.store.records.parse_json_object`) take any type.

Each kind of problem of each column is reported once in the store's notes (:class:`ValueNotes`),
however many rows have it. Values read out of a JSON payload have their own guards
(:mod:`inspector.json_guards`).
"""

from __future__ import annotations

import math
import re
import threading
from typing import Any

from inspector.jsjson import js_number

__all__ = [
    "NUMBER",
    "ORDER",
    "RAW",
    "TEXT",
    "ValueNotes",
    "blob_literal",
    "stored_forms",
]

TEXT = "text"
NUMBER = "number"
ORDER = "order"
RAW = "raw"

# What each column holds, where it is not text (covel-db.md §1). Columns not named are text.
COLUMN_KINDS: dict[str, dict[str, str]] = {
    "sessions": {"completed_player_turns": NUMBER, "turn_count": NUMBER},
    "trace_events": {"seq": ORDER, "payload": RAW},
    "turn_results": {"seq": ORDER, "duration_ms": NUMBER, "runtime_results": RAW, "retry_scope": RAW,
                     "audit_result": RAW},
    "turn_messages": {"order": ORDER, "ui": RAW, "pending_input": RAW},
    "session_summaries": {"focus_sections": RAW},
    "tool_calls": {"duration_ms": NUMBER, "input": RAW, "output": RAW},
    "suspensions": {"resume_schema": RAW, "pending_continuation": RAW},
}

_BLOB_LITERAL = re.compile(r"^x'((?:[0-9a-f]{2})*)'$")


# --- column values ------------------------------------------------------------------------------

def blob_literal(data: bytes | bytearray | memoryview) -> str:
    """A BLOB as SQLite writes it in SQL: ``x'`` + its bytes in hex + ``'``."""
    return "x'" + bytes(data).hex() + "'"


def stored_forms(text: str) -> list[Any]:
    """The stored values a text this module produced may stand for: itself, and for a BLOB
    literal the BLOB, so an id shown as ``x'…'`` finds its rows again."""
    found = _BLOB_LITERAL.match(text) if text.startswith("x'") else None
    return [text, bytes.fromhex(found.group(1))] if found else [text]


def _number_text(value: int | float) -> str:
    # A float as JavaScript prints it ("3" for 3.0, "Infinity"); an integer as its digits.
    return js_number(value) if isinstance(value, float) else str(value)


def _is_blob(value: Any) -> bool:
    return isinstance(value, (bytes, bytearray, memoryview))


_MESSAGES = {
    (TEXT, "blob"): "holds BLOB values where text is expected: shown as x'…' (the bytes in hex)",
    (TEXT, "number"): "holds numbers where text is expected: shown as their digits",
    (NUMBER, "text"): "holds text where a number is expected: shown as the text",
    (NUMBER, "blob"): "holds BLOB values where a number is expected: shown as x'…' (the bytes in hex)",
    (NUMBER, "not finite"): "holds Infinity or NaN where a number is expected: shown as JavaScript prints it",
    (ORDER, "text"): "holds text where a number is expected: those rows are ordered as if it were empty",
    (ORDER, "blob"): "holds BLOB values where a number is expected: those rows are ordered as if it were empty",
    (ORDER, "fraction"): "holds numbers that are not whole: those rows are ordered as if it were empty",
}


class ValueNotes:
    """Converts column values by :data:`COLUMN_KINDS` and notes each kind of problem of each
    column once in ``notes`` (the store's ``schema_notes``). Thread-safe."""

    def __init__(self, notes: list[str]) -> None:
        self._notes = notes
        self._seen: set[tuple[str, ...]] = set()
        self._lock = threading.Lock()

    def noted(self, table: str) -> int:
        """How many kinds of problem have been noted in ``table``'s values so far."""
        with self._lock:
            return sum(1 for key in self._seen if key[0] == table)

    def note(self, key: tuple[str, ...], message: str) -> None:
        """Add ``message`` to the notes unless a note with ``key`` was added before."""
        with self._lock:
            if key in self._seen:
                return
            self._seen.add(key)
            self._notes.append(message)

    def _problem(self, table: str, column: str, kind: str, what: str) -> None:
        self.note((table, column, kind, what), f"{table}.{column} {_MESSAGES[(kind, what)]}")

    def text(self, table: str, column: str, value: Any) -> str | None:
        """A text column's value (see the module's rules)."""
        if value is None or type(value) is str:
            return value
        if _is_blob(value):
            self._problem(table, column, TEXT, "blob")
            return blob_literal(value)
        if isinstance(value, (int, float)):
            self._problem(table, column, TEXT, "number")
            return _number_text(value)
        return str(value)

    def number(self, table: str, column: str, value: Any) -> int | float | str | None:
        """A number column's value: the number, or what is stored shown as it is."""
        if value is None or type(value) is int:
            return value
        if isinstance(value, float):
            if not math.isfinite(value):  # a count or a duration of no size: int() of it fails
                self._problem(table, column, NUMBER, "not finite")
                return _number_text(value)
            return int(value) if value.is_integer() else value
        if _is_blob(value):
            self._problem(table, column, NUMBER, "blob")
            return blob_literal(value)
        self._problem(table, column, NUMBER, "text")
        return str(value)

    def order(self, table: str, column: str, value: Any) -> int | None:
        """An order column's value: a whole number, else None."""
        if value is None or type(value) is int:
            return value
        if isinstance(value, float):
            if value.is_integer():
                return int(value)
            self._problem(table, column, ORDER, "fraction")
            return None
        self._problem(table, column, ORDER, "blob" if _is_blob(value) else "text")
        return None

    def convert(self, table: str, column: str, value: Any) -> Any:
        """``value`` of ``table.column`` by the kind :data:`COLUMN_KINDS` gives it."""
        kind = COLUMN_KINDS.get(table, {}).get(column, TEXT)
        if kind == TEXT:
            return self.text(table, column, value)
        if kind == NUMBER:
            return self.number(table, column, value)
        if kind == ORDER:
            return self.order(table, column, value)
        return value

    def row(self, table: str, row: dict[str, Any]) -> dict[str, Any]:
        """A row (column name → value) with every value converted, in place."""
        kinds = COLUMN_KINDS.get(table, {})
        for name, value in row.items():
            if value is None:
                continue
            kind = kinds.get(name, TEXT)
            if kind == RAW or (type(value) is str if kind == TEXT else type(value) is int):
                continue
            row[name] = self.convert(table, name, value)
        return row
