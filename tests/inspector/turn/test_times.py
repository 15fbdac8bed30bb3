"""Trace timestamps: Covel's own spelling compared as text, any other ISO spelling parsed."""

from __future__ import annotations

from inspector.turn.times import (
    earlier_of,
    epoch_ms,
    is_before,
    later_of,
    not_after,
    offset_ms,
)

A = "2026-10-06T08:00:00.001Z"
B = "2026-10-06T08:00:00.002Z"


def test_same_spelling_and_other_spellings_compare_as_instants() -> None:
    assert is_before(A, B) and not is_before(B, A) and not is_before(A, A)
    assert is_before("2026-10-06T10:00:00.000+02:00", B)  # 08:00:00.000 UTC
    assert later_of(A, B) == B and earlier_of(A, B) == A
    assert later_of(None, A) == A and earlier_of(A, None) == A


def test_not_after_and_offsets() -> None:
    assert not_after(A, B) and not_after(A, A) and not not_after(B, A)
    # A row without a time is taken as not later than any limit; a timed row has no missing limit to meet.
    assert not_after(None, None) and not_after(None, A) and not not_after(A, None)
    assert epoch_ms("not a time") is None and epoch_ms(None) is None
    assert offset_ms(B, epoch_ms(A)) == 1 and offset_ms(None, 0.0) is None and offset_ms(B, None) is None
