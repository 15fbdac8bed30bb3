"""ChatLuna preset files (koishi-plugin-chatluna 1.3.36's ``RawPreset`` YAML): reading them with
every field checked (:mod:`.model`), the built-in template functions under a fixed clock and seed
(:mod:`.functions`), lore-entry activation (:mod:`.lore`), and what ChatLuna sends for one turn
(:mod:`.assemble`, whose :func:`render_preset` is the one call an editor makes per edit).
"""

from __future__ import annotations

from pathlib import Path

from .assemble import (
    DEFAULT_INPUT,
    DEFAULT_VARIABLES,
    INPUT_MISSING_PROMPT,
    NETWORK_FUNCTION,
    LoreHit,
    Message,
    NoteState,
    PresetCache,
    PresetOptions,
    PresetRender,
    TemplateRender,
    check_history,
    render_preset,
    with_prompt_text,
)
from .functions import BUILTIN_FUNCTIONS, DEFAULT_NOW, DEFAULT_SEED, ClockError
from .model import Preset, PresetError, is_preset_data, loads_preset, parse_preset_text, preset_from_data

__all__ = [
    "BUILTIN_FUNCTIONS", "DEFAULT_INPUT", "DEFAULT_NOW", "DEFAULT_SEED", "DEFAULT_VARIABLES", "INPUT_MISSING_PROMPT",
    "NETWORK_FUNCTION", "ClockError", "LoreHit", "Message", "NoteState", "Preset", "PresetCache", "PresetError",
    "PresetOptions", "PresetRender", "TemplateRender", "check_history", "is_preset_data", "load_preset",
    "loads_preset", "looks_like_preset", "parse_preset_text", "preset_from_data", "render_preset",
    "with_prompt_text",
]


def read_preset_file(path: str | Path) -> str:
    """A preset file's text (UTF-8, a BOM dropped); :class:`PresetError` naming the file."""
    from inspector.zones.config import read_text_file

    return read_text_file(path, PresetError, "preset")


def load_preset(path: str | Path) -> Preset:
    return loads_preset(read_preset_file(path), str(path))


def looks_like_preset(path: str | Path) -> bool:
    """Whether a .yml/.yaml file holds a ChatLuna preset (decided by its content, see
    :func:`is_preset_data`); False for anything unreadable, which the config loader then reports."""
    if Path(path).suffix.lower() not in (".yml", ".yaml"):
        return False
    try:
        return is_preset_data(parse_preset_text(read_preset_file(path), str(path)))
    except PresetError:
        return False
