"""QSyntaxHighlighter over :func:`inspector.highlight.spans_utf16`, coloured from the palette so the
same code reads well on the light and the dark theme."""

from __future__ import annotations

from PySide6.QtGui import QColor, QFont, QPalette, QSyntaxHighlighter, QTextCharFormat, QTextDocument

from inspector.highlight import spans_utf16
from ui.theme import is_dark


def formats_for(palette: QPalette) -> dict[str, QTextCharFormat]:
    dark = is_dark(palette)
    text = palette.color(QPalette.ColorRole.Text)

    def fmt(fg: str | QColor | None = None, *, bold: bool = False, bg: str | QColor | None = None,
            italic: bool = False) -> QTextCharFormat:
        f = QTextCharFormat()
        if fg is not None:
            f.setForeground(QColor(fg))
        if bg is not None:
            f.setBackground(QColor(bg))
        if bold:
            f.setFontWeight(QFont.Weight.Bold)
        if italic:
            f.setFontItalic(True)
        return f

    dim = QColor(text)
    dim.setAlpha(110)
    return {
        "tag": fmt("#7fb6ff" if dark else "#1f5fbf", bold=True),
        "prefix": fmt("#d7a6ff" if dark else "#7a2fb5", bold=True),
        "template": fmt("#ffcf70" if dark else "#9a5b00", bg="#3a3220" if dark else "#fff3d6"),
        "json-key": fmt("#8fd3ff" if dark else "#0b5d8a"),
        "json-string": fmt("#a8d89a" if dark else "#2b7a2b"),
        "json-number": fmt("#f2a86f" if dark else "#b0520e"),
        "json-constant": fmt("#f28f8f" if dark else "#a12a2a", bold=True),
        "punctuation": fmt(palette.color(QPalette.ColorRole.PlaceholderText)),
        "comment": fmt(palette.color(QPalette.ColorRole.PlaceholderText), italic=True),
        # Chips: a solid background so a breakpoint is impossible to overlook.
        "sentinel": fmt("#ffffff", bold=True, bg="#c2410c" if dark else "#d9480f"),
        "cache-control": fmt("#ffffff", bold=True, bg="#a16207" if dark else "#b7791f"),
        "system-instruction": fmt(dim, italic=True),
    }


class PromptHighlighter(QSyntaxHighlighter):
    """Highlights each block (line) on its own; ``language`` is ``prompt`` or ``json``.

    With :meth:`set_lines` (spans of every line, computed off the GUI thread by
    :func:`inspector.highlight.line_spans`) ``highlightBlock`` only looks the block's spans up;
    without, it lexes the block itself."""

    def __init__(self, document: QTextDocument, palette: QPalette, language: str = "prompt") -> None:
        super().__init__(document)
        self.language = language
        self._formats = formats_for(palette)
        self._lines: list[list[tuple[int, int, str]]] | None = None

    def set_lines(self, lines: list[list[tuple[int, int, str]]] | None) -> None:
        """Precomputed spans per block for the next text; None: lex each block when highlighted."""
        self._lines = lines

    def set_language(self, language: str) -> None:
        if language != self.language:
            self.language = language
            self.rehighlight()

    def set_palette(self, palette: QPalette) -> None:
        self._formats = formats_for(palette)
        self.rehighlight()

    def format_for(self, key: str) -> QTextCharFormat | None:
        return self._formats.get(key)

    def highlightBlock(self, text: str) -> None:  # noqa: N802 - Qt override
        lines = self._lines
        if lines is not None:
            number = self.currentBlock().blockNumber()
            runs = lines[number] if number < len(lines) else ()
        else:
            runs = spans_utf16(text, self.language)
        formats = self._formats
        for start, end, key in runs:
            if key == "text":
                continue
            fmt = formats.get(key)
            if fmt is not None:
                self.setFormat(start, end - start, fmt)
