"""File → Export: the cache table (CSV, HTML), the comparison shown and the turn summary shown.

The documents are the core's (:mod:`inspector.export`: what the ``cache``, ``compare`` and
``turn`` commands write); this module asks for a file name, writes the document off the GUI
thread, atomically and never over the open database (:func:`inspector.export.save_export`), and
says what happened. Each entry is enabled when the window shows what it exports: a finished cache
analysis, a comparison in the request view, a turn in the stepper.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMenu, QWidget

from inspector.export import (
    EXPORT_FORMATS,
    cache_table_export,
    comparison_export,
    report_source,
    save_export,
    turn_summary_export,
)
from inspector.files import OutputPathError

__all__ = ["ExportMenu", "add_export_menu"]


def _tr(text: str) -> str:
    return QCoreApplication.translate("ExportMenu", text)


def _filter_names() -> dict[str, str]:
    return {"csv": _tr("CSV (*.csv)"), "html": _tr("HTML report (*.html)"), "text": _tr("Text (*.txt)"),
            "json": _tr("JSON (*.json)"), "markdown": _tr("Markdown (*.md)")}


def _safe_name(text: str) -> str:
    """A piece of a default file name: letters, digits, dots and dashes."""
    return re.sub(r"[^\w.-]+", "-", text).strip("-")[:60] or "export"


def choose_path(parent: QWidget, title: str, default: str, filters: list[str]) -> tuple[str, str]:
    """The save dialog: (file name or "", the filter chosen). Tests replace it."""
    name, chosen = QFileDialog.getSaveFileName(parent, title, default, ";;".join(filters))
    return name, chosen


class ExportMenu(QMenu):
    """The File → Export submenu of a main window."""

    def __init__(self, window: Any) -> None:
        super().__init__(_tr("&Export"), window)
        self.setObjectName("exportMenu")
        self.window_ = window
        self.cache_csv_action = self._action(_tr("Cache Table as &CSV…"), lambda: self.export_cache("csv"),
                                             _tr("Save the session's cache analysis, one row per request, as "
                                                 "`cache --csv` writes it"))
        self.cache_html_action = self._action(_tr("Cache Table as &HTML…"), lambda: self.export_cache("html"),
                                              _tr("Save the session's cache analysis as a self-contained HTML "
                                                  "report, as `cache --html` writes it"))
        self.addSeparator()
        self.comparison_action = self._action(_tr("C&omparison…"), self.export_comparison,
                                              _tr("Save the comparison the request view shows, as `compare` "
                                                  "prints it (text or JSON)"))
        self.turn_action = self._action(_tr("&Turn Summary…"), self.export_turn,
                                        _tr("Save what the turn in the stepper did, with its outline (Markdown "
                                            "or JSON)"))
        self.aboutToShow.connect(self.update_actions)
        self.update_actions()

    def _action(self, text: str, slot: Callable[[], Any], tip: str) -> QAction:
        action = self.addAction(text)
        action.setStatusTip(tip)
        action.setToolTip(tip)
        action.triggered.connect(slot)
        return action

    # -- what the window shows ---------------------------------------------------------------------

    def _cache_view(self) -> Any:
        # Found, not built: a window whose cache dock was never opened has nothing to export.
        return self.window_.findChild(QWidget, "cacheView")

    def _analysis(self) -> Any:
        view = self._cache_view()
        return getattr(view, "analysis", None) if view is not None else None

    def _comparison(self) -> Any:
        return getattr(getattr(self.window_, "request_view", None), "comparison", None)

    def _turn_view(self) -> Any:
        return self.window_.findChild(QWidget, "turnView")

    def _turn(self) -> Any:
        view = self._turn_view()
        return getattr(view, "turn", None) if view is not None else None

    def update_actions(self) -> None:
        has_analysis = self._analysis() is not None
        self.cache_csv_action.setEnabled(has_analysis)
        self.cache_html_action.setEnabled(has_analysis)
        self.comparison_action.setEnabled(self._comparison() is not None)
        self.turn_action.setEnabled(self._turn() is not None)

    # -- the exports -------------------------------------------------------------------------------

    def export_cache(self, fmt: str) -> None:
        analysis = self._analysis()
        if analysis is None:
            return
        suffix = dict(EXPORT_FORMATS["cache"])[fmt]
        path, _chosen = choose_path(self.window_, _tr("Export Cache Table"), f"cache-{_safe_name(analysis.session_id)}"
                                    f"{suffix}", [_filter_names()[fmt], _tr("All files (*)")])
        if not path:
            return
        store = getattr(self.window_, "store", None)
        source = report_source(_store_name(store), _rules()) if fmt == "html" else ""
        self.write(path, lambda: cache_table_export([analysis], fmt, source=source), _tr("Export Cache Table"))

    def export_comparison(self) -> None:
        comparison = self._comparison()
        if comparison is None:
            return
        left, right = comparison.left.row["eventId"], comparison.right.row["eventId"]
        fmt, path = self._ask("comparison", _tr("Export Comparison"), f"compare-{left[:8]}-{right[:8]}")
        if not path:
            return
        store = getattr(self.window_, "store", None)

        def document() -> str:
            names = None
            if fmt == "text" and store is not None:  # both sides named as `compare` names them
                from inspector.ids import request_names

                first, second = request_names(store, [comparison.left.row, comparison.right.row])
                names = (first, second)
            return comparison_export(comparison, fmt, names=names)

        self.write(path, document, _tr("Export Comparison"))

    def export_turn(self) -> None:
        view = self._turn_view()
        turn = self._turn()
        if turn is None:
            return
        summary = getattr(view, "summary", None)
        fmt, path = self._ask("turn", _tr("Export Turn Summary"), f"turn-{turn.turn_id[:8]}")
        if not path:
            return
        store = getattr(self.window_, "store", None)

        def document() -> str:
            from inspector.ids import turn_numbers
            from inspector.turn.summary import summarize

            number = turn_numbers(store, turn.session_id).get(turn.turn_id) if store is not None else None
            return turn_summary_export(turn, summary if summary is not None else summarize(turn), fmt, number=number)

        self.write(path, document, _tr("Export Turn Summary"))

    def _ask(self, what: str, title: str, stem: str) -> tuple[str, str]:
        """(format, path) from the save dialog: the format of the filter chosen, or of the name's
        suffix when it names one."""
        formats = EXPORT_FORMATS[what]
        names = _filter_names()
        filters = [names[fmt] for fmt, _suffix in formats]
        path, chosen = choose_path(self.window_, title, stem + formats[0][1], filters)
        if not path:
            return "", ""
        by_suffix = {suffix: fmt for fmt, suffix in formats}
        fmt = by_suffix.get(Path(path).suffix.lower())
        if fmt is None:
            fmt = next((f for f, _s in formats if names[f] == chosen), formats[0][0])
            path += dict(formats)[fmt]
        return fmt, path

    def write(self, path: str, document: Callable[[], str], title: str) -> None:
        """Make the document and save it, off the GUI thread; a refusal or failure is reported."""
        window = self.window_
        store = getattr(window, "store", None)
        inputs = [getattr(store, "path", None)]

        def work(_job: Any) -> Path:
            return save_export(path, document(), inputs)

        def done(written: Path) -> None:
            window.statusBar().showMessage(_tr("Saved {path}").format(path=written), 5000)

        def failed(exc: BaseException) -> None:
            if isinstance(exc, OutputPathError):
                text = str(exc)
            else:
                reason = getattr(exc, "strerror", None) or str(exc)
                text = _tr("Cannot write {path}: {error}").format(path=path, error=reason)
            window.report_error(title, text)

        window.tasks.run(work, done, failed)


def _store_name(store: Any) -> str:
    """The open store as a message names it (a URL without its password)."""
    from inspector.store.urls import shown_url

    if store is None:
        return ""
    given = getattr(store, "path", None) or getattr(store, "open_spec", None) or ""
    return shown_url(str(given))


def _rules() -> Any:
    from inspector.cache.rules import default_rules

    return default_rules()  # the rules the cache view analyses with


def add_export_menu(window: Any, file_menu: QMenu) -> ExportMenu:
    """Add File → Export to ``window``'s ``file_menu`` (at its end)."""
    menu = ExportMenu(window)
    file_menu.addMenu(menu)
    return menu
