"""The desktop app on a very large store: time to a usable window and peak memory while browsing.

    QT_QPA_PLATFORM=offscreen python benchmarks/large_gui.py [--db benchmarks/data/big.db] [--requests 40]

Build the store first with ``python benchmarks/big_store.py`` (10 million trace rows). In a fresh
process this opens the store in the main window (with the request, turn and cache views installed,
as ``prompt-inspector`` does), waits until the sessions are listed and the event loop answers,
then browses: expands the largest session's turns, opens requests spread over the store one after
the other in the request view (each until its trees are filled), and scrolls the turn list to its
end. The peak resident memory of the process (``ru_maxrss``) is printed with the target (500 MB);
the store is never written.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import resource
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

_spec = importlib.util.spec_from_file_location("ui_bench", ROOT / "benchmarks" / "ui.py")
ui_bench = importlib.util.module_from_spec(_spec)  # type: ignore[arg-type]
_spec.loader.exec_module(ui_bench)  # type: ignore[union-attr]

TARGET_OPEN_MS = 2000.0
TARGET_RSS_MB = 500.0


def spread_requests(db: Path, count: int) -> list[str]:
    """``count`` llm.calling ids from across the store (by rowid), largest payload included."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        top = con.execute("SELECT max(rowid) FROM trace_events").fetchone()[0] or 0
        rng = random.Random(11)
        ids: list[str] = []
        for start in sorted(rng.randrange(top) for _ in range(count * 3)):
            row = con.execute("SELECT id FROM trace_events WHERE rowid >= ? AND type = 'llm.calling' LIMIT 1",
                              (start,)).fetchone()
            if row and row[0] not in ids:
                ids.append(row[0])
            if len(ids) >= count:
                break
    return ids


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, default=ROOT / "benchmarks" / "data" / "big.db")
    parser.add_argument("--requests", type=int, default=40)
    args = parser.parse_args()
    if not args.db.exists():
        print(f"{args.db} does not exist; build it with: python benchmarks/big_store.py", file=sys.stderr)
        return 2

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, tempfile.mkdtemp())
    app = QApplication.instance() or QApplication([])
    app.setOrganizationName("prompt-inspector-bench")
    from ui.windows.cache_dock import install_cache_view
    from ui.windows.turn_dock import install_turn_view

    requests = spread_requests(args.db, args.requests)
    window, view = ui_bench.make_window()
    install_turn_view(window)
    install_cache_view(window)
    opened_ms = ui_bench.open_and_wait(window, args.db)
    rss_open = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    selects: list[float] = []
    start = time.perf_counter()
    for event_id in requests:
        index = ui_bench.reveal(window, event_id)
        selects.append(ui_bench.select_and_wait(window, view, index))
    browse_s = time.perf_counter() - start
    session = ui_bench.largest_session_index(window)
    window.navigator.tree.expand(session)
    ui_bench.wait_until(lambda: window.navigator.busy == 0)
    scroll, steps = ui_bench.bench_scroll(window, 5.0)
    ui_bench.wait_until(lambda: window.tasks.pending == 0, timeout_s=600)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    ui_bench.close_window(window)

    selects.sort()
    print(f"store: {args.db.name} ({args.db.stat().st_size / 1e9:.1f} GB)")
    print(f"open → sessions listed, usable: {opened_ms:.0f} ms (target ≤ {TARGET_OPEN_MS:,.0f} ms: "
          f"{'met' if opened_ms <= TARGET_OPEN_MS else 'NOT met'}); peak memory then {rss_open:.0f} MB")
    print(f"{len(selects)} requests across the store revealed and shown in {browse_s:.1f} s; "
          f"select → trees filled: median {selects[len(selects) // 2]:.0f} ms, max {selects[-1]:.0f} ms")
    print(f"scrolled the largest session ({steps} steps): longest GUI stall {max(scroll, default=0):.0f} ms")
    print(f"peak memory while browsing: {peak:.0f} MB (target < {TARGET_RSS_MB:.0f} MB: "
          f"{'met' if peak < TARGET_RSS_MB else 'NOT met'})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
