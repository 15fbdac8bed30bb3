"""The order editor's undo entries: each edit, computed by the engine, becomes one step.

What an edit does to a document (a move, a drag, adding or removing a row, a ref, note or label,
a play-slot switch, the brief) is the engine's (:mod:`inspector.writing_agent.edits`); the
reasons for anything the user did not ask for come back as its ``Change`` messages, and a
rejected edit as ``OrderEditError``, whose text :func:`error_text` shows in the user's language.

An undo entry keeps the document before and after (documents are small), so undo and redo never
re-run an edit whose outcome could differ.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QUndoCommand

from inspector.writing_agent.edits import ERROR_DROP_OUTSIDE, ERROR_EMPTY_REF, ERROR_INSERT_WITHOUT_REF, EditResult
from inspector.writing_agent.order import Change, ContextOrder, OrderEditError

__all__ = ["Focus", "DocumentEdit", "EditFunction", "error_text", "translated_messages"]


def _tr(text: str) -> str:
    return QCoreApplication.translate("OrderCommands", text)


def translated_messages() -> dict[str, str]:
    """The editor's own edit messages in the user's language, by the engine's template (the
    spec's messages are shown as the spec words them)."""
    return {
        ERROR_INSERT_WITHOUT_REF: _tr("an insert needs a ref (a blackboard tag, worker.persona or 对话.历史)"),
        ERROR_EMPTY_REF: _tr("a ref cannot be empty; remove the insert instead"),
        ERROR_DROP_OUTSIDE: _tr("drop position {dest} is outside 0..{count}"),
    }


def error_text(error: OrderEditError) -> str:
    """A rejected edit's message as the editor shows it."""
    translated = translated_messages().get(error.template)
    return translated.format(**error.values) if translated is not None else error.message


@dataclass(frozen=True, slots=True)
class Focus:
    """The row to select once an edit (or its undo) is shown: slot ref and insert index."""

    slot_ref: str
    row: int | None


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
