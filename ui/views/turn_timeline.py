"""The turn painted as lanes of bars on a time ruler, with model-call and tool marks inside the
bars and the current event highlighted. Geometry comes from :mod:`ui.models.turn_timeline`; this
widget paints it and turns clicks and hovers into events and tooltips."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QHelpEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QPolygonF,
    QResizeEvent,
)
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from inspector.numbering import shown
from inspector.turn.model import ModelCall, ToolUse, Turn

from ..models.turn_timeline import (
    GUTTER,
    LANE_PAD,
    LEGEND,
    RIGHT,
    ROW,
    RULER,
    BarGeometry,
    LaneGeometry,
    MarkGeometry,
    TimelineLayout,
    lay_out,
)
from .turn_texts import call_tooltip, runtime_tooltip, tool_tooltip


def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("TurnView", text)

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


def status_colour(status: str | None) -> QColor:
    return STATUS_COLOURS.get(status or "", _OTHER_STATUS)


class TimelineWidget(QWidget):
    """The turn painted as lanes of bars. Signals: ``eventClicked(int)`` with the index (into
    ``turn.events``) of the event a click picked.

    Geometry for tests and hit-testing: :attr:`placement` (also :attr:`lanes`, :attr:`bars`,
    :attr:`marks`, :meth:`bar`, :meth:`mark`, :meth:`x_of`); recomputed on every resize and
    :meth:`set_turn`.
    """

    eventClicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("turnTimeline")
        self.setMouseTracking(False)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.turn: Turn | None = None
        self.current = -1
        self.placement = TimelineLayout(None, float(self.width()))
        self._small = QFont(self.font())
        self._small.setPointSizeF(max(7.0, self.font().pointSizeF() * 0.85))
        self._bold = QFont(self.font())
        self._bold.setBold(True)

    # ------------------------------------------------------------------ data

    @property
    def lanes(self) -> list[LaneGeometry]:
        return self.placement.lanes

    @property
    def bars(self) -> list[BarGeometry]:
        return self.placement.bars

    @property
    def marks(self) -> list[MarkGeometry]:
        return self.placement.marks

    def set_turn(self, turn: Turn | None) -> None:
        self.turn = turn
        self.current = -1
        self.relayout()

    def set_current(self, index: int) -> None:
        if index != self.current:
            self.current = index
            self.update()

    def bar(self, runtime_id: str | None) -> BarGeometry | None:
        return self.placement.bar_by_id.get(runtime_id)

    def mark(self, kind: str, key: str) -> MarkGeometry | None:
        return self.placement.mark_by_key.get((kind, key))

    def x_of(self, ms: float | None) -> float:
        return self.placement.x_of(ms)

    def relayout(self) -> None:
        self.placement = lay_out(self.turn, self.width(), _tr("after stages"))
        self.setFixedHeight(self.placement.height)
        self.updateGeometry()
        self.update()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(720, self.placement.height)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self.relayout()

    # ------------------------------------------------------------------ hit testing

    def event_at(self, pos: QPointF) -> int:
        return self.placement.event_at(pos)

    def current_rect(self) -> QRectF | None:
        """Where the current event's subject is drawn: its call, tool or runtime bar."""
        return self.placement.subject_rect(self.current)

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
        mark = self.placement.mark_at(pos)
        if mark is not None:
            return call_tooltip(mark.item) if isinstance(mark.item, ModelCall) else tool_tooltip(mark.item)
        bar = self.placement.bar_at(pos)
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
        for i, lane in enumerate(self.placement.lanes):
            if i % 2:
                p.fillRect(lane.rect, alt)
        self._paint_ruler(p, text, dim, grid)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        for lane in self.placement.lanes:
            p.setPen(text if lane.key else dim)
            p.setFont(self._bold)
            p.drawText(QRectF(6, lane.rect.top() + LANE_PAD, GUTTER - 10, ROW),
                       Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                       p.fontMetrics().elidedText(lane.label, Qt.TextElideMode.ElideRight, GUTTER - 10))
        self._paint_groups(p, dim)
        p.setFont(self._small)
        metrics = p.fontMetrics()
        for bar in self.placement.bars:
            self._paint_bar(p, bar, text, metrics)
        for mark in self.placement.marks:
            self._paint_mark(p, mark)
        self._paint_current(p, highlight)
        self._paint_legend(p, text, dim)

    def _paint_ruler(self, p: QPainter, text: QColor, dim: QColor, grid: QColor) -> None:
        step, ticks = self.placement.ticks()
        p.setFont(self._small)
        bottom = self.placement.bottom()
        faint = QColor(grid)
        faint.setAlpha(90)
        for ms in ticks:
            x = self.placement.x_of(ms)
            p.setPen(QPen(faint, 1))
            p.drawLine(QPointF(x, RULER - 4), QPointF(x, bottom))
            label = f"{ms / 1000:g} s" if step >= 100 else f"{ms:g} ms"
            p.setPen(dim)
            p.drawText(QRectF(x + 3, 2, 80, RULER - 6), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                       label)
        p.setPen(QPen(grid, 1))
        p.drawLine(QPointF(0, RULER - 0.5), QPointF(self.width(), RULER - 0.5))
        p.setPen(text)
        p.drawText(QRectF(6, 2, GUTTER - 10, RULER - 6), Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
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
            rects = [b.rect for r in group.runtimes if (b := self.placement.bar_by_id.get(r.runtime_id)) is not None]
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
        if runtime.status and not runtime.succeeded:
            label += f" · {runtime.status}"
        if not bar.timed:
            label += " · " + _tr("no times recorded")
        inner = bar.rect.width() - 8
        text_rect = QRectF(bar.rect.left() + 4, bar.rect.top() + 1, inner, 13)
        if metrics.horizontalAdvance(label) > inner:
            # Too narrow for its name (a skipped runtime is a sliver): write it after the bar.
            room = self.width() - RIGHT - bar.rect.right() - 6
            if room > 40:
                text_rect = QRectF(bar.rect.right() + 5, bar.rect.top() + 1, room, 13)
                inner = room
        p.setPen(text)
        p.drawText(text_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                   metrics.elidedText(label, Qt.TextElideMode.ElideRight, int(max(inner, 0))))

    def _paint_mark(self, p: QPainter, mark: MarkGeometry) -> None:
        item = mark.item
        if isinstance(item, ModelCall):
            colour = _CALL_ERROR if item.failed else _CALL
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
            label = f"{shown(item.step)}" + (f"·{shown(item.attempt)}" if item.attempt else "")
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

    def _paint_current(self, p: QPainter, highlight: QColor) -> None:
        turn = self.turn
        if turn is None or not 0 <= self.current < len(turn.events):
            return
        ev = turn.events[self.current]
        bottom = self.placement.bottom()
        if ev.offset_ms is not None:
            x = self.placement.x_of(ev.offset_ms)
            p.setPen(QPen(highlight, 1.5))
            p.drawLine(QPointF(x, RULER), QPointF(x, bottom))
            p.setBrush(highlight)
            p.setPen(Qt.PenStyle.NoPen)
            p.drawPolygon(QPolygonF([QPointF(x - 5, RULER - 7), QPointF(x + 5, RULER - 7),
                                     QPointF(x, RULER)]))
        rect = self.current_rect()
        if rect is not None:
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.setPen(QPen(highlight, 2.5))
            p.drawRoundedRect(rect.adjusted(-2.5, -2.5, 2.5, 2.5), 3, 3)

    def _paint_legend(self, p: QPainter, text: QColor, dim: QColor) -> None:
        top = self.placement.height - LEGEND + 4
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
