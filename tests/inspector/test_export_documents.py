"""File → Export's documents (inspector.export): each is what the cache, compare and turn commands
print, and save_export writes it atomically, never over an input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector import views
from inspector.anatomy.compare import compare_details
from inspector.cache.analysis import analyse_session
from inspector.cache.rules import default_rules
from inspector.cli import main
from inspector.export import (
    EXPORT_FORMATS,
    cache_table_export,
    comparison_export,
    report_source,
    save_export,
    summary_json,
    turn_summary_export,
)
from inspector.files import OutputPathError
from inspector.ids import request_names, turn_numbers
from inspector.store import open_store
from inspector.turn.builder import build_turn
from inspector.turn.outline import turn_outline
from inspector.turn.summary import summarize

SESSION = "demo-lantern-claude"


@pytest.fixture(autouse=True)
def own_cache_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))
    monkeypatch.setenv("PROMPT_INSPECTOR_CACHE_WORKER", "0")


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    capsys.readouterr()
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_the_cache_table_is_what_the_cache_command_writes(demo_store: Path, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    with open_store(demo_store) as store:
        analysis = analyse_session(store, SESSION)
    csv_text = cache_table_export([analysis], "csv")
    assert csv_text == cli(capsys, "cache", str(demo_store), "--session", SESSION, "--csv", "--no-cache")
    assert len(csv_text.splitlines()) == len(analysis.pairs) + 1

    source = report_source(str(demo_store), default_rules())
    html = cache_table_export([analysis], "html", source=source)
    out = tmp_path / "report.html"
    cli(capsys, "cache", str(demo_store), "--session", SESSION, "--html", str(out), "--no-cache")
    assert html == out.read_text(encoding="utf-8")
    assert source in html


def test_a_comparison_is_what_the_compare_command_prints(demo_store: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    with open_store(demo_store) as store:
        rows = [r for r in views.request_rows(store) if r["sessionId"] == SESSION]
        left, right = (views.request_detail(store, rows[i]["eventId"]) for i in (0, 1))
    comparison = compare_details(left, right)
    ids = (rows[0]["eventId"], rows[1]["eventId"])
    assert comparison_export(comparison, "json") == cli(capsys, "compare", str(demo_store), *ids, "--json")
    text = comparison_export(comparison, "text")
    assert text == comparison.to_text() and text in cli(capsys, "compare", str(demo_store), *ids)
    with open_store(demo_store) as store:
        names = request_names(store, [left.row, right.row])
    named = comparison_export(comparison, "text", names=(names[0], names[1]))
    assert named == f"{names[0]} → {names[1]}\n" + text
    assert named == cli(capsys, "compare", str(demo_store), *ids)  # what the command prints


def test_a_turn_summary_holds_the_stepper_figures_and_the_turn_command_outline(
        demo_store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with open_store(demo_store) as store:
        turn_id = next(t for t in views.turn_rows(store, SESSION) if t["llmCalls"])["turnId"]
        turn = build_turn(store, SESSION, turn_id)
        number = turn_numbers(store, SESSION)[turn_id]
    summary = summarize(turn)
    document = json.loads(turn_summary_export(turn, summary, "json"))
    assert document["turn"] == json.loads(cli(capsys, "turn", str(demo_store), turn_id, "--json"))
    assert document["summary"] == json.loads(json.dumps(summary_json(summary)))
    assert document["summary"]["calls"] == summary.calls > 0
    assert document["summary"]["inputTokens"] == summary.input_tokens

    markdown = turn_summary_export(turn, summary, "markdown", number=number)
    printed = cli(capsys, "turn", str(demo_store), turn_id)
    assert markdown.startswith(f"# {printed.splitlines()[0]}\n")  # named as the turn command names it
    assert markdown.startswith(f"# Turn {number}\n")
    assert f"- model calls: {summary.calls} ({summary.retries} retries)" in markdown
    assert f"input {summary.input_tokens:,}, cached {summary.cached_tokens:,}" in markdown
    assert turn_outline(turn).rstrip("\n") in markdown
    assert printed.endswith(turn_outline(turn))  # the command's outline
    assert turn_summary_export(turn, summary, "markdown").startswith(f"# Turn {turn_id[:8]}\n")


def test_each_export_knows_its_formats() -> None:
    assert [f for f, _ in EXPORT_FORMATS["cache"]] == ["csv", "html"]
    with pytest.raises(ValueError, match="no 'pdf' export of a cache"):
        cache_table_export([], "pdf")


def test_save_export_writes_atomically_and_never_over_an_input(tmp_path: Path) -> None:
    db = tmp_path / "covel.db"
    db.write_bytes(b"SQLite format 3\x00" + b"\x00" * 84)
    target = tmp_path / "out.csv"
    assert save_export(target, "a,b\n", [db]) == target
    assert target.read_text(encoding="utf-8") == "a,b\n"
    assert save_export(target, "c\n", [db, None]) == target  # replaces an export
    assert target.read_text(encoding="utf-8") == "c\n"
    before = db.read_bytes()
    for refused in (db, tmp_path / "covel.db-wal", tmp_path):
        with pytest.raises(OutputPathError):
            save_export(refused, "x", [db])
    assert db.read_bytes() == before
    assert not (tmp_path / "covel.db-wal").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["covel.db", "out.csv"]  # no temporary left
