"""The main window and the launcher: opening, errors, drop, recent files, reload, screenshot, i18n."""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QImage
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox, QWidget

import ui.app as app_module
from inspector import views
from inspector.error_boundary import EXIT_BAD_INPUT
from inspector.store import StoreError, open_store
from ui import i18n
from ui.models import navigator_nodes as nav
from ui.views.formats import format_number
from ui.windows.main_window import MainWindow
from ui.settings import MAX_RECENT, Settings

from covel_sample import build_sample_store


@pytest.fixture
def window(qtbot: Any, isolated_settings: Path, errors: list[tuple[str, str]]) -> Iterator[MainWindow]:
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1100, 700)
    win.show()
    yield win
    win.shutdown()


def open_and_wait(qtbot: Any, win: MainWindow, path: Path, *, ok: bool = True) -> None:
    with qtbot.waitSignal(win.openFinished, timeout=10000) as blocker:
        win.open_database(path)
    assert blocker.args == [ok]


def test_open_shows_title_counts_and_overview(qtbot: Any, window: MainWindow, covel_db: Path) -> None:
    open_and_wait(qtbot, window, covel_db)
    assert window.windowTitle() == "covel.db — Prompt Inspector"
    with open_store(covel_db) as store:
        totals = views.store_totals(store)
    text = window.counts_label.text()
    assert f"{totals['sessions']:,} sessions" in text and f"{totals['requests']:,} requests" in text
    assert window.overview.kind == "store"
    assert window.overview.value("Model requests") == f"{totals['requests']:,}"
    qtbot.waitUntil(lambda: window.tasks.pending == 0)
    assert not window.progress.isVisible()


def test_selection_shows_request_row_and_reaches_request_view(qtbot: Any, window: MainWindow,
                                                                covel_db: Path) -> None:
    open_and_wait(qtbot, window, covel_db)

    class RequestView(QMessageBox):
        def __init__(self) -> None:
            super().__init__()
            self.shown: list[str] = []

        def show_request(self, event_id: str) -> None:
            self.shown.append(event_id)

    view = RequestView()
    window.set_request_view(view)
    with open_store(covel_db) as store:
        row = views.request_rows(store)[0]
    with qtbot.waitSignal(window.navigator.requestSelected, timeout=10000):
        window.navigator.select_request(row["eventId"])
    assert view.shown == [row["eventId"]]
    assert window.centre.currentWidget() is view
    assert window.overview.value("Event id") == row["eventId"]
    assert window.overview.value("Model") == (row["model"] or "—")
    assert window.overview.value("Input tokens") == (format_number(row["inputTokens"]) or "—")
    window.overview_action.trigger()
    assert window.centre.currentWidget() is window.overview

    # Selecting a turn returns to its facts.
    window.navigator.tree.setCurrentIndex(window.navigator.tree.currentIndex().parent().parent())
    assert window.centre.currentWidget() is window.overview
    assert window.overview.kind == nav.TURN
    assert window.overview.value("Turn id") == row["turnId"]


def test_reload_keeps_the_selection(qtbot: Any, window: MainWindow, covel_db: Path) -> None:
    open_and_wait(qtbot, window, covel_db)
    with open_store(covel_db) as store:
        row = views.request_rows(store)[-1]
    with qtbot.waitSignal(window.navigator.revealFinished, timeout=10000):
        window.navigator.select_request(row["eventId"])
    before = window.navigator.current_path()
    old_store = window.store
    with qtbot.waitSignal(window.navigator.revealFinished, timeout=10000) as blocker:
        window.reload_action.trigger()
    assert blocker.args == [True]
    assert window.store is not old_store
    assert old_store.closed
    assert window.navigator.current_path() == before


