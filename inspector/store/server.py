"""A store on a database server (PostgreSQL), read through SQLAlchemy's engine and pool.

The only module of the store package that imports SQLAlchemy's engine: it is loaded when a
server URL is opened, never for a SQLite file. It runs the same SQL text the reading modules
write for SQLite (:mod:`inspector.store.sql`), through ``text()``, and gives a connection with the
same methods as :class:`inspector.store.sql.SqliteConnection`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import URL, Connection, Engine

from ..messages import localized
from . import postgres as pg
from .errors import StoreError, StoreOpenError
from .read_errors import translate_error

__all__ = ["ServerConnection", "ServerPool", "open_server"]


class ServerConnection:
    """A pooled connection of a server store, with :class:`~inspector.store.sql.Connection`'s
    methods. Errors are SQLAlchemy's (the store turns them into its own)."""

    OperationalError: tuple[type[BaseException], ...] = (sa_exc.OperationalError,)
    ProgrammingError: tuple[type[BaseException], ...] = (sa_exc.ProgrammingError,)

    def __init__(self, conn: Connection) -> None:
        self._conn = conn
        self.dialect = conn.dialect.name

    def all(self, sql: str, params: dict[str, Any] | None = None) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in self._conn.execute(sa.text(sql), params or {})]

    def dicts(self, sql: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        return [dict(row._mapping) for row in self._conn.execute(sa.text(sql), params or {})]

    def scalar(self, sql: str, params: dict[str, Any] | None = None) -> Any:
        return self._conn.execute(sa.text(sql), params or {}).scalar()

    def stream(self, sql: str, params: dict[str, Any] | None, batch: int) -> Iterator[tuple[Any, ...]]:
        """The rows of ``sql`` through a server-side cursor, ``batch`` per fetch."""
        result = self._conn.execution_options(stream_results=True, yield_per=batch).execute(sa.text(sql), params or {})
        try:
            for partition in result.partitions():
                for row in partition:
                    yield tuple(row)
        finally:
            result.close()

    @property
    def raw(self) -> Any:
        """The driver's connection (a ``psycopg`` one)."""
        return self._conn.connection.driver_connection

    def repeatable_read(self) -> None:
        """Read the rest of this connection's work in one snapshot."""
        self._conn = self._conn.execution_options(isolation_level="REPEATABLE READ")

    def rollback(self) -> None:
        self._conn.rollback()


class ServerPool:
    """The engine of a server store, with the pool methods :class:`inspector.store.Store` uses."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self.dialect = engine.dialect.name

    @contextmanager
    def connection(self) -> Iterator[ServerConnection]:
        with self._engine.connect() as conn:
            yield ServerConnection(conn)

    def checked_out(self) -> int:
        return int(self._engine.pool.checkedout())  # type: ignore[attr-defined]

    def idle(self) -> int:
        return int(self._engine.pool.checkedin())  # type: ignore[attr-defined]

    def dispose(self) -> None:
        self._engine.dispose()


def open_server(url: URL, location: str, busy_timeout: float) -> ServerPool:
    """A pool of read-only connections to the PostgreSQL store at ``url``, its read-only
    guarantee checked on a first connection."""
    if not pg.is_postgres(url):
        # No read-only guard is known for other backends: refused rather than trusted.
        raise StoreOpenError(localized("{location}: {backend} is not a Covel store backend; give the path of covel.db, "
                                       "a sqlite:/// URL or a postgresql:// URL", location=location,
                                       backend=url.get_backend_name()), location=location)
    try:
        engine = sa.create_engine(url, connect_args=pg.connect_args(url), **pg.engine_args())
    except (sa_exc.ArgumentError, sa_exc.NoSuchModuleError, ImportError) as exc:
        reason = pg.driver_message(exc, url)
        message = (localized("cannot open {location}: {reason}", location=location, reason=reason)
                   if isinstance(exc, sa_exc.ArgumentError) else
                   localized("cannot open {location}: {reason}; the PostgreSQL driver that comes with Prompt Inspector "
                             "is psycopg: use postgresql://", location=location, reason=reason))
        raise StoreOpenError(message, location=location) from exc
    event.listen(engine, "connect", lambda dbapi_connection, _record: pg.make_read_only(dbapi_connection))
    try:
        # The guarantee is checked, not assumed: a URL option or a driver that ignored the
        # read-only request must not leave a writable session on the team's database.
        with engine.connect() as conn:
            if conn.exec_driver_sql("SHOW transaction_read_only").scalar() != "on":
                raise StoreOpenError(localized("{location}: the connection could not be made read-only, so it was "
                                               "not used", location=location), location=location)
    except sa_exc.DBAPIError as exc:
        engine.dispose()
        raise translate_error(exc.orig, location, busy_timeout, url) from exc
    except StoreError:
        engine.dispose()
        raise
    return ServerPool(engine)

