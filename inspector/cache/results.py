"""What the cache analysis gives: a compared request (:class:`CachePair`), a layout problem
(:class:`Finding`), a runtime's totals (:class:`RuntimeSummary`), a session's analysis
(:class:`CacheAnalysis`), and their JSON.
"""

from __future__ import annotations

import dataclasses
import operator
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from inspector.cache.rules import CacheRules, over_routing_limit

__all__ = ["FINDING_KINDS", "KINDS", "REASONS", "REGIONS", "WORKER_FAILED", "CacheAnalysis", "CachePair",
           "Finding", "RuntimeSummary", "copy_summary", "js_number"]


KINDS = ("turn", "tool-loop")

# The analysis's note when its worker process failed and it finished alone: true of that run only
# (inspector.cache.kept does not keep an analysis holding it).
WORKER_FAILED = "the analysis's worker process failed"


REASONS = (
    "cold-start",
    "expired",
    "model-changed",
    "tools-changed",
    "system-changed",
    "history-rewritten",
    "turn-context",
    "below-minimum",
    "options-changed",
    "provider-reported",
    "unexplained",
)


# Where the first difference lies, in hash order; "end" when one request is a prefix of the other.
REGIONS = ("tools", "settings", "system", "history", "turn-context", "end")


FINDING_KINDS = (
    "turn-volatile-system-text",
    "too-many-breakpoints",
    "breakpoint-on-volatile-content",
    "data-blocks-last",
    "sliding-history-window",
    "moving-history-insertion",
    "wasted-breakpoint",
    "dead-cache-writes",
    "one-hour-ttl-pays",
    "cost-classes",
)


def js_number(value: float | int | None) -> float | int | None:
    """A whole number as an int, so JSON shows ``3600`` as JavaScript would, not ``3600.0``."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


@dataclass(slots=True)
class CachePair:
    """One compared request: the current call and the one its prefix is measured against."""

    session_id: str
    runtime_id: str | None
    turn_id: str
    previous_turn_id: str | None
    event_id: str
    previous_event_id: str | None
    kind: str
    step: int
    attempt: int
    model: str | None
    provider: str | None
    protocol: str | None
    started_at: str | None
    rules: CacheRules
    token_provenance: str
    shared_chars: int
    total_chars: int
    shared_tokens: int
    total_tokens: int
    first_difference: str
    region: str
    offset: int
    was: str | None
    now: str | None
    predicted_cached_tokens: int
    predicted_cache_write_tokens: int
    reported_cached_tokens: int | None
    reported_cache_write_tokens: int | None
    reported_input_tokens: int | None
    gap_seconds: float | None
    ttl_seconds: float | None
    reason: str
    reason_detail: str
    breakpoints: int
    uncached_tokens: int
    uncached_cost_usd: float | None
    reported_uncached_cost_usd: float | None
    missed_savings_usd: float | None
    # Requests sent with this one's route (model, cache key, first tokens) in the minute up to it,
    # it included; None where the rules do not route by prefix (provider-caching §3.2).
    routing_rate: int | None = None
    # How sure the reason is, and the provider's own verdict beside it (inspector.cache.verdicts).
    confidence: str = "certain"
    provider_miss_reason: str | None = None
    provider_missed_tokens: int | None = None
    verdicts_disagree: bool = False

    @property
    def routing_over_limit(self) -> bool:
        """More requests went on its route in its minute than one machine takes: some of them
        may have gone to machines without the cache."""
        return over_routing_limit(self.rules, self.routing_rate)

    def __reduce__(self) -> tuple[type[CachePair], tuple]:
        # The worker process sends thousands of pairs (inspector.cache.worker): pickled as their values in
        # field order, they take half the time of the dataclass default, which looks the fields
        # up again for every pair, each way.
        return CachePair, _pair_values(self)

    def to_json(self) -> dict[str, Any]:
        return {
            "sessionId": self.session_id,
            "runtimeId": self.runtime_id,
            "turnId": self.turn_id,
            "previousTurnId": self.previous_turn_id,
            "eventId": self.event_id,
            "previousEventId": self.previous_event_id,
            "kind": self.kind,
            "step": self.step,
            "attempt": self.attempt,
            "model": self.model,
            "provider": self.provider,
            "protocol": self.protocol,
            "startedAt": self.started_at,
            "rules": self.rules.source,
            "tokenizer": self.rules.tokenizer,
            "tokenProvenance": self.token_provenance,
            "sharedChars": self.shared_chars,
            "totalChars": self.total_chars,
            "sharedTokens": self.shared_tokens,
            "totalTokens": self.total_tokens,
            "firstDifference": self.first_difference,
            "region": self.region,
            "offset": self.offset,
            "predictedCachedTokens": self.predicted_cached_tokens,
            "predictedCacheWriteTokens": self.predicted_cache_write_tokens,
            "reportedCachedTokens": self.reported_cached_tokens,
            "reportedCacheWriteTokens": self.reported_cache_write_tokens,
            "reportedInputTokens": self.reported_input_tokens,
            "gapSeconds": js_number(self.gap_seconds),
            "ttlSeconds": js_number(self.ttl_seconds),
            "reason": self.reason,
            "reasonDetail": self.reason_detail,
            "confidence": self.confidence,
            "providerMissReason": self.provider_miss_reason,
            "providerMissedTokens": self.provider_missed_tokens,
            "verdictsDisagree": self.verdicts_disagree,
            "breakpoints": self.breakpoints,
            "uncachedTokens": self.uncached_tokens,
            "inputPricePerMTok": js_number(self.rules.input_price_per_mtok),
            "uncachedCostUsd": js_number(self.uncached_cost_usd),
            "reportedUncachedCostUsd": js_number(self.reported_uncached_cost_usd),
            "missedSavingsUsd": js_number(self.missed_savings_usd),
            "routingRate": self.routing_rate,
        }


_pair_values = operator.attrgetter(*(f.name for f in dataclasses.fields(CachePair)))


@dataclass(slots=True)
class Finding:
    """A layout problem in how Covel assembled a runtime's requests, with the part it concerns."""

    kind: str
    severity: str  # "warning" or "info"
    session_id: str
    runtime_id: str | None
    part: str
    count: int
    out_of: int
    turn_ids: list[str]
    message: str
    example: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "severity": self.severity,
            "sessionId": self.session_id,
            "runtimeId": self.runtime_id,
            "part": self.part,
            "count": self.count,
            "outOf": self.out_of,
            "turnIds": self.turn_ids,
            "message": self.message,
            "example": self.example,
        }


