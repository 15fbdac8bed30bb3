"""The navigator: lazy fill, filtering, selection, keyboard. Expectations come from inspector.views."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, Qt

from inspector import views
from inspector.ids import turn_name
from inspector.store import Store, open_store
from ui.models import navigator_nodes as nav
from ui.models.navigator_tree import NavigatorModel
from ui.views.formats import format_number
from ui.views import navigator as navigator_view
from ui.views.navigator import Navigator
from ui.workers import TaskManager


@pytest.fixture
def store(covel_db: Path) -> Iterator[Store]:
    with open_store(covel_db) as s:
        yield s


@pytest.fixture
def tasks(qapp: Any) -> Iterator[TaskManager]:
    manager = TaskManager()
    yield manager
    manager.shutdown()


@pytest.fixture
def navigator(qtbot: Any, tasks: TaskManager, store: Store) -> Iterator[Navigator]:
    widget = Navigator(tasks)
    qtbot.addWidget(widget)
    widget.resize(700, 500)
    widget.show()
    widget.set_store(store, views.session_rows(store))
    yield widget
    widget.clear()


def visible_requests(proxy: Any, parent: QModelIndex = QModelIndex()) -> list[str]:
    out: list[str] = []
    for row in range(proxy.rowCount(parent)):
        index = proxy.index(row, 0, parent)
        if index.data(nav.KindRole) == nav.REQUEST:
            out.append(index.data(nav.KeyRole))
        out.extend(visible_requests(proxy, index))
    return out


def first_turn_with_requests(store: Store) -> tuple[str, dict[str, Any]]:
    for session in views.session_rows(store):
        for turn in views.turn_rows(store, session["sessionId"]):
            if turn["llmCalls"]:
                return session["sessionId"], turn
    raise AssertionError("fixture database has no requests")


def test_lazy_fill_sessions_turns_runtimes_requests(qtbot: Any, navigator: Navigator, store: Store) -> None:
    model = navigator.model
    sessions = views.session_rows(store)
    assert model.rowCount() == len(sessions)
    sid, turn = first_turn_with_requests(store)
    session_node = model.root.child(nav.SESSION, sid)
    assert session_node is not None
    session_index = model.index_of(session_node)
    # Nothing below the sessions is read until a session is expanded.
    assert model.rowCount(session_index) == 0
    assert model.hasChildren(session_index)
    assert model.canFetchMore(session_index)

    navigator.tree.expand(navigator.proxy.mapFromSource(session_index))
    turns = views.turn_rows(store, sid)
    qtbot.waitUntil(lambda: model.rowCount(session_index) == len(turns))
    assert not model.canFetchMore(session_index)
    assert [model.index(r, 0, session_index).data(nav.KeyRole) for r in range(len(turns))] == \
        [t["turnId"] for t in turns]

    turn_node = session_node.child(nav.TURN, turn["turnId"])
    turn_index = model.index_of(turn_node)
    assert model.rowCount(turn_index) == 0
    model.fetchMore(turn_index)
    groups = views.turn_runtime_groups(store, sid, turn["turnId"])
    qtbot.waitUntil(lambda: model.rowCount(turn_index) == len(groups))
    for row, group in enumerate(groups):
        runtime_index = model.index(row, 0, turn_index)
        assert runtime_index.data(nav.KeyRole) == group["runtimeId"]
        assert model.rowCount(runtime_index) == len(group["requests"])
        assert model.index(row, nav.COL_DETAIL, turn_index).data().startswith(group["stage"] or "")
        for r, request in enumerate(group["requests"]):
            req_index = model.index(r, 0, runtime_index)
            assert req_index.data(nav.KeyRole) == request["eventId"]
            assert req_index.data(nav.RowRole) == request
            assert not model.hasChildren(req_index)
            tokens = model.index(r, nav.COL_TOKENS, runtime_index).data()
            assert tokens == format_number(request["inputTokens"])
            assert model.index(r, nav.COL_DETAIL, runtime_index).data().startswith(request["model"] or "")


def test_runtime_and_request_nodes_hold_typed_rows(qtbot: Any, navigator: Navigator, store: Store) -> None:
    from inspector.rows import RequestRow, RuntimeRow

    model = navigator.model
    sid, turn = first_turn_with_requests(store)
    session_node = model.root.child(nav.SESSION, sid)
    model.fetchMore(model.index_of(session_node))
    qtbot.waitUntil(lambda: session_node.child(nav.TURN, turn["turnId"]) is not None)
    turn_node = session_node.child(nav.TURN, turn["turnId"])
    model.fetchMore(model.index_of(turn_node))
    expected = views.turn_runtimes(store, sid, turn["turnId"])
    qtbot.waitUntil(lambda: len(turn_node.children) == len(expected))
    assert [node.record for node in turn_node.children] == expected
    for runtime in turn_node.children:
        assert isinstance(runtime.record, RuntimeRow)
        assert runtime.data == runtime.record.to_json()
        # The runtime's requests are the very rows its children hold, not copies.
        assert all(isinstance(child.record, RequestRow) and child.record is request
                   for child, request in zip(runtime.children, runtime.record.requests, strict=True))
        tip = model.index(runtime.row, 0, model.index_of(turn_node)).data(Qt.ItemDataRole.ToolTipRole)
        if runtime.record.error:
            assert str(runtime.record.error) in tip
        else:
            assert (runtime.record.plugin_id or "—") in tip


def test_model_passes_qt_model_tester(qtbot: Any, qtmodeltester: Any, navigator: Navigator) -> None:
    navigator.model.load_everything()
    qtbot.waitUntil(lambda: navigator.model.loading == 0 and all(
        s.state == nav.LOADED for s in navigator.model.root.children))
    qtbot.waitUntil(lambda: navigator.model.loading == 0)
    qtmodeltester.check(navigator.model, force_py=True)


def test_every_row_is_enabled_and_selectable_and_nothing_else(qtbot: Any, navigator: Navigator) -> None:
    model = navigator.model
    model.load_everything()
    qtbot.waitUntil(lambda: model.loading == 0 and all(s.state == nav.LOADED for s in model.root.children))
    stack = [QModelIndex()]
    rows = 0
    while stack:
        parent = stack.pop()
        for row in range(model.rowCount(parent)):
            for column in range(model.columnCount(parent)):
                index = model.index(row, column, parent)
                assert model.flags(index) == Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
            stack.append(model.index(row, 0, parent))
            rows += 1
    assert rows > len(model.root.children)
    assert model.flags(QModelIndex()) == Qt.ItemFlag.NoItemFlags


def test_filter_by_runtime(qtbot: Any, navigator: Navigator, store: Store) -> None:
    qtbot.waitUntil(lambda: navigator.runtime_box.count() > 1)
    facets = views.request_facets(store)
    assert [navigator.runtime_box.itemData(i) for i in range(1, navigator.runtime_box.count())] == facets["runtimes"]
    runtime = facets["runtimes"][-1]
    expected = {r["eventId"] for r in views.request_rows(store) if r["runtimeId"] == runtime}
    assert expected
    navigator.runtime_box.setCurrentIndex(navigator.runtime_box.findData(runtime))
    qtbot.waitUntil(lambda: set(visible_requests(navigator.proxy)) == expected)
    # Only ancestors of matches remain, and they are expanded so the matches show.
    qtbot.waitUntil(lambda: all(navigator.tree.isExpanded(navigator.proxy.index(row, 0))
                                for row in range(navigator.proxy.rowCount())))

    navigator.runtime_box.setCurrentIndex(0)
    assert navigator.proxy.rowCount() == len(views.session_rows(store))


def test_filter_by_model_and_runtime_combine(qtbot: Any, navigator: Navigator, store: Store) -> None:
    qtbot.waitUntil(lambda: navigator.model_box.count() > 1)
    rows = views.request_rows(store)
    model_name = rows[0]["model"]
    runtime = rows[0]["runtimeId"]
    navigator.model_box.setCurrentIndex(navigator.model_box.findData(model_name))
    navigator.runtime_box.setCurrentIndex(navigator.runtime_box.findData(runtime))
    expected = {r["eventId"] for r in rows if r["model"] == model_name and r["runtimeId"] == runtime}
    qtbot.waitUntil(lambda: set(visible_requests(navigator.proxy)) == expected)


def test_free_text_search_runs_in_the_core(qtbot: Any, navigator: Navigator, store: Store) -> None:
    rows = views.request_rows(store)
    last = store.event(rows[-1]["eventId"])
    messages = last.payload["messages"]
    text = next(m["content"] for m in reversed(messages) if isinstance(m.get("content"), str) and m["content"])
    needle = text[:12]
    expected = views.search_requests(store, needle)
    assert rows[-1]["eventId"] in expected

    qtbot.keyClicks(navigator.search, needle)
    qtbot.waitUntil(lambda: set(visible_requests(navigator.proxy)) == expected, timeout=10000)
    assert navigator.busy == 0

    navigator.search.clear()
    navigator.search.setText("no prompt contains this ⟂ string")
    qtbot.waitUntil(lambda: navigator.proxy.rowCount() == 0)
    navigator.clear_filters()
    qtbot.waitUntil(lambda: navigator.proxy.rowCount() == len(views.session_rows(store)))


def test_search_requests_ignores_ascii_case_and_json_escaping(store: Store) -> None:
    rows = views.request_rows(store)
    payload = store.event(rows[0]["eventId"]).payload
    text = next(m["content"] for m in payload["messages"] if isinstance(m.get("content"), str) and m["content"])
    assert rows[0]["eventId"] in views.search_requests(store, text[:8].swapcase())
    assert views.search_requests(store, "") == set()
    stopped = views.search_requests(store, text[:8], should_stop=lambda: True)
    assert stopped == set()


def test_selecting_a_request_emits_its_event_id(qtbot: Any, navigator: Navigator, store: Store) -> None:
    target = views.request_rows(store)[-1]
    with qtbot.waitSignal(navigator.requestSelected, timeout=10000) as blocker:
        navigator.select_request(target["eventId"])
    assert blocker.args == [target["eventId"]]
    assert navigator.current_path()[-1] == (nav.REQUEST, target["eventId"])
    assert navigator.current_path()[0] == (nav.SESSION, target["sessionId"])


def test_unknown_request_id_reports_failure(qtbot: Any, navigator: Navigator) -> None:
    with qtbot.waitSignal(navigator.revealFinished, timeout=5000) as finished, \
            qtbot.waitSignal(navigator.failed, timeout=5000) as failed:
        navigator.select_request("no-such-event")
    assert finished.args == [False]
    assert "no-such-event" in failed.args[0]


def test_keyboard_navigation_expands_and_selects(qtbot: Any, navigator: Navigator, store: Store) -> None:
    tree = navigator.tree
    tree.setFocus()
    tree.setCurrentIndex(navigator.proxy.index(0, 0))
    sid = views.session_rows(store)[0]["sessionId"]
    turns = views.turn_rows(store, sid)
    qtbot.keyClick(tree, Qt.Key.Key_Right)
    qtbot.waitUntil(lambda: navigator.proxy.rowCount(navigator.proxy.index(0, 0)) == len(turns))
    with qtbot.waitSignal(navigator.itemSelected) as blocker:
        qtbot.keyClick(tree, Qt.Key.Key_Down)
    assert blocker.args[0] == nav.TURN
    assert blocker.args[1]["turnId"] == turns[0]["turnId"]
    qtbot.keyClick(tree, Qt.Key.Key_Left)
    qtbot.keyClick(tree, Qt.Key.Key_Left)
    assert navigator.current_path() == [(nav.SESSION, sid)]


def test_filter_after_sessions_are_opened_loads_runtimes_in_one_read_then_filters(
        qtbot: Any, navigator: Navigator, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    # Open every session's turn list first (as a user scrolling the tree would), then filter:
    # the runtimes come from one read per session, and the proxy filters only once all is loaded.
    model = navigator.model
    for session in model.root.children:
        model.fetch(session)
    qtbot.waitUntil(lambda: model.loading == 0, timeout=10000)
    per_turn: list[str] = []
    original = views.turn_runtime_groups
    monkeypatch.setattr(views, "turn_runtime_groups",
                        lambda *a, **k: per_turn.append(a[2]) or original(*a, **k))
    monkeypatch.setattr(NavigatorModel, "ATTACH_BATCH", 2)  # several event-loop turns
    runtime = sorted({r["runtimeId"] for r in views.request_rows(store) if r["runtimeId"]})[0]
    expected = {r["eventId"] for r in views.request_rows(store) if r["runtimeId"] == runtime}
    qtbot.waitUntil(lambda: navigator.runtime_box.findData(runtime) >= 0, timeout=10000)
    navigator.runtime_box.setCurrentIndex(navigator.runtime_box.findData(runtime))
    qtbot.waitUntil(lambda: set(visible_requests(navigator.proxy)) == expected, timeout=10000)
    assert model.fully_loaded()
    assert per_turn == []  # one read per session, none per turn


def test_a_big_store_filters_with_rows_made_in_a_child_process(
        qtbot: Any, navigator: Navigator, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    # Made here, a big store's runtime rows held the interpreter lock the GUI thread needs
    # (inspector.rows_process); the fixture store counts as big here, and the rows made in this
    # process fail the test.
    from inspector import rows_process

    monkeypatch.setattr(rows_process, "APART_MIN_REQUESTS", 1)
    runtime = sorted({r["runtimeId"] for r in views.request_rows(store) if r["runtimeId"]})[0]
    expected = {r["eventId"] for r in views.request_rows(store) if r["runtimeId"] == runtime}
    expected_tree = {sid: views.session_runtimes(store, sid) for sid in (r["sessionId"] for r in views.session_rows(store))}

    def refuse(*_args: object) -> None:
        raise AssertionError("the rows were made in this process")

    monkeypatch.setattr(views, "session_runtimes", refuse)
    try:
        qtbot.waitUntil(lambda: navigator.runtime_box.findData(runtime) >= 0, timeout=10000)
        navigator.runtime_box.setCurrentIndex(navigator.runtime_box.findData(runtime))
        qtbot.waitUntil(lambda: set(visible_requests(navigator.proxy)) == expected, timeout=20000)
        assert rows_process.CHILD.running()
        model = navigator.model
        assert model.fully_loaded()
        for session in model.root.children:
            assert {turn.key: [runtime.record for runtime in turn.children] for turn in session.children
                    if turn.children} == {tid: rows for tid, rows in expected_tree[session.key].items() if rows}
    finally:
        rows_process.CHILD.stop()


def test_a_broad_filter_opens_only_the_first_matching_turns(qtbot: Any, navigator: Navigator, store: Store,
                                                            monkeypatch: Any) -> None:
    # Expanding every match of a broad search froze the window for half a minute on a large store.
    monkeypatch.setattr(navigator_view, "MAX_EXPANDED_MATCH_TURNS", 2)
    qtbot.waitUntil(lambda: navigator.runtime_box.count() > 1)
    runtime = views.request_facets(store)["runtimes"][0]
    navigator.runtime_box.setCurrentIndex(navigator.runtime_box.findData(runtime))
    tree = navigator.tree

    def sessions_open() -> bool:
        proxy = navigator.proxy
        return (navigator.busy == 0 and tree.model() is navigator.filter and proxy.rowCount() > 0
                and all(tree.isExpanded(proxy.index(i, 0)) for i in range(proxy.rowCount())))

    qtbot.waitUntil(sessions_open, timeout=10000)
    qtbot.waitUntil(lambda: not navigator._expand_timer.isActive(), timeout=5000)
    proxy = navigator.proxy
    turns = [proxy.index(t, 0, proxy.index(s, 0)) for s in range(proxy.rowCount())
             for t in range(proxy.rowCount(proxy.index(s, 0)))]
    assert len(turns) > 2
    assert sum(tree.isExpanded(t) for t in turns) == 2


# ------------------------------------------------------------------------------------ paging

def _long_session(path: Path, turns: int) -> Path:
    """One session of ``turns`` executions, each a runtime with one request (two runtimes
    alternate, so a runtime filter keeps half)."""
    import json
    import sqlite3

    from inspector.demo.schema import render_ddl

    conn = sqlite3.connect(path)
    conn.executescript(render_ddl())
    conn.execute("INSERT INTO sessions (id, status, locale, active_plugins, created_at, updated_at, phase, "
                 "completed_player_turns, setup_runtimes) VALUES ('long', 'active', 'en', '[]', "
                 "'2026-10-06T08:00:00.000Z', '2026-10-06T08:00:00.000Z', 'playing', 0, '{}')")
    rows = []
    for i in range(turns):
        created = f"2026-10-06T{8 + i // 3600:02d}:{i // 60 % 60:02d}:{i % 60:02d}.000Z"
        runtime = "narrator/main" if i % 2 == 0 else "guide/main"
        rows.append((f"r{i}", "long", "runtime.started", f"t{i}", f"t{i}",
                     json.dumps({"runtimeId": runtime, "stage": "narrative"}), created, 0))
        rows.append((f"c{i}", "long", "llm.calling", f"t{i}", f"t{i}",
                     json.dumps({"runtimeId": runtime, "model": "m", "attempt": 0, "messages": []}), created, 1))
    conn.executemany("INSERT INTO trace_events (id, session_id, type, trace_id, turn_id, payload, created_at, seq) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    conn.commit()
    conn.close()
    return path


@pytest.fixture
def long_store(tmp_path: Path) -> Iterator[Store]:
    with open_store(_long_session(tmp_path / "long.db", 1_234)) as s:
        yield s


def test_a_long_session_is_inserted_a_page_at_a_time(qtbot: Any, tasks: TaskManager, long_store: Store) -> None:
    widget = Navigator(tasks)
    qtbot.addWidget(widget)
    widget.resize(700, 500)
    widget.show()
    widget.set_store(long_store, views.session_rows(long_store))
    model = widget.model
    session = model.root.children[0]
    index = model.index_of(session)
    widget.tree.expand(index)
    qtbot.waitUntil(lambda: session.state == nav.LOADED, timeout=10000)
    page = NavigatorModel.PAGE_SIZE
    assert model.rowCount(index) == page
    assert len(session.pending) == 1_234 - page
    # The tree does not insert pages on its own: only scrolling near the end does.
    qtbot.wait(100)
    assert model.rowCount(index) == page and model.hasChildren(index) and not model.canFetchMore(index)
    assert [n.key for n in session.children[:2]] == ["t0", "t1"]
    # Scrolling to the end of the rows inserted so far inserts the next page.
    widget.tree.scrollToBottom()
    qtbot.waitUntil(lambda: model.rowCount(index) == 2 * page, timeout=5000)
    model.fetchMore(index)
    assert model.rowCount(index) == 1_234 and not session.pending
    assert session.children[-1].key == "t1233" and session.children[-1].data["number"] == 1_234
    widget.clear()


def test_reveal_and_filter_reach_turns_beyond_the_first_page(qtbot: Any, tasks: TaskManager,
                                                             long_store: Store) -> None:
    widget = Navigator(tasks)
    qtbot.addWidget(widget)
    widget.show()
    widget.set_store(long_store, views.session_rows(long_store))
    model = widget.model
    with qtbot.waitSignal(widget.revealFinished, timeout=10000) as blocker:
        widget.reveal([(nav.SESSION, "long"), (nav.TURN, "t900")])
    assert blocker.args == [True]
    assert widget.current_path() == [(nav.SESSION, "long"), (nav.TURN, "t900")]
    session = model.root.children[0]
    # Only the pages up to the turn were inserted.
    assert len(session.children) == 1_000 and len(session.pending) == 234
    # A filter needs every turn: the remaining pages and all runtimes are loaded first.
    widget.runtime_box.setCurrentIndex(widget.runtime_box.findData("guide/main"))
    qtbot.waitUntil(lambda: model.fully_loaded() and widget.proxy is widget.filter, timeout=20000)
    assert not session.pending and len(session.children) == 1_234
    shown = widget.proxy.mapFromSource(model.index_of(session))
    assert widget.proxy.rowCount(shown) == 617
    widget.clear()


def test_a_turn_written_while_pages_are_pending_joins_the_pending_rows(qtbot: Any, tasks: TaskManager,
                                                                        long_store: Store) -> None:
    from inspector.follow import FollowUpdate, SessionDelta, StoreChanges

    widget = Navigator(tasks)
    qtbot.addWidget(widget)
    widget.set_store(long_store, views.session_rows(long_store))
    model = widget.model
    session = model.root.children[0]
    model.fetch(session)
    qtbot.waitUntil(lambda: session.state == nav.LOADED, timeout=10000)
    changes = StoreChanges({"long": SessionDelta("long", events=1, new_turns=["t-new"], turns=["t-new", "t5"])})
    row = dict(session.children[5].data, turnId="t-new", number=None)
    changed = dict(session.children[5].data, durationMs=99)
    update = FollowUpdate(changes, turn_rows={"long": {"t-new": row, "t5": changed}})
    inserted: list[Any] = []
    model.rowsInserted.connect(lambda *args: inserted.append(args))
    new_turns, retry = widget.apply_update(update)
    assert new_turns == [] and retry == set() and not inserted
    assert session.pending[-1]["turnId"] == "t-new" and session.pending[-1]["number"] == 1_235
    assert session.children[5].data["durationMs"] == 99 and session.children[5].data["number"] == 6
    assert session.data["executions"] == 1_235
    widget.clear()


# --- a partly bad store (issue 17) ------------------------------------------------------------

def _partly_bad_store(path: Path) -> Path:
    """The sample store with values of the wrong type in it: one session's turn count is text,
    one turn's id a BLOB, every trace row's seq text."""
    import sqlite3

    from covel_sample import build_sample_store

    build_sample_store(path)
    conn = sqlite3.connect(path)
    conn.execute("UPDATE sessions SET completed_player_turns = 'many' WHERE id = 'sess-harbor'")
    conn.execute("UPDATE trace_events SET turn_id = CAST(turn_id AS BLOB) WHERE turn_id = 'sess-lantern-turn-02'")
    conn.execute("UPDATE trace_events SET seq = 'n' || seq")
    conn.commit()
    conn.close()
    return path


def test_a_partly_bad_store_shows_its_good_sessions_and_the_warnings(qtbot: Any, isolated_settings: Path,
                                                                     tmp_path: Path) -> None:
    from ui.windows.main_window import MainWindow

    path = _partly_bad_store(tmp_path / "bad.db")
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    try:
        with qtbot.waitSignal(win.openFinished, timeout=10000) as opened:
            win.open_database(path)
        assert opened.args == [True]
        model = win.navigator.model
        rows = {node.key: node.data for node in model.root.children}
        assert set(rows) == {"sess-lantern", "sess-harbor"}
        assert rows["sess-harbor"]["completedPlayerTurns"] == "many"
        # The note about the session row is made while opening: it is among the store's facts.
        facts = [value for label, value in win.overview.facts if label == "Schema note"]
        assert facts == ["sessions.completed_player_turns holds text where a number is expected: shown as the text"]

        # A turn read later adds its notes to the facts and says the newest in the status bar.
        session = model.root.child(nav.SESSION, "sess-lantern")
        model.fetch(session)
        qtbot.waitUntil(lambda: session.state == nav.LOADED)
        blob_turn = "x'" + b"sess-lantern-turn-02".hex() + "'"
        # The trace rows under the BLOB id, the result row under the text one: two turns.
        assert {turn.key for turn in session.children} == {f"sess-lantern-turn-0{n}" for n in range(1, 5)} | {blob_turn}
        turn = session.child(nav.TURN, blob_turn)
        model.fetch(turn)
        qtbot.waitUntil(lambda: turn.state == nav.LOADED)
        assert [runtime.key for runtime in turn.children] == ["director/plan", "narrator/main", "memory/update"]
        qtbot.waitUntil(lambda: len([1 for label, _ in win.overview.facts if label == "Schema note"]) == 3)
        assert "trace_events.seq holds text" in " ".join(value for _, value in win.overview.facts)
        assert win.statusBar().currentMessage().startswith("⚠ ")
        win.overview.show_item(nav.SESSION, rows["sess-harbor"])
        assert win.overview.value("Turns") == "many"  # shown as stored
    finally:
        win.shutdown()


def test_a_request_lookup_that_fails_ends_the_reveal(qtbot: Any, navigator: Navigator,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """``--select`` waits for revealFinished: a read that fails must end it, not leave it to the
    screenshot watchdog (SCREENSHOT_TIMEOUT_MS)."""
    from inspector.store import StoreError

    def broken(_store: Any, event_id: str) -> None:
        raise StoreError(f"covel.db: trace_events cannot be read for {event_id}")

    monkeypatch.setattr(views, "request_location", broken)
    with qtbot.waitSignal(navigator.revealFinished, timeout=5000) as finished, \
            qtbot.waitSignal(navigator.failed, timeout=5000) as failed:
        navigator.select_request("ev-1")
    assert finished.args == [False]
    assert "ev-1" in failed.args[0]


def test_a_session_row_says_turns_and_executions_as_the_core_counts_them(navigator: Navigator, store: Store) -> None:
    # A turn is a completed player turn, an execution any run with its own turn id
    # (inspector.store.turn_counts): the main demo session has twelve of one and thirteen of the other.
    from inspector.rows import SessionRow

    model = navigator.model
    details = {node.key: model.index_of(node, nav.COL_DETAIL).data() for node in model.root.children}
    tips = {node.key: model.index_of(node, nav.COL_DETAIL).data(Qt.ItemDataRole.ToolTipRole)
            for node in model.root.children}
    main = {r["sessionId"]: r for r in views.session_rows(store)}["demo-lantern-deepseek"]
    turns = main["completedPlayerTurns"]
    # The cell keeps to the world and the turns (a narrow navigator); the tooltip says it all.
    assert details["demo-lantern-deepseek"].split(" · ")[1:] == [f"{turns} turns"]
    assert tips["demo-lantern-deepseek"].splitlines()[1].split(" · ")[1:4] == [
        f"{turns} turns", f"{turns + 1} executions", f"{main['llmCalls']} requests"]
    for row in views.session_rows(store):
        counts = SessionRow.from_json(row).counts
        assert f"{counts.turns} turns · {counts.executions} executions" in tips[row["sessionId"]]


def test_session_and_execution_nodes_hold_typed_rows_and_give_todays_json(navigator: Navigator,
                                                                          store: Store) -> None:
    from inspector.rows import SessionRow

    rows = views.session_rows(store)
    nodes = navigator.model.root.children
    assert all(isinstance(node.record, SessionRow) for node in nodes)
    assert [node.data for node in nodes] == rows


def test_the_rows_under_a_session_are_its_executions(qtbot: Any, navigator: Navigator, store: Store) -> None:
    model = navigator.model
    session = model.root.child(nav.SESSION, "demo-lantern-deepseek")
    assert session is not None
    index = model.index_of(session)
    model.fetchMore(index)
    turns = views.turn_rows(store, "demo-lantern-deepseek")
    qtbot.waitUntil(lambda: model.rowCount(index) == len(turns))
    names = [model.index(r, nav.COL_NAME, index).data() for r in range(len(turns))]
    # Named as every view names them (inspector.ids.turn_name): "Turn 4", by the execution's number.
    assert names == [turn_name(t["number"], t["turnId"]) for t in turns]
    assert names[0] == "Turn 1"
    assert len(turns) == session.record.executions


def _search(qtbot: Any, navigator: Navigator, text: str) -> int:
    with qtbot.waitSignal(navigator.searchApplied, timeout=10000) as applied:
        navigator.search.setText(text)
    return applied.args[0]


def _common_prompt_text(store: Store) -> str:
    """A few words of the first request's first message: many requests share them."""
    payload = store.event(views.request_rows(store)[0]["eventId"]).payload
    text = next(m["content"] for m in payload["messages"] if isinstance(m.get("content"), str) and m["content"])
    return text[:10]


