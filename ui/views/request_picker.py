"""The "Compare with…" dialog: pick another request of the same session."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLineEdit, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from inspector.numbering import shown as shown_number

from ui.views.names import turn_title


def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("RequestView", text)


def num(value: Any) -> str:
    """A count with thousands separators, or "–" when there is none."""
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else "–"


def shown_or_unknown(value: Any) -> Any:
    """A recorded position as a person reads it, or "?" when the row does not say."""
    number = shown_number(value)
    return number if isinstance(number, int) else "?"


class RequestPickerDialog(QDialog):
    """Pick another request of the same session (rows from :func:`views.compare_candidates`)."""

    def __init__(self, rows: list[dict[str, Any]], runtime_id: str | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_tr("Compare with…"))
        self.resize(820, 480)
        self.filter = QLineEdit(self)
        self.filter.setPlaceholderText(_tr("Filter by runtime, model or id"))
        self.filter.setClearButtonEnabled(True)
        self.list = QTreeWidget(self)
        self.list.setRootIsDecorated(False)
        self.list.setUniformRowHeights(True)
        self.list.setHeaderLabels([_tr("Turn"), _tr("Runtime"), _tr("Step"), _tr("Attempt"), _tr("Model"),
                                   _tr("Input tokens"), _tr("Request id")])
        for col, width in enumerate((80, 230, 45, 60, 150, 90)):
            self.list.setColumnWidth(col, width)
        preselect: QTreeWidgetItem | None = None
        for row in rows:
            item = QTreeWidgetItem([
                turn_title(row.get("turnNumber"), row.get("turnId")), row.get("runtimeId") or "", str(shown_or_unknown(row.get("step"))),
                str(shown_or_unknown(row.get("attempt"))), row.get("model") or "", num(row.get("inputTokens")),
                row["eventId"],
            ])
            item.setData(0, Qt.ItemDataRole.UserRole, row["eventId"])
            self.list.addTopLevelItem(item)
            if row.get("runtimeId") == runtime_id:
                preselect = item  # the latest earlier-or-later call of the same runtime
        if preselect is not None:
            self.list.setCurrentItem(preselect)
            self.list.scrollToItem(preselect)
        self.list.itemDoubleClicked.connect(lambda _i, _c: self.accept())
        self.filter.textChanged.connect(self._filter)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.filter)
        layout.addWidget(self.list, 1)
        layout.addWidget(buttons)

    def _filter(self, text: str) -> None:
        needle = text.strip().lower()
        for i in range(self.list.topLevelItemCount()):
            item = self.list.topLevelItem(i)
            hay = " ".join(item.text(c) for c in range(item.columnCount())).lower()
            item.setHidden(bool(needle) and needle not in hay)

    def selected_id(self) -> str | None:
        item = self.list.currentItem()
        return None if item is None or item.isHidden() else item.data(0, Qt.ItemDataRole.UserRole)
