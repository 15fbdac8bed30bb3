"""How fast the command line answers: each command as a fresh process, as a user runs it.

    python benchmarks/cli_startup.py                        # the demo store, written to a temporary folder
    python benchmarks/cli_startup.py --db covel.db --runs 21
    python benchmarks/cli_startup.py --against /tmp/old-checkout   # alternate with another checkout, print ratios
    python benchmarks/cli_startup.py --imports              # also: which heavy libraries each command imported

Runs ``--help``, ``sessions``, ``turns``, ``requests``, ``show`` (exact token counts) and ``show
--no-exact`` on the store (the largest session; the first request of that session), each --runs
times, the commands taken in turn within every round so that a change in the machine's speed
falls on all of them alike, and prints each one's median wall time beside two floors: an
interpreter that starts and does nothing (``python -c pass``), and the ``sqlite3`` program
counting the sessions (``SELECT count(*) FROM sessions``) — the least a command that opens the
file can take. With --against, the other checkout's command line (``python -m inspector`` run from
that folder) takes its turn right after this one's for every command, and the ratio of medians is
printed: it stays meaningful while the host's speed drifts.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

HEAVY = ("sqlalchemy", "psycopg", "numpy", "tiktoken", "yaml", "inspector.zones", "inspector.prefix",
         "inspector.cache")
# Runs the command line as ``python -m inspector`` does, then prints which heavy modules it loaded.
_PROBE = (
    "import runpy, sys, json\n"
    "sys.argv = ['prompt-inspector'] + json.loads(sys.argv[1])\n"
    "try:\n"
    "    runpy.run_module('inspector', run_name='__main__')\n"
    "except SystemExit:\n"
    "    pass\n"
    "sys.stderr.write(json.dumps(sorted({m for m in sys.modules for h in HEAVY if m == h or m.startswith(h + '.')}"
    " & set(HEAVY))) + '\\n')\n"
)


def wall(cmd: list[str], cwd: Path | None = None) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def demo_targets(db: Path) -> tuple[str, str]:
    """(largest session, its first request) of ``db``, read with the standard library only."""
    import sqlite3

    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        session = con.execute("SELECT session_id FROM trace_events GROUP BY session_id "
                              "ORDER BY count(*) DESC LIMIT 1").fetchone()[0]
        event = con.execute("SELECT id FROM trace_events WHERE session_id = ? AND type = 'llm.calling' "
                            "ORDER BY created_at, seq, id LIMIT 1", (session,)).fetchone()[0]
    return session, event


def commands(db: Path, session: str, event: str) -> dict[str, list[str]]:
    d = str(db)
    return {
        "--help": ["--help"],
        "sessions": ["sessions", d],
        "turns": ["turns", d, session],
        "requests": ["requests", d],
        "show": ["show", d, event],
        "show --no-exact": ["show", d, event, "--no-exact"],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, help="a covel.db (default: the demo, written to a temporary folder)")
    parser.add_argument("--runs", type=int, default=11, help="runs of each command (default 11)")
    parser.add_argument("--against", type=Path, metavar="CHECKOUT",
                        help="another checkout of this project whose command line takes its turn beside this one's")
    parser.add_argument("--imports", action="store_true", help="print the heavy libraries each command imports")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="pi-cli-") as tmp:
        db = args.db
        if db is None:
            db = Path(tmp) / "covel.db"
            subprocess.run([sys.executable, "-m", "inspector", "demo", str(db)], cwd=ROOT, check=True,
                           stdout=subprocess.DEVNULL)
        session, event = demo_targets(db)
        table = commands(db, session, event)
        programs = {"this": ROOT}
        if args.against is not None:
            programs["other"] = args.against.resolve()
        floors: dict[str, list[str]] = {"python -c pass": [sys.executable, "-c", "pass"]}
        sqlite_cli = shutil.which("sqlite3")
        if sqlite_cli:
            floors["sqlite3 count(*) FROM sessions"] = [sqlite_cli, f"file:{db}?mode=ro",
                                                         "SELECT count(*) FROM sessions"]
        times: dict[tuple[str, str], list[float]] = {}
        for _ in range(args.runs):
            for name, cmd in floors.items():
                times.setdefault(("floor", name), []).append(wall(cmd))
            for name, argv in table.items():
                for program, checkout in programs.items():
                    times.setdefault((program, name), []).append(
                        wall([sys.executable, "-m", "inspector", *argv], cwd=checkout))

        print(f"{db} ({db.stat().st_size / 1e6:.1f} MB); session {session}, request {event}; "
              f"medians of {args.runs} runs, wall time of a fresh process")
        header = f"{'command':<34}{'this':>9}"
        if "other" in programs:
            header += f"{'other':>9}{'ratio':>8}"
        print(header)
        for name in floors:
            print(f"{name:<34}{statistics.median(times[('floor', name)]):>8.3f}s")
        for name in table:
            mine = statistics.median(times[("this", name)])
            line = f"{name:<34}{mine:>8.3f}s"
            if "other" in programs:
                other = statistics.median(times[("other", name)])
                line += f"{other:>8.3f}s{mine / other:>7.2f}×"
            print(line)
        if args.imports:
            print("\nheavy libraries imported (this checkout):")
            for name, argv in table.items():
                probe = subprocess.run([sys.executable, "-c", f"HEAVY = {HEAVY!r}\n" + _PROBE, json.dumps(argv)],
                                       cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                       check=True)
                print(f"  {name:<20}{', '.join(json.loads(probe.stderr.strip().splitlines()[-1])) or '-'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
