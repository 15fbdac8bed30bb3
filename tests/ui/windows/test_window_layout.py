"""The window a user lives in keeps the size the user gave it (issue 19, item 1): opening the cache
dock and the turn stepper never makes it taller or wider, and hiding them leaves it as it was;
splitter sizes a user drags are remembered."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QApplication, QSplitter, QWidget

from inspector.store import open_store
from ui import settings as settings_module
from ui.settings import Settings, remember_splitter, set_layout_memory
from ui.windows.main_window import MainWindow

MAIN = "demo-lantern-deepseek"


@pytest.fixture(autouse=True)
def own_cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The cache analysis keeps its results in the user cache folder: a folder of this test's own.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))


@pytest.fixture
def window(qtbot: Any, isolated_settings: Path) -> Iterator[MainWindow]:
    from ui.views.request_view import attach_request_view
    from ui.windows.cache_dock import install_cache_view
    from ui.windows.turn_dock import install_turn_view

    win = MainWindow(remember_layout=False)
    qtbot.addWidget(win)
    attach_request_view(win)
    install_turn_view(win)
    install_cache_view(win)
    win.resize(1280, 720)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.shutdown()


def settle(qtbot: Any, window: MainWindow) -> QSize:
    for _ in range(5):
        QApplication.processEvents()
        qtbot.wait(20)
    return window.size()


def test_the_cache_dock_and_the_stepper_leave_the_window_size_alone(qtbot: Any, window: MainWindow,
                                                                   demo_store: Path) -> None:
    with qtbot.waitSignal(window.openFinished, timeout=30000):
        window.open_database(demo_store)
    assert settle(qtbot, window) == QSize(1280, 720)
    with open_store(demo_store) as store:
        turn = next(t for t in store.turns(MAIN) if t.number == 2)
        request = store.llm_calls(MAIN, turn.turn_id)[0]
    with qtbot.waitSignal(window.navigator.revealFinished, timeout=30000):
        window.navigator.select_request(request.calling.id)
    assert settle(qtbot, window) == QSize(1280, 720)

    with qtbot.waitSignal(window.cache_view.finished, timeout=60000):
        window.cache_action.trigger()
    assert window.cache_dock.isVisible()
    assert settle(qtbot, window) == QSize(1280, 720)
    # The dock got a useful share of the height, and the centre page kept its own.
    assert window.cache_dock.height() >= 200
    assert window.centre.height() >= window.centre.minimumHeight()

    window.turn_view_action.trigger()
    view = window.turn_view
    qtbot.waitUntil(lambda: view.turn is not None and view.turn.turn_id == turn.turn_id, timeout=30000)
    assert window.centre.currentWidget() is view
    view.step_to(0)
    assert settle(qtbot, window) == QSize(1280, 720)
    # With both open the stepper scrolls as a whole rather than cutting its timeline to one lane.
    assert view.timeline_scroll.viewport().height() >= view.timeline.height()
    assert view.splitter.height() >= view.splitter.minimumHeight() > view.body.viewport().height()

    window.cache_action.trigger()
    assert not window.cache_dock.isVisible()
    assert settle(qtbot, window) == QSize(1280, 720)
    assert window.minimumHeight() < 720 and window.minimumWidth() < 1280


def test_a_page_that_asks_for_more_than_the_window_has_does_not_grow_it(qtbot: Any, window: MainWindow) -> None:
    big = QWidget()
    big.setMinimumSize(1500, 1200)
    window.centre.addWidget(big)
    window.centre.setCurrentWidget(big)
    assert settle(qtbot, window) == QSize(1280, 720)
    window.cache_action.trigger()
    assert settle(qtbot, window) == QSize(1280, 720)


def test_dragged_splitter_sizes_are_remembered(qtbot: Any, isolated_settings: Path) -> None:
    set_layout_memory(True)
    try:
        first = QSplitter(Qt.Orientation.Horizontal)
        qtbot.addWidget(first)
        first.addWidget(QWidget())
        first.addWidget(QWidget())
        first.resize(600, 100)
        first.show()
        assert not remember_splitter(first, "test/split")
        first.moveSplitter(150, 1)  # what a drag does; it emits splitterMoved
        saved = Settings().splitter_sizes("test/split")
        assert saved is not None and saved[0] == 150

        second = QSplitter(Qt.Orientation.Horizontal)
        qtbot.addWidget(second)
        second.addWidget(QWidget())
        second.addWidget(QWidget())
        second.resize(600, 100)
        assert remember_splitter(second, "test/split")
        assert second.sizes()[0] == 150

        three = QSplitter(Qt.Orientation.Horizontal)
        qtbot.addWidget(three)
        for _ in range(3):
            three.addWidget(QWidget())
        # Sizes saved for two panes say nothing about three.
        assert not remember_splitter(three, "test/split")
    finally:
        set_layout_memory(None)


def test_offscreen_screenshots_ignore_saved_sizes(qtbot: Any, isolated_settings: Path) -> None:
    Settings().set_splitter_sizes("test/offscreen", [10, 590])
    assert QApplication.platformName() == "offscreen"
    assert settings_module.layout_memory() is False
    splitter = QSplitter()
    qtbot.addWidget(splitter)
    splitter.addWidget(QWidget())
    splitter.addWidget(QWidget())
    assert not remember_splitter(splitter, "test/offscreen")


def test_the_dock_height_is_remembered(qtbot: Any, window: MainWindow, demo_store: Path) -> None:
    Settings().set_dock_size("cacheDock/height", 260)
    set_layout_memory(True)
    try:
        assert window.cache_dock.wanted_height() == 260
        Settings().set_dock_size("cacheDock/height", 5000)
        # Never so tall that the centre page drops below its minimum.
        assert window.cache_dock.wanted_height() <= 720 - window.centre.minimumHeight()
    finally:
        set_layout_memory(None)
    assert window.cache_dock.wanted_height() == int(
        (720 - window.menuBar().height() - window.statusBar().height()) * 0.5)

