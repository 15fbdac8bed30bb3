"""Prefix simulation: replay one worker's assembly over the history's turns and show where the
provider's prompt cache would break.

Turn k is assembled with the first k history blocks (``assemble`` with ``turn=k``) and compared
with turn k-1 message by message (role and content, the order a provider hashes them). In an
append-only layout turn k repeats all of turn k-1 up to the end of its history; whatever comes
after (the after bag, the turn, post-turn entries) may change freely. A turn *breaks* when the
shared prefix ends before that point: the history window moved, the marker changed, or a
before-bag segment changed. With the code's sliding window this happens every turn once the
history is longer than n; with hysteresis only when the cut steps by n.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from inspector.jsjson import common_prefix_utf16, js_slice, utf16_len
from inspector.tokens import count_exact

from .assembly import AssemblyOptions, AssemblyResult, Message, Prepared, assemble_prepared, prepare
from .blackboard import Blackboard
from .order import ContextOrder
from .scenario import Scenario

__all__ = ["TurnRow", "PrefixSimulation", "simulate_prefix", "simulate_prepared", "turn_rows", "compare_results"]

_STABLE_BAGS = frozenset({None, "before", "history"})


@dataclass(frozen=True, slots=True)
class TurnRow:
    turn: int
    message_count: int
    total_chars: int  # UTF-16 units of all message contents
    total_tokens: int
    shared_chars: int  # prefix shared with the previous turn's messages
    shared_tokens: int
    shared_messages: int  # leading messages identical to the previous turn's
    expected_chars: int  # the previous turn's stable part (through its history): what should be shared
    broke: bool
    break_message: int | None  # index (in the previous turn) of the first differing message
    break_source: str | None  # its preset entry, e.g. "chatHistory#0", "worldBookBefore"
    reason: str
    history_start: int | None  # first history block kept this turn
    history_kept: int | None

    @property
    def nothing_cached(self) -> bool:
        """Nothing of the turn before was worth caching and nothing repeats it (the first turn)."""
        return self.expected_chars == 0 and self.shared_chars == 0

    @property
    def repeated_fraction(self) -> float | None:
        """The share of this turn's tokens that repeat the turn before (None: no tokens)."""
        return self.shared_tokens / self.total_tokens if self.total_tokens else None

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "messages": self.message_count, "chars": self.total_chars,
                "tokens": self.total_tokens, "sharedChars": self.shared_chars, "sharedTokens": self.shared_tokens,
                "sharedMessages": self.shared_messages, "expectedChars": self.expected_chars, "broke": self.broke,
                "breakMessage": self.break_message, "breakSource": self.break_source, "reason": self.reason,
                "historyStart": self.history_start, "historyKept": self.history_kept}


@dataclass(frozen=True, slots=True)
class PrefixSimulation:
    slot_ref: str
    rows: tuple[TurnRow, ...]
    encoding: str

    @property
    def break_turns(self) -> tuple[int, ...]:
        return tuple(row.turn for row in self.rows if row.broke)

    @property
    def total_tokens(self) -> int:
        return sum(row.total_tokens for row in self.rows)

    @property
    def shared_tokens(self) -> int:
        return sum(row.shared_tokens for row in self.rows)

    @property
    def repeated_fraction(self) -> float | None:
        """The share of all turns' tokens that repeat the turn before (None: no tokens)."""
        return self.shared_tokens / self.total_tokens if self.total_tokens else None

    def to_json(self) -> dict[str, Any]:
        return {"slot": self.slot_ref, "encoding": self.encoding, "turns": len(self.rows),
                "breakTurns": list(self.break_turns), "totalTokens": self.total_tokens,
                "sharedTokens": self.shared_tokens, "rows": [row.to_json() for row in self.rows]}


def _stable_chars(messages: tuple[Message, ...]) -> int:
    total = 0
    for message in messages:
        if message.bag not in _STABLE_BAGS:
            break
        total += utf16_len(message.content)
    return total


