"""The demo's SQLite file written the one safe way (``inspector.files.atomic_output``).

The database is built in a private temporary file beside the target and moved over it only once
complete: Ctrl-C, SIGTERM, a full disk or any other failure leaves the previous file as it was and
no temporary file behind. SQLite's own errors become ``inspector.files.SaveError`` naming the
target, like every other failed save.
"""

from __future__ import annotations

import errno
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from inspector.files import SaveError, atomic_output

__all__ = ["new_sqlite_file"]

# SQLite's primary result codes (the low byte of an extended code) that mean the disk failed.
_SQLITE_IOERR = 10
_SQLITE_FULL = 13


def _as_os_error(exc: sqlite3.Error) -> OSError:
    code = getattr(exc, "sqlite_errorcode", None)
    primary = None if code is None else code & 0xFF
    if primary == _SQLITE_FULL or "disk is full" in str(exc):
        return OSError(errno.ENOSPC, "No space left on device")
    if primary == _SQLITE_IOERR:
        return OSError(errno.EIO, "Input/output error (is the disk full, or the file larger than this file "
                                  "system or a limit allows?)")
    return OSError(errno.EIO, f"SQLite: {exc}")


@contextmanager
def new_sqlite_file(target: Path) -> Iterator[sqlite3.Connection]:
    """A connection (autocommit) to a new, empty SQLite file that replaces ``target`` once the
    block ends without an exception. The build skips SQLite's journal and syncing (the file is
    private until the rename); the finished file has the ordinary rollback journal mode and is
    flushed to disk before it is moved into place."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SaveError(target, exc) from None
    with atomic_output(target) as tmp:
        try:
            conn = sqlite3.connect(tmp, isolation_level=None)
            try:
                conn.execute("PRAGMA journal_mode = OFF")
                conn.execute("PRAGMA synchronous = OFF")
                yield conn
                conn.execute("PRAGMA journal_mode = DELETE")
            finally:
                conn.close()
        except sqlite3.Error as exc:
            raise _as_os_error(exc) from None
