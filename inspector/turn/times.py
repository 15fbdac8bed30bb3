"""Trace timestamps compared and measured: ISO strings as Covel writes them.

JavaScript's ``toISOString`` always writes the same width ending in ``Z``, and such strings sort
as the instants they name, so comparing them needs no parsing; any other spelling is parsed.
"""

from __future__ import annotations

from datetime import datetime

__all__ = ["earlier_of", "epoch_ms", "is_before", "later_of", "not_after", "offset_ms"]


def epoch_ms(value: str | None) -> float | None:
    """Epoch milliseconds of an ISO timestamp, None when missing or unreadable."""
    if not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp() * 1000.0
    except ValueError:
        return None


def _same_shape(a: str, b: str) -> bool:
    return len(a) == len(b) and a[-1:] == b[-1:] == "Z"


def is_before(a: str, b: str) -> bool:
    """a is strictly earlier than b."""
    if _same_shape(a, b):
        return a < b
    ma, mb = epoch_ms(a), epoch_ms(b)
    if ma is None or mb is None:
        return a < b
    return ma < mb


def later_of(a: str | None, b: str | None) -> str | None:
    if a is None:
        return b
    if b is None:
        return a
    return b if is_before(a, b) else a


def earlier_of(a: str | None, b: str | None) -> str | None:
    if a is None:
        return b
    if b is None:
        return a
    return b if is_before(b, a) else a


def not_after(moment: str | None, limit: str | None) -> bool:
    """``moment`` is at or before ``limit``. A missing moment is never after anything; a moment is
    after a missing limit."""
    if moment is None or limit is None:
        return moment is None
    return not is_before(limit, moment)


def offset_ms(moment: str | None, start_ms: float | None) -> float | None:
    """Milliseconds from ``start_ms`` (epoch) to ``moment`` (ISO), None when either is unknown."""
    at = epoch_ms(moment)
    return at - start_ms if at is not None and start_ms is not None else None
