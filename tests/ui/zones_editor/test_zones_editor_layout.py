"""The blocks editor's problems list at 1280×720: a preset's blocks named as the block list names
them ("Prompt 1", not ``prompts[0]``), the message right after the block and wrapped, never cut
(issue 19, item 1)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from ui.zones_editor import open_zones_editor

BAD = """keywords: [bad]
prompts:
  - role: system
    content: |-
      今天是 {weekday()}，{shout(name)}！
      {if is_group}群聊里请简短回答。
format_user_prompt: '{sender} 说了一句话'
"""


def test_preset_problems_name_blocks_as_people_read_them(qtbot: Any, tmp_path: Path) -> None:
    path = tmp_path / "bad.yml"
    path.write_text(BAD, encoding="utf-8")
    window = open_zones_editor(None, path, report_error=lambda t, x: pytest.fail(f"error dialog: {t}: {x}"))
    qtbot.addWidget(window)
    window.ask_save_changes = lambda: "discard"
    window.resize(1280, 720)
    qtbot.waitExposed(window)
    window.refresh()
    QApplication.processEvents()
    problems = window.problems
    shown = {(problems.topLevelItem(i).text(1), problems.topLevelItem(i).text(3))
             for i in range(problems.topLevelItemCount())}
    assert ("Prompt 1", "unknown-function") in shown and ("User input format", "input-missing-prompt") in shown
    item = next(problems.topLevelItem(i) for i in range(problems.topLevelItemCount())
                if problems.topLevelItem(i).text(3) == "unknown-function")
    assert "(prompts[0])" in item.toolTip(1)  # the path stays one hover away
    header = problems.header()
    assert header.visualIndex(4) == 2  # the message comes right after the block
    # Wrapped: the row is as tall as the message needs at its column's width, nothing cut.
    rect = problems.visualItemRect(item)
    needed = problems.fontMetrics().boundingRect(0, 0, header.sectionSize(4) - 8, 10_000,
                                                 int(Qt.TextFlag.TextWordWrap), item.text(4)).height()
    assert rect.height() >= needed
    assert header.sectionSize(4) >= 150
    window.doc.undo_stack.setClean()
    window.close()


def test_a_zones_config_keeps_its_own_block_ids(qtbot: Any) -> None:
    window = open_zones_editor(None, None, report_error=lambda t, x: pytest.fail(f"error dialog: {t}: {x}"))
    qtbot.addWidget(window)
    window.ask_save_changes = lambda: "discard"
    qtbot.waitExposed(window)
    window.refresh()
    ids = {b.id for b in window.doc.config.blocks}
    shown = {window.problems.topLevelItem(i).text(1) for i in range(window.problems.topLevelItemCount())}
    assert shown and shown <= ids | {"—"}
    window.close()


def test_a_narrow_problems_list_keeps_the_message_and_moves_position_and_code_to_the_tooltip(qtbot: Any) -> None:
    from inspector.zones.diagnostic import make
    from ui.zones_editor.problems import ProblemsView

    view = ProblemsView()
    qtbot.addWidget(view)
    diag = make("unknown-function", "error", "unknown function 'shout'", block_id="prompts[0]")
    view.block_names = {"prompts[0]": "Prompt 1"}
    view.set_problems([(diag, 0)])
    view.resize(900, 200)
    view.show()
    qtbot.waitExposed(view)
    assert not view.isColumnHidden(2) and not view.isColumnHidden(3)
    view.resize(480, 200)
    QApplication.processEvents()
    assert view.isColumnHidden(2) and view.isColumnHidden(3)
    item = view.topLevelItem(0)
    assert item.text(1) == "Prompt 1" and "unknown-function" in item.toolTip(4)
    view.resize(900, 200)
    QApplication.processEvents()
    assert not view.isColumnHidden(3)


def test_a_digest_too_wide_for_its_label_keeps_its_whole_text(qtbot: Any) -> None:
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtTest import QTest

    from ui.zones_editor.preview import DigestLabel

    digest = "d904ccc7848c8a91232d946e8" + "0" * 39
    label = DigestLabel(digest)
    qtbot.addWidget(label)
    label.resize(120, 20)
    label.show()
    qtbot.waitExposed(label)
    assert label.grab().width() == 120 and label.text() == digest
    QTest.mouseDClick(label, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == digest
