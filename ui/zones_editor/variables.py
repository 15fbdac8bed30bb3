"""Editors for what the templates read: the variables (declarations and per-turn values), the
environment with its per-turn patches and contributors, and the settings; and, for Covel
templates, Covel's variable catalog.

Value cells hold JSON, except that a string is written bare: ``小灯`` is the string, ``3`` the
number, ``"3"`` the string "3", ``[1, 2]`` a list. A string that would read back as something else
is shown quoted, so what is shown always reads back as the same value.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtGui import QFont, QFontDatabase, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView, QHBoxLayout, QHeaderView, QLabel, QPlainTextEdit, QPushButton, QTableWidget,
    QTableWidgetItem, QVBoxLayout, QWidget,
)

from inspector.jsjson import UNDEFINED
from inspector.zones import ConfigError, PromptConfig, Variable, build_environment
from inspector.zones.config import ZONES, from_data, is_variable_name, to_data
from inspector.zones.editing import args_text, parse_args_text, with_turn_value
from inspector.zones.covel_templates import CATALOG
from ui.views.core_texts import core_text

from .preview import value_text

# The name, then the per-turn values (what a simulation is about), then the declaration.
FIELD_COLUMNS = ("mutable", "zones", "args", "env", "example", "description")


def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("ZonesVariables", text)


def cell_text(value: Any) -> str:
    """How a value is written in a cell (see the module docstring); UNDEFINED is the empty cell."""
    if value is UNDEFINED:
        return ""
    if value == "":
        return '""'
    if isinstance(value, str):
        try:
            json.loads(value)
        except ValueError:
            return value
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(value, ensure_ascii=False)


def parse_cell(text: str) -> Any:
    """The value a cell's text stands for; the empty cell is UNDEFINED."""
    if text == "":
        return UNDEFINED
    try:
        return json.loads(text)
    except ValueError:
        return text


