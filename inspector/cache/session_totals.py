"""What a session's analysed pairs add up to: tokens, the shared prefix, predicted and reported
cached tokens. One function for the totals a view shows while pairs arrive and after a follow
update merged new ones, so both give the same numbers; and the shared share of one pair, which
colours the cache table."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from inspector.cache.results import CachePair


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
