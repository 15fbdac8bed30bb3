"""Saving files so that nothing is ever lost: the one way the app and the CLI write a file.

Every file the program writes goes through :func:`atomic_output` (or :func:`write_atomic`, which
uses it for text): the data goes to a temporary file beside the real target, is flushed to disk
and moved into place with one ``os.replace``. A crash, a full disk, Ctrl-C or SIGTERM leaves
either the old file or the new one, never half of one, and never the temporary file. The new file
keeps the old one's permission bits (a new file gets the umask's default, as ``open()`` would), a
symbolic link is written through (the link stays a link), and an error names the user's path,
never the temporary one.

:func:`check_output_path` is the other half of the promise: an output never lands on an input of
the same command, on a SQLite database, on a folder, or on a FIFO, socket or device (it would
block or never end). :func:`read_file_header` is the one way a file's first bytes are looked at
(SQLite's header, here and in the store and the demo), and it never blocks.
"""

from __future__ import annotations

import errno as _errno
import os
import secrets
import shutil
import stat
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from .inputs import InputFileError, open_regular_file, refuse_special_file
from .messages import localized
from .signals import sigterm_as_interrupt

__all__ = [
    "SaveError",
    "OutputPathError",
    "atomic_output",
    "write_atomic",
    "write_atomic_bytes",
    "check_output_path",
    "is_sqlite_file",
    "read_file_header",
    "SQLITE_HEADER",
    "SQLITE_HEADER_BYTES",
]

# The first 16 bytes of every SQLite 3 database file.
SQLITE_HEADER = b"SQLite format 3\x00"
# The length of a SQLite database file's header (the application id, format numbers, … are in it).
SQLITE_HEADER_BYTES = 100
# Files SQLite keeps beside a database; writing over one of them damages the database too.
_SQLITE_SIDECARS = ("-wal", "-shm", "-journal")


class SaveError(OSError):
    """A file could not be written. ``str()`` is one line naming the user's path and the reason,
    e.g. ``cannot write report.html: No space left on device``; ``errno``, ``strerror`` and
    ``filename`` (the user's path) are those of the failure."""

    def __init__(self, path: str | os.PathLike[str], cause: OSError) -> None:
        reason = cause.strerror or str(cause) or type(cause).__name__
        super().__init__(cause.errno if cause.errno is not None else _errno.EIO, reason)
        self.filename = os.fspath(path)

    def __str__(self) -> str:
        return f"cannot write {self.filename}: {self.strerror}"


class OutputPathError(ValueError):
    """An output path the command must not write (an input, a database, a folder); ``str()`` is
    the one-line message to show, ``is_database`` says whether the path is an existing SQLite
    database (which a command may offer to replace)."""

    def __init__(self, message: str, *, is_database: bool = False) -> None:
        super().__init__(message)
        self.is_database = is_database


# --- where an output may go -------------------------------------------------------------------


def read_file_header(path: str | os.PathLike[str], size: int = SQLITE_HEADER_BYTES) -> bytes:
    """The first ``size`` bytes of the regular file at ``path`` (fewer when the file is shorter),
    read without ever blocking: a FIFO, socket or device is refused without being opened for a
    blocking read (``inspector.inputs.open_regular_file``). Raises
    ``inspector.inputs.InputFileError`` naming the file, whose ``reason`` is ``"missing"``,
    ``"unreadable"``, ``"directory"`` or ``"special"``."""
    fd = open_regular_file(path)
    try:
        chunks: list[bytes] = []
        remaining = size
        while remaining > 0:
            chunk = os.read(fd, remaining)
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
    except OSError as exc:
        name = os.fspath(path)
        raise InputFileError(localized("{name} cannot be read: {error}", name=name, error=exc.strerror or exc),
                             path=name,
                             reason="unreadable") from None
    finally:
        os.close(fd)
    return b"".join(chunks)


