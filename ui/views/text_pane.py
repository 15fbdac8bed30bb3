"""A read-only, highlighted text view with a find bar and a word-wrap toggle.

Cache sentinels are invisible private-use characters on the wire; the pane shows each as a
visible chip (``⟦cache breakpoint⟧``) and copying gives back the recorded text, sentinel included.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QMimeData, Qt, Signal
from PySide6.QtGui import (
    QColor, QFont, QFontDatabase, QKeyEvent, QKeySequence, QTextCharFormat, QTextCursor, QTextDocument,
)
from PySide6.QtWidgets import (
    QCheckBox, QHBoxLayout, QLabel, QLineEdit, QPlainTextEdit, QSizePolicy, QTextEdit, QToolButton, QVBoxLayout, QWidget,
)

from inspector.anatomy.conversation import find_hits
from inspector.jsjson import utf16_len, utf16_to_index
from inspector.highlight import DisplayText, PreparedText, display_text, prepare_text

from ui.views.highlighter import PromptHighlighter
from ui.views.part_names import sentinel_chip


def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("TextPane", text)


# At most this many search hits are marked in one pane (the count says how many were marked).
HIGHLIGHT_LIMIT = 5_000


def utf16_prefix(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``spans`` (code-point offsets, in order) as the UTF-16 offsets a QTextDocument counts in,
    measured incrementally so many hits in a long text stay linear."""
    out: list[tuple[int, int]] = []
    pos = base = 0
    for start, end in spans:
        base += utf16_len(text[pos:start])
        length = utf16_len(text[start:end])
        out.append((base, base + length))
        base += length
        pos = end
    return out


