"""The live preview of one worker slot: what it is sent at a turn, and where the cache breaks.

* a header naming the previewed worker slot, its play-slot state, isolation and variant, the
  turn, the message count and exact tokens;
* a turn slider (0 = no history yet … the latest turn) with the *break strip* under it: one
  cell per turn, red where the provider's cached prefix would break, with the reason on hover;
* tabs: the final messages (role, preset source, bag, tokens; the selected message's text
  below), the five bags with their entries and tokens, and each segment's contribution (row,
  projection, bag, tokens, share, what the history cut kept), plus the assembly's warnings.

The assembly of one turn is quick (milliseconds) and is shown on the GUI thread. The prefix
simulation replays every turn (tens to hundreds of milliseconds), so :class:`SimulationRunner`
runs it on the GUI thread in slices of a few milliseconds between events, after a short
debounce, and starts over when the order changes again; the strip fills as it goes. Slicing
rather than a worker thread because the work is pure Python: a second thread would hold the
interpreter lock and slow every repaint of the editor for as long as it runs.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QHelpEvent, QMouseEvent, QPainter, QPaintEvent, QPalette, QPen, QPolygonF
from PySide6.QtWidgets import (
    QHBoxLayout, QLabel, QSizePolicy, QSlider, QSpinBox, QSplitter, QTabWidget, QToolButton, QToolTip,
    QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget,
)

from inspector.numbering import shown
from inspector.writing_agent.assembly import AssemblyResult, Prepared
from inspector.writing_agent.prefix_sim import PrefixSimulation, TurnRow, turn_rows
from ui.theme import is_dark
from ui.views.columns import ColumnFitter

from ui.views.text_pane import TextPane
from .model import bag_labels, projection_label

__all__ = ["PreviewPanel", "BreakStrip", "SimulationRunner", "TurnRow"]

BREAK_COLOUR = QColor("#d64545")
KEPT_COLOUR = (QColor("#7cc48f"), QColor("#2f7a45"))  # (light, dark)
FIRST_COLOUR = (QColor("#c9ced6"), QColor("#4a4f57"))
PENDING_COLOUR = (QColor("#e6e8ec"), QColor("#33363b"))
ROLE_COLOURS = {"system": QColor("#7b5cc4"), "user": QColor("#2f6fd1"), "assistant": QColor("#2e9d4f")}


def _tr(text: str) -> str:
    return QCoreApplication.translate("OrderPreview", text)


def _first_line(text: str, limit: int = 48) -> str:
    # Short: eliding a long CJK line costs more to paint than the whole rest of the row.
    line = text.strip().split("\n", 1)[0]
    return line if len(line) <= limit else line[:limit] + "…"


def _tooltip_text(text: str, limit: int = 1200) -> str:
    """A content cell's tooltip: the text from its start (its first line whole), at most ``limit``
    characters."""
    text = text.strip()
    return text if len(text) <= limit else text[:limit] + "…"


def _percent(fraction: float | None) -> str:
    return "—" if fraction is None else f"{fraction:.0%}"


def role_label(role: str) -> str:
    return {"system": _tr("system"), "user": _tr("user"), "assistant": _tr("assistant")}.get(role, role)


# ============================================================================ the simulation


class SimulationRunner:
    """Replays every turn of a prepared slot in slices on the GUI thread.

    ``start(prepared)`` (re)starts after ``debounce_ms``; ``on_progress(rows)`` gets the rows so
    far after each slice and ``on_done(simulation)`` the finished
    :class:`~inspector.writing_agent.prefix_sim.PrefixSimulation`: the engine's ``turn_rows``,
    pulled a few at a time, so the rows are those ``simulate_prepared`` gives.
    """

    SLICE_MS = 8.0

    def __init__(self, parent: QWidget, on_progress: Any, on_done: Any, debounce_ms: int = 60) -> None:
        self._timer = QTimer(parent)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._step)
        self._on_progress = on_progress
        self._on_done = on_done
        self.debounce_ms = debounce_ms
        self._prepared: Prepared | None = None
        self._pending: Iterator[TurnRow] | None = None
        self._rows: list[TurnRow] = []

    @property
    def running(self) -> bool:
        return self._prepared is not None

    def start(self, prepared: Prepared) -> None:
        self._prepared = prepared
        self._pending = turn_rows(prepared)
        self._rows = []
        self._timer.start(self.debounce_ms)

    def stop(self) -> None:
        self._timer.stop()
        self._prepared = None
        self._pending = None

    def finish_now(self) -> None:
        """Run what is left without yielding (tests, screenshots)."""
        self._timer.stop()
        while self._prepared is not None:
            self._step(budget_ms=float("inf"))

    def _step(self, budget_ms: float | None = None) -> None:
        prepared, pending = self._prepared, self._pending
        if prepared is None or pending is None:
            return
        budget = self.SLICE_MS if budget_ms is None else budget_ms
        deadline = time.perf_counter() + budget / 1000
        finished = True
        for row in pending:
            self._rows.append(row)
            if time.perf_counter() >= deadline:
                finished = False
                break
        if finished or len(self._rows) > prepared.turn_count:
            simulation = PrefixSimulation(prepared.slot_ref, tuple(self._rows), prepared.options.encoding)
            self.stop()
            self._on_done(simulation)
        else:
            self._on_progress(list(self._rows))
            self._timer.start(0)


# ============================================================================ the break strip


class BreakStrip(QWidget):
    """One cell per turn 0..N: grey for turn 0, green where the previous turn's prefix is kept,
    red where it breaks; the current turn is marked. Hover shows the turn's figures and the
    reason for a break; a click or drag picks the turn."""

    turnPicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("breakStrip")
        self.setMouseTracking(True)
        self.setMinimumHeight(26)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.rows: list[TurnRow] = []
        self.turn_count = 0
        self.current = 0
        self.pending = True

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(400, 26)

    def set_turn_count(self, count: int) -> None:
        self.turn_count = count
        self.update()

    def set_rows(self, rows: list[TurnRow], pending: bool) -> None:
        self.rows = list(rows)
        self.pending = pending
        self.update()

    def set_current(self, turn: int) -> None:
        self.current = turn
        self.update()

    def _cell(self, turn: int) -> QRectF:
        cells = self.turn_count + 1
        width = max(1.0, (self.width() - 2) / cells)
        return QRectF(1 + turn * width, 7, width, self.height() - 9)

    def turn_at(self, x: float) -> int:
        cells = self.turn_count + 1
        width = max(1.0, (self.width() - 2) / cells)
        return max(0, min(self.turn_count, int((x - 1) // width)))

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        painter = QPainter(self)
        dark = is_dark(self.palette())
        by_turn = {row.turn: row for row in self.rows}
        for turn in range(self.turn_count + 1):
            rect = self._cell(turn)
            row = by_turn.get(turn)
            if row is None:
                colour = PENDING_COLOUR[dark]
            elif row.broke:
                colour = BREAK_COLOUR
            elif row.nothing_cached:
                colour = FIRST_COLOUR[dark]
            else:
                colour = KEPT_COLOUR[dark]
            inner = rect.adjusted(0, 0, -1 if rect.width() > 3 else 0, 0)
            painter.fillRect(inner, colour)
        # The current turn: a triangle above its cell and an outline around it.
        rect = self._cell(self.current)
        pen = QPen(self.palette().color(QPalette.ColorRole.WindowText))
        pen.setWidthF(1.5)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(rect.adjusted(0, 0, -1, -1))
        painter.setBrush(self.palette().color(QPalette.ColorRole.WindowText))
        centre = rect.center().x()
        painter.drawPolygon(QPolygonF([QPointF(centre - 4, 0), QPointF(centre + 4, 0), QPointF(centre, 6)]))
        painter.end()

    def tooltip_for(self, turn: int) -> str:
        row = next((r for r in self.rows if r.turn == turn), None)
        if row is None:
            return _tr("Turn {turn}: not simulated yet").format(turn=turn)
        share = _percent(row.repeated_fraction)
        if row.broke:
            where = row.break_source or "—"
            return _tr("Turn {turn}: the cached prefix breaks at message {index} ({source}).\n{reason}\n"
                       "{shared:,} of {total:,} tokens repeat the previous turn ({share}).").format(
                turn=turn, index=row.break_message, source=where, reason=row.reason, shared=row.shared_tokens,
                total=row.total_tokens, share=share)
        if row.nothing_cached:
            return _tr("Turn {turn}: {total:,} tokens; nothing cached yet").format(turn=turn, total=row.total_tokens)
        return _tr("Turn {turn}: prefix kept; {shared:,} of {total:,} tokens repeat the previous turn "
                   "({share})").format(turn=turn, shared=row.shared_tokens, total=row.total_tokens, share=share)

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            QToolTip.showText(event.globalPos(), self.tooltip_for(self.turn_at(event.pos().x())), self)
            return True
        return super().event(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        if event.button() == Qt.MouseButton.LeftButton:
            self.turnPicked.emit(self.turn_at(event.position().x()))

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        if event.buttons() & Qt.MouseButton.LeftButton:
            self.turnPicked.emit(self.turn_at(event.position().x()))


# ============================================================================ the panel


class PreviewPanel(QWidget):
    """Shows an :class:`AssemblyResult` and the strip. ``turnChanged(int)`` when the user picks a
    turn (slider, spin box, strip, "latest"); ``segmentSelected(int)`` with the insert row of a
    segment the user selects, so the editor can select the same row."""

    turnChanged = Signal(int)
    segmentSelected = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.result: AssemblyResult | None = None
        self.simulation: PrefixSimulation | None = None
        self._previous: PrefixSimulation | None = None  # what the strip showed before the last edit
        self._updating = False
        self._filling = False  # refilling the trees: their selection changes are not the user's
        self._shown_text: tuple[str, str] | None = None

        self.title = QLabel(self)
        self.title.setObjectName("previewTitle")
        font = self.title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.title.setFont(font)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.facts = QLabel(self)
        self.facts.setObjectName("previewFacts")
        # A label whose size follows its text re-lays out (and repaints) the whole window on every
        # turn of the slider; this one keeps its size and shows the full text on hover.
        self.facts.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        # Two lines, so a narrow preview wraps the facts instead of cutting them.
        self.facts.setWordWrap(True)
        self.facts.setFixedHeight(self.facts.fontMetrics().lineSpacing() * 2 + 2)
        self.facts.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)

        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setObjectName("turnSlider")
        self.slider.setToolTip(_tr("Preview any turn: turn k is assembled with the history's first k blocks"))
        self.spin = QSpinBox(self)
        self.spin.setObjectName("turnSpin")
        self.spin.setPrefix(_tr("turn "))
        self.latest = QToolButton(self)
        self.latest.setText(_tr("Latest"))
        self.latest.setToolTip(_tr("Show the latest turn (the whole history)"))
        self.strip = BreakStrip(self)
        self.strip_summary = QLabel(self)
        self.strip_summary.setObjectName("stripSummary")
        self.strip_summary.setWordWrap(True)
        # Two lines, always: a label that grows with its text re-lays out the panel on every edit.
        self.strip_summary.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.strip_summary.setFixedHeight(self.strip_summary.fontMetrics().lineSpacing() * 2 + 2)
        self.strip_summary.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)

        self.messages = QTreeWidget(self)
        self.messages.setObjectName("previewMessages")
        self.messages.setRootIsDecorated(False)
        self.messages.setUniformRowHeights(True)
        self.messages.setAlternatingRowColors(True)
        self.messages.setHeaderLabels([_tr("#"), _tr("Role"), _tr("Source"), _tr("Bag"), _tr("Tokens"),
                                       _tr("Content")])
        self.bags = QTreeWidget(self)
        self.bags.setObjectName("previewBags")
        self.bags.setHeaderLabels([_tr("Bag / entry"), _tr("Tokens"), _tr("Content")])
        self.bags.setUniformRowHeights(True)
        self.segments = QTreeWidget(self)
        self.segments.setObjectName("previewSegments")
        self.segments.setRootIsDecorated(False)
        self.segments.setUniformRowHeights(True)
        self.segments.setAlternatingRowColors(True)
        self.segments.setHeaderLabels([_tr("#"), _tr("Ref"), _tr("Projection"), _tr("Bag"), _tr("Tokens"),
                                       _tr("Share"), _tr("Notes")])
        self.warnings = QTreeWidget(self)
        self.warnings.setObjectName("previewWarnings")
        self.warnings.setRootIsDecorated(False)
        self.warnings.setHeaderHidden(True)
        # Each column as wide as its title and its texts (ui.views.columns); the content or notes
        # take the rest (the preview is the narrowest of the editor's three panes at 1280 px: a
        # long text is elided there, whole on hover, and the tokens stay in sight).
        self.columns = [ColumnFitter(self.messages, 5), ColumnFitter(self.bags, 2, minimums={2: 80}),
                        ColumnFitter(self.segments, 6, gives_way=(1,))]
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("previewTabs")
        self.tabs.addTab(self.messages, _tr("Messages"))
        self.tabs.addTab(self.bags, _tr("Bags"))
        self.tabs.addTab(self.segments, _tr("Segments"))
        self.tabs.addTab(self.warnings, _tr("Warnings"))
        self.text = TextPane(self)

        turn_row = QHBoxLayout()
        turn_row.setContentsMargins(0, 0, 0, 0)
        turn_row.addWidget(self.slider, 1)
        turn_row.addWidget(self.spin)
        turn_row.addWidget(self.latest)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.setChildrenCollapsible(False)
        split.addWidget(self.tabs)
        split.addWidget(self.text)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(4)
        layout.addWidget(self.title)
        layout.addWidget(self.facts)
        layout.addLayout(turn_row)
        layout.addWidget(self.strip)
        layout.addWidget(self.strip_summary)
        layout.addWidget(split, 1)

        self.slider.valueChanged.connect(self._picked)
        self.spin.valueChanged.connect(self._picked)
        self.strip.turnPicked.connect(self._picked)
        self.latest.clicked.connect(lambda: self._picked(self.slider.maximum()))
        self.messages.currentItemChanged.connect(self._show_message)
        self.bags.currentItemChanged.connect(self._show_bag)
        self.segments.currentItemChanged.connect(self._show_segment)
        self.tabs.currentChanged.connect(lambda _i: self._refresh_text())

    # --- turn ----------------------------------------------------------------------------------

    @property
    def turn(self) -> int:
        return self.slider.value()

    def set_turn_range(self, count: int, turn: int) -> None:
        self._updating = True
        try:
            for control in (self.slider, self.spin):
                control.setRange(0, count)
                control.setValue(turn)
            suffix = _tr(" of {count}").format(count=count)
            if self.spin.suffix() != suffix:
                self.spin.setSuffix(suffix)
        finally:
            self._updating = False
        self.strip.set_turn_count(count)
        self.strip.set_current(turn)

    def _picked(self, turn: int) -> None:
        if self._updating:
            return
        turn = max(0, min(turn, self.slider.maximum()))
        self._updating = True
        try:
            self.slider.setValue(turn)
            self.spin.setValue(turn)
        finally:
            self._updating = False
        self.strip.set_current(turn)
        self.turnChanged.emit(turn)

    # --- the assembly ----------------------------------------------------------------------------

    def show_result(self, result: AssemblyResult, *, title: str, facts: str) -> None:
        self.result = result
        if self.title.text() != title:
            self.title.setText(title)
        self.facts.setText(facts)
        self.facts.setToolTip(facts)
        self._filling = True
        try:
            self._fill_messages(result)
            self._fill_bags(result)
            self._fill_segments(result)
        finally:
            self._filling = False
        self.warnings.clear()
        for warning in result.warnings:
            QTreeWidgetItem(self.warnings, [warning])
        self.tabs.setTabText(3, _tr("Warnings ({n})").format(n=len(result.warnings)) if result.warnings
                             else _tr("Warnings"))
        self._refresh_text()

    def show_error(self, title: str, text: str) -> None:
        self.result = None
        self.title.setText(title)
        self.facts.setText(text)
        for tree in (self.messages, self.bags, self.segments, self.warnings):
            tree.clear()
        self._set_text("", "")

    def _fill_messages(self, result: AssemblyResult) -> None:
        keep = self.messages.currentIndex().row()
        tree = self.messages
        tree.setUpdatesEnabled(False)
        tree.clear()
        bags = bag_labels()
        items = []
        for number, message in enumerate(result.messages):
            item = QTreeWidgetItem([str(shown(number)), role_label(message.role), message.source,
                                    bags.get(message.bag, "") if message.bag else "", f"{message.tokens:,}",
                                    _first_line(message.content)])
            item.setToolTip(2, message.source)  # a narrow preview elides a long source
            item.setToolTip(5, _tooltip_text(message.content))
            item.setForeground(1, ROLE_COLOURS.get(message.role, QColor("#888888")))
            item.setTextAlignment(4, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            item.setData(0, Qt.ItemDataRole.UserRole, number)
            items.append(item)
        tree.addTopLevelItems(items)
        if items:
            tree.setCurrentItem(items[min(max(keep, 0), len(items) - 1)])
        tree.setUpdatesEnabled(True)

    def _fill_bags(self, result: AssemblyResult) -> None:
        expanded = {self.bags.topLevelItem(i).data(0, Qt.ItemDataRole.UserRole)
                    for i in range(self.bags.topLevelItemCount()) if self.bags.topLevelItem(i).isExpanded()}
        first_fill = self.bags.topLevelItemCount() == 0
        tree = self.bags
        tree.setUpdatesEnabled(False)
        tree.clear()
        tokens = result.bag_tokens()
        by_id = {s.id: s for s in result.segments}
        labels = bag_labels()
        for key, entries in (("before", result.bags.before), ("history", result.bags.history),
                             ("after", result.bags.after), ("turn", result.bags.turn),
                             ("postTurn", result.bags.post_turn)):
            top = QTreeWidgetItem(tree, [labels[key], f"{tokens.get(key, 0):,}", ""])
            top.setData(0, Qt.ItemDataRole.UserRole, key)
            top.setTextAlignment(1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            font = top.font(0)
            font.setBold(True)
            top.setFont(0, font)
            if isinstance(entries, str):
                top.setText(2, _first_line(entries))
                top.setToolTip(2, _tooltip_text(entries))
                top.setData(2, Qt.ItemDataRole.UserRole, entries)
                continue
            for entry in entries:
                segment = by_id.get(entry.id)
                child = QTreeWidgetItem(top, [entry.name, f"{segment.tokens:,}" if segment else "",
                                              _first_line(entry.content)])
                child.setTextAlignment(1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                child.setData(2, Qt.ItemDataRole.UserRole, entry.content)
                child.setToolTip(2, _tooltip_text(entry.content))
            top.setExpanded(first_fill or key in expanded)
        tree.setUpdatesEnabled(True)

    def _fill_segments(self, result: AssemblyResult) -> None:
        keep = self.segments.currentIndex().row()
        tree = self.segments
        tree.setUpdatesEnabled(False)
        tree.clear()
        total = sum(s.tokens for s in result.segments) or 1
        labels = bag_labels()
        items = []
        for segment in result.segments:
            notes = list(segment.notes)
            history = segment.history
            if history is not None and history.limit is not None:
                notes.insert(0, _tr("history: blocks {first}–{last} of {total} kept (n = {n})").format(
                    first=history.kept_start + 1, last=history.kept_start + history.kept_blocks,
                    total=history.total_blocks, n=history.limit))
            row = "" if segment.insert_index is None else str(segment.insert_index)
            item = QTreeWidgetItem([row, segment.ref, projection_label(segment.projection), labels.get(segment.bag, ""),
                                    f"{segment.tokens:,}", f"{segment.tokens / total:.0%}", "; ".join(notes)])
            for column in (4, 5):
                item.setTextAlignment(column, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            item.setToolTip(1, f"{segment.ref}\n{segment.label or segment.id}")
            item.setToolTip(6, "\n".join(notes))
            item.setData(0, Qt.ItemDataRole.UserRole, segment.insert_index)
            items.append(item)
        tree.addTopLevelItems(items)
        if items and keep >= 0:
            tree.setCurrentItem(items[min(keep, len(items) - 1)])
        tree.setUpdatesEnabled(True)

    def select_segment_of_row(self, row: int) -> None:
        """Select the segment of insert ``row`` (the editor's selection), without echoing it back."""
        for i in range(self.segments.topLevelItemCount()):
            item = self.segments.topLevelItem(i)
            if item.data(0, Qt.ItemDataRole.UserRole) == row:
                self._updating = True
                try:
                    self.segments.setCurrentItem(item)
                finally:
                    self._updating = False
                return

    def _refresh_text(self) -> None:
        page = self.tabs.currentWidget()
        if page is self.segments:
            self._show_segment(self.segments.currentItem(), None)
        elif page is self.bags:
            self._show_bag(self.bags.currentItem(), None)
        else:
            self._show_message(self.messages.currentItem(), None)

    def _set_text(self, text: str, caption: str) -> None:
        # Highlighting costs milliseconds; moving the slider mostly keeps the selected text.
        if (text, caption) != self._shown_text:
            self._shown_text = (text, caption)
            self.text.set_content(text, "prompt", caption)

    def _show_message(self, item: QTreeWidgetItem | None, _previous: Any) -> None:
        if item is None or self.result is None or self._filling or self.tabs.currentWidget() is not self.messages:
            return
        number = item.data(0, Qt.ItemDataRole.UserRole)
        message = self.result.messages[number]
        self._set_text(message.content, _tr("message {n} · {role} · {source} · {tokens:,} tokens").format(
            n=shown(number), role=role_label(message.role), source=message.source, tokens=message.tokens))

    def _show_bag(self, item: QTreeWidgetItem | None, _previous: Any) -> None:
        if item is None or self._filling or self.tabs.currentWidget() is not self.bags:
            return
        content = item.data(2, Qt.ItemDataRole.UserRole)
        if content is None and item.childCount():
            content = "\n\n".join(item.child(i).data(2, Qt.ItemDataRole.UserRole) or "" for i in range(item.childCount()))
        self._set_text(content or "", item.text(0))

    def _show_segment(self, item: QTreeWidgetItem | None, _previous: Any) -> None:
        if item is None or self.result is None or self._filling:
            return
        index = self.segments.indexOfTopLevelItem(item)
        segment = self.result.segments[index]
        if self.tabs.currentWidget() is self.segments:
            self._set_text(segment.text, f"{segment.label or segment.id} · {segment.tokens:,}")
        if not (self._updating or self._filling) and segment.insert_index is not None:
            self.segmentSelected.emit(segment.insert_index)

    # --- the strip -----------------------------------------------------------------------------

    def strip_pending(self, rows: list[TurnRow]) -> None:
        self.strip.set_rows(rows, pending=True)
        done = len(rows)
        self.strip_summary.setText(_tr("Simulating the prefix cache… {done} of {total} turns").format(
            done=done, total=self.strip.turn_count + 1))

    def strip_done(self, simulation: PrefixSimulation) -> None:
        self.simulation = simulation
        self.strip.set_rows(list(simulation.rows), pending=False)
        self.strip_summary.setToolTip("")
        breaks = [t for t in simulation.break_turns]
        share = _percent(simulation.repeated_fraction)
        if breaks:
            shown = ", ".join(str(t) for t in breaks[:12]) + ("…" if len(breaks) > 12 else "")
            text = _tr("The cached prefix breaks at {n} of {turns} turns: {list}. {share} of all tokens repeat "
                       "the previous turn.").format(n=len(breaks), turns=len(simulation.rows) - 1, list=shown,
                                                    share=share)
        else:
            text = _tr("The cached prefix never breaks; {share} of all tokens repeat the previous turn.").format(
                share=share)
        before = self._previous
        if before is not None and (before.break_turns != simulation.break_turns
                                   or before.shared_tokens != simulation.shared_tokens):
            old_share = _percent(before.repeated_fraction)
            text += " " + _tr("(before this change: {n} breaks, {share} repeated)").format(
                n=len(before.break_turns), share=old_share)
        self.strip_summary.setText(text)

    def remember_breaks(self) -> None:
        """Called before an edit: the next summary compares with the simulation shown now."""
        if self.simulation is not None and self.strip.pending is False:
            self._previous = self.simulation

    def forget_breaks(self) -> None:
        """Another slot or blackboard: nothing to compare with."""
        self._previous = None
        self.simulation = None
