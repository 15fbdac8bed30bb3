"""Ids on the command line: every command takes back the 8 characters its tables print, unknown and
ambiguous ids are errors with status 2, tables name turns by number; --version, --help, --findings."""

from __future__ import annotations

import json

import pytest

from inspector import __version__
from inspector.cli import main
from inspector.ids import short_id
from prompt_inspector import main as program


def run(capfdbinary, *argv, entry=main):
    code = entry([str(a) for a in argv])
    out, err = capfdbinary.readouterr()
    return code, out.decode("utf-8"), err.decode("utf-8")


@pytest.fixture
def claude(demo_store, capfdbinary):
    """The demo's Anthropic session: its turns and requests as JSON."""
    _, out, _ = run(capfdbinary, "turns", demo_store, "demo-lantern-claude", "--json")
    turns = json.loads(out)
    _, out, _ = run(capfdbinary, "requests", demo_store, "--session", "demo-lantern-claude", "--json")
    return turns, json.loads(out)


def _narrator(requests, turn_id):
    return next(r for r in requests if r["turnId"] == turn_id and r["runtimeId"] == "narrator/main")


def test_show_takes_the_short_id_the_requests_table_prints(demo_store, capfdbinary, claude):
    turns, requests = claude
    request = _narrator(requests, turns[3]["turnId"])
    code, table, _ = run(capfdbinary, "requests", demo_store, "--session", "demo-lantern-claude")
    assert code == 0
    line = next(line for line in table.splitlines() if line.startswith(short_id(request["eventId"])))
    assert line.split()[:3] == [short_id(request["eventId"]), "4", "narrator/main"]  # the turn by its number
    code, text, err = run(capfdbinary, "show", demo_store, short_id(request["eventId"]), "--no-exact")
    assert code == 0 and err == ""
    first, second = text.splitlines()[:2]
    assert first == "Turn 4 · narrator/main · step 1"
    assert second.startswith(request["eventId"])  # the full id stays in the text
    code, out, _ = run(capfdbinary, "show", demo_store, short_id(request["eventId"]), "--json", "--no-exact")
    assert code == 0 and json.loads(out)["request"]["eventId"] == request["eventId"]


def test_turns_prints_numbers_and_short_ids_and_turn_takes_them_back(demo_store, capfdbinary, claude):
    turns, _ = claude
    code, table, _ = run(capfdbinary, "turns", demo_store, "demo-lantern-cl")  # a session prefix
    assert code == 0
    rows = [line.split() for line in table.splitlines()[1:]]
    assert [(r[0], r[1]) for r in rows] == [(str(t["number"]), short_id(t["turnId"])) for t in turns]
    code, text, _ = run(capfdbinary, "turn", demo_store, short_id(turns[3]["turnId"]))
    assert code == 0 and text.splitlines()[0] == "Turn 4" and turns[3]["turnId"] in text
    code, out, _ = run(capfdbinary, "requests", demo_store, "--turn", short_id(turns[3]["turnId"]), "--json")
    assert code == 0 and {r["turnId"] for r in json.loads(out)} == {turns[3]["turnId"]}


def test_compare_takes_prefixes_and_names_both_sides(demo_store, capfdbinary, claude):
    turns, requests = claude
    left, right = (_narrator(requests, turns[i]["turnId"]) for i in (2, 3))
    code, text, _ = run(capfdbinary, "compare", demo_store, left["eventId"][:10], right["eventId"][:8], "--no-exact")
    assert code == 0
    assert text.splitlines()[0] == "Turn 3 · narrator/main · step 1 → Turn 4 · narrator/main · step 1"
    assert f"left  {left['eventId']}" in text and f"right {right['eventId']}" in text


