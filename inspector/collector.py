"""Rarer cycle collections while a big analysis runs.

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

__all__ = ["ANALYSIS_THRESHOLD", "fewer_collections"]

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
