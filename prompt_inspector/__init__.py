"""The program: ``prompt-inspector`` starts the desktop app, or runs a subcommand of the core.

This package sits above both layers (``ui`` and ``inspector``) and is the only one that knows
both: which of the two a command line is for is the command table's answer
(:func:`inspector.cli.registry.wants_command_line`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from inspector.cli import guarded
from inspector.cli import main as command_line
from inspector.cli.registry import wants_command_line
from inspector.error_boundary import EXIT_BAD_INPUT, debug_requested, without_debug_flag


def main(argv: Sequence[str] | None = None) -> int:
    raw = list(sys.argv[1:] if argv is None else argv)
    if wants_command_line(without_debug_flag(raw)):
        return command_line(raw, app_options=_app_options())
    debug = debug_requested(raw)
    return guarded(lambda: start_app(without_debug_flag(raw), debug=debug), debug=debug)


def _app_options():
    """The app's options for the top-level ``--help`` (:func:`ui.app.help_options`); None when the
    app is not installed (its help then lists the commands alone)."""
    try:
        from ui.app import help_options
    except ImportError:
        return None
    return help_options


def start_app(argv: list[str], *, debug: bool = False) -> int:
    try:
        from ui.app import run_app
    except ImportError as exc:
        sys.stderr.write(f"prompt-inspector: the desktop app cannot start: {exc}\n"
                         "The command-line tools work without it: prompt-inspector --help\n")
        return EXIT_BAD_INPUT
    return run_app(argv, debug=debug)