def test_not_a_database_shows_reason_and_keeps_previous(qtbot: Any, window: MainWindow, covel_db: Path,
                                                         tmp_path: Path, errors: list[tuple[str, str]]) -> None:
    open_and_wait(qtbot, window, covel_db)
    previous = window.store
    bogus = tmp_path / "notes.db"
    bogus.write_text("this is not sqlite\n" * 50)
    with pytest.raises(StoreError) as reason:
        open_store(bogus)
    open_and_wait(qtbot, window, bogus, ok=False)
    assert len(errors) == 1
    title, text = errors[0]
    assert title == "Cannot open database"
    assert str(bogus) in text and str(reason.value) in text
    assert window.store is previous and not previous.closed
    assert window.windowTitle() == "covel.db — Prompt Inspector"


@pytest.mark.parametrize("content", [b"", None])
def test_empty_or_missing_file_is_an_error_dialog(qtbot: Any, window: MainWindow, tmp_path: Path,
                                                  errors: list[tuple[str, str]], content: bytes | None) -> None:
    target = tmp_path / "covel.db"
    if content is not None:
        target.write_bytes(content)
    open_and_wait(qtbot, window, target, ok=False)
    assert errors and str(target) in errors[0][1]
    assert window.store is None
    assert window.windowTitle() == "Prompt Inspector"


def test_sqlite_without_trace_events_is_an_error(qtbot: Any, window: MainWindow, tmp_path: Path,
                                                 errors: list[tuple[str, str]]) -> None:
    import sqlite3

    target = tmp_path / "other.db"
    with sqlite3.connect(target) as conn:
        conn.execute("CREATE TABLE notes (id INTEGER)")
    conn.close()
    open_and_wait(qtbot, window, target, ok=False)
    assert "trace_events" in errors[0][1]


