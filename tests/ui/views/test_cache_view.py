"""The cache analysis views: table, pair view, chart, findings, click-through, cancellation."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from inspector import views
from inspector.anatomy.divergence import context_point
from inspector.cache.analysis import SessionCacheAnalyser, analyse_session
from inspector.jsjson import utf16_len, utf16_to_index
from inspector.store import open_store
from ui.windows.cache_dock import install_cache_view
from ui.models import navigator_nodes as nav
from ui.settings import Settings
from ui.views.cache_texts import pair_tooltip, share_colour
from ui.views.part_names import part_label
from ui.views.cache_view import CacheView
from ui.views.compare_view import MARK_COLOUR
from ui.windows.main_window import MainWindow

CLAUDE = "demo-lantern-claude"
DEEPSEEK = "demo-lantern-deepseek"


@pytest.fixture(scope="module")
def demo_db(demo_store: Path) -> Path:
    return demo_store


@pytest.fixture(autouse=True)
def kept_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test its own user cache folder: what one test's analyses keep, another never reads."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    return tmp_path / "user-cache" / "prompt-inspector"


@pytest.fixture(scope="module")
def expected(demo_db: Path) -> dict[str, Any]:
    with open_store(demo_db) as store:
        return {sid: analyse_session(store, sid) for sid in (CLAUDE, DEEPSEEK)}


@pytest.fixture
def window(qtbot: Any, isolated_settings: Path, demo_db: Path) -> Iterator[MainWindow]:
    w = MainWindow(settings=Settings(), remember_layout=False)
    qtbot.addWidget(w)
    w.resize(1400, 900)
    install_cache_view(w)
    w.show()
    with qtbot.waitSignal(w.openFinished, timeout=30000):
        w.open_database(demo_db)
    qtbot.waitUntil(lambda: w.cache_view.sessions_loaded, timeout=10000)
    yield w
    w.shutdown()


def analyse(qtbot: Any, view: CacheView, session_id: str) -> None:
    with qtbot.waitSignal(view.finished, timeout=30000, check_params_cb=lambda sid: sid == session_id):
        view.open_session(session_id)


def key(pair: Any) -> tuple:
    return (pair.event_id, pair.previous_event_id, pair.kind)


def test_the_table_fills_progressively_and_holds_every_pair(qtbot: Any, window: MainWindow,
                                                            expected: dict[str, Any], monkeypatch: Any) -> None:
    import ui.views.cache_view as cv

    view = window.cache_view
    monkeypatch.setattr(cv, "BATCH_SECONDS", 0.0)  # one batch per pair: progress is observable
    batches: list[int] = []
    rows_seen: list[int] = []
    view.pairsAdded.connect(lambda n: (batches.append(n), rows_seen.append(view.model.rowCount())))
    analyse(qtbot, view, DEEPSEEK)
    want = expected[DEEPSEEK].pairs
    assert len(batches) > 1 and sum(batches) == len(want)
    assert rows_seen[0] < rows_seen[-1]  # runtimes appeared while it ran
    assert [key(p) for p in view.model.pairs] == [key(p) for p in want]
    # Columns are the session's turns by number; each turn pair sits in its runtime's row.
    with open_store(window.path) as store:
        turns = [(t.number, t.turn_id) for t in store.turns(DEEPSEEK)]
    assert view.model.turns == turns
    runtimes = list(dict.fromkeys(p.runtime_id for p in want))
    assert [view.model.row_key(r)[0] for r in range(view.model.rowCount())] == runtimes
    for pair in (p for p in want if p.kind == "turn"):
        row = runtimes.index(pair.runtime_id)
        col = [t for _n, t in turns].index(pair.turn_id)
        shown = view.model.index(row, col)
        assert view.model.pair_at(shown).event_id == pair.event_id
        assert view.model.headerData(col, Qt.Orientation.Horizontal) == str(turns[col][0])
    assert "analysed in" in view.status_text and "two processes" not in view.status_text


def test_a_short_session_leaves_its_table_width_to_the_findings_until_the_user_moves_it(
        qtbot: Any, window: MainWindow) -> None:
    from ui.views.cache_view import TABLE_SHARE

    window.cache_dock.show()
    view = window.cache_view
    analyse(qtbot, view, CLAUDE)
    qtbot.waitUntil(lambda: sum(view.upper.sizes()) > 0, timeout=5000)
    table, total = view.table, sum(view.upper.sizes())
    columns = table.verticalHeader().sizeHint().width() + table.horizontalHeader().length()
    assert columns < total * TABLE_SHARE[1]  # six turns: narrower than its largest share
    width = view.upper.sizes()[0]
    assert width >= columns and width <= max(columns + 40, int(total * TABLE_SHARE[0]) + 1)
    view.upper.setSizes([300, total - 300])
    view.upper.splitterMoved.emit(300, 1)  # what a drag of the handle says
    view.open_session(DEEPSEEK)  # another session: its table is measured again, the split is kept
    qtbot.waitUntil(lambda: not view.running, timeout=30000)
    assert view.upper.sizes()[0] == 300


def test_cells_are_coloured_by_shared_share(qtbot: Any, window: MainWindow) -> None:
    view = window.cache_view
    analyse(qtbot, view, DEEPSEEK)
    model = view.model
    shares = []
    for r in range(model.rowCount()):
        for c in range(model.columnCount()):
            index = model.index(r, c)
            pair = model.pair_at(index)
            if pair is None or pair.reason == "cold-start":
                continue
            share = pair.shared_tokens / pair.total_tokens
            assert model.data(index) == f"{share * 100:.0f}"
            assert model.data(index, Qt.ItemDataRole.BackgroundRole).color() == share_colour(share, model.dark)
            assert "Reason:" in model.data(index, Qt.ItemDataRole.ToolTipRole)
            shares.append((share, model.data(index, Qt.ItemDataRole.BackgroundRole).color().hueF()))
    shares.sort()
    low, high = shares[0], shares[-1]
    assert high[0] > low[0] + 0.3 and high[1] > low[1]  # greener as more is shared


def test_tool_loop_steps_toggle_adds_rows(qtbot: Any, window: MainWindow, expected: dict[str, Any]) -> None:
    view = window.cache_view
    analyse(qtbot, view, CLAUDE)
    before = view.model.rowCount()
    view.steps_box.setChecked(True)
    loops = [p for p in expected[CLAUDE].pairs if p.kind == "tool-loop"]
    assert loops
    assert view.model.rowCount() == before + len({(p.runtime_id, p.step, p.attempt) for p in loops})
    for pair in loops:
        assert view.model.pair_at(view.model.index_of(pair)).event_id == pair.event_id


def _marked_offset(pane: Any) -> int:
    sels = pane.editor.extraSelections()
    assert len(sels) == 1 and sels[0].format.background().color() == MARK_COLOUR
    shown = pane.shown_text()
    display_index = utf16_to_index(shown, sels[0].cursor.selectionStart())
    return pane.editor.display.display_to_source(display_index)


def test_a_cell_opens_the_pair_with_the_divergence_at_the_cores_offset(qtbot: Any, window: MainWindow) -> None:
    view = window.cache_view
    analyse(qtbot, view, CLAUDE)
    # History pairs whose differing part is one whole message: the aligned part is the part the
    # analysis compared, so its offset must be hit exactly.
    pairs = [p for p in view.model.pairs if p.kind == "turn" and p.region == "history" and p.now]
    assert pairs
    checked = 0
    for pair in pairs[:4]:
        index = view.model.index_of(pair)
        with qtbot.waitSignal(view.pair_view.loaded, timeout=30000):
            view.table.setCurrentIndex(index)
        pv = view.pair_view
        d = pv.comparison.first_difference
        assert d is not None and d.right_row is not None
        # One answer: the comparison names the analysis's point.
        assert (d.path, d.offset, d.was, d.now) == (pair.first_difference, pair.offset, pair.was, pair.now)
        row = pv.comparison.rows[d.right_row]
        assert pv.compare.table.currentItem() is pv.compare.table.topLevelItem(d.row_index)
        text = row.right_text
        assert pv.compare.right_pane.text() == text
        marked = _marked_offset(pv.compare.right_pane)
        assert marked == d.right_offset
        # The surrounding text is the analysis's excerpt, around the same character.
        k = context_point(pair.now, pair.offset)
        assert text[d.right_offset - k:d.right_offset - k + len(pair.now)] == pair.now[:len(text) - d.right_offset + k]
        if utf16_len(text[:marked]) == pair.offset:
            checked += 1
        assert pair.first_difference.split(" › ")[0] in pv.header.text()
    assert checked >= 1


def test_the_aligned_table_marks_the_analysis_first_difference(qtbot: Any, window: MainWindow) -> None:
    view = window.cache_view
    analyse(qtbot, view, DEEPSEEK)
    # The first turn pair of each runtime: the previous turn's turn context sits where this turn's
    # history grew, so the point lies in different rows on the two sides.
    firsts = {}
    for pair in view.model.pairs:
        if pair.kind == "turn" and pair.previous_event_id is not None:
            firsts.setdefault(pair.runtime_id, pair)
    apart = 0
    for pair in firsts.values():
        with qtbot.waitSignal(view.pair_view.loaded, timeout=30000):
            view.select_pair(pair)
        pv = view.pair_view
        d = pv.comparison.first_difference
        assert d is not None and d.right_row is not None
        assert d.path == pair.first_difference
        table = pv.compare.table
        marked = [i for i in range(table.topLevelItemCount()) if "◀" in table.topLevelItem(i).text(5)]
        assert marked == sorted({d.left_row, d.right_row} - {None})
        assert all(table.topLevelItem(i).font(1).bold() for i in marked)
        summary = pv.compare.summary.text().replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
        assert part_label(d.path) in summary  # the core's path as the UI names it ("user #1" for user #0)
        apart += d.left_row is not None and d.left_row != d.right_row
    assert apart >= 1  # the case a single mark would get wrong did occur


def test_pair_view_finds_a_divergence_inside_a_finer_anatomy_part(qtbot: Any, window: MainWindow) -> None:
    view = window.cache_view
    analyse(qtbot, view, DEEPSEEK)
    pair = next(p for p in view.model.pairs if p.reason == "system-changed" and p.runtime_id == "narrator/main")
    with qtbot.waitSignal(view.pair_view.loaded, timeout=30000):
        view.select_pair(pair)
    d = view.pair_view.comparison.first_difference
    text = view.pair_view.comparison.rows[d.right_row].right_text
    k = context_point(pair.now, pair.offset)
    assert text[d.right_offset] == pair.now[k]
    start = max(0, d.right_offset - k)  # the part may begin inside the excerpt
    assert text[start:d.right_offset] == pair.now[k - (d.right_offset - start):k]
    # The analysis compared the whole system text, the anatomy cuts it finer.
    assert utf16_len(text[:d.right_offset]) != pair.offset
    view.pair_view.show_divergence()
    assert _marked_offset(view.pair_view.compare.right_pane) == d.right_offset


def test_chart_shows_shared_total_predicted_and_reported(qtbot: Any, window: MainWindow,
                                                         expected: dict[str, Any]) -> None:
    view = window.cache_view
    analyse(qtbot, view, DEEPSEEK)
    runtime = "narrator/main"
    row = [view.model.row_key(r)[0] for r in range(view.model.rowCount())].index(runtime)
    col = next(c for c in range(view.model.columnCount()) if view.model.pair_at(view.model.index(row, c)))
    view.table.setCurrentIndex(view.model.index(row, col))
    chart = view.chart
    assert chart.runtime == runtime
    assert len(chart.chart().series()) == 4
    numbers = {t: n for n, t in view.model.turns}
    turn_pairs = [p for p in expected[DEEPSEEK].pairs if p.runtime_id == runtime and p.kind == "turn"]

    def points(series: Any) -> list[tuple[float, float]]:
        return [(pt.x(), pt.y()) for pt in series.points()]

    assert points(chart.total) == [(numbers[p.turn_id], p.total_tokens) for p in turn_pairs]
    assert points(chart.shared) == [(numbers[p.turn_id], p.shared_tokens) for p in turn_pairs]
    assert points(chart.predicted) == [(numbers[p.turn_id], p.predicted_cached_tokens) for p in turn_pairs]
    assert points(chart.reported) == [(numbers[p.turn_id], p.reported_cached_tokens) for p in turn_pairs
                                      if p.reported_cached_tokens is not None]


def test_open_request_selects_it_in_the_navigator(qtbot: Any, window: MainWindow) -> None:
    view = window.cache_view
    analyse(qtbot, view, CLAUDE)
    pair = next(p for p in view.model.pairs if p.kind == "turn" and p.previous_event_id)
    with qtbot.waitSignal(view.pair_view.loaded, timeout=30000):
        view.select_pair(pair)
    with qtbot.waitSignal(window.navigator.revealFinished, timeout=30000) as blocker:
        view.pair_view.open_current.click()
    assert blocker.args == [True]
    assert window.navigator.current_path()[-1] == (nav.REQUEST, pair.event_id)
    with qtbot.waitSignal(window.navigator.revealFinished, timeout=30000):
        view.pair_view.open_previous.click()
    assert window.navigator.current_path()[-1] == (nav.REQUEST, pair.previous_event_id)
    # Double-clicking a cell opens its request too.
    other = next(p for p in view.model.pairs if p.kind == "turn" and p.event_id != pair.event_id)
    with qtbot.waitSignal(window.navigator.revealFinished, timeout=30000):
        view.table.doubleClicked.emit(view.model.index_of(other))
    assert window.navigator.current_path()[-1] == (nav.REQUEST, other.event_id)


def test_findings_are_listed_with_their_part(qtbot: Any, window: MainWindow, expected: dict[str, Any]) -> None:
    view = window.cache_view
    analyse(qtbot, view, CLAUDE)
    want = expected[CLAUDE].findings
    tree = view.findings.tree
    assert want and tree.topLevelItemCount() == len(want)
    for i, f in enumerate(want):
        item = tree.topLevelItem(i)
        assert item.text(2) == f.part
        assert item.text(3) == f"{f.count}/{f.out_of}"
        assert item.toolTip(0) == f.message
    # Selecting a finding selects the first turn it concerns.
    target = next(i for i, f in enumerate(want) if f.turn_ids)
    tree.setCurrentItem(tree.topLevelItem(target))
    assert view.findings.message.text().startswith(want[target].message)
    current = view.model.pair_at(view.table.currentIndex())
    assert current is not None and current.turn_id == want[target].turn_ids[0]
    assert current.runtime_id == want[target].runtime_id


def test_switching_session_cancels_the_running_analysis(qtbot: Any, window: MainWindow,
                                                         expected: dict[str, Any]) -> None:
    view = window.cache_view
    finished: list[str] = []
    view.finished.connect(finished.append)
    view.open_session(DEEPSEEK)
    first = view.job
    assert first is not None
    analyse(qtbot, view, CLAUDE)
    assert first.cancelled and first in view.cancelled_jobs
    assert finished == [CLAUDE]
    qtbot.waitUntil(lambda: window.tasks.pending == 0, timeout=30000)
    assert finished == [CLAUDE]
    assert {p.session_id for p in view.model.pairs} == {CLAUDE}
    assert len(view.model.pairs) == len(expected[CLAUDE].pairs)
    # Back to the first session: analysed again (it never finished), and then kept.
    analyse(qtbot, view, DEEPSEEK)
    assert len(view.model.pairs) == len(expected[DEEPSEEK].pairs)
    analyse(qtbot, view, CLAUDE)
    assert view.job is None  # the finished analysis was reused, nothing ran


def test_the_view_menu_action_opens_the_navigator_session(qtbot: Any, window: MainWindow) -> None:
    with qtbot.waitSignal(window.navigator.revealFinished, timeout=30000):
        window.navigator.reveal([(nav.SESSION, CLAUDE)])
    assert window.cache_action.shortcut().toString() == "Ctrl+2"
    with qtbot.waitSignal(window.cache_view.finished, timeout=30000) as blocker:
        window.cache_action.trigger()
    assert blocker.args == [CLAUDE]
    assert window.cache_dock.isVisible()
    assert window.cache_view.session_box.currentData() == CLAUDE


def test_the_route_of_a_busy_prefix_is_shown_with_the_providers_limit(qtbot: Any, window: MainWindow,
                                                                       demo_db: Path) -> None:
    with open_store(demo_db) as store:
        pair = next(p for p in analyse_session(store, "demo-lantern-openai").pairs if p.routing_rate is not None)
    calm = dataclasses.replace(pair, routing_rate=15)
    busy = dataclasses.replace(pair, routing_rate=16)
    assert not calm.routing_over_limit and busy.routing_over_limit
    assert "Route: 16 requests in the minute up to this one" in pair_tooltip(busy)
    assert "above ~15" in pair_tooltip(busy)
    header = window.cache_view.pair_view._header_html
    assert "<b>Route: 16 requests" in header(busy, None)
    assert "Route: 15 requests" in header(calm, None) and "<b>Route" not in header(calm, None)


def test_an_analysis_shared_with_the_worker_fills_the_same_table(qtbot: Any, window: MainWindow,
                                                                 expected: dict[str, Any]) -> None:
    from inspector.cache import worker as cache_worker

    started = cache_worker.start_worker(idle_stop_s=None)  # not stopped for idling between tests
    try:
        assert started.wait_ready(120), started.failure
        view = window.cache_view
        view.open_session(DEEPSEEK)
        analyse(qtbot, view, CLAUDE)  # cancels the first, which the worker was sharing
        qtbot.waitUntil(lambda: window.tasks.pending == 0 and not started.busy, timeout=30000)
        assert [p.to_json() for p in view.model.pairs] == [p.to_json() for p in expected[CLAUDE].pairs]
        analyse(qtbot, view, DEEPSEEK)
        assert view._analyser is not None and view._analyser.shared_with_worker
        assert "by two processes" in view.status_text
        assert [p.to_json() for p in view.model.pairs] == [p.to_json() for p in expected[DEEPSEEK].pairs]
        assert started.alive and not started.broken
    finally:
        cache_worker.stop_worker()


def test_confidence_and_the_providers_verdict_are_shown(qtbot: Any, window: MainWindow, demo_db: Path) -> None:
    with open_store(demo_db) as store:
        pair = next(p for p in analyse_session(store, CLAUDE).pairs if p.reason != "cold-start")
    assert pair.confidence == "certain" and pair.provider_miss_reason is None
    header = window.cache_view.pair_view._header_html
    assert "Confidence: certain" in header(pair, None) and "Confidence" not in pair_tooltip(pair)
    uncertain = dataclasses.replace(pair, confidence="uncertain")
    assert "Confidence: <b>uncertain</b>" in header(uncertain, None)
    assert "Confidence: <b>uncertain</b>" in pair_tooltip(uncertain)
    told = dataclasses.replace(pair, provider_miss_reason="messages_changed", provider_missed_tokens=1200)
    for text in (header(told, None), pair_tooltip(told)):
        assert "Provider's verdict: <b>messages_changed</b> (1,200 input tokens missed)" in text
        assert "disagree" not in text
    disagreeing = dataclasses.replace(told, verdicts_disagree=True)
    assert "<b>Our reason and the provider's disagree.</b>" in header(disagreeing, None)
    assert "<b>Our reason and the provider's disagree.</b>" in pair_tooltip(disagreeing)


def test_an_uncertain_pair_is_marked_in_the_table(qtbot: Any, window: MainWindow) -> None:
    view = window.cache_view
    analyse(qtbot, view, DEEPSEEK)
    model = view.model
    index = next(model.index(r, c) for r in range(model.rowCount()) for c in range(model.columnCount())
                 if model.pair_at(model.index(r, c)) is not None
                 and model.pair_at(model.index(r, c)).reason != "cold-start")
    pair = model.pair_at(index)
    plain = model.data(index)
    pair.confidence = "uncertain"
    assert model.data(index) == "≈" + plain


def test_the_status_line_gives_the_sessions_input_cost_by_billing_class(qtbot: Any, window: MainWindow,
                                                                         expected: dict[str, Any]) -> None:
    from inspector.cache.session_totals import session_cost_classes
    from ui.views.findings_list import finding_title

    view = window.cache_view
    analyse(qtbot, view, CLAUDE)
    classes = session_cost_classes(expected[CLAUDE].findings)
    assert classes.priced
    assert f"input cost ${classes.total_usd:,.4f}" in view.status_text
    tip = view.status_tip.splitlines()
    assert tip[0] == f"The input of {classes.requests} priced requests by billing class:"
    assert [line.split(":")[0] for line in tip[1:]] == ["uncached input", "cache read", "5-minute write",
                                                         "1-hour write"]
    # Every finding kind the core makes has a title of its own, not its id.
    for f in expected[CLAUDE].findings:
        assert finding_title(f.kind) != f.kind


def _new_window(qtbot: Any, db: Path) -> MainWindow:
    w = MainWindow(settings=Settings(), remember_layout=False)
    qtbot.addWidget(w)
    install_cache_view(w)
    w.show()
    with qtbot.waitSignal(w.openFinished, timeout=30000):
        w.open_database(db)
    qtbot.waitUntil(lambda: w.cache_view.sessions_loaded, timeout=10000)
    return w


def test_a_session_analysed_before_is_shown_whole_at_once(qtbot: Any, window: MainWindow, isolated_settings: Path,
                                                          demo_db: Path, expected: dict[str, Any],
                                                          kept_folder: Path) -> None:
    analyse(qtbot, window.cache_view, DEEPSEEK)
    assert len(list(kept_folder.rglob("*.kept"))) == 1
    again = _new_window(qtbot, demo_db)  # as the app started anew would
    try:
        view = again.cache_view
        batches: list[int] = []
        view.pairsAdded.connect(batches.append)
        with qtbot.waitSignal(view.finished, timeout=30000):
            view.open_session(DEEPSEEK)
        # Read back off the GUI thread and shown in one piece: no analysis ran or runs.
        assert view.job is None and view.from_kept and view._analyser is None
        assert batches == [len(expected[DEEPSEEK].pairs)]
        assert [p.to_json() for p in view.model.pairs] == [p.to_json() for p in expected[DEEPSEEK].pairs]
        assert [f.to_json() for f in view.analysis.findings] == [f.to_json() for f in expected[DEEPSEEK].findings]
        assert view.model.turns == window.cache_view.model.turns
        assert "read back from the kept analysis" in view.status_text
        assert window.tasks.pending == 0
    finally:
        again.shutdown()


def test_rows_appended_since_are_analysed_after_the_kept_table_is_shown(
        qtbot: Any, isolated_settings: Path, demo_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The kept table is shown at once; the rows written since are then read alone, from the kept
    file's resume state (no whole analysis runs), and the table merged."""
    import shutil
    import sqlite3
    from contextlib import closing

    db = tmp_path / "growing.db"
    shutil.copy(demo_db, db)
    db.chmod(0o644)
    with closing(sqlite3.connect(db)) as con:
        (turn,) = con.execute("SELECT turn_id FROM trace_events WHERE session_id = ? "
                              "ORDER BY created_at DESC, seq DESC LIMIT 1",
                              (DEEPSEEK,)).fetchone()
        cur = con.execute("SELECT * FROM trace_events WHERE turn_id = ? ORDER BY seq", (turn,))
        cols, rows = [d[0] for d in cur.description], cur.fetchall()
        con.execute("DELETE FROM trace_events WHERE turn_id = ?", (turn,))
        con.commit()
    first = _new_window(qtbot, db)
    try:
        analyse(qtbot, first.cache_view, DEEPSEEK)
        before = [p.to_json() for p in first.cache_view.model.pairs]
    finally:
        first.shutdown()
    with closing(sqlite3.connect(db)) as con:
        con.executemany(f"INSERT INTO trace_events ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)})", rows)
        con.commit()
    with open_store(db) as store:
        want = analyse_session(store, DEEPSEEK)
    second = _new_window(qtbot, db)

    def whole_analysis(self: SessionCacheAnalyser) -> Any:
        raise AssertionError("the session was analysed whole")

    try:
        view = second.cache_view
        whole = SessionCacheAnalyser.pairs
        monkeypatch.setattr(SessionCacheAnalyser, "pairs", whole_analysis)
        with qtbot.waitSignal(view.finished, timeout=30000):
            view.open_session(DEEPSEEK)
        assert [p.to_json() for p in view.model.pairs] == before  # the kept table, at once
        assert view.job is not None and "analysing the rows written since" in view.status_text
        with qtbot.waitSignal(view.finished, timeout=60000):
            pass
        monkeypatch.setattr(SessionCacheAnalyser, "pairs", whole)
        assert {p.event_id: p.to_json() for p in view.model.pairs} == {p.event_id: p.to_json() for p in want.pairs}
        # The whole analysis the view holds (what it exports) is in a fresh analysis's order.
        assert [p.to_json() for p in view.analysis.pairs] == [p.to_json() for p in want.pairs]
        assert [f.to_json() for f in view.analysis.findings] == [f.to_json() for f in want.findings]
        assert len(want.pairs) > len(before) and not view.from_kept and not view._analyser.restarted
    finally:
        second.shutdown()
    third = _new_window(qtbot, db)  # the whole analysis made then was kept
    try:
        with qtbot.waitSignal(third.cache_view.finished, timeout=30000):
            third.cache_view.open_session(DEEPSEEK)
        assert third.cache_view.job is None and third.cache_view.from_kept
        assert [p.to_json() for p in third.cache_view.model.pairs] == [p.to_json() for p in want.pairs]
    finally:
        third.shutdown()


