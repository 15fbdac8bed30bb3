"""``python -m inspector``: the command line of the headless core.

Every subcommand prints text, or JSON with ``--json``; the table of subcommands is
:mod:`inspector.cli.registry`. The desktop app is started by the program's entry point
(``prompt-inspector`` with no subcommand, :mod:`prompt_inspector`), which sits above both the
core and the app: the core never imports the app.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Callable, Sequence

from inspector.cli.common import CliError
from inspector.cli.registry import COMMANDS, named_command
from inspector.messages import localized, localized_sentence
from inspector.error_boundary import (
    DEBUG_FLAG,
    EXIT_BAD_INPUT,
    EXIT_OK,
    debug_requested,
    describe,
    without_debug_flag,
)

__all__ = ["CliError", "build_parser", "guarded", "main"]

PROGRAM = "prompt-inspector"


def build_parser(only: str | None = None,
                 app_options: Callable[[argparse.ArgumentParser], None] | None = None) -> argparse.ArgumentParser:
    """The command line's parser. Every command of the table is offered (``--help`` lists them
    from the table alone); the arguments of a command are added by its module, so only the
    command named ``only`` (when given) is configured and only its module imported: a command
    starts without importing every engine. ``app_options`` adds the desktop app's options to
    the help (the program's entry point passes them; the core knows nothing of the app)."""
    from inspector import __version__

    parser = argparse.ArgumentParser(
        prog=PROGRAM,
        description="Inspect what an LLM role-play engine sent to its models. "
        f"With no subcommand, `{PROGRAM}` starts the desktop app.",
    )
    parser.add_argument("--version", action="version", version=f"{PROGRAM} {__version__}",
                        help="print the program's version and exit")
    parser.add_argument(DEBUG_FLAG, action="store_true",
                        help="with any command: print the traceback of an unexpected error as well as its message")
    if app_options is not None:
        app_options(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command_parser = sub.add_parser(command.name, help=command.summary)
        if only is None or command.name == only:
            command.configure(command_parser, CliError)
    return parser


def main(argv: Sequence[str] | None = None,
         app_options: Callable[[argparse.ArgumentParser], None] | None = None) -> int:
    """Run one subcommand; returns the exit status (``inspector.error_boundary``). ``app_options``:
    see :func:`build_parser` (used for ``--help`` only)."""
    raw = list(sys.argv[1:] if argv is None else argv)
    return guarded(lambda: _run(without_debug_flag(raw), app_options), debug=debug_requested(raw))


def _run(argv: list[str], app_options: Callable[[argparse.ArgumentParser], None] | None = None) -> int:
    wants_help = list(argv[:1]) in (["-h"], ["--help"])
    args = build_parser(named_command(argv) or "", app_options if wants_help else None).parse_args(argv)
    if args.command is None:
        raise CliError(localized("no command given: `{program} --help` lists them; `{program}` without one starts "
                                 "the desktop app", program=PROGRAM))
    return args.func(args)


def guarded(action: Callable[[], int], *, debug: bool) -> int:
    """Run ``action`` (a command, or the app's start) inside the one error boundary: bad input is
    one line and status 2, every other failure a sentence with its status; ``debug`` adds the
    traceback."""
    try:
        return action()
    except CliError as exc:
        from inspector.store.urls import scrub_text

        # A message the core made from a template (a config file's error) in the locale's language too.
        sys.stderr.write(f"{PROGRAM}: {scrub_text(localized_sentence(str(exc)))}\n")
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        # `prompt-inspector prefix … | head` closes the pipe early; that is not an error.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
    except SystemExit:
        raise  # argparse's own messages and exit statuses
    except BaseException as exc:  # the one boundary: every other failure becomes a sentence
        failure = describe(exc)
        if debug:
            traceback.print_exc()
        sys.stderr.write(f"{PROGRAM}: {failure.message}\n")
        return failure.status
