"""Turn figures kept between runs (inspector.store.kept_turns): a listing read through them is the
listing read afresh, after rows are appended to old turns, new turns and other sessions; and a
store whose rows were deleted, a file written anew, or a damaged kept file is read afresh."""

from __future__ import annotations

import itertools
import json
import sqlite3
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.store import open_store
from inspector.store.kept_turns import FOLDER


def ts(ms: int) -> str:
    """As the store tests' conftest writes times (JavaScript's toISOString from a fixed origin)."""
    seconds, millis = divmod(ms, 1000)
    minutes, seconds = divmod(seconds, 60)
    return f"2026-10-06T08:{minutes:02d}:{seconds:02d}.{millis:03d}Z"

_EXAMPLES = itertools.count()
_EVENT_TYPES = ("llm.calling", "runtime.started", "turn.started", "turn.completed", "tool.called")


def _append(path: Path, rows: list[tuple[str, str, str, int, str | None]]) -> None:
    """Append trace rows ``(session, turn, type, at, runtime)`` as Covel would, in one commit."""
    con = sqlite3.connect(path)
    with con:
        start = con.execute("SELECT count(*) FROM trace_events").fetchone()[0]
        for n, (sid, turn, etype, at, runtime) in enumerate(rows):
            payload = json.dumps({"runtimeId": runtime} if runtime else {})
            con.execute("INSERT INTO trace_events (id, session_id, type, trace_id, turn_id, payload, created_at, seq) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (f"add-{start + n:05d}", sid, etype, turn, turn, payload, ts(at), n))
    con.close()


def _listings(path: Path) -> tuple[dict, dict]:
    """Every session's turns read through the kept figures, and read afresh."""
    with open_store(path) as store:
        sessions = [s.id for s in store.sessions()]
        kept = {sid: store.turns(sid) for sid in sessions}
    with open_store(path) as store:
        store.keep_turn_figures = False
        fresh = {sid: store.turns(sid) for sid in sessions}
    return kept, fresh


def _kept_files(cache: Path) -> list[Path]:
    return sorted((cache / "prompt-inspector" / FOLDER).rglob("*.json"))


def test_a_second_listing_reads_the_kept_figures_and_agrees(make_db, build_sample, tmp_path: Path,
                                                             monkeypatch) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    db = make_db()
    build_sample(db)
    db.close()
    kept, fresh = _listings(db.path)
    assert kept == fresh and _kept_files(cache)
    # A kept file is read next time: made to lie, it shows (so it really is what was read).
    path = next(p for p in _kept_files(cache) if json.loads(p.read_text())["session"] == "s1")
    doc = json.loads(path.read_text())
    doc["turns"]["t1"]["count"] = 999
    path.write_text(json.dumps(doc))
    with open_store(db.path) as store:
        assert next(t for t in store.turns("s1") if t.turn_id == "t1").event_count == 999


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(batches=st.lists(st.lists(st.tuples(st.sampled_from(["s1", "s2", "s3"]),
                                           st.sampled_from(["t1", "t2", "c1", "t9", "u1"]),
                                           st.sampled_from(_EVENT_TYPES), st.integers(0, 90),
                                           st.sampled_from([None, "narrator/main", "memory/post"])),
                                 min_size=1, max_size=6), min_size=1, max_size=3))
def test_appended_rows_give_the_listing_read_afresh(make_db, build_sample, tmp_path_factory, monkeypatch,
                                                    batches) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
    db = make_db(f"covel-{next(_EXAMPLES)}.db")  # a new file for every example
    build_sample(db)
    db.close()
    kept, fresh = _listings(db.path)
    assert kept == fresh
    for rows in batches:
        _append(db.path, rows)
        kept, fresh = _listings(db.path)
        assert kept == fresh


def test_deleted_rows_or_a_file_written_anew_are_read_afresh(make_db, build_sample, tmp_path: Path,
                                                              monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    db = make_db()
    build_sample(db)
    db.close()
    kept, fresh = _listings(db.path)
    con = sqlite3.connect(db.path)
    with con:  # retention: the oldest turn's rows go, and as many are written to another turn
        gone = con.execute("DELETE FROM trace_events WHERE session_id = 's1' AND turn_id = 't1'").rowcount
    con.close()
    _append(db.path, [("s1", "t2", "tool.called", 60, None)] * gone)
    kept, fresh = _listings(db.path)
    assert kept == fresh
    assert "t1" not in [t.turn_id for t in kept["s1"] if t.event_count]

    con = sqlite3.connect(db.path)
    with con:  # the last row covered replaced by another with the same rowid
        top = con.execute("SELECT max(rowid) FROM trace_events").fetchone()[0]
        con.execute("UPDATE trace_events SET id = 'rewritten', turn_id = 't7' WHERE rowid = ?", (top,))
    con.close()
    kept, fresh = _listings(db.path)
    assert kept == fresh


def test_a_damaged_kept_file_is_read_afresh_and_replaced(make_db, build_sample, tmp_path: Path, monkeypatch) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    db = make_db()
    build_sample(db)
    db.close()
    _listings(db.path)
    for path in _kept_files(cache):
        path.write_text('{"format": 1, "turns": [')
    kept, fresh = _listings(db.path)
    assert kept == fresh
    assert all(json.loads(p.read_text())["turns"] for p in _kept_files(cache))


def test_only_the_turns_with_new_rows_are_read_again(make_db, build_sample, tmp_path: Path, monkeypatch) -> None:
    from inspector.store import turns as turn_listing

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    db = make_db()
    build_sample(db)
    db.close()
    _listings(db.path)
    read: list[object] = []
    real = turn_listing._aggregates

    def recording(schema, conn, session_id, chunks, runtime_expr):
        read.append((session_id, chunks))
        return real(schema, conn, session_id, chunks, runtime_expr)

    monkeypatch.setattr(turn_listing, "_aggregates", recording)
    with open_store(db.path) as store:
        store.turns("s1")
    assert read == []  # nothing new: the kept figures alone
    _append(db.path, [("s1", "t2", "tool.called", 26, None), ("s1", "t5", "turn.started", 70, None)])
    with open_store(db.path) as store:
        store.turns("s1")
    assert read == [("s1", [["t2", "t5"]])]


def test_odd_values_in_the_trace_are_noted_on_every_listing(make_db, build_sample, tmp_path: Path,
                                                            monkeypatch) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    db = make_db()
    build_sample(db)
    db.close()
    con = sqlite3.connect(db.path)
    with con:
        con.execute("UPDATE trace_events SET seq = 'seven' WHERE rowid = (SELECT min(rowid) FROM trace_events)")
    con.close()
    for _ in range(2):
        with open_store(db.path) as store:
            store.turns("s1")
            assert any("trace_events.seq" in note for note in store.schema_notes)
    assert _kept_files(cache) == []


def test_a_session_id_that_is_not_text_is_listed_and_not_kept(make_db, build_sample, tmp_path: Path,
                                                              monkeypatch) -> None:
    cache = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    db = make_db()
    build_sample(db)
    db.close()
    con = sqlite3.connect(db.path)
    with con:
        con.execute("UPDATE trace_events SET session_id = 42 WHERE session_id = 's2'")
    con.close()
    with open_store(db.path) as store:
        first = store.turns(42)
        assert [t.turn_id for t in first] == ["u1"]
        assert store.turns(42) == first
    assert all(json.loads(p.read_text())["session"] != 42 for p in _kept_files(cache))


def test_the_folder_keeps_under_its_limit_least_recently_used_first(make_db, build_sample, tmp_path: Path,
                                                                   monkeypatch) -> None:
    from inspector.store import kept_turns

    cache = tmp_path / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    db = make_db()
    build_sample(db)
    db.close()
    with open_store(db.path) as store:
        store.turns("s2")
    (older,) = _kept_files(cache)
    monkeypatch.setattr(kept_turns, "FOLDER_LIMIT_BYTES", older.stat().st_size + 10)
    with open_store(db.path) as store:
        store.turns("s1")  # a second file: over the limit, the older one goes
    files = _kept_files(cache)
    assert len(files) == 1 and files != [older]
