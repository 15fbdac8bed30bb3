"""Read-only access to Covel's store (``covel.db`` or PostgreSQL). Headless: never imports Qt."""

from __future__ import annotations

from .errors import (
    EmptyDatabaseError,
    NotACovelStoreError,
    NotADatabaseError,
    StoreAuthenticationError,
    StoreConnectionError,
    StoreConnectionLostError,
    StoreDamagedError,
    StoreError,
    StoreLockedError,
    StoreNotFoundError,
    StoreOpenError,
)
from .calls import pair_llm_calls
from .opening import open_store
from .sqlite_open import DEFAULT_BUSY_TIMEOUT
from .store import Store
from .records import (
    LlmCall,
    SessionInfo,
    SessionSummary,
    SuspensionRecord,
    TokenUsage,
    ToolCallRecord,
    TraceEvent,
    TurnInfo,
    TurnMessage,
    TurnResult,
    parse_json_object,
    parse_json_value,
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
    "StoreAuthenticationError",
    "StoreConnectionError",
    "StoreConnectionLostError",
    "StoreDamagedError",
    "StoreError",
    "StoreLockedError",
    "StoreNotFoundError",
    "StoreOpenError",
    "SuspensionRecord",
    "TokenUsage",
    "ToolCallRecord",
    "TraceEvent",
    "TurnInfo",
    "TurnMessage",
    "TurnResult",
    "open_store",
    "pair_llm_calls",
    "parse_json_object",
    "parse_json_value",
]
