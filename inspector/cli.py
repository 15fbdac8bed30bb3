"""``prompt-inspector`` / ``python -m inspector``: the command line.

With no subcommand it starts the desktop app (opening the built-in demo database when no file is
given). Every other subcommand is headless and prints text, or JSON with ``--json``.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
import unicodedata
from collections.abc import Sequence
from typing import Any

from .error_boundary import DEBUG_FLAG, EXIT_BAD_INPUT, EXIT_OK, debug_requested, describe, without_debug_flag
from .output import dump_json as _dump_json, write_text as _write

_CORE_SUBCOMMANDS = ("prefix", "sessions", "turns", "requests", "show", "demo", "cache", "turn")

# Engines other than Covel's store bring their own subcommands. Each module named here exposes
# `COMMANDS` (the subcommand names, repeated here so that starting the app or another command
# does not import every engine) and `register(subparsers, error_type)`, which adds them; a command
# that fails raises `error_type` (this module's CliError) with the message to print.
_COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "inspector.zones.commands": ("lint", "render"),
    "inspector.writing_agent.commands": ("order", "assemble"),
}


def _command_modules() -> list[Any]:
    import importlib
    return [importlib.import_module(name) for name in _COMMAND_MODULES]


SUBCOMMANDS = _CORE_SUBCOMMANDS + tuple(name for names in _COMMAND_MODULES.values() for name in names)


class CliError(Exception):
    """Bad input the user can fix (a file, an id, an argument): printed as one line, exit status 2."""


def _warn(message: str) -> None:
    sys.stderr.write(f"warning: {message}\n")


def _warn_notes(store: Any, already: int = 0) -> int:
    """What the store adapted to (``schema_notes``), once each, after the reads: the notes about
    values of the wrong type are made while reading. ``already``: how many were printed before
    the reads (by a command that warns first, as Covel's script does); returns the count printed."""
    notes = list(store.schema_notes)
    for note in notes[already:]:
        _warn(note)
    return len(notes)


def _shown(db: str) -> str:
    """The store as a message may name it: a URL without its password (a path as given)."""
    from .store.urls import shown_url

    return shown_url(db)


def _open(db: str):
    from .store import open_store
    from .store.errors import StoreError

    try:
        return open_store(db)
    except StoreError as exc:
        raise CliError(str(exc)) from None


# --- prefix ----------------------------------------------------------------------------------

def cmd_prefix(args: argparse.Namespace) -> int:
    from inspector.prefix import report as prefix

    with _open(args.db) as store:
        printed = _warn_notes(store)
        extended = None
        if args.extended:
            from inspector.prefix.extended import ExtendedPrefix

            extended = ExtendedPrefix()
        entries = prefix.build_report(
            # As in the original, an empty --session value means every session.
            store.iter_llm_calling_rows(args.session or None),
            warn=_warn,
            on_pair=extended.on_pair if extended else None,
        )
        _warn_notes(store, printed)
    if args.json:
        if extended:
            _write(extended.report_json(entries) + "\n")
        else:
            _write(prefix.report_json(entries) + "\n")
    else:
        text = prefix.report_table(entries, args.show)
        if extended:
            text += extended.table_appendix(entries)
        _write(text)
    return EXIT_OK


# --- sessions / turns / requests / show ------------------------------------------------------

def _table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    def width(value: str) -> int:
        # East Asian wide characters take two columns in a terminal.
        return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in value)

    cells = [[str(h) for h in headers]] + [["" if c is None else str(c) for c in row] for row in rows]
    widths = [max(width(row[i]) for row in cells) for i in range(len(headers))]
    lines = []
    for row in cells:
        lines.append("  ".join(cell + " " * (widths[i] - width(cell)) for i, cell in enumerate(row)).rstrip())
    return "\n".join(lines) + "\n"


def cmd_sessions(args: argparse.Namespace) -> int:
    from .views import session_rows

    with _open(args.db) as store:
        rows = session_rows(store)
        _warn_notes(store)
    if args.json:
        _write(_dump_json(rows))
        return EXIT_OK
    headers = ["session", "world", "locale", "phase", "turns", "executions", "llm calls", "updated"]
    _write(_table(headers, [[r["sessionId"], r["world"], r["locale"], r["phase"], r["completedPlayerTurns"],
                             r["executions"], r["llmCalls"], r["updatedAt"]] for r in rows]))
    return EXIT_OK


