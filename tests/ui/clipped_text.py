"""Finding text a widget cuts: labels, buttons, check boxes, column titles, tabs, and the cells of
trees and tables in sight (issue 19). Texts elided by design (with the whole text in a tooltip, in a
column that gives way) are not counted. Used by tests/ui/windows/test_no_clipped_text.py and the
navigator's column tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from PySide6 import QtGui
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QCheckBox,
    QHeaderView,
    QLabel,
    QStyleOptionViewItem,
    QTabBar,
    QTableView,
    QTreeView,
    QWidget,
)

from ui.zones_editor.preview import DigestLabel

__all__ = ["cut_cells", "cut_texts"]


def cut_texts(root: QWidget) -> list[str]:
    """The visible texts of ``root`` that need more width than they have."""
    cut: list[str] = []
    for w in [root, *root.findChildren(QWidget)]:
        # (A header view reports an empty visible region of its own: only its being shown counts.)
        if not w.isVisible() or (w.visibleRegion().isEmpty() and not isinstance(w, QHeaderView)):
            continue
        fm = w.fontMetrics()
        if isinstance(w, QLabel) and not isinstance(w, DigestLabel):
            text = QLabel.text(w)  # what it shows: an eliding label's own text() is the whole text
            if not text or w.wordWrap() or w.textFormat() == Qt.TextFormat.RichText or QtGui.Qt.mightBeRichText(text):
                continue
            need = max(fm.horizontalAdvance(line) for line in text.split("\n"))
            if need > w.contentsRect().width() + 1:
                cut.append(f"label {text!r}: {need} > {w.contentsRect().width()}")
        elif isinstance(w, QCheckBox) and w.text():
            if fm.horizontalAdvance(w.text()) + 18 > w.width():
                cut.append(f"check box {w.text()!r}")
        elif isinstance(w, QAbstractButton) and w.text():
            text = w.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
            if fm.horizontalAdvance(text) > w.width() - 4:
                cut.append(f"button {text!r}: {fm.horizontalAdvance(text)} > {w.width() - 4}")
        elif isinstance(w, QHeaderView) and w.orientation() == Qt.Orientation.Horizontal and w.model() is not None:
            for i in range(w.count()):
                title = w.model().headerData(i, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole)
                if title and not w.isSectionHidden(i) and fm.horizontalAdvance(str(title)) + 6 > w.sectionSize(i):
                    cut.append(f"column {title!r}: {w.sectionSize(i)} px")
        elif isinstance(w, QTabBar):
            # A tab scrolled out of sight, or behind the scroll arrows, cannot be read or found.
            for i in range(w.count()):
                if w.isTabVisible(i) and not w.rect().contains(w.tabRect(i)):
                    cut.append(f"tab {w.tabText(i)!r}: {w.tabRect(i)} beyond {w.rect()}")
        if isinstance(w, (QTreeView, QTableView)):
            cut += cut_cells(w)
    return cut


def _visible_indexes(view: QAbstractItemView) -> Iterator[Any]:
    """The first column's index of every row in sight (a tree's expanded rows included)."""
    height = view.viewport().height()
    if isinstance(view, QTreeView):
        index = view.indexAt(QPoint(1, 1))
        while index.isValid() and view.visualRect(index).top() < height:
            yield index.siblingAtColumn(0)
            index = view.indexBelow(index)
    elif isinstance(view, QTableView):
        model = view.model()
        first = view.rowAt(0)
        last = view.rowAt(height - 1)
        last = model.rowCount() - 1 if last < 0 else last
        for row in range(max(first, 0), last + 1):
            if not view.isRowHidden(row):
                yield model.index(row, 0)


def may_elide(view: QAbstractItemView, header: QHeaderView, col: int) -> bool:
    """Whether ``col`` takes the room the other columns leave, or gives way to it in a narrow view
    (:class:`ui.views.columns.ColumnFitter`)."""
    from ui.views.columns import ColumnFitter

    fitter = view.findChild(ColumnFitter)
    if fitter is not None:
        return col == fitter.stretch and not fitter.fit_stretch or col in fitter.gives_way
    if header.sectionResizeMode(col) == QHeaderView.ResizeMode.Stretch:
        return True
    last = max((c for c in range(header.count()) if not header.isSectionHidden(c)), default=-1)
    return header.stretchLastSection() and col == last


def cut_cells(view: QAbstractItemView) -> list[str]:
    """The cells in sight whose text needs more width than their column gives them. Only the
    stretch column (the one given what the others leave) and a column that gives way to it may
    elide, and only a text its tooltip holds whole; a cell under an editor widget is the widget's."""
    if view.model() is None or not view.isVisible():
        return []
    cut: list[str] = []
    header = view.header() if isinstance(view, QTreeView) else view.horizontalHeader()
    width = view.viewport().width()
    for first in _visible_indexes(view):
        for col in range(view.model().columnCount(first.parent())):
            if header.isSectionHidden(col):
                continue
            index = first.siblingAtColumn(col)
            text = index.data(Qt.ItemDataRole.DisplayRole)
            if text in (None, "") or view.indexWidget(index) is not None:
                continue
            tip = index.data(Qt.ItemDataRole.ToolTipRole)
            if may_elide(view, header, col) and isinstance(tip, str) and str(text).removesuffix("…") in tip:
                continue
            rect = view.visualRect(index)
            if rect.left() >= width:
                continue  # scrolled out of sight to the right
            option = QStyleOptionViewItem()
            option.initFrom(view)
            option.font = view.font()
            option.fontMetrics = view.fontMetrics()
            option.decorationSize = view.iconSize() if view.iconSize().isValid() else option.decorationSize
            need = view.itemDelegateForIndex(index).sizeHint(option, index).width()
            room = min(rect.right(), width) - rect.left() + 1
            if need > room + 1:
                cut.append(f"cell {str(text)[:40]!r} ({header.model().headerData(col, Qt.Orientation.Horizontal)}): "
                           f"{need} > {room}")
    return cut
