"""ChangeWatcher on both backends: a writer appends rows the way Covel does while a read-only
store follows; the watcher reports exactly what was written, in canonical order."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from inspector.demo.schema import columns_of, render_ddl
from inspector.follow import ChangeWatcher, read_updates, turn_rows_by_id
from inspector.store import open_store
from inspector import views


def ts(ms: int) -> str:
    seconds, millis = divmod(ms, 1000)
    minutes, seconds = divmod(seconds, 60)
    return f"2026-10-06T08:{minutes:02d}:{seconds:02d}.{millis:03d}Z"


class Writer:
    """Covel's writes (WAL on SQLite; autocommit statements), through sqlite3 or psycopg."""

    def __init__(self, backend: str, path: Path, url: str | None) -> None:
        self.backend = backend
        self.ids = 0
        if backend == "sqlite":
            self.conn: Any = sqlite3.connect(path)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.executescript(render_ddl())
            self.mark = "?"
        else:
            import psycopg

            from inspector.demo.pg import libpq_conninfo

            self.conn = psycopg.connect(libpq_conninfo(url), autocommit=False)
            for statement in render_ddl().split(";"):
                if statement.strip():
                    self.conn.execute(statement)
            self.conn.commit()
            self.mark = "%s"

    def insert(self, table: str, values: dict[str, Any]) -> None:
        cols = [c for c in values if c in columns_of(table)]
        names = ", ".join(f'"{c}"' for c in cols)
        marks = ", ".join(self.mark for _ in cols)
        self.conn.execute(f"INSERT INTO {table} ({names}) VALUES ({marks})", [values[c] for c in cols])

    def seq(self, table: str, sid: str, created: str) -> int:
        row = self.conn.execute(f"SELECT COALESCE(MAX(seq) + 1, 0) FROM {table} WHERE session_id = {self.mark} "
                                f"AND created_at = {self.mark}", (sid, created)).fetchone()
        return int(row[0])

    def session(self, sid: str, at: int, turns: int = 0) -> None:
        self.insert("sessions", {"id": sid, "status": "active", "locale": "en", "active_plugins": "[]",
                                 "created_at": ts(at), "updated_at": ts(at), "phase": "playing",
                                 "completed_player_turns": turns, "setup_runtimes": "{}"})

    def touch_session(self, sid: str, at: int, turns: int) -> None:
        self.conn.execute(f"UPDATE sessions SET completed_player_turns = {self.mark}, updated_at = {self.mark} "
                          f"WHERE id = {self.mark}", (turns, ts(at), sid))

    def event(self, sid: str, turn: str, etype: str, payload: dict[str, Any], at: int) -> str:
        self.ids += 1
        eid = f"ev-{self.ids:04d}"
        created = ts(at)
        self.insert("trace_events", {"id": eid, "session_id": sid, "type": etype, "trace_id": turn,
                                     "turn_id": turn, "payload": json.dumps(payload), "created_at": created,
                                     "seq": self.seq("trace_events", sid, created)})
        return eid

    def result(self, sid: str, turn: str, at: int, status: str) -> str:
        self.ids += 1
        rid = f"tr-{self.ids:04d}"
        created = ts(at)
        self.insert("turn_results", {"id": rid, "session_id": sid, "turn_id": turn, "runtime_results": "[]",
                                     "origin": "player", "commit_status": status, "duration_ms": 40,
                                     "created_at": created, "seq": self.seq("turn_results", sid, created)})
        return rid

    def turn(self, sid: str, turn: str, at: int, runtime: str = "narrator/main") -> str:
        """A complete execution: started, runtime, one call answered, result, completed."""
        self.event(sid, turn, "turn.started", {"runtimeCount": 1}, at)
        self.event(sid, turn, "runtime.started", {"runtimeId": runtime, "pluginId": "narrator",
                                                  "stage": "narrative"}, at)
        call = self.event(sid, turn, "llm.calling", {"runtimeId": runtime, "pluginId": "narrator",
                                                     "model": "deepseek-flash", "attempt": 0,
                                                     "messages": [{"role": "user", "content": "hi"}]}, at + 1)
        self.event(sid, turn, "llm.responded", {"runtimeId": runtime, "attempt": 0, "text": "ok",
                                                "usage": {"inputTokens": 10, "outputTokens": 2}}, at + 2)
        self.event(sid, turn, "runtime.completed", {"runtimeId": runtime, "pluginId": "narrator",
                                                    "status": "success", "durationMs": 3}, at + 3)
        self.result(sid, turn, at + 4, "committed")
        self.event(sid, turn, "turn.completed", {"durationMs": 5}, at + 4)
        return call

    def commit(self) -> None:
        self.conn.commit()

    def close(self) -> None:
        self.conn.close()


