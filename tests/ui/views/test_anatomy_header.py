"""The anatomy trees' column titles: translated once and kept (the header asks for them on every
paint and size hint), translated again when the language changes."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

from ui import i18n
from ui.models import anatomy_tree
from ui.models.anatomy_tree import COL_RECOGNISED
from ui.views.anatomy_sections import AnatomySection


def test_the_titles_are_translated_once_and_again_after_a_language_change(qtbot: Any, qapp: Any,
                                                                           monkeypatch: Any) -> None:
    host = QWidget()
    qtbot.addWidget(host)
    section = AnatomySection("Segments", host)
    model = section.model
    asked: list[str] = []
    real = anatomy_tree._tr

    def counting(text: str) -> str:
        asked.append(text)
        return real(text)

    monkeypatch.setattr(anatomy_tree, "_tr", counting)
    model.retranslate()
    for _ in range(100):  # as a header's paints and size hints ask
        assert model.headerData(COL_RECOGNISED, Qt.Orientation.Horizontal) == "Recognised by"
        model.headerData(COL_RECOGNISED, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    assert asked.count("Recognised by") == 1
    host.show()
    try:
        with qtbot.waitSignal(model.headerDataChanged, timeout=5000):
            i18n.install_translators(qapp, "zh_CN")
            QApplication.processEvents()
        assert model.headerData(COL_RECOGNISED, Qt.Orientation.Horizontal) == "识别依据"
    finally:
        i18n.install_translators(qapp, "en")
        QApplication.processEvents()
    assert model.headerData(COL_RECOGNISED, Qt.Orientation.Horizontal) == "Recognised by"


def test_a_cell_paints_from_one_multidata_call_with_what_data_answers(qtbot: Any) -> None:
    from PySide6.QtCore import QModelRoleData

    from inspector.views import DetailNode
    from ui.models.anatomy_tree import NodeRole, ShareRole

    model = anatomy_tree.AnatomyTreeModel()
    def node(kind: str, label: str, how: str, exact: int) -> DetailNode:
        return DetailNode(kind=kind, label=label, text="…", recognised_by=how, role="system", bag=None,
                          source=None, start=0, end=10, exact=exact, estimate=exact - 100, cjk_estimate=0,
                          share=0.6)

    part = node("part", "system prompt", "guess", 1200)
    mark = node("cache-breakpoint", "cache breakpoint (sentinel)", "sentinel", 0)
    model.set_roots([part, mark])
    roles = [Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.FontRole,
             Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.DecorationRole,
             NodeRole, ShareRole]
    for row in range(2):
        for column in range(6):
            cell = model.index(row, column)
            asked = [QModelRoleData(int(role)) for role in roles]
            model.multiData(cell, asked)
            assert [a.data() for a in asked] == [cell.data(role) for role in roles]
    assert model.index(0, 0).data() == "system prompt"
