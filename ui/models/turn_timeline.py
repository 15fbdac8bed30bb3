"""Where each part of a turn sits on the stepper's timeline: one lane per stage, one bar per
runtime (parallel runtimes stacked), one mark per model call and tool call, and what a point hits.

Pure geometry over a built :class:`~inspector.turn.model.Turn`; the widget
(:class:`ui.views.turn_timeline.TimelineWidget`) paints it and turns clicks into events.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QPointF, QRectF

from inspector.turn.model import ModelCall, Runtime, ToolUse, Turn

# The lane of runtimes without a stage (event/manual runtimes run after all stages).
UNSTAGED = ""

GUTTER = 96
RIGHT = 14
RULER = 24
ROW = 26
LANE_PAD = 4
LEGEND = 22


@dataclass(slots=True)
class LaneGeometry:
    """One stage's lane (``key`` is the stage name, :data:`UNSTAGED` for the after-stages lane)."""

    key: str
    label: str
    rect: QRectF
    rows: int


@dataclass(slots=True)
class BarGeometry:
    """A runtime's bar; ``room_before`` / ``room_after`` are the free pixels beside it in its row
    (to the previous bar or the gutter, to the next bar or the right edge), where a label too
    long for the bar is written instead."""

    runtime: Runtime
    lane: str
    row: int
    rect: QRectF
    timed: bool
    room_before: float = 0.0
    room_after: float = 0.0

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


