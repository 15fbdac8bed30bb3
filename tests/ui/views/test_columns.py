"""One rule for column widths (ui.views.columns.ColumnFitter): each column fits its title and its
texts, the stretch column takes the rest, a long value is held to a share of the width, a column
that gives way narrows first in a narrow view, and a column the user drags keeps its width."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QApplication, QTableView

from ui.views.columns import MOST_SHARE, ColumnFitter


def _table(qtbot: Any, rows: list[list[str]], width: int) -> QTableView:
    model = QStandardItemModel()
    model.setHorizontalHeaderLabels(["Name", "Kind", "Text"])
    for row in rows:
        model.appendRow([QStandardItem(v) for v in row])
    view = QTableView()
    view.setModel(model)
    qtbot.addWidget(view)
    view.resize(width, 200)
    view.show()
    qtbot.waitExposed(view)
    return view


def test_columns_fit_their_texts_and_the_stretch_takes_the_rest(qtbot: Any) -> None:
    view = _table(qtbot, [["alpha", "a kind of thing", "x"], ["b", "k", "y"]], 600)
    fitter = ColumnFitter(view, 2)
    header = view.horizontalHeader()
    metrics = view.fontMetrics()
    assert header.sectionSize(1) >= metrics.horizontalAdvance("a kind of thing")
    assert header.sectionSize(0) < header.sectionSize(1)
    assert sum(header.sectionSize(c) for c in range(3)) == view.viewport().width()
    # New rows are measured again (once the event loop runs).
    view.model().appendRow([QStandardItem("a much longer name than before"), QStandardItem(""), QStandardItem("")])
    qtbot.waitUntil(lambda: header.sectionSize(0) >= metrics.horizontalAdvance("a much longer name than before"))
    assert fitter.wanted[0] >= metrics.horizontalAdvance("a much longer name than before")


def test_a_long_value_is_held_to_a_share_and_a_column_gives_way(qtbot: Any) -> None:
    view = _table(qtbot, [["n" * 200, "some kind", "t"]], 500)
    ColumnFitter(view, 2)
    header = view.horizontalHeader()
    assert header.sectionSize(0) <= int(view.viewport().width() * MOST_SHARE)

    view = _table(qtbot, [["a name of some length", "a kind of some length", "t"]], 700)
    fitter = ColumnFitter(view, 2, gives_way=(1,), minimums={2: 100})
    header = view.horizontalHeader()
    name, kind = header.sectionSize(0), header.sectionSize(1)
    room = name + kind + 100 - 30  # 30 px short of every column's want
    view.resize(view.width() - view.viewport().width() + room, 200)
    QApplication.processEvents()
    assert view.viewport().width() == room
    assert header.sectionSize(0) == name  # kept whole
    assert header.sectionSize(1) == kind - 30  # gave way
    assert header.sectionSize(2) == fitter.wanted[2] == 100


def test_a_column_the_user_drags_keeps_its_width(qtbot: Any) -> None:
    view = _table(qtbot, [["alpha", "kind", "text"]], 500)
    fitter = ColumnFitter(view, 2)
    header = view.horizontalHeader()
    header.resizeSection(0, 180)  # as a drag does
    fitter.fit()
    view.resize(560, 200)
    QApplication.processEvents()
    assert header.sectionSize(0) == 180
    assert sum(header.sectionSize(c) for c in range(3)) == view.viewport().width()
