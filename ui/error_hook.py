"""The desktop app's side of the error boundary: an exception nobody caught becomes a message.

An exception that escapes a slot, a timer or a background thread would otherwise print a
traceback on the terminal and leave the user guessing. While the app runs, this hook hands it to
:func:`inspector.error_boundary.describe` (the same words the command line prints) and shows the
result through the window's ``report_error``; the traceback goes to stderr only with ``--debug``.
Installed only when the app owns its ``QApplication``: a test host keeps its own hooks, so a
defect still fails its test.
"""

from __future__ import annotations

import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import TracebackType

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal

from inspector.error_boundary import describe

Report = Callable[[str, str], None]


class _Relay(QObject):
    """Carries a message from any thread to the GUI thread (a queued signal)."""

    reported = Signal(str, str)


def _title() -> str:
    return QCoreApplication.translate("App", "Something went wrong")


@contextmanager
def error_hook(report: Report, *, debug: bool = False) -> Iterator[None]:
    """While the block runs, uncaught exceptions (GUI thread or worker threads) are reported with
    ``report(title, message)`` on the GUI thread instead of escaping as tracebacks."""
    relay = _Relay()
    relay.reported.connect(report, Qt.ConnectionType.QueuedConnection)
    previous_hook, previous_thread_hook = sys.excepthook, threading.excepthook

    def handle(exc_type: type[BaseException], exc: BaseException | None,
               tb: TracebackType | None) -> None:
        if exc is None:
            exc = exc_type()
        if debug:
            traceback.print_exception(exc_type, exc, tb, file=sys.stderr)
        relay.reported.emit(_title(), describe(exc).message)

    def handle_thread(args: threading.ExceptHookArgs) -> None:
        if args.exc_type is SystemExit:
            return
        handle(args.exc_type, args.exc_value, args.exc_traceback)

    sys.excepthook = handle
    threading.excepthook = handle_thread
    try:
        yield
    finally:
        sys.excepthook, threading.excepthook = previous_hook, previous_thread_hook
        relay.deleteLater()
