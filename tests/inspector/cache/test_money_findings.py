"""The findings that save money, on purpose-built runtimes: a wasted breakpoint slot, dead
writes, a 1-hour TTL that pays, and the input's cost classes."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from inspector.cache.findings import LayoutEvidence
from inspector.cache.pricing import (
    COST_CLASSES,
    cost_class_tokens,
    cost_classes_usd,
    input_cost_usd,
    keep_alive_break_even_seconds,
)
from inspector.cache.results import FINDING_KINDS, CachePair
from inspector.cache.rules import default_rules
from inspector.cache.session_totals import CostClasses, session_cost_classes

SONNET = default_rules().resolve("anthropic", None, "claude-sonnet-4-5")
OPENAI = default_rules().resolve("openai", None, "gpt-4o")


def _call(breakpoints: list[tuple[int, str | None]], part_tokens: list[int], system_parts: int | None = None):
    """A request whose parts are all system blocks (no tools, no messages needed for locations)."""
    cum = [0]
    for n in part_tokens:
        cum.append(cum[-1] + n)
    layout = SimpleNamespace(breakpoints=breakpoints, n_tools=0, n_settings=0)
    return SimpleNamespace(layout=layout, message_start=system_parts or len(part_tokens), rules=SONNET,
                           cum_tokens=lambda: cum, bp_reads=set())


def _pair(event: str, previous: str | None, *, rules=SONNET, gap: float | None = None, total: int = 5000,
          shared: int = 0, cached: int = 0, written: int = 0, reported: bool = False, provenance: str = "exact"):
    values = dict(
        session_id="s", runtime_id="r", turn_id=f"t-{event}", previous_turn_id=None, event_id=event,
        previous_event_id=previous, kind="turn", step=0, attempt=0, model="m", provider="anthropic",
        protocol=None, started_at=None, rules=rules, token_provenance=provenance, shared_chars=0,
        total_chars=0, shared_tokens=shared, total_tokens=total, first_difference="", region="end",
        offset=0, was=None, now=None, predicted_cached_tokens=0 if reported else cached,
        predicted_cache_write_tokens=0 if reported else written,
        reported_cached_tokens=cached if reported else None,
        reported_cache_write_tokens=written if reported else None,
        reported_input_tokens=total if reported else None, gap_seconds=gap, ttl_seconds=300.0,
        reason="cold-start", reason_detail="", breakpoints=0, uncached_tokens=total - cached,
        uncached_cost_usd=None, reported_uncached_cost_usd=None, missed_savings_usd=None)
    return CachePair(**values)


def _kinds(evidence: LayoutEvidence) -> dict[str, list]:
    out: dict[str, list] = {}
    for f in evidence.money_findings("s", "r"):
        out.setdefault(f.kind, []).append(f)
    return out


def test_the_new_kinds_are_listed():
    assert {"wasted-breakpoint", "dead-cache-writes", "one-hour-ttl-pays", "cost-classes"} <= set(FINDING_KINDS)


def test_a_breakpoint_on_a_short_first_system_block_is_a_wasted_slot():
    ev = LayoutEvidence()
    for i in range(3):
        # system[0] of 200 tokens carries a breakpoint (Covel's habit), the last block another one
        ev.add_pair(_pair(f"e{i}", f"e{i - 1}" if i else None, total=3000),
                    _call([(0, None), (1, None)], [200, 2800]))
    (wasted,) = _kinds(ev)["wasted-breakpoint"]
    assert (wasted.part, wasted.count, wasted.out_of) == ("system block 1", 3, 3)
    assert wasted.example == {"maxPrefixTokens": 200, "minCacheableTokens": SONNET.min_cacheable_tokens}
    assert "one of the 4 breakpoint slots" in wasted.message


def test_a_runtime_whose_every_breakpoint_is_short_gets_one_finding_not_one_per_place():
    """A whole prompt under the minimum (Covel's small Haiku runtimes): every breakpoint it marks is
    wasted, and the runtime gets one finding naming them all."""
    ev = LayoutEvidence()
    for i in range(3):
        ev.add_pair(_pair(f"e{i}", f"e{i - 1}" if i else None, total=900),
                    _call([(0, None), (1, None)], [200, 700]))
    (wasted,) = _kinds(ev)["wasted-breakpoint"]
    assert (wasted.part, wasted.count, wasted.out_of) == ("every breakpoint", 3, 3)
    assert wasted.example == {"maxPrefixTokens": 900, "minCacheableTokens": SONNET.min_cacheable_tokens,
                              "places": ["system block 1", "system block 2"]}
    assert "None of this runtime's cache_control breakpoints can cache" in wasted.message
    assert "(system block 1, system block 2)" in wasted.message


def test_a_proxy_count_within_the_error_band_of_the_minimum_is_not_called_wasted():
    ev = LayoutEvidence()
    near = int(SONNET.min_cacheable_tokens * 0.9)
    for i in range(3):
        ev.add_pair(_pair(f"e{i}", None, provenance="proxy"), _call([(0, None), (1, None)], [near, 4000]))
    assert "wasted-breakpoint" not in _kinds(ev)
    exact = LayoutEvidence()
    for i in range(3):
        exact.add_pair(_pair(f"e{i}", None), _call([(0, None), (1, None)], [near, 4000]))
    assert _kinds(exact)["wasted-breakpoint"][0].count == 3


def test_one_short_breakpoint_in_one_request_of_many_is_no_finding():
    ev = LayoutEvidence()
    ev.add_pair(_pair("e0", None), _call([(0, None)], [200, 3000]))
    for i in range(1, 4):
        ev.add_pair(_pair(f"e{i}", f"e{i - 1}"), _call([(1, None)], [200, 3000]))
    assert "wasted-breakpoint" not in _kinds(ev)


def test_writes_the_next_request_does_not_read_are_dead():
    ev = LayoutEvidence()
    calls = [_call([(1, None)], [2000, 1000]) for _ in range(4)]
    ev.add_pair(_pair("e0", None, written=3000), calls[0])
    for i in range(1, 4):
        ev.add_pair(_pair(f"e{i}", f"e{i - 1}", written=3000, gap=30), calls[i])
    # nobody marked a read: every write that a later request was compared with is dead
    (dead,) = _kinds(ev)["dead-cache-writes"]
    assert (dead.count, dead.out_of) == (3, 3)  # the last request has nobody after it
    assert dead.example["deadWriteTokens"] == 9000
    premium = 9000 * (SONNET.write_multiplier - 1) * SONNET.input_price_per_mtok / 1e6
    assert dead.example["wastedPremiumUsd"] == pytest.approx(premium)


def test_a_write_the_next_request_reads_is_not_dead():
    ev = LayoutEvidence()
    calls = [_call([(1, None)], [2000, 1000]) for _ in range(4)]
    for i, call in enumerate(calls):
        ev.add_pair(_pair(f"e{i}", f"e{i - 1}" if i else None, written=3000, gap=30), call)
        call.bp_reads.add(1)  # the next request read the prefix through the breakpoint
    assert "dead-cache-writes" not in _kinds(ev)


def test_writes_priced_like_input_are_never_dead_money():
    ev = LayoutEvidence()
    for i in range(4):
        ev.add_pair(_pair(f"e{i}", f"e{i - 1}" if i else None, rules=OPENAI, written=3000), _call([], [3000]))
    assert "dead-cache-writes" not in _kinds(ev)


def _gapped(gaps: list[float], ttl: str | None = None) -> LayoutEvidence:
    ev = LayoutEvidence()
    ev.add_pair(_pair("e0", None, total=20000, written=20000), _call([(0, ttl)], [20000]))
    for i, gap in enumerate(gaps, 1):
        ev.add_pair(_pair(f"e{i}", f"e{i - 1}", gap=gap, total=20500, shared=20000, cached=0, written=20500),
                    _call([(0, ttl)], [20500]))
    return ev


def test_gaps_between_five_minutes_and_an_hour_make_the_one_hour_ttl_pay():
    (finding,) = _kinds(_gapped([600, 900, 1200, 600]))["one-hour-ttl-pays"]
    assert (finding.count, finding.out_of) == (4, 4)
    example = finding.example
    assert example["longTtlCostUsd"] < example["shortTtlCostUsd"]
    assert example["keepAliveBreakEvenSeconds"] == keep_alive_break_even_seconds(SONNET)
    assert 'ttl "1h"' in finding.message and "Keep-alive" in finding.message


def test_short_gaps_or_gaps_over_an_hour_do_not():
    assert "one-hour-ttl-pays" not in _kinds(_gapped([30, 60, 90, 120]))
    assert "one-hour-ttl-pays" not in _kinds(_gapped([4000, 5000, 7200]))


def test_no_suggestion_when_the_runtime_uses_the_one_hour_ttl_already():
    assert "one-hour-ttl-pays" not in _kinds(_gapped([600, 900, 1200], ttl="1h"))


def test_keep_alive_break_even_is_the_ttl_times_write_over_read():
    assert keep_alive_break_even_seconds(SONNET) == pytest.approx(
        SONNET.ttl_for("5m") * SONNET.write_multiplier_for("5m") / SONNET.read_multiplier)


def test_the_cost_classes_add_up_to_the_one_cost_formula():
    for ttl in (None, "5m", "1h"):
        classes = cost_classes_usd(SONNET, 10000, 4000, 3000, ttl)
        assert sum(classes) == pytest.approx(input_cost_usd(SONNET, 10000, 4000, 3000, ttl))
    assert cost_class_tokens(SONNET, 10000, 4000, 3000, "5m") == (3000, 4000, 3000, 0)
    assert cost_class_tokens(SONNET, 10000, 4000, 3000, "1h") == (3000, 4000, 0, 3000)
    assert cost_classes_usd(SONNET.__class__(**{**{f: getattr(SONNET, f) for f in SONNET.__slots__},
                                                "input_price_per_mtok": None}), 1, 0, 0, None) is None


def test_a_runtime_reports_its_cost_classes_from_reported_usage_where_recorded():
    ev = LayoutEvidence()
    ev.add_pair(_pair("e0", None, total=10000, written=8000, reported=True), _call([(0, "1h")], [10000]))
    ev.add_pair(_pair("e1", "e0", total=10500, cached=8000, written=2000, gap=60), _call([(0, None)], [10500]))
    (found,) = _kinds(ev)["cost-classes"]
    assert found.severity == "info"
    ex = found.example
    assert ex["requests"] == 2
    assert (ex["uncachedInputTokens"], ex["cacheReadTokens"], ex["write5mTokens"], ex["write1hTokens"]) == \
        (2000 + 500, 8000, 2000, 8000)
    assert all(name in found.message for name in COST_CLASSES)
    session = session_cost_classes([found, found])
    assert session.requests == 4 and session.tokens[1] == 16000


def test_unpriced_requests_have_no_cost_classes():
    classes = CostClasses()
    unpriced = SONNET.__class__(**{**{f: getattr(SONNET, f) for f in SONNET.__slots__}, "input_price_per_mtok": None})
    classes.add(unpriced, 100, 0, 0, None)
    assert not classes.priced and classes.to_json()["totalUsd"] == 0


def test_a_restored_snapshot_forgets_the_pairs_added_after_it():
    ev = LayoutEvidence()
    ev.add_pair(_pair("e0", None, written=3000), _call([(1, None)], [2000, 1000]))
    saved = ev.snapshot()
    ev.add_pair(_pair("e1", "e0", written=3000), _call([(1, None)], [2000, 1000]))
    ev.restore(saved)
    assert len(ev.priced) == 1


def test_a_write_the_next_request_reads_by_its_reported_count_is_not_dead():
    """Automatic caching with a write price (GPT-5.6 and later): no breakpoints to mark, the next
    request's cached count says what it read."""
    gpt56 = default_rules().resolve("openai", None, "gpt-5.6")
    ev = LayoutEvidence()
    ev.add_pair(_pair("e0", None, rules=gpt56, total=3000, written=3000, reported=True), _call([], [3000]))
    for i in range(1, 4):
        ev.add_pair(_pair(f"e{i}", f"e{i - 1}", rules=gpt56, total=3000 + 500 * i, cached=2500 + 500 * i,
                          written=500, reported=True), _call([], [3000 + 500 * i]))
    assert "dead-cache-writes" not in _kinds(ev)
    cold = LayoutEvidence()
    for i in range(4):
        cold.add_pair(_pair(f"e{i}", f"e{i - 1}" if i else None, rules=gpt56, total=3000, written=3000,
                            reported=True), _call([], [3000]))
    (dead,) = _kinds(cold)["dead-cache-writes"]
    assert (dead.count, dead.out_of) == (3, 3)
