"""Go to… (Ctrl+G): a request, turn or session by its id, the start of one, or a turn number."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QGuiApplication, QKeySequence

from inspector.ids import short_id
from inspector.store import open_store
from ui.views.request_view import attach_request_view
from ui.windows.goto_dialog import GoToDialog, go_to, install_go_to
from ui.windows.main_window import MainWindow


@pytest.fixture
def window(qtbot: Any, isolated_settings: Path, covel_db: Path) -> Iterator[MainWindow]:
    win = MainWindow(remember_layout=False)
    qtbot.addWidget(win)
    attach_request_view(win)
    install_go_to(win)
    win.resize(1100, 700)
    win.show()
    with qtbot.waitSignal(win.openFinished, timeout=10000):
        win.open_database(covel_db)
    yield win
    win.shutdown()


@pytest.fixture
def last(covel_db: Path) -> tuple[Any, list[str]]:
    """The last request of the demo's second session, and that session's turn ids in order."""
    with open_store(covel_db) as store:
        session = store.sessions()[1].id
        return store.llm_calls(session)[-1], [t.turn_id for t in store.turns(session)]


def _go(qtbot: Any, window: MainWindow, text: str) -> GoToDialog:
    window.go_to_action.trigger()
    dialog = window.go_to_dialog
    qtbot.waitUntil(dialog.isVisible)
    dialog.edit.setText(text)
    dialog.go()
    return dialog


def test_go_to_by_prefix_selects_the_request(qtbot: Any, window: MainWindow, last: tuple[Any, list[str]]) -> None:
    call, _turns = last
    assert window.go_to_action.shortcut() == QKeySequence("Ctrl+G")
    with qtbot.waitSignal(window.navigator.requestSelected, timeout=10000) as selected:
        dialog = _go(qtbot, window, short_id(call.id))
    assert selected.args == [call.id]
    qtbot.waitUntil(lambda: not dialog.isVisible())
    assert window.navigator.current_path() == [("session", call.session_id), ("turn", call.turn_id),
                                               ("runtime", call.runtime_id), ("request", call.id)]
    assert window.centre.currentWidget() is window.request_view


def test_go_to_a_turn_number_of_the_selected_session(qtbot: Any, window: MainWindow,
                                                     last: tuple[Any, list[str]]) -> None:
    call, turns = last
    window.navigator.reveal([("session", call.session_id)])
    qtbot.waitUntil(lambda: window.navigator.current_path() == [("session", call.session_id)])
    with qtbot.waitSignal(window.navigator.revealFinished, timeout=10000):
        _go(qtbot, window, "#2")
    assert window.navigator.current_path() == [("session", call.session_id), ("turn", turns[1])]


@pytest.mark.parametrize(("text", "says"), [("zzzz", "Nothing in this database has an id starting “zzzz”."),
                                            ("#99", "The selected session has no turn #99."),
                                            ("demo-lantern", "is the start of several ids: demo-lantern-claude, demo-lantern-deepseek")])
def test_a_text_that_names_nothing_or_several_says_so_and_stays(qtbot: Any, window: MainWindow, text: str,
                                                                  says: str) -> None:
    before = window.navigator.current_path()
    dialog = _go(qtbot, window, text)
    qtbot.waitUntil(dialog.problem.isVisible)
    assert says in dialog.problem.text()
    assert dialog.isVisible() and dialog.buttons.isEnabled()
    assert window.navigator.current_path() == before
    dialog.reject()


def test_go_to_without_a_store_says_so(qtbot: Any, isolated_settings: Path) -> None:
    win = MainWindow(remember_layout=False)
    qtbot.addWidget(win)
    results: list[tuple[Any, str]] = []
    go_to(win, "abc", done=lambda target, problem: results.append((target, problem)))
    assert results == [(None, "No database is open.")]
    win.shutdown()


def test_compare_names_both_sides_and_a_click_copies_the_full_id(qtbot: Any, covel_db: Path) -> None:
    from inspector import views
    from inspector.anatomy.compare import compare_details
    from inspector.ids import turn_numbers
    from ui.views.compare_view import CompareView

    with open_store(covel_db) as store:
        calls = [c for c in store.llm_calls(store.sessions()[1].id) if c.runtime_id == "narrator/main"]
        left, right = (views.request_detail(store, c.id, exact=False) for c in calls[:2])
        numbers = turn_numbers(store, calls[0].session_id)
    view = CompareView()
    qtbot.addWidget(view)
    view.set_comparison(compare_details(left, right), numbers)
    text = view.summary.text()
    first, second = (f"Turn {numbers[c.turn_id]} · narrator/main · step 1" for c in calls[:2])
    assert first in text and second in text and calls[0].id not in view.summary.text().split("href")[0]
    assert calls[0].id in view.summary.toolTip() and calls[1].id in view.summary.toolTip()
    view.summary.linkActivated.emit(f"copy-id:{calls[1].id}")
    assert QGuiApplication.clipboard().text() == calls[1].id
    view.set_comparison(compare_details(left, right))  # without numbers: the turn's short id
    assert f"Turn {short_id(calls[0].turn_id)} · narrator/main · step 1" in view.summary.text()


def test_cancel_drops_an_answer_on_its_way_and_the_dialog_is_kept(qtbot: Any, window: MainWindow,
                                                                  last: tuple[Any, list[str]]) -> None:
    call, _turns = last
    before = window.navigator.current_path()
    dialog = _go(qtbot, window, short_id(call.id))
    dialog.reject()  # before the background lookup answers
    qtbot.waitUntil(lambda: window.tasks.pending == 0)
    qtbot.wait(50)
    assert window.navigator.current_path() == before and not dialog.isVisible()
    window.go_to_action.trigger()
    assert window.go_to_dialog is dialog and dialog.edit.text() == short_id(call.id)  # the last text, selected
    assert dialog.edit.selectedText() == short_id(call.id) and dialog.buttons.isEnabled()
    dialog.reject()
