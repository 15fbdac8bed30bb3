"""The order editor window: the preview re-assembles after every edit, undo and redo (keyboard
and stack), before/after history and its effect on the break strip, the turn slider, options,
play slots, the dirty marker, save, and closing with unsaved edits."""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QKeySequence

from inspector.writing_agent.assembly import AssemblyOptions, assemble
from inspector.writing_agent.history import HistoryOptions
from inspector.writing_agent.edits import set_anchor
from inspector.writing_agent.order import normalise, read_context_order, serialise
from inspector.writing_agent.prefix_sim import simulate_prefix
from inspector.writing_agent.scenario import load_scenario
from ui.order_editor import OrderEditorWindow, open_order_editor
from ui.order_editor.model import COL_PROJECTION, COL_REF
from ui.order_editor.window import SAMPLE_ORDER, SAMPLE_SCENARIO, change_summary

WS = "world-simulator"


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    order = tmp_path / "order.json"
    shutil.copyfile(SAMPLE_ORDER, order)
    return order, SAMPLE_SCENARIO


@pytest.fixture
def window(qtbot: Any, files: tuple[Path, Path]) -> Iterator[OrderEditorWindow]:
    w = OrderEditorWindow(*files)
    qtbot.addWidget(w)
    w.ask_save = lambda: "discard"
    errors: list = []
    w.report_error = lambda title, text: errors.append((title, text))
    w.errors = errors  # type: ignore[attr-defined]
    w.show()
    qtbot.waitExposed(w)
    w.runner.finish_now()
    yield w
    w.runner.stop()


@pytest.fixture(scope="module")
def scenario() -> Any:
    return load_scenario(SAMPLE_SCENARIO)


def doc_refs(w: OrderEditorWindow, slot: str = WS) -> list[str]:
    return [i.ref for i in w.doc.document.slot(slot).inserts]


def settle_strip(qtbot: Any, w: OrderEditorWindow) -> None:
    with qtbot.waitSignal(w.stripUpdated, timeout=20000):
        pass


def test_opens_the_sample_and_shows_what_the_engine_assembles(window: OrderEditorWindow, scenario: Any) -> None:
    order = normalise(read_context_order(SAMPLE_ORDER.read_text(encoding="utf-8"))).document
    expected = assemble(order, scenario, WS)
    result = window.result
    assert result is not None and result.messages == expected.messages
    assert window.preview.messages.topLevelItemCount() == len(expected.messages)
    first = window.preview.messages.topLevelItem(0)
    assert first.text(2) == expected.messages[0].source and first.text(4) == f"{expected.messages[0].tokens:,}"
    # Messages are counted from 1 where a person reads them (inspector.numbering).
    assert [window.preview.messages.topLevelItem(i).text(0) for i in range(3)] == ["1", "2", "3"]
    assert window.preview.segments.topLevelItemCount() == len(expected.segments)
    assert window.preview.bags.topLevelItemCount() == 5
    assert WS in window.preview.title.text()
    assert window.preview.slider.maximum() == expected.turn_count == window.preview.slider.value()
    sim = simulate_prefix(order, scenario, WS)
    assert window.preview.simulation.break_turns == sim.break_turns == (1, 41, 60)
    assert window.preview.simulation.rows == sim.rows
    # The table shows each row's bag and tokens from the same assembly.
    assert window.model.index(4, 5).data() == "history"
    assert window.model.index(4, 6).data() == f"{expected.segments[4].tokens:,}"
    assert not window.isWindowModified()
    assert window.windowTitle().startswith("order.json[*]")


def test_keyboard_moves_refresh_the_preview_and_undo_redo(qtbot: Any, window: OrderEditorWindow,
                                                          scenario: Any) -> None:
    window.table.setFocus()
    window._select_row(2)
    with qtbot.waitSignal(window.previewUpdated, timeout=2000):
        qtbot.keyClick(window.table, Qt.Key.Key_Down, Qt.KeyboardModifier.AltModifier)
    assert doc_refs(window)[2:4] == ["上下文.定稿摘要", "设计.舞台骨架"]
    assert window.selected_row() == 3  # the selection follows the moved row
    assert window.isWindowModified() and "*" not in window.windowTitle().replace("[*]", "")
    expected = assemble(window.doc.document, scenario, WS)
    assert window.result.messages == expected.messages
    with qtbot.waitSignal(window.previewUpdated, timeout=2000):
        qtbot.keyClick(window.table, Qt.Key.Key_Up, Qt.KeyboardModifier.AltModifier)
    assert doc_refs(window)[2:4] == ["设计.舞台骨架", "上下文.定稿摘要"]
    assert window.doc.undo_stack.count() == 2
    window.undo_action.trigger()
    window.undo_action.trigger()
    assert not window.isWindowModified()
    window.redo_action.trigger()
    assert doc_refs(window)[2:4] == ["上下文.定稿摘要", "设计.舞台骨架"]
    assert window.selected_row() == 3
    assert window.undo_action.shortcuts()[0] == QKeySequence(QKeySequence.StandardKey.Undo)


