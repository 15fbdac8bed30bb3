"""The turn stepper: timeline geometry, step controls by button and keyboard, playing, what each
step shows, the summary, and the window integration (View → Turn Stepper)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QImage, QPainter

from inspector.store import open_store
from inspector.turn.builder import build_turn
from inspector.turn.model import Turn
from inspector.turn.summary import summarize
from ui.models.turn_timeline import UNSTAGED
from ui.views.turn_stepper import TurnView
from ui.workers import TaskManager

MAIN = "demo-lantern-deepseek"
POST_TURN = ["char-creator/character-tracker", "world-init/dimension-tracker", "affinity/main"]


@pytest.fixture(scope="module")
def demo_db(demo_store: Path) -> Path:
    return demo_store


@pytest.fixture
def store(demo_db: Path) -> Iterator[Any]:
    with open_store(demo_db) as s:
        yield s


def turn_number(store: Any, number: int) -> Turn:
    row = next(t for t in store.turns(MAIN) if t.number == number)
    return build_turn(store, MAIN, row.turn_id)


@pytest.fixture
def view(qtbot: Any, store: Any) -> Iterator[TurnView]:
    tasks = TaskManager()
    v = TurnView(tasks, lambda: store)
    qtbot.addWidget(v)
    v.resize(1200, 800)
    v.show()
    qtbot.waitExposed(v)
    yield v
    v.pause()
    tasks.shutdown()


def index_of(turn: Turn, etype: str, runtime_id: str | None = None) -> int:
    return next(e.index for e in turn.events if e.type == etype and (runtime_id is None or e.runtime_id == runtime_id))


def test_lanes_bars_and_parallel_runtimes(view: TurnView, store: Any) -> None:
    turn = turn_number(store, 2)
    view.set_turn(turn)
    tl = view.timeline
    assert [lane.key for lane in tl.lanes] == ["pre-turn", "narrative", "post-turn"]
    # Lanes are stacked top to bottom without overlap, in execution order.
    for upper, lower in zip(tl.lanes, tl.lanes[1:]):
        assert upper.rect.bottom() <= lower.rect.top()
    assert {b.runtime_id for b in tl.bars} == {r.runtime_id for r in turn.runtimes()}
    post = next(lane for lane in tl.lanes if lane.key == "post-turn")
    assert post.rows == 3
    bars = [tl.bar(rid) for rid in POST_TURN]
    # The parallel group: one row each, stacked, all starting at (nearly) the same x.
    assert [b.row for b in bars] == [0, 1, 2]
    assert all(post.rect.contains(b.rect) for b in bars)
    assert bars[0].rect.bottom() <= bars[1].rect.top() and bars[1].rect.bottom() <= bars[2].rect.top()
    assert max(b.rect.left() for b in bars) - min(b.rect.left() for b in bars) < 2
    # Sequential stages move right along the time axis.
    guide, narrator = tl.bar("guide/main"), tl.bar("narrator/main")
    assert guide.rect.right() <= narrator.rect.left() + 1 <= bars[0].rect.left() + 1
    # Marks: one per model call (two steps for the tracker) and per tool call, inside their bar.
    tracker = turn.runtime("char-creator/character-tracker")
    calls = [tl.mark("call", c.event_id) for c in tracker.calls]
    assert len(calls) == 2 and calls[0].rect.right() <= calls[1].rect.left()
    tool = tl.mark("tool", tracker.tools[0].key)
    assert tool is not None and calls[0].rect.right() <= tool.rect.center().x() <= calls[1].rect.left()
    for mark in [*calls, tool]:
        assert tl.bar(mark.runtime_id).rect.adjusted(-6, -6, 6, 6).contains(mark.rect)
    assert tl.bar("affinity/main").runtime.status == "skipped"
    assert "guard" in tl.tooltip_at(tl.bar("affinity/main").rect.center())
    assert "Step: 2" in tl.tooltip_at(calls[1].rect.center())


def test_click_selects_the_event_under_the_pointer(qtbot: Any, view: TurnView, store: Any) -> None:
    turn = turn_number(store, 2)
    view.set_turn(turn)
    tracker = turn.runtime("char-creator/character-tracker")
    mark = view.timeline.mark("call", tracker.calls[1].event_id)
    qtbot.mouseClick(view.timeline, Qt.MouseButton.LeftButton, pos=mark.rect.center().toPoint())
    assert view.current_event().event_id == tracker.calls[1].event_id
    assert view.timeline.current_rect() == mark.rect
    bar = view.timeline.bar("guide/main")
    qtbot.mouseClick(view.timeline, Qt.MouseButton.LeftButton, pos=bar.rect.topLeft().toPoint() + QPointF(3, 3).toPoint())
    assert view.current_event().type == "runtime.started" and view.current_event().runtime_id == "guide/main"


def test_step_buttons_and_keyboard(qtbot: Any, view: TurnView, store: Any) -> None:
    turn = turn_number(store, 2)
    view.set_turn(turn)
    assert view.current == -1
    qtbot.mouseClick(view.next_button, Qt.MouseButton.LeftButton)
    assert view.current == 0 and view.current_event().type == "turn.started"
    qtbot.mouseClick(view.next_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(view.prev_button, Qt.MouseButton.LeftButton)
    assert view.current == 0

    view.timeline.setFocus()
    qtbot.waitUntil(view.timeline.hasFocus)
    qtbot.keyClick(view.timeline, Qt.Key.Key_Right)
    assert view.current == 1
    qtbot.keyClick(view.timeline, Qt.Key.Key_J)
    assert view.current == 2
    qtbot.keyClick(view.timeline, Qt.Key.Key_K)
    qtbot.keyClick(view.timeline, Qt.Key.Key_Left)
    assert view.current == 0

    starts = dict(view.stage_starts())
    assert list(starts) == ["pre-turn", "narrative", "post-turn"]
    qtbot.keyClick(view.timeline, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    assert view.current == starts["pre-turn"] and view.current_event().stage == "pre-turn"
    qtbot.keyClick(view.timeline, Qt.Key.Key_BracketRight)
    assert view.current == starts["narrative"]
    qtbot.mouseClick(view.next_stage_button, Qt.MouseButton.LeftButton)
    assert view.current == starts["post-turn"]
    qtbot.keyClick(view.timeline, Qt.Key.Key_Right)
    qtbot.keyClick(view.timeline, Qt.Key.Key_Left, Qt.KeyboardModifier.ShiftModifier)
    assert view.current == starts["post-turn"]  # back to the start of the stage it is in
    qtbot.keyClick(view.timeline, Qt.Key.Key_BracketLeft)
    assert view.current == starts["narrative"]
    qtbot.mouseClick(view.prev_stage_button, Qt.MouseButton.LeftButton)
    assert view.current == starts["pre-turn"]
    qtbot.keyClick(view.timeline, Qt.Key.Key_End)
    assert view.current == len(turn.events) - 1
    qtbot.keyClick(view.timeline, Qt.Key.Key_Right)  # stays on the last event
    assert view.current == len(turn.events) - 1
    qtbot.keyClick(view.timeline, Qt.Key.Key_Home)
    assert view.current == 0
    assert "event 1 of" in view.position.text()


def test_play_advances_with_a_timer_and_space_pauses(qtbot: Any, view: TurnView, store: Any) -> None:
    turn = turn_number(store, 2)
    view.set_turn(turn)
    assert view.set_speed("fixed", 150)
    assert view.play_interval_ms() == 150
    qtbot.mouseClick(view.play_button, Qt.MouseButton.LeftButton)
    assert view.playing
    qtbot.waitUntil(lambda: view.current >= 3, timeout=5000)
    view.timeline.setFocus()
    qtbot.waitUntil(view.timeline.hasFocus)
    qtbot.keyClick(view.timeline, Qt.Key.Key_Space)
    assert not view.playing
    stopped = view.current
    qtbot.wait(400)
    assert view.current == stopped
    # Scaled speed follows the recorded gaps, capped so long calls do not stall playback.
    assert view.set_speed("scale", 8)
    view.step_to(index_of(turn, "llm.calling", "narrator/main"))
    assert 40 <= view.play_interval_ms() <= 1500
    assert view.set_speed("fixed", 150)
    view.step_to(len(turn.events) - 3)
    qtbot.keyClick(view.timeline, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: not view.playing, timeout=5000)
    assert view.current == len(turn.events) - 1


def test_model_call_step_shows_the_request_and_its_history(qtbot: Any, view: TurnView, store: Any) -> None:
    turn = turn_number(store, 2)
    view.set_turn(turn)
    call = turn.runtime("char-creator/character-tracker").calls[0]
    with qtbot.waitSignal(view.request_view.loaded, timeout=30000):
        view.step_to_event(call.event_id)
    assert view.detail_page() == TurnView.PAGE_REQUEST
    assert view.request_view.event_id == call.event_id and view.request_view.isVisible()
    qtbot.waitUntil(lambda: view.history is not None and view.history.event_id == call.event_id, timeout=20000)
    assert view.history_box.isVisible()
    assert view.history_tree.topLevelItemCount() == len(view.history.rows) > 0

    view.step_to_event(call.response_event_id)  # its response: text, tool calls, usage
    assert view.current_event().type == "llm.responded"
    assert view.detail_page() == TurnView.PAGE_TEXT and view.history_box.isVisible()
    text = view.text.toPlainText()
    assert f"Usage: input {call.usage.input_tokens:,}" in text
    assert "character-upsert" in text and "tool-calls" in text


def test_tool_step_shows_input_and_output(view: TurnView, store: Any) -> None:
    turn = turn_number(store, 2)
    view.set_turn(turn)
    tool = turn.runtime("char-creator/character-tracker").tools[0]
    view.step_to_event(tool.calling_event_id)
    assert view.detail_page() == TurnView.PAGE_TEXT and not view.history_box.isVisible()
    text = view.text.toPlainText()
    assert "— Input —" in text and "顾长风" in text and "— Output —" in text and '"ok": true' in text
    view.step_to(0)  # turn.started: its raw row
    assert '"runtimeCount": 5' in view.text.toPlainText()


def test_failed_runtime_turn_and_summary_counts(view: TurnView, store: Any) -> None:
    turn = turn_number(store, 5)
    view.set_turn(turn)
    s = view.summary
    assert (s.runtimes, s.ran, s.succeeded, s.failed, s.skipped) == (5, 5, 4, 1, 0)
    assert s.failures[0][0] == "world-init/dimension-tracker" and "502" in s.failures[0][1]
    assert s.calls == 6 and s.input_tokens == sum(c.usage.input_tokens for r in turn.runtimes() for c in r.calls)
    assert s.output_tokens > 0 and s.cached_tokens > 0 and s.story and s.player
    assert [t.name for t in s.tools] == ["character-upsert"]
    failed = view.timeline.bar("world-init/dimension-tracker")
    assert failed.runtime.status == "failed"
    html = view.summary_view.toPlainText()
    assert "1 failed" in html and "world-init/dimension-tracker" in html and "Story" in html
    skipped = summarize(turn_number(store, 2))
    assert (skipped.ran, skipped.skipped, skipped.failed) == (4, 1, 0)


def test_unstaged_runtimes_get_the_after_stages_lane(view: TurnView, store: Any) -> None:
    turn = turn_number(store, 2)
    moved = turn.stages.pop()  # the post-turn runtimes, as if they had run with no stage
    turn.unstaged, turn.unstaged_groups = moved.runtimes, moved.groups
    for r in moved.runtimes:
        r.stage = None
    view.set_turn(turn)
    assert view.timeline.lanes[-1].key == UNSTAGED and view.timeline.lanes[-1].rows == 3
    assert [k for k, _ in view.stage_starts()][-1] == UNSTAGED


def test_paints_to_an_image(view: TurnView, store: Any) -> None:
    view.set_turn(turn_number(store, 2))
    view.step_to(5)
    image = QImage(view.timeline.size(), QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    view.timeline.paint(painter)
    painter.end()
    assert not image.isNull() and image.pixelColor(image.width() // 2, image.height() // 2).isValid()


def test_window_integration(qtbot: Any, isolated_settings: Path, demo_db: Path) -> None:
    from ui.models import navigator_nodes as nav
    from ui.windows.main_window import MainWindow
    from ui.windows.turn_dock import install_turn_view

    window = MainWindow()
    qtbot.addWidget(window)
    install_turn_view(window)
    assert window.turn_view_action.shortcut().toString() == "Ctrl+3"
    pages = window.centre.count()
    view = window.turn_view  # built when first asked for, once
    assert window.turn_view is view and window.centre.count() == pages + 1
    with qtbot.waitSignal(window.openFinished, timeout=30000):
        window.open_database(demo_db)
    with open_store(demo_db) as s:
        row = next(t for t in s.turns(MAIN) if t.number == 2)
    with qtbot.waitSignal(window.navigator.revealFinished, timeout=30000):
        window.navigator.reveal([(nav.SESSION, MAIN), (nav.TURN, row.turn_id)])
    qtbot.waitUntil(lambda: view.turn is not None and view.turn.turn_id == row.turn_id, timeout=30000)
    assert window.centre.currentWidget() is view
    window.follow_turns_action.setChecked(False)
    window.overview_action.trigger()
    assert window.centre.currentWidget() is window.overview
    window.turn_view_action.trigger()
    assert window.centre.currentWidget() is view
    window.shutdown()


def test_turns_asked_for_in_quick_succession_build_one_at_a_time(
        qtbot: Any, view: TurnView, store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Holding ↓ in the navigator asks for one turn per row passed; builds side by side would
    starve the GUI thread, so one runs at a time and only the last turn asked for is built next."""
    import threading
    import time

    import ui.views.turn_stepper as turn_view_module

    turns = [t.turn_id for t in store.turns(MAIN)][:4]
    built: list[str] = []
    running = [0]
    most = [0]
    lock = threading.Lock()

    def slow_build(store_: Any, session_id: str, turn_id: str) -> Turn:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        try:
            time.sleep(0.15)
            built.append(turn_id)
            return build_turn(store_, session_id, turn_id)
        finally:
            with lock:
                running[0] -= 1

    monkeypatch.setattr(turn_view_module, "build_turn", slow_build)
    for turn_id in turns:
        view.load_turn(MAIN, turn_id)
    qtbot.waitUntil(lambda: view.turn is not None and view.turn.turn_id == turns[-1], timeout=10000)
    assert most[0] == 1
    assert built == [turns[0], turns[-1]]
