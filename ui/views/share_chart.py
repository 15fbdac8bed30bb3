"""The cache analysis's pictures: the shared-share cell painter and colour legend of the table, and
the chart of shared vs total tokens over turns for one runtime."""

from __future__ import annotations

from typing import Any

from PySide6.QtCharts import QChart, QChartView, QLineSeries, QScatterSeries, QValueAxis
from PySide6.QtCore import QCoreApplication, QModelIndex, QPointF, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QLinearGradient, QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QSizePolicy,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from inspector.cache.results import CachePair
from ui.theme import is_dark

from .cache_texts import runtime_name, share_colour


def _tr(text: str) -> str:
    return QCoreApplication.translate("CacheView", text)


class ShareCellDelegate(QStyledItemDelegate):
    """Paints a cell in its share colour even when selected (a selection colour would hide the
    one fact the table is about); the selected cell gets a frame instead."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        brush = index.data(Qt.ItemDataRole.BackgroundRole)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        painter.save()
        if isinstance(brush, QBrush):
            painter.fillRect(option.rect, brush)
        text = index.data(Qt.ItemDataRole.DisplayRole)
        if text:
            painter.setPen(QColor("#ffffff") if brush is not None and brush.color().lightness() < 110
                           else QColor("#1b1e22"))
            painter.drawText(option.rect, int(Qt.AlignmentFlag.AlignCenter), text)
        if selected:
            pen = QPen(option.palette.color(QPalette.ColorRole.Highlight))
            pen.setWidth(3)
            painter.setPen(pen)
            painter.drawRect(option.rect.adjusted(1, 1, -2, -2))
        painter.restore()


class ShareLegend(QWidget):
    """The table's colour scale: a gradient bar from 0 % to 100 % shared."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setToolTip(_tr("Cell colour: share of the request's tokens in the prefix shared with the earlier "
                            "request (grey: the runtime's first request)"))
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt naming
        fm = self.fontMetrics()
        return QSize(fm.horizontalAdvance("0 %") + fm.horizontalAdvance("100 %") + 130, fm.height() + 4)

    def paintEvent(self, _event: Any) -> None:  # noqa: N802 - Qt override
        p = QPainter(self)
        fm = self.fontMetrics()
        dark = self.palette().color(QPalette.ColorRole.Window).lightness() < 128
        left_w, right_w = fm.horizontalAdvance("0 % "), fm.horizontalAdvance(" 100 %")
        bar_x, bar_w = left_w, self.width() - left_w - right_w
        grad = QLinearGradient(bar_x, 0, bar_x + bar_w, 0)
        for stop in (0.0, 0.25, 0.5, 0.75, 1.0):
            grad.setColorAt(stop, share_colour(stop, dark))
        p.fillRect(bar_x, 3, bar_w, self.height() - 6, grad)
        p.setPen(self.palette().color(QPalette.ColorRole.WindowText))
        p.drawText(0, 0, left_w, self.height(), int(Qt.AlignmentFlag.AlignVCenter), "0 %")
        p.drawText(bar_x + bar_w, 0, right_w, self.height(),
                   int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight), "100 %")
        p.end()



