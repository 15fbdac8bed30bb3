"""The problems list: every diagnostic of the document, with a severity icon, the block, the line
and column, and the code. Activating a row (double click, Enter) asks the window to jump to it;
F8 / Shift+F8 step through the rows.

Severity colours and icons are derived from the palette, so they read on the light and the dark
theme alike; the template editor's squiggles use the same colours.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import QPointF, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QIcon, QPainter, QPainterPath, QPalette, QPen, QPixmap, QPolygonF
from PySide6.QtWidgets import (
    QAbstractItemView, QHeaderView, QStyledItemDelegate, QStyleOptionViewItem, QTreeWidget, QTreeWidgetItem, QWidget,
)

from inspector.zones import Diagnostic
from inspector.zones import diagnostic as dg
from ui.theme import is_dark
from ui.views.core_texts import core_text, place_name

_COLOURS = {
    # (light theme, dark theme)
    dg.ERROR: ("#d32f2f", "#ff6b6b"),
    dg.WARNING: ("#b26a00", "#f2b03c"),
    dg.INFO: ("#1f6fd1", "#6cb4ff"),
}


def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("ZonesProblems", text)


def severity_colour(severity: str, palette: QPalette) -> QColor:
    light, dark = _COLOURS.get(severity, _COLOURS[dg.INFO])
    return QColor(dark if is_dark(palette) else light)


def message_text(diag: Diagnostic) -> str:
    """A diagnostic's message in the UI's language (the core writes it in English, from a template of
    :mod:`inspector.wording`)."""
    return core_text(diag.message)


def block_label(block_id: str | None) -> str:
    """Where a problem is, for a place no block of the editor names: the core's "top level" (a
    config's or preset's own keys) in the UI's language, any other place as the core wrote it."""
    return place_name(block_id) if block_id else "—"


def severity_name(severity: str) -> str:
    return {dg.ERROR: _tr("Error"), dg.WARNING: _tr("Warning"), dg.INFO: _tr("Info")}.get(severity, severity)


_icon_cache: dict[tuple[str, bool, int], QIcon] = {}


def severity_icon(severity: str, palette: QPalette, size: int = 16) -> QIcon:
    """A circle with a cross (error), a triangle with "!" (warning), a circle with "i" (info)."""
    key = (severity, is_dark(palette), size)
    icon = _icon_cache.get(key)
    if icon is not None:
        return icon
    colour = severity_colour(severity, palette)
    pixmap = QPixmap(size * 2, size * 2)
    pixmap.setDevicePixelRatio(2.0)
    pixmap.fill(Qt.GlobalColor.transparent)
    p = QPainter(pixmap)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    s = float(size)
    white = QPen(QColor("#ffffff"), max(1.4, s / 9))
    white.setCapStyle(Qt.PenCapStyle.RoundCap)
    if severity == dg.WARNING:
        tri = QPolygonF([QPointF(s / 2, 1.5), QPointF(s - 1, s - 2), QPointF(1, s - 2)])
        path = QPainterPath()
        path.addPolygon(tri)
        path.closeSubpath()
        p.fillPath(path, colour)
        p.setPen(white)
        p.drawLine(QPointF(s / 2, s * 0.38), QPointF(s / 2, s * 0.62))
        p.drawPoint(QPointF(s / 2, s * 0.76))
    else:
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(colour)
        p.drawEllipse(QRectF(1, 1, s - 2, s - 2))
        p.setPen(white)
        if severity == dg.ERROR:
            a, b = s * 0.34, s * 0.66
            p.drawLine(QPointF(a, a), QPointF(b, b))
            p.drawLine(QPointF(a, b), QPointF(b, a))
        else:
            p.drawPoint(QPointF(s / 2, s * 0.3))
            p.drawLine(QPointF(s / 2, s * 0.45), QPointF(s / 2, s * 0.72))
    p.end()
    icon = QIcon(pixmap)
    _icon_cache[key] = icon
    return icon


def field_name(field: str | None) -> str:
    return {
        "content": _tr("text"), "order": _tr("order"), "id": _tr("id"), "complete": _tr("complete"),
        "purpose": _tr("purpose"), "variables": _tr("variables"), "environment": _tr("environment"),
    }.get(field or "", field or "")


class _WrappingDelegate(QStyledItemDelegate):
    """Rows as tall as the message wrapped at its column's width (a tree view does not measure
    wrapped text by itself)."""

    def __init__(self, view: QTreeWidget, column: int) -> None:
        super().__init__(view)
        self._view = view
        self._column = column

    def sizeHint(self, option: QStyleOptionViewItem, index: Any) -> QSize:  # noqa: N802 - Qt override
        size = super().sizeHint(option, index)
        if index.column() != self._column:
            return size
        width = max(40, self._view.header().sectionSize(self._column) - 8)
        text = str(index.data() or "")
        bound = option.fontMetrics.boundingRect(QRect(0, 0, width, 100_000), int(Qt.TextFlag.TextWordWrap), text)
        return QSize(size.width(), max(size.height(), bound.height() + 4))


