"""The live preview: the prompt assembled for the sample input on one turn — the system message,
the prelude, the context messages (with the "environment updated" note where pinning adds one),
the transformed input, the variable values used and the section names — with the digest and the
content digest above it.

The selected block's share of the prompt is highlighted; double-clicking in the preview asks the
window to show the source position that produced that text.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtGui import (
    QColor, QFont, QFontDatabase, QGuiApplication, QMouseEvent, QPainter, QPalette, QTextCharFormat, QTextCursor,
)
from PySide6.QtWidgets import (
    QGridLayout, QLabel, QLineEdit, QPlainTextEdit, QSizePolicy, QSpinBox, QTextEdit, QVBoxLayout, QWidget,
)

from inspector.jsjson import UNDEFINED, js_stringify, utf16_len, utf16_to_index
from inspector.zones import RenderResult
from inspector.zones.blocks import (
    MAX_TURNS, NOTE_SOURCE, SYSTEM_NOTE, SYSTEM_RENDERED, SYSTEM_RERENDERED, SYSTEM_REUSED, SYSTEM_UNCHANGED,
)
from ui.theme import is_dark

from .problems import message_text, severity_colour


def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("ZonesPreview", text)


def action_text(action: str) -> str:
    return {
        SYSTEM_RENDERED: _tr("system zone rendered"),
        SYSTEM_REUSED: _tr("system zone reused (pinned)"),
        SYSTEM_NOTE: _tr("system zone reused + “environment updated” note"),
        SYSTEM_RERENDERED: _tr("system zone re-rendered"),
        SYSTEM_UNCHANGED: _tr("system zone rendered again, unchanged"),
    }.get(action, action)


def value_text(value) -> str:
    if value is UNDEFINED:
        return "undefined"
    if isinstance(value, str):
        return value
    text = js_stringify(value)
    return "undefined" if text is None else text


class DigestLabel(QLabel):
    """A digest that does not fit is shown with its middle elided ("d904ccc7848c…e8f1"); ``text()``
    is the whole digest, shown on hover and copied by a double-click."""

    def paintEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        text = self.text()
        metrics = self.fontMetrics()
        if metrics.horizontalAdvance(text) <= self.contentsRect().width():
            super().paintEvent(event)
            return
        painter = QPainter(self)
        painter.setPen(self.palette().color(QPalette.ColorRole.WindowText))
        painter.setFont(self.font())
        painter.drawText(self.contentsRect(), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                         metrics.elidedText(text, Qt.TextElideMode.ElideMiddle, self.contentsRect().width()))
        painter.end()

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        QGuiApplication.clipboard().setText(self.text())
        event.accept()


@dataclass
class Segment:
    """One block's text placed in the preview: [start, end) as Python indices of the preview."""
    block_id: str
    start: int
    end: int
    rendered: object  # RenderedBlock


class _PreviewText(QPlainTextEdit):
    doubleClicked = Signal(int)

    def mouseDoubleClickEvent(self, e: QMouseEvent) -> None:  # noqa: N802 - Qt override
        super().mouseDoubleClickEvent(e)
        self.doubleClicked.emit(self.cursorForPosition(e.position().toPoint()).position())