def _reason(previous: AssemblyResult, current: AssemblyResult, index: int) -> str:
    before, after = previous.history, current.history
    if before is not None and after is not None:
        if before.kept_start != after.kept_start:
            return f"history cut moved: first kept block {before.kept_start} → {after.kept_start}"
        if before.marker != after.marker:
            return "history marker changed"
    message = previous.messages[index] if index < len(previous.messages) else None
    if message is not None and message.bag == "before":
        old = {s.id: s.text for s in previous.segments if s.bag == "before"}
        changed = [s.label or s.id for s in current.segments if s.bag == "before" and old.get(s.id) != s.text]
        if changed:
            return "before bag changed: " + ", ".join(changed)
    if message is not None and message.bag == "history":
        return "history rewritten"
    return f"content changed in {message.source}" if message is not None else "messages removed"


def compare_results(previous: AssemblyResult, current: AssemblyResult, encoding: str) -> TurnRow:
    """How much of ``previous``'s messages ``current`` repeats from the start, and whether that breaks the cache."""
    old, new = previous.messages, current.messages
    index = shared_chars = shared_tokens = 0
    while index < len(old) and index < len(new) and old[index].role == new[index].role \
            and old[index].content == new[index].content:
        shared_chars += utf16_len(old[index].content)
        shared_tokens += old[index].tokens
        index += 1
    if index < len(old) and index < len(new) and old[index].role == new[index].role:
        common = common_prefix_utf16(old[index].content, new[index].content)
        if common:
            shared_chars += common
            shared_tokens += count_exact(js_slice(old[index].content, 0, common), encoding)
    expected = _stable_chars(old)
    broke = shared_chars < expected
    history = current.history
    return TurnRow(
        turn=current.turn, message_count=len(new), total_chars=sum(utf16_len(m.content) for m in new),
        total_tokens=current.total_tokens, shared_chars=shared_chars, shared_tokens=shared_tokens,
        shared_messages=index, expected_chars=expected, broke=broke,
        break_message=index if broke else None,
        break_source=(old[index].source if broke and index < len(old) else None),
        reason=_reason(previous, current, index) if broke else "",
        history_start=history.kept_start if history else None,
        history_kept=history.kept_blocks if history else None,
    )


def simulate_prefix(order: ContextOrder | None, scenario: Scenario | Blackboard, slot_ref: str,
                    options: AssemblyOptions | None = None, *, first_turn: int = 0,
                    last_turn: int | None = None) -> PrefixSimulation:
    """Assemble turns ``first_turn..last_turn`` (default: every turn of the history) and compare
    each with the one before it."""
    return simulate_prepared(prepare(order, scenario, slot_ref, options), first_turn=first_turn, last_turn=last_turn)


def simulate_prepared(prepared: Prepared, *, first_turn: int = 0, last_turn: int | None = None) -> PrefixSimulation:
    """``simulate_prefix`` on a slot already prepared (the preview keeps one per edit)."""
    rows = tuple(turn_rows(prepared, first_turn=first_turn, last_turn=last_turn))
    return PrefixSimulation(prepared.slot_ref, rows, prepared.options.encoding)


def turn_rows(prepared: Prepared, *, first_turn: int = 0, last_turn: int | None = None) -> Iterator[TurnRow]:
    """The rows of ``simulate_prepared`` one turn at a time, for a caller that spreads the
    replay over time (each row costs one assembly)."""
    last = prepared.turn_count if last_turn is None else min(last_turn, prepared.turn_count)
    previous = None
    for turn in range(max(0, first_turn), last + 1):
        current = assemble_prepared(prepared, turn)
        if previous is None:
            history = current.history
            yield TurnRow(
                turn=turn, message_count=len(current.messages),
                total_chars=sum(utf16_len(m.content) for m in current.messages), total_tokens=current.total_tokens,
                shared_chars=0, shared_tokens=0, shared_messages=0, expected_chars=0, broke=False,
                break_message=None, break_source=None, reason="first turn: nothing cached yet",
                history_start=history.kept_start if history else None,
                history_kept=history.kept_blocks if history else None)
        else:
            yield compare_results(previous, current, prepared.options.encoding)
        previous = current
