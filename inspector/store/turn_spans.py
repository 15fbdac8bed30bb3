"""The trace figures of every turn of a SQLite session, read from Covel's indexes instead of its rows.

:func:`inspector.store.turns._aggregates` asks, per turn, for its row count, model calls, first
and last time, start and end. As one GROUP BY along the ``(session_id, turn_id)`` index, SQLite
fetches every row of the session from the table for its type and time, which that index does not
hold: on a session of 924,698 rows (``benchmarks/data/big.db``), as many table look-ups and about
0.45 s. The times are also in the ``(session_id, created_at, seq)`` index, each entry with its
rowid, and rowids grow in write order. So :func:`read` asks for the same figures in three steps:

1. **spans**: the session's turns, stepping through the ``(session_id, turn_id)`` index from one
   id to the next, and per turn its lowest and highest rowid (a look-up each) and the
   ``created_at`` of those two rows;
2. **proof**: when no other turn has rows within a turn's span of rowids (the session's spans,
   sorted, do not overlap), the session's rows within that span are the turn's rows: the
   ``(session_id)`` index counts them (its entries are in rowid order). The created index counts
   those of them whose ``created_at`` lies between the two rows' times; when the two counts
   agree, every row of the turn lies there, so its first and last time are the two rows' (what
   ``min()`` and ``max()`` give: values that compare equal are the same value, see below);
3. **typed figures** (:data:`TYPED_FIGURES`: model calls, start, end): for a proved turn, its
   rows of a type are the ``(session_id, type, created_at)`` index's entries of that type between
   the two times and within the span, counted or their first or last time taken there.

Every step reads index entries only, a table row only for the two times of each turn.
A turn not proved (its span overlaps another's, a time is NULL or not text, its rows are out of
time order) is left to the caller, who reads it with the plain GROUP BY (:attr:`Spans.rest`). The
created ranges counted are kept apart, so the counting reads each index entry at most once.
:meth:`Spans.rows` gives exactly the plain GROUP BY's rows in its order (the turn index's), which
``tests/inspector/store/test_turn_spans.py`` checks on random sessions.

Used only where nothing can differ from the plain query: a SQLite ``trace_events`` with rowids and
every column, the four indexes plain (leading ``session_id``, ascending, BINARY, not partial),
``turn_id`` and ``created_at`` of TEXT affinity and no collation declared on the table (so two
values compare equal only when they are the same), a session id of one stored form. Anywhere
else, or when a query fails (text that is not UTF-8, say), :func:`read` gives None.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..covel.events import LLM_CALLING, TURN_END_TYPES, TURN_STARTED
from .schema import Schema
from .sql import Binds, Connection, SqliteConnection, in_list, quote, text_literal
from .values import stored_forms

__all__ = ["TYPED_FIGURES", "Spans", "raw_in", "read"]

# The figures of a turn taken from its rows of some types: how many there are ("count"), the
# first time ("min") or the last ("max") of one. The plain GROUP BY writes each as a CASE over
# every row (:func:`inspector.store.turns._aggregates`), :func:`read` as a range of the type index.
TYPED_FIGURES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("count", (LLM_CALLING,)),
    ("min", (TURN_STARTED,)),
    ("max", TURN_END_TYPES),
)

# Turns per counting statement (four parameters each, under SQLite's oldest bound of 999).
_CHUNK = 200
# Above this share of turns left to the plain query, the plain query reads the whole session.
_MOST = 0.5
_ROWID_NAMES = {"rowid", "_rowid_", "oid"}
# Turns found one look-up each up to this many; a session with more has its turn index read.
_WALK = 4000


@dataclass
class Spans:
    """What :func:`read` found: the proved turns' rows, and the turns left (raw stored ids)."""

    order: list[Any]  # every turn's stored id, in the plain GROUP BY's order
    proved: dict[Any, tuple[Any, ...]]
    rest: list[Any]

    def rows(self, rest_rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
        """The plain GROUP BY's rows: the proved ones and ``rest_rows`` (the plain query's rows
        of :attr:`rest`), in the plain query's order."""
        plain = {row[0]: row for row in rest_rows}
        return [self.proved[turn] if turn in self.proved else plain[turn] for turn in self.order
                if turn in self.proved or turn in plain]


def raw_in(column: str, values: list[Any], binds: Binds) -> str:
    """``column`` is one of the stored ``values`` (all of one Python type; None is NULL)."""
    if values and values[0] is None:
        return f"{column} IS NULL"
    return in_list(column, values, binds)


def read(schema: Schema, conn: Connection, session_id: Any) -> Spans | None:
    """The figures of a whole session's turns as the module says, or None where it does not
    apply."""
    if not isinstance(conn, SqliteConnection) or schema.dialect_name != "sqlite":
        return None
    if not (isinstance(session_id, str) and len(stored_forms(session_id)) == 1):
        return None
    indexes = _indexes(schema, conn)
    if indexes is None:
        return None
    if not conn.raw.in_transaction:
        conn.raw.execute("BEGIN")  # one snapshot for every step; the pool ends it
    try:
        return _read(conn, session_id, indexes)
    except conn.OperationalError:
        return None


def _read(conn: SqliteConnection, session_id: str, ix: dict[str, str]) -> Spans | None:
    spans = _spans(conn, session_id, ix["turn"])
    order = [row[0] for row in spans]
    candidates = _candidates(spans)
    if len(candidates) < len(spans) * (1 - _MOST):
        return None
    figures = _proved(conn, session_id, ix, candidates)
    if len(figures) < len(spans) * (1 - _MOST):
        return None
    proved: dict[Any, tuple[Any, ...]] = {}
    for turn, _lo, _hi, first, last in spans:
        if turn in figures:
            count, calls, first_start, last_end = figures[turn]
            proved[turn] = (turn, count, calls, first, last, first_start, last_end, first)
    return Spans(order, proved, [turn for turn in order if turn not in proved])


def _spans(conn: SqliteConnection, session_id: str, turn_index: str) -> list[tuple[Any, ...]]:
    """Per turn of the session, in the turn index's order: its stored id, lowest and highest
    rowid, and the ``created_at`` of those two rows. The turns are found by stepping through the
    index from one id to the next (a look-up each) while they are few, else by reading it."""
    by_turn = f"trace_events INDEXED BY {turn_index}"
    walk = (f"WITH RECURSIVE d(turn) AS (SELECT (SELECT min(turn_id) FROM {by_turn} WHERE session_id = :sid) "
            f"UNION ALL SELECT (SELECT min(turn_id) FROM {by_turn} WHERE session_id = :sid AND turn_id > d.turn) "
            f"FROM d WHERE d.turn IS NOT NULL LIMIT :cap), "
            f"k(turn) AS (SELECT turn FROM d WHERE turn IS NOT NULL UNION ALL SELECT NULL "
            f"WHERE EXISTS (SELECT 1 FROM {by_turn} WHERE session_id = :sid AND turn_id IS NULL))")
    listed = f"WITH k(turn) AS (SELECT DISTINCT turn_id FROM {by_turn} WHERE session_id = :sid)"
    for turns in (walk, listed):
        rows = conn.all(
            f"{turns} SELECT g.turn, g.lo, g.hi, l.created_at, h.created_at FROM (SELECT turn, "
            f"(SELECT min(rowid) FROM {by_turn} WHERE session_id = :sid AND turn_id IS k.turn) AS lo, "
            f"(SELECT max(rowid) FROM {by_turn} WHERE session_id = :sid AND turn_id IS k.turn) AS hi "
            f"FROM k) AS g JOIN trace_events AS l ON l.rowid = g.lo JOIN trace_events AS h ON h.rowid = g.hi "
            f"ORDER BY g.turn", {"sid": session_id, "cap": _WALK})
        if sum(row[0] is not None for row in rows) < _WALK:
            return rows
    return rows


def _candidates(spans: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The turns whose rowid span no other turn's overlaps and whose times are text in order,
    their created ranges apart from each other's (so that counting reads each entry once)."""
    by_start = sorted(spans, key=lambda row: row[1])
    chosen: list[tuple[Any, ...]] = []
    reach = None  # the highest rowid of the spans so far
    last_time: str | None = None  # the last time of the turn chosen last
    for i, row in enumerate(by_start):
        _turn, lo, hi, first, last = row
        apart = (reach is None or reach < lo) and (i + 1 == len(by_start) or hi < by_start[i + 1][1])
        reach = hi if reach is None else max(reach, hi)
        if not (apart and type(first) is str and type(last) is str and first <= last):
            continue
        if last_time is not None and not last_time < first:
            continue
        chosen.append(row)
        last_time = last
    return chosen


def _proved(conn: SqliteConnection, session_id: str, ix: dict[str, str],
            candidates: list[tuple[Any, ...]]) -> dict[Any, tuple[Any, ...]]:
    """Per candidate whose every row lies between its first and last time (see the module): its
    row count and :data:`TYPED_FIGURES`. The session's rows in the span (the turn's, the spans
    being apart) are counted against those of them in the created index between the two times;
    once those agree, the turn's rows of a type are the type index's entries of that type between
    the two times and within the span."""
    within = "session_id = :sid AND created_at BETWEEN s.first AND s.last AND rowid BETWEEN s.lo AND s.hi"
    typed = [f"(SELECT {'count(*)' if how == 'count' else f'{how}(created_at)'} FROM trace_events "
             f"INDEXED BY {ix['type']} WHERE type IN ({', '.join(map(text_literal, types))}) AND {within})"
             for how, types in TYPED_FIGURES]
    proved: dict[Any, tuple[Any, ...]] = {}
    for start in range(0, len(candidates), _CHUNK):
        part = candidates[start:start + _CHUNK]
        binds = Binds(sid=session_id)
        values = ", ".join(f"({i}, {binds.add(lo)}, {binds.add(hi)}, {binds.add(first)}, {binds.add(last)})"
                           for i, (_turn, lo, hi, first, last) in enumerate(part))
        sql = (f"WITH s(k, lo, hi, first, last) AS (VALUES {values}) SELECT s.k, "
               f"(SELECT count(*) FROM trace_events INDEXED BY {ix['session']} "
               f"WHERE session_id = :sid AND rowid BETWEEN s.lo AND s.hi), "
               f"(SELECT count(*) FROM trace_events INDEXED BY {ix['created']} WHERE {within}), "
               f"{', '.join(typed)} FROM s")
        for k, rows, placed, *figures in conn.all(sql, binds.values):
            if rows == placed:
                proved[part[k][0]] = (rows, *figures)
    return proved


def _indexes(schema: Schema, conn: SqliteConnection) -> dict[str, str] | None:
    """The names of the session, turn, created and type indexes (quoted), when every condition
    of the module holds; else None."""
    t = schema.tables
    if "trace_events" in t.filled or _ROWID_NAMES & {name.lower() for name in t.columns["trace_events"]}:
        return None
    sql = conn.scalar("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'trace_events'")
    if not isinstance(sql, str) or re.search(r"\bCOLLATE\b|\bWITHOUT\s+ROWID\b", sql, re.IGNORECASE):
        return None
    declared = {row[1]: row[2] for row in conn.all("PRAGMA table_xinfo(trace_events)")}
    if not all(_text_affinity(declared.get(name)) for name in ("turn_id", "created_at")):
        return None
    found: dict[str, str] = {}
    wanted = {"turn_id": "turn", "created_at": "created", "type": "type"}
    for row in conn.all("PRAGMA index_list(trace_events)"):
        name, partial = row[1], row[4] if len(row) > 4 else 0
        if partial or not isinstance(name, str):
            continue
        keys = [r for r in conn.all(f"PRAGMA index_xinfo({quote(name)})") if r[5]]
        if not keys or keys[0][2] != "session_id" or any(r[3] or str(r[4]).upper() != "BINARY" for r in keys[:2]):
            continue
        if len(keys) == 1:  # (session_id): its entries in rowid order within a session
            found.setdefault("session", quote(name))
        elif keys[1][2] == "type" and (len(keys) < 3 or keys[2][2] != "created_at" or keys[2][3]
                                       or str(keys[2][4]).upper() != "BINARY"):
            continue  # its ranges must give the times of each type
        elif keys[1][2] in wanted:
            found.setdefault(wanted[keys[1][2]], quote(name))
    return found if len(found) == len(wanted) + 1 else None


def _text_affinity(declared: Any) -> bool:
    """Whether a column declared so has TEXT affinity (SQLite's rules, in their order)."""
    kind = str(declared or "").upper()
    return "INT" not in kind and any(word in kind for word in ("CHAR", "CLOB", "TEXT"))
