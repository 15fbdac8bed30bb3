"""Read-only access to Covel's store (``covel.db`` or PostgreSQL). Headless: never imports Qt."""

from __future__ import annotations

from .errors import (
    EmptyDatabaseError,
    NotACovelStoreError,
    NotADatabaseError,
    StoreError,
    StoreLockedError,
    StoreNotFoundError,
    StoreOpenError,
)
from .reader import DEFAULT_BUSY_TIMEOUT, Store, open_store
from .records import (
    LlmCall,
    SessionInfo,
    SessionSummary,
    TokenUsage,
    TraceEvent,
    TurnInfo,
    TurnMessage,
    parse_json_object,
)

__all__ = [
    "DEFAULT_BUSY_TIMEOUT",
    "EmptyDatabaseError",
    "LlmCall",
    "NotACovelStoreError",
    "NotADatabaseError",
    "SessionInfo",
    "SessionSummary",
    "Store",
    "StoreError",
    "StoreLockedError",
    "StoreNotFoundError",
    "StoreOpenError",
    "TokenUsage",
    "TraceEvent",
    "TurnInfo",
    "TurnMessage",
    "open_store",
    "parse_json_object",
]
