"""Errors raised by the store reader.

Every message names the file (or URL) it is about, because the desktop app shows them verbatim
in a dialog and the CLI prints them as its only output.
"""

from __future__ import annotations


class StoreError(Exception):
    """Base class: anything that stops the store from being opened or read."""

    def __init__(self, message: str, *, location: str | None = None) -> None:
        super().__init__(message)
        self.location = location


class StoreNotFoundError(StoreError):
    """The path does not exist (or is not a regular file), or the server has no such database."""


class EmptyDatabaseError(StoreError):
    """The file exists but holds 0 bytes. SQLite would happily treat it as a new database."""


class NotADatabaseError(StoreError):
    """The file is not a SQLite database."""


class NotACovelStoreError(StoreError):
    """The database opened but has no ``trace_events`` table (on PostgreSQL: not in the schema the
    connection's ``search_path`` selects, or that schema does not exist)."""


class StoreLockedError(StoreError):
    """Another process held a lock longer than the busy timeout; retrying usually succeeds."""


class StoreOpenError(StoreError):
    """Any other failure to open or query the database."""


class StoreConnectionError(StoreOpenError):
    """A database server could not be reached: refused, unknown host, no socket, timed out."""


class StoreAuthenticationError(StoreOpenError):
    """The database server refused the user name or password given in the URL."""


class StoreConnectionLostError(StoreConnectionError):
    """The connection to the database server ended in the middle of a read (server stopped or
    restarted, session terminated); the next read connects again."""


class StoreDamagedError(StoreOpenError):
    """The SQLite file is corrupt (a page that does not hold what SQLite expects)."""
