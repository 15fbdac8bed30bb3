"""The layout findings of a cache analysis, one row each, with the explanation of the selected one."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QLabel,
    QSizePolicy,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.cache.results import Finding
from inspector.output import dump_json
from ui.views.part_names import part_label

from ..models.item_roles import JSON_ROLE
from .cache_texts import finding_message_text, runtime_name
from .columns import ColumnFitter


def _tr(text: str) -> str:
    return QCoreApplication.translate("CacheView", text)


def finding_title(kind: str) -> str:
    return {
        "turn-volatile-system-text": _tr("Turn-volatile text in the system prompt"),
        "too-many-breakpoints": _tr("Too many cache breakpoints"),
        "breakpoint-on-volatile-content": _tr("Breakpoint on volatile content"),
        "data-blocks-last": _tr("Data blocks last"),
        "sliding-history-window": _tr("Sliding history window"),
        "moving-history-insertion": _tr("Moving history insertion"),
        "wasted-breakpoint": _tr("Breakpoint below the minimum"),
        "dead-cache-writes": _tr("Cache writes never read"),
        "one-hour-ttl-pays": _tr("A 1-hour TTL would pay"),
        "cost-classes": _tr("Input cost by billing class"),
    }.get(kind, kind)


class FindingsList(QWidget):
    """The layout checks that fired, one row each: runtime, check, the part it concerns, how
    often; the explanation below the list for the selected one. ``findingSelected(Finding)``."""

    findingSelected = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.findings: list[Finding] = []
        self.tree = QTreeWidget(self)
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setHeaderLabels([_tr("Layout check"), _tr("Runtime"), _tr("Part"), _tr("Turns")])
        # The check, runtime and turns columns as wide as their texts; the part takes the rest
        # (elided in a narrow dock, whole on hover).
        self.columns = ColumnFitter(self.tree, 2, minimums={0: 120, 1: 80})
        self.tree.currentItemChanged.connect(lambda cur, _prev: self._selected(cur))
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.message.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.message)
        self.set_findings([], running=False)

    def set_findings(self, findings: list[Finding], *, running: bool) -> None:
        self.findings = list(findings)
        self.tree.clear()
        for i, f in enumerate(self.findings):
            item = QTreeWidgetItem([finding_title(f.kind), runtime_name(f.runtime_id), part_label(f.part),
                                    f"{f.count}/{f.out_of}"])
            item.setData(0, Qt.ItemDataRole.UserRole, i)
            item.setData(0, JSON_ROLE, dump_json(f.to_json()))  # as `cache --findings --json` prints it
            item.setToolTip(0, finding_message_text(f.message))
            shown = part_label(f.part)
            item.setToolTip(2, shown if shown == f.part else f"{shown}\n{f.part}")
            item.setTextAlignment(3, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            if f.severity == "warning":
                item.setForeground(0, QBrush(QColor("#d9480f")))
            self.tree.addTopLevelItem(item)
        if running:
            self.message.setText(_tr("Layout checks run when the analysis of the session is complete."))
        elif not self.findings:
            self.message.setText(_tr("No layout problems found in this session."))
        else:
            self.message.setText(_tr("Select a finding for its explanation; it selects the first turn it concerns."))

    def _selected(self, item: QTreeWidgetItem | None) -> None:
        if item is None:
            return
        finding = self.findings[item.data(0, Qt.ItemDataRole.UserRole)]
        text = finding_message_text(finding.message)
        example = finding.example or {}
        if example.get("now") is not None:
            text += "\n" + _tr("e.g. {part}: “{was}” → “{now}”").format(
                part=example.get("part", ""), was=(example.get("was") or "").replace("\n", "⏎")[:60],
                now=(example.get("now") or "").replace("\n", "⏎")[:60])
        self.message.setText(text)
        self.findingSelected.emit(finding)