def is_sqlite_file(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` is a regular file that starts with the SQLite 3 header (never blocks:
    a FIFO or device is not one)."""
    try:
        return read_file_header(path, len(SQLITE_HEADER)) == SQLITE_HEADER
    except InputFileError:
        return False


def _refuse_special_output(name: str) -> None:
    """``OutputPathError`` for a FIFO, socket or device: writing one would block or never end."""
    try:
        refuse_special_file(name)
    except InputFileError as exc:
        raise OutputPathError(localized("cannot write {name}: {reason}", name=name, reason=exc)) from None


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False


def check_output_path(
    output: str | os.PathLike[str],
    inputs: Iterable[str | os.PathLike[str] | None] = (),
    *,
    may_replace_database: bool | Callable[[Path], bool] = False,
) -> Path:
    """``output`` as a ``Path`` if a command may write it, else ``OutputPathError`` saying why not.

    Refused: a folder; a path that is one of ``inputs`` (resolving links, or the same file
    through a hard link) or names a file SQLite keeps beside one (``-wal``, ``-shm``,
    ``-journal``, existing or not); a FIFO, socket or device (looked at with ``stat`` only, so
    the check never blocks); an existing SQLite database, unless ``may_replace_database`` is true
    or, given a function, says so for this file. Inputs that are not local files (a database URL,
    None) are skipped: give the file a URL names (``Store.path``) to have it checked too.
    """
    # Imported here: the store package (which this module's callers may be loading) reads
    # SQLite headers through this module.
    from .store.urls import looks_like_url

    name = os.fspath(output)
    if not name:
        raise OutputPathError(localized("the output file name is empty"))
    path = Path(name)
    if os.path.isdir(name):
        raise OutputPathError(localized("cannot write {name}: it is a folder; name a file to write", name=name))
    _refuse_special_output(name)
    real = os.path.normcase(os.path.realpath(name))
    for given in inputs:
        if given is None:
            continue
        source = os.fspath(given)
        if not source or looks_like_url(source) or not os.path.lexists(source):
            continue
        if real == os.path.normcase(os.path.realpath(source)) or (os.path.lexists(name) and _same_file(name, source)):
            raise OutputPathError(localized("cannot write {name}: it is the input {source}; choose another output file",
                                            name=name, source=source))
        # SQLite would take a file of one of these names for the database's own (a WAL to replay).
        if real in (os.path.normcase(os.path.realpath(source)) + tail for tail in _SQLITE_SIDECARS):
            raise OutputPathError(localized("cannot write {name}: SQLite keeps a file of that name beside the input "
                                            "{source}; choose another output file", name=name, source=source))
    if is_sqlite_file(name):
        allowed = may_replace_database(path) if callable(may_replace_database) else may_replace_database
        if not allowed:
            raise OutputPathError(localized("cannot write {name}: it is a SQLite database, which this command does "
                                            "not overwrite; choose another output file", name=name), is_database=True)
    return path


# --- the atomic save --------------------------------------------------------------------------


def _real_target(path: Path) -> Path:
    """The file a write to ``path`` lands in: a symbolic link is followed (even a dangling one)."""
    if path.is_symlink():
        return Path(os.path.realpath(path))
    return path


def _create_temporary(target: Path, mode: int | None, created: list[Path]) -> int:
    """Create a new, empty file beside ``target`` (its path appended to ``created`` as soon as it
    exists, so an interrupt at any point can remove it) and return the mode the finished file
    gets: ``mode``, else the mode ``target`` has or, for a new file, the umask's default, as
    ``open()`` gives. Until then the owner may read and write it."""
    wanted = mode
    if wanted is None:
        try:
            wanted = stat.S_IMODE(os.stat(target).st_mode)
        except FileNotFoundError:
            pass
    directory = target.parent
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    for _attempt in range(100):
        tmp = directory / f".{target.name}.{secrets.token_hex(4)}.tmp"
        try:
            fd = os.open(tmp, flags, 0o666)
        except FileExistsError:
            continue
        created.append(tmp)
        try:
            final = stat.S_IMODE(os.fstat(fd).st_mode) if wanted is None else wanted
            _chmod(tmp, fd, final | stat.S_IRUSR | stat.S_IWUSR)
        finally:
            os.close(fd)
        return final
    raise FileExistsError(_errno.EEXIST, "no free temporary file name")


def _chmod(path: Path, fd: int | None, mode: int) -> None:
    try:
        if fd is not None and os.chmod in os.supports_fd:
            os.chmod(fd, mode)
        else:
            os.chmod(path, mode)
    except OSError:
        pass


def _sync_folder(directory: Path) -> None:
    """Make the rename itself durable (POSIX; a no-op where folders cannot be opened)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


@contextmanager
def atomic_output(path: str | os.PathLike[str], *, mode: int | None = None) -> Iterator[Path]:
    """Replace the file at ``path`` with what the ``with`` block writes to the yielded temporary
    path (an empty file with the right mode, in the same folder as the real target), once the
    block ends without an exception. The block may write it however it likes (SQLite, a stream)
    but must close it. Any failure removes the temporary file and raises ``SaveError`` naming
    ``path``. ``mode`` sets the new file's permission bits instead. SIGTERM during the block
    raises ``inspector.signals.Terminated`` (a ``KeyboardInterrupt``) so that the same clean-up
    runs as on Ctrl-C."""
    shown = os.fspath(path)
    created: list[Path] = []
    with sigterm_as_interrupt():
        try:
            try:
                target = _real_target(Path(shown))
                mode = _create_temporary(target, mode, created)
                tmp = created[0]
                yield tmp
                with open(tmp, "rb+") as fh:
                    os.fsync(fh.fileno())
                _chmod(tmp, None, mode)
                os.replace(tmp, target)
            except OSError as exc:
                raise SaveError(shown, exc) from None
        except BaseException:
            for leftover in created:
                try:
                    os.unlink(leftover)
                except OSError:
                    pass
            raise
        _sync_folder(target.parent)


def _replace_with(path: str | os.PathLike[str], write: Callable[[BinaryIO], object],
                  mode: int | None = None) -> Path:
    with atomic_output(path, mode=mode) as tmp:
        with open(tmp, "wb") as dst:
            write(dst)
            dst.flush()
    return Path(path)


def write_atomic_bytes(path: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically (see :func:`atomic_output`)."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"write_atomic_bytes writes bytes, not {type(data).__name__}")
    return _replace_with(path, lambda dst: dst.write(data))


def write_atomic(path: str | os.PathLike[str], text: str, *, keep_backup: bool = False) -> Path:
    """Write ``text`` (UTF-8, line ends as given) to ``path`` through a temporary file in the same
    folder, flushed to disk and moved into place with one ``os.replace``: a crash or a full disk
    leaves either the old file or the new one, never half of one. With ``keep_backup`` the file
    being replaced is first kept as ``<name>.bak`` beside ``path``, written the same way and with
    the same permission bits (a private file's copy stays private). Raises
    ``SaveError`` (an ``OSError``) naming ``path``."""
    if not isinstance(text, str):
        raise TypeError(f"write_atomic writes text, not {type(text).__name__}")
    target = Path(path)
    if keep_backup and target.is_file():
        try:
            src = open(target, "rb")
        except OSError as exc:
            raise SaveError(target, exc) from None
        with src:
            _replace_with(target.with_name(target.name + ".bak"), lambda dst: shutil.copyfileobj(src, dst),
                          stat.S_IMODE(os.fstat(src.fileno()).st_mode))
    data = text.encode("utf-8")
    _replace_with(target, lambda dst: dst.write(data))
    return target
