"""The navigator's model: a lazily filled ``QAbstractItemModel`` of sessions → executions →
runtimes → model requests, in the qutebrowser category→row shape, one level deeper: a node keeps
its parent in ``internalPointer`` and children arrive via ``canFetchMore``/``fetchMore``, read
on the task manager's pool. Every figure comes from :mod:`inspector.views`; what a cell shows is
:mod:`ui.models.navigator_cells`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QIcon

from inspector import rows_process, views
from inspector.collector import freeze_heap
from inspector.output import dump_json
from inspector.rows import RuntimeRow, SessionRow, TurnRow
from inspector.store import StoreConnectionError

from ..workers import Job, TaskManager
from .item_roles import ID_ROLE, JSON_ROLE, REQUEST_ROLE
from .navigator_cells import (
    COLUMN_COUNT,
    alignment,
    cells,
    detail_colour,
    detail_tooltip,
    header_text,
    header_tooltip,
    status_icon,
    tooltip,
)
from .navigator_nodes import (
    COL_CACHED,
    COL_DETAIL,
    COL_DURATION,
    COL_NAME,
    COL_TOKENS,
    FAILED,
    IDLE,
    LOADED,
    LOADING,
    REQUEST,
    RUNTIME,
    SESSION,
    TURN,
    KeyRole,
    KindRole,
    Node,
    Path,
    RowRole,
    break_cycles,
)

__all__ = ["NavigatorModel"]

_ROW_KINDS = frozenset((SESSION, TURN, RUNTIME, REQUEST))


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
    figuresWidened = Signal()

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
        self._rows_apart = False  # load_everything: runtime rows made in a child process
        self._inserting: set[Node] = set()  # sessions whose pending turns go in batch by batch
        self._icons: dict[str, QIcon] = {}
        self._retry: list[Node] = []  # fetches that failed for want of a connection
        self._connection_lost = False
        self._retry_timer = QTimer(self)
        self._retry_timer.setSingleShot(True)
        self._retry_timer.timeout.connect(self._retry_fetches)
        # The longest token, cached and duration texts of the rows shown so far (figuresWidened
        # when one grows): the view sizes its number columns to them, measured on rows painted
        # only (a pass over every row listed took 30 ms on a 1,000-turn session).
        self.widest: tuple[str, str, str] = ("", "", "")
        self._widen_timer = QTimer(self)
        self._widen_timer.setSingleShot(True)
        self._widen_timer.setInterval(0)
        self._widen_timer.timeout.connect(self.figuresWidened)

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
        self.widest = ("", "", "")
        break_cycles(self._root)
        self._root = Node("root", None, {}, None)
        self._root.state = LOADED
        self._load_all = False
        self._rows_apart = False
        self._inserting = set()
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
                in_child = self._rows_apart

                def work(_job: Job) -> Any:
                    return views.turn_tree_rows(store, sid, rows_process.session_runtimes(store, sid, in_child))
            else:
                def work(_job: Job) -> Any:
                    return views.turn_rows(store, sid)
        else:
            sid = node.parent.key  # type: ignore[union-attr]
            tid = node.key

            def work(_job: Job) -> Any:
                return views.turn_runtimes(store, sid, tid)

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
        (``views.session_runtimes``), attached in batches so the GUI never stalls."""
        self._load_all = True
        # A big store's runtime rows are made in a child process: made here, they held the
        # interpreter lock the GUI thread needs for every row it lays out (inspector.rows_process).
        self._rows_apart = rows_process.apart(self._store, (
            s.record.llm_calls if isinstance(s.record, SessionRow) else None for s in self._root.children))
        for session in self._root.children:
            if session.state == IDLE:
                self.fetch(session)
            elif session.state == LOADED:
                if session.pending:
                    # A filter looks at every turn: the pages not shown yet go in, a batch per
                    # turn of the event loop (then their runtimes are read).
                    self._insert_pending(session)
                else:
                    self._fetch_session_runtimes(session)

    # The pause (ms) between two batches of a load: a zero-timer's batch could run right after
    # the last one, before the window's own timers and paints (three batches in one stall).
    BATCH_PAUSE_MS = 1

    # Turns inserted per turn of the event loop while everything is loaded: building a
    # 1,000-turn session's nodes (its runtimes and requests with them) at once held the GUI for
    # a tenth of a second.
    LOAD_ALL_BATCH = 100

    def _insert_pending(self, session: Node) -> None:
        """Insert all of ``session``'s pending turns, LOAD_ALL_BATCH at a time (counted as a load
        until the last batch is in), then fetch the runtimes of those read without them."""
        if session in self._inserting:
            return
        self._inserting.add(session)
        self._set_loading(self._loading + 1)
        generation = self._generation

        def step() -> None:
            if generation != self._generation:
                return  # the model was reset meanwhile (and its load count with it)
            self.fetch_page(session, self.LOAD_ALL_BATCH)
            if session.pending:
                QTimer.singleShot(self.BATCH_PAUSE_MS, step)
                return
            self._inserting.discard(session)
            if self._load_all:
                self._fetch_session_runtimes(session)
            self._set_loading(self._loading - 1)

        step()

    def _fetch_session_runtimes(self, session: Node) -> None:
        idle = [turn for turn in session.children if turn.state == IDLE]
        if not idle or self._store is None:
            return
        for turn in idle:
            turn.state = LOADING
        store, generation, sid = self._store, self._generation, session.key
        in_child = self._rows_apart
        self._set_loading(self._loading + 1)

        def failed(exc: BaseException) -> None:
            if generation != self._generation:
                return
            for turn in idle:
                if turn.state == LOADING:
                    turn.state = IDLE
            self._fetch_failed(generation, session, exc)
            session.state = LOADED

        self._tasks.run(lambda _job: rows_process.session_runtimes(store, sid, in_child),
                        lambda groups: self._attach_batches(generation, session, idle, groups),
                        failed, resource=store, pause_gc="freeze")

    ATTACH_BATCH = 64

    def _attach_batches(self, generation: int, session: Node, turns: list[Node],
                        groups: dict[str, list[RuntimeRow]]) -> None:
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
            QTimer.singleShot(self.BATCH_PAUSE_MS, lambda: self._attach_batches(generation, session, rest, groups))
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
        new: list[Node] = []
        if node.kind == SESSION:
            first = self.LOAD_ALL_BATCH if self._load_all else self.PAGE_SIZE
            if len(rows) > first:
                node.pending = rows[first:]
                rows = rows[:first]
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
            if node.pending:
                self._insert_pending(node)  # the rest of its turns, a batch at a time
            else:
                self._fetch_session_runtimes(node)
        # Counted down once the rows are in (and the next level asked for): a load count of 0
        # means the tree holds all it was asked to load.
        self._set_loading(self._loading - 1)

    @staticmethod
    def _attach_runtimes(turn: Node, groups: list[RuntimeRow]) -> None:
        turn.state = LOADED
        for group in groups:
            runtime = Node(RUNTIME, group.runtime_id, group, turn)
            for request in group.requests:
                runtime.add(Node(REQUEST, request.event_id, request, runtime))
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
                    assert isinstance(turn.record, TurnRow)
                    turn.data = {**row, "number": turn.record.number}
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

    @staticmethod
    def _count_into(session: Node, delta: Any) -> None:
        """Grow a listed session's figures by what following read (the rule is the core's:
        :meth:`inspector.rows.SessionRow.followed`)."""
        assert isinstance(session.record, SessionRow)
        session.record = session.record.followed(events=delta.events, requests=delta.requests,
                                                 new_executions=len(delta.new_turns), record=delta.record)

    def _changed(self, node: Node, changed: list[Node]) -> None:
        node.cells = None
        idx = self.index_of(node)
        if idx.isValid():
            self.dataChanged.emit(idx, idx.siblingAtColumn(COL_DURATION))
        changed.append(node)

    def _merge_runtimes(self, turn: Node, groups: list[RuntimeRow], changed: list[Node]) -> None:
        for group in groups:
            runtime = turn.child(RUNTIME, group.runtime_id)
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
            if runtime.record != group:
                runtime.record = group
                self._changed(runtime, changed)
            fresh = []
            for request in group.requests:
                node = runtime.child(REQUEST, request.event_id)
                if node is None:
                    fresh.append(request)
                elif node.record != request:
                    node.record = request
                    self._changed(node, changed)
            if fresh:
                start = len(runtime.children)
                self.beginInsertRows(self.index_of(runtime), start, start + len(fresh) - 1)
                for request in fresh:
                    runtime.add(Node(REQUEST, request.event_id, request, runtime))
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
        if 0 <= row < len(children) and 0 <= column < COLUMN_COUNT:
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
        if 0 <= row < len(children) and 0 <= column < COLUMN_COUNT:
            return self.createIndex(row, column, children[row])
        return QModelIndex()

    def rowCount(self, parent: QModelIndex = QModelIndex()) -> int:
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self.node(parent).children)

    def columnCount(self, parent: QModelIndex = QModelIndex()) -> int:
        return COLUMN_COUNT

    def hasChildren(self, parent: QModelIndex = QModelIndex()) -> bool:
        node = self.node(parent)
        if parent.isValid() and parent.column() != 0:
            return False
        if node.children or node.pending:
            return True
        if node.state in (LOADED, FAILED):
            return False
        record = node.record
        if isinstance(record, SessionRow):
            return bool(record.executions)
        if isinstance(record, TurnRow):
            return bool(record.llm_calls or record.runtime_ids)
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

    # flags() is Qt's own: every row is enabled and selectable, which is its default; a Python
    # override was called twice per row on every layout (a follow update relays the whole tree).

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return header_text(section)
        if role == Qt.ItemDataRole.ToolTipRole:
            return header_tooltip(section)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return alignment(section)
        return None

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        node: Node | None = index.internalPointer()
        if node is None:
            return None
        handler = _ROLE_HANDLERS.get(role)
        if handler is None:
            return None
        return handler(self, node, node.cells or self._cells(node), index.column())

    def multiData(self, index: QModelIndex, roles: Any) -> None:  # noqa: N802 - Qt override
        """Every role a cell's paint or size hint asks for, in one Python call (Qt's own
        multiData asks data() once per role: seven calls per painted cell)."""
        fill_roles(self, index.internalPointer(), index.column(), roles)

    def _cells(self, node: Node) -> tuple[Any, ...]:
        shown = node.cells = cells(node)
        texts = shown[0]
        widest = self.widest
        if len(texts[COL_TOKENS]) > len(widest[0]) or len(texts[COL_CACHED]) > len(widest[1]) \
                or len(texts[COL_DURATION]) > len(widest[2]):
            self._widen(texts)
        return shown

    def _widen(self, texts: tuple[str, ...]) -> None:
        """A row shown for the first time has a longer figure than any shown before: remember it
        (the view sizes the number columns to these) and say so once the paint is over."""
        self.widest = tuple(max(old, new, key=len) for old, new in zip(
            self.widest, (texts[COL_TOKENS], texts[COL_CACHED], texts[COL_DURATION]), strict=True))
        self._widen_timer.start()

    def icon(self, status: str) -> QIcon:
        return status_icon(self._icons, status)

    def invalidate_texts(self) -> None:
        """Forget the cached cell texts (after a language change); they are rebuilt when painted."""
        stack = list(self._root.children)
        while stack:
            node = stack.pop()
            node.cells = None
            stack.extend(node.children)
        self.layoutChanged.emit()


