"""Two requests side by side, part by part (:func:`inspector.anatomy.compare.compare_details`).

One table with a row per aligned part (left tokens, right tokens, status colour), the first
difference marked and selected; below it the two texts of the selected pair, with the first
differing character highlighted in both. Where the first difference lies is the core's answer
(:attr:`inspector.anatomy.compare.Comparison.first_difference`): the view only shows it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QLabel,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ui.theme import is_dark
from ui.views.columns import ColumnFitter
from ui.views.names import copy_id_link, id_link, request_title_of_row
from ui.views.part_names import part_label
from ui.views.text_pane import TextPane

if TYPE_CHECKING:
    from collections.abc import Mapping

    # The comparison engine (and the cache modules it uses) loads with the first comparison.
    from inspector.anatomy.compare import Comparison, Row


def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("CompareView", text)


def _status_colour(status: str) -> tuple[str, str] | None:
    """A row's (light, dark) tint; equal rows keep the base colour so differences stand out."""
    from inspector.anatomy.compare import ADDED, CHANGED, MOVED, REMOVED

    return {CHANGED: ("#fff1c2", "#4a3f1a"), ADDED: ("#d9f5dd", "#1f3d26"), REMOVED: ("#fde0e0", "#4a2424"),
            MOVED: ("#dde8fb", "#1f2f4a")}.get(status)


MARK_COLOUR = QColor("#d9480f")


def _status_text(status: str) -> str:
    from inspector.anatomy.compare import ADDED, CHANGED, EQUAL, MOVED, REMOVED

    return {EQUAL: _tr("equal"), CHANGED: _tr("changed"), MOVED: _tr("moved"), ADDED: _tr("added"),
            REMOVED: _tr("removed")}[status]


def _part_text(row: Row) -> str:
    """The Part column: both sides' names when they differ (``assistant #2 → assistant #4``)."""
    left, right = part_label(row.left_label), part_label(row.right_label)
    if left and right and left != right:
        return f"{left} → {right}"
    return left or right


