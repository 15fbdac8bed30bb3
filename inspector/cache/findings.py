"""Covel's layout checks over a runtime's pairs: the evidence gathered pair by pair
(:class:`LayoutEvidence`) and the findings it adds up to once the runtime's last pair is made.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from inspector.anatomy.labelling import BAG_LABELS
from inspector.cache.calls import Call
from inspector.cache.results import Finding

__all__ = ["LayoutEvidence", "breakpoint_locations", "data_blocks_last"]

# A layout check fires when its pattern shows in at least this many turns and in at least half of
# the runtime's turn pairs: one prompt edit is not a layout problem, a change every turn is.
_FINDING_MIN_TURNS = 2
_FINDING_MIN_SHARE = 0.5
_APPENDED = ("history_moves", "sliding", "system_changes", "data_last", "too_many", "bp_calls")


def data_blocks_last(cur: Call) -> bool:
    """The request's last message is the turn context's data blocks."""
    loc = cur.locator()
    if loc.n == 0:
        return False
    last = loc.facts[-1]
    return last.sys_like and last.turn_data_score == 2


def breakpoint_locations(call: Call) -> list[tuple[str, int]]:
    """Where each honoured breakpoint of the request sits, by the anatomy's words, with its part."""
    lay = call.layout
    out = []
    for j, _ in lay.breakpoints[: call.rules.max_breakpoints or 0]:
        if j < lay.n_tools + lay.n_settings:
            where = "tools"
        elif j < call.message_start:
            where = f"system block {j - lay.n_tools - lay.n_settings + 1}"
        else:
            loc = call.locator()
            m = loc.elem_first[j - call.message_start]
            bag = loc.classify(m)[0] if m < loc.n else "tool-loop"
            where = BAG_LABELS[bag]
        out.append((where, j))
    return out


class LayoutEvidence:
    """What a runtime's pairs showed so far of each layout problem."""

    __slots__ = ("turn_pairs", "history_moves", "sliding", "system_changes", "data_last", "too_many", "bp_calls",
                 "examples")

    def __init__(self) -> None:
        self.turn_pairs = 0
        self.history_moves: list[str] = []
        self.sliding: list[str] = []
        self.system_changes: list[tuple[str, str]] = []  # (turn id, part name)
        self.data_last: list[str] = []
        self.too_many: list[tuple[str, int]] = []
        # per call with breakpoints: (turn id, [(location label, part index)], the indices read
        # later — filled in when a later request is compared with that call)
        self.bp_calls: list[tuple[str, list[tuple[str, int]], set[int]]] = []
        self.examples: dict[str, dict[str, Any]] = {}

    def collect(self, prev: Call, cur: Call, region: str, kind: str, reason: str, detail: str, name: str,
                was: str | None, now: str | None) -> None:
        """A turn pair's evidence: a system or history change and its example."""
        if kind != "turn" or reason in ("model-changed", "cold-start"):
            return
        self.turn_pairs += 1
        example = {"turnId": cur.turn_id, "previousTurnId": prev.turn_id, "part": name, "was": was, "now": now}
        if region == "system":
            self.system_changes.append((cur.turn_id, name))
            self.examples.setdefault("turn-volatile-system-text", example)
        elif region == "history":
            if detail.startswith("a depth insertion"):
                self.history_moves.append(cur.turn_id)
                self.examples.setdefault("moving-history-insertion", example)
            elif detail.startswith("the history window slid"):
                self.sliding.append(cur.turn_id)
                self.examples.setdefault("sliding-history-window", example)

    def snapshot(self) -> tuple:
        """What :meth:`restore` puts back: the lists' lengths, the breakpoint reads, the examples."""
        return (self.turn_pairs, {name: len(getattr(self, name)) for name in _APPENDED},
                [(reads, set(reads)) for _, _, reads in self.bp_calls], dict(self.examples))

    def restore(self, snapshot: tuple) -> None:
        turn_pairs, lengths, reads_before, examples = snapshot
        self.turn_pairs = turn_pairs
        for name, n in lengths.items():
            del getattr(self, name)[n:]
        for reads, before in reads_before:
            reads.clear()
            reads.update(before)
        self.examples = dict(examples)

    def findings(self, sid: str, rid: str | None, pairs: int, breakpoint_limit: int) -> list[Finding]:
        """The findings of a runtime with ``pairs`` pairs whose rules allow ``breakpoint_limit``
        breakpoints."""
        out: list[Finding] = []
        turns = self.turn_pairs

        def frequent(items: list) -> bool:
            return len(items) >= _FINDING_MIN_TURNS and len(items) >= _FINDING_MIN_SHARE * turns

        if frequent(self.system_changes):
            part = Counter(n for _, n in self.system_changes).most_common(1)[0][0]
            ids = [t for t, _ in self.system_changes]
            out.append(Finding(
                "turn-volatile-system-text", "warning", sid, rid, part, len(ids), turns, ids[:10],
                f"The system prompt changes between turns at {part} in {len(ids)} of {turns} turns (a "
                "{{ player.character }}-style value inside it?): everything after it, the whole history "
                "included, is re-sent uncached every turn. Move turn-volatile values to the turn context.",
                self.examples.get("turn-volatile-system-text")))
        if self.too_many:
            most = max(n for _, n in self.too_many)
            out.append(Finding(
                "too-many-breakpoints", "warning", sid, rid, "cache breakpoints", len(self.too_many),
                pairs, [t for t, _ in self.too_many][:10],
                f"{len(self.too_many)} requests carry more than {breakpoint_limit} cache_control breakpoints (up to "
                f"{most}); Anthropic accepts at most that many, so the prediction honours only the first ones."))
        writes: Counter = Counter()
        reads: Counter = Counter()
        turns_of: dict[str, list[str]] = {}
        for turn_id, locations, read in self.bp_calls:
            for where, j in locations:
                writes[where] += 1
                if j in read:
                    reads[where] += 1
                turns_of.setdefault(where, []).append(turn_id)
        for where, n in writes.items():
            if n >= _FINDING_MIN_TURNS and reads[where] == 0:
                out.append(Finding(
                    "breakpoint-on-volatile-content", "warning", sid, rid, where, n, n, turns_of[where][:10],
                    f"The cache_control breakpoint on the {where} is written {n} times and never read: the content "
                    "before it changes every turn, so each write pays the write premium for nothing."))
        if self.data_last:
            out.append(Finding(
                "data-blocks-last", "warning", sid, rid, "turn context", len(self.data_last), turns + 1,
                self.data_last[:10],
                "The turn context (data blocks such as <runtime-inputs>) is the last message of the request; "
                "Covel keeps it before the player message because small models copy data-block syntax into "
                "tool calls when it comes last."))
        if frequent(self.sliding):
            out.append(Finding(
                "sliding-history-window", "warning", sid, rid, "history", len(self.sliding), turns,
                self.sliding[:10],
                f"The oldest history message changes in {len(self.sliding)} of {turns} turns: the history window "
                "slides every turn, so no turn can reuse the previous turn's history from the cache. Trim in "
                "larger steps (Covel prunes in 30 % steps) or summarise instead.",
                self.examples.get("sliding-history-window")))
        if frequent(self.history_moves):
            out.append(Finding(
                "moving-history-insertion", "warning", sid, rid, "history › depth insertion",
                len(self.history_moves), turns, self.history_moves[:10],
                f"A depth insertion inside the history (a lorebook or extension segment at depth n) moves in "
                f"{len(self.history_moves)} of {turns} turns: the history is re-sent uncached from that point "
                "every turn. Place it in the turn context or at depth 0.",
                self.examples.get("moving-history-insertion")))
        return out
