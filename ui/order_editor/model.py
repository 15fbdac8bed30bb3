"""The inserts of one slot as a table model with move-only drag and drop.

Like napari's list model, the view never rearranges rows itself: a drag exports the source row
under a private MIME type, and ``dropMimeData`` accepts only a move of that type within the same
slot and hands it to the :class:`OrderDocument` (which runs the engine's moves and pushes an undo
step). The rows follow the document when it is shown again. Cell edits (projection, ref, label,
note) go the same way through ``setData``.

Besides the document, each row shows what the last assembly made of it: its bag (before the
history, the history itself, after it, the turn, post-turn, or nothing) and its tokens.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QCoreApplication, QMimeData, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QGuiApplication
from PySide6.QtWidgets import QApplication, QComboBox, QStyle, QStyledItemDelegate, QWidget

from inspector.writing_agent.assembly import AssemblyResult
from inspector.writing_agent.edits import (
    EditResult, add_insert, drop_landing, landed_row, move_to, remove_insert, set_insert_text, set_projection,
)
from inspector.writing_agent.order import ContextOrder, Insert, OrderEditError, Slot, history_insert_index
from inspector.writing_agent.segments import ref_reads_something
from inspector.writing_agent.vocabulary import PROJECTIONS, is_persona_ref
from ui.theme import is_dark

from .commands import Focus, error_text
from .document import OrderDocument

__all__ = ["InsertsModel", "ProjectionDelegate", "MIME_TYPE", "COLUMNS", "BAG_LABELS", "projection_label"]

MIME_TYPE = "application/x-prompt-inspector-order-rows"

COL_ORDER, COL_REF, COL_PROJECTION, COL_LABEL, COL_NOTE, COL_BAG, COL_TOKENS = range(7)
COLUMNS = ("order", "ref", "projection", "label", "note", "bag", "tokens")
_TEXT_COLUMNS = {COL_REF: "ref", COL_LABEL: "label", COL_NOTE: "note"}

HISTORY_TINT = (QColor("#fff1c7"), QColor("#4a3f1c"))  # (light, dark): the history row
PERSONA_TINT = (QColor("#eef1f6"), QColor("#2f333a"))  # the pinned persona row


def _tr(text: str) -> str:
    return QCoreApplication.translate("OrderModel", text)


def projection_label(projection: str) -> str:
    return {"fixed": _tr("fixed"), "full": _tr("full"), "summary": _tr("summary"),
            "fields": _tr("fields")}.get(projection, projection)


def bag_labels() -> dict[str | None, str]:
    return {"before": _tr("before history"), "history": _tr("history"), "after": _tr("after history"),
            "turn": _tr("turn"), "postTurn": _tr("post-turn"), None: _tr("(empty)")}


BAG_LABELS = bag_labels


class InsertsModel(QAbstractTableModel):
    """Rows = the inserts of slot ``slot_ref`` in ``owner.document``.

    ``set_document`` refreshes the rows (same count: in place, so the view keeps its editors;
    otherwise a reset); ``set_assembly`` adds each row's bag and tokens; ``set_known_tags`` the
    blackboard's tags, so a ref nothing on the blackboard matches is flagged.
    """

    def __init__(self, owner: OrderDocument, parent: Any = None) -> None:
        super().__init__(parent)
        self.owner = owner
        self.slot_ref = ""
        self._inserts: list = []
        self._history_row: int | None = None
        self._bags: dict[int, tuple[str | None, int]] = {}
        self._known: frozenset[str] = frozenset()
        self._known_refs: dict[str, bool] = {}
        self._display: dict[int, tuple[str, ...]] = {}
        # Where the last edit through this model failed, for the window's message bar.
        self.last_error = ""
        owner.shown.connect(lambda document, _focus, _changes: self.set_document(document))

    # --- content -------------------------------------------------------------------------------

    @property
    def slot(self) -> Slot | None:
        return self.owner.document.slot(self.slot_ref) if self.slot_ref else None

    def set_slot(self, slot_ref: str) -> None:
        self.beginResetModel()
        self.slot_ref = slot_ref
        self._bags = {}
        self._load()
        self.endResetModel()

    def _load(self) -> None:
        slot = self.slot
        self._inserts = list(slot.inserts) if slot is not None else []
        self._display.clear()
        self._history_row = history_insert_index(slot) if slot is not None else None

    def set_document(self, _document: ContextOrder | None = None) -> None:
        old = len(self._inserts)
        slot = self.slot
        if slot is not None and len(slot.inserts) == old:
            self._load()
            if old:
                self.dataChanged.emit(self.index(0, 0), self.index(old - 1, len(COLUMNS) - 1))
        else:
            self.beginResetModel()
            self._load()
            self.endResetModel()

    def set_assembly(self, result: AssemblyResult | None) -> None:
        bags: dict[int, tuple[str | None, int]] = {}
        if result is not None:
            for segment in result.segments:
                if segment.insert_index is not None:
                    bags[segment.insert_index] = (segment.bag, segment.tokens)
        if bags == self._bags:
            return
        self._bags = bags
        self._display.clear()
        if self._inserts:
            self.dataChanged.emit(self.index(0, COL_BAG), self.index(len(self._inserts) - 1, COL_TOKENS))

    def set_known_tags(self, tags: Sequence[str]) -> None:
        self._known = frozenset(tags)
        self._known_refs.clear()
        if self._inserts:
            self.dataChanged.emit(self.index(0, COL_REF), self.index(len(self._inserts) - 1, COL_REF))

    @property
    def history_row(self) -> int | None:
        return self._history_row

    def ref_known(self, ref: str) -> bool:
        """Whether the ref can send anything with the blackboard's tags (the engine decides;
        the answer is kept per ref because a view asks on every paint)."""
        known = self._known_refs.get(ref)
        if known is None:
            known = self._known_refs[ref] = ref_reads_something(ref, self._known)
        return known

    # --- Qt model ------------------------------------------------------------------------------

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008,N802
        return 0 if parent.isValid() else len(self._inserts)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008,N802
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if orientation == Qt.Orientation.Horizontal:
            if role == Qt.ItemDataRole.DisplayRole:
                return (_tr("#"), _tr("Ref"), _tr("Projection"), _tr("Label"), _tr("Note"), _tr("Bag"),
                        _tr("Tokens"))[section]
            if role == Qt.ItemDataRole.ToolTipRole:
                return (_tr("Order: the position in the slot (0 = sent first)"),
                        _tr("The blackboard tag read, worker.persona (the slot's persona text) or 对话.历史 "
                            "(the dialogue history)"),
                        _tr("fixed: verbatim (history: a placeholder) · full: unchanged · summary: a fragment's "
                            "brief or the first 800 characters · fields: a fragment's brief and field names"),
                        _tr("Heading written before the text (default: ## ref（note）)"),
                        _tr("Free note, shown in the default heading"),
                        _tr("Where the last assembly put this row's text"),
                        _tr("Exact tokens of this row's text in the last assembly"))[section]
        return None

    def flags(self, index: QModelIndex | QPersistentModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            # Drops land between rows (or below the last), never on a row.
            return Qt.ItemFlag.ItemIsDropEnabled
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsDragEnabled
        if index.column() in _TEXT_COLUMNS or index.column() == COL_PROJECTION:
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    _DISPLAY = Qt.ItemDataRole.DisplayRole
    _EDIT = Qt.ItemDataRole.EditRole
    _ALIGN_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

    def _row_display(self, row: int) -> tuple[str, ...]:
        """The row's seven cell texts, computed once per change: a view asks for every role of
        every cell on each paint, and Python calls are what that costs."""
        cached = self._display.get(row)
        if cached is None:
            insert = self._inserts[row]
            bag, tokens = self._bags.get(row, (None, None))
            cached = (str(insert.order), insert.ref, projection_label(insert.projection), insert.label, insert.note,
                      bag_labels()[bag] if row in self._bags else "", f"{tokens:,}" if tokens is not None else "")
            self._display[row] = cached
        return cached

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row, col = index.row(), index.column()
        if not 0 <= row < len(self._inserts):
            return None
        if role == self._DISPLAY:
            return self._row_display(row)[col]
        if role == self._EDIT:
            return self._inserts[row].projection if col == COL_PROJECTION else self._row_display(row)[col]
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return self._ALIGN_RIGHT if col in (COL_ORDER, COL_TOKENS) else None
        is_history = row == self._history_row
        if role == Qt.ItemDataRole.BackgroundRole:
            if is_history:
                return QBrush(HISTORY_TINT[is_dark(QGuiApplication.palette())])
            if is_persona_ref(self._inserts[row].ref):
                return QBrush(PERSONA_TINT[is_dark(QGuiApplication.palette())])
            return None
        if role == Qt.ItemDataRole.FontRole:
            if not is_history:
                return None
            font = QFont(QGuiApplication.font())
            font.setBold(True)
            return font
        insert = self._inserts[row]
        if role == Qt.ItemDataRole.DecorationRole:
            if col == COL_REF and not self.ref_known(insert.ref):
                return QApplication.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning)
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            if col in (COL_LABEL, COL_NOTE) and self._row_display(row)[col]:
                # A label or note wider than its column is elided: the whole text on hover.
                return self._row_display(row)[col]
            if col == COL_REF and not self.ref_known(insert.ref):
                return _tr("No blackboard tag matches {ref}: this row sends nothing").format(ref=insert.ref)
            if is_history:
                return _tr("The dialogue history. Rows above it are sent before the history and stay in the "
                           "cached prefix; rows below it come after the history and may change every turn.")
            if is_persona_ref(insert.ref):
                return _tr("The slot's persona, pinned first: normalisation moves it back to the top.")
            return None
        return None

    def setData(self, index: QModelIndex | QPersistentModelIndex, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        row, col = index.row(), index.column()
        focus = Focus(self.slot_ref, row)
        try:
            if col == COL_PROJECTION:
                if value == self._inserts[row].projection:
                    return False
                self.owner.edit(_tr("Set projection of {ref} to {projection}").format(
                    ref=self._inserts[row].ref, projection=value),
                    lambda doc: set_projection(doc, self.slot_ref, row, value),
                    focus_before=focus, focus_after=focus)
                return True
            field_name = _TEXT_COLUMNS.get(col)
            if field_name is None:
                return False
            text = str(value)
            if text == getattr(self._inserts[row], field_name):
                return False
            names = {"ref": _tr("Change ref of row {row}"), "label": _tr("Change label of row {row}"),
                     "note": _tr("Change note of row {row}")}
            self.owner.edit(names[field_name].format(row=row),
                            lambda doc: set_insert_text(doc, self.slot_ref, row, field_name, text),
                            focus_before=focus, focus_after=focus)
            return True
        except OrderEditError as exc:
            self._fail(error_text(exc))
            return False

    def _fail(self, message: str) -> None:
        self.last_error = message
        self.owner.notice.emit([message])

    # --- move-only drag and drop -----------------------------------------------------------------

    def supportedDropActions(self) -> Qt.DropAction:  # noqa: N802
        return Qt.DropAction.MoveAction

    def supportedDragActions(self) -> Qt.DropAction:  # noqa: N802
        return Qt.DropAction.MoveAction

    def mimeTypes(self) -> list[str]:  # noqa: N802
        return [MIME_TYPE, "text/plain"]

    def mimeData(self, indexes: Sequence[QModelIndex]) -> QMimeData:  # noqa: N802
        rows = sorted({i.row() for i in indexes if i.isValid()})
        mime = QMimeData()
        mime.setData(MIME_TYPE, json.dumps({"slot": self.slot_ref, "rows": rows, "owner": id(self.owner)}).encode())
        mime.setText("\n".join(self._inserts[r].ref for r in rows))
        return mime

    def _payload(self, mime: QMimeData) -> dict | None:
        if not mime.hasFormat(MIME_TYPE):
            return None
        try:
            payload = json.loads(bytes(mime.data(MIME_TYPE).data()).decode())
        except ValueError:
            return None
        if not isinstance(payload, dict) or payload.get("owner") != id(self.owner) \
                or payload.get("slot") != self.slot_ref or not isinstance(payload.get("rows"), list) \
                or len(payload["rows"]) != 1:
            return None
        return payload

    def canDropMimeData(self, mime: QMimeData, action: Qt.DropAction, row: int, column: int,  # noqa: N802
                        parent: QModelIndex | QPersistentModelIndex) -> bool:
        return action == Qt.DropAction.MoveAction and self._payload(mime) is not None

    def dropMimeData(self, mime: QMimeData, action: Qt.DropAction, row: int, column: int,  # noqa: N802
                     parent: QModelIndex | QPersistentModelIndex) -> bool:
        if not self.canDropMimeData(mime, action, row, column, parent):
            return False
        source = self._payload(mime)["rows"][0]
        if parent.isValid():
            destination = parent.row()
        else:
            destination = len(self._inserts) if row < 0 else row
        return self.move_row(source, destination)

    # --- edits the window's actions call ---------------------------------------------------------

    def move_row(self, source: int, destination: int) -> bool:
        """Move ``source`` to land before the row now at ``destination``; True if handled."""
        landing = drop_landing(source, destination)
        if landing == source:
            return False
        moved = self._inserts[source]
        try:
            self.owner.edit(
                _tr("Move {ref}").format(ref=moved.ref),
                lambda doc: move_to(doc, self.slot_ref, source, destination),
                focus_before=Focus(self.slot_ref, source),
                focus_after=lambda result: self.landed(result, moved, landing))
        except OrderEditError as exc:
            self._fail(error_text(exc))
            return False
        return True

    def landed(self, result: EditResult, insert: Insert, near: int) -> Focus:
        """The row to select after an edit: where ``insert`` landed (the engine finds it)."""
        return Focus(self.slot_ref, landed_row(result.document, self.slot_ref, insert, near))

    def add(self, index: int, ref: str, projection: str) -> bool:
        added = Insert(ref=ref.strip(), projection=projection)
        try:
            self.owner.edit(_tr("Add {ref}").format(ref=ref.strip()),
                            lambda doc: add_insert(doc, self.slot_ref, index, ref, projection),
                            focus_before=Focus(self.slot_ref, index - 1 if index else 0),
                            focus_after=lambda result: self.landed(result, added, index))
        except OrderEditError as exc:
            self._fail(error_text(exc))
            return False
        return True

    def remove(self, row: int) -> bool:
        try:
            self.owner.edit(_tr("Remove {ref}").format(ref=self._inserts[row].ref),
                            lambda doc: remove_insert(doc, self.slot_ref, row),
                            focus_before=Focus(self.slot_ref, row),
                            focus_after=Focus(self.slot_ref, max(0, min(row, len(self._inserts) - 2))))
        except OrderEditError as exc:
            self._fail(error_text(exc))
            return False
        return True

    def insert_at(self, row: int):
        return self._inserts[row] if 0 <= row < len(self._inserts) else None


class ProjectionDelegate(QStyledItemDelegate):
    """A combo of the four projections; choosing one commits at once."""

    def createEditor(self, parent: QWidget, option: Any, index: QModelIndex) -> QWidget:  # noqa: N802
        combo = QComboBox(parent)
        combo.setFrame(False)
        for projection in PROJECTIONS:
            combo.addItem(projection_label(projection), projection)
        combo.setToolTip(index.model().headerData(COL_PROJECTION, Qt.Orientation.Horizontal,
                                                  Qt.ItemDataRole.ToolTipRole))
        combo.activated.connect(lambda _i, c=combo: self.commitData.emit(c))
        return combo

    def setEditorData(self, editor: QWidget, index: QModelIndex) -> None:  # noqa: N802
        value = index.data(Qt.ItemDataRole.EditRole)
        position = editor.findData(value)
        if position >= 0 and position != editor.currentIndex():
            editor.setCurrentIndex(position)

    def setModelData(self, editor: QWidget, model: Any, index: QModelIndex) -> None:  # noqa: N802
        model.setData(index, editor.currentData(), Qt.ItemDataRole.EditRole)
