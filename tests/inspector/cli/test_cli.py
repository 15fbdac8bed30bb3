"""The command line on the demo database, as a user runs it."""

import json
import sqlite3

import pytest

from inspector.cli import main


@pytest.fixture
def demo_db(demo_store):
    return demo_store


def run(capfdbinary, *argv):
    code = main([str(a) for a in argv])
    out, err = capfdbinary.readouterr()
    return code, out.decode("utf-8"), err.decode("utf-8")


def test_sessions_lists_all_four_protocol_sessions(demo_db, capfdbinary):
    code, out, _ = run(capfdbinary, "sessions", demo_db, "--json")
    assert code == 0
    rows = json.loads(out)
    assert [r["sessionId"] for r in rows] == [
        "demo-lantern-deepseek", "demo-lantern-claude", "demo-lantern-openai", "demo-lantern-gemini"]
    assert rows[0]["world"] == "灯岭镇" and rows[0]["completedPlayerTurns"] == 12
    code, text, _ = run(capfdbinary, "sessions", demo_db)
    assert code == 0 and "demo-lantern-claude" in text and "灯岭镇" in text


def test_turns_and_requests(demo_db, capfdbinary):
    code, out, _ = run(capfdbinary, "turns", demo_db, "demo-lantern-deepseek", "--json")
    turns = json.loads(out)
    assert code == 0 and len(turns) == 13
    assert [t["number"] for t in turns] == list(range(1, 14))
    retry = [t for t in turns if t["retryScope"]]
    assert len(retry) == 1 and retry[0]["retryScope"]["runtimeIds"]
    code, out, _ = run(capfdbinary, "requests", demo_db, "--session", "demo-lantern-deepseek",
                       "--turn", turns[0]["turnId"], "--json")
    rows = json.loads(out)
    assert code == 0 and rows
    assert {r["turnId"] for r in rows} == {turns[0]["turnId"]}
    tracker = [r for r in rows if r["runtimeId"] == "char-creator/character-tracker"]
    assert [r["step"] for r in tracker] == [0, 1]  # the tool loop
    assert all(r["protocol"] == "openai-chat-v1" for r in rows)


def test_requests_filter_by_runtime_across_sessions(demo_db, capfdbinary):
    code, out, _ = run(capfdbinary, "requests", demo_db, "--runtime", "narrator/main", "--json")
    rows = json.loads(out)
    assert code == 0 and {r["runtimeId"] for r in rows} == {"narrator/main"}
    assert {r["protocol"] for r in rows} == {"openai-chat-v1", "anthropic-messages-v1", "openai-responses-v1",
                                             "google-generative-ai-v1"}


def _narrator_request(demo_db, capfdbinary, session):
    _, out, _ = run(capfdbinary, "requests", demo_db, "--session", session, "--runtime", "narrator/main", "--json")
    return json.loads(out)[3]["eventId"]


def test_show_prints_the_anatomy_tree(demo_db, capfdbinary):
    event_id = _narrator_request(demo_db, capfdbinary, "demo-lantern-claude")
    code, text, _ = run(capfdbinary, "show", demo_db, event_id)
    assert code == 0
    for label in ("system prompt", "preamble", "[RUNTIME]", "runtime body", "<world-lore>", "turn context",
                  "<runtime-inputs>", "current input", "cache breakpoint"):
        assert label in text
    code, out, _ = run(capfdbinary, "show", demo_db, event_id, "--json")
    detail = json.loads(out)
    assert detail["view"] == "provider" and detail["protocol"] == "anthropic-messages-v1"
    kinds = [n["kind"] for n in detail["anatomy"]]
    assert "system-prompt" in kinds and "turn-context" in kinds
    assert detail["tokens"]["exact"] == sum(n["tokens"]["exact"] for n in detail["anatomy"])


def test_show_unknown_event_is_a_clear_error(demo_db, capfdbinary):
    code, out, err = run(capfdbinary, "show", demo_db, "no-such-event")
    assert code == 2 and out == ""
    assert "no request 'no-such-event'" in err


def test_prefix_table_and_json_agree(demo_db, capfdbinary):
    code, table, _ = run(capfdbinary, "prefix", demo_db)
    assert code == 0
    assert table.startswith("\nSession demo-lantern-deepseek\nruntime ")
    assert table.endswith("These are prefix measurements on the recorded request, not a provider's bill.\n")
    code, out, _ = run(capfdbinary, "prefix", demo_db, "--json")
    report = json.loads(out)
    narrator = next(e for e in report if e["sessionId"] == "demo-lantern-deepseek" and e["runtimeId"] == "narrator/main")
    assert narrator["turns"] == len(narrator["firstRequestChars"]) == len(narrator["pairs"]) + 1
    assert all(0 <= p["shared"] <= p["size"] for p in narrator["pairs"])


