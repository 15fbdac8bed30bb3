"""Copy and the context menu on every tree and table of the app, in one place.

:func:`install_item_actions` gives the application one handler. For every item view
(``QAbstractItemView``: the navigator, the anatomy trees, the cache table, the findings, the
stepper, both editors...) it answers

* Ctrl+C (the platform's Copy key): the selected rows, their cells separated by tabs, one row a
  line (a table that selects cells: the selected cells as a grid);
* the context menu (right click, the Menu key): Copy, Copy Id, Copy as JSON and Compare with the
  Shown Request, then the view's own actions when it shows them as its context menu
  (``Qt.ActionsContextMenu``). A view with a menu of its own (``Qt.CustomContextMenu``) keeps it.

The handler watches a view from the moment it takes the keyboard focus (a click, right clicks
included, or Tab gives it), through an event filter on the view and its viewport only: a filter
on the whole application would run Python for every event of every widget, and each such call
waits for the interpreter lock while a background job runs Python (a paint would stall).

What a row copies beyond its cells comes from the model, through the roles of
:mod:`ui.models.item_roles`: its id, its JSON (made by the core, the JSON the command line prints)
and the model request it stands for. A row without a JSON copies its column headers with its
cells' texts. This module formats what the models hold; it computes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QModelIndex, QObject, QPoint, Qt
from PySide6.QtGui import QContextMenuEvent, QGuiApplication, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QApplication, QMenu, QWidget

from shiboken6 import isValid

from inspector.output import dump_json

from .models.item_roles import ID_ROLE, JSON_ROLE, REQUEST_ROLE

__all__ = ["ItemActions", "copy_ids", "copy_json", "copy_rows", "install_item_actions", "item_menu",
           "row_ids", "row_json", "rows_text", "selected_units", "shortcuts", "show_menu"]

_DISPLAY = Qt.ItemDataRole.DisplayRole


def _tr(text: str) -> str:
    return QCoreApplication.translate("ItemActions", text)


# -- what is selected ------------------------------------------------------------------------------

def _order_key(index: QModelIndex) -> tuple[int, ...]:
    """The index's place in the model, from the root: rows sort as the view lists them."""
    key: list[int] = []
    while index.isValid():
        key.append(index.row())
        index = index.parent()
    key.reverse()
    return tuple(key)


def _selects_rows(view: QAbstractItemView) -> bool:
    return view.selectionBehavior() == QAbstractItemView.SelectionBehavior.SelectRows \
        or view.model() is None or view.model().columnCount(view.rootIndex()) <= 1


def _shown_columns(view: QAbstractItemView, parent: QModelIndex) -> list[int]:
    model = view.model()
    hidden = getattr(view, "isColumnHidden", None)
    return [c for c in range(model.columnCount(parent)) if not (callable(hidden) and hidden(c))]


def selected_units(view: QAbstractItemView) -> list[list[QModelIndex]]:
    """What the row actions act on, in the view's order: one list of cells per selected row (all
    its shown columns when the view selects rows; the selected cells otherwise). The current row
    when nothing is selected."""
    model = view.model()
    selection = view.selectionModel()
    if model is None:
        return []
    indexes = list(selection.selectedIndexes()) if selection is not None else []
    if not indexes and view.currentIndex().isValid():
        indexes = [view.currentIndex()]
    rows: dict[tuple[int, ...], list[QModelIndex]] = {}
    for index in indexes:
        rows.setdefault(_order_key(index.siblingAtColumn(0)), []).append(index)
    units: list[list[QModelIndex]] = []
    whole = _selects_rows(view)
    for key in sorted(rows):
        cells = rows[key]
        first = cells[0]
        if whole:
            cells = [first.siblingAtColumn(c) for c in _shown_columns(view, first.parent())]
        units.append(sorted(cells, key=lambda i: i.column()))
    return units


# -- what a selection copies -----------------------------------------------------------------------

def _cell_text(index: QModelIndex) -> str:
    value = index.data(_DISPLAY)
    return "" if value is None else str(value)


def _flat(text: str) -> str:
    return " ".join(text.replace("\t", " ").splitlines())


