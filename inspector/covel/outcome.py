"""Whether a model request failed: the one rule every view asks.

Covel records a failed request in its ``llm.responded`` row: ``finishReason`` is ``"error"``,
with the message in ``error`` (covel-db.md §2.2). A request with no response yet has not
failed, it is still running (or its response was lost); callers tell that case apart by having
no response at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["ERROR_FINISH_REASON", "finish_reason_failed", "response_failed"]

# The finishReason an llm.responded row carries when the request failed.
ERROR_FINISH_REASON = "error"


def finish_reason_failed(finish_reason: Any) -> bool:
    """True when a response's ``finishReason`` says the request failed."""
    return finish_reason == ERROR_FINISH_REASON


def response_failed(response: Mapping[str, Any] | None) -> bool:
    """True when the ``llm.responded`` payload ``response`` (or any mapping holding its
    ``finishReason``) records a failed request; False for None (no response: not failed)."""
    return response is not None and finish_reason_failed(response.get("finishReason"))
