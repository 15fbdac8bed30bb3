"""The item data roles a model answers for the row actions of :mod:`ui.item_actions` (Ctrl+C and
the context menu every tree and table has). Every role is optional: a row without one still copies
its cells, and its JSON is then its column headers with the cells' texts.
"""

from __future__ import annotations

from PySide6.QtCore import Qt

__all__ = ["ID_ROLE", "JSON_ROLE", "REQUEST_ROLE"]

_BASE = int(Qt.ItemDataRole.UserRole) + 0x4900

# str: the row's full id (a session, turn or request id...), what "Copy Id" copies.
ID_ROLE = _BASE + 1
# str: the row's JSON text, as the core writes it (``inspector.output.dump_json(row.to_json())``),
# what "Copy as JSON" copies. Text, not a dict: a dict handed through Qt comes back with its keys
# sorted.
JSON_ROLE = _BASE + 2
# str: the ``llm.calling`` event id of the model request the row stands for ("Compare with the
# Shown Request").
REQUEST_ROLE = _BASE + 3
