"""The navigator: a filter bar over the tree of sessions → executions → runtimes → model
requests, and the signals the rest of the window listens to. The tree's model
(:mod:`ui.models.navigator_tree`) and filter (:mod:`ui.models.navigator_filter`) hold the rows;
this widget lays them out and formats nothing the core decides.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QCoreApplication,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from inspector import views

from ..models.navigator_cells import forget_palette
from ..models.navigator_filter import NavigatorFilter, ShownModel
from ..models.navigator_nodes import (
    COL_CACHED,
    COL_DETAIL,
    COL_DURATION,
    COL_NAME,
    COL_TOKENS,
    IDLE,
    LOADING,
    REQUEST,
    RUNTIME,
    SESSION,
    TURN,
    Node,
    Path,
)
from ..models.navigator_tree import NavigatorModel
from ..workers import Job, TaskManager
from .columns import ColumnFitter
from .formats import format_duration, format_number

__all__ = ["MAX_EXPANDED_MATCH_TURNS", "Navigator"]

# How many matching turns a filter opens by itself (see Navigator._expand_matches).
MAX_EXPANDED_MATCH_TURNS = 50
# The least widths (px) of the name and detail columns (ui.views.columns sizes them to their texts).
NAME_COLUMN_MINIMUM = 120
DETAIL_COLUMN_MINIMUM = 60
# How long (ms) the tree's rows stay unchanged before its columns are measured again.
COLUMNS_SETTLE_MS = 80


def _tr(text: str) -> str:
    return QCoreApplication.translate("Navigator", text)


class Navigator(QWidget):
    """Filter bar over the tree.

    Signals: ``requestSelected(str)`` with the ``llm.calling`` event id; ``itemSelected(str, object)``
    with the node kind and its row dict (``{}`` and kind ``""`` when the selection is cleared);
    ``currentUpdated(str, object)`` like ``itemSelected`` when following changed the selected
    row's data (the selection itself did not change); ``revealFinished(bool)`` after
    :meth:`reveal` (true when the whole path was found);
    ``busyChanged(int)`` with loads and searches in flight; ``failed(str)`` with a reason to show;
    ``searchApplied(int)`` with the number of requests the prompt search found once the tree shows
    them (-1 when the search was cleared); ``searchHighlight(str)`` after a request is selected,
    with the search text when it is one of the hits ("" otherwise), for the request view to mark.
    F3 / Shift+F3 (:attr:`next_hit_action`, :attr:`previous_hit_action`) select the next and the
    previous hit.
    """

    requestSelected = Signal(str)
    itemSelected = Signal(str, object)
    currentUpdated = Signal(str, object)
    revealFinished = Signal(bool)
    busyChanged = Signal(int)
    failed = Signal(str)
    searchApplied = Signal(int)
    searchHighlight = Signal(str)

    def __init__(self, tasks: TaskManager, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # Never shown as a title: it names the group of the navigator's shortcuts (F3, Shift+F3)
        # in Help → Keyboard Shortcuts.
        self.setWindowTitle(_tr("Navigator"))
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
        self.hits_label = QLabel(self)
        self.hits_label.setObjectName("searchHits")
        self.hits_label.setToolTip(_tr("Requests whose prompt contains the search text (F3: next, Shift+F3: previous)"))
        self.hits_label.hide()
        self.next_hit_action = QAction(_tr("Find &Next"), self)
        self.next_hit_action.setShortcut(QKeySequence(Qt.Key.Key_F3))
        self.next_hit_action.setStatusTip(_tr("Select the next request the search found"))
        self.next_hit_action.triggered.connect(self.next_hit)
        self.previous_hit_action = QAction(_tr("Find &Previous"), self)
        self.previous_hit_action.setShortcut(QKeySequence(Qt.Modifier.SHIFT | Qt.Key.Key_F3))
        self.previous_hit_action.setStatusTip(_tr("Select the previous request the search found"))
        self.previous_hit_action.triggered.connect(self.previous_hit)
        for action in (self.next_hit_action, self.previous_hit_action):
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            action.setEnabled(False)
            self.addAction(action)

        self.tree = QTreeView(self)
        self.tree.setObjectName("navigatorTree")
        self.tree.setModel(self.model)
        self.tree.setUniformRowHeights(True)
        # As the anatomy trees: four levels deep, the names keep the room (and a status dot needs
        # no 16 px icon).
        self.tree.setIndentation(14)
        self.tree.setIconSize(QSize(12, 12))
        self.tree.setAlternatingRowColors(True)
        self.tree.setAllColumnsShowFocus(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.tree.setExpandsOnDoubleClick(True)
        # The name takes what the other columns leave, and never less than the widest name in
        # sight; the detail is as wide as its widest text, and gives way first (its whole text on
        # hover) when the navigator is too narrow for both, before a horizontal scroll bar. The number columns are sized from the font and the widest figure shown
        # (the model's widest), not measured: that read every row of the tree on each expand.
        # The name and detail are measured on the rows in sight, once the tree has settled, and
        # not while a filter is being applied (its rows are inserted a batch per turn of the
        # event loop, the matches opened a few at a time): each measure asks Python for every
        # role of every row it reads, and a measure per batch stalled the window.
        self.columns = ColumnFitter(self.tree, COL_NAME, fit_stretch=True, minimum=NAME_COLUMN_MINIMUM,
                                    minimums={COL_DETAIL: DETAIL_COLUMN_MINIMUM},
                                    skip=(COL_TOKENS, COL_CACHED, COL_DURATION), gives_way=(COL_DETAIL,),
                                    settle_ms=COLUMNS_SETTLE_MS, waits_for=self._filling, in_sight=True)
        self.model.figuresWidened.connect(self._size_number_columns)
        self._size_number_columns()

        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        bar.setSpacing(4)
        bar.addWidget(self.search, 3)
        bar.addWidget(self.hits_label)
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
        self._show_timer = QTimer(self)
        self._show_timer.setSingleShot(True)
        self._show_timer.setInterval(NavigatorModel.BATCH_PAUSE_MS)
        self._show_timer.timeout.connect(self._show_filter)
        # The load a filter waits for ends with its last batch: the filter is applied on the next
        # turn of the event loop, not in the same one.
        self._finish_timer = QTimer(self)
        self._finish_timer.setSingleShot(True)
        self._finish_timer.setInterval(NavigatorModel.BATCH_PAUSE_MS)
        self._finish_timer.timeout.connect(self._finish_pending_filter)
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
        self.model.loadingChanged.connect(lambda n: self._finish_timer.start() if n == 0 else None)
        # A filter applied to a tree still loading (a level loading after another) counts again
        # once the last level is in; searchApplied waits for that.
        self.model.loadingChanged.connect(lambda n: self._search_shown() if n == 0 and self.search.text() else None)
        self._announced = False  # searchApplied was emitted for the search shown
        self.filter.rowsInserted.connect(self._rows_inserted)
        self._page_timer = QTimer(self)
        self._page_timer.setSingleShot(True)
        self._page_timer.setInterval(0)
        self._page_timer.timeout.connect(self._fetch_visible_pages)
        self.tree.verticalScrollBar().valueChanged.connect(lambda _v: self._page_timer.start())
        self.tree.expanded.connect(lambda _i: self._page_timer.start())
        self.setFocusProxy(self.tree)

    def _filling(self) -> bool:
        """Rows are still being loaded, filtered or opened (a filter is being applied)."""
        return self._filter_pending or self.model.loading > 0 or self._expand_plan is not None \
            or self._expand_timer.isActive() or self._show_timer.isActive() or self._finish_timer.isActive()

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
            self._show_timer.stop()
            self._show_model(self.model)
            self.filter.clear_criteria()
            return
        self.filter.set_criteria(**criteria)
        if not self.filter.active:
            self._show_timer.stop()
            self._show_model(self.model)
        elif self.tree.model() is not self.filter:
            # The matches are found on this turn of the event loop, the tree is laid out over
            # them on the next (_show_filter): together they stalled the window (with the last
            # batch of a load before them, 40-60 ms on the benchmark's 1,025-turn session).
            self._show_timer.start()

    def _show_filter(self) -> None:
        """Put the filter under the tree, now that its criteria are set; say it is shown."""
        if not self.filter.active:
            return
        self._show_model(self.filter)
        self._search_shown()

    @property
    def _showing(self) -> bool:
        """A filter's criteria are set and the tree switches to it on the next turn of the loop."""
        return self._show_timer.isActive()

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
        self.columns.schedule()  # other rows in sight

    def _size_number_columns(self) -> None:
        """Each number column as wide as its title or the widest figure shown so far (at least
        a four-digit count and a one-second duration; a wider figure widens it when it shows)."""
        metrics = self.tree.fontMetrics()
        header = self.tree.header()
        style = self.tree.style()
        # The cell's text margins (focus frame and item margins), and the title's header margins.
        pad = 2 * style.pixelMetric(style.PixelMetric.PM_FocusFrameHMargin) + 6
        title_pad = 2 * style.pixelMetric(style.PixelMetric.PM_HeaderMargin) + 2
        widest = self.model.widest
        least = (format_number(9_999), format_number(9_999), format_duration(9_990))
        for col, shown, floor in zip((COL_TOKENS, COL_CACHED, COL_DURATION), widest, least, strict=True):
            sample = max(shown, floor, key=metrics.horizontalAdvance)
            title = self.model.headerData(col, Qt.Orientation.Horizontal) or ""
            width = max(metrics.horizontalAdvance(sample) + pad, header.fontMetrics().horizontalAdvance(title) + title_pad)
            header.resizeSection(col, width)
        self.columns.relayout()

    def changeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() in (event.Type.FontChange, event.Type.LanguageChange, event.Type.StyleChange):
            self._size_number_columns()
        if event.type() == event.Type.LanguageChange:
            self.model.invalidate_texts()
        if event.type() == event.Type.PaletteChange:
            forget_palette()

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
        self._announced = False
        self._cancel_search()
        self._search_timer.start()
        self._show_hits()

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

        # The scan parses every prompt: without the collector, whose full collections (each
        # holding the interpreter lock for a fifth of a second on a big store) find nothing to free.
        self._search_job = self._tasks.run(work, done, fail, resource=store, pause_gc=True)

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
        if not self._showing:
            self._search_shown()

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
                if not self._showing:
                    self._search_shown()

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
            self._expand_timer.setInterval(NavigatorModel.BATCH_PAUSE_MS)
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

    # ------------------------------------------------------------------ search hits

    @property
    def hits(self) -> list[Node]:
        """The requests the prompt search found (and the other filters keep), in the tree's order."""
        return self.filter.hits if self.proxy is self.filter and self._search_done() else []

    def _search_done(self) -> bool:
        return bool(self.search.text()) and self._matches is not None and not self._searching \
            and not self._search_timer.isActive() and not self._filter_pending and not self._showing

    def _is_hit(self, node: Node) -> bool:
        return self._search_done() and self._matches is not None and node.key in self._matches

    def _search_shown(self) -> None:
        """A filter was applied: show the hit count, and say so when it was a search's."""
        self._show_hits()
        if self._search_done():
            if not self._announced and self.model.loading == 0 and self.model.fully_loaded():
                self._announced = True
                self.searchApplied.emit(len(self.hits))
        elif not self.search.text():
            self.searchApplied.emit(-1)
            self.searchHighlight.emit("")

    def _current_hit(self) -> int | None:
        """The current row's place among the hits, or None when it is none of them."""
        index = self.tree.currentIndex()
        if not index.isValid():
            return None
        node = self.model.node(self.proxy.mapToSource(index))
        if node.kind != REQUEST or not self._is_hit(node):
            return None
        hits = self.hits
        try:
            return hits.index(node)
        except ValueError:
            return None

    def _show_hits(self) -> None:
        label = self.hits_label
        text = self.search.text()
        if not text:
            label.hide()
            enabled = False
        else:
            if not self._search_done():
                label.setText(_tr("Searching…"))
                enabled = False
            else:
                count = len(self.hits)
                at = self._current_hit()
                if count == 0:
                    label.setText(_tr("No match"))
                elif at is not None:
                    label.setText(_tr("{at} of {count}").format(at=format_number(at + 1), count=format_number(count)))
                elif count == 1:
                    label.setText(_tr("1 request"))
                else:
                    label.setText(_tr("{count} requests").format(count=format_number(count)))
                enabled = count > 0
            label.show()
        self.next_hit_action.setEnabled(enabled)
        self.previous_hit_action.setEnabled(enabled)

    def next_hit(self) -> None:
        """Select the next request the search found (after the current row; wrapping round)."""
        self._step_hit(1)

    def previous_hit(self) -> None:
        """Select the previous request the search found (before the current row; wrapping round)."""
        self._step_hit(-1)

    def _step_hit(self, step: int) -> None:
        hits = self.hits
        if not hits:
            return
        # The user goes from hit to hit: the first matching turns need not open by themselves
        # any more (each expansion lays rows out on the GUI thread while the hit's request loads).
        self._expand_timer.stop()
        self._expand_plan = None
        at = self._current_hit()
        if at is not None:
            target = hits[(at + step) % len(hits)]
        else:
            target = self._hit_beside_current(hits, step)
        index = self.proxy.mapFromSource(self.model.index_of(target))
        if not index.isValid():
            return
        parent = index.parent()
        while parent.isValid():
            self.tree.expand(parent)
            parent = parent.parent()
        self.tree.setCurrentIndex(index)
        self.tree.scrollTo(index, QAbstractItemView.ScrollHint.EnsureVisible)

    def _hit_beside_current(self, hits: list[Node], step: int) -> Node:
        """From a row that is no hit: the first hit below it (F3) or above it (Shift+F3)."""
        index = self.tree.currentIndex()
        if not index.isValid():
            return hits[0] if step > 0 else hits[-1]
        place = _tree_place(self.model.node(self.proxy.mapToSource(index)))
        # The hits are in tree order: a binary search reads the places of a few of them only.
        low, high = 0, len(hits)
        while low < high:
            middle = (low + high) // 2
            if _tree_place(hits[middle]) <= place:
                low = middle + 1
            else:
                high = middle
        # hits[:low] are at or above the row, hits[low:] below it.
        if step > 0:
            return hits[low] if low < len(hits) else hits[0]
        return hits[low - 1] if low > 0 else hits[-1]

    # ------------------------------------------------------------------ selection

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            self.itemSelected.emit("", {})
            return
        node = self.model.node(self.proxy.mapToSource(current))
        self.itemSelected.emit(node.kind, node.data)
        if node.kind == REQUEST:
            self.requestSelected.emit(node.key)
            self.searchHighlight.emit(self.search.text() if self._is_hit(node) else "")
        self._show_hits()

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


def _tree_place(node: Node) -> tuple[int, ...]:
    """A node's rows from the root down: tree order is the order of these tuples."""
    rows: list[int] = []
    up: Node | None = node
    while up is not None and up.parent is not None:
        rows.append(up.row)
        up = up.parent
    rows.reverse()
    return tuple(rows)