def test_prefix_extended_names_anatomy_parts(demo_db, capfdbinary):
    code, out, _ = run(capfdbinary, "prefix", demo_db, "--json", "--extended", "--session", "demo-lantern-deepseek")
    assert code == 0
    report = json.loads(out)
    pairs = [p for e in report for p in e["pairs"]]
    assert pairs and all({"exactTokens", "sharedExactTokens", "firstDifferencePart"} <= p.keys() for p in pairs)
    assert all(p["sharedExactTokens"] <= p["exactTokens"] for p in pairs)
    # The original keys come first and are unchanged.
    code, plain, _ = run(capfdbinary, "prefix", demo_db, "--json", "--session", "demo-lantern-deepseek")
    for e_plain, e_ext in zip(json.loads(plain), report):
        for p_plain, p_ext in zip(e_plain["pairs"], e_ext["pairs"]):
            assert list(p_ext)[: len(p_plain)] == list(p_plain)
            assert {k: p_ext[k] for k in p_plain} == p_plain


def test_prefix_skips_unreadable_rows_with_a_warning(tmp_path, demo_db, capfdbinary):
    broken = tmp_path / "broken.db"
    broken.write_bytes(demo_db.read_bytes())
    con = sqlite3.connect(broken)
    victim = con.execute("SELECT id FROM trace_events WHERE type='llm.calling' ORDER BY created_at LIMIT 1 OFFSET 3").fetchone()[0]
    con.execute("UPDATE trace_events SET payload='{not json' WHERE id=?", (victim,))
    con.commit()
    con.close()
    code, out, err = run(capfdbinary, "prefix", broken, "--json")
    assert code == 0 and json.loads(out)
    assert f"trace_events row {victim}" in err and "not JSON" in err


def test_prefix_works_without_seq(tmp_path, demo_db, capfdbinary):
    old = tmp_path / "old.db"
    old.write_bytes(demo_db.read_bytes())
    con = sqlite3.connect(old)
    con.execute("DROP INDEX IF EXISTS trace_events_created_idx")
    con.execute("ALTER TABLE trace_events DROP COLUMN seq")
    con.commit()
    con.close()
    code, out, err = run(capfdbinary, "prefix", old, "--json")
    assert code == 0 and json.loads(out)
    assert "seq" in err  # the schema note says how rows are ordered instead


@pytest.mark.parametrize(
    ("content", "message"),
    [(b"", "empty"), (b"hello, not a database" * 100, "not a SQLite database")],
)
def test_bad_files_give_one_clear_line(tmp_path, capfdbinary, content, message):
    path = tmp_path / "bad.db"
    path.write_bytes(content)
    code, out, err = run(capfdbinary, "sessions", path)
    assert code == 2 and out == ""
    assert message in err and str(path) in err
    assert path.read_bytes() == content


def test_missing_file_is_not_created(tmp_path, capfdbinary):
    path = tmp_path / "nope.db"
    code, _, err = run(capfdbinary, "prefix", path)
    assert code == 2 and str(path) in err
    assert not path.exists()


def test_demo_command_writes_a_database(tmp_path, capfdbinary):
    path = tmp_path / "d.db"
    code, out, _ = run(capfdbinary, "demo", path, "--turns", "3", "--json")
    assert code == 0
    summary = json.loads(out)
    assert path.exists() and summary["bytes"] == path.stat().st_size and summary["sessions"] == 4


def test_python_m_inspector_help_works(capfdbinary):
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out, _ = capfdbinary.readouterr()
    assert b"prefix" in out and b"sessions" in out


def test_prefix_empty_session_means_every_session(demo_db, capfdbinary):
    # Covel's script treats `--session ""` as no filter (an empty string is falsy in JavaScript).
    _, everything, _ = run(capfdbinary, "prefix", demo_db, "--json")
    code, empty, _ = run(capfdbinary, "prefix", demo_db, "--json", "--session", "")
    assert code == 0 and empty == everything


