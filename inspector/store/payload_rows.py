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
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..covel.events import LLM_CALLING
from .columns import node_text_factory
from .errors import StoreError
from .schema import Reader
from .sql import Binds, SqliteConnection, in_list, select
from .trace_events import write_order_key

__all__ = ["MAPPED_READ_BYTES", "iter_llm_calling_rows", "iter_llm_calling_since", "llm_calling_rows_by_id"]

RequestRow = tuple[str, str, bytes | str | None, str]

# Event ids per IN list when rows are fetched by id through the plain path.
_ID_CHUNK = 500

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


def _calling_rows(store: Reader, binds: Binds, session_id: str | None = None) -> tuple[list[str], list[str]]:
    """The select list and the conditions of the ``llm.calling`` rows (of one session)."""
    schema = store.schema
    where = [f"{schema.trace('type')} = {binds.add(LLM_CALLING)}"]
    if session_id is not None:
        where.append(f"{schema.trace('session_id')} = {binds.add(session_id)}")
    return [schema.trace("session_id"), schema.trace("turn_id"), schema.payload_expr(), schema.trace("id")], where


def iter_llm_calling_rows(store: Reader, session_id: str | None = None, batch: int = 256, *,
                          mapped: bool = False, fast: bool = True) -> Iterator[RequestRow]:
    """Stream ``(session_id, turn_id, raw payload, event id)`` of every ``llm.calling`` row in the
    order Covel's prefix script reads them (:mod:`inspector.store.ordering`), ``batch`` rows per
    fetch. Close the iterator (or exhaust it) to free its connection; closing the store closes
    any still open. ``mapped``: read a SQLite file memory-mapped while the stream lasts.
    ``fast=False`` takes the plain path on SQLite too (for the test that both agree)."""
    store.check_open()
    binds = Binds()
    columns, where = _calling_rows(store, binds, session_id)
    order = store.schema.order("trace_events", as_script=True)
    source = store.schema.tables.source("trace_events")
    if fast and store.schema.dialect_name == "sqlite":
        ids = select(["rowid"], source, where=where, order_by=order)
        stream = _stream_by_rowid(store, ids, binds.values, max(1, int(batch)), mapped)
    else:
        sql = select(columns, source, where=where, order_by=order)
        stream = _stream(store, sql, binds.values, max(1, int(batch)))
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
        found = {}
        with store.connect() as conn:
            for start in range(0, len(event_ids), _ID_CHUNK):
                binds = Binds()
                columns, where = _calling_rows(store, binds)
                where.append(in_list(store.schema.trace("id"), event_ids[start:start + _ID_CHUNK], binds))
                sql = select(columns, store.schema.tables.source("trace_events"), where=where)
                found.update((row[3], (row[0], row[1], row[2], row[3])) for row in conn.all(sql, binds.values))
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
    schema = store.schema
    key = "rowid" if key_name == "rowid" else schema.trace("seq")
    binds = Binds()
    where = [f"{schema.trace('session_id')} = {binds.add(session_id)}",
             f"{schema.trace('type')} = {binds.add(LLM_CALLING)}"]
    if after is not None:
        where.append(f"{key} > {binds.add(after)}")
    sql = select([key, schema.trace("id"), schema.payload_expr()], schema.tables.source("trace_events"), where=where)
    return store.track(_stream(store, sql, binds.values, max(1, int(batch))))


def _stream_by_rowid(store: Reader, ids_sql: str, params: dict[str, Any], batch: int,
                     mapped: bool) -> Iterator[tuple[Any, ...]]:
    """The fast path: sort the row ids alone, then fetch the rows by rowid, payloads through
    blob handles.

    Sorting the full rows makes SQLite's sorter carry every payload, and for a store of hundreds
    of megabytes it spills them to temporary files. One read transaction keeps both steps on the
    same snapshot while a writer carries on.
    """
    fetch_sql = store.schema.sql(_ROW_FETCH_SQL)
    with _sqlite_snapshot(store, mapped) as (raw, cursor):
        rowids = [r[0] for r in cursor.execute(ids_sql, params)]
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


def _stream(store: Reader, sql: str, params: dict[str, Any], batch: int) -> Iterator[tuple[Any, ...]]:
    """The plain path: the query's rows, ``batch`` per fetch."""
    with store.connect() as conn:
        if isinstance(conn, SqliteConnection):
            with node_text_factory(conn.raw):  # bad UTF-8 -> U+FFFD, as in Node
                yield from conn.stream(sql, params, batch)
        else:
            yield from conn.stream(sql, params, batch)


@contextmanager
def _sqlite_snapshot(store: Reader, mapped: bool = False) -> Iterator[tuple[sqlite3.Connection, sqlite3.Cursor]]:
    """The driver's connection and a cursor in one read transaction: every query and blob read in
    it sees the same snapshot while a writer carries on. With ``mapped``, the database file is
    memory-mapped for the transaction where that is safe (:data:`MAPPED_READ_BYTES`)."""
    with store.connect() as conn:
        assert isinstance(conn, SqliteConnection)
        raw = conn.raw
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
