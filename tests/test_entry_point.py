"""The program's entry point (``prompt-inspector``, ``python -m prompt_inspector``): a command line
naming a subcommand runs it; anything else starts the app, inside the same error boundary."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import prompt_inspector
from inspector.error_boundary import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_OK


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[tuple[list[str], bool]]:
    calls: list[tuple[list[str], bool]] = []

    def start_app(argv: list[str], *, debug: bool = False) -> int:
        calls.append((argv, debug))
        return EXIT_OK

    monkeypatch.setattr(prompt_inspector, "start_app", start_app)
    return calls


def test_a_subcommand_runs_the_command_line(demo_store: Path, started, capfdbinary) -> None:
    assert prompt_inspector.main(["sessions", str(demo_store)]) == EXIT_OK
    assert b"demo-lantern-deepseek" in capfdbinary.readouterr().out
    assert started == []


def test_no_subcommand_starts_the_app_with_its_arguments(started) -> None:
    assert prompt_inspector.main([]) == EXIT_OK
    assert prompt_inspector.main(["covel.db", "--screenshot", "out.png"]) == EXIT_OK
    assert prompt_inspector.main(["--debug", "covel.db"]) == EXIT_OK
    assert started == [([], False), (["covel.db", "--screenshot", "out.png"], False), (["covel.db"], True)]


def test_help_is_the_command_lines(started, capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        prompt_inspector.main(["--help"])
    assert exc.value.code == 0 and "COMMAND" in capsys.readouterr().out and started == []


def test_the_app_failing_to_start_is_one_line_and_a_status(monkeypatch: pytest.MonkeyPatch, capfd) -> None:
    def broken(argv: list[str], *, debug: bool = False) -> Any:
        raise RuntimeError("the display went away")

    monkeypatch.setattr(prompt_inspector, "start_app", broken)
    assert prompt_inspector.main(["covel.db"]) == EXIT_INTERNAL
    err = capfd.readouterr().err
    assert err.count("\n") == 1 and "the display went away" in err and "Traceback" not in err


def test_an_unknown_store_for_a_command_is_bad_input(tmp_path: Path, started, capfd) -> None:
    assert prompt_inspector.main(["sessions", str(tmp_path / "missing.db")]) == EXIT_BAD_INPUT
    assert "missing.db" in capfd.readouterr().err and started == []
