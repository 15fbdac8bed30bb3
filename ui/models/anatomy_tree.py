"""Tree models over :class:`inspector.views.DetailNode` trees, and the share-bar delegate.

Columns: label, role, recognised by, exact tokens, estimate, share. A cache breakpoint is a row
of its own, drawn as a full-width marker so the cache boundary reads as a line between parts.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPalette
from PySide6.QtWidgets import QStyle, QStyledItemDelegate, QStyleOptionViewItem

from inspector.views import DetailNode

from ui.views.part_names import part_label, role_label


def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("AnatomyModel", text)


def recognised_label(how: str) -> str:
    """The shown (translated) name of how a part was recognised; unknown values as recorded."""
    names = {
        "position": _tr("position"),
        "marker": _tr("marker"),
        "structure": _tr("structure"),
        "sentinel": _tr("sentinel"),
        "guess": _tr("guess"),
    }
    return names.get(how, how)


COL_LABEL, COL_ROLE, COL_RECOGNISED, COL_EXACT, COL_ESTIMATE, COL_SHARE = range(6)
NodeRole = Qt.ItemDataRole.UserRole + 1
ShareRole = Qt.ItemDataRole.UserRole + 2
BREAKPOINT_COLOUR = QColor("#d9480f")
GUESS_COLOUR = QColor("#b7791f")


def _header_cells() -> dict[int, tuple[Any, ...]]:
    """The header's answers, role → one value per column."""
    right = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return {
        int(Qt.ItemDataRole.DisplayRole): (_tr("Part"), _tr("Role"), _tr("Recognised by"), _tr("Tokens"),
                                           _tr("Estimate"), _tr("Share")),
        int(Qt.ItemDataRole.TextAlignmentRole): (None, None, None, right, right, None),
        int(Qt.ItemDataRole.ToolTipRole): (
            _tr("The part of the request, as Covel assembled it"),
            _tr("Message role"),
            _tr("How the part was recognised: sentinel, marker, position, structure or guess"),
            _tr("Exact tokens with the model's tokenizer (or its closest proxy)"),
            _tr("Covel's own estimate (characters / 4, CJK characters one each)"),
            _tr("Share of the whole request's exact tokens"),
        ),
    }


class _Item:
    __slots__ = ("node", "parent", "row", "children", "cells")

    def __init__(self, node: DetailNode | None, parent: _Item | None, row: int) -> None:
        self.node = node
        self.cells: dict[int, tuple[Any, ...]] | None = None
        self.parent = parent
        self.row = row
        self.children: list[_Item] = []
        if node is not None:
            self.children = [_Item(c, self, i) for i, c in enumerate(node.children)]


