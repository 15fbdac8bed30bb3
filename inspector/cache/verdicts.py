"""The provider's own verdict on a cache miss beside ours, and how sure ours is.

*The provider's verdict*: Anthropic's cache diagnostics report why a cache was missed
(``usage.cache_miss_reason.type``, with ``cache_missed_input_tokens``; provider-caching.md §3.1,
read from the response usage by :func:`inspector.store.records.token_usage`). Where it exists it
replaces "unexplained" (reason ``provider-reported``); where it names a cause our reason does not
fit, the pair says the verdicts disagree.

*Confidence*: the token counts of Claude, Gemini and DeepSeek are proxies (``proxy`` provenance,
:func:`inspector.cache.pairs.token_provenance`), and Anthropic's 5-minute expiry is measured
between 300 and 420 s; the bands are the rules table's data (``proxy_token_error``,
``expiry_grace_seconds``, with their evidence in ``resources/provider_rules.toml``). A verdict that depends on a count within the proxy's error band of the
minimum or of the first granularity step, or on a gap within the expiry's grace band, is
``uncertain``. An uncertain pair is never called "unexplained": the band it falls in is itself a
sufficient cause for the miss, so it gets the reason of that band (``below-minimum``) with
confidence ``uncertain``, and its detail says so. The reasons that do not depend on a count or
a gap (where the difference lies, a model change, a cold start) are always ``certain``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from inspector import wording
from inspector.cache.rules import CacheRules

__all__ = ["CONFIDENCES", "PROVIDER_MISS_REASONS", "Verdict", "first_step", "judge"]


CONFIDENCES = ("certain", "uncertain")

# Anthropic's cache_miss_reason types (issue 22; the cache-diagnostics beta of 13 May 2026,
# provider-caching.md §3.1), each with the reasons of ours that say the same thing.
PROVIDER_MISS_REASONS: dict[str, frozenset[str]] = {
    # The entry the request looked for was not there: never written, gone, or evicted.
    "previous_message_not_found": frozenset({"cold-start", "expired", "below-minimum", "turn-context"}),
    "model_changed": frozenset({"model-changed"}),
    "messages_changed": frozenset({"history-rewritten", "turn-context", "options-changed"}),
    "tools_changed": frozenset({"tools-changed", "options-changed"}),
    "system_changed": frozenset({"system-changed", "options-changed"}),
    # The provider's cache was out of service: nothing of ours can say that.
    "unavailable": frozenset(),
}

# The reasons whose verdict rests on a token count or a gap; the others name where the
# requests differ and hold whatever the counts are.
_COUNTED = frozenset({"below-minimum", "expired", "turn-context", "unexplained"})


@dataclass(slots=True, frozen=True)
class Verdict:
    reason: str
    reason_detail: str
    confidence: str
    provider_miss_reason: str | None
    provider_missed_tokens: int | None
    verdicts_disagree: bool


def _near(count: int, threshold: int, error: float) -> bool:
    return threshold > 0 and abs(count - threshold) <= error * threshold


def first_step(rules: CacheRules) -> int | None:
    """The smallest cached count the granularity gives at or above the minimum (None when it
    counts the prefix as it is)."""
    step = rules.step_tokens if rules.granularity == "step" else rules.unit_tokens if rules.granularity == "units" else None
    if not step:
        return None
    return math.ceil(rules.min_cacheable_tokens / step) * step


def _bands(rules: CacheRules, provenance: str, shared: int, predicted: int, gap: float | None,
           ttl: float | None) -> list[str]:
    """What makes the verdict uncertain, in words; empty when it is certain."""
    found: list[str] = []
    error = rules.proxy_token_error
    if provenance == "proxy" and error:
        band = {"error": f"{error:.0%}", "tokenizer": rules.tokenizer}
        counts = [shared] + ([predicted] if predicted > 0 else [])
        minimum = rules.min_cacheable_tokens
        near = [c for c in counts if _near(c, minimum, error)]
        if near:
            found.append(wording.NEAR_MINIMUM.format(count=near[0], minimum=minimum, **band))
        step = first_step(rules)
        if step is not None and step != minimum:
            near = [c for c in counts if _near(c, step, error)]
            if near:
                found.append(wording.NEAR_FIRST_STEP.format(count=near[0], step=step, **band))
    grace = rules.expiry_grace_seconds
    if grace is not None and gap is not None and ttl is not None and ttl == rules.ttl_seconds and ttl < gap <= ttl + grace:
        found.append(wording.WITHIN_GRACE.format(gap=f"{gap:g}", grace=f"{grace:g}", ttl=f"{ttl:g}",
                                                 family=rules.family))
    return found


def judge(rules: CacheRules, provenance: str, reason: str, detail: str, shared: int, predicted: int,
          gap: float | None, ttl: float | None, miss_reason: str | None, missed_tokens: int | None) -> Verdict:
    """Our reason beside the provider's (``miss_reason``), with its confidence."""
    if miss_reason is not None:
        counted = missed_tokens is not None
        said = {"reason": miss_reason, "missed": missed_tokens}
        if reason == "unexplained":
            template = wording.PROVIDER_REPORTS_MISSED if counted else wording.PROVIDER_REPORTS
            return Verdict("provider-reported", template.format(detail=detail.rstrip("; "), **said),
                           "certain", miss_reason, missed_tokens, False)
        agreeing = PROVIDER_MISS_REASONS.get(miss_reason, frozenset())
        if reason not in agreeing:
            template = wording.PROVIDER_DISAGREES_MISSED if counted else wording.PROVIDER_DISAGREES
            return Verdict(reason, f"{detail}; {template.format(**said)}", "certain", miss_reason, missed_tokens, True)
        template = wording.PROVIDER_AGREES_MISSED if counted else wording.PROVIDER_AGREES
        return Verdict(reason, f"{detail}; {template.format(**said)}", "certain", miss_reason, missed_tokens, False)
    if reason not in _COUNTED:
        return Verdict(reason, detail, "certain", None, None, False)
    bands = _bands(rules, provenance, shared, predicted, gap, ttl)
    if not bands:
        return Verdict(reason, detail, "certain", None, None, False)
    why = "; ".join(bands)
    if reason == "unexplained":
        return Verdict("below-minimum", wording.UNCERTAIN_NOT_UNEXPLAINED.format(
            why=why, predicted=predicted, detail=detail.rstrip("; ")), "uncertain", None, None, False)
    return Verdict(reason, f"{detail}; {wording.UNCERTAIN.format(why=why)}", "uncertain", None, None, False)
