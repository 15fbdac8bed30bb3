"""The open order table: the current document, its undo stack, and its file.

Every edit goes through :meth:`OrderDocument.edit`: the engine computes the new document; if it
differs from the current one it is pushed on the undo stack as a :class:`DocumentEdit`, and
``shown`` tells the views which document to show, which row to select and what normalisation
did. An edit that changes nothing (a move the persona pin undoes, a move past the end) is not
an undo step, but its reason is still reported through ``notice``.

Files: the order may be a ``context-order.v1`` JSON file, any text holding one (a model's reply
with a fenced block), or a worker set (``设计.worker集`` JSON) with the order under
``context_order``; a worker set is saved back as the worker set with the order merged in
(``mergeContextOrderIntoWorkerSetJson``), anything else as the serialised order. Saving is
atomic and keeps the previous file as ``FILE.bak``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtGui import QUndoStack

from inspector.files import OutputPathError, check_output_path, write_atomic
from inspector.writing_agent.edits import EditResult
from inspector.writing_agent.order import (
    Change,
    ContextOrder,
    NoDocumentError,
    merge_into_worker_set_json,
    normalise,
    read_order_source,
    serialise,
)

from .commands import DocumentEdit, Focus

__all__ = ["OrderDocument", "OrderFileError", "read_order_file", "save_with_backup"]


def _tr(text: str) -> str:
    return QCoreApplication.translate("OrderDocument", text)


class OrderFileError(ValueError):
    """An order file that cannot be read or written; the message names the file."""


def read_order_file(path: str | os.PathLike[str]) -> tuple[ContextOrder, str | None, list[Change]]:
    """(normalised document, the worker-set JSON it sits in or None, what normalisation changed)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise OrderFileError(_tr("Cannot read {path}: {reason}").format(path=path, reason=exc.strerror)) from None
    except UnicodeDecodeError:
        raise OrderFileError(_tr("{path} is not UTF-8 text").format(path=path)) from None
    try:
        document, container = read_order_source(text)
    except NoDocumentError as exc:
        raise OrderFileError(f"{path}: {exc}") from None
    normal = normalise(document)
    return normal.document, container, normal.changes


def save_with_backup(path: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` atomically, keeping the file it replaces as ``FILE.bak``."""
    return write_atomic(path, text, keep_backup=True)


class OrderDocument(QObject):
    """Signals: ``shown(document, focus, changes)`` after every edit, undo and redo (focus: the
    :class:`Focus` to select, or None); ``notice(changes)`` for an edit that changed nothing;
    ``pathChanged(str)``. ``undo_stack.cleanChanged`` drives the dirty marker."""

    shown = Signal(object, object, object)
    notice = Signal(object)
    pathChanged = Signal(str)

    def __init__(self, document: ContextOrder, path: Path | None = None, container: str | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = normalise(document).document
        self.path = path
        # The worker-set JSON the order was read from; saving merges the order back into it.
        self.container = container
        self.undo_stack = QUndoStack(self)

    # --- editing -------------------------------------------------------------------------------

    def edit(self, text: str, fn: Callable[[ContextOrder], EditResult], *, focus_before: Focus | None = None,
             focus_after: Focus | Callable[[EditResult], Focus | None] | None = None) -> EditResult:
        """Apply ``fn`` (an engine edit bound to its arguments) to the current document.
        ``focus_after`` may be computed from the result (where a moved row landed).
        Raises ``OrderEditError`` with the engine's message when the edit is rejected."""
        result = fn(self.document)
        if result.document == self.document:
            self.notice.emit(list(result.changes))
        else:
            focus = focus_after(result) if callable(focus_after) else focus_after
            self.undo_stack.push(DocumentEdit(self._show, text, self.document, result.document, list(result.changes),
                                              focus_before, focus))
        return result

    def _show(self, document: ContextOrder, focus: Focus | None, changes: list[Change]) -> None:
        self.document = document
        self.shown.emit(document, focus, changes)

    def replace_all(self, document: ContextOrder, path: Path | None, container: str | None) -> None:
        """Start over with another file's document: a fresh undo history, clean."""
        self.undo_stack.clear()
        self.document = normalise(document).document
        self.container = container
        self.path = path
        self.undo_stack.setClean()
        self.pathChanged.emit(str(path) if path else "")
        self.shown.emit(self.document, None, [])

    # --- files ---------------------------------------------------------------------------------

    def text_to_save(self) -> str:
        if self.container is not None:
            return merge_into_worker_set_json(self.container, self.document) + "\n"
        return serialise(self.document) + "\n"

    def save(self, path: Path | None = None, *, keep_apart: Iterable[str | os.PathLike[str] | None] = ()) -> Path:
        """Write the document (to ``path``, else its own file); raises ``OrderFileError``.

        Refused before anything is written: a folder, a SQLite database, and any of ``keep_apart``
        (the other files the editor has open, such as the blackboard) or a file SQLite keeps
        beside one. The order's own file may be saved over; its old text is kept as ``FILE.bak``."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise OrderFileError(_tr("The order has no file yet: use Save As"))
        try:
            check_output_path(target, keep_apart)
        except OutputPathError as exc:
            raise OrderFileError(str(exc)) from None
        text = self.text_to_save()
        try:
            save_with_backup(target, text)
        except OSError as exc:
            raise OrderFileError(_tr("Cannot write {path}: {reason}").format(
                path=target, reason=exc.strerror or str(exc))) from None
        if self.container is not None:
            self.container = text
        if target != self.path:
            self.path = target
            self.pathChanged.emit(str(target))
        self.undo_stack.setClean()
        return target
