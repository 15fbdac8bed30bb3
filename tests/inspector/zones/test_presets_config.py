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
