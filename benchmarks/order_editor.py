"""How fast the order editor shows the effect of an edit, offscreen, on the shipped sample.

    python benchmarks/order_editor.py [--repeat 40] [--slot world-simulator]

For each edit (cycling: a move by Alt+Down's path, a projection change through the table model,
a before-history / after-history move, each later undone by the undo stack so the table keeps
its shape) it measures, as medians and worsts of ``--repeat`` runs:

* edit → preview: from the call to the preview widgets showing the new assembly (messages, bags,
  segments, the table's bag/token columns) and the events that follows processed (target: 50 ms);
* edit → strip: from the call to the break strip showing the finished prefix simulation (this
  includes the strip's debounce, ``SimulationRunner.debounce_ms``);
* the longest slice of the simulation: the longest the GUI thread is busy with it at once;
* one turn of the slider: from ``setValue`` to the preview updated.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication  # noqa: E402


def report(name: str, samples: list[float]) -> None:
    print(f"{name:<40} median {statistics.median(samples):7.2f} ms   max {max(samples):7.2f} ms   (n={len(samples)})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--slot", default="world-simulator")
    args = parser.parse_args()

    app = QApplication.instance() or QApplication([])
    from ui.order_editor import OrderEditorWindow
    from ui.order_editor.model import COL_PROJECTION
    from ui.order_editor.preview import SimulationRunner

    slices: list[float] = []
    original_step = SimulationRunner._step

    def timed_step(self, budget_ms=None):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        original_step(self, budget_ms)
        slices.append((time.perf_counter() - start) * 1000)

    SimulationRunner._step = timed_step  # type: ignore[method-assign]

    t0 = time.perf_counter()
    window = OrderEditorWindow()
    window.ask_save = lambda: "discard"
    window.resize(1500, 900)
    window.show()
    for i in range(window.slot_list.count()):
        if window.slot_list.item(i).data(0x0100) == args.slot:
            window.slot_list.setCurrentRow(i)
    window.settle()
    print(f"open the editor on the sample (tokenizer loaded)   {(time.perf_counter() - t0) * 1000:.0f} ms")

    done = {"strip": False}
    window.stripUpdated.connect(lambda: done.__setitem__("strip", True))
    model = window.model

    def move(_i: int) -> None:
        window._select_row(2)
        window.move_selected(1)

    def projection(i: int) -> None:
        model.setData(model.index(1, COL_PROJECTION), ("full", "fields")[i // 4 % 2])

    def before(_i: int) -> None:
        window._select_row(model.rowCount() - 2)
        window.anchor_selected("pre_history")

    def undo(_i: int) -> None:
        window.doc.undo_stack.undo()

    edits = [move, projection, before, undo]
    to_preview: list[float] = []
    to_strip: list[float] = []
    slices.clear()
    for i in range(args.repeat):
        done["strip"] = False
        start = time.perf_counter()
        edits[i % len(edits)](i)
        app.processEvents()
        to_preview.append((time.perf_counter() - start) * 1000)
        while not done["strip"]:
            app.processEvents()
            time.sleep(0.0005)
        to_strip.append((time.perf_counter() - start) * 1000)
    report("edit → preview shown", to_preview)
    report(f"edit → strip shown (debounce {window.runner.debounce_ms} ms)", to_strip)
    report("simulation slice (GUI thread busy)", slices)

    turns: list[float] = []
    count = window.preview.slider.maximum()
    for i in range(args.repeat):
        start = time.perf_counter()
        window.preview.slider.setValue((i * 7) % (count + 1))
        app.processEvents()
        turns.append((time.perf_counter() - start) * 1000)
    report("turn slider → preview shown", turns)
    print(f"breaks at turns {', '.join(map(str, window.preview.simulation.break_turns))}")
    window.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
