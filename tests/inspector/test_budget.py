"""The context budget: input against the window, requested output against the ceiling, the
fields a body asks for its output in, and a demo request's budget."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from inspector import views
from inspector.budget import (
    INPUT_OVER_INPUT_LIMIT, INPUT_OVER_WINDOW, OUTPUT_OVER_MODEL_MAX, TOTAL_OVER_WINDOW, context_budget,
    request_budget, requested_output_tokens,
)
from inspector.cache.model_limits import ModelLimits

CLAUDE = ModelLimits(("claude-x*",), 200_000, 64_000, True, "https://example.test", "2026-12-02")
GPT = ModelLimits(("gpt-x*",), 400_000, 128_000, True, "https://example.test", None, max_input_tokens=272_000)
GEMINI = ModelLimits(("gemini-x*",), 1_048_576, 65_536, False, "https://example.test", None)


def budget(limits, tokens, output):
    return context_budget("m", tokens, "counted", output, "max_tokens", None if limits is None else (limits, "p"))


@pytest.mark.parametrize(("sampling", "expected"), [
    ({"max_tokens": 2048}, (2048, "max_tokens")),
    ({"max_completion_tokens": 900, "max_tokens": 2048}, (900, "max_completion_tokens")),
    ({"max_output_tokens": 4096.0}, (4096, "max_output_tokens")),
    ({"generationConfig": {"maxOutputTokens": 512, "temperature": 1}}, (512, "generationConfig.maxOutputTokens")),
    ({"maxOutputTokens": 300}, (300, "maxOutputTokens")),
    ({"max_tokens": "lots"}, (None, None)),
    ({"max_tokens": 1.5}, (None, None)),
    ({"max_tokens": True}, (None, None)),
    ({"temperature": 0.7}, (None, None)),
    ({}, (None, None)),
    (None, (None, None)),
])
def test_requested_output_fields(sampling, expected) -> None:
    assert requested_output_tokens(sampling) == expected


def test_within_budget() -> None:
    b = budget(CLAUDE, 150_000, 8_000)
    assert b.known and b.problems == ()
    assert b.reserved_output == 8_000
    assert b.free == 42_000
    assert b.input_share == pytest.approx(0.75) and b.output_share == pytest.approx(0.04)


def test_input_and_output_over_the_window() -> None:
    b = budget(CLAUDE, 195_000, 8_000)
    assert b.problems == (TOTAL_OVER_WINDOW,)
    assert b.free == -3_000


def test_input_alone_over_the_window() -> None:
    assert budget(CLAUDE, 210_000, 1_000).problems == (INPUT_OVER_WINDOW,)


def test_output_over_the_model_ceiling() -> None:
    assert budget(CLAUDE, 1_000, 100_000).problems == (OUTPUT_OVER_MODEL_MAX,)


def test_input_over_the_input_ceiling_but_within_the_window() -> None:
    assert budget(GPT, 300_000, 1_000).problems == (INPUT_OVER_INPUT_LIMIT,)


def test_output_of_its_own_reserves_nothing_in_the_window() -> None:
    b = budget(GEMINI, 1_000_000, 65_536)
    assert b.problems == () and b.reserved_output == 0 and b.free == 48_576


def test_no_requested_output_reserves_nothing() -> None:
    b = context_budget("m", 1_000, "reported", None, None, (CLAUDE, "claude-x*"))
    assert b.reserved_output == 0 and b.free == 199_000 and b.problems == ()


def test_unknown_model_has_no_budget() -> None:
    b = budget(None, 1_000, 2_000)
    assert not b.known
    assert b.window is None and b.free is None and b.input_share is None and b.problems == ()
    assert b.to_json()["known"] is False and b.to_json()["limits"] is None


@given(st.integers(0, 2_000_000), st.one_of(st.none(), st.integers(0, 300_000)))
def test_free_plus_used_is_the_window(tokens: int, output: int | None) -> None:
    b = budget(CLAUDE, tokens, output)
    assert b.free + b.input_tokens + b.reserved_output == CLAUDE.context_window
    assert (b.free < 0) == bool({INPUT_OVER_WINDOW, TOTAL_OVER_WINDOW} & set(b.problems))


def test_a_demo_request_budget(tmp_path: Path) -> None:
    from inspector.demo import generate_demo
    from inspector.store import open_store

    db = tmp_path / "covel.db"
    generate_demo(db, turns=2, overwrite=True)
    with open_store(db) as store:
        rows = views.request_rows(store)
        haiku = next(r for r in rows if r["model"] == "claude-haiku-4-5")
        detail = views.request_detail(store, haiku["eventId"])
        b = request_budget(detail)
    assert b.known and b.window == 200_000 and b.pattern == "claude-haiku-4-5*"
    assert b.input_source == "reported" and b.input_tokens == haiku["inputTokens"]
    assert b.requested_output == detail.request.sampling["max_tokens"] and b.output_field == "max_tokens"
    assert b.to_json()["limits"]["source"].startswith("https://platform.claude.com/")
