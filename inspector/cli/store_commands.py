"""The subcommands that read a Covel store: ``prefix``, ``sessions``, ``turns``, ``requests``,
``show`` and ``turn``. Each prints text, or JSON with ``--json``; their names and one-line help are
in :mod:`inspector.cli.registry`.
"""

from __future__ import annotations

import argparse

from inspector.cli.common import (
    CliError,
    open_store_or_fail,
    resolve_or_fail,
    shown,
    text_table,
    warn,
    warn_notes,
)
from inspector.error_boundary import EXIT_OK
from inspector.ids import request_names, short_id, turn_name, turn_numbers
from inspector.messages import localized
from inspector.numbering import shown as shown_number
from inspector.output import dump_json as _dump_json
from inspector.output import write_text as _write
from inspector.store.turn_counts import EXECUTIONS_LABEL, TURNS_LABEL


def cmd_prefix(args: argparse.Namespace) -> int:
    from inspector.prefix import report as prefix

    with open_store_or_fail(args.db) as store:
        printed = warn_notes(store)
        extended = None
        if args.extended:
            from inspector.prefix.extended import ExtendedPrefix

            extended = ExtendedPrefix()
        entries = prefix.build_report(
            # As in the original, an empty --session value means every session.
            store.iter_llm_calling_rows(args.session or None),
            warn=warn,
            on_pair=extended.on_pair if extended else None,
        )
        warn_notes(store, printed)
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



def cmd_sessions(args: argparse.Namespace) -> int:
    from inspector.views import session_rows

    with open_store_or_fail(args.db) as store:
        rows = session_rows(store)
        warn_notes(store)
    if args.json:
        _write(_dump_json(rows))
        return EXIT_OK
    headers = ["session", "world", "locale", "phase", TURNS_LABEL, EXECUTIONS_LABEL, "llm calls", "updated"]
    _write(text_table(headers, [[r["sessionId"], r["world"], r["locale"], r["phase"], r["completedPlayerTurns"],
                             r["executions"], r["llmCalls"], r["updatedAt"]] for r in rows]))
    return EXIT_OK


def cmd_turns(args: argparse.Namespace) -> int:
    from inspector.views import turn_rows

    with open_store_or_fail(args.db) as store:
        try:
            session_id = resolve_or_fail(store, "session", args.session, args.db)
            rows = turn_rows(store, session_id)
        finally:
            warn_notes(store)
    if args.json:
        _write(_dump_json(rows))
        return EXIT_OK
    headers = ["#", "turn", "origin", "commit", "started", "duration", "calls", "runtimes"]
    _write(text_table(headers, [[r["number"], short_id(r["turnId"]), r["origin"], r["commitStatus"] or "-", r["startedAt"],
                             "" if r["durationMs"] is None else f"{r['durationMs']} ms" if isinstance(
                                 r["durationMs"], int) else r["durationMs"], r["llmCalls"],
                             ", ".join(r["runtimeIds"])] for r in rows]))
    return EXIT_OK


def cmd_requests(args: argparse.Namespace) -> int:
    from inspector.views import request_rows

    with open_store_or_fail(args.db) as store:
        try:
            session_id = None if args.session is None else resolve_or_fail(store, "session", args.session, args.db)
            turn_id = None if args.turn is None else resolve_or_fail(store, "turn", args.turn, args.db)
            if turn_id is not None and session_id is not None and store.session_of_turn(turn_id) != session_id:
                raise CliError(localized("turn {turn} is not a turn of session {session} in {where}", turn=turn_id,
                                         session=session_id, where=shown(args.db)))
            rows = request_rows(store, session_id=session_id, turn_id=turn_id, runtime_id=args.runtime)
            # The turn column is the turn's number in its session ("Turn 4"), as the app names it.
            numbers = {} if args.json else {sid: turn_numbers(store, sid)
                                            for sid in dict.fromkeys(r["sessionId"] for r in rows) if sid is not None}
        finally:
            warn_notes(store)
    if args.json:
        _write(_dump_json(rows))
        return EXIT_OK

    def turn_of(r: dict) -> object:
        return numbers.get(r["sessionId"], {}).get(r["turnId"]) or short_id(r["turnId"])

    headers = ["event", "turn", "runtime", "stage", "step", "try", "model", "protocol", "in tok", "cached", "ms"]
    _write(text_table(headers, [[short_id(r["eventId"]), turn_of(r), r["runtimeId"], r["stage"] or "",
                                 shown_number(r["step"]), shown_number(r["attempt"]), r["model"],
                                 r["protocol"] or "kernel", r["inputTokens"], r["cachedTokens"], r["durationMs"]]
                                for r in rows]))
    return EXIT_OK


