"""A resume state carried between processes: each session of the demo database is written again
row by row into an empty store; after each step an analyser restored from the previous step's
state (as JSON, the way a kept file holds it) resumes, reading only the rows written since, and
the whole analysis it gives equals a fresh analysis of the store: the same pairs in the same
order, findings, summaries and warnings."""

from __future__ import annotations

import copy
import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.cache.analysis import SessionCacheAnalyser, analyse_session, run_analysis
from inspector.cache.resume import merged_pairs
from inspector.cache.resume_state import StateError
from inspector.cache.results import CacheAnalysis
from inspector.demo import generate_demo
from inspector.demo.schema import render_ddl
from inspector.store import Store, open_store


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("resume-state") / "demo.db"
    generate_demo(path, turns=6)
    return path


def _sessions(conn: sqlite3.Connection) -> list[str]:
    return [row[0] for row in conn.execute(
        "SELECT session_id FROM trace_events WHERE type = 'llm.calling' GROUP BY session_id ORDER BY session_id")]


def _copy_rows(src: sqlite3.Connection, dst: sqlite3.Connection, table: str, where: str, args: tuple) -> tuple:
    order = "created_at, seq, id" if table == "trace_events" else "id"
    cur = src.execute(f"SELECT * FROM {table} WHERE {where} ORDER BY {order}", args)
    cols = [d[0] for d in cur.description]
    insert = f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)})"
    return cols, cur.fetchall(), insert


def _same(got: CacheAnalysis, fresh: CacheAnalysis) -> None:
    assert [p.to_json() for p in got.pairs] == [p.to_json() for p in fresh.pairs]
    assert got.pairs == fresh.pairs
    assert [f.to_json() for f in got.findings] == [f.to_json() for f in fresh.findings]
    assert [s.to_json() for s in got.summaries] == [s.to_json() for s in fresh.summaries]
    assert got.warnings == fresh.warnings


class _Counting:
    """Counts the rows a store hands the analysis: the new ones a resume reads, and every one."""

    def __init__(self, store: Store) -> None:
        self.since = 0
        self.whole = 0
        since, whole = store.iter_llm_calling_since, store.iter_llm_calling_rows

        def counted_since(*args: Any, **kwargs: Any) -> Any:
            for row in since(*args, **kwargs):
                self.since += 1
                yield row

        def counted_whole(*args: Any, **kwargs: Any) -> Any:
            self.whole += 1
            return whole(*args, **kwargs)

        store.iter_llm_calling_since = counted_since  # type: ignore[method-assign]
        store.iter_llm_calling_rows = counted_whole  # type: ignore[method-assign]


def _replay(demo_db: Path, tmp_path: Path, session_id: str, steps: list[int]) -> int:
    """Write one session's trace rows in ``steps``-sized chunks; after each, resume in a new
    analyser from the state the previous step left. Returns the resumes that read only new rows."""
    target = tmp_path / "growing.db"
    with closing(sqlite3.connect(demo_db)) as src, closing(sqlite3.connect(target)) as dst:
        dst.executescript(render_ddl())
        _, sessions, insert = _copy_rows(src, dst, "sessions", "id = ?", (session_id,))
        dst.executemany(insert, sessions)
        cols, events, insert = _copy_rows(src, dst, "trace_events", "session_id = ?", (session_id,))
        type_at = cols.index("type")
        first = next(i for i, row in enumerate(events) if row[type_at] == "llm.calling") + 1
        dst.executemany(insert, events[:first])
        dst.commit()
        with closing(open_store(target)) as store:
            analyser = SessionCacheAnalyser(store, session_id)
            analysis = run_analysis(analyser, analyser.pairs())
            state = json.loads(json.dumps(analyser.resume_state()))
        written, i, incremental = first, 0, 0
        while written < len(events):
            chunk = events[written:written + steps[i % len(steps)]]
            i += 1
            dst.executemany(insert, chunk)
            dst.commit()
            written += len(chunk)
            calls = sum(1 for row in chunk if row[type_at] == "llm.calling")
            with closing(open_store(target)) as store:
                counting = _Counting(store)
                analyser = SessionCacheAnalyser.restored(store, analysis, state)
                resumed = run_analysis(analyser, analyser.resume())
                analysis = CacheAnalysis(session_id, merged_pairs(analysis.pairs, resumed.pairs, analyser.restarted),
                                         resumed.findings, resumed.summaries, resumed.warnings)
                if not analyser.restarted:
                    assert counting.whole == 0 and counting.since == calls
                    incremental += 1
                state = json.loads(json.dumps(analyser.resume_state()))
                _same(analysis, analyse_session(store, session_id))
        return incremental


