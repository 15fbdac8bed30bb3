"""Covel's timestamps: ISO text as JavaScript's ``toISOString()`` writes it (covel-db.md §5)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

__all__ = ["iso_datetime", "iso_minus"]


def iso_datetime(value: str | None) -> datetime | None:
    """The moment an ISO text names, or None for empty text or text that is not a timestamp."""
    if not value:
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def iso_minus(value: str, seconds: float) -> str:
    """``value`` moved back by ``seconds``, in the same toISOString() shape; text that is not a
    timestamp is returned as it is."""
    when = iso_datetime(value)
    if when is None:
        return value
    if when.tzinfo is not None:
        when = when.astimezone(timezone.utc)
    earlier = when - timedelta(seconds=seconds)
    return earlier.strftime("%Y-%m-%dT%H:%M:%S.") + f"{earlier.microsecond // 1000:03d}Z"
