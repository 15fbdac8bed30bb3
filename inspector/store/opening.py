"""Opening a Covel store read-only: a ``covel.db`` path, a ``sqlite://`` URL or a PostgreSQL URL."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from . import postgres as pg
from .errors import StoreOpenError
from .sqlite_open import (
    DEFAULT_BUSY_TIMEOUT,
    Opened,
    SqliteRequest,
    open_sqlite,
    sqlite_request,
)
from .store import Store
from .urls import bad_url_message, looks_like_url, make_url, shown_url

if TYPE_CHECKING:
    from sqlalchemy.engine import URL

__all__ = ["open_store"]


def open_store(path_or_url: str | os.PathLike[str], *, busy_timeout: float = DEFAULT_BUSY_TIMEOUT) -> Store:
    """Open a Covel store read-only.

    ``path_or_url`` is a file path, or an SQLAlchemy URL (``postgresql+psycopg://…``,
    ``sqlite:///…``). Every SQLite file, named by path or URL, is opened by
    :func:`inspector.store.sqlite_open.open_sqlite`: never read-write, never creating a file, and
    read with the ``sqlite3`` module alone. SQLAlchemy parses a URL and reads a server store
    (:mod:`inspector.store.server`); a path never loads it.
    """
    target = os.fspath(path_or_url)
    if isinstance(target, bytes):
        target = os.fsdecode(target)
    if not looks_like_url(target):
        return _open_sqlite(SqliteRequest(Path(target), busy_timeout), url_text=None)
    try:
        url = make_url(target)
        url.port  # noqa: B018 - a bad port or an unclosed IPv6 bracket fails here, not in the driver
    except ValueError as exc:
        message, shown = bad_url_message(target, exc)  # scheme and host only: no user, password, query
        raise StoreOpenError(message, location=shown) from None
    if url.get_backend_name() == "sqlite":
        # Options (timeout, immutable) travel with the store to a worker process (open_spec).
        return _open_sqlite(sqlite_request(url, target, busy_timeout), url_text=target,
                            sa_url=url if url.query else None)
    return _open_url(url, busy_timeout)


def _open_sqlite(request: SqliteRequest, *, url_text: str | None, sa_url: URL | None = None) -> Store:
    def reopen() -> Opened:
        return open_sqlite(request)

    opened = reopen()
    path = request.path.expanduser().absolute()
    try:
        return Store(opened.pool, path=path, url=url_text if url_text is not None else opened.uri,
                     location=str(path), read_only_mode=opened.mode, busy_timeout=request.busy_timeout,
                     notes=opened.notes, sa_url=sa_url, sqlite=(opened, reopen))
    except BaseException:
        opened.release()
        raise


def _open_url(url: URL, busy_timeout: float) -> Store:
    from .server import open_server  # SQLAlchemy's engine, for a server store only

    url = pg.normalise_url(url)
    location = shown_url(url)
    pool = open_server(url, location, busy_timeout)
    return Store(pool, path=None, url=location, location=location, read_only_mode="ro",
                 busy_timeout=busy_timeout, notes=[], sa_url=url)
