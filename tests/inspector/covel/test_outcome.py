"""One rule for "a request failed" (covel-db.md §2.2: ``finishReason`` ``error`` on failure)."""

from __future__ import annotations

from inspector.covel.outcome import ERROR_FINISH_REASON, finish_reason_failed, response_failed


def test_error_finish_reason_is_a_failure() -> None:
    assert ERROR_FINISH_REASON == "error"
    assert finish_reason_failed("error")
    assert response_failed({"finishReason": "error", "error": "upstream 500"})


def test_other_finish_reasons_and_no_response_are_not_failures() -> None:
    for reason in ("stop", "tool-calls", "length", None, "", 0, "ERROR"):
        assert not finish_reason_failed(reason)
        assert not response_failed({"finishReason": reason})
    assert not response_failed({})
    assert not response_failed(None)
