"""Comparing two requests from the request view: previous turn and a picked request."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from inspector import views
from inspector.anatomy.compare import EQUAL, compare_details
from ui.views.part_names import part_label
from ui.views.compare_view import MARK_COLOUR, CompareView
from ui.views.request_view import RequestView


def second_narrator_turn(store: Any) -> str:
    rows = [r for r in views.request_rows(store)
            if r["runtimeId"] == "narrator/main" and r["protocol"] == "anthropic-messages-v1"]
    return rows[1]["eventId"]


def load(qtbot: Any, view: RequestView, event_id: str) -> None:
    with qtbot.waitSignal(view.loaded, timeout=20000):
        view.show_request(event_id)


def test_compare_with_previous_turn_marks_first_difference(qtbot: Any, view: RequestView, store: Any) -> None:
    eid = second_narrator_turn(store)
    load(qtbot, view, eid)
    assert not view.tabs.isTabVisible(view._compare_tab)
    with qtbot.waitSignal(view.compared, timeout=20000):
        view.compare_prev_action.trigger()
    assert view.tabs.currentWidget() is view.compare_view
    cmp = view.comparison
    assert cmp.left.row["eventId"] == views.previous_turn_request(store, eid)
    fd = cmp.first_difference
    assert fd is not None
    table = view.compare_view.table
    current = table.currentItem()
    assert table.indexOfTopLevelItem(current) == fd.row_index
    assert "first difference" in current.text(5)
    assert part_label(fd.path) in view.compare_view.summary.text().replace("&gt;", ">").replace("&lt;", "<")


def test_compare_view_highlights_differing_character(qtbot: Any, store: Any) -> None:
    eid = second_narrator_turn(store)
    a = views.request_detail(store, views.previous_turn_request(store, eid), exact=False)
    b = views.request_detail(store, eid, exact=False)
    cmp = compare_details(a, b)
    changed = next(i for i, r in enumerate(cmp.rows) if r.first_diff_offset is not None)
    cv = CompareView()
    qtbot.addWidget(cv)
    cv.set_comparison(cmp)
    cv.table.setCurrentItem(cv.table.topLevelItem(changed))
    row = cmp.rows[changed]
    for pane, text in ((cv.left_pane, row.left_text), (cv.right_pane, row.right_text)):
        assert pane.text() == text
        sels = pane.editor.extraSelections()
        assert len(sels) == 1
        assert sels[0].format.background().color() == QColor(MARK_COLOUR)
        marked = sels[0].cursor.selectedText()
        if row.first_diff_offset < len(text):
            assert marked == text[row.first_diff_offset]
    # Equal rows keep the base background; others are tinted.
    for i, r in enumerate(cmp.rows):
        tinted = cv.table.topLevelItem(i).background(0).style() != Qt.BrushStyle.NoBrush
        assert tinted == (r.status != EQUAL)


def test_compare_with_picked_request(qtbot: Any, view: RequestView, store: Any) -> None:
    eid = second_narrator_turn(store)
    load(qtbot, view, eid)
    offered: list[list[dict[str, Any]]] = []

    def pick(rows: list[dict[str, Any]], runtime: str | None) -> str:
        offered.append(rows)
        assert runtime == "narrator/main"
        return next(r["eventId"] for r in rows if r["runtimeId"] == "guide/main")

    view.pick_request = pick
    with qtbot.waitSignal(view.compared, timeout=20000):
        view.compare_with_action.trigger()
    assert offered and all(r["eventId"] != eid for r in offered[0])
    assert view.comparison.left.row["runtimeId"] == "guide/main"
    assert view.compare_view.table.topLevelItemCount() == len(view.comparison.rows)


def test_compare_with_previous_on_first_turn_says_so(qtbot: Any, view: RequestView, store: Any) -> None:
    first = views.request_rows(store)[0]["eventId"]
    load(qtbot, view, first)
    view.compare_prev_action.trigger()
    qtbot.waitUntil(lambda: view.message.isVisible(), timeout=20000)
    assert "earlier turn" in view.message.text()
    assert not view.tabs.isTabVisible(view._compare_tab)


def test_a_moved_part_is_one_row_naming_both_sides(qtbot: Any, store: Any) -> None:
    from inspector.anatomy.compare import MOVED

    cmp = None
    for later in views.request_rows(store, "demo-lantern-deepseek"):
        earlier = views.previous_turn_request(store, later["eventId"])
        if earlier is None:
            continue
        candidate = compare_details(views.request_detail(store, earlier, exact=False),
                                    views.request_detail(store, later["eventId"], exact=False))
        if any(r.status == MOVED for r in candidate.rows):
            cmp = candidate
            break
    assert cmp is not None
    cv = CompareView()
    qtbot.addWidget(cv)
    cv.set_comparison(cmp)
    moved = next(i for i, r in enumerate(cmp.rows) if r.status == MOVED)
    item = cv.table.topLevelItem(moved)
    row = cmp.rows[moved]
    assert item.text(2) == "moved"
    # Both sides' names as the window shows part labels (messages numbered from 1).
    assert item.text(1) == f"{part_label(row.left_label)} → {part_label(row.right_label)}"
    assert item.background(0).style() != Qt.BrushStyle.NoBrush
    assert "moved" in cv.summary.text()
    # The first difference is marked on both sides, each in the row holding it.
    fd = cmp.first_difference
    marked = [i for i in range(cv.table.topLevelItemCount()) if "first difference" in cv.table.topLevelItem(i).text(5)]
    assert marked == sorted({fd.left_row, fd.right_row} - {None})
    cv.show_first_difference()
    if fd.right_row is not None:
        assert cv.right_pane.text() == cmp.rows[fd.right_row].right_text
        assert len(cv.right_pane.editor.extraSelections()) == 1
    if fd.left_row is not None:
        assert cv.left_pane.text() == cmp.rows[fd.left_row].left_text
