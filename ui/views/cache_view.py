"""The prompt-cache analysis of one session (:mod:`inspector.cache.analysis`), as views.

* a runtime × turn table (:class:`ui.models.cache_table.CacheTableModel`): one cell per compared
  request, showing the shared-prefix share of its tokens and coloured by it; tool-loop steps and
  retries as extra rows under their runtime;
* the pair view (:class:`ui.views.pair_view.PairView`): the two requests of the selected cell
  aligned part by part, with the point where they first differ highlighted to the character, the
  surrounding text, and buttons that open either request in the request view;
* a chart of shared vs total tokens over turns for the selected runtime, with the predicted and
  the reported cached tokens (:mod:`ui.views.share_chart`);
* the layout findings, each with the part it concerns (:mod:`ui.views.findings_list`).

The analysis runs on the task manager's pool and reaches the GUI thread in batches while it runs,
so the table fills turn by turn; picking another session cancels the run. A session analysed
before, in this process or an earlier one, is shown whole from what was kept of it in the
user's cache folder (:mod:`inspector.cache.kept`), read on the pool like an analysis (no analysis
runs when the store holds the same rows); when rows were appended since, the kept table is shown
and only the rows written since are read in the background, from where the kept analysis ended
(its resume state), the new and changed pairs merged. Finished analyses are also held per
session for the open store, so switching back is instant; token counts are shared with the
request view through the core's caches (the analysis's interned parts and
:func:`inspector.tokens.count_exact`'s content-hash cache).
"""

from __future__ import annotations

