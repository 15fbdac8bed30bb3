"""The one error boundary: every failure of a command is one sentence and an exit status."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

import pytest

from inspector import cli
from inspector.cli import store_commands
from inspector.error_boundary import (
    EXIT_BAD_INPUT,
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    Failure,
    describe,
    debug_requested,
    without_debug_flag,
)
from inspector.store.errors import StoreOpenError


def _run_failing(monkeypatch, capsys, exc: BaseException, *extra: str) -> tuple[int, str, str]:
    def explode(_args):
        raise exc

    monkeypatch.setattr(store_commands, "cmd_sessions", explode)
    code = cli.main([*extra, "sessions", "any.db"])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("exc", "status", "words"),
    [
        (StoreOpenError("covel.db: database disk image is malformed"), EXIT_BAD_INPUT, "covel.db: database disk"),
        # Parsing is iterative and nesting bounded where it is read: reaching the limit is a defect.
        (RecursionError("maximum recursion depth exceeded"), EXIT_INTERNAL,
         "internal error (RecursionError: maximum recursion depth exceeded)"),
        (MemoryError(), EXIT_BAD_INPUT, "ran out of memory"),
        (OSError(errno.ENOSPC, "No space left on device", "report.html"), EXIT_BAD_INPUT,
         "report.html: no space left"),
        (PermissionError(errno.EACCES, "Permission denied", "/root/x"), EXIT_BAD_INPUT, "/root/x: Permission denied"),
        (sqlite3.DatabaseError("database disk image is malformed"), EXIT_BAD_INPUT, "the file is damaged"),
        (sqlite3.OperationalError("database is locked"), EXIT_BAD_INPUT, "locked by another process"),
        (UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"), EXIT_BAD_INPUT, "not valid text"),
        (KeyError("created_at"), EXIT_INTERNAL, "internal error (KeyError: 'created_at')"),
        (KeyboardInterrupt(), EXIT_INTERRUPTED, "interrupted"),
    ],
)
def test_every_failure_is_one_line_and_a_status(monkeypatch, capsys, exc, status, words):
    code, out, err = _run_failing(monkeypatch, capsys, exc)
    assert code == status
    assert out == ""
    assert err.startswith("prompt-inspector: ") and err.count("\n") == 1
    assert words in err
    assert "Traceback" not in err


def test_debug_adds_the_traceback_anywhere_on_the_line(monkeypatch, capsys):
    code, _out, err = _run_failing(monkeypatch, capsys, KeyError("turn_id"), "--debug")
    assert code == EXIT_INTERNAL
    assert "Traceback (most recent call last)" in err and "KeyError: 'turn_id'" in err
    assert err.rstrip().splitlines()[-1].startswith("prompt-inspector: internal error")


def test_debug_from_the_environment(monkeypatch, capsys):
    monkeypatch.setenv("PROMPT_INSPECTOR_DEBUG", "1")
    code, _out, err = _run_failing(monkeypatch, capsys, ValueError("boom"))
    assert code == EXIT_INTERNAL and "Traceback" in err


def test_the_debug_flag_is_taken_out_before_the_command_parses():
    assert without_debug_flag(["--debug", "sessions", "x.db"]) == ["sessions", "x.db"]
    assert without_debug_flag(["sessions", "x.db", "--debug"]) == ["sessions", "x.db"]
    # After "--" it is an operand, not the flag.
    assert without_debug_flag(["render", "--", "--debug"]) == ["render", "--", "--debug"]
    assert debug_requested(["a", "--debug"], env={}) and not debug_requested(["a"], env={})
    assert debug_requested([], env={"PROMPT_INSPECTOR_DEBUG": "yes"})


def test_describe_never_raises_on_odd_exceptions():
    class Weird(Exception):
        def __str__(self) -> str:
            return ""

    failure = describe(Weird())
    assert failure.internal and "Weird" in failure.message
    wrapped = Exception("wrapper")
    wrapped.orig = sqlite3.DatabaseError("file is not a database")  # the way SQLAlchemy wraps it
    assert describe(wrapped).status == EXIT_BAD_INPUT


def test_top_level_help_names_the_debug_flag(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["--help"])
    assert stop.value.code == 0
    assert "--debug" in capsys.readouterr().out


def test_a_secret_echoed_by_any_message_is_masked(monkeypatch, capsys):
    code, _out, err = _run_failing(
        monkeypatch, capsys, OSError(2, "No such file or directory", "host=db password=hunter2 dbname=covel"))
    assert code == EXIT_BAD_INPUT and "hunter2" not in err and "password=" in err
    code, _out, err = _run_failing(monkeypatch, capsys, ValueError("postgresql://alice:s3cret@db/covel"))
    assert code == EXIT_INTERNAL and "s3cret" not in err and "alice" in err


def test_a_recursion_error_asks_for_a_report():
    failure = describe(RecursionError("maximum recursion depth exceeded"))
    assert failure.status == EXIT_INTERNAL and failure.internal
    assert "please report it" in failure.message and "--debug" in failure.message


@pytest.mark.parametrize("error", [
    sqlite3.DatabaseError("database disk image is malformed"),
    sqlite3.OperationalError("database is locked"),
    sqlite3.DatabaseError("file is not a database"),
    sqlite3.OperationalError("no such table: trace_events"),
])
def test_a_stray_sqlite_error_gets_the_stores_one_translation(error):
    from inspector.store import DEFAULT_BUSY_TIMEOUT
    from inspector.store.read_errors import translate_error

    failure = describe(error)
    expected = str(translate_error(error, "the database", DEFAULT_BUSY_TIMEOUT, path=Path("FILE")))
    assert failure == Failure(expected, EXIT_BAD_INPUT)
    assert "\n" not in failure.message and failure.message.startswith("the database")
