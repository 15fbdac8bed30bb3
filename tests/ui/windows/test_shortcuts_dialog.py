"""Help → Keyboard Shortcuts lists the shortcuts the actions have, not a copy of them."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMainWindow, QWidget

from ui.windows.main_window import MainWindow
from ui.windows.shortcuts_dialog import ShortcutsDialog, plain_text, shortcut_rows, window_shortcuts


def native(key: str) -> str:
    return QKeySequence(key).toString(QKeySequence.SequenceFormat.NativeText)


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
    yield win
    win.shutdown()


def test_every_action_with_a_shortcut_is_listed_under_its_menu_or_view(window: MainWindow) -> None:
    rows = window_shortcuts(window)
    listed = {(r.group, r.text): r.keys for r in rows}
    assert listed[("File", "Open")] == native("Ctrl+O")
    assert listed[("View", "Cache Analysis")] == native("Ctrl+2")
    assert listed[("View", "Turn Stepper")] == native("Ctrl+3")
    assert native("F1") in listed[("Help", "Keyboard Shortcuts")]
    # The stepper's own keys, though it was never opened (it is built for the list).
    assert listed[("Turn Stepper", "Next Event")] == f"{native('Right')}, {native('J')}"
    assert listed[("Turn Stepper", "Fit the Turn in the Timeline")] == native("Ctrl+0")
    # The row actions of trees and tables are not QActions: their module gives them.
    assert any(r.keys == native("Ctrl+C") for r in rows if r.group == "Trees and tables")
    # Menus first, in the menu bar's order.
    groups = list(dict.fromkeys(r.group for r in rows))
    assert groups[:2] == ["File", "Edit"] and groups.index("Help") < groups.index("Turn Stepper")
    # Every action of the window with a shortcut is there, with the keys it has.
    for action in window.findChildren(QAction):
        if action.shortcuts() and action.text():
            keys = ", ".join(k.toString(QKeySequence.SequenceFormat.NativeText) for k in action.shortcuts())
            assert any(r.text == plain_text(action.text()) and r.keys == keys for r in rows), action.text()


def test_an_action_added_from_outside_is_listed_too(window: MainWindow) -> None:
    from ui.windows.goto_dialog import install_go_to

    install_go_to(window)
    rows = {(r.group, r.text): r.keys for r in window_shortcuts(window)}
    assert rows[("Edit", plain_text(window.go_to_action.text()))] == native("Ctrl+G")


def test_a_changed_shortcut_shows_as_changed(window: MainWindow) -> None:
    window.reload_action.setShortcut(QKeySequence("Ctrl+Alt+R"))
    rows = {(r.group, r.text): r.keys for r in window_shortcuts(window)}
    assert rows[("File", "Reload")] == native("Ctrl+Alt+R")


def test_a_view_action_is_grouped_by_its_view_and_the_filter_finds_it(qtbot: Any) -> None:
    win = QMainWindow()
    qtbot.addWidget(win)
    menu = win.menuBar().addMenu("&Tools")
    tool = QAction("&Frobnicate…", win)
    tool.setShortcut(QKeySequence("Ctrl+K"))
    menu.addAction(tool)
    view = QWidget(win)
    view.setWindowTitle("Graph View")
    zoom = QAction("Zoom && Pan", view)
    zoom.setShortcut(QKeySequence("Ctrl+P"))
    view.addAction(zoom)
    plain = QAction("No Keys", view)
    view.addAction(plain)
    rows = shortcut_rows(win)
    assert [(r.group, r.text, r.keys) for r in rows] == [
        ("Tools", "Frobnicate", native("Ctrl+K")), ("Graph View", "Zoom & Pan", native("Ctrl+P"))]
    dialog = ShortcutsDialog(win, rows)
    qtbot.addWidget(dialog)
    assert dialog.visible_rows() == [("Frobnicate", native("Ctrl+K")), ("Zoom & Pan", native("Ctrl+P"))]
    dialog.filter.setText("zoom")
    assert dialog.visible_rows() == [("Zoom & Pan", native("Ctrl+P"))]
    dialog.filter.setText("ctrl+k")
    assert dialog.visible_rows() == [("Frobnicate", native("Ctrl+K"))]
    dialog.filter.setText("graph")  # a group's name finds its rows
    assert dialog.visible_rows() == [("Zoom & Pan", native("Ctrl+P"))]


def test_help_menu_opens_the_dialog(qtbot: Any, window: MainWindow) -> None:
    window.shortcuts_action.trigger()
    dialog = window.findChild(ShortcutsDialog)
    assert dialog is not None and dialog.isVisible()
    assert dialog.tree.topLevelItemCount() >= 5
    dialog.close()


def test_menu_texts_are_shown_without_their_mnemonics() -> None:
    assert plain_text("&Open…") == "Open"
    assert plain_text("Zoom && Pan") == "Zoom & Pan"
    # A translation marks its mnemonic in brackets after the text.
    assert plain_text("文件(&F)") == "文件"
    assert plain_text("打开数据库 URL(&U)…") == "打开数据库 URL"
