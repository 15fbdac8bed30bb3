"""How long the prompt-zones editor takes from a keystroke in the template editor to the squiggles,
the problems list, the preview and the digest being up to date.

    python benchmarks/zones_editor.py [--repeat 200] [--config PATH]

Offscreen. Each sample sends one key press (a character, as typing does) to the template editor
of a different template block in turn, then runs the event loop until the window reports that
its refresh (check + render + squiggles + problems + preview + digest) has finished. Two runs:
with the Preview tab in front (the usual case) and with the Turns tab in front (every keystroke
also re-simulates all turns). Target: 50 ms on the shipped sample. Printed figures are medians
and 95th percentiles in milliseconds; "refresh" is the refresh alone, "keystroke" adds the key
handling, the undo command and the event-loop turn the refresh waits for.
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

TARGET_MS = 50.0


def _ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {statistics.median(samples):6.2f} ms   p95 {p95:6.2f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--config", default=None, help="a config file (default: the shipped sample)")
    args = parser.parse_args(argv)

    from PySide6.QtCore import QEvent, Qt
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtWidgets import QApplication

    from ui.theme import apply_theme
    from ui.zones_editor import open_zones_editor

    app = QApplication.instance() or QApplication([])
    apply_theme(app)
    window = open_zones_editor(path=args.config)
    window.resize(1480, 900)
    window.report_error = lambda title, text: print(f"{title}: {text}", file=sys.stderr)
    app.processEvents()
    templates = [i for i, b in enumerate(window.doc.config.blocks) if b.template] or \
        list(range(len(window.doc.config.blocks)))
    done = [False]
    window.refreshed.connect(lambda: done.__setitem__(0, True))

    def keystroke(i: int) -> tuple[float, float]:
        window.select_block(templates[i % len(templates)])
        editor = window.editor
        cursor = editor.textCursor()
        cursor.movePosition(cursor.MoveOperation.End)
        editor.setTextCursor(cursor)
        app.processEvents()
        ch = "字" if i % 2 else " "
        done[0] = False
        t0 = time.perf_counter()
        app.sendEvent(editor, QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_unknown, Qt.KeyboardModifier.NoModifier, ch))
        while not done[0]:
            app.processEvents()
        elapsed = (time.perf_counter() - t0) * 1000
        app.sendEvent(editor, QKeyEvent(QEvent.Type.KeyRelease, Qt.Key.Key_unknown, Qt.KeyboardModifier.NoModifier, ch))
        # Each key press must have reached the preview and the digest.
        assert window.result.content_digest == window.preview.content_digest_label.text()
        return elapsed, window.last_refresh_ms

    results = {}
    for tab in (window.preview, window.simulator):
        window.tabs.setCurrentWidget(tab)
        app.processEvents()
        keystroke(0)  # warm-up: first paint of the tab
        totals, refreshes = [], []
        for i in range(args.repeat):
            total, refresh = keystroke(i)
            totals.append(total)
            refreshes.append(refresh)
        results[window.tabs.tabText(window.tabs.indexOf(tab))] = (totals, refreshes)

    config = window.doc.config
    print(f"config: {args.config or 'shipped sample'} ({len(config.blocks)} blocks, {len(config.variables)} variables),"
          f" {args.repeat} keystrokes per run")
    for name, (totals, refreshes) in results.items():
        print(f"{name + ' tab in front':<24} keystroke {_ms(totals)}   target {TARGET_MS:.0f} ms")
        print(f"{'':<24} refresh   {_ms(refreshes)}")
    window.doc.undo_stack.setClean()
    window.close()
    worst = max(statistics.median(t) for t, _r in results.values())
    return 0 if worst <= TARGET_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