@pytest.mark.parametrize("argv", [
    ["turns", "{db}", "no-such-session"],
    ["requests", "{db}", "--session", "no-such-session"],
    ["requests", "{db}", "--turn", "no-such-turn"],
    ["cache", "{db}", "--session", "no-such-session", "--no-cache"],
    ["show", "{db}", "no-such-event"],
    ["compare", "{db}", "no-such-event", "no-such-event"],
    ["turn", "{db}", "no-such-turn"],
])
def test_an_unknown_id_is_an_error_on_every_command(demo_store, capfdbinary, argv):
    code, out, err = run(capfdbinary, *[a.format(db=demo_store) for a in argv])
    assert code == 2 and out == ""
    assert err.startswith("prompt-inspector: no ") and "(an id or the start of one)" in err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("argv", [
    ["turns", "{db}", "demo-lantern"],
    ["requests", "{db}", "--session", "demo-lantern"],
    ["cache", "{db}", "--session", "demo-lantern", "--no-cache"],
])
def test_an_ambiguous_prefix_lists_its_matches(demo_store, capfdbinary, argv):
    code, out, err = run(capfdbinary, *[a.format(db=demo_store) for a in argv])
    assert code == 2 and out == ""
    assert "session id 'demo-lantern' is ambiguous" in err
    assert "demo-lantern-claude, demo-lantern-deepseek, demo-lantern-gemini, demo-lantern-openai all start" in err


def test_an_ambiguous_request_prefix_lists_five_and_more(demo_store, capfdbinary, claude):
    _, requests = claude
    first = requests[0]["eventId"][0]
    code, _, err = run(capfdbinary, "show", demo_store, first)
    assert code == 2 and f"request id '{first}' is ambiguous" in err and ", … all start with it" in err


def test_a_turn_of_another_session_is_refused(demo_store, capfdbinary, claude):
    turns, _ = claude
    code, _, err = run(capfdbinary, "requests", demo_store, "--session", "demo-lantern-deepseek",
                       "--turn", turns[0]["turnId"])
    assert code == 2 and "is not a turn of session demo-lantern-deepseek" in err


def test_the_cache_report_names_turns_by_number(demo_store, capfdbinary, claude):
    turns, _ = claude
    code, text, _ = run(capfdbinary, "cache", demo_store, "--session", "demo-lantern-claude", "--no-cache")
    assert code == 0
    rows = [line.split() for line in text.splitlines() if line.startswith("narrator/main ")][:len(turns)]
    assert [r[1] for r in rows] == [str(t["number"]) for t in turns]


def test_the_prefix_report_keeps_covels_behaviour_for_an_unknown_session(demo_store, capfdbinary):
    code, out, err = run(capfdbinary, "prefix", demo_store, "--session", "no-such-session")
    assert code == 0 and err == "" and "Session" not in out
    assert out.endswith("These are prefix measurements on the recorded request, not a provider's bill.\n")


def test_findings_print_a_table_without_json(demo_store, capfdbinary, claude):
    turns, _ = claude
    number = {t["turnId"]: str(t["number"]) for t in turns}
    code, table, _ = run(capfdbinary, "cache", demo_store, "--session", "demo-lantern-cl", "--findings", "--no-cache")
    assert code == 0
    lines = table.splitlines()
    assert lines[0].split() == ["session", "runtime", "severity", "finding", "part", "requests", "turns", "message"]
    code, out, _ = run(capfdbinary, "cache", demo_store, "--session", "demo-lantern-claude", "--findings", "--json",
                       "--no-cache")
    findings = json.loads(out)
    assert code == 0 and len(lines) == 1 + len(findings) > 1
    for line, finding in zip(lines[1:], findings):
        assert line.startswith("demo-lantern-claude") and finding["kind"] in line and line.endswith(finding["message"])
        listed = ", ".join(number[t] for t in finding["turnIds"][:5])
        assert f"  {listed}" in line  # the turns by number, as the app names them


def test_version_on_both_entry_points(capfdbinary):
    for entry in (main, program):
        with pytest.raises(SystemExit) as done:
            entry(["--version"])
        assert done.value.code == 0
        assert capfdbinary.readouterr().out.decode() == f"prompt-inspector {__version__}\n"


def test_the_programs_help_lists_the_apps_options_and_the_cores_does_not(capfdbinary):
    with pytest.raises(SystemExit):
        program(["--help"])
    text = capfdbinary.readouterr().out.decode()
    assert "the desktop app:" in text
    for option in ("--select ID", "--view {cache,turn,compare,order,blocks}", "--screenshot OUT.png", "--size WxH",
                   "--order-editor", "--blocks-editor", "--scenario FILE", "--version"):
        assert option in text
    assert "sessions" in text and "cache" in text  # the commands are still there
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "--screenshot" not in capfdbinary.readouterr().out.decode()
