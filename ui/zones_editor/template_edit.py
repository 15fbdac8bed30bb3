"""The template editor: a plain-text editor with the template language highlighted (the Pygments
lexers of :mod:`inspector.zones.lexer`), diagnostics drawn as squiggles, their messages as
tooltips, and a line-number gutter that marks lines with problems.

Positions: diagnostics carry UTF-16 offsets, which is what a ``QTextCursor`` position is, so they
are used as they are. The editor's own undo is off: every edit goes through the window's
``QUndoStack`` (see :mod:`.document`), so Ctrl+Z undoes typing and block edits in one history.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRect, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor, QFont, QFontDatabase, QHelpEvent, QKeyEvent, QKeySequence, QPainter, QPaintEvent, QPalette,
    QSyntaxHighlighter, QTextCharFormat, QTextCursor, QTextDocument,
)
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit, QToolTip, QWidget

from inspector.zones import Diagnostic
from inspector.zones import diagnostic as dg
from inspector.zones.lexer import spans_utf16
from ui.theme import is_dark

from .problems import message_text, severity_colour, severity_name



def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("TemplateEdit", text)


# Languages lexed as a whole text (their tags may span lines) rather than a line at a time.
WHOLE_TEXT_LANGUAGES = ("covel", "chatluna-renderer")

# Squiggles drawn at most in one template (a pasted line can hold tens of thousands of problems).
MAX_SQUIGGLES = 1000


def template_formats(palette: QPalette) -> dict[str, QTextCharFormat]:
    """Style key (``inspector.zones.lexer.STYLE_KEYS``) → format, for the palette's theme."""
    dark = is_dark(palette)

    def fmt(fg: str, *, bold: bool = False, italic: bool = False, bg: str | None = None,
            underline: bool = False) -> QTextCharFormat:
        f = QTextCharFormat()
        f.setForeground(QColor(fg))
        if bg is not None:
            f.setBackground(QColor(bg))
        if bold:
            f.setFontWeight(QFont.Weight.Bold)
        if italic:
            f.setFontItalic(True)
        if underline:
            f.setFontUnderline(True)
        return f

    return {
        "brace": fmt("#7fb6ff" if dark else "#1f5fbf", bold=True),
        "keyword": fmt("#d7a6ff" if dark else "#7a2fb5", bold=True),
        "variable": fmt("#ffcf70" if dark else "#9a5b00", bold=True),
        "escaped-variable": fmt("#ffcf70" if dark else "#9a5b00", bold=True, italic=True,
                                bg="#3a3220" if dark else "#fff3d6"),
        "tag": fmt("#8fd3ff" if dark else "#0b5d8a", bold=True),
        "string": fmt("#a8d89a" if dark else "#2b7a2b"),
        "number": fmt("#f2a86f" if dark else "#b0520e"),
        "constant": fmt("#f28f8f" if dark else "#a12a2a", bold=True),
        "operator": fmt("#d7a6ff" if dark else "#7a2fb5"),
        "escape": fmt(palette.color(QPalette.ColorRole.PlaceholderText).name(), bold=True),
        # A brace kept as literal text: worth a second look, not an error by itself.
        "literal": fmt("#e59a9a" if dark else "#a33b3b", bg="#3a2424" if dark else "#fdeaea"),
    }


class TemplateHighlighter(QSyntaxHighlighter):
    """Colours one line at a time; ChatLuna tags never span a line, so that equals lexing the
    whole text. Covel tagged blocks do span lines; the Covel lexer is given the whole text once
    per change and each line looks its runs up."""

    def __init__(self, document: QTextDocument, palette: QPalette, language: str = "zones") -> None:
        super().__init__(document)
        self.language = language
        self.formats = template_formats(palette)
        self._covel_runs: list[tuple[int, int, str]] = []

    def set_language(self, language: str) -> None:
        if language != self.language:
            self.language = language
            self.rehighlight()

    def set_palette(self, palette: QPalette) -> None:
        self.formats = template_formats(palette)
        self.rehighlight()

    def set_covel_runs(self, runs: list[tuple[int, int, str]]) -> None:
        """UTF-16 runs of the whole text, for a language whose tags may span lines (Covel, the
        chatluna-renderer dialect): ``spans_utf16(text, language)``."""
        self._covel_runs = runs

    def highlightBlock(self, text: str) -> None:  # noqa: N802 - Qt override
        formats = self.formats
        if self.language in WHOLE_TEXT_LANGUAGES:
            block = self.currentBlock()
            first, last = block.position(), block.position() + block.length()
            for start, end, key in self._covel_runs:
                if end <= first or start >= last or key == "text":
                    continue
                fmt = formats.get(key)
                if fmt is not None:
                    s = max(start, first) - first
                    self.setFormat(s, min(end, last) - first - s, fmt)
            return
        for start, end, key in spans_utf16(text, "zones"):
            if key == "text":
                continue
            fmt = formats.get(key)
            if fmt is not None:
                self.setFormat(start, end - start, fmt)


