"""How cost grows with the store: time and peak memory at four sizes made with the demo generator.

    python benchmarks/growth.py --covel-script /path/to/prompt-prefix-report.mjs
    python benchmarks/growth.py --runs 3 --plot docs/growth.png      # the PNG needs matplotlib
    python benchmarks/growth.py --sizes 58mb,130mb                     # only some sizes

The stores are made once and cached in benchmarks/data/ (about 58 MB, 130 MB, the 531 MB
benchmark database of benchmarks/run.py, and 2 GB; the 2 GB one only when the disk has room for
it). For each size, every measure runs in a fresh process ``--runs`` times (the measures
alternating, so each sees the same load) and the median is printed:

* ``prefix --json``: the command as a user runs it, ours and, with ``--covel-script``, Covel's
  script with Node beside it (see benchmarks/prefix_vs_covel.py); wall time of the process.
* open: open the store, list its sessions and the turns of its largest session (the app's first
  screen), timed inside the process after its imports; the first time (an empty cache folder) and
  again (the turn figures kept by the first, inspector.store.kept_turns).
* request view: the anatomy and detail of the largest request (``views.request_detail``); the first
  time (token counts made, the tokenizer loaded before the clock starts) and again (the counts
  kept by the first, inspector.kept_counts).
* cache analysis: the whole analysis of the session with the most requests
  (``inspector.cache.analysis.analyse_session``, in one process, nothing kept), tokenizers loaded
  before the clock starts.

Peak memory is each process's maximum resident set size (imports included).
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
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from prefix_vs_covel import DATA, DEFAULT_DB, DEFAULT_TURNS, covel_command, ensure_store, ours_command, run_child


@dataclass(frozen=True)
class Size:
    name: str
    path: Path
    turns: int  # of the demo's main session, when this script makes the store
    approx_bytes: int


SIZES = [
    Size("58mb", DEFAULT_DB, DEFAULT_TURNS, 58 * 10**6),
    Size("130mb", DATA / "growth-130mb.db", 280, 130 * 10**6),
    # benchmarks/run.py's database: 1,000 turns at scale 1.
    Size("531mb", DATA / "bench.db", 1000, 531 * 10**6),
    Size("2gb", DATA / "growth-2gb.db", 3500, 2 * 10**9),
]
MEASURES = ["prefix", "covel", "open", "open-kept", "request", "request-kept", "cache"]
LABELS = {"prefix": "prefix --json (ours)", "covel": "prefix (Covel's script)",
          "open": "open + sessions + turns, first time", "open-kept": "… again (turns kept)",
          "request": "request view (largest), first time", "request-kept": "… again (counts kept)",
          "cache": "cache analysis (largest session)"}
# Measures of what is kept between runs in the cache folder: each run in a cache folder of its own,
# after one uncounted run that fills it ("-kept"), or empty (the first time).
KEPT = {"open-kept": "open", "request-kept": "request"}


# --- the measures, each in a process of its own (--child) ----------------------------------------


def _largest_session(store):
    return max(store.sessions(), key=lambda s: s.llm_call_count)


def child(measure: str, db: Path) -> dict:
    """Run one in-process measure and return its seconds (printed as JSON by --child)."""
    from inspector.store import open_store

    measure = KEPT.get(measure, measure)
    if measure == "open":
        from inspector import views

        started = time.perf_counter()
        with open_store(db) as store:
            views.session_rows(store)
            views.turn_rows(store, _largest_session(store).id)
        return {"seconds": time.perf_counter() - started}
    if measure == "request":
        from inspector import tokens, views

        with open_store(db) as store:
            event_id = _largest_request(store, db)
            tokens.get_encoding("o200k_base")  # the rank file, which the app loads once
            started = time.perf_counter()
            views.request_detail(store, event_id)
            return {"seconds": time.perf_counter() - started}
    if measure == "cache":
        from inspector.cache.analysis import analyse_session
        from inspector.cache.rules import default_rules
        from inspector.tokens import get_encoding

        for name in ("o200k_base", "cl100k_base"):
            get_encoding(name)
        rules = default_rules()
        with open_store(db) as store:
            session_id = _largest_session(store).id
            started = time.perf_counter()
            analysis = analyse_session(store, session_id, rules=rules)
            return {"seconds": time.perf_counter() - started, "pairs": len(analysis.pairs)}
    raise ValueError(f"no such measure: {measure}")


def _largest_request(store, db: Path) -> str:
    import sqlite3

    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return con.execute("SELECT id FROM trace_events WHERE type = 'llm.calling' "
                           "ORDER BY length(payload) DESC LIMIT 1").fetchone()[0]
    finally:
        con.close()


def measure_once(measure: str, db: Path, covel: tuple[list[str], dict[str, str]] | None) -> tuple[float, float]:
    """(seconds, peak MB) of one run of ``measure`` on ``db``."""
    if measure == "prefix":
        run = run_child(ours_command(db))
        return run.wall, run.rss
    if measure == "covel":
        assert covel is not None
        run = run_child(covel[0], covel[1])
        return run.wall, run.rss
    # Peak memory as the child reports it (getrusage of itself): this process stays small, so
    # what a child's peak inherits from its parent at the fork is a few MB at most.
    with tempfile.TemporaryDirectory(prefix="pi-growth-cache-") as cache:
        env = {**os.environ, "XDG_CACHE_HOME": cache}
        for counted in ((False, True) if measure in KEPT else (True,)):
            done = subprocess.run([sys.executable, __file__, "--child", measure, "--db", str(db)],
                                  capture_output=True, cwd=ROOT, check=False, env=env)
            if done.returncode != 0:
                raise RuntimeError(f"{measure} on {db} failed: {done.stderr.decode('utf-8', 'replace').strip()[-400:]}")
    result = json.loads(done.stdout.decode().strip().splitlines()[-1])
    return result["seconds"], result["peak_mb"]


# --- the table ------------------------------------------------------------------------------


def room_for(size: Size) -> bool:
    """Whether the disk holds the store to make, with a margin of half its size again."""
    if size.path.exists():
        return True
    free = shutil.disk_usage(size.path.parent if size.path.parent.exists() else ROOT).free
    return free > size.approx_bytes * 1.5


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3, help="runs of each measure at each size (default 3)")
    parser.add_argument("--sizes", default=",".join(s.name for s in SIZES),
                        help="which sizes, comma-separated: " + ", ".join(s.name for s in SIZES))
    parser.add_argument("--measures", default=",".join(MEASURES), help="which measures: " + ", ".join(MEASURES))
    parser.add_argument("--covel-script", type=Path, default=os.environ.get("COVEL_PREFIX_SCRIPT"),
                        help="Covel's scripts/prompt-prefix-report.mjs (or COVEL_PREFIX_SCRIPT); without it, "
                             "only ours")
    parser.add_argument("--node-modules", type=Path, help="where better-sqlite3 is installed (Node < 22.5)")
    parser.add_argument("--plot", type=Path, help="also write a PNG of the table (needs matplotlib)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.child:
        import resource

        result = child(args.child, args.db)
        result["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(json.dumps(result))
        return 0

    wanted = set(args.sizes.split(","))
    measures = [m for m in args.measures.split(",") if m in MEASURES]
    if args.covel_script is None and "covel" in measures:
        measures.remove("covel")
        print("note: no --covel-script, so Covel's script is not measured", flush=True)
    sizes = []
    for size in SIZES:
        if size.name not in wanted:
            continue
        if not room_for(size):
            free = shutil.disk_usage(DATA if DATA.exists() else ROOT).free
            print(f"note: skipping {size.name}: {free / 1e9:.1f} GB free, the store needs about "
                  f"{size.approx_bytes * 1.5 / 1e9:.1f} GB", flush=True)
            continue
        ensure_store(size.path, size.turns)
        sizes.append(size)

    table: dict[str, dict[str, tuple[float, float]]] = {}
    for size in sizes:
        covel = covel_command(args.covel_script, size.path, args.node_modules) if "covel" in measures else None
        runs: dict[str, list[tuple[float, float]]] = {m: [] for m in measures}
        for _ in range(max(1, args.runs)):
            for measure in measures:
                runs[measure].append(measure_once(measure, size.path, covel))
        table[size.name] = {m: (statistics.median(r[0] for r in rs), statistics.median(r[1] for r in rs))
                            for m, rs in runs.items()}
        print(f"{size.path.stat().st_size / 1e6:.0f} MB: " + ", ".join(
            f"{m} {table[size.name][m][0]:.2f} s {table[size.name][m][1]:.0f} MB" for m in measures), flush=True)

    print_table(sizes, measures, table)
    if args.plot:
        plot(sizes, measures, table, args.plot)
    return 0


def print_table(sizes: list[Size], measures: list[str], table: dict) -> None:
    header = ["store"] + [LABELS[m] for m in measures]
    rows = [[f"{s.path.stat().st_size / 1e6:.0f} MB"] +
            [f"{table[s.name][m][0]:.2f} s, {table[s.name][m][1]:.0f} MB" for m in measures] for s in sizes]
    if "prefix" in measures and "covel" in measures:
        header.append("prefix ours / Covel")
        for s, row in zip(sizes, rows):
            (t, m), (ct, cm) = table[s.name]["prefix"], table[s.name]["covel"]
            row.append(f"time {t / ct:.2f}×, memory {m / cm:.2f}×")
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    print()
    print("median time, peak memory (RSS)")
    for row in [header] + rows:
        print(" | ".join(cell.ljust(w) for cell, w in zip(row, widths)))


def plot(sizes: list[Size], measures: list[str], table: dict, path: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("note: matplotlib is not installed; no plot written", flush=True)
        return
    megabytes = [s.path.stat().st_size / 1e6 for s in sizes]
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for measure in measures:
        left.plot(megabytes, [table[s.name][measure][0] for s in sizes], marker="o", label=LABELS[measure])
        right.plot(megabytes, [table[s.name][measure][1] for s in sizes], marker="o", label=LABELS[measure])
    for axes, title in ((left, "median time (s)"), (right, "peak memory (MB)")):
        axes.set_xscale("log")
        axes.set_yscale("log")
        axes.set_xlabel("store size (MB)")
        axes.set_title(title)
        axes.grid(True, which="both", alpha=0.3)
    left.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    print(f"plot written to {path}", flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