@dataclass(slots=True)
class TimelineLayout:
    """The geometry of ``turn`` at ``width`` pixels (:func:`lay_out`); ``span`` is the time the
    drawing covers (ms) and ``height`` the pixels it needs, legend included."""

    turn: Turn | None
    width: float
    span: float = 1.0
    height: int = RULER + LEGEND
    lanes: list[LaneGeometry] = field(default_factory=list)
    bars: list[BarGeometry] = field(default_factory=list)
    marks: list[MarkGeometry] = field(default_factory=list)
    mark_by_key: dict[tuple[str, str], MarkGeometry] = field(default_factory=dict)
    bar_by_id: dict[str | None, BarGeometry] = field(default_factory=dict)

    def x_of(self, ms: float | None) -> float:
        left, right = GUTTER, max(GUTTER + 1.0, self.width - RIGHT)
        return left + (right - left) * max(0.0, (ms or 0.0)) / self.span

    def ms_at(self, x: float) -> float:
        left, right = GUTTER, max(GUTTER + 1.0, self.width - RIGHT)
        return (x - left) / (right - left) * self.span

    def ticks(self) -> tuple[float, list[float]]:
        """The ruler's step (ms) and tick positions: about one label per 90 px, on a 1-2-5 step."""
        usable = max(1.0, self.width - GUTTER - RIGHT)
        raw = self.span / max(1.0, usable / 90.0)
        step = 1.0
        while step * 10 <= raw:
            step *= 10
        for factor in (1, 2, 5, 10):
            if step * factor >= raw:
                step *= factor
                break
        count = int(self.span // step) + 1
        return step, [i * step for i in range(count)]

    def bottom(self) -> float:
        return self.lanes[-1].rect.bottom() if self.lanes else float(RULER)

    # -- hit testing --------------------------------------------------------------------------

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
        if pos.x() < GUTTER:
            return -1
        moment = self.ms_at(pos.x())
        best = -1
        for ev in turn.events:
            if ev.offset_ms is not None and ev.offset_ms <= moment:
                best = ev.index
        return best if best >= 0 else 0

    def subject_rect(self, index: int) -> QRectF | None:
        """Where the subject of event ``index`` is drawn: its call, tool or runtime bar."""
        turn = self.turn
        if turn is None or not 0 <= index < len(turn.events):
            return None
        ev = turn.events[index]
        if ev.target in ("call", "tool") and ev.target_id is not None:
            mark = self.mark_by_key.get((ev.target, ev.target_id))
            if mark is not None:
                return mark.rect
        if ev.target != "turn" and ev.target != "suspension":
            bar = self.bar_by_id.get(ev.runtime_id)
            if bar is not None:
                return bar.rect
        return None


def _lanes_of(turn: Turn, after_stages: str, stage_label: Callable[[str], str]) -> list[
        tuple[str, str, list[Runtime], list[list[Runtime]]]]:
    out = [(stage.name, stage_label(stage.name), stage.runtimes, [g.runtimes for g in stage.groups])
           for stage in turn.stages]
    if turn.unstaged:
        out.append((UNSTAGED, after_stages, turn.unstaged, [g.runtimes for g in turn.unstaged_groups]))
    return out


def lay_out(turn: Turn | None, width: float, after_stages: str,
            stage_label: Callable[[str], str] = str) -> TimelineLayout:
    """Place lanes, bars and marks of ``turn`` for ``width`` pixels (``after_stages`` labels the
    lane of runtimes with no stage, ``stage_label`` names a stage's lane; the lane's key stays
    the recorded stage). Linear in runtimes + calls + tools."""
    layout = TimelineLayout(turn, float(width))
    if turn is None:
        return layout
    index_of = {ev.event_id: ev.index for ev in turn.events}
    ends = [turn.duration_ms or 0.0]
    for runtime in turn.runtimes():
        ends.append(runtime.end_ms or 0.0)
        ends.extend(c.end_ms or 0.0 for c in runtime.calls)
    if turn.events:
        ends.append(max(ev.offset_ms or 0.0 for ev in turn.events))
    layout.span = max(max(ends), 1.0)
    y = float(RULER)
    full = float(max(width, GUTTER + RIGHT + 10))
    for key, label, runtimes, groups in _lanes_of(turn, after_stages, stage_label):
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
        lane_rect = QRectF(0.0, y, full, depth * ROW + 2 * LANE_PAD)
        layout.lanes.append(LaneGeometry(key, label, lane_rect, depth))
        for runtime in runtimes:
            row = rows[id(runtime)]
            top = y + LANE_PAD + row * ROW + 2
            height = ROW - 4
            timed = runtime.start_ms is not None
            if timed:
                x0 = layout.x_of(runtime.start_ms)
                x1 = layout.x_of(runtime.end_ms if runtime.end_ms is not None else runtime.start_ms)
                rect = QRectF(x0, top, max(x1 - x0, 3.0), height)
            else:
                rect = QRectF(GUTTER, top, full - GUTTER - RIGHT, height)
            bar = BarGeometry(runtime, key, row, rect, timed)
            layout.bars.append(bar)
            layout.bar_by_id.setdefault(runtime.runtime_id, bar)
            if timed:
                _place_marks(layout, runtime, rect, index_of)
        y += lane_rect.height()
    layout.height = int(y) + LEGEND
    _measure_rooms(layout.bars, full)
    return layout


def _measure_rooms(bars: list[BarGeometry], width: float) -> None:
    """Fill each bar's free room to its left and right neighbours in the same lane row."""
    rows: dict[tuple[str, int], list[BarGeometry]] = {}
    for bar in bars:
        rows.setdefault((bar.lane, bar.row), []).append(bar)
    for row in rows.values():
        row.sort(key=lambda b: b.rect.left())
        for i, bar in enumerate(row):
            left = row[i - 1].rect.right() if i > 0 else float(GUTTER)
            right = row[i + 1].rect.left() if i + 1 < len(row) else width - RIGHT
            bar.room_before = max(0.0, bar.rect.left() - left)
            bar.room_after = max(0.0, right - bar.rect.right())


def _place_marks(layout: TimelineLayout, runtime: Runtime, bar: QRectF, index_of: dict[str, int]) -> None:
    # The marks sit in the bar's lower band, under the runtime's name (its top 12 px).
    band_top = bar.bottom() - 9
    for call in runtime.calls:
        start = call.start_ms if call.start_ms is not None else runtime.start_ms
        end = call.end_ms if call.end_ms is not None else runtime.end_ms
        x0 = layout.x_of(start)
        x1 = layout.x_of(end if end is not None else start)
        rect = QRectF(x0, band_top, max(x1 - x0, 3.0), 7.0)
        mark = MarkGeometry("call", call.event_id, runtime.runtime_id, rect, index_of.get(call.event_id, -1), call)
        layout.marks.append(mark)
        layout.mark_by_key[("call", call.event_id)] = mark
    for tool in runtime.tools:
        at = tool.start_ms if tool.start_ms is not None else tool.end_ms
        if at is None:
            continue
        x = layout.x_of(at)
        rect = QRectF(x - 4.5, band_top - 1.0, 9.0, 9.0)
        anchor = tool.calling_event_id or tool.end_event_id
        mark = MarkGeometry("tool", tool.key, runtime.runtime_id, rect,
                            index_of.get(anchor, -1) if anchor else -1, tool)
        layout.marks.append(mark)
        layout.mark_by_key[("tool", tool.key)] = mark
