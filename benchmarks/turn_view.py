"""How long opening a turn in the stepper takes: build the turn, lay out the timeline, paint it.

    python benchmarks/turn_view.py [--repeat 21]

Target: a turn with 20 runtimes and 200 events draws within 200 ms; stepping is instant. Uses the
synthetic turn of ``benchmarks/turn.py`` (20 runtimes × 10 rows, ~40 kB of prompt per call, all
stages plus the event/manual lane). Each figure is a median over ``--repeat`` runs on an open
store, offscreen:

* open: ``build_turn`` + ``TurnView.set_turn`` (timeline layout, summary) + painting the timeline
  into a QImage — what the user waits for between selecting a turn and seeing it;
* paint: the timeline alone rendered again (a resize or a step repaints it);
* step: one ``next_event`` through the whole turn, including what it shows (model calls hand the
  request to the request view, which loads in the background and is not waited for here).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

OPEN_TARGET_MS = 200.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=21)
    args = parser.parse_args(argv)

    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtWidgets import QApplication

    from inspector.store import open_store
    from inspector.turn.builder import build_turn
    from turn import SESSION, TURN, build_synthetic  # benchmarks/turn.py
    from ui.theme import apply_theme
    from ui.views.turn_stepper import TurnView
    from ui.workers import TaskManager

    app = QApplication.instance() or QApplication([])
    apply_theme(app)  # type: ignore[arg-type]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "synthetic.db"
        build_synthetic(path)
        with open_store(path) as store:
            tasks = TaskManager()
            view = TurnView(tasks, lambda: store)
            view.resize(1400, 900)
            view.show()
            app.processEvents()

            def paint() -> QImage:
                image = QImage(view.timeline.size(), QImage.Format.Format_ARGB32_Premultiplied)
                painter = QPainter(image)
                view.timeline.paint(painter)
                painter.end()
                return image

            opens, paints, steps = [], [], []
            for _ in range(args.repeat):
                start = time.perf_counter()
                turn = build_turn(store, SESSION, TURN)
                view.set_turn(turn)
                paint()
                opens.append((time.perf_counter() - start) * 1000)
                start = time.perf_counter()
                paint()
                paints.append((time.perf_counter() - start) * 1000)
            for _ in range(len(turn.events)):
                start = time.perf_counter()
                view.next_event()
                steps.append((time.perf_counter() - start) * 1000)
            runtimes = sum(1 for _ in turn.runtimes())
            view.close()
            tasks.shutdown()
    open_ms = statistics.median(opens)
    print(f"synthetic turn: {runtimes} runtimes, {len(turn.events)} events, "
          f"{len(view.timeline.bars)} bars, {len(view.timeline.marks)} marks")
    print(f"  open (build + layout + paint)  median {open_ms:.1f} ms  (target {OPEN_TARGET_MS:.0f} ms)")
    print(f"  paint timeline                 median {statistics.median(paints):.1f} ms")
    print(f"  step                           median {statistics.median(steps):.2f} ms, max {max(steps):.1f} ms")
    return 0 if open_ms <= OPEN_TARGET_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
