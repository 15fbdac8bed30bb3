"""Columns sized to what they show: one rule for every tree and table of the app.

:class:`ColumnFitter` gives each column of a ``QTreeView`` or ``QTableView`` the width of its title
and of the widest value in sight (the rows on screen first, then up to :data:`ROWS_MEASURED` more,
Qt's ``sizeHintForColumn``), never less than a minimum, and at most a share of the view's width so
that one long value cannot push the others out of sight; one column, the stretch column, takes
what the others leave (and, when asked, never less than its own widest value: the navigator's
names). The columns are measured again when the rows change, when a tree row expands, and when
the language, font or style changes; a resize of the view only hands the stretch column its new
room. A column the user drags keeps the width given to it.

A measure asks the view for every role of every cell it reads (Python calls on a Python model),
so it is made once the rows have settled: the timer restarts on each change and fires
``settle_ms`` after the last (a burst of inserts, a batch per turn of the event loop, is one
measure), and not while ``waits_for()`` says the view is still being filled (a search being
applied): then once it is done. A view of many rows can measure the rows in sight alone
(``in_sight``), again when it has been scrolled.

A value wider than its column's share is elided by the view; a cell that can be that long (a
message's text, a long path) should carry its whole text in a tooltip.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import shiboken6
from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QTreeView

__all__ = ["DEFAULT_MINIMUM", "MOST_SHARE", "ROWS_MEASURED", "ColumnFitter", "fit_columns"]

DEFAULT_MINIMUM = 24
"""The least width (px) of a column, whatever it shows."""

MOST_SHARE = 0.45
"""The largest share of the view's width one column (not the stretch column) is given."""

ROWS_MEASURED = 300
"""How many rows a measure reads at most (those in sight first): a long table costs no more."""

# What the header needs beside its title's text: the margins and the sort indicator.
_TITLE_PAD = 6


