"""The fields of the selected block (id, zone, order, role, purpose, template, complete, source),
each with a marker for the diagnostics about that field (an order out of range, a duplicate id,
a tie) whose tooltip is the message."""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QDoubleSpinBox, QGridLayout, QHBoxLayout, QLabel, QLineEdit, QWidget,
)

from inspector.jsjson import js_number
from inspector.zones import Block, Diagnostic
from inspector.zones import diagnostic as dg
from inspector.zones.config import PURPOSES, ROLES, ZONES

from .blocks_model import zone_title
from .problems import message_text, severity_icon, severity_name
from .ruler import band_title



def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("BlockForm", text)


class OrderSpin(QDoubleSpinBox):
    """Orders are usually whole numbers; show them without decimals unless they have some."""

    def textFromValue(self, value: float) -> str:  # noqa: N802 - Qt override
        return js_number(round(value, 2))


class BlockForm(QWidget):
    """``set_block(block)``; ``fieldEdited(attr, value)`` for the user's edits; ``set_problems``
    with the block's field diagnostics."""

    fieldEdited = Signal(str, object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.id_edit = QLineEdit(self)
        self.id_edit.setObjectName("blockId")
        self.id_edit.editingFinished.connect(lambda: self._emit("id", self.id_edit.text().strip()))
        self.zone_combo = QComboBox(self)
        for zone in ZONES:
            self.zone_combo.addItem(zone_title(zone), zone)
        self.zone_combo.activated.connect(lambda _i: self._emit("zone", self.zone_combo.currentData()))
        self.order_spin = OrderSpin(self)
        self.order_spin.setObjectName("blockOrder")
        self.order_spin.setDecimals(2)
        self.order_spin.setRange(-1_000_000, 1_000_000)
        self.order_spin.setKeyboardTracking(False)
        self.order_spin.valueChanged.connect(self._order_changed)
        self.role_combo = QComboBox(self)
        self.role_combo.addItem(_tr("(default)"), None)
        for role in ROLES:
            self.role_combo.addItem(role, role)
        self.role_combo.activated.connect(lambda _i: self._emit("role", self.role_combo.currentData()))
        self.purpose_combo = QComboBox(self)
        self.purpose_combo.addItem(_tr("(none)"), None)
        for purpose in PURPOSES:
            self.purpose_combo.addItem(band_title(purpose), purpose)
        self.purpose_combo.setToolTip(_tr("The system-zone band this block means to sit in; the order is checked "
                                          "against it"))
        self.purpose_combo.activated.connect(lambda _i: self._emit("purpose", self.purpose_combo.currentData()))
        self.template_box = QCheckBox(_tr("Template"), self)
        self.template_box.setToolTip(_tr("Run the text through the template engine; otherwise braces are literal"))
        self.template_box.toggled.connect(lambda on: self._emit("template", on))
        self.complete_box = QCheckBox(_tr("Complete"), self)
        self.complete_box.setToolTip(_tr("An exclusive system block: it replaces every other system block"))
        self.complete_box.toggled.connect(lambda on: self._emit("complete", on))
        self.source_edit = QLineEdit(self)
        self.source_edit.setPlaceholderText(_tr("plugin that registers it"))
        self.source_edit.editingFinished.connect(lambda: self._emit("source", self.source_edit.text().strip() or None))

        self.markers: dict[str, QLabel] = {}
        grid = QGridLayout(self)
        grid.setContentsMargins(4, 4, 4, 4)
        grid.setHorizontalSpacing(6)
        grid.setVerticalSpacing(3)

        def add(row: int, col: int, label: str, widget: QWidget, field: str) -> None:
            grid.addWidget(QLabel(label, self), row, col)
            box = QHBoxLayout()
            box.setSpacing(2)
            box.addWidget(widget, 1)
            marker = QLabel(self)
            marker.setFixedWidth(18)
            marker.setObjectName(f"marker_{field}")
            box.addWidget(marker)
            self.markers[field] = marker
            grid.addLayout(box, row, col + 1)

        add(0, 0, _tr("Id"), self.id_edit, "id")
        add(0, 2, _tr("Zone"), self.zone_combo, "zone")
        add(1, 0, _tr("Order"), self.order_spin, "order")
        add(1, 2, _tr("Role"), self.role_combo, "role")
        add(2, 0, _tr("Purpose"), self.purpose_combo, "purpose")
        add(2, 2, _tr("Source"), self.source_edit, "source")
        flags = QWidget(self)
        fl = QHBoxLayout(flags)
        fl.setContentsMargins(0, 0, 0, 0)
        fl.addWidget(self.template_box)
        fl.addStretch(1)
        fl.addWidget(self.complete_box)
        add(3, 0, _tr("Flags"), flags, "complete")
        grid.setColumnStretch(1, 1)
        grid.setColumnStretch(3, 1)
        self.block: Block | None = None
        self.widgets = {"id": self.id_edit, "zone": self.zone_combo, "order": self.order_spin,
                        "role": self.role_combo, "purpose": self.purpose_combo, "complete": self.complete_box,
                        "template": self.template_box, "source": self.source_edit, "content": None}
        self.set_block(None)

    def set_block(self, block: Block | None) -> None:
        self.block = block
        widgets = (self.id_edit, self.zone_combo, self.order_spin, self.role_combo, self.purpose_combo,
                   self.template_box, self.complete_box, self.source_edit)
        blockers = [QSignalBlocker(w) for w in widgets]
        try:
            for w in widgets:
                w.setEnabled(block is not None)
            if block is None:
                self.id_edit.clear()
                self.source_edit.clear()
                return
            self.id_edit.setText(block.id)
            self.zone_combo.setCurrentIndex(max(0, self.zone_combo.findData(block.zone)))
            self.order_spin.setValue(float(block.order))
            self.role_combo.setCurrentIndex(max(0, self.role_combo.findData(block.role)))
            self.purpose_combo.setCurrentIndex(max(0, self.purpose_combo.findData(block.purpose)))
            self.template_box.setChecked(block.template)
            self.complete_box.setChecked(block.complete)
            self.source_edit.setText(block.source or "")
        finally:
            del blockers

    def _order_changed(self, value: float) -> None:
        order: int | float = int(value) if float(value).is_integer() else value
        self._emit("order", order)

    def _emit(self, attr: str, value: object) -> None:
        if self.block is None:
            return
        old = getattr(self.block, attr)
        if old == value and type(old) is type(value):
            return
        if attr == "id" and not value:
            self.id_edit.setText(self.block.id)
            return
        self.fieldEdited.emit(attr, value)

    def set_problems(self, diagnostics: list[Diagnostic]) -> None:
        """Field diagnostics of the shown block (``field`` other than ``content``)."""
        by_field: dict[str, list[Diagnostic]] = {}
        for d in diagnostics:
            by_field.setdefault(d.field or "", []).append(d)
        for field, marker in self.markers.items():
            found = sorted(by_field.get(field, []), key=lambda d: dg.severity_rank(d.severity))
            if not found:
                marker.clear()
                marker.setToolTip("")
                continue
            marker.setPixmap(severity_icon(found[0].severity, self.palette()).pixmap(16, 16))
            marker.setToolTip("\n".join(f"{severity_name(d.severity)} [{d.code}]: {message_text(d)}" for d in found))

    def focus_field(self, field: str | None) -> bool:
        widget = self.widgets.get(field or "")
        if widget is None:
            return False
        widget.setFocus(Qt.FocusReason.OtherFocusReason)
        if isinstance(widget, QLineEdit):
            widget.selectAll()
        elif isinstance(widget, QDoubleSpinBox):
            widget.selectAll()
        return True
