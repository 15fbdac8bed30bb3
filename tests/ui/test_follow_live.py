"""Following a running engine: a second process appends a turn to the WAL file the way Covel
writes it while the window follows; the turn, its runtime and its request appear within a
second of each commit, and the user's selection and scroll position stay."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings

from inspector import views
from inspector.cache.analysis import analyse_session
from inspector.store import open_store
from ui.models import navigator_nodes as nav
from ui.windows.main_window import MainWindow

# The writer: stdlib sqlite3 in WAL mode, rows shaped as Covel writes them (covel-db.md §1.3-1.4:
# seq = 1 + max for the same session and millisecond, ISO timestamps, JSON payload text). It
# reads one command per line from stdin and prints the wall-clock time of each commit.
WRITER = textwrap.dedent('''
    import json, sqlite3, sys, time
    from datetime import datetime, timezone

    path, sid = sys.argv[1], sys.argv[2]
    conn = sqlite3.connect(path, timeout=5)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA busy_timeout=5000")

    def now():
        return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"

    def seq(table, created):
        return conn.execute(f"SELECT COALESCE(MAX(seq) + 1, 0) FROM {table} WHERE session_id = ? AND created_at = ?",
                            (sid, created)).fetchone()[0]

    def event(eid, turn, etype, payload):
        created = now()
        conn.execute("INSERT INTO trace_events (id, session_id, type, trace_id, turn_id, payload, created_at, seq) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                     (eid, sid, etype, turn, turn, json.dumps(payload), created, seq("trace_events", created)))

    def commit():
        conn.commit()
        print(time.time(), flush=True)

    for line in sys.stdin:
        command, turn = line.split()
        if command == "start":
            event(turn + "-e1", turn, "turn.started", {"runtimeCount": 1})
            event(turn + "-e2", turn, "runtime.started", {"runtimeId": "narrator/main", "pluginId": "narrator",
                                                          "stage": "narrative"})
            commit()
        elif command == "call":
            event(turn + "-call", turn, "llm.calling", {
                "runtimeId": "narrator/main", "pluginId": "narrator", "slot": "story", "model": "deepseek-flash",
                "provider": "deepseek", "messages": [{"role": "user", "content": "I raise the lantern."}],
                "tools": [], "attempt": 0, "startedAt": now()})
            commit()
        elif command == "finish":
            event(turn + "-resp", turn, "llm.responded", {
                "runtimeId": "narrator/main", "pluginId": "narrator", "text": "ok", "attempt": 0,
                "durationMs": 321, "finishReason": "stop",
                "usage": {"inputTokens": 1200, "outputTokens": 40, "cachedInputTokens": 1024}})
            event(turn + "-e3", turn, "runtime.completed", {"runtimeId": "narrator/main", "pluginId": "narrator",
                                                            "status": "success", "durationMs": 400})
            created = now()
            conn.execute("INSERT INTO turn_results (id, session_id, turn_id, runtime_results, origin, "
                         "commit_status, duration_ms, created_at, seq) VALUES (?, ?, ?, '[]', 'player', "
                         "'committed', 450, ?, ?)", (turn + "-result", sid, turn, created, seq("turn_results", created)))
            event(turn + "-e4", turn, "turn.completed", {"durationMs": 450, "resultCount": 1})
            commit()
''')

LATENCY = 1.0


class Writer:
    def __init__(self, path: Path, session_id: str) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path), session_id], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)

    def send(self, command: str, turn: str) -> float:
        """Run a command in the writer; returns the time of its commit."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{command} {turn}\n")
        self.proc.stdin.flush()
        return float(self.proc.stdout.readline())

    def close(self) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=10)
        self.proc.stdout.close()


@pytest.fixture
def wal_db(covel_db: Path) -> Path:
    with sqlite3.connect(covel_db) as conn:
        assert conn.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal"
    return covel_db


@pytest.fixture
def window(qtbot: Any, isolated_settings: Path) -> Iterator[MainWindow]:
    win = MainWindow(remember_layout=False)
    win.report_error = lambda title, text: pytest.fail(f"{title}: {text}")
    qtbot.addWidget(win)
    win.resize(1100, 700)
    win.show()
    yield win
    win.shutdown()


def open_and_wait(qtbot: Any, win: MainWindow, path: Path) -> None:
    with qtbot.waitSignal(win.openFinished, timeout=10000) as blocker:
        win.open_database(path)
    assert blocker.args == [True]
    # The watcher's baseline is taken in the background right after opening.
    qtbot.waitUntil(lambda: win.follow._ready, timeout=5000)


def turn_node(win: MainWindow, sid: str, tid: str) -> nav.Node | None:
    session = win.navigator.model.root.child(nav.SESSION, sid)
    return session.child(nav.TURN, tid) if session is not None else None


