"""A session's turn figures kept between runs, so that listing its turns again reads only the
rows written since.

Listing the turns of a session reads every one of its trace rows' index entries, some of them
more than once (:mod:`inspector.store.turn_spans`): about 0.2 s for a session of a million rows,
more where its turns interleave. The figures of
each turn (:func:`inspector.store.turns._aggregates`) are kept in the user's cache folder, filed
under the store's identity (:func:`inspector.cache_folder.store_identity`) and the session, with
the highest rowid they cover and the session's row count then. On the next listing:

* the session's rows are counted, and those above the kept rowid found, through the
  ``session_id`` index (whose entries are ordered by rowid within a session): milliseconds;
* when the kept count plus the new rows is the count now, nothing was deleted, and only the turns
  that have new rows are read again (through the ``(session_id, turn_id)`` index); trace rows are
  written once (covel-db.md §1), so every other turn's figures still hold;
* otherwise (retention deleted rows, the file was rewritten, another program version or schema)
  the session is read in full and the figures kept afresh.

Everything runs in one read transaction, so the count, the new rows and the figures read agree.
SQLite only (rowids in write order), and only when the figures are read by the database
(``Schema.runtime_id_expr``) from a file with every trace column; figures of a store whose trace
rows hold odd values (:mod:`inspector.store.values`) are not kept, so every listing makes its
notes. The
files are a cache: one that cannot be read or written is ignored.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .. import __version__
from ..cache_folder import beside_database, default_cache_dir, prune, store_identity, touch
from ..files import write_atomic
from .schema import Reader
from .sql import Binds, Connection, SqliteConnection

__all__ = ["FOLDER", "FOLDER_LIMIT_BYTES", "FORMAT", "KeptTurnFigures", "kept_turn_figures"]

FOLDER = "turn-figures"
FORMAT = 1
# A kept file larger than this is not read (a session of 100,000 turns is about 30 MB).
MAX_FILE_BYTES = 64 << 20
# The folder holds at most this much; the least recently used files go first.
FOLDER_LIMIT_BYTES = 128 << 20

Figures = dict[str, dict[str, Any]]


def kept_turn_figures(store: Reader, cache_dir: Path | None = None) -> KeptTurnFigures | None:
    """Where the store's turn figures are kept, or None where they are not (see the module)."""
    schema = store.schema
    if schema.dialect_name != "sqlite" or schema.runtime_id_expr() is None or "trace_events" in schema.tables.filled:
        return None
    path = getattr(store, "path", None)
    if path is None:
        return None
    root = (cache_dir if cache_dir is not None else default_cache_dir()) / FOLDER
    if beside_database(store, root) or beside_database(store, root.parent):
        return None
    try:
        key, _description = store_identity(store)
    except OSError:
        return None
    return KeptTurnFigures(store, root / key)


