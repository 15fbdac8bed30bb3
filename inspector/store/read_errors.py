"""What a driver error raised while a store is being read means, for both backends.

:meth:`inspector.store.Store.connect` hands every error of the driver here (a ``sqlite3``
error, or SQLAlchemy's ``DBAPIError`` wrapping a ``psycopg`` one, or a ``psycopg`` error raised by a
raw cursor), so no
read of either backend lets a driver exception through: the caller gets a
:class:`~inspector.store.errors.StoreError` with a plain message naming the file or the URL
(secrets hidden). Two failures are recognised here; the others keep the messages of the opening
code (``fallback``):

* the PostgreSQL connection ended in the middle of a read (server stopped or restarted, backend
  terminated): :class:`~inspector.store.errors.StoreConnectionLostError`;
* the SQLite file is corrupt: :class:`~inspector.store.errors.StoreDamagedError`, with the command
  that salvages what is left.
"""

from __future__ import annotations

import shlex
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ..messages import localized
from . import postgres as pg
from .errors import NotADatabaseError, StoreDamagedError, StoreError, StoreLockedError, StoreOpenError

if TYPE_CHECKING:
    from sqlalchemy.engine import URL

__all__ = ["damaged_file_error", "is_driver_error", "read_failure", "translate_error"]

# SQLite's own words for a corrupt file (its error name is SQLITE_CORRUPT*, but an older
# Python gives only the message).
_DAMAGED_NAMES = ("SQLITE_CORRUPT",)
_DAMAGED_MESSAGES = ("database disk image is malformed", "malformed database schema")


def _wrapped_driver_error(exc: BaseException) -> BaseException | None:
    """The driver's error inside a SQLAlchemy ``DBAPIError``, else None. SQLAlchemy is loaded
    only for a server store: if it is not loaded, no error is its."""
    sa_exc = sys.modules.get("sqlalchemy.exc")
    if sa_exc is not None and isinstance(exc, sa_exc.DBAPIError):
        return exc.orig  # type: ignore[no-any-return]
    return None


def is_driver_error(exc: BaseException) -> bool:
    """True for an error of a database driver, raised by it or wrapped by SQLAlchemy."""
    if isinstance(exc, sqlite3.Error) or _wrapped_driver_error(exc) is not None:
        return True
    # psycopg is imported only by a PostgreSQL connection: if it is not loaded, no error is its.
    psycopg = sys.modules.get("psycopg")
    return psycopg is not None and isinstance(exc, psycopg.Error)


def damaged_file_error(orig: BaseException | None, location: str, path: Path | None) -> StoreError | None:
    """The error for a SQLite file that is corrupt, else None."""
    if not isinstance(orig, sqlite3.Error):
        return None
    message = str(orig)
    name = getattr(orig, "sqlite_errorname", "") or ""
    if not (name.startswith(_DAMAGED_NAMES) or any(text in message.lower() for text in _DAMAGED_MESSAGES)):
        return None
    target = shlex.quote(str(path) if path is not None else location)
    return StoreDamagedError(localized(
        "{location}: the file is damaged ({message}); `sqlite3 -readonly {target} .recover | sqlite3 recovered.db` can "
        "salvage what is left into a new file (-readonly: the damaged file is not written)", location=location,
        message=message, target=target), location=location)


def translate_error(orig: BaseException | None, location: str, busy_timeout: float,
                    url: URL | None = None, path: Path | None = None) -> StoreError:
    """The StoreError for a driver error met while opening or reading a store (the one place
    the drivers' failures get their words)."""
    if orig is not None and not isinstance(orig, sqlite3.Error):
        return pg.translate_error(orig, location, url)
    damaged = damaged_file_error(orig, location, path)
    if damaged is not None:
        return damaged
    message = str(orig)
    lower = message.lower()
    name = getattr(orig, "sqlite_errorname", "") or ""
    if "locked" in lower or name.startswith("SQLITE_BUSY"):
        return StoreLockedError(localized(
            "{location} is locked by another process ({message}; waited {seconds} s). Covel is probably writing; try "
            "again in a moment.", location=location, message=message, seconds=f"{busy_timeout:g}"), location=location)
    if "not a database" in lower or name.startswith("SQLITE_NOTADB"):
        return NotADatabaseError(localized("{location} is not a SQLite database ({message})", location=location,
                                           message=message), location=location)
    return StoreOpenError(f"{location}: {message}", location=location)


def read_failure(exc: BaseException, location: str, busy_timeout: float, url: URL | None, path: Path | None, *,
                 reading: bool, fallback: Callable[..., StoreError]) -> StoreError:
    """The StoreError for driver error ``exc``. ``reading``: the connection had been made (the
    error came from a query, not from connecting); ``fallback(orig, location, busy_timeout, url)``
    names every failure not recognised here."""
    orig = _wrapped_driver_error(exc) or exc
    invalidated = bool(getattr(exc, "connection_invalidated", False))
    found = damaged_file_error(orig, location, path)
    if found is None and reading and url is not None and pg.is_postgres(url):
        found = pg.lost_connection_error(orig, location, url, invalidated=invalidated)
    return found if found is not None else fallback(orig, location, busy_timeout, url)
