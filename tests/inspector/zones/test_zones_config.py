"""Config files: the same sample in JSON, YAML and TOML, clear errors, atomic saves."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from inspector.zones.config import (
    Block,
    ConfigError,
    PromptConfig,
    Variable,
    dump_config,
    from_data,
    load_config,
    loads_config,
    sample_path,
    save_config,
    to_data,
)


def test_the_sample_is_the_same_in_all_three_formats() -> None:
    configs = [load_config(sample_path(fmt)) for fmt in ("json", "yaml", "toml")]
    assert to_data(configs[0]) == to_data(configs[1]) == to_data(configs[2])
    sample = configs[0]
    zones = {b.zone for b in sample.blocks}
    assert zones == {"system", "context", "input"}
    purposes = {b.purpose for b in sample.blocks}
    assert {"safety", "tools", "world-book", "examples"} <= purposes
    names = {v.name for v in sample.variables}
    assert {"time", "guild_name", "speaker"} <= names


def test_values_per_turn_and_the_fallbacks() -> None:
    cfg = from_data({"variables": [
        {"name": "a", "values": ["t0", "t1"]},
        {"name": "b", "values": [["x", "y"]]},
        {"name": "c", "values": "same"},
        {"name": "d", "env": "guild.name", "example": "ignored"},
        {"name": "e", "example": 5},
        {"name": "f"},
    ]})
    a, b, c, d, e, f = cfg.variables
    assert [a.value_at(t)[1] for t in range(4)] == ["t0", "t1", "t1", "t1"]
    assert b.value_at(3) == (True, ["x", "y"])
    assert c.value_at(9) == (True, "same")
    assert d.value_at(0, {"guild": {"name": "G"}}) == (True, "G")
    assert d.value_at(0, {"guild": {}})[0] is False
    assert e.value_at(2) == (True, 5)
    assert f.value_at(0)[0] is False
    assert a.varies() and not b.varies() and not c.varies()


@pytest.mark.parametrize("data, message", [
    ({"blocks": [{"zone": "system"}]}, "blocks[0]: 'id' is required"),
    ({"blocks": [{"id": "x", "zone": "sys"}]}, "blocks[0] (id 'x'): 'zone' must be one of system, context, input"),
    ({"blocks": [{"id": "x", "zone": "system", "order": "high"}]}, "'order' must be a number, found the string 'high'"),
    ({"blocks": [{"id": "x", "zone": "system", "role": "tool"}]}, "'role' must be one of system, user, assistant"),
    ({"blocks": [{"id": "x", "zone": "system", "templte": True}]}, "unknown key 'templte'"),
    ({"blocks": [{"id": "x", "zone": "system", "purpose": "fun"}]}, "'purpose' must be one of identity"),
    ({"variables": [{"name": "a b"}]}, "'name' must be a word"),
    ({"variables": [{"name": "a", "zones": ["sky"]}]}, "'zones' lists 'sky'"),
    ({"variables": [{"name": "a"}, {"name": "a"}]}, "variables[1]: variable 'a' is declared twice"),
    ({"variables": [{"name": "a", "args": [3]}]}, "variables[0] ('a').args[0]"),
    ({"environment": {"contributors": [{"id": "c", "failTurns": "2"}]}}, "'failTurns' must be a list"),
    ({"settings": {"inputMode": "all"}}, "'inputMode' must be one of chain, first, last"),
    ({"settings": {"loopCap": -1}}, "'loopCap' must be a whole number >= 0"),
    ({"blocks": {}}, "blocks: expected a list"),
    ([], "top level: expected a table/object, found a list"),
])
def test_bad_fields_are_named(data, message) -> None:
    with pytest.raises(ConfigError) as info:
        from_data(data, "cfg.json")
    assert message in str(info.value) and str(info.value).startswith("cfg.json: ")


def test_syntax_errors_name_the_place(tmp_path) -> None:
    cases = {"a.json": '{"blocks": [}', "a.yaml": "blocks: [\n  - id: x\n  zone", "a.toml": "x = 1\nblocks = [1 2]\n"}
    expected = {"a.json": "not valid JSON", "a.yaml": "not valid YAML", "a.toml": "not valid TOML"}
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        with pytest.raises(ConfigError) as info:
            load_config(path)
        assert expected[name] in str(info.value) and "line" in str(info.value)
    with pytest.raises(ConfigError, match="no such file"):
        load_config(tmp_path / "missing.json")
    with pytest.raises(ConfigError, match="unknown config format '.txt'"):
        load_config(tmp_path / "x.txt")
    bad = tmp_path / "latin.json"
    bad.write_bytes(b'{"sampleInput": "\xe9"}')
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_config(bad)


def test_empty_yaml_is_an_empty_config() -> None:
    assert loads_config("", "yaml").blocks == []


def test_save_is_atomic_and_keeps_a_backup(tmp_path) -> None:
    cfg = load_config(sample_path("json"))
    target = tmp_path / "mine.toml"
    save_config(cfg, target)
    assert to_data(load_config(target)) == to_data(cfg)
    assert not (tmp_path / "mine.toml.bak").exists()
    cfg.blocks[0].content = "changed"
    save_config(cfg, target)
    assert load_config(target).blocks[0].content == "changed"
    backup = (tmp_path / "mine.toml.bak").read_text(encoding="utf-8")
    assert "changed" not in backup and "你是 {character_name}" in backup
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_toml_cannot_hold_a_null_in_a_list() -> None:
    cfg = PromptConfig(variables=[Variable("v", values=["a", None])])
    with pytest.raises(ConfigError, match="TOML has no null"):
        dump_config(cfg, "toml")
    assert json.loads(dump_config(cfg, "json"))["variables"][0]["values"] == ["a", None]


_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
_VALUE = st.recursive(st.one_of(st.booleans(), st.integers(-10**6, 10**6), _TEXT),
                      lambda inner: st.one_of(st.lists(inner, max_size=3),
                                              st.dictionaries(_TEXT, inner, max_size=3)), max_leaves=6)


@settings(max_examples=120, deadline=None)
@given(content=_TEXT, order=st.integers(-400, 400), value=_VALUE, fmt=st.sampled_from(["json", "yaml", "toml"]))
def test_every_format_round_trips(content, order, value, fmt) -> None:
    cfg = PromptConfig(blocks=[Block("b:1", "system", content, order, template=True)],
                       variables=[Variable("v", example=value, values=[value, value])])
    again = loads_config(dump_config(cfg, fmt), fmt)
    assert to_data(again) == to_data(cfg)


# --- input no parser should turn into a traceback ----------------------------------------------

@pytest.mark.parametrize("name, text", [
    ("deep.json", "[" * 100_000 + "]" * 100_000),
    ("deep.yaml", "[" * 10_000 + "]" * 10_000),
    ("deep.toml", "a = " + "[" * 10_000 + "]" * 10_000),
    # Accepted by each parser, but nested past what a config value needs.
    ("nested.json", '{"environment": {"base": ' + '{"a": ' * 500 + "1" + "}" * 500 + "}}"),
    ("bigint.json", '{"sampleInput": ' + "7" * 5000 + "}"),
    ("bigint.yaml", "sampleInput: " + "7" * 5000 + "\n"),
    ("bigint.toml", "sampleInput = " + "7" * 5000 + "\n"),
])
def test_pathological_files_give_one_clear_message(tmp_path, name, text) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ") and "\n" not in message and "sys." not in message


def test_a_file_over_the_size_limit_is_refused_before_reading(tmp_path, monkeypatch) -> None:
    from inspector.zones import config as config_module

    monkeypatch.setattr(config_module, "MAX_CONFIG_BYTES", 64)
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"sampleInput": "x" * 100}), encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    size = path.stat().st_size
    assert str(info.value) == f"{path}: the file is {size} bytes; a config may be at most 64 bytes"
