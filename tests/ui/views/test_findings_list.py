"""The findings list shares its width between the check, the runtime and the part."""

from __future__ import annotations

from typing import Any

from ui.views.findings_list import FindingsList


def test_the_part_column_keeps_room_in_a_narrow_list_until_the_user_sizes_a_column(qtbot: Any) -> None:
    view = FindingsList()
    qtbot.addWidget(view)
    view.resize(1000, 200)
    view.show()
    tree = view.tree
    qtbot.waitUntil(lambda: tree.columnWidth(0) == 210)
    assert tree.columnWidth(1) == 170  # a wide list: the widths the columns need
    view.resize(480, 200)
    qtbot.waitUntil(lambda: tree.columnWidth(0) < 210)
    free = tree.viewport().width() - tree.columnWidth(3)
    assert tree.columnWidth(0) == int(free * 0.38) and tree.columnWidth(1) == int(free * 0.28)
    assert tree.columnWidth(2) >= free - tree.columnWidth(0) - tree.columnWidth(1) - 2  # the part: the rest
    tree.header().resizeSection(1, 250)  # as a drag does
    view.resize(500, 200)
    qtbot.wait(20)
    assert tree.columnWidth(1) == 250
