"""One cost formula (inspector.cache.pricing): a request's input from its reported usage, each kind
of token at its rate with the write multiplier of the entry's TTL, and the costs a pair carries."""

from __future__ import annotations

import dataclasses

import pytest

from inspector.cache.analysis import analyse_store
from inspector.cache.layout import breakpoint_ttls
from inspector.cache.pricing import (
    input_cost_usd,
    missed_savings_usd,
    reported_uncached_cost_usd,
    uncached_cost_usd,
    write_ttl_option,
)
from inspector.cache.rules import default_rules
from inspector.store import open_store
from inspector.wire.protocols import ANTHROPIC_MESSAGES


@pytest.fixture(scope="module")
def claude():
    return default_rules().resolve("anthropic", ANTHROPIC_MESSAGES, "claude-sonnet-4-5")


def test_each_kind_of_input_token_is_billed_at_its_rate(claude):
    price = claude.input_price_per_mtok
    assert price is not None
    cost = input_cost_usd(claude, 10_000, 6_000, 1_000, None)
    expected = (3_000 + 6_000 * claude.read_multiplier + 1_000 * claude.write_multiplier) * price / 1e6
    assert cost == pytest.approx(expected)


def test_the_write_is_priced_by_its_ttl_option(claude):
    assert claude.write_multipliers, "the rules give Anthropic's longer TTL its own write price"
    option, multiplier = max(claude.write_multipliers.items(), key=lambda item: item[1])
    assert multiplier != claude.write_multiplier
    longer = input_cost_usd(claude, 1_000, 0, 1_000, option)
    assert longer == pytest.approx(1_000 * multiplier * claude.input_price_per_mtok / 1e6)
    assert longer != input_cost_usd(claude, 1_000, 0, 1_000, None)
    # An option the rules do not know is priced as the default write.
    assert input_cost_usd(claude, 1_000, 0, 1_000, "no-such-ttl") == input_cost_usd(claude, 1_000, 0, 1_000, None)


def test_no_price_no_cost(claude):
    free = dataclasses.replace(claude, input_price_per_mtok=None)
    assert input_cost_usd(free, 10, 0, 0, None) is None
    assert uncached_cost_usd(free, 10, 0, None) is None
    assert missed_savings_usd(free, 10, 0) is None
    assert reported_uncached_cost_usd(free, 10, 0) is None
    assert reported_uncached_cost_usd(claude, None, 3) is None and reported_uncached_cost_usd(claude, 10, None) is None


def test_the_write_ttl_is_the_last_breakpoints():
    body = {"system": [{"type": "text", "text": "a", "cache_control": {"type": "ephemeral", "ttl": "1h"}}],
            "messages": [{"role": "user", "content": [{"type": "text", "text": "b",
                                                       "cache_control": {"type": "ephemeral"}}]}]}
    assert write_ttl_option(breakpoint_ttls(ANTHROPIC_MESSAGES, body)) is None
    body["messages"][0]["content"][0]["cache_control"]["ttl"] = "1h"
    assert write_ttl_option(breakpoint_ttls(ANTHROPIC_MESSAGES, body)) == "1h"
    assert write_ttl_option([]) is None


def test_a_pairs_costs_are_the_formulas(demo_store):
    with open_store(demo_store) as store:
        analyses = analyse_store(store)
    priced = 0
    for analysis in analyses:
        for pair in analysis.pairs:
            rules = pair.rules
            assert pair.missed_savings_usd == missed_savings_usd(rules, pair.shared_tokens, pair.predicted_cached_tokens)
            assert pair.reported_uncached_cost_usd == reported_uncached_cost_usd(
                rules, pair.reported_input_tokens, pair.reported_cached_tokens)
            if pair.predicted_cache_write_tokens == 0:
                assert pair.uncached_cost_usd == uncached_cost_usd(rules, pair.uncached_tokens, 0, None)
            priced += pair.uncached_cost_usd is not None
    assert priced
