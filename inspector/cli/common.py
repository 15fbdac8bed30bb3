"""What every subcommand of the core shares: its error type, warnings, opening a store, tables."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from inspector.output import table_lines


class CliError(Exception):
    """Bad input the user can fix (a file, an id, an argument): printed as one line, exit status 2."""


def warn(message: str) -> None:
    sys.stderr.write(f"warning: {message}\n")


def warn_notes(store: Any, already: int = 0) -> int:
    """What the store adapted to (``schema_notes``), once each, after the reads: the notes about
    values of the wrong type are made while reading. ``already``: how many were printed before
    the reads (by a command that warns first, as Covel's script does); returns the count printed."""
    notes = list(store.schema_notes)
    for note in notes[already:]:
        warn(note)
    return len(notes)


def shown(db: str) -> str:
    """The store as a message may name it: a URL without its password (a path as given)."""
    from inspector.store.urls import shown_url

    return shown_url(db)


def open_store_or_fail(db: str):
    """The store ``db`` names, opened read-only; a store that cannot be read is the user's input
    to fix (:class:`CliError`)."""
    from inspector.store import open_store
    from inspector.store.errors import StoreError

    try:
        return open_store(db)
    except StoreError as exc:
        raise CliError(str(exc)) from None


def text_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """Columns padded to their widest cell on screen; None prints as nothing."""
    cells = [[str(h) for h in headers]] + [["" if c is None else str(c) for c in row] for row in rows]
    return "\n".join(table_lines(cells)) + "\n"


def resolve_or_fail(store: Any, kind: str, text: str, db: str) -> str:
    """The one id of ``kind`` (:data:`inspector.ids.KINDS`) that ``text`` is or starts; an unknown
    id or an ambiguous prefix is the user's input to fix (:class:`CliError`, status 2)."""
    from inspector.ids import IdError, resolve_id

    try:
        return resolve_id(store, kind, text, where=shown(db))
    except IdError as exc:
        raise CliError(str(exc)) from None