class CompareView(QWidget):
    COLUMNS = 6

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.comparison: Comparison | None = None
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                             | Qt.TextInteractionFlag.LinksAccessibleByMouse)
        self.summary.linkActivated.connect(copy_id_link)
        self.table = QTreeWidget(self)
        self.table.setRootIsDecorated(False)
        self.table.setUniformRowHeights(True)
        self.table.setAlternatingRowColors(False)
        self.table.setHeaderLabels([_tr("Section"), _tr("Part"), _tr("Status"), _tr("Left tokens"),
                                    _tr("Right tokens"), _tr("First difference")])
        # Every column as wide as its title and texts; the part takes the rest (a long one elided,
        # whole on hover).
        self.columns = ColumnFitter(self.table, 1, minimums={1: 120})
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
        # Small minimums (about three rows of the table, two lines of text): in a short dock the
        # view gives way instead of pushing its container taller; each part scrolls.
        self.table.setMinimumHeight(48)
        for pane in (self.left_pane, self.right_pane):
            pane.setMinimumHeight(48)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addWidget(self.summary)
        layout.addWidget(split, 1)

    def set_comparison(self, comparison: Comparison, numbers: Mapping[str, int] | None = None) -> None:
        """Show ``comparison`` with its first difference marked and selected. ``numbers`` (turn id →
        number, ``inspector.ids.turn_numbers``) names the two requests "Turn 4 · …"; without it a
        turn is named by its short id."""
        self.comparison = comparison
        self.table.clear()
        dark = is_dark(self.palette())
        first = comparison.first_difference
        marked = {first.left_row, first.right_row} - {None} if first is not None else set()
        bold = QFont(self.table.font())
        bold.setBold(True)
        for i, row in enumerate(comparison.rows):
            note = "" if row.first_diff_offset is None else _tr("char {n}").format(n=f"{row.first_diff_offset:,}")
            if row.breakpoints_differ:
                note = _tr("cache breakpoint moved")
            if i in marked:
                note = "◀ " + _tr("first difference")
            item = QTreeWidgetItem([
                part_label(row.section), _part_text(row), _status_text(row.status),
                "" if row.left is None else f"{row.left.exact:,}",
                "" if row.right is None else f"{row.right.exact:,}",
                note,
            ])
            item.setData(0, Qt.ItemDataRole.UserRole, i)
            paths = [part_label(p) for p in dict.fromkeys((row.left_path, row.right_path)) if p]
            shown = _part_text(row)
            item.setToolTip(1, "\n".join(dict.fromkeys([shown, *paths])))
            for col in (3, 4):
                item.setTextAlignment(col, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            tint = _status_colour(row.status)
            if tint is not None:
                brush = QBrush(QColor(tint[1] if dark else tint[0]))
                for col in range(self.COLUMNS):
                    item.setBackground(col, brush)
            if i in marked:
                for col in range(self.COLUMNS):
                    item.setFont(col, bold)
                item.setForeground(5, QBrush(MARK_COLOUR))
            self.table.addTopLevelItem(item)
        counts = comparison.counts()
        lines = [
            _tr("<b>Left</b> {left} · <b>Right</b> {right}").format(
                left=pair_side_html(comparison.left.row, numbers), right=pair_side_html(comparison.right.row, numbers)),
            _tr("{equal} equal, {changed} changed, {moved} moved, {added} added, {removed} removed parts").format(
                **counts),
        ]
        if first is None:
            lines.append(_tr("The two requests are identical part by part.") if comparison.identical
                         else _tr("The provider reads both requests the same; only cache breakpoints differ."))
        else:
            lines.append(_tr("First difference: <b>{path}</b> at character {offset}").format(
                path=_html(part_label(first.path)), offset=f"{first.offset:,}"))
        self.summary.setText("<br>".join(lines))
        self.summary.setToolTip(ids_tooltip(comparison.left.row, comparison.right.row))
        if self.table.topLevelItemCount():
            self.table.setCurrentItem(self.table.topLevelItem(first.row_index if first is not None else 0))
        self.show_first_difference()

    def show_first_difference(self) -> None:
        """Both texts at the first difference, the differing character marked in each: the
        earlier request's side may sit in another row than the later one's (a part inserted before
        it, a turn context folded into the history)."""
        cmp = self.comparison
        first = cmp.first_difference if cmp is not None else None
        if cmp is None or first is None:
            return
        if first.left_row is not None:
            row = cmp.rows[first.left_row]
            self.left_pane.set_content(row.left_text, caption=_tr("Left: {path}").format(path=part_label(row.left_path)))
            self.left_pane.mark(first.left_offset, MARK_COLOUR)
        else:
            self.left_pane.set_content("", caption=_tr("Left: the request ended before this point"))
        if first.right_row is not None:
            row = cmp.rows[first.right_row]
            self.right_pane.set_content(row.right_text, caption=_tr("Right: {path}").format(path=part_label(row.right_path)))
            self.right_pane.mark(first.right_offset, MARK_COLOUR)
        else:
            self.right_pane.set_content("", caption=_tr("Right: the request ended before this point"))

    def _row_selected(self, item: QTreeWidgetItem | None) -> None:
        if item is None or self.comparison is None:
            return
        index = item.data(0, Qt.ItemDataRole.UserRole)
        first = self.comparison.first_difference
        if first is not None and index in (first.left_row, first.right_row):
            self.show_first_difference()
            return
        row = self.comparison.rows[index]
        self.left_pane.set_content(row.left_text, caption=_tr("Left: {path}").format(
            path=part_label(row.left_path) if row.left_path else _tr("(absent)")))
        self.right_pane.set_content(row.right_text, caption=_tr("Right: {path}").format(
            path=part_label(row.right_path) if row.right_path else _tr("(absent)")))
        if row.first_diff_offset is not None:
            self.left_pane.mark(row.first_diff_offset, MARK_COLOUR)
            self.right_pane.mark(row.first_diff_offset, MARK_COLOUR)


def pair_side_html(row: dict, numbers: Mapping[str, int] | None) -> str:
    """One side of a comparison named "Turn 4 · narrator/main · step 1", a click copying its id."""
    return id_link(request_title_of_row(row, numbers), row.get("eventId"))


def ids_tooltip(left: dict, right: dict) -> str:
    """The full ids of the two sides (a click on a name copies it)."""
    return _tr("Left: {left}\nRight: {right}\nClick a name to copy its id.").format(
        left=left.get("eventId") or "?", right=right.get("eventId") or "?")


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
