"""A rules file's errors in the locale's language: English by default, Chinese in a Chinese
session, with the keys and values of the file as written (issue 19, item 5)."""

from __future__ import annotations

import re

import pytest

from inspector.cache.cache_keys import parse_cache_keys
from inspector.cache.model_limits import parse_model_limits
from inspector.cache.rules import RulesError, load_rules

_CJK = re.compile("[\u4e00-\u9fff]")

BAD_SHAPES = """schema = 99
default_family = 3
famlies = 1
[families.x]
mode = "explicit"
granularity = "step"
min_cacheable_tokens = -1
tokenizer = "nope"
ttl_secs = 4
[[families.x.models]]
ttl_seconds = 1
[[model_limits]]
match = []
context_window = 0
[[cache_keys.options]]
field = "x"
"""

MISSING_KEYS = """default_family = "nowhere"
[families.y]
mode = "explicit"
granularity = "step"
overflow_requests_per_minute = 3
[families.z]
mode = "automatic"
granularity = "breakpoints"
"""


def _errors(tmp_path, text: str) -> list[str]:
    path = tmp_path / "rules.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesError) as info:
        load_rules(path)
    head, *lines = str(info.value).split("\n")
    return [head, *(line.removeprefix("  ") for line in lines)]


def test_a_rules_file_is_explained_in_english_by_default(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("PROMPT_INSPECTOR_LANG", "en")
    assert _errors(tmp_path, BAD_SHAPES) == [
        f"{tmp_path / 'rules.toml'}: invalid rules:",
        "famlies: unknown key; did you mean 'families'?",
        "schema: this version reads schema 1, the file says 99",
        "default_family: expected a string, got 3",
        "cache_keys.options[0]: field (a string) and protocols (a list) are required",
        "model_limits[0].match: expected a non-empty list of glob patterns, got []",
        "families.x.min_cacheable_tokens: expected a whole number, 0 or more, got -1",
        "families.x.tokenizer: expected one of o200k_base, cl100k_base, got 'nope'",
        "families.x.ttl_secs: unknown key; did you mean 'ttl_seconds'?",
        "families.x.models[0].match: missing (a list of glob patterns on the model id)",
    ]
    lines = _errors(tmp_path, MISSING_KEYS)
    assert lines[7:12] == [
        'families.y.step_tokens: missing (needed by granularity "step")',
        'families.y.max_breakpoints: missing (needed by mode "explicit")',
        'families.y.lookback_blocks: missing (needed by mode "explicit")',
        "families.y.granularity: mode \"explicit\" needs granularity \"breakpoints\", got 'step'",
        "families.y.routing_prefix_tokens: missing (needed by overflow_requests_per_minute)",
    ]
    assert lines[-1] == "… and 7 more"


def test_a_rules_file_is_explained_in_chinese_in_a_chinese_session(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("PROMPT_INSPECTOR_LANG", "zh_CN")
    shapes, missing = _errors(tmp_path, BAD_SHAPES), _errors(tmp_path, MISSING_KEYS)
    for line in shapes + missing:
        assert _CJK.search(line), line
    # The file's own keys and values stay as written.
    (tokenizer,) = [line for line in shapes if line.startswith("families.x.tokenizer")]
    assert "o200k_base, cl100k_base" in tokenizer and "'nope'" in tokenizer
    assert missing[-1] == "……还有 7 条"
    limits = [[{"match": ["a"], "context_window": 10, "max_output_tokens": 20, "source": "s"}],
              [{"match": ["a"], "context_window": 10, "max_output_tokens": 5, "max_input_tokens": 20, "source": "s"}],
              [{"match": ["a"], "context_window": 10, "max_output_tokens": 5, "output_in_window": 1}],
              [{"match": ["a"], "context_window": 10, "max_output_tokens": 5}],
              [{"match": ["a"], "context_window": 10, "max_output_tokens": 5, "source": "s", "checked": "x"}],
              [{"match": ["a"], "context_window": 10, "max_output_tokens": 5, "source": "s", "notes": 1}],
              [{"mtch": 1}], [3], 3]
    keys = [{"x": 1}, {"options": 3}, {"options": [{"y": 1}]}, {"options": [{"field": "f"}]},
            {"options": [{"field": "f", "protocols": ["p"], "drops": ["nope"]}]}]
    messages = []
    for rows in limits:
        with pytest.raises(ValueError) as info:
            parse_model_limits(rows)
        messages.append(str(info.value))
    for section in keys:
        with pytest.raises(ValueError) as info:
            parse_cache_keys(section)
        messages.append(str(info.value))
    assert len(messages) == 14
    for message in messages:
        assert _CJK.search(message), message
    assert messages[0].startswith("model_limits[0].max_output_tokens") and "20" in messages[0] and "10" in messages[0]
