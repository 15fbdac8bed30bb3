"""The prompt-cache analysis of one session (:mod:`inspector.cache.analysis`), as views.

* a runtime × turn table: one cell per compared request, showing the shared-prefix share of its
  tokens and coloured by it; tool-loop steps and retries as extra rows under their runtime;
* the pair view: the two requests of the selected cell aligned part by part
  (:func:`inspector.anatomy.compare.compare_details`), with the point where the analysis says the cached
  prefix ends highlighted to the character, the surrounding text, and buttons that open either
  request in the request view;
* a chart of shared vs total tokens over turns for the selected runtime, with the predicted and
  the reported cached tokens;
* the layout findings, each with the part it concerns.

The analysis runs on the task manager's pool and reaches the GUI thread in batches while it runs,
so the table fills turn by turn; picking another session cancels the run. Finished analyses are
kept per session for the open store, so switching back is instant; token counts are shared with
the request view through the core's caches (the analysis's interned parts and
:func:`inspector.tokens.count_exact`'s content-hash cache).
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCharts import QChart, QChartView, QLineSeries, QScatterSeries, QValueAxis
from PySide6.QtCore import (
    QAbstractTableModel, QCoreApplication, QModelIndex, QObject, QPointF, QSize, Qt, QTimer, Signal, Slot,
)
from PySide6.QtGui import QBrush, QColor, QFontDatabase, QLinearGradient, QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QAbstractItemView, QCheckBox, QComboBox, QHBoxLayout, QHeaderView, QLabel, QPushButton, QSizePolicy, QSplitter,
    QStyle, QStyledItemDelegate, QStyleOptionViewItem, QTableView, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget,
)

from inspector.jsjson import utf16_to_index
from inspector import views
from inspector.cache.analysis import CacheAnalysis, CachePair, Finding, SessionCacheAnalyser
from inspector.anatomy.compare import Comparison, FirstDifference, Row, compare_details

from .compare_view import MARK_COLOUR, CompareView
from .part_names import part_label
from .workers import Job, TaskManager


def _tr(text: str) -> str:
    return QCoreApplication.translate("CacheView", text)


# A batch reaches the GUI thread at most this often while the analysis runs: often enough that
# the table visibly fills, rarely enough that repainting does not slow the analysis down.
BATCH_SECONDS = 0.1
# The chart is redrawn at most this often while pairs arrive (rebuilding a 1,000-turn series on
# every batch costs the analysis thread the GIL for longer than the batch took to make).
CHART_REFRESH_MS = 500
PAIR_ROLE = Qt.ItemDataRole.UserRole + 1
SHARE_ROLE = Qt.ItemDataRole.UserRole + 2


def share_of(pair: CachePair) -> float:
    """The shared prefix as a share of the request's tokens (0 for an empty request)."""
    return pair.shared_tokens / pair.total_tokens if pair.total_tokens else 0.0


def share_colour(share: float, dark: bool) -> QColor:
    """Red (nothing shared) through amber to green (everything shared), muted so the numbers on
    top stay readable; darker shades on a dark palette."""
    share = min(1.0, max(0.0, share))
    hue = share * 120 / 360
    return QColor.fromHsvF(hue, 0.62, 0.42) if dark else QColor.fromHsvF(hue, 0.42, 0.98)


COLD_COLOURS = ("#e4e7ec", "#3a3f47")  # (light, dark): a cold start is expected, not a miss


def format_seconds(value: float | None) -> str:
    if value is None:
        return "—"
    if value < 120:
        return _tr("{n} s").format(n=f"{value:,.1f}")
    if value < 7200:
        return _tr("{n} min").format(n=f"{value / 60:,.1f}")
    return _tr("{n} h").format(n=f"{value / 3600:,.1f}")


def _num(value: int | None) -> str:
    return "—" if value is None else f"{value:,}"


def _runtime_name(runtime_id: str | None) -> str:
    return runtime_id if runtime_id is not None else _tr("(no runtime)")


# ============================================================================ the divergence


@dataclass(slots=True)
class Divergence:
    """Where the analysis's first difference lies in the aligned rows of a comparison.

    ``right_row``/``right_offset``: the row whose current-request text holds the divergence and
    the Python index in that text; ``left_row``/``left_offset``: the same in the earlier request
    (None when the earlier request ended before it). ``exact``: the offset is the analysis's own
    offset (the aligned part is the part the analysis compared), not found by context.
    ``context_index``: the index of the divergence in the analysis's ``was``/``now`` excerpts.
    """

    right_row: int | None
    right_offset: int
    left_row: int | None
    left_offset: int | None
    exact: bool
    context_index: int

    def first_difference(self, comparison: Comparison) -> FirstDifference:
        """This point as the comparison's first difference: its row (the current request's side
        when it has one), the offset in that row's text, the row's path and status."""
        if self.right_row is not None:
            row, offset = self.right_row, self.right_offset
            path = comparison.rows[row].right_path or comparison.rows[row].left_path
        else:
            row, offset = self.left_row, self.left_offset or 0  # type: ignore[assignment]
            path = comparison.rows[row].left_path  # type: ignore[index]
        return FirstDifference(row, offset, path, comparison.rows[row].status)  # type: ignore[arg-type]


def common_prefix(a: str, b: str) -> int:
    n = min(len(a), len(b))
    i = 0
    while i < n and a[i] == b[i]:
        i += 1
    return i


def _path_matches(path: str, name: str) -> bool:
    # The analysis names the deepest anatomy node it can; a compare row is a top-level part, so
    # either may be the longer path.
    return bool(path) and (path == name or path.startswith(name + " ›") or name.startswith(path + " ›"))


# The context excerpt and an aligned part agree on at least this many characters around a
# candidate point before it is taken (the whole excerpt when it is shorter): a few characters
# could match by chance in repetitive prompts.
_MIN_AGREEMENT = 12
_NEEDLE = 12
_MAX_CANDIDATES = 400


def _window_agrees(text: str, p: int, context: str, k: int, minimum: int) -> bool:
    """Does ``context`` placed so that its index ``k`` falls on ``text[p]`` agree with ``text``
    wherever the two overlap? The excerpt may run past the ends of an anatomy part (the analysis
    compares whole messages and system blocks, the anatomy cuts them finer), so only the overlap
    is compared, and it must be at least ``minimum`` characters long."""
    if not 0 <= p <= len(text):
        return False
    before = min(k, p)
    after = min(len(context) - k, len(text) - p)
    if text[p - before:p] != context[k - before:k] or text[p:p + after] != context[k:k + after]:
        return False
    return before + after >= min(minimum, len(context))


