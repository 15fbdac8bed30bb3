"""The process's one policy for CPython's cycle collector: rarer collections while a big
analysis runs (:func:`fewer_collections`), no collections while a job builds long-lived data
(:func:`paused_collections`), and long-lived data kept out of later collections
(:func:`freeze_heap`).

Rarer collections while a big analysis runs.

CPython's cycle collector runs each time 700 more container objects have been made than freed,
and each run walks the young generation (every tenth also the middle one, and now and then the
whole heap). The cache analysis of a big session makes millions of such objects (parsed JSON,
parts, facts) that live until the next request or the end of the analysis, and no reference
cycles: on the benchmark session (6,000 requests) the collector ran about 320 times, found nothing
to free, and took a tenth of the analysis's time (0.3 s of 2.9 s). While any analysis runs, the
first threshold is raised (``fewer_collections``) so the collector runs about once; collections
still happen, so the rest of the app's garbage is still collected, a little later.
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator

__all__ = ["ANALYSIS_THRESHOLD", "fewer_collections", "freeze_heap", "paused_collections"]

# The young generation's threshold while an analysis runs (CPython's default is 700).
ANALYSIS_THRESHOLD = 100_000

_lock = threading.Lock()
_running = 0
_saved: tuple[int, int, int] | None = None


@contextlib.contextmanager
def fewer_collections() -> Iterator[None]:
    """Within it, the collector runs after ANALYSIS_THRESHOLD new objects, not 700. Nests and
    overlaps across threads: the thresholds in force before the first one entered are restored
    when the last one leaves."""
    global _running, _saved
    with _lock:
        if _running == 0:
            _saved = gc.get_threshold()
            if _saved[0] and _saved[0] < ANALYSIS_THRESHOLD:
                gc.set_threshold(ANALYSIS_THRESHOLD, *_saved[1:])
        _running += 1
    try:
        yield
    finally:
        with _lock:
            _running -= 1
            if _running == 0 and _saved is not None:
                # Put back only what was changed here: someone may have set thresholds meanwhile.
                if gc.get_threshold()[0] == ANALYSIS_THRESHOLD:
                    gc.set_threshold(*_saved)
                _saved = None


def freeze_heap() -> None:
    """Exclude every object alive now from the collector's full collections.

    A full (generation 2) collection walks every container object and holds the interpreter lock
    while it does: once a view holds a 1,000-turn session it is a stall wherever it falls (while
    scrolling, during a search). Long-lived data (the open store, the navigator rows) is frozen
    once it is built (``gc.freeze``), so later collections walk only what was made since. Frozen
    objects are still freed by reference counting; only reference cycles among them are never
    collected, so owners of big cyclic structures break their cycles when they drop them; young
    garbage is collected first (cheap) so little of it is frozen.
    """
    gc.collect(1)
    gc.freeze()


_pause_lock = threading.Lock()
_pausers = 0


@contextlib.contextmanager
def paused_collections(freeze: bool = False) -> Iterator[None]:
    """No cycle collection within it (a job building rows that live on); with ``freeze``,
    what was made meanwhile is frozen when it ends: it is all still young, and the first
    collection after resuming would walk all of it. Nests and overlaps across threads:
    collection resumes when the last one leaves."""
    global _pausers
    with _pause_lock:
        _pausers += 1
        if _pausers == 1:
            gc.disable()
    try:
        yield
    finally:
        with _pause_lock:
            _pausers -= 1
            if freeze:
                gc.freeze()
            if _pausers == 0:
                gc.enable()
