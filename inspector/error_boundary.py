"""The one error boundary: how any failure becomes the sentence a person reads, and its exit status.

The command line (``inspector.cli.main``) and the desktop app (``ui.app``) both call
:func:`describe`, so the same failure reads the same in a terminal and in a dialog. Only with
``--debug`` (or ``PROMPT_INSPECTOR_DEBUG=1``) does a traceback reach the user as well.

Exit statuses, for every command:

==== ==========================================================================================
0    done
1    done, and the result is a failure the user asked about (``lint`` found errors, …)
2    bad input: a file, URL, argument or store that cannot be used as given; the message says
     which and what to do
3    nothing could be evaluated: a check found nothing to judge (``cache --fail-on`` on a store
     without a single request pair)
70   an internal error (a defect of this program, ``EX_SOFTWARE``); the message asks for a report
130  interrupted (Ctrl-C or SIGTERM)
==== ==========================================================================================
"""

from __future__ import annotations

import errno
import os
import sqlite3
from dataclasses import dataclass

EXIT_OK = 0
EXIT_FAILED_CHECK = 1
EXIT_BAD_INPUT = 2
EXIT_NOTHING_EVALUATED = 3
EXIT_INTERNAL = 70
EXIT_INTERRUPTED = 130

DEBUG_FLAG = "--debug"
DEBUG_ENV = "PROMPT_INSPECTOR_DEBUG"


@dataclass(frozen=True, slots=True)
class Failure:
    """What to tell the user about an exception, and the exit status it maps to."""

    message: str
    status: int

    @property
    def internal(self) -> bool:
        return self.status == EXIT_INTERNAL


def debug_requested(argv: list[str] | None = None, env: dict[str, str] | None = None) -> bool:
    """True when the user asked for tracebacks: ``--debug`` on the command line or the variable."""
    env = os.environ if env is None else env
    if env.get(DEBUG_ENV, "").strip().lower() in ("1", "true", "yes", "on"):
        return True
    return argv is not None and DEBUG_FLAG in argv


def without_debug_flag(argv: list[str]) -> list[str]:
    """``argv`` without the global ``--debug`` flag (it may stand anywhere before ``--``)."""
    if DEBUG_FLAG not in argv:
        return list(argv)
    out: list[str] = []
    for index, arg in enumerate(argv):
        if arg == "--":
            return out + argv[index:]
        if arg != DEBUG_FLAG:
            out.append(arg)
    return out


def _os_message(exc: OSError) -> str:
    what = exc.strerror or str(exc) or type(exc).__name__
    if exc.errno == errno.ENOSPC:
        what = "no space left on the device; free some space and try again"
    name = exc.filename
    if name is not None:
        where = os.fsdecode(name) if isinstance(name, (bytes, os.PathLike)) else str(name)
        return f"{where}: {what}"
    return what


def _database_message(error: sqlite3.DatabaseError) -> str:
    """A SQLite error that no reader translated (it names no file): the store's one translation
    (``inspector.store.read_errors.translate_error``), with "the database" for its name and FILE
    in a command to run on it."""
    try:
        from pathlib import Path

        from .store import DEFAULT_BUSY_TIMEOUT
        from .store.read_errors import translate_error

        return str(translate_error(error, "the database", DEFAULT_BUSY_TIMEOUT, path=Path("FILE")))
    except Exception:  # pragma: no cover - the store package always imports in a working install
        return f"the database: {error}"


def describe(exc: BaseException) -> Failure:
    """The message and exit status for ``exc``, with any secret it echoes masked. Never raises."""
    failure = _describe(exc)
    try:
        from .store.urls import scrub_text
    except Exception:  # pragma: no cover - the store package always imports in a working install
        return failure
    return Failure(scrub_text(failure.message), failure.status)


def _describe(exc: BaseException) -> Failure:
    # Imported here so that a failure while importing the store layer still gets described.
    try:
        from .store.errors import StoreError
    except Exception:  # pragma: no cover - the store package always imports in a working install
        StoreError = ()  # type: ignore[assignment,misc]
    if isinstance(exc, KeyboardInterrupt):
        return Failure("interrupted", EXIT_INTERRUPTED)
    if StoreError and isinstance(exc, StoreError):
        return Failure(str(exc), EXIT_BAD_INPUT)
    # A RecursionError is a defect now (parsing is iterative, nesting is bounded where it is read):
    # it takes the "internal error … please report it" path below.
    if isinstance(exc, MemoryError):
        return Failure("ran out of memory; the input is too large for this machine", EXIT_BAD_INPUT)
    if isinstance(exc, UnicodeError):
        return Failure(f"the input is not valid text: {exc}", EXIT_BAD_INPUT)
    if isinstance(exc, OSError):
        return Failure(_os_message(exc), EXIT_BAD_INPUT)
    # SQLAlchemy wraps the driver's error and keeps it as ``orig``.
    driver_error = exc if isinstance(exc, sqlite3.DatabaseError) else getattr(exc, "orig", None)
    if isinstance(driver_error, sqlite3.DatabaseError):
        return Failure(_database_message(driver_error), EXIT_BAD_INPUT)
    name = type(exc).__name__
    detail = str(exc).splitlines()[0] if str(exc) else ""
    text = f"{name}: {detail}" if detail else name
    return Failure(f"internal error ({text}). This is a defect of Prompt Inspector: run the same "
                   f"command again with {DEBUG_FLAG} to see where it happened, and please report it",
                   EXIT_INTERNAL)