def _candidates(text: str, context: str, k: int) -> list[int]:
    found: list[int] = []
    for needle, shift in ((context[k:k + _NEEDLE], 0), (context[max(0, k - _NEEDLE):k], None)):
        if not needle:
            continue
        start = 0
        while len(found) < _MAX_CANDIDATES:
            q = text.find(needle, start)
            if q < 0:
                break
            found.append(q if shift == 0 else q + len(needle))
            start = q + 1
    return found


def locate(rows: list[Row], side: str, context: str, k: int, name: str, offset_units: int) -> tuple[int, int, bool] | None:
    """Find the divergence in one side (``"left"`` or ``"right"``) of aligned rows: the row, the
    Python index in its text, and whether it is the analysis's exact offset. Rows whose path
    matches the analysis's name are tried first: the point is usually in the part it names."""
    entries = [(i, r.right_text if side == "right" else r.left_text, r.right_path if side == "right" else r.left_path)
               for i, r in enumerate(rows)]
    named = [e for e in entries if _path_matches(e[2], name)]
    others = [e for e in entries if not _path_matches(e[2], name)]
    # The analysis's offset is relative to the part it compared; when the anatomy part is that
    # same part the offset lands on the excerpt as it is.
    for i, text, _path in named + others:
        if text:
            p = utf16_to_index(text, offset_units)
            if _window_agrees(text, p, context, k, _MIN_AGREEMENT) and (p < len(text) or k >= len(context)):
                return i, p, True
    for i, text, _path in named + others:
        for p in _candidates(text, context, k):
            if _window_agrees(text, p, context, k, _MIN_AGREEMENT):
                return i, p, False
    # A part whose text the anatomy does not spell out (tool calls): the named row itself.
    for i, text, _path in named:
        if not text:
            return i, 0, False
    return None


def find_divergence(pair: CachePair, comparison: Comparison) -> Divergence | None:
    """The analysis's first difference of ``pair`` located in ``comparison`` (previous request on
    the left, the pair's request on the right); None for an identical pair or a cold start."""
    if pair.now is None:
        return None
    was = pair.was
    k = common_prefix(was or "", pair.now) if was is not None else min(len(pair.now), _context_before(pair))
    right = locate(comparison.rows, "right", pair.now, k, pair.first_difference, pair.offset)
    left = locate(comparison.rows, "left", was, k, pair.first_difference, pair.offset) if was else None
    if right is None and left is None:
        return None
    return Divergence(right[0] if right else None, right[1] if right else 0, left[0] if left else None,
                      left[1] if left else None, bool(right and right[2]), k)


def _context_before(pair: CachePair) -> int:
    # Without the earlier text the excerpt starts 40 characters before the point (fewer near the
    # start of the part: then the point is the part's offset itself).
    return pair.offset if pair.offset < 40 else 40


# ============================================================================ the table


RowKey = tuple[str | None, tuple[int, int] | None]  # (runtime, None) or (runtime, (step, attempt))