class ColumnFitter(QObject):
    """Sizes ``view``'s columns to their content; ``stretch`` takes what the others leave.

    ``minimums`` gives some columns a larger least width than ``minimum`` (a bar drawn beside its
    figure, an editor's combo box); ``skip`` lists columns sized elsewhere (they keep their width
    and count towards what the stretch column is left); ``fit_stretch`` keeps the stretch column
    at least as wide as its own widest value; ``gives_way`` lists the columns that are narrowed
    (down to their title or minimum, their text elided and whole in its tooltip) before that
    happens, when the view is too narrow for every column's content; only then does a horizontal
    scroll bar appear.

    ``settle_ms`` is how long the rows must stay unchanged before they are measured again;
    ``waits_for``, when given, holds every measure while it returns true (checked every
    ``settle_ms``); ``in_sight`` measures the rows on screen alone (and again after a scroll)
    instead of up to :data:`ROWS_MEASURED` rows.
    """

    def __init__(self, view: QAbstractItemView, stretch: int, *, minimum: int = DEFAULT_MINIMUM,
                 minimums: Mapping[int, int] | None = None, skip: Iterable[int] = (), fit_stretch: bool = False,
                 gives_way: Iterable[int] = (), most: float = MOST_SHARE, settle_ms: int = 0,
                 waits_for: Callable[[], bool] | None = None, in_sight: bool = False) -> None:
        super().__init__(view)
        self.view = view
        self.stretch = stretch
        self.minimum = minimum
        self.minimums = dict(minimums or {})
        self.skip = set(skip)
        self.fit_stretch = fit_stretch
        self.gives_way = tuple(gives_way)
        self.most = most
        self.settle_ms = settle_ms
        self.waits_for = waits_for
        self.measures = 0  # how many measures were made (what a test counts)
        self.wanted: dict[int, int] = {}  # the last measure: column → width its content asks for
        self.user_sized: set[int] = set()
        self._sizing = False
        header = self.header
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        # 0: Qt's sizeHintForColumn reads the rows in sight alone.
        header.setResizeContentsPrecision(0 if in_sight else ROWS_MEASURED)
        header.sectionResized.connect(self._section_resized)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(settle_ms)
        self._timer.timeout.connect(self._due)
        self._viewport = view.viewport()
        self._viewport.installEventFilter(self)
        view.installEventFilter(self)
        if isinstance(view, QTreeView):
            view.expanded.connect(self.schedule)
        if in_sight:
            view.verticalScrollBar().valueChanged.connect(self.schedule)
        self._model: Any = None
        self._watch_model()
        self.fit()

    @property
    def header(self) -> QHeaderView:
        view = self.view
        return view.header() if isinstance(view, QTreeView) else view.horizontalHeader()  # type: ignore[union-attr]

    def _watch_model(self) -> None:
        model = self.view.model()
        if model is self._model:
            return
        if self._model is not None:
            for signal in self._signals(self._model):
                with contextlib.suppress(RuntimeError, TypeError):  # the old model is gone with its connections
                    signal.disconnect(self.schedule)
        self._model = model
        if model is not None:
            for signal in self._signals(model):
                signal.connect(self.schedule)

    @staticmethod
    def _signals(model: Any) -> list[Any]:
        return [model.modelReset, model.rowsInserted, model.layoutChanged, model.dataChanged,
                model.headerDataChanged, model.columnsInserted]

    def schedule(self, *_args: Any) -> None:
        """Measure again once the rows have settled: ``settle_ms`` after the last change (many
        changes, one measure)."""
        self._timer.start(self.settle_ms)

    @property
    def pending(self) -> bool:
        """A measure is due (the rows changed since the last one)."""
        return self._timer.isActive()

    def _due(self) -> None:
        if self.waits_for is not None and self.waits_for():
            self._timer.start(max(self.settle_ms, 20))  # still being filled: look again later
            return
        self.fit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        kind = event.type()
        if not shiboken6.isValid(self.view):
            return False  # events of a view being destroyed
        if watched is self._viewport and kind == QEvent.Type.Resize:
            self.relayout()
        elif watched is self.view and kind in (QEvent.Type.LanguageChange, QEvent.Type.FontChange,
                                               QEvent.Type.StyleChange, QEvent.Type.Show):
            self._timer.start(0)  # no burst to wait for: measure on the next turn of the loop
        return False

    def _section_resized(self, section: int, _old: int, _new: int) -> None:
        if not self._sizing and section != self.stretch:
            self.user_sized.add(section)

    def _columns(self) -> list[int]:
        header = self.header
        model = self.view.model()
        count = model.columnCount() if model is not None else header.count()
        return [c for c in range(count) if not header.isSectionHidden(c)]

    def title_width(self, column: int) -> int:
        """What the column's title needs in the header."""
        header = self.header
        return max(header.sectionSizeHint(column),
                   header.fontMetrics().horizontalAdvance(str(header.model().headerData(
                       column, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole) or "")) + _TITLE_PAD)

    def content_width(self, column: int) -> int:
        """What the widest value in sight of ``column`` needs (its cell's margins and icon included)."""
        return self.view.sizeHintForColumn(column)

    def fit(self) -> None:
        """Measure every column again and size them."""
        self._timer.stop()
        self._watch_model()
        if self.view.model() is None:
            return
        self.measures += 1
        wanted: dict[int, int] = {}
        for column in self._columns():
            if column in self.skip:
                continue
            least = max(self.minimums.get(column, self.minimum), self.title_width(column))
            if column != self.stretch or self.fit_stretch:
                least = max(least, self.content_width(column))
            wanted[column] = least
        self.wanted = wanted
        self.relayout()

    def relayout(self) -> None:
        """Hand out the view's width from the last measure: each column what it asks (up to its
        share), the stretch column the rest."""
        if not self.wanted:
            return
        header = self.header
        room = self.view.viewport().width()
        cap = int(room * self.most)
        widths: dict[int, int] = {}
        for column, want in self.wanted.items():
            if column == self.stretch or column in self.user_sized:
                continue
            widths[column] = max(min(want, cap), self.title_width(column))
        used = sum(widths.values()) + sum(header.sectionSize(c) for c in self._columns()
                                          if c not in widths and c != self.stretch)
        if self.stretch in self.wanted:
            short = used + self.wanted[self.stretch] - room
            for column in self.gives_way:
                if short <= 0:
                    break
                if column in widths:
                    least = max(self.minimums.get(column, self.minimum), self.title_width(column))
                    take = min(short, max(0, widths[column] - least))
                    widths[column] -= take
                    used -= take
                    short -= take
            widths[self.stretch] = max(self.wanted[self.stretch], room - used)
        self._sizing = True
        try:
            for column, width in widths.items():
                if header.sectionSize(column) != width:
                    header.resizeSection(column, width)
        finally:
            self._sizing = False


def fit_columns(view: QTreeView | QTableView, stretch: int, **options: Any) -> ColumnFitter:
    """Size ``view``'s columns to their content from now on (:class:`ColumnFitter`)."""
    return ColumnFitter(view, stretch, **options)
