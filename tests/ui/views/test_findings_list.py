"""The findings list sizes its columns to their texts (ui.views.columns): the check, the runtime
and the turns whole; the part takes the rest, elided in a narrow list with the whole part on hover;
a column the user drags keeps its width."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QApplication

from inspector.cache.results import Finding
from ui.views.findings_list import FindingsList, finding_title

FINDINGS = [
    Finding("wasted-breakpoint", "warning", "s", "char-creator/character-tracker", "system block 1", 6, 6, [], "m"),
    Finding("moving-history-insertion", "warning", "s", "narrator/main", "history › depth insertion", 3, 5, [], "m"),
]


def _shown(qtbot: Any, width: int) -> FindingsList:
    view = FindingsList()
    qtbot.addWidget(view)
    view.resize(width, 200)
    view.show()
    qtbot.waitExposed(view)
    view.set_findings(FINDINGS, running=False)
    QApplication.processEvents()
    return view


def test_the_check_runtime_and_turns_fit_their_texts_and_the_part_takes_the_rest(qtbot: Any) -> None:
    view = _shown(qtbot, 900)
    tree = view.tree
    metrics = tree.fontMetrics()
    assert tree.columnWidth(0) > metrics.horizontalAdvance(finding_title("wasted-breakpoint"))
    assert tree.columnWidth(1) > metrics.horizontalAdvance("char-creator/character-tracker")
    assert tree.columnWidth(3) > metrics.horizontalAdvance("6/6")
    assert tree.columnWidth(2) > metrics.horizontalAdvance("history › depth insertion")
    assert sum(tree.columnWidth(c) for c in range(4)) == tree.viewport().width()


def test_in_a_narrow_list_the_part_is_elided_and_whole_on_hover(qtbot: Any) -> None:
    view = _shown(qtbot, 430)
    tree = view.tree
    metrics = tree.fontMetrics()
    assert tree.columnWidth(0) > metrics.horizontalAdvance(finding_title("wasted-breakpoint"))
    assert tree.columnWidth(2) < metrics.horizontalAdvance("history › depth insertion")
    assert tree.topLevelItem(1).toolTip(2).startswith("history › depth insertion")
    tree.header().resizeSection(1, 250)  # as a drag does
    view.resize(500, 200)
    QApplication.processEvents()
    assert tree.columnWidth(1) == 250
