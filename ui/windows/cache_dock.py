"""Puts the cache analysis (:class:`ui.views.cache_view.CacheView`) into the main window without the
window knowing about it: a dock at the bottom, shown and hidden by View → Cache Analysis (Ctrl+2).

The dock spans the window's width because the table is wide and short (a row per runtime, a
column per turn), and it stays beside the request view so a cell's request can be opened without
losing the table. Opening it analyses the session selected in the navigator (else the first).

The view itself (and the analysis, numpy and the chart module it imports) is built the first time
the dock is shown or ``window.cache_view`` is asked for: a window whose dock stays closed starts
faster and smaller.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtGui import QKeySequence, QResizeEvent
from PySide6.QtWidgets import QDockWidget, QFrame, QMenu, QScrollArea

from ui.models import navigator_nodes as nav
from ui.settings import Settings, layout_memory

if TYPE_CHECKING:
    from ui.views.cache_view import CacheView


def _tr(text: str) -> str:
    return QCoreApplication.translate("CacheDock", text)


def _view_menu(window: Any) -> QMenu | None:
    # Found through an action the window puts in its View menu, so a translated title does not
    # matter.
    for action in window.menuBar().actions():
        menu = action.menu()
        if menu is not None and window.overview_action in menu.actions():
            return menu
    return None


# The dock's share of the window's height the first time it opens (until the user sizes it),
# and the least it keeps for itself and leaves to the centre page.
DOCK_SHARE = 0.5
DOCK_MINIMUM_HEIGHT = 140
_HEIGHT_KEY = "cacheDock/height"


def _navigator_session(window: Any) -> str | None:
    path = window.navigator.current_path()
    return path[0][1] if path and path[0][0] == nav.SESSION else None


class CacheDock(QDockWidget):
    """The dock; :meth:`view` builds the cache view inside it when first wanted."""

    def __init__(self, window: Any) -> None:
        super().__init__(_tr("Cache Analysis"), window)
        self._window = window
        self._view: CacheView | None = None
        self._sized = False
        # The view sits in a scroll area: its own minimum (table, chart, pair view) scrolls
        # inside the dock instead of pushing the main window taller.
        self._scroll = QScrollArea(self)
        self._scroll.setObjectName("cacheDockScroll")
        self._scroll.setWidgetResizable(True)
        self._scroll.setFrameShape(QFrame.Shape.NoFrame)
        self._scroll.setMinimumHeight(DOCK_MINIMUM_HEIGHT)
        self.setWidget(self._scroll)

    def wanted_height(self) -> int:
        """The height to open at: the user's last one, else a share of the window, never so
        tall that the centre page is squeezed below its minimum."""
        window = self._window
        saved = Settings().dock_size(_HEIGHT_KEY) if layout_memory() else None
        room = window.height() - window.menuBar().height() - window.statusBar().height()
        centre = window.centre.minimumHeight() + 12
        wanted = saved if saved is not None else int(room * DOCK_SHARE)
        return max(DOCK_MINIMUM_HEIGHT, min(wanted, room - centre))

    def open_sized(self) -> None:
        """Give the dock its height the first time it is shown (after the dock layout has
        settled: resizing while it is being shown is overridden)."""
        if self._sized:
            return
        self._sized = True
        QTimer.singleShot(0, lambda: self._window.resizeDocks([self], [self.wanted_height()],
                                                              Qt.Orientation.Vertical))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        if self._sized and self.isVisible() and not self.isFloating() and layout_memory():
            Settings().set_dock_size(_HEIGHT_KEY, event.size().height())

    def view(self) -> CacheView:
        if self._view is None:
            from ui.views.cache_view import CacheView

            window = self._window
            view = CacheView(window.tasks, lambda: window.store, window.navigator.select_request)
            self._view = view
            self._scroll.setWidget(view)
            window.storeOpened.connect(view.set_store)
            follow = getattr(window, "follow", None)
            if follow is not None:
                # Following a live store appends the shown session's new pairs.
                follow.updated.connect(view.follow_update)
            if window.store is not None:
                view.set_store(window.store)
        return self._view


def install_cache_view(window: Any) -> CacheDock:
    """Add the cache analysis dock and its View-menu action to ``window`` (a
    :class:`ui.windows.main_window.MainWindow`); returns the dock. Sets ``window.cache_dock`` and
    ``window.cache_action``; ``window.cache_view`` is then the view (built on first use)."""
    dock = CacheDock(window)
    dock.setObjectName("cacheAnalysisDock")
    dock.setAllowedAreas(Qt.DockWidgetArea.BottomDockWidgetArea | Qt.DockWidgetArea.TopDockWidgetArea
                         | Qt.DockWidgetArea.RightDockWidgetArea)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
    dock.hide()

    action = dock.toggleViewAction()
    action.setText(_tr("&Cache Analysis"))
    action.setShortcut(QKeySequence("Ctrl+2"))
    action.setStatusTip(_tr("Show where each request's cached prefix ends, per runtime and turn"))
    menu = _view_menu(window)
    if menu is not None:
        menu.addAction(action)
    else:
        window.addAction(action)

    def shown(visible: bool) -> None:
        if not visible:
            return
        view = dock.view()
        dock.open_sized()
        if view.session_id is not None or window.store is None:
            return
        view.request_session(_navigator_session(window))

    dock.visibilityChanged.connect(shown)
    window.cache_dock = dock
    window.cache_action = action
    return dock
