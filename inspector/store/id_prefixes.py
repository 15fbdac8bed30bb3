"""Ids that start with a prefix, read through the id indexes: a range on the key, never a scan.

A person types the first characters of an id the command line printed (``29877d78``); the ids
that start with them are the ids in ``[prefix, next(prefix))``, where ``next`` raises the last
character by one. SQLite compares text by its UTF-8 bytes and PostgreSQL does under ``COLLATE
"C"``, and UTF-8 byte order is code point order, so that range is exactly the ids with the prefix
and each backend reads it as a range of the index on the column.
"""

from __future__ import annotations

from ..covel.events import LLM_CALLING
from .schema import Reader, Tables
from .sessions import DISTINCT_SESSIONS_SQL
from .sql import Binds, Connection, select

__all__ = ["ID_KINDS", "ids_with_prefix"]

# What a prefix can name: a session, an execution (turn), a model request, any trace row.
ID_KINDS = ("session", "turn", "request", "event")


def ids_with_prefix(store: Reader, kind: str, prefix: str, limit: int = 10) -> list[str]:
    """Distinct ids of ``kind`` (:data:`ID_KINDS`) that start with ``prefix``, sorted, at most
    ``limit``: ``session`` (``sessions.id`` and the sessions of trace rows), ``turn``
    (``turn_results.turn_id`` and the trace rows' turn ids, one range per session on the
    ``(session_id, turn_id)`` index), ``request`` (``llm.calling`` rows), ``event`` (any trace row).
    An empty prefix names nothing."""
    if kind not in ID_KINDS:
        raise ValueError(f"unknown kind of id {kind!r}; one of {', '.join(ID_KINDS)}")
    if not prefix or limit <= 0 or any(0xD800 <= ord(c) < 0xE000 for c in prefix):
        return []  # nothing, or text no stored id holds (a lone surrogate is not UTF-8)
    t = store.schema.tables
    found: set[str] = set()
    with store.connect() as conn:
        if kind == "session":
            if t.has("sessions"):
                found.update(_range(conn, t, "sessions", "id", prefix, limit))
            found.update(_range(conn, t, "trace_events", "session_id", prefix, limit))
        elif kind in ("request", "event"):
            only = {"type": LLM_CALLING} if kind == "request" else {}
            found.update(_range(conn, t, "trace_events", "id", prefix, limit, only))
        else:
            if t.has("turn_results"):
                found.update(_range(conn, t, "turn_results", "turn_id", prefix, limit))
            sessions = [sid for (sid,) in conn.all(store.schema.sql(DISTINCT_SESSIONS_SQL)) if sid is not None]
            for session_id in sessions:
                found.update(_range(conn, t, "trace_events", "turn_id", prefix, limit, {"session_id": session_id}))
    return sorted(found)[:limit]


def _after(prefix: str) -> str | None:
    """The least text above every text that starts with ``prefix`` (its last character raised by
    one, skipping the surrogates), or None when there is none (it ends in U+10FFFF)."""
    last = ord(prefix[-1]) + 1
    if last == 0xD800:
        last = 0xE000
    return prefix[:-1] + chr(last) if last <= 0x10FFFF else None


def _range(conn: Connection, t: Tables, table: str, column: str, prefix: str, limit: int,
           equal: dict[str, str] | None = None) -> list[str]:
    """Distinct values of ``table.column`` starting with ``prefix`` (and equal to ``equal``'s
    values in those columns), the first ``limit`` in order."""
    if not t.has(table, column):
        return []
    key = t.sort_key(table, column)
    binds = Binds()
    where = [f"{t.col(table, name)} = {binds.add(value)}" for name, value in (equal or {}).items()]
    where.append(f"{key} >= {binds.add(prefix)}")
    after = _after(prefix)
    if after is not None:
        where.append(f"{key} < {binds.add(after)}")
    sql = select([key], t.source(table), where=where, order_by=[key], limit=limit, distinct=True)
    # A damaged store may hold other types in the column; only text ids are ids a person typed.
    return [value for (value,) in conn.all(sql, binds.values) if isinstance(value, str) and value.startswith(prefix)]
