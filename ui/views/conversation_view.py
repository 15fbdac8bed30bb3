"""The request as a conversation: a card per message (role, the anatomy's part label, tokens,
cache-breakpoint chips) with its text unescaped and wrapped, long parts collapsed.

What a card holds is computed by :func:`inspector.anatomy.conversation.conversation`; this view
only lays the cards out. Cards are built a few at a time on the event loop (a request of hundreds
of messages never blocks the GUI thread for long), and a long part is laid out only when the user
opens it; a very long one opens in a scrollable text box rather than as one huge label.
"""

from __future__ import annotations

import time
from html import escape

from PySide6.QtCore import QCoreApplication, QEvent, Qt, QTimer
from PySide6.QtGui import QColor, QFontDatabase, QGuiApplication, QKeyEvent, QPalette, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QFrame, QHBoxLayout, QLabel, QLineEdit, QPlainTextEdit, QScrollArea, QSizePolicy, QTextEdit, QToolButton,
    QVBoxLayout, QWidget,
)

from inspector.anatomy.conversation import Card, Segment, find_hits
from inspector.highlight import display_text
from inspector.jsjson import utf16_len
from inspector.numbering import shown as shown_number

from ui.theme import is_dark
from ui.views.part_names import part_label, role_label, sentinel_chip


def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("ConversationView", text)


# A part longer than this opens in a scrollable text box instead of a label.
BOX_CHARS = 12_000
BOX_HEIGHT = 360
# Cards built per event-loop turn: stop a batch after this many milliseconds.
BATCH_MS = 12.0
HIT_COLOUR = QColor("#ffd43b")
CHIP_COLOUR = QColor("#d9480f")
# At most this many cards are added per event-loop turn (each is laid out before the next batch).
BATCH_CARDS = 3


_FIXED = None


def _fixed_font():
    global _FIXED
    if _FIXED is None:
        _FIXED = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    return _FIXED


def _role_colour(role: str | None, dark: bool) -> str:
    light = {"system": "#6b7280", "user": "#2f6fd1", "assistant": "#2b7a2b", "tool": "#9a5b00", None: "#7a2fb5"}
    night = {"system": "#9aa0a8", "user": "#7fb0ff", "assistant": "#8fd48f", "tool": "#ffcf70", None: "#d7a6ff"}
    return (night if dark else light).get(role, "#6b7280")


