"""The executions of a session (``TurnInfo``): what their result rows and trace rows say.

An execution is known from its ``turn_results`` rows (the last one is its current state) and
from its trace rows (counts, first and last times, the runtimes it ran); it is listed in order
of first appearance in either.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ..covel.events import (
    LLM_CALLING,
    RUNTIME_LIFECYCLE_TYPES,
    TURN_END_TYPES,
    TURN_STARTED,
)
from ..json_guards import nonempty_str_or_none
from . import postgres as pg
from . import turn_spans
from .columns import UNKNOWN_TURN, fetch_all, matches, matches_any, typed_chunks
from .conversion import turn_info
from .ordering import canonical_key
from .records import TurnInfo, parse_json_object
from .schema import Reader, Schema

if TYPE_CHECKING:
    from .kept_turns import KeptTurnFigures
from .sql import Binds, Connection, in_list, select, text_literal

__all__ = ["turn_infos"]

# Turn ids per IN list: well under every backend's bound on parameters.
_CHUNK = 500


def turn_infos(store: Reader, session_id: str, only: list[str] | None,
               kept: KeptTurnFigures | None = None) -> list[TurnInfo]:
    """The executions of a session in order of first appearance (result row or first trace row);
    with ``only``, those executions alone, read through the ``turn_id`` indexes (``number``
    then counts within them). ``kept``: the trace figures of a whole session are read through it
    (:mod:`inspector.store.kept_turns`), so a session listed before reads only its new rows."""
    schema = store.schema
    t, values = schema.tables, schema.values
    results: dict[str, dict[str, Any]] = {}
    first_key: dict[str, tuple[str, int]] = {}
    chunks = [None] if only is None else _chunked(only)

    with store.connect() as conn:
        if t.has("turn_results"):
            wanted = ["turn_id", "created_at", "seq", "origin", "commit_status", "duration_ms",
                      "retry_scope", "parent_turn_id"]
            cols = [t.read("turn_results", name) for name in wanted if t.has("turn_results", name)]
            for chunk in chunks:
                binds = Binds()
                where = [matches(t.col("turn_results", "session_id"), session_id, binds)]
                if chunk is not None:
                    where.append(matches_any(t.col("turn_results", "turn_id"), chunk, binds))
                sql = select(cols, t.source("turn_results"), where=where, order_by=schema.order("turn_results"))
                for row in fetch_all(conn, sql, values, "turn_results", binds.values, as_dicts=True):
                    data = values.row("turn_results", row)
                    tid = data["turn_id"] = data["turn_id"] or UNKNOWN_TURN
                    key = (data.get("created_at") or "", data.get("seq") or 0)
                    if tid not in first_key or key < first_key[tid]:
                        first_key[tid] = key
                    # A turn can have several rows (re-written on commit); the last one is current.
                    results[tid] = data

        runtime_expr = schema.runtime_id_expr()
        if runtime_expr is None:
            agg = _aggregates_by_scan(schema, conn, session_id, only, chunks)
        elif kept is not None and only is None:
            # Only the turns that gained rows since the figures were kept are read again.
            agg = kept.figures(conn, session_id, lambda turns: _aggregates(
                schema, conn, session_id, _chunked(turns), runtime_expr))
        else:
            agg = _aggregates(schema, conn, session_id, chunks, runtime_expr)
        for tid, info in agg.items():
            key = tuple(info["order_key"])
            if tid not in first_key or key < first_key[tid]:
                first_key[tid] = key

        unnamed = [tid for tid, info in agg.items() if info["llm"] and not info["runtimes"]]
        if unnamed and runtime_expr is not None:
            # Older or pruned logs may lack lifecycle rows: name runtimes from their calls.
            for start in range(0, len(unnamed), _CHUNK):
                chunk = unnamed[start : start + _CHUNK]
                binds = Binds()
                sql = select([schema.trace("turn_id"), runtime_expr], t.source("trace_events"),
                             where=[matches(schema.trace("session_id"), session_id, binds),
                                    f"{schema.trace('type')} = {binds.add(LLM_CALLING)}",
                                    matches_any(schema.trace("turn_id"), chunk, binds)],
                             order_by=schema.order("trace_events"))
                for turn_id, rid in fetch_all(conn, sql, values, "trace_events", binds.values):
                    info = agg.get(values.text("trace_events", "turn_id", turn_id) or UNKNOWN_TURN)
                    if info is not None and nonempty_str_or_none(rid) is not None:
                        info["runtimes"].setdefault(rid, None)

    order = sorted(first_key, key=lambda tid: (first_key[tid], tid or ""))
    return [turn_info(tid, number, results.get(tid), agg.get(tid)) for number, tid in enumerate(order, start=1)]


def _chunked(turn_ids: list[str] | None) -> list[list[str] | None]:
    """Turn ids in IN lists of :data:`_CHUNK`; None (every turn) as one "chunk"."""
    if turn_ids is None:
        return [None]
    return [turn_ids[i:i + _CHUNK] for i in range(0, len(turn_ids), _CHUNK)]


def _aggregates(schema: Schema, conn: Connection, session_id: str, chunks: list[list[str] | None],
                runtime_expr: str) -> dict[str, dict[str, Any]]:
    """Per-execution figures of :func:`turn_infos`, aggregated by the database.

    Equal to walking the session's rows in canonical order (:func:`_aggregates_by_scan`), but only
    three narrow reads: a GROUP BY along the ``(session_id, turn_id)`` index (counts, first and
    last times), the rows at each turn's first timestamp through the ``(session_id, created_at,
    seq)`` index (its trace id and first ``seq``), and the small lifecycle rows (runtime ids in
    order). Each turn's ``order_key`` is where it first appears in the trace. A whole SQLite
    session's counts and times come from the indexes alone where that gives the GROUP BY's rows
    (:mod:`inspector.store.turn_spans`), without fetching its rows from the table.
    """
    t = schema.tables
    source = t.source("trace_events")
    created = t.value("trace_events", "created_at")
    sql_type = t.type_of("trace_events", "created_at")
    if sql_type is not None and pg.is_text_type(sql_type):
        # min()/max() must compare as the canonical order does: byte-wise.
        created = t.sort_key("trace_events", "created_at")
    etype = schema.trace("type")
    # The event types are this module's constants, written into the text as literals.
    # Model calls, first start, last end (turn_spans.TYPED_FIGURES), each over every row.
    figures = [f"sum(CASE WHEN {etype} IN ({', '.join(map(text_literal, types))}) THEN 1 ELSE 0 END)"
               if how == "count" else
               f"{how}(CASE WHEN {etype} IN ({', '.join(map(text_literal, types))}) THEN {created} ELSE NULL END)"
               for how, types in turn_spans.TYPED_FIGURES]
    # Keyed by the stored turn id while the database is asked about it, by its text after.
    agg: dict[Any, dict[str, Any]] = {}
    raw_first: dict[Any, Any] = {}
    v = schema.values

    def text(name: str, value: Any) -> str | None:
        return v.text("trace_events", name, value)

    turn = schema.trace("turn_id")

    def grouped(condition: Callable[[Binds], str] | None) -> list[tuple[Any, ...]]:
        """The plain GROUP BY: per turn (of those ``condition`` picks), its count and figures."""
        binds = Binds()
        where = [matches(schema.trace("session_id"), session_id, binds)]
        if condition is not None:
            where.append(condition(binds))
        sql = select([turn, "count(*)", figures[0], f"min({created})", f"max({created})", *figures[1:],
                      f"min({schema.trace('created_at')})"], source, where=where, group_by=[turn])
        return fetch_all(conn, sql, v, "trace_events", binds.values)

    rows: list[tuple[Any, ...]] = []
    for chunk in chunks:
        # A whole SQLite session: from the indexes where that gives the same rows (.turn_spans).
        spans = turn_spans.read(schema, conn, session_id) if chunk is None else None
        if spans is not None:
            rest = [row for part in typed_chunks(spans.rest, _CHUNK)
                    for row in grouped(lambda binds, part=part: turn_spans.raw_in(turn, part, binds))]
            rows.extend(spans.rows(rest))
        else:
            rows.extend(grouped(None if chunk is None else lambda binds, chunk=chunk: matches_any(turn, chunk, binds)))
    for turn_id, count, llm, first, last, turn_started, turn_ended, raw in rows:
        agg[turn_id] = {"trace_id": None, "first": text("created_at", first), "count": int(count),
                        "last": text("created_at", last), "llm": int(llm or 0),
                        "started": text("created_at", turn_started), "ended": text("created_at", turn_ended),
                        "runtimes": {}}
        raw_first[turn_id] = raw
    # The first row of each turn: among the rows at its first timestamp, lowest (seq, id).
    seq = schema.seq()
    by_time: dict[Any, list[str]] = {}
    for turn_id, raw in raw_first.items():
        by_time.setdefault(raw, []).append(turn_id)
    best: dict[str, tuple[int, str, str]] = {}
    for part in typed_chunks(list(by_time), _CHUNK):
        binds = Binds()
        sql = select([turn, schema.trace("created_at"), seq, schema.trace("id"), schema.trace("trace_id")], source,
                     where=[matches(schema.trace("session_id"), session_id, binds),
                            in_list(schema.trace("created_at"), part, binds)])
        for turn_id, raw, seqv, event_id, trace_id in fetch_all(conn, sql, v, "trace_events", binds.values):
            if turn_id not in agg or raw_first[turn_id] != raw:
                continue
            seqv = v.order("trace_events", "seq", seqv)
            key = (-1 if seqv is None else seqv, text("id", event_id) or "", text("trace_id", trace_id))
            if turn_id not in best or key[:2] < best[turn_id][:2]:
                best[turn_id] = key
    by_text: dict[str, dict[str, Any]] = {}
    for turn_id, info in agg.items():
        seqv, _event_id, trace_id = best.get(turn_id, (-1, "", None))
        info["trace_id"] = trace_id
        key = (info["first"] or "", max(seqv, 0))
        turn_id = text("turn_id", turn_id) or UNKNOWN_TURN
        shown = by_text.setdefault(turn_id, info)
        if "order_key" not in shown or key < shown["order_key"]:
            shown["order_key"] = key
    # Runtime ids in order of first appearance among the lifecycle rows.
    lifecycle: list[tuple[Any, ...]] = []
    for chunk in chunks:
        binds = Binds()
        where = [matches(schema.trace("session_id"), session_id, binds),
                 in_list(etype, RUNTIME_LIFECYCLE_TYPES, binds)]
        if chunk is not None:
            where.append(matches_any(turn, chunk, binds))
        sql = select([created, seq, schema.trace("id"), turn, runtime_expr], source, where=where)
        lifecycle.extend((text("created_at", r[0]) or "", v.order("trace_events", "seq", r[1]),
                          text("id", r[2]) or "", text("turn_id", r[3]) or UNKNOWN_TURN, r[4])
                         for r in fetch_all(conn, sql, v, "trace_events", binds.values))
    lifecycle.sort(key=lambda r: canonical_key(r[0], r[1], r[2]))
    for _created, _seq, _event_id, turn_id, rid in lifecycle:
        info = by_text.get(turn_id)
        if info is not None and nonempty_str_or_none(rid) is not None:
            info["runtimes"].setdefault(rid, None)
    return by_text


def _aggregates_by_scan(schema: Schema, conn: Connection, session_id: str, only: list[str] | None,
                        chunks: list[list[str] | None]) -> dict[str, dict[str, Any]]:
    """:func:`_aggregates` for a store whose payloads the database cannot read as JSON (SQLite
    without JSON functions, a PostgreSQL text column): every row's payload is parsed here for its
    runtime id, so the rows are walked in canonical order."""
    t = schema.tables
    columns = [schema.trace("turn_id"), schema.trace("type"), schema.trace("trace_id"),
               t.value("trace_events", "created_at"), schema.seq(), schema.payload_expr()]
    v, name = schema.values, "trace_events"

    def rows(sql: str, binds: Binds) -> list[tuple[Any, ...]]:  # the values converted (see .values)
        return [(v.text(name, "turn_id", r[0]) or UNKNOWN_TURN, r[1], v.text(name, "trace_id", r[2]),
                 v.text(name, "created_at", r[3]), v.order(name, "seq", r[4]), r[5],
                 *(v.text(name, "id", x) or "" for x in r[6:])) for r in fetch_all(conn, sql, v, name, binds.values)]
    if only is None:
        binds = Binds()
        sql = select(columns, t.source(name), where=[matches(schema.trace("session_id"), session_id, binds)],
                     order_by=schema.order("trace_events"))
        ordered: Iterable[Any] = rows(sql, binds)
    else:
        # Unordered, SQLite takes the (session_id, turn_id) index (see trace_events.events); the
        # rows are put in canonical order here.
        picked = []
        for chunk in chunks:
            binds = Binds()
            sql = select([*columns, schema.trace("id")], t.source(name),
                         where=[matches(schema.trace("session_id"), session_id, binds),
                                matches_any(schema.trace("turn_id"), chunk, binds)])
            picked.extend(rows(sql, binds))
        picked.sort(key=lambda r: canonical_key(r[3], r[4], r[6]))
        ordered = [r[:6] for r in picked]
    agg: dict[str, dict[str, Any]] = {}
    for turn_id, etype, trace_id, created_at, seqv, extra_value in ordered:
        info = agg.get(turn_id)
        if info is None:
            info = agg[turn_id] = {
                "trace_id": trace_id, "first": created_at, "last": created_at, "count": 0,
                "llm": 0, "started": None, "ended": None, "runtimes": {},
                "order_key": (created_at or "", seqv or 0),
            }
        info["count"] += 1
        info["last"] = created_at
        if etype == LLM_CALLING:
            info["llm"] += 1
        elif etype == TURN_STARTED and info["started"] is None:
            info["started"] = created_at
        elif etype in TURN_END_TYPES:
            info["ended"] = created_at
        rid = parse_json_object(extra_value, merge_data=True)[0].get("runtimeId")
        if nonempty_str_or_none(rid) is not None:
            info["runtimes"].setdefault(rid, None)
    return agg
