"""The cache analysis as a CI gate: which pairs a build fails on (``--fail-on REASON,…``), and
whether the uncached share of the input is over a limit (``--fail-over PERCENT``).

The share counts, pair by pair, the provider's own usage where the store recorded it (reported
input tokens less reported cached tokens) and the analysis's prediction otherwise (the pair's
tokens less the predicted cached tokens): a recorded store is judged by what was billed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from inspector.cache.results import REASONS, CacheAnalysis, CachePair

__all__ = ["GATE_MAX_LINES", "GateError", "GateResult", "evaluate_gate", "parse_fail_on", "parse_fail_over",
           "pair_input_tokens"]

# The failing pairs printed one a line, at most this many: a CI log stays readable on a big store.
GATE_MAX_LINES = 20


class GateError(ValueError):
    """A gate argument that cannot be used: an unknown reason, a percent outside 0–100."""


def parse_fail_on(text: str) -> tuple[str, ...]:
    """``REASON[,REASON…]`` as the reasons it names, each one of :data:`REASONS`."""
    names = tuple(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    if not names:
        raise GateError(f"--fail-on needs at least one reason, one of: {', '.join(REASONS)}")
    unknown = [n for n in names if n not in REASONS]
    if unknown:
        raise GateError(f"--fail-on: unknown reason {', '.join(repr(n) for n in unknown)}; "
                        f"the reasons are: {', '.join(REASONS)}")
    return names


def parse_fail_over(text: str) -> float:
    """``PERCENT`` as a number from 0 to 100 (a trailing ``%`` allowed)."""
    raw = text.strip().removesuffix("%").strip()
    try:
        value = float(raw)
    except ValueError:
        raise GateError(f"--fail-over: {text!r} is not a percent (a number from 0 to 100)") from None
    if not 0.0 <= value <= 100.0:  # NaN fails this too
        raise GateError(f"--fail-over: {text!r} is outside 0–100")
    return value


def pair_input_tokens(pair: CachePair) -> tuple[int, int]:
    """The pair's input tokens and how many of them were not read from the cache: the provider's
    counts where recorded, the prediction otherwise."""
    if pair.reported_input_tokens is not None and pair.reported_cached_tokens is not None:
        return pair.reported_input_tokens, max(0, pair.reported_input_tokens - pair.reported_cached_tokens)
    return pair.total_tokens, pair.uncached_tokens


@dataclass(slots=True)
class GateResult:
    pairs: int = 0
    input_tokens: int = 0
    uncached_tokens: int = 0
    matching: list[CachePair] = field(default_factory=list)
    fail_over: float | None = None

    @property
    def evaluated(self) -> bool:
        return self.pairs > 0

    @property
    def uncached_percent(self) -> float:
        return 100.0 * self.uncached_tokens / self.input_tokens if self.input_tokens else 0.0

    @property
    def over(self) -> bool:
        return self.fail_over is not None and self.input_tokens > 0 and self.uncached_percent > self.fail_over

    @property
    def failed(self) -> bool:
        return bool(self.matching) or self.over

    def lines(self) -> list[str]:
        """What failed, one line each, the pairs bounded by :data:`GATE_MAX_LINES`."""
        out = [f"fail-on: session {p.session_id} runtime {p.runtime_id or '-'} turn {p.turn_id} "
               f"event {p.event_id} ({p.kind}): {p.reason}" for p in self.matching[:GATE_MAX_LINES]]
        if len(self.matching) > GATE_MAX_LINES:
            out.append(f"fail-on: … and {len(self.matching) - GATE_MAX_LINES} more pairs")
        if self.over:
            out.append(f"fail-over: {self.uncached_percent:.1f} % of {self.input_tokens} input tokens in "
                       f"{self.pairs} pairs were not read from the cache, over {self.fail_over:g} %")
        return out


def evaluate_gate(analyses: Iterable[CacheAnalysis], fail_on: Sequence[str] = (),
                  fail_over: float | None = None) -> GateResult:
    """The gate over every pair of ``analyses``."""
    wanted = frozenset(fail_on)
    result = GateResult(fail_over=fail_over)
    for analysis in analyses:
        for pair in analysis.pairs:
            result.pairs += 1
            tokens, uncached = pair_input_tokens(pair)
            result.input_tokens += tokens
            result.uncached_tokens += uncached
            if pair.reason in wanted:
                result.matching.append(pair)
    return result
