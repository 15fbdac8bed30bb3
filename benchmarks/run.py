"""Speed and memory of the core on a large, demo-shaped covel.db.

    python benchmarks/run.py                       # builds benchmarks/data/bench.db (≥ 500 MB) once
    python benchmarks/run.py --db PATH --repeat 5
    python benchmarks/run.py --node-script /path/to/prompt-prefix-report.mjs   # compare with Covel's script

Each figure is the median of --repeat runs. ``prefix --json`` runs as a fresh process, as a user
runs it, and its peak memory is the child's maximum resident set size.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_DB = ROOT / "benchmarks" / "data" / "bench.db"
TARGET_BYTES = 500 * 1024 * 1024


def run_child(cmd: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one child process; its stdout is discarded."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    stderr = proc.stderr.read().decode("utf-8", "replace") if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {stderr.strip()[-400:]}")
    return wall, usage.ru_maxrss / 1024


def median_child(cmd: list[str], repeat: int) -> tuple[float, float]:
    runs = [run_child(cmd) for _ in range(repeat)]
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def median_call(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def ensure_db(path: Path, turns: int, scale: float) -> None:
    if path.exists():
        return
    from inspector.demo import generate_demo

    path.parent.mkdir(parents=True, exist_ok=True)
    print(f"generating {path} ({turns} turns, scale {scale}) …", flush=True)
    start = time.perf_counter()
    summary = generate_demo(path, turns=turns, scale=scale)
    print(f"  {summary.bytes / 1e6:.0f} MB, {summary.llm_calls} requests in {time.perf_counter() - start:.0f} s")
    if summary.bytes < TARGET_BYTES:
        print(f"  note: below the 500 MB target; raise --scale", flush=True)


def largest_request(db: Path) -> tuple[str, str, int]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return con.execute(
            "SELECT id, session_id, length(payload) AS n FROM trace_events WHERE type = 'llm.calling' "
            "ORDER BY n DESC LIMIT 1"
        ).fetchone()
    finally:
        con.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, default=DEFAULT_DB)
    parser.add_argument("--turns", type=int, default=1000)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--node-script", type=Path, help="Covel's prompt-prefix-report.mjs, to run beside ours")
    args = parser.parse_args()

    ensure_db(args.db, args.turns, args.scale)
    size_mb = args.db.stat().st_size / 1e6

    from inspector import views
    from inspector import tokens
    from inspector.store import open_store

    with open_store(args.db) as store:
        sessions = store.sessions()
        biggest = max(sessions, key=lambda s: s.event_count)
        turn_count = len(store.turns(biggest.id))
    print(f"database: {args.db} — {size_mb:.0f} MB, {len(sessions)} sessions, "
          f"largest session {biggest.id} with {turn_count} turns, {biggest.llm_call_count} requests\n")

    results: list[tuple[str, str]] = []

    ours = [sys.executable, "-m", "inspector", "prefix", str(args.db), "--json"]
    wall, rss = median_child(ours, args.repeat)
    results.append(("prefix --json (ours)", f"{wall:.2f} s, {rss:.0f} MB peak"))
    if args.node_script:
        node = ["node", str(args.node_script), str(args.db), "--json"]
        n_wall, n_rss = median_child(node, max(1, min(args.repeat, 3)))
        results.append(("prefix --json (Covel's script)", f"{n_wall:.2f} s, {n_rss:.0f} MB peak"))
        results.append(("  ratio ours / original", f"time {wall / n_wall:.2f}, memory {rss / n_rss:.2f}"))

    def list_sessions():
        with open_store(args.db) as store:
            views.session_rows(store)

    def list_turns():
        with open_store(args.db) as store:
            views.turn_rows(store, biggest.id)

    results.append(("open + list sessions", f"{median_call(list_sessions, args.repeat) * 1000:.0f} ms"))
    results.append((f"open + list turns ({turn_count})", f"{median_call(list_turns, args.repeat) * 1000:.0f} ms"))

    event_id, session_id, length = largest_request(args.db)
    with open_store(args.db) as store:
        def anatomy_cold():
            tokens._cache = tokens._CountCache()
            views.request_detail(store, event_id)

        def anatomy_warm():
            views.request_detail(store, event_id)

        tokens.get_encoding("o200k_base")  # loading the rank file once is not part of a view
        cold = median_call(anatomy_cold, args.repeat)
        warm = median_call(anatomy_warm, args.repeat)
    results.append((f"anatomy of the largest request ({length / 1e3:.0f} kB payload), cold counts", f"{cold * 1000:.0f} ms"))
    results.append(("  same, token counts cached", f"{warm * 1000:.0f} ms"))

    # The default demo database, as `prompt-inspector demo` or the app's first start writes it.
    import tempfile

    from inspector.demo import generate_demo

    with tempfile.TemporaryDirectory() as folder:
        def write_demo():
            generate_demo(Path(folder) / "covel.db", overwrite=True)

        results.append(("write the default demo database", f"{median_call(write_demo, args.repeat):.2f} s"))

    width = max(len(name) for name, _ in results)
    for name, value in results:
        print(f"{name.ljust(width)}  {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
