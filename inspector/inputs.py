"""Checks on a file the user names as input, made before anything opens it.

Opening a FIFO for reading blocks until some other process writes to it, and a character device
such as ``/dev/zero`` never ends: a loader that opens whatever it is given can hang forever. The
check here looks at the file with ``stat`` only (it never opens it), so it cannot block.
"""

from __future__ import annotations

import os
import stat

from .messages import localized

__all__ = ["InputFileError", "check_regular_file", "open_regular_file", "refuse_special_file"]


class InputFileError(ValueError):
    """The path is not a regular file. ``reason`` is ``"missing"``, ``"unreadable"`` (no
    permission, say), ``"directory"`` or ``"special"`` (FIFO, socket, device); the message names
    the file and what to do."""

    def __init__(self, message: str, *, path: str, reason: str) -> None:
        super().__init__(message)
        self.path = path
        self.reason = reason


def _special(name: str, mode: int) -> str:
    """Why ``name`` (not a regular file, not a folder) is refused."""
    if stat.S_ISFIFO(mode):
        return localized("{name} is a named pipe (FIFO), not a regular file: give the path of a file", name=name)
    if stat.S_ISSOCK(mode):
        return localized("{name} is a socket, not a regular file: give the path of a file", name=name)
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return localized("{name} is a device, not a regular file: give the path of a file", name=name)
    return localized("{name} is not a regular file: give the path of a file", name=name)


def _refuse(name: str, mode: int) -> InputFileError:
    if stat.S_ISDIR(mode):
        return InputFileError(localized("{name} is a directory, not a file", name=name), path=name,
                              reason="directory")
    return InputFileError(_special(name, mode), path=name, reason="special")


def check_regular_file(path: str | os.PathLike[str]) -> None:
    """Raise :class:`InputFileError` unless ``path`` is (a link to) an existing regular file.

    Uses ``os.stat`` only, so a FIFO, socket or device is refused without being opened."""
    name = os.fspath(path)
    try:
        info = os.stat(name)
    except FileNotFoundError:
        raise InputFileError(localized("{name} does not exist", name=name), path=name, reason="missing") from None
    except OSError as exc:
        raise InputFileError(localized("{name} cannot be read: {error}", name=name, error=exc.strerror or exc),
                             path=name,
                             reason="unreadable") from None
    if not stat.S_ISREG(info.st_mode):
        raise _refuse(name, info.st_mode)


def refuse_special_file(path: str | os.PathLike[str]) -> None:
    """Raise :class:`InputFileError` only for a FIFO, socket or device (the inputs that block or
    never end); a missing file, a folder or an unreadable one is left to the reader, whose own
    message already says so."""
    try:
        check_regular_file(path)
    except InputFileError as exc:
        if exc.reason == "special":
            raise


def open_regular_file(path: str | os.PathLike[str]) -> int:
    """``check_regular_file``, then an ``os.open`` read-only descriptor of the file that cannot
    block (non-blocking open, checked again with ``fstat`` against a swap since the ``stat``).
    The caller closes it."""
    check_regular_file(path)
    name = os.fspath(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(name, flags)
    except FileNotFoundError:
        raise InputFileError(localized("{name} does not exist", name=name), path=name, reason="missing") from None
    except OSError as exc:
        raise InputFileError(localized("{name} cannot be read: {error}", name=name, error=exc.strerror or exc),
                             path=name,
                             reason="unreadable") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise _refuse(name, info.st_mode)
    return fd
