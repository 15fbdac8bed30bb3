"""Responsiveness of the desktop app on the 1,000-turn benchmark database.

    QT_QPA_PLATFORM=offscreen python benchmarks/ui.py [--db benchmarks/data/bench.db] [--repeat 5]

Measures, against the targets of the issue:

* open → usable: from ``MainWindow.open_database(path)`` until the sessions are listed and the
  event loop answers again (a zero-timer fires), median of ``--repeat`` fresh windows;
* select → request view: from selecting a request in the navigator until the request view's
  trees are filled and the event loop answers, for the largest ``llm.calling`` payload and a few
  typical ones, median of ``--repeat`` selections each;
* GUI-thread stalls: a 5 ms watchdog ``QTimer`` records the gaps between its ticks while the
  navigator's 1,000-turn session is scrolled step by step (scroll bar, then Down/PageDown keys),
  while turns expand (lazy fetch), and while the free-text search runs. The stall is the gap
  minus the 5 ms period; max and 99th percentile are reported;
* the opened request, on the largest ``llm.calling`` payload: each tab shown for the first time
  (Conversation cards built, Kernel messages / Provider body / Raw event prepared), the JSON tab
  switched to Unescaped and back, and a search hit highlighted in every pane
  (``RequestView.highlight_search``) on each tab: time until ready (median of ``--repeat``) and
  the max GUI stall; then a prompt search (``--highlight``) applied and ``--hits`` hits opened
  with F3, each loaded and highlighted. ``--request-only`` measures this part alone.

Nothing here is written to the database; settings go to a temporary folder.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication, QEventLoop, QModelIndex, QSettings, Qt, QTimer  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

DEFAULT_DB = ROOT / "benchmarks" / "data" / "bench.db"
TICK_MS = 5

TARGET_OPEN_MS = 1000.0
TARGET_SELECT_MS = 300.0
TARGET_STALL_MS = 50.0


# ---------------------------------------------------------------------------------- helpers

def wait_until(predicate: Callable[[], bool], timeout_s: float = 120.0) -> None:
    deadline = time.perf_counter() + timeout_s
    while not predicate():
        if time.perf_counter() > deadline:
            raise TimeoutError("benchmark step timed out")
        QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 5)
        QTest.qWait(1)


def spin(ms: int) -> None:
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def next_turn_of_loop() -> None:
    """Return once the event loop has come round again (pending posted events and paints done)."""
    loop = QEventLoop()
    QTimer.singleShot(0, loop.quit)
    loop.exec()


class Watchdog:
    """Records the gaps between ticks of a 5 ms timer: a gap of g ms is a stall of g − 5 ms."""

    def __init__(self) -> None:
        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self._tick)
        self.gaps: list[float] = []
        self._last = 0.0

    def _tick(self) -> None:
        now = time.perf_counter()
        self.gaps.append((now - self._last) * 1000)
        self._last = now

    def start(self) -> None:
        self.gaps = []
        self._last = time.perf_counter()
        self.timer.start()

    def stop(self) -> list[float]:
        self.timer.stop()
        self._tick()  # the time since the last tick counts too
        return [max(0.0, g - TICK_MS) for g in self.gaps]


def p99(values: list[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(0.99 * (len(ordered) - 1))))]


# ---------------------------------------------------------------------------------- the app

def make_window():
    from ui.windows.main_window import MainWindow
    from ui.views.request_view import attach_request_view

    window = MainWindow(remember_layout=False)
    view = attach_request_view(window)
    window.resize(1500, 950)
    window.show()
    next_turn_of_loop()
    return window, view


def close_window(window) -> None:
    window.shutdown()
    window.close()
    window.deleteLater()
    next_turn_of_loop()


def open_and_wait(window, db: Path) -> float:
    """ms from open_database to sessions listed + event loop answering."""
    done: list[bool] = []
    window.openFinished.connect(done.append)
    start = time.perf_counter()
    window.open_database(db)
    wait_until(lambda: bool(done))
    next_turn_of_loop()
    elapsed = (time.perf_counter() - start) * 1000
    window.openFinished.disconnect(done.append)
    if not done[0] or window.navigator.model.rowCount() == 0:
        raise RuntimeError("the database did not open")
    return elapsed


def bench_open(db: Path, repeat: int) -> tuple[float, list[float], float]:
    times, stalls_max = [], 0.0
    for _ in range(repeat):
        window, _view = make_window()
        dog = Watchdog()
        dog.start()
        times.append(open_and_wait(window, db))
        # Background work started by the open (filter facets) runs on; its stalls count too.
        wait_until(lambda: window.tasks.pending == 0)
        stalls = dog.stop()
        stalls_max = max(stalls_max, max(stalls, default=0.0))
        close_window(window)
    return statistics.median(times), times, stalls_max


def pick_requests(db: Path, typical: int) -> tuple[str, list[str]]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        largest = con.execute("SELECT id FROM trace_events WHERE type='llm.calling' "
                              "ORDER BY length(payload) DESC LIMIT 1").fetchone()[0]
        ids = [r[0] for r in con.execute("SELECT id FROM trace_events WHERE type='llm.calling' ORDER BY rowid")]
    finally:
        con.close()
    rng = random.Random(7)
    return largest, rng.sample(ids, typical)


def reveal(window, event_id: str) -> QModelIndex:
    """Expand the navigator to ``event_id`` without selecting it; the proxy index of its row."""
    from inspector import views
    from ui.models import navigator_nodes as nav

    navigator = window.navigator
    loc = views.request_location(window.store, event_id)
    finished: list[bool] = []
    navigator.revealFinished.connect(finished.append)
    navigator.reveal([(nav.SESSION, loc["sessionId"]), (nav.TURN, loc["turnId"]),
                      (nav.RUNTIME, loc["runtimeId"]), (nav.REQUEST, event_id)], select=False)
    wait_until(lambda: bool(finished))
    navigator.revealFinished.disconnect(finished.append)
    node, depth = navigator.model.find([(nav.SESSION, loc["sessionId"]), (nav.TURN, loc["turnId"]),
                                        (nav.RUNTIME, loc["runtimeId"]), (nav.REQUEST, event_id)])
    return navigator.proxy.mapFromSource(navigator.model.index_of(node))


def select_and_wait(window, view, index: QModelIndex) -> float:
    shown: list[str] = []
    view.loaded.connect(shown.append)
    view.loadFailed.connect(shown.append)
    start = time.perf_counter()
    window.navigator.tree.setCurrentIndex(index)
    wait_until(lambda: bool(shown))
    next_turn_of_loop()
    elapsed = (time.perf_counter() - start) * 1000
    view.loaded.disconnect(shown.append)
    view.loadFailed.disconnect(shown.append)
    if view.detail is None:
        raise RuntimeError(f"request not shown: {shown}")
    if view.stack_section.model.rowCount() == 0:
        raise RuntimeError("segment stack is empty")
    return elapsed


def bench_select(window, view, db: Path, repeat: int, typical: int) -> tuple[dict[str, float], float, float]:
    largest, others = pick_requests(db, typical)
    indexes = {eid: reveal(window, eid) for eid in [largest, *others]}
    parked = window.navigator.model.index_of(window.navigator.model.root.children[0])
    parked = window.navigator.proxy.mapFromSource(parked)
    results: dict[str, list[float]] = {eid: [] for eid in indexes}
    dog = Watchdog()
    dog.start()
    for _ in range(repeat):
        for eid, index in indexes.items():
            window.navigator.tree.setCurrentIndex(parked)  # leave the request, so selecting it is new
            next_turn_of_loop()
            results[eid].append(select_and_wait(window, view, index))
    stalls = dog.stop()
    medians = {eid: statistics.median(v) for eid, v in results.items()}
    return {"largest": medians[largest], **{eid: medians[eid] for eid in others}}, max(stalls), p99(stalls)


def largest_session_index(window) -> QModelIndex:
    model = window.navigator.model
    best = max(model.root.children, key=lambda n: int(n.data.get("executions") or 0))
    return window.navigator.proxy.mapFromSource(model.index_of(best))


def bench_scroll(window, seconds: float) -> tuple[list[float], int]:
    """Scroll the expanded big session for ``seconds``: scroll bar steps, then Down/PageDown keys."""
    tree = window.navigator.tree
    session = largest_session_index(window)
    tree.collapseAll()
    tree.scrollToTop()
    tree.expand(session)
    wait_until(lambda: window.navigator.model.loading == 0 and window.navigator.proxy.rowCount(session) > 100)
    next_turn_of_loop()
    bar = tree.verticalScrollBar()
    dog = Watchdog()
    steps = 0
    dog.start()
    # Half the time dragging the scroll bar in 40 px steps every 16 ms (a fast wheel), half
    # walking with the keyboard.
    end = time.perf_counter() + seconds / 2
    while time.perf_counter() < end:
        value = bar.value() + 40
        bar.setValue(0 if value > bar.maximum() else value)
        steps += 1
        spin(16)
    tree.setFocus()
    tree.setCurrentIndex(session)
    end = time.perf_counter() + seconds / 2
    keys = [Qt.Key.Key_Down] * 6 + [Qt.Key.Key_PageDown]
    while time.perf_counter() < end:
        QTest.keyClick(tree, keys[steps % len(keys)])
        steps += 1
        spin(16)
    return dog.stop(), steps


def bench_expand_turns(window, count: int) -> list[float]:
    """Expand ``count`` not-yet-loaded turns one after another (each a background fetch)."""
    tree = window.navigator.tree
    proxy = window.navigator.proxy
    session = largest_session_index(window)
    model = window.navigator.model
    from ui.models import navigator_nodes as nav

    dog = Watchdog()
    dog.start()
    expanded = 0
    for row in range(proxy.rowCount(session) - 1, -1, -1):
        index = proxy.index(row, 0, session)
        node = model.node(proxy.mapToSource(index))
        if node.state != nav.IDLE:
            continue
        tree.scrollTo(index)
        tree.expand(index)
        wait_until(lambda: model.loading == 0)
        spin(20)
        expanded += 1
        if expanded >= count:
            break
    return dog.stop()


def bench_search(window, text: str) -> tuple[list[float], float, int]:
    """Type ``text`` in the search box; until the filter is applied and the matches expanded."""
    navigator = window.navigator
    dog = Watchdog()
    dog.start()
    start = time.perf_counter()
    navigator.search.setText(text)  # as if typed (keyClicks cannot type CJK)
    spin(navigator._search_timer.interval() + 20)
    # The search starts when its debounce timer fires; "not busy" before that means nothing.
    wait_until(lambda: not navigator._search_timer.isActive(), timeout_s=60)
    wait_until(lambda: navigator.busy == 0 and window.tasks.pending == 0 and not navigator._expand_timer.isActive(),
               timeout_s=600)
    next_turn_of_loop()
    elapsed = (time.perf_counter() - start) * 1000
    matches = len(navigator._matches or ())
    stalls = dog.stop()
    # Back to no filter, still measured as part of the search's feel.
    dog.start()
    navigator.search.clear()
    spin(navigator._search_timer.interval() + 20)
    wait_until(lambda: navigator.busy == 0)
    next_turn_of_loop()
    stalls += dog.stop()
    return stalls, elapsed, matches


def _tab_ready(view, page) -> bool:
    from ui.views.text_pane import TextPane

    if page is view.conversation_view:
        return not page.building and bool(page.cards)
    if page is view.provider_tabs:
        page = page.currentWidget()
    return not isinstance(page, TextPane) or page.pending is None


def bench_request_tabs(window, view, db: Path, repeat: int, needle: str
                       ) -> dict[str, tuple[list[float], list[float]]]:
    """On the largest request: its selection, each tab's first showing, the Unescaped toggle and
    the search highlight on every tab. Per step: the ms until ready, and its GUI stalls."""
    largest, _ = pick_requests(db, 0)
    index = reveal(window, largest)
    parked = window.navigator.proxy.mapFromSource(
        window.navigator.model.index_of(window.navigator.model.root.children[0]))
    out: dict[str, tuple[list[float], list[float]]] = {}
    dog = Watchdog()

    def step(name: str, act: Callable[[], None], ready: Callable[[], bool]) -> None:
        dog.start()
        start = time.perf_counter()
        act()
        wait_until(ready)
        next_turn_of_loop()
        elapsed = (time.perf_counter() - start) * 1000
        times, stalls = out.setdefault(name, ([], []))
        times.append(elapsed)
        stalls.extend(dog.stop())

    pages = [("Conversation", view.conversation_view), ("Kernel messages", view.kernel_pane),
             ("Provider body", view.provider_tabs), ("Raw event", view.raw_pane)]
    for _ in range(repeat):
        view.tabs.setCurrentIndex(0)
        window.navigator.tree.setCurrentIndex(parked)
        next_turn_of_loop()
        shown: list[str] = []
        view.loaded.connect(shown.append)
        step("select (Anatomy tab)", lambda: window.navigator.tree.setCurrentIndex(index), lambda: bool(shown))
        view.loaded.disconnect(shown.append)
        for name, page in pages:
            step(f"{name} tab first shown", lambda p=page: view.tabs.setCurrentWidget(p),
                 lambda p=page: _tab_ready(view, p))
        view.tabs.setCurrentWidget(view.kernel_pane)
        for on in (True, False):
            step("Kernel messages: Unescaped " + ("on" if on else "off"),
                 lambda on=on: view.kernel_pane.unescape_box.setChecked(on),
                 lambda on=on: view.kernel_pane.pending is None and view.kernel_pane.unescaped == on)
        for name, page in [("Anatomy", view.tabs.widget(0)), *pages]:
            view.tabs.setCurrentWidget(page)
            wait_until(lambda p=page: _tab_ready(view, p))
            next_turn_of_loop()
            step(f"search hit highlighted on {name}", lambda: view.highlight_search(needle), lambda: True)
        view.highlight_search("")
        next_turn_of_loop()
    view.tabs.setCurrentIndex(0)
    return out


def bench_search_hits(window, view, text: str, hits: int) -> dict[str, tuple[list[float], list[float]]]:
    """Search the prompts for ``text`` until the navigator shows the hits (``searchApplied``), then
    open ``hits`` hits one after another with F3 (``next_hit``): each request loads and the
    search text is highlighted in it (``searchHighlight`` → ``RequestView.highlight_search``).
    Per step: the ms until done and its GUI stalls."""
    navigator = window.navigator
    out: dict[str, tuple[list[float], list[float]]] = {}
    dog = Watchdog()
    applied: list[int] = []
    navigator.searchApplied.connect(applied.append)
    dog.start()
    start = time.perf_counter()
    navigator.search.setText(text)
    wait_until(lambda: bool(applied) and applied[-1] >= 0, timeout_s=600)
    next_turn_of_loop()
    out[f"search {text!r} applied ({applied[-1]:,} hits)"] = ([(time.perf_counter() - start) * 1000], dog.stop())
    navigator.searchApplied.disconnect(applied.append)
    for _ in range(hits):
        shown: list[str] = []
        view.loaded.connect(shown.append)
        dog.start()
        start = time.perf_counter()
        navigator.next_hit()
        wait_until(lambda: bool(shown) and view.search_text == text)
        next_turn_of_loop()
        times, stalls = out.setdefault("F3: next hit opened and highlighted", ([], []))
        times.append((time.perf_counter() - start) * 1000)
        stalls.extend(dog.stop())
        view.loaded.disconnect(shown.append)
    dog.start()
    navigator.search.clear()
    spin(navigator._search_timer.interval() + 20)
    wait_until(lambda: navigator.busy == 0)
    next_turn_of_loop()
    out["search cleared"] = ([0.0], dog.stop())
    return out


# ---------------------------------------------------------------------------------- main

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, default=DEFAULT_DB)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--typical", type=int, default=4, help="typical requests timed beside the largest")
    parser.add_argument("--scroll-seconds", type=float, default=6.0)
    parser.add_argument("--search", default="character-upsert",
                        help="free text to search for (the default occurs in every tool-loop request)")
    parser.add_argument("--highlight", default="character",
                        help="text highlighted in the opened request (RequestView.highlight_search)")
    parser.add_argument("--hits", type=int, default=5, help="search hits opened with F3 one after another")
    parser.add_argument("--request-only", action="store_true",
                        help="only the opened request's tabs, toggle and highlight (skips open, scroll, search)")
    parser.add_argument("--profile", metavar="OUT.prof", help="cProfile the GUI thread into this file")
    args = parser.parse_args(argv)
    if not args.db.is_file():
        sys.stderr.write(f"{args.db} does not exist: run python benchmarks/run.py first to build it\n")
        return 2

    settings_dir = tempfile.mkdtemp(prefix="pi-bench-settings-")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, settings_dir)
    app = QApplication.instance() or QApplication(["prompt-inspector-bench"])
    app.setOrganizationName("prompt-inspector-bench")
    app.setApplicationName("prompt-inspector-bench")
    from ui.theme import apply_theme

    apply_theme(app)

    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()

    rows: list[tuple[str, str, str, bool]] = []

    def row(what: str, value: float, target: float, unit: str = "ms") -> None:
        rows.append((what, f"{value:,.0f} {unit}", f"≤ {target:,.0f} {unit}", value <= target))

    open_runs: list[float] = []
    if not args.request_only:
        open_median, open_runs, open_stall = bench_open(args.db, args.repeat)
        row("open → sessions listed, usable (median)", open_median, TARGET_OPEN_MS)
        row("  max GUI stall while opening (+ facets)", open_stall, TARGET_STALL_MS)

    window, view = make_window()
    open_and_wait(window, args.db)
    wait_until(lambda: window.tasks.pending == 0)

    if not args.request_only:
        selects, sel_max, sel_p99 = bench_select(window, view, args.db, args.repeat, args.typical)
        row("select largest request → trees filled (median)", selects.pop("largest"), TARGET_SELECT_MS)
        for eid, ms in selects.items():
            row(f"select typical request {eid[:8]} (median)", ms, TARGET_SELECT_MS)
        row("  max GUI stall while loading requests", sel_max, TARGET_STALL_MS)

    steps = bench_request_tabs(window, view, args.db, args.repeat, args.highlight)
    all_stalls: list[float] = []
    for what, (times, stalls) in steps.items():
        all_stalls += stalls
        rows.append((f"largest request: {what} (median; max stall)",
                     f"{statistics.median(times):,.0f} ms; {max(stalls, default=0.0):,.0f} ms",
                     f"≤ {TARGET_STALL_MS:,.0f} ms", max(stalls, default=0.0) <= TARGET_STALL_MS))
    for what, (times, stalls) in bench_search_hits(window, view, args.highlight, args.hits).items():
        all_stalls += stalls
        rows.append((f"{what} (median; max stall)",
                     f"{statistics.median(times):,.0f} ms; {max(stalls, default=0.0):,.0f} ms",
                     f"≤ {TARGET_STALL_MS:,.0f} ms", max(stalls, default=0.0) <= TARGET_STALL_MS))
    row("  max GUI stall on the opened request (all the steps above)", max(all_stalls, default=0.0), TARGET_STALL_MS)
    row("  p99 GUI stall on the opened request", p99(all_stalls), TARGET_STALL_MS)

    if not args.request_only:
        scroll, steps = bench_scroll(window, args.scroll_seconds)
        row(f"scroll 1,025-turn session: max stall ({steps} steps)", max(scroll), TARGET_STALL_MS)
        row("scroll 1,025-turn session: p99 stall", p99(scroll), TARGET_STALL_MS)

        expand = bench_expand_turns(window, 10)
        row("expand 10 turns (lazy fetch): max stall", max(expand), TARGET_STALL_MS)
        row("expand 10 turns (lazy fetch): p99 stall", p99(expand), TARGET_STALL_MS)

        search, search_ms, matches = bench_search(window, args.search)
        row(f"free-text search ({matches} matches, {search_ms / 1000:.1f} s): max stall", max(search),
            TARGET_STALL_MS)
        row("free-text search: p99 stall", p99(search), TARGET_STALL_MS)

    close_window(window)
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(args.profile)

    width = max(len(r[0]) for r in rows)
    print(f"\nUI benchmark on {args.db.name} ({args.db.stat().st_size / 1e6:,.0f} MB), "
          f"{args.repeat} runs, stall = watchdog gap − {TICK_MS} ms\n")
    vwidth = max(10, *(len(r[1]) for r in rows))
    print(f"{'what':<{width}}  {'measured':>{vwidth}}  {'target':>10}  result")
    print(f"{'-' * width}  {'-' * vwidth}  {'-' * 10}  ------")
    for what, value, target, ok in rows:
        print(f"{what:<{width}}  {value:>{vwidth}}  {target:>10}  {'PASS' if ok else 'FAIL'}")
    if open_runs:
        print(f"\nopen runs: {', '.join(f'{t:.0f}' for t in open_runs)} ms")
    return 0 if all(r[3] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