def cmd_turns(args: argparse.Namespace) -> int:
    from .views import turn_rows

    with _open(args.db) as store:
        rows = turn_rows(store, args.session)
        _warn_notes(store)
    if args.json:
        _write(_dump_json(rows))
        return EXIT_OK
    headers = ["#", "turn", "origin", "commit", "started", "duration", "calls", "runtimes"]
    _write(_table(headers, [[r["number"], r["turnId"], r["origin"], r["commitStatus"] or "-", r["startedAt"],
                             "" if r["durationMs"] is None else f"{r['durationMs']} ms" if isinstance(
                                 r["durationMs"], int) else r["durationMs"], r["llmCalls"],
                             ", ".join(r["runtimeIds"])] for r in rows]))
    return EXIT_OK


def cmd_requests(args: argparse.Namespace) -> int:
    from .views import request_rows

    with _open(args.db) as store:
        rows = request_rows(store, session_id=args.session, turn_id=args.turn, runtime_id=args.runtime)
        _warn_notes(store)
    if args.json:
        _write(_dump_json(rows))
        return EXIT_OK
    headers = ["event", "turn", "runtime", "stage", "step", "try", "model", "protocol", "in tok", "cached", "ms"]
    _write(_table(headers, [[r["eventId"], r["turnId"][:8], r["runtimeId"], r["stage"] or "", r["step"], r["attempt"],
                             r["model"], r["protocol"] or "kernel", r["inputTokens"], r["cachedTokens"],
                             r["durationMs"]] for r in rows]))
    return EXIT_OK


def cmd_show(args: argparse.Namespace) -> int:
    from .views import request_anatomy

    with _open(args.db) as store:
        detail = request_anatomy(store, args.event_id, exact=not args.no_exact)
        _warn_notes(store)
    if detail is None:
        raise CliError(f"no trace event {args.event_id!r} in {_shown(args.db)}")
    if args.json:
        _write(_dump_json(detail.to_json()))
    else:
        _write(detail.to_text())
    return EXIT_OK


def cmd_turn(args: argparse.Namespace) -> int:
    from inspector.turn.model import TurnNotFoundError, build_turn

    with _open(args.db) as store:
        session_id = store.session_of_turn(args.turn_id)
        try:
            if session_id is None:
                raise CliError(f"no turn {args.turn_id!r} in {_shown(args.db)}")
            try:
                turn = build_turn(store, session_id, args.turn_id)
            except TurnNotFoundError as exc:
                raise CliError(str(exc)) from None
        finally:
            _warn_notes(store)
    _write(_dump_json(turn.to_json()) if args.json else turn.to_text())
    return EXIT_OK


def _demo_output(path: str, force: bool):
    """The demo's target, checked: never a folder; another program's SQLite database or any
    other existing file only with --force (a demo file this generator wrote may be replaced)."""
    from .demo import is_demo_file
    from .files import OutputPathError, check_output_path

    try:
        target = check_output_path(path, may_replace_database=lambda p: force or is_demo_file(p))
    except OutputPathError as exc:
        raise CliError(f"{exc} (or pass --force to replace it)" if "SQLite" in str(exc) else str(exc)) from None
    if not force and os.path.lexists(path) and not is_demo_file(path):
        raise CliError(f"cannot write {path}: the file exists and is not a demo database; choose another "
                       "file or pass --force to replace it")
    return target


def cmd_demo(args: argparse.Namespace) -> int:
    from .demo import generate_demo
    from .demo.pg import PgWriteError, generate_demo_pg, is_postgres_url
    from .files import SaveError

    if is_postgres_url(args.path):
        try:
            pg = generate_demo_pg(args.path, turns=args.turns, scale=args.scale, overwrite=args.force)
        except PgWriteError as exc:
            raise CliError(str(exc)) from None
        if args.json:
            _write(_dump_json({"url": pg.url, "schema": pg.schema, "sessions": pg.sessions, "turns": pg.turns,
                               "llmCalls": pg.llm_calls, "rows": pg.rows}))
        else:
            _write(f"wrote {pg.url} (schema {pg.schema}): {pg.sessions} sessions, {pg.turns} turns, "
                   f"{pg.llm_calls} model requests, {pg.rows:,} rows\n")
        return EXIT_OK
    _demo_output(args.path, args.force)
    try:
        summary = generate_demo(args.path, turns=args.turns, scale=args.scale, overwrite=True)
    except SaveError as exc:
        raise CliError(str(exc)) from None
    if args.json:
        _write(_dump_json({"path": str(summary.path), "sessions": summary.sessions, "turns": summary.turns,
                           "llmCalls": summary.llm_calls, "bytes": summary.bytes}))
    else:
        _write(f"wrote {summary.path}: {summary.sessions} sessions, {summary.turns} turns, "
               f"{summary.llm_calls} model requests, {summary.bytes:,} bytes\n")
    return EXIT_OK


