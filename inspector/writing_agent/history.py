"""Dialogue history: block splitting, the projection with block-level hysteresis, role messages.

../shared/spec/writing-agent.md A.6 and A.7. The public code keeps a fixed sliding window of the
last n blocks, which changes the first history message on every turn once the history is longer
than n, so the provider's prefix cache breaks every turn. Design document A asks for hysteresis
(keep n..2n blocks, cut back to n only past 2n); we implement its quantised stateless form:
past the boundary, drop the first ``floor((count - n) / n) * n`` blocks, so the cut point moves in
steps of n and the kept count stays in [n, 2n). The boundary, the marker and n are options;
``HistoryOptions.code()`` gives the public code's window for comparison.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from inspector.jsjson import JS_SPACE, js_trim
from .vocabulary import (
    HISTORY_EMPTY_PLACEHOLDER,
    HISTORY_FIXED_PLACEHOLDER,
    HISTORY_ROLES,
    HISTORY_TRIM_MARKER,
)

__all__ = [
    "HistoryOptions",
    "HistoryProjection",
    "HistoryMessage",
    "split_history_blocks",
    "kept_block_range",
    "project_dialogue_history",
    "parse_history_messages",
    "block_role",
    "append_dialogue_history_turn",
    "history_prefix",
    "DEFAULT_BLOCK_LIMITS",
    "SETTABLE_LIMITS",
    "block_limits",
]

# The public code's n per projection: fields 5, summary/brief 20, anything else 80 (A.6 step 4).
DEFAULT_BLOCK_LIMITS: Mapping[str, int] = {"fields": 5, "summary": 20, "brief": 20, "full": 80}
_OTHER_MODES_LIMIT_KEY = "full"
# The projections whose n a user sets; "brief" is another name of the summary and takes its n.
SETTABLE_LIMITS = ("fields", "summary", "full")


def block_limits(chosen: Mapping[str, int]) -> dict[str, int]:
    """The n per projection with ``chosen`` (keys of ``SETTABLE_LIMITS``) over the defaults."""
    limits = dict(DEFAULT_BLOCK_LIMITS)
    limits.update(chosen)
    limits["brief"] = limits["summary"]
    return limits

# JavaScript's \s, not Python's (see inspector.jsjson): "##\ufeff" starts a block, "##\x1f" does not.
_RULE1_SPLIT = re.compile(f"\\n(?=##[{JS_SPACE}]|【|(?:用户|助手|系统)[:：])")
_RULE2_SPLIT = re.compile(r"\n{2,}")
_RULE3_SPLIT = re.compile(r"\r?\n")


@dataclass(frozen=True, slots=True)
class HistoryOptions:
    """How the history is cut.

    * ``mode``: ``"hysteresis"`` (design document A, quantised) or ``"window"`` (the public code:
      keep the last n whenever there are more than n).
    * ``boundary``: ``">"`` trims once the count exceeds 2n ("超过 2n"), ``">="`` once it reaches 2n.
    * ``marker``: ``"n"`` prefixes "（仅最近 n 段，更早已省略）" with n itself, which stays the same
      between cuts; ``"kept"`` shows the kept count, which changes every turn and so breaks the
      cached prefix every turn; ``"none"`` writes no marker.
    * ``limits``: n per projection; modes not listed use the ``full`` entry.
    * ``unrecognised``: what ``parse_history_messages`` does with a block that has no role
      heading: ``"previous"`` appends it to the message before (a system message when it comes
      first), ``"system"`` or ``"user"`` make it a message of that role.
    """

    mode: str = "hysteresis"
    boundary: str = ">"
    marker: str = "n"
    limits: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_BLOCK_LIMITS))
    unrecognised: str = "previous"

    def __post_init__(self) -> None:
        if self.mode not in ("hysteresis", "window"):
            raise ValueError(f"history mode must be hysteresis or window, not {self.mode!r}")
        if self.boundary not in (">", ">="):
            raise ValueError(f"history boundary must be '>' or '>=', not {self.boundary!r}")
        if self.marker not in ("n", "kept", "none"):
            raise ValueError(f"history marker must be n, kept or none, not {self.marker!r}")
        if self.unrecognised not in ("previous", "system", "user"):
            raise ValueError(f"unrecognised-block policy must be previous, system or user, not {self.unrecognised!r}")
        for mode, limit in self.limits.items():
            if not isinstance(limit, int) or isinstance(limit, bool) or limit < 1:
                raise ValueError(f"history limit for {mode!r} must be a positive integer, not {limit!r}")

    @classmethod
    def code(cls) -> HistoryOptions:
        """The public code's behaviour: a sliding window with the n marker."""
        return cls(mode="window")

    def limit_for(self, mode: str) -> int:
        return self.limits.get(mode, self.limits.get(_OTHER_MODES_LIMIT_KEY, DEFAULT_BLOCK_LIMITS["full"]))


@dataclass(frozen=True, slots=True)
class HistoryProjection:
    text: str
    mode: str
    total_blocks: int
    kept_start: int  # index of the first kept block
    kept_blocks: int
    limit: int | None  # n, or None for fixed/empty
    marker: str  # the marker line written, or ""


