"""Which response answers which request: Covel's rule (covel-db.md §2.2, what its web debugger
does). Within one turn and runtime, walking the ``llm.calling`` and ``llm.responded`` rows in write
order, a response binds to the latest calling not yet answered that has the same ``attempt``.

The store pairs a turn's rows (:func:`inspector.store.calls.pair_llm_calls`) and the cache
analysis binds a turn's requests (:meth:`inspector.cache.side_events.SideEvents.bind`), both
walking the rows in the store's write order and both through one :class:`ResponseBinder`.
"""

from __future__ import annotations

from typing import Generic, TypeVar

__all__ = ["ResponseBinder"]

Calling = TypeVar("Calling")


class ResponseBinder(Generic[Calling]):
    """The walk over one turn and runtime: :meth:`calling` for each request, :meth:`response`
    for each response, in order; a response gets the calling it answers (None: no calling of its
    attempt is waiting)."""

    __slots__ = ("_open",)

    def __init__(self) -> None:
        self._open: list[tuple[int, Calling]] = []  # callings not answered yet, in order

    def calling(self, attempt: int, calling: Calling) -> None:
        self._open.append((attempt, calling))

    def response(self, attempt: int) -> Calling | None:
        waiting = self._open
        for i in range(len(waiting) - 1, -1, -1):
            if waiting[i][0] == attempt:
                return waiting.pop(i)[1]
        return None
