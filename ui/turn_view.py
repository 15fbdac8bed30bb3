"""Step through one turn: a timeline of its stages and runtimes, step controls, the current event
in detail, and a summary of what the turn did.

The turn itself comes from :func:`inspector.turn.builder.build_turn` (headless, tested there); this
module only lays it out, paints it and reacts to input. Everything that reads the store (building
the turn, a call's history, a request's anatomy) runs on the window's :class:`TaskManager`, so
stepping itself never waits on the database: it only moves a cursor over data already in memory.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction, QColor, QFont, QFontDatabase, QHelpEvent, QKeySequence, QMouseEvent, QPainter, QPaintEvent,
    QPalette, QPen, QPolygonF, QResizeEvent,
)
from PySide6.QtWidgets import (
    QComboBox, QFrame, QHBoxLayout, QHeaderView, QLabel, QPlainTextEdit, QScrollArea, QSizePolicy, QSplitter,
    QStackedWidget, QStyle, QTextBrowser, QToolButton, QToolTip, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget,
)

from inspector.cache.rules import default_rules
from inspector.turn.builder import build_turn
from inspector.turn.history import CallHistory, turn_history
from inspector.turn.model import ModelCall, Runtime, ToolUse, Turn, TurnEvent

from .navigator import format_duration, format_number
from .request_view import RequestView
from .workers import Job, TaskManager


def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("TurnView", text)


# The lane of runtimes without a stage (event/manual runtimes run after all stages).
UNSTAGED = ""

STATUS_COLOURS = {
    "success": QColor("#2e9d4f"),
    "completed": QColor("#2e9d4f"),
    "failed": QColor("#d64545"),
    "skipped": QColor("#8a8f98"),
    "deferred": QColor("#7b5cc4"),
    "suspended": QColor("#e07b1a"),
    "started": QColor("#d9a21b"),
}
_OTHER_STATUS = QColor("#5b7fa6")
_CALL = QColor("#2f6fd1")
_CALL_ERROR = QColor("#d64545")
_TOOL = QColor("#8e44ad")
_TOOL_FAILED = QColor("#d64545")
_TOOL_OPEN = QColor("#d9a21b")

# Per second of wall clock, the speeds of play relative to the recorded timing; gaps are capped
# (see PLAY_MAX_GAP_MS) so a ten-second model call does not leave playback looking stuck.
SPEEDS: tuple[tuple[str, str, float], ...] = (
    ("0.5×", "scale", 0.5), ("1×", "scale", 1.0), ("2×", "scale", 2.0), ("4×", "scale", 4.0),
    ("8×", "scale", 8.0),
)
# Fixed pacing, for reading each event regardless of how far apart they happened.
FIXED_INTERVALS_MS = (1000, 400, 150)
PLAY_MIN_GAP_MS = 40
PLAY_MAX_GAP_MS = 1500


def status_colour(status: str | None) -> QColor:
    return STATUS_COLOURS.get(status or "", _OTHER_STATUS)


def _offset(ms: float | None) -> str:
    if ms is None:
        return "?"
    sign = "+" if ms >= 0 else "−"
    return f"{sign}{abs(ms) / 1000:.3f} s"


def _json(value: Any) -> str:
    if isinstance(value, str):
        # A tool's JSON arguments often arrive as a string; show them pretty when they parse.
        try:
            value = json.loads(value)
        except ValueError:
            return value
    try:
        return json.dumps(value, ensure_ascii=False, indent=2, sort_keys=False, default=str)
    except (TypeError, ValueError):
        return repr(value)


def _short(value: Any, limit: int = 120) -> str:
    text = value if isinstance(value, str) else _json(value) if value is not None else ""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# ====================================================================================== summary

@dataclass(slots=True)
class ToolEffect:
    runtime_id: str | None
    name: str | None
    status: str
    input: Any
    output: Any
    error: Any


@dataclass(slots=True)
class TurnSummary:
    """What a turn did, counted once for the summary panel (and the tests).

    ``ran`` counts runtimes that executed in this turn (every status except skipped and deferred);
    ``failed``/``skipped``/``deferred``/``suspended`` count by status. Token sums cover the calls
    that reported usage; ``input_cost_usd`` prices input tokens with the shipped provider rules
    (cache reads and writes at their multipliers) and is None when no call's model has a price;
    ``unpriced_calls`` says how many calls it leaves out.
    """

    runtimes: int = 0
    ran: int = 0
    succeeded: int = 0
    failed: int = 0
    skipped: int = 0
    deferred: int = 0
    suspended: int = 0
    calls: int = 0
    retries: int = 0
    input_tokens: int = 0
    cached_tokens: int = 0
    cache_write_tokens: int = 0
    output_tokens: int = 0
    input_cost_usd: float | None = None
    unpriced_calls: int = 0
    story: str = ""
    player: str = ""
    tools: list[ToolEffect] = field(default_factory=list)
    failures: list[tuple[str, str]] = field(default_factory=list)  # runtime id, error or reason


def summarize(turn: Turn) -> TurnSummary:
    s = TurnSummary()
    rules = default_rules()
    priced = False
    cost = 0.0
    for runtime in turn.runtimes():
        s.runtimes += 1
        status = runtime.status or ""
        if status not in ("skipped", "deferred"):
            s.ran += 1
        if status in ("success", "completed"):
            s.succeeded += 1
        elif status == "failed":
            s.failed += 1
            s.failures.append((runtime.runtime_id or "?", runtime.error or ""))
        elif status == "skipped":
            s.skipped += 1
            s.failures.append((runtime.runtime_id or "?", runtime.reason or ""))
        elif status == "deferred":
            s.deferred += 1
        elif status == "suspended":
            s.suspended += 1
        for call in runtime.calls:
            s.calls += 1
            if call.attempt > 0:
                s.retries += 1
            usage = call.usage
            if usage is None:
                continue
            given = usage.input_tokens or 0
            cached = usage.cached_input_tokens or 0
            written = usage.cache_write_input_tokens or 0
            s.input_tokens += given
            s.cached_tokens += cached
            s.cache_write_tokens += written
            s.output_tokens += usage.output_tokens or 0
            call_rules = rules.resolve(call.provider, call.protocol, call.model)
            price = call_rules.input_price_per_mtok
            if price is None:
                s.unpriced_calls += 1
                continue
            priced = True
            # input_tokens includes cache reads and writes; each part is billed at its own rate.
            plain = max(0, given - cached - written)
            cost += (plain + cached * call_rules.read_multiplier
                     + written * call_rules.write_multiplier) * price / 1e6
        for tool in runtime.tools:
            s.tools.append(ToolEffect(runtime.runtime_id, tool.name, tool.status, tool.input, tool.output, tool.error))
    s.input_cost_usd = cost if priced else None
    s.story = "\n\n".join(m.content or "" for m in turn.committed.story).strip()
    s.player = "\n".join(m.content or "" for m in turn.committed.player).strip()
    return s


# ===================================================================================== geometry

@dataclass(slots=True)
class LaneGeometry:
    """One stage's lane (``key`` is the stage name, :data:`UNSTAGED` for the after-stages lane)."""

    key: str
    label: str
    rect: QRectF
    rows: int


@dataclass(slots=True)
class BarGeometry:
    runtime: Runtime
    lane: str
    row: int
    rect: QRectF
    timed: bool

    @property
    def runtime_id(self) -> str | None:
        return self.runtime.runtime_id


@dataclass(slots=True)
class MarkGeometry:
    """A model call (``kind`` "call", ``key`` its ``llm.calling`` id) or tool call (``kind`` "tool",
    ``key`` the tool use's key) drawn inside its runtime's bar; ``event_index`` is the event a
    click selects."""

    kind: str
    key: str
    runtime_id: str | None
    rect: QRectF
    event_index: int
    item: ModelCall | ToolUse