class AnatomyTreeModel(QAbstractItemModel):
    """Read-only model of a forest of DetailNodes. ``exact_counted`` False hides exact counts
    (they were not computed) instead of showing zeros."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._root = _Item(None, None, 0)
        self.exact_counted = True
        self._header: dict[int, tuple[Any, ...]] | None = None

    def set_roots(self, roots: list[DetailNode], *, exact_counted: bool = True) -> None:
        self.beginResetModel()
        self._root = _Item(None, None, 0)
        self._root.children = [_Item(n, self._root, i) for i, n in enumerate(roots)]
        self.exact_counted = exact_counted
        self.endResetModel()

    def clear(self) -> None:
        self.set_roots([])

    # ------------------------------------------------------------------ structure

    def _item(self, index: QModelIndex | QPersistentModelIndex) -> _Item:
        return index.internalPointer() if index.isValid() else self._root

    def index(self, row: int, column: int, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> QModelIndex:
        item = self._item(parent)
        if 0 <= row < len(item.children) and 0 <= column < 6:
            return self.createIndex(row, column, item.children[row])
        return QModelIndex()

    def parent(self, index: QModelIndex | QPersistentModelIndex = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not index.isValid():
            return QModelIndex()
        item: _Item = index.internalPointer()
        up = item.parent
        if up is None or up is self._root:
            return QModelIndex()
        return self.createIndex(up.row, 0, up)

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self._item(parent).children)

    def columnCount(self, _parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: N802
        return 6

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        # The header asks for its titles on every paint and size hint (thousands of calls while
        # a request loads): translated once, again after a language change (retranslate).
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < 6:
            return None
        header = self._header
        if header is None:
            header = self._header = _header_cells()
        values = header.get(role)
        return None if values is None else values[section]

    def retranslate(self) -> None:
        """The language changed: translate the titles again (and the rows' texts, next shown)."""
        self._header = None
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, 5)
        stack = list(self._root.children)
        while stack:
            item = stack.pop()
            item.cells = None
            stack.extend(item.children)
        if self._root.children:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._root.children) - 1, 5))

    def node(self, index: QModelIndex) -> DetailNode | None:
        return self._item(index).node if index.isValid() else None

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        # A paint asks for a dozen roles of every visible cell, each a Python call that waits for
        # the GIL while a worker runs Python: answer from a per-row table built once.
        item: _Item | None = index.internalPointer()
        if item is None or item.node is None:
            return None
        cells = item.cells
        if cells is None:
            cells = item.cells = self._cells(item.node)
        values = cells.get(role)
        return None if values is None else values[index.column()]

    def multiData(self, index: QModelIndex, roles: Any) -> None:  # noqa: N802 - Qt override
        """Every role a cell's paint or size hint asks for, in one Python call (Qt's own asks
        data() once per role)."""
        item: _Item | None = index.internalPointer()
        if item is None or item.node is None:
            for asked in roles:
                asked.clearData()
            return
        cells = item.cells
        if cells is None:
            cells = item.cells = self._cells(item.node)
        column = index.column()
        for asked in roles:
            values = cells.get(asked.role())
            value = None if values is None else values[column]
            if value is None:
                asked.clearData()
            else:
                asked.setData(value)

    def _cells(self, node: DetailNode) -> dict[int, tuple[Any, ...]]:
        """Every role this model answers for ``node``, as role → one value per column."""
        none6 = (None,) * 6
        cells: dict[int, tuple[Any, ...]] = {
            int(NodeRole): (node,) * 6,
            int(ShareRole): (node.share,) * 6,
        }
        if node.is_breakpoint:
            bold = QFont()
            bold.setBold(True)
            cells[int(Qt.ItemDataRole.DisplayRole)] = (
                _tr("── cache breakpoint ──"), "", recognised_label(node.recognised_by), "", "", "")
            cells[int(Qt.ItemDataRole.ForegroundRole)] = (BREAKPOINT_COLOUR,) * 6
            cells[int(Qt.ItemDataRole.FontRole)] = (bold,) * 6
            cells[int(Qt.ItemDataRole.ToolTipRole)] = (
                _tr("The provider caches the request up to this point ({label})").format(label=part_label(node.label)),) * 6
            return cells
        shown_label = part_label(node.label)
        cells[int(Qt.ItemDataRole.DisplayRole)] = (
            shown_label,
            role_label(node.role),
            recognised_label(node.recognised_by),
            f"{node.exact:,}" if self.exact_counted else "–",
            f"{node.estimate:,}",
            f"{node.share * 100:.1f}%",
        )
        right = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        cells[int(Qt.ItemDataRole.TextAlignmentRole)] = (None, None, None, right, right, None)
        tip = list(none6)
        tip[COL_LABEL] = shown_label
        cells[int(Qt.ItemDataRole.ToolTipRole)] = tuple(tip)
        if node.recognised_by == "guess":
            fg = list(none6)
            fg[COL_RECOGNISED] = GUESS_COLOUR
            cells[int(Qt.ItemDataRole.ForegroundRole)] = tuple(fg)
        return cells

    def find(self, predicate) -> QModelIndex:
        """The first index (column 0, depth first) whose node satisfies ``predicate``."""
        stack = list(reversed(self._root.children))
        while stack:
            item = stack.pop()
            if predicate(item.node):
                return self.createIndex(item.row, 0, item)
            stack.extend(reversed(item.children))
        return QModelIndex()


class ShareBarDelegate(QStyledItemDelegate):
    """Paints the share column as a bar proportional to the part's share, with the percentage."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        share = index.data(ShareRole)
        node = index.data(NodeRole)
        if share is None or (node is not None and node.is_breakpoint):
            super().paint(painter, option, index)
            return
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        widget = opt.widget
        style = widget.style() if widget is not None else None
        text = opt.text
        opt.text = ""
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        pal: QPalette = opt.palette
        r = opt.rect.adjusted(3, 3, -3, -3)
        # Percentage on the left, bar on the right: text drawn over a bar is unreadable when the
        # bar is long and clipped when the column is narrow.
        text_w = opt.fontMetrics.horizontalAdvance("100.0%") + 4
        painter.save()
        painter.setPen(pal.color(QPalette.ColorRole.HighlightedText if opt.state & QStyle.StateFlag.State_Selected
                                 else QPalette.ColorRole.Text))
        painter.drawText(QRect(r.left(), r.top(), text_w, r.height()),
                         int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), text)
        track_rect = QRect(r.left() + text_w + 4, r.top() + 2, max(0, r.width() - text_w - 4), r.height() - 4)
        track = QColor(pal.color(QPalette.ColorRole.Mid))
        track.setAlpha(80)
        painter.fillRect(track_rect, track)
        bar = QColor(pal.color(QPalette.ColorRole.Highlight))
        width = round(track_rect.width() * min(1.0, max(0.0, float(share))))
        if share > 0:
            painter.fillRect(QRect(track_rect.left(), track_rect.top(), max(1, width), track_rect.height()), bar)
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:  # noqa: N802
        hint = super().sizeHint(option, index)
        return QSize(max(hint.width(), 120), hint.height())
