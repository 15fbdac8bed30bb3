"""The cache analysis as a runtime × turn table model: a cell per compared request
(:class:`inspector.cache.results.CachePair`), tool-loop steps and retries as extra rows."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    Qt,
)
from PySide6.QtGui import QBrush, QColor

from inspector.cache.results import CachePair
from inspector.cache.session_totals import shared_share
from inspector.numbering import shown
from inspector.output import dump_json

from ..views.cache_texts import COLD_COLOURS, confidence_mark, pair_tooltip, runtime_name, share_colour
from .item_roles import ID_ROLE, JSON_ROLE, REQUEST_ROLE


def _tr(text: str) -> str:
    return QCoreApplication.translate("CacheView", text)


PAIR_ROLE = Qt.ItemDataRole.UserRole + 1
SHARE_ROLE = Qt.ItemDataRole.UserRole + 2

RowKey = tuple[str | None, tuple[int, int] | None]  # (runtime, None) or (runtime, (step, attempt))


class CacheTableModel(QAbstractTableModel):
    """Rows: runtimes (in order of their first request), and with ``show_steps`` one more row per
    tool-loop step or retry under each; columns: the session's turns by number. A cell holds the
    :class:`CachePair` of that request, filled as batches arrive (:meth:`add_pairs`)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.dark = False
        self.show_steps = False
        self.clear()

    def clear(self) -> None:
        self.beginResetModel()
        self.turns: list[tuple[int, str]] = []
        self._column: dict[str, int] = {}
        self.runtimes: list[str | None] = []
        self._steps: dict[str | None, list[tuple[int, int]]] = {}
        self._cells: dict[RowKey, dict[int, CachePair]] = {}
        self.pairs: list[CachePair] = []
        self._rows: list[RowKey] = []
        self.endResetModel()

    def set_turns(self, turns: list[tuple[int, str]]) -> None:
        self.beginResetModel()
        self.turns = list(turns)
        self._column = {turn_id: i for i, (_n, turn_id) in enumerate(self.turns)}
        self.endResetModel()

    def set_show_steps(self, on: bool) -> None:
        if on == self.show_steps:
            return
        self.beginResetModel()
        self.show_steps = on
        self._rows = self._layout()
        self.endResetModel()

    def _layout(self) -> list[RowKey]:
        rows: list[RowKey] = []
        for runtime in self.runtimes:
            rows.append((runtime, None))
            if self.show_steps:
                rows.extend((runtime, s) for s in self._steps.get(runtime, []))
        return rows

    def add_pairs(self, pairs: list[CachePair]) -> None:
        touched: dict[RowKey, list[int]] = {}
        for pair in pairs:
            self.pairs.append(pair)
            col = self._column.get(pair.turn_id)
            if col is None:
                # A turn the session list did not have (written after it was read): a new column.
                col = len(self.turns)
                self.beginInsertColumns(QModelIndex(), col, col)
                self.turns.append((self.turns[-1][0] + 1 if self.turns else 1, pair.turn_id))
                self._column[pair.turn_id] = col
                self.endInsertColumns()
            runtime = pair.runtime_id
            if runtime not in self._steps:
                self._steps[runtime] = []
                self.runtimes.append(runtime)
                self._insert((runtime, None))
            sub = None if pair.kind == "turn" else (pair.step, pair.attempt)
            if sub is not None and sub not in self._steps[runtime]:
                self._steps[runtime].append(sub)
                self._steps[runtime].sort()
                if self.show_steps:
                    self._insert((runtime, sub))
            self._cells.setdefault((runtime, sub), {})[col] = pair
            touched.setdefault((runtime, sub), []).append(col)
        positions = {key: i for i, key in enumerate(self._rows)}
        for key, cols in touched.items():
            row = positions.get(key)
            if row is not None:
                self.dataChanged.emit(self.index(row, min(cols)), self.index(row, max(cols)))

    def merge_pairs(self, pairs: list[CachePair]) -> tuple[int, int]:
        """Merge a later run of the same analysis: pairs of requests not shown yet are appended
        (:meth:`add_pairs`), pairs whose values changed (a response arrived) replace their cell.
        Returns (appended, replaced)."""
        known = {p.event_id: i for i, p in enumerate(self.pairs)}
        fresh: list[CachePair] = []
        replaced = 0
        for pair in pairs:
            at = known.get(pair.event_id)
            if at is None:
                fresh.append(pair)
                continue
            if self.pairs[at] == pair:
                continue
            self.pairs[at] = pair
            replaced += 1
            sub = None if pair.kind == "turn" else (pair.step, pair.attempt)
            col = self._column.get(pair.turn_id)
            cells = self._cells.get((pair.runtime_id, sub))
            if cells is not None and col is not None:
                cells[col] = pair
                index = self.index_of(pair)
                if index.isValid():
                    self.dataChanged.emit(index, index)
        if fresh:
            self.add_pairs(fresh)
        return len(fresh), replaced

    def _insert(self, key: RowKey) -> None:
        layout = self._layout()
        row = layout.index(key)
        self.beginInsertRows(QModelIndex(), row, row)
        self._rows = layout
        self.endInsertRows()

    # -- lookups

    def row_key(self, row: int) -> RowKey:
        return self._rows[row]

    def pair_at(self, index: QModelIndex) -> CachePair | None:
        if not index.isValid() or index.row() >= len(self._rows):
            return None
        return self._cells.get(self._rows[index.row()], {}).get(index.column())

    def index_of(self, pair: CachePair) -> QModelIndex:
        sub = None if pair.kind == "turn" else (pair.step, pair.attempt)
        col = self._column.get(pair.turn_id)
        try:
            row = self._rows.index((pair.runtime_id, sub))
        except ValueError:
            return QModelIndex()
        return self.index(row, col) if col is not None else QModelIndex()

    def turn_number(self, turn_id: str | None) -> int | None:
        col = self._column.get(turn_id) if turn_id is not None else None
        return self.turns[col][0] if col is not None else None

    def runtime_pairs(self, runtime: str | None) -> list[CachePair]:
        """The runtime's turn pairs (first request of each turn) in turn order."""
        cells = self._cells.get((runtime, None), {})
        return [cells[c] for c in sorted(cells)]

    # -- Qt model

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802 - Qt naming
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802 - Qt naming
        return 0 if parent.isValid() else len(self.turns)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802 - Qt naming
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal:
            if section >= len(self.turns):
                return None
            number, turn_id = self.turns[section]
            if role == Qt.ItemDataRole.DisplayRole:
                return str(number)
            if role == Qt.ItemDataRole.ToolTipRole:
                return _tr("Turn {number}\n{id}").format(number=number, id=turn_id)
            return None
        if section >= len(self._rows):
            return None
        runtime, sub = self._rows[section]
        if role == Qt.ItemDataRole.DisplayRole:
            if sub is None:
                return runtime_name(runtime)
            step, attempt = sub
            label = _tr("↳ step {step}").format(step=shown(step))
            return label + (_tr(" · attempt {n}").format(n=shown(attempt)) if attempt else "")
        if role == Qt.ItemDataRole.ToolTipRole:
            return runtime_name(runtime)
        return None

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        pair = self.pair_at(index)
        if pair is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            if pair.reason == "cold-start":
                return "·"
            return f"{confidence_mark(pair)}{shared_share(pair) * 100:.0f}"
        if role == Qt.ItemDataRole.BackgroundRole:
            if pair.reason == "cold-start":
                return QBrush(QColor(COLD_COLOURS[1] if self.dark else COLD_COLOURS[0]))
            return QBrush(share_colour(shared_share(pair), self.dark))
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            return pair_tooltip(pair)
        if role == PAIR_ROLE:
            return pair
        if role == ID_ROLE or role == REQUEST_ROLE:
            return pair.event_id
        if role == JSON_ROLE:  # the pair as `cache --json` prints it
            return dump_json(pair.to_json())
        if role == SHARE_ROLE:
            return shared_share(pair)
        return None

