"""The context-order editor at a laptop's 1280×720: every column of the inserts table and the
tokens of the preview's messages are on screen, a note too long for its column is whole on hover
(issue 19, item 1)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from ui.order_editor import OrderEditorWindow
from ui.order_editor.model import COL_NOTE, COL_TOKENS, COLUMNS
from ui.order_editor.window import SAMPLE_ORDER, SAMPLE_SCENARIO


def test_every_column_fits_at_1280_by_720(qtbot: Any, tmp_path: Path) -> None:
    order = tmp_path / "order.json"
    shutil.copyfile(SAMPLE_ORDER, order)
    window = OrderEditorWindow(order, SAMPLE_SCENARIO)
    qtbot.addWidget(window)
    window.ask_save = lambda: "discard"
    window.resize(1280, 720)
    window.show()
    qtbot.waitExposed(window)
    window.settle()
    QApplication.processEvents()

    table, header = window.table, window.table.horizontalHeader()
    assert sum(header.sectionSize(c) for c in range(len(COLUMNS))) <= table.viewport().width()
    for column in range(len(COLUMNS)):
        title = str(window.model.headerData(column, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole))
        assert header.sectionSize(column) >= header.fontMetrics().horizontalAdvance(title), title
    for row in range(window.model.rowCount()):
        tokens = window.model.index(row, COL_TOKENS)
        text = str(tokens.data() or "")
        assert table.fontMetrics().horizontalAdvance(text) <= header.sectionSize(COL_TOKENS), text
        note = window.model.index(row, COL_NOTE)
        if note.data():
            assert note.data(Qt.ItemDataRole.ToolTipRole) == note.data()

    messages = window.preview.messages
    tokens_column = 4
    assert messages.headerItem().text(tokens_column) == "Tokens"
    right = messages.header().sectionPosition(tokens_column) + messages.columnWidth(tokens_column)
    assert right <= messages.viewport().width()
    window.close()
