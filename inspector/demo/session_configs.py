"""The demo's sessions: who plays, on which provider and model, for how long."""

from __future__ import annotations

from dataclasses import dataclass

from inspector.wire.protocols import (
    ANTHROPIC_EXPLICIT_CACHE,
    ANTHROPIC_MESSAGES,
    GOOGLE_GENERATIVE_AI,
    OPENAI_CHAT,
    OPENAI_RESPONSES,
)

from . import world as W


# --- per-session configuration ----------------------------------------------------------------


@dataclass(frozen=True)
class Slot:
    name: str
    model: str
    late_system_as_user: bool | None = None


@dataclass(frozen=True)
class SessionConfig:
    session_id: str
    protocol: str
    provider: str
    story: Slot
    plugin: Slot
    fast: Slot
    player: W.PlayerCharacter
    turns: int
    main: bool
    # Gemini sessions here have no SSE action stream, so trace_id falls back to the turn id.
    trace_is_turn: bool
    window: int
    tool_call_prefix: str
    start_ms: int
    cache_strategy: str | None = None
    prompt_cache_key: bool = False


def session_configs(turns: int, count: int) -> list[SessionConfig]:
    day = 24 * 3600 * 1000
    base = [
        SessionConfig(
            "demo-lantern-deepseek", OPENAI_CHAT, "deepseek",
            Slot("story", "deepseek-chat", True), Slot("plugin", "deepseek-chat"), Slot("fast", "deepseek-chat"),
            W.PLAYERS[0], turns, True, False, 64000, "call_", 0,
        ),
        SessionConfig(
            "demo-lantern-claude", ANTHROPIC_MESSAGES, "anthropic",
            Slot("story", "claude-sonnet-4-5"), Slot("plugin", "claude-haiku-4-5"), Slot("fast", "claude-haiku-4-5"),
            W.PLAYERS[1], min(turns, 6), False, False, 200000, "toolu_", 3 * day,
            cache_strategy=ANTHROPIC_EXPLICIT_CACHE,
        ),
        SessionConfig(
            "demo-lantern-openai", OPENAI_RESPONSES, "openai",
            Slot("story", "gpt-5-mini"), Slot("plugin", "gpt-5-nano"), Slot("fast", "gpt-5-nano"),
            W.PLAYERS[2], min(turns, 5), False, False, 128000, "call_", 5 * day, prompt_cache_key=True,
        ),
        SessionConfig(
            "demo-lantern-gemini", GOOGLE_GENERATIVE_AI, "google",
            Slot("story", "gemini-2.5-flash"), Slot("plugin", "gemini-2.5-flash-lite"),
            Slot("fast", "gemini-2.5-flash-lite"),
            W.PLAYERS[3], min(turns, 4), False, True, 1000000, "fc_", 7 * day,
        ),
    ]
    out = []
    for i in range(count):
        cfg = base[i % len(base)]
        if i >= len(base):
            lap = i // len(base)
            cfg = SessionConfig(
                **{**cfg.__dict__, "session_id": f"{cfg.session_id}-{lap + 1}", "start_ms": cfg.start_ms + lap * 9 * day}
            )
        out.append(cfg)
    return out
