"""Turns and requests named as a person reads them, in the window's language.

The rule is the core's (:mod:`inspector.ids`: "Turn 4 · narrator/main · step 1", the same names
the command line prints); this module only gives it the translated words, and a way to keep the
full id one click away: :func:`id_link` makes a name a link whose click copies the id
(:func:`copy_id_link`, for a ``QLabel``'s ``linkActivated``), with the id in its tooltip.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import QCoreApplication

from inspector.ids import NameWords, request_name, request_name_of_row, turn_name

__all__ = ["COPY_SCHEME", "copy_id_link", "id_link", "name_words", "request_title", "request_title_of_row",
           "turn_title"]

COPY_SCHEME = "copy-id:"
"""The link target of a name whose click copies its id."""


def _tr(text: str) -> str:
    return QCoreApplication.translate("Names", text)


def name_words() -> NameWords:
    """The words of a name, translated (read each time: the language can change)."""
    return NameWords(turn=_tr("Turn {number}"), turn_without_number=_tr("Turn {id}"), step=_tr("step {number}"),
                     attempt=_tr("attempt {number}"))


def turn_title(number: Any, turn_id: Any = None) -> str:
    """"Turn 4" (:func:`inspector.ids.turn_name`)."""
    return turn_name(number, turn_id, name_words())


def request_title(turn_number: Any, turn_id: Any, runtime_id: Any, step: Any, attempt: Any) -> str:
    """"Turn 4 · narrator/main · step 1" (:func:`inspector.ids.request_name`)."""
    return request_name(turn_number, turn_id, runtime_id, step, attempt, name_words())


def request_title_of_row(row: Mapping[str, Any], numbers: Mapping[str, int] | int | None) -> str:
    """:func:`request_title` of a request row's JSON (``RequestRow.to_json()``, ``RequestDetail.row``);
    ``numbers``: the turn's number, or ``inspector.ids.turn_numbers`` of its session."""
    return request_name_of_row(row, numbers, name_words())


def id_link(name: str, full_id: str | None) -> str:
    """``name`` as rich text that copies ``full_id`` when clicked (the plain name without an id)."""
    if not full_id:
        return html.escape(name)
    return (f'<a href="{html.escape(COPY_SCHEME + full_id, quote=True)}" title="{html.escape(full_id, quote=True)}">'
            f"{html.escape(name)}</a>")


def copy_id_link(link: str) -> str | None:
    """A clicked :func:`id_link`: its id is copied to the clipboard and returned (None for any other
    link)."""
    if not link.startswith(COPY_SCHEME):
        return None
    from PySide6.QtGui import QGuiApplication

    full_id = link[len(COPY_SCHEME):]
    QGuiApplication.clipboard().setText(full_id)
    return full_id