class _WrapLabel(QLabel):
    """A word-wrapped label that remembers its height for a width: QLabel lays its text out anew
    on every call, and a layout asks several times per pass for every card."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self._heights: dict[int, int] = {}

    def setText(self, text: str) -> None:  # noqa: N802 - Qt override
        self._heights.clear()
        super().setText(text)

    def setTextFormat(self, fmt: Qt.TextFormat) -> None:  # noqa: N802 - Qt override
        self._heights.clear()
        super().setTextFormat(fmt)

    def changeEvent(self, e) -> None:  # noqa: N802 - Qt override
        self._heights.clear()
        super().changeEvent(e)

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt override
        found = self._heights.get(width)
        if found is None:
            found = self._heights[width] = super().heightForWidth(width)
        return found


class _Part(QWidget):
    """One segment: an optional header (label, tokens, open/close), then its text."""

    def __init__(self, segment: Segment, exact_counted: bool, parent: QWidget) -> None:
        super().__init__(parent)
        self.segment = segment
        chip = sentinel_chip()
        self.display = display_text(segment.text, chip).display
        self.expanded = not segment.collapsed
        self.hits: list[tuple[int, int]] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(1)
        self.toggle: QToolButton | None = None
        head_text = ""
        if segment.label is not None:
            tokens = segment.exact if exact_counted else segment.estimate
            unit = _tr("tokens") if exact_counted else _tr("estimated tokens")
            head_text = part_label(segment.label) + (f" · {tokens:,} {unit}" if tokens is not None else "")
        if head_text or segment.collapsed:
            head = QHBoxLayout()
            head.setContentsMargins(0, 0, 0, 0)
            head.setSpacing(4)
            if segment.collapsed:
                self.toggle = QToolButton(self)
                self.toggle.setAutoRaise(True)
                self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
                self.toggle.clicked.connect(self.toggle_open)
                head.addWidget(self.toggle)
            self.head = QLabel(head_text, self)
            self.head.setObjectName("partHead")
            self.head.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            # Palette and font, not a style sheet: a style sheet per label makes every layout and
            # paint of the cards several times slower.
            pal = self.head.palette()
            pal.setColor(QPalette.ColorRole.WindowText, pal.color(QPalette.ColorRole.PlaceholderText))
            self.head.setPalette(pal)
            bold = self.head.font()
            bold.setBold(True)
            self.head.setFont(bold)
            head.addWidget(self.head, 1)
            layout.addLayout(head)
        self.label = _WrapLabel(self)
        self.label.setObjectName("partText")
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                           | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        # A long unbroken run (a URL, minified JSON) must not widen the card past the view.
        self.label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.label.setFont(_fixed_font())
        layout.addWidget(self.label)
        self.box: QPlainTextEdit | None = None
        self._show()

    # ------------------------------------------------------------------ open / close

    def toggle_open(self) -> None:
        self.expanded = not self.expanded
        self._show()

    def _show(self) -> None:
        seg = self.segment
        if self.toggle is not None:
            size = len(self.display)
            if self.expanded:
                self.toggle.setText("▾")
                self.toggle.setToolTip(_tr("Collapse this part"))
            else:
                self.toggle.setText("▸")
                self.toggle.setToolTip(_tr("Show the whole part ({n:,} characters)").format(n=size))
        if not self.expanded:
            self._set_label(display_text(seg.preview, sentinel_chip()).display, tail=True)
            if self.box is not None:
                self.box.hide()
            return
        if len(self.display) > BOX_CHARS:
            self.label.hide()
            if self.box is None:
                self.box = QPlainTextEdit(self)
                self.box.setReadOnly(True)
                self.box.setFont(_fixed_font())
                self.box.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
                self.box.setFixedHeight(BOX_HEIGHT)
                self.box.setPlainText(self.display)
                self.layout().addWidget(self.box)
            self.box.show()
            self._mark_box()
            return
        if self.box is not None:
            self.box.hide()
        self._set_label(self.display, tail=False)

    def _set_label(self, text: str, *, tail: bool) -> None:
        self.label.show()
        more = ""
        if tail:
            hidden = len(find_hits(self.display, self._needle)) if self._needle else 0
            more = "\n" + (_tr("… {n:,} characters more, {hits} matches inside: open ▸ to read").format(
                n=len(self.display) - len(text), hits=hidden) if hidden
                else _tr("… {n:,} characters more: open ▸ to read").format(n=len(self.display) - len(text)))
        hits = find_hits(text, self._needle) if self._needle else []
        if not hits:
            self.label.setTextFormat(Qt.TextFormat.PlainText)
            self.label.setText(text + more)
            return
        colour = HIT_COLOUR.name()
        pieces, pos = [], 0
        for start, end in hits:
            pieces.append(escape(text[pos:start]))
            pieces.append(f"<span style='background:{colour}; color:#000000'>{escape(text[start:end])}</span>")
            pos = end
        pieces.append(escape(text[pos:]))
        html = "".join(pieces) + escape(more)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setText("<div style='white-space: pre-wrap'>" + html + "</div>")

    def _mark_box(self) -> None:
        if self.box is None:
            return
        selections = []
        fmt = QTextCharFormat()
        fmt.setBackground(HIT_COLOUR)
        fmt.setForeground(QColor("#000000"))
        for start, end in find_hits(self.display, self._needle)[:2000] if self._needle else ():
            cursor = QTextCursor(self.box.document())
            cursor.setPosition(utf16_len(self.display[:start]))
            cursor.setPosition(utf16_len(self.display[:end]), QTextCursor.MoveMode.KeepAnchor)
            sel = QTextEdit.ExtraSelection()
            sel.cursor = cursor
            sel.format = fmt
            selections.append(sel)
        self.box.setExtraSelections(selections)

    # ------------------------------------------------------------------ search

    _needle = ""

    def set_needle(self, needle: str) -> int:
        """Highlight ``needle`` in this part; the number of occurrences in its whole text."""
        if needle == self._needle:
            return len(find_hits(self.display, needle)) if needle else 0
        self._needle = needle
        self._show()
        return len(find_hits(self.display, needle)) if needle else 0

    def text(self) -> str:
        """What the part shows now (its preview while collapsed)."""
        if self.box is not None and self.box.isVisible():
            return self.box.toPlainText()
        return self.label.text()


class CardWidget(QFrame):
    def __init__(self, card: Card, exact_counted: bool, parent: QWidget) -> None:
        super().__init__(parent)
        self.card = card
        self.setObjectName("conversationCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        dark = is_dark(self.palette())
        tokens = card.exact if exact_counted else card.estimate
        unit = _tr("tokens") if exact_counted else _tr("estimated tokens")
        role = role_label(card.role)
        count = len(card.breakpoints)
        chips = "" if not count else (
            f" <span style='background:#d9480f; color:#ffffff'>&nbsp;{escape(sentinel_chip())}"
            + (f" ×{count}" if count > 1 else "") + "&nbsp;</span>")
        head = _WrapLabel(self)
        head.setObjectName("cardHead")
        head.setTextFormat(Qt.TextFormat.RichText)
        head.setWordWrap(True)
        head.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        head.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # The tools are sent by no role: their card is named by its label alone.
        who = "" if card.role is None else (
            f"<b style='color:{_role_colour(card.role, dark)}'>{escape(role)}</b> &nbsp;· ")
        head.setText(
            f"<b>#{shown_number(card.index)}</b> &nbsp;{who}"
            f"<b>{escape(part_label(card.label))}</b> &nbsp;· {tokens:,} {escape(unit)} "
            f"({card.share * 100:.1f}%){chips}")
        self.head = head
        self.copy_button = QToolButton(self)
        self.copy_button.setText(_tr("Copy"))
        self.copy_button.setToolTip(_tr("Copy this message's text (a cache breakpoint as Covel's sentinel)"))
        self.copy_button.setAutoRaise(True)
        self.copy_button.clicked.connect(self.copy_text)
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(head, 1)
        top.addWidget(self.copy_button, 0, Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 5, 8, 6)
        layout.setSpacing(3)
        layout.addLayout(top)
        self.parts: list[_Part] = []
        for segment in card.segments:
            if segment.breakpoint is not None:
                chip = QLabel(self)
                chip.setObjectName("breakpointChip")
                chip.setText(f"⟦{part_label(segment.breakpoint)}⟧")
                # A style sheet here (a few chips per request) so the chip's colour shows under any
                # application style.
                chip.setStyleSheet(f"background: {CHIP_COLOUR.name()}; color: #ffffff; font-weight: bold; "
                                   "padding: 1px 4px;")
                chip.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Fixed)
                chip.setToolTip(_tr("The provider caches the request up to this point"))
                layout.addWidget(chip, 0, Qt.AlignmentFlag.AlignLeft)
                continue
            part = _Part(segment, exact_counted, self)
            self.parts.append(part)
            layout.addWidget(part)

    def set_needle(self, needle: str) -> int:
        return sum(part.set_needle(needle) for part in self.parts)

    def copy_text(self) -> None:
        """Copy the message's text as the anatomy's text pane gives it (a breakpoint as Covel's sentinel)."""
        QGuiApplication.clipboard().setText(self.card.text)


class ConversationView(QWidget):
    """``set_cards(cards, exact_counted)``; ``highlight(text)`` marks a search text; Ctrl+F
    (:meth:`open_find`) shows a find line that highlights as it is typed."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.scroll = QScrollArea(self)
        self.scroll.setWidgetResizable(True)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.find_edit = QLineEdit(self)
        self.find_edit.setPlaceholderText(_tr("Find in the conversation (Esc: close)"))
        self.find_edit.setClearButtonEnabled(True)
        self.find_edit.hide()
        self.find_status = QLabel(self)
        self.find_status.hide()
        self._find_timer = QTimer(self)
        self._find_timer.setSingleShot(True)
        self._find_timer.setInterval(150)
        self._find_timer.timeout.connect(self._find)
        self.find_edit.textChanged.connect(lambda _t: self._find_timer.start())
        self.find_edit.installEventFilter(self)
        bar = QHBoxLayout()
        bar.setContentsMargins(2, 2, 2, 0)
        bar.addWidget(self.find_edit, 1)
        bar.addWidget(self.find_status)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(2)
        outer.addLayout(bar)
        outer.addWidget(self.scroll, 1)
        self._content = QWidget(self.scroll)
        self._content.setBackgroundRole(QPalette.ColorRole.Base)
        self._content.setAutoFillBackground(True)
        self._layout = QVBoxLayout(self._content)
        self._layout.setContentsMargins(6, 6, 6, 6)
        self._layout.setSpacing(6)
        self._layout.addStretch(1)
        self.scroll.setWidget(self._content)
        self.cards: list[CardWidget] = []
        self.search_text = ""
        self._all: list[Card] = []
        self._pending: list[Card] = []
        self._exact = True
        self._needle = ""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._build_some)
        self._graveyard: list[QWidget] = []
        self._reaper = QTimer(self)
        self._reaper.setSingleShot(True)
        self._reaper.setInterval(0)
        self._reaper.timeout.connect(self._reap)

    def clear(self) -> None:
        """Drop the cards. They are deleted a few per event-loop turn: deleting the hundreds of
        widgets of a long conversation at once would block the GUI thread."""
        self._timer.stop()
        self._pending = []
        self._all = []
        if self.cards:
            for widget in self.cards:
                self._layout.removeWidget(widget)
                widget.hide()
            self._graveyard.extend(self.cards)
            self._reaper.start()
        self.cards = []

    def _reap(self) -> None:
        start = time.perf_counter()
        while self._graveyard and (time.perf_counter() - start) * 1000 < BATCH_MS:
            self._graveyard.pop().deleteLater()
            QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        if self._graveyard:
            self._reaper.start()

    def set_cards(self, cards: list[Card], exact_counted: bool) -> None:
        self.clear()
        self._exact = exact_counted
        self._all = list(cards)
        self._pending = list(cards)
        # The first cards too come on the next turn of the event loop: the tab is drawn first.
        if self._pending:
            self._timer.start()

    @property
    def building(self) -> bool:
        return bool(self._pending)

    def _build_some(self) -> None:
        start = time.perf_counter()
        self._content.setUpdatesEnabled(False)
        try:
            while self._pending:
                card = self._pending.pop(0)
                widget = CardWidget(card, self._exact, self._content)
                if self._needle:
                    widget.set_needle(self._needle)
                self._layout.insertWidget(self._layout.count() - 1, widget)
                self.cards.append(widget)
                if (time.perf_counter() - start) * 1000 > BATCH_MS or len(self.cards) % BATCH_CARDS == 0:
                    break
        finally:
            self._content.setUpdatesEnabled(True)
        if self._pending:
            self._timer.start()

    def highlight(self, needle: str) -> int:
        """Mark every occurrence of ``needle`` (ASCII case ignored) in the cards built so far and in
        those still to come; scroll to the first card holding one. The count of occurrences in all
        the cards."""
        self._needle = needle
        first = None
        for widget in self.cards:
            if widget.set_needle(needle) and first is None:
                first = widget
        if first is not None:
            self.scroll.ensureWidgetVisible(first, 0, 20)
        if not needle:
            return 0
        chip = sentinel_chip()
        return sum(len(find_hits(display_text(s.text, chip).display, needle)) for c in self._all for s in c.segments)

    # ------------------------------------------------------------------ find

    def open_find(self) -> None:
        self.find_edit.show()
        self.find_status.show()
        self.find_edit.setFocus()
        self.find_edit.selectAll()

    def close_find(self) -> None:
        """Hide the find line; the search text the request was opened with is marked again."""
        self._find_timer.stop()
        self.find_edit.hide()
        self.find_status.hide()
        self.find_edit.blockSignals(True)
        self.find_edit.clear()
        self.find_edit.blockSignals(False)
        self.highlight(self.search_text)

    def set_search(self, text: str) -> int:
        """The navigator's search text for this request: marked unless the find line is open."""
        self.search_text = text
        if self.find_edit.isVisible() and self.find_edit.text():
            return self.highlight(self.find_edit.text())
        return self.highlight(text)

    def _find(self) -> None:
        text = self.find_edit.text()
        count = self.highlight(text)
        self.find_status.setText("" if not text else _tr("{n:,} matches").format(n=count) if count
                                 else _tr("No match"))

    def eventFilter(self, obj, e) -> bool:  # noqa: N802 - Qt override
        if obj is self.find_edit and e.type() == QEvent.Type.KeyPress and isinstance(e, QKeyEvent) \
                and e.key() == Qt.Key.Key_Escape:
            self.close_find()
            return True
        return super().eventFilter(obj, e)
