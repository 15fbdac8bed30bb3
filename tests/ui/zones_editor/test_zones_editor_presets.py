"""The blocks editor on ChatLuna preset files: the templates as blocks, live diagnostics in the
renderer dialect, the messages preview, undo, saving, and the file dialog's filter."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtTest import QTest
from test_zones_editor import type_at_end, type_text

from inspector.jsjson import utf16_len
from inspector.zones import diagnostic as dg
from inspector.zones.presets import load_preset
from resources import resource_path
from ui.zones_editor import ZonesEditorWindow, open_zones_editor
from ui.zones_editor.document import PRESET_MODE
from ui.zones_editor.problems import severity_colour
from ui.zones_editor.window import file_filters

FOX = resource_path("samples", "chatluna", "tea-house-fox.yml")
CATGIRL = Path(__file__).parents[2] / "inspector" / "zones" / "chatluna_presets" / "catgirl.yml"


@pytest.fixture
def fox(qtbot: Any, tmp_path: Path) -> Iterator[ZonesEditorWindow]:
    path = tmp_path / "fox.yml"
    shutil.copy(FOX, path)
    window = open_zones_editor(None, path, report_error=lambda t, x: pytest.fail(f"error dialog: {t}: {x}"))
    qtbot.addWidget(window)
    window.ask_save_changes = lambda: "discard"
    qtbot.waitExposed(window)
    window.refresh()
    yield window
    window.doc.undo_stack.setClean()


def test_a_preset_opens_as_its_templates(fox: ZonesEditorWindow) -> None:
    window = fox
    assert window.doc.mode == PRESET_MODE
    blocks = window.preset_blocks
    rows = [(blocks.topLevelItem(i).text(0), blocks.topLevelItem(i).text(1)) for i in range(blocks.topLevelItemCount())]
    assert rows[:6] == [("Prompt 1", "system · description"), ("Prompt 2", "system · personality"),
                        ("Prompt 3", "system · scenario"), ("Prompt 4", "assistant · first_message"),
                        ("User input format", "user"), ("Author's note", "user")]
    assert rows[6] == ("Lore 1", "灯会, 花灯, lantern")
    assert len(rows) == 12
    assert window.editor.text() == load_preset(FOX).prompts[0].content
    assert window.editor.highlighter.language == "chatluna-renderer"
    assert window.tabs.currentWidget() is window.preset_preview
    assert not window.left.isVisible() and blocks.isVisible()
    assert not window.add_system_action.isEnabled()
    assert "Prompt 1 (prompts[0]) · system · description" in window.preset_label.text()
    assert window.rows == []


def test_the_preview_shows_the_messages_in_chatlunas_order(qtbot: Any, fox: ZonesEditorWindow) -> None:
    window = fox
    text = window.preset_preview.view.toPlainText()
    assert text.startswith("1. user · lore entries 5 · before_char_defs\n茶馆今晚的茶单")
    assert "2. system · prompt 1 · description\n你是香草，" in text
    assert text.rstrip().endswith("6. user · user input\n[Alice（42）] 你好")
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        type_text(window.preset_preview.input, "灯会")
    text = window.preset_preview.view.toPlainText()
    assert "user · lore entries 1, 2 · after_char_defs" in text
    assert "Lore entries activated: 5, 1, 2." in window.preset_preview.summary.text()
    assert not window.doc.dirty  # trying an input is not an edit of the file


def test_typing_gives_live_diagnostics_and_undo(qtbot: Any, fox: ZonesEditorWindow) -> None:
    window = fox
    type_at_end(qtbot, window, "{shout(name)}{if x}")
    content = window.doc.preset.slots[0].content
    assert content.endswith("{shout(name)}{if x}")
    codes = {d.code for d, i in window.rows if i == 0}
    assert {"unknown-function", "parse-error"} <= codes
    start = utf16_len(content[:content.index("shout")])
    error = severity_colour(dg.ERROR, window.editor.palette())
    assert any(s == start and c == error for s, _e, c in window.editor.squiggles())
    assert window.preset_blocks.topLevelItem(0).icon(0).isNull() is False
    assert window.doc.dirty
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        window.undo_action.trigger()
    assert window.doc.preset.slots[0].content == load_preset(FOX).prompts[0].content
    assert window.rows == []


def test_a_problem_in_another_block_is_one_activation_away(qtbot: Any, fox: ZonesEditorWindow) -> None:
    window = fox
    window.select_block(4)  # the user-input format
    window.editor.selectAll()
    with qtbot.waitSignal(window.refreshed, timeout=2000):
        QTest.keyClicks(window.editor, "{sender} hi")
    window.select_block(0)
    row = next(r for r, (d, _i) in enumerate(window.problems.rows) if d.code == "input-missing-prompt")
    item = window.problems.topLevelItem(row)
    window.problems.itemActivated.emit(item, 1)
    assert window.current == 4 and window.editor.text() == "{sender} hi"


def test_saving_writes_a_preset_chatluna_reads_the_same(qtbot: Any, fox: ZonesEditorWindow) -> None:
    window = fox
    window.select_block(1)
    type_at_end(qtbot, window, "\n{if is_private}私聊{/if}".replace("\n", ""))
    assert window.save()
    saved = load_preset(window.doc.path)
    assert saved.prompts[1].content.endswith("{/if}{if is_private}私聊{/if}")
    assert saved.prompts[0] == load_preset(FOX).prompts[0]
    assert saved.lore_entries == load_preset(FOX).lore_entries
    assert saved.load_diagnostics == ()
    assert not window.doc.dirty
    assert window.doc.path.with_name("fox.yml.bak").exists() or any(window.doc.path.parent.glob("*.bak"))


def test_a_preset_is_only_saved_as_yml(qtbot: Any, fox: ZonesEditorWindow, tmp_path: Path) -> None:
    window = fox
    errors: list[str] = []
    window.report_error = lambda title, text: errors.append(text)
    assert not window.save_as(tmp_path / "fox.json")
    assert errors and "a ChatLuna preset is saved as a .yml file" in errors[0]
    assert not (tmp_path / "fox.json").exists()


def test_a_real_preset_and_the_open_filter(qtbot: Any) -> None:
    window = open_zones_editor(None, CATGIRL, report_error=lambda t, x: pytest.fail(f"{t}: {x}"))
    qtbot.addWidget(window)
    window.refresh()
    assert window.preset_blocks.topLevelItemCount() == 3
    assert "用户[Alice,42]说: 你好" in window.preset_preview.view.toPlainText()
    assert "ChatLuna presets (*.yml *.yaml)" in file_filters()
    window.doc.undo_stack.setClean()


def test_a_zones_config_after_a_preset_shows_the_blocks_again(qtbot: Any, fox: ZonesEditorWindow) -> None:
    window = fox
    assert window.open_path(None)
    assert window.doc.mode == "zones"
    assert window.left.isVisible() and not window.preset_blocks.isVisible()
    assert window.tabs.currentWidget() is window.preview
    assert window.editor.highlighter.language == "zones"


def test_a_zones_config_in_the_renderer_dialect_is_highlighted_as_it(qtbot: Any, tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text('{"settings": {"dialect": "chatluna-renderer"}, "blocks": [{"id": "a", "zone": "system", '
                    '"template": true, "content": "{if a}\\n{user.name}\\n{/if}"}]}', encoding="utf-8")
    window = open_zones_editor(None, path, report_error=lambda t, x: pytest.fail(f"{t}: {x}"))
    qtbot.addWidget(window)
    window.refresh()
    assert window.doc.mode == "zones"
    assert window.editor.highlighter.language == "chatluna-renderer"
    assert window.editor.text() == "{if a}\n{user.name}\n{/if}"
