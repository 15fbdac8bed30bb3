"""The turn painted as lanes of bars on a time ruler, with model-call and tool marks inside the
bars and the current event highlighted. Geometry comes from :mod:`ui.models.turn_timeline`; this
widget paints it and turns clicks and hovers into events and tooltips.

:class:`TimelineScroll` holds it and zooms and pans it: Ctrl+wheel zooms about the pointer,
Shift+wheel or a drag pans, a double-click on a bar zooms to its parallel group, and
:meth:`TimelineScroll.fit` shows the whole turn again. The lane names stay at the left edge
of what is on screen."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, QRectF, QSize, Qt, Signal
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
    QWheelEvent,
)
from PySide6.QtWidgets import QFrame, QScrollArea, QSizePolicy, QToolTip, QWidget

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
from .part_names import stage_label
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
    # (start ms, end ms) of what a double-click asks to fill the width with.
    rangeRequested = Signal(float, float)

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
        self._pressed = -1

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
        self.placement = lay_out(self.turn, self.width(), _tr("after stages"), stage_label)
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

    def visible_left(self) -> float:
        """The left edge of the part on screen (the widget is wider than its scroll area when
        zoomed): lane names and the legend are drawn from there."""
        region = self.visibleRegion().boundingRect()
        return float(region.left()) if not region.isEmpty() else 0.0

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        if event.button() == Qt.MouseButton.LeftButton:
            # A click picks on release: a press that turns into a drag pans instead
            # (TimelineScroll swallows that release).
            pos = event.position()
            self._pressed = -1 if pos.x() < self.visible_left() + GUTTER else self.event_at(pos)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        if event.button() == Qt.MouseButton.LeftButton:
            index, self._pressed = self._pressed, -1
            if index >= 0:
                self.eventClicked.emit(index)
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        span = self.group_span_at(event.position())
        if span is not None:
            self.rangeRequested.emit(*span)
            event.accept()
            return
        super().mouseDoubleClickEvent(event)

    def group_span_at(self, pos: QPointF) -> tuple[float, float] | None:
        """The time span (ms) of the parallel group of the runtime under ``pos``: what a
        double-click zooms to."""
        bar = self.placement.bar_at(pos)
        turn = self.turn
        if bar is None or turn is None or not bar.timed:
            return None
        runtimes = [bar.runtime]
        for group in turn.groups():
            if any(r is bar.runtime for r in group.runtimes):
                runtimes = list(group.runtimes)
                break
        starts = [r.start_ms for r in runtimes if r.start_ms is not None]
        ends = [r.end_ms if r.end_ms is not None else r.start_ms for r in runtimes if r.start_ms is not None]
        if not starts:
            return None
        return float(min(starts)), float(max(e for e in ends if e is not None))

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
        self._paint_ruler(p, dim, grid)
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        self._paint_groups(p, dim)
        p.setFont(self._small)
        metrics = p.fontMetrics()
        for bar in self.placement.bars:
            self._paint_bar(p, bar, text, metrics)
        for mark in self.placement.marks:
            self._paint_mark(p, mark)
        self._paint_current(p, highlight)
        self._paint_gutter(p, base, alt, text, dim)
        self._paint_legend(p, base, dim)

    def _paint_gutter(self, p: QPainter, base: QColor, alt: QColor, text: QColor, dim: QColor) -> None:
        # The lane names stay at the left of what is on screen, over whatever scrolled under them.
        left = self.visible_left()
        p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        p.fillRect(QRectF(left, 0, GUTTER - 4, RULER - 1), base)
        p.setPen(text)
        p.setFont(self._small)
        p.drawText(QRectF(left + 6, 2, GUTTER - 10, RULER - 6),
                   Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, _tr("stage"))
        p.setFont(self._bold)
        for i, lane in enumerate(self.placement.lanes):
            p.fillRect(QRectF(left, lane.rect.top(), GUTTER - 4, lane.rect.height()), alt if i % 2 else base)
            p.setPen(text if lane.key else dim)
            p.drawText(QRectF(left + 6, lane.rect.top() + LANE_PAD, GUTTER - 10, ROW),
                       Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                       p.fontMetrics().elidedText(lane.label, Qt.TextElideMode.ElideRight, GUTTER - 10))
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)

    def _paint_ruler(self, p: QPainter, dim: QColor, grid: QColor) -> None:
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
        text_rect = QRectF(bar.rect.left() + 4, bar.rect.top(), inner, 12)
        align = Qt.AlignmentFlag.AlignLeft
        wanted = metrics.horizontalAdvance(label)
        if wanted > inner:
            # Too narrow for its name (a skipped runtime is a sliver, parallel post-turn runtimes
            # at the end of a long turn): write it beside the bar, where its row has room.
            after, before = bar.room_after - 8, bar.room_before - 10
            if after >= wanted or (after >= before and after > 40):
                text_rect = QRectF(bar.rect.right() + 5, bar.rect.top(), after, 12)
                inner = after
            elif before > 40:
                text_rect = QRectF(bar.rect.left() - 5 - before, bar.rect.top(), before, 12)
                inner = before
                align = Qt.AlignmentFlag.AlignRight
        p.setPen(text)
        p.drawText(text_rect, align | Qt.AlignmentFlag.AlignVCenter,
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

    def _paint_legend(self, p: QPainter, base: QColor, dim: QColor) -> None:
        top = self.placement.height - LEGEND + 4
        left = self.visible_left()
        shown_width = self.visibleRegion().boundingRect().width() or self.width()
        p.fillRect(QRectF(left, top - 4, shown_width, LEGEND), base)
        x = left + 8.0
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
            if x > left + shown_width - 40:
                break


class TimelineScroll(QScrollArea):
    """The timeline in a scroll area that zooms and pans it. ``zoom`` is the widget's width as a
    multiple of the visible width (1: the whole turn fits). Signals: ``zoomChanged(float)``."""

    zoomChanged = Signal(float)

    MAX_ZOOM = 64.0
    STEP = 1.25
    DRAG_START = 4

    def __init__(self, timeline: TimelineWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("turnTimelineScroll")
        self.timeline = timeline
        self._zoom = 1.0
        self._drag_from: QPoint | None = None
        self._drag_scroll = 0
        self._dragging = False
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setWidget(timeline)
        timeline.installEventFilter(self)
        timeline.rangeRequested.connect(self.zoom_to_range)
        # The lane names are painted at the visible left edge: a scrolled picture must be redrawn,
        # not shifted.
        self.horizontalScrollBar().valueChanged.connect(lambda _v: timeline.update())

    @property
    def zoom(self) -> float:
        return self._zoom

    def set_zoom(self, zoom: float, anchor: float | None = None) -> None:
        """Zoom to ``zoom`` keeping the moment under viewport x ``anchor`` (default: the centre)
        where it is."""
        zoom = max(1.0, min(self.MAX_ZOOM, zoom))
        bar = self.horizontalScrollBar()
        width = self.viewport().width()
        at = width / 2 if anchor is None else anchor
        moment = self.timeline.placement.ms_at(bar.value() + at)
        self._zoom = zoom
        self.timeline.setMinimumWidth(int(width * zoom) if zoom > 1.0 else 0)
        # Lays the widget out at its new width now (and the scroll bar's range with it).
        self.setWidgetResizable(True)
        bar.setValue(int(self.timeline.placement.x_of(moment) - at))
        self.timeline.update()
        self.zoomChanged.emit(zoom)

    def zoom_in(self) -> None:
        self.set_zoom(self._zoom * self.STEP)

    def zoom_out(self) -> None:
        self.set_zoom(self._zoom / self.STEP)

    def fit(self) -> None:
        """The whole turn in the visible width."""
        self.set_zoom(1.0)
        self.horizontalScrollBar().setValue(0)

    def zoom_to_range(self, start_ms: float, end_ms: float) -> None:
        """Fill the visible width (beside the lane names) with ``start_ms``..``end_ms``."""
        placement = self.timeline.placement
        span = max(end_ms - start_ms, placement.span / self.MAX_ZOOM, 1.0)
        margin = span * 0.08
        width = max(1, self.viewport().width())
        usable = max(1.0, width - GUTTER - RIGHT)
        # x_of maps the span onto (widget width - GUTTER - RIGHT): widen the widget until the
        # range (with a margin each side) takes the usable visible width.
        wanted = GUTTER + RIGHT + usable * placement.span / (span + 2 * margin)
        self.set_zoom(wanted / width)
        placement = self.timeline.placement
        self.horizontalScrollBar().setValue(int(placement.x_of(max(0.0, start_ms - margin)) - GUTTER))

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt override
        delta = event.angleDelta()
        modifiers = event.modifiers()
        if modifiers & Qt.KeyboardModifier.ControlModifier and delta.y():
            self.set_zoom(self._zoom * self.STEP ** (delta.y() / 120), event.position().x())
            event.accept()
            return
        if modifiers & Qt.KeyboardModifier.ShiftModifier and delta.y():
            bar = self.horizontalScrollBar()
            bar.setValue(bar.value() - delta.y())
            event.accept()
            return
        super().wheelEvent(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if watched is not self.timeline or not isinstance(event, QMouseEvent):
            return super().eventFilter(watched, event)
        kind = event.type()
        if kind == QEvent.Type.MouseButtonPress and event.button() in (Qt.MouseButton.LeftButton,
                                                                      Qt.MouseButton.MiddleButton):
            self._drag_from = event.globalPosition().toPoint()
            self._drag_scroll = self.horizontalScrollBar().value()
            self._dragging = event.button() == Qt.MouseButton.MiddleButton
        elif kind == QEvent.Type.MouseMove and self._drag_from is not None:
            moved = event.globalPosition().toPoint() - self._drag_from
            if not self._dragging and abs(moved.x()) >= self.DRAG_START:
                self._dragging = True
            if self._dragging:
                self.horizontalScrollBar().setValue(self._drag_scroll - moved.x())
                return True
        elif kind == QEvent.Type.MouseButtonRelease and self._drag_from is not None:
            dragged = self._dragging
            self._drag_from, self._dragging = None, False
            if dragged:
                return True  # a drag, not a click
        return super().eventFilter(watched, event)