class KeptTurnFigures:
    """The kept turn figures of one store's sessions (files in ``folder``)."""

    def __init__(self, store: Reader, folder: Path) -> None:
        self.store = store
        self.folder = folder
        t = store.schema.tables
        # Another set of columns reads other figures (a column added, say): kept anew.
        self.schema = [sorted(t.columns.get(name, ())) for name in ("trace_events",)]

    def path_for(self, session_id: str) -> Path:
        return self.folder / (hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()[:32] + ".json")

    def figures(self, conn: Connection, session_id: str,
                compute: Callable[[list[str] | None], Figures]) -> Figures:
        """The figures of every turn of the session: the kept ones, with the turns that gained
        rows read again by ``compute(turn_ids)``; or ``compute(None)`` (the whole session), kept."""
        if not isinstance(session_id, str):
            return compute(None)  # a damaged store's session id (a number, a BLOB): not filed
        if isinstance(conn, SqliteConnection) and not conn.raw.in_transaction:
            conn.raw.execute("BEGIN")  # one snapshot; the pool ends it when the connection returns
        count, top = self._session_rows(conn, session_id)
        kept = self._load(session_id)
        if kept is not None and kept["rowid"] <= top and kept["last"] == _row_id(conn, kept["rowid"]):
            added = conn.all("SELECT DISTINCT turn_id FROM trace_events WHERE session_id = :sid AND rowid > :after",
                             {"sid": session_id, "after": kept["rowid"]})
            new_rows = conn.scalar("SELECT count(*) FROM trace_events WHERE session_id = :sid AND rowid > :after",
                                   {"sid": session_id, "after": kept["rowid"]})
            if kept["rows"] + int(new_rows or 0) == count:
                figures: Figures = kept["turns"]
                touched = [turn for (turn,) in added if isinstance(turn, str)]
                if len(touched) != len(added):  # a turn id that is not text: read it all again
                    return self._fresh(conn, session_id, compute, count, top)
                if not touched:
                    return figures
                figures.update(compute(touched))
                if self._clean():
                    self._save(conn, session_id, figures, count, top)
                return figures
        return self._fresh(conn, session_id, compute, count, top)

    def _fresh(self, conn: Connection, session_id: str, compute: Callable[[list[str] | None], Figures],
               count: int, top: int) -> Figures:
        figures = compute(None)
        if self._clean():
            self._save(conn, session_id, figures, count, top)
        return figures

    def _clean(self) -> bool:
        """Whether no odd value was met in the trace rows: figures read with a note are not kept,
        so that every listing makes its notes."""
        return self.store.schema.values.noted("trace_events") == 0

    @staticmethod
    def _session_rows(conn: Connection, session_id: str) -> tuple[int, int]:
        # Two statements: max(rowid) alone is one step down the index, beside a count it is
        # taken for every row (30 ms of a session of a million rows).
        binds = Binds(sid=session_id).values
        count = conn.scalar("SELECT count(*) FROM trace_events WHERE session_id = :sid", binds)
        top = conn.scalar("SELECT max(rowid) FROM trace_events WHERE session_id = :sid", binds)
        return int(count or 0), int(top or 0)

    def _header(self, session_id: str) -> dict[str, Any]:
        return {"format": FORMAT, "program": __version__, "session": session_id, "schema": self.schema}

    def _load(self, session_id: str) -> dict[str, Any] | None:
        path = self.path_for(session_id)
        try:
            if path.stat().st_size > MAX_FILE_BYTES:
                return None
            doc = json.loads(path.read_bytes())
        except (OSError, ValueError):
            return None
        if not isinstance(doc, dict) or any(doc.get(k) != v for k, v in self._header(session_id).items()):
            return None
        touch(path)
        turns, rowid, rows, last = doc.get("turns"), doc.get("rowid"), doc.get("rows"), doc.get("last")
        if not (isinstance(turns, dict) and type(rowid) is int and type(rows) is int
                and (last is None or isinstance(last, str))):
            return None
        figures: Figures = {}
        for turn_id, info in turns.items():
            if not _valid(info):
                return None
            info["runtimes"] = dict.fromkeys(info["runtimes"])
            info["order_key"] = tuple(info["order_key"])
            figures[turn_id] = info
        return {"turns": figures, "rowid": rowid, "rows": rows, "last": last}

    def _save(self, conn: Connection, session_id: str, figures: Figures, count: int, top: int) -> None:
        # The id of the last row covered: a file written anew with as many rows is told apart.
        doc = {**self._header(session_id), "rowid": top, "rows": count, "last": _row_id(conn, top),
               "turns": {turn: {**info, "runtimes": list(info["runtimes"])} for turn, info in figures.items()}}
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            path = write_atomic(self.path_for(session_id), json.dumps(doc, ensure_ascii=False, separators=(",", ":")))
        except (OSError, ValueError):
            return  # listed again in full next time; the figures themselves are right
        prune(self.folder.parent, FOLDER_LIMIT_BYTES, path, ".json")

    def clear(self) -> int:
        """Remove this store's kept figures; how many files went."""
        removed = 0
        try:
            entries = list(self.folder.iterdir())
        except OSError:
            return 0
        for entry in entries:
            if entry.suffix == ".json":
                try:
                    os.unlink(entry)
                    removed += 1
                except OSError:
                    pass
        return removed


def _row_id(conn: Connection, rowid: int) -> str | None:
    value = conn.scalar("SELECT id FROM trace_events WHERE rowid = :rowid", {"rowid": rowid})
    return value if isinstance(value, str) else None


_TEXT_FIELDS = ("trace_id", "first", "last", "started", "ended")


def _valid(info: Any) -> bool:
    """A kept turn's figures have the fields and types :func:`inspector.store.turns._aggregates`
    gives (a file edited by hand, or truncated, is not trusted)."""
    if not isinstance(info, dict):
        return False
    if any(not (info.get(name) is None or isinstance(info.get(name), str)) for name in _TEXT_FIELDS):
        return False
    if type(info.get("count")) is not int or type(info.get("llm")) is not int:
        return False
    runtimes, key = info.get("runtimes"), info.get("order_key")
    return (isinstance(runtimes, list) and all(isinstance(r, str) for r in runtimes)
            and isinstance(key, list) and len(key) == 2 and isinstance(key[0], str) and type(key[1]) is int)