class _Gutter(QWidget):
    def __init__(self, editor: TemplateEdit) -> None:
        super().__init__(editor)
        self.editor = editor

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(self.editor.gutter_width(), 0)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        self.editor.paint_gutter(event)


class TemplateEdit(QPlainTextEdit):
    """``set_diagnostics(list)`` draws squiggles; ``select_span(start, end)`` (UTF-16) jumps there;
    ``diagnostics_at(position)`` is what the tooltip shows. ``textEdited(text, cursor, before)``
    is emitted for the user's edits only, never for :meth:`set_text`."""

    textEdited = Signal(str, int, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("templateEdit")
        font = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        font.setStyleHint(QFont.StyleHint.Monospace)
        self.setFont(font)
        self.setTabStopDistance(self.fontMetrics().horizontalAdvance(" ") * 4)
        self.setUndoRedoEnabled(False)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.highlighter = TemplateHighlighter(self.document(), self.palette())
        self.diagnostics: list[Diagnostic] = []
        self._loading = False
        self._cursor_before = 0
        self._text = ""
        self.gutter = _Gutter(self)
        self.blockCountChanged.connect(lambda _n: self._update_gutter_width())
        self.updateRequest.connect(self._update_gutter)
        self.document().contentsChange.connect(self._contents_change)
        self._update_gutter_width()

    # ------------------------------------------------------------------ text

    def text(self) -> str:
        # toPlainText() turns no-break spaces into spaces; the raw text only needs its paragraph
        # separators mapped back to newlines.
        return self.document().toRawText().replace("\u2029", "\n")

    def set_text(self, text: str, language: str = "zones", cursor: int | None = None) -> None:
        """Show ``text`` without emitting ``textEdited``; keeps the scroll position when the text
        is the same document being restored (undo), else starts at the top."""
        self._loading = True
        try:
            if language in WHOLE_TEXT_LANGUAGES:
                self.highlighter.set_covel_runs(spans_utf16(text, language))
            self.highlighter.language = language
            scroll = self.verticalScrollBar().value()
            if self.text() != text:
                self.setPlainText(text)
            else:
                self.highlighter.rehighlight()
            self._text = text
            if cursor is not None:
                c = self.textCursor()
                c.setPosition(max(0, min(cursor, self.document().characterCount() - 1)))
                self.setTextCursor(c)
                self.verticalScrollBar().setValue(scroll)
                self.ensureCursorVisible()
        finally:
            self._loading = False

    def keyPressEvent(self, e: QKeyEvent) -> None:  # noqa: N802 - Qt override
        self._cursor_before = self.textCursor().position()
        super().keyPressEvent(e)

    def event(self, e: QEvent) -> bool:  # noqa: N802 - Qt override
        # With its own undo off the editor would still swallow Ctrl+Z / Ctrl+Y as text shortcuts;
        # let them reach the window's Undo/Redo actions.
        if e.type() == QEvent.Type.ShortcutOverride and isinstance(e, QKeyEvent) and (
                e.matches(QKeySequence.StandardKey.Undo) or e.matches(QKeySequence.StandardKey.Redo)):
            e.ignore()
            return False
        if e.type() == QEvent.Type.ToolTip and isinstance(e, QHelpEvent):
            self._tooltip(e)
            return True
        return super().event(e)

    def _contents_change(self, _pos: int, _removed: int, _added: int) -> None:
        if self._loading:
            return
        text = self.text()
        if text == self._text:
            return
        self._text = text
        if self.highlighter.language in WHOLE_TEXT_LANGUAGES:
            # Tags span lines: one edit can change the colours of lines far below.
            self.highlighter.set_covel_runs(spans_utf16(text, self.highlighter.language))
            self._loading = True
            try:
                self.highlighter.rehighlight()
            finally:
                self._loading = False
        self.textEdited.emit(text, self.textCursor().position(), self._cursor_before)

    # ------------------------------------------------------------------ diagnostics

    def set_diagnostics(self, diagnostics: list[Diagnostic]) -> None:
        """Squiggle each diagnostic's span (UTF-16); an empty span marks the character after it.
        Worse problems are drawn last so their colour wins where spans overlap."""
        self.diagnostics = list(diagnostics)
        size = self.document().characterCount() - 1
        selections = []
        palette = self.palette()
        # Past MAX_SQUIGGLES only the worst, earliest ones are drawn (each is an extra selection Qt
        # lays out on every paint); the problems list and the tooltips still have them all.
        shown = sorted(self.diagnostics, key=lambda d: (dg.severity_rank(d.severity), d.start_utf16))[:MAX_SQUIGGLES]
        for d in sorted(shown, key=lambda d: -dg.severity_rank(d.severity)):
            start, end = self._span(d, size)
            if start is None:
                continue
            sel = QTextEdit.ExtraSelection()
            cursor = QTextCursor(self.document())
            cursor.setPosition(start)
            cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
            sel.cursor = cursor
            fmt = QTextCharFormat()
            fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SpellCheckUnderline)
            fmt.setUnderlineColor(severity_colour(d.severity, palette))
            sel.format = fmt
            selections.append(sel)
        self.setExtraSelections(selections)
        self.gutter.update()

    @staticmethod
    def _span(d: Diagnostic, size: int) -> tuple[int | None, int]:
        if d.field not in ("content", None):
            return None, 0
        start, end = min(d.start_utf16, size), min(d.end_utf16, size)
        if end <= start:
            if size == 0:
                return None, 0
            start = min(start, size - 1)
            end = start + 1
        return start, end

    def squiggles(self) -> list[tuple[int, int, QColor]]:
        """(start, end, colour) of every squiggle drawn, for tests and tools."""
        return [(s.cursor.selectionStart(), s.cursor.selectionEnd(), s.format.underlineColor())
                for s in self.extraSelections()
                if s.format.underlineStyle() == QTextCharFormat.UnderlineStyle.SpellCheckUnderline]

    def diagnostics_at(self, position: int) -> list[Diagnostic]:
        size = self.document().characterCount() - 1
        out = []
        for d in self.diagnostics:
            start, end = self._span(d, size)
            if start is not None and start <= position < end:
                out.append(d)
        return sorted(out, key=lambda d: dg.severity_rank(d.severity))

    def tooltip_text(self, position: int) -> str:
        found = self.diagnostics_at(position)
        return "\n".join(f"{severity_name(d.severity)} [{d.code}]: {message_text(d)}" for d in found)

    def _tooltip(self, e: QHelpEvent) -> None:
        cursor = self.cursorForPosition(self.viewport().mapFrom(self, e.pos()))
        position = cursor.position()
        # cursorForPosition rounds to the nearest gap; the character under the mouse is the one
        # after the gap unless the mouse is on the right half of the previous character.
        rect = self.cursorRect(cursor)
        if e.pos().x() - self.viewport().x() < rect.x() and position > 0:
            position -= 1
        text = self.tooltip_text(position)
        if text:
            QToolTip.showText(e.globalPos(), text, self)
        else:
            QToolTip.hideText()
            e.ignore()

    def select_span(self, start: int, end: int) -> None:
        """Select [start, end) (UTF-16), scroll it into view and take the focus."""
        size = self.document().characterCount() - 1
        cursor = self.textCursor()
        cursor.setPosition(max(0, min(start, size)))
        cursor.setPosition(max(0, min(end, size)), QTextCursor.MoveMode.KeepAnchor)
        self.setTextCursor(cursor)
        self.ensureCursorVisible()
        self.setFocus(Qt.FocusReason.OtherFocusReason)

    # ------------------------------------------------------------------ gutter

    def gutter_width(self) -> int:
        digits = len(str(max(1, self.blockCount())))
        return 14 + self.fontMetrics().horizontalAdvance("9") * max(2, digits)

    def _update_gutter_width(self) -> None:
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)

    def _update_gutter(self, rect: QRect, dy: int) -> None:
        if dy:
            self.gutter.scroll(0, dy)
        else:
            self.gutter.update(0, rect.y(), self.gutter.width(), rect.height())
        if rect.contains(self.viewport().rect()):
            self._update_gutter_width()

    def resizeEvent(self, e) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(e)
        cr = self.contentsRect()
        self.gutter.setGeometry(QRect(cr.left(), cr.top(), self.gutter_width(), cr.height()))

    def changeEvent(self, e: QEvent) -> None:  # noqa: N802 - Qt override
        super().changeEvent(e)
        if e.type() == QEvent.Type.PaletteChange:
            self.highlighter.set_palette(self.palette())
            self.set_diagnostics(self.diagnostics)

    def paint_gutter(self, event: QPaintEvent) -> None:
        painter = QPainter(self.gutter)
        palette = self.palette()
        painter.fillRect(event.rect(), palette.color(QPalette.ColorRole.AlternateBase))
        worst: dict[int, str] = {}
        size = self.document().characterCount() - 1
        for d in self.diagnostics:
            start, _end = self._span(d, size)
            if start is None:
                continue
            number = self.document().findBlock(start).blockNumber()
            if number not in worst or dg.severity_rank(d.severity) < dg.severity_rank(worst[number]):
                worst[number] = d.severity
        block = self.firstVisibleBlock()
        number = block.blockNumber()
        top = round(self.blockBoundingGeometry(block).translated(self.contentOffset()).top())
        bottom = top + round(self.blockBoundingRect(block).height())
        dim = palette.color(QPalette.ColorRole.PlaceholderText)
        width = self.gutter.width()
        line_height = self.fontMetrics().height()
        while block.isValid() and top <= event.rect().bottom():
            if block.isVisible() and bottom >= event.rect().top():
                if number in worst:
                    painter.fillRect(0, top, 3, bottom - top, severity_colour(worst[number], palette))
                painter.setPen(dim)
                painter.drawText(0, top, width - 6, line_height, Qt.AlignmentFlag.AlignRight, str(number + 1))
            block = block.next()
            top = bottom
            bottom = top + round(self.blockBoundingRect(block).height())
            number += 1
        painter.end()

