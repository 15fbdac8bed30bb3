"""Bulk reads of ``llm.calling`` rows with their raw payloads (the prefix report, the cache
analysis, the search index).

On SQLite the rows come through a fast path: the row ids are sorted alone, then each payload is
read through a blob handle, in one read transaction (:func:`_stream_by_rowid`,
:func:`_rows_by_id_sqlite`). Every other backend streams the same query through SQLAlchemy
(:func:`_stream`); both give the same rows in the same order, byte for byte.
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa

from ..covel.events import LLM_CALLING
from .columns import node_text_factory
from .errors import StoreError
from .schema import Reader
from .trace_events import write_order_key

__all__ = ["MAPPED_READ_BYTES", "iter_llm_calling_rows", "iter_llm_calling_since", "llm_calling_rows_by_id"]

RequestRow = tuple[str, str, bytes | str | None, str]

# Bulk payload reads that ask for it (the cache analysis's) memory-map the database file: SQLite
# then copies a payload's pages from the mapping instead of reading each 4 kB page with a system
# call. The pages read count in the process's resident memory while the mapping lasts, so reads
# over a whole store (the prefix report, a search without its index) do not map. Not on Windows,
# where a file mapped by this process keeps Covel from truncating its database (VACUUM) while the
# mapping lasts.
MAPPED_READ_BYTES = 0 if sys.platform == "win32" else 1 << 31

# The columns the fast path reads, followed by a condition: a text or blob payload is read
# through a blob handle (_request_row), any other (NULL, a number) comes as the query's value.
_ROW_FETCH_SQL = (
    "SELECT rowid, session_id, turn_id, CASE WHEN typeof(payload) IN ('text', 'blob') THEN NULL "
    "ELSE CAST(payload AS BLOB) END, id, typeof(payload) IN ('text', 'blob') FROM trace_events WHERE "
)


def _request_row(connection: sqlite3.Connection, row: tuple) -> tuple[Any, ...]:
    """``(session_id, turn_id, payload, id)`` of a ``_ROW_FETCH_SQL`` row. A text or blob payload
    is read through a blob handle: SQLite copies its overflow pages straight into the returned
    bytes, where a selected value is built in SQLite's memory first and then copied again. A text
    reads as its stored bytes, as ``CAST(payload AS BLOB)`` gives it."""
    if not row[5]:
        return row[1], row[2], row[3], row[4]
    with connection.blobopen("trace_events", "payload", row[0], readonly=True) as blob:
        return row[1], row[2], blob.read(), row[4]


def _calling_rows(store: Reader) -> sa.Select[Any]:
    schema = store.schema
    te = schema.tables["trace_events"]
    return sa.select(te.c.session_id, te.c.turn_id, schema.payload_expr(), te.c.id).where(te.c.type == LLM_CALLING)


def iter_llm_calling_rows(store: Reader, session_id: str | None = None, batch: int = 256, *,
                          mapped: bool = False, fast: bool = True) -> Iterator[RequestRow]:
    """Stream ``(session_id, turn_id, raw payload, event id)`` of every ``llm.calling`` row in the
    order Covel's prefix script reads them (:mod:`inspector.store.ordering`), ``batch`` rows per
    fetch. Close the iterator (or exhaust it) to free its connection; closing the store closes
    any still open. ``mapped``: read a SQLite file memory-mapped while the stream lasts.
    ``fast=False`` takes the plain path on SQLite too (for the test that both agree)."""
    store.check_open()
    stmt = _calling_rows(store)
    if session_id is not None:
        stmt = stmt.where(store.schema.tables["trace_events"].c.session_id == session_id)
    stmt = stmt.order_by(*store.schema.order("trace_events", as_script=True))
    if fast and store.schema.dialect_name == "sqlite":
        stream = _stream_by_rowid(store, stmt, max(1, int(batch)), mapped)
    else:
        stream = _stream(store, stmt, max(1, int(batch)))
    return store.track(stream)


def llm_calling_rows_by_id(store: Reader, event_ids: list[str], *, mapped: bool = False,
                           fast: bool = True) -> list[RequestRow]:
    """The :func:`iter_llm_calling_rows` rows of these events, in the order given; an id that
    names no row is left out. For the cache analysis's worker, which is handed the ids of its
    rows (trace rows are written once, so any snapshot reads the same payload)."""
    store.check_open()
    if not event_ids:
        return []
    if fast and store.schema.dialect_name == "sqlite":
        found = _rows_by_id_sqlite(store, event_ids, mapped)
    else:
        te = store.schema.tables["trace_events"]
        stmt = _calling_rows(store).where(te.c.id.in_(event_ids))
        with store.connect() as conn:
            found = {row[3]: (row[0], row[1], row[2], row[3]) for row in conn.execute(stmt)}
    return [found[i] for i in event_ids if i in found]  # type: ignore[misc]


def iter_llm_calling_since(store: Reader, session_id: str, after: int | None,
                           batch: int = 128) -> Iterator[tuple[int, str, bytes | str | None]]:
    """Stream ``(key, event id, raw payload)`` of one session's ``llm.calling`` rows whose write
    order key (:func:`inspector.store.trace_events.write_order_key`) is above ``after`` (all when
    None), read through the ``(session_id, type, created_at)`` index, unordered. Close the
    iterator to free its connection."""
    key_name = write_order_key(store)
    if key_name is None:
        raise StoreError(f"{store.location}: trace rows have no write-order key", location=store.location)
    te = store.schema.tables["trace_events"]
    key = sa.literal_column("rowid") if key_name == "rowid" else te.c.seq
    stmt = sa.select(key, te.c.id, store.schema.payload_expr()).where(te.c.session_id == session_id,
                                                                     te.c.type == LLM_CALLING)
    if after is not None:
        stmt = stmt.where(key > after)
    return store.track(_stream(store, stmt, max(1, int(batch))))


def _bind_args(stmt: sa.Select[Any], dialect: Any) -> tuple[str, tuple[Any, ...]]:
    compiled = stmt.compile(dialect=dialect)
    params = compiled.construct_params()
    return str(compiled), tuple(params[name] for name in (compiled.positiontup or ()))


def _stream_by_rowid(store: Reader, stmt: sa.Select[Any], batch: int, mapped: bool) -> Iterator[tuple[Any, ...]]:
    """The fast path: sort the row ids alone, then fetch the rows by rowid, payloads through
    blob handles.

    Sorting the full rows makes SQLite's sorter carry every payload, and for a store of hundreds
    of megabytes it spills them to temporary files. One read transaction keeps both steps on the
    same snapshot while a writer carries on.
    """
    sql, args = _bind_args(stmt.with_only_columns(sa.literal_column("rowid")), store.schema.dialect)
    fetch_sql = store.schema.sql(_ROW_FETCH_SQL)
    with _sqlite_snapshot(store, mapped) as (raw, cursor):
        rowids = [r[0] for r in cursor.execute(sql, args)]
        for start in range(0, len(rowids), batch):
            chunk = rowids[start : start + batch]
            cursor.execute(fetch_sql + "rowid IN (" + ",".join("?" * len(chunk)) + ")", chunk)
            found = {row[0]: row for row in cursor.fetchall()}
            for rowid in chunk:
                row = found.get(rowid)
                if row is not None:
                    yield _request_row(raw, row)


def _rows_by_id_sqlite(store: Reader, event_ids: list[str], mapped: bool) -> dict[str, tuple[Any, ...]]:
    """The fast path of :func:`llm_calling_rows_by_id`: the payloads read through blob handles,
    in one read transaction with the query that finds the rows."""
    with _sqlite_snapshot(store, mapped) as (raw, cursor):
        cursor.execute(store.schema.sql(_ROW_FETCH_SQL) + "id IN (" + ",".join("?" * len(event_ids)) + ")",
                       event_ids)
        return {row[4]: _request_row(raw, row) for row in cursor.fetchall()}


def _stream(store: Reader, stmt: sa.Select[Any], batch: int) -> Iterator[tuple[Any, ...]]:
    """The plain path: the query's rows, ``batch`` per fetch."""
    with store.connect() as conn:
        if conn.dialect.name == "sqlite":
            # The sqlite3 cursor streams; bypassing SQLAlchemy's Rows keeps the driver's own tuples.
            sql, args = _bind_args(stmt, conn.dialect)
            cursor = (raw := conn.connection.driver_connection).cursor()  # type: ignore[union-attr]
            try:
                with node_text_factory(raw):
                    cursor.execute(sql, args)
                    fetch: Callable[[int], list[tuple[Any, ...]]] = cursor.fetchmany
                    while rows := fetch(batch):
                        yield from rows
            finally:
                cursor.close()
        else:
            result = conn.execution_options(stream_results=True, yield_per=batch).execute(stmt)
            try:
                for partition in result.partitions():
                    for row in partition:
                        yield tuple(row)
            finally:
                result.close()


@contextmanager
def _sqlite_snapshot(store: Reader, mapped: bool = False) -> Iterator[tuple[sqlite3.Connection, sqlite3.Cursor]]:
    """The driver's connection and a cursor in one read transaction: every query and blob read in
    it sees the same snapshot while a writer carries on. With ``mapped``, the database file is
    memory-mapped for the transaction where that is safe (:data:`MAPPED_READ_BYTES`)."""
    with store.connect() as conn:
        raw = conn.connection.driver_connection  # type: ignore[union-attr]
        began = not raw.in_transaction
        mapped = mapped and began and MAPPED_READ_BYTES > 0
        if mapped:
            raw.execute(f"PRAGMA mmap_size={MAPPED_READ_BYTES}")
        try:
            if began:
                raw.execute("BEGIN")
            cursor = raw.cursor()
            try:
                with node_text_factory(raw):  # bad UTF-8 -> U+FFFD, as in Node
                    yield raw, cursor
            finally:
                cursor.close()
                if began and raw.in_transaction:
                    raw.execute("ROLLBACK")
        finally:
            if mapped:
                # Unmapped at once, even when the read failed: a pooled connection does not keep
                # the file's pages counted in the app's resident memory.
                raw.execute("PRAGMA mmap_size=0")
