"""A session's analysis shared with the worker process (:mod:`inspector.cache.worker`): which
runtimes this process pairs (:class:`Share`), and the two sides' streams merged into the order and
routing loads an analysis alone gives (:class:`Merge`).
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Callable, Iterable, Iterator

from inspector.cache.payload import Unreadable, decode_payload
from inspector.cache.results import CachePair, Finding, RuntimeSummary
from inspector.cache.routing import Routes, settle

__all__ = ["AT_END", "Merge", "Share", "settled"]


class Share:
    """The runtimes this process pairs when it shares a session with the worker process
    (inspector.cache.worker). This side reads every row and decides; the worker is handed the ids of its
    rows (``give``) as they are read, and reads them from the store itself.

    Pairing a request costs about what its payload weighs, so the runtimes are dealt out by the
    payload bytes of their requests among the first rows (``window``): the heaviest first, each
    to the side further below its target share; a runtime first seen later goes the same way,
    weighing its first request. This side's share is under half (_THIS_SIDE_SHARE) because it
    also reads and decodes every row."""

    __slots__ = ("give", "hand_over", "owner", "loads")

    def __init__(self, give: Callable[[int, tuple, tuple | None], None],
                 hand_over: Callable[[str | None], None] | None = None) -> None:
        self.give = give
        # Called when a runtime is dealt to the worker, before any of its rows is given.
        self.hand_over = hand_over
        self.owner: dict[str | None, int] = {}
        self.loads = [0, 0]

    def window(self, rows: Iterable[tuple]) -> Iterator[tuple]:
        """``rows`` unchanged, the runtimes of the first _SHARE_WINDOW rows dealt out first."""
        it = iter(rows)
        first: list[tuple] = []
        weights: dict[str | None, int] = {}
        for row in it:
            first.append(row)
            with contextlib.suppress(Unreadable, ValueError, TypeError):  # said when the row is read
                runtime = decode_payload(row[2]).runtime_id
                weights[runtime] = weights.get(runtime, 0) + _weight(row)
            if len(first) >= _SHARE_WINDOW:
                break
        for runtime in sorted(weights, key=lambda r: -weights[r]):  # stable: ties in order of appearance
            self._deal(runtime, weights[runtime])
        yield from first
        yield from it

    def _deal(self, runtime_id: str | None, weight: int) -> int:
        side = 0 if self.loads[0] / _THIS_SIDE_SHARE < self.loads[1] / (1 - _THIS_SIDE_SHARE) else 1
        self.owner[runtime_id] = side
        self.loads[side] += weight
        if side == 1 and self.hand_over is not None:
            self.hand_over(runtime_id)
        return side

    def owns(self, runtime_id: str | None, row: tuple) -> bool:
        side = self.owner.get(runtime_id)
        if side is None:
            side = self._deal(runtime_id, _weight(row))
        return side == 0


def _weight(row: tuple) -> int:
    return len(row[2] or b"")


# Rows read before the runtimes are dealt out (Share.window), and the share of the payload
# bytes the reading side keeps.
_SHARE_WINDOW = 64


_THIS_SIDE_SHARE = 0.4


class Merge:
    """The items of the two sides of a shared analysis, merged into the order and the routing
    loads an analysis alone gives. A pair is given out once both sides have passed the row that
    completed it: then every pair before it has come, and every request up to it has been
    counted on its route, in row order, as the analyser alone counts them."""

    def __init__(self) -> None:
        self.pairs: tuple[deque[tuple], deque[tuple]] = (deque(), deque())
        self.routes: tuple[deque[tuple], deque[tuple]] = (deque(), deque())
        self.marks = [-1.0, -1.0]
        self.counter = Routes()
        self.rates: dict[int, int] = {}
        self.groups: list[tuple[int, list[Finding], RuntimeSummary]] = []
        # the worker's runtimes' part of the resume state (inspector.cache.resume_state.part_doc)
        self.worker_part: dict | None = None

    def add(self, side: int, item: tuple) -> None:
        if item[0] == "p":
            self.pairs[side].append(item)
        else:
            self.marks[side] = item[1]
            self.routes[side].extend(item[2])

    def receive(self, messages: list[tuple]) -> None:
        """Messages of the worker (side 1): batches of items, then its runtimes' groups and their
        part of the resume state."""
        for message in messages:
            if message[0] == "items":
                for item in message[1]:
                    self.add(1, item)
            elif message[0] == "end":
                self.groups = message[1]
                self.worker_part = message[2]

    def ready(self) -> Iterator[tuple[tuple, CachePair]]:
        limit = min(self.marks)
        mine, theirs = self.routes
        while True:
            a = mine[0] if mine and mine[0][0] < limit else None
            b = theirs[0] if theirs and theirs[0][0] < limit else None
            if a is None and b is None:
                break
            row, t, route = mine.popleft() if b is None or (a is not None and a[0] < b[0]) else theirs.popleft()
            self.rates[row] = self.counter.count(route, t)
        first, second = self.pairs
        while first or second:
            queue_ = first if first and (not second or first[0][1] < second[0][1]) else second
            item = queue_[0]
            if item[1][0] >= limit and limit != AT_END:
                break
            queue_.popleft()
            pair = item[2]
            pair.routing_rate = self.rates.pop(item[4], None)
            settle(pair, item[3])
            yield item[1], pair


# The key of the pairs made after the last row: after every pair keyed by a row number.
AT_END = float("inf")


def settled(items: Iterable[tuple]) -> Iterator[CachePair]:
    """The pairs of an analyser's stream, their routing notes filled in (it counted the routes)."""
    for item in items:
        if item[0] == "p":
            pair = item[2]
            settle(pair, item[3])
            yield pair