class PreviewPane(QWidget):
    """``show_result(result, selected_block_id)``; signals ``inputEdited(text)``,
    ``turnChanged(turn)`` and ``sourceRequested(block_id, python_index)``."""

    inputEdited = Signal(str)
    turnChanged = Signal(int)
    sourceRequested = Signal(str, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.input_edit = QLineEdit(self)
        self.input_edit.setObjectName("sampleInput")
        self.input_edit.setPlaceholderText(_tr("What the user says; {prompt} in input blocks"))
        self.input_edit.textEdited.connect(self.inputEdited)
        self.turn_spin = QSpinBox(self)
        self.turn_spin.setRange(0, MAX_TURNS - 1)
        self.turn_spin.setToolTip(_tr("Turn to render (counted from 0): per-turn values and pinning apply"))
        self.turn_spin.valueChanged.connect(self.turnChanged)
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        self.digest_label = DigestLabel(self)
        self.digest_label.setObjectName("digest")
        self.digest_label.setFont(mono)
        self.content_digest_label = DigestLabel(self)
        self.content_digest_label.setObjectName("contentDigest")
        self.content_digest_label.setFont(mono)
        for label in (self.digest_label, self.content_digest_label):
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.action_label = QLabel(self)
        self.action_label.setObjectName("systemAction")
        self.action_label.setWordWrap(True)
        self.header = QWidget(self)
        grid = QGridLayout(self.header)
        grid.setContentsMargins(4, 4, 4, 0)
        grid.setHorizontalSpacing(8)
        grid.addWidget(QLabel(_tr("Sample input"), self.header), 0, 0)
        grid.addWidget(self.input_edit, 0, 1)
        grid.addWidget(QLabel(_tr("Turn"), self.header), 0, 2)
        grid.addWidget(self.turn_spin, 0, 3)
        grid.addWidget(QLabel(_tr("Digest"), self.header), 1, 0)
        grid.addWidget(self.digest_label, 1, 1, 1, 3)
        grid.addWidget(QLabel(_tr("Content digest"), self.header), 2, 0)
        grid.addWidget(self.content_digest_label, 2, 1, 1, 3)
        grid.addWidget(self.action_label, 3, 0, 1, 4)
        grid.setColumnStretch(1, 1)

        self.text = _PreviewText(self)
        self.text.setObjectName("previewText")
        self.text.setReadOnly(True)
        self.text.setUndoRedoEnabled(False)
        self.text.setFont(mono)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.text.doubleClicked.connect(self._double_clicked)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.covel_caption = QLabel(_tr("The runtime body interpolated with the catalog's example values, as "
                                        "Covel renders it into the system prompt"), self)
        self.covel_caption.setWordWrap(True)
        self.covel_caption.setContentsMargins(4, 4, 4, 0)
        self.covel_caption.hide()
        layout.addWidget(self.header)
        layout.addWidget(self.covel_caption)
        layout.addWidget(self.text, 1)
        self.result: RenderResult | None = None
        self.shown = ""
        self.segments: list[Segment] = []
        self._headings: list[tuple[int, int]] = []
        self.selected: str | None = None

    # ------------------------------------------------------------------ inputs

    def set_input(self, text: str) -> None:
        if self.input_edit.text() != text:
            with QSignalBlocker(self.input_edit):
                self.input_edit.setText(text)
            self.input_edit.setCursorPosition(0)  # a text longer than the field shows its start

    def set_turn(self, turn: int) -> None:
        if self.turn_spin.value() != turn:
            with QSignalBlocker(self.turn_spin):
                self.turn_spin.setValue(turn)

    # ------------------------------------------------------------------ showing

    def show_covel(self, text: str) -> None:
        """A Covel template's interpolated text: no zones, turns or digests."""
        self.header.hide()
        self.covel_caption.show()
        self.result = None
        self.segments = []
        self._headings = []
        self._replace_text(text)
        self.text.setExtraSelections([])

    def show_result(self, result: RenderResult, selected: str | None = None) -> None:
        self.header.show()
        self.covel_caption.hide()
        self.result = result
        self.selected = selected
        self.digest_label.setText(result.digest)
        self.digest_label.setToolTip(result.digest + "\n" + _tr(
            "SHA-256 of the section names joined by newlines: it changes with the layout of the system zone, never "
            "with its text"))
        self.content_digest_label.setText(result.content_digest)
        self.content_digest_label.setToolTip(result.content_digest + "\n" + _tr(
            "SHA-256 of the system prefix (system text and prelude as JSON)"))
        if result.error is not None:
            self.action_label.setText(_tr("Assembly failed: {message}").format(message=message_text(result.error)))
            pal = self.action_label.palette()
            pal.setColor(QPalette.ColorRole.WindowText, severity_colour("error", self.palette()))
            self.action_label.setPalette(pal)
        else:
            summary = _tr("Turn {turn}: {action}").format(turn=result.turn, action=action_text(result.system_action))
            if result.warnings:
                summary += " · " + _tr("{count} render warning(s)").format(count=len(result.warnings))
            self.action_label.setText(summary)
            self.action_label.setPalette(self.palette())
        self._build(result)
        self._decorate()

    def _build(self, r: RenderResult) -> None:
        parts: list[str] = []
        headings: list[tuple[int, int]] = []
        length = 0
        starts: dict[tuple[str, int], int] = {}

        def heading(text: str) -> None:
            nonlocal length
            if parts:
                parts.append("\n\n")
                length += 2
            headings.append((length, length + len(text)))
            parts.append(text + "\n")
            length += len(text) + 1

        def body(text: str, key: tuple[str, int]) -> None:
            nonlocal length
            starts[key] = length
            parts.append(text)
            length += len(text)

        if r.error is not None:
            heading("── " + _tr("assembly failed") + " ──")
            body(message_text(r.error), ("error", 0))
        if r.system:
            heading("── " + _tr("system") + " ──")
            body(r.system, ("system", 0))
        for i, m in enumerate(r.prelude):
            heading(f"── {_tr('prelude')} {i + 1} · {m.role} · {m.source} ──")
            body(m.content, ("prelude", i))
        for i, m in enumerate(r.contexts):
            source = _tr("environment updated note") if m.source == NOTE_SOURCE else m.source
            heading(f"── {_tr('context')} {i + 1} · {m.role} · {source} ──")
            body(m.content, ("context", i))
        if r.error is None:
            heading("── " + _tr("input") + " · user ──")
            body(r.input, ("input", 0))
        if r.values:
            heading("── " + _tr("values") + " ──")
            body("\n".join(f"{name} = {value_text(v)}" for name, v in r.values.items()), ("values", 0))
        heading("── " + _tr("section names") + " ──")
        body("\n".join(r.section_names) if r.section_names else _tr("(none)"), ("names", 0))
        if r.warnings:
            heading("── " + _tr("render warnings") + " ──")
            body("\n".join(f"[{w.code}] {message_text(w)}" for w in r.warnings), ("warnings", 0))

        segments = []
        for b in r.blocks:
            key = {"system": ("system", 0), "prelude": ("prelude", b.message_index),
                   "context": ("context", b.message_index), "input": ("input", 0)}.get(b.target)
            if key is None or key not in starts:
                continue
            if b.target == "input" and b.text != r.input:
                continue  # an earlier link of the input chain: its text was wrapped by the next
            start = starts[key] + max(b.offset, 0)
            segments.append(Segment(b.block_id, start, start + len(b.text), b))
        text = "".join(parts)
        self.segments = segments
        self._headings = headings
        self._replace_text(text)

    def set_selected(self, block_id: str | None) -> None:
        if block_id != self.selected and self.result is not None:
            self.selected = block_id
            self._decorate()

    def _replace_text(self, text: str) -> None:
        """Replace only the part that differs from what is shown: a keystroke changes a few
        characters of a long preview, and laying the whole text out again costs more than the
        check and the render together. Keeps the scroll position."""
        old = self.shown
        if text == old:
            return
        self.shown = text
        bar = self.text.verticalScrollBar()
        scroll = bar.value()
        if not old:
            self.text.setPlainText(text)
            bar.setValue(scroll)
            return
        prefix = len(os.path.commonprefix([old, text]))
        limit = min(len(old), len(text)) - prefix
        suffix = 0
        while suffix < limit and old[-1 - suffix] == text[-1 - suffix]:
            suffix += 1
        start = utf16_len(old[:prefix])
        cursor = QTextCursor(self.text.document())
        cursor.setPosition(start)
        cursor.setPosition(start + utf16_len(old[prefix:len(old) - suffix]), QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(text[prefix:len(text) - suffix])
        bar.setValue(scroll)

    def _decorate(self) -> None:
        palette = self.palette()
        dark = is_dark(palette)
        selections = []
        shown = self.shown
        head = QTextCharFormat()
        head.setForeground(palette.color(QPalette.ColorRole.PlaceholderText))
        head.setFontWeight(QFont.Weight.Bold)
        for start, end in self._headings:
            selections.append(self._selection(utf16_len(shown[:start]), utf16_len(shown[:end]), head))
        if self.selected is not None:
            mark = QTextCharFormat()
            mark.setBackground(QColor("#3a3220" if dark else "#fff0c2"))
            for seg in self.segments:
                if seg.block_id == self.selected and seg.end > seg.start:
                    selections.append(self._selection(utf16_len(shown[:seg.start]), utf16_len(shown[:seg.end]), mark))
        self.text.setExtraSelections(selections)

    def _selection(self, start: int, end: int, fmt: QTextCharFormat) -> QTextEdit.ExtraSelection:
        sel = QTextEdit.ExtraSelection()
        cursor = QTextCursor(self.text.document())
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        sel.cursor = cursor
        sel.format = fmt
        return sel

    def highlighted_text(self) -> str:
        """The preview text of the selected block (what the highlight covers)."""
        return "".join(self.shown[s.start:s.end] for s in self.segments if s.block_id == self.selected)

    def segment_at(self, index: int) -> Segment | None:
        for seg in self.segments:
            if seg.start <= index < seg.end:
                return seg
        return None

    def _double_clicked(self, position: int) -> None:
        index = utf16_to_index(self.shown, position)
        seg = self.segment_at(index)
        if seg is None:
            return
        source = seg.rendered.text_to_source(index - seg.start)  # type: ignore[attr-defined]
        self.sourceRequested.emit(seg.block_id, 0 if source is None else source)

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == event.Type.PaletteChange and self.result is not None:
            self._decorate()
