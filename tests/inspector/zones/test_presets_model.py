"""Reading ChatLuna preset files: what ChatLuna reads, and every bad field named by its path."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings, strategies as st

from inspector.zones.presets import (
    PresetError, PresetOptions, is_preset_data, loads_preset, preset_from_data, render_preset,
)
from inspector.zones.presets.editing import slots_of


def codes(preset) -> list[tuple[str, str, str | None]]:
    return [(d.code, d.severity, d.block_id) for d in preset.load_diagnostics]


def test_what_chatluna_reads_from_a_preset() -> None:
    preset = loads_preset("""
keywords: [a, b]
prompts:
  - role: system
    type: description
    content: "  \\u3000你好 \\n"
  - role: ai
    content: [{type: text, text: "x"}, {type: image_url, image_url: "u"}, {type: text, text: "y"}]
format_user_prompt: "{prompt}"
world_lores:
  - scanDepth: 3
  - keywords: 一
    content: c1
  - keywords: [二, 三]
    content: c2
    enabled: false
    order: 5
author_notes:
  content: note
version: 2
""")
    assert preset.load_diagnostics == ()
    assert preset.keywords == ("a", "b")
    first, second = preset.prompts
    assert (first.role, first.type, first.content) == ("system", "description", "你好")  # JS trim: U+3000 too
    assert (second.role, second.content, second.other_parts) == ("assistant", "xy", 1)
    assert preset.lore_settings.scan_depth == 3
    assert [(e.keywords, e.enabled, e.order) for e in preset.lore_entries] == [(("一",), True, 0), (("二", "三"), False, 5)]
    note = preset.authors_note
    assert (note.content, note.insert_position, note.insert_depth, note.insert_frequency, note.key) == \
        ("note", "in_chat", 0, 1, "author_notes")
    assert preset.version == "2"


def test_yaml_is_read_as_js_yaml_reads_it() -> None:
    preset = loads_preset("keywords: [on, no, yes]\nprompts:\n  - role: system\n    content: off\n")
    assert preset.load_diagnostics == ()
    assert preset.keywords == ("on", "no", "yes")
    assert preset.prompts[0].content == "off"


@pytest.mark.parametrize("text, expected", [
    ("prompts: []", [("preset-field", "error", "keywords")]),
    ("keywords: x\nprompts: []", [("preset-field", "error", "keywords")]),
    ("keywords: [x]", [("preset-field", "error", "prompts")]),
    ("keywords: [x]\nprompts: [{role: bot, content: hi}]", [("preset-field", "error", "prompts[0]")]),
    ("keywords: [x]\nprompts: [{role: user}]", [("preset-field", "error", "prompts[0]")]),
    ("keywords: [x]\nprompts: [{role: user, content: 5}]", [("preset-field", "error", "prompts[0]")]),
    ("keywords: [x]\nprompts: [{role: user, content: hi, typ: scenario}]",
     [("preset-unknown-key", "warning", "prompts[0]")]),
    ("keywords: [x]\nprompts: []\nformat_user_promt: '{prompt}'", [("preset-unknown-key", "warning", "top level")]),
    ("keywords: [x]\nprompts: []\nworld_lores: [{keywords: k, content: c, enabled: 'false'}]",
     [("preset-field", "error", "world_lores[0]")]),
    ("keywords: [x]\nprompts: []\nworld_lores: [{keywords: k, content: c, insertPosition: top}]",
     [("preset-field", "error", "world_lores[0]")]),
    ("keywords: [x]\nprompts: []\nworld_lores: [{keywords: k, content: c, insertPosition: after_scenario}]",
     [("preset-field", "warning", "world_lores[0]")]),
    ("keywords: [x]\nprompts: []\nworld_lores: [{keywords: k, content: c, scanDepth: -1}]",
     [("preset-field", "error", "world_lores[0]")]),
    ("keywords: [x]\nprompts: []\nworld_lores: [{keywords: k}]", [("preset-field", "error", "world_lores[0]")]),
    ("keywords: [x]\nprompts: []\nworld_lores: [{scanDepth: 1}, {scanDepth: 2}]",
     [("preset-field", "warning", "world_lores[1]")]),
    ("keywords: [x]\nprompts: []\nauthors_note: {content: n, insertPosition: top, insertDepth: 1.5}",
     [("preset-field", "error", "authors_note"), ("preset-field", "error", "authors_note")]),
    ("keywords: [x]\nprompts: []\nknowledge: {knowledge: 3}", [("preset-field", "error", "knowledge")]),
    ("keywords: [x]\nprompts: []\nconfig: {maxOutputToken: 0, loreBooksPrompt: 1}",
     [("preset-field", "error", "config"), ("preset-field", "error", "config")]),
])
def test_each_bad_field_is_one_diagnostic_naming_its_path(text, expected) -> None:
    preset = loads_preset(text, "p.yml")
    assert codes(preset) == expected
    for d in preset.load_diagnostics:
        assert d.block_id in d.message or d.block_id == "top level"


def test_a_message_says_what_chatluna_would_do() -> None:
    preset = loads_preset("keywords: [x]\nprompts: []\nworld_lores: [{keywords: k, content: c, enabled: 'false'}]")
    (d,) = preset.load_diagnostics
    assert d.message == ("world_lores[0].enabled must be true or false, found the string 'false' "
                         "(ChatLuna would not read it as false)")
    assert d.field == "enabled"


@pytest.mark.parametrize("text, message", [
    ("- a\n- b", "p.yml: a ChatLuna preset is a YAML mapping with 'keywords' and 'prompts', found a list"),
    ("keywords: [a\n", "p.yml: not valid YAML: "),
    ("a: &a [*a]", "p.yml: not valid YAML: the alias *a refers to the collection it is inside"),
])
def test_a_file_that_is_no_preset_is_one_clear_error(text, message) -> None:
    with pytest.raises(PresetError) as info:
        loads_preset(text, "p.yml")
    assert str(info.value).startswith(message)


@pytest.mark.parametrize("data, expected", [
    ({"keywords": ["a"], "prompts": []}, True),
    ({"prompts": []}, True),
    ({"keywords": ["a"]}, True),
    ({"blocks": [], "keywords": []}, False),
    ({"blocks": []}, False),
    ([], False),
])
def test_a_preset_is_recognised_by_its_content(data, expected) -> None:
    assert is_preset_data(data) is expected

_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=True), st.text(max_size=12),
                     st.sampled_from(["{name}", "{if x}", "{prompt}", "system", "user", "in_chat", "after_char_defs"]))
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(
        ["role", "content", "type", "keywords", "insertPosition", "scanDepth", "constant", "enabled", "order",
         "text", "insertDepth", "insertFrequency", "knowledge", "prompt", "loreBooksPrompt", "x"]), inner,
        max_size=5)), max_leaves=20)
_PRESETS = st.dictionaries(st.sampled_from(["keywords", "prompts", "format_user_prompt", "world_lores", "authors_note",
                                            "author_notes", "knowledge", "config", "version", "extra"]),
                           _VALUES, max_size=7)


@given(_PRESETS, st.text(max_size=10))
@settings(max_examples=300, deadline=None)
def test_any_data_loads_as_diagnostics_and_renders(data, user_input) -> None:
    preset = preset_from_data(copy.deepcopy(data), "p.yml")
    result = render_preset(preset, PresetOptions(input=user_input))
    slots = slots_of(preset, data)  # the editor's view of the same file lines up with what loaded
    assert [s.content for s in slots if s.kind == "prompt"] == [p.content for p in preset.prompts]
    assert result.messages[-1].source == "input"
    assert all(d.message for d in result.diagnostics)