def test_prefix_reads_a_row_nested_deeper_than_the_parsers_allow(tmp_path, demo_db, capfdbinary):
    # V8's JSON.parse takes any depth, so Covel's script reads this row; so do we.
    broken = tmp_path / "deep.db"
    broken.write_bytes(demo_db.read_bytes())
    con = sqlite3.connect(broken)
    victim = con.execute("SELECT id FROM trace_events WHERE type='llm.calling' ORDER BY created_at LIMIT 1").fetchone()[0]
    con.execute("UPDATE trace_events SET payload=? WHERE id=?", ('{"a":' + "[" * 5000 + "]" * 5000 + "}", victim))
    con.commit()
    con.close()
    code, out, err = run(capfdbinary, "prefix", broken, "--json")
    assert code == 0 and json.loads(out)
    assert victim not in err and "Traceback" not in err
    code, out, _ = run(capfdbinary, "requests", broken, "--json")
    assert code == 0 and any(r["eventId"] == victim for r in json.loads(out))
    code, out, err = run(capfdbinary, "show", broken, victim, "--json", "--no-exact")
    assert code == 0 and json.loads(out)["request"]["eventId"] == victim and "Traceback" not in err


def test_show_names_transport_attempts_whose_body_cannot_be_resolved(tmp_path, demo_db, capfdbinary):
    broken = tmp_path / "refs.db"
    broken.write_bytes(demo_db.read_bytes())
    con = sqlite3.connect(broken)
    victim, raw = con.execute("SELECT id, payload FROM trace_events WHERE type='llm.calling' LIMIT 1").fetchone()
    payload = json.loads(raw)
    payload["providerRequests"] = [{"schemaVersion": 2, "bodyRef": 0}, {"schemaVersion": 2, "bodyRef": 7}]
    con.execute("UPDATE trace_events SET payload=? WHERE id=?", (json.dumps(payload, ensure_ascii=False), victim))
    con.commit()
    con.close()
    code, out, _ = run(capfdbinary, "show", broken, victim, "--json", "--no-exact")
    detail = json.loads(out)
    assert code == 0 and detail["view"] == "kernel"
    assert any(p.startswith("providerRequests[0]:") for p in detail["problems"])
    assert any(p.startswith("providerRequests[1]:") and "7" in p for p in detail["problems"])


def test_every_command_in_the_table_is_configured_by_its_module() -> None:
    # One table of commands (inspector.cli.registry): each names the module whose
    # configure_<name> adds its arguments, and the parser offers exactly the table's commands.
    import importlib

    from inspector.cli import build_parser
    from inspector.cli.registry import COMMANDS, NAMES

    assert len(NAMES) == len(COMMANDS)
    for command in COMMANDS:
        assert callable(getattr(importlib.import_module(command.module), f"configure_{command.name}"))
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert list(sub.choices) == [c.name for c in COMMANDS]


def test_no_engine_repeats_the_command_names() -> None:
    import importlib

    from inspector.cli.registry import COMMANDS

    for module in {c.module for c in COMMANDS}:
        assert not hasattr(importlib.import_module(module), "COMMANDS"), module


def test_a_command_line_is_for_the_app_unless_it_names_a_command() -> None:
    from inspector.cli.registry import wants_command_line

    assert wants_command_line(["sessions", "covel.db"])
    assert wants_command_line(["--help"]) and wants_command_line(["-h"])
    assert not wants_command_line([])
    assert not wants_command_line(["covel.db"])
    assert not wants_command_line(["--order-editor", "--screenshot", "out.png"])
    assert not wants_command_line(["covel.db", "--screenshot", "out.png"])
    # An app option's value that is a command's name is still the app's: --view order, --select turn.
    assert not wants_command_line(["--view", "order", "--screenshot", "x.png"])
    assert not wants_command_line(["--select", "turn", "covel.db"])
    assert wants_command_line(["--debug", "order", "table.json"]) and wants_command_line(["--version"])


def test_the_core_command_line_without_a_command_says_how_to_start_the_app(capfdbinary) -> None:
    code = main([])
    err = capfdbinary.readouterr().err.decode()
    assert code == 2 and "no command given" in err and "desktop app" in err


