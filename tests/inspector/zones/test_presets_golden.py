"""The built-in functions and the real presets against what koishi-plugin-chatluna 1.3.36 renders
(tests/inspector/zones/preset_cases.json, recorded by make_preset_cases.mjs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.zones.presets import PresetCache, PresetOptions, load_preset, render_preset
from inspector.zones.presets.functions import Builtins, parse_now
from inspector.zones.renderer import render_template

HERE = Path(__file__).parent
CASES = json.loads((HERE / "preset_cases.json").read_text(encoding="utf-8"))
OFFSETS = {"UTC": "+00:00", "Asia/Shanghai": "+08:00"}


def _now(time_zone: str) -> str:
    """The recorded clock, written in the recorded zone's offset (the zone our clock plays)."""
    instant = parse_now(CASES["clock"])
    offset = OFFSETS[time_zone]
    hours = int(offset[1:3]) * (1 if offset[0] == "+" else -1)
    from datetime import timedelta, timezone

    return instant.astimezone(timezone(timedelta(hours=hours))).isoformat()


@pytest.mark.parametrize("case", CASES["function_cases"], ids=lambda c: c["name"])
def test_every_builtin_function_renders_what_chatluna_renders(case) -> None:
    builtins = Builtins(parse_now(_now(case["time_zone"])), random_values=tuple(CASES["random_values"]))
    out = render_template(case["source"], case["variables"], builtins.providers())
    assert out.text == case["text"]
    if "url(" in case["source"]:
        # Recorded with url unregistered (it fetches); ours renders "" the same and says why.
        assert [n.code for n in builtins.notes] == ["network-function"]
    else:
        assert not [n for n in builtins.notes if n.code == "network-function"]


@pytest.mark.parametrize("case", CASES["presets"], ids=lambda c: f"{c['file']}@{c['time_zone']}")
def test_the_real_presets_render_as_in_chatluna(case) -> None:
    preset = load_preset(HERE / "chatluna_presets" / case["file"])
    assert preset.load_diagnostics == ()
    variables = dict(case["variables"])
    user_input = variables.pop("prompt")
    options = PresetOptions(input=user_input, variables=variables, now=_now(case["time_zone"]),
                            random_values=tuple(CASES["random_values"]))
    result = render_preset(preset, options, PresetCache())
    prompts = [m for m in result.messages if m.source == "prompt"]
    assert [(m.role, m.type) for m in prompts] == [(m["role"], m["type"]) for m in case["messages"]]
    assert [p.content for p in preset.prompts] == [m["source"] for m in case["messages"]]
    assert [m.content for m in prompts] == [m["text"] for m in case["messages"]]
    assert [list(r.variables) for r in result.prompts] == [m["variables_read"] for m in case["messages"]]
    expected_input = case["format_user_prompt"]["text"] if case["format_user_prompt"] else user_input
    assert result.formatted_input == expected_input
    assert result.messages[-1].content == expected_input and result.messages[-1].source == "input"
    assert not [d for d in result.diagnostics if d.severity == "error"]
