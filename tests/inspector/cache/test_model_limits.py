"""The context window and output ceiling of each model: the shipped ``[[model_limits]]`` rows,
their sources, a user's rows tried first, and the validation errors."""

from __future__ import annotations

import re
import tomllib

import pytest

from inspector.cache.model_limits import ModelLimits, match_limits, parse_model_limits
from inspector.cache.rules import DEFAULT_RULES_PATH, RulesError, default_rules, load_rules


def shipped_rows() -> list[dict]:
    return tomllib.loads(DEFAULT_RULES_PATH.read_text(encoding="utf-8"))["model_limits"]


# The numbers as the cited pages state them (checked 2026-12-02).
@pytest.mark.parametrize(("model", "window", "output", "in_window"), [
    ("claude-haiku-4-5", 200_000, 64_000, True),
    ("claude-haiku-4-5-20251001", 200_000, 64_000, True),
    ("claude-sonnet-4-5", 200_000, 64_000, True),
    ("claude-sonnet-5", 1_000_000, 128_000, True),
    ("gpt-5-mini", 400_000, 128_000, True),
    ("openai/gpt-5-nano", 400_000, 128_000, True),
    ("gemini-2.5-flash", 1_048_576, 65_536, False),
    ("gemini-2.5-flash-lite", 1_048_576, 65_536, False),
    ("deepseek-chat", 131_072, 8_192, True),
])
def test_shipped_numbers(model: str, window: int, output: int, in_window: bool) -> None:
    found = default_rules().limits_for(model)
    assert found is not None
    limits, _pattern = found
    assert (limits.context_window, limits.max_output_tokens, limits.output_in_window) == (window, output, in_window)


def test_gpt5_input_ceiling_is_below_its_window() -> None:
    limits, _ = default_rules().limits_for("gpt-5-nano")
    assert limits.max_input_tokens == 272_000 and limits.input_ceiling == 272_000
    claude, _ = default_rules().limits_for("claude-haiku-4-5")
    assert claude.max_input_tokens is None and claude.input_ceiling == 200_000


def test_every_shipped_row_names_a_source_url_and_a_day() -> None:
    rows = shipped_rows()
    assert rows
    for row in rows:
        assert "https://" in row["source"], row["match"]
        assert row["checked"] is not None


def test_every_model_the_demo_uses_is_known() -> None:
    # The demo's models (inspector.demo.runtimes): the budget bar shows a window for each.
    for model in ("claude-haiku-4-5", "claude-sonnet-4-5", "deepseek-chat", "gemini-2.5-flash",
                  "gemini-2.5-flash-lite", "gpt-5-mini", "gpt-5-nano"):
        assert default_rules().limits_for(model) is not None, model


def test_an_unknown_model_has_no_limits() -> None:
    rules = default_rules()
    assert rules.limits_for("llama-3-70b") is None
    assert rules.limits_for(None) is None
    assert rules.limits_for("") is None
    # The pattern is a glob on the whole id: a longer family name is not a match.
    assert rules.limits_for("deepseek-chat-v9") is None


def test_first_matching_row_wins() -> None:
    rows = parse_model_limits([
        {"match": ["gemini-2.5-flash-lite*"], "context_window": 10, "max_output_tokens": 5, "source": "a"},
        {"match": ["gemini-2.5-flash*"], "context_window": 20, "max_output_tokens": 5, "source": "b"},
    ])
    assert match_limits(rows, "gemini-2.5-flash-lite")[0].source == "a"
    assert match_limits(rows, "gemini-2.5-flash")[0].source == "b"
    assert match_limits(rows, "") is None


def test_a_user_file_row_comes_first(tmp_path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text('[[model_limits]]\nmatch = ["claude-haiku-4-5*"]\ncontext_window = 1000\n'
                    'max_output_tokens = 100\nsource = "my gateway\'s limit"\n\n'
                    '[[model_limits]]\nmatch = ["llama-3*"]\ncontext_window = 8192\n'
                    'max_output_tokens = 2048\nsource = "local"\n', encoding="utf-8")
    rules = load_rules(path, env={})
    assert rules.limits_for("claude-haiku-4-5")[0].context_window == 1000
    assert rules.limits_for("llama-3-8b")[0].context_window == 8192
    # The shipped rows still answer for the other models.
    assert rules.limits_for("deepseek-chat")[0].context_window == 131_072


@pytest.mark.parametrize(("row", "message"), [
    ({"context_window": 10, "max_output_tokens": 5, "source": "s"}, "model_limits[0].match"),
    ({"match": [], "context_window": 10, "max_output_tokens": 5, "source": "s"}, "model_limits[0].match"),
    ({"match": ["x"], "context_window": 0, "max_output_tokens": 5, "source": "s"}, "context_window"),
    ({"match": ["x"], "context_window": 10, "max_output_tokens": 5.5, "source": "s"}, "max_output_tokens"),
    ({"match": ["x"], "context_window": 10, "max_output_tokens": 50, "source": "s"}, "more than the context window"),
    ({"match": ["x"], "context_window": 10, "max_output_tokens": 5}, "source: missing"),
    ({"match": ["x"], "context_window": 10, "max_output_tokens": 5, "source": "s", "windw": 3}, "windw: unknown key"),
    ({"match": ["x"], "context_window": 10, "max_output_tokens": 5, "source": "s", "max_input_tokens": 11},
     "max_input_tokens"),
    ({"match": ["x"], "context_window": 10, "max_output_tokens": 5, "source": "s", "output_in_window": "no"},
     "output_in_window"),
    ({"match": ["x"], "context_window": 10, "max_output_tokens": 5, "source": "s", "checked": "yesterday"},
     "checked"),
])
def test_bad_rows_are_refused_with_the_key(row: dict, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_model_limits([row])


def test_a_bad_row_in_a_user_file_names_the_file(tmp_path) -> None:
    path = tmp_path / "rules.toml"
    path.write_text('[[model_limits]]\nmatch = ["x"]\ncontext_window = "big"\nmax_output_tokens = 1\nsource = "s"\n',
                    encoding="utf-8")
    with pytest.raises(RulesError, match=r"(?s)rules\.toml.*model_limits\[0\]\.context_window"):
        load_rules(path, env={})


def test_output_of_its_own_may_exceed_an_input_window() -> None:
    (row,) = parse_model_limits([{"match": ["g"], "context_window": 10, "max_output_tokens": 50,
                                  "output_in_window": False, "source": "s", "checked": "2026-12-02"}])
    assert isinstance(row, ModelLimits) and row.checked == "2026-12-02"
    assert row.to_json()["outputInWindow"] is False
