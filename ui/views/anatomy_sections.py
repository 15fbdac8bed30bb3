"""The request view's three anatomy trees (segment stack, turn context, history bags): a titled
tree each, and the splitter sizes that give each tree the rows it needs.

On a short page (the stepper's embedded view at 1280x720 has about 180 px for the trees and the
text) three trees would show their column headers and no rows; there the trees become an
accordion: one tree open, the others their title line, a click on a title opens that tree."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QLabel, QSizePolicy, QSplitter, QTreeView, QVBoxLayout, QWidget

from inspector.views import DetailNode

from ui.models.anatomy_tree import COL_ESTIMATE, COL_EXACT, COL_LABEL, COL_RECOGNISED, COL_ROLE, COL_SHARE, \
    AnatomyTreeModel, ShareBarDelegate


# Room a header section needs beside its title (margins, the sort indicator).
HEADER_PADDING = 18
# On a short page: the least the text pane and the open tree get, in pixels.
TEXT_SHARE_MIN = 64
TREE_OPEN_MIN = 60


# Below this height of the anatomy page, the trees are an accordion (one open).
SHORT_PAGE = 360


class _Title(QLabel):
    clicked = Signal()

    def mousePressEvent(self, e) -> None:  # noqa: N802 - Qt override
        self.clicked.emit()
        super().mousePressEvent(e)


class AnatomySection(QWidget):
    """A titled anatomy tree; ``titleClicked`` when its title is clicked (the accordion)."""

    titleClicked = Signal()

    def __init__(self, title: str, parent: QWidget) -> None:
        super().__init__(parent)
        self.title = _Title(title, self)
        self.title.clicked.connect(self.titleClicked)
        self._summary = title
        self.collapsed = False
        self.title.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        font = QFont(self.title.font())
        font.setBold(True)
        self.title.setFont(font)
        self.model = AnatomyTreeModel(self)
        self.tree = QTreeView(self)
        self.tree.setModel(self.model)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.tree.setItemDelegateForColumn(COL_SHARE, ShareBarDelegate(self.tree))
        self.tree.setIndentation(14)
        self.tree.setMinimumHeight(24)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(COL_LABEL, QHeaderView.ResizeMode.Stretch)
        metrics = header.fontMetrics()
        for col, width in ((COL_ROLE, 64), (COL_RECOGNISED, 86), (COL_EXACT, 64), (COL_ESTIMATE, 64),
                           (COL_SHARE, 130)):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            # Never narrower than its title (in any language) and the sort/padding room.
            title = str(self.model.headerData(col, Qt.Orientation.Horizontal) or "")
            self.tree.setColumnWidth(col, max(width, metrics.horizontalAdvance(title) + HEADER_PADDING))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.title)
        layout.addWidget(self.tree, 1)

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == event.Type.LanguageChange:
            self.model.retranslate()  # its titles and texts are translated once, kept

    def set_roots(self, roots: list[DetailNode], exact_counted: bool, summary: str) -> None:
        self.model.set_roots(roots, exact_counted=exact_counted)
        self.tree.expandAll()
        self._summary = summary
        self._show_title()

    def set_collapsed(self, collapsed: bool) -> None:
        """Show the title line alone (the accordion's closed state) or the tree too."""
        if collapsed == self.collapsed:
            return
        self.collapsed = collapsed
        self.tree.setVisible(not collapsed)
        self._show_title()

    def set_accordion(self, on: bool) -> None:
        """Titles show an open/closed arrow (and open their tree when clicked) while ``on``."""
        self._accordion = on
        if not on:
            self.set_collapsed(False)
        self._show_title()

    _accordion = False

    def _show_title(self) -> None:
        arrow = ("▸ " if self.collapsed else "▾ ") if self._accordion else ""
        self.title.setText(arrow + self._summary)
        self.title.setCursor(Qt.CursorShape.PointingHandCursor if self._accordion else Qt.CursorShape.ArrowCursor)

    def title_height(self) -> int:
        return self.title.sizeHint().height() + 4


def visible_rows(model: AnatomyTreeModel, tree: QTreeView) -> int:
    count = 0
    stack = [QModelIndex()]
    while stack:
        parent = stack.pop()
        for row in range(model.rowCount(parent)):
            idx = model.index(row, 0, parent)
            count += 1
            if tree.isExpanded(idx):
                stack.append(idx)
    return count


def fit_sections(outer_splitter: QSplitter, trees_splitter: QSplitter, sections: tuple[AnatomySection, ...],
                 *, keep_outer: bool = False, open_index: int = 0) -> None:
    """Give each tree the height its rows need (within what is there), so a two-row history
    does not take as much room as a forty-row segment stack. ``keep_outer``: the user chose the
    split between the trees and the text; only the trees are fitted within their share. On a
    page shorter than :data:`SHORT_PAGE` only the tree ``open_index`` is open (the accordion)."""
    outer = sum(outer_splitter.sizes())
    if outer <= 0:
        return
    short = outer < SHORT_PAGE
    for i, section in enumerate(sections):
        section.set_accordion(short)
        section.set_collapsed(short and i != open_index)
    if short:
        # The text keeps a few lines; the open tree takes the rest beside the closed titles.
        text = max(TEXT_SHARE_MIN, round(outer * 0.3))
        total = outer_splitter.sizes()[0] if keep_outer else outer - text
        if not keep_outer:
            outer_splitter.setSizes([total, outer - total])
        closed = [s.title_height() for i, s in enumerate(sections) if i != open_index]
        sizes = [s.title_height() for s in sections]
        sizes[open_index] = max(TREE_OPEN_MIN, total - sum(closed))
        trees_splitter.setSizes(sizes)
        return
    wants = []
    for section in sections:
        rows = visible_rows(section.model, section.tree)
        row_h = max(section.tree.sizeHintForRow(0), section.tree.fontMetrics().height() + 4)
        wants.append(section.title.sizeHint().height() + section.tree.header().sizeHint().height()
                     + rows * row_h + 10)
    need = sum(wants)
    # The text of the selected part is what the user reads; it keeps at least a third.
    total = min(need + 4, round(outer * 0.67))
    if keep_outer:
        total = outer_splitter.sizes()[0]
    else:
        outer_splitter.setSizes([total, outer - total])
    if need <= total:
        spare = total - need
        sizes = [w + (spare if i == 0 else 0) for i, w in enumerate(wants)]
    else:
        floor = 84
        sizes = [max(floor, round(w * total / need)) for w in wants]
    trees_splitter.setSizes(sizes)