class VariablesView(QWidget):
    """The variable table: declarations, then one column per simulated turn. ``edited(index,
    variable, label)`` with a changed copy; ``added()``/``removed(index)``; ``failed(message)``
    for a cell that cannot be taken as written."""

    edited = Signal(int, object, str)
    added = Signal()
    removed = Signal(int)
    failed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = QTableWidget(0, 1 + len(FIELD_COLUMNS), self)
        self.table.setObjectName("variablesTable")
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.table.setAlternatingRowColors(True)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.itemChanged.connect(self._item_changed)
        add = QPushButton(_tr("Add Variable"), self)
        add.clicked.connect(self.added)
        self.remove_button = QPushButton(_tr("Remove Variable"), self)
        self.remove_button.clicked.connect(self._remove)
        hint = QLabel(_tr("Values are JSON; a string can be written bare. Grey cells come from the environment, "
                          "the example or the last value repeated; clearing a turn's cell drops it and the turns "
                          "after it."), self)
        hint.setWordWrap(True)
        hint.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        buttons = QHBoxLayout()
        buttons.setContentsMargins(4, 4, 4, 0)
        buttons.addWidget(add)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(buttons)
        layout.addWidget(hint)
        layout.addWidget(self.table, 1)
        self.config: PromptConfig | None = None
        self.turns = 1
        self._envs: list[dict] = []

    def turn_column(self, turn: int) -> int:
        return 1 + turn

    def column(self, field: str) -> int:
        """The column of a declaration field (``name`` or one of FIELD_COLUMNS)."""
        return 0 if field == "name" else 1 + self.turns + FIELD_COLUMNS.index(field)

    def headers(self) -> list[str]:
        return [_tr("Name")] + [_tr("Turn {n}").format(n=t) for t in range(self.turns)] + [
            _tr("Mutable"), _tr("Zones"), _tr("Args"), _tr("Env path"), _tr("Example"), _tr("Description")]

    def set_config(self, config: PromptConfig, turns: int) -> None:
        self.config = config
        self.turns = max(1, turns)
        self._envs = [build_environment(config, t, log_failures=False)[0] for t in range(self.turns)]
        table = self.table
        scroll = table.horizontalScrollBar().value(), table.verticalScrollBar().value()
        with QSignalBlocker(table):
            columns = 1 + len(FIELD_COLUMNS) + self.turns
            first = table.columnCount() != columns or table.rowCount() == 0
            table.setColumnCount(columns)
            table.setHorizontalHeaderLabels(self.headers())
            table.setRowCount(len(config.variables))
            for r, v in enumerate(config.variables):
                self._fill_row(r, v)
            if first:
                table.setColumnWidth(0, 120)
                for t in range(self.turns):
                    table.setColumnWidth(self.turn_column(t), 110)
                for field, width in zip(FIELD_COLUMNS, (64, 110, 80, 100, 140, 170)):
                    table.setColumnWidth(self.column(field), width)
        table.horizontalScrollBar().setValue(scroll[0])
        table.verticalScrollBar().setValue(scroll[1])

    def _item(self, r: int, c: int) -> QTableWidgetItem:
        item = self.table.item(r, c)
        if item is None:
            item = QTableWidgetItem()
            self.table.setItem(r, c, item)
        return item

    def _fill_row(self, r: int, v: Variable) -> None:
        dim = self.palette().color(QPalette.ColorRole.PlaceholderText)
        text = self.palette().color(QPalette.ColorRole.Text)
        cells = {"name": v.name, "description": v.description,
                 "zones": ", ".join(v.zones) if v.zones is not None else "",
                 "args": args_text(v.args), "env": v.env or "",
                 "example": cell_text(v.example)}
        for field, value in cells.items():
            self._item(r, self.column(field)).setText(value)
        item = self._item(r, self.column("mutable"))
        item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsUserCheckable)
        item.setCheckState(Qt.CheckState.Checked if v.mutable else Qt.CheckState.Unchecked)
        item.setToolTip(_tr("Mutable: changes during a session, so it may not enter the system zone"))
        self._item(r, self.column("zones")).setToolTip(_tr("Zones that may use it, comma-separated; empty: every zone"))
        self._item(r, self.column("args")).setToolTip(_tr("Argument names, comma-separated; a trailing ? makes one "
                                                          "optional"))
        self._item(r, self.column("env")).setToolTip(_tr("Dotted path read from each turn's environment when there "
                                                         "are no values"))
        self._item(r, 0).setToolTip(v.description)
        for t in range(self.turns):
            item = self._item(r, self.turn_column(t))
            own = isinstance(v.values, list) and t < len(v.values)
            found, value = v.value_at(t, self._envs[t] if t < len(self._envs) else {})
            item.setText(cell_text(value) if found else "")
            font = QFont(item.font())
            font.setItalic(not own)
            item.setFont(font)
            item.setForeground(text if own else dim)
            item.setToolTip(value_text(value) if found else _tr("no value on this turn"))

    # ------------------------------------------------------------------ editing

    def _item_changed(self, item: QTableWidgetItem) -> None:
        if self.config is None:
            return
        r, c = item.row(), item.column()
        if not 0 <= r < len(self.config.variables):
            return
        old = self.config.variables[r]
        try:
            new, label = self._edit(old, r, c, item)
        except ValueError as exc:
            self.failed.emit(str(exc))
            with QSignalBlocker(self.table):
                self._fill_row(r, old)
            return
        if new is None:
            return
        self.edited.emit(r, new, label)

    def _edit(self, v: Variable, r: int, c: int, item: QTableWidgetItem) -> tuple[Variable | None, str]:
        text = item.text()
        if 1 <= c <= self.turns:
            return self._edit_turn(v, c - 1, text)
        field = "name" if c == 0 else FIELD_COLUMNS[c - 1 - self.turns]
        if field == "name":
            name = text.strip()
            if not is_variable_name(name):
                raise ValueError(_tr("A variable name is one word without spaces or braces."))
            if any(o.name == name for i, o in enumerate(self.config.variables) if i != r):
                raise ValueError(_tr("Another variable is already called {name}.").format(name=name))
            return dataclasses.replace(v, name=name), _tr("Rename variable")
        if field == "description":
            return dataclasses.replace(v, description=text), _tr("Edit description")
        if field == "mutable":
            mutable = item.checkState() == Qt.CheckState.Checked
            return (dataclasses.replace(v, mutable=mutable), _tr("Change mutable")) if mutable != v.mutable \
                else (None, "")
        if field == "zones":
            names = [z.strip() for z in text.split(",") if z.strip()]
            bad = [z for z in names if z not in ZONES]
            if bad:
                raise ValueError(_tr("{zone} is not a zone; zones are system, context and input.").format(zone=bad[0]))
            return dataclasses.replace(v, zones=tuple(names) if names else None), _tr("Change zones")
        if field == "args":
            return dataclasses.replace(v, args=parse_args_text(text, v.args)), _tr("Change arguments")
        if field == "env":
            return dataclasses.replace(v, env=text.strip() or None), _tr("Change environment path")
        return dataclasses.replace(v, example=parse_cell(text)), _tr("Change example")

    def _edit_turn(self, v: Variable, turn: int, text: str) -> tuple[Variable | None, str]:
        value = parse_cell(text)
        new = with_turn_value(v, turn, value, self._envs)
        if new is None:
            return None, ""
        return new, (_tr("Clear turn values") if value is UNDEFINED else _tr("Edit turn {n} value").format(n=turn))

    def _remove(self) -> None:
        row = self.table.currentRow()
        if self.config is not None and 0 <= row < len(self.config.variables):
            self.removed.emit(row)

    def select_variable(self, name: str) -> None:
        if self.config is None:
            return
        for r, v in enumerate(self.config.variables):
            if v.name == name:
                self.table.setCurrentCell(r, 0)
                self.table.scrollToItem(self.table.item(r, 0))
                return


