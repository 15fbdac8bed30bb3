"""The order trace rows are read in: one rule for every query that lists them.

Covel's canonical log order is ``created_at, seq, id`` (covel-db.md §1.3: ``@covel/store``
compares ``id`` byte-wise). Covel's ``scripts/prompt-prefix-report.mjs`` asks SQLite for
``ORDER BY created_at, seq`` only; rows equal on both come back in rowid order (the order they
were written), whichever plan SQLite picks: a table scan feeds its sorter in rowid order, and an
index holds equal keys in rowid order. The rows the prefix report and the analyses built on it
read (:meth:`Store.iter_llm_calling_rows`) follow the script, so ties are broken by rowid on
SQLite. PostgreSQL has no rowid; there ties are broken by ``id`` (byte-wise), deterministic and
what ``@covel/store`` does. A file without ``seq`` is ordered by ``created_at`` and the tiebreak.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["canonical_key", "order_key", "order_keys"]


class _Tables(Protocol):
    def has(self, table: str, column: str | None = None) -> bool: ...
    def col(self, table: str, column: str) -> str: ...
    def sort_key(self, table: str, column: str) -> str: ...


def order_keys(tables: _Tables, dialect: str, table: str, *, middle: str | None = "seq",
               as_script: bool = False) -> list[str]:
    """ORDER BY keys for ``table``: ``created_at``, ``middle`` (``seq``) when the table has it,
    then the tiebreak: ``id``, or with ``as_script`` what Covel's script gets (rowid on SQLite)."""
    keys = [tables.sort_key(table, "created_at")]
    if middle is not None and tables.has(table, middle):
        keys.append(tables.col(table, middle))
    if as_script and dialect == "sqlite":
        keys.append("rowid")
    else:
        keys.append(tables.sort_key(table, "id"))
    return keys


def canonical_key(created_at: str | None, seq: int | None, row_id: str | None) -> tuple[str, int, str]:
    """The canonical order (``created_at, seq, id``) as a Python sort key, for rows read without
    an ORDER BY: equal to the database's order (str code points compare as the UTF-8 bytes do,
    NULL sorts first; a file without ``seq`` orders by ``created_at, id``)."""
    return (created_at or "", -1 if seq is None else seq, row_id or "")


class _Ordered(Protocol):
    created_at: str
    seq: int | None
    id: str


def order_key(row: _Ordered) -> tuple[str, int, str]:
    """:func:`canonical_key` of a trace event (anything with ``created_at``, ``seq``, ``id``)."""
    return canonical_key(row.created_at, row.seq, row.id)