import html
import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import (
    QCoreApplication,
    QModelIndex,
    QObject,
    Qt,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from inspector import views
from inspector.cache.analysis import SessionCacheAnalyser
from inspector.cache.kept import Kept, KeptAnalyses
from inspector.cache.resume import merged_pairs
from inspector.cache.rules import default_rules
from inspector.cache.results import CacheAnalysis, CachePair, Finding
from inspector.cache.worker import worker_for_session
from inspector.cache.session_totals import SessionTotals, session_cost_classes, session_totals
from ui.theme import is_dark

from ..models.cache_table import CacheTableModel
from ..workers import Job, TaskManager
from .cache_texts import cost_classes_text
from .findings_list import FindingsList
from .pair_view import PairView
from .share_chart import ShareCellDelegate, ShareChart, ShareLegend


# The share of the width the table takes beside the findings: at least the first (a long session
# scrolls), at most the second (a short one gives the findings what its columns leave).
TABLE_SHARE = (0.35, 0.6)
# The table and findings row's minimum height (px): its header and about three rows.
UPPER_MINIMUM_HEIGHT = 100


def _tr(text: str) -> str:
    return QCoreApplication.translate("CacheView", text)


# A batch reaches the GUI thread at most this often while the analysis runs: often enough that
# the table visibly fills, rarely enough that repainting does not slow the analysis down.
BATCH_SECONDS = 0.1
# The chart is redrawn at most this often while pairs arrive (rebuilding a 1,000-turn series on
# every batch costs the analysis thread the GIL for longer than the batch took to make).
CHART_REFRESH_MS = 500


class _Relay(QObject):
    """Lives on the GUI thread; the analysis job emits through it so the slots run there."""

    turns = Signal(object, object)  # job, [(number, turn id)]
    batch = Signal(object, object)  # job, [CachePair]


class CacheView(QWidget):
    """The cache analysis of one session of the open store.

    ``set_store(store)`` binds it to a store (``None``: nothing open); ``open_session(id)``
    analyses a session (cancelling a running analysis); ``open_request`` is called with an event
    id by the click-throughs (double-click a cell, the pair view's Open buttons).

    Signals: ``pairsAdded(int)`` per batch shown, ``finished(session id)`` when an analysis is
    complete (findings listed), ``failed(str)``.
    """

    pairsAdded = Signal(int)
    finished = Signal(str)
    failed = Signal(str)

    def __init__(self, tasks: TaskManager, store: Callable[[], Any] | None = None,
                 open_request: Callable[[str], None] | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("cacheView")  # File → Export finds it without building it
        self.tasks = tasks
        self.store: Any = None
        self._store_getter = store
        self.open_request = open_request
        self.session_id: str | None = None
        self.analysis: CacheAnalysis | None = None
        self.job: Job | None = None
        self.cancelled_jobs: list[Job] = []
        self._started = 0.0
        self.elapsed: float | None = None
        self.shared = False  # the analysis shown was shared with the worker process
        # What is kept of analyses in the user's cache folder (None: not kept, e.g. tests that
        # watch an analysis run); the table shown came from it; why a kept file was ignored.
        self.keep_results = True
        self._keep: KeptAnalyses | None = None
        self.from_kept = False
        self._kept_problem: str | None = None
        self._results: dict[str, tuple[CacheAnalysis, list[tuple[int, str]], float, bool]] = {}
        self._requests: dict[str, Any] = {}  # model requests per session (the session rows' llmCalls)
        self._refresh_wanted = False
        # The shown session's analyser, kept after its run so a follow update analyses only what
        # was written since (SessionCacheAnalyser.resume), and the executions changed meanwhile.
        self._analyser: SessionCacheAnalyser | None = None
        self._follow_turns: list[str] = []
        self._sessions_job: Job | None = None
        self._wanted: tuple[str | None] | None = None  # request_session() before the list arrived
        self._chart_runtime: str | None = None
        self._split_done = False
        self._upper_moved = False  # the user moved the table / findings splitter
        self._totals = SessionTotals()
        self._chart_timer = QTimer(self)
        self._chart_timer.setSingleShot(True)
        self._chart_timer.setInterval(CHART_REFRESH_MS)
        self._chart_timer.timeout.connect(self._update_chart)
        self._relay = _Relay(self)
        self._relay.turns.connect(self._on_turns)
        self._relay.batch.connect(self._on_batch)

        self.session_box = QComboBox(self)
        self.session_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.session_box.setMinimumContentsLength(24)
        self.session_box.activated.connect(self._session_picked)
        self.steps_box = QCheckBox(_tr("Tool-loop steps"), self)
        self.steps_box.setToolTip(_tr("Also show a row per tool-loop step and retry, compared with the call before it"))
        self.steps_box.toggled.connect(self._toggle_steps)
        self.status = QLabel(self)
        self.status.setTextFormat(Qt.TextFormat.RichText)
        self._status: tuple[list[str], str] = ([], "")
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.legend = ShareLegend(self)
        top = QHBoxLayout()
        top.setContentsMargins(4, 2, 4, 2)
        label = QLabel(_tr("Session"), self)
        label.setBuddy(self.session_box)
        top.addWidget(label)
        top.addWidget(self.session_box)
        top.addWidget(self.steps_box)
        top.addWidget(self.legend)
        top.addSpacing(12)
        top.addWidget(self.status, 1)

        self.model = CacheTableModel(self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        fm = self.table.fontMetrics()
        hh = self.table.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        hh.setDefaultSectionSize(max(30, fm.horizontalAdvance("100") + 12))
        hh.setMinimumSectionSize(20)
        vh = self.table.verticalHeader()
        vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vh.setDefaultSectionSize(fm.height() + 6)
        vh.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.table.setItemDelegate(ShareCellDelegate(self.table))
        self.table.setToolTip(_tr("Shared prefix as % of the request's tokens; double-click to open the request"))
        self.table.selectionModel().currentChanged.connect(lambda cur, _prev: self._cell_selected(cur))
        self.table.doubleClicked.connect(self._cell_activated)

        self.chart = ShareChart(self)
        self.findings = FindingsList(self)
        self.findings.findingSelected.connect(self._finding_selected)
        self.pair_view = PairView(tasks, self._current_store, self)
        self.pair_view.openRequested.connect(self._open)

        # The table is short (a row per runtime) and as wide as the session is long, so the
        # findings sit beside it; the chart and the pair view share the taller lower half.
        self.upper = QSplitter(Qt.Orientation.Horizontal, self)
        self.upper.addWidget(self.table)
        self.upper.addWidget(self.findings)
        self.upper.setStretchFactor(0, 3)
        self.upper.setStretchFactor(1, 2)
        self.upper.splitterMoved.connect(self._upper_moved_by_user)
        self.lower = QSplitter(Qt.Orientation.Horizontal, self)
        self.lower.addWidget(self.chart)
        self.lower.addWidget(self.pair_view)
        self.lower.setStretchFactor(0, 1)
        self.lower.setStretchFactor(1, 3)
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.addWidget(self.upper)
        self.splitter.addWidget(self.lower)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setChildrenCollapsible(False)
        self.model.rowsInserted.connect(lambda *_: self._fit_table())
        self.model.modelReset.connect(self._fit_table)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(top)
        layout.addWidget(self.splitter, 1)
        self._apply_palette()
        self._show_status()

    # ------------------------------------------------------------------ store and sessions

    def _current_store(self) -> Any:
        if self._store_getter is not None:
            return self._store_getter()
        return self.store

    def set_store(self, store: Any) -> None:
        """Bind to ``store``: the session list is read again, finished analyses are dropped, and
        the session shown before is analysed again if the new store has it (a reload)."""
        keep = self.session_id
        self._cancel()
        self.store = store
        self._keep = None
        self._results.clear()
        self._wanted = None
        self.session_box.clear()
        self._reset_views()
        self.session_id = None
        if store is None:
            self._show_status()
            return

        def loaded(rows: list[dict[str, Any]]) -> None:
            if store is not self.store:
                return
            self._sessions_job = None
            self.session_box.clear()
            self._requests = {row["sessionId"]: row.get("llmCalls") for row in rows}
            for row in rows:
                label = row["sessionId"] + (f" · {row['world']}" if row.get("world") else "")
                self.session_box.addItem(label, row["sessionId"])
                self.session_box.setItemData(self.session_box.count() - 1, _tr("{n} model requests").format(
                    n=f"{row.get('llmCalls') or 0:,}"), Qt.ItemDataRole.ToolTipRole)
            if keep is not None and self.session_box.findData(keep) >= 0:
                self.open_session(keep)
            elif self._wanted is not None:
                wanted, self._wanted = self._wanted[0], None
                self.request_session(wanted)
            else:
                self._show_status()

        self._sessions_job = self.tasks.run(lambda _job: views.session_rows(store), loaded,
                                            lambda exc: self.failed.emit(str(exc)), resource=store)

    @property
    def sessions_loaded(self) -> bool:
        return self._sessions_job is None and self.store is not None

    def session_ids(self) -> list[str]:
        return [self.session_box.itemData(i) for i in range(self.session_box.count())]

    def request_session(self, session_id: str | None) -> None:
        """Analyse ``session_id`` if the store has it, else the first session; waits for the
        session list when it is still being read."""
        if self.store is None:
            return
        if not self.sessions_loaded:
            self._wanted = (session_id,)
            return
        ids = self.session_ids()
        target = session_id if session_id in ids else (ids[0] if ids else None)
        if target is not None and target != self.session_id:
            self.open_session(target)

    def _session_picked(self, index: int) -> None:
        session_id = self.session_box.itemData(index)
        if session_id and session_id != self.session_id:
            self.open_session(session_id)

    def open_session(self, session_id: str) -> None:
        """Analyse ``session_id`` (shown at once if analysed before with this store)."""
        store = self.store
        if store is None:
            return
        self._cancel()
        self._refresh_wanted = False
        self._follow_turns = []
        self.session_id = session_id
        i = self.session_box.findData(session_id)
        if i >= 0 and i != self.session_box.currentIndex():
            self.session_box.setCurrentIndex(i)
        self._reset_views()
        cached = self._results.get(session_id)
        if cached is not None:
            analysis, turns, elapsed, shared = cached
            self.model.set_turns(turns)
            self._add(analysis.pairs)
            self._complete(analysis, elapsed, shared)
            return
        self._started = time.perf_counter()
        self.elapsed = None
        analyser = SessionCacheAnalyser(store, session_id)
        relay = self._relay
        keep = self._kept_folder()
        self._kept_problem = None
        requests = self._requests.get(session_id)

        def work(job: Job) -> CacheAnalysis | Kept | None:
            if keep is not None:
                # A kept analysis, also when the store has grown since: file reads, a checksum and
                # two small queries, off the GUI thread like the analysis it stands in for.
                kept = keep.load(session_id, analyser.rules, grown=True)
                if kept is not None:
                    return kept
            mark = keep.mark(session_id) if keep is not None else None  # before anything is read
            # A big session is shared with the worker process, started for it (or again, after
            # it ended for idling); a small one never starts it.
            worker_for_session(requests)
            turns = [(t.number, t.turn_id) for t in store.turns(session_id)]
            relay.turns.emit(job, turns)
            pairs: list[CachePair] = []
            batch: list[CachePair] = []
            last = time.perf_counter()
            gen = analyser.pairs()
            try:
                for pair in gen:
                    pairs.append(pair)
                    batch.append(pair)
                    if job.cancelled:
                        return None
                    now = time.perf_counter()
                    if now - last >= BATCH_SECONDS:
                        relay.batch.emit(job, batch)
                        batch, last = [], now
            finally:
                gen.close()
            if batch:
                relay.batch.emit(job, batch)
            analysis = CacheAnalysis(session_id, pairs, analyser.findings, analyser.summaries, analyser.warnings)
            if keep is not None and mark is not None and not job.cancelled:
                keep.save(analysis, analyser.rules, mark, turns, analyser.resume_state())
            return analysis

        self.job = self.tasks.run(work, lambda result: self._done(session_id, result, analyser),
                                  lambda exc: self._failed(session_id, exc), resource=store, pause_gc=True)
        self._show_status()

    # ------------------------------------------------------------------ kept analyses

    def _kept_folder(self) -> KeptAnalyses | None:
        """What is kept of the open store's analyses (None when nothing is kept)."""
        store = self.store
        if not self.keep_results or store is None:
            return None
        if self._keep is None or self._keep.store is not store:
            try:
                self._keep = KeptAnalyses(store, warn=self._kept_ignored)
            except OSError:  # the database file is gone: nothing to file it under
                return None
        return self._keep

    def _kept_ignored(self, message: str) -> None:
        self._kept_problem = message

    def _show_kept(self, session_id: str, kept: Kept) -> None:
        """Show a kept analysis whole; when the store has grown since, analyse the session again
        in the background and merge (as a follow update does)."""
        self.model.set_turns(kept.turns)
        pairs = kept.analysis.pairs
        self.model.add_pairs(pairs)
        self._totals.add(pairs)
        if self.model.rowCount():
            self._chart_runtime = self.model.row_key(0)[0]  # drawn once, by _complete
        self.pairsAdded.emit(len(pairs))
        elapsed = time.perf_counter() - self._started
        if kept.current:
            self._results[session_id] = (kept.analysis, list(kept.turns), elapsed, False)
        self._complete(kept.analysis, elapsed, False, from_kept=True)
        if not kept.current:
            self.refresh_session(kept)

    def _cancel(self) -> None:
        # A run stopped half-way leaves its analyser unable to resume.
        self._analyser = None
        if self.job is not None:
            self.job.cancel()
            self.cancelled_jobs.append(self.job)
            del self.cancelled_jobs[:-8]
            self.job = None

    @property
    def running(self) -> bool:
        return self.job is not None

    # ------------------------------------------------------------------ arriving results

    @Slot(object, object)
    def _on_turns(self, job: Job, turns: list[tuple[int, str]]) -> None:
        if job is self.job:
            self.model.set_turns(turns)

    @Slot(object, object)
    def _on_batch(self, job: Job, pairs: list[CachePair]) -> None:
        if job is not self.job:
            return  # a cancelled run's last batch, already queued when it was cancelled
        self._add(pairs)
        self._show_status()

    def _add(self, pairs: list[CachePair]) -> None:
        had_rows = self.model.rowCount() > 0
        self.model.add_pairs(pairs)
        self._totals.add(pairs)
        if not had_rows and self.model.rowCount():
            self._chart_runtime = self.model.row_key(0)[0]
            self._update_chart()
        elif any(p.runtime_id == self._chart_runtime and p.kind == "turn" for p in pairs) \
                and not self._chart_timer.isActive():
            self._chart_timer.start()
        self.pairsAdded.emit(len(pairs))

    def _done(self, session_id: str, analysis: CacheAnalysis | Kept | None, analyser: SessionCacheAnalyser) -> None:
        if session_id != self.session_id or analysis is None:
            return
        self.job = None
        if isinstance(analysis, Kept):
            self._show_kept(session_id, analysis)
            return
        self._analyser = analyser
        elapsed = time.perf_counter() - self._started
        self._results[session_id] = (analysis, list(self.model.turns), elapsed, analyser.shared_with_worker)
        self._complete(analysis, elapsed, analyser.shared_with_worker)
        self._refresh_if_wanted()

    # ------------------------------------------------------------------ following

    def follow_update(self, update: Any) -> None:
        """Merge what a live store wrote (an ``inspector.follow.FollowUpdate``): kept analyses of
        changed sessions are dropped, and the session shown is analysed again in the background,
        its new pairs appended to the table (the selection and the scroll stay)."""
        touched = {sid for sid, d in update.changes.sessions.items() if d.requests or d.turns}
        if self.sessions_loaded:
            for sid in update.changes.new_sessions:
                if self.session_box.findData(sid) < 0:
                    self.session_box.addItem(sid, sid)
        for sid in touched:
            self._results.pop(sid, None)
            try:  # a session that grew past the worker's threshold is shared from then on
                self._requests[sid] = int(self._requests.get(sid) or 0) + update.changes.sessions[sid].requests
            except (TypeError, ValueError):
                pass
        if self.session_id in touched:
            self._follow_turns.extend(update.changes.sessions[self.session_id].turns)
            self.refresh_session()

    def refresh_session(self, kept: Kept | None = None) -> None:
        """Analyse what was written to the shown session since its last analysis and merge the
        new and changed pairs (after a running analysis, or from the resume state of a ``kept``
        analysis the session has outgrown); the whole session when there is nothing to resume.
        The whole analysis is kept afterwards."""
        store, session_id = self.store, self.session_id
        if store is None or session_id is None:
            return
        if self.job is not None:
            self._refresh_wanted = True
            return
        self._refresh_wanted = False
        started = time.perf_counter()
        analyser, self._analyser = self._analyser, None
        turns, self._follow_turns = self._follow_turns, []
        keep = self._kept_folder()
        requests = self._requests.get(session_id)
        earlier = list(self.analysis.pairs) if self.analysis is not None and analyser is not None else []

        def work(job: Job) -> tuple[CacheAnalysis, list[CachePair]] | None:
            nonlocal analyser
            # What a follow update resumes is not kept again (a kept analysis the session has
            # outgrown resumes as cheaply): only a kept one brought up to date, or a whole one.
            keeping = keep if kept is not None or analyser is None else None
            mark = keeping.mark(session_id) if keeping is not None else None  # before anything is read
            resumed = keeping.resumed(kept, default_rules()) if keeping is not None and kept is not None else None
            if resumed is not None:
                analyser = resumed.analyser
                analysis, changed = resumed.analysis, resumed.changed
            else:
                if analyser is None:
                    analyser = SessionCacheAnalyser(store, session_id)
                    worker_for_session(requests)
                    gen = analyser.pairs()
                else:
                    gen = analyser.resume(turns)
                changed = []
                try:
                    for pair in gen:
                        if job.cancelled:
                            return None
                        changed.append(pair)
                finally:
                    gen.close()
                whole = merged_pairs(earlier, changed, analyser.restarted) if earlier else changed
                analysis = CacheAnalysis(session_id, whole, analyser.findings, analyser.summaries, analyser.warnings)
            if keeping is not None and mark is not None and not job.cancelled:
                keeping.save(analysis, analyser.rules, mark,
                             [(t.number, t.turn_id) for t in store.turns(session_id)], analyser.resume_state())
            return analysis, changed

        def done(result: tuple[CacheAnalysis, list[CachePair]] | None) -> None:
            if session_id != self.session_id or result is None:
                return
            self.job = None
            self._analyser = analyser
            analysis, changed = result
            appended, replaced = self.model.merge_pairs(changed)
            self._recount()
            elapsed = time.perf_counter() - started
            shared = analyser is not None and analyser.shared_with_worker
            self._results[session_id] = (analysis, list(self.model.turns), elapsed, shared)
            self._complete(analysis, elapsed, shared)
            if appended:
                self.pairsAdded.emit(appended)
            self._refresh_if_wanted()

        self.job = self.tasks.run(work, done, lambda exc: self._failed(session_id, exc), resource=store,
                                  pause_gc=True)
        self._show_status()

    def _refresh_if_wanted(self) -> None:
        if self._refresh_wanted:
            self.refresh_session()

    def _recount(self) -> None:
        self._totals = session_totals(self.model.pairs)

    def _complete(self, analysis: CacheAnalysis, elapsed: float, shared: bool = False, *,
                  from_kept: bool = False) -> None:
        self._chart_timer.stop()
        self._update_chart()
        self.analysis = analysis
        self.elapsed = elapsed
        self.shared = shared
        self.from_kept = from_kept
        self.findings.set_findings(analysis.findings, running=False)
        self._show_status()
        self.finished.emit(analysis.session_id)

    def _failed(self, session_id: str, exc: BaseException) -> None:
        if session_id != self.session_id:
            return
        self.job = None
        self._set_status([_tr("The analysis failed: {error}").format(error=str(exc))], "")
        self.failed.emit(str(exc))

    def _reset_views(self) -> None:
        self.analysis = None
        self.elapsed = None
        self._chart_runtime = None
        self._chart_timer.stop()
        self._totals = SessionTotals()
        self.model.clear()
        self.pair_view.clear()
        self.chart.set_pairs(None, [])
        self.findings.set_findings([], running=self.job is not None)

    def _show_status(self) -> None:
        if self.store is None:
            self._set_status([_tr("No database is open.")], "")
            return
        if self.session_id is None:
            self._set_status([_tr("Pick a session to analyse its prompt cache.")], "")
            return
        pairs = self.model.pairs
        totals = self._totals
        parts = [_tr("{n} requests").format(n=f"{len(pairs):,}")]
        if totals.total_tokens:
            parts.append(_tr("shared {pct} of {total} tokens").format(pct=f"{totals.shared_share * 100:.0f} %",
                                                                      total=f"{totals.total_tokens:,}"))
            parts.append(_tr("cached: predicted {predicted}, reported {reported}").format(
                predicted=f"{totals.predicted_cached_tokens:,}",
                reported=f"{totals.reported_cached_tokens:,}" if totals.reported_pairs else "—"))
        cost, cost_tip = cost_classes_text(session_cost_classes(self.analysis.findings)) if self.analysis else ("", "")
        if cost:
            parts.append(cost)
        if self.elapsed is not None:
            if self.from_kept:
                done = _tr("read back from the kept analysis in {s}")
            else:
                done = _tr("analysed in {s} by two processes") if self.shared else _tr("analysed in {s}")
            parts.append(done.format(s=f"{self.elapsed:.2f} s"))
            if self.from_kept and self.job is not None:
                parts.append(_tr("analysing the rows written since…"))
        elif self.job is not None:
            parts.append(_tr("analysing…"))
        if self._kept_problem is not None:
            parts.append(_tr("the kept analysis was ignored"))
            cost_tip = "\n".join(t for t in (cost_tip, html.escape(self._kept_problem)) if t)
        self._set_status(parts, cost_tip)

    @property
    def status_text(self) -> str:
        """The whole status line (the label shows the parts that fit)."""
        return " · ".join(self._status[0])

    @property
    def status_tip(self) -> str:
        """The status line's own tooltip (the cost classes, why a kept analysis was ignored)."""
        return self._status[1]

    def _set_status(self, parts: list[str], tip: str) -> None:
        self._status = (parts, tip)
        self._fit_status()

    def _fit_status(self) -> None:
        """The status line's parts that fit its width (the rest, and the tooltip's text, in its
        tooltip, with "…" saying there is more): never a part cut in the middle."""
        parts, tip = self._status
        label = self.status
        width = label.contentsRect().width()
        metrics = label.fontMetrics()
        shown = list(parts)
        more = " · …"
        while len(shown) > 1 and metrics.horizontalAdvance(" · ".join(shown) + (more if len(shown) < len(parts)
                                                                                   else "")) > width:
            shown.pop()
        hidden = parts[len(shown):]
        label.setText(html.escape(" · ".join(shown) + (more if hidden else "")))
        label.setToolTip("\n".join(hidden + ([tip] if tip else [])))

    def resizeEvent(self, e: Any) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(e)
        self._fit_status()

    # ------------------------------------------------------------------ interaction

    def _toggle_steps(self, on: bool) -> None:
        current = self.model.pair_at(self.table.currentIndex())
        self.model.set_show_steps(on)
        if current is not None:
            self.select_pair(current)

    def select_pair(self, pair: CachePair) -> bool:
        """Select the cell of ``pair`` (showing tool-loop rows if it is one); True if shown."""
        if pair.kind != "turn" and not self.model.show_steps:
            self.steps_box.setChecked(True)
        index = self.model.index_of(pair)
        if not index.isValid():
            return False
        self.table.setCurrentIndex(index)
        self.table.scrollTo(index)
        return True

    def _cell_selected(self, index: QModelIndex) -> None:
        if not index.isValid():
            return
        runtime = self.model.row_key(index.row())[0]
        if runtime != self._chart_runtime:
            self._chart_runtime = runtime
            self._chart_timer.stop()
            self._update_chart()
        pair = self.model.pair_at(index)
        if pair is not None:
            self.pair_view.show_pair(pair)

    def _cell_activated(self, index: QModelIndex) -> None:
        pair = self.model.pair_at(index)
        if pair is not None:
            self._open(pair.event_id)

    def _open(self, event_id: str) -> None:
        if self.open_request is not None:
            self.open_request(event_id)

    def _finding_selected(self, finding: Finding) -> None:
        wanted = set(finding.turn_ids[:1])
        for pair in self.model.runtime_pairs(finding.runtime_id):
            if pair.turn_id in wanted:
                self.select_pair(pair)
                return
        if finding.runtime_id in self.model.runtimes:
            self._chart_runtime = finding.runtime_id
            self._update_chart()

    def _upper_moved_by_user(self, *_: Any) -> None:
        self._upper_moved = True

    def _fit_table(self) -> None:
        """Size the upper half to the table's rows (up to ten; more scroll), so every runtime is
        visible without wasting the height the pair view needs."""
        rows = min(10, max(4, self.model.rowCount()))
        header = self.table.horizontalHeader().sizeHint().height()
        scrollbar = self.table.horizontalScrollBar().sizeHint().height()
        wanted = header + rows * self.table.verticalHeader().defaultSectionSize() + scrollbar + 4
        sizes = self.splitter.sizes()
        total = sum(sizes)
        if total > 0 and sizes[0] != wanted:
            self.splitter.setSizes([wanted, max(0, total - wanted)])
        # At least the header and a few rows, but small enough that the view fits a 340 px dock
        # (1280x720) with the pair view's minimum below it: more rows scroll.
        self.upper.setMinimumHeight(min(wanted, UPPER_MINIMUM_HEIGHT))
        self._fit_upper()

    def _fit_upper(self) -> None:
        """Give the table the width its columns take (a short session leaves the rest empty) and
        the findings beside it the rest, within TABLE_SHARE of the width; once the user has moved
        that splitter, the split stays theirs."""
        if self._upper_moved:
            return
        sizes = self.upper.sizes()
        total = sum(sizes)
        if total <= 0 or len(sizes) != 2:
            return
        table = self.table
        columns = table.horizontalHeader().length()
        scroll = table.verticalScrollBar().sizeHint().width() if table.verticalScrollBar().isVisible() else 0
        need = table.verticalHeader().sizeHint().width() + columns + 2 * table.frameWidth() + scroll + 2
        low, high = TABLE_SHARE
        wanted = max(int(total * low), min(need, int(total * high)))
        if sizes[0] != wanted:
            self.upper.setSizes([wanted, total - wanted])

    def showEvent(self, e: Any) -> None:  # noqa: N802 - Qt override
        super().showEvent(e)
        if not self._split_done:
            # Stretch factors only share out extra space; the first layout gives the chart too
            # little of it to read, so the initial split is set once, by width.
            self._split_done = True
            width = max(self.width(), 800)
            self.lower.setSizes([int(width * 0.3), width - int(width * 0.3)])
            self.upper.setSizes([int(width * 0.6), width - int(width * 0.6)])
        self._fit_table()

    def resizeEvent(self, e: Any) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(e)
        self._fit_upper()

    def _update_chart(self) -> None:
        runtime = self._chart_runtime
        points = [(self.model.turn_number(p.turn_id) or 0, p) for p in self.model.runtime_pairs(runtime)]
        self.chart.set_pairs(runtime, points)

    def _apply_palette(self) -> None:
        self.model.dark = is_dark(self.palette())

    def changeEvent(self, e: Any) -> None:  # noqa: N802 - Qt override
        if e.type() == e.Type.PaletteChange:
            self._apply_palette()
            self.model.layoutChanged.emit()
        super().changeEvent(e)

    def shutdown(self) -> None:
        self._cancel()
        self.pair_view.clear()
