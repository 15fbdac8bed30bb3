"""A free-text index of every recorded prompt, kept in the user's cache directory.

:func:`inspector.views.search_requests` scans every ``llm.calling`` payload; on a store of a few
gigabytes that takes longer than a search box may. This index answers the same question from an
SQLite FTS5 table with the ``trigram`` tokenizer, which finds any substring of three or more
characters.

Same answers as the scan, by construction: the indexed text of a request is exactly the bytes the
scan looks in (the payload as stored, ASCII letters lowered, nothing else changed), the tokenizer
is case-sensitive (so it folds nothing the scan does not), and the query is the scan's own needles
(``search_text.search_needles``) as FTS5 phrases, which for trigrams means "occurs as a substring". Needles
shorter than three characters and payloads that are not UTF-8 are left to the scan.

Where it lives: ``<cache dir>/search/<key>.sqlite``, the key a hash of the store's identity (for a
file: its real path, device and inode; for PostgreSQL: server, database, schema and user). It is
never written inside or beside the user's database. The file's state (size, modification time and
a hash of its first pages, with those of its ``-wal``) is recorded; when it changes, the rows
appended since (a higher rowid, or ``seq`` on PostgreSQL) are added, and if the last indexed row is
gone or renumbered the index is rebuilt. Rows deleted by Covel's retention are dropped from every
answer by checking the matches against the store.

When to look for appended rows: once per change of the store, not once per search. A file's
state (above) is cheap to read, and an unchanged file is not looked at again. On PostgreSQL,
where a look costs two queries per session, the store's change token
(:meth:`inspector.store.Store.change_token`: the transaction snapshot, the one query following
polls) is taken before each look, and a search that finds it unchanged since the last look asks
the server nothing more: one tiny query instead of hundreds.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inspector.cache_folder import beside_database, file_state, store_identity
from inspector.search.needles import search_needles
from inspector.store import Store

__all__ = ["FORMAT", "INDEX_FROM_ROWS", "MIN_NEEDLE", "SearchIndex", "SearchOutcome",
           "index_for", "worth_indexing"]

FORMAT = "1"
MIN_NEEDLE = 3  # the trigram tokenizer cannot match fewer characters
_COMMIT_BYTES = 8 << 20  # bounds the FTS5 pending-terms memory while building
# Below this many trace rows the scan answers in well under a second and an index is not worth
# its disk space.
INDEX_FROM_ROWS = 200_000


@dataclass(frozen=True, slots=True)
class SearchOutcome:
    """A search's answer and how it was found (``index`` or ``scan``); ``note`` says why the
    scan answered (index being built, needle too short …), None when the index did."""

    matches: set[str]
    via: str
    note: str | None = None


def _indexed_text(raw: Any) -> str | None:
    """The text the scan searches, as the index stores it; None when it is not UTF-8."""
    if raw is None:
        return None
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else bytes(raw)
    try:
        # bytes.lower() lowers ASCII letters only, as the scan does.
        return data.lower().decode("utf-8")
    except UnicodeDecodeError:
        return None


def _phrase(needle: bytes) -> str:
    return '"' + needle.decode("utf-8").replace('"', '""') + '"'


_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE IF NOT EXISTS docs (docid INTEGER PRIMARY KEY, event_id TEXT NOT NULL, session_id TEXT NOT NULL,
                                 source_key INTEGER NOT NULL, unindexed INTEGER NOT NULL DEFAULT 0);
CREATE VIRTUAL TABLE IF NOT EXISTS body USING fts5(text, content='', tokenize='trigram case_sensitive 1');
"""


