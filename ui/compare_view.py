"""Two requests side by side, part by part (:func:`inspector.anatomy.compare.compare_details`).

One table with a row per aligned part (left tokens, right tokens, status colour), the first
difference marked and selected; below it the two texts of the selected pair, with the first
differing character highlighted in both.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPalette
from PySide6.QtWidgets import (
    QHeaderView, QLabel, QSplitter, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget,
)

from inspector.anatomy.compare import ADDED, CHANGED, EQUAL, REMOVED, Comparison, FirstDifference

from .part_names import part_label
from .text_pane import TextPane


def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("CompareView", text)


_STATUS_COLOURS = {
    # (light, dark) tints; equal rows keep the base colour so differences stand out.
    CHANGED: ("#fff1c2", "#4a3f1a"),
    ADDED: ("#d9f5dd", "#1f3d26"),
    REMOVED: ("#fde0e0", "#4a2424"),
}
MARK_COLOUR = QColor("#d9480f")


def _status_text(status: str) -> str:
    return {EQUAL: _tr("equal"), CHANGED: _tr("changed"), ADDED: _tr("added"), REMOVED: _tr("removed")}[status]


class CompareView(QWidget):
    COLUMNS = 6

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.comparison: Comparison | None = None
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.table = QTreeWidget(self)
        self.table.setRootIsDecorated(False)
        self.table.setUniformRowHeights(True)
        self.table.setAlternatingRowColors(False)
        self.table.setHeaderLabels([_tr("Section"), _tr("Part"), _tr("Status"), _tr("Left tokens"),
                                    _tr("Right tokens"), _tr("First difference")])
        header = self.table.header()
        header.setStretchLastSection(True)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for col, width in enumerate((130, 220, 80, 85, 85)):
            self.table.setColumnWidth(col, width)
        self.table.currentItemChanged.connect(lambda cur, _prev: self._row_selected(cur))

        self.left_pane = TextPane(self)
        self.right_pane = TextPane(self)
        texts = QSplitter(Qt.Orientation.Horizontal, self)
        texts.addWidget(self.left_pane)
        texts.addWidget(self.right_pane)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.table)
        split.addWidget(texts)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 3)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addWidget(self.summary)
        layout.addWidget(split, 1)

    def set_comparison(self, comparison: Comparison, first: FirstDifference | None = None) -> None:
        """Show ``comparison``, its first difference marked: the first part that differs as
        aligned, or ``first`` when a caller knows better where the two requests part (the cache
        analysis: where the provider's prefix stops matching)."""
        self.comparison = comparison
        self.table.clear()
        dark = self.palette().color(QPalette.ColorRole.Base).lightness() < 128
        if first is None:
            first = comparison.first_difference
        bold = QFont(self.table.font())
        bold.setBold(True)
        for i, row in enumerate(comparison.rows):
            offset = "" if row.first_diff_offset is None else _tr("char {n}").format(n=f"{row.first_diff_offset:,}")
            if first is not None and i == first.row_index:
                if row.first_diff_offset is not None or first.offset:
                    offset = _tr("char {n}").format(n=f"{first.offset:,}")
                offset = ("◀ " + _tr("first difference") + (f" · {offset}" if offset else ""))
            item = QTreeWidgetItem([
                part_label(row.section), part_label(row.label), _status_text(row.status),
                "" if row.left is None else f"{row.left.exact:,}",
                "" if row.right is None else f"{row.right.exact:,}",
                offset,
            ])
            item.setData(0, Qt.ItemDataRole.UserRole, i)
            item.setToolTip(1, row.right_path or row.left_path)
            for col in (3, 4):
                item.setTextAlignment(col, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            tint = _STATUS_COLOURS.get(row.status)
            if tint is not None:
                brush = QBrush(QColor(tint[1] if dark else tint[0]))
                for col in range(self.COLUMNS):
                    item.setBackground(col, brush)
            if first is not None and i == first.row_index:
                for col in range(self.COLUMNS):
                    item.setFont(col, bold)
                item.setForeground(5, QBrush(MARK_COLOUR))
            self.table.addTopLevelItem(item)
        counts = comparison.counts()
        left_id = comparison.left.row["eventId"]
        right_id = comparison.right.row["eventId"]
        lines = [
            _tr("<b>Left</b> {left} · <b>Right</b> {right}").format(left=left_id, right=right_id),
            _tr("{equal} equal, {changed} changed, {added} added, {removed} removed parts").format(
                equal=counts[EQUAL], changed=counts[CHANGED], added=counts[ADDED], removed=counts[REMOVED]),
        ]
        if first is None:
            lines.append(_tr("The two requests are identical part by part."))
        else:
            lines.append(_tr("First difference: <b>{path}</b> at character {offset}").format(
                path=_html(first.path), offset=f"{first.offset:,}"))
        self.summary.setText("<br>".join(lines))
        index = first.row_index if first is not None else 0
        if self.table.topLevelItemCount():
            self.table.setCurrentItem(self.table.topLevelItem(index))

    def _row_selected(self, item: QTreeWidgetItem | None) -> None:
        if item is None or self.comparison is None:
            return
        row = self.comparison.rows[item.data(0, Qt.ItemDataRole.UserRole)]
        self.left_pane.set_content(row.left_text, caption=_tr("Left: {path}").format(path=row.left_path or _tr("(absent)")))
        self.right_pane.set_content(row.right_text, caption=_tr("Right: {path}").format(path=row.right_path or _tr("(absent)")))
        if row.first_diff_offset is not None:
            self.left_pane.mark(row.first_diff_offset, MARK_COLOUR)
            self.right_pane.mark(row.first_diff_offset, MARK_COLOUR)


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