def test_importing_the_cli_does_not_import_the_engines() -> None:
    import subprocess
    import sys

    code = ("import sys, inspector.cli; "
            "print(any(m.startswith(('inspector.zones', 'inspector.writing_agent')) for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


# --- outputs never touch inputs; bounded demo arguments (issue 17) ------------------------------

import hashlib  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402


def _listing(folder):
    return sorted(p.name for p in folder.iterdir())


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def work(tmp_path, demo_db):
    """A folder with a copy of the demo database, another program's SQLite file, a text file and
    a subfolder; the digests and the listing before the test."""
    db = tmp_path / "covel.db"
    shutil.copyfile(demo_db, db)
    with sqlite3.connect(tmp_path / "other.db") as conn:
        conn.execute("CREATE TABLE t (x)")
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    (tmp_path / "folder").mkdir()
    files = ("covel.db", "other.db", "notes.txt")
    return tmp_path, {name: _digest(tmp_path / name) for name in files}, _listing(tmp_path)


def _unchanged(work_state):
    folder, digests, listing = work_state
    assert {name: _digest(folder / name) for name in digests} == digests
    assert _listing(folder) == listing
    assert _listing(folder / "folder") == []


@pytest.mark.parametrize(("output", "message"), [
    ("covel.db", "it is the input"),
    ("./covel.db", "it is the input"),
    ("covel.db-wal", "SQLite keeps a file of that name beside the input"),
    ("covel.db-journal", "SQLite keeps a file of that name beside the input"),
    ("other.db", "it is a SQLite database"),
    ("folder", "it is a folder"),
])
def test_cache_html_never_overwrites_the_database_or_another(work, capfdbinary, monkeypatch, output, message):
    folder = work[0]
    monkeypatch.chdir(folder)
    code, out, err = run(capfdbinary, "cache", "covel.db", "--html", output)
    assert code == 2 and out == ""
    assert err == f"prompt-inspector: cannot write {output}: " + err.split(": ", 2)[2] and message in err
    assert len(err.splitlines()) == 1
    _unchanged(work)


@pytest.mark.parametrize("output", ["covel.db", "covel.db-wal", "covel.db-shm", "covel.db-journal"])
@pytest.mark.parametrize("url", ["sqlite:///{folder}/covel.db", "sqlite:///covel.db", "sqlite:///covel.db?mode=ro"])
def test_cache_html_never_overwrites_a_database_given_as_a_url(work, capfdbinary, monkeypatch, output, url):
    # The file a sqlite:// URL names is checked like a path: not it, nor its -wal/-shm/-journal.
    folder = work[0]
    monkeypatch.chdir(folder)
    code, out, err = run(capfdbinary, "cache", url.format(folder=folder), "--html", output)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"prompt-inspector: cannot write {output}: ")
    # The database itself is refused before it is opened (any SQLite file is); its sidecars once
    # it is known which file the URL names.
    assert ("it is a SQLite database" if output == "covel.db" else
            "SQLite keeps a file of that name beside the input") in err
    _unchanged(work)


def test_cache_html_beside_a_database_given_as_a_url_is_written(work, capfdbinary, monkeypatch):
    # Just past the refused names: an ordinary report next to the database is fine.
    folder = work[0]
    monkeypatch.chdir(folder)
    code, out, _ = run(capfdbinary, "cache", "sqlite:///covel.db", "--html", "covel.db-wal.html")
    assert code == 0 and out.startswith("wrote covel.db-wal.html: ")
    assert _listing(folder) == sorted(work[2] + ["covel.db-wal.html"])
    assert _digest(folder / "covel.db") == work[1]["covel.db"]


def _run_bounded(folder, *argv):
    import subprocess
    import sys

    # A FIFO once blocked the output check for good: a child process under a timeout turns a
    # regression into a failure instead of a hung test run.
    return subprocess.run([sys.executable, "-m", "inspector", *map(str, argv)], cwd=folder, capture_output=True,
                          text=True, timeout=120)


@pytest.mark.parametrize("argv", [["cache", "covel.db", "--html", "out.html"], ["demo", "out.html", "--turns", "1"],
                                  ["demo", "out.html", "--turns", "1", "--force"]])
def test_a_fifo_as_output_is_refused_without_hanging(work, argv):
    folder, digests, _ = work
    os.mkfifo(folder / "out.html")
    state = (folder, digests, _listing(folder))
    done = _run_bounded(folder, *argv)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == ("prompt-inspector: cannot write out.html: out.html is a named pipe (FIFO), not a regular "
                           "file: give the path of a file\n")
    _unchanged(state)


def test_cache_html_through_a_link_to_the_database_is_refused(work, capfdbinary):
    folder = work[0]
    (folder / "report.html").symlink_to(folder / "covel.db")
    os.link(folder / "covel.db", folder / "hard.db")
    state = (folder, work[1], _listing(folder))
    for output, db in (("report.html", "covel.db"), ("hard.db", "covel.db"), ("covel.db", "hard.db")):
        code, _, err = run(capfdbinary, "cache", folder / db, "--html", folder / output)
        assert code == 2 and "it is the input" in err
    _unchanged(state)


