"""File → Export (ui.export_menu): the cache table, a comparison and a turn summary, written with
the core's documents, never over the open database."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QMenu, QWidget

from inspector import views
from inspector.anatomy.compare import compare_details
from inspector.cache.rules import default_rules
from inspector.export import cache_table_export, comparison_export, report_source, turn_summary_export
from inspector.ids import request_names, turn_numbers
from inspector.store import open_store
from inspector.turn.builder import build_turn
from inspector.turn.summary import summarize
from ui import export_menu
from ui.export_menu import add_export_menu
from ui.settings import Settings
from ui.views.request_view import attach_request_view
from ui.windows.cache_dock import install_cache_view
from ui.windows.main_window import MainWindow
from ui.windows.turn_dock import install_turn_view

SESSION = "demo-lantern-claude"


@pytest.fixture(autouse=True)
def kept_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user-cache"))


@pytest.fixture
def window(qtbot: Any, isolated_settings: Path, demo_store: Path) -> Iterator[MainWindow]:
    w = MainWindow(settings=Settings(), remember_layout=False)
    qtbot.addWidget(w)
    w.resize(1280, 720)
    attach_request_view(w)
    install_cache_view(w)
    install_turn_view(w)
    w.show()
    with qtbot.waitSignal(w.openFinished, timeout=30000):
        w.open_database(demo_store)
    yield w
    w.shutdown()


@pytest.fixture
def menu(window: MainWindow) -> export_menu.ExportMenu:
    return add_export_menu(window, QMenu(window))


@pytest.fixture
def errors(window: MainWindow) -> list[tuple[str, str]]:
    reported: list[tuple[str, str]] = []
    window.report_error = lambda title, text: reported.append((title, text))
    return reported


def answer(monkeypatch: pytest.MonkeyPatch, path: Path | str, chosen: str = "") -> list[tuple[str, list[str]]]:
    asked: list[tuple[str, list[str]]] = []

    def choose(_parent: Any, _title: str, default: str, filters: list[str]) -> tuple[str, str]:
        asked.append((default, filters))
        return str(path), chosen

    monkeypatch.setattr(export_menu, "choose_path", choose)
    return asked


def test_nothing_to_export_until_the_window_shows_it(window: MainWindow, menu: export_menu.ExportMenu) -> None:
    menu.update_actions()
    assert [a.isEnabled() for a in (menu.cache_csv_action, menu.cache_html_action, menu.comparison_action,
                                    menu.turn_action)] == [False] * 4
    assert window.findChild(QWidget, "cacheView") is None  # asking built nothing


def test_the_cache_table_as_csv_and_html_is_what_the_cache_command_writes(
        qtbot: Any, window: MainWindow, menu: export_menu.ExportMenu, demo_store: Path, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    view = window.cache_view
    qtbot.waitUntil(lambda: view.sessions_loaded, timeout=10000)
    with qtbot.waitSignal(view.finished, timeout=30000, check_params_cb=lambda sid: sid == SESSION):
        view.open_session(SESSION)
    menu.update_actions()
    assert menu.cache_csv_action.isEnabled() and menu.cache_html_action.isEnabled()

    target = tmp_path / "table.csv"
    asked = answer(monkeypatch, target)
    menu.cache_csv_action.trigger()
    qtbot.waitUntil(target.exists, timeout=10000)
    assert asked[0][0] == f"cache-{SESSION}.csv"
    assert target.read_text(encoding="utf-8") == cache_table_export([view.analysis], "csv")
    # The file is written off the GUI thread; the window says so once the job's result is back.
    qtbot.waitUntil(lambda: str(target) in window.statusBar().currentMessage(), timeout=10000)

    page = tmp_path / "report.html"
    answer(monkeypatch, page)
    menu.cache_html_action.trigger()
    qtbot.waitUntil(page.exists, timeout=10000)
    source = report_source(str(demo_store), default_rules())
    assert page.read_text(encoding="utf-8") == cache_table_export([view.analysis], "html", source=source)


def test_an_export_never_replaces_the_open_database(qtbot: Any, window: MainWindow, menu: export_menu.ExportMenu,
                                                    demo_store: Path, errors: list[tuple[str, str]],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    view = window.cache_view
    qtbot.waitUntil(lambda: view.sessions_loaded, timeout=10000)
    with qtbot.waitSignal(view.finished, timeout=30000, check_params_cb=lambda sid: sid == SESSION):
        view.open_session(SESSION)
    before = demo_store.read_bytes()
    answer(monkeypatch, demo_store)
    menu.update_actions()
    menu.cache_csv_action.trigger()
    qtbot.waitUntil(lambda: bool(errors), timeout=10000)
    assert errors[0][0] == "Export Cache Table"
    assert "it is the input" in errors[0][1]
    assert demo_store.read_bytes() == before


def test_the_comparison_shown_is_exported_as_compare_prints_it(qtbot: Any, window: MainWindow,
                                                               menu: export_menu.ExportMenu, demo_store: Path,
                                                               tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with open_store(demo_store) as store:
        rows = [r for r in views.request_rows(store) if r["sessionId"] == SESSION]
        left, right = (views.request_detail(store, rows[i]["eventId"]) for i in (0, 1))
    view = window.request_view
    with qtbot.waitSignal(view.loaded, timeout=30000):
        window.navigator.select_request(rows[1]["eventId"])
    with qtbot.waitSignal(view.compared, timeout=30000):
        view.compare_with(rows[0]["eventId"])
    menu.update_actions()
    assert menu.comparison_action.isEnabled()

    target = tmp_path / "comparison"  # no suffix: the filter chosen decides (JSON), and adds it
    asked = answer(monkeypatch, target, chosen="JSON (*.json)")
    menu.comparison_action.trigger()
    written = tmp_path / "comparison.json"
    qtbot.waitUntil(written.exists, timeout=10000)
    assert asked[0][0] == f"compare-{rows[0]['eventId'][:8]}-{rows[1]['eventId'][:8]}.txt"
    assert asked[0][1] == ["Text (*.txt)", "JSON (*.json)"]
    assert written.read_text(encoding="utf-8") == comparison_export(compare_details(left, right), "json")

    text = tmp_path / "comparison.txt"  # the suffix decides over the filter
    answer(monkeypatch, text, chosen="JSON (*.json)")
    menu.comparison_action.trigger()
    qtbot.waitUntil(text.exists, timeout=10000)
    with open_store(demo_store) as store:
        names = request_names(store, [left.row, right.row])
    assert text.read_text(encoding="utf-8") == comparison_export(compare_details(left, right), "text",
                                                                 names=(names[0], names[1]))
    assert text.read_text(encoding="utf-8").startswith(f"{names[0]} → {names[1]}\n")


def test_the_turn_in_the_stepper_is_exported_with_its_summary(qtbot: Any, window: MainWindow,
                                                              menu: export_menu.ExportMenu, demo_store: Path,
                                                              tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with open_store(demo_store) as store:
        turn_id = next(t for t in views.turn_rows(store, SESSION) if t["llmCalls"])["turnId"]
        turn = build_turn(store, SESSION, turn_id)
        number = turn_numbers(store, SESSION)[turn_id]
    stepper = window.turn_view
    stepper.set_turn(turn)
    menu.update_actions()
    assert menu.turn_action.isEnabled()
    target = tmp_path / "turn.json"
    answer(monkeypatch, target)
    menu.turn_action.trigger()
    qtbot.waitUntil(target.exists, timeout=10000)
    document = json.loads(target.read_text(encoding="utf-8"))
    assert document == json.loads(turn_summary_export(turn, summarize(turn), "json"))
    assert document["turn"]["turnId"] == turn_id

    markdown = tmp_path / "turn"
    asked = answer(monkeypatch, markdown, chosen="Markdown (*.md)")
    menu.turn_action.trigger()
    written = tmp_path / "turn.md"
    qtbot.waitUntil(written.exists, timeout=10000)
    assert asked[0][0] == f"turn-{turn_id[:8]}.md"
    assert written.read_text(encoding="utf-8") == turn_summary_export(turn, summarize(turn), "markdown", number=number)
    assert written.read_text(encoding="utf-8").startswith(f"# Turn {number}\n")  # a number, not a UUID
