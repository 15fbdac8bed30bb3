"""The left-hand tree: sessions → turns → runtimes → model requests.

``NavigatorModel`` is a lazily filled ``QAbstractItemModel`` in the qutebrowser category→row
shape, one level deeper: a node keeps its parent in ``internalPointer`` and children arrive via
``canFetchMore``/``fetchMore``, read on the task manager's pool. ``NavigatorFilter`` does the
runtime / model / prompt-text filtering from the set of matching requests and their ancestors
(computed once, in Python), so a matching request keeps its turn and session visible.
``Navigator`` is the widget: filter bar, tree, and the signals the rest of the window listens to.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QCoreApplication,
    QDateTime,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPoint,
    QSortFilterProxyModel,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QColor, QIcon, QPainter, QPalette, QPixmap
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from inspector import views
from inspector.store import StoreConnectionError

from .part_names import value_label
from .workers import Job, TaskManager, freeze_heap

CONTEXT = "Navigator"


def _tr(text: str) -> str:
    return QCoreApplication.translate("Navigator", text)


SESSION, TURN, RUNTIME, REQUEST = "session", "turn", "runtime", "request"
IDLE, LOADING, LOADED, FAILED = range(4)

KindRole = Qt.ItemDataRole.UserRole + 1
KeyRole = Qt.ItemDataRole.UserRole + 2
RowRole = Qt.ItemDataRole.UserRole + 3

COL_NAME, COL_DETAIL, COL_TOKENS, COL_CACHED, COL_DURATION = range(5)

Path = list[tuple[str, Any]]


# How many matching turns a filter opens by itself (see Navigator._expand_matches).
MAX_EXPANDED_MATCH_TURNS = 50

class Node:
    __slots__ = ("kind", "key", "data", "parent", "row", "children", "state", "cells", "pending", "lookup")

    def __init__(self, kind: str, key: Any, data: dict[str, Any], parent: Node | None) -> None:
        self.kind = kind
        self.key = key
        self.data = data
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


# ---------------------------------------------------------------------------------- formatting

def _count(n: int, one: str, many: str) -> str:
    return (one if n == 1 else many).format(n=n)


def format_number(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value if isinstance(value, str) else ""  # text: a damaged store's column, as stored
    return f"{int(value):,}"


def format_duration(ms: Any) -> str:
    if isinstance(ms, bool) or not isinstance(ms, (int, float)):
        return ms if isinstance(ms, str) else ""  # as format_number
    if ms < 1000:
        return _tr("{ms} ms").format(ms=int(ms))
    if ms < 60_000:
        return _tr("{s:.2f} s").format(s=ms / 1000)
    minutes, seconds = divmod(int(ms) // 1000, 60)
    return _tr("{m} min {s} s").format(m=minutes, s=seconds)


def format_time(iso: Any, *, short: bool = False) -> str:
    """Local time of an ISO timestamp; ``short`` drops the date (the tree's detail column)."""
    if not isinstance(iso, str) or not iso:
        return ""
    dt = QDateTime.fromString(iso, Qt.DateFormat.ISODateWithMs)
    if not dt.isValid():
        return iso
    return dt.toLocalTime().toString("HH:mm:ss" if short else "yyyy-MM-dd HH:mm:ss")


def _dot(color: QColor) -> QIcon:
    # Status is a colour dot rather than a per-status icon set: legible at 100–200 % and in both
    # colour schemes, and nothing to ship.
    size = 64
    pix = QPixmap(size, size)
    pix.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pix)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(color)
    painter.drawEllipse(14, 14, size - 28, size - 28)
    painter.end()
    return QIcon(pix)


_STATUS_COLOURS = {
    "completed": QColor("#2e9d4f"),
    "success": QColor("#2e9d4f"),
    "ok": QColor("#2e9d4f"),
    "committed": QColor("#2e9d4f"),
    "failed": QColor("#d64545"),
    "error": QColor("#d64545"),
    "skipped": QColor("#8a8f98"),
    "started": QColor("#d9a21b"),
    "running": QColor("#d9a21b"),
}


def _status_of(node: Node) -> str | None:
    d = node.data
    if node.kind == TURN:
        return d.get("commitStatus") or "running"
    if node.kind == RUNTIME:
        return d.get("status")
    if node.kind == REQUEST:
        if d.get("responseEventId") is None:
            return "running"
        return "error" if d.get("finishReason") == "error" else "completed"
    return None


def _break_cycles(root: Node) -> None:
    """Unlink a dropped tree (children ↔ parent are reference cycles) so reference counting
    frees it: it may be frozen out of the garbage collector (``freeze_heap``)."""
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        node.children = []
        node.parent = None


# ---------------------------------------------------------------------------------- model

