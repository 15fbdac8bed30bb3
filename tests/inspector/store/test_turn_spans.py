"""A session's turn figures read from the indexes (inspector.store.turn_spans) are the plain
GROUP BY's: on random sessions (turns written in order or interleaved, late rows, equal times,
NULL and BLOB times and turn ids, another session's rows between), and where the fast path is
not taken (odd schemas, PostgreSQL)."""

from __future__ import annotations

import itertools
import sqlite3
from contextlib import contextmanager
from pathlib import Path
from unittest.mock import patch

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.store import open_store, turn_spans
from inspector.store import turns as turn_listing

_TRACE = """
CREATE TABLE trace_events (
  id TEXT PRIMARY KEY NOT NULL,
  session_id TEXT NOT NULL,
  type TEXT NOT NULL,
  trace_id TEXT NOT NULL,
  turn_id TEXT{turn_null},
  payload TEXT,
  created_at {created_type}{created_null},
  seq INTEGER NOT NULL
);
CREATE INDEX trace_events_session_id_idx ON trace_events (session_id);
CREATE INDEX trace_events_type_idx ON trace_events (session_id, type, created_at);
CREATE INDEX trace_events_trace_id_idx ON trace_events (session_id, trace_id);
CREATE INDEX trace_events_turn_id_idx ON trace_events (session_id, turn_id);
CREATE INDEX trace_events_created_idx ON trace_events (session_id, created_at, seq);
"""
_TYPES = ("llm.calling", "runtime.started", "turn.started", "turn.completed", "turn.failed", "hook.fired")
_EXAMPLES = itertools.count()


def ts(ms: int) -> str:
    seconds, millis = divmod(ms, 1000)
    return f"2026-10-06T08:00:{seconds:02d}.{millis:03d}Z"


def _build(path: Path, rows: list[tuple[object, object, str, object]], *, strict: bool = False,
           created_type: str = "TEXT", extra_sql: str = "") -> None:
    """A store of ``rows`` ``(session, turn, type, created_at)``, written in that order."""
    con = sqlite3.connect(path)
    con.executescript(_TRACE.format(turn_null=" NOT NULL" if strict else "", created_type=created_type,
                                    created_null=" NOT NULL" if strict else "") + extra_sql)
    with con:
        for n, (sid, turn, etype, created) in enumerate(rows):
            payload = f'{{"runtimeId": "rt/{n % 3}"}}' if etype == "runtime.started" else "{}"
            con.execute("INSERT INTO trace_events VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (f"ev-{n:05d}", sid, etype, "tr", turn, payload, created, n % 2))
    con.close()


@contextmanager
def _plain():
    """The plain GROUP BY only."""
    with patch.object(turn_spans, "read", lambda *args, **kwargs: None):
        yield


def _figures(path: Path, session_id: object) -> dict:
    """``_aggregates`` of the whole session, as turn_infos asks for it."""
    with open_store(path) as store:
        store.keep_turn_figures = False
        with store.connect() as conn:
            return turn_listing._aggregates(store.schema, conn, session_id, [None], store.schema.runtime_id_expr())


def _listing(path: Path, session_id: object) -> tuple[list, list[str]]:
    with open_store(path) as store:
        store.keep_turn_figures = False
        turns = store.turns(session_id)
        return turns, list(store.schema_notes)


def _spans(path: Path, session_id: object) -> turn_spans.Spans | None:
    seen: list[turn_spans.Spans | None] = []
    real = turn_spans.read

    def recording(*args, **kwargs):
        seen.append(real(*args, **kwargs))
        return seen[-1]

    with patch.object(turn_spans, "read", recording):
        _figures(path, session_id)
    assert len(seen) == 1
    return seen[0]


def _assert_agrees(path: Path, session_id: object = "s") -> None:
    fast, fast_listing = _figures(path, session_id), _listing(path, session_id)
    with _plain():
        assert _figures(path, session_id) == fast
        assert _listing(path, session_id) == fast_listing


_turn = st.sampled_from(["t1", "t2", "t3", "t4", None, b"t5", "t\u00e9"])
_time = st.one_of(st.integers(0, 30).map(ts), st.none(), st.just(b"\x00blob"), st.just("not a time"))


@st.composite
def _sessions(draw) -> list[tuple[object, object, str, object]]:
    """Turns mostly written one after another, some rows written late, out of time order, with
    odd ids and times, another session's rows between."""
    rows: list[tuple[object, object, str, object]] = []
    clock = 0
    for turn in draw(st.lists(_turn, min_size=1, max_size=6)):
        for etype in draw(st.lists(st.sampled_from(_TYPES), min_size=1, max_size=6)):
            clock += draw(st.integers(0, 2))
            rows.append(("s", turn, etype, ts(clock)))
    for _ in range(draw(st.integers(0, 3))):  # a row moved, retimed or given another turn
        i = draw(st.integers(0, len(rows) - 1))
        sid, turn, etype, created = rows.pop(i)
        change = draw(st.sampled_from(["late", "time", "turn"]))
        if change == "time":
            created = draw(_time)
        elif change == "turn":
            turn = draw(_turn)
        rows.insert(len(rows) if change == "late" else i, (sid, turn, etype, created))
    for _ in range(draw(st.integers(0, 4))):
        rows.insert(draw(st.integers(0, len(rows))), ("other", draw(_turn), "hook.fired", draw(_time)))
    return rows


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=_sessions(), walk=st.sampled_from([2, turn_spans._WALK]))
def test_figures_read_from_the_indexes_are_the_plain_group_by(tmp_path: Path, rows, walk: int) -> None:
    path = tmp_path / f"spans-{next(_EXAMPLES)}.db"
    _build(path, rows)
    with patch.object(turn_spans, "_WALK", walk):  # turns found by stepping, or by reading the index
        _assert_agrees(path)
        _assert_agrees(path, "other")


