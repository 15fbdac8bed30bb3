"""The one diagnostic record every check in this package produces, and the codes it may carry.

Offsets: ``start``/``end`` are Python ``str`` indices into the text the diagnostic is about (a
block's content, or a Covel template), ``start_utf16``/``end_utf16`` the same positions in UTF-16
code units, which is what a ``QTextDocument`` position is. The JSON form carries the UTF-16 pair,
as ``start``/``end``. A diagnostic about a field rather than text (an order out of range, a
duplicate id) has an empty span at 0 and names the field.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from inspector import wording
from inspector.jsjson import has_astral

ERROR = "error"
WARNING = "warning"
INFO = "info"
SEVERITIES = (ERROR, WARNING, INFO)


def severity_rank(severity: str) -> int:
    """Worst first: an error ranks 0, a warning 1, a note 2, anything else after them."""
    return SEVERITIES.index(severity) if severity in SEVERITIES else len(SEVERITIES)


def severity_counts(diagnostics: Iterable[Diagnostic]) -> dict[str, int]:
    """How many errors, warnings and notes there are (any other severity counts as a note)."""
    counts = dict.fromkeys(SEVERITIES, 0)
    for d in diagnostics:
        counts[d.severity if d.severity in (ERROR, WARNING) else INFO] += 1
    return counts


# The eight of spec B.4, then the parse problem, then the tool's own findings.
UNKNOWN_VARIABLE = "unknown-variable"
ZONE_NOT_ALLOWED = "zone-not-allowed"
MUTABLE_IN_SYSTEM = "mutable-in-system"
ARG_COUNT = "arg-count"
DUPLICATE_ID = "duplicate-id"
ORDER_OUT_OF_RANGE = "order-out-of-range"
INPUT_MISSING_PROMPT = "input-missing-prompt"
MULTIPLE_COMPLETE = "multiple-complete"
PARSE_ERROR = "parse-error"
LOOP_LIMIT = "loop-limit"
OUTPUT_LIMIT = "output-limit"
INTERNAL_ERROR = "internal-error"
ORDER_TIE = "order-tie"
UNUSED_VARIABLE = "unused-variable"
ORDER_BAND = "order-band"
SHADOWED_VARIABLE = "shadowed-variable"
BARE_WORD = "bare-word"
COMPLETE_OUTSIDE_SYSTEM = "complete-outside-system"
VALUE_TYPE = "value-type"
CONTRIBUTOR_FAILED = "contributor-failed"
TEMPLATE_OFF = "template-off"
# The chatluna-renderer dialect and ChatLuna presets: a call of a function nobody registered, and
# a built-in that would reach the network (``url``), which the tool never does.
UNKNOWN_FUNCTION = "unknown-function"
NETWORK_FUNCTION = "network-function"
# Covel's {{ variable }} templates.
COVEL_UNKNOWN_VARIABLE = "covel-unknown-variable"
COVEL_VOLATILE_IN_SYSTEM = "covel-volatile-in-system"
COVEL_ESCAPED_IN_TAG = "covel-escaped-in-tag"

CODES = (
    UNKNOWN_VARIABLE, ZONE_NOT_ALLOWED, MUTABLE_IN_SYSTEM, ARG_COUNT, DUPLICATE_ID, ORDER_OUT_OF_RANGE,
    INPUT_MISSING_PROMPT, MULTIPLE_COMPLETE, PARSE_ERROR, LOOP_LIMIT, OUTPUT_LIMIT, INTERNAL_ERROR, ORDER_TIE, UNUSED_VARIABLE,
    ORDER_BAND, SHADOWED_VARIABLE, BARE_WORD, COMPLETE_OUTSIDE_SYSTEM, VALUE_TYPE, CONTRIBUTOR_FAILED, TEMPLATE_OFF,
    COVEL_UNKNOWN_VARIABLE, COVEL_VOLATILE_IN_SYSTEM, COVEL_ESCAPED_IN_TAG, UNKNOWN_FUNCTION, NETWORK_FUNCTION,
)

# What the ChatLuna docs say throws (at registration or render) rather than only being reported.
THROWING_CODES = frozenset({DUPLICATE_ID, ZONE_NOT_ALLOWED, MUTABLE_IN_SYSTEM, MULTIPLE_COMPLETE})


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    severity: str
    message: str
    start: int = 0
    end: int = 0
    start_utf16: int = 0
    end_utf16: int = 0
    block_id: str | None = None
    field: str | None = "content"
    line: int = 1
    column: int = 1  # 1-based, in UTF-16 units like an editor's cursor column
    variable: str | None = None
    # The plugin that registered the block (ChatLuna's sourceOf), when the config says.
    source: str | None = None

    @property
    def throws(self) -> bool:
        return self.code in THROWING_CODES

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def for_block(self, block_id: str | None) -> Diagnostic:
        return replace(self, block_id=block_id)

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "severity": self.severity,
            "blockId": self.block_id,
            "start": self.start_utf16,
            "end": self.end_utf16,
            "message": self.message,
            "field": self.field,
            "line": self.line,
            "column": self.column,
            "throws": self.throws,
            "source": self.source,
        }


class SourcePositions:
    """Python index → (UTF-16 offset, line, column) for one text, built once per text: a table of
    line starts and one of the astral characters (two UTF-16 units each), so every lookup is a
    binary search however long the line and however many diagnostics it has."""

    __slots__ = ("text", "_astral", "_line_starts")

    def __init__(self, text: str) -> None:
        self.text = text
        self._astral = [m.start() for m in _ASTRAL.finditer(text)] if has_astral(text) else None
        starts = [0]
        find = text.find
        pos = find("\n")
        while pos != -1:
            starts.append(pos + 1)
            pos = find("\n", pos + 1)
        self._line_starts = starts

    def _astral_before(self, index: int) -> int:
        return bisect.bisect_left(self._astral, index) if self._astral else 0

    def utf16(self, index: int) -> int:
        return index + self._astral_before(index) if self._astral else index

    def line_column(self, index: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._line_starts, index) - 1
        start = self._line_starts[line]
        column = index - start
        if self._astral:
            column += self._astral_before(index) - self._astral_before(start)
        return line + 1, column + 1

    def line_span(self, index: int) -> tuple[int, int]:
        """(start, end) of the line holding ``index``: end is the index of its line break, or the
        text's length on the last line."""
        line = bisect.bisect_right(self._line_starts, index) - 1
        starts = self._line_starts
        return starts[line], starts[line + 1] - 1 if line + 1 < len(starts) else len(self.text)


