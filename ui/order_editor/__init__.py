"""The writing-agent order editor (issue 6): edit a ``context-order.v1`` table with undo, and see
what each worker slot is sent and where the prompt cache breaks, as you edit.

``open_order_editor(parent=None, order_path=None, scenario_path=None)`` opens a window (the
shipped sample when no paths are given) and returns it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget

from .window import SAMPLE_ORDER, SAMPLE_SCENARIO, OrderEditorWindow

__all__ = ["OrderEditorWindow", "open_order_editor", "SAMPLE_ORDER", "SAMPLE_SCENARIO"]


def open_order_editor(parent: QWidget | None = None, order_path: str | Path | None = None,
                      scenario_path: str | Path | None = None, *,
                      report_error: Callable[[str, str], None] | None = None) -> OrderEditorWindow:
    """Create and show the editor. A ``parent`` keeps the window alive with it (and on top of it);
    without one the caller keeps the reference. A table or scenario that cannot be read is
    reported (through ``report_error`` when given, else a dialog) and the shipped sample opens
    instead, so the window never opens empty-handed."""
    try:
        window = OrderEditorWindow(order_path, scenario_path, parent)
    except (ValueError, OSError) as exc:
        text = str(exc)
        if report_error is not None:
            report_error(QCoreApplication.translate("OrderEditor", "Cannot open the context-order table"), text)
        else:
            QMessageBox.warning(parent, QCoreApplication.translate("OrderEditor", "Cannot open the context-order table"),
                                text)
        window = OrderEditorWindow(None, None, parent)
    if report_error is not None:
        window.report_error = report_error
    if parent is not None:
        from PySide6.QtCore import Qt

        window.setWindowFlag(Qt.WindowType.Window, True)
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
    window.show()
    return window