class ProblemsView(QTreeWidget):
    """``set_problems(rows)`` with ``(diagnostic, block_index)`` pairs (``block_index`` None for
    config-wide ones). ``problemActivated(diagnostic, block_index)`` on double click / Enter."""

    problemActivated = Signal(object, object)

    COLUMNS = ("severity", "block", "where", "code", "message")
    # Narrower than this, the position and code columns are hidden (both stay in the tooltip) so
    # the message keeps a readable width.
    NARROW = 620
    BLOCK_MAX_WIDTH = 150

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("zonesProblems")
        self.setRootIsDecorated(False)
        # A message longer than its column wraps onto more lines instead of being cut.
        self.setUniformRowHeights(False)
        self.setWordWrap(True)
        self.setAlternatingRowColors(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setHeaderLabels([_tr("Severity"), _tr("Block"), _tr("Where"), _tr("Code"), _tr("Problem")])
        # The message is what a person reads: shown right after the block and given the room
        # left; the code and position come last (and are elided first).
        header = self.header()
        header.setStretchLastSection(False)
        header.moveSection(header.visualIndex(4), 2)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(24)
        # Wrapped rows are as tall as their text at the message column's width: measured again
        # whenever a column changes width.
        header.sectionResized.connect(lambda *_: self.scheduleDelayedItemsLayout())
        self.setItemDelegate(_WrappingDelegate(self, 4))
        metrics, head = self.fontMetrics(), header.fontMetrics()
        for column, sample in ((0, severity_name("warning")), (1, "Prompt 10"), (2, "99:99"), (3, "parse-error")):
            width = max(head.horizontalAdvance(self.headerItem().text(column)) + 16,
                        metrics.horizontalAdvance(sample) + (34 if column == 0 else 14))
            self.setColumnWidth(column, width)
        self._block_width = self.columnWidth(1)
        self._code_width = self.columnWidth(3)
        self.itemActivated.connect(self._activated)
        self.rows: list[tuple[Diagnostic, int | None]] = []
        # A block's name as a person reads it, by the id diagnostics give ("prompts[0]" →
        # "Prompt 1" for a preset); ids not in it (a zones config's own block ids) show as they are.
        self.block_names: dict[str, str] = {}

    def set_problems(self, rows: Iterable[tuple[Diagnostic, int | None]]) -> None:
        current = self.current_problem()
        self.rows = list(rows)
        palette = self.palette()
        self.setUpdatesEnabled(False)
        try:
            self.clear()
            items = []
            select = None
            icons: dict[str, tuple] = {}  # severity -> (name, icon, colour), made once per refresh
            throws = "\n" + _tr("ChatLuna throws here.")
            for diag, index in self.rows:
                look = icons.get(diag.severity)
                if look is None:
                    look = icons[diag.severity] = (severity_name(diag.severity), severity_icon(diag.severity, palette),
                                                   severity_colour(diag.severity, palette))
                where = f"{diag.line}:{diag.column}" if diag.field == "content" and diag.end_utf16 > diag.start_utf16 \
                    else field_name(diag.field)
                block = self.block_names.get(diag.block_id or "") or block_label(diag.block_id)
                message = message_text(diag)
                item = QTreeWidgetItem([look[0], block, where, diag.code, message])
                item.setIcon(0, look[1])
                item.setForeground(0, look[2])
                tip = message + (throws if diag.throws else "")
                if block != (diag.block_id or "—"):
                    tip = f"{block} ({diag.block_id})\n{tip}"
                # The position and code are in the tooltip too: a narrow list hides their columns.
                tip += f"\n{where} · {diag.code}"
                for column in range(5):
                    item.setToolTip(column, tip)
                item.setData(0, Qt.ItemDataRole.UserRole, (diag, index))
                items.append(item)
                if current is not None and current == (diag, index):
                    select = item
            self.addTopLevelItems(items)
            if select is not None:
                self.setCurrentItem(select)
            # The block and code columns as wide as their texts (a config's ids are longer than
            # "Prompt 1", a check's code than "parse-error"), within reason.
            for column, least in ((1, self._block_width), (3, self._code_width)):
                self.resizeColumnToContents(column)
                self.setColumnWidth(column, max(least, min(self.columnWidth(column), self.BLOCK_MAX_WIDTH)))
        finally:
            self.setUpdatesEnabled(True)

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        narrow = event.size().width() < self.NARROW
        for column in (2, 3):
            if self.isColumnHidden(column) != narrow:
                self.setColumnHidden(column, narrow)

    def current_problem(self) -> tuple[Diagnostic, int | None] | None:
        item = self.currentItem()
        return item.data(0, Qt.ItemDataRole.UserRole) if item is not None else None

    def _activated(self, item: QTreeWidgetItem, _column: int) -> None:
        diag, index = item.data(0, Qt.ItemDataRole.UserRole)
        self.problemActivated.emit(diag, index)

    def step(self, forward: bool = True) -> bool:
        """Select and activate the next (previous) problem, wrapping around; False when there is none."""
        count = self.topLevelItemCount()
        if count == 0:
            return False
        item = self.currentItem()
        row = self.indexOfTopLevelItem(item) if item is not None else (-1 if forward else count)
        row = (row + (1 if forward else -1)) % count
        target = self.topLevelItem(row)
        self.setCurrentItem(target)
        self.scrollToItem(target)
        self._activated(target, 0)
        return True

    def counts(self) -> dict[str, int]:
        return dg.severity_counts(diag for diag, _i in self.rows)

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == event.Type.PaletteChange and self.rows:
            self.set_problems(self.rows)

