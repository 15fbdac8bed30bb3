"""The app's error hook: an uncaught exception becomes a reported message, not a traceback."""

from __future__ import annotations

import sys
import threading

from ui.error_hook import error_hook


def test_an_uncaught_exception_on_the_gui_thread_is_reported(qtbot, capsys):
    reports: list[tuple[str, str]] = []
    before = sys.excepthook
    with error_hook(lambda title, text: reports.append((title, text))):
        try:
            raise KeyError("created_at")
        except KeyError as exc:
            sys.excepthook(type(exc), exc, exc.__traceback__)
        qtbot.waitUntil(lambda: bool(reports), timeout=2000)
    assert sys.excepthook is before
    title, text = reports[0]
    assert title == "Something went wrong"
    assert text.startswith("internal error (KeyError: 'created_at')")
    assert "Traceback" not in capsys.readouterr().err


def test_a_worker_thread_failure_reaches_the_gui_thread(qtbot):
    reports: list[tuple[str, str, bool]] = []
    gui = threading.get_ident()

    def report(title: str, text: str) -> None:
        reports.append((title, text, threading.get_ident() == gui))

    with error_hook(report):
        worker = threading.Thread(target=lambda: (_ for _ in ()).throw(RecursionError("deep")))
        worker.start()
        worker.join()
        qtbot.waitUntil(lambda: bool(reports), timeout=2000)
    _title, text, on_gui_thread = reports[0]
    assert "RecursionError: deep" in text and on_gui_thread


def test_debug_prints_the_traceback_too(qtbot, capsys):
    reports: list[str] = []
    with error_hook(lambda _t, text: reports.append(text), debug=True):
        try:
            raise ValueError("boom")
        except ValueError as exc:
            sys.excepthook(type(exc), exc, exc.__traceback__)
        qtbot.waitUntil(lambda: bool(reports), timeout=2000)
    assert "Traceback (most recent call last)" in capsys.readouterr().err