def _drop(win: MainWindow, path: Path) -> tuple[bool, bool]:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    centre = QPointF(win.rect().center())
    # QDragEnterEvent takes a QPoint (PySide6 ≤ 6.11) or a QPointF (6.12); a QPoint works for both.
    enter = QDragEnterEvent(win.rect().center(), Qt.DropAction.CopyAction, mime,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(win, enter)
    drop = QDropEvent(centre, Qt.DropAction.CopyAction, mime,
                      Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(win, drop)
    return enter.isAccepted(), drop.isAccepted()


def test_drop_a_file_to_open_it(qtbot: Any, window: MainWindow, covel_db: Path) -> None:
    with qtbot.waitSignal(window.openFinished, timeout=10000) as blocker:
        accepted = _drop(window, covel_db)
    assert accepted == (True, True)
    assert blocker.args == [True]
    assert window.path == covel_db


def test_drag_without_files_is_refused(window: MainWindow) -> None:
    mime = QMimeData()
    mime.setText("hello")
    enter = QDragEnterEvent(window.rect().center(), Qt.DropAction.CopyAction, mime,
                            Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(window, enter)
    assert not enter.isAccepted()


def test_recent_files_newest_first_capped_and_pruned(qtbot: Any, window: MainWindow, tmp_path: Path) -> None:
    first = build_sample_store(tmp_path / "first.db", turns=1)
    second = build_sample_store(tmp_path / "second.db", turns=1)
    open_and_wait(qtbot, window, first)
    open_and_wait(qtbot, window, second)
    open_and_wait(qtbot, window, first)
    assert Settings().recent_files() == [str(first.resolve()), str(second.resolve())]
    assert [a.data() for a in window.recent_actions()] == [str(first.resolve()), str(second.resolve())]

    # Choosing an entry opens it.
    with qtbot.waitSignal(window.openFinished, timeout=10000):
        window.recent_actions()[1].trigger()
    assert window.path == Path(str(second.resolve()))

    second.unlink()
    window.recent_menu.aboutToShow.emit()
    assert [a.data() for a in window.recent_actions()] == [str(first.resolve())]
    assert "second.db" in window.statusBar().currentMessage()
    assert Settings().recent_files() == [str(first.resolve())]

    settings = Settings()
    for i in range(MAX_RECENT + 3):
        settings.add_recent(tmp_path / f"n{i}.db")
    assert len(settings.recent_files()) == MAX_RECENT
    assert settings.recent_files()[0].endswith(f"n{MAX_RECENT + 2}.db")


def test_shortcuts(window: MainWindow) -> None:
    def keys(action: Any) -> set[str]:
        return {k.toString() for k in action.shortcuts()}

    assert "Ctrl+O" in keys(window.open_action)
    assert "Ctrl+Q" in keys(window.quit_action)
    assert "Ctrl+F" in keys(window.find_action)
    assert "F5" in keys(window.reload_action)
    window.find_action.trigger()
    assert window.navigator.search.hasFocus() or QCoreApplication.instance().focusWidget() in (
        None, window.navigator.search)


def test_no_display_prints_a_message(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    assert app_module.run_app([]) == 2
    err = capsys.readouterr().err
    assert "no display available" in err and "QT_QPA_PLATFORM=offscreen" in err and "prompt-inspector --help" in err
    assert app_module.display_available({"DISPLAY": ":0"}, "linux")
    assert app_module.display_available({}, "win32")


def _variance(image: QImage) -> float:
    values = []
    step = max(1, image.width() // 60)
    for y in range(0, image.height(), step):
        for x in range(0, image.width(), step):
            values.append(image.pixelColor(x, y).lightness())
    mean = sum(values) / len(values)
    return sum((v - mean) ** 2 for v in values) / len(values)


def test_the_overview_of_a_followed_store_changes_only_its_figures(qtbot: Any, window: MainWindow,
                                                                   covel_db: Path) -> None:
    open_and_wait(qtbot, window, covel_db)
    grid = window.overview._grid
    before = [grid.itemAt(i).widget() for i in range(grid.count())]
    info = dict(window._store_info, totals={**window._store_info["totals"], "requests": 123_456})
    window.overview.show_store(info)
    assert [grid.itemAt(i).widget() for i in range(grid.count())] == before
    assert window.overview.value("Model requests") == "123,456"
    assert any(isinstance(w, QLabel) and w.text() == "123,456" for w in before)


def test_quiet_jobs_do_not_show_the_busy_indicator(qtbot: Any, window: MainWindow) -> None:
    counts: list[int] = []
    window.tasks.busyChanged.connect(counts.append)
    done: list[int] = []
    window.tasks.run(lambda _job: 1, done.append, quiet=True)
    assert window.tasks.pending == 1 and window.tasks.busy == 0
    qtbot.waitUntil(lambda: done == [1])
    window.tasks.run(lambda _job: 2, done.append)
    qtbot.waitUntil(lambda: done == [1, 2])
    assert counts == [1, 0]


def test_a_large_store_opens_without_event_counts_and_fills_them_in(
        qtbot: Any, window: MainWindow, covel_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import inspector.store.sessions as store_sessions

    with open_store(covel_db) as store:
        expected = {row["sessionId"]: row["events"] for row in views.session_rows(store)}
    monkeypatch.setattr(store_sessions, "EVENT_COUNT_LIMIT", 0)  # every store counts as large
    open_and_wait(qtbot, window, covel_db)
    sessions = window.navigator.model.root.children
    qtbot.waitUntil(lambda: all(s.data.get("events") is not None for s in sessions), timeout=5000)
    assert {s.key: s.data["events"] for s in sessions} == expected


def test_screenshot_writes_a_non_blank_png(qtbot: Any, isolated_settings: Path, covel_db: Path,
                                           tmp_path: Path) -> None:
    with open_store(covel_db) as store:
        row = views.request_rows(store)[-1]
    out = tmp_path / "shot.png"
    code = app_module.run_app([str(covel_db), "--screenshot", str(out), "--select", row["eventId"],
                               "--size", "1000x640"])
    assert code == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1000, 640)
    assert _variance(image) > 100


@pytest.mark.parametrize("flag", ["--order-editor", "--blocks-editor"])
def test_an_editor_opens_alone_and_screenshots(qtbot: Any, isolated_settings: Path, tmp_path: Path, flag: str) -> None:
    out = tmp_path / "editor.png"
    assert app_module.run_app([flag, "--screenshot", str(out), "--size", "1200x760"]) == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1200, 760)
    assert _variance(image) > 100


def test_an_editor_given_a_missing_file_reports_it(qtbot: Any, isolated_settings: Path, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "editor.png"
    missing = tmp_path / "nowhere.toml"
    assert app_module.run_app(["--blocks-editor", str(missing), "--screenshot", str(out)]) == 1
    assert "nowhere.toml" in capsys.readouterr().err
    assert _variance(QImage(str(out))) > 100  # the sample is shown instead of an empty window
    not_json = tmp_path / "order.json"
    not_json.write_text("this is not a table", encoding="utf-8")
    assert app_module.run_app(["--order-editor", str(not_json), "--screenshot", str(out)]) == 1
    assert "order.json" in capsys.readouterr().err


def test_tools_menu_opens_both_editors(qtbot: Any, window: MainWindow) -> None:
    from ui.order_editor import OrderEditorWindow
    from ui.zones_editor import ZonesEditorWindow

    window.order_editor_action.trigger()
    window.blocks_editor_action.trigger()
    editors = [w for w in window.findChildren(QWidget) if isinstance(w, (OrderEditorWindow, ZonesEditorWindow))]
    assert {type(w) for w in editors} == {OrderEditorWindow, ZonesEditorWindow}
    for editor in editors:
        qtbot.waitUntil(editor.isVisible)
        assert editor.isWindow()
        editor.close()


def test_screenshot_of_the_demo_uses_the_cache(qtbot: Any, isolated_settings: Path, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "cache").mkdir()
    demo = build_sample_store(tmp_path / "cache" / "demo.db", turns=2)
    monkeypatch.setattr(app_module, "demo_path", lambda: demo)
    out = tmp_path / "demo.png"
    assert app_module.run_app(["--screenshot", str(out), "--size", "800x500"]) == 0
    assert QImage(str(out)).width() == 800


def test_demo_is_generated_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import inspector.demo

    calls: list[Path] = []
    real_generate = inspector.demo.generate_demo

    def small_generate(path: Path, **kwargs: Any) -> None:
        calls.append(Path(path))
        real_generate(path, turns=1, overwrite=True)

    monkeypatch.setattr(inspector.demo, "generate_demo", small_generate)
    target = tmp_path / "prompt-inspector" / "demo.db"
    assert app_module.ensure_demo(target) == target
    assert app_module.ensure_demo(target) == target
    assert calls == [target]


def test_bad_select_in_screenshot_mode_fails(qtbot: Any, isolated_settings: Path, covel_db: Path,
                                             tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "shot.png"
    assert app_module.run_app([str(covel_db), "--screenshot", str(out), "--select", "nope"]) == 1
    assert "nope" in capsys.readouterr().err


def test_chinese_translation_loads(qapp: Any) -> None:
    try:
        assert i18n.install_translators(qapp, "zh_CN") == "zh_CN"
        assert QCoreApplication.translate("MainWindow", "&File") == "文件(&F)"
        assert QCoreApplication.translate("Navigator", "Search prompts…") == "搜索提示词…"
    finally:
        i18n.install_translators(qapp, "en")
    assert QCoreApplication.translate("MainWindow", "&File") == "&File"


def test_language_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtCore import QLocale

    assert i18n.choose_language("zh_CN") == "zh_CN"
    assert i18n.choose_language("zh-cn") == "zh_CN"
    assert i18n.choose_language("en") == "en"
    assert i18n.choose_language("", QLocale(QLocale.Language.Chinese, QLocale.Country.China)) == "zh_CN"
    assert i18n.choose_language("", QLocale(QLocale.Language.German)) == "en"


def test_every_ui_string_has_a_chinese_translation() -> None:
    from resources.translations.update_ts import extract, read_ts

    translations = read_ts()
    missing = [(ctx, text) for ctx, text in extract() if not translations.get((ctx, text))]
    assert missing == []


def test_a_stale_cached_demo_is_regenerated(tmp_path):
    import sqlite3

    from inspector.demo import DEMO_FORMAT, demo_format
    from inspector.demo import generate_demo
    from ui.app import ensure_demo

    path = tmp_path / "demo.db"
    generate_demo(path, turns=2)
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA user_version = {DEMO_FORMAT + 100}")  # as an older or newer release left it
    con.commit()
    con.close()
    ensure_demo(path)
    assert demo_format(path) == DEMO_FORMAT
    before = path.stat().st_mtime_ns
    ensure_demo(path)  # current edition: left alone
    assert path.stat().st_mtime_ns == before


def _state(folder: Path, path: Path) -> tuple[str, list[str]]:
    return hashlib.sha256(path.read_bytes()).hexdigest(), sorted(os.listdir(folder))


def test_screenshot_onto_the_database_is_refused(qtbot: Any, isolated_settings: Path, sample_db: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    before = _state(sample_db.parent, sample_db)  # a folder of its own: the settings live beside it
    assert app_module.run_app([str(sample_db), "--screenshot", str(sample_db), "--size", "1000x640"]) == 2
    err = capsys.readouterr().err
    assert err == (f"prompt-inspector: cannot write {sample_db}: it is the input {sample_db}; "
                   "choose another output file\n")
    assert _state(sample_db.parent, sample_db) == before


def test_an_editor_screenshot_onto_its_own_file_is_refused(qtbot: Any, isolated_settings: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from ui.order_editor.window import SAMPLE_ORDER

    order = tmp_path / "order.json"
    shutil.copyfile(SAMPLE_ORDER, order)
    before = _state(tmp_path, order)
    assert app_module.run_app(["--order-editor", str(order), "--screenshot", str(order)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"prompt-inspector: cannot write {order}: it is the input") and err.count("\n") == 1
    assert _state(tmp_path, order) == before


def test_screenshot_replaces_an_old_picture_with_a_valid_png_and_leaves_nothing_else(
        qtbot: Any, isolated_settings: Path, covel_db: Path, tmp_path: Path) -> None:
    (tmp_path / "shots").mkdir()
    out = tmp_path / "shots" / "shot.png"
    out.write_bytes(b"an old picture")
    assert app_module.run_app([str(covel_db), "--screenshot", str(out), "--size", "1000x640"]) == 0
    data = out.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    image = QImage()
    assert image.loadFromData(data, "PNG") and (image.width(), image.height()) == (1000, 640)
    assert _variance(image) > 100
    assert os.listdir(tmp_path / "shots") == ["shot.png"]  # no temporary file left beside it


def test_a_screenshot_that_cannot_be_written_fails_with_one_line(qtbot: Any, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from ui.snapshot import write_screenshot

    label = QWidget()
    qtbot.addWidget(label)
    label.resize(120, 80)
    missing = tmp_path / "nowhere" / "shot.png"
    # The same status as `cache --html` gives for the same failure: bad input.
    assert write_screenshot(label, missing, [], 0) == EXIT_BAD_INPUT == 2
    err = capsys.readouterr().err
    assert err.startswith(f"prompt-inspector: cannot write {missing}: ") and err.count("\n") == 1
    assert not (tmp_path / "nowhere").exists()
    assert write_screenshot(label, tmp_path, [], 0) == EXIT_BAD_INPUT  # a folder
    assert "it is a folder" in capsys.readouterr().err


def test_a_screenshot_to_a_fifo_is_refused_without_hanging(tmp_path: Path) -> None:
    # Reading the output's header to see whether it is a database once blocked on a FIFO for
    # good: run it in a child process, so that a regression fails the test instead of hanging it.
    fifo = tmp_path / "shot.png"
    os.mkfifo(fifo)
    before = sorted(os.listdir(tmp_path))
    code = ("import sys\n"
            "from PySide6.QtWidgets import QApplication, QWidget\n"
            "from ui.snapshot import write_screenshot\n"
            "app = QApplication([])\n"
            "widget = QWidget()\n"
            "widget.resize(40, 30)\n"
            "sys.exit(write_screenshot(widget, sys.argv[1], [], 0))\n")
    done = subprocess.run([sys.executable, "-c", code, str(fifo)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == EXIT_BAD_INPUT, done.stderr
    assert done.stderr.splitlines()[-1] == (f"prompt-inspector: cannot write {fifo}: {fifo} is a named pipe "
                                            "(FIFO), not a regular file: give the path of a file")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and sorted(os.listdir(tmp_path)) == before
