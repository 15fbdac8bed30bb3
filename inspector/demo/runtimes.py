"""The demo's runtimes: the plugins a turn runs, their prompts and tools."""

from __future__ import annotations

from dataclasses import dataclass

from inspector.covel.assembly import (
    RuntimeSpec,
)

from . import world as W


# --- runtimes ---------------------------------------------------------------------------------

SCHEMA_OBJ = {"type": "object", "additionalProperties": False}
TOOLS = {
    "emit-event": {
        "name": "emit-event",
        "description": "Emit a declared domain event from the narration.",
        "jsonSchema": {
            "type": "object",
            "properties": {"name": {"type": "string"}, "payload": {"type": "object"}},
            "required": ["name"],
            "additionalProperties": False,
        },
    },
    "runtime-done": {
        "name": "runtime-done",
        "description": "Finish this runtime. Call it once all work is done.",
        "jsonSchema": {"type": "object", "properties": {"summary": {"type": "string"}}, "additionalProperties": False},
    },
    "character-get": {
        "name": "character-get",
        "description": "Read one character record by name.",
        "jsonSchema": {**SCHEMA_OBJ, "properties": {"name": {"type": "string"}}, "required": ["name"]},
    },
    "character-upsert": {
        "name": "character-upsert",
        "description": "Create or update a character record.",
        "jsonSchema": {
            **SCHEMA_OBJ,
            "properties": {
                "name": {"type": "string"},
                "type": {"type": "string", "enum": ["npc", "player"]},
                "description": {"type": "string"},
                "fields": {"type": "object"},
            },
            "required": ["name", "type"],
        },
    },
    "dimension-update": {
        "name": "dimension-update",
        "description": "Set new values for tracked world dimensions.",
        "jsonSchema": {
            **SCHEMA_OBJ,
            "properties": {"changes": {"type": "array", "items": {"type": "object"}}},
            "required": ["changes"],
        },
    },
}


@dataclass(frozen=True)
class Runtime:
    spec: RuntimeSpec
    stage: str
    slot: str
    tools: tuple[str, ...]
    max_output_tokens: int
    streaming: bool = False
    defaults: dict | None = None


def build_runtimes(narrator_body: str) -> dict[str, Runtime]:
    return {
        "guide/main": Runtime(
            RuntimeSpec("guide/main", "guide", W.GUIDE_BODY, max_turns=4, include_summaries=True),
            "pre-turn", "fast", ("runtime-done",), 1024,
        ),
        "narrator/main": Runtime(
            RuntimeSpec(
                "narrator/main", "narrator", narrator_body, output_kind="story",
                output_contract="narrative-engine@1", completion="story", advertise_events=True,
            ),
            "narrative", "story", ("emit-event",), 4000, streaming=True,
        ),
        "char-creator/character-tracker": Runtime(
            RuntimeSpec(
                "char-creator/character-tracker", "char-creator", W.TRACKER_BODY,
                require_tool_use=True, max_turns=2,
            ),
            "post-turn", "plugin", ("character-get", "character-upsert", "runtime-done"), 2048,
            defaults={"toolChoice": "auto"},
        ),
        "world-init/dimension-tracker": Runtime(
            RuntimeSpec(
                "world-init/dimension-tracker", "world-init", W.DIMENSION_BODY,
                completion="completing-tool", complete_after_tools=("dimension-update",),
            ),
            "post-turn", "plugin", ("dimension-update",), 2048, defaults={"toolChoice": "required"},
        ),
        "affinity/main": Runtime(
            RuntimeSpec("affinity/main", "affinity", W.AFFINITY_BODY),
            "post-turn", "plugin", ("runtime-done",), 1024,
        ),
    }


POST_TURN = ("char-creator/character-tracker", "world-init/dimension-tracker", "affinity/main")
