"""A preset as an editor holds it: every template in it as a slot whose text can change (the
prompts, ``format_user_prompt``, the author's note, the lore entries), the preset those texts make
now, and the file written back with the edited texts.

Saving rewrites the YAML from its data (js-yaml reads the result as the same preset): the edited
texts go where they came from, every other field is kept as it was read; comments and the
file's own layout are not kept. A prompt whose content is a list of parts is shown but not
editable (its text is the parts' text joined).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from typing import Any

import yaml

from inspector import wording
from inspector.numbering import shown
from . import yaml_core
from .model import Preset, PresetError, parse_preset_text, preset_from_data

PROMPT, INPUT, NOTE, LORE = "prompt", "input", "note", "lore"


@dataclass
class PresetSlot:
    """One template of the preset. ``content`` is what the editor edits; ``block_id`` is its path
    in the file (what diagnostics name), ``number`` the number a person reads in its name
    ("Prompt 1" for ``prompts[0]``, "Lore 3" for ``world_lores[3]``, as the lore activation lists
    it; None for the one-of-a-kind user-input format and author's note)."""
    block_id: str  # prompts[0] | format_user_prompt | authors_note | world_lores[3]
    kind: str  # prompt | input | note | lore
    content: str
    role: str | None = None
    type: str | None = None
    editable: bool = True
    keywords: tuple[str, ...] = ()
    number: int | None = None


@dataclass
class PresetDocument:
    text: str  # the file as read
    data: Any  # its YAML data
    preset: Preset  # as read
    slots: list[PresetSlot] = field(default_factory=list)
    sample_input: str = ""

    @classmethod
    def from_text(cls, text: str, origin: str = "<preset>") -> PresetDocument:
        data = parse_preset_text(text, origin)
        preset = preset_from_data(copy.deepcopy(data), origin)
        return cls(text, data, preset, slots_of(preset, data))

    def current(self) -> Preset:
        """The preset with the slots' texts in place of what was read."""
        by_id = {s.block_id: s for s in self.slots}
        prompts = [replace(p, content=by_id[f"prompts[{i}]"].content) if f"prompts[{i}]" in by_id else p
                   for i, p in enumerate(self.preset.prompts)]
        entries = [replace(e, content=by_id[f"world_lores[{e.index}]"].content) for e in self.preset.lore_entries]
        note = self.preset.authors_note
        if note is not None and note.key in by_id:
            note = replace(note, content=by_id[note.key].content)
        fup = by_id["format_user_prompt"].content if "format_user_prompt" in by_id else None
        return replace(self.preset, prompts=prompts, lore_entries=entries, authors_note=note, format_user_prompt=fup)

    def dump(self) -> str:
        """The preset file with the edited texts (YAML; comments are not kept)."""
        data = copy.deepcopy(self.data)
        for slot in self.slots:
            if not slot.editable:
                continue
            if slot.kind == PROMPT:
                data["prompts"][int(slot.block_id[8:-1])]["content"] = slot.content
            elif slot.kind == LORE:
                data["world_lores"][int(slot.block_id[12:-1])]["content"] = slot.content
            elif slot.kind == NOTE:
                data[slot.block_id]["content"] = slot.content
            else:
                data["format_user_prompt"] = slot.content
        text = yaml.dump(data, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=100)
        # What js-yaml reads back must be the same data; check before anything is written.
        if parse_preset_text(text) != data:
            raise PresetError(wording.PRESET_NOT_WRITABLE)
        return text


def slots_of(preset: Preset, data: Any) -> list[PresetSlot]:
    """The preset's templates in file order: prompts, format_user_prompt, the author's note, the
    lore entries (as the file holds them; only loaded items)."""
    slots: list[PresetSlot] = []
    raw_prompts = data.get("prompts") if isinstance(data, dict) else None
    loaded = iter(preset.prompts)
    if isinstance(raw_prompts, list):
        # The loader skips items it refuses; match the loaded prompts to their file positions.
        for i, raw in enumerate(raw_prompts):
            if not _is_loaded_prompt(raw):
                continue
            prompt = next(loaded)
            slots.append(PresetSlot(f"prompts[{i}]", PROMPT, prompt.content, prompt.role, prompt.type,
                                    isinstance(raw.get("content"), str), number=shown(i)))
    if preset.format_user_prompt is not None:
        slots.append(PresetSlot("format_user_prompt", INPUT, preset.format_user_prompt, "user"))
    if preset.authors_note is not None:
        slots.append(PresetSlot(preset.authors_note.key, NOTE, preset.authors_note.content, "user"))
    for entry in preset.lore_entries:
        # A lore entry keeps its world_lores position: the activation list and the message
        # headings name entries by it too.
        slots.append(PresetSlot(f"world_lores[{entry.index}]", LORE, entry.content, "user",
                                keywords=entry.keywords, number=entry.index))
    return slots


def _is_loaded_prompt(raw: Any) -> bool:
    from .model import ROLES

    role = raw.get("role") if isinstance(raw, dict) else None
    return isinstance(role, str) and role in ROLES and isinstance(raw.get("content"), (str, list))


class _Dumper(yaml.SafeDumper):
    """Quotes a string that either YAML 1.1 or js-yaml's 1.2 core schema would read as another type."""


_Dumper.yaml_implicit_resolvers = {
    first: list(yaml.SafeDumper.yaml_implicit_resolvers.get(first, []))
    + list(yaml_core.CoreLoader.yaml_implicit_resolvers.get(first, []))
    for first in set(yaml.SafeDumper.yaml_implicit_resolvers) | set(yaml_core.CoreLoader.yaml_implicit_resolvers)
}


def _str(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    # Multi-line texts as literal blocks (readable, and js-yaml keeps them byte for byte); a text a
    # literal block cannot hold exactly (trailing spaces on a line, special line breaks) quoted.
    if "\n" in text and not any(c in text for c in "\r\x85\u2028\u2029\t") \
            and not any(line != line.rstrip(" ") for line in text.split("\n")) and not text.startswith((" ", "\n")):
        return dumper.represent_scalar("tag:yaml.org,2002:str", text, style="|")
    if any(c in text for c in "\x85\u2028\u2029"):
        return dumper.represent_scalar("tag:yaml.org,2002:str", text, style='"')
    return dumper.represent_str(text)


_Dumper.add_representer(str, _str)
