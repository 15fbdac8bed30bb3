"""One normalised model request, whichever wire (or the kernel) it was read from.

Every protocol is reduced to the same shape so the anatomy labeller, the diff and the views never
branch on the wire format. Each normalised item keeps ``raw`` (the JSON it came from) and an index
back into the list it came from, because the UI must always be able to show the exact bytes.
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field
from typing import Any

from inspector.covel import markers
from inspector.json_deep import sorted_json_text

# Part kinds.
TEXT = "text"
IMAGE = "image"
IMAGE_NOTE = "image-note"
TOOL_CALL = "tool-call"
TOOL_RESULT = "tool-result"
THINKING = "thinking"
OTHER = "other"
PART_KINDS = (TEXT, IMAGE, IMAGE_NOTE, TOOL_CALL, TOOL_RESULT, THINKING, OTHER)

# Part kinds whose text the model reads as prose; a tool result is included because on every
# wire it is text the model reads, and the anatomy needs something to locate in a tool message.
TEXT_BEARING_KINDS = frozenset({TEXT, TOOL_RESULT})

# Text parts are joined with a newline so tags written at the start of a part stay at a line
# start in ``Message.text`` (the anatomy finds tagged blocks by line starts).
TEXT_PART_JOINER = "\n"

ROLES = ("system", "user", "assistant", "tool")

# SystemBlock sources.
SRC_KERNEL_SENTINEL = "kernel-sentinel"
SRC_SYSTEM_STRING = "system-string"
SRC_SYSTEM_BLOCK = "system-block"
SRC_INSTRUCTIONS = "instructions"
SRC_SYSTEM_INSTRUCTION = "system-instruction"
SRC_SYSTEM_MESSAGE = "system-message"

# Where a late system instruction's wrapper came from: a wrapped string, or the OpenAI shape of
# separate leading/trailing text parts around the original parts (covel-assembly.md §4).
WRAP_STRING = "string"
WRAP_PARTS = "parts"


@dataclass(slots=True)
class Part:
    kind: str
    text: str = ""
    name: str | None = None
    call_id: str | None = None
    media_type: str | None = None
    cache_control: bool = False
    raw: Any = None


@dataclass(slots=True)
class Message:
    """One conversation message.

    ``index`` is the position in the list it came from (``body.messages`` / ``body.input`` /
    ``body.contents`` / ``payload.messages``). Gemini merges consecutive same-role messages into
    one content; the parser splits such a content back into several ``Message`` objects that
    share ``index`` and differ in ``part_offset`` (position of their first part in the content's
    ``parts``), so each wrapped system instruction is its own late-system message.
    """

    role: str
    parts: list[Part]
    index: int
    name: str | None = None
    late_system: bool = False
    cache_breakpoint: bool = False
    raw: Any = None
    _: KW_ONLY
    wire_role: str | None = None
    part_offset: int = 0
    wrap: str | None = None

    @property
    def text(self) -> str:
        return TEXT_PART_JOINER.join(p.text for p in self.parts if p.kind in TEXT_BEARING_KINDS)

    def inner_span(self) -> tuple[int, int]:
        """Span of the unwrapped instruction inside ``text`` (the whole text when not wrapped)."""
        text_len = len(self.text)
        if self.wrap == WRAP_STRING:
            return len(markers.SYSTEM_INSTRUCTION_OPEN), text_len - len(markers.SYSTEM_INSTRUCTION_CLOSE)
        if self.wrap == WRAP_PARTS:
            start = len(markers.SYSTEM_INSTRUCTION_OPEN) + len(TEXT_PART_JOINER)
            end = text_len - len(markers.SYSTEM_INSTRUCTION_CLOSE) - len(TEXT_PART_JOINER)
            return start, max(start, end)
        return 0, text_len

    @property
    def inner_text(self) -> str:
        start, end = self.inner_span()
        return self.text[start:end]

    def part_spans(self) -> list[tuple[int, int, int]]:
        """``(part_index, start, end)`` of every text-bearing part within ``text``."""
        spans: list[tuple[int, int, int]] = []
        pos = 0
        for i, part in enumerate(self.parts):
            if part.kind not in TEXT_BEARING_KINDS:
                continue
            if spans:
                pos += len(TEXT_PART_JOINER)
            spans.append((i, pos, pos + len(part.text)))
            pos += len(part.text)
        return spans

    def has_kind(self, *kinds: str) -> bool:
        return any(p.kind in kinds for p in self.parts)


@dataclass(slots=True)
class SystemBlock:
    """One piece of system text.

    ``origin_index`` is the wire/kernel message (or Gemini ``systemInstruction`` part, or Anthropic
    ``system`` array entry) it came from, ``origin_offset`` where this text starts inside it: a
    kernel system prompt split at the sentinel keeps each piece's exact text (no trimming), so
    ``origin_offset`` maps a piece offset back to the recorded string.
    """

    text: str
    cache_control: bool = False
    breakpoint_after: bool = False
    _: KW_ONLY
    source: str
    origin_index: int | None = None
    origin_offset: int = 0
    raw: Any = None


@dataclass(slots=True)
class Tool:
    name: str
    description: str
    parameters: Any
    raw: Any = None

    @property
    def text(self) -> str:
        """Stable text form of the definition, what the anatomy locates offsets in."""
        return sorted_json_text({"name": self.name, "description": self.description, "parameters": self.parameters})


@dataclass(slots=True)
class CacheBreakpoint:
    """A cache boundary. ``index`` is a system block index (breakpoint after that block) or a
    position in ``NormalisedRequest.messages`` (not the wire index); ``part_index`` is the part."""

    where: str
    index: int
    part_index: int | None = None
    origin: str = "cache_control"


@dataclass(slots=True)
class ProviderAttempt:
    index: int
    schema_version: int | None
    provider: str | None
    protocol: str | None
    body: dict | None
    body_ref: int | None
    body_error: str | None
    complete: bool | None
    omitted_field_count: int | None
    started_at: str | None
    duration_ms: float | None
    transport_attempt: int | None
    logical_attempt: int | None
    retry_reason: str | None
    status_code: int | None
    failed: bool
    raw: Any = None


@dataclass(slots=True)
class NormalisedRequest:
    source: str
    protocol: str | None
    model: str | None
    system: list[SystemBlock] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)
    tools: list[Tool] = field(default_factory=list)
    sampling: dict = field(default_factory=dict)
    cache_breakpoints: list[CacheBreakpoint] = field(default_factory=list)
    complete: bool | None = None
    omitted_field_count: int | None = None
    system_message_count: int = 0
    problems: list[str] = field(default_factory=list)
    # The protocol string as recorded, and whether ``protocol`` was inferred from the body shape
    # because the recorded one was missing or unknown (a UI test stores ``chat``).
    declared_protocol: str | None = None
    protocol_detected: bool = False
