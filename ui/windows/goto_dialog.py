"""Go to… (Ctrl+G): select a request, turn or session by its id, the start of one, or a turn number.

What a text names is the core's answer (:func:`inspector.ids.find_target`, the same rule every
command and ``--select`` use), read in the background; the window's navigator then reveals it.
:func:`install_go_to` adds the action to a :class:`ui.windows.main_window.MainWindow` from
outside, through its public parts (``navigator``, ``tasks``, ``store``, the Edit menu), as the
turn stepper's dock does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QMenu,
    QVBoxLayout,
    QWidget,
)

from inspector.ids import AmbiguousIdError, IdError, Target, find_target, locate


def _tr(text: str) -> str:
    return QCoreApplication.translate("GoToDialog", text)


def error_text(exc: IdError) -> str:
    """A failed lookup as the window says it (the core's English message is for the command line)."""
    if isinstance(exc, AmbiguousIdError):
        listed = ", ".join(exc.matches) + (", …" if exc.more else "")
        return _tr("“{text}” is the start of several ids: {ids}. Type more of the id.").format(
            text=exc.text, ids=listed)
    if exc.text.startswith("#"):
        return _tr("The selected session has no turn {number}.").format(number=exc.text)
    return _tr("Nothing in this database has an id starting “{text}”.").format(text=exc.text)


def _current_session(window: Any) -> str | None:
    """The navigator's selected session, else its first one (what a turn number counts in)."""
    path = window.navigator.current_path()
    if path and path[0][0] == "session":
        return path[0][1]
    sessions = window.navigator.model.root.children
    return sessions[0].key if sessions else None


def go_to(window: Any, text: str, *, session_id: str | None = None,
          done: Callable[[Target | None, str], None] | None = None,
          wanted: Callable[[], bool] | None = None) -> None:
    """Find what ``text`` names (a turn number counts in ``session_id``, default the navigator's
    session) in the background and reveal it in the navigator. ``done(target, problem)`` follows:
    the target once revealed (None and the reason when it was not found or not revealed).
    ``wanted()`` is asked when the answer arrives: False (the user cancelled) drops it."""
    store = window.store
    finish = done or (lambda _target, _problem: None)
    if store is None:
        finish(None, _tr("No database is open."))
        return
    session = session_id if session_id is not None else _current_session(window)

    def work(_job: Any) -> Target | IdError:
        try:
            return locate(store, find_target(store, text, session))
        except IdError as exc:
            return exc

    def found(result: Target | IdError) -> None:
        if wanted is not None and not wanted():
            return
        if store is not window.store:
            finish(None, _tr("Another database was opened."))
            return
        if isinstance(result, IdError):
            finish(None, error_text(result))
            return
        navigator = window.navigator

        def revealed(complete: bool) -> None:
            navigator.revealFinished.disconnect(revealed)
            finish(result if complete else None,
                   "" if complete else _tr("{id} could not be shown in the navigator.").format(id=result.id))

        navigator.revealFinished.connect(revealed)
        navigator.reveal(result.path())

    window.tasks.run(work, found, lambda exc: finish(None, str(exc)), resource=store)


class GoToDialog(QDialog):
    """A line for the id or turn number, the reason when nothing matched; Enter goes."""

    def __init__(self, window: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent or window)
        self.window_ = window
        self.setWindowTitle(_tr("Go To"))
        self.setModal(True)
        self.edit = QLineEdit(self)
        self.edit.setObjectName("goToText")
        self.edit.setPlaceholderText(_tr("Request, turn or session id (or its start), or a turn number"))
        self.edit.setMinimumWidth(380)
        hint = QLabel(_tr("The 8 characters a table shows are enough; #4 or 4 is the selected session's turn 4."), self)
        hint.setWordWrap(True)
        self.problem = QLabel(self)
        self.problem.setObjectName("goToProblem")
        self.problem.setWordWrap(True)
        self.problem.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.problem.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel,
                                        self)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(_tr("Go"))
        self.buttons.accepted.connect(self.go)
        self.buttons.rejected.connect(self.reject)
        self._asked = 0  # which Go the answer on its way is for; a Cancel or a new Go drops older ones
        layout = QVBoxLayout(self)
        layout.addWidget(self.edit)
        layout.addWidget(hint)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.target: Target | None = None

    def reset(self) -> None:
        """Ready for a new text: the last one selected, no problem shown."""
        self._asked += 1
        self.buttons.setEnabled(True)
        self.problem.hide()
        self.edit.selectAll()
        self.edit.setFocus()

    def reject(self) -> None:
        self._asked += 1  # an answer still on its way is dropped
        self.buttons.setEnabled(True)
        super().reject()

    def go(self) -> None:
        text = self.edit.text().strip()
        if not text:
            return
        self.buttons.setEnabled(False)
        self.problem.hide()
        self._asked += 1
        asked = self._asked

        def done(target: Target | None, problem: str) -> None:
            if asked != self._asked:
                return
            self.buttons.setEnabled(True)
            if target is None:
                self.problem.setText(problem)
                self.problem.show()
                self.edit.setFocus()
                self.edit.selectAll()
                return
            self.target = target
            self.accept()

        go_to(self.window_, text, done=done, wanted=lambda: asked == self._asked)


def _edit_menu(window: Any) -> QMenu | None:
    # Found by an action the window puts in it, so a translated menu title does not matter.
    for action in window.menuBar().actions():
        menu = action.menu()
        if isinstance(menu, QMenu) and window.find_action in menu.actions():
            return menu
    return None


def install_go_to(window: Any) -> QAction:
    """Add Edit → Go To… (Ctrl+G) to ``window``; sets ``window.go_to_action``."""
    action = QAction(_tr("&Go To…"), window)
    action.setObjectName("goToAction")
    action.setShortcut(QKeySequence("Ctrl+G"))
    action.setStatusTip(_tr("Select a request, turn or session by its id (or the start of one) or a turn number"))

    def open_dialog() -> None:
        # One dialog per window, kept: it remembers the last text.
        dialog = getattr(window, "go_to_dialog", None)
        if dialog is None:
            dialog = window.go_to_dialog = GoToDialog(window)
        dialog.reset()
        dialog.open()

    action.triggered.connect(open_dialog)
    menu = _edit_menu(window)
    if menu is not None:
        menu.addAction(action)
    else:
        window.addAction(action)
    window.go_to_action = action
    return action
