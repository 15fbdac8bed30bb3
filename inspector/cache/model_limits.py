"""Each model's context window and output ceiling, as data: the ``[[model_limits]]`` rows of
``resources/provider_rules.toml`` (each row: glob patterns on the model id, the context window,
the most output tokens one request may ask for, whether the output shares the window, and the
source both numbers come from).

The rules loader (inspector.cache.rules) parses and merges the rows with this module; a user's
``--rules`` file's rows are tried before the shipped ones. A model no row matches has no limits:
the budget (inspector.budget) says so instead of guessing.
"""

from __future__ import annotations

import datetime
import fnmatch
from dataclasses import dataclass
from typing import Any

from inspector.messages import localized

__all__ = ["ModelLimits", "match_limits", "parse_model_limits"]

_KEYS = {"match", "context_window", "max_output_tokens", "max_input_tokens", "output_in_window", "source", "checked",
         "notes"}


@dataclass(frozen=True, slots=True)
class ModelLimits:
    patterns: tuple[str, ...]
    context_window: int
    max_output_tokens: int
    # True: input and output together must fit the window (Anthropic, OpenAI, DeepSeek); False:
    # the window limits the input and the output has its own ceiling (Gemini's input token limit).
    output_in_window: bool
    source: str
    checked: str | None
    notes: str = ""
    # The most input tokens alone, where the provider states a lower ceiling than the window
    # (OpenAI's GPT-5: a 400,000 window, at most 272,000 of it input); None: the window's.
    max_input_tokens: int | None = None

    @property
    def input_ceiling(self) -> int:
        """The most input tokens a request may send."""
        return self.max_input_tokens if self.max_input_tokens is not None else self.context_window

    def to_json(self) -> dict[str, Any]:
        return {"match": list(self.patterns), "contextWindow": self.context_window,
                "maxOutputTokens": self.max_output_tokens, "outputInWindow": self.output_in_window,
                "maxInputTokens": self.max_input_tokens, "source": self.source, "checked": self.checked}


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def _day(value: Any) -> str | None:
    if isinstance(value, datetime.date) and not isinstance(value, datetime.datetime):
        return value.isoformat()
    if isinstance(value, str) and len(value) == 10:
        try:
            return datetime.date.fromisoformat(value).isoformat()
        except ValueError:
            return None
    return None


def parse_model_limits(rows: Any, where: str = "model_limits") -> tuple[ModelLimits, ...]:
    """The rows of one rules file's ``[[model_limits]]`` (``()`` when it has none), in file order.
    Raises ValueError naming the offending row and key."""
    if rows is None:
        return ()
    if not isinstance(rows, list):
        raise ValueError(localized("{where}: expected an array of tables ([[model_limits]])", where=where))
    out: list[ModelLimits] = []
    for i, row in enumerate(rows):
        at = f"{where}[{i}]"
        if not isinstance(row, dict):
            raise ValueError(localized("{where}: expected a table", where=at))
        unknown = sorted(set(row) - _KEYS)
        if unknown:
            raise ValueError(localized("{where}.{key}: unknown key (expected {keys})", where=at, key=unknown[0],
                                       keys=", ".join(sorted(_KEYS))))
        match = row.get("match")
        if not isinstance(match, list) or not match or not all(isinstance(p, str) and p for p in match):
            raise ValueError(localized("{where}.match: expected a non-empty list of glob patterns, got {value}",
                                       where=at, value=repr(match)))
        for key in ("context_window", "max_output_tokens"):
            if not _whole(row.get(key)):
                raise ValueError(localized("{where}.{key}: expected a whole number, 1 or more, got {value}", where=at,
                                           key=key, value=repr(row.get(key))))
        if row["max_output_tokens"] > row["context_window"] and row.get("output_in_window", True):
            raise ValueError(localized("{where}.max_output_tokens: {output} is more than the context window {window} "
                                       "it shares", where=at, output=row["max_output_tokens"],
                                       window=row["context_window"]))
        max_input = row.get("max_input_tokens")
        if max_input is not None and (not _whole(max_input) or max_input > row["context_window"]):
            raise ValueError(localized("{where}.max_input_tokens: expected a whole number, 1 or more and at most the "
                                       "context window, got {value}", where=at, value=repr(max_input)))
        in_window = row.get("output_in_window", True)
        if not isinstance(in_window, bool):
            raise ValueError(localized("{where}.output_in_window: expected true or false, got {value}", where=at,
                                       value=repr(in_window)))
        source = row.get("source")
        if not isinstance(source, str) or not source.strip():
            raise ValueError(localized("{where}.source: missing (the page or document both numbers come from)",
                                       where=at))
        checked = row.get("checked")
        if checked is not None and _day(checked) is None:
            raise ValueError(localized("{where}.checked: expected a day (YYYY-MM-DD), got {value}", where=at,
                                       value=repr(checked)))
        notes = row.get("notes", "")
        if not isinstance(notes, str):
            raise ValueError(localized("{where}.notes: expected a string, got {value}", where=at, value=repr(notes)))
        out.append(ModelLimits(tuple(match), row["context_window"], row["max_output_tokens"], in_window,
                               source, _day(checked) if checked is not None else None, notes, max_input))
    return tuple(out)


def match_limits(rows: tuple[ModelLimits, ...], name: str) -> tuple[ModelLimits, str] | None:
    """The first row whose pattern matches ``name`` (a model id as
    :func:`inspector.cache.rules.normalise_model` gives it), with the pattern that matched; None
    when none does (or there is no name)."""
    if not name:
        return None
    for row in rows:
        hit = next((p for p in row.patterns if fnmatch.fnmatchcase(name, p.lower())), None)
        if hit is not None:
            return row, hit
    return None
