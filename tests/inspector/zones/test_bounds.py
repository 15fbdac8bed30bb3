"""Hostile input for the prompt-zones engine and its loaders: every one is bounded (a diagnostic, a
one-line message, or a budget), none raises, none hangs."""

from __future__ import annotations

import json

import pytest
import yaml

from inspector import safe_yaml
from inspector.writing_agent.scenario import ScenarioError, load_scenario
from inspector.zones import ConfigError, load_config, loads_config


def _bomb(levels: int, width: int = 9) -> str:
    text = "a: &a [" + ", ".join(['"lol"'] * width) + "]\n"
    prev = "a"
    for name in "bcdefghijklmnop"[:levels]:
        text += f"{name}: &{name} [" + ", ".join([f"*{prev}"] * width) + "]\n"
        prev = name
    return text


# --- YAML aliases --------------------------------------------------------------------------------

def test_alias_bomb_is_refused_while_composing():
    text = _bomb(8)  # 9**9 values once expanded, in well under 1 KB
    assert len(text.encode()) < 1024
    with pytest.raises(safe_yaml.AliasLimitError) as info:
        safe_yaml.load(text)
    assert "alias" in info.value.problem and info.value.problem_mark is not None
    assert isinstance(info.value, yaml.YAMLError)


def test_aliases_at_the_bound_load_and_past_it_do_not():
    # One anchor of n scalars aliased k times adds k * (n + 1) nodes.
    def doc(times: int, n: int = 999) -> str:
        return "a: &a [" + ", ".join(["1"] * n) + "]\nb: [" + ", ".join(["*a"] * times) + "]\n"

    at = safe_yaml.MAX_ALIAS_NODES // 1000
    assert len(safe_yaml.load(doc(at))["b"]) == at
    with pytest.raises(safe_yaml.AliasLimitError):
        safe_yaml.load(doc(at + 1))
    with pytest.raises(safe_yaml.AliasLimitError):
        safe_yaml.load(doc(at * 50))


def test_ordinary_aliases_and_merge_keys_still_load():
    data = safe_yaml.load("a: &x {b: 1}\nc: *x\nd:\n  <<: *x\n  e: 2\n")
    assert data == {"a": {"b": 1}, "c": {"b": 1}, "d": {"b": 1, "e": 2}}
    assert safe_yaml.load("") is None
    assert safe_yaml.load("[1, 2]") == yaml.safe_load("[1, 2]")


def test_recursive_alias_is_refused():
    with pytest.raises(safe_yaml.AliasLimitError) as info:
        safe_yaml.load("a: &a [1, *a]\n")
    assert "without end" in info.value.problem


def test_zones_loader_refuses_the_bomb_with_a_message(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(_bomb(8) + "blocks: []\n", encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert message.startswith(str(path)) and "alias" in message and "line" in message
    assert "\n" not in message
    with pytest.raises(ConfigError):
        loads_config("a: &a [*a]\n", "yaml")


def test_scenario_loader_refuses_the_bomb_with_a_message(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(_bomb(8), encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert str(path) in str(info.value) and "too large" in str(info.value)
