"""What a turn did, counted once: runtimes by status, calls and retries, tokens, the input cost,
tool effects, the player's message and the story. The stepper's summary panel only formats it.

The cost prices each call's reported usage with the cache analysis's own formula
(:func:`inspector.cache.pricing.input_cost_usd`): uncached input at the list price, cache reads
at the read multiplier, cache writes at the write multiplier of the TTL the request asked for
(:func:`inspector.cache.pricing.write_ttl_option` over
:func:`inspector.cache.layout.breakpoint_ttls`: its last breakpoint's).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.cache.layout import breakpoint_ttls
from inspector.cache.pricing import input_cost_usd, write_ttl_option
from inspector.cache.rules import RuleSet, default_rules
from inspector.wire.parse import provider_attempts

from .model import ModelCall, Turn

__all__ = ["ToolEffect", "TurnSummary", "call_input_cost_usd", "summarize", "write_ttl"]


@dataclass(slots=True)
class ToolEffect:
    runtime_id: str | None
    name: str | None
    status: str
    input: Any
    output: Any
    error: Any


@dataclass(slots=True)
class TurnSummary:
    """What a turn did, counted once for the summary panel (and the tests).

    ``ran`` counts runtimes that executed in this turn (every status except skipped and deferred);
    ``failed``/``skipped``/``deferred``/``suspended`` count by status. Token sums cover the calls
    that reported usage; ``input_cost_usd`` prices their input with the shipped provider rules
    (:func:`call_input_cost_usd`) and is None when no call's model has a price;
    ``unpriced_calls`` says how many calls it leaves out.
    """

    runtimes: int = 0
    ran: int = 0
    succeeded: int = 0
    failed: int = 0
    skipped: int = 0
    deferred: int = 0
    suspended: int = 0
    calls: int = 0
    retries: int = 0
    input_tokens: int = 0
    cached_tokens: int = 0
    cache_write_tokens: int = 0
    output_tokens: int = 0
    input_cost_usd: float | None = None
    unpriced_calls: int = 0
    story: str = ""
    player: str = ""
    tools: list[ToolEffect] = field(default_factory=list)
    failures: list[tuple[str, str]] = field(default_factory=list)  # runtime id, error or reason


def write_ttl(payload: Any) -> str | None:
    """The ``cache_control.ttl`` option that prices the write of the request an ``llm.calling``
    payload recorded: its last breakpoint's, in the first recorded provider body (the body the
    cache analysis reads)."""
    for attempt in provider_attempts(payload):
        if attempt.body is not None:
            return write_ttl_option(breakpoint_ttls(attempt.protocol, attempt.body))
    return None


def call_input_cost_usd(call: ModelCall, rules: RuleSet | None = None) -> float | None:
    """:func:`input_cost_usd` of a model call's reported usage, with the rules of its provider,
    protocol and model; None when it reported no usage or its model has no price."""
    usage = call.usage
    if usage is None:
        return None
    table = rules if rules is not None else default_rules()
    call_rules = table.resolve(call.provider, call.protocol, call.model, call.started_at)  # priced on its own day
    if call_rules.input_price_per_mtok is None:
        return None
    return input_cost_usd(call_rules, usage.input_tokens or 0, usage.cached_input_tokens or 0,
                          usage.cache_write_input_tokens or 0,
                          write_ttl(call.call.calling.payload))


def summarize(turn: Turn, rules: RuleSet | None = None) -> TurnSummary:
    s = TurnSummary()
    table = rules if rules is not None else default_rules()
    priced = False
    cost = 0.0
    for runtime in turn.runtimes():
        s.runtimes += 1
        status = runtime.status or ""
        if status not in ("skipped", "deferred"):
            s.ran += 1
        if runtime.succeeded:
            s.succeeded += 1
        elif status == "failed":
            s.failed += 1
            s.failures.append((runtime.runtime_id or "?", runtime.error or ""))
        elif status == "skipped":
            s.skipped += 1
            s.failures.append((runtime.runtime_id or "?", runtime.reason or ""))
        elif status == "deferred":
            s.deferred += 1
        elif status == "suspended":
            s.suspended += 1
        for call in runtime.calls:
            s.calls += 1
            if call.attempt > 0:
                s.retries += 1
            usage = call.usage
            if usage is None:
                continue
            s.input_tokens += usage.input_tokens or 0
            s.cached_tokens += usage.cached_input_tokens or 0
            s.cache_write_tokens += usage.cache_write_input_tokens or 0
            s.output_tokens += usage.output_tokens or 0
            call_cost = call_input_cost_usd(call, table)
            if call_cost is None:
                s.unpriced_calls += 1
                continue
            priced = True
            cost += call_cost
        for tool in runtime.tools:
            s.tools.append(ToolEffect(runtime.runtime_id, tool.name, tool.status, tool.input, tool.output, tool.error))
    s.input_cost_usd = cost if priced else None
    s.story = "\n\n".join(m.content or "" for m in turn.committed.story).strip()
    s.player = "\n".join(m.content or "" for m in turn.committed.player).strip()
    return s
