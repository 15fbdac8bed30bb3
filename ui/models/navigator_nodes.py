"""The navigator's tree: its nodes (sessions → executions → runtimes → model requests), their
load states, the item roles and columns the views read.

Every node keeps its row typed in ``record`` (:class:`inspector.rows.SessionRow`,
:class:`~inspector.rows.TurnRow`, :class:`~inspector.rows.RuntimeRow`,
:class:`~inspector.rows.RequestRow`); ``data`` gives the row as the views' JSON contract
(``views.session_rows``/``turn_rows``/``turn_runtime_groups``/``request_rows``), for the signals
the window and the turn dock read. A runtime node's requests are the very rows its request
children hold.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from inspector.rows import RequestRow, RuntimeRow, SessionRow, TurnRow

__all__ = ["COL_CACHED", "COL_DETAIL", "COL_DURATION", "COL_NAME", "COL_TOKENS", "FAILED", "IDLE", "KeyRole",
           "KindRole", "LOADED", "LOADING", "Node", "Path", "REQUEST", "RUNTIME",
           "RowRole", "SESSION", "TURN", "break_cycles"]

SESSION, TURN, RUNTIME, REQUEST = "session", "turn", "runtime", "request"
IDLE, LOADING, LOADED, FAILED = range(4)

KindRole = Qt.ItemDataRole.UserRole + 1
KeyRole = Qt.ItemDataRole.UserRole + 2
RowRole = Qt.ItemDataRole.UserRole + 3

COL_NAME, COL_DETAIL, COL_TOKENS, COL_CACHED, COL_DURATION = range(5)

Path = list[tuple[str, Any]]
Row = SessionRow | TurnRow | RuntimeRow | RequestRow


class Node:
    __slots__ = ("kind", "key", "record", "_data", "parent", "row", "children", "state", "cells", "pending",
                 "lookup")

    def __init__(self, kind: str, key: Any, data: dict[str, Any] | Row, parent: Node | None) -> None:
        self.kind = kind
        self.key = key
        self.record: Row | None = None
        self._data: dict[str, Any] = {}
        if isinstance(data, dict):
            self.data = data
        else:
            self.record = data
        self.parent = parent
        self.row = 0
        self.children: list[Node] = []
        self.state = LOADED if kind in (RUNTIME, REQUEST) else IDLE
        # (display texts of the five columns, tooltip, status) built once on first paint:
        # data() is called thousands of times per scroll step and must be a lookup.
        self.cells: tuple[tuple[str, ...], None, str | None] | None = None
        # Rows read but not yet inserted (a session's turns beyond the pages shown so far).
        self.pending: list[dict[str, Any]] = []
        # (kind, key) -> child, built on the first lookup: following a 100,000-turn session looks
        # turns up by id on every change.
        self.lookup: dict[tuple[str, Any], Node] | None = None

    def add(self, child: Node) -> None:
        child.row = len(self.children)
        self.children.append(child)
        if self.lookup is not None:
            self.lookup.setdefault((child.kind, child.key), child)

    def child(self, kind: str, key: Any) -> Node | None:
        if self.lookup is None:
            if len(self.children) < 16:
                for c in self.children:
                    if c.kind == kind and c.key == key:
                        return c
                return None
            lookup: dict[tuple[str, Any], Node] = {}
            for c in self.children:
                lookup.setdefault((c.kind, c.key), c)
            self.lookup = lookup
        return self.lookup.get((kind, key))

    def path(self) -> Path:
        out: Path = []
        node: Node | None = self
        while node is not None and node.parent is not None:
            out.append((node.kind, node.key))
            node = node.parent
        out.reverse()
        return out

    @property
    def data(self) -> dict[str, Any]:
        """The row as JSON (from its typed ``record``; a holder's as given)."""
        return self.record.to_json() if self.record is not None else self._data

    @data.setter
    def data(self, row: dict[str, Any]) -> None:
        if self.kind == SESSION:
            self.record = SessionRow.from_json(row)
        elif self.kind == TURN:
            self.record = TurnRow.from_json(row)
        elif self.kind == RUNTIME:
            self.record = RuntimeRow.from_json(row)
        elif self.kind == REQUEST:
            self.record = RequestRow.from_json(row)
        else:
            self._data = row


def break_cycles(root: Node) -> None:
    """Unlink a dropped tree (children ↔ parent are reference cycles) so reference counting
    frees it: it may be frozen out of the garbage collector (``freeze_heap``)."""
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        node.children = []
        node.parent = None


