"""What each cell of the navigator's tree shows: texts, tooltips, status dots and headers.

The figures come from the core (:mod:`inspector.views` rows, typed :mod:`inspector.rows`); the
words for a session's turns and executions follow :mod:`inspector.store.turn_counts`; whether a
request failed is :func:`inspector.covel.outcome.finish_reason_failed` of its finish reason.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPalette, QPixmap

from inspector.covel.outcome import finish_reason_failed
from inspector.numbering import shown as shown_number
from inspector.rows import RequestRow, RuntimeRow, SessionRow, TurnRow
from ui.views.names import turn_title
from ui.views.part_names import stage_label, value_label

from ..views.formats import count_text, format_duration, format_number, format_time
from .navigator_nodes import (
    COL_CACHED,
    COL_DETAIL,
    COL_DURATION,
    COL_NAME,
    COL_TOKENS,
    SESSION,
    TURN,
    Node,
)

__all__ = ["COLUMN_COUNT", "Cells", "alignment", "cells", "detail_colour", "detail_tooltip", "forget_palette",
           "header_text", "header_tooltip", "status_icon", "status_of", "tooltip"]

COLUMN_COUNT = 5

# (display texts of the five columns, tooltip, status) built once on first paint: data() is
# called thousands of times per scroll step and must be a lookup.
Cells = tuple[tuple[str, ...], None, str | None]


def _tr(text: str) -> str:
    return QCoreApplication.translate("Navigator", text)


def _dot(color: QColor) -> QIcon:
    # Status is a colour dot rather than a per-status icon set: legible at 100–200 % and in both
    # colour schemes, and nothing to ship.
    size = 64
    pix = QPixmap(size, size)
    pix.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pix)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(color)
    painter.drawEllipse(6, 6, size - 12, size - 12)  # drawn at the tree's 12 px icon size (a 10 px dot)
    painter.end()
    return QIcon(pix)


_STATUS_COLOURS = {
    "completed": QColor("#2e9d4f"),
    "success": QColor("#2e9d4f"),
    "ok": QColor("#2e9d4f"),
    "committed": QColor("#2e9d4f"),
    "failed": QColor("#d64545"),
    "error": QColor("#d64545"),
    "skipped": QColor("#8a8f98"),
    "started": QColor("#d9a21b"),
    "running": QColor("#d9a21b"),
}



def status_of(node: Node) -> str | None:
    """The status a node's dot shows: an execution's commit status (running until it has one),
    a runtime's lifecycle status, a request's outcome (running until it has a response)."""
    if node.kind == TURN:
        assert isinstance(node.record, TurnRow)
        return node.record.commit_status or "running"
    record = node.record
    if isinstance(record, RuntimeRow):
        return record.status
    if isinstance(record, RequestRow):
        if record.response_event_id is None:
            return "running"
        return "error" if finish_reason_failed(record.finish_reason) else "completed"
    return None


def status_icon(icons: dict[str, QIcon], status: str) -> QIcon:
    icon = icons.get(status)
    if icon is None:
        # Unknown statuses still get a (neutral) dot so names stay aligned.
        icon = icons[status] = _dot(_STATUS_COLOURS.get(status, _STATUS_COLOURS["skipped"]))
    return icon


def cells(node: Node) -> Cells:
    # The tooltip (a full date to format) is only built when asked for, on hover.
    return tuple(_display(node, col) for col in range(COLUMN_COUNT)), None, status_of(node)


def header_text(section: int) -> str:
    return (_tr("Name"), _tr("Detail"), _tr("Tokens"), _tr("Cached"), _tr("Duration"))[section]


def header_tooltip(section: int) -> str:
    return (
        _tr("Session, turn, runtime id, or tool-loop step and attempt"),
        _tr("World and turns, origin and status, stage and status, or model"),
        _tr("Input tokens reported by the provider (cache reads and writes included)"),
        _tr("Input tokens the provider served from its prompt cache"),
        _tr("Wall-clock duration"),
    )[section]


def _session_detail(s: SessionRow, *, full: bool = False) -> str:
    """The world and the turns (its executions, requests and phase too when ``full``: the
    tooltip; the cell keeps to what fits a narrow navigator)."""
    counts = s.counts
    parts = [s.world or ""]
    if counts.turns is not None:
        parts.append(count_text(counts.turns, _tr("{n} turn"), _tr("{n} turns")))
    if full or counts.turns is None:
        parts.append(count_text(counts.executions, _tr("{n} execution"), _tr("{n} executions")))
    if full:
        parts.append(count_text(int(s.llm_calls or 0), _tr("{n} request"), _tr("{n} requests")))
        if s.phase:
            parts.append(value_label(str(s.phase)))
    return " · ".join(p for p in parts if p)


def _request_detail(r: RequestRow) -> str:
    return " · ".join(p for p in (r.model or _tr("unknown model"), r.provider or "") if p)


def _display(node: Node, col: int) -> str:
    record = node.record
    if node.kind == SESSION:
        assert isinstance(record, SessionRow)
        if col == COL_NAME:
            # Several sessions usually share a world, so the id is what tells them apart.
            return record.session_id
        return _session_detail(record) if col == COL_DETAIL else ""
    if node.kind == TURN:
        assert isinstance(record, TurnRow)
        if col == COL_NAME:
            # A row per execution (inspector.store.turn_counts), named by its number as every
            # view names it (inspector.ids: "Turn 4").
            return turn_title(record.number, record.turn_id)
        if col == COL_DETAIL:
            # Its start time is in the tooltip.
            parts = [value_label(record.origin) if record.origin else _tr("no result"),
                     value_label(record.commit_status or "")]
            return " · ".join(p for p in parts if p)
        if col == COL_DURATION:
            return format_duration(record.duration_ms)
        return ""
    if isinstance(record, RuntimeRow):
        if col == COL_NAME:
            return record.runtime_id or _tr("(no runtime id)")
        if col == COL_DETAIL:
            parts = [stage_label(record.stage) or _tr("no stage"), value_label(record.status or "")]
            return " · ".join(p for p in parts if p)
        if col == COL_TOKENS:
            return format_number(record.input_tokens)
        if col == COL_CACHED:
            return format_number(record.cached_tokens)
        if col == COL_DURATION:
            return format_duration(record.duration_ms)
        return ""
    if not isinstance(record, RequestRow):
        return ""
    if col == COL_NAME:
        name = _tr("Step {step}").format(step=shown_number(record.step or 0))
        if record.attempt:
            name += " · " + _tr("attempt {attempt}").format(attempt=shown_number(record.attempt))
        return name
    if col == COL_DETAIL:  # the provider is in the tooltip
        return record.model or _tr("unknown model")
    if col == COL_TOKENS:
        return format_number(record.input_tokens)
    if col == COL_CACHED:
        return format_number(record.cached_tokens)
    if col == COL_DURATION:
        return format_duration(record.duration_ms)
    return ""


def tooltip(node: Node) -> str:
    record = node.record
    if isinstance(record, SessionRow):
        return _tr("Session {id}").format(id=record.session_id) + "\n" + _session_detail(record, full=True)
    if isinstance(record, TurnRow):
        return _tr("Turn id {id}, started {time}").format(
            id=record.turn_id, time=format_time(record.started_at or record.created_at) or "—")
    if isinstance(record, RuntimeRow):
        # Its full id first: a narrow name column cuts a long one.
        name = record.runtime_id or _tr("(no runtime id)")
        if record.error:
            return name + "\n" + _tr("Failed: {error}").format(error=record.error)
        return name + "\n" + _tr("Plugin {plugin}").format(plugin=record.plugin_id or "—")
    if isinstance(record, RequestRow):
        return _tr("Request event {id}").format(id=record.event_id) + "\n" + _request_detail(record)
    return ""


def detail_tooltip(detail: str, row_tooltip: str) -> str:
    """The detail cell's tooltip: its whole text (a narrow navigator elides it), then the row's."""
    if not detail or detail in row_tooltip:
        return row_tooltip
    return detail + "\n" + row_tooltip if row_tooltip else detail


def _dim_colour() -> QColor:
    if not _DIM:
        _DIM.append(QPalette().color(QPalette.ColorRole.PlaceholderText))
    return _DIM[0]


_DIM: list[QColor] = []
RIGHT_ALIGNED = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


def forget_palette() -> None:
    """The palette changed: the dimmed colour is read from it again."""
    _DIM.clear()


def detail_colour(col: int) -> QColor | None:
    """The detail column is dimmed; the others keep the palette's text colour."""
    return _dim_colour() if col == COL_DETAIL else None


def alignment(col: int) -> int | None:
    return RIGHT_ALIGNED if col >= COL_TOKENS else None