def cmd_show(args: argparse.Namespace) -> int:
    from inspector.views import request_anatomy

    with open_store_or_fail(args.db) as store:
        try:
            event_id = resolve_or_fail(store, "request", args.event_id, args.db)
            detail = request_anatomy(store, event_id, exact=not args.no_exact)
            if detail is None:
                raise CliError(localized("no request {id} in {db}", id=repr(event_id), db=shown(args.db)))
            name = None if args.json else request_names(store, [detail.row])[0]
        finally:
            warn_notes(store)
    if args.json:
        _write(_dump_json(detail.to_json()))
    else:
        _write(f"{name}\n{detail.to_text()}")
    return EXIT_OK


def cmd_turn(args: argparse.Namespace) -> int:
    from inspector.turn.builder import build_turn
    from inspector.turn.model import TurnNotFoundError
    from inspector.turn.outline import turn_outline

    with open_store_or_fail(args.db) as store:
        try:
            turn_id = resolve_or_fail(store, "turn", args.turn_id, args.db)
            session_id = store.session_of_turn(turn_id)
            if session_id is None:
                raise CliError(localized("no turn {id} in {db}", id=repr(turn_id), db=shown(args.db)))
            try:
                turn = build_turn(store, session_id, turn_id)
            except TurnNotFoundError as exc:
                raise CliError(str(exc)) from None
            name = None if args.json else turn_name(turn_numbers(store, session_id).get(turn_id), turn_id)
        finally:
            warn_notes(store)
    _write(_dump_json(turn.to_json()) if args.json else f"{name}\n{turn_outline(turn)}")
    return EXIT_OK


# --- arguments -----------------------------------------------------------------------------

def configure_prefix(p: argparse.ArgumentParser, error_type: type[Exception]) -> None:
    p.add_argument("db", metavar="DB", help="covel.db path or database URL")
    p.add_argument("--session", metavar="ID", help="only this session")
    p.add_argument("--show", metavar="RUNTIME", help="print every pair of this runtime with context")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--extended", action="store_true",
                   help="add exact tiktoken counts and name each first difference as an anatomy part")
    p.set_defaults(func=cmd_prefix)


def configure_sessions(p: argparse.ArgumentParser, error_type: type[Exception]) -> None:
    p.add_argument("db", metavar="DB")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_sessions)


def configure_turns(p: argparse.ArgumentParser, error_type: type[Exception]) -> None:
    p.add_argument("db", metavar="DB")
    p.add_argument("session", metavar="SESSION", help="session id, or the start of one")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_turns)


def configure_requests(p: argparse.ArgumentParser, error_type: type[Exception]) -> None:
    p.add_argument("db", metavar="DB")
    p.add_argument("--session", metavar="ID", help="only this session (its id, or the start of one)")
    p.add_argument("--turn", metavar="ID", help="only this turn (its id, or the start of one)")
    p.add_argument("--runtime", metavar="ID")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_requests)


def configure_show(p: argparse.ArgumentParser, error_type: type[Exception]) -> None:
    p.add_argument("db", metavar="DB")
    p.add_argument("event_id", metavar="EVENT_ID", help="id of an llm.calling trace event, or the start of one (the `requests` table's 8 characters)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--no-exact", action="store_true", help="skip exact tiktoken counts (estimates only)")
    p.set_defaults(func=cmd_show)


def configure_turn(p: argparse.ArgumentParser, error_type: type[Exception]) -> None:
    p.add_argument("db", metavar="DB")
    p.add_argument("turn_id", metavar="TURN_ID", help="execution id (turn_results.turn_id / trace_events.turn_id), or the start of one")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_turn)