class TimelineWidget(QWidget):
    """The turn painted as lanes of bars. Signals: ``eventClicked(int)`` with the index (into
    ``turn.events``) of the event a click picked.

    Geometry for tests and hit-testing: :attr:`lanes`, :attr:`bars`, :attr:`marks`, :meth:`bar`,
    :meth:`x_of`; recomputed on every resize and :meth:`set_turn`.
    """

    eventClicked = Signal(int)

    GUTTER = 96
    RIGHT = 14
    RULER = 24
    ROW = 30
    LANE_PAD = 4
    LEGEND = 22

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("turnTimeline")
        self.setMouseTracking(False)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.turn: Turn | None = None
        self.current = -1
        self.lanes: list[LaneGeometry] = []
        self.bars: list[BarGeometry] = []
        self.marks: list[MarkGeometry] = []
        self._span = 1.0
        self._height = self.RULER + self.LEGEND
        self._index_of: dict[str, int] = {}
        self._mark_by_key: dict[tuple[str, str], MarkGeometry] = {}
        self._bar_by_id: dict[str | None, BarGeometry] = {}
        self._small = QFont(self.font())
        self._small.setPointSizeF(max(7.0, self.font().pointSizeF() * 0.85))
        self._bold = QFont(self.font())
        self._bold.setBold(True)

    # ------------------------------------------------------------------ data

    def set_turn(self, turn: Turn | None) -> None:
        self.turn = turn
        self.current = -1
        self._index_of = {ev.event_id: ev.index for ev in turn.events} if turn is not None else {}
        self.relayout()

    def set_current(self, index: int) -> None:
        if index != self.current:
            self.current = index
            self.update()

    def bar(self, runtime_id: str | None) -> BarGeometry | None:
        return self._bar_by_id.get(runtime_id)

    def mark(self, kind: str, key: str) -> MarkGeometry | None:
        return self._mark_by_key.get((kind, key))

    def x_of(self, ms: float | None) -> float:
        left, right = self.GUTTER, max(self.GUTTER + 1.0, self.width() - self.RIGHT)
        return left + (right - left) * max(0.0, (ms or 0.0)) / self._span

    def ms_at(self, x: float) -> float:
        left, right = self.GUTTER, max(self.GUTTER + 1.0, self.width() - self.RIGHT)
        return (x - left) / (right - left) * self._span

    # ------------------------------------------------------------------ layout

    def _lanes_of(self, turn: Turn) -> list[tuple[str, str, list[Runtime], list[list[Runtime]]]]:
        out = [(stage.name, stage.name, stage.runtimes, [g.runtimes for g in stage.groups]) for stage in turn.stages]
        if turn.unstaged:
            out.append((UNSTAGED, _tr("after stages"), turn.unstaged, [g.runtimes for g in turn.unstaged_groups]))
        return out

    def relayout(self) -> None:
        """Place lanes, bars and marks for the current width. Linear in runtimes + calls + tools."""
        self.lanes, self.bars, self.marks = [], [], []
        self._mark_by_key, self._bar_by_id = {}, {}
        turn = self.turn
        if turn is None:
            self._set_height(self.RULER + self.LEGEND)
            self.update()
            return
        ends = [turn.duration_ms or 0.0]
        for runtime in turn.runtimes():
            ends.append(runtime.end_ms or 0.0)
            ends.extend(c.end_ms or 0.0 for c in runtime.calls)
        if turn.events:
            ends.append(max(ev.offset_ms or 0.0 for ev in turn.events))
        self._span = max(max(ends), 1.0)
        y = float(self.RULER)
        width = float(max(self.width(), self.GUTTER + self.RIGHT + 10))
        for key, label, runtimes, groups in self._lanes_of(turn):
            rows: dict[int, int] = {}
            # Each parallel group stacks its runtimes in rows 0, 1, …; successive groups reuse
            # the rows, so a lane is as tall as its widest DAG level.
            for group in groups:
                for row, runtime in enumerate(group):
                    rows[id(runtime)] = row
            depth = max((len(g) for g in groups), default=0)
            for runtime in runtimes:
                if id(runtime) not in rows:  # no times: one row each, below the timed ones
                    rows[id(runtime)] = depth
                    depth += 1
            depth = max(depth, 1)
            lane_rect = QRectF(0.0, y, width, depth * self.ROW + 2 * self.LANE_PAD)
            self.lanes.append(LaneGeometry(key, label, lane_rect, depth))
            for runtime in runtimes:
                row = rows[id(runtime)]
                top = y + self.LANE_PAD + row * self.ROW + 2
                height = self.ROW - 4
                timed = runtime.start_ms is not None
                if timed:
                    x0 = self.x_of(runtime.start_ms)
                    x1 = self.x_of(runtime.end_ms if runtime.end_ms is not None else runtime.start_ms)
                    rect = QRectF(x0, top, max(x1 - x0, 3.0), height)
                else:
                    rect = QRectF(self.GUTTER, top, width - self.GUTTER - self.RIGHT, height)
                bar = BarGeometry(runtime, key, row, rect, timed)
                self.bars.append(bar)
                self._bar_by_id.setdefault(runtime.runtime_id, bar)
                if timed:
                    self._place_marks(runtime, rect)
            y += lane_rect.height()
        self._set_height(int(y) + self.LEGEND)
        self.update()

    def _place_marks(self, runtime: Runtime, bar: QRectF) -> None:
        band_top = bar.bottom() - 11
        for call in runtime.calls:
            start = call.start_ms if call.start_ms is not None else runtime.start_ms
            end = call.end_ms if call.end_ms is not None else runtime.end_ms
            x0 = self.x_of(start)
            x1 = self.x_of(end if end is not None else start)
            rect = QRectF(x0, band_top, max(x1 - x0, 3.0), 8.0)
            mark = MarkGeometry("call", call.event_id, runtime.runtime_id, rect,
                                self._index_of.get(call.event_id, -1), call)
            self.marks.append(mark)
            self._mark_by_key[("call", call.event_id)] = mark
        for tool in runtime.tools:
            at = tool.start_ms if tool.start_ms is not None else tool.end_ms
            if at is None:
                continue
            x = self.x_of(at)
            rect = QRectF(x - 5.0, band_top - 1.0, 10.0, 10.0)
            anchor = tool.calling_event_id or tool.end_event_id
            mark = MarkGeometry("tool", tool.key, runtime.runtime_id, rect,
                                self._index_of.get(anchor, -1) if anchor else -1, tool)
            self.marks.append(mark)
            self._mark_by_key[("tool", tool.key)] = mark

    def _set_height(self, height: int) -> None:
        self._height = height
        self.setFixedHeight(height)
        self.updateGeometry()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(720, self._height)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self.relayout()

    # ------------------------------------------------------------------ hit testing

    def mark_at(self, pos: QPointF) -> MarkGeometry | None:
        # Tools are drawn over calls, so they win a tie.
        for mark in reversed(self.marks):
            if mark.rect.adjusted(-2, -2, 2, 2).contains(pos):
                return mark
        return None

    def bar_at(self, pos: QPointF) -> BarGeometry | None:
        for bar in self.bars:
            if bar.rect.adjusted(0, 0, 2, 0).contains(pos):
                return bar
        return None

    def event_at(self, pos: QPointF) -> int:
        """The event a click at ``pos`` selects: a mark's event, else a bar's first event, else the
        last event at or before that moment (−1 when there is none)."""
        turn = self.turn
        if turn is None or not turn.events:
            return -1
        mark = self.mark_at(pos)
        if mark is not None and mark.event_index >= 0:
            return mark.event_index
        bar = self.bar_at(pos)
        if bar is not None and bar.runtime.events:
            return bar.runtime.events[0].index
        if pos.x() < self.GUTTER:
            return -1
        moment = self.ms_at(pos.x())
        best = -1
        for ev in turn.events:
            if ev.offset_ms is not None and ev.offset_ms <= moment:
                best = ev.index
        return best if best >= 0 else 0

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        if event.button() == Qt.MouseButton.LeftButton:
            index = self.event_at(event.position())
            if index >= 0:
                self.eventClicked.emit(index)
            event.accept()
            return
        super().mousePressEvent(event)

    def event(self, e: QEvent) -> bool:  # noqa: N802 - Qt override
        if e.type() == QEvent.Type.ToolTip and isinstance(e, QHelpEvent):
            text = self.tooltip_at(QPointF(e.pos()))
            if text:
                QToolTip.showText(e.globalPos(), text, self)
            else:
                QToolTip.hideText()
                e.ignore()
            return True
        return super().event(e)

    def tooltip_at(self, pos: QPointF) -> str:
        mark = self.mark_at(pos)
        if mark is not None:
            return call_tooltip(mark.item) if isinstance(mark.item, ModelCall) else tool_tooltip(mark.item)
        bar = self.bar_at(pos)
        if bar is not None:
            return runtime_tooltip(bar.runtime)
        return ""

    # ------------------------------------------------------------------ painting

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        painter = QPainter(self)
        try:
            self.paint(painter)
        finally:
            painter.end()

    def paint(self, p: QPainter) -> None:
        pal = self.palette()
        base, alt = pal.color(QPalette.ColorRole.Base), pal.color(QPalette.ColorRole.AlternateBase)
        text = pal.color(QPalette.ColorRole.Text)
        dim = pal.color(QPalette.ColorRole.PlaceholderText)
        grid = pal.color(QPalette.ColorRole.Mid)
        highlight = pal.color(QPalette.ColorRole.Highlight)
        w, h = self.width(), self.height()
        p.fillRect(0, 0, w, h, base)
        turn = self.turn
        if turn is None:
            p.setPen(dim)
            p.drawText(QRectF(0, 0, w, h), Qt.AlignmentFlag.AlignCenter, _tr("No turn loaded"))
            return
        for i, lane in enumerate(self.lanes):
            if i % 2:
                p.fillRect(lane.rect, alt)
        self._paint_ruler(p, text, dim, grid)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        for lane in self.lanes:
            p.setPen(text if lane.key else dim)
            p.setFont(self._bold)
            p.drawText(QRectF(6, lane.rect.top() + self.LANE_PAD, self.GUTTER - 10, self.ROW),
                       Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                       p.fontMetrics().elidedText(lane.label, Qt.TextElideMode.ElideRight, self.GUTTER - 10))
        self._paint_groups(p, dim)
        p.setFont(self._small)
        metrics = p.fontMetrics()
        for bar in self.bars:
            self._paint_bar(p, bar, text, metrics)
        for mark in self.marks:
            self._paint_mark(p, mark)
        self._paint_current(p, highlight)
        self._paint_legend(p, text, dim)

    def _ticks(self) -> tuple[float, list[float]]:
        usable = max(1.0, self.width() - self.GUTTER - self.RIGHT)
        # About one label per 90 px, on a 1-2-5 step.
        raw = self._span / max(1.0, usable / 90.0)
        step = 1.0
        while step * 10 <= raw:
            step *= 10
        for factor in (1, 2, 5, 10):
            if step * factor >= raw:
                step *= factor
                break
        count = int(self._span // step) + 1
        return step, [i * step for i in range(count)]

    def _paint_ruler(self, p: QPainter, text: QColor, dim: QColor, grid: QColor) -> None:
        step, ticks = self._ticks()
        p.setFont(self._small)
        bottom = self.lanes[-1].rect.bottom() if self.lanes else float(self.RULER)
        faint = QColor(grid)
        faint.setAlpha(90)
        for ms in ticks:
            x = self.x_of(ms)
            p.setPen(QPen(faint, 1))
            p.drawLine(QPointF(x, self.RULER - 4), QPointF(x, bottom))
            label = f"{ms / 1000:g} s" if step >= 100 else f"{ms:g} ms"
            p.setPen(dim)
            p.drawText(QRectF(x + 3, 2, 80, self.RULER - 6), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                       label)
        p.setPen(QPen(grid, 1))
        p.drawLine(QPointF(0, self.RULER - 0.5), QPointF(self.width(), self.RULER - 0.5))
        p.setPen(text)
        p.drawText(QRectF(6, 2, self.GUTTER - 10, self.RULER - 6), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                   _tr("stage"))

    def _paint_groups(self, p: QPainter, dim: QColor) -> None:
        # A bracket left of each parallel group's rows: runtimes stacked at one x ran together.
        turn = self.turn
        if turn is None:
            return
        pen = QPen(dim, 1.5)
        for group in turn.groups():
            if len(group.runtimes) < 2:
                continue
            rects = [b.rect for r in group.runtimes if (b := self._bar_by_id.get(r.runtime_id)) is not None]
            if not rects:
                continue
            top = min(r.top() for r in rects)
            bottom = max(r.bottom() for r in rects)
            x = min(r.left() for r in rects) - 4
            p.setPen(pen)
            p.drawLine(QPointF(x, top), QPointF(x, bottom))
            p.drawLine(QPointF(x, top), QPointF(x + 3, top))
            p.drawLine(QPointF(x, bottom), QPointF(x + 3, bottom))

    def _paint_bar(self, p: QPainter, bar: BarGeometry, text: QColor, metrics: Any) -> None:
        runtime = bar.runtime
        colour = status_colour(runtime.status)
        fill = QColor(colour)
        fill.setAlpha(60 if bar.timed else 25)
        pen = QPen(colour, 1.2)
        if not bar.timed:
            pen.setStyle(Qt.PenStyle.DashLine)
        p.setPen(pen)
        p.setBrush(fill)
        p.drawRoundedRect(bar.rect, 3, 3)
        label = runtime.runtime_id or _tr("(no runtime id)")
        if runtime.status and runtime.status not in ("success", "completed"):
            label += f" · {runtime.status}"
        if not bar.timed:
            label += " · " + _tr("no times recorded")
        inner = bar.rect.width() - 8
        text_rect = QRectF(bar.rect.left() + 4, bar.rect.top() + 1, inner, 13)
        if metrics.horizontalAdvance(label) > inner:
            # Too narrow for its name (a skipped runtime is a sliver): write it after the bar.
            room = self.width() - self.RIGHT - bar.rect.right() - 6
            if room > 40:
                text_rect = QRectF(bar.rect.right() + 5, bar.rect.top() + 1, room, 13)
                inner = room
        p.setPen(text)
        p.drawText(text_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                   metrics.elidedText(label, Qt.TextElideMode.ElideRight, int(max(inner, 0))))

    def _paint_mark(self, p: QPainter, mark: MarkGeometry) -> None:
        item = mark.item
        if isinstance(item, ModelCall):
            colour = _CALL_ERROR if item.error or item.finish_reason == "error" else _CALL
            fill = QColor(colour)
            if not item.answered:
                fill.setAlpha(90)
            p.setPen(QPen(colour.darker(130), 1))
            p.setBrush(fill)
            p.drawRoundedRect(mark.rect, 2, 2)
            if item.attempt > 0:
                # A retried attempt: a notch at its start tells it from a new tool-loop step.
                p.setPen(QPen(STATUS_COLOURS["suspended"], 2))
                p.drawLine(QPointF(mark.rect.left(), mark.rect.top() - 2), QPointF(mark.rect.left(), mark.rect.bottom() + 2))
            label = f"{item.step + 1}" + (f"·{item.attempt + 1}" if item.attempt else "")
            if mark.rect.width() > p.fontMetrics().horizontalAdvance(label) + 6:
                p.setPen(QColor("#ffffff"))
                font = QFont(self._small)
                font.setPointSizeF(max(6.0, self._small.pointSizeF() * 0.85))
                p.setFont(font)
                p.drawText(mark.rect, Qt.AlignmentFlag.AlignCenter, label)
                p.setFont(self._small)
            return
        assert isinstance(item, ToolUse)
        colour = _TOOL_FAILED if item.status == "failed" else _TOOL_OPEN if item.status == "started" else _TOOL
        r = mark.rect
        diamond = QPolygonF([QPointF(r.center().x(), r.top()), QPointF(r.right(), r.center().y()),
                             QPointF(r.center().x(), r.bottom()), QPointF(r.left(), r.center().y())])
        p.setPen(QPen(QColor("#ffffff"), 1))
        p.setBrush(colour)
        p.drawPolygon(diamond)

    def current_rect(self) -> QRectF | None:
        """Where the current event's subject is drawn: its call, tool or runtime bar."""
        turn = self.turn
        if turn is None or not 0 <= self.current < len(turn.events):
            return None
        ev = turn.events[self.current]
        if ev.target in ("call", "tool") and ev.target_id is not None:
            mark = self._mark_by_key.get((ev.target, ev.target_id))
            if mark is not None:
                return mark.rect
        if ev.target != "turn" and ev.target != "suspension":
            bar = self._bar_by_id.get(ev.runtime_id)
            if bar is not None:
                return bar.rect
        return None

    def _paint_current(self, p: QPainter, highlight: QColor) -> None:
        turn = self.turn
        if turn is None or not 0 <= self.current < len(turn.events):
            return
        ev = turn.events[self.current]
        bottom = self.lanes[-1].rect.bottom() if self.lanes else float(self.RULER)
        if ev.offset_ms is not None:
            x = self.x_of(ev.offset_ms)
            p.setPen(QPen(highlight, 1.5))
            p.drawLine(QPointF(x, self.RULER), QPointF(x, bottom))
            p.setBrush(highlight)
            p.setPen(Qt.PenStyle.NoPen)
            p.drawPolygon(QPolygonF([QPointF(x - 5, self.RULER - 7), QPointF(x + 5, self.RULER - 7),
                                     QPointF(x, self.RULER)]))
        rect = self.current_rect()
        if rect is not None:
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.setPen(QPen(highlight, 2.5))
            p.drawRoundedRect(rect.adjusted(-2.5, -2.5, 2.5, 2.5), 3, 3)

    def _paint_legend(self, p: QPainter, text: QColor, dim: QColor) -> None:
        top = self._height - self.LEGEND + 4
        x = 8.0
        p.setFont(self._small)
        metrics = p.fontMetrics()
        items: list[tuple[str, QColor, str]] = [
            (_tr("success"), STATUS_COLOURS["success"], "bar"), (_tr("failed"), STATUS_COLOURS["failed"], "bar"),
            (_tr("skipped"), STATUS_COLOURS["skipped"], "bar"), (_tr("deferred"), STATUS_COLOURS["deferred"], "bar"),
            (_tr("suspended"), STATUS_COLOURS["suspended"], "bar"),
            (_tr("running"), STATUS_COLOURS["started"], "bar"),
            (_tr("model call (step·attempt)"), _CALL, "call"), (_tr("tool call"), _TOOL, "tool"),
        ]
        for label, colour, shape in items:
            if shape == "tool":
                r = QRectF(x, top + 2, 10, 10)
                p.setPen(Qt.PenStyle.NoPen)
                p.setBrush(colour)
                p.drawPolygon(QPolygonF([QPointF(r.center().x(), r.top()), QPointF(r.right(), r.center().y()),
                                         QPointF(r.center().x(), r.bottom()), QPointF(r.left(), r.center().y())]))
            else:
                fill = QColor(colour)
                if shape == "bar":
                    fill.setAlpha(60)
                p.setPen(QPen(colour, 1))
                p.setBrush(fill)
                p.drawRoundedRect(QRectF(x, top + 3, 14, 8), 2, 2)
            x += 18
            p.setPen(dim)
            p.drawText(QPointF(x, top + 11), label)
            x += metrics.horizontalAdvance(label) + 14
            if x > self.width() - 40:
                break


# ===================================================================================== tooltips

def runtime_tooltip(r: Runtime) -> str:
    lines = [f"<b>{html.escape(r.runtime_id or _tr('(no runtime id)'))}</b>"]
    facts = [(_tr("Plugin"), r.plugin_id), (_tr("Stage"), r.stage or _tr("none (after stages)")),
             (_tr("Status"), r.status), (_tr("Parallel group"), str(r.group) if r.group is not None else None),
             (_tr("Start"), _offset(r.start_ms) if r.start_ms is not None else None),
             (_tr("End"), _offset(r.end_ms) if r.end_ms is not None else None),
             (_tr("Duration"), format_duration(r.duration_ms) or None),
             (_tr("Model calls"), str(len(r.calls))), (_tr("Tool calls"), str(len(r.tools))),
             (_tr("Error"), _short(r.error, 200) if r.error else None),
             (_tr("Reason"), _short(r.reason, 200) if r.reason else None)]
    lines += [f"{html.escape(k)}: {html.escape(v)}" for k, v in facts if v]
    return "<br>".join(lines)


def call_tooltip(c: ModelCall) -> str:
    usage = c.usage
    facts = [(_tr("Step"), str(c.step + 1)), (_tr("Attempt"), str(c.attempt + 1)), (_tr("Model"), c.model),
             (_tr("Provider"), c.provider), (_tr("Start"), _offset(c.start_ms)),
             (_tr("Queue wait"), format_duration(c.queue_wait_ms) or None),
             (_tr("Duration"), format_duration(c.duration_ms) or None),
             (_tr("Input tokens"), format_number(usage.input_tokens) if usage else None),
             (_tr("Cached tokens"), format_number(usage.cached_input_tokens) if usage else None),
             (_tr("Output tokens"), format_number(usage.output_tokens) if usage else None),
             (_tr("Finish reason"), c.finish_reason or (None if c.answered else _tr("no response"))),
             (_tr("Tools requested"), ", ".join(c.requested_tools) or None),
             (_tr("Error"), _short(c.error, 200) if c.error else None)]
    head = f"<b>{html.escape(_tr('Model call'))}</b> {html.escape(c.runtime_id or '')}"
    return "<br>".join([head] + [f"{html.escape(k)}: {html.escape(v)}" for k, v in facts if v])


def tool_tooltip(t: ToolUse) -> str:
    facts = [(_tr("Status"), t.status), (_tr("Step"), str(t.step + 1) if t.step is not None else None),
             (_tr("Duration"), format_duration(t.duration_ms) or None), (_tr("Approval"), t.approval_status),
             (_tr("Input"), _short(t.input) if t.input is not None else None),
             (_tr("Output"), _short(t.output) if t.output is not None else None),
             (_tr("Error"), _short(t.error) if t.error is not None else None)]
    head = f"<b>{html.escape(_tr('Tool call'))} {html.escape(t.name or '?')}</b>"
    return "<br>".join([head] + [f"{html.escape(k)}: {html.escape(v)}" for k, v in facts if v])


# ====================================================================================== the view

HISTORY_COLUMNS = 5


class TurnView(QWidget):
    """The turn stepper. Signals: ``turnLoaded(str)`` with the turn id once a turn is shown,
    ``loadFailed(str)`` with the reason shown inline, ``stepChanged(int)`` with the current event
    index (−1: none), ``historyLoaded(str)`` with the call whose history is listed.

    :meth:`load_turn` builds a turn in the background; :meth:`set_turn` shows one already built.
    Stepping: :meth:`step_to`, :meth:`next_event`, :meth:`previous_event`, :meth:`next_stage`,
    :meth:`previous_stage`, :meth:`play` / :meth:`pause` / :meth:`toggle_play`.
    """

    turnLoaded = Signal(str)
    loadFailed = Signal(str)
    stepChanged = Signal(int)
    historyLoaded = Signal(str)

    PAGE_NONE, PAGE_REQUEST, PAGE_TEXT = range(3)

    def __init__(self, tasks: TaskManager, store_getter: Callable[[], Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("turnView")
        self.tasks = tasks
        self._store = store_getter
        self.turn: Turn | None = None
        self.summary: TurnSummary | None = None
        self.session_id: str | None = None
        self.turn_id: str | None = None
        self.current = -1
        self._load_job: Job | None = None
        self._history_job: Job | None = None
        self._history_for: str | None = None
        self.history: CallHistory | None = None
        self._stage_starts: list[tuple[str, int]] = []
        self._lane_of_runtime: dict[str | None, str] = {}
        self._pending_event: str | None = None
        self._fit_pending = False

        self._build_controls()
        self._build_detail()
        self.summary_view = QTextBrowser(self)
        self.summary_view.setObjectName("turnSummary")
        self.summary_view.setOpenLinks(False)

        self.timeline = TimelineWidget()
        self.timeline.eventClicked.connect(self.step_to)
        self.timeline_scroll = QScrollArea(self)
        self.timeline_scroll.setWidgetResizable(True)
        self.timeline_scroll.setFrameShape(QFrame.Shape.StyledPanel)
        self.timeline_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.timeline_scroll.setWidget(self.timeline)

        # Step shortcuts live on the stepper (controls + timeline + summary), not on the whole view:
        # inside the embedded request view the arrow keys move through its trees and text.
        self.stepper = QWidget(self)
        stepper_layout = QVBoxLayout(self.stepper)
        stepper_layout.setContentsMargins(0, 0, 0, 0)
        stepper_layout.setSpacing(4)
        stepper_layout.addLayout(self._controls)
        stepper_layout.addWidget(self.timeline_scroll, 1)

        self.lower = QSplitter(Qt.Orientation.Horizontal, self)
        self.lower.setChildrenCollapsible(False)
        self.lower.addWidget(self.detail)
        self.lower.addWidget(self.summary_view)
        self.lower.setStretchFactor(0, 3)
        self.lower.setStretchFactor(1, 1)
        self.lower.setSizes([700, 300])

        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self.stepper)
        self.splitter.addWidget(self.lower)
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 3)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 0, 0)
        layout.setSpacing(3)
        layout.addWidget(self.title)
        layout.addWidget(self.message)
        layout.addWidget(self.splitter, 1)

        self._build_actions()
        self._play_timer = QTimer(self)
        self._play_timer.setSingleShot(True)
        self._play_timer.timeout.connect(self._play_tick)
        self.setFocusProxy(self.timeline)
        self._show_turn_state()

    # ------------------------------------------------------------------ construction

    def _build_controls(self) -> None:
        self.title = QLabel(_tr("No turn selected"), self)
        self.title.setObjectName("turnTitle")
        font = QFont(self.title.font())
        font.setBold(True)
        self.title.setFont(font)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.message = QLabel(self)
        self.message.setObjectName("turnMessage")
        self.message.setWordWrap(True)
        self.message.hide()

        style = self.style()
        SP = QStyle.StandardPixmap

        def button(name: str, icon: QStyle.StandardPixmap, tip: str) -> QToolButton:
            b = QToolButton(self)
            b.setObjectName(name)
            b.setIcon(style.standardIcon(icon))
            b.setToolTip(tip)
            # Buttons never take focus: Space and the arrows must keep stepping, not press or
            # move between buttons.
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            b.setAutoRaise(False)
            return b

        self.first_button = button("firstEvent", SP.SP_MediaSkipBackward, _tr("First event (Home)"))
        self.prev_stage_button = button("previousStage", SP.SP_MediaSeekBackward,
                                        _tr("Previous stage (Shift+Left or [)"))
        self.prev_button = button("previousEvent", SP.SP_ArrowLeft, _tr("Previous event (Left or K)"))
        self.play_button = button("play", SP.SP_MediaPlay, _tr("Play / pause (Space)"))
        self.play_button.setCheckable(True)
        self.next_button = button("nextEvent", SP.SP_ArrowRight, _tr("Next event (Right or J)"))
        self.next_stage_button = button("nextStage", SP.SP_MediaSeekForward, _tr("Next stage (Shift+Right or ])"))
        self.last_button = button("lastEvent", SP.SP_MediaSkipForward, _tr("Last event (End)"))
        self.first_button.clicked.connect(lambda: self.step_to(0))
        self.prev_stage_button.clicked.connect(self.previous_stage)
        self.prev_button.clicked.connect(self.previous_event)
        self.play_button.clicked.connect(lambda checked: self.play() if checked else self.pause())
        self.next_button.clicked.connect(self.next_event)
        self.next_stage_button.clicked.connect(self.next_stage)
        self.last_button.clicked.connect(lambda: self.step_to(len(self.turn.events) - 1 if self.turn else -1))

        self.speed = QComboBox(self)
        self.speed.setObjectName("playSpeed")
        self.speed.setToolTip(_tr("Play speed: a multiple of the recorded timing (long waits shortened "
                                  "to 1.5 s), or a fixed pace per event"))
        # Item data is an index into _speeds: a combo box hands tuples back as None.
        self._speeds: list[tuple[str, float]] = []
        for label, kind, value in SPEEDS:
            self.speed.addItem(label, len(self._speeds))
            self._speeds.append((kind, value))
        for interval in FIXED_INTERVALS_MS:
            self.speed.addItem(_tr("{n} ms per event").format(n=interval), len(self._speeds))
            self._speeds.append(("fixed", float(interval)))
        self.speed.setCurrentIndex(1)
        self.speed.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.speed.activated.connect(lambda _i: self.timeline.setFocus())

        self.position = QLabel(self)
        self.position.setObjectName("stepPosition")
        self.position.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.position.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

        self._controls = QHBoxLayout()
        self._controls.setContentsMargins(0, 0, 0, 0)
        self._controls.setSpacing(3)
        for b in (self.first_button, self.prev_stage_button, self.prev_button, self.play_button, self.next_button,
                  self.next_stage_button, self.last_button):
            self._controls.addWidget(b)
        self._controls.addWidget(self.speed)
        self._controls.addSpacing(8)
        self._controls.addWidget(self.position, 1)

    def _build_detail(self) -> None:
        self.detail = QWidget(self)
        self.event_title = QLabel(self.detail)
        self.event_title.setObjectName("eventTitle")
        self.event_title.setWordWrap(True)
        self.event_title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.pages = QStackedWidget(self.detail)
        self.hint = QLabel(_tr("Step through the turn with ← →, or click the timeline."), self.pages)
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.hint.setWordWrap(True)
        self.request_view = RequestView(self.tasks, self._store, self.pages)
        self.text = QPlainTextEdit(self.pages)
        self.text.setObjectName("eventText")
        self.text.setReadOnly(True)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.pages.addWidget(self.hint)
        self.pages.addWidget(self.request_view)
        self.pages.addWidget(self.text)

        self.history_label = QLabel(self.detail)
        self.history_label.setObjectName("historyLabel")
        self.history_label.setWordWrap(True)
        self.history_tree = QTreeWidget(self.detail)
        self.history_tree.setObjectName("callHistory")
        self.history_tree.setColumnCount(HISTORY_COLUMNS)
        self.history_tree.setHeaderLabels([_tr("State"), _tr("#"), _tr("Turn"), _tr("Role"), _tr("Content")])
        self.history_tree.setRootIsDecorated(False)
        self.history_tree.setUniformRowHeights(True)
        self.history_tree.setAlternatingRowColors(True)
        header = self.history_tree.header()
        header.setStretchLastSection(True)
        for col, width in ((0, 110), (1, 40), (2, 80), (3, 80)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            header.resizeSection(col, width)
        self.history_box = QWidget(self.detail)
        box_layout = QVBoxLayout(self.history_box)
        box_layout.setContentsMargins(0, 0, 0, 0)
        box_layout.setSpacing(2)
        box_layout.addWidget(self.history_label)
        box_layout.addWidget(self.history_tree, 1)

        self.detail_split = QSplitter(Qt.Orientation.Vertical, self.detail)
        self.detail_split.setChildrenCollapsible(False)
        self.detail_split.addWidget(self.pages)
        self.detail_split.addWidget(self.history_box)
        self.detail_split.setStretchFactor(0, 3)
        self.detail_split.setStretchFactor(1, 1)
        layout = QVBoxLayout(self.detail)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        layout.addWidget(self.event_title)
        layout.addWidget(self.detail_split, 1)
        self.history_box.hide()

    def _build_actions(self) -> None:
        def action(name: str, text: str, keys: list[str], slot: Callable[[], None]) -> QAction:
            a = QAction(text, self.stepper)
            a.setObjectName(name)
            a.setShortcuts([QKeySequence(k) for k in keys])
            a.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            a.triggered.connect(slot)
            self.stepper.addAction(a)
            return a

        self.next_action = action("nextEventAction", _tr("Next Event"), ["Right", "J"], self.next_event)
        self.previous_action = action("previousEventAction", _tr("Previous Event"), ["Left", "K"],
                                      self.previous_event)
        self.next_stage_action = action("nextStageAction", _tr("Next Stage"), ["Shift+Right", "]"], self.next_stage)
        self.previous_stage_action = action("previousStageAction", _tr("Previous Stage"), ["Shift+Left", "["],
                                            self.previous_stage)
        self.play_action = action("playAction", _tr("Play / Pause"), ["Space"], self.toggle_play)
        self.first_action = action("firstEventAction", _tr("First Event"), ["Home"], lambda: self.step_to(0))
        self.last_action = action("lastEventAction", _tr("Last Event"), ["End"],
                                  lambda: self.step_to(len(self.turn.events) - 1 if self.turn else -1))

    # ------------------------------------------------------------------ loading

    def load_turn(self, session_id: str, turn_id: str, event_id: str | None = None) -> None:
        """Build ``turn_id`` in the background and show it, stepped to ``event_id`` when given; a
        result for a turn the user has already left is dropped."""
        self._pending_event = event_id
        if (session_id, turn_id) == (self.session_id, self.turn_id) and (self.turn is not None or self._load_job):
            if self.turn is not None and event_id is not None:
                self.step_to_event(event_id)
            return
        self.pause()
        self.session_id, self.turn_id = session_id, turn_id
        store = self._store()
        if store is None:
            self._show_message(_tr("No database is open."))
            return
        self.title.setText(_tr("Loading turn {id}…").format(id=turn_id))
        if self._load_job is not None:
            # A build cannot be interrupted, and builds running side by side starve the GUI thread
            # of the GIL (holding ↓ in the navigator asked for one per turn passed): the running
            # one finishes, then only the turn wanted by then is built.
            return
        self._start_load(store, session_id, turn_id)

    def _start_load(self, store: Any, session_id: str, turn_id: str) -> None:
        def settle() -> bool:
            """Start the turn wanted now if the finished build was for another; True if so."""
            self._load_job = None
            if (session_id, turn_id) == (self.session_id, self.turn_id):
                return False
            wanted_store = self._store()
            if wanted_store is not None and self.session_id is not None and self.turn_id is not None:
                self._start_load(wanted_store, self.session_id, self.turn_id)
            return True

        def done(turn: Turn) -> None:
            if settle():
                return
            self.set_turn(turn)
            if self._pending_event is not None:
                self.step_to_event(self._pending_event)

        def failed(exc: BaseException) -> None:
            if settle():
                return
            self._show_message(_tr("Cannot show turn {id}: {reason}").format(id=turn_id, reason=str(exc)))
            self.loadFailed.emit(str(exc))

        self._load_job = self.tasks.run(lambda _job: build_turn(store, session_id, turn_id), done, failed,
                                        resource=store)

    def set_turn(self, turn: Turn) -> None:
        """Show ``turn`` (already built), positioned before its first event."""
        self.pause()
        self.turn = turn
        self.session_id, self.turn_id = turn.session_id, turn.turn_id
        self.summary = summarize(turn)
        self.message.hide()
        self.current = -1
        self.timeline.set_turn(turn)
        self._stage_starts = self._compute_stage_starts(turn)
        self._fill_summary(turn, self.summary)
        self._show_turn_state()
        self._fit_timeline()
        self._show_event(None)
        self.turnLoaded.emit(turn.turn_id)

    def _fit_timeline(self) -> None:
        """Give the timeline the height it needs (all lanes visible) up to half the view; the
        rest goes to the event and the summary."""
        total = sum(self.splitter.sizes())
        if total <= 0 or not self.splitter.isVisible():
            # Not laid out yet: fit once it is (resizeEvent), a hidden splitter reports no sizes.
            self._fit_pending = True
            return
        self._fit_pending = False
        frame = 2 * self.timeline_scroll.frameWidth()
        want = self.timeline.height() + frame + self._controls.sizeHint().height() + self.stepper.layout().spacing()
        top = min(want, max(total // 2, 120))
        self.splitter.setSizes([top, total - top])

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        # Only a new turn re-fits: a window resize must not undo the user's own splitter drag.
        if self._fit_pending:
            QTimer.singleShot(0, self._fit_timeline)

    def clear(self) -> None:
        self.pause()
        if self._load_job is not None:
            self._load_job.cancel()
            self._load_job = None
        self.turn = None
        self.summary = None
        self.session_id = self.turn_id = None
        self.current = -1
        self.timeline.set_turn(None)
        self.summary_view.clear()
        self._show_event(None)
        self._show_turn_state()

    def _show_message(self, text: str) -> None:
        self.message.setText(text)
        self.message.show()
        self.title.setText(_tr("No turn shown"))

    def _show_turn_state(self) -> None:
        turn = self.turn
        has = turn is not None and bool(turn.events)
        for w in (self.first_button, self.prev_stage_button, self.prev_button, self.play_button, self.next_button,
                  self.next_stage_button, self.last_button):
            w.setEnabled(has)
        if turn is None:
            self.title.setText(_tr("No turn selected"))
            self.position.setText("")
            return
        facts = [turn.origin or "?", turn.commit_status or "?", format_duration(turn.duration_ms) or "?"]
        if turn.retry is not None:
            facts.append(_tr("retry of {id}").format(id=(turn.retry.source_turn_id or "?")[:8]))
        self.title.setText(_tr("Turn {id}").format(id=turn.turn_id) + "  ·  " + " · ".join(facts))
        self._update_position()

    # ------------------------------------------------------------------ stepping

    def _lane_key(self, ev: TurnEvent) -> str | None:
        """The lane an event belongs to: its runtime's lane (the stage, UNSTAGED), or None for
        turn-level rows. Read from the lanes drawn, so stepping and the picture always agree."""
        if ev.target in ("turn", "suspension"):
            return None
        return self._lane_of_runtime.get(ev.runtime_id, ev.stage if ev.stage is not None else UNSTAGED)

    def _compute_stage_starts(self, turn: Turn) -> list[tuple[str, int]]:
        self._lane_of_runtime = {bar.runtime_id: bar.lane for bar in self.timeline.bars}
        first: dict[str, int] = {}
        for ev in turn.events:
            key = self._lane_key(ev)
            if key is not None and key not in first:
                first[key] = ev.index
        return sorted(first.items(), key=lambda kv: kv[1])

    def stage_starts(self) -> list[tuple[str, int]]:
        """(lane key, index of its first event) in execution order."""
        return list(self._stage_starts)

    def step_to(self, index: int) -> None:
        turn = self.turn
        if turn is None or not turn.events:
            return
        index = max(0, min(index, len(turn.events) - 1))
        if index == self.current:
            return
        self.current = index
        self.timeline.set_current(index)
        self._ensure_visible()
        self._update_position()
        self._show_event(turn.events[index])
        self.stepChanged.emit(index)

    def step_to_event(self, event_id: str) -> bool:
        """Step to the trace row ``event_id``; False when the turn has no such row."""
        self._pending_event = None
        turn = self.turn
        index = next((ev.index for ev in turn.events if ev.event_id == event_id), None) if turn else None
        if index is None:
            return False
        self.step_to(index)
        return True

    def next_event(self) -> None:
        self.step_to(self.current + 1)

    def previous_event(self) -> None:
        if self.current > 0:
            self.step_to(self.current - 1)

    def next_stage(self) -> None:
        for _key, start in self._stage_starts:
            if start > self.current:
                self.step_to(start)
                return
        if self.turn is not None:
            self.step_to(len(self.turn.events) - 1)

    def previous_stage(self) -> None:
        starts = [start for _key, start in self._stage_starts if start < self.current]
        self.step_to(starts[-1] if starts else 0)

    def current_event(self) -> TurnEvent | None:
        if self.turn is None or not 0 <= self.current < len(self.turn.events):
            return None
        return self.turn.events[self.current]

    def _ensure_visible(self) -> None:
        rect = self.timeline.current_rect()
        if rect is not None:
            self.timeline_scroll.ensureVisible(int(rect.center().x()), int(rect.center().y()), 10,
                                               int(rect.height()))

    def _update_position(self) -> None:
        turn = self.turn
        if turn is None:
            self.position.setText("")
            return
        ev = self.current_event()
        total = len(turn.events)
        if ev is None:
            self.position.setText(_tr("{n} events · not started").format(n=total))
            return
        stage = self._lane_key(ev)
        where = _tr("turn") if stage is None else (stage or _tr("after stages"))
        self.position.setText(_tr("event {i} of {n} · {offset} · {where}").format(
            i=ev.index + 1, n=total, offset=_offset(ev.offset_ms), where=where))

    # ------------------------------------------------------------------ playing

    @property
    def playing(self) -> bool:
        return self.play_button.isChecked()

    def play(self) -> None:
        turn = self.turn
        if turn is None or not turn.events:
            self.play_button.setChecked(False)
            return
        if self.current >= len(turn.events) - 1:
            # Playing from the end starts over, like a media player.
            self.current = -1
        self.play_button.setChecked(True)
        self.play_button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_MediaPause))
        self._schedule()

    def pause(self) -> None:
        self._play_timer.stop()
        self.play_button.setChecked(False)
        self.play_button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_MediaPlay))

    def toggle_play(self) -> None:
        if self.playing:
            self.pause()
        else:
            self.play()

    def set_speed(self, kind: str, value: float) -> bool:
        """Choose ``("scale", multiple)`` or ``("fixed", ms per event)``; False if not offered."""
        try:
            at = self._speeds.index((kind, float(value)))
        except ValueError:
            return False
        self.speed.setCurrentIndex(at)
        return True

    def play_interval_ms(self) -> int:
        """Delay before the next event at the chosen speed."""
        kind, value = self._speeds[self.speed.currentIndex()]
        if kind == "fixed":
            return int(value)
        turn = self.turn
        gap = 0.0
        if turn is not None and 0 <= self.current < len(turn.events) - 1:
            a, b = turn.events[self.current].offset_ms, turn.events[self.current + 1].offset_ms
            if a is not None and b is not None:
                gap = b - a
        return int(max(PLAY_MIN_GAP_MS, min(PLAY_MAX_GAP_MS, gap / value)))

    def _schedule(self) -> None:
        self._play_timer.start(PLAY_MIN_GAP_MS if self.current < 0 else self.play_interval_ms())

    def _play_tick(self) -> None:
        turn = self.turn
        if turn is None or not self.playing:
            return
        self.next_event()
        if self.current >= len(turn.events) - 1:
            self.pause()
        else:
            self._schedule()

    # ------------------------------------------------------------------ the current event

    def detail_page(self) -> int:
        return self.pages.currentIndex()

    def _show_event(self, ev: TurnEvent | None) -> None:
        turn = self.turn
        if ev is None or turn is None:
            self.event_title.setText("")
            self.pages.setCurrentIndex(self.PAGE_NONE)
            self.history_box.hide()
            return
        head = f"#{ev.index + 1}  {_offset(ev.offset_ms)}  {ev.type}"
        if ev.runtime_id:
            head += f"  ·  {ev.runtime_id}"
        if not ev.known:
            head += "  ·  " + _tr("unknown event type")
        self.event_title.setText(head)
        call = turn.call(ev.target_id) if ev.target == "call" and ev.target_id else None
        if ev.type == "llm.calling" and call is not None:
            self.pages.setCurrentIndex(self.PAGE_REQUEST)
            self.request_view.show_request(call.event_id)
        elif ev.type == "llm.responded" and call is not None:
            self._set_text(response_text(call, ev))
        elif ev.kind == "tool" and ev.target_id is not None:
            tool = self._tool(ev)
            self._set_text(tool_text(tool, ev) if tool is not None else raw_text(ev))
        else:
            self._set_text(raw_text(ev))
        if call is not None:
            self._load_history(call.event_id)
        else:
            self._history_for = None
            if self._history_job is not None:
                self._history_job.cancel()
                self._history_job = None
            self.history_box.hide()

    def _set_text(self, text: str) -> None:
        self.text.setPlainText(text)
        self.pages.setCurrentIndex(self.PAGE_TEXT)

    def _tool(self, ev: TurnEvent) -> ToolUse | None:
        runtime = self.turn.runtime(ev.runtime_id) if self.turn is not None else None
        if runtime is None:
            return None
        return next((t for t in runtime.tools if t.key == ev.target_id), None)

    # ------------------------------------------------------------------ history of a call

    def _load_history(self, event_id: str) -> None:
        self.history_box.show()
        if event_id == self._history_for:
            return
        self._history_for = event_id
        if self._history_job is not None:
            self._history_job.cancel()
        store = self._store()
        turn = self.turn
        if store is None or turn is None:
            return
        self.history_label.setText(_tr("Loading the history this call saw…"))
        self.history_tree.clear()
        sid, tid = turn.session_id, turn.turn_id

        def done(history: CallHistory) -> None:
            self._history_job = None
            if event_id == self._history_for:
                self._fill_history(history)

        def failed(exc: BaseException) -> None:
            self._history_job = None
            if event_id == self._history_for:
                self.history_label.setText(_tr("No history: {reason}").format(reason=str(exc)))

        self._history_job = self.tasks.run(lambda _job: turn_history(store, sid, tid, event_id), done, failed,
                                           resource=store)

    def _fill_history(self, history: CallHistory) -> None:
        self.history = history
        counts: dict[str, int] = {}
        for row in history.rows:
            counts[row.state] = counts.get(row.state, 0) + 1
        parts = [f"{n} {_state_label(state)}" for state, n in counts.items()]
        caption = _tr("History this call saw: {counts}").format(counts=", ".join(parts) or _tr("no journal rows"))
        if history.window is not None:
            caption += " · " + _tr("window of {n} turns").format(n=len(history.window.turn_ids))
        sent = [s for s in history.summaries if s.sent]
        if sent:
            caption += " · " + _tr("{n} summaries sent").format(n=len(sent))
        self.history_label.setText(caption)
        tree = self.history_tree
        tree.setUpdatesEnabled(False)
        tree.clear()
        dim = self.palette().color(QPalette.ColorRole.PlaceholderText)
        items = []
        for row in history.rows:
            m = row.message
            item = QTreeWidgetItem([_state_label(row.state),
                                    str(row.request_index) if row.request_index is not None else "",
                                    m.turn_id[:8], m.role or "?", _short(m.content, 200)])
            item.setToolTip(4, _short(m.content, 1200))
            if row.state not in ("sent", "current"):
                for col in range(HISTORY_COLUMNS):
                    item.setForeground(col, dim)
            items.append(item)
        tree.addTopLevelItems(items)
        if items:
            tree.scrollToItem(items[-1])
        tree.setUpdatesEnabled(True)
        self.historyLoaded.emit(history.event_id)

    # ------------------------------------------------------------------ summary

    def _fill_summary(self, turn: Turn, s: TurnSummary) -> None:
        e = html.escape
        out = [f"<h3>{e(_tr('What this turn did'))}</h3>"]
        counts = [_tr("{n} ran").format(n=s.ran), _tr("{n} succeeded").format(n=s.succeeded)]
        for n, label in ((s.failed, _tr("{n} failed")), (s.skipped, _tr("{n} skipped")),
                         (s.deferred, _tr("{n} deferred")), (s.suspended, _tr("{n} suspended"))):
            if n:
                counts.append(label.format(n=n))
        out.append(f"<p><b>{e(_tr('Runtimes'))}</b>: {e(', '.join(counts))}</p>")
        if s.failures:
            out.append("<ul>" + "".join(f"<li>{e(rid)}: {e(_short(why, 200))}</li>" for rid, why in s.failures)
                       + "</ul>")
        if turn.retry is not None:
            r = turn.retry
            out.append(f"<p><b>{e(_tr('Retry'))}</b>: {e(r.kind)} · "
                       + e(_tr("re-ran {ids}").format(ids=", ".join(r.runtime_ids) or "?"))
                       + (" · " + e(_tr("{n} results reused").format(n=len(r.seeded))) if r.seeded else "") + "</p>")
        tokens = _tr("{calls} calls · input {input} (cached {cached}) · output {output}").format(
            calls=s.calls, input=format_number(s.input_tokens) or "0", cached=format_number(s.cached_tokens) or "0",
            output=format_number(s.output_tokens) or "0")
        if s.retries:
            tokens += " · " + _tr("{n} retried").format(n=s.retries)
        out.append(f"<p><b>{e(_tr('Tokens'))}</b>: {e(tokens)}</p>")
        if s.input_cost_usd is not None:
            cost = _tr("${usd} input at list price").format(usd=f"{s.input_cost_usd:.4f}")
            if s.unpriced_calls:
                cost += " · " + _tr("{n} calls without a price").format(n=s.unpriced_calls)
            out.append(f"<p><b>{e(_tr('Cost'))}</b>: {e(cost)}</p>")
        else:
            out.append(f"<p><b>{e(_tr('Cost'))}</b>: {e(_tr('no price known for these models'))}</p>")
        if s.tools:
            out.append(f"<p><b>{e(_tr('Tool effects'))}</b></p><ul>")
            for t in s.tools:
                result = t.error if t.error is not None else t.output
                out.append(f"<li><b>{e(t.name or '?')}</b> ({e(t.runtime_id or '?')}, {e(t.status)}): "
                           f"{e(_short(t.input, 160))} → {e(_short(result, 120))}</li>")
            out.append("</ul>")
        if s.player:
            out.append(f"<p><b>{e(_tr('Player'))}</b>: {e(s.player)}</p>")
        if s.story:
            paragraphs = "".join(f"<p>{e(p)}</p>" for p in s.story.split("\n") if p.strip())
            out.append(f"<p><b>{e(_tr('Story'))}</b></p>{paragraphs}")
        else:
            out.append(f"<p><b>{e(_tr('Story'))}</b>: {e(_tr('this turn wrote no story'))}</p>")
        for note in turn.notes:
            out.append(f"<p><i>{e(note)}</i></p>")
        self.summary_view.setHtml("".join(out))


