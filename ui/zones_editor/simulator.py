"""The turn simulator: one row per simulated turn — whether the system zone was rendered, reused,
re-rendered, or reused with an "environment updated" note, the note, what changed, the digests —
and a stepper that walks the turns one at a time, showing the selected turn in the preview.

Rows come from :func:`inspector.zones.simulate_turns`; the number of turns defaults to what the
config's per-turn values describe and can be raised to see the last values repeat.
"""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtGui import QFontDatabase, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView, QHBoxLayout, QHeaderView, QLabel, QPlainTextEdit, QPushButton, QSpinBox, QSplitter,
    QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget,
)

from inspector.zones import TurnRow
from inspector.zones.blocks import MAX_TURNS
from inspector.zones import diagnostic as dg

from .preview import action_text, value_text
from .problems import message_text, severity_colour, severity_icon


def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("TurnSimulator", text)


class SimulatorView(QWidget):
    """``set_rows(rows)``; ``turnSelected(turn)`` when a row is selected or stepped to;
    ``turnCountChanged(n)`` when the user asks for more or fewer turns."""

    turnSelected = Signal(int)
    turnCountChanged = Signal(int)

    HEADERS = ("turn", "system", "note", "changes", "digest", "content", "length", "warnings")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.count_spin = QSpinBox(self)
        self.count_spin.setRange(1, MAX_TURNS)
        self.count_spin.setToolTip(_tr("How many turns to simulate; after the last per-turn value, the last one "
                                       "repeats"))
        self.count_spin.valueChanged.connect(self.turnCountChanged)
        self.prev_button = QPushButton(_tr("◀ Previous"), self)
        self.prev_button.setShortcut(QKeySequence("Alt+Left"))
        self.prev_button.setToolTip(_tr("Previous turn (Alt+Left)"))
        self.prev_button.clicked.connect(lambda: self.step(-1))
        self.next_button = QPushButton(_tr("Next ▶"), self)
        self.next_button.setShortcut(QKeySequence("Alt+Right"))
        self.next_button.setToolTip(_tr("Next turn (Alt+Right)"))
        self.next_button.clicked.connect(lambda: self.step(1))
        self.summary = QLabel(self)
        self.summary.setObjectName("simulatorSummary")
        self.summary.setWordWrap(True)
        top = QHBoxLayout()
        top.setContentsMargins(4, 4, 4, 0)
        top.addWidget(QLabel(_tr("Turns"), self))
        top.addWidget(self.count_spin)
        top.addSpacing(12)
        top.addWidget(self.prev_button)
        top.addWidget(self.next_button)
        top.addStretch(1)

        self.table = QTableWidget(0, len(self.HEADERS), self)
        self.table.setObjectName("turnTable")
        self.table.setHorizontalHeaderLabels([_tr("Turn"), _tr("System zone"), _tr("Note"), _tr("Changed"),
                                              _tr("Digest"), _tr("Content digest"), _tr("System length"),
                                              _tr("Warnings")])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for column, width in enumerate((44, 230, 150, 150, 96, 96, 90, 90)):
            self.table.setColumnWidth(column, width)
        self.table.currentCellChanged.connect(self._current_changed)

        self.details = QPlainTextEdit(self)
        self.details.setObjectName("turnDetails")
        self.details.setReadOnly(True)
        self.details.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(self.table)
        split.addWidget(self.details)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self.summary)
        layout.addWidget(split, 1)
        self.rows: list[TurnRow] = []

    def set_count(self, n: int) -> None:
        with QSignalBlocker(self.count_spin):
            self.count_spin.setValue(n)

    def set_rows(self, rows: list[TurnRow], current: int) -> None:
        self.rows = rows
        palette = self.palette()
        with QSignalBlocker(self.table):
            self.table.setRowCount(len(rows))
            for r, row in enumerate(rows):
                changes = ", ".join(row.changes)
                cells = [str(row.turn), action_text(row.system_action), (row.note or "").replace("\n", " ⏎ "),
                         changes, row.digest[:12], row.content_digest[:12], str(row.system_length),
                         str(len(row.warnings)) if row.warnings else ""]
                for c, text in enumerate(cells):
                    item = self.table.item(r, c)
                    if item is None:
                        item = QTableWidgetItem()
                        self.table.setItem(r, c, item)
                    item.setText(text)
                    item.setToolTip("")
                    item.setIcon(severity_icon(dg.ERROR, palette) if c == 1 and row.error is not None else
                                 severity_icon(dg.WARNING, palette) if c == 7 and row.warnings else _no_icon())
                self.table.item(r, 4).setToolTip(row.digest)
                self.table.item(r, 5).setToolTip(row.content_digest)
                if row.note:
                    self.table.item(r, 2).setToolTip(row.note)
                if row.warnings:
                    self.table.item(r, 7).setToolTip("\n".join(message_text(w) for w in row.warnings))
                if r > 0 and row.digest != rows[r - 1].digest:
                    self.table.item(r, 4).setForeground(severity_colour(dg.WARNING, palette))
                else:
                    self.table.item(r, 4).setData(Qt.ItemDataRole.ForegroundRole, None)
            if 0 <= current < len(rows):
                self.table.setCurrentCell(current, 0)
        rerendered = sum(1 for row in rows if row.system_rerendered)
        notes = sum(1 for row in rows if row.note_added)
        digests = len({row.content_digest for row in rows})
        self.summary.setText(_tr("{turns} turns: system zone rendered {rendered}×, “environment updated” note on "
                                 "{notes} turn(s), {digests} distinct system prefix(es)").format(
            turns=len(rows), rendered=rerendered, notes=notes, digests=digests))
        self.show_details(current)
        self.prev_button.setEnabled(current > 0)
        self.next_button.setEnabled(current < len(rows) - 1)

    def current_turn(self) -> int:
        return max(0, self.table.currentRow())

    def step(self, delta: int) -> None:
        target = self.current_turn() + delta
        if 0 <= target < len(self.rows):
            self.table.setCurrentCell(target, 0)

    def _current_changed(self, row: int, _c: int, _pr: int, _pc: int) -> None:
        if row < 0:
            return
        self.show_details(row)
        self.prev_button.setEnabled(row > 0)
        self.next_button.setEnabled(row < len(self.rows) - 1)
        self.turnSelected.emit(row)

    def show_details(self, turn: int) -> None:
        if not 0 <= turn < len(self.rows):
            self.details.setPlainText("")
            return
        row = self.rows[turn]
        lines = [_tr("Turn {turn}: {action}").format(turn=row.turn, action=action_text(row.system_action)),
                 _tr("Digest: {digest}").format(digest=row.digest),
                 _tr("Content digest: {digest}").format(digest=row.content_digest)]
        if row.error is not None:
            lines.append(_tr("Assembly failed: {message}").format(message=message_text(row.error)))
        if row.changes:
            lines.append("")
            lines.append(_tr("Changed since the pinned values:"))
            for name, (old, new) in row.changes.items():
                lines.append(f"  {name}: {value_text(old)} → {value_text(new)}")
        if row.note:
            lines += ["", _tr("Note added to the context messages:"), row.note]
        for w in row.warnings:
            lines.append(f"⚠ [{w.code}] {message_text(w)}")
        self.details.setPlainText("\n".join(lines))


_EMPTY = None


def _no_icon():
    from PySide6.QtGui import QIcon

    global _EMPTY
    if _EMPTY is None:
        _EMPTY = QIcon()
    return _EMPTY