class EnvironmentEditor(QWidget):
    """The environment (base, per-turn patches, contributors) and the settings as JSON, applied
    with the Apply button; a mistake is shown with the config reader's own message."""

    applied = Signal(object, object)  # Environment, Settings

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.edit = QPlainTextEdit(self)
        self.edit.setObjectName("environmentJson")
        self.edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.edit.textChanged.connect(self._text_changed)
        self.status = QLabel(self)
        self.status.setWordWrap(True)
        self.apply_button = QPushButton(_tr("Apply"), self)
        self.apply_button.setShortcut("Ctrl+Return")
        self.apply_button.setToolTip(_tr("Apply the environment and settings (Ctrl+Enter)"))
        self.apply_button.clicked.connect(self.apply)
        self.revert_button = QPushButton(_tr("Revert"), self)
        self.revert_button.clicked.connect(lambda: self.set_config(self.config) if self.config else None)
        hint = QLabel(_tr("“environment”: base, turns (one patch per turn) and contributors (patch, failTurns, "
                          "error). “settings”: the choices the ChatLuna docs leave open (see the README)."), self)
        hint.setWordWrap(True)
        hint.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        row = QHBoxLayout()
        row.setContentsMargins(4, 0, 4, 4)
        row.addWidget(self.status, 1)
        row.addWidget(self.revert_button)
        row.addWidget(self.apply_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addWidget(hint)
        layout.addWidget(self.edit, 1)
        layout.addLayout(row)
        self.config: PromptConfig | None = None
        self._shown = ""
        self._loading = False

    @staticmethod
    def text_of(config: PromptConfig) -> str:
        data = to_data(config)
        defaults = {"environment": {"base": {}, "turns": [], "contributors": []}, "settings": {}}
        shown = {"environment": {**defaults["environment"], **data.get("environment", {})},
                 "settings": data.get("settings", {})}
        return json.dumps(shown, ensure_ascii=False, indent=2)

    def set_config(self, config: PromptConfig) -> None:
        self.config = config
        text = self.text_of(config)
        if text != self._shown or self.edit.toPlainText() != text:
            self._shown = text
            self._loading = True
            try:
                self.edit.setPlainText(text)
            finally:
                self._loading = False
        self._set_status("")

    def _text_changed(self) -> None:
        if not self._loading:
            self._set_status(_tr("Edited; Apply to use it."))

    def _set_status(self, text: str, error: bool = False) -> None:
        self.status.setText(text)
        pal = self.status.palette()
        from .problems import severity_colour

        pal.setColor(QPalette.ColorRole.WindowText, severity_colour("error", self.palette()) if error
                     else self.palette().color(QPalette.ColorRole.PlaceholderText))
        self.status.setPalette(pal)

    def apply(self) -> bool:
        try:
            data = json.loads(self.edit.toPlainText())
        except ValueError as exc:
            self._set_status(_tr("Not valid JSON: {error}").format(error=exc), error=True)
            return False
        if not isinstance(data, dict) or not set(data) <= {"environment", "settings"}:
            self._set_status(_tr("Expected an object with “environment” and “settings”."), error=True)
            return False
        try:
            parsed = from_data({k: v for k, v in data.items() if v is not None}, _tr("environment"))
        except ConfigError as exc:
            self._set_status(core_text(str(exc)), error=True)
            return False
        self.applied.emit(parsed.environment, parsed.settings)
        self._set_status(_tr("Applied."))
        return True


class CatalogView(QTableWidget):
    """Covel's template variables: path, whether it changes between turns, description, example.
    Double-clicking a row asks for ``{{ path }}`` to be inserted (``insertRequested``)."""

    insertRequested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(len(CATALOG), 4, parent)
        self.setObjectName("covelCatalog")
        self.setHorizontalHeaderLabels([_tr("Path"), _tr("Per turn"), _tr("Description"), _tr("Example")])
        self.verticalHeader().hide()
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setAlternatingRowColors(True)
        self.horizontalHeader().setStretchLastSection(True)
        for r, v in enumerate(CATALOG):
            path = v.path + (".…" if v.open else "")
            description = core_text(v.description)
            instead = core_text(v.instead) if v.changes_between_turns and v.instead else ""
            cells = [path, _tr("yes") if v.changes_between_turns else "", description,
                     value_text(v.example).replace("\n", " ⏎ ")]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, v.path)
                tip = description
                if instead:
                    tip += "\n" + _tr("Changes between turns; instead: {instead}").format(instead=instead)
                item.setToolTip(tip)
                self.setItem(r, c, item)
        self.setColumnWidth(0, 170)
        self.setColumnWidth(1, 64)
        self.setColumnWidth(2, 260)
        self.itemDoubleClicked.connect(lambda item: self.insertRequested.emit(item.data(Qt.ItemDataRole.UserRole)))