def rows_text(units: list[list[QModelIndex]]) -> str:
    """The cells as text: tab-separated, one row a line; a single cell as it is shown."""
    if len(units) == 1 and len(units[0]) == 1:
        return _cell_text(units[0][0])
    if not units:
        return ""
    columns = sorted({i.column() for unit in units for i in unit})
    lines = []
    for unit in units:
        by_column = {i.column(): i for i in unit}
        lines.append("\t".join(_flat(_cell_text(by_column[c])) if c in by_column else "" for c in columns))
    return "\n".join(lines)


def _role(unit: list[QModelIndex], role: int) -> Any:
    """The first of the unit's cells that answers ``role`` (a row answers on any column)."""
    for index in unit:
        value = index.data(role)
        if value is not None and value != "":
            return value
    if unit:
        value = unit[0].siblingAtColumn(0).data(role)
        if value is not None and value != "":
            return value
    return None


def row_ids(units: list[list[QModelIndex]]) -> list[str]:
    return [str(value) for value in (_role(unit, ID_ROLE) for unit in units) if value is not None]


def _header(index: QModelIndex) -> str:
    title = index.model().headerData(index.column(), Qt.Orientation.Horizontal, _DISPLAY)
    return str(title) if title not in (None, "") else str(index.column() + 1)


def row_json(unit: list[QModelIndex]) -> str:
    """The row's JSON text from the model, else its column headers with its cells' texts."""
    value = _role(unit, JSON_ROLE)
    if isinstance(value, str):
        return value
    return dump_json({_header(index): _cell_text(index) for index in unit})


def _json_text(units: list[list[QModelIndex]]) -> str:
    texts = [row_json(unit) for unit in units]
    if len(texts) == 1:
        return texts[0]
    return dump_json([json.loads(text) for text in texts])


def _request_of(units: list[list[QModelIndex]]) -> str | None:
    if len(units) != 1:
        return None
    value = _role(units[0], REQUEST_ROLE)
    return str(value) if value else None


# -- the actions -----------------------------------------------------------------------------------

def _notice(view: QWidget, text: str) -> None:
    widget: QWidget | None = view
    while widget is not None:
        bar = getattr(widget, "statusBar", None)
        if callable(bar):
            bar().showMessage(text, 4000)
            return
        widget = widget.parentWidget()


def _put(view: QAbstractItemView, text: str, what: str) -> bool:
    if not text:
        return False
    QGuiApplication.clipboard().setText(text)
    _notice(view, what)
    return True


def copy_rows(view: QAbstractItemView) -> bool:
    units = selected_units(view)
    count = len(units)
    what = _tr("Copied {count} rows").format(count=count) if count > 1 else _tr("Copied the row")
    return _put(view, rows_text(units), what)


def copy_ids(view: QAbstractItemView) -> bool:
    ids = row_ids(selected_units(view))
    what = _tr("Copied the id") if len(ids) == 1 else _tr("Copied {count} ids").format(count=len(ids))
    return _put(view, "\n".join(ids), what)


def copy_json(view: QAbstractItemView) -> bool:
    units = selected_units(view)
    return bool(units) and _put(view, _json_text(units), _tr("Copied as JSON"))


def _request_view(view: QWidget) -> Any:
    """The request view of the window the view sits in (a floating dock's too), if any."""
    widget: QWidget | None = view
    while widget is not None:
        found = getattr(widget, "request_view", None)
        if found is not None and callable(getattr(found, "compare_with", None)):
            return found
        widget = widget.parentWidget()
    return None


def _shown_request(request_view: Any) -> str | None:
    detail = getattr(request_view, "detail", None)
    record = getattr(detail, "record", None)
    return getattr(record, "event_id", None)


