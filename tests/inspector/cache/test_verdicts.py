"""The provider's verdict beside ours, and every pair's confidence (inspector.cache.verdicts)."""

from __future__ import annotations

import dataclasses

import pytest
from test_cache_analysis import CC, Db, T, analyse, block, claude, msg, rules_for

from inspector.cache.report import PAIR_COLUMNS, pairs_csv
from inspector.cache.verdicts import PROVIDER_MISS_REASONS, first_step, judge
from inspector.store.records import token_usage

ANTHROPIC = {"provider": "anthropic", "protocol": "anthropic-messages-v1"}


@pytest.fixture
def db(tmp_path):
    return Db(tmp_path / "covel.db")


def pair_with_usage(db, extra, *, system2=None, gap=10.0, n=1200):
    prev = claude([block(T(n), CC)], [msg("user", "hello")])
    cur = claude([block(system2 or T(n), CC)], [msg("user", "hello"), msg("assistant", "hi"), msg("user", "next")])
    db.call("s", "t1", "narrator/main", prev, at=0, **ANTHROPIC)
    db.call("s", "t2", "narrator/main", cur, at=gap, cached=0, usage_extra=extra, **ANTHROPIC)
    return analyse(db.done())


@pytest.mark.parametrize("kind", sorted(PROVIDER_MISS_REASONS))
def test_each_provider_miss_reason_is_read_and_replaces_unexplained(db, kind):
    analysis = pair_with_usage(db, {"cache_miss_reason": {"type": kind}, "cache_missed_input_tokens": 1200})
    pair = analysis.pairs[1]
    assert pair.predicted_cached_tokens == 1200 and pair.reported_cached_tokens == 0
    assert pair.reason == "provider-reported"
    assert pair.provider_miss_reason == kind and pair.provider_missed_tokens == 1200
    assert f"the provider reports the miss: {kind}, 1200 input tokens missed" in pair.reason_detail
    assert not pair.verdicts_disagree and pair.confidence == "certain"
    data = pair.to_json()
    assert data["providerMissReason"] == kind and data["providerMissedTokens"] == 1200
    assert list(data)[list(data).index("reasonDetail") + 1:][:4] == [
        "confidence", "providerMissReason", "providerMissedTokens", "verdictsDisagree"]
    assert f",{kind},1200,false," in pairs_csv([analysis]).splitlines()[2]


def test_without_the_providers_verdict_it_stays_unexplained(db):
    pair = pair_with_usage(db, {}).pairs[1]
    assert pair.reason == "unexplained" and pair.provider_miss_reason is None and pair.confidence == "certain"


def test_covel_camel_case_usage_and_a_bare_string_are_read():
    usage = token_usage({"inputTokens": 5, "cacheMissReason": "tools_changed", "cacheMissedInputTokens": 3.0})
    assert (usage.cache_miss_reason, usage.cache_missed_input_tokens) == ("tools_changed", 3)
    usage = token_usage({"cacheMissReason": {"type": "model_changed"}, "cache_missed_input_tokens": 7})
    assert (usage.cache_miss_reason, usage.cache_missed_input_tokens) == ("model_changed", 7)
    assert token_usage({"cacheMissReason": {"type": ""}}).cache_miss_reason is None


def test_a_disagreement_is_shown_and_our_reason_kept(db):
    pair = pair_with_usage(db, {"cache_miss_reason": {"type": "model_changed"}}, system2=T(1199) + " x").pairs[1]
    assert pair.reason == "system-changed"
    assert pair.verdicts_disagree and pair.provider_miss_reason == "model_changed"
    assert "the provider disagrees: it reports model_changed" in pair.reason_detail
    assert pair.to_json()["verdictsDisagree"] is True


def test_an_agreement_is_said_and_not_a_disagreement(db):
    pair = pair_with_usage(db, {"cache_miss_reason": {"type": "system_changed"}}, system2=T(1199) + " x").pairs[1]
    assert pair.reason == "system-changed" and not pair.verdicts_disagree
    assert "the provider agrees: system_changed" in pair.reason_detail


# --- confidence: each band's edges -----------------------------------------------------------------

SONNET = rules_for("anthropic", "claude-sonnet-4-5")  # minimum 1024, proxy counts
PROXY_TOKEN_ERROR = SONNET.proxy_token_error
LOW = int(1024 * (1 - PROXY_TOKEN_ERROR)) + 1  # the first count inside the band below the minimum
HIGH = int(1024 * (1 + PROXY_TOKEN_ERROR))  # the last inside above it


def verdict(reason, shared, predicted=0, *, rules=SONNET, provenance="proxy", gap=10.0, ttl=300.0):
    return judge(rules, provenance, reason, "our detail", shared, predicted, gap, ttl, None, None)


