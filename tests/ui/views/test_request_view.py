"""The request view: loading, anatomy trees, text pane chips and highlighting, provider attempts,
copy and export, keyboard find, stale results, errors."""

from __future__ import annotations

import errno
import hashlib
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from inspector import views
from inspector.covel import markers
from inspector.highlight import SENTINEL_CHIP
from ui.views.request_view import RequestPickerDialog, RequestView


def anthropic_narrator(store: Any) -> str:
    return next(r["eventId"] for r in views.request_rows(store)
                if r["protocol"] == "anthropic-messages-v1" and r["runtimeId"] == "narrator/main")


def load(qtbot: Any, view: RequestView, event_id: str) -> None:
    with qtbot.waitSignal(view.loaded, timeout=20000):
        view.show_request(event_id)


def labels(model: Any) -> list[str]:
    out: list[str] = []
    model.find(lambda n: out.append(n.label) or False)
    return out


def test_selection_fills_the_three_trees(qtbot: Any, view: RequestView, store: Any) -> None:
    view.show_request(anthropic_narrator(store))
    qtbot.waitUntil(lambda: view.history_section.model.rowCount() > 0, timeout=20000)
    stack = view.stack_section.model
    assert stack.find(lambda n: n.is_breakpoint).isValid()
    bp = stack.find(lambda n: n.is_breakpoint)
    assert "cache breakpoint" in bp.data()
    assert "<runtime-inputs>" in labels(view.context_section.model)
    assert "current input" in labels(view.history_section.model)
    # "Turn 1 · narrator/main · step 1 · <short id>": named by number, the full id a click away.
    assert view.title.text().startswith("Turn ") and "narrator/main" in view.title.text()
    assert view.title.toolTip() == view.detail.record.event_id
    assert "claude" in view.facts.text()


def test_selecting_a_row_shows_its_text(qtbot: Any, view: RequestView, store: Any) -> None:
    load(qtbot, view, anthropic_narrator(store))
    tree = view.context_section.tree
    idx = view.context_section.model.find(lambda n: n.label == "<runtime-inputs>")
    tree.setCurrentIndex(idx)
    assert view.text_pane.text().startswith("<runtime-inputs>")
    assert "<runtime-inputs>" in view.text_pane.caption.text()
    # Only one tree holds a selection at a time.
    assert not view.stack_section.tree.selectionModel().hasSelection()


def test_sentinel_chip_is_visible_and_copy_keeps_the_sentinel(qtbot: Any, view: RequestView, store: Any) -> None:
    load(qtbot, view, anthropic_narrator(store))
    assert view.select_node(lambda n: n.kind == "system-prompt")
    shown = view.text_pane.shown_text()
    assert SENTINEL_CHIP in shown
    assert "\ue000" not in shown
    editor = view.text_pane.editor
    editor.selectAll()
    editor.copy()
    assert markers.CACHE_SENTINEL in QGuiApplication.clipboard().text()
    # The kernel messages carry the raw sentinel; the pane shows it as a chip too.
    assert SENTINEL_CHIP in view.kernel_pane.shown_text()


def test_highlighter_applies_formats(qtbot: Any, view: RequestView, store: Any) -> None:
    load(qtbot, view, anthropic_narrator(store))
    view.select_node(lambda n: n.kind == "system-prompt")
    doc = view.text_pane.editor.document()
    block = doc.begin()
    seen: dict[str, Any] = {}
    while block.isValid():
        for fr in block.layout().formats():
            fmt = fr.format
            seen[block.text()[fr.start:fr.start + fr.length]] = (fmt.background().color().name(), fmt.fontWeight())
        block = block.next()
    chip_bg, _weight = seen[SENTINEL_CHIP]
    assert chip_bg == view.text_pane.highlighter.format_for("sentinel").background().color().name()
    assert seen["[RUNTIME]"][1] > 400
    assert any(t.startswith("<world-lore>") for t in seen)


def test_provider_tabs_match_transport_attempts(qtbot: Any, view: RequestView, store: Any, covel_db: Path) -> None:
    with sqlite3.connect(covel_db) as conn:
        eid = conn.execute("select id from trace_events where type = 'llm.calling' and payload like ?",
                           ('%"bodyRef"%',)).fetchone()[0]
    load(qtbot, view, eid)
    detail = view.detail
    assert len(detail.attempts) == 2
    assert view.provider_tabs.count() == len(detail.attempts)
    first, second = view.provider_panes
    assert "429" in view.provider_tabs.tabText(0)
    assert "retry reason" in first.caption.text()
    assert "bodyRef" in second.caption.text()
    assert "complete body" in second.caption.text()
    assert second.text().startswith("{\n  ")


