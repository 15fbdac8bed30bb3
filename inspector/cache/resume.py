"""Bringing a finished analysis up to date while the store grows: a runtime's state saved before
its last turn is flushed and put back after (:class:`Checkpoint`), and which rows were written
since the last run (:class:`ResumeCursor`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from inspector.cache.results import copy_summary
from inspector.cache.side_events import SIDE_EVENTS, SideEvents, response_fields
from inspector.store import Store, TraceEvent
from inspector.store.ordering import order_key

__all__ = ["Checkpoint", "ResumeCursor", "merged_pairs"]


class Checkpoint:
    """A runtime's state before its pending (last) turn is flushed, to put it back after: flushing
    mutates the state, the pending calls, the calls they are compared with (breakpoints read)
    and the turn's responses (bound)."""

    def __init__(self, state: Any, responses: dict[tuple[str, str | None], list[Any]]) -> None:
        # ``state``: an inspector.cache.pairs.RuntimeState; ``responses``: SideEvents.responses
        self.state = state
        self.pending = list(state.pending)
        self.calls = [(c, c.ref, c.shared_tokens, c.usage, c.response_at, c.failed, set(c.bp_reads))
                      for c in self.pending]
        self.scalars = (state.last, state.last_ok, state.turn_first)
        self.evidence = state.evidence.snapshot()
        self.summary = copy_summary(state.summary)
        keys = {(c.turn_id, c.runtime_id) for c in self.pending}
        self.used = [(r, r.used) for key in keys for r in responses.get(key, [])]

    def restore(self) -> None:
        state = self.state
        state.pending = self.pending
        for call, ref, shared, usage, response_at, failed, reads in self.calls:
            call.ref, call.shared_tokens, call.usage = ref, shared, usage
            call.response_at, call.failed = response_at, failed
            call.bp_reads.clear()
            call.bp_reads.update(reads)
        state.last, state.last_ok, state.turn_first = self.scalars
        state.evidence.restore(self.evidence)
        state.summary = copy_summary(self.summary)
        for response, used in self.used:
            response.used = used


def merged_pairs(earlier: list[Any], resumed: list[Any], restarted: bool) -> list[Any]:
    """The pairs of a whole analysis from an earlier one's and what a resume of it yielded (the
    new and changed pairs; every pair when it ``restarted``), in the order a fresh analysis of the
    store makes them: a resume re-makes each runtime's last turn, whose pairs an analysis makes
    last, and what it yields sorts after every earlier pair it leaves as it was."""
    if restarted:
        return list(resumed)
    again = {pair.event_id for pair in resumed}
    return [pair for pair in earlier if pair.event_id not in again] + list(resumed)


class ResumeCursor:
    """What a resume needs to read only what was written since the last run: the requests and
    side events read, the (turn, runtime) pairs they belong to, and where the last request sorts."""

    __slots__ = ("calls_seen", "read_turns", "last_event_id", "cursor", "last_order")

    def __init__(self) -> None:
        self.calls_seen: set[str] = set()
        self.read_turns: set[tuple[str, str | None]] = set()
        self.last_event_id: str | None = None
        self.cursor: int | None = None
        self.last_order: tuple | None = None

    def saw_call(self, event_id: str) -> None:
        self.calls_seen.add(event_id)
        self.last_event_id = event_id

    def new_side_events(self, store: Store, session_id: str, side: SideEvents, states: Iterable[Any],
                        turn_ids: Iterable[str] | None) -> list[TraceEvent] | None:
        """The side events not read yet (None when one of them belongs to a settled turn).
        ``states``: the runtimes' states (inspector.cache.pairs.RuntimeState)."""
        states = list(states)
        if turn_ids is None:
            events = store.events(session_id, types=SIDE_EVENTS)
        else:
            wanted = dict.fromkeys(turn_ids)
            wanted.update(dict.fromkeys(s.turn_id for s in states if s.pending))
            events = [ev for tid in wanted if tid is not None
                      for ev in store.events(session_id, tid, types=SIDE_EVENTS)]
        fresh = [ev for ev in events if ev.id not in side.seen]
        if not fresh:
            return fresh
        open_turns = {(s.turn_id, s.runtime_id) for s in states if s.pending}
        settled = self.read_turns - open_turns
        settled_ids = {tid for tid, _ in settled}
        for ev in fresh:
            if ev.type == "context.compacted":
                if ev.turn_id in settled_ids:
                    return None
            elif ev.type == "llm.responded":
                if (ev.turn_id, response_fields(ev)[0]) in settled:
                    return None
            elif (ev.turn_id, ev.runtime_id) in settled:
                return None
        return fresh

    def new_calling_rows(self, store: Store, session_id: str, written: dict[str, tuple]) -> list[tuple] | None:
        """``iter_llm_calling_rows`` rows written since the last run, in canonical order (None
        when the store cannot say which are new, or one sorts before a row already read); each
        new row's write-order key goes into ``written``."""
        if store.request_key_column() is None:
            return None
        if self.cursor is None and self.last_event_id is not None:
            self.cursor = store.event_key(self.last_event_id)
            last = store.event(self.last_event_id)
            if self.cursor is None or last is None:
                return None
            self.last_order = order_key(last)
        found: list[tuple[tuple, tuple]] = []
        stream = store.iter_llm_calling_since(session_id, self.cursor)
        try:
            for key, event_id, raw in stream:
                self.cursor = key if self.cursor is None else max(self.cursor, key)
                if event_id in self.calls_seen:
                    continue
                ev = store.event(event_id)
                if ev is None:
                    continue
                found.append((order_key(ev), (ev.session_id, ev.turn_id, raw, event_id)))
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                close()
        found.sort(key=lambda item: item[0])
        if found and self.last_order is not None and found[0][0] < self.last_order:
            return None
        if found:
            self.last_order = found[-1][0]
        written.update((row[3], key) for key, row in found)
        return [row for _, row in found]
