"""Wire protocol identities and the provider-body allow-list (covel-db.md §2.3), in one place.

Both the serialisers (which build bodies) and the projection (which decides what a recorded
``providerRequests[].body`` keeps) read these, so a field cannot be allowed in one and not the other.
"""

from __future__ import annotations

OPENAI_CHAT = "openai-chat-v1"
OPENAI_RESPONSES = "openai-responses-v1"
ANTHROPIC_MESSAGES = "anthropic-messages-v1"
GOOGLE_GENERATIVE_AI = "google-generative-ai-v1"
ALL_PROTOCOLS = (OPENAI_CHAT, OPENAI_RESPONSES, ANTHROPIC_MESSAGES, GOOGLE_GENERATIVE_AI)

# The OpenAI-compatible wires are the only ones that carry a prompt_cache_key (spec §3.3).
PROMPT_CACHE_KEY_PROTOCOLS = frozenset({OPENAI_CHAT, OPENAI_RESPONSES})

ANTHROPIC_EXPLICIT_CACHE = "anthropic-explicit"

# Sampling fields Covel forwards; listed separately because the spec names them as a group.
SAMPLING_FIELDS = frozenset(
    {
        "temperature",
        "top_p",
        "top_k",
        "min_p",
        "frequency_penalty",
        "presence_penalty",
        "repetition_penalty",
        "seed",
    }
)

# Model-input fields kept in a recorded body on every protocol (covel-db.md §2.3). ``state`` and
# ``questions`` appeared in one version only and are left out.
PROVIDER_BODY_FIELDS = frozenset(
    {
        "model",
        "messages",
        "input",
        "instructions",
        "system",
        "tools",
        "tool_choice",
        "parallel_tool_calls",
        "response_format",
        "text",
        "max_tokens",
        "max_completion_tokens",
        "max_output_tokens",
        "stop",
        "stream",
        "stream_options",
        "thinking",
        "reasoning",
        "reasoning_effort",
        "enable_thinking",
        "output_config",
        "verbosity",
        "service_tier",
        "store",
    }
    | SAMPLING_FIELDS
)

# Gemini-native model-input fields. The allow-list versions seen did not have them, which would
# record a Gemini body almost empty; the newest observation path is unconfirmed and the prefix
# report reads ``body.contents``, so newer versions may record them. We keep them: a browser that
# shows Gemini requests needs them, and a real recording without them simply lacks the keys.
# Only the Gemini wire gets them, so an OpenAI body carrying ``contents`` is still projected away.
GEMINI_BODY_FIELDS = frozenset({"contents", "systemInstruction", "generationConfig", "toolConfig"})

PROTOCOL_EXTRA_BODY_FIELDS = {GOOGLE_GENERATIVE_AI: GEMINI_BODY_FIELDS}


def allowed_body_fields(protocol: str) -> frozenset[str]:
    """Top-level body keys a recorded body of ``protocol`` keeps; unknown protocols get the base list."""
    return PROVIDER_BODY_FIELDS | PROTOCOL_EXTRA_BODY_FIELDS.get(protocol, frozenset())
