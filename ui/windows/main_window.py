"""The main window: navigator on the left, the selected item in the centre.

Opening a database (dialog, drop, command line, Recent, reload) always goes through
:meth:`MainWindow.open_database`, which opens and lists sessions on the task manager's pool; the
store currently shown stays open until the new one is ready, so a failure leaves the window as it
was.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QMimeData, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QFont, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QFrame,
    QGridLayout,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QProgressBar,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from inspector import __version__, views
from inspector.collector import freeze_heap
from inspector.numbering import shown as shown_number
from inspector.rows import RequestRow, RuntimeRow
from inspector.store import StoreAuthenticationError, open_store
from inspector.store.urls import BadUrlError, looks_like_url, short_name, shown_url, split_url

from ui import credentials
from ui.models import navigator_nodes as nav
from ui.views.formats import format_duration, format_number, format_time
from ui.views.part_names import stage_label
from ui.views.navigator import Navigator
from ui.windows.open_url_dialog import ask_url
from ui.settings import Settings
from ui.workers import Job, TaskManager

APP_NAME = "Prompt Inspector"
# The smallest the centre page may be made (pixels), whatever its content asks for.
CENTRE_MINIMUM = (360, 220)
# The navigator's share of the window's width before the user drags the splitter.
NAVIGATOR_SHARE = 0.42


def _tr(text: str) -> str:
    return QCoreApplication.translate("MainWindow", text)


def _read_only_mode_label(mode: str) -> str:
    """How the store is being read (``Store.read_only_mode``: see ``inspector/store/sqlite_open.py``)."""
    if mode == "copy":
        return _tr("read-only, through a private copy")
    if mode == "immutable":
        return _tr("read-only snapshot (immutable)")
    return _tr("read-only")


def _otr(text: str) -> str:
    return QCoreApplication.translate("Overview", text)


def _local_files(mime: QMimeData) -> list[str]:
    if not mime.hasUrls():
        return []
    return [url.toLocalFile() for url in mime.urls() if url.isLocalFile() and url.toLocalFile()]


# ---------------------------------------------------------------------------------- overview

def _text(value: Any) -> str:
    if value is None or value == "":
        return "—"
    if isinstance(value, bool):
        return _otr("yes") if value else _otr("no")
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v) for v in value) if value else "—"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {v}" for k, v in value.items()) if value else "—"
    return str(value)


def _num(value: Any) -> str:
    return format_number(value) or "—"


def _dur(value: Any) -> str:
    return format_duration(value) or "—"


def _counts_text(totals: dict[str, int]) -> str:
    """The status line's figures for a store (``views.store_totals``): turns and executions as
    the core counts them (``inspector.store.turn_counts``)."""
    return _tr("{sessions} sessions · {turns} turns · {executions} executions · {requests} requests").format(
        **{key: format_number(totals[key]) or "0" for key in ("sessions", "turns", "executions", "requests")})


def _when(value: Any) -> str:
    return format_time(value) or "—"


class OverviewPanel(QWidget):
    """The facts of whatever is selected: the open store, a session, a turn, a runtime, or a
    request (the fields of :class:`inspector.rows.RuntimeRow` / :class:`~inspector.rows.RequestRow`,
    given typed or as their JSON). Values are selectable for copying ids."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("overview")
        self.kind = ""
        self.title = QLabel(self)
        self.title.setObjectName("overviewTitle")
        font = QFont(self.title.font())
        font.setPointSizeF(font.pointSizeF() * 1.35)
        font.setBold(True)
        self.title.setFont(font)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.subtitle = QLabel(self)
        self.subtitle.setObjectName("overviewSubtitle")
        self.subtitle.setForegroundRole(self.subtitle.foregroundRole())
        self.subtitle.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.subtitle.setWordWrap(True)

        self._grid_host = QWidget(self)
        self._grid = QGridLayout(self._grid_host)
        self._grid.setContentsMargins(0, 0, 0, 0)
        self._grid.setHorizontalSpacing(18)
        self._grid.setVerticalSpacing(5)
        self._grid.setColumnStretch(1, 1)

        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        inner = QWidget(scroll)
        inner_layout = QVBoxLayout(inner)
        inner_layout.setContentsMargins(16, 14, 16, 14)
        inner_layout.setSpacing(6)
        inner_layout.addWidget(self.title)
        inner_layout.addWidget(self.subtitle)
        line = QFrame(inner)
        line.setFrameShape(QFrame.Shape.HLine)
        line.setFrameShadow(QFrame.Shadow.Sunken)
        inner_layout.addWidget(line)
        inner_layout.addWidget(self._grid_host)
        inner_layout.addStretch(1)
        scroll.setWidget(inner)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(scroll)
        self.facts: list[tuple[str, str]] = []
        self.show_nothing()

    def _fill(self, kind: str, title: str, subtitle: str, facts: list[tuple[str, str]]) -> None:
        same_rows = kind == self.kind and [label for label, _ in facts] == [label for label, _ in self.facts]
        self.kind = kind
        self.title.setText(title)
        self.subtitle.setText(subtitle)
        self.subtitle.setVisible(bool(subtitle))
        if same_rows:
            # The same facts with new values (following a store): only the changed texts are
            # set, so the panel is neither rebuilt nor laid out again.
            for row, ((_, value), (_, old)) in enumerate(zip(facts, self.facts)):
                if value != old:
                    label = self._grid.itemAtPosition(row, 1).widget()
                    label.setText(value)
                    label.setWordWrap(len(value) > 80)
            self.facts = facts
            return
        while self._grid.count():
            item = self._grid.takeAt(0)
            widget = item.widget()
            if widget is not None:
                widget.deleteLater()
        self.facts = facts
        for row, (label, value) in enumerate(facts):
            name = QLabel(label, self._grid_host)
            name.setForegroundRole(name.foregroundRole())
            name.setEnabled(True)
            pal = name.palette()
            pal.setColor(name.foregroundRole(), pal.color(pal.ColorRole.PlaceholderText))
            name.setPalette(pal)
            name.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
            val = QLabel(value, self._grid_host)
            val.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
            val.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                        | Qt.TextInteractionFlag.TextSelectableByKeyboard)
            # Wrapping labels report a height-for-width that leaves gaps between short rows.
            val.setWordWrap(len(value) > 80)
            val.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
            self._grid.addWidget(name, row, 0)
            self._grid.addWidget(val, row, 1)

    def value(self, label: str) -> str | None:
        for name, value in self.facts:
            if name == label:
                return value
        return None

    def show_nothing(self) -> None:
        self._fill("", _otr("No database open"),
                   _otr("Open a covel.db with File → Open (Ctrl+O), drop one on this window, "
                        "or pick one from File → Open Recent."), [])

    def show_store(self, info: dict[str, Any]) -> None:
        totals = info["totals"]
        facts = [
            (_otr("File"), _text(info.get("location"))),
            (_otr("Opened"), _text(info.get("mode"))),
            (_otr("Sessions"), _num(totals["sessions"])),
            (_otr("Turns"), _num(totals["turns"])),
            (_otr("Executions"), _num(totals["executions"])),
            (_otr("Model requests"), _num(totals["requests"])),
        ]
        for note in info.get("notes", []):
            facts.append((_otr("Schema note"), note))
        self._fill("store", info.get("name") or "", _otr("Select a session, turn, runtime or request "
                                                         "in the navigator to see its details."), facts)

    def show_item(self, kind: str, d: dict[str, Any] | RuntimeRow | RequestRow) -> None:
        if kind == nav.SESSION:
            self._fill(kind, d.get("world") or d["sessionId"], _otr("Session"), [
                (_otr("Session id"), _text(d.get("sessionId"))),
                (_otr("World"), _text(d.get("world"))),
                (_otr("World id"), _text(d.get("worldId"))),
                (_otr("Locale"), _text(d.get("locale"))),
                (_otr("Phase"), _text(d.get("phase"))),
                (_otr("Status"), _text(d.get("status"))),
                (_otr("Turns"), _num(d.get("completedPlayerTurns"))),
                (_otr("Executions"), _num(d.get("executions"))),
                (_otr("Trace events"), _num(d.get("events"))),
                (_otr("Model requests"), _num(d.get("llmCalls"))),
                (_otr("Created"), _when(d.get("createdAt"))),
                (_otr("Updated"), _when(d.get("updatedAt"))),
            ])
        elif kind == nav.TURN:
            self._fill(kind, _otr("Execution {number}").format(number=d.get("number")), _otr("Execution"), [
                (_otr("Turn id"), _text(d.get("turnId"))),
                (_otr("Trace id"), _text(d.get("traceId"))),
                (_otr("Origin"), _text(d.get("origin"))),
                (_otr("Commit status"), _text(d.get("commitStatus"))),
                (_otr("Started"), _when(d.get("startedAt"))),
                (_otr("Ended"), _when(d.get("endedAt"))),
                (_otr("Duration"), _dur(d.get("durationMs"))),
                (_otr("Retry of"), _text(d.get("parentTurnId"))),
                (_otr("Retry scope"), _text(d.get("retryScope"))),
                (_otr("Trace events"), _num(d.get("events"))),
                (_otr("Model requests"), _num(d.get("llmCalls"))),
                (_otr("Runtimes"), _text(d.get("runtimeIds"))),
            ])
        elif kind == nav.RUNTIME:
            r = d if isinstance(d, RuntimeRow) else RuntimeRow.from_json(d)
            self._fill(kind, r.runtime_id or _otr("(no runtime id)"), _otr("Runtime"), [
                (_otr("Runtime id"), _text(r.runtime_id)),
                (_otr("Plugin"), _text(r.plugin_id)),
                (_otr("Stage"), _text(stage_label(r.stage))),
                (_otr("Status"), _text(r.status)),
                (_otr("Duration"), _dur(r.duration_ms)),
                (_otr("Error"), _text(r.error)),
                (_otr("Model requests"), _num(r.request_count)),
                (_otr("Input tokens"), _num(r.input_tokens)),
                (_otr("Cached tokens"), _num(r.cached_tokens)),
            ])
        elif kind == nav.REQUEST:
            q = d if isinstance(d, RequestRow) else RequestRow.from_json(d)
            self._fill(kind, q.model or _otr("Model request"), _otr("Model request"), [
                (_otr("Event id"), _text(q.event_id)),
                (_otr("Session id"), _text(q.session_id)),
                (_otr("Turn id"), _text(q.turn_id)),
                (_otr("Runtime id"), _text(q.runtime_id)),
                (_otr("Plugin"), _text(q.plugin_id)),
                (_otr("Stage"), _text(stage_label(q.stage))),
                # 1-based like the navigator's "Step 2 · attempt 2".
                (_otr("Tool-loop step"), _text(shown_number(q.step))),
                (_otr("Attempt"), _text(shown_number(q.attempt))),
                (_otr("Model"), _text(q.model)),
                (_otr("Provider"), _text(q.provider)),
                (_otr("Protocol"), _text(q.protocol)),
                (_otr("Transport attempts"), _num(q.transport_attempts)),
                (_otr("Started"), _when(q.started_at)),
                (_otr("Response event"), _text(q.response_event_id)),
                (_otr("Finish reason"), _text(q.finish_reason)),
                (_otr("Duration"), _dur(q.duration_ms)),
                (_otr("Input tokens"), _num(q.input_tokens)),
                (_otr("Output tokens"), _num(q.output_tokens)),
                (_otr("Cached tokens"), _num(q.cached_tokens)),
                (_otr("Cache-write tokens"), _num(q.cache_write_tokens)),
            ])