def _demo_number(check, convert):
    """An argparse ``type=`` for a demo bound (``inspector.demo.limits``): the message is the
    bound's own."""
    def parse(text: str):
        from .demo import limits

        try:
            value = convert(text)
        except ValueError:
            value = text
        try:
            return getattr(limits, check)(value)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    parse.__name__ = check.removeprefix("check_")
    return parse


# --- cache -----------------------------------------------------------------------------------

_WORKER_MIN_REQUESTS = 1000
_WORKER_START_WAIT_S = 15.0


def cmd_cache(args: argparse.Namespace) -> int:
    from inspector.cache import report as cache_report
    from inspector.cache.analysis import analyse_session
    from inspector.cache.rules import RulesError, load_rules

    try:
        rules = load_rules(args.rules)
    except RulesError as exc:
        raise CliError(str(exc)) from None
    if args.html is not None:
        # Refused before the analysis: the report never replaces the database, the rules or any
        # other SQLite file, and a folder is no file name.
        from .files import OutputPathError, SaveError, check_output_path, write_atomic

        try:
            check_output_path(args.html, [args.db, args.rules, *rules.paths])
        except OutputPathError as exc:
            raise CliError(str(exc)) from None
    with _open(args.db) as store:
        if args.html is not None and store.path is not None:
            # The file a sqlite:// URL names is known only now: the report must not replace it
            # or one of its -wal/-journal either.
            try:
                check_output_path(args.html, [store.path])
            except OutputPathError as exc:
                raise CliError(str(exc)) from None
        printed = _warn_notes(store)
        sessions = store.sessions()
        if args.session is not None:
            sessions = [s for s in sessions if s.id == args.session]
            if not sessions:
                raise CliError(f"no session {args.session!r} in {_shown(args.db)}")
        session_ids = [s.id for s in sessions]
        if args.runtime is None and any((s.llm_call_count or 0) >= _WORKER_MIN_REQUESTS for s in sessions):
            # A big session is analysed by two processes (inspector.cache.worker); the worker's
            # start (about a second) is worth waiting for only then.
            from inspector.cache.worker import start_worker, worker_enabled

            if worker_enabled():
                worker = start_worker()
                if not worker.wait_ready(_WORKER_START_WAIT_S):
                    why = f"failed: {worker.failure}" if worker.failure else "did not start in time"
                    _warn(f"the analysis runs in one process: its worker process {why}")
        analyses = [analyse_session(store, sid, rules=rules, runtime_id=args.runtime, warn=_warn)
                    for sid in session_ids]
        _warn_notes(store, printed)
    if args.html is not None:
        page = cache_report.report_html(analyses, source=f"{_shown(args.db)} · rules: "
                                        + ", ".join(str(p) for p in rules.paths))
        try:
            write_atomic(args.html, page)
        except SaveError as exc:
            raise CliError(str(exc)) from None
        if not (args.json or args.csv):
            pairs = sum(len(a.pairs) for a in analyses)
            findings = sum(len(a.findings) for a in analyses)
            _write(f"wrote {args.html}: {len(analyses)} sessions, {pairs} requests, {findings} findings\n")
            return EXIT_OK
    if args.json:
        _write(cache_report.findings_json(analyses) if args.findings else cache_report.pairs_json(analyses))
    elif args.csv:
        _write(cache_report.findings_csv(analyses) if args.findings else cache_report.pairs_csv(analyses))
    else:
        _write(cache_report.report_text(analyses))
    return EXIT_OK