@pytest.fixture
def live(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[Writer, Callable[[], Any]]]:
    """A writer with one session and one turn, and a function opening the store read-only."""
    url = request.getfixturevalue("pg_schema")() if backend == "postgresql" else None
    writer = Writer(backend, tmp_path / "covel.db", url)
    writer.session("s1", 0, turns=1)
    writer.turn("s1", "t1", 10)
    writer.commit()
    opened: list[Any] = []

    def open_() -> Any:
        store = open_store(url if url is not None else tmp_path / "covel.db")
        opened.append(store)
        return store

    yield writer, open_
    for store in opened:
        store.close()
    writer.close()


def test_nothing_written_nothing_reported(live: tuple[Writer, Callable[[], Any]]) -> None:
    _writer, open_ = live
    store = open_()
    watcher = ChangeWatcher(store)
    watcher.start()
    assert watcher.poll().empty
    assert watcher.poll().empty


def test_change_token_moves_on_commit_only(live: tuple[Writer, Callable[[], Any]]) -> None:
    writer, open_ = live
    store = open_()
    first = store.change_token()
    assert store.change_token() == first
    writer.event("s1", "t1", "hook.fired", {"hook": "x"}, 30)
    assert store.change_token() == first  # not committed yet
    writer.commit()
    assert store.change_token() != first


def test_new_turn_reported_with_its_runtime_and_request(live: tuple[Writer, Callable[[], Any]]) -> None:
    writer, open_ = live
    store = open_()
    watcher = ChangeWatcher(store)
    watcher.start()
    call = writer.turn("s1", "t2", 100, runtime="guide/main")
    writer.commit()
    changes = watcher.poll()
    assert list(changes.sessions) == ["s1"]
    delta = changes.sessions["s1"]
    assert not delta.is_new
    assert delta.new_turns == ["t2"]
    assert delta.turns == ["t2"]
    assert delta.runtimes == {"t2": ["guide/main"]}
    assert delta.request_ids == [call]
    assert (delta.events, delta.requests) == (6, 1)
    assert changes.events == 6
    # Read once: the next poll is empty.
    assert watcher.poll().empty


def test_rows_of_an_existing_turn_are_a_change_not_a_new_turn(live: tuple[Writer, Callable[[], Any]]) -> None:
    writer, open_ = live
    store = open_()
    watcher = ChangeWatcher(store)
    watcher.start()
    writer.event("s1", "t1", "runtime.started", {"runtimeId": "affinity/main", "stage": "post-turn"}, 50)
    writer.commit()
    delta = watcher.poll().sessions["s1"]
    assert delta.new_turns == []
    assert delta.turns == ["t1"]
    assert delta.runtimes == {"t1": ["affinity/main"]}
    assert delta.requests == 0


def test_events_arrive_in_canonical_order_across_commits(live: tuple[Writer, Callable[[], Any]]) -> None:
    writer, open_ = live
    store = open_()
    watcher = ChangeWatcher(store)
    watcher.start()
    # Two turns interleaved in one millisecond: seq decides, as in the log.
    writer.event("s1", "t3", "turn.started", {}, 200)
    writer.event("s1", "t4", "turn.started", {}, 200)
    writer.event("s1", "t3", "runtime.started", {"runtimeId": "a/x"}, 200)
    writer.commit()
    assert watcher.poll().sessions["s1"].turns == ["t3", "t4"]
    writer.event("s1", "t4", "runtime.started", {"runtimeId": "b/y"}, 201)
    writer.commit()
    delta = watcher.poll().sessions["s1"]
    assert delta.turns == ["t4"] and delta.new_turns == []


