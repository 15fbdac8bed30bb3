"""Our cache verdicts against what the provider reported, per session, as a Markdown table.

    python benchmarks/cache_verdicts.py                 # the built-in demo store (written to a temporary folder)
    python benchmarks/cache_verdicts.py --db covel.db   # any store

For every session: how many pairs the analysis made, how many of them the provider reported usage
for, how often the predicted cached tokens equal the reported ones (exactly, within 10 %, or
further off), how many verdicts are certain, uncertain, or explained by the provider's own miss
reason, and the reasons given. docs/cache-verdicts.md is this script's output on the demo store.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _agreement(predicted: int, reported: int | None) -> str:
    if reported is None:
        return "unreported"
    if predicted == reported:
        return "exact"
    if abs(predicted - reported) <= 0.1 * max(reported, 1):
        return "within 10 %"
    return "off"


def table(db: Path) -> str:
    from inspector.cache.analysis import analyse_session
    from inspector.cache.rules import default_rules
    from inspector.store import open_store

    rows = []
    totals: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    with open_store(db) as store:
        for session in store.sessions():
            analysis = analyse_session(store, session.id, rules=default_rules())
            counts: Counter[str] = Counter()
            for pair in analysis.pairs:
                data = pair.to_json()
                counts["pairs"] += 1
                counts[_agreement(pair.predicted_cached_tokens, pair.reported_cached_tokens)] += 1
                counts[str(data.get("confidence") or "certain")] += 1
                if data.get("providerMissReason"):
                    counts["provider"] += 1
                reasons[pair.reason] += 1
            totals.update(counts)
            rows.append((session.id, counts))
    rows.append(("**all**", totals))
    head = ("| session | pairs | reported | exact | within 10 % | off | certain | uncertain | provider's reason |\n"
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
    body = "".join(
        f"| {sid} | {c['pairs']} | {c['pairs'] - c['unreported']} | {c['exact']} | {c['within 10 %']} | {c['off']} "
        f"| {c['certain']} | {c['uncertain']} | {c['provider']} |\n" for sid, c in rows)
    by_reason = "| reason | pairs |\n|---|---:|\n" + "".join(
        f"| `{reason}` | {n} |\n" for reason, n in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])))
    return head + body + "\n" + by_reason


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, help="a covel.db (default: the demo store, written to a temporary folder)")
    args = parser.parse_args()
    if args.db is not None:
        print(table(args.db), end="")
        return 0
    from inspector.demo import generate_demo

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "covel.db"
        generate_demo(path)
        print(table(path), end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
