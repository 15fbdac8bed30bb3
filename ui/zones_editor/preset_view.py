"""The widgets the editor shows for a ChatLuna preset file: the list of its templates (prompts,
the user-input format, the author's note, the lore entries) and the preview of the messages
ChatLuna sends. They only format what :mod:`inspector.zones.presets` computes."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QFont, QFontDatabase, QIcon, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QAbstractItemView, QHBoxLayout, QLabel, QLineEdit, QPlainTextEdit, QTreeWidget, QTreeWidgetItem, QVBoxLayout,
    QWidget,
)

from inspector.zones.presets import PresetRender
from inspector.zones.presets.editing import INPUT, LORE, NOTE, PROMPT, PresetSlot

from ui.views.columns import ColumnFitter
from ui.views.part_names import role_label

from .problems import severity_icon

SLOT_INDEX_ROLE = Qt.ItemDataRole.UserRole + 1
PREVIEW_LIMIT = 200_000  # characters of one message shown in the preview


def _tr(text: str) -> str:
    return QCoreApplication.translate("PresetView", text)


def slot_title(slot: PresetSlot) -> str:
    """The slot's name as a person reads it; its number is the core's (``PresetSlot.number``)."""
    if slot.kind == PROMPT:
        return _tr("Prompt {n}").format(n=slot.number)
    if slot.kind == INPUT:
        return _tr("User input format")
    if slot.kind == NOTE:
        return _tr("Author's note")
    return _tr("Lore {n}").format(n=slot.number)


def slot_detail(slot: PresetSlot) -> str:
    """The second column: role and type, or a lore entry's keywords."""
    if slot.kind == LORE:
        return ", ".join(slot.keywords)
    parts = [role_label(slot.role)]
    if slot.type:
        parts.append(slot.type)
    return " · ".join(parts)


def _text_tooltip(text: str, limit: int = 1200) -> str:
    """A block's text as its tooltip shows it: from its start, at most ``limit`` characters."""
    text = text.strip()
    return text if len(text) <= limit else text[:limit] + "…"


def first_line(text: str, width: int = 80) -> str:
    line = text.strip().split("\n", 1)[0]
    return line if len(line) <= width else line[:width - 1] + "…"


class PresetBlocksView(QTreeWidget):
    """One row per template of the preset; ``slotSelected(index)`` when the user picks one."""

    slotSelected = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("presetBlocks")
        self.setColumnCount(3)
        self.setHeaderLabels([_tr("Block"), _tr("Role / keywords"), _tr("Text")])
        self.setRootIsDecorated(False)
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        # The name (with its problem icon) and the role or keywords as wide as they are, within
        # reason (ui.views.columns); the text's first line takes the rest, whole on hover.
        self.columns = ColumnFitter(self, 2, minimums={2: 80}, most=0.5)
        self.currentItemChanged.connect(self._current_changed)

    def set_slots(self, slots: Sequence[PresetSlot]) -> None:
        with QSignalBlocker(self):
            self.clear()
            for i, slot in enumerate(slots):
                item = QTreeWidgetItem([slot_title(slot), slot_detail(slot), first_line(slot.content)])
                item.setData(0, SLOT_INDEX_ROLE, i)
                text = _text_tooltip(slot.content)
                if not slot.editable:
                    text += "\n\n" + _tr("Content parts: shown, not editable here")
                item.setToolTip(2, text)
                item.setToolTip(1, slot_detail(slot))
                self.addTopLevelItem(item)

    def update_slot(self, index: int, slot: PresetSlot) -> None:
        item = self.topLevelItem(index)
        if item is not None:
            item.setText(2, first_line(slot.content))
            if slot.editable:
                item.setToolTip(2, _text_tooltip(slot.content))

    def set_problems(self, worst: dict[int, str]) -> None:
        """``worst``: slot index → the worst severity of its problems."""
        for i in range(self.topLevelItemCount()):
            item = self.topLevelItem(i)
            severity = worst.get(i)
            item.setIcon(0, severity_icon(severity, self.palette()) if severity else QIcon())

    def select(self, index: int | None) -> None:
        with QSignalBlocker(self):
            item = self.topLevelItem(index) if index is not None else None
            self.setCurrentItem(item)
            if item is not None:
                self.scrollToItem(item)

    def _current_changed(self, current: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None) -> None:
        if current is not None:
            self.slotSelected.emit(int(current.data(0, SLOT_INDEX_ROLE)))


