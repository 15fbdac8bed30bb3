"""The blocks of a config grouped by zone, each zone's blocks in assembly order (``order``, then
registration order, as :func:`inspector.zones.blocks.layout` sorts them), with the worst problem of
each block as its icon.

Rows carry the block's registration index (``BLOCK_INDEX_ROLE``); the zone rows carry none.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QPalette, QStandardItem, QStandardItemModel

from inspector.jsjson import js_number
from inspector.zones import PromptConfig
from inspector.zones import diagnostic as dg
from inspector.zones.blocks import in_assembly_order
from inspector.zones.config import ZONES

from ui.views.part_names import role_label

from .problems import severity_colour, severity_icon

BLOCK_INDEX_ROLE = Qt.ItemDataRole.UserRole + 1
ZONE_ROLE = Qt.ItemDataRole.UserRole + 2


def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("ZonesBlocks", text)


def zone_title(zone: str) -> str:
    return {"system": _tr("System zone"), "context": _tr("Context zone"), "input": _tr("Input zone")}.get(zone, zone)


def assembly_order(config: PromptConfig, zone: str) -> list[int]:
    """Registration indexes of ``zone``'s blocks sorted as the assembly sorts them."""
    return [i for i, _b in in_assembly_order([(i, b) for i, b in enumerate(config.blocks) if b.zone == zone])]


class BlocksModel(QStandardItemModel):
    """``rebuild(config)`` after blocks are added, removed or re-ordered; ``set_problems`` after
    every check (icons only, so the view keeps its selection and scroll position)."""

    COLUMNS = 4

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setHorizontalHeaderLabels([_tr("Block"), _tr("Order"), _tr("Role"), _tr("Flags")])
        self._rows: dict[int, QPersistentModelIndex] = {}
        self.palette = QPalette()

    def rebuild(self, config: PromptConfig) -> None:
        self.removeRows(0, self.rowCount())
        self._rows.clear()
        for zone in ZONES:
            indexes = assembly_order(config, zone)
            head = QStandardItem(f"{zone_title(zone)} ({len(indexes)})")
            head.setData(zone, ZONE_ROLE)
            head.setEditable(False)
            font = head.font()
            font.setBold(True)
            head.setFont(font)
            fillers = [QStandardItem("") for _ in range(self.COLUMNS - 1)]
            for f in fillers:
                f.setEditable(False)
                f.setData(zone, ZONE_ROLE)
            self.appendRow([head, *fillers])
            for i in indexes:
                block = config.blocks[i]
                flags = []
                if block.template:
                    flags.append(_tr("template"))
                if block.complete:
                    flags.append(_tr("complete"))
                cells = [QStandardItem(block.id or _tr("(no id)")), QStandardItem(js_number(block.order)),
                         QStandardItem(role_label(block.role)), QStandardItem(", ".join(flags))]
                cells[0].setToolTip(block.id or "")  # the whole id where the column elides it
                for cell in cells:
                    cell.setEditable(False)
                    cell.setData(i, BLOCK_INDEX_ROLE)
                    cell.setData(zone, ZONE_ROLE)
                tip = block.id + (f"\n{_tr('source')}: {block.source}" if block.source else "") + \
                    (f"\n{_tr('purpose')}: {block.purpose}" if block.purpose else "")
                cells[0].setToolTip(tip)
                cells[1].setData(int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                                 Qt.ItemDataRole.TextAlignmentRole)
                head.appendRow(cells)
                self._rows[i] = QPersistentModelIndex(cells[0].index())

    def index_of_block(self, block_index: int) -> QModelIndex:
        row = self._rows.get(block_index)
        return QModelIndex(row) if row is not None and row.isValid() else QModelIndex()

    def set_problems(self, worst: dict[int, tuple[str, int, str]]) -> None:
        """``worst``: block index → (severity, count, first message)."""
        for i, row in self._rows.items():
            if not row.isValid():
                continue
            item = self.itemFromIndex(QModelIndex(row))
            found = worst.get(i)
            if found is None:
                if item.data(Qt.ItemDataRole.DecorationRole) is not None:
                    item.setData(None, Qt.ItemDataRole.DecorationRole)
                    item.setData(None, Qt.ItemDataRole.ForegroundRole)
                continue
            severity, count, message = found
            item.setIcon(severity_icon(severity, self.palette))
            if severity == dg.ERROR:
                item.setForeground(severity_colour(severity, self.palette))
            else:
                item.setData(None, Qt.ItemDataRole.ForegroundRole)
            base = item.toolTip().split("\n\n")[0]
            item.setToolTip(base + "\n\n" + _tr("{count} problem(s); first: {message}").format(
                count=count, message=message))
