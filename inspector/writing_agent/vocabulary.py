"""The writing-agent's fixed names: blackboard tags, aliases, play slots, schemas, placeholders.

Every literal that the spec (../shared/spec/writing-agent.md A.1, A.6, A.8) fixes lives here, so
that the parser, the assembler and the editor can never disagree about a spelling.
"""

from __future__ import annotations

from dataclasses import dataclass

from inspector.jsjson import js_trim

CONTEXT_ORDER_SCHEMA = "context-order.v1"
CONTEXT_FRAGMENT_SCHEMA = "context-fragment.v1"

DIALOGUE_HISTORY_TAG = "对话.历史"
# The second spelling the segment renderer reads when the canonical tag is empty (A.4).
DIALOGUE_HISTORY_FALLBACK_TAG = "对话历史"
HISTORY_ALIASES = frozenset({"对话.历史", "history", "chat.history", "对话历史", "历史对话"})

CURRENT_TURN_TAG = "用户.最新输入"
CURRENT_TURN_ALIASES = frozenset({"用户.最新输入", "currentTurn", "user.latest", "用户最新输入"})

EVENT_STREAM_TAG = "运行.事件流"
CONTEXT_BRIEF_TAG = "上下文.定稿摘要"
CONTEXT_ORDER_TAG = "设计.上下文投影排序"
WORKER_SET_TAG = "设计.worker集"
WORKER_SET_DRAFT_TAG = "设计.worker集.草稿"
CURRENT_ROLE_ID_TAG = "世界.当前角色.id"

WORKER_PERSONA_REF = "worker.persona"
PERSONA_REFS = frozenset({WORKER_PERSONA_REF, "persona"})

PROJECTIONS = ("fixed", "full", "summary", "fields")
ANCHORS = ("pre_history", "post_history")

# Note of the history insert that set_anchor or synthesis creates (A.10, A.11).
DEFAULT_HISTORY_NOTE = "对话历史（按投影裁剪）"

# Dialogue-history placeholders (A.6).
HISTORY_EMPTY_PLACEHOLDER = "（尚无对话历史）"
HISTORY_FIXED_PLACEHOLDER = "（本步不注入历史正文）"
HISTORY_TRIM_MARKER = "（仅最近 {n} 段，更早已省略）"

HISTORY_ROLES = {"用户": "user", "助手": "assistant", "系统": "system"}

# The event-stream fallback of an empty history (A.4).
EVENT_STREAM_HEADING = "## 事件流"
USER_HEADING = "## 用户"

CONCAT_SEPARATOR = "\n\n---\n\n"


@dataclass(frozen=True, slots=True)
class PlaySlot:
    key: str
    default_ref: str
    label: str
    default_on: bool


PLAY_SLOTS: tuple[PlaySlot, ...] = (
    PlaySlot("auditor", "auditor", "旁观维护", True),
    PlaySlot("gm", "world-simulator", "主世界层", True),
    PlaySlot("narrator", "narrator", "叙事转述", True),
    PlaySlot("perspective", "role-decide", "角色视角", False),
    PlaySlot("chance", "chance", "机遇裁定", False),
)
PLAY_SLOT_BY_KEY = {slot.key: slot for slot in PLAY_SLOTS}
PLAY_SLOT_ORDER = ("auditor", "perspective", "gm", "narrator")
PLAY_SLOTS_WITHOUT_DIALOGUE_HISTORY = frozenset({"auditor"})

# parsePlaySlots: which input keys set which slot, applied in this order.
PLAY_SLOT_INPUT_KEYS: tuple[tuple[str, str], ...] = (
    ("auditor", "auditor"), ("maintain", "auditor"), ("旁观", "auditor"),
    ("gm", "gm"), ("world", "gm"),
    ("narrator", "narrator"), ("transcription", "narrator"),
    ("perspective", "perspective"),
    ("chance", "chance"), ("oracle", "chance"), ("rng", "chance"),
)

# resolvePlayAgentId: every name that denotes a play slot.
PLAY_AGENT_ALIASES = {
    "auditor": "auditor", "旁观维护": "auditor", "表格管理": "auditor",
    "gm": "gm", "world-simulator": "gm", "主世界层": "gm",
    "narrator": "narrator", "叙事转述": "narrator", "转述": "narrator",
    "perspective": "perspective", "role-decide": "perspective", "角色视角": "perspective",
    "chance": "chance", "机遇裁定": "chance",
}


def resolve_play_slot(name: str) -> PlaySlot | None:
    """The play slot a name denotes: the trimmed string first, then its lower-case form."""
    name = js_trim(name)
    key = PLAY_AGENT_ALIASES.get(name)
    if key is None:
        key = PLAY_AGENT_ALIASES.get(name.lower())
    return PLAY_SLOT_BY_KEY[key] if key else None


def is_history_ref(ref: str) -> bool:
    return js_trim(ref) in HISTORY_ALIASES


def is_current_turn_ref(ref: str) -> bool:
    return js_trim(ref) in CURRENT_TURN_ALIASES


def is_persona_ref(ref: str) -> bool:
    return ref in PERSONA_REFS