@dataclass(frozen=True, slots=True)
class HistoryMessage:
    role: str  # user, assistant, system
    content: str
    recognised: bool  # False: the block had no role heading and was placed by the unrecognised policy


def split_history_blocks(text: str) -> list[str]:
    """``splitHistoryBlocks``: the first rule that yields at least two parts wins."""
    parts = [p for p in map(js_trim, _RULE1_SPLIT.split(text)) if p]
    if len(parts) >= 2:
        return parts
    parts = [p for p in map(js_trim, _RULE2_SPLIT.split(text)) if p]
    if len(parts) >= 2:
        return parts
    parts = [p for p in map(js_trim, _RULE3_SPLIT.split(text)) if p]
    if len(parts) >= 2:
        return parts
    stripped = js_trim(text)
    return [stripped] if stripped else []


def kept_block_range(count: int, limit: int, options: HistoryOptions) -> int:
    """The index of the first block kept out of ``count`` with n = ``limit``."""
    if options.mode == "window":
        return count - limit if count > limit else 0
    over = count > 2 * limit if options.boundary == ">" else count >= 2 * limit
    if not over:
        return 0
    return (count - limit) // limit * limit


def project_dialogue_history(text: str, projection: str | None, options: HistoryOptions | None = None,
                             blocks: list[str] | None = None) -> HistoryProjection:
    """``projectDialogueHistory`` with the configured cut. ``blocks`` may pass a ready split of ``text``."""
    options = options or HistoryOptions()
    raw = js_trim(text)
    mode = js_trim(projection or "").lower() or "full"
    if not raw:
        placeholder = "" if mode == "fixed" else HISTORY_EMPTY_PLACEHOLDER
        return HistoryProjection(placeholder, mode, 0, 0, 0, None, "")
    if mode == "fixed":
        return HistoryProjection(HISTORY_FIXED_PLACEHOLDER, mode, 0, 0, 0, None, "")
    if blocks is None:
        blocks = split_history_blocks(raw)
    limit = options.limit_for(mode)
    start = kept_block_range(len(blocks), limit, options)
    kept = blocks[start:]
    body = "\n\n".join(kept)
    marker = ""
    if start and options.marker != "none":
        marker = HISTORY_TRIM_MARKER.format(n=limit if options.marker == "n" else len(kept))
        body = marker + "\n\n" + body
    return HistoryProjection(body, mode, len(blocks), start, len(kept), limit, marker)


_HEADING = re.compile(f"^(?:##[{JS_SPACE}]+(用户|助手|系统)[ \\t]*(?:\\n|$)|【(用户|助手|系统)】[ \\t]*\\n?|(用户|助手|系统)[:：][ \\t]*)")


def block_role(block: str) -> tuple[str | None, str]:
    """The role a block's heading names (user/assistant/system, or None) and the block without it."""
    match = _HEADING.match(block)
    if not match:
        return None, block
    word = match.group(1) or match.group(2) or match.group(3)
    return HISTORY_ROLES[word], js_trim(block[match.end():])


def parse_history_messages(text: str, options: HistoryOptions | None = None) -> list[HistoryMessage]:
    """History text (already projected: trimming is block-level, so it happens first) as role
    messages. Headings ``## 用户`` / ``【用户】`` / ``用户:`` (and 助手, 系统) start a message.
    A heading alone in its block (the splitter's blank-line rule separates ``## 助手`` from its
    text when the history has a single block) takes the blocks that follow as its content. Any
    other block without a heading is placed by ``options.unrecognised``. Empty messages are skipped."""
    options = options or HistoryOptions()
    messages: list[HistoryMessage] = []
    open_heading = False  # the last message is a heading still waiting for its text
    for block in split_history_blocks(text):
        role, content = block_role(block)
        if role is not None:
            messages.append(HistoryMessage(role, content, True))
            open_heading = not content
            continue
        if messages and (open_heading or options.unrecognised == "previous"):
            last = messages[-1]
            joined = f"{last.content}\n\n{content}" if last.content else content
            messages[-1] = HistoryMessage(last.role, joined, last.recognised)
        else:
            messages.append(HistoryMessage("user" if options.unrecognised == "user" else "system", content, False))
        open_heading = False
    return [m for m in messages if m.content]


def append_dialogue_history_turn(history: str, role: str, text: str) -> str:
    """``appendDialogueHistoryTurn``: the writer side, ``## {role}\\n\\n{text}`` blocks joined by a
    blank line; the existing history comes back trimmed, even when the turn is blank."""
    if role not in HISTORY_ROLES:
        raise ValueError(f"history role must be one of {', '.join(HISTORY_ROLES)}, not {role!r}")
    previous = js_trim(history or "")
    body = js_trim(text)
    if not body:
        return previous
    block = f"## {role}\n\n{body}"
    return f"{previous}\n\n{block}" if previous else block


def history_prefix(blocks: list[str], count: int) -> str:
    """The history as it stood when only the first ``count`` blocks had been written."""
    return "\n\n".join(blocks[:count])
