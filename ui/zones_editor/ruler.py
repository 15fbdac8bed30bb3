"""The order ruler: the system zone's −300…299 range drawn top to bottom with its documented bands
(identity, deployment, safety, persona …), and every system block as a marker at its order.

Markers that share an order are drawn as ties (the assembly then falls back on registration
order, which changes silently with plugin load order); blocks outside the range sit at the end
they overshoot, in the error colour. Labels are spread apart so close orders (85, 86) stay
readable, each joined to its marker by a leader line. Clicking a label selects the block.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QHelpEvent, QMouseEvent, QPainter, QPaintEvent, QPalette, QPen, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from inspector.jsjson import js_number
from inspector.zones import PromptConfig
from inspector.zones import diagnostic as dg
from inspector.zones.config import ORDER_BANDS, ORDER_RANGE, band_of, in_system_range
from inspector.zones.diagnostics import order_ties
from ui.theme import is_dark

from .blocks_model import assembly_order
from .problems import severity_colour

_BAND_HUES = (210, 0, 25, 280, 150, 120, 45, 195, 330, 260)


def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("OrderRuler", text)


def band_title(purpose: str) -> str:
    return {
        "identity": _tr("identity"), "deployment": _tr("deployment"), "safety": _tr("safety"),
        "persona": _tr("persona"), "scene": _tr("scene"), "world-book": _tr("world book"),
        "examples": _tr("examples"), "tools": _tr("tools"), "capabilities": _tr("capabilities"),
        "platform": _tr("platform"),
    }.get(purpose, purpose)


def spread(wanted: list[float], gap: float, top: float, bottom: float) -> list[float]:
    """Positions as close to ``wanted`` (sorted) as possible, at least ``gap`` apart, within
    [top, bottom] when they fit."""
    out: list[float] = []
    for y in wanted:
        out.append(max(y, out[-1] + gap) if out else max(y, top))
    if out and out[-1] > bottom:
        out[-1] = bottom
        for i in range(len(out) - 2, -1, -1):
            out[i] = min(out[i], out[i + 1] - gap)
    return out


@dataclass
class Marker:
    block_index: int
    block_id: str
    order: float
    y: float  # the marker on the axis
    label_y: float
    tie: bool
    out_of_range: bool
    role: str


class OrderRuler(QWidget):
    """``set_config(config)`` after blocks change; ``set_selected(block_index)``;
    ``blockClicked(block_index)`` when a marker or label is clicked."""

    blockClicked = Signal(int)

    MARGIN = 14

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("orderRuler")
        self.setMouseTracking(True)
        # Zone names and the bar; a block's label beside its mark as far as it fits (the tree beside
        # the ruler lists every id whole, and hovering shows it).
        self.setMinimumWidth(150)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)
        self.config: PromptConfig | None = None
        self.selected: int | None = None
        self.markers: list[Marker] = []
        self._label_rects: list[tuple[QRectF, int]] = []

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(220, 520)

    def set_config(self, config: PromptConfig) -> None:
        self.config = config
        self._layout()
        self.update()

    def set_selected(self, block_index: int | None) -> None:
        if block_index != self.selected:
            self.selected = block_index
            self.update()

    # ------------------------------------------------------------------ geometry

    def small_font(self) -> QFont:
        small = QFont(self.font())
        small.setPointSizeF(max(6.5, small.pointSizeF() * 0.85))
        return small

    def axis_x(self) -> float:
        """Where the axis is: right of the widest band name (in the UI's language), so no name is
        cut at the left edge even at the ruler's least width; the block labels have the rest."""
        metrics = QFontMetrics(self.small_font())
        widest = max((metrics.horizontalAdvance(band_title(name)) for name, _lo, _hi in ORDER_BANDS), default=0)
        return min(max(84.0, widest + 26.0), self.width() * 0.66)

    def y_of(self, order: float) -> float:
        lo, hi = ORDER_RANGE
        top, bottom = self.MARGIN, self.height() - self.MARGIN
        clamped = max(lo, min(hi, order))
        return top + (clamped - lo) / (hi - lo) * (bottom - top)

    def _layout(self) -> None:
        self.markers = []
        if self.config is None:
            return
        blocks = self.config.blocks
        indexes = assembly_order(self.config, "system")
        tied = {i for (zone, _order), group in order_ties(self.config).items() if zone == "system" for i in group}
        line = self.fontMetrics().height()
        wanted = [self.y_of(blocks[i].order) for i in indexes]
        placed = spread(wanted, line, self.MARGIN - line / 2, self.height() - self.MARGIN + line / 2 - line)
        for i, y, label_y in zip(indexes, wanted, placed):
            b = blocks[i]
            self.markers.append(Marker(i, b.id, b.order, y, label_y, i in tied, not in_system_range(b.order),
                                       b.role or "system"))

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._layout()

    # ------------------------------------------------------------------ painting

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        dark = is_dark(palette)
        p.fillRect(self.rect(), palette.color(QPalette.ColorRole.Base))
        text = palette.color(QPalette.ColorRole.Text)
        dim = palette.color(QPalette.ColorRole.PlaceholderText)
        ax = self.axis_x()
        top, bottom = self.y_of(ORDER_RANGE[0]), self.y_of(ORDER_RANGE[1])
        small = self.small_font()
        line = self.fontMetrics().height()

        # The range itself, then the bands over it.
        p.fillRect(QRectF(ax - 5, top, 10, bottom - top), palette.color(QPalette.ColorRole.AlternateBase))
        band_centres: list[tuple[float, str, QColor]] = []
        for n, (name, lo, hi) in enumerate(ORDER_BANDS):
            colour = QColor.fromHsl(_BAND_HUES[n % len(_BAND_HUES)], 150 if dark else 170, 110 if dark else 150)
            y0, y1 = self.y_of(lo), self.y_of(hi)
            if hi == lo:
                p.fillRect(QRectF(ax - 8, y0 - 1.5, 16, 3), colour)
            else:
                p.fillRect(QRectF(ax - 6, y0, 12, max(2.0, y1 - y0)), colour)
            band_centres.append(((y0 + y1) / 2, name, colour))
        p.setFont(small)
        small_line = p.fontMetrics().height()
        label_ys = spread([c for c, _n, _c in band_centres], small_line, 0, self.height() - small_line)
        for (centre, name, colour), ly in zip(band_centres, label_ys):
            rect = QRectF(2, ly - small_line / 2, ax - 22, small_line)
            p.setPen(QPen(colour, 1))
            p.drawLine(QPointF(ax - 9, centre), QPointF(rect.right() + 2, ly))
            p.setPen(dim)
            title = p.fontMetrics().elidedText(band_title(name), Qt.TextElideMode.ElideLeft, int(rect.width()))
            p.drawText(rect, int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), title)
        # Scale marks at the range ends and at 0.
        for order in (ORDER_RANGE[0], 0, ORDER_RANGE[1]):
            y = self.y_of(order)
            p.setPen(QPen(dim, 1))
            p.drawLine(QPointF(ax + 6, y), QPointF(ax + 10, y))

        # Block markers and labels.
        p.setFont(self.font())
        self._label_rects = []
        tie_colour = severity_colour(dg.WARNING, palette)
        error_colour = severity_colour(dg.ERROR, palette)
        prelude_colour = QColor("#c39bf0" if dark else "#7a2fb5")
        system_colour = palette.color(QPalette.ColorRole.Highlight)
        label_x = ax + 24
        for m in self.markers:
            colour = error_colour if m.out_of_range else tie_colour if m.tie else \
                prelude_colour if m.role != "system" else system_colour
            selected = m.block_index == self.selected
            p.setPen(QPen(colour, 1))
            p.drawLine(QPointF(ax + 5, m.y), QPointF(label_x - 3, m.label_y))
            p.setPen(QPen(text if selected else colour, 2 if selected else 1))
            p.setBrush(colour)
            if m.out_of_range:
                tip = 1 if m.order < ORDER_RANGE[0] else -1
                p.drawPolygon(QPolygonF([QPointF(ax, m.y - 6 * tip), QPointF(ax - 5, m.y + 2 * tip),
                                         QPointF(ax + 5, m.y + 2 * tip)]))
            else:
                radius = 4.5 if selected else 3.5
                p.drawEllipse(QPointF(ax, m.y), radius, radius)
            label = f"{js_number(m.order)}  {m.block_id}" + ("  ⚠" if m.tie else "")
            rect = QRectF(label_x, m.label_y - line / 2, self.width() - label_x - 2, line)
            font = QFont(self.font())
            font.setBold(selected)
            p.setFont(font)
            if selected:
                p.fillRect(rect.adjusted(-2, 0, 0, 0), palette.color(QPalette.ColorRole.Highlight).lighter(
                    100 if dark else 180) if not dark else palette.color(QPalette.ColorRole.Highlight).darker(160))
            p.setPen(error_colour if m.out_of_range else tie_colour if m.tie else text)
            shown = p.fontMetrics().elidedText(label, Qt.TextElideMode.ElideRight, int(rect.width()))
            if shown != label and p.fontMetrics().horizontalAdvance(js_number(m.order) + "  " + m.block_id[:8]) \
                    > rect.width():
                shown = js_number(m.order)  # no room for the id's start: the order alone
            p.drawText(rect, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), shown)
            self._label_rects.append((rect.adjusted(-(label_x - ax) - 6, 0, 0, 0), m.block_index))
        if not self.markers:
            p.setPen(dim)
            p.drawText(QRectF(label_x, top, self.width() - label_x, line * 3), int(Qt.TextFlag.TextWordWrap),
                       _tr("No system blocks"))
        p.end()

    # ------------------------------------------------------------------ input

    def block_at(self, x: float, y: float) -> int | None:
        for rect, index in self._label_rects:
            if rect.contains(QPointF(x, y)):
                return index
        return None

    def marker_of(self, block_index: int) -> Marker | None:
        return next((m for m in self.markers if m.block_index == block_index), None)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        index = self.block_at(event.position().x(), event.position().y())
        if index is not None and event.button() == Qt.MouseButton.LeftButton:
            self.blockClicked.emit(index)
            return
        super().mousePressEvent(event)

    def tooltip_at(self, x: float, y: float) -> str:
        index = self.block_at(x, y)
        if index is not None:
            m = self.marker_of(index)
            if m is not None:
                lines = [f"{m.block_id}: {_tr('order')} {js_number(m.order)}"]
                band = band_of(m.order)
                lines.append(_tr("band: {band}").format(band=band_title(band)) if band else _tr("no named band"))
                if m.tie:
                    lines.append(_tr("Tied with another system block: registration order decides which "
                                     "comes first."))
                if m.out_of_range:
                    lines.append(_tr("Outside the system range {lo}…{hi}.").format(lo=ORDER_RANGE[0], hi=ORDER_RANGE[1]))
                return "\n".join(lines)
        ax = self.axis_x()
        if x < ax + 10:
            for name, lo, hi in ORDER_BANDS:
                y0, y1 = self.y_of(lo), self.y_of(hi)
                if y0 - 3 <= y <= y1 + 3:
                    span = str(lo) if lo == hi else f"{lo} … {hi}"
                    return f"{band_title(name)}: {span}"
        return ""

    def event(self, e: QEvent) -> bool:  # noqa: N802 - Qt override
        if e.type() == QEvent.Type.ToolTip and isinstance(e, QHelpEvent):
            text = self.tooltip_at(e.pos().x(), e.pos().y())
            if text:
                QToolTip.showText(e.globalPos(), text, self)
            else:
                QToolTip.hideText()
            return True
        return super().event(e)
