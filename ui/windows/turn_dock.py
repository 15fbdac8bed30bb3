"""Put the turn stepper (:class:`ui.views.turn_stepper.TurnView`) into a :class:`ui.windows.main_window.MainWindow`
from outside: a page of the window's centre stack, "View → Turn Stepper" (Ctrl+3), and a turn
selected in the navigator loaded into it in the background.

The window knows nothing of the stepper; everything here goes through its public parts
(``centre``, ``navigator``, ``tasks``, ``store``, ``storeOpened``, the View menu). The stepper
itself (and the turn model it imports) is built the first time a turn is shown or
``window.turn_view`` is asked for: a window that never steps through a turn starts without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu

if TYPE_CHECKING:
    from ui.views.turn_stepper import TurnView


def _tr(text: str) -> str:
    return QCoreApplication.translate("TurnDock", text)


def _view_menu(window: Any) -> QMenu:
    # Found by the action the window puts in it, so a translated menu title does not matter.
    for action in window.menuBar().actions():
        menu = action.menu()
        if isinstance(menu, QMenu) and window.overview_action in menu.actions():
            return menu
    return window.menuBar().addMenu(_tr("&View"))


def _selected_turn(window: Any) -> tuple[str | None, str | None, str | None]:
    """(session id, turn id, request event id) along the navigator's current path."""
    found: dict[str, Any] = dict(window.navigator.current_path())
    return found.get("session"), found.get("turn"), found.get("request")


def install_turn_view(window: Any) -> None:
    """Wire the stepper into ``window``: ``window.turn_view`` is then the view, built on first use.

    Selecting a turn in the navigator builds it in the background; while "Step Through Selected
    Turns" is checked (the default) the stepper is also brought to the front, otherwise the
    overview stays and Ctrl+3 shows the stepper. Ctrl+3 on a selected request opens its turn
    stepped to that request's call.
    """
    built: list[TurnView] = []

    def stepper() -> TurnView:
        if not built:
            from ui.views.turn_stepper import TurnView

            view = TurnView(window.tasks, lambda: window.store, window)
            window.centre.addWidget(view)
            window.storeOpened.connect(lambda _store: view.clear())
            # "Open in Main View": the request with the whole centre's room, selected in the
            # navigator like any other (Ctrl+3 comes back to the stepper at the same step).
            view.openRequest.connect(window.navigator.select_request)
            built.append(view)
        return built[0]

    menu = _view_menu(window)

    show = QAction(_tr("Turn &Stepper"), window)
    show.setObjectName("turnStepperAction")
    show.setShortcut(QKeySequence("Ctrl+3"))
    show.setStatusTip(_tr("Step through the selected turn event by event"))

    follow = QAction(_tr("Step Through Selected &Turns"), window)
    follow.setObjectName("followTurnsAction")
    follow.setCheckable(True)
    follow.setChecked(True)
    follow.setStatusTip(_tr("Selecting a turn in the navigator opens it in the turn stepper"))

    def show_stepper() -> None:
        view = stepper()
        session_id, turn_id, event_id = _selected_turn(window)
        if session_id and turn_id:
            view.load_turn(session_id, turn_id, event_id)
        window.centre.setCurrentWidget(view)
        view.setFocus()

    def selected(kind: str, row: dict[str, Any]) -> None:
        if kind != "turn":
            return
        session_id = row.get("sessionId") or _selected_turn(window)[0]
        turn_id = row.get("turnId")
        if not session_id or not turn_id:
            return
        view = stepper()
        view.load_turn(session_id, turn_id)
        if follow.isChecked():
            # Runs after the window's own handler, which has just shown the overview.
            window.centre.setCurrentWidget(view)

    show.triggered.connect(show_stepper)
    window.navigator.itemSelected.connect(selected)
    menu.addSeparator()
    menu.addAction(show)
    menu.addAction(follow)
    window.turn_stepper = stepper
    window.turn_view_action = show
    window.follow_turns_action = follow