@pytest.mark.parametrize("steps", [[1], [3, 7, 2], [40]])
def test_a_restored_analysis_resumes_to_what_a_fresh_one_finds(demo_db: Path, tmp_path: Path,
                                                               steps: list[int]) -> None:
    with closing(sqlite3.connect(demo_db)) as conn:
        sessions = _sessions(conn)
    assert len(sessions) >= 3
    incremental = 0
    for n, session_id in enumerate(sessions):
        folder = tmp_path / str(n)
        folder.mkdir()
        incremental += _replay(demo_db, folder, session_id, steps)
    assert incremental > 0


def _grown_pair(demo_db: Path, tmp_path: Path, cut: int) -> tuple[Path, str, CacheAnalysis, dict]:
    """A copy of the demo with the busiest session's last ``cut`` rows removed, analysed (the
    analysis and its state), and the whole demo beside it (the store grown since)."""
    with closing(sqlite3.connect(demo_db)) as conn:
        session_id = conn.execute("SELECT session_id FROM trace_events WHERE type = 'llm.calling' GROUP BY "
                                  "session_id ORDER BY COUNT(*) DESC LIMIT 1").fetchone()[0]
        conn.execute("VACUUM INTO ?", (str(tmp_path / "before.db"),))
    with closing(sqlite3.connect(tmp_path / "before.db")) as conn:
        conn.execute("DELETE FROM trace_events WHERE rowid IN (SELECT rowid FROM trace_events WHERE session_id = ? "
                     "ORDER BY rowid DESC LIMIT ?)", (session_id, cut))
        conn.commit()
    with closing(open_store(tmp_path / "before.db")) as store:
        analyser = SessionCacheAnalyser(store, session_id)
        analysis = run_analysis(analyser, analyser.pairs())
        state = json.loads(json.dumps(analyser.resume_state()))
    return demo_db, session_id, analysis, state


def test_a_state_naming_a_request_the_store_no_longer_holds_is_refused(demo_db: Path, tmp_path: Path) -> None:
    _, session_id, analysis, state = _grown_pair(demo_db, tmp_path, 12)
    gone = state["runtimes"][0]["calls"][0]["event"]
    with closing(sqlite3.connect(tmp_path / "before.db")) as conn:
        conn.execute("DELETE FROM trace_events WHERE id = ?", (gone,))
        conn.commit()
    with closing(open_store(tmp_path / "before.db")) as store, pytest.raises(StateError, match="no longer"):
        SessionCacheAnalyser.restored(store, analysis, state)


def test_analyses_that_cannot_resume_in_another_process_give_no_state(demo_db: Path) -> None:
    with closing(open_store(demo_db)) as store:
        session_id = store.sessions()[0].id
        analyser = SessionCacheAnalyser(store, session_id)
        assert analyser.resume_state() is None  # not run yet
        gen = analyser.pairs()
        next(gen)
        assert analyser.resume_state() is None  # not run to its end
        gen.close()
        one = SessionCacheAnalyser(store, session_id, runtime_id="narrator/main")
        list(one.pairs())
        assert one.resume_state() is None
        full = SessionCacheAnalyser(store, session_id, naming_mode="full")
        list(full.pairs())
        assert full.resume_state() is None


def _leaves(doc: Any, path: tuple = ()) -> list[tuple]:
    if isinstance(doc, dict):
        return [leaf for key, value in doc.items() for leaf in _leaves(value, (*path, key))] + [path]
    if isinstance(doc, list):
        return [leaf for i, value in enumerate(doc) for leaf in _leaves(value, (*path, i))] + [path]
    return [path]


def _replace(doc: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    doc = copy.copy(doc)
    doc[path[0]] = _replace(doc[path[0]], path[1:], value)
    return doc


_ODD_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 10**12), st.floats(allow_nan=False),
                        st.text(max_size=5), st.lists(st.integers(), max_size=3), st.just({}), st.just([[]]))


