"""What a request's input costs: the one formula for the cache analysis and the turn stepper.

A provider bills input tokens at the model's price (``input_price_per_mtok``, US dollars per
million tokens), tokens read from the cache at ``read_multiplier`` times it, and tokens written to
the cache at the write multiplier of the entry's TTL option (``write_multiplier_for``; Anthropic's
1-hour entries cost more to write than 5-minute ones). Every function gives None when the rules
have no price for the model.
"""

from __future__ import annotations

from inspector.cache.rules import CacheRules

__all__ = ["COST_CLASSES", "LONG_TTL_OPTION", "PER_MILLION", "SHORT_TTL_OPTION", "cost_class_tokens", "cost_classes_usd",
           "input_cost_usd", "keep_alive_break_even_seconds", "missed_savings_usd", "reported_uncached_cost_usd",
           "reuse_cost_tokens", "uncached_cost_usd", "write_ttl_option"]

PER_MILLION = 1e6  # prices are per million tokens
_DIGITS = 8  # a pair's costs are rounded to this many decimals of a dollar

# The four classes a request's input is billed in, in the order :func:`cost_classes_usd` gives them.
COST_CLASSES = ("uncached input", "cache read", "5-minute write", "1-hour write")
# The ``cache_control.ttl`` options of the short (default) and the long cache entry.
SHORT_TTL_OPTION = "5m"
LONG_TTL_OPTION = "1h"


def write_ttl_option(breakpoint_ttls: list[str | None]) -> str | None:
    """The ``cache_control.ttl`` option that prices a request's write: that of its last
    breakpoint in render order (None: no breakpoint, or one without the option)."""
    return breakpoint_ttls[-1] if breakpoint_ttls else None


def input_cost_usd(rules: CacheRules, input_tokens: int, cached_tokens: int, written_tokens: int,
                   write_ttl: str | None) -> float | None:
    """The input cost of a request from its reported usage (``input_tokens`` includes the cache
    reads and writes): each kind of token at its own rate."""
    price = rules.input_price_per_mtok
    if price is None:
        return None
    plain = max(0, input_tokens - cached_tokens - written_tokens)
    return (plain + cached_tokens * rules.read_multiplier
            + written_tokens * rules.write_multiplier_for(write_ttl)) * price / PER_MILLION


def cost_class_tokens(rules: CacheRules, input_tokens: int, cached_tokens: int, written_tokens: int,
                      write_ttl: str | None) -> tuple[int, int, int, int]:
    """A request's input tokens in :data:`COST_CLASSES`: the plain input, the cache reads, and the
    write in the 5-minute or the 1-hour class (a write whose entry outlives the short option's)."""
    plain = max(0, input_tokens - cached_tokens - written_tokens)
    long_write = rules.ttl_for(write_ttl) > rules.ttl_for(SHORT_TTL_OPTION)
    return (plain, cached_tokens, 0 if long_write else written_tokens, written_tokens if long_write else 0)


def cost_classes_usd(rules: CacheRules, input_tokens: int, cached_tokens: int, written_tokens: int,
                     write_ttl: str | None) -> tuple[float, float, float, float] | None:
    """:func:`input_cost_usd` split into :data:`COST_CLASSES` (the tokens of
    :func:`cost_class_tokens`, each class at its rate)."""
    price = rules.input_price_per_mtok
    if price is None:
        return None
    plain, cached, short_write, long_write = cost_class_tokens(rules, input_tokens, cached_tokens,
                                                               written_tokens, write_ttl)
    write = rules.write_multiplier_for(write_ttl)
    return (plain * price / PER_MILLION, cached * rules.read_multiplier * price / PER_MILLION,
            short_write * write * price / PER_MILLION, long_write * write * price / PER_MILLION)


def reuse_cost_tokens(rules: CacheRules, reused_tokens: int, new_tokens: int, gap_seconds: float | None,
                      write_ttl: str | None) -> float:
    """What a request's cached part costs, in input-token equivalents, had its entries the TTL
    option ``write_ttl``: the prefix it shares with the request before read when the gap is within
    that TTL (rewritten otherwise), and its new cached tokens written."""
    write = rules.write_multiplier_for(write_ttl)
    kept = gap_seconds is not None and gap_seconds <= rules.ttl_for(write_ttl)
    return reused_tokens * (rules.read_multiplier if kept else write) + new_tokens * write


def keep_alive_break_even_seconds(rules: CacheRules) -> float | None:
    """The longest idle gap for which keep-alive requests (one reading the cached prefix each time
    the short TTL is about to run out) cost less than writing the prefix again after it: the TTL
    times the write over the read multiplier (None without a read price)."""
    if rules.read_multiplier <= 0:
        return None
    return rules.ttl_for(SHORT_TTL_OPTION) * rules.write_multiplier_for(SHORT_TTL_OPTION) / rules.read_multiplier


def uncached_cost_usd(rules: CacheRules, uncached_tokens: int, written_tokens: int,
                      write_ttl: str | None) -> float | None:
    """The predicted cost of what is not read from the cache: the uncached tokens at the input
    price, plus the premium of what is written over it (Anthropic's explicit caching and OpenAI's
    breakpoints, GPT-5.6 and later, write; ``written_tokens`` is 0 elsewhere)."""
    price = rules.input_price_per_mtok
    if price is None:
        return None
    premium = written_tokens * (rules.write_multiplier_for(write_ttl) - 1.0) if written_tokens else 0.0
    return round((uncached_tokens + max(0.0, premium)) * price / PER_MILLION, _DIGITS)


def missed_savings_usd(rules: CacheRules, shared_tokens: int, predicted_cached_tokens: int) -> float | None:
    """What the shared prefix would have saved had all of it been read from the cache."""
    price = rules.input_price_per_mtok
    if price is None:
        return None
    return round(max(0, shared_tokens - predicted_cached_tokens) * price * (1 - rules.read_multiplier) / PER_MILLION,
                 _DIGITS)


def reported_uncached_cost_usd(rules: CacheRules, reported_input_tokens: int | None,
                               reported_cached_tokens: int | None) -> float | None:
    """The cost of the input the provider reports it did not read from the cache."""
    price = rules.input_price_per_mtok
    if price is None or reported_input_tokens is None or reported_cached_tokens is None:
        return None
    return round(max(0, reported_input_tokens - reported_cached_tokens) * price / PER_MILLION, _DIGITS)