class SearchIndex:
    """The prompt index of one store. Build it with :meth:`build` (a worker thread; progress
    and cancellation through callbacks), ask it with :meth:`search`. Thread-safe."""

    def __init__(self, store: Store, cache_dir: str | os.PathLike[str]) -> None:
        self.store = store
        self.directory = Path(cache_dir) / "search"
        self.key, self.description = store_identity(store)
        self.path = self.directory / f"{self.key}.sqlite"
        self._lock = threading.Lock()
        self._build_lock = threading.Lock()
        self._building = False
        self._thread: threading.Thread | None = None
        self.last_build_seconds: float | None = None
        # The store's change token when appended rows were last looked for (see the module).
        self._looked_at: Any = None
        self.problem: str | None = self._refuse_reason()

    # ----------------------------------------------------------------- state

    def _refuse_reason(self) -> str | None:
        if self.store.request_key_column() is None:
            return "this store numbers no trace rows in write order (no seq column), so it is searched by scanning"
        if beside_database(self.store, self.directory):
            return "the cache directory is beside the database, where the index may not be written"
        return None

    @property
    def building(self) -> bool:
        return self._building

    def _state(self) -> str:
        if self.store.path is not None:
            return file_state(os.path.realpath(self.store.path))
        return "server"

    def _open(self, path: Path) -> sqlite3.Connection:
        con = sqlite3.connect(path, timeout=30, check_same_thread=False)
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=NORMAL")
        con.executescript(_SCHEMA)
        return con

    def _meta(self, con: sqlite3.Connection) -> dict[str, str]:
        return dict(con.execute("SELECT key, value FROM meta"))

    def ready(self) -> bool:
        """True when a complete index of this store exists (possibly behind by appended rows)."""
        if self.problem is not None or not self.path.exists():
            return False
        try:
            with _closing(sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)) as con:
                meta = dict(con.execute("SELECT key, value FROM meta"))
        except sqlite3.Error:
            return False
        return meta.get("format") == FORMAT and meta.get("complete") == "1" and meta.get("store_key") == self.key

    # ----------------------------------------------------------------- building

    def build(self, should_stop: Callable[[], bool] | None = None,
              progress: Callable[[int], None] | None = None) -> bool:
        """Bring the index up to date: extend it with appended rows when it can, else build it
        anew into a temporary file that replaces the old one when complete. Returns True when
        the index is ready. Memory stays flat: rows stream in small batches and the FTS5 table
        is committed every few megabytes of text."""
        if self.problem is not None:
            return False
        with self._build_lock:
            self._building = True
            try:
                token = self._server_token()
                done = (self.ready() and self._extend(should_stop, progress)) or self._rebuild(should_stop, progress)
                if done:
                    self._looked_at = token
                return done
            finally:
                self._building = False

    def start_build(self, on_done: Callable[[bool], None] | None = None) -> threading.Thread | None:
        """:meth:`build` in a daemon thread (nothing if one is running); stops when the store
        closes."""
        with self._lock:
            if self._thread is not None and self._thread.is_alive():
                return None

            def run() -> None:
                ok = False
                try:
                    ok = self.build(should_stop=lambda: self.store.closed)
                except Exception as exc:  # a failed build leaves the scan answering
                    self.problem = f"the search index could not be built: {exc}"
                if on_done is not None:
                    on_done(ok)

            self._thread = threading.Thread(target=run, name="prompt-index", daemon=True)
            self._thread.start()
            return self._thread

    def _rebuild(self, should_stop: Callable[[], bool] | None, progress: Callable[[int], None] | None) -> bool:
        started = time.perf_counter()
        self.directory.mkdir(parents=True, exist_ok=True)
        temp = self.directory / f"{self.key}.building-{os.getpid()}-{threading.get_ident()}.sqlite"
        for leftover in (temp, Path(str(temp) + "-wal"), Path(str(temp) + "-shm")):
            leftover.unlink(missing_ok=True)
        state = self._state()
        con = self._open(temp)
        try:
            con.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", [
                ("format", FORMAT), ("store_key", self.key), ("complete", "0"),
                ("store", repr(self.description)), ("state", state)])
            con.commit()
            if not self._add_rows(con, {}, should_stop, progress):
                con.close()
                self._remove(temp)
                return False
            con.execute("INSERT OR REPLACE INTO meta VALUES ('complete', '1')")
            con.commit()
            con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            con.close()
        except BaseException:
            con.close()
            self._remove(temp)
            raise
        os.replace(temp, self.path)
        for side in ("-wal", "-shm"):
            Path(str(self.path) + side).unlink(missing_ok=True)
        self.last_build_seconds = time.perf_counter() - started
        return True

    @staticmethod
    def _remove(path: Path) -> None:
        for side in ("", "-wal", "-shm"):
            Path(str(path) + side).unlink(missing_ok=True)

    def _server_token(self) -> Any:
        """The change token of a server store (None for a file, whose state :meth:`_extend` reads)."""
        return None if self.store.path is not None else self.store.change_token()

    def _catch_up(self) -> bool:
        """Add the rows appended since the last look, when the store changed since (the token
        is taken first, so a commit during the look is looked for next time); False as
        :meth:`_extend`. Called with the build lock held."""
        token = self._server_token()
        if token is not None and token == self._looked_at:
            return True
        if not self._extend(None, None):
            return False
        self._looked_at = token
        return True

    def _extend(self, should_stop: Callable[[], bool] | None, progress: Callable[[int], None] | None) -> bool:
        """Add the rows appended since the index was made; False when that cannot be trusted
        (the last indexed row is gone or renumbered: the file was rewritten)."""
        con = self._open(self.path)
        try:
            meta = self._meta(con)
            state = self._state()
            if meta.get("state") == state and self.store.path is not None:
                return True
            marks: dict[str, int] = {}
            for sid, key, eid in con.execute(
                    "SELECT session_id, max(source_key), event_id FROM docs GROUP BY session_id"):
                if self.store.event_key(eid) != key:
                    return False
                marks[sid] = key
            if not self._add_rows(con, marks, should_stop, progress):
                return False
            con.execute("INSERT OR REPLACE INTO meta VALUES ('state', ?)", (state,))
            con.commit()
            return True
        finally:
            con.close()

    def _add_rows(self, con: sqlite3.Connection, marks: dict[str, int], should_stop: Callable[[], bool] | None,
                  progress: Callable[[int], None] | None) -> bool:
        pending = 0
        added = 0
        for sid in self.store.request_sessions():
            stream = self.store.iter_llm_calling_since(sid, marks.get(sid))
            try:
                for key, eid, raw in stream:
                    if should_stop is not None and should_stop():
                        return False
                    if raw is None:
                        continue
                    text = _indexed_text(raw)
                    cur = con.execute("INSERT INTO docs (event_id, session_id, source_key, unindexed) "
                                      "VALUES (?, ?, ?, ?)", (eid, sid, int(key), int(text is None)))
                    if text is not None:
                        con.execute("INSERT INTO body (rowid, text) VALUES (?, ?)", (cur.lastrowid, text))
                        pending += len(text)
                    added += 1
                    if pending >= _COMMIT_BYTES:
                        con.commit()
                        pending = 0
                        if progress is not None:
                            progress(added)
            finally:
                stream.close()  # type: ignore[attr-defined]
        con.commit()
        if progress is not None:
            progress(added)
        return True

    # ----------------------------------------------------------------- searching

    def can_answer(self, text: str) -> str | None:
        """None when the index can answer ``text``, else why the scan must."""
        if self.problem is not None:
            return self.problem
        if len(text) < MIN_NEEDLE:
            return f"needles shorter than {MIN_NEEDLE} characters are searched by scanning"
        if "\x00" in text:
            # FTS5 reads its query as a C string.
            return "a needle holding a NUL character is searched by scanning"
        if self._building:
            return "the search index is being built"
        if not self.ready():
            return "the search index has not been built yet"
        return None

    def search(self, text: str, session_id: str | None = None) -> set[str] | None:
        """Ids of the ``llm.calling`` events whose payload contains ``text`` as
        :func:`inspector.views.search_requests` defines it, or None when the index cannot answer
        (see :meth:`can_answer`). Rows appended since the index was made are added first (looked
        for once per change of the store, see the module)."""
        if self.can_answer(text) is not None:
            return None
        try:
            needles = search_needles(text)
        except UnicodeEncodeError:
            return None
        if not self._build_lock.acquire(blocking=False):
            return None
        try:
            if not self._catch_up():
                return None
        finally:
            self._build_lock.release()
        query = " OR ".join(_phrase(n) for n in needles)
        with _closing(sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)) as con:
            where = "" if session_id is None else " AND d.session_id = ?"
            args: tuple[Any, ...] = (query,) if session_id is None else (query, session_id)
            found = {eid for (eid,) in con.execute(
                "SELECT d.event_id FROM body JOIN docs d ON d.docid = body.rowid WHERE body MATCH ?" + where, args)}
            odd = [eid for (eid,) in con.execute(
                "SELECT event_id FROM docs WHERE unindexed = 1" + ("" if session_id is None else " AND session_id = ?"),
                () if session_id is None else (session_id,))]
        if odd:
            found |= self._scan_events(odd, needles)
        # Covel's retention deletes old rows; the index keeps them until it is rebuilt.
        return self.store.existing_event_ids(found) if found else set()

    def _scan_events(self, event_ids: list[str], needles: list[bytes]) -> set[str]:
        out = set()
        for eid in event_ids:
            event = self.store.event(eid)
            if event is None or event.raw_payload is None:
                continue
            raw = event.raw_payload
            data = (raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else bytes(raw)).lower()
            if any(n in data for n in needles):
                out.add(eid)
        return out


class _closing:
    def __init__(self, con: sqlite3.Connection) -> None:
        self.con = con

    def __enter__(self) -> sqlite3.Connection:
        return self.con

    def __exit__(self, *_exc: object) -> None:
        self.con.close()


_INDEXES: dict[tuple[int, str], SearchIndex] = {}
_INDEXES_LOCK = threading.Lock()


def worth_indexing(store: Store) -> bool:
    """True for a store large enough that scanning every prompt takes noticeable time."""
    return store.approximate_trace_rows() >= INDEX_FROM_ROWS


def index_for(store: Store, cache_dir: str | os.PathLike[str]) -> SearchIndex:
    """The one :class:`SearchIndex` of ``store`` in ``cache_dir`` for this process (a window and
    its searches share it, so one build runs at a time)."""
    key = (id(store), str(cache_dir))
    with _INDEXES_LOCK:
        for stale in [k for k, v in _INDEXES.items() if v.store.closed]:
            del _INDEXES[stale]
        found = _INDEXES.get(key)
        if found is None or found.store is not store:
            found = _INDEXES[key] = SearchIndex(store, cache_dir)
        return found