# ---------------------------------------------------------------------------------- window

class MainWindow(QMainWindow):
    """Signals: ``storeOpened(object)`` with the new :class:`inspector.store.Store` (after the
    navigator shows it); ``openFinished(bool)`` after every open attempt.

    Methods: :meth:`open_database`, :meth:`reload`, :meth:`set_request_view`, :attr:`store`,
    :attr:`navigator`, :attr:`overview`, :attr:`tasks`.
    """

    storeOpened = Signal(object)
    openFinished = Signal(bool)

    def __init__(self, *, tasks: TaskManager | None = None, settings: Settings | None = None,
                 remember_layout: bool = True, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # Screenshots must not depend on (or change) the user's saved window layout.
        self._remember_layout = remember_layout
        self.tasks = tasks if tasks is not None else TaskManager(self)
        self.settings = settings if settings is not None else Settings()
        self.store: Any = None
        self.path: Path | None = None  # the open file (None for a database URL)
        # What reopening opens: the file, or the URL with its password (kept in memory only).
        self.target: Path | str | None = None
        self._open_job: Job | None = None
        self._restore_path: nav.Path | None = None
        self._store_info: dict[str, Any] | None = None
        self.request_view: QWidget | None = None
        # Tests and --screenshot replace this to capture or print instead of a modal dialog.
        self.report_error: Callable[[str, str], None] = self._error_dialog
        # Asks for a database URL: (recent URLs, url, problem) → (connect URL, public URL) or None.
        self.ask_url: Callable[..., tuple[str, str] | None] = lambda recent, url="", problem="": ask_url(
            self, recent, url=url, problem=problem)

        self.setWindowTitle(APP_NAME)
        self.setAcceptDrops(True)
        self.navigator = Navigator(self.tasks, self)
        self.overview = OverviewPanel(self)
        self.centre = QStackedWidget(self)
        # A page's own minimum (the stepper, the request view) must never push the window
        # taller or wider: the stack keeps a fixed, small minimum and its pages scroll or shrink
        # inside it (issue 19: opening the cache dock grew a 1280×720 window to 1280×1109).
        self.centre.setMinimumSize(CENTRE_MINIMUM[0], CENTRE_MINIMUM[1])
        self.centre.addWidget(self.overview)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(self.navigator)
        self.splitter.addWidget(self.centre)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([640, 760])
        host = QWidget(self)
        host_layout = QVBoxLayout(host)
        host_layout.setContentsMargins(6, 6, 6, 0)
        host_layout.addWidget(self.splitter)
        self.setCentralWidget(host)

        self._build_menus()
        self._build_status_bar()
        from ui.follow import install_follow

        install_follow(self)
        self.navigator.currentUpdated.connect(self._current_updated)
        self.follow.updated.connect(self._follow_counts)

        self.navigator.itemSelected.connect(self._item_selected)
        self.navigator.failed.connect(lambda reason: self.report_error(_tr("Cannot read the database"), reason))
        self.navigator.model.connectionChanged.connect(self._connection_changed)
        self.navigator.busyChanged.connect(lambda _n: self._update_busy())
        self.tasks.busyChanged.connect(lambda _n: self._update_busy())
        self.tasks.jobFinished.connect(self._store_read)
        self.navigator.revealFinished.connect(self._reveal_finished)

        self._sized = False
        if remember_layout:
            geometry = self.settings.geometry("geometry")
            if geometry is not None:
                self.restoreGeometry(geometry)
            splitter_state = self.settings.geometry("splitter")
            self._sized = splitter_state is not None and self.splitter.restoreState(splitter_state)

    # ------------------------------------------------------------------ construction

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file_menu = bar.addMenu(_tr("&File"))
        self.open_action = QAction(_tr("&Open…"), self)
        self.open_action.setShortcut(QKeySequence(QKeySequence.StandardKey.Open))
        self.open_action.setStatusTip(_tr("Open a Covel database (covel.db)"))
        self.open_action.triggered.connect(self.choose_file)
        file_menu.addAction(self.open_action)
        self.open_url_action = QAction(_tr("Open Database &URL…"), self)
        self.open_url_action.setShortcut(QKeySequence("Ctrl+Shift+O"))
        self.open_url_action.setStatusTip(_tr("Open a Covel store on a database server (PostgreSQL)"))
        self.open_url_action.triggered.connect(lambda: self.choose_url())
        file_menu.addAction(self.open_url_action)
        self.recent_menu = QMenu(_tr("Open &Recent"), self)
        self.recent_menu.aboutToShow.connect(self._fill_recent_menu)
        file_menu.addMenu(self.recent_menu)
        self._fill_recent_menu()
        self.reload_action = QAction(_tr("&Reload"), self)
        self.reload_action.setShortcuts(self._keys(QKeySequence.StandardKey.Refresh, "F5"))
        self.reload_action.setStatusTip(_tr("Read the database again, keeping the selection"))
        self.reload_action.triggered.connect(self.reload)
        self.reload_action.setEnabled(False)
        file_menu.addAction(self.reload_action)
        from ui.export_menu import add_export_menu

        self.export_menu = add_export_menu(self, file_menu)
        file_menu.addSeparator()
        self.quit_action = QAction(_tr("&Quit"), self)
        self.quit_action.setShortcuts(self._keys(QKeySequence.StandardKey.Quit, "Ctrl+Q"))
        self.quit_action.setMenuRole(QAction.MenuRole.QuitRole)
        self.quit_action.triggered.connect(self.close)
        file_menu.addAction(self.quit_action)

        edit_menu = bar.addMenu(_tr("&Edit"))
        self.find_action = QAction(_tr("&Find…"), self)
        self.find_action.setShortcuts(self._keys(QKeySequence.StandardKey.Find, "Ctrl+F"))
        self.find_action.setStatusTip(_tr("Search the prompts of all requests"))
        self.find_action.triggered.connect(self.navigator.focus_filter)
        edit_menu.addAction(self.find_action)
        edit_menu.addAction(self.navigator.next_hit_action)
        edit_menu.addAction(self.navigator.previous_hit_action)
        self.clear_filter_action = QAction(_tr("&Clear Filters"), self)
        self.clear_filter_action.triggered.connect(self.navigator.clear_filters)
        edit_menu.addAction(self.clear_filter_action)

        view_menu = self.view_menu = bar.addMenu(_tr("&View"))
        self.collapse_action = QAction(_tr("&Collapse All"), self)
        self.collapse_action.triggered.connect(self.navigator.tree.collapseAll)
        view_menu.addAction(self.collapse_action)
        self.overview_action = QAction(_tr("Show &Overview"), self)
        self.overview_action.setShortcut(QKeySequence("Ctrl+1"))
        self.overview_action.triggered.connect(lambda: self.centre.setCurrentWidget(self.overview))
        view_menu.addAction(self.overview_action)

        tools_menu = self.tools_menu = bar.addMenu(_tr("&Tools"))
        self.order_editor_action = QAction(_tr("Context-&Order Editor…"), self)
        self.order_editor_action.setStatusTip(
            _tr("Edit a writing-agent context-order table and see what each worker is sent"))
        self.order_editor_action.triggered.connect(lambda: self.open_order_editor())
        tools_menu.addAction(self.order_editor_action)
        self.blocks_editor_action = QAction(_tr("Prompt &Blocks Editor…"), self)
        self.blocks_editor_action.setStatusTip(
            _tr("Author prompt blocks and templates (ChatLuna zones, Covel templates) with live diagnostics"))
        self.blocks_editor_action.triggered.connect(lambda: self.open_blocks_editor())
        tools_menu.addAction(self.blocks_editor_action)

        help_menu = bar.addMenu(_tr("&Help"))
        self.shortcuts_action = QAction(_tr("&Keyboard Shortcuts"), self)
        self.shortcuts_action.setShortcuts(self._keys(QKeySequence.StandardKey.HelpContents, "F1"))
        self.shortcuts_action.setStatusTip(_tr("List every keyboard shortcut of the window and its views"))
        self.shortcuts_action.triggered.connect(self.show_shortcuts)
        help_menu.addAction(self.shortcuts_action)
        help_menu.addSeparator()
        self.about_action = QAction(_tr("&About Prompt Inspector"), self)
        self.about_action.setMenuRole(QAction.MenuRole.AboutRole)
        self.about_action.triggered.connect(self.about)
        help_menu.addAction(self.about_action)
        about_qt = QAction(_tr("About &Qt"), self)
        about_qt.setMenuRole(QAction.MenuRole.AboutQtRole)
        about_qt.triggered.connect(QApplication.aboutQt)
        help_menu.addAction(about_qt)

    @staticmethod
    def _keys(standard: QKeySequence.StandardKey, fallback: str) -> list[QKeySequence]:
        # Platforms without a binding for a standard key (Quit on Windows) still get the
        # conventional one; duplicates would make the shortcut ambiguous.
        keys = list(QKeySequence.keyBindings(standard))
        extra = QKeySequence(fallback)
        if extra not in keys:
            keys.append(extra)
        return keys

    def _build_status_bar(self) -> None:
        status = self.statusBar()
        status.setSizeGripEnabled(True)
        self.progress = QProgressBar(self)
        self.progress.setObjectName("loadingProgress")
        self.progress.setRange(0, 0)
        self.progress.setMaximumWidth(120)
        self.progress.setMaximumHeight(14)
        self.progress.setTextVisible(False)
        self.progress.hide()
        self.busy_label = QLabel(self)
        self.busy_label.hide()
        self.counts_label = QLabel(self)
        self.counts_label.setObjectName("countsLabel")
        self.connection_label = QLabel(self)
        self.connection_label.setObjectName("connectionLabel")
        self.connection_label.setStyleSheet("color: #e03131; font-weight: bold;")
        self.connection_label.hide()
        status.addPermanentWidget(self.connection_label)
        status.addPermanentWidget(self.busy_label)
        status.addPermanentWidget(self.progress)
        status.addPermanentWidget(self.counts_label)

    # ------------------------------------------------------------------ request view

    def set_request_view(self, widget: QWidget) -> None:
        """Put ``widget`` in the centre (after the overview page). Selecting a request shows it
        and, when it has a ``show_request(event_id)`` method, calls it with the event id; selecting
        anything else goes back to the overview."""
        if self.request_view is not None:
            self.centre.removeWidget(self.request_view)
            slot = getattr(self.request_view, "show_request", None)
            if callable(slot):
                self.navigator.requestSelected.disconnect(slot)
            highlight = getattr(self.request_view, "highlight_search", None)
            if callable(highlight):
                self.navigator.searchHighlight.disconnect(highlight)
        self.request_view = widget
        self.centre.addWidget(widget)
        highlight = getattr(widget, "highlight_search", None)
        if callable(highlight):
            # The navigator's search text, highlighted in the request it opened (H2's API).
            self.navigator.searchHighlight.connect(highlight)
        slot = getattr(widget, "show_request", None)
        if callable(slot):
            self.navigator.requestSelected.connect(slot)
        if self.navigator.current_kind() == nav.REQUEST:
            self.centre.setCurrentWidget(widget)
            path = self.navigator.current_path()
            if callable(slot):
                slot(path[-1][1])

    # ------------------------------------------------------------------ editors

    def open_order_editor(self, order_path: str | None = None, scenario_path: str | None = None) -> QWidget:
        """The context-order editor in a window of its own (the shipped sample without paths)."""
        from ui.order_editor import open_order_editor

        return open_order_editor(self, order_path, scenario_path, report_error=self.report_error)

    def open_blocks_editor(self, path: str | None = None) -> QWidget:
        """The prompt blocks and templates editor in a window of its own (the shipped sample
        without a path)."""
        from ui.zones_editor import open_zones_editor

        window = open_zones_editor(self, path, report_error=self.report_error)
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        return window

    # ------------------------------------------------------------------ opening

    def choose_file(self) -> None:
        start = str(self.path.parent) if self.path is not None else ""
        name, _filter = QFileDialog.getOpenFileName(
            self, _tr("Open Covel Database"), start,
            _tr("SQLite databases (*.db *.sqlite *.sqlite3);;All files (*)"))
        if name:
            self.open_database(name)

    @property
    def cache_view(self) -> Any:
        """The cache analysis view of the dock :func:`ui.windows.cache_dock.install_cache_view`
        added (built the first time it is asked for)."""
        dock = self.__dict__.get("cache_dock")
        if dock is None:
            raise AttributeError("this window has no cache analysis dock")
        return dock.view()

    @property
    def turn_view(self) -> Any:
        """The turn stepper :func:`ui.windows.turn_dock.install_turn_view` wired in (built the
        first time it is asked for)."""
        stepper = self.__dict__.get("turn_stepper")
        if stepper is None:
            raise AttributeError("this window has no turn stepper")
        return stepper()

    def choose_url(self, url: str = "", problem: str = "") -> None:
        urls = [u for u in self.settings.recent_files() if looks_like_url(u)]
        answer = self.ask_url(urls, url=url, problem=problem)
        if answer is not None:
            self.open_database(answer[0])

    def open_database(self, path: str | os.PathLike[str], *, keep: nav.Path | None = None) -> None:
        """Open ``path`` (a file or a database URL) in the background; the current store stays
        until it succeeds. ``keep`` is a navigator path to select afterwards (reload)."""
        text = os.fspath(path)
        target: Path | str
        if looks_like_url(text):
            try:
                split = split_url(text)
            except BadUrlError as exc:
                self.report_error(_tr("Cannot open database"), str(exc))
                self.openFinished.emit(False)
                return
            password = split.password or credentials.stored_password(split.public)
            target, public, name = split.with_password(password), split.public, short_name(split.public)
        else:
            target = Path(path)
            public, name = str(target), target.name
        if self._open_job is not None:
            self._open_job.cancel()
        self._restore_path = keep
        self.statusBar().showMessage(_tr("Opening {name}…").format(name=name))

        def work(_job: Job) -> tuple[Any, list[dict[str, Any]], dict[str, int]]:
            store = open_store(target)
            try:
                sessions = views.session_rows(store)
                totals = views.store_totals(store, sessions)
            except BaseException:
                store.close()
                raise
            return store, sessions, totals

        self._open_job = self.tasks.run(
            work,
            lambda result: self._opened(target, public, name, *result),
            lambda exc: self._open_failed(target, public, name, exc),
            on_discard=lambda result: result[0].close(),
        )

    def _opened(self, target: Path | str, public: str, name: str, store: Any, sessions: list[dict[str, Any]],
                totals: dict[str, int]) -> None:
        self._open_job = None
        old = self.store
        self.store = store
        self.target = target
        self.path = target if isinstance(target, Path) else None
        self.navigator.set_store(store, sessions)
        freeze_heap()  # the store and the session rows live until the next open
        self.tasks.retire(old)
        self.settings.add_recent(public)
        self._fill_recent_menu()
        self.setWindowTitle(_tr("{name} — {app}").format(name=name, app=APP_NAME))
        self.setWindowFilePath(str(self.path) if self.path is not None else "")
        self.reload_action.setEnabled(True)
        self.counts_label.setText(_counts_text(totals))
        self._store_info = {
            "name": name, "location": store.location, "totals": totals, "notes": list(store.schema_notes),
            "mode": _read_only_mode_label(store.read_only_mode),
        }
        self.overview.show_store(self._store_info)
        self.centre.setCurrentWidget(self.overview)
        self.statusBar().showMessage(_tr("Opened {name}").format(name=name), 4000)
        keep = self._restore_path
        self._restore_path = None
        if keep:
            self.navigator.reveal(keep)
        self.storeOpened.emit(store)
        self.openFinished.emit(True)
        uncounted = [row["sessionId"] for row in sessions if row.get("events") is None]
        if uncounted:
            # A large store opens without per-session event counts (a walk of the whole trace
            # index); they arrive in the overview a little later.
            self.tasks.run(lambda _job: views.session_event_counts(store, uncounted),
                           self._event_counts_arrived(store), lambda exc: None, resource=store)

    def _connection_changed(self, reason: str) -> None:
        """The server went away (``reason``) or came back (""): what is listed stays either way."""
        if reason:
            self.connection_label.setText(_tr("⚠ Connection lost — retrying every {seconds} s").format(
                seconds=f"{self.navigator.model.RETRY_SECONDS:g}"))
            self.connection_label.setToolTip(reason)
            self.connection_label.show()
        else:
            self.connection_label.hide()
            self.statusBar().showMessage(_tr("Connection restored"), 4000)

    def _event_counts_arrived(self, store: Any) -> Callable[[dict[str, int]], None]:
        def fill(counts: dict[str, int]) -> None:
            if self.store is store:
                self.navigator.set_session_event_counts(counts)

        return fill

    def _open_failed(self, target: Path | str, public: str, name: str, exc: BaseException) -> None:
        self._open_job = None
        self._restore_path = None
        self.statusBar().showMessage(_tr("Could not open {name}").format(name=name), 6000)
        self.openFinished.emit(False)
        if isinstance(target, str) and isinstance(exc, StoreAuthenticationError):
            # The usual first failure on a server: no or wrong password. Ask for it right there.
            self.choose_url(public, str(exc))
            return
        shown = str(target) if isinstance(target, Path) else shown_url(public)
        self.report_error(_tr("Cannot open database"),
                          _tr("{path} could not be opened.").format(path=shown) + "\n\n" + str(exc))

    def reload(self) -> None:
        if self.target is None:
            return
        self.open_database(self.target, keep=self.navigator.current_path())

    # ------------------------------------------------------------------ recent files

    def _fill_recent_menu(self) -> None:
        kept, removed = self.settings.prune_recent()
        self.recent_menu.clear()
        for number, name in enumerate(kept, start=1):
            label = f"&{number % 10} {name if looks_like_url(name) else Path(name).name}"
            action = self.recent_menu.addAction(label)
            action.setToolTip(name)
            action.setStatusTip(name)
            action.setData(name)
            action.triggered.connect(lambda _checked=False, p=name: self.open_database(p))
        if not kept:
            empty = self.recent_menu.addAction(_tr("No recent files"))
            empty.setEnabled(False)
        else:
            self.recent_menu.addSeparator()
            clear = self.recent_menu.addAction(_tr("Clear Recent Files"))
            clear.triggered.connect(self._clear_recent)
        if removed:
            self.statusBar().showMessage(
                _tr("Removed {count} missing file(s) from the recent list: {names}").format(
                    count=len(removed), names=", ".join(Path(r).name for r in removed)), 8000)

    def _clear_recent(self) -> None:
        self.settings.clear_recent()
        self._fill_recent_menu()

    def recent_actions(self) -> list[QAction]:
        return [a for a in self.recent_menu.actions() if a.data()]

    # ------------------------------------------------------------------ drag and drop

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if _local_files(event.mimeData()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event: Any) -> None:
        if _local_files(event.mimeData()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        files = _local_files(event.mimeData())
        if not files:
            event.ignore()
            return
        event.acceptProposedAction()
        self.open_database(files[0])

    # ------------------------------------------------------------------ status, errors, about

    def _update_busy(self) -> None:
        busy = self.tasks.busy > 0
        self.progress.setVisible(busy)
        self.busy_label.setVisible(busy)
        if busy:
            if self._open_job is not None:
                self.busy_label.setText(_tr("Opening…"))
            elif self.navigator.busy:
                self.busy_label.setText(_tr("Loading…"))
            else:
                self.busy_label.setText(_tr("Working…"))

    def _error_dialog(self, title: str, text: str) -> None:
        QMessageBox.warning(self, title, text)

    @Slot(str, object)
    def _item_selected(self, kind: str, row: dict[str, Any]) -> None:
        if kind == nav.REQUEST and self.request_view is not None:
            self.centre.setCurrentWidget(self.request_view)
            # The overview is kept current too, so Ctrl+1 shows this request's facts.
            self.overview.show_item(kind, row)
            return
        self.centre.setCurrentWidget(self.overview)
        if kind:
            self.overview.show_item(kind, row)
        elif self._store_info is not None:
            self.overview.show_store(self._store_info)
        else:
            self.overview.show_nothing()

    def _follow_counts(self, _update: Any) -> None:
        # The navigator's session rows carry the merged counts; the status line follows them.
        rows = [node.data for node in self.navigator.model.root.children]
        totals = views.store_totals(self.store, rows)
        self.counts_label.setText(_counts_text(totals))
        if self._store_info is not None:
            self._store_info["totals"] = totals
            if self.overview.kind == "store":
                self.overview.show_store(self._store_info)

    def _store_read(self, store: Any) -> None:
        """Notes a read added to the open store's (values of the wrong type found on the way) join
        its facts in the overview, and the newest is shown in the status bar."""
        info = self._store_info
        if store is not self.store or info is None or len(store.schema_notes) <= len(info["notes"]):
            return
        info["notes"] = list(store.schema_notes)
        self.statusBar().showMessage("⚠ " + info["notes"][-1], 10000)
        if self.overview.kind == "store":
            self.overview.show_store(info)

    def _current_updated(self, kind: str, row: dict[str, Any]) -> None:
        # Following changed the selected row: refresh its facts without switching pages.
        if kind and self.overview.kind == kind:
            self.overview.show_item(kind, row)

    def _reveal_finished(self, complete: bool) -> None:
        if not complete:
            self.statusBar().showMessage(_tr("The previous selection is no longer in the database"), 6000)

    def show_shortcuts(self) -> QWidget:
        """Help → Keyboard Shortcuts: every shortcut, read from the actions themselves."""
        from ui.windows.shortcuts_dialog import show_shortcuts

        return show_shortcuts(self)

    def about(self) -> None:
        QMessageBox.about(
            self, _tr("About Prompt Inspector"),
            _tr("<h3>Prompt Inspector {version}</h3>"
                "<p>See exactly what the Covel role-play engine sent to a model, part by part, "
                "and why the prompt cache hit or missed.</p>"
                "<p>Reads covel.db read-only. Qt {qt}, PySide6.</p>").format(
                version=__version__, qt=_qt_version()))

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        if not self._sized:
            # Sizes set before the first layout are rescaled to the final window width; the tree
            # needs about two fifths of the window for its five columns.
            self._sized = True
            QTimer.singleShot(0, self._initial_split)

    def _initial_split(self) -> None:
        width = self.splitter.width()
        share = int(width * NAVIGATOR_SHARE)
        self.splitter.setSizes([share, width - share])

    # ------------------------------------------------------------------ shutdown

    def closeEvent(self, event: QCloseEvent) -> None:
        if self._remember_layout:
            self.settings.set_geometry("geometry", self.saveGeometry())
            self.settings.set_geometry("splitter", self.splitter.saveState())
            self.settings.sync()
        self.shutdown()
        super().closeEvent(event)

    def shutdown(self) -> None:
        """Stop background work and close the store. Safe to call more than once."""
        if self._open_job is not None:
            self._open_job.cancel()
            self._open_job = None
        self.follow.shutdown()
        self.navigator.clear()
        self.tasks.shutdown()
        if self.store is not None:
            self.store.close()
            self.store = None


def _qt_version() -> str:
    from PySide6 import QtCore

    return QtCore.qVersion()
