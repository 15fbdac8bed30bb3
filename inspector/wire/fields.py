"""Where each wire keeps a request's prompt: the body fields that carry prompt text, the field
that holds the message list, and the roles that are system messages. The readers
(:mod:`inspector.wire.parse`), the serialisers (:mod:`inspector.wire.serialise`) and the cache
analysis's own body reader take them from here.
"""

from __future__ import annotations

from inspector.wire.protocols import ANTHROPIC_MESSAGES, GOOGLE_GENERATIVE_AI, OPENAI_CHAT, OPENAI_RESPONSES

__all__ = ["LIST_KEYS", "PROMPT_FIELDS", "SYSTEM_ROLES"]

# Body fields that carry prompt text; a body with none of them (e.g. a Gemini body whose
# ``contents`` the allow-list dropped) shows nothing of the prompt.
PROMPT_FIELDS = ("messages", "input", "instructions", "system", "contents", "systemInstruction")

# The body field that holds each wire's message list.
LIST_KEYS = {
    OPENAI_CHAT: "messages",
    ANTHROPIC_MESSAGES: "messages",
    OPENAI_RESPONSES: "input",
    GOOGLE_GENERATIVE_AI: "contents",
}

# Roles that make a message a system message, on every wire and in Covel's own (kernel)
# messages alike ("developer" is OpenAI's newer name for it).
SYSTEM_ROLES = frozenset({"system", "developer"})