def message_heading(number: int, message) -> str:
    role = role_label(message.role)
    if message.source == "prompt":
        what = _tr("prompt {n}").format(n=message.index + 1) + (f" · {message.type}" if message.type else "")
    elif message.source == "history":
        what = _tr("history {n}").format(n=message.index + 1)
    elif message.source == "lore":
        what = _tr("lore entries {entries} · {position}").format(
            entries=", ".join(str(e) for e in message.entries), position=message.position)
    elif message.source == "authors_note":
        what = _tr("author's note · {position}").format(position=message.position)
    else:
        what = _tr("user input")
    return f"{number}. {role} · {what}"


class PresetPreview(QWidget):
    """The messages ChatLuna sends for the preset, in its order, with the sample input the user
    types; ``inputEdited(text)``."""

    inputEdited = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("presetPreview")
        self.input = QLineEdit(self)
        self.input.setObjectName("presetInput")
        self.input.setPlaceholderText(_tr("What the user says"))
        self.input.textEdited.connect(self.inputEdited.emit)
        row = QHBoxLayout()
        row.addWidget(QLabel(_tr("Input:"), self))
        row.addWidget(self.input, 1)
        self.summary = QLabel(self)
        self.summary.setObjectName("presetSummary")
        self.summary.setWordWrap(True)
        self.view = QPlainTextEdit(self)
        self.view.setObjectName("presetMessages")
        self.view.setReadOnly(True)
        self.view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(row)
        layout.addWidget(self.summary)
        layout.addWidget(self.view, 1)

    def set_input(self, text: str) -> None:
        if self.input.text() != text:
            with QSignalBlocker(self.input):
                self.input.setText(text)

    def show_render(self, result: PresetRender) -> None:
        headings: list[tuple[int, int]] = []
        parts: list[str] = []
        offset = 0
        for number, message in enumerate(result.messages, 1):
            heading = message_heading(number, message)
            content = message.content
            if len(content) > PREVIEW_LIMIT:
                content = content[:PREVIEW_LIMIT] + "\n" + _tr("… ({n} more characters)").format(
                    n=len(message.content) - PREVIEW_LIMIT)
            block = f"{heading}\n{content}\n\n"
            headings.append((offset, len(heading)))
            parts.append(block)
            offset += len(block)
        text = "".join(parts)
        if self.view.toPlainText() != text:
            scroll = self.view.verticalScrollBar().value()
            self.view.setPlainText(text)
            bold = QTextCharFormat()
            bold.setFontWeight(QFont.Weight.Bold)
            cursor = QTextCursor(self.view.document())
            for start, length in headings:
                cursor.setPosition(start)
                cursor.setPosition(start + length, QTextCursor.MoveMode.KeepAnchor)
                cursor.mergeCharFormat(bold)
            self.view.verticalScrollBar().setValue(scroll)
        self.summary.setText(self.summary_text(result))

    @staticmethod
    def summary_text(result: PresetRender) -> str:
        lines = [_tr("{n} message(s) in ChatLuna's order.").format(n=len(result.messages))]
        if result.lore:
            lines.append(_tr("Lore entries activated: {entries}.").format(
                entries=", ".join(str(h.entry) for h in result.lore)))
        note = result.authors_note
        if note is not None:
            lines.append(_tr("Author's note: inserted.") if note.active
                         else _tr("Author's note: not inserted on this turn."))
        return " ".join(lines)
