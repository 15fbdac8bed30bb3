"""Everything about one model request: header facts and the context budget, the anatomy trees
with the selected part's text, the conversation, the kernel messages, each provider body, the
response and the raw trace row; copying, exporting, comparing and a search hit's highlight.

The header lives in ``request_header``, the trees in ``anatomy_sections``, the conversation
cards in ``conversation_view`` and the "Compare with…" dialog in ``request_picker``.

All computing (the anatomy with exact tokens, renderings, comparisons) happens in ``inspector``;
this module only schedules it on the TaskManager and shows the results.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QEventLoop, QItemSelectionModel, QModelIndex, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QGuiApplication, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QDialog, QFileDialog, QMenu, QSplitter, QTabWidget, QVBoxLayout, QWidget

from inspector import views
from inspector.anatomy.conversation import Card, conversation
from inspector.budget import ContextBudget, request_budget
from inspector.ids import TurnNumbers
from inspector.export import (
    anatomy_json, anatomy_markdown, attempt_body_json, attempt_facts, kernel_messages_json, node_text,
    provider_body_json, raw_event_json, response_text,
)
from inspector.files import OutputPathError, check_output_path, write_atomic
from inspector.highlight import PreparedText, prepare_text
from inspector.readable_json import readable_json
from inspector.views import DetailNode, RequestDetail

from ui.models.anatomy_tree import NodeRole, recognised_label
from ui.settings import remember_splitter
from ui.views.anatomy_sections import SHORT_PAGE, AnatomySection, fit_sections
from ui.views.compare_view import CompareView
from ui.views.conversation_view import ConversationView
from ui.views.part_names import part_label, role_label
from ui.views.request_header import RequestHeader, attempt_caption
from ui.views.request_picker import RequestPickerDialog, num
from ui.views.text_pane import TextPane
from ui.workers import Job, TaskManager

if TYPE_CHECKING:
    from inspector.anatomy.compare import Comparison  # the comparison engine loads when first used


def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("RequestView", text)


__all__ = ["RequestPickerDialog", "RequestView", "attach_request_view"]


class RequestView(QWidget):
    """Signals: ``loaded(str)`` after a request is shown, ``loadFailed(str)`` with the message shown
    inline, ``compared()`` after a comparison is shown.

    ``store_getter`` returns the window's current store (or None); it is read when work starts,
    and the job holds the store as its resource so replacing the store never closes it mid-read.

    :meth:`highlight_search` marks a search text in every pane of the opened request.
    """

    loaded = Signal(str)
    loadFailed = Signal(str)
    compared = Signal()

    def __init__(self, tasks: TaskManager, store_getter: Callable[[], Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tasks = tasks
        self._store = store_getter
        self.event_id: str | None = None
        self.detail: RequestDetail | None = None
        self.comparison: Comparison | None = None
        self.cards: list[Card] = []
        self.budget: ContextBudget | None = None
        self.turn_number: int | None = None
        # Turn numbers per session ("Turn 4"), read once per session in the background.
        self._numbers = TurnNumbers()
        self.search_text = ""
        self._cards_shown = False
        self._job: Job | None = None
        self._running: Job | None = None  # the load executing, even if its result will be dropped
        self._queued = False  # self.event_id still has to be loaded
        self._load_timer = QTimer(self)
        self._load_timer.setSingleShot(True)
        self._load_timer.setInterval(0)
        self._load_timer.timeout.connect(self._start_queued)
        self._compare_job: Job | None = None
        self._pane_jobs: dict[int, Job] = {}
        # JSON panes: what fills each (make_text, caption), to switch it to unescaped and back.
        self._json_makers: dict[int, tuple[Callable[[], str], str]] = {}
        self._node_job: Job | None = None
        # Texts prepared in the background (display text + highlight spans), by node identity.
        self._prepared_nodes: dict[int, PreparedText] = {}
        self._selecting = False
        # Picker dialogs are created through this hook so tests can answer them.
        self.pick_request: Callable[[list[dict[str, Any]], str | None], str | None] = self._pick_request
        self.save_path: Callable[[str, str, str], str | None] = self._save_path

        # Names this view's group in Help → Keyboard Shortcuts (never shown as a title).
        self.setWindowTitle(_tr("Request View"))
        self._build_header()
        self._build_tabs()
        self._build_actions()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 0, 0)
        layout.setSpacing(3)
        layout.addWidget(self.header)
        layout.addWidget(self.tabs, 1)
        self._set_enabled(False)

    # ------------------------------------------------------------------ construction

    def _build_header(self) -> None:
        self.header = RequestHeader(self)
        self.title = self.header.title
        self.facts = self.header.facts
        self.message = self.header.message
        self.budget_bar = self.header.budget_bar
        self.copy_button = self.header.copy_button
        self.export_button = self.header.export_button
        self.compare_button = self.header.compare_button

    def _build_tabs(self) -> None:
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)

        anatomy = QWidget(self)
        self.stack_section = AnatomySection(_tr("Segment stack"), anatomy)
        self.context_section = AnatomySection(_tr("Turn context"), anatomy)
        self.history_section = AnatomySection(_tr("History bags"), anatomy)
        self.sections = (self.stack_section, self.context_section, self.history_section)
        for index, section in enumerate(self.sections):
            section.tree.selectionModel().currentChanged.connect(partial(self._node_selected, section))
            section.titleClicked.connect(partial(self._open_section, index))
        # The tree open while the page is too short for three (anatomy_sections' accordion).
        self._open_section_index = 0
        self.trees_splitter = trees = QSplitter(Qt.Orientation.Vertical, anatomy)
        trees.setChildrenCollapsible(False)
        # The view's minimum height must stay small (the window's docks share 720 px): the trees
        # ask for little and scroll; given room, fit_sections gives each the rows it needs.
        trees.setMinimumHeight(TREES_MIN_HEIGHT)
        for section in self.sections:
            trees.addWidget(section)
        trees.setStretchFactor(0, 5)
        trees.setStretchFactor(1, 2)
        trees.setStretchFactor(2, 3)
        self.text_pane = TextPane(anatomy)
        self.text_pane.editor.setMinimumHeight(TEXT_MIN_HEIGHT)
        self.anatomy_splitter = QSplitter(Qt.Orientation.Vertical, anatomy)
        self.anatomy_splitter.setChildrenCollapsible(False)
        self.anatomy_splitter.addWidget(trees)
        self.anatomy_splitter.addWidget(self.text_pane)
        self.anatomy_splitter.setStretchFactor(0, 3)
        self.anatomy_splitter.setStretchFactor(1, 2)
        # The user's split between the trees and the text, remembered; once they drag it, each
        # request keeps it (only the trees are fitted within it).
        self._user_split = remember_splitter(self.anatomy_splitter, "requestView/anatomy")
        self._fitted_short = False
        self.anatomy_splitter.installEventFilter(self)
        self.anatomy_splitter.splitterMoved.connect(lambda _pos, _index: setattr(self, "_user_split", True))
        lay = QVBoxLayout(anatomy)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.anatomy_splitter)
        self.tabs.addTab(anatomy, _tr("Anatomy"))

        self.conversation_view = ConversationView(self)
        self.tabs.addTab(self.conversation_view, _tr("Conversation"))

        # JSON wraps (a prompt is one long string), and can show its strings unescaped.
        self.kernel_pane = TextPane(self, unescapable=True)
        self._json_source(self.kernel_pane)
        self.tabs.addTab(self.kernel_pane, _tr("Kernel messages"))

        self.provider_tabs = QTabWidget(self)
        self.provider_tabs.setDocumentMode(True)
        self.provider_panes: list[TextPane] = []
        self.tabs.addTab(self.provider_tabs, _tr("Provider body"))

        self.response_pane = TextPane(self)
        self.tabs.addTab(self.response_pane, _tr("Response"))
        self.raw_pane = TextPane(self, unescapable=True)
        self._json_source(self.raw_pane)
        self.tabs.addTab(self.raw_pane, _tr("Raw event"))

        self.compare_view = CompareView(self)
        self._compare_tab = self.tabs.addTab(self.compare_view, _tr("Compare"))
        # Shown once a comparison exists; an empty compare page would only be a placeholder.
        self.tabs.setTabVisible(self._compare_tab, False)
        self.tabs.currentChanged.connect(self._prepare_visible)
        self.tabs.currentChanged.connect(self._show_cards_if_visible)
        self.provider_tabs.currentChanged.connect(self._prepare_visible)

    def _build_actions(self) -> None:
        def action(text: str, slot: Callable[[], None], key: str | None = None) -> QAction:
            a = QAction(text, self)
            if key:
                a.setShortcut(QKeySequence(key))
                a.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            a.triggered.connect(slot)
            self.addAction(a)
            return a

        self.copy_md_action = action(_tr("Copy Anatomy as &Markdown"), self.copy_markdown, "Ctrl+Shift+C")
        self.copy_json_action = action(_tr("Copy Anatomy as &JSON"), self.copy_json, "Ctrl+Shift+J")
        self.copy_body_action = action(_tr("Copy &Provider Body"), self.copy_provider_body)
        self.export_md_action = action(_tr("Anatomy as &Markdown…"), lambda: self.export("markdown"))
        self.export_json_action = action(_tr("Anatomy as &JSON…"), lambda: self.export("json"))
        self.export_body_action = action(_tr("&Provider Body…"), lambda: self.export("provider"))
        self.compare_prev_action = action(_tr("Compare with &Previous Turn"), self.compare_with_previous)
        self.compare_with_action = action(_tr("Compare &with…"), self.choose_comparison)
        for button, acts in ((self.copy_button, (self.copy_md_action, self.copy_json_action, self.copy_body_action)),
                             (self.export_button, (self.export_md_action, self.export_json_action,
                                                   self.export_body_action)),
                             (self.compare_button, (self.compare_prev_action, self.compare_with_action))):
            menu = QMenu(button)
            for a in acts:
                menu.addAction(a)
            button.setMenu(menu)

    def _set_enabled(self, on: bool) -> None:
        for w in (self.copy_button, self.export_button, self.compare_button):
            w.setEnabled(on)
        for a in (self.copy_md_action, self.copy_json_action, self.copy_body_action, self.export_md_action,
                  self.export_json_action, self.export_body_action, self.compare_prev_action,
                  self.compare_with_action):
            a.setEnabled(on)
        if on and self.detail is not None and not self.detail.attempts:
            self.copy_body_action.setEnabled(False)
            self.export_body_action.setEnabled(False)

    # ------------------------------------------------------------------ loading

    def show_request(self, event_id: str) -> None:
        """Load and show ``event_id`` in the background; a result for a request the user has
        already left is dropped."""
        self.event_id = event_id
        if self._job is not None:
            self._job.cancel()
            self._job = None
        store = self._store()
        if store is None:
            self._show_error(_tr("No database is open."))
            return
        self._cancel_text_jobs()
        self.header.show_loading(event_id)
        self._set_enabled(False)
        # The load starts on the next turn of the event loop, after the view is painted: a
        # worker running Python makes every Python call of a paint (each data() of a tree) wait
        # for the GIL, so a paint during the load stalls the GUI for as long as the load runs.
        # A load cannot be interrupted either: walking the tree with the arrow keys would pile up
        # loads. So at most one runs; the newest request starts when it ends (_load_settled).
        self._queued = True
        if self._running is None:
            self._load_timer.start()

    def _start_queued(self) -> None:
        if not self._queued or self._running is not None or self.event_id is None:
            return
        self._queued = False
        store = self._store()
        if store is None:
            self._show_error(_tr("No database is open."))
            return
        self._start_load(self.event_id, store)

    def _start_load(self, event_id: str, store: Any) -> None:
        chip = self.text_pane.chip

        numbers = self._numbers

        def work(job: Job) -> tuple[RequestDetail, dict[int, PreparedText], list[Card], ContextBudget,
                                    int | None] | None:
            # Everything slow happens here: the anatomy with exact tokens, and the text (display
            # and highlight spans) of the part the view opens on. The other tabs are prepared
            # when first shown.
            try:
                detail = views.request_detail(store, event_id)
            except Exception:
                if job.cancelled:
                    return None  # dropped anyway; a result lets the queued load start
                raise
            if detail is None or job.cancelled:
                return None
            first = views.initial_detail_node(detail)
            prepared = {}
            if first is not None:
                prepared[id(first)] = prepare_text(node_text(first), "prompt", should_stop=lambda: job.cancelled,
                                                   chip=chip)
            # The conversation's cards and the context budget are computed here too: both walk
            # the whole anatomy.
            row = detail.record
            number = numbers.number(store, row.session_id, row.turn_id)
            return detail, prepared, conversation(detail), request_budget(detail), number

        def settle(job_result: Any) -> None:
            self._load_settled()

        def loaded(result: Any) -> None:
            self._load_settled()
            self._loaded(event_id, result)

        def failed(exc: BaseException) -> None:
            self._load_settled()
            self._failed(event_id, exc)

        self._running = self._job = self.tasks.run(work, loaded, failed, resource=store, on_discard=settle,
                                                   pause_gc=True)

    def _load_settled(self) -> None:
        """The running load ended (shown, failed or dropped): start the newest queued one."""
        self._running = None
        if self._queued:
            self._load_timer.start()

    def _loaded(self, event_id: str,
                result: tuple[RequestDetail, dict[int, PreparedText], list[Card], ContextBudget, int | None] | None
                ) -> None:
        if event_id != self.event_id:
            return
        self._job = None
        if result is None:
            self._show_error(_tr("{id} is not a model request in this database.").format(id=event_id))
            return
        detail, prepared, cards, budget, self.turn_number = result
        self.detail = detail
        self.cards = cards
        self.budget = budget
        self._prepared_nodes = prepared
        # Shown in three steps, each on its own turn of the event loop so each is drawn before
        # the next starts: the header and the trees; the first part's text (a long system prompt
        # is a document of thousands of highlighted lines); the other tabs (then ``loaded``).
        # One step for all stalled the window for as long as the three and their drawing took.
        self._fill(detail)
        QTimer.singleShot(0, partial(self._fill_text, event_id, detail))

    def _current(self, event_id: str, detail: RequestDetail) -> bool:
        """Whether ``detail`` of ``event_id`` is still the request shown (not left meanwhile)."""
        return event_id == self.event_id and self.detail is detail

    def _fill_text(self, event_id: str, detail: RequestDetail) -> None:
        if not self._current(event_id, detail):
            return
        self._select_first_part()
        QTimer.singleShot(0, partial(self._fill_rest, event_id, detail))

    def _fill_rest(self, event_id: str, detail: RequestDetail) -> None:
        if not self._current(event_id, detail):
            return
        self._fill_tabs(detail)
        self._set_enabled(True)
        self.loaded.emit(event_id)

    def _failed(self, event_id: str, exc: BaseException) -> None:
        if event_id != self.event_id:
            return
        self._job = None
        self._show_error(_tr("Cannot read request {id}: {error}").format(id=event_id, error=exc))

    def _show_error(self, text: str) -> None:
        self.detail = None
        self.cards = []
        self.budget = None
        self.header.show_error(text)
        self.conversation_view.clear()
        self._cards_shown = True
        for section in self.sections:
            section.model.clear()
        for pane in (self.text_pane, self.kernel_pane, self.response_pane, self.raw_pane):
            pane.set_content("")
        self._clear_provider_tabs()
        self._set_enabled(False)
        self.loadFailed.emit(text)

    def wait_until_loaded(self, timeout_ms: int = 60_000) -> bool:
        """Block (running a local event loop) until the pending load finishes; True if a request
        is shown afterwards."""
        if self._job is not None or self._queued:
            loop = QEventLoop()
            self.loaded.connect(loop.quit)
            self.loadFailed.connect(loop.quit)
            QTimer.singleShot(timeout_ms, loop.quit)
            if self._job is not None or self._queued:
                loop.exec()
            self.loaded.disconnect(loop.quit)
            self.loadFailed.disconnect(loop.quit)
        return self.detail is not None

    # ------------------------------------------------------------------ filling

    def _fill(self, d: RequestDetail) -> None:
        row = d.record
        self.header.fill(d, self.budget, self.turn_number)

        stack_roots = [r for r in (d.tools, d.segment_stack) if r is not None]
        self.stack_section.set_roots(stack_roots, d.exact_counted, self._summary(_tr("Segment stack"), stack_roots, d))
        tc = d.turn_context
        self.context_section.set_roots([tc] if tc else [], d.exact_counted,
                                       self._summary(_tr("Turn context"), [tc] if tc else [], d))
        self.history_section.set_roots(d.history_bags, d.exact_counted,
                                       self._summary(_tr("History bags"), d.history_bags, d))
        self.text_pane.set_content("", caption=_tr("Select a part to see its text"))
        self._fit()

    def _select_first_part(self) -> None:
        """Start on the system prompt (else the first part) so the pane never sits empty."""
        if not self.select_node(lambda n: n.kind == "system-prompt"):
            first = self.stack_section.model.index(0, 0)
            if first.isValid():
                self.stack_section.tree.setCurrentIndex(first)

    def _fit(self) -> None:
        fit_sections(self.anatomy_splitter, self.trees_splitter, self.sections, keep_outer=self._user_split,
                     open_index=self._open_section_index)
        self._fitted_short = sum(self.anatomy_splitter.sizes()) < SHORT_PAGE

    def _open_section(self, index: int) -> None:
        """A tree's title was clicked: on a short page that tree opens (the others close)."""
        if not self.sections[index].collapsed:
            return
        self._open_section_index = index
        self._fit()

    def resizeEvent(self, e) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(e)
        self.header.set_compact(e.size().height() < COMPACT_HEIGHT)

    def eventFilter(self, obj, e) -> bool:  # noqa: N802 - Qt override
        # Crossing the short-page height (the window or a splitter resized) re-fits the trees;
        # other resizes keep what the user made of them.
        if obj is self.anatomy_splitter and e.type() == QEvent.Type.Resize and self.detail is not None:
            short = e.size().height() < SHORT_PAGE
            if short != self._fitted_short:
                QTimer.singleShot(0, self._fit)
        return super().eventFilter(obj, e)

    def _fill_tabs(self, d: RequestDetail) -> None:
        row = d.record
        # The other tabs hold megabytes of pretty-printed JSON for a large request: each is
        # rendered and highlighted in the background when first shown (_prepare_visible).
        self._set_json(self.kernel_pane, partial(kernel_messages_json, d),
                       _tr("payload.messages and tools as Covel recorded them"))
        self._fill_provider_tabs(d)
        no_response = _tr("No response was recorded for this request.")
        self.response_pane.defer(lambda: response_text(d) or no_response, "prompt", self._response_caption(d))
        self._set_json(self.raw_pane, partial(raw_event_json, d), _tr("trace_events row {id}").format(id=row.event_id))
        self._cards_shown = False
        self.conversation_view.clear()
        self._show_cards_if_visible()
        self._prepare_visible()

    # ------------------------------------------------------------------ deferred texts

    def _json_source(self, pane: TextPane) -> None:
        """Let ``pane`` switch between its JSON as recorded and with its strings unescaped."""
        pane.unescapedToggled.connect(partial(self._unescape_toggled, pane))

    def _set_json(self, pane: TextPane, make_text: Callable[[], str], caption: str) -> None:
        """Fill ``pane`` (later, in the background) with ``make_text()``, unescaped if it is set so."""
        self._json_makers[id(pane)] = (make_text, caption)
        if pane.unescaped:
            pane.defer(lambda: readable_json(make_text()), "prompt", caption)
        else:
            pane.defer(make_text, "json", caption)

    def _unescape_toggled(self, pane: TextPane, _on: bool) -> None:
        source = self._json_makers.get(id(pane))
        if source is None:
            return
        job = self._pane_jobs.pop(id(pane), None)
        if job is not None:
            job.cancel()
        self._set_json(pane, *source)
        self._prepare_visible()

    def _show_cards_if_visible(self, *_args: Any) -> None:
        """Build the conversation's cards the first time its tab is on screen for this request."""
        if self._cards_shown or self.detail is None or self.tabs.currentWidget() is not self.conversation_view:
            return
        self._cards_shown = True
        self.conversation_view.set_cards(self.cards, self.detail.exact_counted)

    # ------------------------------------------------------------------ search highlight

    def highlight_search(self, text: str) -> int:
        """Mark every occurrence of ``text`` (ASCII case ignored, as the search matches) in the
        opened request: the selected part's text, the conversation, the JSON panes, the response
        and the raw event; a pane filled later is marked when it is filled. Scrolls the page on
        screen to its first hit and returns the number of hits on that page (0: none there); the
        other pages are marked when they are shown.
        An empty ``text`` clears the marks."""
        self.search_text = text
        counts: dict[int, int] = {}
        for pane in self._text_panes():
            # Marked now when on screen, else when shown or filled.
            counts[id(pane)] = pane.set_needle(text)
        counts[id(self.conversation_view)] = self.conversation_view.set_search(text)
        page = self.tabs.currentWidget()
        if page is self.conversation_view:
            return counts[id(self.conversation_view)]
        return counts.get(id(self.current_pane()), 0)

    def _text_panes(self) -> list[TextPane]:
        return [self.text_pane, self.kernel_pane, self.response_pane, self.raw_pane, *self.provider_panes]

    def _cancel_text_jobs(self) -> None:
        for job in self._pane_jobs.values():
            job.cancel()
        self._pane_jobs.clear()
        if self._node_job is not None:
            self._node_job.cancel()
            self._node_job = None
        self._prepared_nodes = {}

    def _prepare_visible(self, *_args: Any) -> None:
        """Prepare the text of the pane on screen in the background if it is still deferred."""
        page = self.tabs.currentWidget()
        if page is self.provider_tabs:
            pane = self.provider_tabs.currentWidget()
        elif page is self.kernel_pane or page is self.response_pane or page is self.raw_pane:
            pane = page
        else:
            return
        if not isinstance(pane, TextPane) or pane.pending is None or id(pane) in self._pane_jobs:
            return
        pending = pane.pending
        make_text, language, caption = pending
        store = self._store()

        chip = pane.chip

        def work(job: Job) -> PreparedText:
            return prepare_text(make_text(), language, should_stop=lambda: job.cancelled, chip=chip)

        def done(prepared: PreparedText) -> None:
            self._pane_jobs.pop(id(pane), None)
            if pane.pending is pending:  # not replaced meanwhile (nor read synchronously)
                pane.set_prepared(prepared, caption)

        def failed(exc: BaseException) -> None:
            self._pane_jobs.pop(id(pane), None)
            if pane.pending is pending:
                pane.set_content(_tr("Cannot show this text: {error}").format(error=exc), "prompt", caption)

        self._pane_jobs[id(pane)] = self.tasks.run(work, done, failed, resource=store)

    def _summary(self, title: str, roots: list[DetailNode], d: RequestDetail) -> str:
        total = sum(r.exact for r in roots) if d.exact_counted else sum(r.estimate for r in roots)
        share = sum(r.share for r in roots)
        if not roots:
            return _tr("{title} — none").format(title=title)
        return _tr("{title} — {tokens} tokens, {share}").format(title=title, tokens=num(total),
                                                               share=f"{share * 100:.1f}%")

    def _response_caption(self, d: RequestDetail) -> str:
        resp = d.response or {}
        return _tr("finish: {finish} · {ms} ms").format(finish=resp.get("finishReason") or "–",
                                                        ms=num(resp.get("durationMs")))

    def _clear_provider_tabs(self) -> None:
        while self.provider_tabs.count():
            w = self.provider_tabs.widget(0)
            self.provider_tabs.removeTab(0)
            w.deleteLater()
        self.provider_panes = []

    def _fill_provider_tabs(self, d: RequestDetail) -> None:
        self._clear_provider_tabs()
        if not d.attempts:
            pane = TextPane(self.provider_tabs)
            pane.set_content("", "json", _tr("No provider body was recorded; the anatomy uses the kernel messages."))
            self.provider_tabs.addTab(pane, _tr("none"))
            return
        for attempt in d.attempts:
            f = attempt_facts(attempt)
            pane = TextPane(self.provider_tabs, unescapable=True)
            self._json_source(pane)
            if attempt.body is not None:
                self._set_json(pane, partial(attempt_body_json, attempt), attempt_caption(f))
            else:
                pane.set_content("", "json", attempt_caption(f))
            self.provider_panes.append(pane)
            title = _tr("Attempt {n}").format(n=(f["transportAttempt"] if f["transportAttempt"] is not None
                                                 else f["index"]) + 1)
            if f["statusCode"] is not None:
                title += f" · {f['statusCode']}"
            self.provider_tabs.addTab(pane, title)
        self.provider_tabs.setCurrentIndex(len(d.attempts) - 1)

    # ------------------------------------------------------------------ anatomy selection

    def _node_selected(self, section: AnatomySection, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._selecting or not current.isValid():
            return
        self._selecting = True
        try:
            for other in self.sections:
                if other is not section:
                    other.tree.selectionModel().clearSelection()
                    other.tree.selectionModel().setCurrentIndex(QModelIndex(), QItemSelectionModel.SelectionFlag.NoUpdate)
        finally:
            self._selecting = False
        node: DetailNode | None = current.data(NodeRole)
        if node is None:
            return
        self.show_node(node)

    def show_node(self, node: DetailNode) -> None:
        if node.is_breakpoint:
            caption = _tr("Cache breakpoint ({label}): the provider caches everything before it").format(
                label=part_label(node.label))
        else:
            count = _tr("{exact} tokens").format(exact=num(node.exact)) if self.detail and self.detail.exact_counted \
                else _tr("{est} estimated tokens").format(est=num(node.estimate))
            caption = " · ".join(x for x in (part_label(node.label), role_label(node.role), count,
                                             _tr("recognised by {how}").format(how=recognised_label(node.recognised_by))) if x)
        prepared = self._prepared_nodes.get(id(node))
        if prepared is not None:
            self.text_pane.set_prepared(prepared, caption)
            return
        if self._node_job is not None:
            self._node_job.cancel()
            self._node_job = None
        text = node_text(node)
        if len(text) <= _SYNC_TEXT or self.detail is None:
            self.text_pane.set_content(text, "prompt", caption)
            return
        # A long part: lex it in the background, show it when ready (unless another part was
        # selected meanwhile).
        self.text_pane.set_prepared(prepare_text("", "prompt"), caption)
        detail = self.detail
        chip = self.text_pane.chip

        def done(result: PreparedText) -> None:
            self._node_job = None
            if self.detail is detail:
                self._prepared_nodes[id(node)] = result
                self.text_pane.set_prepared(result, caption)

        self._node_job = self.tasks.run(
            lambda job: prepare_text(text, "prompt", should_stop=lambda: job.cancelled, chip=chip), done,
            lambda exc: self._compare_failed(str(exc)), resource=self._store())

    def select_node(self, predicate: Callable[[DetailNode], bool]) -> bool:
        """Select the first node (in the three trees, in order) satisfying ``predicate``."""
        for index, section in enumerate(self.sections):
            idx = section.model.find(predicate)
            if idx.isValid():
                self._open_section(index)
                section.tree.setCurrentIndex(idx)
                section.tree.scrollTo(idx)
                return True
        return False

    # ------------------------------------------------------------------ keyboard

    def event(self, e: QEvent) -> bool:  # noqa: N802 - Qt override
        # Ctrl+F inside the request view finds in the text being read, not in the navigator.
        if e.type() == QEvent.Type.ShortcutOverride and isinstance(e, QKeyEvent) \
                and e.matches(QKeySequence.StandardKey.Find):
            e.accept()
            return True
        return super().event(e)

    def keyPressEvent(self, e: QKeyEvent) -> None:  # noqa: N802 - Qt override
        if e.matches(QKeySequence.StandardKey.Find):
            if self.tabs.currentWidget() is self.conversation_view:
                self.conversation_view.open_find()
            else:
                self.current_pane().open_find()
            return
        super().keyPressEvent(e)

    def current_pane(self) -> TextPane:
        page = self.tabs.currentWidget()
        if page is self.provider_tabs and self.provider_tabs.currentWidget() is not None:
            return self.provider_tabs.currentWidget()  # type: ignore[return-value]
        if isinstance(page, TextPane):
            return page
        if page is self.compare_view:
            return self.compare_view.right_pane
        return self.text_pane

    # ------------------------------------------------------------------ copy / export

    def _clipboard(self, text: str, what: str) -> None:
        QGuiApplication.clipboard().setText(text)
        self._notice(_tr("Copied {what} to the clipboard").format(what=what))

    def copy_markdown(self) -> None:
        if self.detail is not None:
            self._clipboard(anatomy_markdown(self.detail), _tr("the anatomy as Markdown"))

    def copy_json(self) -> None:
        if self.detail is not None:
            self._clipboard(anatomy_json(self.detail), _tr("the anatomy as JSON"))

    def copy_provider_body(self) -> None:
        if self.detail is None or not self.detail.attempts:
            return
        index = self.provider_tabs.currentIndex() if self.tabs.currentWidget() is self.provider_tabs else None
        if index is None or index < 0:
            index = len(self.detail.attempts) - 1
        self._clipboard(provider_body_json(self.detail, index), _tr("the provider body"))

    def _notice(self, text: str) -> None:
        window = self.window()
        bar = getattr(window, "statusBar", None)
        if callable(bar):
            bar().showMessage(text, 4000)

    def _end_notice(self, text: str) -> None:
        """Take ``text`` off the status bar if it still says it (work it announced is over)."""
        bar = getattr(self.window(), "statusBar", None)
        if callable(bar) and bar().currentMessage() == text:
            bar().clearMessage()

    def export(self, kind: str) -> Path | None:
        """Ask for a file name and write the anatomy (``markdown``/``json``) or the provider body."""
        if self.detail is None:
            return None
        short = self.detail.record.event_id[:8]
        names = {
            "markdown": (f"request-{short}.md", _tr("Markdown (*.md);;All files (*)")),
            "json": (f"request-{short}.anatomy.json", _tr("JSON (*.json);;All files (*)")),
            "provider": (f"request-{short}.body.json", _tr("JSON (*.json);;All files (*)")),
        }
        default, filters = names[kind]
        path = self.save_path(_tr("Export Request"), default, filters)
        if not path:
            return None
        return self.export_to(kind, path)

    def export_to(self, kind: str, path: str | Path) -> Path | None:
        if self.detail is None:
            return None
        d = self.detail
        store = self._store()
        try:
            # Never over the open database (or a file SQLite keeps beside it), a database or a folder.
            check_output_path(path, [getattr(store, "path", None)])
        except OutputPathError as exc:
            self._export_failed(str(exc))
            return None
        text = {"markdown": anatomy_markdown, "json": anatomy_json, "provider": provider_body_json}[kind](d)
        try:
            written = write_atomic(path, text)
        except OSError as exc:
            reason = getattr(exc, "strerror", None) or str(exc)
            self._export_failed(_tr("Cannot write {path}: {error}").format(path=path, error=reason))
            return None
        self._notice(_tr("Saved {path}").format(path=written))
        return written

    def _export_failed(self, text: str) -> None:
        """Tell why nothing was written: the main window's ``report_error`` when the view sits in
        one (in a floating dock too), else the view's own message line. The file already there
        is untouched."""
        widget: QWidget | None = self
        while widget is not None:
            report = getattr(widget, "report_error", None)
            if callable(report):
                report(_tr("Export Request"), text)
                return
            widget = widget.parentWidget()
        self.header.show_message(text, error=True)

    def _save_path(self, title: str, default: str, filters: str) -> str | None:
        name, _f = QFileDialog.getSaveFileName(self, title, default, filters)
        return name or None

    # ------------------------------------------------------------------ compare

    def compare_with_previous(self) -> None:
        """Compare with the same runtime's first request of the previous turn (left) — the request
        whose cached prefix this one could have reused."""
        if self.detail is None:
            return
        store = self._store()
        current = self.detail
        event_id = current.record.event_id

        def work(_job: Job) -> Comparison | str:
            prev = views.previous_turn_request(store, event_id)
            if prev is None:
                return _tr("This runtime did not run in an earlier turn of the session.")
            left = views.request_detail(store, prev)
            if left is None:
                return _tr("The previous request cannot be read.")
            from inspector.anatomy.compare import compare_details

            return compare_details(left, current)

        self._run_compare(work, store)

    def choose_comparison(self) -> None:
        """List the session's other requests, then compare the chosen one (left) with this one."""
        if self.detail is None:
            return
        store = self._store()
        record = self.detail.record
        event_id, runtime = record.event_id, record.runtime_id

        def chosen(rows: list[dict[str, Any]]) -> None:
            if event_id != self.event_id:
                return
            other = self.pick_request(rows, runtime)
            if other:
                self.compare_with(other)

        self.tasks.run(lambda _job: views.compare_candidates(store, event_id), chosen,
                       lambda exc: self._compare_failed(str(exc)), resource=store)

    def _pick_request(self, rows: list[dict[str, Any]], runtime_id: str | None) -> str | None:
        dialog = RequestPickerDialog(rows, runtime_id, self)
        try:
            return dialog.selected_id() if dialog.exec() == QDialog.DialogCode.Accepted else None
        finally:
            dialog.deleteLater()

    def compare_with(self, other_id: str) -> None:
        if self.detail is None:
            return
        store = self._store()
        current = self.detail

        def work(_job: Job) -> Comparison | str:
            left = views.request_detail(store, other_id)
            if left is None:
                return _tr("{id} is not a model request in this database.").format(id=other_id)
            from inspector.anatomy.compare import compare_details

            return compare_details(left, current)

        self._run_compare(work, store)

    def _run_compare(self, work: Callable[[Job], Comparison | str], store: Any) -> None:
        if self._compare_job is not None:
            self._compare_job.cancel()
        event_id = self.event_id
        self._notice(_tr("Comparing…"))
        numbers = self._numbers

        def compared(job: Job) -> tuple[Comparison, dict[str, int]] | str:
            result = work(job)
            if isinstance(result, str):
                return result
            # The turn numbers that name both sides ("Turn 4 · …"), read here, off the GUI thread.
            session = result.right.row.get("sessionId")
            return result, (numbers.of_session(store, session) if session else {})

        def done(outcome: tuple[Comparison, dict[str, int]] | str) -> None:
            self._compare_job = None
            self._end_notice(_tr("Comparing…"))
            if event_id != self.event_id:
                return
            if isinstance(outcome, str):
                self._compare_failed(outcome)
                return
            result, turn_numbers = outcome
            self.comparison = result
            self.compare_view.set_comparison(result, turn_numbers)
            self.tabs.setTabVisible(self._compare_tab, True)
            self.tabs.setCurrentWidget(self.compare_view)
            self.compared.emit()

        self._compare_job = self.tasks.run(compared, done, lambda exc: self._compare_failed(str(exc)), resource=store)

    def _compare_failed(self, text: str) -> None:
        self._compare_job = None
        self._end_notice(_tr("Comparing…"))
        self.header.show_message(text, error=False)


# Below this height the header shows one line of facts (the rest in its tooltip).
COMPACT_HEIGHT = 420
# Minimum heights of the anatomy page's trees (together) and of the part's text, in pixels.
TREES_MIN_HEIGHT = 96
TEXT_MIN_HEIGHT = 40

# Texts up to this long are lexed on the GUI thread when a part is selected (a few ms).
_SYNC_TEXT = 20_000


def attach_request_view(window: Any, *, screenshot: bool = False) -> RequestView:
    """Create the request view for ``window`` (a MainWindow) and embed it.

    With ``screenshot`` the view holds the window's reveal until the selected request is drawn:
    the screenshot is grabbed right after the navigator reports the selection, and a view still
    loading in the background would be captured empty. The load itself stays on the worker
    thread; only the GUI waits, in a local event loop.
    """
    view = RequestView(window.tasks, lambda: window.store, window)
    window.set_request_view(view)
    if screenshot:
        # Connected before the launcher connects its own handler, so this runs first.
        window.navigator.revealFinished.connect(lambda _complete: view.wait_until_loaded())
    return view