def _covel_like(turns: int = 6, rows_per_turn: int = 5) -> list[tuple[object, object, str, object]]:
    rows: list[tuple[object, object, str, object]] = []
    clock = 0
    for t in range(turns):
        for r in range(rows_per_turn):
            clock += r % 2  # two rows in each millisecond
            rows.append(("s", f"turn-{t}", _TYPES[(t + r) % len(_TYPES)], ts(clock)))
        rows.append(("other", "o", "hook.fired", ts(clock)))
        clock += 5
    return rows


def test_turns_written_one_after_another_are_all_read_from_the_indexes(tmp_path: Path) -> None:
    path = tmp_path / "covel.db"
    _build(path, _covel_like(), strict=True)
    spans = _spans(path, "s")
    assert spans is not None and len(spans.proved) == 6 and spans.rest == []
    _assert_agrees(path)


def test_a_turn_with_a_late_row_or_an_earlier_time_is_left_to_the_plain_query(tmp_path: Path) -> None:
    rows = _covel_like(turns=8)
    rows.append(("s", "turn-1", "hook.fired", ts(9000)))  # written during turn 7: turns 1..7 overlap it
    rows[2] = ("s", "turn-0", "hook.fired", ts(0).replace("08:", "07:"))  # earlier than its first row
    path = tmp_path / "covel.db"
    _build(path, rows)
    spans = _spans(path, "s")
    assert spans is None  # most turns overlap turn 1: the plain query reads them all
    _assert_agrees(path)

    rows = _covel_like(turns=8)
    rows.insert(24, ("s", "turn-3", "hook.fired", ts(29)))  # late: after turn 4's first row (28 ms)
    rows[2] = ("s", "turn-1", "hook.fired", ts(2))  # a row of turn 1 among turn 0's
    path = tmp_path / "covel2.db"
    _build(path, rows)
    spans = _spans(path, "s")
    assert spans is not None
    # Turns 0 and 1 overlap in rowids; turn 4 begins before turn 3's last time.
    assert sorted(spans.rest) == ["turn-0", "turn-1", "turn-4"]
    _assert_agrees(path)


def test_many_turns_are_found_by_reading_the_turn_index(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(turn_spans, "_WALK", 3)
    path = tmp_path / "covel.db"
    _build(path, _covel_like(turns=7), strict=True)
    spans = _spans(path, "s")
    assert spans is not None and len(spans.proved) == 7
    _assert_agrees(path)


def test_where_values_could_compare_equal_and_differ_the_plain_query_reads(tmp_path: Path) -> None:
    for name, kwargs in {
        "collated": {"extra_sql": "DROP INDEX trace_events_turn_id_idx; "
                                  "CREATE INDEX trace_events_turn_id_idx ON trace_events (session_id, turn_id COLLATE NOCASE);"},
        "numeric": {"created_type": "NUMERIC"},
        "partial": {"extra_sql": "DROP INDEX trace_events_created_idx; CREATE INDEX trace_events_created_idx "
                                 "ON trace_events (session_id, created_at, seq) WHERE seq > 0;"},
        "descending": {"extra_sql": "DROP INDEX trace_events_created_idx; CREATE INDEX trace_events_created_idx "
                                    "ON trace_events (session_id, created_at DESC, seq);"},
        "no session index": {"extra_sql": "DROP INDEX trace_events_session_id_idx;"},
        "type index without times": {"extra_sql": "DROP INDEX trace_events_type_idx; "
                                                  "CREATE INDEX trace_events_type_idx ON trace_events (session_id, type);"},
    }.items():
        path = tmp_path / f"{name}.db"
        _build(path, _covel_like(), **kwargs)
        assert _spans(path, "s") is None, name
        _assert_agrees(path)
    path = tmp_path / "covel.db"
    _build(path, [(b"s", *row[1:]) for row in _covel_like()])
    assert _spans(path, "x'73'") is None  # a session id that stands for a BLOB
    _assert_agrees(path, "x'73'")


def test_the_figures_are_the_same_on_both_backends(make_db, build_sample, backend: str) -> None:
    db = make_db()
    build_sample(db)
    with db.open() as store:
        listed = store.turns("s1")
        with _plain():
            assert store.turns("s1") == listed
