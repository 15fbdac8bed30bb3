"""The navigator's columns at a laptop's width (issue 19): the name takes what the other columns
leave and is never cut (a runtime's whole id, "char-creator/character-tracker"); the detail is as
wide as its text and gives way first, whole on hover, when the navigator is narrower still; the
number columns fit their figures; a column the user drags keeps its width."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from clipped_text import cut_cells
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from inspector import views
from inspector.store import Store, open_store
from ui.models import navigator_nodes as nav
from ui.views.navigator import Navigator
from ui.workers import TaskManager

SESSION = "demo-lantern-claude"
LONG_RUNTIME = "char-creator/character-tracker"


@pytest.fixture
def store(demo_store: Path) -> Iterator[Store]:
    with open_store(demo_store) as s:
        yield s


@pytest.fixture
def navigator(qtbot: Any, store: Store) -> Iterator[Navigator]:
    tasks = TaskManager()
    widget = Navigator(tasks)
    qtbot.addWidget(widget)
    widget.show()
    widget.set_store(store, views.session_rows(store))
    try:
        yield widget
    finally:
        widget.clear()
        tasks.shutdown()


def open_turn_4(qtbot: Any, navigator: Navigator, store: Store) -> None:
    """Expand the Claude session's turn 4 down to its runtimes (the README's selection)."""
    turn_id = next(t.turn_id for t in store.turns(SESSION) if t.number == 4)
    runtime = next(r["runtimeId"] for r in views.request_rows(store, session_id=SESSION)
                   if r["turnId"] == turn_id and r["runtimeId"] == "narrator/main")
    with qtbot.waitSignal(navigator.revealFinished, timeout=20000):
        navigator.reveal([("session", SESSION), ("turn", turn_id), ("runtime", runtime)])
    navigator.tree.expand(navigator.tree.currentIndex().parent())
    qtbot.waitUntil(lambda: _row(navigator, LONG_RUNTIME) is not None, timeout=10000)
    qtbot.waitUntil(lambda: not navigator.columns.pending)  # measured once the rows settled
    QApplication.processEvents()


def _row(navigator: Navigator, name: str) -> Any:
    tree = navigator.tree
    index = tree.indexAt(tree.viewport().rect().topLeft())
    while index.isValid():
        if index.siblingAtColumn(nav.COL_NAME).data() == name:
            return index.siblingAtColumn(nav.COL_NAME)
        index = tree.indexBelow(index)
    return None


def _settle(qtbot: Any, navigator: Navigator, width: int) -> None:
    navigator.resize(width, 600)
    qtbot.wait(30)
    qtbot.waitUntil(lambda: not navigator.columns.pending)
    QApplication.processEvents()


def test_at_a_laptops_width_no_name_detail_or_figure_is_cut(qtbot: Any, navigator: Navigator, store: Store,
                                                            language: str) -> None:
    _settle(qtbot, navigator, 538)  # the navigator's share of a 1280×720 window
    open_turn_4(qtbot, navigator, store)
    tree = navigator.tree
    assert cut_cells(tree) == []
    header = tree.header()
    # The name takes the stretch: the columns fill the width, and nothing scrolls sideways.
    assert sum(header.sectionSize(c) for c in range(header.count())) == tree.viewport().width()
    assert not tree.horizontalScrollBar().isVisible()
    rect = tree.visualRect(_row(navigator, LONG_RUNTIME))
    assert tree.fontMetrics().horizontalAdvance(LONG_RUNTIME) < rect.width()


def test_in_a_narrow_navigator_the_detail_gives_way_before_the_name(qtbot: Any, navigator: Navigator,
                                                                   store: Store) -> None:
    _settle(qtbot, navigator, 900)
    open_turn_4(qtbot, navigator, store)
    header = navigator.tree.header()
    wide_detail = header.sectionSize(nav.COL_DETAIL)
    _settle(qtbot, navigator, 470)
    assert header.sectionSize(nav.COL_DETAIL) < wide_detail  # the detail gave way
    row = _row(navigator, LONG_RUNTIME)
    assert navigator.tree.fontMetrics().horizontalAdvance(LONG_RUNTIME) < navigator.tree.visualRect(row).width()
    # Its whole text is one hover away.
    detail = row.siblingAtColumn(nav.COL_DETAIL)
    assert detail.data() in detail.data(Qt.ItemDataRole.ToolTipRole)
    assert cut_cells(navigator.tree) == []  # what is elided is in the tooltip


def test_a_column_the_user_drags_keeps_its_width(qtbot: Any, navigator: Navigator, store: Store) -> None:
    _settle(qtbot, navigator, 700)
    open_turn_4(qtbot, navigator, store)
    header = navigator.tree.header()
    header.resizeSection(nav.COL_DETAIL, 200)  # as a drag does
    _settle(qtbot, navigator, 760)
    navigator.columns.fit()
    assert header.sectionSize(nav.COL_DETAIL) == 200
    # The name still takes the rest.
    assert sum(header.sectionSize(c) for c in range(header.count())) == navigator.tree.viewport().width()


def test_a_search_is_measured_once_it_is_applied_not_while_its_rows_go_in(qtbot: Any, navigator: Navigator,
                                                                       store: Store) -> None:
    _settle(qtbot, navigator, 538)
    measured: list[bool] = []  # for each measure: whether the tree was still being filled
    real = navigator.columns.fit

    def fit() -> None:
        measured.append(navigator._filling())
        real()

    navigator.columns.fit = fit  # type: ignore[method-assign]
    # A few words of the first request's first message: many requests share them.
    payload = store.event(views.request_rows(store)[0]["eventId"]).payload
    needle = next(m["content"] for m in payload["messages"] if isinstance(m.get("content"), str) and m["content"])[:10]
    with qtbot.waitSignal(navigator.searchApplied, timeout=20000):
        navigator.search.setText(needle)
    qtbot.waitUntil(lambda: not navigator._filling() and not navigator.columns.pending, timeout=20000)
    assert measured and not any(measured)  # measured, and never while loading, filtering or opening
    assert len(measured) <= 2  # the filter shown, the matches opened: not once per inserted batch
    assert cut_cells(navigator.tree) == []
