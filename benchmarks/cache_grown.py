"""A kept analysis of a session that has grown since: resumed from the rows written since, against
analysing the grown session whole (what reopening did before analyses kept their resume state).

    python benchmarks/cache_grown.py                       # demo + benchmarks/data/bench.db, 5 rounds
    python benchmarks/cache_grown.py --db PATH --turns 5 --rounds 7

For each store, a copy is made in a temporary folder with the last ``--turns`` turns of its
largest session taken out; the ``cache`` command analyses that copy and keeps the analysis (in a
temporary ``XDG_CACHE_HOME``, never the user's). The turns are then written back: the session has
grown. Each round then runs, each in a new process and alternating so that all see the same load,
with the kept file put back as it was before each:

* ``resume``: ``KeptAnalyses.load`` (the kept file, found grown) and ``KeptAnalyses.resumed``
  (the live calls read again, then only the rows written since), store opened and tokenizers
  loaded before the clock (new text is counted either way);
* ``whole``: ``analyse_session`` of the grown session from nothing, tokenizers loaded first;
* ``view``: the app's cache view (Qt offscreen) from ``open_session`` to the kept table shown and
  the resumed pairs merged (nothing left to run);
* ``cli`` / ``cli whole``: ``prompt-inspector cache COPY --session S --json`` with the kept file
  and with ``--no-cache``, wall time of the process.

Before the rounds, the two commands' outputs are compared: they must be the same to the byte.
Medians are printed, with the ratios whole / resume.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_DB = ROOT / "benchmarks" / "data" / "bench.db"


def _largest_session(db: str) -> str:
    from inspector.store import open_store

    with open_store(db) as store:
        return max(store.sessions(), key=lambda s: s.llm_call_count or 0).id


def _child(mode: str, db: str, session: str) -> dict[str, float | int]:
    """One measurement in this (new) process."""
    from inspector.cache.rules import default_rules
    from inspector.store import open_store

    rules = default_rules()
    if mode in ("resume", "whole"):
        # Counting new text builds the tokenizer in either case (a few hundred ms, once per
        # process): loaded before the clock starts, so that what is compared is the analysis.
        from inspector.tokens import get_encoding

        for name in ("o200k_base", "cl100k_base"):
            get_encoding(name)
    if mode == "resume":
        import inspector.cache.analysis  # noqa: F401 - imported before the clock, as "whole" does
        from inspector.cache.kept import KeptAnalyses

        with open_store(db) as store:
            keep = KeptAnalyses(store)
            started = time.perf_counter()
            found = keep.load(session, rules, grown=True)
            if found is None or found.current or found.resume is None:
                raise SystemExit("no grown kept analysis with a resume state to resume")
            resumed = keep.resumed(found, rules)
            seconds = time.perf_counter() - started
            if resumed is None or resumed.analyser.restarted:
                raise SystemExit("the kept analysis did not resume")
            return {"seconds": seconds, "pairs": len(resumed.analysis.pairs), "changed": len(resumed.changed)}
    if mode == "whole":
        from inspector.cache.analysis import analyse_session

        with open_store(db) as store:
            started = time.perf_counter()
            analysis = analyse_session(store, session, rules=rules)
            return {"seconds": time.perf_counter() - started, "pairs": len(analysis.pairs)}
    if mode == "view":
        from cache_reopen import time_cache_view  # benchmarks/cache_reopen.py

        def resumed(view: Any) -> str | None:
            if view.analysis is None or view._analyser is None or view._analyser.restarted:
                return "the view did not resume the kept analysis"
            return None

        return time_cache_view(db, session, keep_results=True, load_tokenizers=False, check=resumed)
    raise SystemExit(f"unknown mode {mode}")


def _run_child(mode: str, db: str, session: str, env: dict[str, str]) -> float:
    out = subprocess.run([sys.executable, __file__, "--child", mode, "--db", db, "--session", session],
                         check=True, capture_output=True, text=True, env=env, cwd=ROOT)
    return float(json.loads(out.stdout.strip().splitlines()[-1])["seconds"])


def _cli(db: str, session: str, env: dict[str, str], *extra: str) -> tuple[float, bytes]:
    started = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "inspector", "cache", db, "--session", session, "--json", *extra],
                         check=True, capture_output=True, env=env, cwd=ROOT)
    return time.perf_counter() - started, out.stdout


def _shrunk_copy(db: str, session: str, turns: int, folder: Path) -> tuple[Path, list[str], list[tuple]]:
    """A copy of ``db`` without the session's last ``turns`` turns, and their trace rows."""
    copy = folder / "grown.db"
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as src:
        src.execute("VACUUM INTO ?", (str(copy),))
    with closing(sqlite3.connect(copy)) as conn:
        last = [row[0] for row in conn.execute(
            "SELECT turn_id FROM trace_events WHERE session_id = ? GROUP BY turn_id ORDER BY MAX(created_at) DESC "
            "LIMIT ?", (session, turns))]
        marks = ", ".join("?" for _ in last)
        cur = conn.execute(f"SELECT * FROM trace_events WHERE turn_id IN ({marks}) ORDER BY rowid", last)
        cols, rows = [d[0] for d in cur.description], cur.fetchall()
        conn.execute(f"DELETE FROM trace_events WHERE turn_id IN ({marks})", last)
        conn.commit()
    return copy, cols, rows


