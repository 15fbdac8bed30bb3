"""A preset as the editor holds it: its templates as slots, the preset they make, the file
written back."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.zones.presets import load_preset, loads_preset
from inspector.zones.presets.editing import PresetDocument
from resources import resource_path

FILES = sorted((Path(__file__).parent / "chatluna_presets").glob("*.yml")) + sorted(
    resource_path("samples", "chatluna").glob("*.yml"))


def test_the_slots_are_every_template_in_file_order() -> None:
    doc = PresetDocument.from_text(resource_path("samples", "chatluna", "tea-house-fox.yml").read_text("utf-8"))
    assert [s.block_id for s in doc.slots] == [
        "prompts[0]", "prompts[1]", "prompts[2]", "prompts[3]", "format_user_prompt", "authors_note",
        *(f"world_lores[{i}]" for i in range(1, 7))]
    assert doc.slots[0].role == "system" and doc.slots[0].type == "description"
    assert doc.slots[6].keywords == ("灯会", "花灯", "lantern")


def test_each_slot_has_the_number_a_person_reads() -> None:
    doc = PresetDocument.from_text(resource_path("samples", "chatluna", "tea-house-fox.yml").read_text("utf-8"))
    # Prompts counted from 1 (inspector.numbering); lore entries by their world_lores position,
    # the number the activation list gives them; the one-of-a-kind slots have none.
    assert [(s.kind, s.number) for s in doc.slots] == [
        ("prompt", 1), ("prompt", 2), ("prompt", 3), ("prompt", 4), ("input", None), ("note", None),
        *(("lore", i) for i in range(1, 7))]


def test_a_refused_prompt_keeps_the_file_positions() -> None:
    doc = PresetDocument.from_text("keywords: [k]\nprompts:\n  - {role: bot, content: x}\n  - {role: user, content: y}\n"
                                   "  - role: user\n    content: [{type: text, text: z}]\n")
    assert [(s.block_id, s.content, s.editable) for s in doc.slots] == [("prompts[1]", "y", True),
                                                                       ("prompts[2]", "z", False)]
    assert [s.number for s in doc.slots] == [2, 3]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_an_edited_preset_is_written_back_and_reads_the_same(path: Path) -> None:
    doc = PresetDocument.from_text(path.read_text("utf-8-sig"), str(path))
    for slot in doc.slots:
        slot.content = slot.content + "\n{if is_group}群{/if} yes 0o17 12:30"
    text = doc.dump()
    again = loads_preset(text)
    assert again.prompts == doc.current().prompts
    assert again.lore_entries == doc.current().lore_entries
    assert again.authors_note == doc.current().authors_note
    assert again.format_user_prompt == doc.current().format_user_prompt
    assert again.keywords == load_preset(path).keywords
    assert again.load_diagnostics == ()


def test_an_unedited_preset_is_the_same_preset() -> None:
    path = FILES[0]
    doc = PresetDocument.from_text(path.read_text("utf-8-sig"), str(path))
    assert doc.current() == doc.preset
    assert loads_preset(doc.dump(), str(path)).prompts == doc.preset.prompts
