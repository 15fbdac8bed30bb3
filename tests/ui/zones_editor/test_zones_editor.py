"""The prompt-zones editor: squiggles and their tooltips, jumping to a problem (list, F8), the
preview and digests as you type, undo/redo, the turn simulator, variables, saving, the close
question, the order ruler and the Covel template mode."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication
from PySide6.QtTest import QTest

from inspector.jsjson import UNDEFINED, utf16_len
from inspector.zones import load_config, render, simulate_turns
from inspector.zones import diagnostic as dg
from inspector.zones.config import sample_path
from ui.theme import palette_for
from ui.zones_editor import ZonesEditorWindow, open_zones_editor
from ui.zones_editor.problems import severity_colour
from ui.zones_editor.variables import cell_text, parse_cell


@pytest.fixture
def editor(qtbot: Any) -> Iterator[ZonesEditorWindow]:
    window = open_zones_editor()
    qtbot.addWidget(window)
    window.report_error = lambda title, text: pytest.fail(f"unexpected error dialog: {title}: {text}")
    window.ask_save_changes = lambda: "discard"
    qtbot.waitExposed(window)
    window.activateWindow()
    qtbot.waitActive(window)
    window.refresh()
    yield window
    window.doc.undo_stack.setClean()


def block_index(window: ZonesEditorWindow, block_id: str) -> int:
    return next(i for i, b in enumerate(window.doc.config.blocks) if b.id == block_id)


def type_text(widget: Any, text: str) -> None:
    """Key presses carrying ``text``, one character each (QTest.keyClicks only knows ASCII)."""
    for ch in text:
        for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            QApplication.sendEvent(widget, QKeyEvent(kind, Qt.Key.Key_unknown if ord(ch) > 127 else ord(ch.upper()),
                                                     Qt.KeyboardModifier.NoModifier, ch))


def type_at_end(qtbot: Any, window: ZonesEditorWindow, text: str) -> None:
    window.editor.setFocus()
    window.editor.moveCursor(window.editor.textCursor().MoveOperation.End)
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        type_text(window.editor, text)


# ---------------------------------------------------------------------------------- squiggles

def test_squiggles_follow_the_diagnostics(qtbot: Any, editor: ZonesEditorWindow) -> None:
    window = editor
    window.select_block(block_index(window, "preset:persona"))
    content = window.doc.config.blocks[window.current].content
    start = utf16_len(content[:content.index("{date}") + 1])
    warning = severity_colour(dg.WARNING, window.editor.palette())
    assert (start, start + 4, warning) in window.editor.squiggles()
    assert "mutable-in-system" in window.editor.tooltip_text(start + 1)
    assert window.editor.tooltip_text(0) == ""

    # A misspelt variable gets an error squiggle on its name, with a "did you mean" tooltip.
    type_at_end(qtbot, window, "{charcter_name}")
    content = window.doc.config.blocks[window.current].content
    assert content.endswith("{charcter_name}")
    name_start = utf16_len(content) - len("charcter_name}")
    error = severity_colour(dg.ERROR, window.editor.palette())
    assert (name_start, name_start + len("charcter_name"), error) in window.editor.squiggles()
    tip = window.editor.tooltip_text(name_start + 2)
    assert "unknown variable 'charcter_name'" in tip and "character_name" in tip
    # The tree marks the block; the problems list has the row.
    codes = [d.code for d, _i in window.problems.rows]
    assert dg.UNKNOWN_VARIABLE in codes


def test_squiggle_positions_are_utf16(qtbot: Any, editor: ZonesEditorWindow) -> None:
    window = editor
    window.select_block(block_index(window, "context:weather"))
    window.editor.moveCursor(window.editor.textCursor().MoveOperation.End)
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        window.editor.insertPlainText(" 😀{nope}")  # as a paste: key clicks cannot carry an astral character
    content = window.doc.config.blocks[window.current].content
    start = utf16_len(content[:content.index("nope")])
    assert start == content.index("nope") + 1  # the emoji is two UTF-16 units
    spans = [(s, e) for s, e, _c in window.editor.squiggles()]
    assert (start, start + 4) in spans
    cursor = window.editor.textCursor()
    cursor.setPosition(start)
    cursor.setPosition(start + 4, cursor.MoveMode.KeepAnchor)
    assert cursor.selectedText() == "nope"


def test_empty_span_diagnostic_marks_one_character(qtbot: Any, editor: ZonesEditorWindow) -> None:
    window = editor
    window.select_block(block_index(window, "input:speaker"))
    window.editor.selectAll()
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        QTest.keyClicks(window.editor, "hello")
    assert any(d.code == dg.INPUT_MISSING_PROMPT for d in window.editor.diagnostics)
    assert (0, 1) in [(s, e) for s, e, _c in window.editor.squiggles()]


# ---------------------------------------------------------------------------------- jumping

def test_activating_a_problem_selects_the_block_and_the_span(qtbot: Any, editor: ZonesEditorWindow) -> None:
    window = editor
    window.select_block(block_index(window, "context:time"))
    type_at_end(qtbot, window, "{tim}")
    window.select_block(0)
    assert window.editor.text() == window.doc.config.blocks[0].content
    row = next(r for r, (d, _i) in enumerate(window.problems.rows) if d.code == dg.UNKNOWN_VARIABLE)
    item = window.problems.topLevelItem(row)
    window.problems.setCurrentItem(item)
    window.problems.itemActivated.emit(item, 1)
    assert window.doc.config.blocks[window.current].id == "context:time"
    assert window.editor.textCursor().selectedText() == "tim"
    assert window.editor.hasFocus()
    selected = window.tree.selectionModel().currentIndex()
    assert selected.data() == "context:time"


def test_f8_and_shift_f8_step_through_problems(qtbot: Any, editor: ZonesEditorWindow) -> None:
    window = editor
    window.select_block(block_index(window, "context:time"))
    type_at_end(qtbot, window, "{a1}{a2}")
    window.activateWindow()
    window.tree.setFocus()
    assert len(window.problems.rows) == 3
    seen = []
    for _ in range(3):
        QTest.keyClick(window, Qt.Key.Key_F8)
        seen.append(window.problems.current_problem()[0].code)
    assert seen == [d.code for d, _i in window.problems.rows]
    QTest.keyClick(window, Qt.Key.Key_F8)  # wraps around to the first
    assert window.problems.current_problem() == window.problems.rows[0]
    QTest.keyClick(window, Qt.Key.Key_F8, Qt.KeyboardModifier.ShiftModifier)  # and back to the last
    diag, index = window.problems.current_problem()
    assert diag.message == window.problems.rows[-1][0].message
    if diag.field == "content" and index is not None:
        assert window.editor.textCursor().selectedText() in ("a1", "a2", "date")


def test_field_problem_focuses_the_field(qtbot: Any, editor: ZonesEditorWindow) -> None:
    window = editor
    window.select_block(block_index(window, "tools:search"))
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        window.form.order_spin.setValue(400)
    assert window.doc.config.blocks[window.current].order == 400
    diag, index = next(r for r in window.problems.rows if r[0].code == dg.ORDER_OUT_OF_RANGE)
    assert diag.field == "order"
    assert window.form.markers["order"].toolTip().count("order-out-of-range") == 1
    window.select_block(0)
    window.jump_to(diag, index)
    assert window.doc.config.blocks[window.current].id == "tools:search"
    assert window.form.order_spin.hasFocus()
    marker = window.ruler.marker_of(index)
    assert marker is not None and marker.out_of_range


def test_unused_variable_problem_opens_the_variable(qtbot: Any, editor: ZonesEditorWindow) -> None:
    window = editor
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        window.add_variable()
    diag, index = next(r for r in window.problems.rows if r[0].code == dg.UNUSED_VARIABLE)
    assert index is None
    window.jump_to(diag, index)
    assert window.tabs.currentWidget() is window.variables
    row = window.variables.table.currentRow()
    assert window.variables.table.item(row, 0).text() == "new_variable"


# ---------------------------------------------------------------------------------- preview

def test_preview_updates_as_you_type_with_the_digests(qtbot: Any, editor: ZonesEditorWindow) -> None:
    window = editor
    window.select_block(block_index(window, "preset:scene"))
    before = window.result
    type_at_end(qtbot, window, "又")
    after = window.result
    # Content changed, layout did not: the digest stays, the content digest moves.
    assert after.digest == before.digest
    assert after.content_digest != before.content_digest
    assert window.preview.digest_label.text() == after.digest
    assert window.preview.content_digest_label.text() == after.content_digest
    expected = render(window.doc.config, 0)
    assert after.system == expected.system
    assert expected.system in window.preview.shown
    assert window.preview.highlighted_text().endswith("又")
    # The preview is patched in place, not replaced; it must still read exactly as assembled.
    assert window.preview.text.toPlainText() == window.preview.shown

    # Re-ordering changes the layout, so the digest.
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        window.form.order_spin.setValue(-120)
    assert window.result.digest != after.digest
    assert window.result.section_names.index("preset:scene") < window.result.section_names.index("safety:policy")


def test_sample_input_and_double_click_to_source(qtbot: Any, editor: ZonesEditorWindow) -> None:
    window = editor
    assert window.preview.input_edit.cursorPosition() == 0  # a long sample input shows its start
    window.preview.input_edit.end(False)  # as a user adding to it would
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        QTest.keyClicks(window.preview.input_edit, "!")
    assert window.doc.config.sample_input.endswith("!")
    assert window.result.input.endswith("今晚的灯会几点开始？!")
    # The text of a world-book value maps back to its tag.
    shown = window.preview.shown
    at = shown.index("每月十五晚上")
    window.preview._double_clicked(utf16_len(shown[:at]))
    assert window.doc.config.blocks[window.current].id == "worldbook:lantern-festival"
    content = window.doc.config.blocks[window.current].content
    assert window.editor.textCursor().position() == utf16_len(content[:content.index("{lore")])


# ---------------------------------------------------------------------------------- editing

def test_undo_redo_typing_and_block_edits(qtbot: Any, editor: ZonesEditorWindow) -> None:
    window = editor
    assert not window.doc.dirty and not window.isWindowModified()
    index = block_index(window, "context:time")
    window.select_block(index)
    original = window.doc.config.blocks[index].content
    type_at_end(qtbot, window, "abc")
    assert window.doc.dirty and window.isWindowModified()
    count = len(window.doc.config.blocks)
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        window.duplicate_block()
    assert len(window.doc.config.blocks) == count + 1
    copy = window.doc.config.blocks[index + 1]
    assert copy.id == "context:time-copy" and copy.content == original + "abc"
    assert window.doc.config.blocks[window.current] is copy

    window.undo_action.trigger()  # the duplicate
    assert len(window.doc.config.blocks) == count
    window.undo_action.trigger()  # the typing (merged into one step)
    assert window.doc.config.blocks[index].content == original
    assert window.current == index and window.editor.text() == original
    assert not window.doc.dirty
    window.redo_action.trigger()
    assert window.editor.text() == original + "abc"

    # Ctrl+Z in the editor reaches the window's undo stack.
    window.editor.setFocus()
    QTest.keyClick(window.editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert window.editor.text() == original


def test_add_remove_and_field_edits(qtbot: Any, editor: ZonesEditorWindow) -> None:
    window = editor
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        window.add_block("input")
    block = window.doc.config.blocks[window.current]
    assert block.zone == "input" and block.template and block.content == "{prompt}"
    assert window.result.input.endswith(window.doc.config.sample_input)
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        window.form.zone_combo.setCurrentIndex(window.form.zone_combo.findData("context"))
        window.form.zone_combo.activated.emit(window.form.zone_combo.currentIndex())
    assert block.zone == "context"
    assert any(d.code == dg.ZONE_NOT_ALLOWED for d in window.editor.diagnostics)
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        window.form.template_box.setChecked(False)
    assert not block.template
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        window.form.id_edit.setText("core:identity")
        window.form.id_edit.editingFinished.emit()
    assert block.id == "core:identity"
    own = [d for d, i in window.problems.rows if i == window.current]
    assert [d.code for d in own] == [dg.DUPLICATE_ID]
    assert "duplicate-id" in window.form.markers["id"].toolTip()
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        window.remove_block()
    assert all(b is not block for b in window.doc.config.blocks)
    assert window.doc.undo_stack.count() == 5


def test_turn_simulator_shows_pinning_notes_and_digests(qtbot: Any, editor: ZonesEditorWindow) -> None:
    window = editor
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        window.tabs.setCurrentWidget(window.simulator)
    expected = simulate_turns(load_config(sample_path()))
    table = window.simulator.table
    assert table.rowCount() == len(expected) == 5
    for r, row in enumerate(expected):
        assert table.item(r, 0).text() == str(row.turn)
        assert table.item(r, 4).text() == row.digest[:12]
        assert table.item(r, 2).toolTip() == (row.note or "")
    assert expected[3].system_action == "note" and "date" in table.item(3, 3).text()

    with qtbot.waitSignal(window.refreshed, timeout=2000):
        window.simulator.next_button.click()
    assert window.turn == 1 and window.preview.turn_spin.value() == 1
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        table.setCurrentCell(3, 0)
    assert window.result.turn == 3 and window.result.note is not None
    assert window.result.note in window.preview.shown
    assert "2024年5月16日" in window.simulator.details.toPlainText()


def test_per_turn_values_drive_the_simulation(qtbot: Any, editor: ZonesEditorWindow) -> None:
    window = editor
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        window.tabs.setCurrentWidget(window.variables)
    table = window.variables.table
    row = next(r for r in range(table.rowCount()) if table.item(r, 0).text() == "date")
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        table.item(row, window.variables.turn_column(1)).setText("2024年5月15日 晚")
    assert window.doc.config.variable("date").values[1] == "2024年5月15日 晚"
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        window.tabs.setCurrentWidget(window.simulator)
    assert window.simulator.rows[1].system_action == "note"
    # Clearing the cell of turn 3 keeps turns 0..2; the last value repeats after them.
    window.tabs.setCurrentWidget(window.variables)
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        table.item(row, window.variables.turn_column(3)).setText("")
    assert len(window.doc.config.variable("date").values) == 3
    # A bad zone is refused with a message and the cell reverts.
    messages: list[str] = []
    window.variables.failed.connect(messages.append)
    zones = window.variables.column("zones")
    table.item(row, zones).setText("system, sky")
    assert messages and "sky" in messages[0]
    assert table.item(row, zones).text() == "system, context"
    window.undo_action.trigger()
    window.undo_action.trigger()
    assert window.doc.config.variable("date").values == load_config(sample_path()).variable("date").values


def test_environment_and_settings_editor(qtbot: Any, editor: ZonesEditorWindow) -> None:
    window = editor
    window.tabs.setCurrentWidget(window.environment)
    data = json.loads(window.environment.edit.toPlainText())
    data["settings"]["noteTitle"] = "Environment updated"
    window.environment.edit.setPlainText(json.dumps(data))
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        assert window.environment.apply()
    assert window.doc.config.settings.note_title == "Environment updated"
    window.environment.edit.setPlainText('{"settings": {"inputMode": "sideways"}}')
    assert not window.environment.apply()
    assert "inputMode" in window.environment.status.text()
    window.undo_action.trigger()
    assert window.doc.config.settings.note_title == "环境已更新"


# ---------------------------------------------------------------------------------- files

def test_save_keeps_the_format_and_a_backup(qtbot: Any, tmp_path: Path) -> None:
    path = tmp_path / "persona.yaml"
    shutil.copy(sample_path("yaml"), path)
    window = ZonesEditorWindow()
    qtbot.addWidget(window)
    errors: list[str] = []
    window.report_error = lambda title, text: errors.append(text)
    assert window.open_path(path)
    assert window.windowTitle().startswith("persona.yaml")
    window.select_block(0)
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        window.doc.set_text(window.doc.config.blocks[0], "你是 {character_name}。")
    assert window.save()
    assert not window.doc.dirty and not errors
    assert (tmp_path / "persona.yaml.bak").read_bytes() == sample_path("yaml").read_bytes()
    assert load_config(path).blocks[0].content == "你是 {character_name}。"
    assert path.read_text(encoding="utf-8").startswith("blocks:")

    # TOML cannot hold a null in a list: the error is reported and the document stays dirty.
    toml = tmp_path / "persona.toml"
    shutil.copy(sample_path("toml"), toml)
    assert window.open_path(toml)
    date = window.doc.config.variable("date")
    index = window.doc.config.variables.index(date)
    import dataclasses

    window.doc.replace_variable(index, dataclasses.replace(date, values=["a", None]), "null")
    assert not window.save()
    assert errors and "TOML" in errors[0] and window.doc.dirty
    assert window.save_as(tmp_path / "persona.json")
    assert window.doc.path == tmp_path / "persona.json" and not window.doc.dirty
    assert load_config(tmp_path / "persona.json").variable("date").values == ["a", None]


def test_sample_opens_untitled_and_save_asks_for_a_path(qtbot: Any, editor: ZonesEditorWindow, tmp_path: Path) -> None:
    window = editor
    assert window.doc.path is None and "(sample)" in window.windowTitle()
    asked: list[str] = []

    def ask(suggested: str) -> str:
        asked.append(suggested)
        return str(tmp_path / "mine.toml")

    window.ask_save_path = ask
    assert window.save()
    assert asked == ["group-chat.json"]
    assert load_config(tmp_path / "mine.toml").blocks[0].id == "core:identity"
    assert not (tmp_path / "mine.toml.bak").exists()


def test_save_as_never_replaces_a_database_or_a_folder(qtbot: Any, editor: ZonesEditorWindow, tmp_path: Path) -> None:
    import hashlib
    import sqlite3

    database = tmp_path / "covel.db"
    with sqlite3.connect(database) as con:
        con.execute("CREATE TABLE trace_events (id TEXT)")
    con.close()
    digest = hashlib.sha256(database.read_bytes()).hexdigest()
    (tmp_path / "folder").mkdir()
    listing = sorted(p.name for p in tmp_path.iterdir())
    errors: list[str] = []
    editor.report_error = lambda _title, text: errors.append(text)
    assert not editor.save_as(database)
    assert not editor.save_as(tmp_path / "folder")
    assert len(errors) == 2 and "SQLite database" in errors[0] and "folder" in errors[1]
    assert hashlib.sha256(database.read_bytes()).hexdigest() == digest
    assert sorted(p.name for p in tmp_path.iterdir()) == listing
    assert editor.doc.path is None


def test_close_with_unsaved_edits_asks(qtbot: Any, editor: ZonesEditorWindow) -> None:
    window = editor
    window.select_block(0)
    type_at_end(qtbot, window, "x")
    answers = ["cancel"]
    asked: list[int] = []

    def ask() -> str:
        asked.append(1)
        return answers.pop(0)

    window.ask_save_changes = ask
    assert not window.close()
    assert window.isVisible() and len(asked) == 1
    answers.append("discard")
    assert window.close()
    assert len(asked) == 2


def test_bad_file_is_reported_and_the_document_is_kept(qtbot: Any, editor: ZonesEditorWindow, tmp_path: Path) -> None:
    window = editor
    bad = tmp_path / "bad.json"
    bad.write_text('{"blocks": [{"id": "x", "zone": "system", "order": "high"}]}', encoding="utf-8")
    errors: list[str] = []
    window.report_error = lambda title, text: errors.append(text)
    assert not window.open_path(bad)
    assert errors and "'order' must be a number" in errors[0]
    assert window.doc.config.blocks[0].id == "core:identity"


def test_a_covel_template_that_is_a_named_pipe_is_refused_without_reading(qtbot: Any, editor: ZonesEditorWindow,
                                                                         tmp_path: Path) -> None:
    # Read as configs are: a FIFO would block the GUI thread forever.
    fifo = tmp_path / "RUNTIME.md"
    os.mkfifo(fifo)
    errors: list[str] = []
    editor.report_error = lambda title, text: errors.append(text)
    assert not editor.open_path(fifo)
    assert errors == [f"{fifo} is a named pipe (FIFO), not a regular file: give the path of a file"]
    assert editor.doc.config.blocks[0].id == "core:identity"


# ---------------------------------------------------------------------------------- ruler

def test_ruler_marks_ties_and_selects_on_click(qtbot: Any, editor: ZonesEditorWindow) -> None:
    window = editor
    ruler = window.ruler
    system = [b for b in window.doc.config.blocks if b.zone == "system"]
    assert len(ruler.markers) == len(system)
    assert not any(m.tie for m in ruler.markers)
    index = block_index(window, "tools:reminder")
    window.select_block(index)
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        window.form.order_spin.setValue(120)
    ties = [m.block_id for m in ruler.markers if m.tie]
    assert ties == ["tools:search", "tools:reminder"]
    assert any(d.code == dg.ORDER_TIE for d, i in window.problems.rows if i == index)
    # Labels never overlap, and the markers sit in their band.
    labels = sorted(m.label_y for m in ruler.markers)
    assert all(b - a >= ruler.fontMetrics().height() - 0.01 for a, b in zip(labels, labels[1:]))
    marker = ruler.marker_of(block_index(window, "safety:policy"))
    assert marker.y == pytest.approx(ruler.y_of(-100))
    ruler.grab()  # paints the labels' hit areas
    target = ruler.marker_of(block_index(window, "platform:qq"))
    QTest.mouseClick(ruler, Qt.MouseButton.LeftButton, pos=QPointF(ruler.width() - 20, target.label_y).toPoint())
    assert window.doc.config.blocks[window.current].id == "platform:qq"
    assert "platform" in ruler.tooltip_at(ruler.width() - 20, target.label_y)


# ---------------------------------------------------------------------------------- theme

def test_severity_colours_follow_the_theme(qtbot: Any, editor: ZonesEditorWindow) -> None:
    light, dark = palette_for("light"), palette_for("dark")
    for severity in dg.SEVERITIES:
        assert severity_colour(severity, light) != severity_colour(severity, dark)
    window = editor
    window.select_block(block_index(window, "preset:persona"))
    assert [c for _s, _e, c in window.editor.squiggles()] == [severity_colour(dg.WARNING, light)]
    window.setPalette(dark)
    window.refresh()
    assert [c for _s, _e, c in window.editor.squiggles()] == [severity_colour(dg.WARNING, dark)]
    assert window.editor.highlighter.formats["variable"].foreground().color() != \
        window.editor.highlighter.formats["brace"].foreground().color()


# ---------------------------------------------------------------------------------- Covel mode

RUNTIME = """---
id: narrator
---
你在 {{ world.name }}。玩家说：{{ player.message }}
{{ world.nmae }}
<scene>
{{ world.description }}
</scene>
"""


def test_covel_template_mode(qtbot: Any, editor: ZonesEditorWindow, tmp_path: Path) -> None:
    window = editor
    path = tmp_path / "RUNTIME.md"
    path.write_text(RUNTIME, encoding="utf-8")
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        assert window.open_path(path)
    assert not window.left.isVisible() and not window.form.isVisible()
    assert window.tabs.isTabVisible(4) and not window.tabs.isTabVisible(1)
    codes = sorted(d.code for d, _i in window.problems.rows)
    assert codes == sorted([dg.COVEL_VOLATILE_IN_SYSTEM, dg.COVEL_UNKNOWN_VARIABLE, dg.COVEL_ESCAPED_IN_TAG])
    unknown = next(d for d, _i in window.problems.rows if d.code == dg.COVEL_UNKNOWN_VARIABLE)
    window.jump_to(unknown, None)
    assert window.editor.textCursor().selectedText() == "world.nmae"
    assert "world.name" in window.editor.tooltip_text(unknown.start_utf16)
    assert "灯岭镇" in window.preview.shown and "id: narrator" not in window.preview.shown
    # Typing works the same way, and saving writes the text with a backup.
    window.editor.setFocus()
    window.editor.moveCursor(window.editor.textCursor().MoveOperation.End)
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        QTest.keyClicks(window.editor, "{{ session.id }}")
    assert window.doc.covel.content.endswith("{{ session.id }}")
    assert "demo-lantern-deepseek" in window.preview.shown
    assert window.save()
    assert path.read_text(encoding="utf-8") == RUNTIME + "{{ session.id }}"
    assert (tmp_path / "RUNTIME.md.bak").read_text(encoding="utf-8") == RUNTIME
    # The catalog inserts a variable at the cursor.
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        window.catalog.insertRequested.emit("world.tags")
    assert window.doc.covel.content.endswith("{{ world.tags }}")


# ---------------------------------------------------------------------------------- value cells

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


@given(json_values)
def test_value_cells_read_back_as_the_same_value(value: Any) -> None:
    assert parse_cell(cell_text(value)) == value
    assert type(parse_cell(cell_text(value))) is type(value)


def test_value_cells_examples() -> None:
    assert cell_text("小灯") == "小灯" and parse_cell("小灯") == "小灯"
    assert cell_text("3") == '"3"' and parse_cell("3") == 3
    assert cell_text("") == '""' and parse_cell("") is UNDEFINED
    assert cell_text(UNDEFINED) == ""
    assert parse_cell('[{"name": "阿满"}]') == [{"name": "阿满"}]


def test_every_editor_string_is_translated() -> None:
    """The editor lives in a subpackage of ``ui``; its strings must be in the Chinese .ts too."""
    from resources.translations.update_ts import UI_DIR, extract, read_ts

    translations = read_ts()
    pairs = extract(UI_DIR / "zones_editor")
    assert len(pairs) > 150
    missing = [(ctx, text) for ctx, text in pairs if not translations.get((ctx, text))]
    assert missing == []


# ---------------------------------------------------------------------------------- hostile input

def test_deeply_nested_blocks_render_and_lint_in_the_editor(qtbot: Any, editor: ZonesEditorWindow) -> None:
    """5,000 nested {if} and 3,000 nested {for} used to raise RecursionError and blank the editor."""
    window = editor
    index = block_index(window, "core:identity")
    window.select_block(index)
    block = window.doc.config.blocks[index]
    assert block.template
    deep = "{if true}" * 5000 + "deep" + "{/if}" * 5000 + "{for c in [1]}" * 3 + "{for i in xs}" * 3000 + "{/for}" * 3000
    with qtbot.waitSignal(window.refreshed, timeout=20000):
        window.doc.set_text(block, deep)
    assert window.result is not None and window.result.error is None
    assert "deep" in window.preview.shown
    assert not any(d.code == dg.INTERNAL_ERROR for d, _i in window.rows)
    assert window.problems.counts()[dg.ERROR] >= 1  # the malformed {for c in [1]} tags
    assert window.editor.text() == deep


def test_an_engine_failure_is_shown_not_blank(qtbot: Any, editor: ZonesEditorWindow, tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """If check or render ever raises, the problems list and the preview say so."""
    import ui.zones_editor.window as window_module

    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RecursionError("maximum recursion depth exceeded")

    window = editor
    monkeypatch.setattr(window_module, "check", broken)
    monkeypatch.setattr(window_module, "render", broken)
    monkeypatch.setattr(window_module, "simulate_turns", broken)
    window.tabs.setCurrentWidget(window.simulator)
    window._simulation_stale = True
    window.refresh()
    codes = [d.code for d, _i in window.rows]
    assert codes.count(dg.INTERNAL_ERROR) == 3
    assert any("RecursionError" in d.message for d, _i in window.rows)
    assert window.result.error is not None and window.result.error.code == dg.INTERNAL_ERROR
    assert "RecursionError" in window.preview.shown
    assert window.problems.counts()[dg.ERROR] >= 2

    # Covel mode: the same guard.
    body = tmp_path / "RUNTIME.md"
    body.write_text("hello {{ world.name }}\n", encoding="utf-8")
    monkeypatch.setattr(window_module, "check_covel", broken)
    monkeypatch.setattr(window_module, "interpolate", broken)
    assert window.open_path(body)
    window.refresh()
    assert [d.code for d, _i in window.rows] == [dg.INTERNAL_ERROR, dg.INTERNAL_ERROR]
    assert "RecursionError" in window.preview.shown


def test_a_line_of_thousands_of_problems_lists_them_all_and_draws_the_worst(qtbot: Any,
                                                                           editor: ZonesEditorWindow) -> None:
    from ui.zones_editor.template_edit import MAX_SQUIGGLES

    window = editor
    index = block_index(window, "core:identity")
    window.select_block(index)
    block = window.doc.config.blocks[index]
    text = "😀{x y =}" * 5000 + "{ 3 }" * 10
    with qtbot.waitSignal(window.refreshed, timeout=60000):
        window.doc.set_text(block, text)
    mine = [d for d, i in window.rows if i == index]
    assert len(mine) == 5010
    assert len(window.problems.rows) == len(window.rows)
    squiggles = window.editor.squiggles()
    assert len(squiggles) == MAX_SQUIGGLES
    # The errors come first: the ten warnings at the end of the line are not drawn.
    assert max(end for _s, end, _c in squiggles) <= utf16_len("😀{x y =}" * 5000)