def test_search_shows_the_hit_count_and_f3_steps_through_the_hits_in_tree_order(
        qtbot: Any, navigator: Navigator, store: Store) -> None:
    needle = _common_prompt_text(store)
    expected = views.search_requests(store, needle)
    assert len(expected) > 2
    count = _search(qtbot, navigator, needle)
    assert count == len(expected)
    in_tree_order = [node.key for node in navigator.hits]
    assert in_tree_order == [e for e in visible_requests(navigator.proxy) if e in expected]
    assert navigator.hits_label.isVisibleTo(navigator)
    assert navigator.hits_label.text() == f"{format_number(count)} requests"

    highlights: list[str] = []
    navigator.searchHighlight.connect(highlights.append)
    navigator.tree.setFocus()
    with qtbot.waitSignal(navigator.requestSelected) as selected:
        qtbot.keyClick(navigator.tree, Qt.Key.Key_F3)
    assert selected.args == [in_tree_order[0]]
    assert highlights == [needle]  # the request view marks the text in the hit
    assert navigator.hits_label.text() == f"1 of {format_number(count)}"
    navigator.next_hit_action.trigger()
    assert navigator.current_path()[-1] == (nav.REQUEST, in_tree_order[1])
    assert navigator.hits_label.text() == f"2 of {format_number(count)}"
    qtbot.keyClick(navigator.tree, Qt.Key.Key_F3, Qt.KeyboardModifier.ShiftModifier)
    assert navigator.current_path()[-1] == (nav.REQUEST, in_tree_order[0])
    navigator.previous_hit()  # wraps round to the last
    assert navigator.current_path()[-1] == (nav.REQUEST, in_tree_order[-1])
    navigator.next_hit()
    assert navigator.current_path()[-1] == (nav.REQUEST, in_tree_order[0])

    # From a row that is no hit (its session), F3 goes to the first hit below it.
    navigator.tree.setCurrentIndex(navigator.proxy.index(0, 0))
    navigator.next_hit()
    assert navigator.current_path()[-1] == (nav.REQUEST, in_tree_order[0])
    # ... and Shift+F3 to the last hit above it: none above the first session, so round to the last.
    navigator.tree.setCurrentIndex(navigator.proxy.index(0, 0))
    navigator.previous_hit()
    assert navigator.current_path()[-1] == (nav.REQUEST, in_tree_order[-1])
    assert navigator.proxy.rowCount() > 1
    first_session = navigator.proxy.index(0, 0).data(nav.KeyRole)
    above = [n.key for n in navigator.hits if n.path()[0] == (nav.SESSION, first_session)]
    navigator.tree.setCurrentIndex(navigator.proxy.index(1, 0))  # from the second session: the first's last hit
    navigator.previous_hit()
    assert above and navigator.current_path()[-1] == (nav.REQUEST, above[-1])

    with qtbot.waitSignal(navigator.searchApplied, timeout=10000) as cleared:
        navigator.search.clear()
    assert cleared.args == [-1]
    assert highlights[-1] == ""
    assert not navigator.hits_label.isVisibleTo(navigator)
    assert not navigator.next_hit_action.isEnabled()


