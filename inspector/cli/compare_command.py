"""``compare DB EVENT_A EVENT_B [--json]``: the Compare view on the command line.

Both requests are aligned part by part (:func:`inspector.anatomy.compare.compare_details`); the
first difference is where the provider first reads them differently
(:mod:`inspector.anatomy.divergence`), the same point the cache analysis and the app name.
"""

from __future__ import annotations

import argparse

from inspector.cli.common import (
    CliError,
    open_store_or_fail,
    resolve_or_fail,
    shown,
    warn_notes,
)
from inspector.error_boundary import EXIT_OK
from inspector.output import write_text


def configure_compare(p: argparse.ArgumentParser, error_type: type[Exception]) -> None:
    p.add_argument("db", metavar="DB", help="covel.db path or database URL")
    p.add_argument("event_a", metavar="EVENT_A", help="id of the earlier llm.calling event (the left side), or the start of one")
    p.add_argument("event_b", metavar="EVENT_B", help="id of the later llm.calling event (the right side), or the start of one")
    p.add_argument("--json", action="store_true")
    p.add_argument("--no-exact", action="store_true", help="skip exact tiktoken counts (estimates only)")
    p.set_defaults(func=cmd_compare)


def cmd_compare(args: argparse.Namespace) -> int:
    from inspector.anatomy.compare import compare_details
    from inspector.ids import request_names
    from inspector.views import request_detail

    with open_store_or_fail(args.db) as store:
        try:
            details = []
            for text in (args.event_a, args.event_b):
                event_id = resolve_or_fail(store, "request", text, args.db)
                detail = request_detail(store, event_id, exact=not args.no_exact)
                if detail is None:
                    raise CliError(f"no llm.calling event {event_id!r} in {shown(args.db)}")
                details.append(detail)
            names = None if args.json else request_names(store, [d.row for d in details])
        finally:
            warn_notes(store)
    from inspector.export import comparison_export

    # The File → Export of a comparison writes the same text (one writer, inspector.export).
    comparison = compare_details(*details)
    write_text(comparison_export(comparison, "json" if args.json else "text",
                                 names=None if names is None else (names[0], names[1])))
    return EXIT_OK