def test_cache_html_replaces_an_old_report_atomically(work, capfdbinary):
    folder = work[0]
    report = folder / "report.html"
    report.write_text("old report", encoding="utf-8")
    report.chmod(0o640)
    code, out, _ = run(capfdbinary, "cache", folder / "covel.db", "--html", report)
    assert code == 0 and out.startswith(f"wrote {report}: ")
    assert report.read_text(encoding="utf-8").startswith("<!DOCTYPE html>") or "<html" in report.read_text("utf-8")
    assert (report.stat().st_mode & 0o777) == 0o640
    assert _listing(folder) == sorted(work[2] + ["report.html"])


def test_cache_html_on_a_full_disk_keeps_the_old_report(work, capfdbinary, monkeypatch):
    from inspector import files

    folder = work[0]
    report = folder / "report.html"
    report.write_text("old report", encoding="utf-8")
    digest, listing = _digest(report), _listing(folder)

    def full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", full)
    code, out, err = run(capfdbinary, "cache", folder / "covel.db", "--html", report)
    assert code == 2 and out == ""
    # (The store may print schema warnings before; the failure is the one last line.)
    assert err.endswith("\n")
    assert err.splitlines()[-1] == f"prompt-inspector: cannot write {report}: No space left on device"
    assert "Traceback" not in err and ".tmp" not in err
    assert _digest(report) == digest and _listing(folder) == listing


@pytest.mark.parametrize(("argv", "message"), [
    (["folder"], "cannot write folder: it is a folder"),
    (["folder", "--force"], "cannot write folder: it is a folder"),
    (["other.db"], "cannot write other.db: it is a SQLite database"),
    (["notes.txt"], "cannot write notes.txt: the file exists and is not a demo database"),
])
def test_demo_refuses_a_folder_and_other_files(work, capfdbinary, monkeypatch, argv, message):
    monkeypatch.chdir(work[0])
    code, out, err = run(capfdbinary, "demo", *argv, "--turns", "2")
    assert code == 2 and out == "" and err.startswith(f"prompt-inspector: {message}")
    assert len(err.splitlines()) == 1
    _unchanged(work)


def test_demo_replaces_its_own_file_and_others_only_with_force(work, capfdbinary, monkeypatch):
    folder = work[0]
    monkeypatch.chdir(folder)
    code, _, _ = run(capfdbinary, "demo", "covel.db", "--turns", "2")
    assert code == 0
    code, _, _ = run(capfdbinary, "demo", "other.db", "--turns", "2", "--force")
    assert code == 0
    from inspector.demo import is_demo_file

    assert is_demo_file(folder / "covel.db") and is_demo_file(folder / "other.db")
    assert _listing(folder) == work[2]


@pytest.mark.parametrize(("argv", "message"), [
    (["--turns", "-1"], "turns must be from 1 to 10,000, not -1"),
    (["--turns", "0"], "turns must be from 1 to 10,000, not 0"),
    (["--turns", "1e11"], "turns must be a whole number from 1 to 10,000, not '1e11'"),
    (["--turns", "100000000000"], "turns must be from 1 to 10,000, not 100,000,000,000"),
    (["--turns", "9" * 5000], "turns must be a whole number from 1 to 10,000"),
    (["--scale", "nan"], "scale must be above 0 and at most 100, not nan"),
    (["--scale", "inf"], "scale must be above 0 and at most 100, not inf"),
    (["--scale", "0"], "scale must be above 0 and at most 100, not 0.0"),
    (["--scale", "-2"], "scale must be above 0 and at most 100, not -2.0"),
    (["--scale", "1000"], "scale must be above 0 and at most 100, not 1000.0"),
    (["--scale", "lots"], "scale must be a number above 0 and at most 100, not 'lots'"),
])
def test_demo_arguments_are_bounded(work, capfdbinary, monkeypatch, argv, message):
    monkeypatch.chdir(work[0])
    with pytest.raises(SystemExit) as exc:
        main(["demo", "new.db", *argv])
    _, err = capfdbinary.readouterr()
    assert exc.value.code == 2 and message in err.decode() and len(err.decode()) < 2000
    _unchanged(work)


def test_commands_return_the_error_boundarys_exit_statuses():
    # One table of exit statuses (inspector.error_boundary): the command line and the screenshot
    # save return its names, never a bare number that could drift from it.
    import ast
    from pathlib import Path

    from inspector import cli

    package = Path(cli.__file__).parent
    for source in (*sorted(package.glob("*.py")), package.parent.parent / "ui" / "snapshot.py",
                   package.parent.parent / "prompt_inspector" / "__init__.py"):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        literals = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Return)
                    and isinstance(node.value, ast.Constant) and type(node.value.value) is int]
        assert literals == [], source
