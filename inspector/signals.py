"""SIGTERM handled like Ctrl-C while a file is being written, so that clean-up code runs.

Python turns Ctrl-C (SIGINT) into ``KeyboardInterrupt``, which unwinds the stack through every
``finally`` and ``except BaseException`` block: a half-written temporary file is removed. SIGTERM
(``kill PID``, a service manager, a closing terminal session) kills the process at once by
default, leaving the temporary file behind. :func:`sigterm_as_interrupt` installs, for the
duration of a ``with`` block, a handler that raises :class:`Terminated` instead (a
``KeyboardInterrupt``, so every handler of Ctrl-C handles it too: the command line's error
boundary reports "interrupted"), then restores the previous handler.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

__all__ = ["Terminated", "sigterm_as_interrupt"]


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived while a file was being written (see :func:`sigterm_as_interrupt`)."""


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    # A second SIGTERM must not interrupt the clean-up the first one started; the block's exit
    # restores the default action.
    signal.signal(signum, signal.SIG_IGN)
    raise Terminated("terminated (SIGTERM)")


@contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """While the block runs, SIGTERM raises :class:`Terminated` in the main thread.

    Only the default action is replaced: a handler someone else installed (the desktop app, a
    test runner) or an ignored SIGTERM is left alone, as is everything outside the main thread
    (where Python cannot install handlers) and platforms without SIGTERM delivery. Nested blocks
    are fine; the outermost one restores the default."""
    sigterm = getattr(signal, "SIGTERM", None)
    if sigterm is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    try:
        previous = signal.getsignal(sigterm)
    except (ValueError, OSError):  # pragma: no cover - no signal support here
        yield
        return
    if previous is not signal.SIG_DFL:
        yield
        return
    signal.signal(sigterm, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(sigterm, previous)