def test_response_and_raw_event_tabs(qtbot: Any, view: RequestView, store: Any) -> None:
    eid = anthropic_narrator(store)
    load(qtbot, view, eid)
    assert view.detail.response["text"] in view.response_pane.text()
    assert f'"id": "{eid}"' in view.raw_pane.text()


def test_copy_markdown_json_and_body(qtbot: Any, view: RequestView, store: Any) -> None:
    load(qtbot, view, anthropic_narrator(store))
    clipboard = QGuiApplication.clipboard()
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert clipboard.text().startswith("# Request ")
    assert SENTINEL_CHIP in clipboard.text()
    view.copy_json_action.trigger()
    assert clipboard.text().lstrip().startswith("{")
    assert '"anatomy"' in clipboard.text()
    view.copy_body_action.trigger()
    assert '"messages"' in clipboard.text()


def test_export_writes_file(qtbot: Any, view: RequestView, store: Any, tmp_path: Path) -> None:
    load(qtbot, view, anthropic_narrator(store))
    target = tmp_path / "anatomy.md"
    view.save_path = lambda _title, _default, _filters: str(target)
    assert view.export("markdown") == target
    assert target.read_text(encoding="utf-8").startswith("# Request ")
    body = view.export_to("provider", tmp_path / "body.json")
    assert body is not None and '"model"' in body.read_text(encoding="utf-8")
    assert view.export_to("json", tmp_path / "missing" / "x.json") is None
    assert "Cannot write" in view.message.text()


