"""The stepper's timeline zooms and pans (Ctrl+wheel about the pointer, Shift+wheel and drags pan,
a double-click zooms to a parallel group, Fit shows the whole turn), writes a label too long for
its bar where its row has room, and the stepper names the turn by number and opens a request in
the main view (issue 19, item 1)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication

from inspector.ids import turn_numbers
from inspector.store import open_store
from inspector.turn.builder import build_turn
from inspector.turn.model import Turn
from ui.models.turn_timeline import GUTTER, lay_out
from ui.views.turn_stepper import TurnView
from ui.workers import TaskManager

MAIN = "demo-lantern-deepseek"
POST_TURN = ["char-creator/character-tracker", "world-init/dimension-tracker", "affinity/main"]


@pytest.fixture
def store(demo_store: Path) -> Iterator[Any]:
    with open_store(demo_store) as s:
        yield s


@pytest.fixture
def view(qtbot: Any, store: Any) -> Iterator[TurnView]:
    tasks = TaskManager()
    v = TurnView(tasks, lambda: store)
    qtbot.addWidget(v)
    v.resize(760, 640)
    v.show()
    qtbot.waitExposed(v)
    yield v
    v.pause()
    tasks.shutdown()


def turn_number(store: Any, number: int) -> Turn:
    row = next(t for t in store.turns(MAIN) if t.number == number)
    return build_turn(store, MAIN, row.turn_id)


def wheel(widget: Any, pos: QPointF, delta: int, modifiers: Qt.KeyboardModifier) -> None:
    event = QWheelEvent(pos, widget.mapToGlobal(pos), QPoint(0, 0), QPoint(0, delta), Qt.MouseButton.NoButton,
                        modifiers, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def test_ctrl_wheel_zooms_about_the_pointer_and_fit_shows_the_whole_turn(qtbot: Any, view: TurnView,
                                                                       store: Any) -> None:
    view.set_turn(turn_number(store, 2))
    qtbot.wait(20)  # the splitter's fit and the scroll bars settle
    scroll, timeline = view.timeline_scroll, view.timeline
    visible = scroll.viewport().width()
    assert scroll.zoom == 1.0 and timeline.width() == visible
    bar = timeline.bar("narrator/main")
    anchor = QPointF(bar.rect.center().x(), bar.rect.center().y())
    moment = timeline.placement.ms_at(anchor.x())
    wheel(scroll.viewport(), anchor, 240, Qt.KeyboardModifier.ControlModifier)
    assert scroll.zoom == pytest.approx(1.25 ** 2)
    assert timeline.width() == int(visible * scroll.zoom)
    # The moment under the pointer stayed under the pointer.
    shown_x = timeline.placement.x_of(moment) - scroll.horizontalScrollBar().value()
    assert abs(shown_x - anchor.x()) <= 2
    assert view.zoom_label.text() == "1.6×" and view.zoom_out_button.isEnabled()

    view.fit_action.trigger()
    assert scroll.zoom == 1.0 and timeline.width() == visible
    assert scroll.horizontalScrollBar().value() == 0
    view.zoom_in_action.trigger()
    assert scroll.zoom == pytest.approx(1.25)
    view.zoom_out_action.trigger()
    view.zoom_out_action.trigger()
    assert scroll.zoom == 1.0  # never narrower than the whole turn
    assert not view.zoom_out_button.isEnabled()


def test_shift_wheel_and_drag_pan_without_selecting(qtbot: Any, view: TurnView, store: Any) -> None:
    view.set_turn(turn_number(store, 2))
    scroll, timeline = view.timeline_scroll, view.timeline
    scroll.set_zoom(4.0, 0)
    bar = scroll.horizontalScrollBar()
    bar.setValue(200)
    y = timeline.lanes[1].rect.center().y()
    wheel(scroll.viewport(), QPointF(300, y), -120, Qt.KeyboardModifier.ShiftModifier)
    assert bar.value() == 320
    # A drag pans by the distance moved and selects nothing.
    start = QPoint(bar.value() + 300, int(y))
    qtbot.mousePress(timeline, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(timeline, start + QPoint(-60, 0))
    qtbot.mouseRelease(timeline, Qt.MouseButton.LeftButton, pos=start + QPoint(-60, 0))
    assert bar.value() == 380
    assert view.current == -1
    # A click (no movement) still selects.
    narrator = timeline.bar("narrator/main")
    point = QPoint(int(narrator.rect.left()) + 40 + 0, int(narrator.rect.top()) + 4)
    bar.setValue(int(narrator.rect.left()) - GUTTER - 20)
    qtbot.mouseClick(timeline, Qt.MouseButton.LeftButton, pos=point)
    assert view.current_event() is not None and view.current_event().runtime_id == "narrator/main"


def test_double_click_zooms_to_the_parallel_group_and_its_labels_fit(qtbot: Any, view: TurnView,
                                                                   store: Any) -> None:
    turn = turn_number(store, 2)
    view.set_turn(turn)
    scroll, timeline = view.timeline_scroll, view.timeline
    tracker = timeline.bar(POST_TURN[0])
    narrow = tracker.rect.width()
    qtbot.mouseDClick(timeline, Qt.MouseButton.LeftButton, pos=tracker.rect.center().toPoint())
    assert scroll.zoom > 2
    group = [timeline.bar(rid) for rid in POST_TURN if timeline.bar(rid).timed]
    value = scroll.horizontalScrollBar().value()
    visible = (value + GUTTER, value + scroll.viewport().width())
    for bar in group:
        # The whole group is on screen, right of the lane names, and each bar is wider now.
        assert visible[0] - 1 <= bar.rect.left() and bar.rect.right() <= visible[1] + 1
    assert timeline.bar(POST_TURN[0]).rect.width() > 2 * narrow


def test_a_label_too_long_for_its_bar_has_room_beside_it(store: Any) -> None:
    turn = turn_number(store, 2)
    placement = lay_out(turn, 700, "after stages")
    post = [placement.bar_by_id[rid] for rid in POST_TURN]
    # At the end of a long turn the parallel runtimes are narrow; their rows are empty to their
    # left (nothing else ran in the post-turn lane before them), which is where the names go.
    for bar in post:
        assert bar.room_before >= bar.rect.left() - GUTTER - 1
        assert bar.room_before > 150
    guide = placement.bar_by_id["guide/main"]
    assert guide.room_before == pytest.approx(guide.rect.left() - GUTTER)
    assert guide.room_after == pytest.approx(700 - 14 - guide.rect.right())


def test_the_header_names_the_turn_by_number_and_a_call_opens_in_the_main_view(view: TurnView, store: Any) -> None:
    turn = turn_number(store, 2)
    view.set_turn(turn, numbers=turn_numbers(store, MAIN))
    assert "Turn 2" in view.title.text() and turn.turn_id in view.title.text()  # the id is the link's
    assert "player · committed" in view.title.text()
    opened: list[str] = []
    view.openRequest.connect(opened.append)
    view.step_to(0)
    assert not view.open_button.isVisible()
    view.open_current_request()
    assert opened == []
    calling = next(e for e in turn.events if e.type == "llm.calling")
    view.step_to(calling.index)
    assert view.open_button.isVisible()
    view.open_action.trigger()
    assert opened == [turn.call(calling.target_id).event_id]


def test_history_rows_name_turns_by_number(qtbot: Any, view: TurnView, store: Any) -> None:
    turn = turn_number(store, 3)
    numbers = turn_numbers(store, MAIN)
    view.set_turn(turn, numbers=numbers)
    narrator = turn.runtime("narrator/main")
    calling = next(e for e in turn.events if e.type == "llm.calling" and e.runtime_id == narrator.runtime_id)
    with qtbot.waitSignal(view.historyLoaded, timeout=30000):
        view.step_to(calling.index)
    shown_turns = {view.history_tree.topLevelItem(i).text(2) for i in range(view.history_tree.topLevelItemCount())}
    assert shown_turns and shown_turns <= {str(n) for n in numbers.values()}


def test_a_narrow_stepper_starts_with_the_summary_hidden_and_the_button_shows_it(qtbot: Any, store: Any) -> None:
    tasks = TaskManager()
    try:
        narrow = TurnView(tasks, lambda: store)
        qtbot.addWidget(narrow)
        narrow.resize(760, 640)
        narrow.show()
        qtbot.waitExposed(narrow)
        assert not narrow.summary_view.isVisible() and not narrow.summary_button.isChecked()
        narrow.summary_button.click()
        assert narrow.summary_view.isVisible()
        wide = TurnView(tasks, lambda: store)
        qtbot.addWidget(wide)
        wide.resize(1300, 640)
        wide.show()
        qtbot.waitExposed(wide)
        assert wide.summary_view.isVisible() and wide.summary_button.isChecked()
    finally:
        tasks.shutdown()


def test_lanes_are_labelled_by_the_stage_label_and_keyed_by_the_recorded_stage(store: Any) -> None:
    placement = lay_out(turn_number(store, 2), 700, "after stages", str.upper)
    assert [(lane.key, lane.label) for lane in placement.lanes] == [
        ("pre-turn", "PRE-TURN"), ("narrative", "NARRATIVE"), ("post-turn", "POST-TURN")]