def test_a_damaged_state_is_refused_or_resumes_without_a_traceback(demo_db: Path, tmp_path: Path) -> None:
    """A kept file is read from a folder anyone could write: whatever one value of its state is
    changed to, restoring either refuses it (StateError) or gives an analyser whose resume runs."""
    grown, session_id, analysis, state = _grown_pair(demo_db, tmp_path, 9)
    leaves = _leaves(state)
    store = open_store(grown)

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(at=st.integers(0, len(leaves) - 1), value=_ODD_VALUES)
    def check(at: int, value: Any) -> None:
        damaged = _replace(state, leaves[at], value)
        try:
            analyser = SessionCacheAnalyser.restored(store, analysis, damaged)
        except StateError:
            return
        run_analysis(analyser, analyser.resume())

    try:
        check()
    finally:
        store.close()


def test_a_kept_analysis_resumes_on_postgresql_too(pg_schema: Any, tmp_path: Path) -> None:
    """PostgreSQL numbers trace rows by ``seq``: a grown session resumes there as on SQLite."""
    import psycopg
    from psycopg.types.json import Jsonb

    from inspector.cache.kept import KeptAnalyses, analyses_of
    from inspector.cache.rules import default_rules
    from inspector.demo.pg import generate_demo_pg, libpq_conninfo

    url = pg_schema()
    generate_demo_pg(url, turns=5)
    rules = default_rules()
    with closing(open_store(url)) as store:
        session_id = max(store.sessions(), key=lambda s: s.llm_call_count or 0).id
    libpq = libpq_conninfo(url)
    with closing(psycopg.connect(libpq)) as conn:
        last = conn.execute("SELECT turn_id FROM trace_events WHERE session_id = %s ORDER BY seq DESC LIMIT 1",
                            (session_id,)).fetchone()[0]
        cur = conn.execute("SELECT * FROM trace_events WHERE turn_id = %s ORDER BY seq", (last,))
        cols, rows = [d.name for d in cur.description], cur.fetchall()
        conn.execute("DELETE FROM trace_events WHERE turn_id = %s", (last,))
        conn.commit()
    cache = tmp_path / "cache"
    with closing(open_store(url)) as store:
        before = analyses_of(store, [session_id], rules, KeptAnalyses(store, cache))[0]
    with closing(psycopg.connect(libpq)) as conn:
        conn.cursor().executemany(f"INSERT INTO trace_events ({', '.join(cols)}) VALUES "
                                  f"({', '.join('%s' for _ in cols)})",
                                  [[Jsonb(v) if isinstance(v, (dict, list)) else v for v in row] for row in rows])
        conn.commit()
    with closing(open_store(url)) as store:
        keep = KeptAnalyses(store, cache)
        found = keep.load(session_id, rules, grown=True)
        assert found is not None and not found.current and found.resume is not None
        resumed = keep.resumed(found, rules)
        assert resumed is not None and not resumed.analyser.restarted
        assert 0 < len(resumed.changed) < len(resumed.analysis.pairs)
        _same(resumed.analysis, analyse_session(store, session_id))
    assert len(resumed.analysis.pairs) > len(before.pairs)


def test_a_store_of_odd_shape_keeps_no_state_and_no_traceback(demo_db: Path, tmp_path: Path) -> None:
    """Ids that are not text (a BLOB id) cannot be named in a state: there is none, and the
    analysis is kept without one."""
    from inspector.cache.kept import KeptAnalyses, analyses_of
    from inspector.cache.rules import default_rules

    odd = tmp_path / "odd.db"
    with closing(sqlite3.connect(demo_db)) as conn:
        conn.execute("VACUUM INTO ?", (str(odd),))
    with closing(sqlite3.connect(odd)) as conn:
        session_id = _sessions(conn)[0]
        conn.execute("UPDATE trace_events SET id = CAST(id AS BLOB) WHERE rowid = (SELECT MIN(rowid) FROM "
                     "trace_events WHERE session_id = ? AND type = 'llm.calling')", (session_id,))
        conn.commit()
    with closing(open_store(odd)) as store:
        analyser = SessionCacheAnalyser(store, session_id)
        analysis = run_analysis(analyser, analyser.pairs())
        assert analysis.pairs and analyser.resume_state() is None
        keep = KeptAnalyses(store, tmp_path / "cache")
        analyses_of(store, [session_id], default_rules(), keep)
        found = keep.load(session_id, default_rules())
        assert found is None or found.resume is None