def test_ctrl_f_opens_find_in_the_text_pane(qtbot: Any, view: RequestView, store: Any) -> None:
    load(qtbot, view, anthropic_narrator(store))
    view.select_node(lambda n: n.kind == "system-prompt")
    editor = view.text_pane.editor
    editor.setFocus()
    qtbot.keyClick(editor, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert view.text_pane.find_bar.isVisible()
    qtbot.keyClicks(view.text_pane.find_edit, "RUNTIME")
    first = editor.textCursor().selectionStart()
    assert editor.textCursor().selectedText() == "RUNTIME"
    qtbot.keyClick(view.text_pane.find_edit, Qt.Key.Key_Return)
    assert editor.textCursor().selectionStart() > first
    qtbot.keyClick(view.text_pane.find_edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert editor.textCursor().selectionStart() == first
    qtbot.keyClick(view.text_pane.find_edit, Qt.Key.Key_Escape)
    assert not view.text_pane.find_bar.isVisible()
    # From a tree, Ctrl+F also finds in the text being read.
    view.stack_section.tree.setFocus()
    qtbot.keyClick(view.stack_section.tree, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert view.text_pane.find_bar.isVisible()


def test_wrap_toggle(qtbot: Any, view: RequestView) -> None:
    # JSON tabs wrap by default now: a prompt is one long string value.
    pane = view.kernel_pane
    assert pane.wrap_box.isChecked()
    assert pane.editor.lineWrapMode() == pane.editor.LineWrapMode.WidgetWidth
    pane.wrap_box.setChecked(False)
    assert pane.editor.lineWrapMode() == pane.editor.LineWrapMode.NoWrap


def test_stale_result_is_dropped(qtbot: Any, view: RequestView, store: Any) -> None:
    rows = views.request_rows(store)
    first, second = rows[0]["eventId"], anthropic_narrator(store)
    view.show_request(first)
    with qtbot.waitSignal(view.loaded, timeout=20000) as blocker:
        view.show_request(second)
    assert blocker.args == [second]
    qtbot.wait(200)
    assert view.detail.row["eventId"] == second


def test_unknown_id_and_no_store_show_inline_errors(qtbot: Any, view: RequestView) -> None:
    with qtbot.waitSignal(view.loadFailed, timeout=10000):
        view.show_request("no-such-event")
    assert view.message.isVisible() and "not a model request" in view.message.text()
    assert not view.copy_button.isEnabled()
    empty = RequestView(view.tasks, lambda: None)
    qtbot.addWidget(empty)
    empty.show_request("x")
    assert "No database" in empty.message.text()


def test_failure_in_background_is_shown_inline(qtbot: Any, view: RequestView, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*_a: Any, **_k: Any) -> None:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(views, "request_detail", boom)
    with qtbot.waitSignal(view.loadFailed, timeout=10000):
        view.show_request("whatever")
    assert "disk on fire" in view.message.text()


def test_picker_dialog_lists_session_requests(qtbot: Any, store: Any) -> None:
    eid = anthropic_narrator(store)
    rows = views.compare_candidates(store, eid)
    dialog = RequestPickerDialog(rows, "narrator/main")
    qtbot.addWidget(dialog)
    assert dialog.list.topLevelItemCount() == len(rows)
    picked = dialog.selected_id()
    assert next(r for r in rows if r["eventId"] == picked)["runtimeId"] == "narrator/main"
    dialog.filter.setText("guide/main")
    visible = [dialog.list.topLevelItem(i) for i in range(dialog.list.topLevelItemCount())
               if not dialog.list.topLevelItem(i).isHidden()]
    assert visible and all(i.text(1) == "guide/main" for i in visible)


def test_title_counts_steps_and_attempts_from_one_like_the_navigator(qtbot: Any, view: RequestView,
                                                                     store: Any) -> None:
    row = next(r for r in views.request_rows(store) if r["step"] == 0 and r["attempt"] == 0)
    load(qtbot, view, row["eventId"])
    assert "step 1" in view.title.text() and "step 0" not in view.title.text()
    # The turn is named by its number, as the navigator counts executions.
    from inspector.ids import turn_numbers

    number = turn_numbers(store, row["sessionId"])[row["turnId"]]
    assert view.title.text().startswith(f"Turn {number} ")


def test_the_short_id_in_the_title_copies_the_full_id(qtbot: Any, view: RequestView, store: Any) -> None:
    eid = anthropic_narrator(store)
    load(qtbot, view, eid)
    from PySide6.QtGui import QTextDocument

    doc = QTextDocument()
    doc.setHtml(view.title.text())
    shown = doc.toPlainText()  # what the user reads
    assert shown.endswith(eid[:8]) and eid not in shown
    link = view.title.text().split('href="')[1].split('"')[0]
    view.title.linkActivated.emit(link)
    assert QGuiApplication.clipboard().text() == eid


def test_other_tabs_are_filled_in_the_background_when_shown(qtbot: Any, view: RequestView, store: Any) -> None:
    eid = anthropic_narrator(store)
    load(qtbot, view, eid)
    # Only the anatomy is built on selection; the raw event waits until its tab is shown.
    assert view.raw_pane.pending is not None
    view.tabs.setCurrentWidget(view.raw_pane)
    qtbot.waitUntil(lambda: view.raw_pane.pending is None, timeout=20000)
    assert f'"id": "{eid}"' in view.raw_pane.editor.toPlainText()


def test_long_text_shows_its_beginning_until_show_all(qtbot: Any) -> None:
    from inspector.highlight import SHOW_LIMIT
    from ui.views.text_pane import TextPane

    pane = TextPane()
    qtbot.addWidget(pane)
    line = '{"key": "value", "n": 1}\n'
    text = line * (SHOW_LIMIT // len(line) + 100)
    pane.set_content(text, "json")
    assert pane.truncated and not pane.show_all_button.isHidden()
    assert len(pane.editor.toPlainText()) <= SHOW_LIMIT
    assert pane.text() == text  # copying and exporting still get the whole text
    pane.show_all()
    assert not pane.truncated and pane.show_all_button.isHidden()
    assert pane.editor.toPlainText() == text


def _state(folder: Path, path: Path) -> tuple[str, list[str]]:
    return hashlib.sha256(path.read_bytes()).hexdigest(), sorted(os.listdir(folder))


def test_export_over_the_open_database_is_refused(qtbot: Any, view: RequestView, store: Any,
                                                   covel_db: Path) -> None:
    load(qtbot, view, anthropic_narrator(store))
    reported: list[tuple[str, str]] = []
    before = _state(covel_db.parent, covel_db)
    for target in (covel_db, covel_db.with_name("covel.db-wal")):
        view.save_path = lambda _title, _default, _filters, target=target: str(target)
        assert view.export("markdown") is None
        assert "covel.db" in view.message.text() and view.message.isVisible()
        assert _state(covel_db.parent, covel_db) == before
    # In the main window the refusal goes to its report_error (a dialog there).
    view.report_error = lambda title, text: reported.append((title, text))  # type: ignore[attr-defined]
    assert view.export_to("json", covel_db) is None
    assert reported == [("Export Request", f"cannot write {covel_db}: it is the input {covel_db}; "
                                          "choose another output file")]
    assert _state(covel_db.parent, covel_db) == before


def test_export_on_a_full_disk_keeps_the_old_file_and_says_so_once(
        qtbot: Any, view: RequestView, store: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import inspector.files as files_module

    load(qtbot, view, anthropic_narrator(store))
    target = tmp_path / "anatomy.md"
    target.write_text("the old export\n", encoding="utf-8")
    before = _state(tmp_path, target)

    def full(_fd: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(files_module.os, "fsync", full)
    reported: list[tuple[str, str]] = []
    view.report_error = lambda title, text: reported.append((title, text))  # type: ignore[attr-defined]
    assert view.export_to("markdown", target) is None
    monkeypatch.undo()
    assert reported == [("Export Request", f"Cannot write {target}: {os.strerror(errno.ENOSPC)}")]
    assert _state(tmp_path, target) == before


def test_header_facts_break_between_facts_only(qtbot: Any, view: RequestView, store: Any) -> None:
    load(qtbot, view, anthropic_narrator(store))
    facts = list(view.header._facts)
    assert len(facts) >= 4
    for width in (420, 700, 1400):
        view.resize(width, 700)
        qtbot.waitUntil(lambda w=width: view.header._facts_width == view.facts.width(), timeout=3000)
        text = view.facts.text()
        lines = text.split("<br>")
        # Each fact whole on one line, in order; fewer lines when the view is wider.
        assert [f for line in lines for f in line.split(" &nbsp;│&nbsp; ") if f] == facts
        if width == 420:
            assert len(lines) >= 3
        if width == 1400:
            assert len(lines) <= 2


def test_a_long_pane_caption_is_elided_with_the_whole_text_in_its_tooltip(qtbot: Any) -> None:
    from ui.views.text_pane import TextPane

    pane = TextPane()
    qtbot.addWidget(pane)
    pane.resize(300, 200)
    pane.show()
    caption = "message 1 · system · worldBookBefore · 485 tokens · and the rest of a long caption"
    pane.set_content("text", "prompt", caption)
    qtbot.waitUntil(lambda: pane.caption.toolTip() == caption, timeout=3000)
    assert pane.caption.text() == caption
    shown = super(type(pane.caption), pane.caption).text()
    assert shown.endswith("…") and len(shown) < len(caption)
    pane.resize(1200, 200)
    qtbot.waitUntil(lambda: pane.caption.toolTip() == "", timeout=3000)
    assert super(type(pane.caption), pane.caption).text() == caption


def test_a_short_page_opens_one_tree_at_a_time(qtbot: Any, view: RequestView, store: Any) -> None:
    view.resize(1000, 330)  # the stepper's embedded view at 1280x720 is about this tall
    load(qtbot, view, anthropic_narrator(store))
    stack, context, history = view.sections
    assert not stack.collapsed and context.collapsed and history.collapsed
    assert stack.tree.isVisible() and not context.tree.isVisible()
    # The header keeps to one line of facts, the rest in its tooltip.
    assert view.header.compact and "<br>" not in view.facts.text() and "reported" in view.facts.toolTip()
    assert context.title.text().startswith("▸ ") and stack.title.text().startswith("▾ ")
    # The open tree shows rows, not just its column header.
    assert stack.tree.viewport().height() >= 2 * stack.tree.sizeHintForRow(0)
    qtbot.mouseClick(context.title, Qt.MouseButton.LeftButton)
    assert not context.collapsed and stack.collapsed and context.tree.isVisible()
    # Selecting a part in a closed tree opens it.
    assert view.select_node(lambda n: n.label == "current input")
    assert not history.collapsed and context.collapsed
    # Tall again: all three trees, no arrows.
    view.resize(1000, 900)
    qtbot.waitUntil(lambda: not any(s.collapsed for s in view.sections), timeout=3000)
    assert not stack.title.text().startswith(("▸", "▾"))
    assert not view.header.compact and view.facts.toolTip() == ""


def test_comparing_leaves_the_status_bar_when_the_comparison_is_shown(qtbot: Any, store: Any) -> None:
    from PySide6.QtWidgets import QMainWindow

    from ui.workers import TaskManager

    tasks = TaskManager()
    window = QMainWindow()
    qtbot.addWidget(window)
    view = RequestView(tasks, lambda: store, window)
    window.setCentralWidget(view)
    window.resize(1000, 800)
    window.show()
    rows = [r for r in views.request_rows(store)
            if r["runtimeId"] == "narrator/main" and r["protocol"] == "anthropic-messages-v1"]
    load(qtbot, view, rows[1]["eventId"])
    with qtbot.waitSignal(view.compared, timeout=20000):
        view.compare_with_previous()
        assert window.statusBar().currentMessage() == "Comparing…"
    assert window.statusBar().currentMessage() == ""
    tasks.shutdown()


def test_a_request_loads_without_building_the_tokenizer_in_the_app(qtbot: Any, view: RequestView, store: Any,
                                                                   tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The load job's counts no earlier run kept are made in the count process: the tokenizer's
    build would hold the interpreter lock, and so the GUI thread, for over 100 ms."""
    from inspector import count_process, tokens

    event_id = anthropic_narrator(store)
    expected = views.request_detail(store, event_id)  # counted in this process
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # no counts kept by an earlier run
    monkeypatch.setattr(tokens, "_cache", tokens._CountCache())
    monkeypatch.setattr(tokens, "_encodings", {})
    built: list[str] = []
    monkeypatch.setattr(tokens, "get_encoding", lambda name="o200k_base": built.append(name))
    try:
        load(qtbot, view, event_id)
    finally:
        count_process.stop()
    assert built == []
    assert view.detail.exact_counted and view.detail.total_exact == expected.total_exact
    assert [n.exact for r in view.detail.roots for n in r.walk()] == [n.exact for r in expected.roots for n in r.walk()]


def test_a_loaded_request_is_shown_in_steps_each_drawn_before_the_next(qtbot: Any, view: RequestView, store: Any,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The trees first, the first part's text on the next turn of the event loop, then the other
    tabs: one step for all stalled the window for as long as the three and their drawing took."""
    seen: list[tuple[str, bool, str, bool]] = []
    fill_text, fill_rest = view._fill_text, view._fill_rest

    def state(step: str) -> None:
        seen.append((step, view.stack_section.model.rowCount() > 0, view.text_pane.text(), view.kernel_pane.pending
                     is not None))

    monkeypatch.setattr(view, "_fill_text", lambda *args: (state("text"), fill_text(*args)))
    monkeypatch.setattr(view, "_fill_rest", lambda *args: (state("rest"), fill_rest(*args)))
    load(qtbot, view, anthropic_narrator(store))
    assert [s[0] for s in seen] == ["text", "rest"]
    assert seen[0][1] and seen[0][2] == ""  # trees filled, no text yet
    assert seen[1][2] != "" and not seen[1][3]  # the text shown, the other tabs not filled yet
    assert view.kernel_pane.pending is not None  # ...and then they are (each prepared when shown)
    assert view.text_pane.text() == seen[1][2]


def test_while_a_request_loads_the_header_keeps_its_size_and_greys_the_last_facts(qtbot: Any, view: RequestView,
                                                                                  store: Any) -> None:
    """Emptied while loading, the header shrank and grew back, and each time the page below it
    was laid out and drawn again (the first time beside the load job)."""
    first, second = [r["eventId"] for r in views.request_rows(store)][:2]
    load(qtbot, view, first)
    height, facts = view.header.sizeHint().height(), view.facts.text()
    assert view.facts.isEnabled() and view.budget_bar.isVisible() and view.budget_bar.isEnabled()
    with qtbot.waitSignal(view.loaded, timeout=20000):
        view.show_request(second)
        assert view.title.text().startswith("Loading request")
        assert view.facts.text() == facts and not view.facts.isEnabled()
        assert view.budget_bar.isVisible() and not view.budget_bar.isEnabled()
        assert view.header.sizeHint().height() == height
    assert view.facts.isEnabled() and view.budget_bar.isEnabled() and view.facts.text() != facts
    view.show_request("no-such-request")
    qtbot.waitUntil(lambda: view.title.text() == "Request not shown", timeout=20000)
    assert view.facts.isEnabled() and view.facts.text() == ""
