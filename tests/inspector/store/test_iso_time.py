"""Covel's ISO timestamps (inspector.store.iso_time)."""

from __future__ import annotations

from datetime import datetime, timezone

from inspector.store.iso_time import iso_datetime, iso_minus


def test_iso_text_is_read_and_moved_back_in_the_same_shape() -> None:
    assert iso_datetime("2026-10-06T08:00:00.250Z") == datetime(2026, 10, 6, 8, 0, 0, 250_000, tzinfo=timezone.utc)
    assert iso_minus("2026-10-06T08:00:00.250Z", 30) == "2026-10-06T07:59:30.250Z"
    assert iso_minus("2026-10-06T10:00:00.000+02:00", 1.5) == "2026-10-06T07:59:58.500Z"


def test_text_that_is_no_timestamp_is_left_as_it_is() -> None:
    assert iso_datetime("") is None and iso_datetime(None) is None and iso_datetime("yesterday") is None
    assert iso_minus("yesterday", 30) == "yesterday"
