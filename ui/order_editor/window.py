"""The writing-agent order editor: the order table on the left, the live preview on the right.

Left: the slots (the play-slot switches), the brief and the assembly options (history cut,
encoding, isolation, variant, the original's behaviours as toggles). Centre: the selected slot's
inserts — drag rows, Alt+Up/Down, "before/after history", a projection combo per row, editable
ref, label and note, add and remove — with a message bar saying what the engine's normalisation
did or why an edit was refused. Right: :class:`PreviewPanel`, re-assembled after every edit.

Every edit is an undo step (Ctrl+Z / Ctrl+Shift+Z); the title carries the dirty marker; saving
is atomic and keeps ``FILE.bak``; closing with unsaved edits asks first (``ask_save`` is
replaceable, like ``report_error``, for tests and scripts).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import shiboken6
from PySide6.QtCore import QCoreApplication, QModelIndex, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView, QApplication, QCheckBox, QComboBox, QCompleter, QFileDialog, QFormLayout, QFrame, QGroupBox,
    QHBoxLayout, QLabel, QLineEdit, QListWidget, QListWidgetItem, QMainWindow, QMessageBox, QPushButton,
    QScrollArea, QSpinBox, QSplitter, QStyledItemDelegate, QTableView, QToolButton, QVBoxLayout, QWidget,
)

from inspector.writing_agent.assembly import AssemblyError, AssemblyOptions, AssemblyResult
from inspector.writing_agent.edits import replace as replace_order, set_anchor, set_brief, set_play_slot
from inspector.writing_agent.history import SETTABLE_LIMITS, HistoryOptions, block_limits
from inspector.writing_agent.isolation import ISOLATION_MODES
from inspector.writing_agent.order import (
    ANCHOR_DROPPED, DUPLICATE_HISTORY, HISTORY_ADDED, HISTORY_ALIAS, MOVE_IGNORED, MOVE_UNDONE, PERSONA_PINNED,
    RENUMBERED, Change, ContextOrder, OrderEditError, play_slots_on, slot_runs,
)
from inspector.writing_agent.preview import OrderPreview
from inspector.writing_agent.scenario import Scenario, ScenarioError, load_scenario
from inspector.writing_agent.segments import insert_ref_choices
from inspector.writing_agent.vocabulary import PLAY_SLOTS, PROJECTIONS
from ui.settings import remember_splitter
from ui.views.columns import ColumnFitter
from ui.theme import is_dark
from resources import resource_path

from ..snapshot import save_widget_image
from .commands import Focus, error_text
from .document import OrderDocument, OrderFileError, read_order_file
from .model import (
    COL_LABEL, COL_NOTE, COL_PROJECTION, COL_REF, InsertsModel, ProjectionDelegate, projection_label,
)
from .preview import PreviewPanel, SimulationRunner

__all__ = ["OrderEditorWindow", "SAMPLE_ORDER", "SAMPLE_SCENARIO", "change_summary"]

SAMPLE_ORDER = resource_path("samples", "writing_agent", "order.json")
SAMPLE_SCENARIO = resource_path("samples", "writing_agent", "scenario.yaml")
ENCODINGS = ("o200k_base", "cl100k_base")


def _tr(text: str) -> str:
    return QCoreApplication.translate("OrderEditor", text)


def change_summary(change: Change | str) -> str:
    """One line for the message bar: what normalisation did and why, in the interface's language.
    (The engine's own wording is kept for the tooltip.)"""
    if isinstance(change, str):
        return change
    text = {
        MOVE_UNDONE: _tr("The persona is pinned first: normalisation undid the move."),
        MOVE_IGNORED: _tr("There is no row to swap with there: the move was ignored."),
        PERSONA_PINNED: _tr("The persona was moved back to the top: it is pinned first."),
        HISTORY_ADDED: _tr("The slot had no 对话.历史 row, so one was added."),
        DUPLICATE_HISTORY: _tr("A second history row was dropped: a slot keeps only its first."),
        HISTORY_ALIAS: _tr("A history alias was rewritten to 对话.历史."),
        ANCHOR_DROPPED: _tr("A deprecated anchor was dropped."),
        RENUMBERED: _tr("The orders were renumbered."),
    }.get(change.kind)
    return text or change.message


class _RefDelegate(QStyledItemDelegate):
    """Ref cells edit in a line edit that completes the blackboard's tags."""

    def __init__(self, tags: Callable[[], list[str]], parent: QWidget) -> None:
        super().__init__(parent)
        self._tags = tags

    def createEditor(self, parent: QWidget, option: Any, index: QModelIndex) -> QWidget:  # noqa: N802
        editor = QLineEdit(parent)
        completer = QCompleter(self._tags(), editor)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        editor.setCompleter(completer)
        return editor


class InsertsTable(QTableView):
    """The inserts table: single row selection, internal move drags only."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("insertsTable")
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setDragEnabled(True)
        self.setAcceptDrops(True)
        self.setDropIndicatorShown(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.InternalMove)
        self.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.setDragDropOverwriteMode(False)
        self.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                             | QAbstractItemView.EditTrigger.EditKeyPressed
                             | QAbstractItemView.EditTrigger.AnyKeyPressed)
        self.verticalHeader().hide()
        self.setWordWrap(False)
        self.setAlternatingRowColors(False)


class OrderEditorWindow(QMainWindow):
    """``OrderEditorWindow(order_path=None, scenario_path=None)``; with no paths, the shipped
    sample. Signals: ``previewUpdated()`` after the preview shows a new assembly,
    ``stripUpdated()`` after the break strip shows a finished simulation.

    Replaceable for tests and scripts: ``report_error(title, text)`` and ``ask_save() ->
    "save" | "discard" | "cancel"``."""

    previewUpdated = Signal()
    stripUpdated = Signal()

    def __init__(self, order_path: str | Path | None = None, scenario_path: str | Path | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("orderEditor")
        self.report_error: Callable[[str, str], None] = self._error_dialog
        self.ask_save: Callable[[], str] = self._ask_save_dialog
        self.options = AssemblyOptions()
        self.turn: int | None = None  # None: follow the latest turn
        self.result: AssemblyResult | None = None
        self.last_changes: list[Change | str] = []

        order_path = Path(order_path) if order_path else SAMPLE_ORDER
        scenario_path = Path(scenario_path) if scenario_path else SAMPLE_SCENARIO
        document, container, changes = read_order_file(order_path)
        self.scenario: Scenario = load_scenario(scenario_path)
        self.doc = OrderDocument(document, order_path, container, self)
        first_slot = document.slots[0].ref if document.slots else ""
        self.engine = OrderPreview(self.doc.document, self.scenario, first_slot, self.options)
        self.model = InsertsModel(self.doc, self)
        self.model.set_known_tags(self.scenario.blackboard.tags())
        self.runner = SimulationRunner(self, self._strip_progress, self._strip_done)

        self._build()
        self._build_actions()
        self._connect()
        self._fill_slots()
        self._fill_play_slots()
        self._fill_brief()
        self._fill_variants()
        self._select_slot(first_slot)
        self._show_changes(changes)
        self._update_title()
        self.resize(1500, 900)

    # ------------------------------------------------------------------ construction

    def _build(self) -> None:
        # Left column: slots, play slots, brief, options.
        left = QWidget(self)
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(4, 4, 4, 4)
        slots_label = QLabel(_tr("Worker slots"), left)
        slots_label.setObjectName("slotsLabel")
        self.slot_list = QListWidget(left)
        self.slot_list.setObjectName("slotList")
        self.slot_list.setToolTip(_tr("The slot to edit and preview"))
        self.play_box = QGroupBox(_tr("Play slots (run each turn)"), left)
        play_layout = QVBoxLayout(self.play_box)
        play_layout.setContentsMargins(6, 4, 6, 4)
        self.play_checks: dict[str, QCheckBox] = {}
        for play in PLAY_SLOTS:
            check = QCheckBox(f"{play.label} · {play.key}", self.play_box)
            check.setObjectName(f"play_{play.key}")
            check.setToolTip(_tr("play_slots.{key}: worker {ref}").format(key=play.key, ref=play.default_ref))
            play_layout.addWidget(check)
            self.play_checks[play.key] = check
        self.brief = QLineEdit(left)
        self.brief.setObjectName("briefEdit")
        self.brief.setPlaceholderText(_tr("Brief (optional)"))
        self.brief.setToolTip(_tr("The order table's brief: a one-line summary written into the file"))
        left_layout.addWidget(slots_label)
        self.slot_list.setMaximumHeight(self.slot_list.fontMetrics().lineSpacing() * 8)
        left_layout.addWidget(self.slot_list)
        left_layout.addWidget(self.play_box)
        left_layout.addWidget(QLabel(_tr("Brief"), left))
        left_layout.addWidget(self.brief)
        left_layout.addWidget(self._build_options(left))
        left_layout.addStretch(1)
        left_scroll = QScrollArea(self)
        left_scroll.setWidgetResizable(True)
        left_scroll.setFrameShape(QFrame.Shape.NoFrame)
        left_scroll.setWidget(left)
        left_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # Wide enough for the options form: the column scrolls vertically only.
        left_scroll.setMinimumWidth(left.minimumSizeHint().width()
                                    + left_scroll.verticalScrollBar().sizeHint().width() + 4)

        # Centre: message bar, tools, table, add row.
        centre = QWidget(self)
        centre_layout = QVBoxLayout(centre)
        centre_layout.setContentsMargins(4, 4, 4, 4)
        self.slot_title = QLabel(centre)
        self.slot_title.setObjectName("slotTitle")
        font = self.slot_title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.slot_title.setFont(font)
        self.message_bar = QLabel(centre)
        self.message_bar.setObjectName("messageBar")
        self.message_bar.setWordWrap(True)
        self.message_bar.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.message_bar.hide()
        tools = QHBoxLayout()
        tools.setContentsMargins(0, 0, 0, 0)
        self.tool_buttons: dict[str, QToolButton] = {}
        for name in ("up", "down", "before", "after", "remove"):
            button = QToolButton(centre)
            button.setObjectName(f"tool_{name}")
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            self.tool_buttons[name] = button
            tools.addWidget(button)
        tools.addStretch(1)
        self.table = InsertsTable(centre)
        self.table.setModel(self.model)
        self.table.setItemDelegateForColumn(COL_PROJECTION, ProjectionDelegate(self.table))
        self.table.setItemDelegateForColumn(COL_REF, _RefDelegate(self._tag_choices, self.table))
        # Every column as wide as its title and its texts (ui.views.columns); the note takes what
        # is left, and a long label gives way first (both elided then, whole on hover). The
        # projection column holds a combo box: its arrow needs room beyond the text.
        metrics = self.table.fontMetrics()
        projection = max(metrics.horizontalAdvance(projection_label(p)) for p in PROJECTIONS) + 30
        self.columns = ColumnFitter(self.table, COL_NOTE, gives_way=(COL_LABEL,),
                                    minimums={COL_REF: 100, COL_PROJECTION: projection, COL_LABEL: 60, COL_NOTE: 60})
        add_row = QHBoxLayout()
        add_row.setContentsMargins(0, 0, 0, 0)
        self.add_ref = QComboBox(centre)
        self.add_ref.setObjectName("addRef")
        self.add_ref.setEditable(True)
        self.add_ref.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.add_ref.lineEdit().setPlaceholderText(_tr("blackboard tag to add"))
        self.add_ref.setToolTip(_tr("Tags on the blackboard not yet in this slot come first; any tag or "
                                    "prefix pattern (设计.*) may be typed"))
        self.add_ref.setMinimumContentsLength(16)
        self.add_projection = QComboBox(centre)
        self.add_projection.setObjectName("addProjection")
        for projection in PROJECTIONS:
            self.add_projection.addItem(projection_label(projection), projection)
        self.add_projection.setCurrentIndex(PROJECTIONS.index("full"))
        self.add_button = QPushButton(_tr("Add"), centre)
        self.add_button.setObjectName("addButton")
        self.add_button.setToolTip(_tr("Add the tag below the selected row (at the end when none is selected)"))
        add_row.addWidget(QLabel(_tr("Add insert:"), centre))
        add_row.addWidget(self.add_ref, 1)
        add_row.addWidget(self.add_projection)
        add_row.addWidget(self.add_button)
        centre_layout.addWidget(self.slot_title)
        centre_layout.addLayout(tools)
        centre_layout.addWidget(self.message_bar)
        centre_layout.addWidget(self.table, 1)
        centre_layout.addLayout(add_row)

        self.preview = PreviewPanel(self)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(left_scroll)
        self.splitter.addWidget(centre)
        self.splitter.addWidget(self.preview)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setStretchFactor(2, 2)
        # The table's seven columns need more width than the preview's list does (both sized to
        # their texts: ui.views.columns).
        self.splitter.setSizes([320, 700, 600])
        remember_splitter(self.splitter, "orderEditor/panes")
        self.setCentralWidget(self.splitter)
        self.statusBar()

    def _build_options(self, parent: QWidget) -> QGroupBox:
        box = QGroupBox(_tr("Assembly options"), parent)
        box.setObjectName("optionsBox")
        form = QFormLayout(box)
        form.setContentsMargins(6, 4, 6, 4)
        self.opt_encoding = QComboBox(box)
        for name in ENCODINGS:
            self.opt_encoding.addItem(name, name)
        self.opt_mode = QComboBox(box)
        self.opt_mode.addItem(_tr("hysteresis (n…2n)"), "hysteresis")
        self.opt_mode.addItem(_tr("sliding window (the code)"), "window")
        self.opt_mode.setToolTip(_tr("hysteresis: the history grows from n to 2n blocks, then is cut back to n, "
                                     "so the cache breaks every n turns; window: the public code's last n "
                                     "blocks, which moves every turn"))
        self.opt_boundary = QComboBox(box)
        self.opt_boundary.addItem(_tr("cut above 2n (>)"), ">")
        self.opt_boundary.addItem(_tr("cut at 2n (>=)"), ">=")
        self.opt_marker = QComboBox(box)
        self.opt_marker.addItem(_tr("shows n"), "n")
        self.opt_marker.addItem(_tr("shows the kept count"), "kept")
        self.opt_marker.addItem(_tr("none"), "none")
        self.opt_marker.setToolTip(_tr("The （仅最近 n 段，更早已省略） line before a cut history; the kept "
                                       "count changes every turn and so breaks the cache every turn"))
        self.opt_limits: dict[str, QSpinBox] = {}
        limits_row = QWidget(box)
        limits_layout = QHBoxLayout(limits_row)
        limits_layout.setContentsMargins(0, 0, 0, 0)
        defaults = HistoryOptions().limits
        for mode in SETTABLE_LIMITS:
            spin = QSpinBox(limits_row)
            spin.setRange(1, 999)
            spin.setValue(defaults[mode])
            spin.setToolTip(_tr("n for the {projection} projection").format(projection=projection_label(mode)))
            limits_layout.addWidget(spin)
            self.opt_limits[mode] = spin
        self.opt_unrecognised = QComboBox(box)
        self.opt_unrecognised.addItem(_tr("join the previous message"), "previous")
        self.opt_unrecognised.addItem(_tr("a system message"), "system")
        self.opt_unrecognised.addItem(_tr("a user message"), "user")
        self.opt_isolation = QComboBox(box)
        self.opt_isolation.addItem(_tr("the worker's own"), None)
        for mode in ISOLATION_MODES:
            self.opt_isolation.addItem(mode, mode)
        self.opt_variant = QComboBox(box)
        self.opt_messages = QCheckBox(_tr("History as role messages"), box)
        self.opt_messages.setChecked(True)
        self.opt_messages.setToolTip(_tr("Split the projected history into user / assistant / system messages; "
                                         "off: one block, as the code sends it"))
        self.opt_code_policies = QCheckBox(_tr("The code's policies (tail_tokens_N reserved)"), box)
        self.opt_leak = QCheckBox(_tr("Reproduce the original's isolation leak"), box)
        self.opt_leak.setObjectName("leakToggle")
        self.opt_leak.setToolTip(_tr("The original reads a hidden tag through its blackboard fallback when a "
                                     "segment names it; on: do the same, to compare"))
        for combo in (self.opt_encoding, self.opt_mode, self.opt_boundary, self.opt_marker, self.opt_unrecognised,
                      self.opt_isolation, self.opt_variant):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(8)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow(_tr("Encoding"), self.opt_encoding)
        form.addRow(_tr("History cut"), self.opt_mode)
        form.addRow(_tr("Boundary"), self.opt_boundary)
        form.addRow(_tr("Marker"), self.opt_marker)
        form.addRow(_tr("n (fields, summary, full)"), limits_row)
        form.addRow(_tr("Blocks without a role"), self.opt_unrecognised)
        form.addRow(_tr("Isolation"), self.opt_isolation)
        form.addRow(_tr("Variant"), self.opt_variant)
        form.addRow(self.opt_messages)
        form.addRow(self.opt_code_policies)
        form.addRow(self.opt_leak)
        return box

    def _action(self, text: str, shortcut: Any, slot: Callable[[], Any], tip: str = "") -> QAction:
        action = QAction(text, self)
        if isinstance(shortcut, list):
            action.setShortcuts(shortcut)
        elif shortcut:
            action.setShortcut(QKeySequence(shortcut))
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(tip)
        action.triggered.connect(lambda _checked=False: slot())
        return action

    def _build_actions(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu(_tr("&File"))
        self.open_action = self._action(_tr("&Open Order…"), QKeySequence.StandardKey.Open, self.choose_order,
                                        _tr("Open a context-order.v1 table (or a worker set holding one)"))
        self.open_scenario_action = self._action(_tr("Open &Blackboard…"), "Ctrl+Shift+O", self.choose_scenario,
                                                 _tr("Open the scenario: blackboard items and workers (JSON or YAML)"))
        self.save_action = self._action(_tr("&Save"), QKeySequence.StandardKey.Save, self.save)
        self.save_as_action = self._action(_tr("Save &As…"), QKeySequence.StandardKey.SaveAs, self.save_as)
        self.close_action = self._action(_tr("&Close"), QKeySequence.StandardKey.Close, self.close)
        for action in (self.open_action, self.open_scenario_action, None, self.save_action, self.save_as_action,
                       None, self.close_action):
            file_menu.addSeparator() if action is None else file_menu.addAction(action)

        edit_menu = bar.addMenu(_tr("&Edit"))
        self.undo_action = self.doc.undo_stack.createUndoAction(self, _tr("&Undo"))
        self.undo_action.setShortcuts(QKeySequence.StandardKey.Undo)
        self.redo_action = self.doc.undo_stack.createRedoAction(self, _tr("&Redo"))
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        self.up_action = self._action(_tr("Move &Up"), "Alt+Up", lambda: self.move_selected(-1),
                                      _tr("Swap the row with the one above (Alt+Up)"))
        self.down_action = self._action(_tr("Move &Down"), "Alt+Down", lambda: self.move_selected(1),
                                        _tr("Swap the row with the one below (Alt+Down)"))
        self.before_action = self._action(_tr("&Before History"), "Alt+Left",
                                          lambda: self.anchor_selected("pre_history"),
                                          _tr("Move the row just before 对话.历史: it joins the cached prefix "
                                              "(Alt+Left)"))
        self.after_action = self._action(_tr("&After History"), "Alt+Right",
                                         lambda: self.anchor_selected("post_history"),
                                         _tr("Move the row just after 对话.历史: it may change without breaking "
                                             "the cache (Alt+Right)"))
        self.add_action = self._action(_tr("Add &Insert"), "Ctrl+I", self.add_from_combo,
                                       _tr("Add the tag in the Add box below the selected row"))
        self.remove_action = self._action(_tr("&Remove Insert"), QKeySequence.StandardKey.Delete,
                                          self.remove_selected, _tr("Remove the selected row (Delete)"))
        self.remove_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.table.addAction(self.remove_action)
        self.paste_action = self._action(_tr("Replace from &Clipboard"), "Ctrl+Shift+V", self.replace_from_clipboard,
                                         _tr("Replace the whole table with the one on the clipboard "
                                             "(JSON, agents[] or a reply with a fenced block)"))
        for action in (self.undo_action, self.redo_action, None, self.up_action, self.down_action,
                       self.before_action, self.after_action, None, self.add_action, self.remove_action, None,
                       self.paste_action):
            edit_menu.addSeparator() if action is None else edit_menu.addAction(action)
        for name, action in (("up", self.up_action), ("down", self.down_action), ("before", self.before_action),
                             ("after", self.after_action), ("remove", self.remove_action)):
            self.tool_buttons[name].setDefaultAction(action)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        for action in (self.up_action, self.down_action, self.before_action, self.after_action):
            self.table.addAction(action)

    def _connect(self) -> None:
        self.doc.shown.connect(self._document_shown)
        self.doc.notice.connect(self._show_changes)
        self.doc.pathChanged.connect(lambda _p: self._update_title())
        self.doc.undo_stack.cleanChanged.connect(lambda _clean: self._update_title())
        self.slot_list.currentItemChanged.connect(self._slot_picked)
        for key, check in self.play_checks.items():
            check.toggled.connect(lambda on, k=key: self._play_toggled(k, on))
        self.brief.editingFinished.connect(self._brief_edited)
        self.table.selectionModel().currentRowChanged.connect(lambda current, _prev: self._row_selected(current.row()))
        self.model.modelReset.connect(self._open_editors)
        self.add_button.clicked.connect(self.add_from_combo)
        self.add_ref.lineEdit().returnPressed.connect(self.add_from_combo)
        self.preview.turnChanged.connect(self._turn_picked)
        self.preview.segmentSelected.connect(self._select_row)
        for combo in (self.opt_encoding, self.opt_mode, self.opt_boundary, self.opt_marker, self.opt_unrecognised,
                      self.opt_isolation, self.opt_variant):
            combo.currentIndexChanged.connect(lambda _i: self._options_changed())
        for spin in self.opt_limits.values():
            spin.valueChanged.connect(lambda _v: self._options_changed())
        for check in (self.opt_messages, self.opt_code_policies, self.opt_leak):
            check.toggled.connect(lambda _on: self._options_changed())

    # ------------------------------------------------------------------ left column

    def _fill_slots(self) -> None:
        current = self.model.slot_ref
        shape = (current, tuple((s.ref, s.label, len(s.inserts)) for s in self.doc.document.slots),
                 tuple(sorted(play_slots_on(self.doc.document).items())))
        if shape == getattr(self, "_slots_shape", None):
            return  # most edits change rows, not slots: keep the list (and its paint) as it is
        self._slots_shape = shape
        blocker = QSignalBlocker(self.slot_list)
        self.slot_list.clear()
        for slot in self.doc.document.slots:
            on = slot_runs(self.doc.document, slot.ref) is not False
            text = f"{slot.label} · {slot.ref}" if slot.label and slot.label != slot.ref else slot.ref
            if not on:
                text += "  " + _tr("(off)")
            item = QListWidgetItem(text, self.slot_list)
            item.setData(Qt.ItemDataRole.UserRole, slot.ref)
            item.setToolTip(_tr("{n} inserts").format(n=len(slot.inserts)))
            if not on:
                item.setForeground(self.palette().color(self.palette().ColorGroup.Disabled,
                                                        self.palette().ColorRole.Text))
            if slot.ref == current:
                self.slot_list.setCurrentItem(item)
        del blocker

    def _fill_play_slots(self) -> None:
        enabled = play_slots_on(self.doc.document)
        for key, check in self.play_checks.items():
            with QSignalBlocker(check):
                check.setChecked(enabled[key])

    def _fill_brief(self) -> None:
        if self.brief.text() == (self.doc.document.brief or "") and self.brief.toolTip():
            return
        with QSignalBlocker(self.brief):
            self.brief.setText(self.doc.document.brief or "")
            self.brief.setCursorPosition(0)
            self.brief.setToolTip(self.doc.document.brief or _tr("The order table's brief: a one-line summary "
                                                                 "written into the file"))

    def _fill_variants(self) -> None:
        worker = self.scenario.worker(self.model.slot_ref) if self.model.slot_ref else None
        with QSignalBlocker(self.opt_variant):
            self.opt_variant.clear()
            chosen = self.scenario.profile.get(self.model.slot_ref, {}).get("variant", "")
            self.opt_variant.addItem(_tr("the manifest's ({name})").format(name=chosen or _tr("none")), None)
            self.opt_variant.addItem(_tr("no variant"), "")
            for name in (worker.variants if worker else {}):
                self.opt_variant.addItem(name, name)

    def _tag_choices(self) -> list[str]:
        return insert_ref_choices(self.scenario.blackboard.tags())

    def _fill_add_refs(self) -> None:
        slot = self.model.slot
        used = {i.ref for i in slot.inserts} if slot else set()
        unused = [t for t in self._tag_choices() if t not in used]
        if (unused, used) == getattr(self, "_add_refs_shape", None):
            return
        self._add_refs_shape = (unused, used)
        typed = self.add_ref.currentText() if self.add_ref.count() else ""
        with QSignalBlocker(self.add_ref):
            self.add_ref.clear()
            self.add_ref.addItems(unused + [t for t in self._tag_choices() if t in used])
            self.add_ref.setEditText(typed if typed and typed not in used else (unused[0] if unused else ""))

    def _slot_picked(self, item: QListWidgetItem | None, _previous: Any) -> None:
        if item is not None:
            self._select_slot(item.data(Qt.ItemDataRole.UserRole))

    def _switch_slot(self, slot_ref: str) -> None:
        """Point the table and the preview at another slot (no refresh)."""
        self.model.set_slot(slot_ref)
        self.engine.set_slot(slot_ref)
        self._fill_variants()
        self.turn = None
        self.preview.forget_breaks()
        with QSignalBlocker(self.slot_list):
            for i in range(self.slot_list.count()):
                if self.slot_list.item(i).data(Qt.ItemDataRole.UserRole) == slot_ref:
                    self.slot_list.setCurrentRow(i)
        self._apply_options()  # a variant choice belongs to one worker

    def _select_slot(self, slot_ref: str) -> None:
        if slot_ref != self.model.slot_ref:
            self._switch_slot(slot_ref)
        self._fill_add_refs()
        self._update_slot_title()
        self.refresh_preview()
        self.restart_simulation()
        if self.model.rowCount():
            self._select_row(0)

    def _update_slot_title(self) -> None:
        slot = self.model.slot
        if slot is None:
            self.slot_title.setText(_tr("No slot"))
            return
        runs = slot_runs(self.doc.document, slot.ref)
        state = ""
        if runs is not None:
            state = _tr("runs each turn") if runs else _tr("switched off in play_slots")
        self.slot_title.setText(f"{slot.label or slot.ref} · {slot.ref}" + (f" — {state}" if state else ""))

    def _play_toggled(self, key: str, on: bool) -> None:
        self._edit(_tr("Switch {slot} {state}").format(slot=key, state=_tr("on") if on else _tr("off")),
                   lambda doc: set_play_slot(doc, key, on))

    def _brief_edited(self) -> None:
        text = self.brief.text()
        if text == (self.doc.document.brief or ""):
            return
        self._edit(_tr("Edit brief"), lambda doc: set_brief(doc, text))

    # ------------------------------------------------------------------ options

    def _apply_options(self) -> None:
        limits = block_limits({mode: spin.value() for mode, spin in self.opt_limits.items()})
        history = HistoryOptions(mode=self.opt_mode.currentData(), boundary=self.opt_boundary.currentData(),
                                 marker=self.opt_marker.currentData(), limits=limits,
                                 unrecognised=self.opt_unrecognised.currentData())
        self.options = replace(self.options, encoding=self.opt_encoding.currentData(), history=history,
                               history_as_messages=self.opt_messages.isChecked(),
                               code_policies=self.opt_code_policies.isChecked(),
                               leak_through_blackboard=self.opt_leak.isChecked(),
                               isolation=self.opt_isolation.currentData(), variant=self.opt_variant.currentData())
        self.engine.set_options(self.options)

    def _options_changed(self) -> None:
        self.preview.remember_breaks()
        self._apply_options()
        self.refresh_preview()
        self.restart_simulation()

    # ------------------------------------------------------------------ the table

    def _open_editors(self) -> None:
        for row in range(self.model.rowCount()):
            self.table.openPersistentEditor(self.model.index(row, COL_PROJECTION))

    def selected_row(self) -> int | None:
        index = self.table.currentIndex()
        return index.row() if index.isValid() else None

    def _select_row(self, row: int | None) -> None:
        if row is None or not 0 <= row < self.model.rowCount():
            return
        index = self.model.index(row, COL_REF)
        self.table.setCurrentIndex(index)
        self.table.selectRow(row)
        self.table.scrollTo(index)

    def _row_selected(self, row: int) -> None:
        insert = self.model.insert_at(row)
        history = self.model.history_row
        self.before_action.setEnabled(insert is not None and row != history)
        self.after_action.setEnabled(insert is not None and row != history)
        self.up_action.setEnabled(insert is not None and row > 0)
        self.down_action.setEnabled(insert is not None and row < self.model.rowCount() - 1)
        self.remove_action.setEnabled(insert is not None)
        if insert is not None:
            self.preview.select_segment_of_row(row)

    def move_selected(self, delta: int) -> None:
        row = self.selected_row()
        if row is None:
            return
        self.model.move_row(row, row + 2 if delta > 0 else row - 1)

    def anchor_selected(self, anchor: str) -> None:
        row = self.selected_row()
        insert = self.model.insert_at(row) if row is not None else None
        if insert is None:
            return
        slot_ref = self.model.slot_ref
        history = self.model.history_row
        near = (history if anchor == "pre_history" else history + 1) if history is not None else row
        text = _tr("Move {ref} before the history") if anchor == "pre_history" else _tr("Move {ref} after the history")
        self._edit(text.format(ref=insert.ref), lambda doc: set_anchor(doc, slot_ref, row, anchor),
                   focus_before=Focus(slot_ref, row),
                   focus_after=lambda result: self.model.landed(result, insert, near))

    def add_from_combo(self) -> None:
        ref = self.add_ref.currentText().strip()
        if not ref:
            self._show_changes([_tr("Type or pick a blackboard tag to add")], error=True)
            return
        row = self.selected_row()
        index = self.model.rowCount() if row is None else row + 1
        if self.model.add(index, ref, self.add_projection.currentData()):
            self._fill_add_refs()

    def remove_selected(self) -> None:
        row = self.selected_row()
        if row is not None:
            self.model.remove(row)

    def replace_from_clipboard(self) -> None:
        text = QGuiApplication.clipboard().text()
        self.replace_with(text)

    def replace_with(self, text: str) -> None:
        """The engine's ``replace``: parse leniently and normalise; the undo step restores the old table."""
        self._edit(_tr("Replace the table"), lambda doc: replace_order(doc, text))

    def _edit(self, text: str, fn: Callable[[ContextOrder], Any], **focus: Any) -> bool:
        try:
            self.doc.edit(text, fn, **focus)
        except OrderEditError as exc:
            self._show_changes([error_text(exc)], error=True)
            return False
        return True

    # ------------------------------------------------------------------ document shown

    def _document_shown(self, document: ContextOrder, focus: Focus | None, changes: list[Change]) -> None:
        self.preview.remember_breaks()
        self.engine.set_order(document)
        target = self.model.slot_ref
        if focus is not None and document.slot(focus.slot_ref) is not None:
            target = focus.slot_ref
        if document.slot(target) is None:
            target = document.slots[0].ref if document.slots else ""
        if target != self.model.slot_ref:
            self._switch_slot(target)
        self._fill_slots()
        self._fill_play_slots()
        self._fill_brief()
        self._fill_add_refs()
        self._update_slot_title()
        self._show_changes(changes)
        self.refresh_preview()
        self.restart_simulation()
        if focus is not None and focus.row is not None:
            self._select_row(focus.row)
        else:
            self._row_selected(self.selected_row() if self.selected_row() is not None else -1)

    def _show_changes(self, changes: list[Change | str], error: bool = False) -> None:
        self.last_changes = list(changes)
        shown = [c for c in changes if not isinstance(c, Change) or c.noteworthy]
        if not shown:
            self.message_bar.hide()
            return
        lines = list(dict.fromkeys(change_summary(c) for c in shown))
        details = [c.message if isinstance(c, Change) else c for c in shown]
        self.message_bar.setText("\n".join(lines))
        self.message_bar.setToolTip("\n".join(details))
        dark = is_dark(self.palette())
        if error:
            colours = ("#5a2326", "#ffd9d9") if dark else ("#fde2e2", "#7a1d1d")
        else:
            colours = ("#4a3f1c", "#ffeeb8") if dark else ("#fff4d1", "#5c4500")
        self.message_bar.setStyleSheet(f"QLabel#messageBar {{ background: {colours[0]}; color: {colours[1]}; "
                                       "border-radius: 3px; padding: 4px 6px; }")
        self.message_bar.show()
        self.statusBar().showMessage(lines[0], 8000)

    # ------------------------------------------------------------------ preview

    def _turn_picked(self, turn: int) -> None:
        self.turn = None if turn >= self.preview.slider.maximum() else turn
        self.refresh_preview()

    def refresh_preview(self) -> None:
        slot_ref = self.model.slot_ref
        worker = self.scenario.worker(slot_ref)
        try:
            count = self.engine.turn_count
            turn = count if self.turn is None else min(self.turn, count)
            result = self.engine.result(turn)
        except AssemblyError as exc:
            self.result = None
            self.model.set_assembly(None)
            self.preview.show_error(_tr("Cannot assemble {slot}").format(slot=slot_ref), str(exc))
            self.previewUpdated.emit()
            return
        self.result = result
        self.preview.set_turn_range(count, turn)
        runs = slot_runs(self.doc.document, slot_ref)
        running = "" if runs is None else (_tr("runs each turn") if runs else _tr("off in play_slots"))
        title = _tr("Previewing {name} · {slot}").format(name=worker.name or result.worker_name, slot=slot_ref)
        facts = [
            _tr("turn {turn} of {count}").format(turn=turn, count=count) + (_tr(" (latest)") if turn == count else ""),
            _tr("{n} messages").format(n=len(result.messages)),
            _tr("{n:,} tokens ({encoding})").format(n=result.total_tokens, encoding=result.encoding),
            _tr("isolation {mode}").format(mode=result.isolation),
        ]
        if result.variant:
            facts.append(_tr("variant {name}").format(name=result.variant))
        if running:
            facts.append(running)
        self.preview.show_result(result, title=title, facts=" · ".join(facts))
        self.model.set_assembly(result)
        self.previewUpdated.emit()

    def restart_simulation(self) -> None:
        try:
            prepared = self.engine.prepared()
        except AssemblyError:
            self.runner.stop()
            self.preview.strip.set_rows([], pending=False)
            return
        self.preview.strip_pending([])
        self.runner.start(prepared)

    def _strip_progress(self, rows: list) -> None:
        self.preview.strip_pending(rows)

    def _strip_done(self, simulation: Any) -> None:
        self.preview.strip_done(simulation)
        self.stripUpdated.emit()

    # ------------------------------------------------------------------ files

    def _update_title(self) -> None:
        if not shiboken6.isValid(self):
            # The undo stack reports "clean" once more while it is destroyed with the window.
            return
        name = self.doc.path.name if self.doc.path else _tr("untitled")
        scenario = self.scenario.path.name if self.scenario.path else ""
        title = f"{name}[*] — {scenario} — " if scenario else f"{name}[*] — "
        self.setWindowTitle(title + _tr("Order Editor"))
        self.setWindowModified(not self.doc.undo_stack.isClean())

    def choose_order(self) -> None:
        if not self._may_discard():
            return
        start = str(self.doc.path.parent) if self.doc.path else ""
        name, _filter = QFileDialog.getOpenFileName(self, _tr("Open Order Table"), start,
                                                    _tr("Order tables (*.json *.txt *.md);;All files (*)"))
        if name:
            self.open_order(name, ask=False)

    def open_order(self, path: str | Path, *, ask: bool = True) -> bool:
        if ask and not self._may_discard():
            return False
        try:
            document, container, changes = read_order_file(path)
        except OrderFileError as exc:
            self.report_error(_tr("Cannot open the order table"), str(exc))
            return False
        self.doc.replace_all(document, Path(path), container)
        first = document.slots[0].ref if document.slots else ""
        if first and self.model.slot_ref != first:
            self._select_slot(first)
        self._show_changes(changes)
        return True

    def choose_scenario(self) -> None:
        start = str(self.scenario.path.parent) if self.scenario.path else ""
        name, _filter = QFileDialog.getOpenFileName(self, _tr("Open Blackboard"), start,
                                                    _tr("Scenarios (*.yaml *.yml *.json);;All files (*)"))
        if name:
            self.open_scenario(name)

    def open_scenario(self, path: str | Path) -> bool:
        try:
            scenario = load_scenario(path)
        except ScenarioError as exc:
            self.report_error(_tr("Cannot open the blackboard"), str(exc))
            return False
        self.scenario = scenario
        self.engine.set_scenario(scenario)
        self.model.set_known_tags(scenario.blackboard.tags())
        self._fill_variants()
        self._apply_options()
        self._fill_add_refs()
        self._update_title()
        self.preview.forget_breaks()
        self.refresh_preview()
        self.restart_simulation()
        return True

    def save(self) -> bool:
        if self.doc.path is None:
            return self.save_as()
        return self._save_to(None)

    def save_as(self) -> bool:
        start = str(self.doc.path) if self.doc.path else "order.json"
        name, _filter = QFileDialog.getSaveFileName(self, _tr("Save Order Table"), start,
                                                    _tr("JSON (*.json);;All files (*)"))
        return bool(name) and self._save_to(Path(name))

    def _save_to(self, path: Path | None) -> bool:
        try:
            target = self.doc.save(path, keep_apart=[self.scenario.path])
        except (OrderFileError, OrderEditError) as exc:
            self.report_error(_tr("Cannot save the order table"), getattr(exc, "message", str(exc)))
            return False
        self.statusBar().showMessage(_tr("Saved {path}").format(path=target), 6000)
        return True

    def _may_discard(self) -> bool:
        """True when there are no unsaved edits, or the user saved or chose to discard them."""
        if self.doc.undo_stack.isClean():
            return True
        answer = self.ask_save()
        if answer == "save":
            return self.save()
        return answer == "discard"

    def _ask_save_dialog(self) -> str:
        box = QMessageBox(QMessageBox.Icon.Question, _tr("Unsaved changes"),
                          _tr("The order table has unsaved changes. Save them?"),
                          QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
                          | QMessageBox.StandardButton.Cancel, self)
        box.setDefaultButton(QMessageBox.StandardButton.Save)
        answer = box.exec()
        return {QMessageBox.StandardButton.Save: "save",
                QMessageBox.StandardButton.Discard: "discard"}.get(QMessageBox.StandardButton(answer), "cancel")

    def _error_dialog(self, title: str, text: str) -> None:
        QMessageBox.warning(self, title, text)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt override
        if not self._may_discard():
            event.ignore()
            return
        self.runner.stop()
        super().closeEvent(event)

    # ------------------------------------------------------------------ screenshots

    def settle(self) -> None:
        """Finish the strip's simulation and pending paints now (screenshots, scripts)."""
        self.runner.finish_now()
        QApplication.processEvents()

    def grab_to(self, path: str | Path) -> Path:
        """Write a picture of the window to ``path`` (atomically, as :mod:`ui.snapshot` does);
        raises ``OutputPathError`` for the order's or the blackboard's own file, a database or a
        folder, and ``SaveError`` when it cannot be written."""
        self.settle()
        return save_widget_image(self, path, [self.doc.path, self.scenario.path])