def measure(db: str, session: str, turns: int, rounds: int, folder: Path) -> tuple[dict[str, list[float]], int]:
    env = {**os.environ, "XDG_CACHE_HOME": str(folder / "cache"), "QT_QPA_PLATFORM": "offscreen"}
    copy, cols, rows = _shrunk_copy(db, session, turns, folder)
    _cli(str(copy), session, env)  # analysed and kept, with its resume state
    with closing(sqlite3.connect(copy)) as conn:
        conn.executemany(f"INSERT INTO trace_events ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)})",
                         rows)
        conn.commit()
    kept = folder / "cache" / "prompt-inspector" / "cache-analysis"
    saved = folder / "kept-before"
    shutil.copytree(kept, saved)

    def put_back() -> None:
        shutil.rmtree(kept)
        shutil.copytree(saved, kept)

    _, resumed_out = _cli(str(copy), session, env)
    _, whole_out = _cli(str(copy), session, env, "--no-cache")
    if resumed_out != whole_out:
        raise SystemExit("the resumed analysis differs from a whole one")
    times: dict[str, list[float]] = {k: [] for k in ("resume", "whole", "view", "cli", "cli whole")}
    for _ in range(rounds):
        put_back()
        times["resume"].append(_run_child("resume", str(copy), session, env))
        times["whole"].append(_run_child("whole", str(copy), session, env))
        put_back()
        times["view"].append(_run_child("view", str(copy), session, env))
        put_back()
        times["cli"].append(_cli(str(copy), session, env)[0])
        times["cli whole"].append(_cli(str(copy), session, env, "--no-cache")[0])
    calls = sum(1 for row in rows if row[cols.index("type")] == "llm.calling")
    return times, calls


def report(name: str, session: str, turns: int, calls: int, times: dict[str, list[float]]) -> None:
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"\n{name}: session {session}, its last {turns} turns ({calls} requests) written after the analysis "
          f"was kept; medians of {len(times['resume'])}")
    for key, values in times.items():
        print(f"  {key:10} {med[key] * 1000:9.1f} ms   (runs: {', '.join(f'{v * 1000:.0f}' for v in values)})")
    print(f"  whole / resume: {med['whole'] / med['resume']:.1f}x; cli whole / cli: {med['cli whole'] / med['cli']:.1f}x")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", help="a SQLite store to measure instead of the demo and the benchmark database")
    parser.add_argument("--session", help="the session (default: the one with the most requests)")
    parser.add_argument("--turns", type=int, default=5, help="turns written after the analysis was kept")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_child(args.child, args.db, args.session)))
        return 0
    folder = Path(tempfile.mkdtemp(prefix="cache-grown-"))
    try:
        stores: list[tuple[str, str]] = []
        if args.db:
            stores.append((args.db, args.db))
        else:
            from inspector.demo import generate_demo

            demo = folder / "demo.db"
            generate_demo(demo)
            stores.append(("demo", str(demo)))
            if DEFAULT_DB.exists():
                stores.append(("bench.db", str(DEFAULT_DB)))
        for n, (name, db) in enumerate(stores):
            session = args.session or _largest_session(db)
            work = folder / str(n)
            work.mkdir()
            times, calls = measure(db, session, args.turns, args.rounds, work)
            report(name, session, args.turns, calls, times)
            shutil.rmtree(work, ignore_errors=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