class ElidedLabel(QLabel):
    """A one-line label that ends in "…" when it is narrower than its text, the whole text in its
    tooltip; ``text()`` is the whole text."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._full = ""

    def setText(self, text: str) -> None:  # noqa: N802 - Qt override
        self._full = text
        self._elide()

    def text(self) -> str:
        return self._full

    def resizeEvent(self, e) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(e)
        self._elide()

    def _elide(self) -> None:
        shown = self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideRight, max(0, self.width()))
        super().setText(shown)
        self.setToolTip(self._full if shown != self._full else "")


class _Editor(QPlainTextEdit):
    findRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.display: DisplayText = display_text("")

    def event(self, e: QEvent) -> bool:  # noqa: N802 - Qt override
        # Take Ctrl+F before the window's own Find action (which searches the navigator) when
        # the focus is in this text: the user means "find in what I am reading".
        if e.type() == QEvent.Type.ShortcutOverride and isinstance(e, QKeyEvent) \
                and e.matches(QKeySequence.StandardKey.Find):
            e.accept()
            return True
        return super().event(e)

    def keyPressEvent(self, e: QKeyEvent) -> None:  # noqa: N802 - Qt override
        if e.matches(QKeySequence.StandardKey.Find):
            self.findRequested.emit()
            return
        super().keyPressEvent(e)

    def createMimeDataFromSelection(self) -> QMimeData:  # noqa: N802 - Qt override
        cursor = self.textCursor()
        shown = self.display.display
        start = utf16_to_index(shown, cursor.selectionStart())
        end = utf16_to_index(shown, cursor.selectionEnd())
        mime = QMimeData()
        mime.setText(self.display.source_slice(start, end))
        return mime


class TextPane(QWidget):
    """``set_content(text, language)``; ``text()`` is the recorded text, ``shown_text()`` what is on
    screen. ``language``: ``prompt`` or ``json``. With ``unescapable`` the pane offers an
    "Unescaped" toggle (``unescapedToggled``); whoever fills the pane shows the text that way."""

    unescapedToggled = Signal(bool)

    def __init__(self, parent: QWidget | None = None, *, wrap: bool = True, unescapable: bool = False) -> None:
        super().__init__(parent)
        self.editor = _Editor(self)
        self.editor.setReadOnly(True)
        self.editor.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                            | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.editor.setFont(font)
        self.editor.setTabStopDistance(self.editor.fontMetrics().horizontalAdvance(" ") * 4)
        self.highlighter = PromptHighlighter(self.editor.document(), self.palette())
        self.editor.findRequested.connect(self.open_find)
        self.chip = sentinel_chip()

        self.caption = ElidedLabel(self)
        self.caption.setObjectName("paneCaption")
        self.caption.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.caption.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.wrap_box = QCheckBox(_tr("Wrap"), self)
        self.wrap_box.setToolTip(_tr("Wrap long lines"))
        self.wrap_box.toggled.connect(self.set_wrap)
        top = QHBoxLayout()
        top.setContentsMargins(2, 0, 2, 0)
        self.show_all_button = QToolButton(self)
        self.show_all_button.setAutoRaise(True)
        self.show_all_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.show_all_button.clicked.connect(self.show_all)
        self.show_all_button.hide()
        top.addWidget(self.caption, 1)
        top.addWidget(self.show_all_button)
        self.unescape_box = QCheckBox(_tr("Unescaped"), self)
        self.unescape_box.setToolTip(_tr("Show JSON string values as text: line breaks as lines, no escapes"))
        self.unescape_box.toggled.connect(self.unescapedToggled)
        self.unescape_box.setVisible(unescapable)
        top.addWidget(self.unescape_box)
        top.addWidget(self.wrap_box)
        self._prepared: PreparedText | None = None
        self._needle = ""
        self._marked = ""  # the needle the shown text is marked for
        # A deferred text: (make_text, language, caption); filled when first needed.
        self._pending: tuple[Callable[[], str], str, str] | None = None

        self.find_bar = QWidget(self)
        self.find_edit = QLineEdit(self.find_bar)
        self.find_edit.setPlaceholderText(_tr("Find in text (Enter: next, Shift+Enter: previous)"))
        self.find_edit.setClearButtonEnabled(True)
        self.find_status = QLabel(self.find_bar)
        prev_btn = QToolButton(self.find_bar)
        prev_btn.setText("▲")
        prev_btn.setToolTip(_tr("Previous match"))
        prev_btn.clicked.connect(lambda: self.find_next(backward=True))
        next_btn = QToolButton(self.find_bar)
        next_btn.setText("▼")
        next_btn.setToolTip(_tr("Next match"))
        next_btn.clicked.connect(lambda: self.find_next())
        close_btn = QToolButton(self.find_bar)
        close_btn.setText("✕")
        close_btn.setToolTip(_tr("Close (Esc)"))
        close_btn.clicked.connect(self.close_find)
        fb = QHBoxLayout(self.find_bar)
        fb.setContentsMargins(2, 2, 2, 2)
        fb.addWidget(self.find_edit, 1)
        fb.addWidget(self.find_status)
        fb.addWidget(prev_btn)
        fb.addWidget(next_btn)
        fb.addWidget(close_btn)
        self.find_bar.hide()
        self.find_edit.installEventFilter(self)
        self.find_edit.textChanged.connect(lambda _t: self._find_from_start())

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(top)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.find_bar)
        self.wrap_box.setChecked(wrap)
        self.set_wrap(wrap)

    # ------------------------------------------------------------------ content

    def set_content(self, text: str, language: str = "prompt", caption: str = "") -> None:
        """Show ``text`` now (display text and spans computed here: fine for short texts; long ones
        should be prepared off the GUI thread and given to :meth:`set_prepared`)."""
        self.set_prepared(prepare_text(text, language, chip=self.chip), caption)

    def defer(self, make_text: Callable[[], str], language: str = "prompt", caption: str = "") -> None:
        """Show ``caption`` now and the text later: whoever shows the pane prepares
        ``make_text()`` in the background (:meth:`pending`, :meth:`set_prepared`); reading the
        text before that computes it here."""
        self._pending = (make_text, language, caption)
        self._apply(PreparedText(display_text(""), "", language, []), caption)

    @property
    def pending(self) -> tuple[Callable[[], str], str, str] | None:
        return self._pending

    def materialize(self) -> None:
        """Fill a deferred text now, on this thread."""
        if self._pending is not None:
            make_text, language, caption = self._pending
            self.set_content(make_text(), language, caption)

    def set_prepared(self, prepared: PreparedText, caption: str = "") -> None:
        self._pending = None
        self._apply(prepared, caption)

    def _apply(self, prepared: PreparedText, caption: str) -> None:
        self._prepared = prepared
        self.editor.display = prepared.display
        self.highlighter.language = prepared.language
        shown = prepared.shown
        lines = prepared.lines
        if lines is not None and any(ch in shown for ch in ("\r", "\u2029", "\u2028")):
            lines = None  # Qt would split blocks elsewhere than at "\n": lex per block instead
        self.highlighter.set_lines(lines)
        self.editor.setPlainText(shown)
        self.caption.setText(caption)
        self.caption.setVisible(bool(caption))
        if prepared.truncated:
            size = len(prepared.display.display)
            self.show_all_button.setText(_tr("Show all ({size:,} characters)").format(size=size))
            self.show_all_button.setToolTip(_tr("Only the first {n:,} characters are shown; show the whole text")
                                            .format(n=len(shown)))
        self.show_all_button.setVisible(prepared.truncated)
        self.editor.setExtraSelections([])
        self._marked = ""
        if self._needle and self.isVisible():
            self.highlight_all(self._needle)
        if self.find_bar.isVisible() and self.find_edit.text():
            self._find_from_start()

    @property
    def truncated(self) -> bool:
        return self._prepared is not None and self._prepared.truncated

    def show_all(self) -> None:
        """Show the whole text; lines past the first part stay unhighlighted."""
        prepared = self._prepared
        if prepared is None or not prepared.truncated:
            return
        caption = self.caption.text()
        self._apply(PreparedText(prepared.display, prepared.display.display, prepared.language,
                                 prepared.lines), caption)

    def text(self) -> str:
        self.materialize()
        return self.editor.display.source

    def shown_text(self) -> str:
        self.materialize()
        return self.editor.toPlainText()

    def mark(self, source_offset: int, colour: QColor) -> None:
        """Highlight the character at ``source_offset`` of the recorded text (a first difference)
        and scroll to it; an offset at the end marks the end of the text."""
        at = self.editor.display.source_to_display(source_offset)
        doc_len = len(self.shown_text())
        cursor = QTextCursor(self.editor.document())
        cursor.setPosition(utf16_len(self.shown_text()[:min(at, doc_len)]))
        if at < doc_len:
            cursor.setPosition(utf16_len(self.shown_text()[: at + 1]), QTextCursor.MoveMode.KeepAnchor)
        sel = QTextEdit.ExtraSelection()
        sel.cursor = cursor
        sel.format.setBackground(colour)
        sel.format.setForeground(QColor("#ffffff"))
        self.editor.setExtraSelections([sel])
        plain = QTextCursor(cursor)
        plain.clearSelection()
        self.editor.setTextCursor(plain)
        self.editor.centerCursor()

    def set_wrap(self, on: bool) -> None:
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth if on
                                    else QPlainTextEdit.LineWrapMode.NoWrap)
        if self.wrap_box.isChecked() != on:
            self.wrap_box.setChecked(on)

    def changeEvent(self, e: QEvent) -> None:  # noqa: N802 - Qt override
        if e.type() == QEvent.Type.PaletteChange:
            self.highlighter.set_palette(self.palette())
        super().changeEvent(e)

    # ------------------------------------------------------------------ find

    @property
    def unescaped(self) -> bool:
        return self.unescape_box.isChecked()

    def set_needle(self, needle: str) -> int:
        """Mark ``needle`` now if the pane is on screen (the count of hits), else when it is next
        shown or filled (0 now): marking every pane of a large request at once would stall."""
        self._needle = needle
        if self.isVisible() and self._pending is None:
            return self.highlight_all(needle)
        return 0

    def showEvent(self, e) -> None:  # noqa: N802 - Qt override
        super().showEvent(e)
        if self._marked != self._needle and self._pending is None:
            self.highlight_all(self._needle)

    def highlight_all(self, needle: str) -> int:
        """Mark every occurrence of ``needle`` (ASCII case ignored, as the search does) in the shown
        text and scroll to the first; the number of occurrences. An empty needle clears."""
        self._needle = needle
        self._marked = needle
        shown = self.editor.toPlainText()
        hits = find_hits(shown, needle, limit=HIGHLIGHT_LIMIT) if needle else []
        selections = []
        if hits:
            fmt = QTextCharFormat()
            fmt.setBackground(QColor("#ffd43b"))
            fmt.setForeground(QColor("#000000"))
            offsets = utf16_prefix(shown, hits)
            for start, end in offsets:
                cursor = QTextCursor(self.editor.document())
                cursor.setPosition(start)
                cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
                sel = QTextEdit.ExtraSelection()
                sel.cursor = cursor
                sel.format = fmt
                selections.append(sel)
            first = QTextCursor(self.editor.document())
            first.setPosition(offsets[0][0])
            self.editor.setTextCursor(first)
            self.editor.centerCursor()
        self.editor.setExtraSelections(selections)
        return len(hits)

    def open_find(self) -> None:
        self.materialize()
        self.find_bar.show()
        selected = self.editor.textCursor().selectedText()
        if selected and "\u2029" not in selected:
            self.find_edit.setText(selected)
        self.find_edit.setFocus()
        self.find_edit.selectAll()

    def close_find(self) -> None:
        self.find_bar.hide()
        self.find_status.clear()
        self.editor.setFocus()

    def _find_from_start(self) -> None:
        cursor = self.editor.textCursor()
        cursor.setPosition(cursor.selectionStart())
        self.editor.setTextCursor(cursor)
        self.find_next()

    def find_next(self, backward: bool = False) -> bool:
        needle = self.find_edit.text()
        if not needle:
            self.find_status.clear()
            return False
        flags = QTextDocument.FindFlag.FindBackward if backward else QTextDocument.FindFlag(0)
        found = self.editor.find(needle, flags)
        if not found:
            # Wrap around, like every editor's find bar.
            cursor = self.editor.textCursor()
            cursor.movePosition(QTextCursor.MoveOperation.End if backward else QTextCursor.MoveOperation.Start)
            self.editor.setTextCursor(cursor)
            found = self.editor.find(needle, flags)
        self.find_status.setText("" if found else _tr("No match"))
        return found

    def eventFilter(self, obj, e: QEvent) -> bool:  # noqa: N802 - Qt override
        if obj is self.find_edit and e.type() == QEvent.Type.KeyPress and isinstance(e, QKeyEvent):
            if e.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.find_next(backward=bool(e.modifiers() & Qt.KeyboardModifier.ShiftModifier))
                return True
            if e.key() == Qt.Key.Key_Escape:
                self.close_find()
                return True
        return super().eventFilter(obj, e)


