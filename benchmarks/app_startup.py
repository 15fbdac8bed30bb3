"""The app's start on the built-in demo: time to a usable window and idle memory.

    python benchmarks/app_startup.py [--repeat 7] [--idle 3] [--db PATH]

Each run launches ``python -m prompt_inspector`` (no argument: the built-in demo; ``--db``: that
database) in a new process on the offscreen platform, with its own settings and cache folders
(the demo is written there, and any missing compiled bytecode, by a first run that is not
counted). The time to a usable window runs from just before the process is started until the
window has listed the demo's sessions and its event loop answers again (a zero-timer fires); the
app's CPU time until then is printed too (on a shared machine the wall time also counts waiting
for a core). The app is then left idle for ``--idle`` seconds, and its resident memory (VmRSS)
and that of every process it started (the cache analysis's worker, when there is one) is read
from /proc (Linux). Medians of ``--repeat`` runs are printed, with the targets of the issue (1 s,
150 MB).

``--importtime`` prints instead the 25 slowest imports of one launch (``python -X importtime``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_USABLE_S = 1.0
TARGET_RSS_MB = 150.0

# Runs in the launched process: the app itself (prompt_inspector.main), with a hook on the window
# that run_app opens: ui.app.open_demo / MainWindow.open_database are looked up when called.
DRIVER = textwrap.dedent('''
    import os, sys, time
    idle_s = float(sys.argv[1])
    db = sys.argv[2] or None
    sys.argv = ["prompt-inspector"] + ([db] if db else [])

    def rss_kb(pid):
        try:
            with open(f"/proc/{pid}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return 0

    def descendants(pid):
        found = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    with open(f"/proc/{entry}/stat") as stat:
                        parent = int(stat.read().rsplit(")", 1)[1].split()[1])
                except (OSError, IndexError, ValueError):
                    continue
                if parent == pid:
                    found += [int(entry)] + descendants(int(entry))
        return found

    from ui.windows import main_window
    original = main_window.MainWindow.open_database

    def open_database(window, *args, **kwargs):
        if not getattr(window, "_bench_hooked", False):
            window._bench_hooked = True
            window.openFinished.connect(lambda ok: opened(window, ok))
        return original(window, *args, **kwargs)

    def opened(window, ok):
        from PySide6.QtCore import QTimer
        from PySide6.QtWidgets import QApplication

        def usable():
            cpu = os.times()
            print("usable", time.time(), ok, cpu.user + cpu.system, flush=True)
            QTimer.singleShot(int(idle_s * 1000), measure)

        def measure():
            me = os.getpid()
            children = descendants(me)
            print("rss", rss_kb(me), sum(rss_kb(pid) for pid in children), len(children), flush=True)
            window.close()
            QApplication.instance().quit()

        QTimer.singleShot(0, usable)

    main_window.MainWindow.open_database = open_database
    import prompt_inspector
    prompt_inspector.main()
''')


def launch(env: dict[str, str], idle_s: float, db: str) -> tuple[float, float, float, int, float]:
    """One launch: (seconds to a usable window, app MB, children MB, number of children, the app's
    CPU seconds until then)."""
    started = time.time()
    result = subprocess.run([sys.executable, "-c", DRIVER, str(idle_s), db], env=env, cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    usable = rss = None
    cpu_s = 0.0
    for line in result.stdout.splitlines():
        parts = line.split()
        if parts and parts[0] == "usable":
            if parts[2] != "True":
                raise RuntimeError("the database did not open:\n" + result.stderr)
            usable = float(parts[1]) - started
            cpu_s = float(parts[3])
        elif parts and parts[0] == "rss":
            rss = (int(parts[1]) / 1024, int(parts[2]) / 1024, int(parts[3]))
    if usable is None or rss is None:
        raise RuntimeError(f"the app did not report (exit {result.returncode}):\n{result.stderr}")
    return (usable, *rss, cpu_s)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--idle", type=float, default=3.0, help="seconds idle before memory is read")
    parser.add_argument("--db", default="", help="open this database instead of the demo")
    parser.add_argument("--importtime", action="store_true", help="print the slowest imports of one launch")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="pi-startup-") as tmp:
        env = dict(os.environ, QT_QPA_PLATFORM="offscreen", HOME=tmp, XDG_CONFIG_HOME=str(Path(tmp) / "config"),
                   XDG_CACHE_HOME=str(Path(tmp) / "cache"), PYTHONPATH=str(ROOT))
        # As an installed app starts: from compiled bytecode (the first launch writes what is missing).
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        launch(env, 0.0, args.db)  # writes the demo into this cache folder
        if args.importtime:
            return import_times(env, args.db)
        runs = [launch(env, args.idle, args.db) for _ in range(args.repeat)]
    usable = statistics.median(r[0] for r in runs)
    app_mb = statistics.median(r[1] for r in runs)
    children_mb = statistics.median(r[2] for r in runs)
    total_mb = statistics.median(r[1] + r[2] for r in runs)
    print(f"{args.db or 'the built-in demo'}, {args.repeat} launches (offscreen)")
    print(f"launch → usable window: median {usable * 1000:.0f} ms (min {min(r[0] for r in runs) * 1000:.0f}, "
          f"max {max(r[0] for r in runs) * 1000:.0f}); target < {TARGET_USABLE_S * 1000:.0f} ms: "
          f"{'met' if usable < TARGET_USABLE_S else 'NOT met'}")
    print(f"  the app's CPU time until then (all its threads): median "
          f"{statistics.median(r[4] for r in runs) * 1000:.0f} ms (on a shared machine the wall time also counts waiting)")
    print(f"idle memory after {args.idle:g} s: median {total_mb:.0f} MB (app {app_mb:.0f} MB, "
          f"{max(r[3] for r in runs)} child process(es) {children_mb:.0f} MB); target < {TARGET_RSS_MB:.0f} MB: "
          f"{'met' if total_mb < TARGET_RSS_MB else 'NOT met'}")
    return 0


def import_times(env: dict[str, str], db: str) -> int:
    result = subprocess.run([sys.executable, "-X", "importtime", "-c", DRIVER, "0", db], env=env, cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    rows = []
    for line in result.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            self_us, cumulative, name = (part.strip() for part in line[len("import time:"):].split("|"))
            if self_us.isdigit():
                rows.append((int(cumulative), int(self_us), name))
    print("cumulative ms  self ms  module")
    for cumulative, self_us, name in sorted(rows, reverse=True)[:25]:
        print(f"{cumulative / 1000:13.1f}  {self_us / 1000:7.1f}  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
