"""The order editor's edits: each one computes a new document through the engine and becomes
one entry of the undo stack.

The writing-agent engine (:mod:`inspector.writing_agent.order`) owns what an edit means: ``move``
(±1), ``set_projection``, ``set_anchor`` and ``replace`` are its functions, and every other edit
here (a drag over several rows, adding or removing a row, a new ref, note or label, a play-slot
toggle, the brief) changes the plain document and hands it to the engine's normalisation, so the
persona stays pinned, the history stays single and canonical, and the reasons for anything the
user did not ask for come back as the engine's ``Change`` messages.

An undo entry keeps the document before and after (documents are small), so undo and redo never
re-run an edit whose outcome could differ.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QUndoCommand

from inspector.writing_agent.order import (
    Change,
    ContextOrder,
    EditResult,
    Insert,
    OrderEditError,
    _finish,
    _target,
    find_slot,
    move,
    normalise,
    parse_play_slots,
)
from inspector.writing_agent.vocabulary import PLAY_SLOT_BY_KEY

__all__ = [
    "Focus",
    "DocumentEdit",
    "move_to",
    "add_insert",
    "remove_insert",
    "set_insert_text",
    "set_play_slot",
    "set_brief",
    "TEXT_FIELDS",
]

# The insert fields a user types: the ref (a blackboard tag), the label and the note.
TEXT_FIELDS = ("ref", "label", "note")


def _tr(text: str) -> str:
    return QCoreApplication.translate("OrderCommands", text)


@dataclass(frozen=True, slots=True)
class Focus:
    """The row to select once an edit (or its undo) is shown: slot ref and insert index."""

    slot_ref: str
    row: int | None


# --- edits the engine has no single function for -----------------------------------------------

def move_to(document: ContextOrder, slot_ref: str, source: int, destination: int) -> EditResult:
    """Move insert ``source`` so it lands before the row that is now at ``destination``
    (``len`` = to the end), as a drag-and-drop does: a chain of the engine's ±1 moves, so each
    step is normalised exactly as the editing API would normalise it (a step that would move an
    item above the persona is undone, and says so)."""
    working, slot, source = _target(document, slot_ref, source)
    count = len(slot.inserts)
    if not (isinstance(destination, int) and 0 <= destination <= count):
        raise OrderEditError(_tr("drop position {dest} is outside 0..{count}").format(dest=destination, count=count))
    final = destination - 1 if destination > source else destination
    changes: list[Change] = []
    index = source
    step = 1 if final > source else -1
    while index != final:
        result = move(working, slot.ref, index, step)
        working = result.document
        for change in result.changes:
            if change not in changes:
                changes.append(change)
        if any(c.kind in ("move-undone", "move-ignored") for c in result.changes):
            break
        index += step
    return EditResult(working, changes)


def add_insert(document: ContextOrder, slot_ref: str, index: int, ref: str, projection: str = "full",
               note: str = "", label: str = "") -> EditResult:
    """A new insert at ``index`` (``len``: at the end) of the slot, then normalised."""
    ref = ref.strip()
    if not ref:
        raise OrderEditError(_tr("an insert needs a ref (a blackboard tag, worker.persona or 对话.历史)"))
    working = normalise(document).document
    slot = find_slot(working, slot_ref)
    if slot is None:
        # The engine's message for an unknown slot, from the engine itself.
        _target(working, slot_ref, 0)
    index = max(0, min(index, len(slot.inserts)))
    slot.inserts.insert(index, Insert(ref=ref, projection=projection, note=note, label=label))
    return _finish(working)


def remove_insert(document: ContextOrder, slot_ref: str, index: int) -> EditResult:
    working, slot, index = _target(document, slot_ref, index)
    del slot.inserts[index]
    return _finish(working)


def set_insert_text(document: ContextOrder, slot_ref: str, index: int, field_name: str, value: str) -> EditResult:
    """Change an insert's ref, label or note. A ref is trimmed and may not be empty (the
    engine's parser drops an insert without one); labels and notes are kept as typed."""
    if field_name not in TEXT_FIELDS:
        raise ValueError(f"not an editable text field: {field_name!r}")
    working, slot, index = _target(document, slot_ref, index)
    if field_name == "ref":
        value = value.strip()
        if not value:
            raise OrderEditError(_tr("a ref cannot be empty; remove the insert instead"))
    setattr(slot.inserts[index], field_name, value)
    return _finish(working)


def set_play_slot(document: ContextOrder, key: str, enabled: bool) -> EditResult:
    """Switch a play slot on or off. A document without ``play_slots`` starts from the engine's
    defaults (``parsePlaySlots`` of an empty object), so the other slots keep their meaning."""
    if key not in PLAY_SLOT_BY_KEY:
        raise ValueError(f"not a play slot: {key!r}")
    working = normalise(document).document
    slots = copy.deepcopy(working.play_slots) if working.play_slots is not None else parse_play_slots({})
    slots[key] = bool(enabled)
    working.play_slots = slots
    return _finish(working)


def set_brief(document: ContextOrder, brief: str) -> EditResult:
    """The document's ``brief``; an empty text removes it (it is then not written)."""
    working = normalise(document).document
    working.brief = brief if brief.strip() else None
    return _finish(working)


# --- the undo entry ----------------------------------------------------------------------------

@dataclass(slots=True)
class _Snapshot:
    document: ContextOrder
    focus: Focus | None
    changes: list[Change] = field(default_factory=list)


# How an edit puts a state on screen (the document's ``_show``): the document, the row to select,
# and the changes to announce. A callable, so this module needs nothing of the document's.
ShowState = Callable[[ContextOrder, Focus | None, list[Change]], None]


class DocumentEdit(QUndoCommand):
    """One edit: the document before and after it, and which row to select on each side."""

    def __init__(self, show: ShowState, text: str, before: ContextOrder, after: ContextOrder,
                 changes: list[Change], focus_before: Focus | None, focus_after: Focus | None) -> None:
        super().__init__(text)
        self._show = show
        self._before = _Snapshot(before, focus_before)
        self._after = _Snapshot(after, focus_after, list(changes))
        self._first = True

    @property
    def changes(self) -> list[Change]:
        return self._after.changes

    def redo(self) -> None:
        # The changes are news only the first time; a redo shows the state without repeating them.
        self._show(self._after.document, self._after.focus, self._after.changes if self._first else [])
        self._first = False

    def undo(self) -> None:
        self._show(self._before.document, self._before.focus, [])


EditFunction = Callable[[ContextOrder], EditResult]
