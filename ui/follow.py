"""Follow a running engine: View → Follow Live Changes polls the open store and merges what Covel
wrote into the navigator (and the cache analysis) without a reload.

The poll runs on the task manager's pool every :data:`POLL_MS`: one tiny query when nothing
changed (:class:`inspector.follow.ChangeWatcher`), and when something did, the rows the tree
shows for the changed items (:func:`inspector.follow.read_updates`). The GUI thread only merges.
The watcher's baseline is taken when a store opens, so switching Follow on later first catches up
with everything written since the store was opened.
"""

from __future__ import annotations

import time
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QSettings, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel

from inspector.follow import ChangeWatcher, FollowUpdate, read_updates

from .models import navigator_nodes as nav
from .workers import Job

POLL_MS = 500
_FOLLOW_KEY = "follow/enabled"
_LATEST_KEY = "follow/latestTurn"


def _tr(text: str) -> str:
    return QCoreApplication.translate("Follow", text)


def _flag(key: str) -> bool:
    return bool(QSettings().value(key, False, type=bool))


def _set_flag(key: str, value: bool) -> None:
    QSettings().setValue(key, bool(value))


class FollowController(QObject):
    """Polls the window's store while enabled and merges the changes.

    Signals: ``updated(object)`` with each :class:`inspector.follow.FollowUpdate` merged (after
    the navigator has it); ``followingChanged(bool)``; ``failed(str)`` when a poll failed
    (following continues; the next poll tries again).
    """

    updated = Signal(object)
    followingChanged = Signal(bool)
    failed = Signal(str)

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.window = window
        self.tasks = window.tasks
        self.navigator = window.navigator
        self.store: Any = None
        self.watcher: ChangeWatcher | None = None
        self.follow_latest = False
        self.job: Job | None = None
        self._ready = False  # the watcher's baseline is taken
        self._retry: set[tuple[str, str]] = set()
        self.last_update: float | None = None
        self.timer = QTimer(self)
        self.timer.setInterval(POLL_MS)
        self.timer.timeout.connect(self.poll)

    @property
    def following(self) -> bool:
        return self.timer.isActive()

    def set_store(self, store: Any) -> None:
        """Start watching ``store`` (the baseline is its state now); None stops watching."""
        if self.job is not None:
            self.job.cancel()
            self.job = None
        self.store = store
        self.watcher = None
        self._ready = False
        self._retry.clear()
        if store is None:
            return
        watcher = ChangeWatcher(store)
        known = [node.key for node in self.navigator.model.root.children]

        def ready(_result: Any) -> None:
            if watcher is self.watcher:
                self.job = None
                self._ready = True

        def failed(exc: BaseException) -> None:
            if watcher is self.watcher:
                self.job = None
                self.watcher = None
                self.failed.emit(str(exc))

        self.watcher = watcher
        self.job = self.tasks.run(lambda _job: watcher.start(known), ready, failed, resource=store)

    def set_following(self, on: bool) -> None:
        if on == self.following:
            return
        if on:
            self.timer.start()
            self.poll()
        else:
            self.timer.stop()
        self.followingChanged.emit(on)

    def poll(self) -> None:
        """Read and merge what changed (skipped while the previous poll is still running)."""
        store, watcher = self.store, self.watcher
        if store is None or self.job is not None:
            return
        if watcher is None:
            self.set_store(store)
            return
        if not self._ready:
            return
        listed, opened = self.navigator.model.listed()
        retry, self._retry = self._retry, set()

        def work(_job: Job) -> FollowUpdate | None:
            changes = watcher.poll()
            if changes.empty and not retry:
                return None
            return read_updates(store, changes, listed, opened, retry)

        def done(update: FollowUpdate | None) -> None:
            if watcher is not self.watcher:
                return
            self.job = None
            if update is not None:
                self._apply(update)

        def failed(exc: BaseException) -> None:
            if watcher is not self.watcher:
                return
            self.job = None
            self._retry |= retry
            self.failed.emit(str(exc))

        self.job = self.tasks.run(work, done, failed, resource=store, pause_gc=True, quiet=True)

    def _apply(self, update: FollowUpdate) -> None:
        _new_turns, retry = self.navigator.apply_update(update)
        self._retry |= retry
        self.last_update = time.monotonic()
        if self.follow_latest:
            self._reveal_latest(update)
        self.updated.emit(update)

    def _reveal_latest(self, update: FollowUpdate) -> None:
        """Select the newest execution of the changes (the last new one of the last session
        that got one)."""
        for sid, delta in reversed(list(update.changes.sessions.items())):
            if delta.new_turns:
                self.navigator.reveal([(nav.SESSION, sid), (nav.TURN, delta.new_turns[-1])])
                return

    def shutdown(self) -> None:
        self.timer.stop()
        if self.job is not None:
            self.job.cancel()
            self.job = None
        self.watcher = None


def install_follow(window: Any) -> FollowController:
    """Add View → Follow Live Changes (Ctrl+L) and Follow Latest Turn (Ctrl+Shift+L), a status-bar
    mark, and the controller to ``window`` (a :class:`ui.windows.main_window.MainWindow`). Sets
    ``window.follow``, ``window.follow_live_action``, ``window.follow_latest_action`` and
    ``window.following_label``; both toggles are remembered in the settings."""
    controller = FollowController(window)

    live = QAction(_tr("&Follow Live Changes"), window)
    live.setObjectName("followLiveAction")
    live.setCheckable(True)
    live.setShortcut(QKeySequence("Ctrl+L"))
    live.setStatusTip(_tr("Show new turns, runtimes and requests as the engine writes them, without reloading"))
    latest = QAction(_tr("Follow &Latest Turn"), window)
    latest.setObjectName("followLatestAction")
    latest.setCheckable(True)
    latest.setShortcut(QKeySequence("Ctrl+Shift+L"))
    latest.setStatusTip(_tr("While following, select each new turn as it appears"))

    label = QLabel(window)
    label.setObjectName("followingLabel")
    label.hide()

    def show_state(on: bool) -> None:
        label.setVisible(on)
        label.setText("● " + _tr("Following"))
        label.setToolTip(_tr("Following live changes: the database is read every {ms} ms").format(ms=POLL_MS))
        latest.setEnabled(on)

    def toggled(on: bool) -> None:
        _set_flag(_FOLLOW_KEY, on)
        controller.set_following(on)

    def latest_toggled(on: bool) -> None:
        _set_flag(_LATEST_KEY, on)
        controller.follow_latest = on

    def updated(_update: FollowUpdate) -> None:
        label.setToolTip(_tr("Following live changes; last change merged at {time}").format(
            time=time.strftime("%H:%M:%S")))

    controller.followingChanged.connect(show_state)
    controller.updated.connect(updated)
    controller.failed.connect(lambda reason: window.statusBar().showMessage(
        _tr("Following: could not read the database ({reason})").format(reason=reason), 6000))
    live.toggled.connect(toggled)
    latest.toggled.connect(latest_toggled)
    window.storeOpened.connect(controller.set_store)

    menu = window.view_menu
    menu.addSeparator()
    menu.addAction(live)
    menu.addAction(latest)
    window.statusBar().insertPermanentWidget(0, label)

    latest.setChecked(_flag(_LATEST_KEY))
    controller.follow_latest = latest.isChecked()
    show_state(False)
    if _flag(_FOLLOW_KEY):
        live.setChecked(True)

    window.follow = controller
    window.follow_live_action = live
    window.follow_latest_action = latest
    window.following_label = label
    return controller
