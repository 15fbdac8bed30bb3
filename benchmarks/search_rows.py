"""A prompt search in the app, its runtime rows made in the child process or in the app.

Before the navigator filters a store it reads every runtime and request of every session
(``inspector.views.session_runtimes``). On the benchmark database that is two seconds of Python.
Made in a background thread of the app, it held the interpreter lock the GUI thread needs; made in
the child process (``inspector.rows_process``), it does not. Each run is a fresh app process with
an empty cache folder: it opens the store, shows the largest session, types the search and waits
until the filter is shown (``Navigator.searchApplied``). Per run: the time until then, the longest
GUI stall meanwhile, and the app's memory once it is shown (VmRSS, and its peak VmHWM; Linux).
The two ways alternate, so that a loaded machine weighs on both alike.

    python benchmarks/search_rows.py [--db PATH] [--runs 3] [--search character]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

MODES = ("child", "app")


def _memory_mb() -> dict[str, float]:
    """The app's VmRSS and VmHWM in MB (empty where /proc is not there)."""
    found: dict[str, float] = {}
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                key, _sep, value = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    found[key] = int(value.split()[0]) / 1024
    except OSError:
        return {}
    return found


def one_run(db: Path, mode: str, text: str) -> dict[str, float]:
    """In this process: the app, one search, its figures."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from inspector import rows_process

    # benchmarks/ui.py: the window, the watchdog, the largest request (its name is the app's package's)
    spec = importlib.util.spec_from_file_location("ui_bench", ROOT / "benchmarks" / "ui.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)

    if mode == "app":
        rows_process.APART_MIN_REQUESTS = sys.maxsize  # every load is read in the app
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp(prefix="pi-bench-"))
    app = QApplication.instance() or QApplication(["prompt-inspector-bench"])
    from ui.theme import apply_theme

    apply_theme(app)
    window, _view = bench.make_window()
    bench.open_and_wait(window, db)
    bench.wait_until(lambda: window.tasks.pending == 0)
    largest, _typical = bench.pick_requests(db, 0)
    bench.reveal(window, largest)
    bench.wait_until(lambda: window.tasks.pending == 0)
    navigator = window.navigator
    applied: list[int] = []
    navigator.searchApplied.connect(applied.append)
    dog = bench.Watchdog()
    dog.start()
    start = time.perf_counter()
    navigator.search.setText(text)
    bench.wait_until(lambda: bool(applied) and applied[-1] >= 0, timeout_s=600)
    elapsed = (time.perf_counter() - start) * 1000
    stalls = dog.stop()
    bench.next_turn_of_loop()
    memory = _memory_mb()
    figures = {"applied_ms": elapsed, "max_stall_ms": max(stalls, default=0.0), "hits": float(applied[-1]),
               "rss_mb": memory.get("VmRSS", 0.0), "peak_mb": memory.get("VmHWM", 0.0),
               "child_running": float(rows_process.CHILD.running())}
    bench.close_window(window)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, default=ROOT / "benchmarks" / "data" / "bench.db")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--search", default="character")
    parser.add_argument("--one", choices=MODES, help=argparse.SUPPRESS)  # a run, in a child of this script
    args = parser.parse_args(argv)
    if not args.db.is_file():
        sys.stderr.write(f"{args.db} does not exist: run python benchmarks/run.py first to build it\n")
        return 2
    if args.one:
        print(json.dumps(one_run(args.db, args.one, args.search)))
        return 0
    results: dict[str, list[dict[str, float]]] = {mode: [] for mode in MODES}
    for run in range(args.runs):
        for mode in MODES:
            with tempfile.TemporaryDirectory(prefix="pi-bench-cache-") as cache:
                env = dict(os.environ, XDG_CACHE_HOME=cache, QT_QPA_PLATFORM="offscreen")
                done = subprocess.run([sys.executable, __file__, "--db", str(args.db), "--search", args.search,
                                       "--one", mode], env=env, capture_output=True, text=True, check=False)
            if done.returncode != 0:
                sys.stderr.write(done.stderr)
                return 1
            figures = json.loads(done.stdout.strip().splitlines()[-1])
            results[mode].append(figures)
            print(f"run {run + 1} {mode:>5}: applied {figures['applied_ms']:,.0f} ms, "
                  f"max stall {figures['max_stall_ms']:.0f} ms, app {figures['rss_mb']:,.0f} MB "
                  f"(peak {figures['peak_mb']:,.0f} MB), {figures['hits']:,.0f} hits", flush=True)
    print(f"\n{args.db.name}: search {args.search!r}, medians of {args.runs} runs (load {os.getloadavg()[0]:.2f})")
    for mode in MODES:
        rows = results[mode]
        stalls = ", ".join(f"{r['max_stall_ms']:.0f}" for r in rows)
        print(f"  rows made in the {mode:>5}: applied {statistics.median(r['applied_ms'] for r in rows):,.0f} ms, "
              f"max stall {statistics.median(r['max_stall_ms'] for r in rows):.0f} ms "
              f"(runs {stalls}), "
              f"app memory {statistics.median(r['rss_mb'] for r in rows):,.0f} MB, "
              f"peak {statistics.median(r['peak_mb'] for r in rows):,.0f} MB")
    if {r["hits"] for r in results["child"]} != {r["hits"] for r in results["app"]}:
        print("the two ways found different hits")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
