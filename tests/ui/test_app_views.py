"""``--select`` by id prefix and ``--view`` with ``--screenshot``: the window is grabbed showing that view."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QImage

import ui.app as app_module
import ui.snapshot as snapshot
from inspector.ids import short_id
from inspector.store import open_store


@pytest.fixture
def grabbed(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """What the window showed when its screenshot was taken (the picture is still written)."""
    seen: list[dict[str, Any]] = []
    real = snapshot.write_screenshot

    def spy(widget: Any, out: Any, inputs: Any, code: int) -> int:
        state: dict[str, Any] = {"widget": type(widget).__name__}
        navigator = getattr(widget, "navigator", None)
        if navigator is not None:
            state["path"] = navigator.current_path()
            state["centre"] = type(widget.centre.currentWidget()).__name__
            state["cache"] = widget.cache_dock.isVisible()
            view = widget.request_view
            state["tab"] = type(view.tabs.currentWidget()).__name__ if view is not None else None
            if state["cache"]:
                state["cache_session"] = widget.cache_view.session_id
                state["cache_pairs"] = len(widget.cache_view.analysis.pairs) if widget.cache_view.analysis else 0
                pair_view = widget.cache_view.pair_view
                state["pair"] = pair_view.pair.event_id if pair_view.comparison is not None else None
        seen.append(state)
        return real(widget, out, inputs, code)

    monkeypatch.setattr(snapshot, "write_screenshot", spy)
    return seen


@pytest.fixture
def narrator(covel_db: Path) -> Any:
    """The demo's second session's narrator request of its second turn."""
    with open_store(covel_db) as store:
        session = store.sessions()[1].id
        second = store.turns(session)[1].turn_id
        return next(c for c in store.llm_calls(session, second) if c.runtime_id == "narrator/main")


def _shot(covel_db: Path, tmp_path: Path, *argv: str) -> int:
    return app_module.run_app([str(covel_db), "--screenshot", str(tmp_path / "shot.png"), "--size", "1280x720",
                               *argv])


def test_select_takes_the_short_id(qtbot: Any, isolated_settings: Path, covel_db: Path, tmp_path: Path,
                                   grabbed: list[dict[str, Any]], narrator: Any) -> None:
    assert _shot(covel_db, tmp_path, "--select", short_id(narrator.id)) == 0
    assert grabbed[0]["path"][-1] == ("request", narrator.id) and grabbed[0]["centre"] == "RequestView"
    assert QImage(str(tmp_path / "shot.png")).size().toTuple() == (1280, 720)


def test_select_takes_a_turn_prefix(qtbot: Any, isolated_settings: Path, covel_db: Path, tmp_path: Path,
                                    grabbed: list[dict[str, Any]], narrator: Any) -> None:
    assert _shot(covel_db, tmp_path, "--select", narrator.turn_id[:9]) == 0
    assert grabbed[0]["path"] == [("session", narrator.session_id), ("turn", narrator.turn_id)]


def test_select_takes_a_turn_number_of_the_first_session(qtbot: Any, isolated_settings: Path, covel_db: Path,
                                                         tmp_path: Path, grabbed: list[dict[str, Any]]) -> None:
    with open_store(covel_db) as store:
        first = store.sessions()[0].id
        second_turn = store.turns(first)[1].turn_id
    assert _shot(covel_db, tmp_path, "--select", "#2", "--view", "turn") == 0
    assert grabbed[0]["path"] == [("session", first), ("turn", second_turn)] and grabbed[0]["centre"] == "TurnView"


def test_view_compare_shows_the_request_against_the_turn_before(qtbot: Any, isolated_settings: Path, covel_db: Path,
                                                                tmp_path: Path, grabbed: list[dict[str, Any]],
                                                                narrator: Any) -> None:
    assert _shot(covel_db, tmp_path, "--select", short_id(narrator.id), "--view", "compare") == 0
    assert grabbed[0]["tab"] == "CompareView"


def test_view_cache_shows_the_analysis_of_the_selected_session(qtbot: Any, isolated_settings: Path, covel_db: Path,
                                                               tmp_path: Path, grabbed: list[dict[str, Any]],
                                                               narrator: Any) -> None:
    assert _shot(covel_db, tmp_path, "--select", short_id(narrator.id), "--view", "cache") == 0
    state = grabbed[0]
    assert state["cache"] and state["cache_session"] == narrator.session_id and state["cache_pairs"] > 0
    assert state["pair"] == narrator.id  # the selected request's pair, aligned


def test_view_turn_opens_the_stepper(qtbot: Any, isolated_settings: Path, covel_db: Path, tmp_path: Path,
                                     grabbed: list[dict[str, Any]], narrator: Any) -> None:
    assert _shot(covel_db, tmp_path, "--select", short_id(narrator.id), "--view", "turn") == 0
    assert grabbed[0]["centre"] == "TurnView"


@pytest.mark.parametrize(("view", "editor"), [("order", "OrderEditorWindow"), ("blocks", "ZonesEditorWindow")])
def test_view_order_and_blocks_open_the_editors(qtbot: Any, isolated_settings: Path, tmp_path: Path,
                                                grabbed: list[dict[str, Any]], view: str, editor: str) -> None:
    out = tmp_path / "editor.png"
    assert app_module.run_app(["--view", view, "--screenshot", str(out), "--size", "1280x720"]) == 0
    assert grabbed[0]["widget"] == editor and QImage(str(out)).width() == 1280


@pytest.mark.parametrize(("argv", "says"), [
    (["--view", "compare"], "--view compare needs --select with a request"),
    (["--view", "turn"], "--view turn needs --select with a turn or a request"),
    (["--select", "demo-lantern"], "is the start of several ids"),
    (["--select", "zzzz"], "has an id starting “zzzz”"),
])
def test_a_view_or_selection_that_cannot_be_shown_fails_with_a_line(
        qtbot: Any, isolated_settings: Path, covel_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        grabbed: list[dict[str, Any]], argv: list[str], says: str) -> None:
    assert _shot(covel_db, tmp_path, *argv) == 1
    assert says in capsys.readouterr().err
    assert len(grabbed) == 1  # the window is still grabbed, showing what could be shown


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from inspector import __version__

    with pytest.raises(SystemExit) as done:
        app_module.run_app(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out == f"prompt-inspector {__version__}\n"


def test_on_screen_the_app_opens_on_the_selection_and_view(qtbot: Any, isolated_settings: Path, covel_db: Path,
                                                            narrator: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from ui.windows.main_window import MainWindow

    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")  # "on screen": no --screenshot, the loop runs until closed
    seen: list[Any] = []

    def check() -> None:
        windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]
        for window in windows:
            path = window.navigator.current_path()
            if path and path[-1] == ("request", narrator.id) and window.request_view.comparison is not None:
                seen.append((path, type(window.request_view.tabs.currentWidget()).__name__))
                window.close()
                return
        QTimer.singleShot(50, check)

    QTimer.singleShot(50, check)
    assert app_module.run_app([str(covel_db), "--select", short_id(narrator.id), "--view", "compare"]) == 0
    assert seen and seen[0][1] == "CompareView"


def test_the_program_starts_the_app_for_a_view_named_like_a_command(qtbot: Any, isolated_settings: Path,
                                                                    tmp_path: Path,
                                                                    grabbed: list[dict[str, Any]]) -> None:
    from prompt_inspector import main as program

    out = tmp_path / "order.png"
    assert program(["--view", "order", "--screenshot", str(out), "--size", "1280x720"]) == 0  # not the `order` command
    assert grabbed[0]["widget"] == "OrderEditorWindow"


def test_opening_the_cache_view_again_on_a_shown_session_finishes(qtbot: Any, isolated_settings: Path,
                                                                  covel_db: Path) -> None:
    from ui.app_views import open_view
    from ui.views.request_view import attach_request_view
    from ui.windows.cache_dock import install_cache_view
    from ui.windows.main_window import MainWindow

    window = MainWindow(remember_layout=False)
    qtbot.addWidget(window)
    attach_request_view(window)
    install_cache_view(window)
    window.resize(1280, 720)
    window.show()
    with qtbot.waitSignal(window.openFinished, timeout=10000):
        window.open_database(covel_db)
    results: list[tuple[bool, str]] = []
    open_view(window, "cache", lambda ok, problem: results.append((ok, problem)))
    qtbot.waitUntil(lambda: len(results) == 1, timeout=20000)
    open_view(window, "cache", lambda ok, problem: results.append((ok, problem)))  # nothing new to analyse
    qtbot.waitUntil(lambda: len(results) == 2, timeout=5000)
    assert results == [(True, ""), (True, "")]
    window.shutdown()


def test_a_view_reports_once_and_lets_go_of_its_signals(qtbot: Any, isolated_settings: Path, covel_db: Path) -> None:
    from ui.app_views import open_view
    from ui.views.request_view import attach_request_view
    from ui.windows.cache_dock import install_cache_view
    from ui.windows.main_window import MainWindow

    window = MainWindow(remember_layout=False)
    qtbot.addWidget(window)
    attach_request_view(window)
    install_cache_view(window)
    window.show()
    with qtbot.waitSignal(window.openFinished, timeout=10000):
        window.open_database(covel_db)
    results: list[bool] = []
    open_view(window, "cache", lambda ok, _problem: results.append(ok))
    qtbot.waitUntil(lambda: results == [True], timeout=20000)
    cache = window.cache_view
    other = next(s for s in cache.session_ids() if s != cache.session_id)
    with qtbot.waitSignal(cache.finished, timeout=20000):
        cache.open_session(other)  # the user analyses another session: the --view is long done
    assert results == [True]
    window.shutdown()
