"""Short texts made from trace values: an error field's message, a one-line excerpt, a kernel
message's text."""

from __future__ import annotations

from typing import Any

from inspector.jsjson import js_stringify

__all__ = ["error_text", "message_text", "short"]


def error_text(value: Any) -> str | None:
    """The message of an ``error`` field (a string, or an object's ``message``), None when empty."""
    if isinstance(value, dict):
        value = value.get("message") if isinstance(value.get("message"), str) else str(value)
    return value if isinstance(value, str) and value else None


def short(value: Any, limit: int = 100) -> str:
    """``value`` on one line (JSON as JavaScript writes it), cut to ``limit`` characters with "…"."""
    if value is None:
        return ""
    if isinstance(value, str):
        text = value
    else:
        try:
            text = js_stringify(value)
        except (TypeError, ValueError):
            text = repr(value)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def message_text(message: Any) -> str:
    """The text of a kernel message: a string content, or its text parts joined."""
    if not isinstance(message, dict):
        return ""
    content = message.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content
                       if isinstance(part, dict) and isinstance(part.get("text"), str))
    return ""
