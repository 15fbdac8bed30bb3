"""What a request's input costs: the one formula for the cache analysis and the turn stepper.

A provider bills input tokens at the model's price (``input_price_per_mtok``, US dollars per
million tokens), tokens read from the cache at ``read_multiplier`` times it, and tokens written to
the cache at the write multiplier of the entry's TTL option (``write_multiplier_for``; Anthropic's
1-hour entries cost more to write than 5-minute ones). Every function gives None when the rules
have no price for the model.
"""

from __future__ import annotations

from inspector.cache.rules import CacheRules

__all__ = ["PER_MILLION", "input_cost_usd", "missed_savings_usd", "reported_uncached_cost_usd",
           "uncached_cost_usd", "write_ttl_option"]

PER_MILLION = 1e6  # prices are per million tokens
_DIGITS = 8  # a pair's costs are rounded to this many decimals of a dollar


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


def uncached_cost_usd(rules: CacheRules, uncached_tokens: int, written_tokens: int,
                      write_ttl: str | None) -> float | None:
    """The predicted cost of what is not read from the cache: the uncached tokens at the input
    price, plus the premium of what is written over it (explicit caching only writes;
    ``written_tokens`` is 0 elsewhere)."""
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
