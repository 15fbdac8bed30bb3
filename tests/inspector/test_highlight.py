"""The prompt lexer: token classes the view styles, full coverage of any text, sentinel mapping."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from inspector.covel import markers
from inspector.highlight import SENTINEL_CHIP, display_text, spans, spans_utf16


def keys_of(text: str, language: str = "prompt") -> dict[str, str]:
    return {text[s:e]: k for s, e, k in spans(text, language)}


def test_prompt_constructs_get_their_own_keys() -> None:
    text = ("[RUNTIME] run {{user}} now\n<world-lore>\n# lore\n</world-lore>\n"
            + markers.SYSTEM_INSTRUCTION_OPEN + "be brief" + markers.SYSTEM_INSTRUCTION_CLOSE
            + "\nbefore" + markers.CACHE_SENTINEL + "after")
    keys = keys_of(text)
    assert keys["[RUNTIME]"] == "prefix"
    assert keys["{{user}}"] == "template"
    assert keys["<world-lore>"] == "tag"
    assert keys["</world-lore>"] == "tag"
    assert keys["<system-instruction>"] == "system-instruction"
    assert keys["</system-instruction>"] == "system-instruction"
    assert keys[markers.CACHE_SENTINEL] == "sentinel"


def test_prefix_only_at_line_start() -> None:
    keys = keys_of("see [RUNTIME] here")
    assert "prefix" not in keys.values()


def test_json_body_on_a_tag_line_is_lexed_as_json() -> None:
    text = '<runtime-inputs>{"guide": {"n": 3, "ok": true}}</runtime-inputs>'
    keys = keys_of(text)
    assert keys["<runtime-inputs>"] == "tag"
    assert keys["</runtime-inputs>"] == "tag"
    assert keys['"guide"'] == "json-key"
    assert keys["3"] == "json-number"
    assert keys["true"] == "json-constant"


def test_provider_body_json_marks_cache_control() -> None:
    text = '{"system": [{"text": "x", "cache_control": {"type": "ephemeral"}}]}'
    keys = keys_of(text, "json")
    assert keys['"cache_control"'] == "cache-control"
    assert keys['"ephemeral"'] == "json-string"
    assert keys['"system"'] == "json-key"


def test_chip_is_lexed_as_sentinel() -> None:
    shown = display_text("a" + markers.CACHE_SENTINEL + "b").display
    assert keys_of(shown)[SENTINEL_CHIP] == "sentinel"


def test_utf16_offsets_account_for_astral_characters() -> None:
    text = "😀<tag>"
    runs = spans_utf16(text)
    assert runs[-1] == (2, 7, "tag")


def test_display_text_maps_both_ways_and_copies_the_source() -> None:
    source = "ab" + markers.CACHE_SENTINEL + "cd" + markers.CACHE_SENTINEL
    d = display_text(source)
    assert d.display == "ab" + SENTINEL_CHIP + "cd" + SENTINEL_CHIP
    assert d.source_slice(0, len(d.display)) == source
    assert d.source_slice(2, 3) == markers.CACHE_SENTINEL  # part of a chip copies the sentinel
    assert d.display_to_source(len("ab" + SENTINEL_CHIP)) == len("ab" + markers.CACHE_SENTINEL)
    assert d.source_to_display(len(source)) == len(d.display)
    assert d.source_slice(len("ab" + SENTINEL_CHIP), len("ab" + SENTINEL_CHIP) + 2) == "cd"


_alphabet = st.sampled_from(list("ab <>/{}[]\n\":,1 ") + ["[RUNTIME]", "<runtime-inputs>", "</world-lore>",
                                                         markers.CACHE_SENTINEL, "{{x}}", "😀", "中",
                                                         markers.SYSTEM_INSTRUCTION_OPEN, "\ue000"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_alphabet, max_size=40).map("".join), st.sampled_from(["prompt", "json"]))
def test_spans_cover_text_without_overlap(text: str, language: str) -> None:
    runs = spans(text, language)
    pos = 0
    for start, end, key in runs:
        assert start == pos and end > start and isinstance(key, str)
        pos = end
    assert pos == len(text)


def test_a_translated_chip_maps_and_lexes_like_the_english_one() -> None:
    chip = "⟦缓存断点⟧"
    source = "ab" + markers.CACHE_SENTINEL + "cd"
    d = display_text(source, chip)
    assert d.display == "ab" + chip + "cd"
    assert d.display_to_source(len("ab" + chip)) == len("ab" + markers.CACHE_SENTINEL)
    assert d.source_to_display(len(source)) == len(d.display)
    assert d.source_slice(3, 4) == markers.CACHE_SENTINEL
    assert keys_of(d.display)[chip] == "sentinel"


@settings(max_examples=200, deadline=None)
@given(st.lists(_alphabet, max_size=30).map("".join), st.sampled_from([SENTINEL_CHIP, "⟦缓存断点⟧", "⟦x⟧"]))
def test_display_text_round_trips(text: str, chip: str) -> None:
    d = display_text(text, chip)
    assert d.source_slice(0, len(d.display)) == text
    assert markers.CACHE_SENTINEL not in d.display