# ================================================================================== event texts

def _state_label(state: str) -> str:
    labels = {"sent": _tr("sent"), "current": _tr("current"), "compacted": _tr("compacted"),
              "outside-window": _tr("outside window"), "pruned": _tr("pruned"), "not-sent": _tr("not sent")}
    return labels.get(state, state)


def raw_text(ev: TurnEvent) -> str:
    if ev.payload_error:
        return f"{ev.payload_error}\n\n{ev.event.raw_text or ''}"
    return _json(ev.payload)


def response_text(call: ModelCall, ev: TurnEvent) -> str:
    payload = ev.payload
    lines = []
    usage = call.usage
    if usage is not None:
        lines.append(_tr("Usage: input {input} (cached {cached}, cache write {write}) · output {output}").format(
            input=format_number(usage.input_tokens) or "?", cached=format_number(usage.cached_input_tokens) or "0",
            write=format_number(usage.cache_write_input_tokens) or "0",
            output=format_number(usage.output_tokens) or "?"))
    lines.append(_tr("Finish reason: {reason} · duration {duration}").format(
        reason=call.finish_reason or "?", duration=format_duration(call.duration_ms) or "?"))
    if call.error:
        lines.append(_tr("Error: {error}").format(error=call.error))
    text = payload.get("text")
    lines.append("")
    lines.append(_tr("— Text —"))
    lines.append(text if isinstance(text, str) and text else _tr("(no text)"))
    tool_calls = payload.get("toolCalls")
    if isinstance(tool_calls, list) and tool_calls:
        lines.append("")
        lines.append(_tr("— Tool calls —"))
        for tc in tool_calls:
            if isinstance(tc, dict):
                lines.append(f"{tc.get('name') or '?'}  ({tc.get('id') or ''})")
                lines.append(_json(tc.get("arguments")))
            else:
                lines.append(_json(tc))
    return "\n".join(lines)


def tool_text(tool: ToolUse, ev: TurnEvent) -> str:
    lines = [f"{tool.name or '?'} · {tool.status}"]
    if tool.duration_ms is not None:
        lines[0] += f" · {format_duration(tool.duration_ms)}"
    if tool.approval_status:
        lines[0] += f" · {tool.approval_status}"
    if tool.step is not None:
        lines.append(_tr("Asked for by step {n}").format(n=tool.step + 1))
    lines += ["", _tr("— Input —"), _json(tool.input) if tool.input is not None else _tr("(none recorded)")]
    if tool.status != "failed" or tool.output is not None:
        lines += ["", _tr("— Output —"),
                  _json(tool.output) if tool.output is not None else _tr("(none recorded)")]
    if tool.error is not None:
        lines += ["", _tr("— Error —"), _json(tool.error)]
    lines += ["", _tr("— This row —"), raw_text(ev)]
    return "\n".join(lines)