def item_menu(view: QAbstractItemView, parent: QWidget | None = None) -> QMenu:
    """The context menu of ``view``'s selected rows."""
    menu = QMenu(parent or view)
    units = selected_units(view)
    add: Callable[..., Any] = menu.addAction
    copy = add(_tr("&Copy"), lambda: copy_rows(view))
    copy.setShortcut(QKeySequence(QKeySequence.StandardKey.Copy))
    copy.setEnabled(bool(units))
    ids = row_ids(units)
    if ids:
        add(_tr("Copy &Id") if len(ids) == 1 else _tr("Copy &Ids"), lambda: copy_ids(view))
    add(_tr("Copy as &JSON"), lambda: copy_json(view)).setEnabled(bool(units))
    request = _request_of(units)
    request_view = _request_view(view) if request else None
    if request_view is not None:
        menu.addSeparator()
        shown = _shown_request(request_view)
        action = add(_tr("Compare with the &Shown Request"), lambda: request_view.compare_with(request))
        action.setEnabled(shown is not None and shown != request)
        action.setStatusTip(_tr("Compare this request (left) with the request the request view shows (right)"))
    if view.contextMenuPolicy() == Qt.ContextMenuPolicy.ActionsContextMenu and view.actions():
        menu.addSeparator()
        menu.addActions(view.actions())
    return menu


def show_menu(menu: QMenu, at: QPoint) -> None:
    """Pop the menu up at ``at`` (global coordinates)."""
    menu.popup(at)


def _item_view(obj: QObject) -> QAbstractItemView | None:
    if isinstance(obj, QAbstractItemView):
        return obj
    parent = obj.parent()
    if isinstance(parent, QAbstractItemView) and parent.viewport() is obj:
        return parent
    return None


_KEY_PRESS = QEvent.Type.KeyPress
_SHORTCUT_OVERRIDE = QEvent.Type.ShortcutOverride
_CONTEXT_MENU = QEvent.Type.ContextMenu
_MENU_POLICIES = (Qt.ContextMenuPolicy.DefaultContextMenu, Qt.ContextMenuPolicy.ActionsContextMenu)


_WATCHED = "itemActionsWatched"


class ItemActions(QObject):
    """Ctrl+C and the context menu of every item view: an event filter on each view (and its
    viewport) that has had the keyboard focus, or that :meth:`watch` was given."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._menu: QMenu | None = None

    def watch(self, view: QAbstractItemView) -> None:
        """Answer Ctrl+C and the context menu on ``view`` (once, however often called)."""
        if view.property(_WATCHED):
            return
        view.setProperty(_WATCHED, True)
        view.installEventFilter(self)
        view.viewport().installEventFilter(self)

    def focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        view = _item_view(new) if new is not None else None
        if view is not None:
            self.watch(view)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        kind = event.type()
        if kind != _KEY_PRESS and kind != _CONTEXT_MENU and kind != _SHORTCUT_OVERRIDE:
            return False
        if kind == _CONTEXT_MENU:
            view = _item_view(obj)
            if view is None or view.contextMenuPolicy() not in _MENU_POLICIES or view.model() is None:
                return False
            assert isinstance(event, QContextMenuEvent)
            # One menu at a time: the one shown before goes once it is replaced (deleting a menu
            # as it closes deletes it under the event that closes it).
            if self._menu is not None and isValid(self._menu):
                self._menu.deleteLater()
            self._menu = item_menu(view)
            show_menu(self._menu, event.globalPos())
            event.accept()
            return True
        if not isinstance(obj, QAbstractItemView) or obj.model() is None:
            return False
        assert isinstance(event, QKeyEvent)
        if not event.matches(QKeySequence.StandardKey.Copy):
            return False
        if kind == _SHORTCUT_OVERRIDE:
            # The view takes Ctrl+C before any window shortcut on the same key.
            event.accept()
            return True
        copy_rows(obj)
        event.accept()
        return True


def shortcuts() -> list[tuple[str, QKeySequence]]:
    """What the row actions answer, for Help → Keyboard Shortcuts (texts in the UI's language)."""
    return [(_tr("Copy the selected rows of a tree or table"), QKeySequence(QKeySequence.StandardKey.Copy)),
            (_tr("Row actions of a tree or table: copy, copy id, copy as JSON, compare"), QKeySequence(Qt.Key.Key_Menu))]


def install_item_actions(app: QApplication | None = None) -> ItemActions:
    """Install the row actions on ``app`` (the running application); once, however often called."""
    app = app or QApplication.instance()  # type: ignore[assignment]
    found = app.findChild(ItemActions, "itemActions")
    if found is not None:
        return found
    actions = ItemActions(app)
    actions.setObjectName("itemActions")
    app.focusChanged.connect(actions.focus_changed)
    focused = app.focusWidget()
    if focused is not None:
        actions.focus_changed(None, focused)
    return actions