def test_a_search_without_a_hit_says_so_and_f3_does_nothing(qtbot: Any, navigator: Navigator) -> None:
    assert _search(qtbot, navigator, "no prompt contains this ⟂ string") == 0
    assert navigator.hits_label.text() == "No match"
    assert not navigator.next_hit_action.isEnabled()
    navigator.next_hit()
    assert navigator.current_path() == []


def test_the_hit_count_counts_only_hits_the_other_filters_keep(qtbot: Any, navigator: Navigator,
                                                               store: Store) -> None:
    needle = _common_prompt_text(store)
    rows = views.request_rows(store)
    runtime = rows[0]["runtimeId"]
    expected = {r["eventId"] for r in rows if r["runtimeId"] == runtime} & views.search_requests(store, needle)
    qtbot.waitUntil(lambda: navigator.runtime_box.findData(runtime) >= 0, timeout=10000)
    navigator.runtime_box.setCurrentIndex(navigator.runtime_box.findData(runtime))
    assert _search(qtbot, navigator, needle) == len(expected)
    assert {node.key for node in navigator.hits} == expected


def test_loading_everything_inserts_a_long_session_a_batch_per_turn_of_the_event_loop(
        qtbot: Any, tasks: TaskManager, long_store: Store) -> None:
    widget = Navigator(tasks)
    qtbot.addWidget(widget)
    widget.show()
    widget.set_store(long_store, views.session_rows(long_store))
    model = widget.model
    session = model.root.children[0]
    sizes: list[int] = []
    model.rowsInserted.connect(lambda parent, first, last: sizes.append(last - first + 1)
                               if not parent.parent().isValid() and parent.isValid() else None)
    zero_while_pending: list[bool] = []
    model.loadingChanged.connect(lambda n: zero_while_pending.append(bool(session.pending)) if n == 0 else None)
    model.load_everything()
    qtbot.waitUntil(lambda: model.fully_loaded() and model.loading == 0, timeout=20000)
    batch = NavigatorModel.LOAD_ALL_BATCH
    assert len(session.children) == 1_234
    assert sum(sizes) == 1_234 and max(sizes) <= batch and len(sizes) == -(-1_234 // batch)
    assert zero_while_pending == [False]  # the load counts as one until the last batch is in
    assert [n.key for n in session.children[:2]] == ["t0", "t1"] and session.children[-1].key == "t1233"
    widget.clear()


def test_the_number_columns_grow_to_the_widest_figure_shown(qtbot: Any, navigator: Navigator) -> None:
    header = navigator.tree.header()
    metrics = navigator.tree.fontMetrics()
    before = header.sectionSize(nav.COL_TOKENS)
    assert before >= metrics.horizontalAdvance(format_number(9_999))  # the floor: four digits
    wide = format_number(123_456_789)
    cells = ["", "", wide, "", ""]
    with qtbot.waitSignal(navigator.model.figuresWidened):
        navigator.model._widen(tuple(cells))  # as data() does for a row shown the first time
    qtbot.waitUntil(lambda: header.sectionSize(nav.COL_TOKENS) > before)
    assert header.sectionSize(nav.COL_TOKENS) >= metrics.horizontalAdvance(wide)
    assert navigator.model.widest[0] == wide


def test_a_cell_paints_from_one_multidata_call_with_what_data_answers(qtbot: Any, navigator: Navigator,
                                                                      store: Store) -> None:
    from PySide6.QtCore import QModelRoleData
    from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem

    from ui.models.item_roles import ID_ROLE

    model = navigator.model
    index = model.index(0, 0)
    model.fetchMore(index)
    qtbot.waitUntil(lambda: model.rowCount(index) > 0)
    roles = [Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.DecorationRole, Qt.ItemDataRole.ForegroundRole,
             Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.FontRole, Qt.ItemDataRole.ToolTipRole, ID_ROLE]
    delegate = QStyledItemDelegate()
    navigator.search.setText("")
    with qtbot.waitSignal(navigator.searchApplied, timeout=20000):
        navigator.model_box.setCurrentIndex(1)  # a filter: the tree shows the proxy
        navigator.search.setText(_common_prompt_text(store))
    for shown in (model, navigator.filter):
        for row in range(min(3, shown.rowCount())):
            for column in range(shown.columnCount()):
                cell = shown.index(row, column)
                asked = [QModelRoleData(int(role)) for role in roles]
                shown.multiData(cell, asked)
                assert [a.data() for a in asked] == [cell.data(role) for role in roles]
                assert column != nav.COL_NAME or asked[0].data()  # answered, not left empty
                option = QStyleOptionViewItem()
                delegate.initStyleOption(option, cell)  # Qt's own paint path, through multiData
                assert option.text == (cell.data() or "")


def test_a_filter_is_computed_on_one_turn_of_the_event_loop_and_shown_on_the_next(
        qtbot: Any, navigator: Navigator, store: Store) -> None:
    model = navigator.model
    model.load_everything()
    qtbot.waitUntil(lambda: model.loading == 0 and model.fully_loaded(), timeout=10000)
    qtbot.waitUntil(lambda: navigator.runtime_box.count() > 1)
    runtime = views.request_facets(store)["runtimes"][0]
    navigator.runtime_box.setCurrentIndex(navigator.runtime_box.findData(runtime))
    # The matches are found, the tree not yet laid out over them (one stall, not two in one).
    assert navigator.filter.active and navigator.tree.model() is model
    qtbot.waitUntil(lambda: navigator.tree.model() is navigator.filter)
    expected = {r["eventId"] for r in views.request_rows(store) if r["runtimeId"] == runtime}
    assert set(visible_requests(navigator.proxy)) == expected
    # Clearing it is at once.
    navigator.runtime_box.setCurrentIndex(0)
    assert navigator.tree.model() is model and navigator.proxy.rowCount() == len(views.session_rows(store))