def test_moving_the_persona_is_undone_and_the_reason_shown(qtbot: Any, window: OrderEditorWindow) -> None:
    window._select_row(1)
    window.up_action.setEnabled(True)
    window.move_selected(-1)
    assert doc_refs(window)[:2] == ["worker.persona", "设计.实现机制"]
    assert window.doc.undo_stack.count() == 0
    assert window.message_bar.isVisible()
    assert window.message_bar.text() == change_summary(window.last_changes[0])
    assert "persona pinned first: move undone" in window.message_bar.toolTip()


def test_before_and_after_history_show_their_effect_on_the_strip(qtbot: Any, window: OrderEditorWindow,
                                                                  scenario: Any) -> None:
    # 运行.事件流 after the history is re-sent after the growing history every turn; moved before
    # it, it joins the cached prefix: more of every turn repeats the previous one.
    shown_before = window.preview.simulation
    window._select_row(5)
    with qtbot.waitSignal(window.stripUpdated, timeout=20000):
        window.before_action.trigger()
    assert doc_refs(window)[4:6] == ["运行.事件流", "对话.历史"]
    assert window.selected_row() == 4
    order = set_anchor(normalise(read_context_order(SAMPLE_ORDER.read_text(encoding="utf-8"))).document,
                       WS, 5, "pre_history").document
    assert window.doc.document == order
    sim = simulate_prefix(order, scenario, WS)
    assert window.preview.simulation.rows == sim.rows
    assert sim.shared_tokens > shown_before.shared_tokens
    share = f"{shown_before.shared_tokens / shown_before.total_tokens:.0%}"
    assert f"(before this change: 3 breaks, {share} repeated)" in window.preview.strip_summary.text()
    with qtbot.waitSignal(window.stripUpdated, timeout=20000):
        window.after_action.trigger()
    assert doc_refs(window)[4:6] == ["对话.历史", "运行.事件流"]
    assert window.preview.simulation.rows == shown_before.rows
    # A shorter history projection: n = 5 blocks, so the cut (and the cache) moves every 5 turns.
    window._select_row(4)
    assert not window.before_action.isEnabled()  # the history row itself has no before/after
    with qtbot.waitSignal(window.stripUpdated, timeout=20000):
        window.model.setData(window.model.index(4, COL_PROJECTION), "fields")
    fields = simulate_prefix(window.doc.document, scenario, WS)
    assert window.preview.simulation.break_turns == fields.break_turns
    assert fields.break_turns[:5] == (1, 11, 15, 20, 25)  # past 2n = 10 blocks, the cut steps by n = 5
    strip = window.preview.strip
    assert strip.tooltip_for(11).startswith("Turn 11: the cached prefix breaks")
    assert "history cut moved: first kept block 0 → 5" in strip.tooltip_for(11)
    assert strip.tooltip_for(12).startswith("Turn 12: prefix kept")
    with qtbot.waitSignal(window.stripUpdated, timeout=20000):
        window.undo_action.trigger()
    assert window.preview.simulation.break_turns == (1, 41, 60)


def test_the_projection_combo_commits_at_once(qtbot: Any, window: OrderEditorWindow, scenario: Any) -> None:
    index = window.model.index(2, COL_PROJECTION)
    combo = window.table.indexWidget(index)
    assert combo is not None and combo.currentData() == "full"
    with qtbot.waitSignal(window.previewUpdated, timeout=2000):
        combo.setCurrentIndex(combo.findData("fields"))
        combo.activated.emit(combo.currentIndex())
    assert window.doc.document.slot(WS).inserts[2].projection == "fields"
    assert window.result.messages == assemble(window.doc.document, scenario, WS).messages
    window.undo_action.trigger()
    assert window.table.indexWidget(window.model.index(2, COL_PROJECTION)).currentData() == "full"