class ShareChart(QChartView):
    """Shared vs total tokens over turns for one runtime, with predicted and reported cached
    tokens. Series order: total, shared, predicted, reported (reported has a point only where
    the response recorded a cached count)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRenderHint(QPainter.RenderHint.Antialiasing)
        self.runtime: str | None = None
        chart = QChart()
        chart.setMargins(chart.margins().__class__(4, 4, 4, 4))
        chart.legend().setAlignment(Qt.AlignmentFlag.AlignBottom)
        chart.setTitle(_tr("Tokens over turns"))
        chart.legend().setToolTip(_tr("Total: the request's tokens; Shared: the prefix shared with the earlier "
                                      "request; Predicted/Reported: cached tokens by the provider's rules / "
                                      "as the response recorded them"))
        self.total = QLineSeries()
        self.total.setName(_tr("Total"))
        self.shared = QLineSeries()
        self.shared.setName(_tr("Shared"))
        self.predicted = QLineSeries()
        self.predicted.setName(_tr("Predicted"))
        self.reported = QScatterSeries()
        self.reported.setName(_tr("Reported"))
        self.reported.setMarkerSize(7)
        styles = ((self.total, "#6c757d", Qt.PenStyle.SolidLine), (self.shared, "#1c7ed6", Qt.PenStyle.SolidLine),
                  (self.predicted, "#e8590c", Qt.PenStyle.DashLine))
        for series, colour, style in styles:
            pen = QPen(QColor(colour))
            pen.setWidthF(2)
            pen.setStyle(style)
            series.setPen(pen)
        self.reported.setColor(QColor("#2f9e44"))
        self.reported.setBorderColor(QColor("#2f9e44"))
        self.x_axis = QValueAxis()
        self.x_axis.setLabelFormat("%d")
        self.x_axis.setTitleText(_tr("Turn"))
        self.y_axis = QValueAxis()
        self.y_axis.setLabelFormat("%d")
        chart.addAxis(self.x_axis, Qt.AlignmentFlag.AlignBottom)
        chart.addAxis(self.y_axis, Qt.AlignmentFlag.AlignLeft)
        for series in self.series_list():
            chart.addSeries(series)
            series.attachAxis(self.x_axis)
            series.attachAxis(self.y_axis)
        self.setChart(chart)
        self._chart = chart
        self._title = _tr("Tokens over turns")
        self._compact: bool | None = None
        self.apply_palette()
        self._fit_height()

    def series_list(self) -> list[QLineSeries | QScatterSeries]:
        return [self.total, self.shared, self.predicted, self.reported]

    def apply_palette(self) -> None:
        pal = self.palette()
        dark = is_dark(pal)
        self._chart.setBackgroundBrush(QBrush(pal.color(QPalette.ColorRole.Base)))
        text = pal.color(QPalette.ColorRole.Text)
        self._chart.setTitleBrush(QBrush(text))
        self._chart.legend().setLabelColor(text)
        grid = QColor("#444a52" if dark else "#e3e6ea")
        for axis in (self.x_axis, self.y_axis):
            axis.setLabelsColor(text)
            axis.setTitleBrush(QBrush(text))
            axis.setGridLineColor(grid)

    def set_pairs(self, runtime: str | None, points: list[tuple[int, CachePair]]) -> None:
        """``points``: (turn number, turn pair) in turn order."""
        self.runtime = runtime
        self._title = _tr("Tokens over turns · {runtime}").format(runtime=runtime_name(runtime))
        self._compact = None
        self._fit_height()
        self.total.replace([QPointF(n, p.total_tokens) for n, p in points])
        self.shared.replace([QPointF(n, p.shared_tokens) for n, p in points])
        self.predicted.replace([QPointF(n, p.predicted_cached_tokens) for n, p in points])
        self.reported.replace([QPointF(n, p.reported_cached_tokens) for n, p in points
                               if p.reported_cached_tokens is not None])
        first = points[0][0] if points else 1
        last = points[-1][0] if points else 1
        # Ticks on whole turns only, anchored at the first one: the default ticks divide the range
        # evenly and would label 1.7 as "1". The interval is set before the range: a long range
        # under the previous (short) interval makes Qt lay out a label per turn first (0.9 s for
        # 1,000 turns).
        self.x_axis.setTickType(QValueAxis.TickType.TicksDynamic)
        self.x_axis.setTickAnchor(first)
        self.x_axis.setTickInterval(max(1, -(-(last - first + 1) // 10)))
        self.x_axis.setRange(first - 0.5, last + 0.5)
        top = max((p.total_tokens for _n, p in points), default=0)
        self.y_axis.setRange(0, _nice_ceiling(top))
        self.y_axis.applyNiceNumbers()
        self.y_axis.setTickCount(3 if self._compact else 5)

    # Below this height (px) the chart drops its title (shown as the tooltip) and the turn axis's
    # title, and labels three values: else Qt cuts every label to "…" (a 340 px dock at 1280x720).
    COMPACT_HEIGHT = 240

    def _fit_height(self) -> None:
        compact = self.height() < self.COMPACT_HEIGHT
        if compact == self._compact:
            return
        self._compact = compact
        self._chart.setTitle("" if compact else self._title)
        self.setToolTip(self._title if compact else "")
        self.x_axis.setTitleVisible(not compact)
        self.y_axis.setTickCount(3 if compact else 5)

    def resizeEvent(self, e: Any) -> None:  # noqa: N802 - Qt override
        self._fit_height()
        super().resizeEvent(e)

    def changeEvent(self, e: Any) -> None:  # noqa: N802 - Qt override
        if e.type() == e.Type.PaletteChange:
            self.apply_palette()
        super().changeEvent(e)


def _nice_ceiling(value: int) -> int:
    if value <= 0:
        return 100
    step = 10 ** (len(str(value)) - 1)
    return ((value // step) + 1) * step

