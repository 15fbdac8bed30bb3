"""No text cut at a laptop's 1280×720, in English and in Chinese (issue 19, item 1): every visible
label, button, check box and column title of the two editors and of the turn stepper fits in the
room it has. Texts elided by design (with the whole text in a tooltip) are not counted."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6 import QtGui
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QApplication, QCheckBox, QHeaderView, QLabel, QWidget

from inspector.store import open_store
from inspector.turn.builder import build_turn
from resources import resource_path
from ui import i18n
from ui.views import part_names
from ui.zones_editor.preview import DigestLabel


def cut_texts(root: QWidget) -> list[str]:
    """The visible texts of ``root`` that need more width than they have."""
    cut: list[str] = []
    for w in root.findChildren(QWidget):
        # (A header view reports an empty visible region of its own: only its being shown counts.)
        if not w.isVisible() or (w.visibleRegion().isEmpty() and not isinstance(w, QHeaderView)):
            continue
        fm = w.fontMetrics()
        if isinstance(w, QLabel) and not isinstance(w, DigestLabel):
            text = QLabel.text(w)  # what it shows: an eliding label's own text() is the whole text
            if not text or w.wordWrap() or w.textFormat() == Qt.TextFormat.RichText or QtGui.Qt.mightBeRichText(text):
                continue
            need = max(fm.horizontalAdvance(line) for line in text.split("\n"))
            if need > w.contentsRect().width() + 1:
                cut.append(f"label {text!r}: {need} > {w.contentsRect().width()}")
        elif isinstance(w, QCheckBox) and w.text():
            if fm.horizontalAdvance(w.text()) + 18 > w.width():
                cut.append(f"check box {w.text()!r}")
        elif isinstance(w, QAbstractButton) and w.text():
            text = w.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
            if fm.horizontalAdvance(text) > w.width() - 4:
                cut.append(f"button {text!r}: {fm.horizontalAdvance(text)} > {w.width() - 4}")
        elif isinstance(w, QHeaderView) and w.orientation() == Qt.Orientation.Horizontal and w.model() is not None:
            for i in range(w.count()):
                title = w.model().headerData(i, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole)
                if title and not w.isSectionHidden(i) and fm.horizontalAdvance(str(title)) + 6 > w.sectionSize(i):
                    cut.append(f"column {title!r}: {w.sectionSize(i)} px")
    return cut


@pytest.fixture(params=["en", "zh_CN"])
def language(request: pytest.FixtureRequest, qapp: Any) -> Iterator[str]:
    i18n.install_translators(qapp, request.param)
    part_names.clear_cache()
    try:
        yield request.param
    finally:
        i18n.install_translators(qapp, "en")
        part_names.clear_cache()


def show_at_laptop_size(qtbot: Any, window: QWidget) -> None:
    qtbot.addWidget(window)
    window.resize(1280, 720)
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