@pytest.mark.parametrize(("shared", "confidence"), [(LOW - 1, "certain"), (LOW, "uncertain"),
                                                     (HIGH, "uncertain"), (HIGH + 1, "certain")])
def test_the_minimum_band_edges(shared, confidence):
    assert verdict("below-minimum", shared).confidence == confidence


def test_exact_counts_have_no_token_band():
    assert verdict("below-minimum", 1000, provenance="exact").confidence == "certain"


def test_rules_without_bands_are_certain():
    rules = dataclasses.replace(SONNET, proxy_token_error=None, expiry_grace_seconds=None)
    assert verdict("below-minimum", 1000, rules=rules).confidence == "certain"
    assert verdict("expired", 5000, gap=301.0, rules=rules).confidence == "certain"


def test_an_uncertain_pair_is_never_unexplained():
    v = verdict("unexplained", HIGH, HIGH)
    assert (v.reason, v.confidence) == ("below-minimum", "uncertain")
    assert v.reason_detail.startswith("uncertain, so not called unexplained:")
    assert "of the 1024-token minimum" in v.reason_detail and "our detail" in v.reason_detail
    assert verdict("unexplained", HIGH + 1, HIGH + 1).reason == "unexplained"


def test_the_step_band_edges():
    # A proxy-counted family whose minimum is not a step: the first step lies above it.
    rules = dataclasses.replace(rules_for("deepseek", "deepseek-chat"), min_cacheable_tokens=1000,
                                granularity="step", step_tokens=128)
    assert first_step(rules) == 1024
    # 1024 * 0.15 = 153.6 around the step; the minimum's own band ends at 1150.
    assert verdict("turn-context", 1177, rules=rules).confidence == "uncertain"
    assert verdict("turn-context", 1178, rules=rules).confidence == "certain"
    assert "first 1024-token step" in verdict("turn-context", 1170, rules=rules).reason_detail


@pytest.mark.parametrize(("gap", "confidence"), [(300.0, "certain"), (300.5, "uncertain"), (420.0, "uncertain"),
                                                 (420.5, "certain")])
def test_the_expiry_grace_band_edges(gap, confidence):
    assert SONNET.expiry_grace_seconds == 120.0
    reason = "expired" if gap > 300 else "turn-context"
    assert verdict(reason, 5000, 5000 if gap <= 300 else 0, gap=gap).confidence == confidence


def test_a_certain_pair_and_reasons_that_name_a_place():
    assert verdict("turn-context", 5000, 5000).confidence == "certain"
    assert verdict("history-rewritten", 1024).confidence == "certain"


def test_an_expired_pair_in_the_grace_band_end_to_end(db):
    pair = pair_with_usage(db, {}, gap=301.0).pairs[1]
    assert pair.reason == "expired" and pair.confidence == "uncertain"
    assert "grace band" in pair.reason_detail
    assert "confidence" in PAIR_COLUMNS


def test_a_count_at_the_minimum_end_to_end(db):
    pair = pair_with_usage(db, {}, n=1100).pairs[1]
    assert pair.predicted_cached_tokens == 1100
    assert pair.reason == "below-minimum" and pair.confidence == "uncertain"


def test_a_cold_start_carries_the_providers_verdict(db):
    db.call("s", "t1", "narrator/main", claude([block(T(1200), CC)], [msg("user", "hello")]), at=0, cached=0,
            usage_extra={"cache_miss_reason": {"type": "model_changed"}}, **ANTHROPIC)
    pair = analyse(db.done()).pairs[0]
    assert pair.reason == "cold-start" and pair.provider_miss_reason == "model_changed"
    assert pair.verdicts_disagree and pair.confidence == "certain"


def test_the_text_and_html_reports_show_confidence_and_the_providers_verdict(db):
    from inspector.cache.report import report_html, report_text, verdict_text

    analysis = pair_with_usage(db, {"cache_miss_reason": {"type": "model_changed"}}, system2=T(1199) + " x")
    pair = analysis.pairs[1]
    assert verdict_text(pair) == "system-changed ≠ provider: model_changed"
    agreeing = dataclasses.replace(pair, verdicts_disagree=False)
    assert verdict_text(agreeing) == "system-changed · provider: model_changed"
    unsure = dataclasses.replace(pair, reason="below-minimum", confidence="uncertain", provider_miss_reason=None)
    assert verdict_text(unsure) == "below-minimum (uncertain)"
    assert "system-changed ≠ provider: model_changed" in report_text([analysis])
    assert "system-changed ≠ provider: model_changed" in report_html([analysis])
