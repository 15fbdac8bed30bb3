"""What a session's analysed pairs add up to: tokens, the shared prefix, predicted and reported
cached tokens. One function for the totals a view shows while pairs arrive and after a follow
update merged new ones, so both give the same numbers; the shared share of one pair, which
colours the cache table; and the input's cost in its four billing classes (:class:`CostClasses`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from inspector.cache.pricing import COST_CLASSES, cost_class_tokens, cost_classes_usd

if TYPE_CHECKING:
    from inspector.cache.results import CachePair
    from inspector.cache.rules import CacheRules


@dataclass(slots=True)
class SessionTotals:
    pairs: int = 0
    total_tokens: int = 0
    shared_tokens: int = 0
    predicted_cached_tokens: int = 0
    reported_cached_tokens: int = 0
    reported_pairs: int = 0  # pairs whose response recorded a cached count

    def add(self, pairs: Iterable[CachePair]) -> None:
        """Count ``pairs`` in (the pairs of a batch, as they arrive)."""
        for p in pairs:
            self.pairs += 1
            self.total_tokens += p.total_tokens
            self.shared_tokens += p.shared_tokens
            self.predicted_cached_tokens += p.predicted_cached_tokens
            if p.reported_cached_tokens is not None:
                self.reported_cached_tokens += p.reported_cached_tokens
                self.reported_pairs += 1

    @property
    def shared_share(self) -> float:
        """The shared prefix as a share of all tokens (0 with no tokens)."""
        return self.shared_tokens / self.total_tokens if self.total_tokens else 0.0


def session_totals(pairs: Iterable[CachePair]) -> SessionTotals:
    totals = SessionTotals()
    totals.add(pairs)
    return totals


def shared_share(pair: CachePair) -> float:
    """The shared prefix as a share of the request's tokens (0 for an empty request)."""
    return pair.shared_tokens / pair.total_tokens if pair.total_tokens else 0.0


_CLASS_KEYS = ("uncachedInput", "cacheRead", "write5m", "write1h")


@dataclass(slots=True)
class CostClasses:
    """The input of priced requests by billing class (:data:`~inspector.cache.pricing.COST_CLASSES`):
    tokens and US dollars of each."""

    requests: int = 0
    tokens: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    usd: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0, 0.0])

    def add(self, rules: CacheRules, input_tokens: int, cached_tokens: int, written_tokens: int,
            write_ttl: str | None) -> None:
        """One request's input (``input_tokens`` includes its reads and writes); unpriced ones are
        left out."""
        costs = cost_classes_usd(rules, input_tokens, cached_tokens, written_tokens, write_ttl)
        if costs is None:
            return
        self.requests += 1
        counts = cost_class_tokens(rules, input_tokens, cached_tokens, written_tokens, write_ttl)
        for i in range(4):
            self.tokens[i] += counts[i]
            self.usd[i] += costs[i]

    def merge(self, other: CostClasses) -> None:
        """Add another's counts in (a session's runtimes into the session)."""
        self.requests += other.requests
        for i in range(4):
            self.tokens[i] += other.tokens[i]
            self.usd[i] += other.usd[i]

    @property
    def priced(self) -> bool:
        return self.requests > 0

    @property
    def total_usd(self) -> float:
        return sum(self.usd)

    def rows(self) -> list[tuple[str, int, float]]:
        """(class name, tokens, USD) in :data:`COST_CLASSES` order."""
        return [(COST_CLASSES[i], self.tokens[i], self.usd[i]) for i in range(4)]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"requests": self.requests}
        for key, (_, tokens, usd) in zip(_CLASS_KEYS, self.rows()):
            out[f"{key}Tokens"] = tokens
            out[f"{key}Usd"] = round(usd, 6)
        out["totalUsd"] = round(self.total_usd, 6)
        return out


def session_cost_classes(findings: Iterable[Any]) -> CostClasses:
    """A session's cost classes: the sum of its runtimes' ``cost-classes`` findings."""
    total = CostClasses()
    for f in findings:
        if f.kind == "cost-classes" and f.example is not None:
            part = CostClasses(f.example["requests"],
                               [f.example[f"{k}Tokens"] for k in _CLASS_KEYS],
                               [f.example[f"{k}Usd"] for k in _CLASS_KEYS])
            total.merge(part)
    return total
