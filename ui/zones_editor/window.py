"""The prompt-zones editor window: blocks by zone beside the order ruler, the selected block's
fields and template with live diagnostics, the problems list, and on the right the live preview,
the turn simulator, the variables and the environment.

Every edit is a command on the document's undo stack (:mod:`.document`). After any edit the
window re-checks and re-renders on the next turn of the event loop (several edits in one turn
cost one refresh); a check plus a render of the sample takes about a millisecond, so it runs on
the GUI thread (``benchmarks/zones_editor.py`` measures keystroke to updated preview).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QItemSelectionModel, QModelIndex, QSignalBlocker, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView, QFileDialog, QHBoxLayout, QLabel, QMainWindow, QMessageBox, QSplitter, QTabWidget,
    QToolBar, QTreeView, QVBoxLayout, QWidget,
)

from inspector.jsjson import utf16_len
from inspector.zones import Block, ConfigError, Diagnostic, check, render, simulate_turns
from inspector.zones import diagnostic as dg
from inspector.zones.blocks import failed_result, simulated_turns
from inspector.zones.config import sample_path
from inspector.zones.covel_templates import check_covel, example_variables, interpolate
from inspector.zones.diagnostics import attribute, combined_problems, worst_by_block
from inspector.zones.editing import copy_block, new_block
from inspector.zones.presets import PresetCache, PresetOptions, render_preset
from ui.settings import remember_splitter
from ui.views.core_texts import core_text
from ui.views.columns import ColumnFitter

from .block_form import BlockForm
from .blocks_model import BLOCK_INDEX_ROLE, BlocksModel
from .document import (
    CONTENT, COVEL_MODE, ENVIRONMENT, INPUT, PRESET_MODE, SETTINGS, STRUCTURE, VARIABLES, ZONES_MODE, ZonesDocument,
)
from .preset_view import PresetBlocksView, PresetPreview, slot_detail, slot_title
from .preview import PreviewPane
from .problems import ProblemsView, message_text
from .ruler import OrderRuler
from .simulator import SimulatorView
from .template_edit import TemplateEdit
from .variables import CatalogView, EnvironmentEditor, VariablesView


# Answers of ``ask_save_changes``.
SAVE, DISCARD, CANCEL = "save", "discard", "cancel"
# The panes' widths (ruler and block tree, the preset's blocks, the form, the tabs) before the user
# drags them: the block tree's four columns fit their texts at 1280×720.
BLOCKS_SIZES = [700, 0, 400, 380]
# A preset's: its blocks' three columns (name, role or keywords, the text's first line) in sight.
PRESET_SIZES = [0, 400, 540, 420]


def _tr(text: str) -> str:
    return QCoreApplication.translate("ZonesEditor", text)


def file_filters() -> str:
    return _tr("Prompt configs and ChatLuna presets (*.json *.yaml *.yml *.toml);;ChatLuna presets (*.yml *.yaml);;"
               "Covel templates (*.md *.covel *.covel.txt);;All files (*)")


class ZonesEditorWindow(QMainWindow):
    """Top-level editor. ``open_path(path)``, ``save()``, ``save_as(path)``; ``refreshed`` after
    each check + render. Dialogs go through replaceable callables so tests can answer them:
    ``report_error(title, text)``, ``ask_save_changes() -> "save" | "discard" | "cancel"``,
    ``ask_open_path() -> str | None``, ``ask_save_path(suggested) -> str | None``."""

    refreshed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("zonesEditor")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        self.doc = ZonesDocument(self)
        self.report_error: Callable[[str, str], None] = self._error_dialog
        self.ask_save_changes: Callable[[], str] = self._ask_save_changes
        self.ask_open_path: Callable[[], str | None] = self._ask_open_path
        self.ask_save_path: Callable[[str], str | None] = self._ask_save_path
        self.current: int | None = None
        self._current_block: Block | None = None
        self.turn = 0
        self.turn_count: int | None = None  # None: as many as the per-turn values describe
        self.rows: list[tuple[Diagnostic, int | None]] = []
        self.result: Any = None
        self.last_refresh_ms = 0.0
        self.preset_result: Any = None
        self.preset_cache = PresetCache()
        self._simulation_stale = True
        self._variables_stale = True

        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(0)
        self._refresh_timer.timeout.connect(self.refresh)

        self._build_widgets()
        self._build_actions()
        self._connect()
        self.resize(1480, 900)
        self._update_title()

    # ------------------------------------------------------------------ construction

    def _build_widgets(self) -> None:
        self.ruler = OrderRuler(self)
        self.blocks_model = BlocksModel(self)
        self.tree = QTreeView(self)
        self.tree.setObjectName("blocksTree")
        self.tree.setModel(self.blocks_model)
        self.tree.setUniformRowHeights(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.tree.setAlternatingRowColors(True)
        # Order, role and flags as wide as their texts (ui.views.columns); the block's id takes the
        # rest (a longer one elided, whole on hover). Blocks sit one level under their zone.
        self.tree.setIndentation(12)
        self.columns = ColumnFitter(self.tree, 0, minimums={0: 90})
        left = QSplitter(Qt.Orientation.Horizontal, self)
        left.setChildrenCollapsible(False)
        left.addWidget(self.ruler)
        left.addWidget(self.tree)
        # The ruler gives way to the block tree, whose four columns need ~360 px at 1280×720.
        left.setSizes([150, 460])
        remember_splitter(left, "blocksEditor/rulerAndBlocks")
        self.left = left
        self.preset_blocks = PresetBlocksView(self)
        self.preset_blocks.hide()

        self.form = BlockForm(self)
        self.editor = TemplateEdit(self)
        self.covel_label = QLabel(self)
        self.covel_label.setObjectName("covelLabel")
        self.covel_label.setWordWrap(True)
        self.covel_label.hide()
        centre_top = QWidget(self)
        ct = QVBoxLayout(centre_top)
        ct.setContentsMargins(0, 0, 0, 0)
        ct.setSpacing(2)
        ct.addWidget(self.form)
        ct.addWidget(self.covel_label)
        self.preset_label = QLabel(self)
        self.preset_label.setObjectName("presetLabel")
        self.preset_label.setWordWrap(True)
        self.preset_label.hide()
        ct.addWidget(self.preset_label)
        ct.addWidget(self.editor, 1)
        self.problems = ProblemsView(self)
        self.problems_label = QLabel(self)
        self.problems_label.setObjectName("problemsLabel")
        problems_box = QWidget(self)
        pb = QVBoxLayout(problems_box)
        pb.setContentsMargins(0, 0, 0, 0)
        pb.setSpacing(2)
        pb.addWidget(self.problems_label)
        pb.addWidget(self.problems, 1)
        centre = QSplitter(Qt.Orientation.Vertical, self)
        centre.setChildrenCollapsible(False)
        centre.addWidget(centre_top)
        centre.addWidget(problems_box)
        centre.setSizes([600, 220])
        remember_splitter(centre, "blocksEditor/templateAndProblems")

        self.preview = PreviewPane(self)
        self.simulator = SimulatorView(self)
        self.variables = VariablesView(self)
        self.environment = EnvironmentEditor(self)
        self.catalog = CatalogView(self)
        self.tabs = QTabWidget(self)
        self.tabs.setObjectName("zonesTabs")
        # Every tab in sight: scrolled, "Environment" sat behind the arrows at 1280×720. Without
        # the arrows the tab bar's width is the pane's minimum, and the splitter gives it that.
        self.tabs.tabBar().setUsesScrollButtons(False)
        self.tabs.addTab(self.preview, _tr("Preview"))
        self.tabs.addTab(self.simulator, _tr("Turns"))
        self.tabs.addTab(self.variables, _tr("Variables"))
        self.tabs.addTab(self.environment, _tr("Environment"))
        self.tabs.addTab(self.catalog, _tr("Covel Variables"))
        self.preset_preview = PresetPreview(self)
        self.tabs.addTab(self.preset_preview, _tr("Messages"))

        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.preset_blocks)
        self.splitter.addWidget(centre)
        self.splitter.addWidget(self.tabs)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 0)
        self.splitter.setStretchFactor(2, 1)
        self.splitter.setStretchFactor(3, 1)
        self.splitter.setSizes(BLOCKS_SIZES)
        host = QWidget(self)
        hl = QHBoxLayout(host)
        hl.setContentsMargins(6, 6, 6, 0)
        hl.addWidget(self.splitter)
        self.setCentralWidget(host)
        self.counts_label = QLabel(self)
        self.counts_label.setObjectName("countsLabel")
        self.statusBar().addPermanentWidget(self.counts_label)

    def _action(self, text: str, slot: Callable[[], Any], keys: Any = None, tip: str = "") -> QAction:
        action = QAction(text, self)
        if keys is not None:
            if isinstance(keys, list):
                action.setShortcuts(keys)
            else:
                action.setShortcut(QKeySequence(keys))
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(tip)
        action.triggered.connect(lambda _checked=False: slot())
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        K = QKeySequence.StandardKey
        self.new_action = self._action(_tr("&New Config"), self.new_config, K.New, _tr("Start an empty prompt config"))
        self.open_action = self._action(_tr("&Open…"), self.choose_file, K.Open,
                                        _tr("Open a prompt config (JSON, YAML, TOML), a ChatLuna preset or a Covel "
                                            "template"))
        self.save_action = self._action(_tr("&Save"), self.save, K.Save, _tr("Save in the format it was opened in"))
        self.save_as_action = self._action(_tr("Save &As…"), self.save_as, K.SaveAs)
        self.close_action = self._action(_tr("&Close"), self.close, K.Close)
        self.undo_action = self.doc.undo_stack.createUndoAction(self, _tr("&Undo"))
        self.undo_action.setShortcuts(QKeySequence.keyBindings(K.Undo))
        self.redo_action = self.doc.undo_stack.createRedoAction(self, _tr("&Redo"))
        self.redo_action.setShortcuts(QKeySequence.keyBindings(K.Redo))
        self.addAction(self.undo_action)
        self.addAction(self.redo_action)
        self.add_system_action = self._action(_tr("Add &System Block"), lambda: self.add_block("system"),
                                              "Ctrl+Shift+1")
        self.add_context_action = self._action(_tr("Add &Context Block"), lambda: self.add_block("context"),
                                               "Ctrl+Shift+2")
        self.add_input_action = self._action(_tr("Add &Input Block"), lambda: self.add_block("input"),
                                             "Ctrl+Shift+3")
        self.duplicate_action = self._action(_tr("&Duplicate Block"), self.duplicate_block, "Ctrl+D")
        self.remove_action = self._action(_tr("&Remove Block"), self.remove_block, "Ctrl+Shift+Delete")
        self.next_problem_action = self._action(_tr("&Next Problem"), lambda: self.problems.step(True), "F8")
        self.prev_problem_action = self._action(_tr("&Previous Problem"), lambda: self.problems.step(False),
                                                "Shift+F8")
        self.next_turn_action = self._action(_tr("Next &Turn"), lambda: self.set_turn(self.turn + 1), "Ctrl+]")
        self.prev_turn_action = self._action(_tr("Previous T&urn"), lambda: self.set_turn(max(0, self.turn - 1)),
                                             "Ctrl+[")
        self.focus_editor_action = self._action(_tr("Focus &Template"), lambda: self.editor.setFocus(), "Ctrl+E")
        self.focus_blocks_action = self._action(_tr("Focus &Blocks"), lambda: self.tree.setFocus(), "Ctrl+B")

        bar = self.menuBar()
        file_menu = bar.addMenu(_tr("&File"))
        for a in (self.new_action, self.open_action, None, self.save_action, self.save_as_action, None,
                  self.close_action):
            file_menu.addSeparator() if a is None else file_menu.addAction(a)
        edit_menu = bar.addMenu(_tr("&Edit"))
        for a in (self.undo_action, self.redo_action, None, self.add_system_action, self.add_context_action,
                  self.add_input_action, self.duplicate_action, self.remove_action):
            edit_menu.addSeparator() if a is None else edit_menu.addAction(a)
        go_menu = bar.addMenu(_tr("&Go"))
        for a in (self.next_problem_action, self.prev_problem_action, None, self.next_turn_action,
                  self.prev_turn_action, None, self.focus_blocks_action, self.focus_editor_action):
            go_menu.addSeparator() if a is None else go_menu.addAction(a)

        tools = QToolBar(_tr("Main"), self)
        tools.setObjectName("zonesToolbar")
        tools.setMovable(False)
        tools.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        for a in (self.open_action, self.save_action, None, self.undo_action, self.redo_action, None,
                  self.add_system_action, self.add_context_action, self.add_input_action, self.duplicate_action,
                  self.remove_action, None, self.prev_problem_action, self.next_problem_action):
            tools.addSeparator() if a is None else tools.addAction(a)
        self.addToolBar(tools)
        self.toolbar = tools

    def _connect(self) -> None:
        self.doc.changed.connect(self._doc_changed)
        self.doc.reset.connect(self._doc_reset)
        self.doc.dirtyChanged.connect(lambda _d: self._update_title())
        self.doc.pathChanged.connect(self._update_title)
        self.tree.selectionModel().currentChanged.connect(self._tree_current_changed)
        self.ruler.blockClicked.connect(self.select_block)
        self.editor.textEdited.connect(self._text_edited)
        self.form.fieldEdited.connect(self._field_edited)
        self.problems.problemActivated.connect(self.jump_to)
        self.preview.inputEdited.connect(self.doc.set_sample_input)
        self.preview.turnChanged.connect(self.set_turn)
        self.preview.sourceRequested.connect(self._source_requested)
        self.preset_blocks.slotSelected.connect(self.select_block)
        self.preset_preview.inputEdited.connect(self.doc.set_sample_input)
        self.simulator.turnSelected.connect(self.set_turn)
        self.simulator.turnCountChanged.connect(self._turn_count_changed)
        self.variables.edited.connect(lambda i, v, label: self.doc.replace_variable(i, v, label))
        self.variables.added.connect(self.add_variable)
        self.variables.removed.connect(self.doc.remove_variable)
        self.variables.failed.connect(lambda message: self.statusBar().showMessage(message, 8000))
        self.environment.applied.connect(self._environment_applied)
        self.catalog.insertRequested.connect(lambda path: self.editor.insertPlainText("{{ " + path + " }}"))
        self.tabs.currentChanged.connect(lambda _i: self._tab_changed())

    # ------------------------------------------------------------------ files

    def open_path(self, path: str | Path | None = None) -> bool:
        """Open ``path``; None opens the shipped sample as an untitled copy. Asks about unsaved
        edits first. False if nothing was opened (cancelled, or the file is bad: reported)."""
        if not self._may_discard():
            return False
        try:
            if path is None:
                self.doc.load(sample_path(), as_sample=True)
            else:
                self.doc.load(path)
        except (ConfigError, OSError) as exc:
            self.report_error(_tr("Cannot open"), core_text(str(exc)))
            return False
        return True

    def new_config(self) -> None:
        if self._may_discard():
            self.doc.new_config()

    def choose_file(self) -> None:
        name = self.ask_open_path()
        if name:
            self.open_path(name)

    def save(self) -> bool:
        if self.doc.path is None:
            return self.save_as()
        return self._save_to(self.doc.path)

    def save_as(self, path: str | Path | None = None) -> bool:
        if path is None:
            suggested = self.doc.display_name()
            path = self.ask_save_path(suggested)
            if not path:
                return False
        return self._save_to(Path(path))

    def _save_to(self, path: Path) -> bool:
        try:
            saved = self.doc.save(path)
        except ConfigError as exc:
            self.report_error(_tr("Cannot save"), core_text(str(exc)))
            return False
        except OSError as exc:
            self.report_error(_tr("Cannot save"), _tr("{path} could not be written: {error}").format(
                path=path, error=exc.strerror or exc))
            return False
        self.statusBar().showMessage(_tr("Saved {name}").format(name=saved.name), 4000)
        return True

    def _may_discard(self) -> bool:
        if not self.doc.dirty:
            return True
        answer = self.ask_save_changes()
        if answer == SAVE:
            return self.save()
        return answer == DISCARD

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        if self._may_discard():
            event.accept()
        else:
            event.ignore()

    def _ask_save_changes(self) -> str:
        box = QMessageBox(QMessageBox.Icon.Warning, _tr("Unsaved changes"),
                          _tr("Save the changes to {name}?").format(name=self.doc.display_name()),
                          QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                          | QMessageBox.StandardButton.Cancel, self)
        box.setDefaultButton(QMessageBox.StandardButton.Save)
        answer = box.exec()
        if answer == QMessageBox.StandardButton.Save:
            return SAVE
        if answer == QMessageBox.StandardButton.Discard:
            return DISCARD
        return CANCEL

    def _ask_open_path(self) -> str | None:
        start = str(self.doc.path.parent) if self.doc.path is not None else ""
        name, _f = QFileDialog.getOpenFileName(self, _tr("Open Prompt Config, ChatLuna Preset or Covel Template"), start,
                                               file_filters())
        return name or None

    def _ask_save_path(self, suggested: str) -> str | None:
        start = str(self.doc.path) if self.doc.path is not None else suggested
        name, _f = QFileDialog.getSaveFileName(self, _tr("Save As"), start, file_filters())
        return name or None

    def _error_dialog(self, title: str, text: str) -> None:
        QMessageBox.warning(self, title, text)

    def _update_title(self) -> None:
        name = self.doc.display_name()
        if self.doc.is_sample:
            name = _tr("{name} (sample)").format(name=name)
        self.setWindowTitle(_tr("{name}[*] — {app}").format(name=name, app=_tr("Prompt Zones Editor")))
        self.setWindowModified(self.doc.dirty)
        self.setWindowFilePath(str(self.doc.path) if self.doc.path is not None else "")

    # ------------------------------------------------------------------ document events

    def _language(self) -> str:
        """The template language of the open document, for the highlighter."""
        if self.doc.mode == COVEL_MODE:
            return "covel"
        if self.doc.mode == PRESET_MODE or self.doc.config.settings.dialect == "chatluna-renderer":
            return "chatluna-renderer"
        return "zones"

    def _doc_reset(self) -> None:
        covel = self.doc.mode == COVEL_MODE
        preset = self.doc.mode == PRESET_MODE
        blocks = not covel and not preset
        # Hiding the current tab would move to whichever tab is next; choose before hiding.
        if blocks and self.tabs.currentIndex() in (4, 5):
            self.tabs.setCurrentWidget(self.preview)
        self.left.setVisible(blocks)
        self.preset_blocks.setVisible(preset)
        self.form.setVisible(blocks)
        self.covel_label.setVisible(covel)
        self.preset_label.setVisible(preset)
        for action in (self.add_system_action, self.add_context_action, self.add_input_action,
                       self.duplicate_action, self.remove_action, self.next_turn_action, self.prev_turn_action):
            action.setEnabled(blocks)
        self.tabs.setTabVisible(0, not preset)
        for index, widget in ((1, self.simulator), (2, self.variables), (3, self.environment)):
            self.tabs.setTabVisible(index, blocks)
        self.tabs.setTabVisible(4, covel)
        self.tabs.setTabVisible(5, preset)
        self.turn = 0
        self.turn_count = None
        self.preview.set_turn(0)
        self.current = None
        self._current_block = None
        if covel:
            assert self.doc.covel is not None
            self.covel_label.setText(_tr("Covel template {name}: {{ variable }} paths are checked against Covel's "
                                         "variable catalog (right). The runtime body is part of the system prompt."
                                         ).replace("{name}", self.doc.covel.name))
            self.editor.set_text(self.doc.covel.content, "covel", 0)
            self.tabs.setCurrentWidget(self.preview)
        elif preset:
            assert self.doc.preset is not None
            self.preset_cache = PresetCache()
            self.preset_blocks.set_slots(self.doc.preset.slots)
            self.preset_preview.set_input(self.doc.preset.sample_input)
            self.tabs.setCurrentWidget(self.preset_preview)
            self.splitter.setSizes(PRESET_SIZES)
            self.select_block(0 if self.doc.preset.slots else None, force=True)
        else:
            self.preview.set_input(self.doc.config.sample_input)
            self.environment.set_config(self.doc.config)
            self.blocks_model.rebuild(self.doc.config)
            self._show_zone_rows()
            self.ruler.set_config(self.doc.config)
            if self.splitter.sizes()[0] == 0:
                self.splitter.setSizes(BLOCKS_SIZES)
            self.select_block(0 if self.doc.config.blocks else None)
        self._variables_stale = True
        self._simulation_stale = True
        self._update_title()
        self.schedule_refresh()

    def _doc_changed(self, kind: str, target: Any, cursor: int | None) -> None:
        if self.doc.mode == PRESET_MODE:
            assert self.doc.preset is not None
            if kind == CONTENT:
                index = next((i for i, s in enumerate(self.doc.preset.slots) if s is target), None)
                if target is not self._current_block:
                    self.select_block(index)
                elif self.editor.text() != target.content:
                    self.editor.set_text(target.content, self._language(), cursor)
                if index is not None:
                    self.preset_blocks.update_slot(index, target)
            elif kind == INPUT:
                self.preset_preview.set_input(self.doc.preset.sample_input)
            self.schedule_refresh()
            return
        if self.doc.mode == COVEL_MODE:
            if kind == CONTENT and self.editor.text() != self.doc.covel.content:
                self.editor.set_text(self.doc.covel.content, "covel", cursor)
            self.schedule_refresh()
            return
        config = self.doc.config
        if kind == CONTENT:
            if target is not self._current_block and isinstance(target, Block):
                # Undo/redo of typing in another block: show that block, where the edit was.
                self.select_block(self._index_of(target))
            elif self.editor.text() != target.content:
                self.editor.set_text(target.content, self._language(), cursor)
        elif kind == STRUCTURE:
            self.blocks_model.rebuild(config)
            self._show_zone_rows()
            self.ruler.set_config(config)
            chosen = target if isinstance(target, Block) and self._index_of(target) is not None else self._current_block
            index = self._index_of(chosen) if chosen is not None else None
            if index is None and config.blocks:
                index = min(self.current or 0, len(config.blocks) - 1)
            self.select_block(index, force=True)
            self._variables_stale = True
        elif kind == INPUT:
            self.preview.set_input(config.sample_input)
        elif kind in (ENVIRONMENT, SETTINGS):
            self.environment.set_config(config)
            self._variables_stale = True
        if kind == VARIABLES:
            self._variables_stale = True
        self._simulation_stale = True
        self.schedule_refresh()

    def _index_of(self, block: Block | None) -> int | None:
        if block is None:
            return None
        for i, b in enumerate(self.doc.config.blocks):
            if b is block:
                return i
        return None

    def _text_edited(self, text: str, cursor: int, before: int) -> None:
        target = self.doc.text_target(self.current)
        if target is not None:
            self.doc.set_text(target, text, cursor, before)

    def _field_edited(self, attr: str, value: Any) -> None:
        block = self._current_block
        if block is None:
            return
        self.doc.set_field(block, attr, value, STRUCTURE, _tr("Change {field} of {id}").format(field=attr, id=block.id))

    def _environment_applied(self, environment: Any, settings: Any) -> None:
        stack = self.doc.undo_stack
        stack.beginMacro(_tr("Edit environment and settings"))
        try:
            self.doc.set_environment(environment)
            self.doc.set_settings(settings)
        finally:
            stack.endMacro()

    # ------------------------------------------------------------------ blocks

    def _select_slot(self, index: int | None, force: bool) -> None:
        assert self.doc.preset is not None
        slots = self.doc.preset.slots
        if index is not None and not 0 <= index < len(slots):
            index = None
        slot = slots[index] if index is not None else None
        changed = slot is not self._current_block or index != self.current
        self.current = index
        self._current_block = slot
        self.preset_blocks.select(index)
        if changed or force:
            self.editor.setEnabled(slot is not None and slot.editable)
            self.editor.set_text(slot.content if slot is not None else "", self._language(), 0 if changed else None)
            self.preset_label.setText(self._slot_label(slot))
            self._show_block_problems()

    def _show_zone_rows(self) -> None:
        """Every zone open, its heading ("System zone (12)") across the whole row, not cut by the
        block column's width."""
        self.tree.expandAll()
        for row in range(self.blocks_model.rowCount()):
            self.tree.setFirstColumnSpanned(row, QModelIndex(), True)

    def _slot_label(self, slot: Any) -> str:
        if slot is None:
            return _tr("This preset has no templates.")
        text = _tr("{block} ({id}) · {detail} — rendered with ChatLuna's renderer").format(
            block=slot_title(slot), id=slot.block_id, detail=slot_detail(slot))
        if not slot.editable:
            text += " · " + _tr("content parts: shown, not editable here")
        return text

    def select_block(self, index: int | None, *, force: bool = False) -> None:
        if self.doc.mode == PRESET_MODE:
            self._select_slot(index, force)
            return
        config = self.doc.config
        if index is not None and not 0 <= index < len(config.blocks):
            index = None
        block = config.blocks[index] if index is not None else None
        changed = block is not self._current_block or index != self.current
        self.current = index
        self._current_block = block
        model_index = self.blocks_model.index_of_block(index) if index is not None else QModelIndex()
        with QSignalBlocker(self.tree.selectionModel()):
            if model_index.isValid():
                self.tree.selectionModel().setCurrentIndex(
                    model_index, QItemSelectionModel.SelectionFlag.ClearAndSelect
                    | QItemSelectionModel.SelectionFlag.Rows)
                self.tree.scrollTo(model_index)
            else:
                self.tree.selectionModel().clearSelection()
        self.tree.viewport().update()
        self.ruler.set_selected(index)
        if changed or force:
            self.form.set_block(block)
            self.editor.setEnabled(block is not None)
            self.editor.set_text(block.content if block is not None else "", self._language(), 0 if changed else None)
            self.preview.set_selected(block.id if block is not None else None)
            self._show_block_problems()

    def _tree_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        index = current.data(BLOCK_INDEX_ROLE)
        if index is not None:
            self.select_block(int(index))

    def add_block(self, zone: str) -> None:
        if self.doc.mode in (COVEL_MODE, PRESET_MODE):
            return
        config = self.doc.config
        self.doc.insert_block(len(config.blocks), new_block(config, zone),
                              _tr("Add {zone} block").format(zone=zone))
        self.editor.setFocus()

    def duplicate_block(self) -> None:
        if self._current_block is None or self.current is None or self.doc.mode == PRESET_MODE:
            return
        block = copy_block(self._current_block, {b.id for b in self.doc.config.blocks})
        self.doc.insert_block(self.current + 1, block, _tr("Duplicate {id}").format(id=self._current_block.id))

    def remove_block(self) -> None:
        if self.current is not None and self.doc.mode not in (COVEL_MODE, PRESET_MODE):
            self.doc.remove_block(self.current)

    def add_variable(self) -> None:
        from inspector.zones import Variable

        taken = {v.name for v in self.doc.config.variables}
        name, n = "new_variable", 2
        while name in taken:
            name = f"new_variable_{n}"
            n += 1
        self.doc.insert_variable(len(self.doc.config.variables), Variable(name, example=""))

    # ------------------------------------------------------------------ turns

    def set_turn(self, turn: int) -> None:
        turn = max(0, turn)
        if turn == self.turn:
            return
        self.turn = turn
        self.preview.set_turn(turn)
        if turn < self.simulator.table.rowCount() and self.simulator.current_turn() != turn:
            with QSignalBlocker(self.simulator.table):
                self.simulator.table.setCurrentCell(turn, 0)
            self.simulator.show_details(turn)
        self.schedule_refresh()

    def _turn_count_changed(self, n: int) -> None:
        self.turn_count = n
        self._simulation_stale = True
        self._variables_stale = True
        self.schedule_refresh()

    def turns_to_simulate(self) -> int:
        if self.turn_count is not None:
            return self.turn_count
        return simulated_turns(self.doc.config)

    def _tab_changed(self) -> None:
        if self._simulation_stale or self._variables_stale:
            self.schedule_refresh()

    # ------------------------------------------------------------------ problems

    def jump_to(self, diag: Diagnostic, index: int | None) -> None:
        """Show where ``diag`` is: its block and text span, its field, or its variable."""
        if self.doc.mode == COVEL_MODE:
            self.editor.select_span(diag.start_utf16, diag.end_utf16)
            return
        if self.doc.mode == PRESET_MODE:
            if index is not None:
                self.select_block(index)
                if diag.field in ("content", None):
                    self.editor.select_span(diag.start_utf16, diag.end_utf16)
            return
        if index is not None:
            self.select_block(index)
            if diag.field in ("content", None):
                self.editor.select_span(diag.start_utf16, diag.end_utf16)
            elif not self.form.focus_field(diag.field):
                self.editor.setFocus()
            return
        if diag.field == "variables":
            self.tabs.setCurrentWidget(self.variables)
            if self._variables_stale:
                self.refresh()
            if diag.variable:
                self.variables.select_variable(diag.variable)
        elif diag.field == "environment":
            self.tabs.setCurrentWidget(self.simulator)

    def _source_requested(self, block_id: str, source_index: int) -> None:
        index = next((i for i, b in enumerate(self.doc.config.blocks) if b.id == block_id), None)
        if index is None:
            return
        self.select_block(index)
        content = self.doc.config.blocks[index].content
        position = utf16_len(content[:source_index])
        self.editor.select_span(position, position)

    def _show_block_problems(self) -> None:
        if self.doc.mode == COVEL_MODE:
            self.editor.set_diagnostics([d for d, _i in self.rows])
            return
        if self.doc.mode == PRESET_MODE:
            self.editor.set_diagnostics([d for d, i in self.rows if i is not None and i == self.current
                                         and d.field in ("content", None)])
            return
        mine = [d for d, i in self.rows if i is not None and i == self.current]
        self.editor.set_diagnostics([d for d in mine if d.field in ("content", None)])
        self.form.set_problems([d for d in mine if d.field not in ("content", None)])

    # ------------------------------------------------------------------ refresh

    def schedule_refresh(self) -> None:
        """Check and render on the next turn of the event loop; edits made before then share it."""
        self._refresh_timer.start()

    def refresh(self) -> None:
        self._refresh_timer.stop()
        started = time.perf_counter()
        if self.doc.mode == COVEL_MODE:
            covel = self.doc.covel
            assert covel is not None
            # Nothing in a template should make the engine raise; if something does, the problems
            # list and the preview say so (one internal-error diagnostic) instead of going blank.
            try:
                diagnostics = check_covel(covel.content, covel.name, front_matter=covel.front_matter)
            except Exception as exc:  # noqa: BLE001 - shown to the user, not swallowed
                diagnostics = [dg.failure(exc, "check")]
            try:
                text = interpolate(covel.content, example_variables(), front_matter=covel.front_matter)
            except Exception as exc:  # noqa: BLE001
                diagnostics.append(dg.failure(exc, "render"))
                text = message_text(diagnostics[-1])
            self.rows = [(d, None) for d in diagnostics]
            self.preview.show_covel(text)
        elif self.doc.mode == PRESET_MODE:
            self._refresh_preset()
        else:
            config = self.doc.config
            try:
                diagnostics = check(config)
            except Exception as exc:  # noqa: BLE001
                diagnostics = [dg.failure(exc, "check")]
            # The sample's failing contributor is logged by every render; the editor shows it in the
            # problems list instead of flooding the log on each keystroke.
            zones_log = logging.getLogger("inspector.zones")
            previous = zones_log.disabled
            zones_log.disabled = True
            try:
                result = render(config, self.turn)
            except Exception as exc:  # noqa: BLE001
                result = failed_result(self.turn, dg.failure(exc, "render"))
            finally:
                zones_log.disabled = previous
            self.result = result
            self.rows = attribute(config.blocks, combined_problems(diagnostics, result))
            self.problems.block_names = {}  # a config's blocks are named by their own ids
            self.blocks_model.palette = self.palette()
            self.blocks_model.set_problems(worst_by_block(self.rows))
            self.preview.show_result(result, self._current_block.id if self._current_block is not None else None)
        self._show_block_problems()
        self.problems.set_problems(self.rows)
        counts = self.problems.counts()
        text = _tr("{errors} error(s) · {warnings} warning(s) · {infos} note(s)").format(
            errors=counts[dg.ERROR], warnings=counts[dg.WARNING], infos=counts[dg.INFO])
        self.problems_label.setText(_tr("Problems: {counts}  (F8: next, Shift+F8: previous)").format(counts=text))
        self.counts_label.setText(text)
        if self.doc.mode == ZONES_MODE:
            if self._variables_stale and self.tabs.currentWidget() is self.variables:
                self.variables.set_config(self.doc.config, self.turns_to_simulate())
                self._variables_stale = False
            if self._simulation_stale and self.tabs.currentWidget() is self.simulator:
                self.refresh_simulation()
        self.last_refresh_ms = (time.perf_counter() - started) * 1000
        self.refreshed.emit()

    def _refresh_preset(self) -> None:
        """One render of the preset as ChatLuna sends it (templates cached between edits)."""
        preset_doc = self.doc.preset
        assert preset_doc is not None
        try:
            result = render_preset(preset_doc.current(), PresetOptions(input=preset_doc.sample_input),
                                   self.preset_cache)
            diagnostics = list(result.diagnostics)
        except Exception as exc:  # noqa: BLE001 - shown to the user, not swallowed
            result = None
            diagnostics = [dg.failure(exc, "render")]
        slot_of = {s.block_id: i for i, s in enumerate(preset_doc.slots)}
        self.rows = [(d, slot_of.get(d.block_id or "")) for d in diagnostics]
        self.problems.block_names = {s.block_id: slot_title(s) for s in preset_doc.slots}
        worst: dict[int, str] = {}
        for d, i in self.rows:
            if i is not None and (i not in worst or dg.severity_rank(d.severity) < dg.severity_rank(worst[i])):
                worst[i] = d.severity
        self.preset_blocks.set_problems(worst)
        self.preset_result = result
        if result is not None:
            self.preset_preview.show_render(result)

    def refresh_simulation(self) -> None:
        n = self.turns_to_simulate()
        zones_log = logging.getLogger("inspector.zones")
        previous = zones_log.disabled
        zones_log.disabled = True
        try:
            rows = simulate_turns(self.doc.config, n)
        except Exception as exc:  # noqa: BLE001
            failure = dg.failure(exc, "simulation")
            rows = []
            self.rows.append((failure, None))
            self.problems.set_problems(self.rows)
            self.statusBar().showMessage(message_text(failure), 8000)
        finally:
            zones_log.disabled = previous
        self.simulator.set_count(n)
        self.simulator.set_rows(rows, min(self.turn, n - 1))
        self._simulation_stale = False
