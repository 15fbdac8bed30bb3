"""Step through one turn: a timeline of its stages and runtimes, step controls, the current event
in detail, and a summary of what the turn did.

The turn comes from :func:`inspector.turn.builder.build_turn` and its summary from
:func:`inspector.turn.summary.summarize` (headless, tested there); this module only lays them
out and reacts to input. Everything that reads the store (building the turn, a call's history, a
request's anatomy) runs on the window's :class:`TaskManager`, so stepping itself never waits on
the database: it only moves a cursor over data already in memory.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QFont,
    QFontDatabase,
    QKeySequence,
    QPalette,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QStyle,
    QTextBrowser,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from inspector.ids import short_id, turn_numbers
from inspector.numbering import shown
from inspector.turn.builder import build_turn
from inspector.turn.history import CallHistory, turn_history
from inspector.turn.model import ToolUse, Turn, TurnEvent

from ..models.turn_timeline import GUTTER, UNSTAGED
from ..settings import remember_splitter
from ..workers import Job, TaskManager
from .columns import ColumnFitter
from .formats import format_duration
from .names import copy_id_link, id_link, turn_title
from .part_names import role_label, stage_label, value_label
from .request_view import RequestView
from .turn_texts import (
    event_type_text,
    offset_text,
    raw_text,
    response_text,
    short,
    state_label,
    summary_html,
    tool_text,
)
from .turn_timeline import TimelineScroll, TimelineWidget

if TYPE_CHECKING:
    # The summary (and the cache modules it prices with) loads with the first turn, off the GUI thread.
    from inspector.turn.summary import TurnSummary


def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("TurnView", text)

# Per second of wall clock, the speeds of play relative to the recorded timing; gaps are capped
# (see PLAY_MAX_GAP_MS) so a ten-second model call does not leave playback looking stuck.
SPEEDS: tuple[tuple[str, str, float], ...] = (
    ("0.5×", "scale", 0.5), ("1×", "scale", 1.0), ("2×", "scale", 2.0), ("4×", "scale", 4.0),
    ("8×", "scale", 8.0),
)
# Fixed pacing, for reading each event regardless of how far apart they happened.
FIXED_INTERVALS_MS = (1000, 400, 150)
PLAY_MIN_GAP_MS = 40
PLAY_MAX_GAP_MS = 1500

HISTORY_COLUMNS = 5
# Minimums (pixels) that keep each pane readable without adding up to more than the window has:
# the stepper shares a 1280×720 window's centre with the navigator and, often, the cache dock.
SUMMARY_MINIMUM_WIDTH = 150
SUMMARY_BESIDE_MIN_WIDTH = 960
PAGES_MINIMUM = (240, 140)
HISTORY_MINIMUM_HEIGHT = 70
BODY_MINIMUM_HEIGHT = 540


class TurnView(QWidget):
    """The turn stepper. Signals: ``turnLoaded(str)`` with the turn id once a turn is shown,
    ``loadFailed(str)`` with the reason shown inline, ``stepChanged(int)`` with the current event
    index (−1: none), ``historyLoaded(str)`` with the call whose history is listed,
    ``openRequest(str)`` with a request to open in the main view.

    :meth:`load_turn` builds a turn in the background; :meth:`set_turn` shows one already built.
    Stepping: :meth:`step_to`, :meth:`next_event`, :meth:`previous_event`, :meth:`next_stage`,
    :meth:`previous_stage`, :meth:`play` / :meth:`pause` / :meth:`toggle_play`.
    """

    turnLoaded = Signal(str)
    loadFailed = Signal(str)
    stepChanged = Signal(int)
    historyLoaded = Signal(str)
    # The llm.calling id of a request to show in the main request view ("Open in Main View").
    openRequest = Signal(str)

    PAGE_NONE, PAGE_REQUEST, PAGE_TEXT = range(3)

    def __init__(self, tasks: TaskManager, store_getter: Callable[[], Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("turnView")
        # Names the stepper's group in Help → Keyboard Shortcuts (the title is never shown as a window's).
        self.setWindowTitle(_tr("Turn Stepper"))
        self.tasks = tasks
        self._store = store_getter
        self.turn: Turn | None = None
        self.summary: TurnSummary | None = None
        self.turn_numbers: dict[str, int] = {}
        self.session_id: str | None = None
        self.turn_id: str | None = None
        self.current = -1
        self._load_job: Job | None = None
        self._history_job: Job | None = None
        self._history_for: str | None = None
        self.history: CallHistory | None = None
        self._stage_starts: list[tuple[str, int]] = []
        self._lane_of_runtime: dict[str | None, str] = {}
        self._pending_event: str | None = None
        self._fit_pending = False

        self._build_controls()
        self._build_detail()
        self.summary_view = QTextBrowser(self)
        self.summary_view.setObjectName("turnSummary")
        self.summary_view.setOpenLinks(False)

        self.timeline = TimelineWidget()
        self.timeline.eventClicked.connect(self.step_to)
        self.timeline_scroll = TimelineScroll(self.timeline, self)
        self.timeline_scroll.zoomChanged.connect(self._zoom_changed)

        # Step shortcuts live on the stepper (controls + timeline + summary), not on the whole view:
        # inside the embedded request view the arrow keys move through its trees and text.
        self.stepper = QWidget(self)
        stepper_layout = QVBoxLayout(self.stepper)
        stepper_layout.setContentsMargins(0, 0, 0, 0)
        stepper_layout.setSpacing(4)
        stepper_layout.addLayout(self._controls)
        stepper_layout.addWidget(self.timeline_scroll, 1)

        # The event (a request view, most of the time) gets most of the width; the summary can be
        # dragged narrower or closed altogether.
        self.summary_view.setMinimumWidth(SUMMARY_MINIMUM_WIDTH)
        self.lower = QSplitter(Qt.Orientation.Horizontal, self)
        self.lower.addWidget(self.detail)
        self.lower.addWidget(self.summary_view)
        self.lower.setCollapsible(0, False)
        self.lower.setStretchFactor(0, 4)
        self.lower.setStretchFactor(1, 1)
        self.lower.setSizes([780, 220])
        # Sizes the user chose earlier decide whether the summary shows; else the width does (showEvent).
        self._summary_placed = remember_splitter(self.lower, "turnStepper/eventSummary")

        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self.stepper)
        self.splitter.addWidget(self.lower)
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 3)

        # Squeezed below a readable height (the cache dock open under it at 1280×720), the stepper
        # scrolls as a whole instead of cutting its timeline to one lane and overlapping its panes.
        self.body = QScrollArea(self)
        self.body.setObjectName("turnStepperBody")
        self.body.setWidgetResizable(True)
        self.body.setFrameShape(QFrame.Shape.NoFrame)
        self.body.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # Never the focus: the step keys belong to the timeline and the panes inside.
        self.body.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.splitter.setMinimumHeight(BODY_MINIMUM_HEIGHT)
        self.body.setWidget(self.splitter)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 0, 0)
        layout.setSpacing(3)
        layout.addWidget(self.title)
        layout.addWidget(self.message)
        layout.addWidget(self.body, 1)

        self._build_actions()
        self._play_timer = QTimer(self)
        self._play_timer.setSingleShot(True)
        self._play_timer.timeout.connect(self._play_tick)
        self.setFocusProxy(self.timeline)
        self._show_turn_state()

    # ------------------------------------------------------------------ construction

    def _build_controls(self) -> None:
        self.title = QLabel(_tr("No turn selected"), self)
        self.title.setObjectName("turnTitle")
        font = QFont(self.title.font())
        font.setBold(True)
        self.title.setFont(font)
        # The turn's name is a link that copies its full id (ui.views.names.id_link).
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                           | Qt.TextInteractionFlag.LinksAccessibleByMouse)
        self.title.linkActivated.connect(copy_id_link)
        self.message = QLabel(self)
        self.message.setObjectName("turnMessage")
        self.message.setWordWrap(True)
        self.message.hide()

        style = self.style()
        SP = QStyle.StandardPixmap

        def button(name: str, icon: QStyle.StandardPixmap, tip: str) -> QToolButton:
            b = QToolButton(self)
            b.setObjectName(name)
            b.setIcon(style.standardIcon(icon))
            b.setToolTip(tip)
            # Buttons never take focus: Space and the arrows must keep stepping, not press or
            # move between buttons.
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            b.setAutoRaise(False)
            return b

        self.first_button = button("firstEvent", SP.SP_MediaSkipBackward, _tr("First event (Home)"))
        self.prev_stage_button = button("previousStage", SP.SP_MediaSeekBackward,
                                        _tr("Previous stage (Shift+Left or [)"))
        self.prev_button = button("previousEvent", SP.SP_ArrowLeft, _tr("Previous event (Left or K)"))
        self.play_button = button("play", SP.SP_MediaPlay, _tr("Play / pause (Space)"))
        self.play_button.setCheckable(True)
        self.next_button = button("nextEvent", SP.SP_ArrowRight, _tr("Next event (Right or J)"))
        self.next_stage_button = button("nextStage", SP.SP_MediaSeekForward, _tr("Next stage (Shift+Right or ])"))
        self.last_button = button("lastEvent", SP.SP_MediaSkipForward, _tr("Last event (End)"))
        self.first_button.clicked.connect(lambda: self.step_to(0))
        self.prev_stage_button.clicked.connect(self.previous_stage)
        self.prev_button.clicked.connect(self.previous_event)
        self.play_button.clicked.connect(lambda checked: self.play() if checked else self.pause())
        self.next_button.clicked.connect(self.next_event)
        self.next_stage_button.clicked.connect(self.next_stage)
        self.last_button.clicked.connect(lambda: self.step_to(len(self.turn.events) - 1 if self.turn else -1))

        self.speed = QComboBox(self)
        self.speed.setObjectName("playSpeed")
        self.speed.setToolTip(_tr("Play speed: a multiple of the recorded timing (long waits shortened "
                                  "to 1.5 s), or a fixed pace per event"))
        # Item data is an index into _speeds: a combo box hands tuples back as None.
        self._speeds: list[tuple[str, float]] = []
        for label, kind, value in SPEEDS:
            self.speed.addItem(label, len(self._speeds))
            self._speeds.append((kind, value))
        for interval in FIXED_INTERVALS_MS:
            self.speed.addItem(_tr("{n} ms per event").format(n=interval), len(self._speeds))
            self._speeds.append(("fixed", float(interval)))
        self.speed.setCurrentIndex(1)
        # As wide as "0.5×", not as its longest item: the step position beside it needs the room.
        self.speed.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.speed.setMinimumContentsLength(5)
        self.speed.view().setMinimumWidth(self.speed.view().sizeHintForColumn(0) + 24)
        self.speed.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.speed.activated.connect(lambda _i: self.timeline.setFocus())

        self.position = QLabel(self)
        self.position.setObjectName("stepPosition")
        self.position.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.position.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

        self._controls = QHBoxLayout()
        self._controls.setContentsMargins(0, 0, 0, 0)
        self._controls.setSpacing(3)
        for b in (self.first_button, self.prev_stage_button, self.prev_button, self.play_button, self.next_button,
                  self.next_stage_button, self.last_button):
            self._controls.addWidget(b)
        self._controls.addWidget(self.speed)
        self._controls.addSpacing(8)
        self._controls.addWidget(self.position, 1)

        def text_button(name: str, text: str) -> QToolButton:
            b = QToolButton(self)
            b.setObjectName(name)
            b.setText(text)
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            return b

        self.zoom_out_button = text_button("zoomOut", "−")
        self.zoom_in_button = text_button("zoomIn", "+")
        self.fit_button = text_button("fitTimeline", _tr("Fit"))
        self.zoom_label = QLabel(self)
        self.zoom_label.setObjectName("timelineZoom")
        self.summary_button = text_button("showSummary", _tr("Summary"))
        self.summary_button.setCheckable(True)
        self.summary_button.setChecked(True)
        self.summary_button.setToolTip(_tr("Show what this turn did beside the event"))
        self.summary_button.toggled.connect(self._show_summary)
        for w in (self.zoom_out_button, self.zoom_label, self.zoom_in_button, self.fit_button):
            self._controls.addWidget(w)
        self._controls.addSpacing(6)
        self._controls.addWidget(self.summary_button)
        self._zoom_changed(1.0)

    def _build_detail(self) -> None:
        self.detail = QWidget(self)
        self.event_title = QLabel(self.detail)
        self.event_title.setObjectName("eventTitle")
        self.event_title.setWordWrap(True)
        self.event_title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.pages = QStackedWidget(self.detail)
        # The embedded request view asks for more height than the stepper can spare beside its
        # timeline; it scrolls its trees instead of squeezing the timeline to one lane.
        self.pages.setMinimumSize(*PAGES_MINIMUM)
        self.hint = QLabel(_tr("Step through the turn with ← →, or click the timeline."), self.pages)
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.hint.setWordWrap(True)
        self.request_view = RequestView(self.tasks, self._store, self.pages)
        self.text = QPlainTextEdit(self.pages)
        self.text.setObjectName("eventText")
        self.text.setReadOnly(True)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.pages.addWidget(self.hint)
        self.pages.addWidget(self.request_view)
        self.pages.addWidget(self.text)

        self.history_label = QLabel(self.detail)
        self.history_label.setObjectName("historyLabel")
        self.history_label.setWordWrap(True)
        self.history_tree = QTreeWidget(self.detail)
        self.history_tree.setObjectName("callHistory")
        self.history_tree.setColumnCount(HISTORY_COLUMNS)
        self.history_tree.setHeaderLabels([_tr("State"), _tr("#"), _tr("Turn"), _tr("Role"), _tr("Content")])
        self.history_tree.setRootIsDecorated(False)
        self.history_tree.setUniformRowHeights(True)
        self.history_tree.setAlternatingRowColors(True)
        # State, number, turn and role as wide as their texts; the content takes the rest (whole,
        # up to 1,200 characters, on hover).
        self.history_columns = ColumnFitter(self.history_tree, 4, minimums={4: 120})
        self.history_box = QWidget(self.detail)
        self.history_box.setMinimumHeight(HISTORY_MINIMUM_HEIGHT)
        box_layout = QVBoxLayout(self.history_box)
        box_layout.setContentsMargins(0, 0, 0, 0)
        box_layout.setSpacing(2)
        box_layout.addWidget(self.history_label)
        box_layout.addWidget(self.history_tree, 1)

        self.detail_split = QSplitter(Qt.Orientation.Vertical, self.detail)
        self.detail_split.addWidget(self.pages)
        self.detail_split.addWidget(self.history_box)
        # The history can be dragged shut to give the request all of the event's height.
        self.detail_split.setCollapsible(0, False)
        self.detail_split.setCollapsible(1, True)
        self.detail_split.setStretchFactor(0, 4)
        self.detail_split.setStretchFactor(1, 1)
        self.detail_split.setSizes([800, 200])
        self.open_button = QToolButton(self.detail)
        self.open_button.setObjectName("openInMainView")
        self.open_button.setText(_tr("Open in Main View"))
        self.open_button.setToolTip(_tr("Show this request in the main request view, with the whole "
                                        "window's room (Ctrl+Return)"))
        self.open_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.open_button.clicked.connect(self.open_current_request)
        self.open_button.hide()
        title_row = QHBoxLayout()
        title_row.setContentsMargins(0, 0, 0, 0)
        title_row.addWidget(self.event_title, 1)
        title_row.addWidget(self.open_button)
        layout = QVBoxLayout(self.detail)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(3)
        layout.addLayout(title_row)
        layout.addWidget(self.detail_split, 1)
        self.history_box.hide()
        remember_splitter(self.detail_split, "turnStepper/eventHistory")

    def _build_actions(self) -> None:
        def action(name: str, text: str, keys: list[str], slot: Callable[[], None]) -> QAction:
            a = QAction(text, self.stepper)
            a.setObjectName(name)
            a.setShortcuts([QKeySequence(k) for k in keys])
            a.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            a.triggered.connect(slot)
            self.stepper.addAction(a)
            return a

        self.next_action = action("nextEventAction", _tr("Next Event"), ["Right", "J"], self.next_event)
        self.previous_action = action("previousEventAction", _tr("Previous Event"), ["Left", "K"],
                                      self.previous_event)
        self.next_stage_action = action("nextStageAction", _tr("Next Stage"), ["Shift+Right", "]"], self.next_stage)
        self.previous_stage_action = action("previousStageAction", _tr("Previous Stage"), ["Shift+Left", "["],
                                            self.previous_stage)
        self.play_action = action("playAction", _tr("Play / Pause"), ["Space"], self.toggle_play)
        self.first_action = action("firstEventAction", _tr("First Event"), ["Home"], lambda: self.step_to(0))
        self.last_action = action("lastEventAction", _tr("Last Event"), ["End"],
                                  lambda: self.step_to(len(self.turn.events) - 1 if self.turn else -1))
        scroll = self.timeline_scroll
        self.zoom_in_action = action("zoomInAction", _tr("Zoom In on the Timeline"), ["Ctrl++", "Ctrl+="],
                                     scroll.zoom_in)
        self.zoom_out_action = action("zoomOutAction", _tr("Zoom Out of the Timeline"), ["Ctrl+-"], scroll.zoom_out)
        self.fit_action = action("fitTimelineAction", _tr("Fit the Turn in the Timeline"), ["Ctrl+0"], scroll.fit)
        # Opening the request works from anywhere in the stepper, the embedded request view too.
        self.open_action = QAction(_tr("Open Request in Main View"), self)
        self.open_action.setObjectName("openRequestAction")
        self.open_action.setShortcuts([QKeySequence("Ctrl+Return"), QKeySequence("Ctrl+Enter")])
        self.open_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.open_action.triggered.connect(self.open_current_request)
        self.addAction(self.open_action)
        for button, act in ((self.zoom_out_button, self.zoom_out_action), (self.zoom_in_button, self.zoom_in_action),
                            (self.fit_button, self.fit_action)):
            button.clicked.connect(act.trigger)
            button.setToolTip(f"{act.text()} ({act.shortcut().toString(QKeySequence.SequenceFormat.NativeText)})")

    # ------------------------------------------------------------------ loading

    def load_turn(self, session_id: str, turn_id: str, event_id: str | None = None) -> None:
        """Build ``turn_id`` in the background and show it, stepped to ``event_id`` when given; a
        result for a turn the user has already left is dropped."""
        self._pending_event = event_id
        if (session_id, turn_id) == (self.session_id, self.turn_id) and (self.turn is not None or self._load_job):
            if self.turn is not None and event_id is not None:
                self.step_to_event(event_id)
            return
        self.pause()
        self.session_id, self.turn_id = session_id, turn_id
        store = self._store()
        if store is None:
            self._show_message(_tr("No database is open."))
            return
        self.title.setText(html.escape(_tr("Loading turn {id}…").format(id=short_id(turn_id))))
        if self._load_job is not None:
            # A build cannot be interrupted, and builds running side by side starve the GUI thread
            # of the GIL (holding ↓ in the navigator asked for one per turn passed): the running
            # one finishes, then only the turn wanted by then is built.
            return
        self._start_load(store, session_id, turn_id)

    def _start_load(self, store: Any, session_id: str, turn_id: str) -> None:
        def settle() -> bool:
            """Start the turn wanted now if the finished build was for another; True if so."""
            self._load_job = None
            if (session_id, turn_id) == (self.session_id, self.turn_id):
                return False
            wanted_store = self._store()
            if wanted_store is not None and self.session_id is not None and self.turn_id is not None:
                self._start_load(wanted_store, self.session_id, self.turn_id)
            return True

        def done(built: tuple[Turn, TurnSummary, dict[str, int]]) -> None:
            if settle():
                return
            self.set_turn(*built)
            if self._pending_event is not None:
                self.step_to_event(self._pending_event)

        def failed(exc: BaseException) -> None:
            if settle():
                return
            self._show_message(_tr("Cannot show turn {id}: {reason}").format(id=turn_id, reason=str(exc)))
            self.loadFailed.emit(str(exc))

        def build(_job: Job) -> tuple[Turn, TurnSummary, dict[str, int]]:
            from inspector.turn.summary import summarize

            turn = build_turn(store, session_id, turn_id)
            return turn, summarize(turn), turn_numbers(store, session_id)

        self._load_job = self.tasks.run(build, done, failed, resource=store)

    def set_turn(self, turn: Turn, summary: TurnSummary | None = None,
                 numbers: dict[str, int] | None = None) -> None:
        """Show ``turn`` (already built), positioned before its first event; ``summary`` is
        its :func:`inspector.turn.summary.summarize` (computed here when not given), ``numbers``
        its session's :func:`inspector.ids.turn_numbers` (turns without are named by short id)."""
        self.turn_numbers = dict(numbers or {})
        if summary is None:
            from inspector.turn.summary import summarize

            summary = summarize(turn)
        self.pause()
        self.turn = turn
        self.session_id, self.turn_id = turn.session_id, turn.turn_id
        self.summary = summary
        self.message.hide()
        self.current = -1
        self.timeline.set_turn(turn)
        self.timeline_scroll.fit()
        self._stage_starts = self._compute_stage_starts(turn)
        self.summary_view.setHtml(summary_html(turn, self.summary))
        self._show_turn_state()
        self._fit_timeline()
        self._show_event(None)
        self.turnLoaded.emit(turn.turn_id)

    def _show_summary(self, shown: bool) -> None:
        self.summary_view.setVisible(shown)
        if self.summary_button.isChecked() != shown:
            self.summary_button.setChecked(shown)

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if not self._summary_placed:
            # Narrower than this, the summary beside the event would leave the request view too
            # little width to read: it starts hidden (the Summary button shows it).
            self._summary_placed = True
            if self.width() < SUMMARY_BESIDE_MIN_WIDTH:
                self._show_summary(False)

    def turn_title(self) -> str | None:
        """The shown turn's name ("Turn 4", as the header gives it); None when no turn is shown."""
        turn = self.turn
        return None if turn is None else turn_title(self.turn_numbers.get(turn.turn_id), turn.turn_id)

    def _zoom_changed(self, zoom: float) -> None:
        self.zoom_label.setText(f"{zoom:.2g}×" if zoom < 10 else f"{zoom:.0f}×")
        self.zoom_out_button.setEnabled(zoom > 1.0)
        self.zoom_in_button.setEnabled(zoom < TimelineScroll.MAX_ZOOM)

    def current_request(self) -> str | None:
        """The ``llm.calling`` id of the model call the current event belongs to, if any."""
        ev = self.current_event()
        turn = self.turn
        if ev is None or turn is None or ev.target != "call" or not ev.target_id:
            return None
        call = turn.call(ev.target_id)
        return call.event_id if call is not None else None

    def open_current_request(self) -> None:
        event_id = self.current_request()
        if event_id is not None:
            self.pause()
            self.openRequest.emit(event_id)

    def _fit_timeline(self) -> None:
        """Give the timeline the height it needs (all lanes visible) up to half the view; the
        rest goes to the event and the summary."""
        total = sum(self.splitter.sizes())
        if total <= 0 or not self.splitter.isVisible():
            # Not laid out yet: fit once it is (resizeEvent), a hidden splitter reports no sizes.
            self._fit_pending = True
            return
        self._fit_pending = False
        frame = 2 * self.timeline_scroll.frameWidth()
        want = self.timeline.height() + frame + self._controls.sizeHint().height() + self.stepper.layout().spacing()
        top = min(want, max(total // 2, 120))
        self.splitter.setSizes([top, total - top])

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        # Only a new turn re-fits: a window resize must not undo the user's own splitter drag.
        if self._fit_pending:
            QTimer.singleShot(0, self._fit_timeline)

    def clear(self) -> None:
        self.pause()
        if self._load_job is not None:
            self._load_job.cancel()
            self._load_job = None
        self.turn = None
        self.summary = None
        self.session_id = self.turn_id = None
        self.current = -1
        self.timeline.set_turn(None)
        self.summary_view.clear()
        self._show_event(None)
        self._show_turn_state()

    def _show_message(self, text: str) -> None:
        self.message.setText(text)
        self.message.show()
        self.title.setText(html.escape(_tr("No turn shown")))

    def _show_turn_state(self) -> None:
        turn = self.turn
        has = turn is not None and bool(turn.events)
        for w in (self.first_button, self.prev_stage_button, self.prev_button, self.play_button, self.next_button,
                  self.next_stage_button, self.last_button):
            w.setEnabled(has)
        if turn is None:
            self.title.setText(html.escape(_tr("No turn selected")))
            self.position.setText("")
            return
        facts = [value_label(turn.origin) if turn.origin else "?",
                 value_label(turn.commit_status) if turn.commit_status else "?",
                 format_duration(turn.duration_ms) or "?"]
        name = id_link(self.turn_title() or "", turn.turn_id)
        text = name + html.escape("  ·  " + " · ".join(facts))
        if turn.retry is not None:
            source = turn.retry.source_turn_id
            text += html.escape(" · " + _tr("retry of")) + " " + id_link(
                turn_title(self.turn_numbers.get(source or ""), source), source)
        self.title.setText(text)
        self._update_position()

    # ------------------------------------------------------------------ stepping

    def _lane_key(self, ev: TurnEvent) -> str | None:
        """The lane an event belongs to: its runtime's lane (the stage, UNSTAGED), or None for
        turn-level rows. Read from the lanes drawn, so stepping and the picture always agree."""
        if ev.target in ("turn", "suspension"):
            return None
        return self._lane_of_runtime.get(ev.runtime_id, ev.stage if ev.stage is not None else UNSTAGED)

    def _compute_stage_starts(self, turn: Turn) -> list[tuple[str, int]]:
        self._lane_of_runtime = {bar.runtime_id: bar.lane for bar in self.timeline.bars}
        first: dict[str, int] = {}
        for ev in turn.events:
            key = self._lane_key(ev)
            if key is not None and key not in first:
                first[key] = ev.index
        return sorted(first.items(), key=lambda kv: kv[1])

    def stage_starts(self) -> list[tuple[str, int]]:
        """(lane key, index of its first event) in execution order."""
        return list(self._stage_starts)

    def step_to(self, index: int) -> None:
        turn = self.turn
        if turn is None or not turn.events:
            return
        index = max(0, min(index, len(turn.events) - 1))
        if index == self.current:
            return
        self.current = index
        self.timeline.set_current(index)
        self._ensure_visible()
        self._update_position()
        self._show_event(turn.events[index])
        self.stepChanged.emit(index)

    def step_to_event(self, event_id: str) -> bool:
        """Step to the trace row ``event_id``; False when the turn has no such row."""
        self._pending_event = None
        turn = self.turn
        index = next((ev.index for ev in turn.events if ev.event_id == event_id), None) if turn else None
        if index is None:
            return False
        self.step_to(index)
        return True

    def next_event(self) -> None:
        self.step_to(self.current + 1)

    def previous_event(self) -> None:
        if self.current > 0:
            self.step_to(self.current - 1)

    def next_stage(self) -> None:
        for _key, start in self._stage_starts:
            if start > self.current:
                self.step_to(start)
                return
        if self.turn is not None:
            self.step_to(len(self.turn.events) - 1)

    def previous_stage(self) -> None:
        starts = [start for _key, start in self._stage_starts if start < self.current]
        self.step_to(starts[-1] if starts else 0)

    def current_event(self) -> TurnEvent | None:
        if self.turn is None or not 0 <= self.current < len(self.turn.events):
            return None
        return self.turn.events[self.current]

    def _ensure_visible(self) -> None:
        rect = self.timeline.current_rect()
        if rect is not None:
            # The lane names cover the left of the picture when it is zoomed: keep clear of them.
            self.timeline_scroll.ensureVisible(int(rect.center().x()), int(rect.center().y()), GUTTER + 10,
                                               int(rect.height()))

    def _update_position(self) -> None:
        turn = self.turn
        if turn is None:
            self.position.setText("")
            return
        ev = self.current_event()
        total = len(turn.events)
        if ev is None:
            self.position.setText(_tr("{n} events · not started").format(n=total))
            return
        stage = self._lane_key(ev)
        where = _tr("turn") if stage is None else (stage_label(stage) or _tr("after stages"))
        self.position.setText(_tr("event {i} of {n} · {offset} · {where}").format(
            i=shown(ev.index), n=total, offset=offset_text(ev.offset_ms), where=where))

    # ------------------------------------------------------------------ playing

    @property
    def playing(self) -> bool:
        return self.play_button.isChecked()

    def play(self) -> None:
        turn = self.turn
        if turn is None or not turn.events:
            self.play_button.setChecked(False)
            return
        if self.current >= len(turn.events) - 1:
            # Playing from the end starts over, like a media player.
            self.current = -1
        self.play_button.setChecked(True)
        self.play_button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_MediaPause))
        self._schedule()

    def pause(self) -> None:
        self._play_timer.stop()
        self.play_button.setChecked(False)
        self.play_button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_MediaPlay))

    def toggle_play(self) -> None:
        if self.playing:
            self.pause()
        else:
            self.play()

    def set_speed(self, kind: str, value: float) -> bool:
        """Choose ``("scale", multiple)`` or ``("fixed", ms per event)``; False if not offered."""
        try:
            at = self._speeds.index((kind, float(value)))
        except ValueError:
            return False
        self.speed.setCurrentIndex(at)
        return True

    def play_interval_ms(self) -> int:
        """Delay before the next event at the chosen speed."""
        kind, value = self._speeds[self.speed.currentIndex()]
        if kind == "fixed":
            return int(value)
        turn = self.turn
        gap = 0.0
        if turn is not None and 0 <= self.current < len(turn.events) - 1:
            a, b = turn.events[self.current].offset_ms, turn.events[self.current + 1].offset_ms
            if a is not None and b is not None:
                gap = b - a
        return int(max(PLAY_MIN_GAP_MS, min(PLAY_MAX_GAP_MS, gap / value)))

    def _schedule(self) -> None:
        self._play_timer.start(PLAY_MIN_GAP_MS if self.current < 0 else self.play_interval_ms())

    def _play_tick(self) -> None:
        turn = self.turn
        if turn is None or not self.playing:
            return
        self.next_event()
        if self.current >= len(turn.events) - 1:
            self.pause()
        else:
            self._schedule()

    # ------------------------------------------------------------------ the current event

    def detail_page(self) -> int:
        return self.pages.currentIndex()

    def _show_event(self, ev: TurnEvent | None) -> None:
        turn = self.turn
        self.open_button.setVisible(self.current_request() is not None)
        if ev is None or turn is None:
            self.event_title.setText("")
            self.event_title.setToolTip("")
            self.pages.setCurrentIndex(self.PAGE_NONE)
            self.history_box.hide()
            return
        head = f"#{shown(ev.index)}  {offset_text(ev.offset_ms)}  {event_type_text(ev.type)}"
        if ev.runtime_id:
            head += f"  ·  {ev.runtime_id}"
        if not ev.known:
            head += "  ·  " + _tr("unknown event type")
        self.event_title.setText(head)
        # The recorded type one hover away (what the trace and the command line call it).
        self.event_title.setToolTip(f"{ev.type}\n{ev.event_id}")
        call = turn.call(ev.target_id) if ev.target == "call" and ev.target_id else None
        if ev.type == "llm.calling" and call is not None:
            self.pages.setCurrentIndex(self.PAGE_REQUEST)
            self.request_view.show_request(call.event_id)
        elif ev.type == "llm.responded" and call is not None:
            self._set_text(response_text(call, ev))
        elif ev.kind == "tool" and ev.target_id is not None:
            tool = self._tool(ev)
            self._set_text(tool_text(tool, ev) if tool is not None else raw_text(ev))
        else:
            self._set_text(raw_text(ev))
        if call is not None:
            self._load_history(call.event_id)
        else:
            self._history_for = None
            if self._history_job is not None:
                self._history_job.cancel()
                self._history_job = None
            self.history_box.hide()

    def _set_text(self, text: str) -> None:
        self.text.setPlainText(text)
        self.pages.setCurrentIndex(self.PAGE_TEXT)

    def _tool(self, ev: TurnEvent) -> ToolUse | None:
        runtime = self.turn.runtime(ev.runtime_id) if self.turn is not None else None
        if runtime is None:
            return None
        return next((t for t in runtime.tools if t.key == ev.target_id), None)

    # ------------------------------------------------------------------ history of a call

    def _load_history(self, event_id: str) -> None:
        self.history_box.show()
        if event_id == self._history_for:
            return
        self._history_for = event_id
        if self._history_job is not None:
            self._history_job.cancel()
        store = self._store()
        turn = self.turn
        if store is None or turn is None:
            return
        self.history_label.setText(_tr("Loading the history this call saw…"))
        self.history_tree.clear()
        sid, tid = turn.session_id, turn.turn_id

        def done(history: CallHistory) -> None:
            self._history_job = None
            if event_id == self._history_for:
                self._fill_history(history)

        def failed(exc: BaseException) -> None:
            self._history_job = None
            if event_id == self._history_for:
                self.history_label.setText(_tr("No history: {reason}").format(reason=str(exc)))

        self._history_job = self.tasks.run(lambda _job: turn_history(store, sid, tid, event_id), done, failed,
                                           resource=store)

    def _turn_label(self, turn_id: str | None) -> str:
        """A history row's turn as its number (its short id when the session's numbers lack it)."""
        number = self.turn_numbers.get(turn_id or "")
        return str(number) if number is not None else short_id(turn_id)

    def _fill_history(self, history: CallHistory) -> None:
        self.history = history
        parts = [f"{n} {state_label(state)}" for state, n in history.state_counts().items()]
        caption = _tr("History this call saw: {counts}").format(counts=", ".join(parts) or _tr("no journal rows"))
        if history.window is not None:
            caption += " · " + _tr("window of {n} turns").format(n=len(history.window.turn_ids))
        sent = history.sent_summaries
        if sent:
            caption += " · " + _tr("{n} summaries sent").format(n=len(sent))
        self.history_label.setText(caption)
        tree = self.history_tree
        tree.setUpdatesEnabled(False)
        tree.clear()
        dim = self.palette().color(QPalette.ColorRole.PlaceholderText)
        items = []
        for row in history.rows:
            m = row.message
            item = QTreeWidgetItem([state_label(row.state),
                                    str(row.request_index) if row.request_index is not None else "",
                                    self._turn_label(m.turn_id), role_label(m.role) or "?", short(m.content, 200)])
            item.setToolTip(4, short(m.content, 1200))
            if not row.in_request:
                for col in range(HISTORY_COLUMNS):
                    item.setForeground(col, dim)
            items.append(item)
        tree.addTopLevelItems(items)
        if items:
            tree.scrollToItem(items[-1])
        tree.setUpdatesEnabled(True)
        self.historyLoaded.emit(history.event_id)

    # ------------------------------------------------------------------ summary
