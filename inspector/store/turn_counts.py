"""What a turn is and what an execution is, and how many of each a session has: one definition
for every view (``sessions``, the window, the navigator, the demo summary).

* An **execution** is one run of Covel's turn pipeline, with its own ``turn_id`` (covel-db.md
  §1.4: "one player action can produce two executions"): the player's turns, the opening
  execution a session starts with (``origin`` ``manual``), followers, recursive runs,
  continuations, runtime retries and failed attempts alike. Counted as the distinct ``turn_id``
  values of a session's trace rows and result rows.
* A **turn** is a completed player turn: what Covel counts in ``sessions.completed_player_turns``
  (``turn_count`` in older files). An opening or internal execution is not a turn.

So the demo's main session has 12 turns and 13 executions (the twelve player turns and the
opening execution).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .records import SessionInfo

__all__ = ["EXECUTIONS_LABEL", "TURNS_LABEL", "TurnCounts", "completed_player_turns", "session_turn_counts",
           "total_turn_counts"]

# The words every view uses for the two figures (column headers, JSON summaries, status lines).
TURNS_LABEL = "turns"
EXECUTIONS_LABEL = "executions"


@dataclass(frozen=True, slots=True)
class TurnCounts:
    """A session's (or a store's) completed player turns and executions. ``turns`` is None when
    the store does not say (no ``sessions`` row, or no column for it)."""

    turns: int | None
    executions: int

    @classmethod
    def of(cls, completed_player_turns: Any, executions: Any) -> TurnCounts:
        """The counts from a session's figures as the store hands them over; a completed-turns
        value that is not a whole number (a damaged store's text) is unknown."""
        turns = completed_player_turns
        known = isinstance(turns, int) and not isinstance(turns, bool)
        return cls(turns if known else None, int(executions or 0))


def completed_player_turns(record: Mapping[str, Any]) -> Any:
    """A ``sessions`` row's completed player turns: ``completed_player_turns``, else the older
    ``turn_count`` (PostgreSQL of that era allowed NULL in the new column while the old one still
    held the number). The value as stored (:mod:`inspector.store.values` converts it)."""
    completed = record.get("completed_player_turns")
    if completed is None:
        completed = record.get("turn_count")
    return completed


def session_turn_counts(info: SessionInfo) -> TurnCounts:
    """A session's turns and executions."""
    return TurnCounts.of(info.completed_player_turns, info.execution_count)


def total_turn_counts(counts: Iterable[TurnCounts]) -> TurnCounts:
    """The sum over sessions; a session whose turns are unknown (or not a number) adds none."""
    turns = 0
    executions = 0
    for c in counts:
        executions += c.executions
        if c.turns is not None:
            turns += c.turns
    return TurnCounts(turns, executions)