def test_a_damaged_kept_file_is_said_once_and_the_session_analysed(qtbot: Any, window: MainWindow,
                                                                   isolated_settings: Path, demo_db: Path,
                                                                   expected: dict[str, Any],
                                                                   kept_folder: Path) -> None:
    analyse(qtbot, window.cache_view, CLAUDE)
    (path,) = kept_folder.rglob("*.kept")
    path.write_bytes(path.read_bytes()[:-10])
    again = _new_window(qtbot, demo_db)
    try:
        view = again.cache_view
        analyse(qtbot, view, CLAUDE)
        assert not view.from_kept
        assert "the kept analysis was ignored" in view.status_text and str(path) in view.status_tip
        assert [p.to_json() for p in view.model.pairs] == [p.to_json() for p in expected[CLAUDE].pairs]
    finally:
        again.shutdown()


def test_nothing_is_kept_when_the_view_keeps_nothing(qtbot: Any, window: MainWindow, kept_folder: Path) -> None:
    view = window.cache_view
    view.keep_results = False
    analyse(qtbot, view, CLAUDE)
    assert not kept_folder.exists() or not list(kept_folder.rglob("*.kept"))


def test_analysing_a_session_asks_for_the_worker_with_its_request_count(qtbot: Any, window: MainWindow,
                                                                        demo_db: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker starts for the analysis of a big session (inspector.cache.worker.worker_for_session
    decides from the count), not when the store opens."""
    from inspector.cache import worker as cache_worker
    from ui.views import cache_view as cache_view_module

    asked: list[Any] = []
    monkeypatch.setattr(cache_view_module, "worker_for_session", lambda requests: asked.append(requests))
    with open_store(demo_db) as store:
        counts = {row["sessionId"]: row["llmCalls"] for row in views.session_rows(store)}
    view = window.cache_view
    view.keep_results = False
    analyse(qtbot, view, CLAUDE)
    assert asked == [counts[CLAUDE]]
    assert cache_worker.worker_for_session(counts[CLAUDE]) is None  # the demo's sessions are small


def test_the_status_line_shows_the_parts_that_fit_and_the_rest_in_its_tooltip(qtbot: Any, window: MainWindow) -> None:
    view = window.cache_view
    view.keep_results = False
    analyse(qtbot, view, CLAUDE)
    whole = view.status_text
    parts = whole.split(" · ")
    assert len(parts) >= 4
    metrics = view.status.fontMetrics()
    view.status.setFixedWidth(metrics.horizontalAdvance(" · ".join(parts[:2]) + " · …") + 2)
    view._fit_status()
    assert view.status.text() == (" · ".join(parts[:2]) + " · …").replace("&", "&amp;")
    assert view.status.toolTip().splitlines()[:len(parts) - 2] == parts[2:]
    view.status.setMinimumWidth(0)
    view.status.setMaximumWidth(16777215)
    view.status.setFixedWidth(metrics.horizontalAdvance(whole) + 8)
    view._fit_status()
    assert view.status.text() == whole.replace("&", "&amp;")  # all of it fits: nothing hidden