def wait_for(qtbot: Any, condition: Any, timeout: float = 5.0) -> float:
    """Process events until ``condition()`` holds; returns the wall-clock time it first did."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        qtbot.wait(5)
    return time.time()


def expand_session(qtbot: Any, win: MainWindow, sid: str) -> nav.Node:
    session = win.navigator.model.root.child(nav.SESSION, sid)
    win.navigator.tree.expand(win.navigator.model.index_of(session))
    qtbot.waitUntil(lambda: session.state == nav.LOADED, timeout=5000)
    return session


def test_new_turn_runtime_and_request_appear_within_a_second(qtbot: Any, window: MainWindow, wal_db: Path) -> None:
    open_and_wait(qtbot, window, wal_db)
    with open_store(wal_db) as store:
        sid = max(views.session_rows(store), key=lambda r: r["executions"])["sessionId"]
    session = expand_session(qtbot, window, sid)
    before = len(session.children)
    events_before = session.data["events"]
    calls_before, executions_before = session.data["llmCalls"], session.data["executions"]
    # The user has selected a turn and scrolled: both must stay.
    selected = session.children[0]
    window.navigator.tree.setCurrentIndex(window.navigator.model.index_of(selected))
    scroll = window.navigator.tree.verticalScrollBar().value()
    inserted: list[Any] = []
    window.navigator.model.rowsInserted.connect(lambda *args: inserted.append(args))
    resets: list[int] = []
    window.navigator.model.modelReset.connect(lambda: resets.append(1))

    window.follow_live_action.setChecked(True)
    assert window.following_label.isVisible()
    writer = Writer(wal_db, sid)
    try:
        committed = writer.send("start", "live-turn")
        seen = wait_for(qtbot, lambda: turn_node(window, sid, "live-turn") is not None)
        assert seen - committed < LATENCY
        turn = turn_node(window, sid, "live-turn")
        assert turn is not None and turn.row == before and turn.data["number"] == before + 1
        assert turn.data["commitStatus"] is None

        # Open the new turn: its runtime is there; the request arrives while it is open.
        window.navigator.tree.expand(window.navigator.model.index_of(turn))
        qtbot.waitUntil(lambda: turn.state == nav.LOADED, timeout=5000)
        runtime = turn.child(nav.RUNTIME, "narrator/main")
        assert runtime is not None and not runtime.children
        committed = writer.send("call", "live-turn")
        seen = wait_for(qtbot, lambda: runtime.child(nav.REQUEST, "live-turn-call") is not None)
        assert seen - committed < LATENCY
        request = runtime.child(nav.REQUEST, "live-turn-call")
        assert request.data["responseEventId"] is None

        committed = writer.send("finish", "live-turn")
        seen = wait_for(qtbot, lambda: request.data["responseEventId"] == "live-turn-resp"
                        and turn.data["commitStatus"] == "committed")
        assert seen - committed < LATENCY
        assert request.data["cachedTokens"] == 1024
        assert runtime.data["status"] == "success"
        assert turn.data["durationMs"] == 450
    finally:
        writer.close()

    # Merged, never reset: the selection and the scroll position are where the user left them.
    assert not resets
    assert inserted
    current = window.navigator.tree.currentIndex()
    assert window.navigator.model.node(current) is selected
    assert window.navigator.tree.verticalScrollBar().value() == scroll
    assert session.data["executions"] == executions_before + 1
    assert session.data["events"] == events_before + 6
    assert session.data["llmCalls"] == calls_before + 1
    # The same as a fresh read of the store.
    with open_store(wal_db) as store:
        fresh = {r["turnId"]: r for r in views.turn_rows(store, sid)}
        totals = views.store_totals(store)
    assert {k: v for k, v in turn.data.items()} == fresh["live-turn"]
    # The status line's counts follow too.
    assert (f"{totals['turns']:,} turns · {totals['executions']:,} executions · {totals['requests']:,} requests"
            in window.counts_label.text())


def test_follow_latest_turn_selects_each_new_turn(qtbot: Any, window: MainWindow, wal_db: Path) -> None:
    open_and_wait(qtbot, window, wal_db)
    with open_store(wal_db) as store:
        sid = views.session_rows(store)[0]["sessionId"]
    window.follow_latest_action.setChecked(True)
    window.follow_live_action.setChecked(True)
    writer = Writer(wal_db, sid)
    try:
        writer.send("start", "newest")
        # The session was not open: following reveals (loads and expands) it, and selects the turn.
        wait_for(qtbot, lambda: window.navigator.current_path() == [(nav.SESSION, sid), (nav.TURN, "newest")])
    finally:
        writer.close()
    assert window.overview.value("Turn id") == "newest"


def test_follow_toggles_are_remembered_and_polling_stops(qtbot: Any, window: MainWindow, wal_db: Path) -> None:
    open_and_wait(qtbot, window, wal_db)
    assert not window.follow_live_action.isChecked() and not window.follow.following
    assert not window.follow_latest_action.isEnabled()
    window.follow_live_action.setChecked(True)
    assert window.follow.following and window.follow_latest_action.isEnabled()
    assert QSettings().value("follow/enabled", False, type=bool) is True
    window.follow_live_action.setChecked(False)
    assert not window.follow.following and not window.following_label.isVisible()
    assert QSettings().value("follow/enabled", True, type=bool) is False
    # Written while not following: picked up (caught up) when following starts again.
    with open_store(wal_db) as store:
        sid = views.session_rows(store)[0]["sessionId"]
    expand_session(qtbot, window, sid)
    writer = Writer(wal_db, sid)
    try:
        writer.send("start", "later")
    finally:
        writer.close()
    qtbot.wait(3 * 500)
    assert turn_node(window, sid, "later") is None
    window.follow_live_action.setChecked(True)
    wait_for(qtbot, lambda: turn_node(window, sid, "later") is not None)


def test_following_is_restored_from_the_settings(qtbot: Any, isolated_settings: Path) -> None:
    QSettings().setValue("follow/enabled", True)
    QSettings().setValue("follow/latestTurn", True)
    win = MainWindow(remember_layout=False)
    qtbot.addWidget(win)
    try:
        assert win.follow_live_action.isChecked() and win.follow.following
        assert win.follow_latest_action.isChecked() and win.follow.follow_latest
    finally:
        win.shutdown()


def test_cache_analysis_appends_the_new_turns_pairs(qtbot: Any, window: MainWindow, wal_db: Path) -> None:
    from ui.windows.cache_dock import install_cache_view

    view = install_cache_view(window).view()
    open_and_wait(qtbot, window, wal_db)
    with open_store(wal_db) as store:
        sid = max(views.session_rows(store), key=lambda r: r["llmCalls"])["sessionId"]
    qtbot.waitUntil(lambda: view.sessions_loaded, timeout=5000)
    with qtbot.waitSignal(view.finished, timeout=30000):
        view.open_session(sid)
    before = len(view.model.pairs)
    columns = view.model.columnCount()
    first = view.model.index(0, 1)
    view.table.setCurrentIndex(first)
    resets: list[int] = []
    view.model.modelReset.connect(lambda: resets.append(1))
    # Follow updates resume the analysis: the session's requests are not read again from the start.
    full_reads: list[str | None] = []
    store = window.store
    read_all = store.iter_llm_calling_rows

    def counting(session_id: str | None = None, batch: int = 256, *, mapped: bool = False) -> Any:
        full_reads.append(session_id)
        return read_all(session_id, batch, mapped=mapped)

    store.iter_llm_calling_rows = counting
    since_reads: list[Any] = []
    read_since = store.iter_llm_calling_since

    def counting_since(session_id: str, after: int | None, batch: int = 128) -> Any:
        since_reads.append(after)
        return read_since(session_id, after, batch)

    store.iter_llm_calling_since = counting_since

    window.follow_live_action.setChecked(True)
    writer = Writer(wal_db, sid)
    try:
        writer.send("start", "cache-turn")
        committed = writer.send("call", "cache-turn")
        wait_for(qtbot, lambda: any(p.event_id == "cache-turn-call" for p in view.model.pairs), timeout=30)
        # The response arrives later: the same cell is updated with the reported cache read.
        writer.send("finish", "cache-turn")
        wait_for(qtbot, lambda: any(p.event_id == "cache-turn-call" and p.reported_cached_tokens == 1024
                                    for p in view.model.pairs), timeout=30)
    finally:
        writer.close()
    assert committed
    assert not resets
    assert len(view.model.pairs) == before + 1
    assert view.model.columnCount() == columns + 1
    assert view.table.currentIndex() == first
    pair = next(p for p in view.model.pairs if p.event_id == "cache-turn-call")
    assert view.model.index_of(pair).column() == columns
    assert pair.kind == "turn" and pair.runtime_id == "narrator/main"
    assert full_reads == []
    # Each update read only the rows after the previous one's cursor.
    assert len(since_reads) >= 2 and all(after is not None for after in since_reads)
    # The merged pairs, findings and summaries are those of a fresh analysis.
    qtbot.waitUntil(lambda: not view.running, timeout=10000)
    with open_store(wal_db) as fresh_store:
        fresh = analyse_session(fresh_store, sid)
    assert {p.event_id: p.to_json() for p in view.model.pairs} == {p.event_id: p.to_json() for p in fresh.pairs}
    assert view.analysis is not None
    assert [f.to_json() for f in view.analysis.findings] == [f.to_json() for f in fresh.findings]
    assert [s.to_json() for s in view.analysis.summaries] == [s.to_json() for s in fresh.summaries]
