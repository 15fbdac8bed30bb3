"""Incremental cache analysis while a store grows: a session of the demo database is written
again row by row into an empty store; after each step the pairs resumed since the previous step,
merged by event id, and the findings and summaries equal a fresh analysis of the store."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from inspector.cache.analysis import SessionCacheAnalyser, analyse_session
from inspector.cache.results import CachePair
from inspector.demo import generate_demo
from inspector.demo.schema import render_ddl
from inspector.store import open_store


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("incremental") / "demo.db"
    generate_demo(path, turns=5)
    return path


def _rows(conn: sqlite3.Connection, table: str, where: str, args: tuple) -> tuple[list[str], list[tuple]]:
    order = "created_at, seq, id" if table == "trace_events" else "id"
    cur = conn.execute(f"SELECT * FROM {table} WHERE {where} ORDER BY {order}", args)
    return [d[0] for d in cur.description], cur.fetchall()


def _busiest_session(conn: sqlite3.Connection) -> str:
    return conn.execute("SELECT session_id FROM trace_events WHERE type = 'llm.calling' GROUP BY session_id "
                        "ORDER BY COUNT(*) DESC LIMIT 1").fetchone()[0]


def _merge(shown: dict[str, CachePair], pairs: list[CachePair]) -> None:
    for pair in pairs:
        shown[pair.event_id] = pair


def _as_json(pairs: Any) -> dict[str, Any]:
    return {p.event_id: p.to_json() for p in pairs}


def _replay(demo_db: Path, tmp_path: Path, steps: list[int], *, by_turn: bool) -> tuple[int, int]:
    """Write the busiest session's trace rows in ``steps``-sized chunks, resuming after each.
    Returns (steps taken, requests read by resumes)."""
    target = tmp_path / "growing.db"
    with closing(sqlite3.connect(demo_db)) as src, closing(sqlite3.connect(target)) as dst:
        dst.execute("PRAGMA journal_mode=WAL")
        dst.executescript(render_ddl())
        sid = _busiest_session(src)
        cols, sessions = _rows(src, "sessions", "id = ?", (sid,))
        dst.executemany(f"INSERT INTO sessions ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)})", sessions)
        dst.commit()
        cols, events = _rows(src, "trace_events", "session_id = ?", (sid,))
        insert = f"INSERT INTO trace_events ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)})"
        type_at, turn_at = cols.index("type"), cols.index("turn_id")
        store = open_store(target)
        read: list[int] = []
        original = store.iter_llm_calling_since

        def counting(session_id: str, after: int | None, batch: int = 128) -> Any:
            for row in original(session_id, after, batch):
                read.append(row[0])
                yield row

        store.iter_llm_calling_since = counting  # type: ignore[method-assign]
        try:
            analyser = SessionCacheAnalyser(store, sid)
            shown: dict[str, CachePair] = {}
            _merge(shown, list(analyser.pairs()))
            written, taken, i = 0, 0, 0
            while written < len(events):
                size = steps[i % len(steps)]
                i += 1
                chunk = events[written:written + size]
                dst.executemany(insert, chunk)
                dst.commit()
                written += len(chunk)
                taken += 1
                calls = sum(1 for row in chunk if row[type_at] == "llm.calling")
                before = len(read)
                turns = list(dict.fromkeys(row[turn_at] for row in chunk)) if by_turn else None
                _merge(shown, list(analyser.resume(turns)))
                # Only the rows written since the previous step are read.
                assert len(read) - before == calls
                fresh = analyse_session(store, sid)
                assert _as_json(shown.values()) == _as_json(fresh.pairs)
                assert [p.event_id for p in sorted(shown.values(), key=lambda p: p.event_id)] == \
                    sorted(p.event_id for p in fresh.pairs)
                assert [f.to_json() for f in analyser.findings] == [f.to_json() for f in fresh.findings]
                assert [s.to_json() for s in analyser.summaries] == [s.to_json() for s in fresh.summaries]
                assert analyser.warnings == fresh.warnings
            assert len(shown) == sum(1 for row in events if row[type_at] == "llm.calling") > 10
            return taken, len(read)
        finally:
            store.close()


@pytest.mark.parametrize("steps", [[1], [3, 7, 2], [25]])
def test_resumed_pairs_equal_a_full_analysis_after_each_step(demo_db: Path, tmp_path: Path, steps: list[int]) -> None:
    taken, _ = _replay(demo_db, tmp_path, steps, by_turn=False)
    assert taken > 1


def test_side_events_read_per_touched_turn_give_the_same_result(demo_db: Path, tmp_path: Path) -> None:
    _replay(demo_db, tmp_path, [4, 1, 9], by_turn=True)


def test_a_response_to_a_settled_turn_analyses_again(demo_db: Path, tmp_path: Path) -> None:
    """A response written after its turn's pairs were settled (a later turn of the runtime was
    read) cannot be bound incrementally: the whole session is analysed again, still exact."""
    target = tmp_path / "late.db"
    with closing(sqlite3.connect(demo_db)) as src, closing(sqlite3.connect(target)) as dst:
        dst.executescript(render_ddl())
        sid = _busiest_session(src)
        cols, sessions = _rows(src, "sessions", "id = ?", (sid,))
        dst.executemany(f"INSERT INTO sessions ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)})", sessions)
        cols, events = _rows(src, "trace_events", "session_id = ?", (sid,))
        insert = f"INSERT INTO trace_events ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)})"
        type_at = cols.index("type")
        first_response = next(row for row in events if row[type_at] == "llm.responded")
        dst.executemany(insert, [row for row in events if row is not first_response])
        dst.commit()
        with open_store(target) as store:
            analyser = SessionCacheAnalyser(store, sid)
            shown: dict[str, CachePair] = {}
            _merge(shown, list(analyser.pairs()))
            before = _as_json(shown.values())
            dst.execute(insert, first_response)
            dst.commit()
            again = list(analyser.resume())
            _merge(shown, again)
            fresh = analyse_session(store, sid)
            assert len(again) == len(fresh.pairs)
            after = _as_json(shown.values())
            assert after == _as_json(fresh.pairs)
            assert after != before