@dataclass(slots=True)
class RuntimeSummary:
    session_id: str
    runtime_id: str | None
    pairs: int = 0
    turns: int = 0
    total_tokens: int = 0
    shared_tokens: int = 0
    predicted_cached_tokens: int = 0
    reported_cached_tokens: int = 0
    reported_pairs: int = 0
    uncached_cost_usd: float = 0.0
    reported_uncached_cost_usd: float = 0.0
    missed_savings_usd: float = 0.0
    priced: bool = False
    reasons: Counter = field(default_factory=Counter)

    def add(self, pair: CachePair) -> None:
        self.pairs += 1
        if pair.kind == "turn":
            self.turns += 1
        self.total_tokens += pair.total_tokens
        self.shared_tokens += pair.shared_tokens
        self.predicted_cached_tokens += pair.predicted_cached_tokens
        if pair.reported_cached_tokens is not None:
            self.reported_pairs += 1
            self.reported_cached_tokens += pair.reported_cached_tokens
        if pair.uncached_cost_usd is not None:
            self.priced = True
            self.uncached_cost_usd += pair.uncached_cost_usd
            self.missed_savings_usd += pair.missed_savings_usd or 0.0
        if pair.reported_uncached_cost_usd is not None:
            self.reported_uncached_cost_usd += pair.reported_uncached_cost_usd
        self.reasons[pair.reason] += 1

    def to_json(self) -> dict[str, Any]:
        return {
            "sessionId": self.session_id,
            "runtimeId": self.runtime_id,
            "pairs": self.pairs,
            "turns": self.turns,
            "totalTokens": self.total_tokens,
            "sharedTokens": self.shared_tokens,
            "predictedCachedTokens": self.predicted_cached_tokens,
            "reportedCachedTokens": self.reported_cached_tokens if self.reported_pairs else None,
            "uncachedCostUsd": js_number(round(self.uncached_cost_usd, 6)) if self.priced else None,
            "reportedUncachedCostUsd": js_number(round(self.reported_uncached_cost_usd, 6)) if self.priced else None,
            "missedSavingsUsd": js_number(round(self.missed_savings_usd, 6)) if self.priced else None,
            "reasons": dict(self.reasons),
        }


@dataclass(slots=True)
class CacheAnalysis:
    session_id: str
    pairs: list[CachePair]
    findings: list[Finding]
    summaries: list[RuntimeSummary]
    warnings: list[str]

    def to_json(self) -> dict[str, Any]:
        return {
            "sessionId": self.session_id,
            "pairs": [p.to_json() for p in self.pairs],
            "findings": [f.to_json() for f in self.findings],
            "runtimes": [s.to_json() for s in self.summaries],
            "warnings": list(self.warnings),
        }


def copy_summary(summary: RuntimeSummary) -> RuntimeSummary:
    copied = dataclasses.replace(summary)
    copied.reasons = Counter(summary.reasons)
    return copied