def test_the_turn_slider_and_the_strip_pick_a_turn(qtbot: Any, window: OrderEditorWindow, scenario: Any) -> None:
    with qtbot.waitSignal(window.previewUpdated, timeout=2000):
        window.preview.slider.setValue(20)
    assert window.result.turn == 20 and window.preview.spin.value() == 20
    assert window.result.messages == assemble(window.doc.document, scenario, WS, turn=20).messages
    strip = window.preview.strip
    x = int(strip._cell(41).center().x())
    qtbot.mouseClick(strip, Qt.MouseButton.LeftButton, pos=QPoint(x, strip.height() // 2))
    assert window.result.turn == 41 and window.preview.slider.value() == 41
    # An edit keeps the chosen turn.
    window._select_row(2)
    window.move_selected(1)
    assert window.result.turn == 41
    window.preview.latest.click()
    assert window.result.turn == window.result.turn_count


def test_slots_play_slots_and_options(qtbot: Any, window: OrderEditorWindow, scenario: Any) -> None:
    window.slot_list.setCurrentRow(1)
    assert window.model.slot_ref == "narrator" and "narrator" in window.preview.title.text()
    settle_strip(qtbot, window)
    window.play_checks["narrator"].setChecked(False)
    assert window.doc.document.play_slots["narrator"] is False
    assert "(off)" in window.slot_list.item(1).text()
    assert window.isWindowModified()
    window.undo_action.trigger()
    assert window.play_checks["narrator"].isChecked() and window.doc.document.play_slots["narrator"] is True
    # The original's isolation leak, visible as a toggle, on the role-decide slot.
    window.slot_list.setCurrentRow(3)
    secret = scenario.blackboard.value("角色.沈砚.秘密")
    assert secret and not any(secret in m.content for m in window.result.messages)
    window.opt_leak.setChecked(True)
    assert any(secret in m.content for m in window.result.messages)
    expected = assemble(window.doc.document, scenario, "role-decide", options=AssemblyOptions(
        leak_through_blackboard=True))
    assert window.result.messages == expected.messages
    assert any("leak" in w for w in window.result.warnings)
    # The code's sliding window breaks every turn once the history is longer than n.
    window.slot_list.setCurrentRow(0)
    window.opt_mode.setCurrentIndex(window.opt_mode.findData("window"))
    settle_strip(qtbot, window)
    code = simulate_prefix(window.doc.document, scenario, WS, AssemblyOptions(history=HistoryOptions.code()))
    assert window.preview.simulation.break_turns == code.break_turns
    assert window.options.history.mode == "window"
    assert not window.isWindowModified()  # options are not edits of the table


def test_add_remove_and_validation_messages(qtbot: Any, window: OrderEditorWindow) -> None:
    window._select_row(3)
    window.add_ref.setEditText("设计.叙事指南")
    window.add_button.click()
    assert doc_refs(window)[4] == "设计.叙事指南" and window.selected_row() == 4
    window.remove_action.trigger()
    assert "设计.叙事指南" not in doc_refs(window)
    window.add_ref.setEditText("  ")
    window.add_from_combo()
    assert window.message_bar.isVisible() and window.doc.undo_stack.count() == 2
    # A ref no blackboard tag matches is flagged in the table.
    window.add_ref.setEditText("设计.不存在")
    window.add_from_combo()
    row = doc_refs(window).index("设计.不存在")
    assert window.model.index(row, COL_REF).data(Qt.ItemDataRole.DecorationRole) is not None
    assert any("设计.不存在" in w for w in window.result.warnings)


def test_replace_from_text_is_one_undo_step(qtbot: Any, window: OrderEditorWindow) -> None:
    reply = "模型回复：\n```json\n" + '{"schema":"context-order.v1","slots":[{"ref":"gm","inserts":[' \
        '{"ref":"history","order":2},{"ref":"persona","order":5,"projection":"fixed"}]}]}' + "\n```"
    window.replace_with(reply)
    assert [s.ref for s in window.doc.document.slots] == [WS]
    assert doc_refs(window) == ["persona", "对话.历史"]
    assert window.model.slot_ref == WS and window.model.rowCount() == 2
    window.undo_action.trigger()
    assert len(window.doc.document.slots) == 4 and window.model.rowCount() == 8
    window.replace_with("no table here")
    assert window.message_bar.text() == "context_order 无法解析"


def test_save_writes_atomically_with_a_backup(qtbot: Any, window: OrderEditorWindow, files: tuple[Path, Path]) -> None:
    order_path = files[0]
    original = order_path.read_text(encoding="utf-8")
    window._select_row(5)
    window.before_action.trigger()
    assert window.isWindowModified()
    assert window.save()
    assert not window.isWindowModified()
    assert order_path.with_name("order.json.bak").read_text(encoding="utf-8") == original
    assert order_path.read_text(encoding="utf-8") == serialise(window.doc.document) + "\n"
    window.undo_action.trigger()
    assert window.isWindowModified()  # back before the saved state


def test_closing_with_unsaved_edits_asks(qtbot: Any, window: OrderEditorWindow, files: tuple[Path, Path]) -> None:
    window._select_row(2)
    window.move_selected(1)
    asked: list[str] = []
    window.ask_save = lambda: asked.append("cancel") or "cancel"
    assert not window.close()
    assert window.isVisible() and asked == ["cancel"]
    window.ask_save = lambda: asked.append("save") or "save"
    assert window.close()
    assert asked == ["cancel", "save"]
    assert files[0].with_name("order.json.bak").exists()
    reread = normalise(read_context_order(files[0].read_text(encoding="utf-8"))).document
    assert reread == window.doc.document


def test_open_order_and_blackboard_files(qtbot: Any, window: OrderEditorWindow, tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    other.write_text('{"schema":"context-order.v1","slots":[{"ref":"narrator","inserts":['
                     '{"ref":"worker.persona","projection":"fixed"},{"ref":"对话.历史","projection":"fields"}]}]}',
                     encoding="utf-8")
    assert window.open_order(other)
    assert window.model.slot_ref == "narrator" and window.model.rowCount() == 2
    assert window.windowTitle().startswith("other.json[*]") and not window.isWindowModified()
    assert window.doc.undo_stack.count() == 0
    bad = tmp_path / "bad.yaml"
    bad.write_text("blackboard: 3\n", encoding="utf-8")
    assert not window.open_scenario(bad)
    assert window.errors and window.errors[-1][0] == "Cannot open the blackboard"
    board = tmp_path / "board.yaml"
    board.write_text("blackboard:\n- tag: 对话.历史\n  content: \"## 用户\\n\\n你好\\n\\n## 助手\\n\\n嗯\"\n",
                     encoding="utf-8")
    assert window.open_scenario(board)
    assert window.result.turn_count == 2
    assert "board.yaml" in window.windowTitle()
    assert not window.open_order(tmp_path / "missing.json")
    assert window.errors[-1][0] == "Cannot open the order table"


def test_open_order_editor_opens_the_sample(qtbot: Any) -> None:
    w = open_order_editor()
    qtbot.addWidget(w)
    try:
        assert w.isVisible() and w.doc.path == SAMPLE_ORDER
        assert [s.ref for s in w.doc.document.slots] == [WS, "narrator", "auditor", "role-decide"]
    finally:
        w.runner.stop()


def _state(folder: Path, path: Path) -> tuple[str, list[str]]:
    return hashlib.sha256(path.read_bytes()).hexdigest(), sorted(os.listdir(folder))


def test_save_as_onto_the_blackboard_a_database_or_a_folder_is_refused(
        qtbot: Any, window: OrderEditorWindow, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    board = tmp_path / "scenario.yaml"
    shutil.copyfile(SAMPLE_SCENARIO, board)
    assert window.open_scenario(board)
    database = tmp_path / "covel.db"
    with sqlite3.connect(database) as conn:
        conn.execute("CREATE TABLE t (x)")
    conn.close()
    window._select_row(5)
    window.before_action.trigger()
    import ui.order_editor.window as window_module

    for target in (board, database):
        before = _state(tmp_path, target)
        monkeypatch.setattr(window_module.QFileDialog, "getSaveFileName",
                            staticmethod(lambda *_a, target=target, **_k: (str(target), "")))
        assert not window.save_as()
        title, text = window.errors[-1]
        assert title == "Cannot save the order table"
        assert str(target) in text and "\n" not in text
        assert _state(tmp_path, target) == before
        assert window.isWindowModified() and window.doc.path == tmp_path / "order.json"
    assert "it is the input" in window.errors[-2][1] and "SQLite database" in window.errors[-1][1]
    folder = tmp_path / "out"
    folder.mkdir()
    listing = sorted(os.listdir(tmp_path))
    assert not window._save_to(folder)
    assert "folder" in window.errors[-1][1] and sorted(os.listdir(tmp_path)) == listing
    # Its own file stays its own to save over, with a backup.
    assert window.save() and (tmp_path / "order.json.bak").is_file()


def test_a_picture_of_the_editor_is_written_atomically_and_never_over_its_files(
        qtbot: Any, window: OrderEditorWindow, files: tuple[Path, Path], tmp_path: Path) -> None:
    from PySide6.QtGui import QImage

    from inspector.files import OutputPathError

    out = window.grab_to(tmp_path / "editor.png")
    assert QImage(str(out)).width() == window.width()
    before = _state(tmp_path, files[0])
    with pytest.raises(OutputPathError, match="order.json"):
        window.grab_to(files[0])
    assert _state(tmp_path, files[0]) == before