# --- parser ----------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="prompt-inspector",
        description="Inspect what an LLM role-play engine sent to its models. "
        "With no subcommand, start the desktop app.",
    )
    parser.add_argument(DEBUG_FLAG, action="store_true",
                        help="with any command: print the traceback of an unexpected error as well as its message")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("prefix", help="how much of each turn's first request repeats the previous turn's "
                       "(the numbers of Covel's `pnpm prompt:prefix`)")
    p.add_argument("db", metavar="DB", help="covel.db path or database URL")
    p.add_argument("--session", metavar="ID", help="only this session")
    p.add_argument("--show", metavar="RUNTIME", help="print every pair of this runtime with context")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--extended", action="store_true",
                   help="add exact tiktoken counts and name each first difference as an anatomy part")
    p.set_defaults(func=cmd_prefix)

    p = sub.add_parser("sessions", help="list sessions")
    p.add_argument("db", metavar="DB")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_sessions)

    p = sub.add_parser("turns", help="list the turns (executions) of a session")
    p.add_argument("db", metavar="DB")
    p.add_argument("session", metavar="SESSION")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_turns)

    p = sub.add_parser("requests", help="list recorded model requests")
    p.add_argument("db", metavar="DB")
    p.add_argument("--session", metavar="ID")
    p.add_argument("--turn", metavar="ID")
    p.add_argument("--runtime", metavar="ID")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_requests)

    p = sub.add_parser("show", help="the anatomy of one request as an indented tree with token counts")
    p.add_argument("db", metavar="DB")
    p.add_argument("event_id", metavar="EVENT_ID", help="id of an llm.calling trace event")
    p.add_argument("--json", action="store_true")
    p.add_argument("--no-exact", action="store_true", help="skip exact tiktoken counts (estimates only)")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("turn", help="step through one turn: stages, parallel groups, runtimes, model calls, tools")
    p.add_argument("db", metavar="DB")
    p.add_argument("turn_id", metavar="TURN_ID", help="execution id (turn_results.turn_id / trace_events.turn_id)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_turn)

    p = sub.add_parser("cache", help="prompt-cache analysis: where each request stops repeating the last one, "
                       "why, and what the provider will cache")
    p.add_argument("db", metavar="DB", help="covel.db path or database URL")
    p.add_argument("--session", metavar="ID", help="only this session")
    p.add_argument("--runtime", metavar="ID", help="only this runtime")
    p.add_argument("--rules", metavar="FILE",
                   help="provider rules to merge over the shipped table (default: $PROMPT_INSPECTOR_RULES)")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print the pairs as a JSON list")
    fmt.add_argument("--csv", action="store_true", help="print the pairs as CSV")
    p.add_argument("--findings", action="store_true", help="with --json or --csv: print the layout findings instead")
    p.add_argument("--html", metavar="FILE", help="write a self-contained HTML report with charts")
    p.set_defaults(func=cmd_cache)

    p = sub.add_parser("demo", help="write the built-in demo covel.db (or into PostgreSQL)")
    p.add_argument("path", metavar="PATH", help="file to write, or a postgresql:// URL to write the store into "
                   "(the schema its search_path selects)")
    p.add_argument("--turns", type=_demo_number("check_turns", int), default=12,
                   help="turns in the main session (default 12; bounded, a larger value is refused)")
    p.add_argument("--scale", type=_demo_number("check_scale", float), default=1.0,
                   help="prose length multiplier (for benchmarks; above 0, bounded like --turns)")
    p.add_argument("--force", action="store_true", help="overwrite an existing file (or Covel tables)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_demo)

    for module in _command_modules():
        module.register(sub, CliError)
    return parser


def _start_app(argv: list[str], *, debug: bool = False) -> int:
    try:
        from ui.app import run_app
    except ImportError as exc:
        sys.stderr.write(f"prompt-inspector: the desktop app cannot start: {exc}\n"
                         "The command-line tools work without it: prompt-inspector --help\n")
        return EXIT_BAD_INPUT
    return run_app(argv, debug=debug)


def main(argv: Sequence[str] | None = None) -> int:
    raw = list(sys.argv[1:] if argv is None else argv)
    debug = debug_requested(raw)
    args_list = without_debug_flag(raw)
    first = next((a for a in args_list if not a.startswith("-")), None)
    wants_help = args_list[:1] in (["-h"], ["--help"])
    try:
        if not wants_help and first not in SUBCOMMANDS:
            return _start_app(args_list, debug=debug)
        parser = build_parser()
        args = parser.parse_args(args_list)
        return args.func(args)
    except CliError as exc:
        from .store.urls import scrub_text

        sys.stderr.write(f"prompt-inspector: {scrub_text(str(exc))}\n")
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
        sys.stderr.write(f"prompt-inspector: {failure.message}\n")
        return failure.status
