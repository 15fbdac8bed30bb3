"""``cache --fail-on`` / ``--fail-over``: the CI gate's four exit statuses on the demo store."""

import json

import pytest

from inspector.cache.gate import GATE_MAX_LINES, GateError, evaluate_gate, parse_fail_on, parse_fail_over
from inspector.cache.results import REASONS
from inspector.cli import main
from inspector.error_boundary import EXIT_BAD_INPUT, EXIT_FAILED_CHECK, EXIT_NOTHING_EVALUATED, EXIT_OK


def run(capfdbinary, *argv):
    code = main([str(a) for a in argv])
    out, err = capfdbinary.readouterr()
    return code, out.decode("utf-8"), err.decode("utf-8")


@pytest.fixture(scope="module")
def demo_pairs(demo_store):
    from inspector.cache.analysis import analyse_session
    from inspector.cache.rules import load_rules
    from inspector.store import open_store

    with open_store(str(demo_store)) as store:
        return [analyse_session(store, s.id, rules=load_rules(None)) for s in store.sessions()]


def test_a_reason_no_pair_has_passes_and_the_output_is_unchanged(demo_store, capfdbinary):
    plain = run(capfdbinary, "cache", demo_store, "--json")
    code, out, err = run(capfdbinary, "cache", demo_store, "--json", "--fail-on", "model-changed")
    assert code == EXIT_OK
    assert out == plain[1]
    assert err == plain[2]


def test_a_reason_some_pairs_have_fails_and_names_them_one_a_line(demo_store, capfdbinary):
    code, out, err = run(capfdbinary, "cache", demo_store, "--csv", "--fail-on", "below-minimum")
    assert code == EXIT_FAILED_CHECK
    pairs = json.loads(run(capfdbinary, "cache", demo_store, "--json")[1])
    short = [p for p in pairs if p["reason"] == "below-minimum"]
    assert short and len(short) < len(pairs)
    lines = err.splitlines()
    assert len(lines) == len(short)
    assert all(p["eventId"] in line and line.endswith(": below-minimum") for p, line in zip(short, lines))
    assert out.startswith(run(capfdbinary, "cache", demo_store, "--csv")[1][:40])


def test_the_uncached_share_over_the_limit_fails_under_it_passes(demo_store, capfdbinary, demo_pairs):
    share = evaluate_gate(demo_pairs).uncached_percent
    assert 0 < share < 100
    code, _, err = run(capfdbinary, "cache", demo_store, "--fail-over", f"{share - 1:.3f}")
    assert code == EXIT_FAILED_CHECK
    assert err.splitlines() == [line for line in err.splitlines() if line.startswith("fail-over: ")]
    assert f"{share:.1f} %" in err
    code, _, err = run(capfdbinary, "cache", demo_store, "--fail-over", f"{share + 1:.3f}%")
    assert (code, err) == (EXIT_OK, "")


@pytest.mark.parametrize("argv, message", [
    (["--fail-on", "unexplained,bogus"], "unknown reason 'bogus'"),
    (["--fail-on", ","], "at least one reason"),
    (["--fail-over", "101"], "outside 0–100"),
    (["--fail-over", "-1"], "outside 0–100"),
    (["--fail-over", "nan"], "outside 0–100"),
    (["--fail-over", "half"], "is not a percent"),
])
def test_bad_gate_arguments_are_bad_input(demo_store, capfdbinary, argv, message):
    code, out, err = run(capfdbinary, "cache", demo_store, *argv)
    assert code == EXIT_BAD_INPUT
    assert out == ""
    assert message in err and err.count("\n") == 1


def test_nothing_to_evaluate_is_its_own_status(demo_store, capfdbinary):
    code, _, err = run(capfdbinary, "cache", demo_store, "--runtime", "no-such-runtime", "--fail-over", "10")
    assert code == EXIT_NOTHING_EVALUATED
    assert "nothing to evaluate" in err


def test_without_a_gate_no_pairs_is_still_success(demo_store, capfdbinary):
    code, _, _ = run(capfdbinary, "cache", demo_store, "--runtime", "no-such-runtime")
    assert code == EXIT_OK


def test_the_failing_pairs_printed_are_bounded(demo_pairs):
    result = evaluate_gate(demo_pairs, fail_on=REASONS)
    assert result.pairs > GATE_MAX_LINES
    lines = result.lines()
    assert len(lines) == GATE_MAX_LINES + 1
    assert lines[-1] == f"fail-on: … and {result.pairs - GATE_MAX_LINES} more pairs"


def test_the_share_counts_reported_usage_where_recorded_and_the_prediction_elsewhere(demo_pairs):
    result = evaluate_gate(demo_pairs)
    tokens = uncached = 0
    for analysis in demo_pairs:
        for p in analysis.pairs:
            if p.reported_input_tokens is not None and p.reported_cached_tokens is not None:
                tokens += p.reported_input_tokens
                uncached += p.reported_input_tokens - p.reported_cached_tokens
            else:
                tokens += p.total_tokens
                uncached += p.total_tokens - p.predicted_cached_tokens
    assert (result.input_tokens, result.uncached_tokens) == (tokens, uncached)


def test_parsing_keeps_each_reason_once_and_accepts_a_percent_sign():
    assert parse_fail_on(" expired,unexplained ,expired") == ("expired", "unexplained")
    assert parse_fail_over("12.5 %") == 12.5
    with pytest.raises(GateError):
        parse_fail_on("")


def test_the_gate_sets_the_status_of_an_html_report_too(demo_store, capfdbinary, tmp_path):
    report = tmp_path / "cache.html"
    code, out, err = run(capfdbinary, "cache", demo_store, "--html", report, "--fail-on", "below-minimum")
    assert code == EXIT_FAILED_CHECK
    assert report.is_file() and out.startswith(f"wrote {report}")
    assert err.splitlines() and all(line.startswith("fail-on: ") for line in err.splitlines())
