"""How the navigator and the views beside it write numbers, durations and times."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QDateTime, Qt

__all__ = ["count_text", "format_duration", "format_number", "format_time"]


def _tr(text: str) -> str:
    return QCoreApplication.translate("Navigator", text)


def count_text(n: int, one: str, many: str) -> str:
    """``one`` or ``many`` (each with ``{n}``) for ``n``."""
    return (one if n == 1 else many).format(n=n)


def format_number(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value if isinstance(value, str) else ""  # text: a damaged store's column, as stored
    return f"{int(value):,}"


def format_duration(ms: Any) -> str:
    if isinstance(ms, bool) or not isinstance(ms, (int, float)):
        return ms if isinstance(ms, str) else ""  # as format_number
    if ms < 1000:
        return _tr("{ms} ms").format(ms=int(ms))
    if ms < 60_000:
        return _tr("{s:.2f} s").format(s=ms / 1000)
    minutes, seconds = divmod(int(ms) // 1000, 60)
    return _tr("{m} min {s} s").format(m=minutes, s=seconds)


def format_time(iso: Any, *, short: bool = False) -> str:
    """Local time of an ISO timestamp; ``short`` drops the date (the tree's detail column)."""
    if not isinstance(iso, str) or not iso:
        return ""
    dt = QDateTime.fromString(iso, Qt.DateFormat.ISODateWithMs)
    if not dt.isValid():
        return iso
    return dt.toLocalTime().toString("HH:mm:ss" if short else "yyyy-MM-dd HH:mm:ss")

