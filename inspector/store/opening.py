"""Opening a Covel store read-only: a ``covel.db`` path, a ``sqlite://`` URL or a PostgreSQL URL."""

from __future__ import annotations

import os
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import URL, make_url

from . import postgres as pg
from .errors import StoreError, StoreOpenError
from .read_errors import translate_error
from .sqlite_open import (
    DEFAULT_BUSY_TIMEOUT,
    Opened,
    SqliteRequest,
    open_sqlite,
    sqlite_request,
)
from .store import Store
from .urls import bad_url_message, looks_like_url, shown_url

__all__ = ["open_store"]


def open_store(path_or_url: str | os.PathLike[str], *, busy_timeout: float = DEFAULT_BUSY_TIMEOUT) -> Store:
    """Open a Covel store read-only.

    ``path_or_url`` is a file path, or an SQLAlchemy URL (``postgresql+psycopg://…``,
    ``sqlite:///…``). Every SQLite file, named by path or URL, is opened by
    :func:`inspector.store.sqlite_open.open_sqlite`: never read-write, never creating a file.
    """
    target = os.fspath(path_or_url)
    if isinstance(target, bytes):
        target = os.fsdecode(target)
    if not looks_like_url(target):
        return _open_sqlite(SqliteRequest(Path(target), busy_timeout), url_text=None)
    try:
        url = make_url(target)
        url.port  # noqa: B018 - a bad port or an unclosed IPv6 bracket fails here, not in the driver
    except (sa_exc.ArgumentError, ValueError) as exc:
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
        return Store(opened.engine, path=path, url=url_text if url_text is not None else opened.uri,
                     location=str(path), read_only_mode=opened.mode, busy_timeout=request.busy_timeout,
                     notes=opened.notes, sa_url=sa_url, sqlite=(opened, reopen))
    except BaseException:
        opened.release()
        raise


def _open_url(url: URL, busy_timeout: float) -> Store:
    url = pg.normalise_url(url)
    location = shown_url(url)
    if not pg.is_postgres(url):
        # No read-only guard is known for other backends: refused rather than trusted.
        raise StoreOpenError(f"{location}: {url.get_backend_name()} is not a Covel store backend; give the path "
                             "of covel.db, a sqlite:/// URL or a postgresql:// URL", location=location)
    try:
        engine = sa.create_engine(url, connect_args=pg.connect_args(url), **pg.engine_args())
    except (sa_exc.ArgumentError, sa_exc.NoSuchModuleError, ImportError) as exc:
        hint = "" if isinstance(exc, sa_exc.ArgumentError) else \
            "; the PostgreSQL driver that comes with Prompt Inspector is psycopg: use postgresql://"
        raise StoreOpenError(f"cannot open {location}: {pg.driver_message(exc, url)}{hint}", location=location) from exc
    event.listen(engine, "connect", lambda dbapi_connection, _record: pg.make_read_only(dbapi_connection))
    try:
        # The guarantee is checked, not assumed: a URL option or a driver that ignored the
        # read-only request must not leave a writable session on the team's database.
        with engine.connect() as conn:
            if conn.exec_driver_sql("SHOW transaction_read_only").scalar() != "on":
                raise StoreOpenError(f"{location}: the connection could not be made read-only, so it was "
                                     "not used", location=location)
    except sa_exc.DBAPIError as exc:
        engine.dispose()
        raise translate_error(exc.orig, location, busy_timeout, url) from exc
    except StoreError:
        engine.dispose()
        raise
    return Store(engine, path=None, url=location, location=location, read_only_mode="ro",
                 busy_timeout=busy_timeout, notes=[], sa_url=url)