def test_new_session_and_changed_session_record(live: tuple[Writer, Callable[[], Any]]) -> None:
    writer, open_ = live
    store = open_()
    watcher = ChangeWatcher(store)
    watcher.start()
    writer.touch_session("s1", 300, turns=2)
    writer.session("s2", 301)
    writer.turn("s2", "u1", 302)
    writer.commit()
    changes = watcher.poll()
    assert changes.new_sessions == ["s2"]
    assert changes.sessions["s1"].record["completed_player_turns"] == 2
    assert changes.sessions["s1"].turns == []
    assert changes.sessions["s2"].new_turns == ["u1"]


def test_result_rewritten_in_place_is_noticed(live: tuple[Writer, Callable[[], Any]]) -> None:
    writer, open_ = live
    store = open_()
    watcher = ChangeWatcher(store)
    watcher.start()
    writer.event("s1", "t5", "turn.started", {}, 400)
    rid = writer.result("s1", "t5", 401, "pending")
    writer.commit()
    assert watcher.poll().sessions["s1"].new_turns == ["t5"]
    writer.conn.execute(f"UPDATE turn_results SET commit_status = 'committed' WHERE id = {writer.mark}", (rid,))
    writer.commit()
    assert watcher.poll().sessions["s1"].turns == ["t5"]
    writer.event("s1", "t1", "hook.fired", {}, 402)
    writer.commit()
    # Settled: not re-read (only t1, which has a new row).
    assert watcher.poll().sessions["s1"].turns == ["t1"]


def test_read_updates_gives_rows_shaped_like_the_views(live: tuple[Writer, Callable[[], Any]]) -> None:
    writer, open_ = live
    store = open_()
    watcher = ChangeWatcher(store)
    watcher.start()
    writer.turn("s1", "t2", 100)
    writer.session("s3", 150)
    writer.turn("s3", "v1", 160)
    writer.commit()
    changes = watcher.poll()
    update = read_updates(store, changes, listed_sessions={"s1"}, open_turns={("s1", "t2")})
    full = {row["turnId"]: row for row in views.turn_rows(store, "s1")}
    got = update.turn_rows["s1"]["t2"]
    assert {k: v for k, v in got.items() if k != "number"} == {k: v for k, v in full["t2"].items() if k != "number"}
    assert update.runtime_groups[("s1", "t2")] == views.turn_runtimes(store, "s1", "t2")
    assert set(update.session_rows) == {"s3"}
    assert update.session_rows["s3"]["executions"] == 1
    # A new session's turns are read even though it is not listed yet.
    assert set(update.turn_rows["s3"]) == {"v1"}


def test_turns_by_id_matches_turns(live: tuple[Writer, Callable[[], Any]]) -> None:
    writer, open_ = live
    for i in range(2, 6):
        writer.turn("s1", f"t{i}", i * 100)
    writer.commit()
    store = open_()
    every = {t.turn_id: t for t in store.turns("s1")}
    some = store.turns_by_id("s1", ["t4", "t2", "t4"])
    assert [t.turn_id for t in some] == ["t2", "t4"]
    for t in some:
        assert t.runtime_ids == every[t.turn_id].runtime_ids
        assert (t.started_at, t.ended_at, t.duration_ms, t.event_count, t.llm_call_count, t.commit_status) == (
            every[t.turn_id].started_at, every[t.turn_id].ended_at, every[t.turn_id].duration_ms,
            every[t.turn_id].event_count, every[t.turn_id].llm_call_count, every[t.turn_id].commit_status)
    assert store.turns_by_id("s1", []) == []
    assert turn_rows_by_id(store, "s1", []) == {}


def test_closing_the_store_releases_the_watch_connection(live: tuple[Writer, Callable[[], Any]]) -> None:
    _writer, open_ = live
    store = open_()
    store.change_token()
    store.close()
    with pytest.raises(Exception, match="closed"):
        store.change_token()


def test_sqlite_follow_sees_rows_still_in_the_wal(tmp_path: Path) -> None:
    """The reader follows a WAL file whose new pages have not been checkpointed."""
    writer = Writer("sqlite", tmp_path / "covel.db", None)
    writer.session("s1", 0)
    writer.commit()
    writer.conn.execute("PRAGMA wal_autocheckpoint=0")
    with closing(open_store(tmp_path / "covel.db")) as store:
        watcher = ChangeWatcher(store)
        watcher.start()
        writer.turn("s1", "t1", 10)
        writer.commit()
        assert (tmp_path / "covel.db-wal").stat().st_size > 0
        assert watcher.poll().sessions["s1"].new_turns == ["t1"]
    writer.close()
