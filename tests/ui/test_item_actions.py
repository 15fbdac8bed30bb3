"""Ctrl+C and the context menu of every tree and table (ui.item_actions)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction, QContextMenuEvent, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QMainWindow,
    QMenu,
    QTableWidget,
    QTableWidgetItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector import views
from inspector.output import dump_json
from inspector.store import Store, open_store
from ui import item_actions
from ui.item_actions import install_item_actions, item_menu
from ui.models import navigator_nodes as nav
from ui.models.item_roles import ID_ROLE, JSON_ROLE, REQUEST_ROLE
from ui.views.navigator import Navigator
from ui.workers import TaskManager


@pytest.fixture(autouse=True)
def installed(qapp: Any) -> Iterator[Any]:
    actions = install_item_actions(qapp)
    yield actions
    QGuiApplication.clipboard().clear()


@pytest.fixture
def store(covel_db: Path) -> Iterator[Store]:
    with open_store(covel_db) as s:
        yield s


@pytest.fixture
def navigator(qtbot: Any, store: Store) -> Iterator[Navigator]:
    tasks = TaskManager()
    widget = Navigator(tasks)
    qtbot.addWidget(widget)
    widget.resize(700, 500)
    widget.show()
    widget.set_store(store, views.session_rows(store))
    yield widget
    widget.clear()
    tasks.shutdown()


def _copy(qtbot: Any, view: QAbstractItemView) -> str:
    install_item_actions().watch(view)  # as when it takes the focus (tested below)
    view.setFocus()
    QGuiApplication.clipboard().clear()
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    return QGuiApplication.clipboard().text()


def test_installing_twice_installs_one_handler(qapp: Any, installed: Any) -> None:
    assert install_item_actions(qapp) is installed
    keys = [key for _text, key in item_actions.shortcuts()]
    assert keys == [QKeySequence(QKeySequence.StandardKey.Copy), QKeySequence(Qt.Key.Key_Menu)]


def test_ctrl_c_copies_the_selected_navigator_row_and_the_menu_its_id_and_json(
        qtbot: Any, navigator: Navigator, store: Store) -> None:
    target = views.request_rows(store)[-1]
    with qtbot.waitSignal(navigator.requestSelected, timeout=10000):
        navigator.select_request(target["eventId"])
    tree = navigator.tree
    current = tree.currentIndex()
    cells = [current.siblingAtColumn(c).data() or "" for c in range(tree.model().columnCount(current.parent()))]
    assert current.data(nav.KeyRole) == target["eventId"]

    assert _copy(qtbot, tree) == "\t".join(cells)
    assert cells[0] and "\t".join(cells).count("\t") == len(cells) - 1

    menu = item_menu(tree)
    texts = [a.text() for a in menu.actions() if not a.isSeparator()]
    assert texts[:3] == ["&Copy", "Copy &Id", "Copy as &JSON"]
    assert menu.actions()[0].shortcut() == QKeySequence(QKeySequence.StandardKey.Copy)
    next(a for a in menu.actions() if a.text() == "Copy &Id").trigger()
    assert QGuiApplication.clipboard().text() == target["eventId"]  # the full id, not 8 characters
    next(a for a in menu.actions() if a.text() == "Copy as &JSON").trigger()
    copied = QGuiApplication.clipboard().text()
    node = navigator.model.node(navigator.proxy.mapToSource(current))
    assert copied == dump_json(node.record.to_json())  # the typed row's JSON, keys in its order
    assert json.loads(copied)["eventId"] == target["eventId"]
    menu.deleteLater()


def test_a_session_row_copies_its_session_id(qtbot: Any, navigator: Navigator, store: Store) -> None:
    tree = navigator.tree
    tree.setCurrentIndex(navigator.proxy.index(0, 0))
    sid = views.session_rows(store)[0]["sessionId"]
    assert tree.currentIndex().data(ID_ROLE) == sid
    assert tree.currentIndex().data(REQUEST_ROLE) is None
    assert json.loads(tree.currentIndex().data(JSON_ROLE))["sessionId"] == sid
    assert item_actions.copy_ids(tree)
    assert QGuiApplication.clipboard().text() == sid


def _table() -> QTableWidget:
    table = QTableWidget(3, 3)
    table.setHorizontalHeaderLabels(["Name", "Tokens", "Note"])
    for r in range(3):
        for c in range(3):
            table.setItem(r, c, QTableWidgetItem(f"r{r}c{c}"))
    table.resize(400, 200)
    return table


def test_a_cell_table_copies_the_selected_cells_as_a_grid(qtbot: Any) -> None:
    table = _table()
    qtbot.addWidget(table)
    table.show()
    table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
    for r, c in ((0, 1), (2, 1), (2, 2)):
        table.item(r, c).setSelected(True)
    assert _copy(qtbot, table) == "r0c1\t\nr2c1\tr2c2"
    assert item_actions.copy_json(table)
    assert json.loads(QGuiApplication.clipboard().text()) == [{"Tokens": "r0c1"}, {"Tokens": "r2c1", "Note": "r2c2"}]


def test_a_row_table_copies_whole_rows_and_a_row_without_json_its_headers_and_cells(qtbot: Any) -> None:
    table = _table()
    qtbot.addWidget(table)
    table.show()
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.selectRow(1)
    assert _copy(qtbot, table) == "r1c0\tr1c1\tr1c2"
    menu = item_menu(table)
    assert "Copy &Id" not in [a.text() for a in menu.actions()]  # no row has an id
    menu.deleteLater()
    assert item_actions.copy_json(table)
    assert json.loads(QGuiApplication.clipboard().text()) == {"Name": "r1c0", "Tokens": "r1c1", "Note": "r1c2"}


def test_ctrl_c_wins_over_a_window_shortcut_on_the_same_key(qtbot: Any) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    fired: list[bool] = []
    other = QAction("Copy Everything", window)
    other.setShortcut(QKeySequence(QKeySequence.StandardKey.Copy))
    other.triggered.connect(lambda: fired.append(True))
    window.addAction(other)
    table = _table()
    window.setCentralWidget(table)
    window.show()
    qtbot.waitExposed(window)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.selectRow(2)
    assert _copy(qtbot, table) == "r2c0\tr2c1\tr2c2"
    assert fired == []


def test_a_tree_widget_multi_selection_copies_rows_in_tree_order(qtbot: Any) -> None:
    tree = QTreeWidget()
    qtbot.addWidget(tree)
    tree.setHeaderLabels(["Part", "Tokens"])
    tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    top = QTreeWidgetItem(["system", "10"])
    child = QTreeWidgetItem(["preamble", "4"])
    top.addChild(child)
    last = QTreeWidgetItem(["history", "7"])
    tree.addTopLevelItems([top, last])
    top.setExpanded(True)
    tree.show()
    last.setSelected(True)
    child.setSelected(True)
    assert _copy(qtbot, tree) == "preamble\t4\nhistory\t7"


def _popups(monkeypatch: pytest.MonkeyPatch) -> list[tuple[QMenu, QPoint]]:
    shown: list[tuple[QMenu, QPoint]] = []
    # Offscreen, a real popup only warns that it cannot grab the keyboard.
    monkeypatch.setattr(item_actions, "show_menu", lambda menu, at: shown.append((menu, at)))
    return shown


def _context_menu(table: QTableWidget) -> None:
    install_item_actions().watch(table)
    at = QPoint(5, 5)
    QApplication.sendEvent(table.viewport(), QContextMenuEvent(QContextMenuEvent.Reason.Mouse, at,
                                                                table.viewport().mapToGlobal(at)))


def test_the_context_menu_event_opens_the_row_menu_with_the_views_own_actions(
        qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    shown = _popups(monkeypatch)
    table = _table()
    qtbot.addWidget(table)
    own = QAction("Move Up", table)
    table.addAction(own)
    table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
    table.show()
    qtbot.waitExposed(table)
    table.selectRow(0)
    _context_menu(table)
    assert len(shown) == 1
    menu, at = shown[0]
    assert at == table.viewport().mapToGlobal(QPoint(5, 5))
    assert [a.text() for a in menu.actions() if not a.isSeparator()] == ["&Copy", "Copy as &JSON", "Move Up"]
    _context_menu(table)  # the next menu replaces it
    assert len(shown) == 2 and shown[1][0] is not menu


def test_a_view_with_its_own_custom_menu_keeps_it(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    shown = _popups(monkeypatch)
    table = _table()
    qtbot.addWidget(table)
    table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
    asked: list[QPoint] = []
    table.customContextMenuRequested.connect(asked.append)
    table.show()
    qtbot.waitExposed(table)
    _context_menu(table)
    assert asked == [QPoint(5, 5)]
    assert shown == []


class _Host(QWidget):
    """A window with a request view showing request "shown" (what item_actions looks for)."""

    def __init__(self) -> None:
        super().__init__()
        self.compared: list[str] = []
        self.request_view = SimpleNamespace(detail=SimpleNamespace(record=SimpleNamespace(event_id="shown")),
                                            compare_with=self.compared.append)


def test_compare_with_the_shown_request(qtbot: Any) -> None:
    host = _Host()
    qtbot.addWidget(host)
    tree = QTreeWidget(host)
    QVBoxLayout(host).addWidget(tree)
    tree.setHeaderLabels(["Request"])
    other = QTreeWidgetItem(["step 1"])
    other.setData(0, REQUEST_ROLE, "other")
    same = QTreeWidgetItem(["step 2"])
    same.setData(0, REQUEST_ROLE, "shown")
    tree.addTopLevelItems([other, same])
    host.show()
    tree.setCurrentItem(other)
    menu = item_menu(tree)
    action = next(a for a in menu.actions() if a.text() == "Compare with the &Shown Request")
    assert action.isEnabled()
    action.trigger()
    assert host.compared == ["other"]
    menu.deleteLater()
    tree.setCurrentItem(same)
    menu = item_menu(tree)
    assert not next(a for a in menu.actions() if a.text() == "Compare with the &Shown Request").isEnabled()
    menu.deleteLater()


def test_a_view_is_watched_once_it_takes_the_focus(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    shown = _popups(monkeypatch)
    window = QWidget()
    qtbot.addWidget(window)
    layout = QVBoxLayout(window)
    first, second = _table(), _table()
    layout.addWidget(first)
    layout.addWidget(second)
    window.show()
    window.activateWindow()
    qtbot.waitActive(window)
    second.setFocus()
    qtbot.waitUntil(second.hasFocus)
    assert second.property("itemActionsWatched") and not first.property("itemActionsWatched")
    second.selectRow(1)
    QGuiApplication.clipboard().clear()
    qtbot.keyClick(second, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QGuiApplication.clipboard().text() == "r1c0\tr1c1\tr1c2"
    at = QPoint(5, 5)
    QApplication.sendEvent(second.viewport(), QContextMenuEvent(QContextMenuEvent.Reason.Mouse, at,
                                                                 second.viewport().mapToGlobal(at)))
    assert len(shown) == 1
    # A view that never had the focus is left to Qt (its own copy of the current cell).
    first.selectRow(2)
    QGuiApplication.clipboard().clear()
    qtbot.keyClick(first, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QGuiApplication.clipboard().text() != "r2c0\tr2c1\tr2c2"
