"""``--select`` and ``--view``: the selection and the view the app opens on, once its store is open.

The selection is found as Go to… finds it (:func:`ui.windows.goto_dialog.go_to`: an id, the
start of one); the view is opened through the window's public parts — the cache dock's action
and ``cache_view``, the turn stepper's action and ``turn_view``, the request view's
``compare_with`` — and reported finished when it has shown what it was opened for, so that a
screenshot (``--screenshot``) shows the view filled.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication

from ui.windows.goto_dialog import go_to

Done = Callable[[bool, str], None]
"""``done(ok, problem)``: called once, with the reason when the selection or the view failed."""

WINDOW_VIEWS = ("cache", "turn", "compare")
"""The ``--view`` values that open inside the main window (the editors open alone)."""


def _tr(text: str) -> str:
    return QCoreApplication.translate("App", text)


class _Once:
    """``done`` called once; the signals connected through :meth:`connect` are disconnected then,
    so a view's later signals (another session analysed, another turn loaded) call nothing."""

    def __init__(self, done: Done) -> None:
        self._done = done
        self._links: list[tuple[Any, Any]] = []
        self.called = False

    def connect(self, signal: Any, slot: Any) -> None:
        signal.connect(slot)
        self._links.append((signal, slot))

    def __call__(self, ok: bool, problem: str = "") -> None:
        if self.called:
            return
        self.called = True
        for signal, slot in self._links:
            try:
                signal.disconnect(slot)
            except (RuntimeError, TypeError):  # its object is gone, or it was disconnected already
                pass
        self._links.clear()
        self._done(ok, problem)


def open_selection(window: Any, select: str | None, view: str | None, done: Done) -> None:
    """Select ``select`` (when given) in ``window``'s navigator, then open ``view`` (one of
    :data:`WINDOW_VIEWS`, or None); ``done`` follows."""
    finish = _Once(done)

    def selected(target: Any, problem: str) -> None:
        if select is not None and target is None:
            finish(False, problem)
            return
        open_view(window, view, finish)

    if select is None:
        selected(None, "")
    else:
        go_to(window, select, done=selected)


def open_view(window: Any, view: str | None, done: Done | _Once) -> None:
    """Open ``view`` (one of :data:`WINDOW_VIEWS`, or None) on what the navigator has selected;
    ``done`` follows once."""
    if not isinstance(done, _Once):
        done = _Once(done)
    if view is None:
        done(True, "")
    elif view == "cache":
        _open_cache(window, done)
    elif view == "turn":
        _open_turn(window, done)
    elif view == "compare":
        _open_compare(window, done)
    else:
        raise ValueError(f"not a view of the main window: {view!r}")


def _path(window: Any) -> dict[str, str]:
    return dict(window.navigator.current_path())


def _open_cache(window: Any, done: _Once) -> None:
    """The cache dock, analysing the selected session (the first one without a selection); a
    selected request's pair is then selected too, and shown aligned in the pair view."""
    cache = window.cache_view
    event_id = _path(window).get("request")

    def finished(_session: str) -> None:
        analysis = cache.analysis
        pair = next((p for p in analysis.pairs if p.event_id == event_id), None) if analysis and event_id else None
        if pair is None or pair.previous_event_id is None:
            done(True, "")
            return
        done.connect(cache.pair_view.loaded, lambda _shown: done(True, ""))
        if not cache.select_pair(pair):
            done(True, "")

    done.connect(cache.finished, finished)
    done.connect(cache.failed, lambda reason: done(False, reason))
    if window.cache_dock.isVisible():
        cache.request_session(_path(window).get("session"))
    else:
        window.cache_action.trigger()
    wanted = _path(window).get("session")
    if cache.analysis is not None and cache.session_id == (wanted or cache.session_id):
        finished(cache.session_id)  # shown already: no analysis runs, so none finishes


def _open_turn(window: Any, done: _Once) -> None:
    """The turn stepper on the selected turn (at the selected request's call)."""
    if "turn" not in _path(window):
        done(False, _tr("--view turn needs --select with a turn or a request"))
        return
    stepper = window.turn_view
    done.connect(stepper.turnLoaded, lambda _turn: done(True, ""))
    done.connect(stepper.loadFailed, lambda reason: done(False, reason))
    window.turn_view_action.trigger()


def _open_compare(window: Any, done: _Once) -> None:
    """The selected request compared with the same runtime's first request of the turn before
    (:func:`inspector.views.previous_turn_request`), in the request view's Compare tab."""
    event_id = _path(window).get("request")
    view = window.request_view
    if event_id is None or view is None:
        done(False, _tr("--view compare needs --select with a request"))
        return
    store = window.store

    asked: list[bool] = []

    def loaded() -> None:
        if asked:
            return  # the request view loaded it again: the comparison is on its way
        asked.append(True)
        from inspector import views

        def found(previous: str | None) -> None:
            if previous is None:
                done(False, _tr("This runtime did not run in an earlier turn of the session."))
                return
            done.connect(view.compared, lambda: done(True, ""))
            view.compare_with(previous)

        window.tasks.run(lambda _job: views.previous_turn_request(store, event_id), found,
                         lambda exc: done(False, str(exc)), resource=store)

    if view.detail is not None and view.event_id == event_id:
        loaded()
    else:
        done.connect(view.loaded, lambda shown: loaded() if shown == event_id else None)
        done.connect(view.loadFailed, lambda reason: done(False, reason))
