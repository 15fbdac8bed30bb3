"""The runtime rows of sessions made in a child process (inspector.rows_process): the same rows as
this process makes, on good and odd stores and on both backends, sent a part at a time; a child
that fails falls back to this process, one that ended is replaced, and the child leaves after a big
session so that its memory goes with it."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from inspector import child_process, rows_process, views
from inspector.store import StoreError, open_store

from test_bad_stores import _build, store_shapes


@pytest.fixture
def child() -> Iterator[None]:
    yield
    rows_process.CHILD.stop()


def _sessions(store: Any) -> list[str]:
    return [row["sessionId"] for row in views.session_rows(store)]


def _here_forbidden(monkeypatch: pytest.MonkeyPatch) -> None:
    """Making the rows in this process fails the test (the child has its own ``views``)."""
    def refuse(*_args: object) -> None:
        raise AssertionError("the rows were made in this process")

    monkeypatch.setattr(views, "session_runtimes", refuse)


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_the_child_makes_the_rows_this_process_makes(child: None, backend: str, request: pytest.FixtureRequest,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    source = request.getfixturevalue("demo_sqlite" if backend == "sqlite" else "demo_postgres")
    with open_store(source) as store:
        expected = {sid: views.session_runtimes(store, sid) for sid in _sessions(store)}
        _here_forbidden(monkeypatch)
        for sid, rows in expected.items():
            made = rows_process.session_runtimes(store, sid, True)
            assert made == rows
            assert list(made) == list(rows)  # the turns in the same order
            assert all(isinstance(row, type(rows[tid][0])) for tid in made for row in made[tid])
        assert rows_process.CHILD.running()


def test_a_small_load_is_read_here_and_a_big_one_apart(demo_sqlite: Path) -> None:
    with open_store(demo_sqlite) as store:
        assert not rows_process.apart(store, [10, None, 20])
        assert rows_process.apart(store, [rows_process.APART_MIN_REQUESTS - 1, 1])
        assert not rows_process.apart(store, [None])


def _read_through_a_copy(demo: Path, tmp_path: Path) -> Path:
    """The demo with a -wal holding changes and no -shm (Covel stopped without closing): opened
    through a private copy."""
    live = tmp_path / "live"
    live.mkdir()
    shutil.copyfile(demo, live / "covel.db")
    (live / "covel.db").chmod(0o600)
    writer = sqlite3.connect(live / "covel.db")
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("CREATE TABLE scratch (x)")  # a change the -wal holds
    writer.commit()
    stopped = tmp_path / "stopped"
    stopped.mkdir()
    for name in ("covel.db", "covel.db-wal"):
        shutil.copyfile(live / name, stopped / name)
    writer.close()
    return stopped / "covel.db"


def test_a_store_read_through_a_copy_is_read_here(child: None, demo_sqlite: Path, tmp_path: Path) -> None:
    with open_store(_read_through_a_copy(demo_sqlite, tmp_path)) as store:
        assert store.read_only_mode == "copy"
        sid = _sessions(store)[0]
        expected = views.session_runtimes(store, sid)
        assert rows_process.reopen_spec(store) is None
        assert not rows_process.apart(store, [10 ** 6])
        assert rows_process.session_runtimes(store, sid, True) == expected
        assert not rows_process.CHILD.running()


def test_a_child_that_cannot_open_the_store_falls_back_here(child: None, demo_sqlite: Path, tmp_path: Path) -> None:
    copy = tmp_path / "gone.db"
    shutil.copyfile(demo_sqlite, copy)
    with open_store(copy) as store:
        sid = _sessions(store)[0]
        expected = views.session_runtimes(store, sid)
        copy.unlink()  # this process still reads its open file; the child cannot open it again
        assert rows_process.session_runtimes(store, sid, True) == expected


def test_a_file_written_anew_under_the_same_name_is_read_as_it_is_now(child: None, demo_sqlite: Path,
                                                                      tmp_path: Path) -> None:
    path = tmp_path / "covel.db"
    shutil.copyfile(demo_sqlite, path)
    with open_store(path) as store:
        sid = _sessions(store)[0]
        before = rows_process.session_runtimes(store, sid, True)
    shorter = tmp_path / "shorter.db"
    shutil.copyfile(demo_sqlite, shorter)
    conn = sqlite3.connect(shorter)
    conn.execute("DELETE FROM trace_events WHERE turn_id = (SELECT turn_id FROM trace_events WHERE session_id = ? "
                 "ORDER BY rowid DESC LIMIT 1)", (sid,))
    conn.commit()
    conn.close()
    shorter.replace(path)
    with open_store(path) as store:
        now = views.session_runtimes(store, sid)
        assert len(now) == len(before) - 1
        assert rows_process.session_runtimes(store, sid, True) == now


def test_a_child_that_ended_is_replaced(child: None, demo_sqlite: Path) -> None:
    with open_store(demo_sqlite) as store:
        sid = _sessions(store)[0]
        expected = views.session_runtimes(store, sid)
        assert rows_process.session_runtimes(store, sid, True) == expected
        process = rows_process.CHILD.process
        assert process is not None
        process.kill()
        process.wait()
        assert rows_process.session_runtimes(store, sid, True) == expected
        assert rows_process.CHILD.process is not None and rows_process.CHILD.process is not process


def test_the_rows_come_a_part_at_a_time_and_the_child_leaves_after_a_big_session(tmp_path: Path) -> None:
    from inspector.demo import generate_demo

    path = tmp_path / "big.db"
    generate_demo(path, turns=180)
    with open_store(path) as store:
        sessions = views.session_rows(store)
        big = max(sessions, key=lambda row: row["llmCalls"])
        small = min(sessions, key=lambda row: row["llmCalls"])
        assert big["llmCalls"] >= rows_process.LEAVE_AFTER_REQUESTS > small["llmCalls"]
        expected = views.session_runtimes(store, big["sessionId"])
        assert len(expected) > rows_process.PART_TURNS
        process = child_process.start_child("inspector.rows_process")
        try:
            assert process.stdin is not None and process.stdout is not None
            child_process.write_frame(process.stdin, (store.open_spec, small["sessionId"]))
            messages = _answer(process)
            assert messages[-1] == ("end", len(views.session_runtimes(store, small["sessionId"])), False)
            child_process.write_frame(process.stdin, (store.open_spec, big["sessionId"]))
            messages = _answer(process)
            parts = [m[1] for m in messages[:-1]]
            assert all(m[0] == "part" for m in messages[:-1])
            assert [len(p) for p in parts[:-1]] == [rows_process.PART_TURNS] * (len(parts) - 1)
            assert dict(t for p in parts for t in p) == expected
            assert messages[-1] == ("end", len(expected), True)
            assert process.wait(timeout=10) == 0  # it left after the big session
        finally:
            if process.poll() is None:
                process.kill()
            process.wait()
            process.stdin.close()  # type: ignore[union-attr]
            process.stdout.close()  # type: ignore[union-attr]


def _answer(process: Any) -> list[tuple]:
    messages = []
    while True:
        messages.append(child_process.read_frame(process.stdout))
        if messages[-1][0] != "part":
            return messages


def test_a_store_error_in_the_child_is_the_same_error_here(child: None, tmp_path: Path) -> None:
    path = tmp_path / "no-session.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE trace_events (id TEXT, session_id TEXT, type TEXT, turn_id TEXT, payload TEXT)")
    conn.execute("INSERT INTO trace_events VALUES ('e1', 's1', 'llm.calling', 't1', '{}')")
    conn.commit()
    conn.close()
    with open_store(path) as store:
        assert rows_process.session_runtimes(store, "s1", True) == views.session_runtimes(store, "s1")


# Each example asks the (running) child once per session; no shrinking, as in test_bad_stores.
@settings(max_examples=30, deadline=None, database=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(shape=store_shapes())
def test_odd_stores_give_the_same_rows_apart(tmp_path: Path, child: None, shape: dict[str, Any]) -> None:
    path = tmp_path / "shape.db"
    _build(path, shape)
    try:
        store = open_store(path)
    except StoreError:
        return
    with store:
        try:
            sessions = _sessions(store)
        except StoreError:
            return
        for sid in sessions:
            try:
                expected: Any = views.session_runtimes(store, sid)
            except StoreError as exc:
                expected = type(exc)
            try:
                made: Any = rows_process.session_runtimes(store, sid, True)
            except StoreError as exc:
                made = type(exc)
            assert made == expected