def fill_roles(model: NavigatorModel, node: Node | None, column: int, roles: Any) -> None:
    """Answer each ``QModelRoleData`` of ``roles`` for ``node``'s cell in ``column`` (what
    :meth:`NavigatorModel.data` answers role by role)."""
    if node is None:
        for asked in roles:
            asked.clearData()
        return
    shown = node.cells or model._cells(node)
    handlers = _ROLE_HANDLERS
    for asked in roles:
        handler = handlers.get(asked.role())
        value = None if handler is None else handler(model, node, shown, column)
        if value is None:
            asked.clearData()
        else:
            asked.setData(value)


_ROLE_HANDLERS: dict[int, Any] = {
    Qt.ItemDataRole.DisplayRole: lambda m, n, c, col: c[0][col] if 0 <= col < COLUMN_COUNT else None,
    Qt.ItemDataRole.ToolTipRole: lambda m, n, c, col: detail_tooltip(c[0][col], tooltip(n)) if col == COL_DETAIL
    else tooltip(n),
    Qt.ItemDataRole.TextAlignmentRole: lambda m, n, c, col: alignment(col),
    Qt.ItemDataRole.DecorationRole: lambda m, n, c, col: m.icon(c[2]) if col == COL_NAME and c[2] is not None else None,
    Qt.ItemDataRole.ForegroundRole: lambda m, n, c, col: detail_colour(col),
    KindRole: lambda m, n, c, col: n.kind,
    KeyRole: lambda m, n, c, col: n.key,
    RowRole: lambda m, n, c, col: n.data,
    # The row actions (ui.item_actions): the row's full id, its JSON (the typed row's, as the
    # sessions/turns/requests commands print it) and, for a request, the request.
    ID_ROLE: lambda m, n, c, col: n.key if n.kind in _ROW_KINDS else None,
    JSON_ROLE: lambda m, n, c, col: dump_json(n.data) if n.kind in _ROW_KINDS else None,
    REQUEST_ROLE: lambda m, n, c, col: n.key if n.kind == REQUEST else None,
}