class NavigatorModel(QAbstractItemModel):
    """Sessions at the top level; turns, runtimes and requests fetched on demand.

    ``loaded(object)`` fires with the node whose children just arrived; ``loadFailed(str)`` with
    the reason a fetch failed; ``loadingChanged(int)`` with the number of fetches in flight;
    ``connectionChanged(str)`` with the reason the database server cannot be reached, then with ""
    once a retry got through. A fetch that failed for want of a connection is not an error to
    show in a dialog: what is already listed stays, and it is tried again every
    :attr:`RETRY_SECONDS`.
    """

    loaded = Signal(object)
    loadFailed = Signal(str)
    loadingChanged = Signal(int)
    connectionChanged = Signal(str)

    RETRY_SECONDS = 5.0

    def __init__(self, tasks: TaskManager, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tasks = tasks
        self._store: Any = None
        self._root = Node("root", None, {}, None)
        self._root.state = LOADED
        self._generation = 0
        self._loading = 0
        self._load_all = False
        self._icons: dict[str, QIcon] = {}
        self._retry: list[Node] = []  # fetches that failed for want of a connection
        self._connection_lost = False
        self._retry_timer = QTimer(self)
        self._retry_timer.setSingleShot(True)
        self._retry_timer.timeout.connect(self._retry_fetches)

    # ------------------------------------------------------------------ content

    @property
    def root(self) -> Node:
        return self._root

    @property
    def store(self) -> Any:
        return self._store

    @property
    def loading(self) -> int:
        return self._loading

    def reset(self, store: Any, sessions: Iterable[dict[str, Any]]) -> None:
        """Show ``store``'s ``sessions`` (``views.session_rows``); children are fetched later."""
        self.beginResetModel()
        self._generation += 1
        self._store = store
        _break_cycles(self._root)
        self._root = Node("root", None, {}, None)
        self._root.state = LOADED
        self._load_all = False
        self._retry = []
        self._retry_timer.stop()
        if self._connection_lost:
            self._connection_lost = False
            self.connectionChanged.emit("")
        if self._loading:
            self._loading = 0
            self.loadingChanged.emit(0)
        for row in sessions:
            self._root.add(Node(SESSION, row["sessionId"], row, self._root))
        self.endResetModel()

    def clear(self) -> None:
        self.reset(None, [])

    def node(self, index: QModelIndex) -> Node:
        if index.isValid():
            return index.internalPointer()
        return self._root

    def index_of(self, node: Node, column: int = 0) -> QModelIndex:
        if node is self._root or node.parent is None:
            return QModelIndex()
        return self.createIndex(node.row, column, node)

    def find(self, path: Path) -> tuple[Node, int]:
        """The deepest node along ``path`` and how many steps of it were found."""
        node = self._root
        for depth, (kind, key) in enumerate(path):
            child = node.child(kind, key)
            if child is None and node.pending and any(row.get("turnId") == key for row in node.pending):
                while child is None and node.pending:
                    self.fetch_page(node)
                    child = node.child(kind, key)
            if child is None and kind == RUNTIME and depth + 1 < len(path):
                # A request whose runtime id differs from the one asked for (or is missing) is
                # still found under its turn.
                nkind, nkey = path[depth + 1]
                for runtime in node.children:
                    hit = runtime.child(nkind, nkey)
                    if hit is not None:
                        return hit, len(path)
            if child is None:
                return node, depth
            node = child
        return node, len(path)

    # ------------------------------------------------------------------ fetching

    def fetch(self, node: Node) -> None:
        """Start loading ``node``'s children unless they are loaded or loading."""
        if node.state != IDLE or node.kind not in (SESSION, TURN) or self._store is None:
            return
        node.state = LOADING
        store = self._store
        generation = self._generation
        if node.kind == SESSION:
            sid = node.key
            if self._load_all:
                def work(_job: Job) -> Any:
                    return views.turn_tree_rows(store, sid)
            else:
                def work(_job: Job) -> Any:
                    return views.turn_rows(store, sid)
        else:
            sid = node.parent.key  # type: ignore[union-attr]
            tid = node.key

            def work(_job: Job) -> Any:
                return views.turn_runtime_groups(store, sid, tid)

        self._set_loading(self._loading + 1)
        self._tasks.run(
            work,
            lambda rows: self._fetched(generation, node, rows),
            lambda exc: self._fetch_failed(generation, node, exc),
            resource=store, pause_gc="freeze",
        )

    def fully_loaded(self) -> bool:
        """True when every session and every turn has its children (or failed to get them)."""
        return all(session.state in (LOADED, FAILED) and not session.pending
                   and all(turn.state in (LOADED, FAILED) for turn in session.children)
                   for session in self._root.children)

    def load_everything(self) -> None:
        """Fetch every level of every session (needed before filtering the whole store).

        A session whose turns are listed but not opened gets all its runtimes in one read
        (``views.session_runtime_groups``), attached in batches so the GUI never stalls."""
        self._load_all = True
        for session in self._root.children:
            if session.state == IDLE:
                self.fetch(session)
            elif session.state == LOADED:
                if session.pending:
                    # A filter looks at every turn: the pages not shown yet are inserted at once.
                    self.fetch_page(session, len(session.pending))
                self._fetch_session_runtimes(session)

    def _fetch_session_runtimes(self, session: Node) -> None:
        idle = [turn for turn in session.children if turn.state == IDLE]
        if not idle or self._store is None:
            return
        for turn in idle:
            turn.state = LOADING
        store, generation, sid = self._store, self._generation, session.key
        self._set_loading(self._loading + 1)

        def failed(exc: BaseException) -> None:
            if generation != self._generation:
                return
            for turn in idle:
                if turn.state == LOADING:
                    turn.state = IDLE
            self._fetch_failed(generation, session, exc)
            session.state = LOADED

        self._tasks.run(lambda _job: views.session_runtime_groups(store, sid),
                        lambda groups: self._attach_batches(generation, session, idle, groups),
                        failed, resource=store, pause_gc="freeze")

    ATTACH_BATCH = 64

    def _attach_batches(self, generation: int, session: Node, turns: list[Node],
                        groups: dict[str, list[dict[str, Any]]]) -> None:
        """Insert the runtimes of ``turns`` a batch at a time, yielding to the event loop between."""
        if generation != self._generation:
            return
        batch, rest = turns[:self.ATTACH_BATCH], turns[self.ATTACH_BATCH:]
        for turn in batch:
            if turn.state != LOADING:
                continue
            holder = Node("holder", None, {}, None)
            self._attach_runtimes(holder, groups.get(turn.key, []))
            turn.state = LOADED
            if holder.children:
                self.beginInsertRows(self.index_of(turn), 0, len(holder.children) - 1)
                for child in holder.children:
                    child.parent = turn
                    turn.add(child)
                self.endInsertRows()
            else:
                idx = self.index_of(turn)
                self.dataChanged.emit(idx, idx.siblingAtColumn(COL_DURATION))
            self.loaded.emit(turn)
        if rest:
            QTimer.singleShot(0, lambda: self._attach_batches(generation, session, rest, groups))
        else:
            freeze_heap()
            self._set_loading(self._loading - 1)
            self.loaded.emit(session)

    def _set_loading(self, value: int) -> None:
        self._loading = value
        self.loadingChanged.emit(value)

    # Turns of a session are inserted this many at a time (canFetchMore/fetchMore): the tree
    # lays out and the model keeps nodes only for the pages the user scrolled to.
    PAGE_SIZE = 500

    def fetch_page(self, node: Node, count: int | None = None) -> int:
        """Insert the next page (or ``count`` rows) of ``node``'s pending rows; returns how many."""
        if not node.pending:
            return 0
        take = self.PAGE_SIZE if count is None else max(1, count)
        rows, node.pending = node.pending[:take], node.pending[take:]
        new = [self._turn_node(node, row) for row in rows]
        start = len(node.children)
        self.beginInsertRows(self.index_of(node), start, start + len(new) - 1)
        for child in new:
            node.add(child)
        self.endInsertRows()
        return len(new)

    def _turn_node(self, session: Node, row: dict[str, Any]) -> Node:
        turn = Node(TURN, row["turnId"], row, session)
        runtimes = row.pop("runtimes", None)
        if runtimes is not None:
            self._attach_runtimes(turn, runtimes)
        return turn

    def _retry_fetches(self) -> None:
        waiting, self._retry = self._retry, []
        for node in waiting:
            self.fetch(node)

    def _fetched(self, generation: int, node: Node, rows: list[dict[str, Any]]) -> None:
        if generation != self._generation:
            return
        if self._connection_lost:
            self._connection_lost = False
            self.connectionChanged.emit("")
        self._set_loading(self._loading - 1)
        new: list[Node] = []
        if node.kind == SESSION:
            if not self._load_all and len(rows) > self.PAGE_SIZE:
                node.pending = rows[self.PAGE_SIZE:]
                rows = rows[:self.PAGE_SIZE]
            new = [self._turn_node(node, row) for row in rows]
        else:
            holder = Node("holder", None, {}, None)
            self._attach_runtimes(holder, rows)
            new = holder.children
            for child in new:
                child.parent = node
        node.state = LOADED
        if new:
            parent_index = self.index_of(node)
            self.beginInsertRows(parent_index, 0, len(new) - 1)
            for child in new:
                node.add(child)
            self.endInsertRows()
        else:
            # hasChildren promised rows; let the view drop the expand arrow.
            idx = self.index_of(node)
            self.dataChanged.emit(idx, idx.siblingAtColumn(COL_DURATION))
        freeze_heap()  # these rows stay for as long as the store is open
        self.loaded.emit(node)
        if self._load_all and node.kind == SESSION:
            self._fetch_session_runtimes(node)

    @staticmethod
    def _attach_runtimes(turn: Node, groups: list[dict[str, Any]]) -> None:
        turn.state = LOADED
        for group in groups:
            requests = group.get("requests", [])
            runtime = Node(RUNTIME, group.get("runtimeId"), group, turn)
            for request in requests:
                runtime.add(Node(REQUEST, request["eventId"], request, runtime))
            turn.add(runtime)

    # ------------------------------------------------------------------ following

    def listed(self) -> tuple[set[str], set[tuple[str, str]]]:
        """The sessions whose turns are listed (or being listed) and the (session, turn) pairs
        whose runtimes are: what a follow update has to refresh (``inspector.follow.read_updates``)."""
        sessions: set[str] = set()
        turns: set[tuple[str, str]] = set()
        for session in self._root.children:
            if session.state == IDLE:
                continue
            sessions.add(session.key)
            for turn in session.children:
                if turn.state != IDLE:
                    turns.add((session.key, turn.key))
        return sessions, turns

    def apply_update(self, update: Any) -> tuple[list[Node], set[tuple[str, str]], list[Node]]:
        """Merge an ``inspector.follow.FollowUpdate`` read in the background: new sessions, turns,
        runtimes and requests are inserted at the end of their parent (never a reset), changed
        rows emit ``dataChanged``, so the selection and the scroll position stay.

        Returns the new turn nodes, the (session, turn) pairs that could not be merged because
        they were loading (read them again next time), and the nodes whose data changed."""
        new_turns: list[Node] = []
        retry: set[tuple[str, str]] = set()
        changed: list[Node] = []
        for sid, row in update.session_rows.items():
            if self._root.child(SESSION, sid) is None:
                start = len(self._root.children)
                self.beginInsertRows(QModelIndex(), start, start)
                self._root.add(Node(SESSION, sid, row, self._root))
                self.endInsertRows()
        for sid, delta in update.changes.sessions.items():
            session = self._root.child(SESSION, sid)
            if session is None:
                continue
            rows = update.turn_rows.get(sid, {})
            if not delta.is_new or sid not in update.session_rows:
                self._count_into(session, delta)
            else:
                session.data = dict(update.session_rows[sid])
            self._changed(session, changed)
            if session.state == LOADING:
                retry.update((sid, tid) for tid in delta.turns)
                continue
            if session.state != LOADED:
                continue
            pending_at = {row.get("turnId"): i for i, row in enumerate(session.pending)}
            for tid in delta.turns:
                row = rows.get(tid)
                if row is None:
                    continue
                turn = session.child(TURN, tid)
                if turn is not None:
                    turn.data = {**row, "number": turn.data.get("number")}
                    self._changed(turn, changed)
                    groups = update.runtime_groups.get((sid, tid))
                    if turn.state == LOADING:
                        retry.add((sid, tid))
                    elif turn.state == LOADED and groups is not None:
                        self._merge_runtimes(turn, groups, changed)
                    continue
                if tid in pending_at:
                    old = session.pending[pending_at[tid]]
                    session.pending[pending_at[tid]] = {**row, "number": old.get("number")}
                    continue
                row = {**row, "number": len(session.children) + len(session.pending) + 1}
                if session.pending:
                    pending_at[tid] = len(session.pending)
                    session.pending.append(row)
                    continue
                turn = Node(TURN, tid, row, session)
                start = len(session.children)
                self.beginInsertRows(self.index_of(session), start, start)
                session.add(turn)
                self.endInsertRows()
                new_turns.append(turn)
        return new_turns, retry, changed

    def _count_into(self, session: Node, delta: Any) -> None:
        d = dict(session.data)
        if d.get("events") is not None:  # None: not counted yet on a large store
            d["events"] = int(d["events"]) + delta.events
        d["llmCalls"] = int(d.get("llmCalls") or 0) + delta.requests
        d["executions"] = int(d.get("executions") or 0) + len(delta.new_turns)
        record = delta.record
        if record:
            completed = record.get("completed_player_turns")
            if completed is None:
                completed = record.get("turn_count")
            d.update({"phase": record.get("phase"), "status": record.get("status"),
                      "locale": record.get("locale"), "completedPlayerTurns": completed,
                      "updatedAt": record.get("updated_at")})
        session.data = d

    def _changed(self, node: Node, changed: list[Node]) -> None:
        node.cells = None
        idx = self.index_of(node)
        if idx.isValid():
            self.dataChanged.emit(idx, idx.siblingAtColumn(COL_DURATION))
        changed.append(node)

    def _merge_runtimes(self, turn: Node, groups: list[dict[str, Any]], changed: list[Node]) -> None:
        for group in groups:
            rid = group.get("runtimeId")
            runtime = turn.child(RUNTIME, rid)
            if runtime is None:
                holder = Node("holder", None, {}, None)
                self._attach_runtimes(holder, [group])
                runtime = holder.children[0]
                runtime.parent = turn
                start = len(turn.children)
                self.beginInsertRows(self.index_of(turn), start, start)
                turn.add(runtime)
                self.endInsertRows()
                continue
            if runtime.data != group:
                runtime.data = group
                self._changed(runtime, changed)
            fresh = []
            for request in group.get("requests", []):
                node = runtime.child(REQUEST, request["eventId"])
                if node is None:
                    fresh.append(request)
                elif node.data != request:
                    node.data = request
                    self._changed(node, changed)
            if fresh:
                start = len(runtime.children)
                self.beginInsertRows(self.index_of(runtime), start, start + len(fresh) - 1)
                for request in fresh:
                    runtime.add(Node(REQUEST, request["eventId"], request, runtime))
                self.endInsertRows()

    def _fetch_failed(self, generation: int, node: Node, exc: BaseException) -> None:
        if generation != self._generation:
            return
        self._set_loading(self._loading - 1)
        if isinstance(exc, StoreConnectionError):
            node.state = IDLE
            if node not in self._retry:
                self._retry.append(node)
            self._connection_lost = True
            self.connectionChanged.emit(str(exc))
            self._retry_timer.start(int(self.RETRY_SECONDS * 1000))
            return
        node.state = FAILED
        self.loadFailed.emit(str(exc))
        self.loaded.emit(node)

    # ------------------------------------------------------------------ QAbstractItemModel

    def index(self, row: int, column: int, parent: QModelIndex = QModelIndex()) -> QModelIndex:
        node = parent.internalPointer() if parent.isValid() else self._root
        children = node.children
        if 0 <= row < len(children) and 0 <= column < 5:
            return self.createIndex(row, column, children[row])
        return QModelIndex()

    def parent(self, index: QModelIndex | None = None) -> Any:  # type: ignore[override]
        if index is None:
            return super().parent()
        if not index.isValid():
            return QModelIndex()
        node: Node = index.internalPointer()
        up = node.parent
        if up is None or up is self._root or up.parent is None:
            return QModelIndex()
        return self.createIndex(up.row, 0, up)

    def sibling(self, row: int, column: int, idx: QModelIndex) -> QModelIndex:
        # The tree asks for the sibling of every painted cell; Qt's default is index(parent()),
        # two Python calls where one will do.
        node: Node | None = idx.internalPointer() if idx.isValid() else None
        if node is None or node.parent is None:
            return QModelIndex()
        children = node.parent.children
        if 0 <= row < len(children) and 0 <= column < 5:
            return self.createIndex(row, column, children[row])
        return QModelIndex()

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self.node(parent).children)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:
        return 5

    def hasChildren(self, parent: QModelIndex = QModelIndex()) -> bool:
        node = self.node(parent)
        if parent.isValid() and parent.column() != 0:
            return False
        if node.children or node.pending:
            return True
        if node.state in (LOADED, FAILED):
            return False
        if node.kind == SESSION:
            return bool(node.data.get("executions"))
        if node.kind == TURN:
            return bool(node.data.get("llmCalls") or node.data.get("runtimeIds"))
        return False

    def canFetchMore(self, parent: QModelIndex) -> bool:
        # Pending pages are not announced here: QTreeView asks on every layout of an expanded row
        # and would insert page after page. The navigator inserts them as the view scrolls near
        # the end of a session (Navigator._fetch_visible_pages); fetchMore() still inserts one.
        node = self.node(parent)
        return node.state == IDLE and node.kind in (SESSION, TURN) and self._store is not None

    def fetchMore(self, parent: QModelIndex) -> None:
        node = self.node(parent)
        if node.pending:
            self.fetch_page(node)
        else:
            self.fetch(node)

    def flags(self, index: QModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return _ROW_FLAGS

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return (_tr("Name"), _tr("Detail"), _tr("Tokens"), _tr("Cached"), _tr("Duration"))[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return (
                _tr("Session, turn number, runtime id, or tool-loop step and attempt"),
                _tr("World, origin and status, stage, or model and provider"),
                _tr("Input tokens reported by the provider (cache reads and writes included)"),
                _tr("Input tokens the provider served from its prompt cache"),
                _tr("Wall-clock duration"),
            )[section]
        if role == Qt.ItemDataRole.TextAlignmentRole and section >= COL_TOKENS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        node: Node | None = index.internalPointer()
        if node is None:
            return None
        handler = _ROLE_HANDLERS.get(role)
        if handler is None:
            return None
        cells = node.cells
        if cells is None:
            cells = node.cells = self._cells(node)
        return handler(self, node, cells, index.column())

    def _cells(self, node: Node) -> tuple[tuple[str, ...], None, str | None]:
        # The tooltip (a full date to format) is only built when asked for, on hover.
        return tuple(self._display(node, col) for col in range(5)), None, _status_of(node)

    def _icon(self, status: str) -> QIcon:
        icon = self._icons.get(status)
        if icon is None:
            # Unknown statuses still get a (neutral) dot so names stay aligned.
            icon = self._icons[status] = _dot(_STATUS_COLOURS.get(status, _STATUS_COLOURS["skipped"]))
        return icon

    def invalidate_texts(self) -> None:
        """Forget the cached cell texts (after a language change); they are rebuilt when painted."""
        stack = list(self._root.children)
        while stack:
            node = stack.pop()
            node.cells = None
            stack.extend(node.children)
        self.layoutChanged.emit()

    def _display(self, node: Node, col: int) -> str:
        d = node.data
        if node.kind == SESSION:
            if col == COL_NAME:
                # Several sessions usually share a world, so the id is what tells them apart.
                return d["sessionId"]
            if col == COL_DETAIL:
                turns = int(d.get("executions") or 0)
                calls = int(d.get("llmCalls") or 0)
                parts = [d.get("world") or "", _count(turns, _tr("{n} turn"), _tr("{n} turns")),
                         _count(calls, _tr("{n} request"), _tr("{n} requests"))]
                if d.get("phase"):
                    parts.append(value_label(str(d["phase"])))
                return " · ".join(p for p in parts if p)
            return ""
        if node.kind == TURN:
            if col == COL_NAME:
                return _tr("Turn {number}").format(number=d.get("number"))
            if col == COL_DETAIL:
                parts = [value_label(d["origin"]) if d.get("origin") else _tr("no result"),
                         value_label(d.get("commitStatus") or ""),
                         format_time(d.get("startedAt") or d.get("createdAt"), short=True)]
                return " · ".join(p for p in parts if p)
            if col == COL_DURATION:
                return format_duration(d.get("durationMs"))
            return ""
        if node.kind == RUNTIME:
            if col == COL_NAME:
                return d.get("runtimeId") or _tr("(no runtime id)")
            if col == COL_DETAIL:
                parts = [d.get("stage") or _tr("no stage"), value_label(d.get("status") or "")]
                return " · ".join(p for p in parts if p)
            if col == COL_TOKENS:
                return format_number(d.get("inputTokens"))
            if col == COL_CACHED:
                return format_number(d.get("cachedTokens"))
            if col == COL_DURATION:
                return format_duration(d.get("durationMs"))
            return ""
        if col == COL_NAME:
            name = _tr("Step {step}").format(step=int(d.get("step") or 0) + 1)
            if d.get("attempt"):
                name += " · " + _tr("attempt {attempt}").format(attempt=int(d["attempt"]) + 1)
            return name
        if col == COL_DETAIL:
            parts = [d.get("model") or _tr("unknown model"), d.get("provider") or ""]
            return " · ".join(p for p in parts if p)
        if col == COL_TOKENS:
            return format_number(d.get("inputTokens"))
        if col == COL_CACHED:
            return format_number(d.get("cachedTokens"))
        if col == COL_DURATION:
            return format_duration(d.get("durationMs"))
        return ""

    def _tooltip(self, node: Node) -> str:
        d = node.data
        if node.kind == SESSION:
            return _tr("Session {id}").format(id=d["sessionId"])
        if node.kind == TURN:
            return _tr("Turn id {id}, started {time}").format(
                id=d["turnId"], time=format_time(d.get("startedAt") or d.get("createdAt")) or "—")
        if node.kind == RUNTIME:
            if d.get("error"):
                return _tr("Failed: {error}").format(error=d["error"])
            return _tr("Plugin {plugin}").format(plugin=d.get("pluginId") or "—")
        return _tr("Request event {id}").format(id=d["eventId"])


_ROW_FLAGS = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_DIM: list[QColor] = []


def _dim_colour() -> QColor:
    if not _DIM:
        _DIM.append(QPalette().color(QPalette.ColorRole.PlaceholderText))
    return _DIM[0]


_ROLE_HANDLERS: dict[int, Any] = {
    Qt.ItemDataRole.DisplayRole: lambda m, n, c, col: c[0][col] if 0 <= col < 5 else None,
    Qt.ItemDataRole.ToolTipRole: lambda m, n, c, col: m._tooltip(n),
    Qt.ItemDataRole.TextAlignmentRole: lambda m, n, c, col: _RIGHT if col >= COL_TOKENS else None,
    Qt.ItemDataRole.DecorationRole: lambda m, n, c, col: m._icon(c[2]) if col == COL_NAME and c[2] is not None else None,
    Qt.ItemDataRole.ForegroundRole: lambda m, n, c, col: _dim_colour() if col == COL_DETAIL else None,
    KindRole: lambda m, n, c, col: n.kind,
    KeyRole: lambda m, n, c, col: n.key,
    RowRole: lambda m, n, c, col: n.data,
}


# ---------------------------------------------------------------------------------- filter

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
        self._root = None
        self.invalidate()

    def _request_matches(self, d: dict[str, Any]) -> bool:
        if self._runtime is not None and d.get("runtimeId") != self._runtime:
            return False
        if self._model is not None and d.get("model") != self._model:
            return False
        if self._matches is not None and d.get("eventId") not in self._matches:
            return False
        return True

    def _compute_accepted(self) -> None:
        """The nodes to show: matching requests and every ancestor of one."""
        accepted: set[Node] = set()
        root = self._source.root if self._source is not None else None
        self._root = root
        if root is not None and self.active:
            stack = list(root.children)
            matches = self._request_matches
            add = accepted.add
            while stack:
                node = stack.pop()
                if node.kind == REQUEST:
                    if node not in accepted and matches(node.data):
                        up: Node | None = node
                        while up is not None and up is not root and up not in accepted:
                            add(up)
                            up = up.parent
                else:
                    stack.extend(node.children)
        self._accepted = accepted

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


# ---------------------------------------------------------------------------------- widget

class Navigator(QWidget):
    """Filter bar over the tree.

    Signals: ``requestSelected(str)`` with the ``llm.calling`` event id; ``itemSelected(str, object)``
    with the node kind and its row dict (``{}`` and kind ``""`` when the selection is cleared);
    ``currentUpdated(str, object)`` like ``itemSelected`` when following changed the selected
    row's data (the selection itself did not change); ``revealFinished(bool)`` after
    :meth:`reveal` (true when the whole path was found);
    ``busyChanged(int)`` with loads and searches in flight; ``failed(str)`` with a reason to show.
    """

    requestSelected = Signal(str)
    itemSelected = Signal(str, object)
    currentUpdated = Signal(str, object)
    revealFinished = Signal(bool)
    busyChanged = Signal(int)
    failed = Signal(str)

    def __init__(self, tasks: TaskManager, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._tasks = tasks
        self.model = NavigatorModel(tasks, self)
        # The filter sits between the model and the tree only while a filter is active: without
        # one it would only double the Python calls of every paint (see ``proxy``).
        self.filter = NavigatorFilter(self)
        self.filter.setSourceModel(self.model)
        self._unfiltered = ShownModel(self.model)

        self.search = QLineEdit(self)
        self.search.setObjectName("navigatorSearch")
        self.search.setClearButtonEnabled(True)
        self.search.setPlaceholderText(_tr("Search prompts…"))
        self.search.setToolTip(_tr("Find requests whose prompt contains this text (Ctrl+F)"))
        self.runtime_box = QComboBox(self)
        self.runtime_box.setObjectName("runtimeFilter")
        self.runtime_box.setToolTip(_tr("Show only requests of this runtime"))
        self.runtime_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.runtime_box.setMinimumContentsLength(8)
        self.model_box = QComboBox(self)
        self.model_box.setObjectName("modelFilter")
        self.model_box.setToolTip(_tr("Show only requests sent to this model"))
        self.model_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.model_box.setMinimumContentsLength(8)
        self._fill_facets({"runtimes": [], "models": []})

        self.tree = QTreeView(self)
        self.tree.setObjectName("navigatorTree")
        self.tree.setModel(self.model)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setAllColumnsShowFocus(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.tree.setExpandsOnDoubleClick(True)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(COL_NAME, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(COL_DETAIL, QHeaderView.ResizeMode.Stretch)
        # Fixed-width number columns sized from the font, not ResizeToContents: that measures
        # every row of the tree on each expand and scroll (a 1,000-turn session stalled the GUI
        # for seconds per expanded turn).
        for col in (COL_TOKENS, COL_CACHED, COL_DURATION):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(COL_NAME, 240)
        self._size_number_columns()

        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        bar.setSpacing(4)
        bar.addWidget(self.search, 3)
        bar.addWidget(self.runtime_box, 2)
        bar.addWidget(self.model_box, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addLayout(bar)
        layout.addWidget(self.tree, 1)

        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(300)
        self._search_timer.timeout.connect(self._run_search)
        self._search_job: Job | None = None
        self._searching = False
        self._matches: set[str] | None = None
        self._expand_timer = QTimer(self)
        self._expand_timer.setSingleShot(True)
        self._expand_timer.setInterval(50)
        self._expand_timer.timeout.connect(self._expand_matches)
        self._expand_plan: Iterator[bool] | None = None
        self._reveal_target: Path | None = None
        self._reveal_select = True
        self._facets_job: Job | None = None

        self.search.textChanged.connect(self._search_text_changed)
        self.runtime_box.currentIndexChanged.connect(self._apply_filter)
        self.model_box.currentIndexChanged.connect(self._apply_filter)
        self.tree.selectionModel().currentRowChanged.connect(self._current_changed)
        self.model.loaded.connect(self._on_loaded)
        self.model.loadFailed.connect(self.failed)
        self._filter_pending = False
        self.model.loadingChanged.connect(lambda _n: self._emit_busy())
        self.model.loadingChanged.connect(lambda n: self._finish_pending_filter() if n == 0 else None)
        self.filter.rowsInserted.connect(self._rows_inserted)
        self._page_timer = QTimer(self)
        self._page_timer.setSingleShot(True)
        self._page_timer.setInterval(0)
        self._page_timer.timeout.connect(self._fetch_visible_pages)
        self.tree.verticalScrollBar().valueChanged.connect(lambda _v: self._page_timer.start())
        self.tree.expanded.connect(lambda _i: self._page_timer.start())
        self.setFocusProxy(self.tree)

    @property
    def proxy(self) -> NavigatorFilter | ShownModel:
        """The model the tree shows, with ``mapFromSource``/``mapToSource`` between it and
        ``model``: the filter while one is active, else the model itself (identity mapping)."""
        return self.filter if self.tree.model() is self.filter else self._unfiltered

    def _set_criteria(self, **criteria: Any) -> None:
        if all(v is None for v in criteria.values()):
            # No filter: show the model (keeping the current row through the old mappings), then
            # drop the filter's mappings rather than re-filter every row of the tree through
            # Python only to accept it (a quarter-second stall on a 1,000-turn session).
            self._show_model(self.model)
            self.filter.clear_criteria()
            return
        self.filter.set_criteria(**criteria)
        self._show_model(self.filter if self.filter.active else self.model)

    def _show_model(self, model: QAbstractItemModel) -> None:
        """Put ``model`` (the filter or the model) under the tree, keeping the current row."""
        tree = self.tree
        if tree.model() is model:
            return
        current = self.model.node(self.proxy.mapToSource(tree.currentIndex())) \
            if tree.currentIndex().isValid() else None
        old_selection = tree.selectionModel()
        old_selection.currentRowChanged.disconnect(self._current_changed)
        tree.setModel(model)
        old_selection.deleteLater()
        if model is self.model:
            # Drop the filter's mappings: nothing reads them until the next filter.
            self.filter.invalidate()
        if current is not None and current is not self.model.root:
            index = self.proxy.mapFromSource(self.model.index_of(current))
            if index.isValid():
                parent = index.parent()
                while parent.isValid():
                    tree.expand(parent)
                    parent = parent.parent()
                tree.selectionModel().setCurrentIndex(
                    index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
                tree.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)
        # Connected after the current row is restored: the selection did not change for the user.
        tree.selectionModel().currentRowChanged.connect(self._current_changed)

    def _size_number_columns(self) -> None:
        metrics = self.tree.fontMetrics()
        header = self.tree.header()
        pad = 2 * self.tree.style().pixelMetric(self.tree.style().PixelMetric.PM_FocusFrameHMargin) + 16
        for col, sample in ((COL_TOKENS, format_number(9_999_999)), (COL_CACHED, format_number(9_999_999)),
                            (COL_DURATION, format_duration(3_599_000))):
            title = self.model.headerData(col, Qt.Orientation.Horizontal) or ""
            width = max(metrics.horizontalAdvance(sample), header.fontMetrics().horizontalAdvance(title) + 12)
            header.resizeSection(col, width + pad)

    def changeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() in (event.Type.FontChange, event.Type.LanguageChange, event.Type.StyleChange):
            self._size_number_columns()
        if event.type() == event.Type.LanguageChange:
            self.model.invalidate_texts()
        if event.type() == event.Type.PaletteChange:
            _DIM.clear()

    # ------------------------------------------------------------------ public API

    @property
    def busy(self) -> int:
        return self.model.loading + (1 if self._searching else 0)

    def set_store(self, store: Any, sessions: list[dict[str, Any]]) -> None:
        """Show a freshly opened store. Filters are kept and re-applied to the new content."""
        self._cancel_search()
        if self._facets_job is not None:
            self._facets_job.cancel()
        self.model.reset(store, sessions)
        if store is None:
            return
        self._facets_job = self._tasks.run(lambda _job: views.request_facets(store), self._fill_facets,
                                           lambda exc: self.failed.emit(str(exc)), resource=store)
        if self._filter_wanted():
            self._apply_filter()
        self.tree.setCurrentIndex(QModelIndex())

    def clear(self) -> None:
        self.set_store(None, [])

    def focus_filter(self) -> None:
        self.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search.selectAll()

    def current_path(self) -> Path:
        index = self.tree.currentIndex()
        if not index.isValid():
            return []
        return self.model.node(self.proxy.mapToSource(index)).path()

    def current_kind(self) -> str:
        path = self.current_path()
        return path[-1][0] if path else ""

    def reveal(self, path: Path, *, select: bool = True) -> None:
        """Expand the tree along ``path`` (``[("session", id), ("turn", id), ("runtime", id),
        ("request", event id)]`` or a prefix), loading levels as needed, and select its end.
        ``revealFinished`` reports the outcome."""
        self._reveal_target = list(path)
        self._reveal_select = select
        self._continue_reveal()

    def select_request(self, event_id: str) -> None:
        """Reveal a request by its ``llm.calling`` id, looking up its place in the background."""
        store = self.model.store
        if store is None:
            self.revealFinished.emit(False)
            return

        def found(location: dict[str, Any] | None) -> None:
            if store is not self.model.store:
                return
            if location is None:
                self.failed.emit(_tr("No model request with id {id} in this database.").format(id=event_id))
                self.revealFinished.emit(False)
                return
            self.reveal([(SESSION, location["sessionId"]), (TURN, location["turnId"]),
                         (RUNTIME, location["runtimeId"]), (REQUEST, location["eventId"])])

        self._tasks.run(lambda _job: views.request_location(store, event_id), found,  # a failure ends a reveal too
                        lambda exc: (self.failed.emit(str(exc)), self.revealFinished.emit(False)), resource=store)

    # ------------------------------------------------------------------ paging and following

    # A page is inserted when the row at the bottom of the view is this close to the end of the
    # rows inserted so far.
    PAGE_MARGIN = 50

    def _fetch_visible_pages(self) -> None:
        """Insert the next page of turns when the view has scrolled near the end of a session's
        inserted rows (the tree itself only fetches when a row is expanded)."""
        tree = self.tree
        viewport = tree.viewport()
        # Column 0's indentation area has no index: probe the detail column.
        x = tree.header().sectionViewportPosition(COL_DETAIL) + 2
        index = tree.indexAt(QPoint(x, viewport.height() - 2))
        nodes: list[Node] = []
        if index.isValid():
            nodes.append(self.model.node(self.proxy.mapToSource(index)))
        else:
            # The rows end above the bottom of the view: every open session with pages left.
            for row in range(self.proxy.rowCount()):
                session = self.proxy.index(row, 0)
                if tree.isExpanded(session):
                    node = self.model.node(self.proxy.mapToSource(session))
                    if node.children:
                        nodes.append(node.children[-1])
        for node in nodes:
            while node is not None and node.parent is not None:
                parent = node.parent
                if parent.pending and node.row >= len(parent.children) - self.PAGE_MARGIN:
                    self.model.fetch_page(parent)
                node = parent

    def apply_update(self, update: Any) -> tuple[list[Node], set[tuple[str, str]]]:
        """Merge a follow update into the tree (see :meth:`NavigatorModel.apply_update`); the
        selection and scroll position stay. Returns the new turn nodes and the pairs to re-read."""
        current = self.tree.currentIndex()
        current_node = self.model.node(self.proxy.mapToSource(current)) if current.isValid() else None
        new_turns, retry, changed = self.model.apply_update(update)
        if current_node is not None and any(node is current_node for node in changed):
            self.currentUpdated.emit(current_node.kind, current_node.data)
        return new_turns, retry

    def set_session_event_counts(self, counts: dict[str, int]) -> None:
        """Fill the trace-event counts a large store's session rows were opened without."""
        current = self.tree.currentIndex()
        current_node = self.model.node(self.proxy.mapToSource(current)) if current.isValid() else None
        for session in self.model.root.children:
            if session.key in counts:
                session.data = {**session.data, "events": counts[session.key]}
                if session is current_node:
                    self.currentUpdated.emit(session.kind, session.data)

    def clear_filters(self) -> None:
        self.search.clear()
        self.runtime_box.setCurrentIndex(0)
        self.model_box.setCurrentIndex(0)

    # ------------------------------------------------------------------ filtering

    def _fill_facets(self, facets: dict[str, list[str]]) -> None:
        for box, values, everything in ((self.runtime_box, facets["runtimes"], _tr("All runtimes")),
                                         (self.model_box, facets["models"], _tr("All models"))):
            previous = box.currentData()
            box.blockSignals(True)
            box.clear()
            box.addItem(everything, None)
            for value in values:
                box.addItem(value, value)
            at = box.findData(previous) if previous is not None else 0
            box.setCurrentIndex(max(at, 0))
            box.blockSignals(False)
            if previous is not None and at < 0:
                # The value is not in this store: the filter widens, so re-apply it.
                self._apply_filter()

    def _filter_wanted(self) -> bool:
        return bool(self.search.text()) or self.runtime_box.currentData() is not None \
            or self.model_box.currentData() is not None

    def _search_text_changed(self, _text: str) -> None:
        self._cancel_search()
        self._search_timer.start()

    def _cancel_search(self) -> None:
        self._search_timer.stop()
        if self._search_job is not None:
            self._search_job.cancel()
            self._search_job = None
        if self._searching:
            self._searching = False
            self._emit_busy()

    def _run_search(self) -> None:
        text = self.search.text()
        store = self.model.store
        if not text or store is None:
            self._matches = None
            self.search.setToolTip("")
            self._apply_filter()
            return
        self._searching = True
        self._emit_busy()
        from pathlib import Path as FilePath

        from PySide6.QtCore import QStandardPaths

        from inspector.search import index as search_index

        # The demo database's cache folder (ui.app.demo_path); the index is keyed by the store.
        cache = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericCacheLocation)
        index = None
        if cache and search_index.worth_indexing(store):
            index = search_index.index_for(store, FilePath(cache) / "prompt-inspector")
        if index is not None and index.problem is None and not index.building and not index.ready():
            # Built once per store in the background; until then the scan answers.
            index.start_build()

        def work(job: Job) -> Any:
            return views.search_prompts(store, text, should_stop=lambda: job.cancelled, index=index)

        def done(outcome: Any) -> None:
            self._search_job = None
            self._searching = False
            self._matches = outcome.matches
            self.search.setToolTip(_tr("Searched every prompt by scanning: {why}").format(why=outcome.note)
                                   if outcome.note else "")
            self._emit_busy()
            self._apply_filter()

        def fail(exc: BaseException) -> None:
            self._search_job = None
            self._searching = False
            self._emit_busy()
            self.failed.emit(str(exc))

        self._search_job = self._tasks.run(work, done, fail, resource=store)

    def _apply_filter(self) -> None:
        matches = self._matches if self.search.text() else None
        runtime, model = self.runtime_box.currentData(), self.model_box.currentData()
        wanted = runtime is not None or model is not None or matches is not None
        if wanted and not self.model.fully_loaded():
            # Load the whole tree first, unfiltered, and filter once it is all there: a filtering
            # proxy re-examines its hidden ancestors on every insert, which made a search over a
            # 1,000-turn session stall the GUI for minutes.
            self._filter_pending = True
            self._set_criteria()
            self.model.load_everything()
            if self.model.loading == 0:
                self._finish_pending_filter()
            return
        self._filter_pending = False
        self._set_criteria(runtime=runtime, model=model, matches=matches)
        if self.filter.active:
            self._schedule_expand()

    def _finish_pending_filter(self) -> None:
        if self._filter_pending and self.model.loading == 0:
            self._filter_pending = False
            if self.model.fully_loaded():
                self._apply_filter()
            else:  # a level failed to load: filter what is there
                self._set_criteria(runtime=self.runtime_box.currentData(),
                                        model=self.model_box.currentData(),
                                        matches=self._matches if self.search.text() else None)
                self._schedule_expand()

    def _rows_inserted(self, *_args: Any) -> None:
        if self.filter.active:
            self._schedule_expand()

    def _schedule_expand(self) -> None:
        """(Re)start opening the filtered tree from the top, once the filter has settled."""
        self._expand_plan = None
        self._expand_timer.setInterval(50)
        self._expand_timer.start()

    # Time one step of _expand_matches may take before it yields to the event loop.
    EXPAND_STEP_MS = 12

    def _expand_matches(self) -> None:
        """Open the filtered tree far enough to show matches, but only the first turns of it.

        expandAll() on a filter matching thousands of requests froze the window for half a
        minute (every expansion lays out rows through Python); nobody reads past the first
        screens of matches, and the rest stay one click away. The expansions run a few
        milliseconds at a time, the expand timer staying active until they are all done.
        """
        if not self.filter.active:
            self._expand_plan = None
            return
        if self._expand_plan is None:
            self._expand_plan = self._expansions()
        tree = self.tree
        deadline = time.perf_counter() + self.EXPAND_STEP_MS / 1000
        done = False
        tree.setUpdatesEnabled(False)
        try:
            while time.perf_counter() < deadline:
                if next(self._expand_plan, None) is None:
                    done = True
                    break
        finally:
            tree.setUpdatesEnabled(True)
        if done:
            self._expand_plan = None
            self._expand_timer.setInterval(50)
        else:
            self._expand_timer.setInterval(0)
            self._expand_timer.start()

    def _expansions(self) -> Iterator[bool]:
        """Expand sessions, then the first matching turns with their runtimes, one per step."""
        proxy, tree = self.proxy, self.tree
        budget = MAX_EXPANDED_MATCH_TURNS
        sessions = [QPersistentModelIndex(proxy.index(s, 0)) for s in range(proxy.rowCount())]
        for session in sessions:
            if session.isValid():
                tree.expand(QModelIndex(session))
                yield True
        for session in sessions:
            if not session.isValid():
                continue
            parent = QModelIndex(session)
            for t in range(proxy.rowCount(parent)):
                if budget == 0:
                    return
                turn = proxy.index(t, 0, parent)
                tree.expand(turn)
                for r in range(proxy.rowCount(turn)):
                    tree.expand(proxy.index(r, 0, turn))
                budget -= 1
                yield True

    # ------------------------------------------------------------------ selection

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            self.itemSelected.emit("", {})
            return
        node = self.model.node(self.proxy.mapToSource(current))
        self.itemSelected.emit(node.kind, node.data)
        if node.kind == REQUEST:
            self.requestSelected.emit(node.key)

    def _on_loaded(self, _node: Node) -> None:
        if self._reveal_target is not None:
            self._continue_reveal()

    def _continue_reveal(self) -> None:
        path = self._reveal_target
        if path is None:
            return
        node, depth = self.model.find(path)
        if depth < len(path) and node.state in (IDLE, LOADING):
            self.model.fetch(node)
            return
        self._reveal_target = None
        if node is not self.model.root:
            source = self.model.index_of(node)
            index = self.proxy.mapFromSource(source)
            if index.isValid():
                parent = index.parent()
                while parent.isValid():
                    self.tree.expand(parent)
                    parent = parent.parent()
                if self._reveal_select:
                    self.tree.setCurrentIndex(index)
                self.tree.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)
        self.revealFinished.emit(depth == len(path))

    def _emit_busy(self) -> None:
        self.busyChanged.emit(self.busy)
