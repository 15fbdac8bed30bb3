"""The navigator's filter: requests that match the runtime, model and prompt-text criteria, plus
their ancestors (computed once, in Python), so a matching request keeps its execution and
session visible; and the unfiltered tree's stand-in with the same mapping API."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, QSortFilterProxyModel

from inspector.rows import RequestRow

from .navigator_nodes import REQUEST, Node
from .navigator_tree import NavigatorModel, fill_roles

__all__ = ["NavigatorFilter", "ShownModel"]


class NavigatorFilter(QSortFilterProxyModel):
    """Keeps requests that match every active criterion, plus their ancestors.

    A filter is only applied once the whole tree is loaded, so the accepted nodes (matches and
    their ancestors) are computed once, in one Python pass over the tree, and ``filterAcceptsRow``
    is a set lookup. Qt's recursive filtering asked Python for ``filterAcceptsRow``, ``index()``
    and ``parent()`` hundreds of thousands of times for a broad search (a quarter-second stall).
    Rows inserted while a filter is active (a level that failed to load and was opened later)
    recompute the set and re-filter.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setRecursiveFilteringEnabled(False)
        self.setAutoAcceptChildRows(False)
        self._runtime: str | None = None
        self._model: str | None = None
        self._matches: set[str] | None = None
        self._accepted: set[Node] = set()
        # The requests the prompt search found that pass the other criteria, in the tree's order
        # (what the hit count counts and F3 steps through); empty without a search.
        self.hits: list[Node] = []
        self._root: Node | None = None  # the model root ``_accepted`` was computed for
        self._source: NavigatorModel | None = None

    @property
    def active(self) -> bool:
        return self._runtime is not None or self._model is not None or self._matches is not None

    def setSourceModel(self, model: QAbstractItemModel) -> None:  # noqa: N802 - Qt override
        super().setSourceModel(model)
        self._source = model if isinstance(model, NavigatorModel) else None
        if self._source is not None:
            model.rowsInserted.connect(self._source_rows_inserted)

    def set_criteria(self, *, runtime: str | None = None, model: str | None = None,
                     matches: set[str] | None = None) -> None:
        """``matches`` is the set of request ids the prompt search found, or None for no search."""
        self.beginFilterChange()
        self._runtime, self._model, self._matches = runtime, model, matches
        self._compute_accepted()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def clear_criteria(self) -> None:
        """No criteria, and no mappings: for when the filter is not shown."""
        self._runtime = self._model = self._matches = None
        self._accepted = set()
        self.hits = []
        self._root = None
        self.invalidate()

    def _request_matches(self, row: RequestRow) -> bool:
        # A request node's record is always a RequestRow (navigator_nodes).
        if self._runtime is not None and row.runtime_id != self._runtime:
            return False
        if self._model is not None and row.model != self._model:
            return False
        if self._matches is not None and row.event_id not in self._matches:
            return False
        return True

    def _compute_accepted(self) -> None:
        """The nodes to show: matching requests and every ancestor of one; and the search's hits
        in the tree's order (the pass walks the tree depth first, top to bottom)."""
        accepted: set[Node] = set()
        hits: list[Node] = []
        root = self._source.root if self._source is not None else None
        self._root = root
        if root is not None and self.active:
            stack = root.children[::-1]
            matches = self._request_matches
            add = accepted.add
            while stack:
                node = stack.pop()
                if node.kind == REQUEST:
                    if node not in accepted and matches(node.record):
                        hits.append(node)
                        up: Node | None = node
                        while up is not None and up is not root and up not in accepted:
                            add(up)
                            up = up.parent
                else:
                    stack.extend(node.children[::-1])
        self._accepted = accepted
        self.hits = hits if self._matches is not None else []

    def _source_rows_inserted(self, *_args: Any) -> None:
        if self.active:
            self.set_criteria(runtime=self._runtime, model=self._model, matches=self._matches)

    def hasChildren(self, parent: QModelIndex = QModelIndex()) -> bool:  # noqa: N802 - Qt override
        # An accepted node other than a request is accepted because it has an accepted child:
        # answering that from the set spares Qt building the filter's mapping of every row the
        # tree lays out (several Python calls per row) just to draw expand arrows.
        if not self.active or self._source is None or self._root is not self._source.root:
            return super().hasChildren(parent)
        if not parent.isValid():
            return bool(self._accepted)
        if parent.column() != 0:
            return False
        node: Node | None = self.mapToSource(parent).internalPointer()
        return node is not None and node.kind != REQUEST and node in self._accepted

    def multiData(self, index: QModelIndex, roles: Any) -> None:  # noqa: N802 - Qt override
        # Qt's proxy answers multiData role by role through data(): one Python call per cell.
        if self._source is None:
            super().multiData(index, roles)
            return
        source = self.mapToSource(index)
        fill_roles(self._source, source.internalPointer() if source.isValid() else None, source.column(), roles)

    def filterAcceptsRow(self, source_row: int, source_parent: QModelIndex) -> bool:  # noqa: N802
        if not self.active:
            return True
        source = self._source
        if source is None:
            return False
        if self._root is not source.root:  # the model was reset under the filter
            self._compute_accepted()
        parent = source_parent.internalPointer() if source_parent.isValid() else self._root
        children = parent.children
        return 0 <= source_row < len(children) and children[source_row] in self._accepted


class ShownModel:
    """The unfiltered tree's stand-in for the filter: the same mapping API, identity mapping."""

    active = False

    def __init__(self, model: NavigatorModel) -> None:
        self._model = model

    def sourceModel(self) -> NavigatorModel:  # noqa: N802 - Qt naming
        return self._model

    @staticmethod
    def mapFromSource(index: QModelIndex) -> QModelIndex:  # noqa: N802 - Qt naming
        return QModelIndex(index)

    @staticmethod
    def mapToSource(index: QModelIndex) -> QModelIndex:  # noqa: N802 - Qt naming
        return QModelIndex(index)

    def index(self, row: int, column: int = 0, parent: QModelIndex = QModelIndex()) -> QModelIndex:
        return self._model.index(row, column, parent)

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:  # noqa: N802 - Qt naming
        return self._model.rowCount(parent)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._model, name)