class CacheTableModel(QAbstractTableModel):
    """Rows: runtimes (in order of their first request), and with ``show_steps`` one more row per
    tool-loop step or retry under each; columns: the session's turns by number. A cell holds the
    :class:`CachePair` of that request, filled as batches arrive (:meth:`add_pairs`)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.dark = False
        self.show_steps = False
        self.clear()

    def clear(self) -> None:
        self.beginResetModel()
        self.turns: list[tuple[int, str]] = []
        self._column: dict[str, int] = {}
        self.runtimes: list[str | None] = []
        self._steps: dict[str | None, list[tuple[int, int]]] = {}
        self._cells: dict[RowKey, dict[int, CachePair]] = {}
        self.pairs: list[CachePair] = []
        self._rows: list[RowKey] = []
        self.endResetModel()

    def set_turns(self, turns: list[tuple[int, str]]) -> None:
        self.beginResetModel()
        self.turns = list(turns)
        self._column = {turn_id: i for i, (_n, turn_id) in enumerate(self.turns)}
        self.endResetModel()

    def set_show_steps(self, on: bool) -> None:
        if on == self.show_steps:
            return
        self.beginResetModel()
        self.show_steps = on
        self._rows = self._layout()
        self.endResetModel()

    def _layout(self) -> list[RowKey]:
        rows: list[RowKey] = []
        for runtime in self.runtimes:
            rows.append((runtime, None))
            if self.show_steps:
                rows.extend((runtime, s) for s in self._steps.get(runtime, []))
        return rows

    def add_pairs(self, pairs: list[CachePair]) -> None:
        touched: dict[RowKey, list[int]] = {}
        for pair in pairs:
            self.pairs.append(pair)
            col = self._column.get(pair.turn_id)
            if col is None:
                # A turn the session list did not have (written after it was read): a new column.
                col = len(self.turns)
                self.beginInsertColumns(QModelIndex(), col, col)
                self.turns.append((self.turns[-1][0] + 1 if self.turns else 1, pair.turn_id))
                self._column[pair.turn_id] = col
                self.endInsertColumns()
            runtime = pair.runtime_id
            if runtime not in self._steps:
                self._steps[runtime] = []
                self.runtimes.append(runtime)
                self._insert((runtime, None))
            sub = None if pair.kind == "turn" else (pair.step, pair.attempt)
            if sub is not None and sub not in self._steps[runtime]:
                self._steps[runtime].append(sub)
                self._steps[runtime].sort()
                if self.show_steps:
                    self._insert((runtime, sub))
            self._cells.setdefault((runtime, sub), {})[col] = pair
            touched.setdefault((runtime, sub), []).append(col)
        positions = {key: i for i, key in enumerate(self._rows)}
        for key, cols in touched.items():
            row = positions.get(key)
            if row is not None:
                self.dataChanged.emit(self.index(row, min(cols)), self.index(row, max(cols)))

    def merge_pairs(self, pairs: list[CachePair]) -> tuple[int, int]:
        """Merge a later run of the same analysis: pairs of requests not shown yet are appended
        (:meth:`add_pairs`), pairs whose values changed (a response arrived) replace their cell.
        Returns (appended, replaced)."""
        known = {p.event_id: i for i, p in enumerate(self.pairs)}
        fresh: list[CachePair] = []
        replaced = 0
        for pair in pairs:
            at = known.get(pair.event_id)
            if at is None:
                fresh.append(pair)
                continue
            if self.pairs[at] == pair:
                continue
            self.pairs[at] = pair
            replaced += 1
            sub = None if pair.kind == "turn" else (pair.step, pair.attempt)
            col = self._column.get(pair.turn_id)
            cells = self._cells.get((pair.runtime_id, sub))
            if cells is not None and col is not None:
                cells[col] = pair
                index = self.index_of(pair)
                if index.isValid():
                    self.dataChanged.emit(index, index)
        if fresh:
            self.add_pairs(fresh)
        return len(fresh), replaced

    def _insert(self, key: RowKey) -> None:
        layout = self._layout()
        row = layout.index(key)
        self.beginInsertRows(QModelIndex(), row, row)
        self._rows = layout
        self.endInsertRows()

    # -- lookups

    def row_key(self, row: int) -> RowKey:
        return self._rows[row]

    def pair_at(self, index: QModelIndex) -> CachePair | None:
        if not index.isValid() or index.row() >= len(self._rows):
            return None
        return self._cells.get(self._rows[index.row()], {}).get(index.column())

    def index_of(self, pair: CachePair) -> QModelIndex:
        sub = None if pair.kind == "turn" else (pair.step, pair.attempt)
        col = self._column.get(pair.turn_id)
        try:
            row = self._rows.index((pair.runtime_id, sub))
        except ValueError:
            return QModelIndex()
        return self.index(row, col) if col is not None else QModelIndex()

    def turn_number(self, turn_id: str | None) -> int | None:
        col = self._column.get(turn_id) if turn_id is not None else None
        return self.turns[col][0] if col is not None else None

    def runtime_pairs(self, runtime: str | None) -> list[CachePair]:
        """The runtime's turn pairs (first request of each turn) in turn order."""
        cells = self._cells.get((runtime, None), {})
        return [cells[c] for c in sorted(cells)]

    # -- Qt model

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802 - Qt naming
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802 - Qt naming
        return 0 if parent.isValid() else len(self.turns)

    def headerData(self, section: int, orientation: Qt.Orientation,  # noqa: N802 - Qt naming
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal:
            if section >= len(self.turns):
                return None
            number, turn_id = self.turns[section]
            if role == Qt.ItemDataRole.DisplayRole:
                return str(number)
            if role == Qt.ItemDataRole.ToolTipRole:
                return _tr("Turn {number}\n{id}").format(number=number, id=turn_id)
            return None
        if section >= len(self._rows):
            return None
        runtime, sub = self._rows[section]
        if role == Qt.ItemDataRole.DisplayRole:
            if sub is None:
                return _runtime_name(runtime)
            step, attempt = sub
            label = _tr("↳ step {step}").format(step=step + 1)
            return label + (_tr(" · attempt {n}").format(n=attempt + 1) if attempt else "")
        if role == Qt.ItemDataRole.ToolTipRole:
            return _runtime_name(runtime)
        return None

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        pair = self.pair_at(index)
        if pair is None:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            if pair.reason == "cold-start":
                return "·"
            return f"{share_of(pair) * 100:.0f}"
        if role == Qt.ItemDataRole.BackgroundRole:
            if pair.reason == "cold-start":
                return QBrush(QColor(COLD_COLOURS[1] if self.dark else COLD_COLOURS[0]))
            return QBrush(share_colour(share_of(pair), self.dark))
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.ToolTipRole:
            return pair_tooltip(pair)
        if role == PAIR_ROLE:
            return pair
        if role == SHARE_ROLE:
            return share_of(pair)
        return None


def pair_tooltip(pair: CachePair) -> str:
    lines = [
        _tr("<b>{runtime}</b> · {kind}").format(runtime=html.escape(_runtime_name(pair.runtime_id)),
                                                 kind=_kind_text(pair)),
        _tr("Shared prefix: {shared} of {total} tokens ({pct})").format(
            shared=_num(pair.shared_tokens), total=_num(pair.total_tokens), pct=f"{share_of(pair) * 100:.1f} %"),
        _tr("Cached tokens: predicted {predicted}, reported {reported}").format(
            predicted=_num(pair.predicted_cached_tokens), reported=_num(pair.reported_cached_tokens)),
        _tr("Gap since the earlier request: {gap} (cache lifetime {ttl})").format(
            gap=format_seconds(pair.gap_seconds), ttl=format_seconds(pair.ttl_seconds)),
        _tr("Reason: <b>{reason}</b> — {detail}").format(reason=html.escape(pair.reason),
                                                         detail=html.escape(pair.reason_detail)),
        _tr("First difference: {part} at character {offset}").format(
            part=html.escape(part_label(pair.first_difference)), offset=f"{pair.offset:,}"),
    ]
    route = _route_text(pair)
    if route:
        lines.append(route)
    return "<br>".join(lines)


def _route_text(pair: CachePair) -> str:
    """The requests on the pair's route in its minute, and the provider's limit, when known."""
    if pair.routing_rate is None:
        return ""
    limit = pair.rules.overflow_requests_per_minute
    if limit is None:
        return _tr("Route: {rate} requests in the minute up to this one").format(rate=pair.routing_rate)
    return _tr("Route: {rate} requests in the minute up to this one (some overflow to other machines above "
               "~{limit:g})").format(rate=pair.routing_rate, limit=limit)


def _kind_text(pair: CachePair) -> str:
    if pair.kind == "turn":
        return _tr("first request of the turn")
    if pair.attempt:
        return _tr("tool-loop step {step}, attempt {attempt}").format(step=pair.step + 1, attempt=pair.attempt + 1)
    return _tr("tool-loop step {step}").format(step=pair.step + 1)


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


# ============================================================================ the chart


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
        self.apply_palette()

    def series_list(self) -> list[QLineSeries | QScatterSeries]:
        return [self.total, self.shared, self.predicted, self.reported]

    def apply_palette(self) -> None:
        pal = self.palette()
        dark = pal.color(QPalette.ColorRole.Base).lightness() < 128
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
        self._chart.setTitle(_tr("Tokens over turns · {runtime}").format(runtime=_runtime_name(runtime)))
        self.total.replace([QPointF(n, p.total_tokens) for n, p in points])
        self.shared.replace([QPointF(n, p.shared_tokens) for n, p in points])
        self.predicted.replace([QPointF(n, p.predicted_cached_tokens) for n, p in points])
        self.reported.replace([QPointF(n, p.reported_cached_tokens) for n, p in points
                               if p.reported_cached_tokens is not None])
        first = points[0][0] if points else 1
        last = points[-1][0] if points else 1
        # Ticks on whole turns only, anchored at the first one: the default ticks divide the range
        # evenly and would label 1.7 as "1".
        self.x_axis.setRange(first - 0.5, last + 0.5)
        self.x_axis.setTickType(QValueAxis.TickType.TicksDynamic)
        self.x_axis.setTickAnchor(first)
        self.x_axis.setTickInterval(max(1, -(-(last - first + 1) // 10)))
        top = max((p.total_tokens for _n, p in points), default=0)
        self.y_axis.setRange(0, _nice_ceiling(top))
        self.y_axis.applyNiceNumbers()
        self.y_axis.setTickCount(5)

    def changeEvent(self, e: Any) -> None:  # noqa: N802 - Qt override
        if e.type() == e.Type.PaletteChange:
            self.apply_palette()
        super().changeEvent(e)


def _nice_ceiling(value: int) -> int:
    if value <= 0:
        return 100
    step = 10 ** (len(str(value)) - 1)
    return ((value // step) + 1) * step


# ============================================================================ the pair view


class PairView(QWidget):
    """Two requests of one :class:`CachePair`, aligned part by part, with the analysis's first
    difference marked to the character. ``loaded(event_id)`` once the alignment is shown;
    ``openRequested(event_id)`` from the Open buttons."""

    loaded = Signal(str)
    openRequested = Signal(str)

    def __init__(self, tasks: TaskManager, store: Callable[[], Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self._store = store
        self.pair: CachePair | None = None
        self.comparison: Comparison | None = None
        self.divergence: Divergence | None = None
        self._job: Job | None = None

        self.header = QLabel(self)
        self.header.setTextFormat(Qt.TextFormat.RichText)
        self.header.setWordWrap(True)
        self.header.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.header.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.context = QLabel(self)
        self.context.setObjectName("divergenceContext")
        self.context.setTextFormat(Qt.TextFormat.RichText)
        self.context.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.context.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.context.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.context.setToolTip(_tr("The text around the first difference, as the analysis compared it "
                                    "(40 characters before, 80 after)"))
        self.open_previous = QPushButton(_tr("Open earlier request"), self)
        self.open_previous.setToolTip(_tr("Show the earlier request of this pair in the request view"))
        self.open_previous.clicked.connect(lambda: self._open(previous=True))
        self.open_current = QPushButton(_tr("Open request"), self)
        self.open_current.setToolTip(_tr("Show this request in the request view"))
        self.open_current.clicked.connect(lambda: self._open(previous=False))
        self.goto_button = QPushButton(_tr("Go to difference"), self)
        self.goto_button.setToolTip(_tr("Select the part where the cached prefix ends and mark the character"))
        self.goto_button.clicked.connect(self.show_divergence)
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.goto_button)
        buttons.addStretch(1)
        buttons.addWidget(self.open_previous)
        buttons.addWidget(self.open_current)

        self.compare = CompareView(self)
        # The comparison's own summary names the first differing part in anatomy order; the
        # header names the analysis's (hash order), which is the one that decides caching.
        self.compare.summary.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        layout.addWidget(self.header)
        layout.addWidget(self.context)
        layout.addLayout(buttons)
        layout.addWidget(self.compare, 1)
        self.clear()

    def clear(self) -> None:
        if self._job is not None:
            self._job.cancel()
            self._job = None
        self.pair = self.comparison = self.divergence = None
        self.header.setText(_tr("Select a cell of the table to compare its request with the earlier one."))
        self.context.hide()
        self.compare.table.clear()
        self.compare.left_pane.set_content("")
        self.compare.right_pane.set_content("")
        for button in (self.open_previous, self.open_current, self.goto_button):
            button.setEnabled(False)

    def show_pair(self, pair: CachePair) -> None:
        if self.pair is pair:
            return
        self.clear()
        self.pair = pair
        self.header.setText(self._header_html(pair, None))
        self.open_current.setEnabled(True)
        self.open_previous.setEnabled(pair.previous_event_id is not None)
        self._show_context(pair)
        store = self._store()
        if pair.previous_event_id is None or store is None:
            return

        def work(job: Job) -> Comparison | None:
            before = views.request_detail(store, pair.previous_event_id)
            if job.cancelled or before is None:
                return None
            after = views.request_detail(store, pair.event_id)
            if job.cancelled or after is None:
                return None
            return compare_details(before, after)

        self._job = self.tasks.run(work, lambda result: self._compared(pair, result),
                                   lambda exc: self._failed(pair, exc), resource=store, pause_gc=True)

    def _compared(self, pair: CachePair, comparison: Comparison | None) -> None:
        if pair is not self.pair:
            return
        self._job = None
        if comparison is None:
            self.header.setText(self._header_html(pair, None) + "<br>"
                                + _tr("One of the two requests is no longer in the database."))
            return
        self.comparison = comparison
        self.divergence = find_divergence(pair, comparison)
        # The table marks where the analysis says the prefix ends, as the header does; the first
        # part that differs as aligned can lie elsewhere (a turn context removed from before the
        # history that grew in its place).
        self.compare.set_comparison(comparison, self.divergence.first_difference(comparison)
                                    if self.divergence is not None else None)
        self.header.setText(self._header_html(pair, comparison))
        self.goto_button.setEnabled(self.divergence is not None)
        self.show_divergence()
        self.loaded.emit(pair.event_id)

    def _failed(self, pair: CachePair, exc: BaseException) -> None:
        if pair is not self.pair:
            return
        self._job = None
        self.header.setText(self._header_html(pair, None) + "<br>"
                            + _tr("Cannot compare the two requests: {error}").format(error=html.escape(str(exc))))

    def show_divergence(self) -> None:
        """Select the row holding the analysis's first difference and show both sides with the
        differing character marked (the earlier request's side may sit in another row when the
        requests are aligned differently than by position, e.g. after an insertion)."""
        d, cmp, pair = self.divergence, self.comparison, self.pair
        if d is None or cmp is None or pair is None:
            return
        row = d.right_row if d.right_row is not None else d.left_row
        if row is not None and self.compare.table.topLevelItemCount() > row:
            self.compare.table.setCurrentItem(self.compare.table.topLevelItem(row))
        left, right = self.compare.left_pane, self.compare.right_pane
        if d.left_row is not None and d.left_offset is not None:
            r = cmp.rows[d.left_row]
            left.set_content(r.left_text, caption=_tr("Earlier: {path}").format(path=r.left_path))
            left.mark(d.left_offset, MARK_COLOUR)
        elif pair.was is None:
            left.set_content("", caption=_tr("Earlier: the request ended before this point"))
        if d.right_row is not None:
            r = cmp.rows[d.right_row]
            text = r.right_text
            if text:
                right.set_content(text, caption=_tr("This request: {path}").format(path=r.right_path))
                right.mark(d.right_offset, MARK_COLOUR)
            else:
                # The anatomy shows this part without text (a tool call): the analysis's excerpt
                # of what the provider hashed stands in for it.
                right.set_content(pair.now or "", caption=_tr("This request: {path} (as hashed)").format(
                    path=r.right_path))
                right.mark(d.context_index, MARK_COLOUR)

    # -- text

    def _show_context(self, pair: CachePair) -> None:
        if pair.now is None:
            self.context.hide()
            return
        k = common_prefix(pair.was or "", pair.now) if pair.was is not None else _context_before(pair)
        lines = []
        if pair.was is not None:
            lines.append(_tr("earlier") + " │ " + _marked_html(pair.was, k))
        else:
            lines.append(_tr("earlier") + " │ " + html.escape(_tr("(ended here)")))
        lines.append(_tr("this") + " &nbsp;&nbsp;│ " + _marked_html(pair.now, k))
        self.context.setText("<br>".join(lines))
        self.context.show()

    def _header_html(self, pair: CachePair, comparison: Comparison | None) -> str:
        title = _tr("<b>{runtime}</b> · {kind} · {reason}").format(
            runtime=html.escape(_runtime_name(pair.runtime_id)), kind=_kind_text(pair),
            reason=html.escape(pair.reason))
        facts = _tr("shared {shared} of {total} tokens ({pct}) · cached: predicted {predicted}, reported "
                    "{reported} · gap {gap} (lifetime {ttl})").format(
            shared=_num(pair.shared_tokens), total=_num(pair.total_tokens), pct=f"{share_of(pair) * 100:.1f} %",
            predicted=_num(pair.predicted_cached_tokens), reported=_num(pair.reported_cached_tokens),
            gap=format_seconds(pair.gap_seconds), ttl=format_seconds(pair.ttl_seconds))
        where = _tr("First difference: <b>{part}</b> at character {offset} — {detail}").format(
            part=html.escape(part_label(pair.first_difference)), offset=f"{pair.offset:,}", detail=html.escape(pair.reason_detail))
        lines = [title, facts, where]
        route = _route_text(pair)
        if route:
            lines.append(f"<b>{route}</b>" if pair.routing_over_limit else route)
        if comparison is not None:
            counts = comparison.counts()
            lines.append(_tr("Aligned parts: {equal} equal, {changed} changed, {added} added, {removed} removed").format(
                **counts))
        elif pair.previous_event_id is not None:
            lines.append(_tr("Aligning the two requests…"))
        return "<br>".join(lines)

    def _open(self, *, previous: bool) -> None:
        if self.pair is None:
            return
        target = self.pair.previous_event_id if previous else self.pair.event_id
        if target:
            self.openRequested.emit(target)


def _visible(text: str) -> str:
    # One line per side: line breaks and tabs shown as symbols keep the two excerpts aligned.
    return html.escape(text.replace("\n", "⏎").replace("\t", "⇥")).replace(" ", "&nbsp;")


def _marked_html(text: str, k: int) -> str:
    mark = MARK_COLOUR.name()
    head, ch, tail = text[:k], text[k:k + 1], text[k + 1:]
    marked = (f'<span style="background:{mark};color:#ffffff">{_visible(ch)}</span>' if ch
              else f'<span style="background:{mark};color:#ffffff">&nbsp;</span>')
    return _visible(head) + marked + _visible(tail)


# ============================================================================ findings


def finding_title(kind: str) -> str:
    return {
        "turn-volatile-system-text": _tr("Turn-volatile text in the system prompt"),
        "too-many-breakpoints": _tr("Too many cache breakpoints"),
        "breakpoint-on-volatile-content": _tr("Breakpoint on volatile content"),
        "data-blocks-last": _tr("Data blocks last"),
        "sliding-history-window": _tr("Sliding history window"),
        "moving-history-insertion": _tr("Moving history insertion"),
    }.get(kind, kind)


class FindingsList(QWidget):
    """The layout checks that fired, one row each: runtime, check, the part it concerns, how
    often; the explanation below the list for the selected one. ``findingSelected(Finding)``."""

    findingSelected = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.findings: list[Finding] = []
        self.tree = QTreeWidget(self)
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setHeaderLabels([_tr("Layout check"), _tr("Runtime"), _tr("Part"), _tr("Turns")])
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.tree.setColumnWidth(0, 210)
        self.tree.setColumnWidth(1, 170)
        self.tree.setColumnWidth(3, 60)
        self.tree.currentItemChanged.connect(lambda cur, _prev: self._selected(cur))
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.message.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.message)
        self.set_findings([], running=False)

    def set_findings(self, findings: list[Finding], *, running: bool) -> None:
        self.findings = list(findings)
        self.tree.clear()
        for i, f in enumerate(self.findings):
            item = QTreeWidgetItem([finding_title(f.kind), _runtime_name(f.runtime_id), part_label(f.part),
                                    f"{f.count}/{f.out_of}"])
            item.setData(0, Qt.ItemDataRole.UserRole, i)
            item.setToolTip(0, f.message)
            item.setToolTip(2, f.part)
            item.setTextAlignment(3, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            if f.severity == "warning":
                item.setForeground(0, QBrush(QColor("#d9480f")))
            self.tree.addTopLevelItem(item)
        if running:
            self.message.setText(_tr("Layout checks run when the analysis of the session is complete."))
        elif not self.findings:
            self.message.setText(_tr("No layout problems found in this session."))
        else:
            self.message.setText(_tr("Select a finding for its explanation; it selects the first turn it concerns."))

    def _selected(self, item: QTreeWidgetItem | None) -> None:
        if item is None:
            return
        finding = self.findings[item.data(0, Qt.ItemDataRole.UserRole)]
        text = finding.message
        example = finding.example or {}
        if example.get("now") is not None:
            text += "\n" + _tr("e.g. {part}: “{was}” → “{now}”").format(
                part=example.get("part", ""), was=(example.get("was") or "").replace("\n", "⏎")[:60],
                now=(example.get("now") or "").replace("\n", "⏎")[:60])
        self.message.setText(text)
        self.findingSelected.emit(finding)


# ============================================================================ the view


class _Relay(QObject):
    """Lives on the GUI thread; the analysis job emits through it so the slots run there."""

    turns = Signal(object, object)  # job, [(number, turn id)]
    batch = Signal(object, object)  # job, [CachePair]


class CacheView(QWidget):
    """The cache analysis of one session of the open store.

    ``set_store(store)`` binds it to a store (``None``: nothing open); ``open_session(id)``
    analyses a session (cancelling a running analysis); ``open_request`` is called with an event
    id by the click-throughs (double-click a cell, the pair view's Open buttons).

    Signals: ``pairsAdded(int)`` per batch shown, ``finished(session id)`` when an analysis is
    complete (findings listed), ``failed(str)``.
    """

    pairsAdded = Signal(int)
    finished = Signal(str)
    failed = Signal(str)

    def __init__(self, tasks: TaskManager, store: Callable[[], Any] | None = None,
                 open_request: Callable[[str], None] | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self.store: Any = None
        self._store_getter = store
        self.open_request = open_request
        self.session_id: str | None = None
        self.analysis: CacheAnalysis | None = None
        self.job: Job | None = None
        self.cancelled_jobs: list[Job] = []
        self._started = 0.0
        self.elapsed: float | None = None
        self.shared = False  # the analysis shown was shared with the worker process
        self._results: dict[str, tuple[CacheAnalysis, list[tuple[int, str]], float, bool]] = {}
        self._refresh_wanted = False
        # The shown session's analyser, kept after its run so a follow update analyses only what
        # was written since (SessionCacheAnalyser.resume), and the executions changed meanwhile.
        self._analyser: SessionCacheAnalyser | None = None
        self._follow_turns: list[str] = []
        self._sessions_job: Job | None = None
        self._wanted: tuple[str | None] | None = None  # request_session() before the list arrived
        self._chart_runtime: str | None = None
        self._split_done = False
        self._totals = [0, 0, 0, 0, 0]  # total, shared, predicted, reported tokens, reported pairs
        self._chart_timer = QTimer(self)
        self._chart_timer.setSingleShot(True)
        self._chart_timer.setInterval(CHART_REFRESH_MS)
        self._chart_timer.timeout.connect(self._update_chart)
        self._relay = _Relay(self)
        self._relay.turns.connect(self._on_turns)
        self._relay.batch.connect(self._on_batch)

        self.session_box = QComboBox(self)
        self.session_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.session_box.setMinimumContentsLength(24)
        self.session_box.activated.connect(self._session_picked)
        self.steps_box = QCheckBox(_tr("Tool-loop steps"), self)
        self.steps_box.setToolTip(_tr("Also show a row per tool-loop step and retry, compared with the call before it"))
        self.steps_box.toggled.connect(self._toggle_steps)
        self.status = QLabel(self)
        self.status.setTextFormat(Qt.TextFormat.RichText)
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.legend = ShareLegend(self)
        top = QHBoxLayout()
        top.setContentsMargins(4, 2, 4, 2)
        label = QLabel(_tr("Session"), self)
        label.setBuddy(self.session_box)
        top.addWidget(label)
        top.addWidget(self.session_box)
        top.addWidget(self.steps_box)
        top.addWidget(self.legend)
        top.addSpacing(12)
        top.addWidget(self.status, 1)

        self.model = CacheTableModel(self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        fm = self.table.fontMetrics()
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        hh.setDefaultSectionSize(max(30, fm.horizontalAdvance("100") + 12))
        hh.setMinimumSectionSize(20)
        vh = self.table.verticalHeader()
        vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vh.setDefaultSectionSize(fm.height() + 6)
        vh.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.table.setItemDelegate(ShareCellDelegate(self.table))
        self.table.setToolTip(_tr("Shared prefix as % of the request's tokens; double-click to open the request"))
        self.table.selectionModel().currentChanged.connect(lambda cur, _prev: self._cell_selected(cur))
        self.table.doubleClicked.connect(self._cell_activated)

        self.chart = ShareChart(self)
        self.findings = FindingsList(self)
        self.findings.findingSelected.connect(self._finding_selected)
        self.pair_view = PairView(tasks, self._current_store, self)
        self.pair_view.openRequested.connect(self._open)

        # The table is short (a row per runtime) and as wide as the session is long, so the
        # findings sit beside it; the chart and the pair view share the taller lower half.
        self.upper = QSplitter(Qt.Orientation.Horizontal, self)
        self.upper.addWidget(self.table)
        self.upper.addWidget(self.findings)
        self.upper.setStretchFactor(0, 3)
        self.upper.setStretchFactor(1, 2)
        self.lower = QSplitter(Qt.Orientation.Horizontal, self)
        self.lower.addWidget(self.chart)
        self.lower.addWidget(self.pair_view)
        self.lower.setStretchFactor(0, 1)
        self.lower.setStretchFactor(1, 3)
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.addWidget(self.upper)
        self.splitter.addWidget(self.lower)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(False)
        self.model.rowsInserted.connect(lambda *_: self._fit_table())
        self.model.modelReset.connect(self._fit_table)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(top)
        layout.addWidget(self.splitter, 1)
        self._apply_palette()
        self._show_status()

    # ------------------------------------------------------------------ store and sessions

    def _current_store(self) -> Any:
        if self._store_getter is not None:
            return self._store_getter()
        return self.store

    def set_store(self, store: Any) -> None:
        """Bind to ``store``: the session list is read again, finished analyses are dropped, and
        the session shown before is analysed again if the new store has it (a reload)."""
        keep = self.session_id
        self._cancel()
        self.store = store
        self._results.clear()
        self._wanted = None
        self.session_box.clear()
        self._reset_views()
        self.session_id = None
        if store is None:
            self._show_status()
            return

        def loaded(rows: list[dict[str, Any]]) -> None:
            if store is not self.store:
                return
            self._sessions_job = None
            self.session_box.clear()
            for row in rows:
                label = row["sessionId"] + (f" · {row['world']}" if row.get("world") else "")
                self.session_box.addItem(label, row["sessionId"])
                self.session_box.setItemData(self.session_box.count() - 1, _tr("{n} model requests").format(
                    n=f"{row.get('llmCalls') or 0:,}"), Qt.ItemDataRole.ToolTipRole)
            if keep is not None and self.session_box.findData(keep) >= 0:
                self.open_session(keep)
            elif self._wanted is not None:
                wanted, self._wanted = self._wanted[0], None
                self.request_session(wanted)
            else:
                self._show_status()

        self._sessions_job = self.tasks.run(lambda _job: views.session_rows(store), loaded,
                                            lambda exc: self.failed.emit(str(exc)), resource=store)

    @property
    def sessions_loaded(self) -> bool:
        return self._sessions_job is None and self.store is not None

    def session_ids(self) -> list[str]:
        return [self.session_box.itemData(i) for i in range(self.session_box.count())]

    def request_session(self, session_id: str | None) -> None:
        """Analyse ``session_id`` if the store has it, else the first session; waits for the
        session list when it is still being read."""
        if self.store is None:
            return
        if not self.sessions_loaded:
            self._wanted = (session_id,)
            return
        ids = self.session_ids()
        target = session_id if session_id in ids else (ids[0] if ids else None)
        if target is not None and target != self.session_id:
            self.open_session(target)

    def _session_picked(self, index: int) -> None:
        session_id = self.session_box.itemData(index)
        if session_id and session_id != self.session_id:
            self.open_session(session_id)

    def open_session(self, session_id: str) -> None:
        """Analyse ``session_id`` (shown at once if analysed before with this store)."""
        store = self.store
        if store is None:
            return
        self._cancel()
        self._refresh_wanted = False
        self._follow_turns = []
        self.session_id = session_id
        i = self.session_box.findData(session_id)
        if i >= 0 and i != self.session_box.currentIndex():
            self.session_box.setCurrentIndex(i)
        self._reset_views()
        cached = self._results.get(session_id)
        if cached is not None:
            analysis, turns, elapsed, shared = cached
            self.model.set_turns(turns)
            self._add(analysis.pairs)
            self._complete(analysis, elapsed, shared)
            return
        self._started = time.perf_counter()
        self.elapsed = None
        relay = self._relay

        analyser = SessionCacheAnalyser(store, session_id)

        def work(job: Job) -> CacheAnalysis | None:
            turns = [(t.number, t.turn_id) for t in store.turns(session_id)]
            relay.turns.emit(job, turns)
            pairs: list[CachePair] = []
            batch: list[CachePair] = []
            last = time.perf_counter()
            gen = analyser.pairs()
            try:
                for pair in gen:
                    pairs.append(pair)
                    batch.append(pair)
                    if job.cancelled:
                        return None
                    now = time.perf_counter()
                    if now - last >= BATCH_SECONDS:
                        relay.batch.emit(job, batch)
                        batch, last = [], now
            finally:
                gen.close()
            if batch:
                relay.batch.emit(job, batch)
            return CacheAnalysis(session_id, pairs, analyser.findings, analyser.summaries, analyser.warnings)

        self.job = self.tasks.run(work, lambda result: self._done(session_id, result, analyser),
                                  lambda exc: self._failed(session_id, exc), resource=store, pause_gc=True)
        self._show_status()

    def _cancel(self) -> None:
        # A run stopped half-way leaves its analyser unable to resume.
        self._analyser = None
        if self.job is not None:
            self.job.cancel()
            self.cancelled_jobs.append(self.job)
            del self.cancelled_jobs[:-8]
            self.job = None

    @property
    def running(self) -> bool:
        return self.job is not None

    # ------------------------------------------------------------------ arriving results

    @Slot(object, object)
    def _on_turns(self, job: Job, turns: list[tuple[int, str]]) -> None:
        if job is self.job:
            self.model.set_turns(turns)

    @Slot(object, object)
    def _on_batch(self, job: Job, pairs: list[CachePair]) -> None:
        if job is not self.job:
            return  # a cancelled run's last batch, already queued when it was cancelled
        self._add(pairs)
        self._show_status()

    def _add(self, pairs: list[CachePair]) -> None:
        had_rows = self.model.rowCount() > 0
        self.model.add_pairs(pairs)
        totals = self._totals
        for p in pairs:
            totals[0] += p.total_tokens
            totals[1] += p.shared_tokens
            totals[2] += p.predicted_cached_tokens
            if p.reported_cached_tokens is not None:
                totals[3] += p.reported_cached_tokens
                totals[4] += 1
        if not had_rows and self.model.rowCount():
            self._chart_runtime = self.model.row_key(0)[0]
            self._update_chart()
        elif any(p.runtime_id == self._chart_runtime and p.kind == "turn" for p in pairs) \
                and not self._chart_timer.isActive():
            self._chart_timer.start()
        self.pairsAdded.emit(len(pairs))

    def _done(self, session_id: str, analysis: CacheAnalysis | None, analyser: SessionCacheAnalyser) -> None:
        if session_id != self.session_id or analysis is None:
            return
        self.job = None
        self._analyser = analyser
        elapsed = time.perf_counter() - self._started
        self._results[session_id] = (analysis, list(self.model.turns), elapsed, analyser.shared_with_worker)
        self._complete(analysis, elapsed, analyser.shared_with_worker)
        self._refresh_if_wanted()

    # ------------------------------------------------------------------ following

    def follow_update(self, update: Any) -> None:
        """Merge what a live store wrote (an ``inspector.follow.FollowUpdate``): kept analyses of
        changed sessions are dropped, and the session shown is analysed again in the background,
        its new pairs appended to the table (the selection and the scroll stay)."""
        touched = {sid for sid, d in update.changes.sessions.items() if d.requests or d.turns}
        if self.sessions_loaded:
            for sid in update.changes.new_sessions:
                if self.session_box.findData(sid) < 0:
                    self.session_box.addItem(sid, sid)
        for sid in touched:
            self._results.pop(sid, None)
        if self.session_id in touched:
            self._follow_turns.extend(update.changes.sessions[self.session_id].turns)
            self.refresh_session()

    def refresh_session(self) -> None:
        """Analyse what was written to the shown session since its last analysis and merge the
        new and changed pairs (after a running analysis); the whole session when there is no
        analyser to resume."""
        store, session_id = self.store, self.session_id
        if store is None or session_id is None:
            return
        if self.job is not None:
            self._refresh_wanted = True
            return
        self._refresh_wanted = False
        started = time.perf_counter()
        analyser, self._analyser = self._analyser, None
        turns, self._follow_turns = self._follow_turns, []

        def work(job: Job) -> CacheAnalysis | None:
            nonlocal analyser
            if analyser is None:
                analyser = SessionCacheAnalyser(store, session_id)
                gen = analyser.pairs()
            else:
                gen = analyser.resume(turns)
            pairs: list[CachePair] = []
            try:
                for pair in gen:
                    if job.cancelled:
                        return None
                    pairs.append(pair)
            finally:
                gen.close()
            return CacheAnalysis(session_id, pairs, analyser.findings, analyser.summaries, analyser.warnings)

        def done(analysis: CacheAnalysis | None) -> None:
            if session_id != self.session_id or analysis is None:
                return
            self.job = None
            self._analyser = analyser
            appended, replaced = self.model.merge_pairs(analysis.pairs)
            # The changed pairs were merged: what the view keeps is the whole session's.
            analysis = CacheAnalysis(session_id, list(self.model.pairs), analysis.findings, analysis.summaries,
                                     analysis.warnings)
            self._recount()
            elapsed = time.perf_counter() - started
            shared = analyser is not None and analyser.shared_with_worker
            self._results[session_id] = (analysis, list(self.model.turns), elapsed, shared)
            self._complete(analysis, elapsed, shared)
            if appended:
                self.pairsAdded.emit(appended)
            self._refresh_if_wanted()

        self.job = self.tasks.run(work, done, lambda exc: self._failed(session_id, exc), resource=store,
                                  pause_gc=True)
        self._show_status()

    def _refresh_if_wanted(self) -> None:
        if self._refresh_wanted:
            self.refresh_session()

    def _recount(self) -> None:
        totals = [0, 0, 0, 0, 0]
        for p in self.model.pairs:
            totals[0] += p.total_tokens
            totals[1] += p.shared_tokens
            totals[2] += p.predicted_cached_tokens
            if p.reported_cached_tokens is not None:
                totals[3] += p.reported_cached_tokens
                totals[4] += 1
        self._totals = totals

    def _complete(self, analysis: CacheAnalysis, elapsed: float, shared: bool = False) -> None:
        self._chart_timer.stop()
        self._update_chart()
        self.analysis = analysis
        self.elapsed = elapsed
        self.shared = shared
        self.findings.set_findings(analysis.findings, running=False)
        self._show_status()
        self.finished.emit(analysis.session_id)

    def _failed(self, session_id: str, exc: BaseException) -> None:
        if session_id != self.session_id:
            return
        self.job = None
        self.status.setText(_tr("The analysis failed: {error}").format(error=html.escape(str(exc))))
        self.failed.emit(str(exc))

    def _reset_views(self) -> None:
        self.analysis = None
        self.elapsed = None
        self._chart_runtime = None
        self._chart_timer.stop()
        self._totals = [0, 0, 0, 0, 0]
        self.model.clear()
        self.pair_view.clear()
        self.chart.set_pairs(None, [])
        self.findings.set_findings([], running=self.job is not None)

    def _show_status(self) -> None:
        if self.store is None:
            self.status.setText(_tr("No database is open."))
            return
        if self.session_id is None:
            self.status.setText(_tr("Pick a session to analyse its prompt cache."))
            return
        pairs = self.model.pairs
        total, shared, predicted, reported, reported_pairs = self._totals
        parts = [_tr("{n} requests").format(n=f"{len(pairs):,}")]
        if total:
            parts.append(_tr("shared {pct} of {total} tokens").format(pct=f"{shared / total * 100:.0f} %",
                                                                      total=f"{total:,}"))
            parts.append(_tr("cached: predicted {predicted}, reported {reported}").format(
                predicted=f"{predicted:,}", reported=f"{reported:,}" if reported_pairs else "—"))
        if self.elapsed is not None:
            done = _tr("analysed in {s} by two processes") if self.shared else _tr("analysed in {s}")
            parts.append(done.format(s=f"{self.elapsed:.2f} s"))
        elif self.job is not None:
            parts.append(_tr("analysing…"))
        self.status.setText(" · ".join(parts))

    # ------------------------------------------------------------------ interaction

    def _toggle_steps(self, on: bool) -> None:
        current = self.model.pair_at(self.table.currentIndex())
        self.model.set_show_steps(on)
        if current is not None:
            self.select_pair(current)

    def select_pair(self, pair: CachePair) -> bool:
        """Select the cell of ``pair`` (showing tool-loop rows if it is one); True if shown."""
        if pair.kind != "turn" and not self.model.show_steps:
            self.steps_box.setChecked(True)
        index = self.model.index_of(pair)
        if not index.isValid():
            return False
        self.table.setCurrentIndex(index)
        self.table.scrollTo(index)
        return True

    def _cell_selected(self, index: QModelIndex) -> None:
        if not index.isValid():
            return
        runtime = self.model.row_key(index.row())[0]
        if runtime != self._chart_runtime:
            self._chart_runtime = runtime
            self._chart_timer.stop()
            self._update_chart()
        pair = self.model.pair_at(index)
        if pair is not None:
            self.pair_view.show_pair(pair)

    def _cell_activated(self, index: QModelIndex) -> None:
        pair = self.model.pair_at(index)
        if pair is not None:
            self._open(pair.event_id)

    def _open(self, event_id: str) -> None:
        if self.open_request is not None:
            self.open_request(event_id)

    def _finding_selected(self, finding: Finding) -> None:
        wanted = set(finding.turn_ids[:1])
        for pair in self.model.runtime_pairs(finding.runtime_id):
            if pair.turn_id in wanted:
                self.select_pair(pair)
                return
        if finding.runtime_id in self.model.runtimes:
            self._chart_runtime = finding.runtime_id
            self._update_chart()

    def _fit_table(self) -> None:
        """Size the upper half to the table's rows (up to ten; more scroll), so every runtime is
        visible without wasting the height the pair view needs."""
        rows = min(10, max(4, self.model.rowCount()))
        header = self.table.horizontalHeader().sizeHint().height()
        scrollbar = self.table.horizontalScrollBar().sizeHint().height()
        wanted = header + rows * self.table.verticalHeader().defaultSectionSize() + scrollbar + 4
        sizes = self.splitter.sizes()
        total = sum(sizes)
        if total > 0 and sizes[0] != wanted:
            self.splitter.setSizes([wanted, max(0, total - wanted)])
        self.upper.setMinimumHeight(min(wanted, 160))

    def showEvent(self, e: Any) -> None:  # noqa: N802 - Qt override
        super().showEvent(e)
        if not self._split_done:
            # Stretch factors only share out extra space; the first layout gives the chart too
            # little of it to read, so the initial split is set once, by width.
            self._split_done = True
            width = max(self.width(), 800)
            self.lower.setSizes([int(width * 0.3), width - int(width * 0.3)])
            self.upper.setSizes([int(width * 0.6), width - int(width * 0.6)])
        self._fit_table()

    def _update_chart(self) -> None:
        runtime = self._chart_runtime
        points = [(self.model.turn_number(p.turn_id) or 0, p) for p in self.model.runtime_pairs(runtime)]
        self.chart.set_pairs(runtime, points)

    def _apply_palette(self) -> None:
        self.model.dark = self.palette().color(QPalette.ColorRole.Base).lightness() < 128

    def changeEvent(self, e: Any) -> None:  # noqa: N802 - Qt override
        if e.type() == e.Type.PaletteChange:
            self._apply_palette()
            self.model.layoutChanged.emit()
        super().changeEvent(e)

    def shutdown(self) -> None:
        self._cancel()
        self.pair_view.clear()