_ASTRAL = re.compile("[\U00010000-\U0010FFFF]")


def make(code: str, severity: str, message: str, positions: SourcePositions | None = None,
         start: int = 0, end: int = 0, *, block_id: str | None = None, field: str | None = "content",
         variable: str | None = None) -> Diagnostic:
    if positions is None:
        return Diagnostic(code, severity, message, start, end, start, end, block_id, field, 1, 1, variable)
    line, column = positions.line_column(start)
    return Diagnostic(code, severity, message, start, end, positions.utf16(start), positions.utf16(end),
                      block_id, field, line, column, variable)


def field_diagnostic(code: str, severity: str, message: str, block_id: str | None, field: str,
                     *, variable: str | None = None) -> Diagnostic:
    """A diagnostic about a block's field (order, id, complete …) rather than a span of its text."""
    return Diagnostic(code, severity, message, block_id=block_id, field=field, variable=variable)


def failure(exc: BaseException, stage: str) -> Diagnostic:
    """An exception that escaped the engine (a bug: nothing in a config should cause one), as one
    error an editor lists instead of going blank. ``stage``: "check", "render", "simulation"."""
    detail = str(exc).splitlines()[0][:200] if str(exc) else ""
    shown = f"{type(exc).__name__}: {detail}" if detail else type(exc).__name__
    return Diagnostic(INTERNAL_ERROR, ERROR, wording.internal_failure(stage, shown), field=None)
