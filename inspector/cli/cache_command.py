"""``prompt-inspector cache``: the prompt-cache analysis of a store's sessions, as text, JSON, CSV
or a self-contained HTML report."""

from __future__ import annotations

import argparse
import sys

from inspector.cli.common import (
    CliError,
    open_store_or_fail,
    resolve_or_fail,
    shown,
    text_table,
    warn,
    warn_notes,
)
from inspector.error_boundary import EXIT_FAILED_CHECK, EXIT_NOTHING_EVALUATED, EXIT_OK
from inspector.ids import turn_numbers
from inspector.output import write_text as _write

_WORKER_START_WAIT_S = 15.0


def cmd_cache(args: argparse.Namespace) -> int:
    from inspector.cache import report as cache_report
    from inspector.cache.kept import KeptAnalyses, analyses_of
    from inspector.cache.rules import RulesError, load_rules

    gate = _gate_arguments(args)
    try:
        rules = load_rules(args.rules)
    except RulesError as exc:
        raise CliError(str(exc)) from None
    if args.html is not None:
        # Refused before the analysis: the report never replaces the database, the rules or any
        # other SQLite file, and a folder is no file name.
        from inspector.files import (
            OutputPathError,
            SaveError,
            check_output_path,
            write_atomic,
        )

        try:
            check_output_path(args.html, [args.db, args.rules, *rules.paths])
        except OutputPathError as exc:
            raise CliError(str(exc)) from None
    with open_store_or_fail(args.db) as store:
        if args.html is not None and store.path is not None:
            # The file a sqlite:// URL names is known only now: the report must not replace it
            # or one of its -wal/-journal either.
            try:
                check_output_path(args.html, [store.path])
            except OutputPathError as exc:
                raise CliError(str(exc)) from None
        printed = warn_notes(store)
        sessions = store.sessions()
        if args.session is not None:
            session_id = resolve_or_fail(store, "session", args.session, args.db)
            args.session = session_id  # --clear and the messages name the session in full
            sessions = [s for s in sessions if s.id == session_id]
            if not sessions:
                raise CliError(f"no session {args.session!r} in {shown(args.db)}")
        session_ids = [s.id for s in sessions]
        if args.clear:
            return _clear_kept(store, args)
        from inspector.cache.worker import WORKER_MIN_REQUESTS

        big = {s.id for s in sessions if (s.llm_call_count or 0) >= WORKER_MIN_REQUESTS}

        def before_analysing(missing: list[str]) -> None:
            if args.runtime is None and big.intersection(missing):
                # A big session is analysed by two processes (inspector.cache.worker); the worker's
                # start (about a second) is worth waiting for only then.
                from inspector.cache.worker import start_worker, worker_enabled

                if worker_enabled():
                    worker = start_worker()
                    if not worker.wait_ready(_WORKER_START_WAIT_S):
                        why = f"failed: {worker.failure}" if worker.failure else "did not start in time"
                        warn(f"the analysis runs in one process: its worker process {why}")

        if args.runtime is not None:
            from inspector.cache.analysis import analyse_session

            before_analysing(session_ids)
            analyses = [analyse_session(store, sid, rules=rules, runtime_id=args.runtime, warn=warn)
                        for sid in session_ids]
        else:
            # A session analysed before with the same rows, rules and program is read back
            # (inspector.cache.kept); --no-cache neither reads nor writes what is kept.
            keep = None if args.no_cache else KeptAnalyses(store, warn=warn)
            analyses = analyses_of(store, session_ids, rules, keep, warn, before_analysing)
        # The text report and the findings table name turns by number ("Turn 4"), as the app does.
        numbers = {} if args.json or args.csv else {a.session_id: turn_numbers(store, a.session_id) for a in analyses}
        warn_notes(store, printed)
    if args.html is not None:
        from inspector.export import report_source

        page = cache_report.report_html(analyses, source=report_source(shown(args.db), rules))
        try:
            write_atomic(args.html, page)
        except SaveError as exc:
            raise CliError(str(exc)) from None
        if not (args.json or args.csv):
            pairs = sum(len(a.pairs) for a in analyses)
            findings = sum(len(a.findings) for a in analyses)
            _write(f"wrote {args.html}: {len(analyses)} sessions, {pairs} requests, {findings} findings\n")
            return _gate_status(analyses, gate)
    if args.json:
        _write(cache_report.findings_json(analyses) if args.findings else cache_report.pairs_json(analyses))
    elif args.csv:
        _write(cache_report.findings_csv(analyses) if args.findings else cache_report.pairs_csv(analyses))
    elif args.findings:
        _write(findings_table(analyses, numbers))
    else:
        _write(cache_report.report_text(analyses, numbers))
    return _gate_status(analyses, gate)


