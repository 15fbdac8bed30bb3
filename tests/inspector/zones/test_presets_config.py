"""Zones-config settings added for issue 20: the template dialect, and the plain environment form."""

from __future__ import annotations

import pytest

from inspector.zones.config import DIALECTS, ConfigError, dump_config, from_data, loads_config, to_data


def test_the_dialect_defaults_to_v2_doc_and_is_not_written_when_default() -> None:
    cfg = from_data({})
    assert cfg.settings.dialect == "v2-doc" == DIALECTS[0]
    assert "settings" not in to_data(cfg)


@pytest.mark.parametrize("fmt", ["json", "yaml", "toml"])
def test_the_chatluna_renderer_dialect_is_read_and_written_back(fmt) -> None:
    cfg = from_data({"settings": {"dialect": "chatluna-renderer"}})
    assert cfg.settings.dialect == "chatluna-renderer"
    assert to_data(cfg)["settings"] == {"dialect": "chatluna-renderer"}
    again = loads_config(dump_config(cfg, fmt), fmt)
    assert again.settings.dialect == "chatluna-renderer"


@pytest.mark.parametrize("value, found", [("chatluna", "found 'chatluna'"), (2, "found the number 2")])
def test_an_unknown_dialect_names_the_choices(value, found) -> None:
    with pytest.raises(ConfigError) as info:
        from_data({"settings": {"dialect": value}}, "c.json")
    message = str(info.value)
    assert message.startswith("c.json: settings: 'dialect' must be ")
    assert found in message
    if isinstance(value, str):
        assert "v2-doc, chatluna-renderer" in message


def test_a_plain_environment_mapping_is_the_base_environment() -> None:
    cfg = from_data({"environment": {"platform": "qq", "guild": {"name": "G"}}})
    env = cfg.environment
    assert env.base == {"platform": "qq", "guild": {"name": "G"}}
    assert env.turns == [] and env.contributors == []


def test_the_per_turn_form_is_unchanged() -> None:
    cfg = from_data({"environment": {"base": {"platform": "qq"}, "turns": [{"platform": "discord"}],
                                     "contributors": [{"id": "c", "patch": {"x": 1}}]}})
    env = cfg.environment
    assert env.base == {"platform": "qq"}
    assert env.turns == [{"platform": "discord"}]
    assert [c.id for c in env.contributors] == ["c"]
    assert to_data(cfg)["environment"]["base"] == {"platform": "qq"}


@pytest.mark.parametrize("environment", [
    {"platform": "qq", "turns": [{"platform": "discord"}]},
    {"base": {"a": 1}, "platform": "qq"},
    {"contributors": [], "guild": {}},
])
def test_mixing_the_two_forms_is_one_clear_error(environment) -> None:
    with pytest.raises(ConfigError) as info:
        from_data({"environment": environment}, "c.yaml")
    message = str(info.value)
    assert message.startswith("c.yaml: environment: mixes the plain form (key ")
    assert "put plain values under 'base'" in message


@pytest.mark.parametrize("fmt", ["json", "yaml", "toml"])
def test_a_plain_environment_is_saved_plain_and_reads_back(fmt) -> None:
    cfg = from_data({"environment": {"platform": "qq", "guild": {"name": "群"}}})
    text = dump_config(cfg, fmt)
    assert "base" not in text
    again = loads_config(text, fmt)
    assert again.environment.base == {"platform": "qq", "guild": {"name": "群"}}
    assert to_data(again) == to_data(cfg)


def test_a_plain_environment_given_turns_in_the_editor_is_saved_in_the_per_turn_form() -> None:
    cfg = from_data({"environment": {"platform": "qq"}})
    cfg.environment.turns.append({"platform": "discord"})
    data = to_data(cfg)
    assert data["environment"] == {"base": {"platform": "qq"}, "turns": [{"platform": "discord"}]}
    assert from_data(data).environment.turns == [{"platform": "discord"}]


def test_an_empty_environment_is_empty_in_either_form() -> None:
    assert from_data({"environment": {}}).environment.base == {}
    assert "environment" not in to_data(from_data({"environment": {}}))
