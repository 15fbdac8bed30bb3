"""The cache report renderers and the ``cache`` command: the JSON contract, CSV, text, and the
self-contained HTML report."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from inspector.cache import report as cache_report
from inspector.cache.analysis import analyse_store
from inspector.cache.results import REASONS, CacheAnalysis, RuntimeSummary
from inspector.cache.rules import ENV_VAR
from inspector.cli import main
from inspector.store import open_store

CONTRACT = {
    "sessionId": str, "runtimeId": str, "turnId": str, "previousTurnId": (str, type(None)), "kind": str,
    "sharedChars": int, "sharedTokens": int, "totalTokens": int, "firstDifference": str,
    "predictedCachedTokens": int, "reportedCachedTokens": (int, type(None)), "gapSeconds": (int, float, type(None)),
    "reason": str,
}


@pytest.fixture(scope="session")
def demo(demo_store):
    return demo_store


@pytest.fixture(scope="module")
def analyses(demo):
    with open_store(demo) as store:
        return analyse_store(store)


def run(capfdbinary, *argv):
    code = main([str(a) for a in argv])
    out, err = capfdbinary.readouterr()
    return code, out.decode("utf-8"), err.decode("utf-8")


# --- renderers ---------------------------------------------------------------------------------------


def test_json_is_a_list_of_pairs_with_the_contract_fields(analyses):
    rows = json.loads(cache_report.pairs_json(analyses))
    assert isinstance(rows, list) and len(rows) == sum(len(a.pairs) for a in analyses)
    for row in rows:
        for key, kind in CONTRACT.items():
            assert isinstance(row[key], kind), (key, row[key])
        assert row["kind"] in ("turn", "tool-loop")
        assert row["reason"] in REASONS
    kinds = {r["kind"] for r in rows}
    assert kinds == {"turn", "tool-loop"}
    assert any(r["reportedCachedTokens"] is None for r in rows)  # an unanswered or failed request
    assert {r["reason"] for r in rows} >= {"cold-start", "system-changed", "history-rewritten", "turn-context"}


def test_csv_has_the_json_keys_as_columns(analyses):
    text = cache_report.pairs_csv(analyses)
    reader = csv.DictReader(io.StringIO(text))
    rows = list(reader)
    first = analyses[0].pairs[0].to_json()
    assert reader.fieldnames == list(first) == list(cache_report.PAIR_COLUMNS)
    assert len(rows) == sum(len(a.pairs) for a in analyses)
    assert rows[0]["previousTurnId"] == ""  # null is an empty cell
    assert rows[0]["sharedTokens"] == str(first["sharedTokens"])


def test_findings_json_and_csv(analyses):
    rows = json.loads(cache_report.findings_json(analyses))
    assert rows and all(r["kind"] and r["part"] and r["message"] for r in rows)
    table = list(csv.DictReader(io.StringIO(cache_report.findings_csv(analyses))))
    assert len(table) == len(rows)
    assert table[0]["kind"] == rows[0]["kind"]


def test_text_report_lists_pairs_runtimes_and_findings(analyses):
    text = cache_report.report_text(analyses)
    assert "Session demo-lantern-deepseek" in text
    assert "shared/total" in text and "first difference" in text
    assert "Per runtime" in text and "Layout findings:" in text
    assert "moving-history-insertion" in text
    assert text.endswith("\n")


def test_html_is_self_contained(analyses):
    page = cache_report.report_html(analyses, source="demo")
    assert page.startswith("<!DOCTYPE html>")
    assert "<svg" in page and "<polyline" in page and "<circle" in page
    assert "<script" not in page and "<link" not in page and "<img" not in page
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)
    assert "url(" not in page and "@import" not in page
    for analysis in analyses:
        assert f"Session {analysis.session_id}" in page
    assert page.count("<svg") == sum(len({p.runtime_id for p in a.pairs}) for a in analyses)


def test_html_escapes_recorded_text(analyses):
    pair = analyses[0].pairs[1]
    hostile = type(pair)(**{**{f: getattr(pair, f) for f in pair.__dataclass_fields__},
                            "runtime_id": "<b>x</b>", "first_difference": "<script>alert(1)</script>"})
    summary = RuntimeSummary("s", "<b>x</b>")
    summary.add(hostile)
    page = cache_report.report_html([CacheAnalysis("s&s", [hostile], [], [summary], ["<warn>"])])
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;b&gt;x&lt;/b&gt;" in page and "s&amp;s" in page and "&lt;warn&gt;" in page


# --- the command ------------------------------------------------------------------------------------


def test_cache_json_command(demo, capfdbinary):
    code, out, err = run(capfdbinary, "cache", demo, "--session", "demo-lantern-openai", "--json")
    assert code == 0, err
    rows = json.loads(out)
    assert rows and {r["sessionId"] for r in rows} == {"demo-lantern-openai"}


def test_cache_runtime_filter_and_csv(demo, capfdbinary):
    code, out, _ = run(capfdbinary, "cache", demo, "--runtime", "narrator/main", "--csv")
    assert code == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows and {r["runtimeId"] for r in rows} == {"narrator/main"}
    assert len({r["sessionId"] for r in rows}) == 4


def test_cache_text_and_findings(demo, capfdbinary):
    code, out, _ = run(capfdbinary, "cache", demo, "--session", "demo-lantern-deepseek")
    assert code == 0 and "Layout findings:" in out
    code, out, _ = run(capfdbinary, "cache", demo, "--session", "demo-lantern-deepseek", "--json", "--findings")
    assert code == 0 and {f["kind"] for f in json.loads(out)} >= {"moving-history-insertion"}


def test_cache_html_command_writes_a_file(demo, tmp_path, capfdbinary):
    target = tmp_path / "report.html"
    code, out, _ = run(capfdbinary, "cache", demo, "--html", target)
    assert code == 0 and str(target) in out
    page = target.read_text(encoding="utf-8")
    assert "<svg" in page and "demo-lantern-gemini" in page
    code, out, _ = run(capfdbinary, "cache", demo, "--session", "demo-lantern-gemini", "--html", target, "--json")
    assert code == 0 and json.loads(out)


def test_cache_rules_option_and_environment(demo, tmp_path, capfdbinary, monkeypatch):
    rules = tmp_path / "rules.toml"
    rules.write_text('[families.openai]\nmin_cacheable_tokens = 100000\n', encoding="utf-8")
    code, out, _ = run(capfdbinary, "cache", demo, "--session", "demo-lantern-openai", "--json", "--rules", rules)
    assert code == 0
    assert all(r["predictedCachedTokens"] == 0 for r in json.loads(out))
    monkeypatch.setenv(ENV_VAR, str(rules))
    code, out, _ = run(capfdbinary, "cache", demo, "--session", "demo-lantern-openai", "--json")
    assert all(r["predictedCachedTokens"] == 0 for r in json.loads(out))


def test_cache_errors_are_one_clear_line(demo, tmp_path, capfdbinary):
    bad = tmp_path / "bad.toml"
    bad.write_text("[families.openai]\nstep_tokens = 0\n", encoding="utf-8")
    code, _, err = run(capfdbinary, "cache", demo, "--rules", bad)
    assert code == 2 and "families.openai.step_tokens" in err and str(bad) in err
    code, _, err = run(capfdbinary, "cache", demo, "--session", "nope")
    assert code == 2 and "no session 'nope'" in err
    code, _, err = run(capfdbinary, "cache", demo, "--html", tmp_path / "missing" / "r.html")
    assert code == 2 and "cannot write" in err


def test_the_reports_give_each_sessions_cost_classes(analyses):
    from inspector.cache.session_totals import session_cost_classes

    text = cache_report.report_text(analyses)
    page = cache_report.report_html(analyses)
    priced = [a for a in analyses if session_cost_classes(a.findings).priced]
    assert priced
    for analysis in priced:
        classes = session_cost_classes(analysis.findings)
        lines = cache_report.cost_class_lines(analysis)
        assert lines[0] == f"Cost classes ({classes.requests} priced requests):"
        assert [line.split()[0] for line in lines[2:]] == ["uncached", "cache", "5-minute", "1-hour", "total"]
        assert lines[-1].split()[-1] == f"${classes.total_usd:.4f}"
        assert "\n".join(lines) in text
    assert page.count("<b>Cost classes</b>") == len(priced)
    # Tool-loop rows are numbered as a person counts.
    assert "loop step 1 · attempt 1" in text or "loop step 2 · attempt 1" in text