def findings_table(analyses: list, turn_numbers: dict[str, dict[str, int]] | None = None) -> str:
    """``cache --findings`` without ``--json``/``--csv``: the layout findings as a table, a row each
    (the columns of the CSV; the turns by number, ``turn_numbers`` session → turn id → number, else
    by their short ids; at most five, then how many more)."""
    from inspector.ids import short_id

    rows = []
    for analysis in analyses:
        numbers = (turn_numbers or {}).get(analysis.session_id, {})
        for f in analysis.findings:
            d = f.to_json()
            turns = [str(numbers.get(t) or short_id(t)) for t in d.get("turnIds") or []]
            shown_turns = ", ".join(turns[:5]) + (f" (+{len(turns) - 5})" if len(turns) > 5 else "")
            rows.append([d.get("sessionId"), d.get("runtimeId"), d.get("severity"), d.get("kind"), d.get("part"),
                         f"{d.get('count')} of {d.get('outOf')}", shown_turns, d.get("message")])
    if not rows:
        return "no layout findings\n"
    return text_table(["session", "runtime", "severity", "finding", "part", "requests", "turns", "message"], rows)


def _clear_kept(store: object, args: argparse.Namespace) -> int:
    """``cache --clear``: remove the kept analyses of the store (of ``--session``), saying what went."""
    from inspector.cache.kept import KeptAnalyses

    keep = KeptAnalyses(store)
    files, size = keep.clear(args.session)
    what = f"session {args.session}" if args.session is not None else "every session"
    if files:
        _write(f"removed {files} kept cache {'analysis' if files == 1 else 'analyses'} ({size:,} bytes) "
               f"of {what} of {shown(args.db)} from {keep.directory}\n")
    else:
        _write(f"no kept cache analysis of {what} of {shown(args.db)} in {keep.directory}\n")
    return EXIT_OK


def _gate_arguments(args: argparse.Namespace) -> tuple[tuple[str, ...], float | None] | None:
    """The gate the user asked for (reasons, percent), checked before any reading; None: no gate."""
    if args.fail_on is None and args.fail_over is None:
        return None
    from inspector.cache.gate import GateError, parse_fail_on, parse_fail_over

    try:
        reasons = parse_fail_on(args.fail_on) if args.fail_on is not None else ()
        percent = parse_fail_over(args.fail_over) if args.fail_over is not None else None
    except GateError as exc:
        raise CliError(str(exc)) from None
    return reasons, percent


def _gate_status(analyses: list, gate: tuple[tuple[str, ...], float | None] | None) -> int:
    """The exit status the gate gives the analyses (the output is printed already), what failed on
    stderr."""
    if gate is None:
        return EXIT_OK
    from inspector.cache.gate import evaluate_gate

    result = evaluate_gate(analyses, *gate)
    if not result.evaluated:
        sys.stderr.write("cache gate: nothing to evaluate, no request pairs in the analysed sessions\n")
        return EXIT_NOTHING_EVALUATED
    for line in result.lines():
        sys.stderr.write(line + "\n")
    return EXIT_FAILED_CHECK if result.failed else EXIT_OK


def configure_cache(p: argparse.ArgumentParser, error_type: type[Exception]) -> None:
    p.add_argument("db", metavar="DB", help="covel.db path or database URL")
    p.add_argument("--session", metavar="ID", help="only this session")
    p.add_argument("--runtime", metavar="ID", help="only this runtime")
    p.add_argument("--rules", metavar="FILE",
                   help="provider rules to merge over the shipped table (default: $PROMPT_INSPECTOR_RULES)")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="print the pairs as a JSON list")
    fmt.add_argument("--csv", action="store_true", help="print the pairs as CSV")
    p.add_argument("--findings", action="store_true", help="print the layout findings (as a table, or with --json or --csv) instead of the pairs")
    p.add_argument("--html", metavar="FILE", help="write a self-contained HTML report with charts")
    p.add_argument("--fail-on", metavar="REASON[,REASON...]",
                   help="exit with status 1 when a pair has one of these reasons (status 3: no pairs)")
    p.add_argument("--fail-over", metavar="PERCENT",
                   help="exit with status 1 when more than PERCENT of the input was not read from the cache")
    p.add_argument("--no-cache", action="store_true",
                   help="analyse again, neither reading nor writing the analysis kept in the user's cache folder")
    p.add_argument("--clear", action="store_true",
                   help="remove the analyses of DB (of --session) kept in the user's cache folder, and say what went")
    p.set_defaults(func=cmd_cache)
