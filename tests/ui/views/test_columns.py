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


def test_a_burst_of_changes_is_measured_once_the_rows_settle(qtbot: Any) -> None:
    view = _table(qtbot, [["alpha", "kind", "text"]], 600)
    fitter = ColumnFitter(view, 2, settle_ms=40)
    qtbot.waitUntil(lambda: not fitter.pending)
    before = fitter.measures
    model = view.model()
    for n in range(5):  # a batch per turn of the event loop, as a loading tree inserts them
        model.appendRow([QStandardItem(f"row {n} " + "w" * n * 4), QStandardItem(""), QStandardItem("")])
        QApplication.processEvents()
    assert fitter.pending and fitter.measures == before  # nothing measured between the batches
    qtbot.waitUntil(lambda: not fitter.pending)
    assert fitter.measures == before + 1
    assert view.horizontalHeader().sectionSize(0) >= view.fontMetrics().horizontalAdvance("row 4 " + "w" * 16)


def test_no_measure_while_the_view_is_being_filled(qtbot: Any) -> None:
    view = _table(qtbot, [["alpha", "kind", "text"]], 600)
    filling = [True]
    fitter = ColumnFitter(view, 2, settle_ms=10, waits_for=lambda: filling[0])
    before = fitter.measures
    view.model().appendRow([QStandardItem("a longer name than alpha"), QStandardItem(""), QStandardItem("")])
    qtbot.wait(60)
    assert fitter.measures == before and fitter.pending  # held, and still due
    filling[0] = False
    qtbot.waitUntil(lambda: not fitter.pending)
    assert fitter.measures == before + 1
    assert view.horizontalHeader().sectionSize(0) >= view.fontMetrics().horizontalAdvance("a longer name than alpha")


def test_in_sight_measures_the_rows_on_screen_and_again_after_a_scroll(qtbot: Any) -> None:
    rows = [[f"n{i}", "k", "t"] for i in range(200)] + [["a far longer name, far below the screen", "k", "t"]]
    view = _table(qtbot, rows, 600)
    fitter = ColumnFitter(view, 2, in_sight=True)
    header = view.horizontalHeader()
    wide = view.fontMetrics().horizontalAdvance("a far longer name, far below the screen")
    assert header.sectionSize(0) < wide  # not in sight, not measured
    view.scrollToBottom()
    qtbot.waitUntil(lambda: header.sectionSize(0) >= wide)
    assert fitter.wanted[0] >= wide
