"""Help → Keyboard Shortcuts: every shortcut of the window, read from its actions.

Nothing here lists a key by hand: the rows are the ``QAction`` objects of the window and of the
views inside it (the menus' actions, the turn stepper's step keys, the request view's, an open
editor's), each with the shortcuts it has at that moment, grouped by the menu it sits in or the
view it belongs to. Shortcuts that are not actions (the app-wide Ctrl+C and context menu on
trees and tables) come from the module that handles them (:func:`ui.item_actions.shortcuts`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLineEdit,
    QMainWindow,
    QMenu,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ui.item_actions import shortcuts


def _tr(text: str) -> str:
    return QCoreApplication.translate("ShortcutsDialog", text)


@dataclass(frozen=True, slots=True)
class ShortcutRow:
    group: str
    text: str
    keys: str


def plain_text(text: str) -> str:
    """A menu text as a person reads it: mnemonic marks gone ("&&" is a literal "&", and a
    translation's "文件(&F)" is "文件"), no "…"."""
    text = re.sub(r"\s*\(&[^&\s]\)", "", text.replace("&&", "\0"))
    return text.replace("&", "").replace("\0", "&").rstrip("…").rstrip(".").strip()


def key_text(keys: Iterable[QKeySequence]) -> str:
    return ", ".join(k.toString(QKeySequence.SequenceFormat.NativeText) for k in keys if not k.isEmpty())


def _menu_of(action: QAction) -> QMenu | None:
    for owner in action.associatedObjects():
        if isinstance(owner, QMenu):
            return owner
    return None


def _menu_path(menu: QMenu) -> str:
    """"File › Export" for a submenu, "View" for a menu of the bar."""
    names = [plain_text(menu.title())]
    parent = menu.parent()
    while isinstance(parent, QMenu):
        names.append(plain_text(parent.title()))
        parent = parent.parent()
    return " › ".join(reversed([n for n in names if n]))


def _view_name(obj: QObject | None, window: QWidget) -> str:
    """The name of the view an action belongs to: the nearest widget up its parents with a
    window title (a view sets one for this), else the window's own name."""
    while isinstance(obj, QObject) and obj is not window:
        if isinstance(obj, QWidget) and obj.windowTitle() and obj is not window:
            return obj.windowTitle()
        obj = obj.parent()
    return _tr("Window")


def shortcut_rows(window: QWidget, extra: Iterable[tuple[str, str, QKeySequence]] = ()) -> list[ShortcutRow]:
    """Every action of ``window`` (and of the widgets inside it) that has a shortcut, grouped by
    its menu or view, in the order the window holds them; ``extra`` adds (group, text, key) rows
    for shortcuts that are not actions."""
    rows: list[ShortcutRow] = []
    seen: set[tuple[str, str, str]] = set()
    for action in window.findChildren(QAction):
        keys = key_text(action.shortcuts())
        if not keys or action.isSeparator():
            continue
        menu = _menu_of(action)
        group = _menu_path(menu) if menu is not None else ""
        if not group:
            # Not in a named menu (a view's own action, or a button's untitled popup menu).
            group = _view_name(menu if menu is not None else action.parent(), window)
        text = plain_text(action.text()) or plain_text(action.toolTip())
        row = ShortcutRow(group, text, keys)
        key = (row.group, row.text, row.keys)
        if key not in seen:
            seen.add(key)
            rows.append(row)
    for group, text, sequence in extra:
        rows.append(ShortcutRow(group, text, key_text([sequence])))
    # The menus first, in the menu bar's order, then the views in the order they were found.
    order: dict[str, int] = {}
    bar = window.menuBar() if isinstance(window, QMainWindow) else None
    if bar is not None:
        for action in bar.actions():
            if action.menu() is not None:
                order.setdefault(_menu_path(action.menu()), len(order))
    for row in rows:
        order.setdefault(row.group, len(order))
    return sorted(rows, key=lambda r: order[r.group])


def _item_shortcuts() -> list[tuple[str, str, QKeySequence]]:
    """The row actions every tree and table has (ui.item_actions: not QActions of the window)."""
    return [(_tr("Trees and tables"), text, key) for text, key in shortcuts()]


class ShortcutsDialog(QDialog):
    """The table of shortcuts, with a filter; :attr:`rows` is what it lists."""

    def __init__(self, window: QWidget, rows: list[ShortcutRow]) -> None:
        super().__init__(window)
        self.setObjectName("shortcutsDialog")
        self.setWindowTitle(_tr("Keyboard Shortcuts"))
        self.rows = rows
        self.filter = QLineEdit(self)
        self.filter.setPlaceholderText(_tr("Filter by action or key…"))
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._apply_filter)
        self.tree = QTreeWidget(self)
        self.tree.setObjectName("shortcutsTree")
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels([_tr("Action"), _tr("Shortcut")])
        self.tree.setRootIsDecorated(False)
        self.tree.setAlternatingRowColors(True)
        self.tree.setUniformRowHeights(True)
        header = self.tree.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(False)
        groups: dict[str, QTreeWidgetItem] = {}
        for row in rows:
            parent = groups.get(row.group)
            if parent is None:
                parent = QTreeWidgetItem([row.group, ""])
                font = parent.font(0)
                font.setBold(True)
                parent.setFont(0, font)
                parent.setFlags(Qt.ItemFlag.ItemIsEnabled)
                groups[row.group] = parent
                self.tree.addTopLevelItem(parent)
            parent.addChild(QTreeWidgetItem([row.text, row.keys]))
        self.tree.expandAll()
        self.tree.scrollToTop()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.filter)
        layout.addWidget(self.tree, 1)
        layout.addWidget(buttons)
        fm = self.fontMetrics()
        self.resize(max(560, fm.horizontalAdvance("M" * 46)), max(520, fm.height() * 36))

    def _apply_filter(self, text: str) -> None:
        needle = text.strip().casefold()
        for i in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(i)
            visible = 0
            for j in range(group.childCount()):
                child = group.child(j)
                hit = not needle or needle in child.text(0).casefold() or needle in child.text(1).casefold() \
                    or needle in group.text(0).casefold()
                child.setHidden(not hit)
                visible += hit
            group.setHidden(visible == 0)

    def visible_rows(self) -> list[tuple[str, str]]:
        out = []
        for i in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(i)
            out.extend((group.child(j).text(0), group.child(j).text(1)) for j in range(group.childCount())
                       if not group.isHidden() and not group.child(j).isHidden())
        return out


def window_shortcuts(window: Any) -> list[ShortcutRow]:
    """The rows for ``window`` (a :class:`ui.windows.main_window.MainWindow`): its views built
    first where they are built on demand (the stepper, the cache analysis), so their keys are
    listed even before they were first opened."""
    for name in ("turn_view", "cache_view"):
        getattr(window, name, None)  # built on first use; a window without that view has none
    return shortcut_rows(window, _item_shortcuts())


def show_shortcuts(window: QMainWindow) -> ShortcutsDialog:
    dialog = ShortcutsDialog(window, window_shortcuts(window))
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
    dialog.show()
    return dialog
