"""The prompt-zones editor (issue 7): ChatLuna prompt blocks and Covel templates with live
diagnostics, a live preview with the digest, and a turn simulator.

``open_zones_editor(parent=None, path=None)`` opens a window on ``path`` (a JSON/YAML/TOML config
or a Covel ``.md``/``.covel`` template), or on the shipped sample when ``path`` is None.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QWidget

from .window import ZonesEditorWindow

__all__ = ["ZonesEditorWindow", "open_zones_editor"]


def open_zones_editor(parent: QWidget | None = None, path: str | Path | None = None, *,
                      report_error: Callable[[str, str], None] | None = None) -> ZonesEditorWindow:
    """Create, fill and show the editor. A file that cannot be read is reported (through
    ``report_error`` when given, else the window's dialog) and the sample is shown instead, so the
    window never opens empty-handed."""
    window = ZonesEditorWindow(parent)
    if report_error is not None:
        window.report_error = report_error
    if path is None or not window.open_path(path):
        window.open_path(None)
    window.show()
    return window
