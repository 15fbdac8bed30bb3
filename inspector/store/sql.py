"""The SQL the store's reading modules write, and the connection they run it on.

Every query is written once as SQL text with named parameters (``:name``): the ``sqlite3``
module takes that form as it is, and so does SQLAlchemy's ``text()``, through which a
PostgreSQL store runs the same text (:mod:`inspector.store.server`). So a SQLite store is read
with nothing but ``sqlite3``, and SQLAlchemy is loaded only for a server URL.

:class:`Binds` names a query's parameters as they are added; :func:`quote` quotes an identifier;
:func:`select` lays a query out. :class:`SqliteConnection` is what a reading module is handed for
a SQLite store; the PostgreSQL one has the same methods.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Protocol

__all__ = ["Binds", "Connection", "SqliteConnection", "in_list", "quote", "select"]


def quote(name: str) -> str:
    """``name`` as an SQL identifier (both backends quote with ``"``, doubled inside)."""
    return '"' + name.replace('"', '""') + '"'


def text_literal(value: str) -> str:
    """``value`` as an SQL string literal, for the few constants written into a query's text."""
    return "'" + value.replace("'", "''") + "'"


class Binds:
    """The parameters of one query: :meth:`add` returns the placeholder of a value (``:p0``,
    ``:p1``, …) and keeps the value under that name for :attr:`values`."""

    def __init__(self, **named: Any) -> None:
        self.values: dict[str, Any] = dict(named)
        self._next = 0

    def add(self, value: Any) -> str:
        name = f"p{self._next}"
        while name in self.values:  # a caller's own name never collides with a generated one
            self._next += 1
            name = f"p{self._next}"
        self._next += 1
        self.values[name] = value
        return ":" + name


def in_list(expr: str, values: Iterable[Any], binds: Binds) -> str:
    """``expr IN (:p0, :p1, …)``; an empty list matches nothing (``IN ()`` is not SQL)."""
    marks = [binds.add(value) for value in values]
    if not marks:
        return "1 = 0"
    return f"{expr} IN ({', '.join(marks)})"


def select(columns: Sequence[str], source: str, *, where: Sequence[str] = (), group_by: Sequence[str] = (),
           order_by: Sequence[str] = (), limit: int | None = None, distinct: bool = False) -> str:
    """``SELECT columns FROM source [WHERE …] [GROUP BY …] [ORDER BY …] [LIMIT n]``; the
    conditions of ``where`` are joined with AND, each in parentheses."""
    sql = f"SELECT {'DISTINCT ' if distinct else ''}{', '.join(columns)} FROM {source}"
    if where:
        sql += " WHERE " + " AND ".join(f"({condition})" for condition in where)
    if group_by:
        sql += " GROUP BY " + ", ".join(group_by)
    if order_by:
        sql += " ORDER BY " + ", ".join(order_by)
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    return sql


class Connection(Protocol):
    """A pooled connection of a store, as its reading modules use it."""

    dialect: str
    # The driver's "the statement could not run" errors, to catch where a query may fail on its
    # own (a SQLite without JSON functions, text that is not UTF-8) without ending the read.
    OperationalError: tuple[type[BaseException], ...]
    ProgrammingError: tuple[type[BaseException], ...]

    def all(self, sql: str, params: dict[str, Any] | None = None) -> list[tuple[Any, ...]]: ...

    def dicts(self, sql: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]: ...

    def scalar(self, sql: str, params: dict[str, Any] | None = None) -> Any: ...

    def stream(self, sql: str, params: dict[str, Any] | None, batch: int) -> Iterator[tuple[Any, ...]]: ...


class SqliteConnection:
    """A ``sqlite3`` connection of the store's pool (:mod:`inspector.store.sqlite_pool`);
    :attr:`raw` is the driver's connection, for the fast paths that read blobs."""

    dialect = "sqlite"
    OperationalError: tuple[type[BaseException], ...] = (sqlite3.OperationalError,)
    ProgrammingError: tuple[type[BaseException], ...] = (sqlite3.ProgrammingError,)

    def __init__(self, raw: sqlite3.Connection) -> None:
        self.raw = raw

    def all(self, sql: str, params: dict[str, Any] | None = None) -> list[tuple[Any, ...]]:
        cursor = self.raw.cursor()
        try:
            return cursor.execute(sql, params or {}).fetchall()
        finally:
            cursor.close()

    def dicts(self, sql: str, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        cursor = self.raw.cursor()
        try:
            rows = cursor.execute(sql, params or {}).fetchall()
            names = [column[0] for column in cursor.description or ()]
        finally:
            cursor.close()
        return [dict(zip(names, row)) for row in rows]

    def scalar(self, sql: str, params: dict[str, Any] | None = None) -> Any:
        cursor = self.raw.cursor()
        try:
            row = cursor.execute(sql, params or {}).fetchone()
        finally:
            cursor.close()
        return None if row is None else row[0]

    def stream(self, sql: str, params: dict[str, Any] | None, batch: int) -> Iterator[tuple[Any, ...]]:
        """The rows of ``sql``, ``batch`` per fetch (the ``sqlite3`` cursor steps as it is read)."""
        cursor = self.raw.cursor()
        try:
            cursor.execute(sql, params or {})
            while rows := cursor.fetchmany(batch):
                yield from rows
        finally:
            cursor.close()
