"""``prompt-inspector demo``: the built-in demo store, written to a file or into PostgreSQL."""

from __future__ import annotations

import argparse
import os

from inspector.cli.common import CliError
from inspector.error_boundary import EXIT_OK
from inspector.messages import localized
from inspector.output import dump_json as _dump_json
from inspector.output import write_text as _write


def _demo_output(path: str, force: bool):
    """The demo's target, checked: never a folder; another program's SQLite database or any
    other existing file only with --force (a demo file this generator wrote may be replaced)."""
    from inspector.demo import is_demo_file
    from inspector.files import OutputPathError, check_output_path

    try:
        target = check_output_path(path, may_replace_database=lambda p: force or is_demo_file(p))
    except OutputPathError as exc:
        raise CliError(localized("{message} (or pass --force to replace it)", message=exc) if exc.is_database
                       else str(exc)) from None
    if not force and os.path.lexists(path) and not is_demo_file(path):
        raise CliError(localized("cannot write {path}: the file exists and is not a demo database; choose another "
                                 "file or pass --force to replace it", path=path))
    return target


def cmd_demo(args: argparse.Namespace) -> int:
    from inspector.demo import generate_demo
    from inspector.demo.pg import PgWriteError, generate_demo_pg, is_postgres_url
    from inspector.files import SaveError

    if is_postgres_url(args.path):
        try:
            pg = generate_demo_pg(args.path, turns=args.turns, scale=args.scale, overwrite=args.force)
        except PgWriteError as exc:
            raise CliError(str(exc)) from None
        if args.json:
            _write(_dump_json({"url": pg.url, "schema": pg.schema, "sessions": pg.sessions, "turns": pg.turns,
                               "executions": pg.executions, "llmCalls": pg.llm_calls, "rows": pg.rows}))
        else:
            _write(f"wrote {pg.url} (schema {pg.schema}): {pg.sessions} sessions, {pg.turns} turns, "
                   f"{pg.executions} executions, "
                   f"{pg.llm_calls} model requests, {pg.rows:,} rows\n")
        return EXIT_OK
    _demo_output(args.path, args.force)
    try:
        summary = generate_demo(args.path, turns=args.turns, scale=args.scale, overwrite=True)
    except SaveError as exc:
        raise CliError(str(exc)) from None
    if args.json:
        _write(_dump_json({"path": str(summary.path), "sessions": summary.sessions, "turns": summary.turns,
                           "executions": summary.executions, "llmCalls": summary.llm_calls, "bytes": summary.bytes}))
    else:
        _write(f"wrote {summary.path}: {summary.sessions} sessions, {summary.turns} turns, "
               f"{summary.executions} executions, "
               f"{summary.llm_calls} model requests, {summary.bytes:,} bytes\n")
    return EXIT_OK


def _demo_number(check, convert):
    """An argparse ``type=`` for a demo bound (``inspector.demo.limits``): the message is the
    bound's own."""
    def parse(text: str):
        from inspector.demo import limits

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




def configure_demo(p: argparse.ArgumentParser, error_type: type[Exception]) -> None:
    p.add_argument("path", metavar="PATH", help="file to write, or a postgresql:// URL to write the store into "
                   "(the schema its search_path selects)")
    p.add_argument("--turns", type=_demo_number("check_turns", int), default=12,
                   help="turns in the main session (default 12; bounded, a larger value is refused)")
    p.add_argument("--scale", type=_demo_number("check_scale", float), default=1.0,
                   help="prose length multiplier (for benchmarks; above 0, bounded like --turns)")
    p.add_argument("--force", action="store_true", help="overwrite an existing file (or Covel tables)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_demo)
