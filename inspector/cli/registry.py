"""The one table of subcommands: each command's name, its one-line help and where it lives.

Every place that needs to know the commands reads this table: the parser (``inspector.cli``),
the entry point deciding between the command line and the desktop app (``prompt_inspector``),
``--help`` and the tests. A command's module is imported only when that command runs (or its
own ``--help`` is asked for), so that starting the app or one command does not import every
engine; the module provides
``configure_<name>(parser, error_type)``, which adds the command's arguments and sets
``func``. A command that fails raises ``error_type`` (``inspector.cli.common.CliError``) with the
message to print.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from inspector.error_boundary import DEBUG_FLAG


@dataclass(frozen=True, slots=True)
class Command:
    name: str
    module: str  # where ``configure_<name>`` lives
    summary: str  # the line ``--help`` shows

    def configure(self, parser: Any, error_type: type[Exception]) -> None:
        getattr(importlib.import_module(self.module), f"configure_{self.name}")(parser, error_type)


_STORE = "inspector.cli.store_commands"

COMMANDS: tuple[Command, ...] = (
    Command("prefix", _STORE, "how much of each turn's first request repeats the previous turn's "
            "(the numbers of Covel's `pnpm prompt:prefix`)"),
    Command("sessions", _STORE, "list sessions"),
    Command("turns", _STORE, "list the executions of a session: its player turns and its opening and "
            "internal runs, numbered as the app names them (Turn 4)"),
    Command("requests", _STORE, "list recorded model requests"),
    Command("show", _STORE, "the anatomy of one request as an indented tree with token counts"),
    Command("compare", "inspector.cli.compare_command", "two requests aligned part by part, and where the "
            "provider first reads them differently"),
    Command("turn", _STORE, "step through one turn: stages, parallel groups, runtimes, model calls, tools"),
    Command("cache", "inspector.cli.cache_command", "prompt-cache analysis: where each request stops repeating "
            "the last one, why, and what the provider will cache"),
    Command("demo", "inspector.cli.demo_command", "write the built-in demo covel.db (or into PostgreSQL)"),
    Command("lint", "inspector.zones.commands", "check a ChatLuna preset (.yml), a prompt-zones config "
            "(JSON/YAML/TOML) or a Covel runtime body; exit status 1 on errors"),
    Command("render", "inspector.zones.commands", "the messages a ChatLuna preset sends, a prompt-zones config "
            "assembled for one turn, or a Covel runtime body with the catalog's example values"),
    Command("order", "inspector.writing_agent.commands", "read a context-order.v1 table (JSON, or text with a "
            "JSON block), normalise it and apply edits"),
    Command("assemble", "inspector.writing_agent.commands", "the messages one worker of a writing-agent order "
            "is sent, with its bags and each segment's share"),
)

NAMES: frozenset[str] = frozenset(c.name for c in COMMANDS)


# The command line's own options before a command (they take no values); any other option there
# belongs to the desktop app (``--view order``: "order" is the option's value, not the command).
OWN_OPTIONS: frozenset[str] = frozenset({"-h", "--help", "--version", DEBUG_FLAG})


def named_command(argv: Sequence[str]) -> str | None:
    """The command a command line names: its first word that is not an option, when that is a
    command's name and only the command line's own options (:data:`OWN_OPTIONS`) come before it."""
    for word in argv:
        if word.startswith("-"):
            if word not in OWN_OPTIONS:
                return None
            continue
        return word if word in NAMES else None
    return None


def wants_command_line(argv: Sequence[str]) -> bool:
    """Is this command line for a subcommand (or the command line's own help or version)? Otherwise it is
    for the desktop app: no subcommand, only a database to open and the app's options. The first
    word that is not an option decides, when only the command line's own options come before it
    (an app option before it, ``--view order``, means the app)."""
    if list(argv[:1]) in (["-h"], ["--help"], ["--version"]):
        return True
    return named_command(argv) is not None
