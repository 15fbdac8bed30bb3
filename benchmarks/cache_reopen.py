"""A session analysed once: the cold cache analysis against reopening the kept one, each in a new
process, on the demo and on the benchmark database's largest session.

    python benchmarks/cache_reopen.py                      # demo + benchmarks/data/bench.db, 5 rounds
    python benchmarks/cache_reopen.py --rounds 7 --db PATH --session ID

Each round runs, each in a new process and alternating so that all see the same load:

* ``cold``: the analysis of the session from nothing (``analyse_session``, in one process, the
  tokenizers loaded before the clock starts);
* ``reopen``: reading the kept analysis back (``KeptAnalyses.load``: the file checked against the
  store, decompressed, validated, the pairs made again), store opened before the clock starts;
* ``view``: the app's cache view (Qt offscreen) from ``open_session`` to the whole table shown
  from the kept analysis (its model filled, the findings listed, no worker, nothing left to run);
* ``view cold``: the same view keeping nothing, from ``open_session`` to its analysis finished
  (in one process: no worker is started);
* ``cli cold`` / ``cli kept``: the whole command ``prompt-inspector cache DB --session S --json``
  with ``--no-cache`` and without, wall time of the process (its start-up and imports included).

The kept file is made once before the rounds, in a temporary cache folder (``XDG_CACHE_HOME``),
never the user's. Medians are printed with the ratio cold / reopen; the goal is the whole table
within 200 ms on reopening.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_DB = ROOT / "benchmarks" / "data" / "bench.db"
GOAL_S = 0.2


def _largest_session(db: str) -> str:
    from inspector.store import open_store

    with open_store(db) as store:
        return max(store.sessions(), key=lambda s: s.llm_call_count or 0).id


def _child(mode: str, db: str, session: str) -> dict[str, float | int]:
    """One measurement in this (new) process."""
    from inspector.cache.rules import default_rules
    from inspector.store import open_store

    rules = default_rules()
    if mode == "cold":
        from inspector.cache.analysis import analyse_session
        from inspector.tokens import get_encoding

        for name in ("o200k_base", "cl100k_base"):
            get_encoding(name)
        with open_store(db) as store:
            started = time.perf_counter()
            analysis = analyse_session(store, session, rules=rules)
            return {"seconds": time.perf_counter() - started, "pairs": len(analysis.pairs)}
    if mode == "reopen":
        from inspector.cache.kept import KeptAnalyses

        with open_store(db) as store:
            keep = KeptAnalyses(store)
            started = time.perf_counter()
            found = keep.load(session, rules)
            seconds = time.perf_counter() - started
            if found is None or not found.current:
                raise SystemExit("no current kept analysis to read back")
            return {"seconds": seconds, "pairs": len(found.analysis.pairs)}
    if mode in ("view", "view cold"):
        def shown_as_asked(view: Any) -> str | None:
            if view.from_kept != (mode == "view") or view.analysis is None:
                return f"the view did not show the {'kept' if mode == 'view' else 'fresh'} analysis"
            return None

        return time_cache_view(db, session, keep_results=mode == "view", load_tokenizers=mode == "view cold",
                               check=shown_as_asked)
    raise SystemExit(f"unknown mode {mode}")


def time_cache_view(db: str, session: str, *, keep_results: bool, load_tokenizers: bool,
                    check: Callable[[Any], str | None]) -> dict[str, float | int]:
    """The app's cache view (Qt offscreen) from ``open_session`` to nothing left to run: its
    seconds and the pairs it holds. ``check`` looks at the view then and names what is wrong (the
    run fails with it) or gives None. For this script and ``cache_grown.py``."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from inspector.store import open_store
    from ui.views.cache_view import CacheView
    from ui.workers import TaskManager

    app = QApplication.instance() or QApplication([])
    tasks = TaskManager()
    with open_store(db) as store:
        view = CacheView(tasks)
        view.resize(1400, 900)
        view.show()
        view.set_store(store)
        deadline = time.perf_counter() + 60
        while not view.sessions_loaded and time.perf_counter() < deadline:
            app.processEvents()
            time.sleep(0.005)
        view.keep_results = keep_results
        if load_tokenizers:
            from inspector.tokens import get_encoding

            for name in ("o200k_base", "cl100k_base"):
                get_encoding(name)
        started = time.perf_counter()
        view.open_session(session)
        app.processEvents()  # the table laid out and painted once
        while view.running:
            app.processEvents()
            time.sleep(0.001)
        seconds = time.perf_counter() - started
        wrong = check(view)
        if wrong is not None:
            raise SystemExit(wrong)
        pairs = len(view.analysis.pairs) if view.analysis is not None else len(view.model.pairs)
        view.shutdown()
        tasks.shutdown()
        return {"seconds": seconds, "pairs": pairs}


def _run_child(mode: str, db: str, session: str, env: dict[str, str]) -> float:
    out = subprocess.run([sys.executable, __file__, "--child", mode, "--db", db, "--session", session],
                         check=True, capture_output=True, text=True, env=env, cwd=ROOT)
    return float(json.loads(out.stdout.strip().splitlines()[-1])["seconds"])


def _run_cli(db: str, session: str, env: dict[str, str], *extra: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "inspector", "cache", db, "--session", session, "--json", *extra],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, cwd=ROOT)
    return time.perf_counter() - started


def measure(db: str, session: str, rounds: int, env: dict[str, str]) -> dict[str, list[float]]:
    # Make the kept file (the command line keeps what it analyses).
    _run_cli(db, session, env)
    times: dict[str, list[float]] = {k: [] for k in ("cold", "reopen", "view cold", "view", "cli cold", "cli kept")}
    for _ in range(rounds):
        times["cold"].append(_run_child("cold", db, session, env))
        times["reopen"].append(_run_child("reopen", db, session, env))
        times["view cold"].append(_run_child("view cold", db, session, env))
        times["view"].append(_run_child("view", db, session, env))
        times["cli cold"].append(_run_cli(db, session, env, "--no-cache"))
        times["cli kept"].append(_run_cli(db, session, env))
    return times


def _pairs(db: str, session: str) -> int:
    from inspector.store import open_store

    with open_store(db) as store:
        return next(s.llm_call_count for s in store.sessions() if s.id == session)


def report(name: str, db: str, session: str, times: dict[str, list[float]]) -> None:
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"\n{name}: session {session} ({_pairs(db, session):,} requests), medians of {len(times['cold'])}")
    for key, values in times.items():
        print(f"  {key:10} {med[key] * 1000:9.1f} ms   (runs: {', '.join(f'{v * 1000:.0f}' for v in values)})")
    print(f"  cold / reopen: {med['cold'] / med['reopen']:.0f}x; view cold / view: {med['view cold'] / med['view']:.0f}x; "
          f"cli cold / cli kept: {med['cli cold'] / med['cli kept']:.1f}x")
    verdict = "met" if med["view"] <= GOAL_S and med["reopen"] <= GOAL_S else "NOT met"
    print(f"  goal (whole table within {GOAL_S * 1000:.0f} ms on reopening): {verdict}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", help="a store to measure instead of the demo and the benchmark database")
    parser.add_argument("--session", help="the session (default: the one with the most requests)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_child(args.child, args.db, args.session)))
        return 0
    folder = Path(tempfile.mkdtemp(prefix="cache-reopen-"))
    env = {**os.environ, "XDG_CACHE_HOME": str(folder / "cache"), "QT_QPA_PLATFORM": "offscreen"}
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
        for name, db in stores:
            session = args.session or _largest_session(db)
            report(name, db, session, measure(db, session, args.rounds, env))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
