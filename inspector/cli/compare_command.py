"""``compare DB EVENT_A EVENT_B [--json]``: the Compare view on the command line.

Both requests are aligned part by part (:func:`inspector.anatomy.compare.compare_details`); the
first difference is where the provider first reads them differently
(:mod:`inspector.anatomy.divergence`), the same point the cache analysis and the app name.
"""

from __future__ import annotations

import argparse

from inspector.cli.common import CliError, open_store_or_fail, shown, warn_notes
from inspector.error_boundary import EXIT_OK
from inspector.output import dump_json, write_text


def configure_compare(p: argparse.ArgumentParser, error_type: type[Exception]) -> None:
    p.add_argument("db", metavar="DB", help="covel.db path or database URL")
    p.add_argument("event_a", metavar="EVENT_A", help="id of the earlier llm.calling event (the left side)")
    p.add_argument("event_b", metavar="EVENT_B", help="id of the later llm.calling event (the right side)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--no-exact", action="store_true", help="skip exact tiktoken counts (estimates only)")
    p.set_defaults(func=cmd_compare)


def cmd_compare(args: argparse.Namespace) -> int:
    from inspector.anatomy.compare import compare_details
    from inspector.views import request_detail

    with open_store_or_fail(args.db) as store:
        try:
            details = []
            for event_id in (args.event_a, args.event_b):
                detail = request_detail(store, event_id, exact=not args.no_exact)
                if detail is None:
                    raise CliError(f"no llm.calling event {event_id!r} in {shown(args.db)}")
                details.append(detail)
        finally:
            warn_notes(store)
    comparison = compare_details(*details)
    write_text(dump_json(comparison.to_json()) if args.json else comparison.to_text())
    return EXIT_OK
