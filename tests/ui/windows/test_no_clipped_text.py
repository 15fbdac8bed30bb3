"""No text cut at a laptop's 1280×720, in English and in Chinese (issue 19, item 1): every visible
label, button, check box, column title and table cell of the two editors, the turn stepper and the
main window's views (the navigator and the request view, the cache analysis, the stepper, the
comparison, as the README's screenshots show them) fits in the room it has. Texts elided by
design (in the column that takes the rest or gives way, whole in its tooltip) are not counted
(tests/ui/clipped_text.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from clipped_text import cut_texts
from PySide6.QtWidgets import QApplication, QLabel, QWidget

from inspector.store import open_store
from inspector.turn.builder import build_turn
from resources import resource_path


README_REQUEST = "29877d78"


def show_at_laptop_size(qtbot: Any, window: QWidget, size: tuple[int, int] = (1280, 720)) -> None:
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    settle = getattr(window, "settle", None)
    if callable(settle):
        settle()
    for _ in range(3):
        QApplication.processEvents()


def test_the_order_editor(qtbot: Any, language: str, isolated_settings: Path) -> None:
    from ui.order_editor import open_order_editor

    window = open_order_editor(None, None, None, report_error=lambda t, x: pytest.fail(f"{t}: {x}"))
    window.ask_save = lambda: "discard"
    show_at_laptop_size(qtbot, window)
    assert cut_texts(window) == []
    window.close()


@pytest.mark.parametrize("path", [None, resource_path("samples", "chatluna", "tea-house-fox.yml")],
                         ids=["zones", "preset"])
def test_the_blocks_editor(qtbot: Any, language: str, isolated_settings: Path, path: Path | None) -> None:
    from ui.zones_editor import open_zones_editor

    window = open_zones_editor(None, path, report_error=lambda t, x: pytest.fail(f"{t}: {x}"))
    window.ask_save_changes = lambda: "discard"
    show_at_laptop_size(qtbot, window)
    window.refresh()
    QApplication.processEvents()
    assert cut_texts(window) == []
    window.close()


def test_the_turn_stepper(qtbot: Any, language: str, demo_store: Path) -> None:
    from ui.views.turn_stepper import TurnView
    from ui.workers import TaskManager

    tasks = TaskManager()
    with open_store(demo_store) as store:
        turn_id = next(t for t in store.turns("demo-lantern-deepseek") if t.number == 2).turn_id
        turn = build_turn(store, "demo-lantern-deepseek", turn_id)
        view = TurnView(tasks, lambda: store)
        try:
            qtbot.addWidget(view)
            view.resize(730, 655)  # its share of a 1280×720 window beside the navigator
            view.show()
            qtbot.waitExposed(view)
            view.set_turn(turn)
            # A response: the stepper's own panes (the event text, the call's history, the timeline's
            # controls), not the request view it embeds (tested with the request view).
            responded = next(e.index for e in turn.events if e.type == "llm.responded")
            with qtbot.waitSignal(view.historyLoaded, timeout=30000):
                view.step_to(responded)
            QApplication.processEvents()
            assert cut_texts(view) == []
        finally:
            view.pause()
            tasks.shutdown()


def test_the_blocks_editor_on_a_large_screen(qtbot: Any, isolated_settings: Path) -> None:
    """At 1920×1080 the problems table shows its code column too: it fits its codes."""
    from ui.zones_editor import open_zones_editor

    window = open_zones_editor(None, None, report_error=lambda t, x: pytest.fail(f"{t}: {x}"))
    window.ask_save_changes = lambda: "discard"
    show_at_laptop_size(qtbot, window, (1920, 1080))
    window.refresh()
    QApplication.processEvents()
    assert cut_texts(window) == []
    window.close()


@pytest.mark.parametrize("view", [None, "cache", "turn", "compare"])
def test_the_main_window_views(qtbot: Any, language: str, isolated_settings: Path, demo_store: Path,
                               tmp_path: Path, monkeypatch: pytest.MonkeyPatch, view: str | None) -> None:
    import ui.app as app_module
    import ui.snapshot as snapshot

    found: list[list[str]] = []
    real = snapshot.write_screenshot

    def check(widget: QWidget, out: Any, inputs: Any, code: int) -> int:
        found.append(cut_texts(widget))
        return real(widget, out, inputs, code)

    monkeypatch.setattr(snapshot, "write_screenshot", check)
    monkeypatch.setenv("PROMPT_INSPECTOR_LANG", language)
    # The README's request: turn 4 of the Claude session, the narrator's first step.
    argv = [str(demo_store), "--select", README_REQUEST, "--screenshot", str(tmp_path / "shot.png"),
            "--size", "1280x720"] + ([f"--view={view}"] if view else [])
    assert app_module.run_app(argv) == 0
    assert found == [[]]


def test_the_check_finds_a_cut_label_button_and_column(qtbot: Any) -> None:
    from PySide6.QtWidgets import QPushButton, QTreeWidget, QVBoxLayout

    host = QWidget()
    qtbot.addWidget(host)
    layout = QVBoxLayout(host)
    label = QLabel("a label far too long for the forty pixels it is given", host)
    label.setFixedWidth(40)
    button = QPushButton("A button with a long text", host)
    button.setFixedWidth(50)
    tree = QTreeWidget(host)
    tree.setHeaderLabels(["Recognised by", "Tokens"])
    tree.setColumnWidth(0, 30)
    for w in (label, button, tree):
        layout.addWidget(w)
    host.resize(300, 300)
    host.show()
    qtbot.waitExposed(host)
    found = cut_texts(host)
    assert any(f.startswith("label 'a label far") for f in found)
    assert any(f.startswith("button 'A button") for f in found)
    assert any(f.startswith("column 'Recognised by'") for f in found)
    assert not any("Tokens" in f for f in found)


def test_the_check_finds_a_cut_cell_but_not_one_elided_by_design(qtbot: Any) -> None:
    from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem

    from ui.views.columns import ColumnFitter

    tree = QTreeWidget()
    qtbot.addWidget(tree)
    tree.setHeaderLabels(["Id", "Text"])
    cut = QTreeWidgetItem(["an id far wider than its column", "short"])
    elided = QTreeWidgetItem(["x", "a text far too long for the room the stretch column has left it " * 3])
    elided.setToolTip(1, elided.text(1))
    tree.addTopLevelItems([cut, elided])
    tree.resize(500, 200)
    tree.show()
    qtbot.waitExposed(tree)
    tree.setColumnWidth(0, 40)
    assert any(f.startswith("cell 'an id far wider") for f in cut_texts(tree))
    # Sized by the rule: the id column fits its texts, the text column takes the rest and elides
    # only what its tooltip holds whole.
    fitter = ColumnFitter(tree, 1)
    fitter.fit()
    assert cut_texts(tree) == []
    elided.setToolTip(1, "")
    assert any(f.startswith("cell 'a text far") for f in cut_texts(tree))
