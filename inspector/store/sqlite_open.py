"""How a SQLite store is opened without writing anything beside it: the one place that decides.

Every SQLite open (a path, or a ``sqlite://`` URL) goes through :func:`open_sqlite`. It checks
the file (:func:`check_sqlite_file`), looks at what lies beside it, and picks one way in:

``ro``
    SQLite ``mode=ro``: the file is read in place with shared read locks, seeing Covel's commits
    as they land. Used when a live writer's ``-wal`` and ``-shm`` are present, and for a
    rollback-journal file without a hot journal.
``immutable``
    ``immutable=1``: no locks, nothing created. Used when the URL asks for it (unless the file's
    state would make it read wrong: a pending ``-journal`` or a ``-wal`` holding changes are read
    through a copy instead, with a note saying why), and, without a note, for a WAL file nobody has open (no ``-wal``, or an empty one, and no ``-shm``): it is fully checkpointed,
    and ``mode=ro`` would create the ``-wal`` and ``-shm`` beside it. Such a store is watched
    (:attr:`Opened.stale`): when Covel opens the file it is opened again in ``mode=ro``.
``copy``
    A private copy in the user's cache folder, when reading in place would need a write: a
    ``-wal`` with changes but no ``-shm`` (Covel stopped without closing; ``mode=ro`` would
    create the ``-shm``), or a hot ``-journal`` (an unfinished write that only a writer may roll
    back). The copy is brought to its last committed state there, read, and deleted on close.

Nothing here ever opens the user's file read-write or lets SQLite create a file beside it, with
one caveat: the files beside it are looked at, then opened; if Covel closes the store in between
(its ``-wal`` and ``-shm`` removed), the ``mode=ro`` open makes an empty ``-wal`` and a ``-shm``.
That is noticed (the state is looked at again after the open, and the choice made again, a few
times at most) and said in a note; the two files hold no data and Covel uses them when it next
opens the store. Likewise Covel closing while a ``mode=ro`` connection is held leaves them.
"""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, quote, unquote

from ..cache_folder import default_cache_dir
from ..files import SQLITE_HEADER, SQLITE_HEADER_BYTES, read_file_header
from ..inputs import InputFileError, open_regular_file
from ..messages import localized
from .errors import EmptyDatabaseError, NotADatabaseError, StoreNotFoundError, StoreOpenError
from .read_errors import translate_error
from .sqlite_pool import SqlitePool

if TYPE_CHECKING:
    from sqlalchemy.engine import URL

__all__ = ["DEFAULT_BUSY_TIMEOUT", "Opened", "SqliteRequest", "check_sqlite_file", "copy_root",
           "open_sqlite", "read_only_connection", "sqlite_pool", "sqlite_request", "sqlite_uri"]

# Seconds a read waits for a writer's lock before it gives up (SQLite's busy timeout; the
# PostgreSQL session's lock timeout is the same).
DEFAULT_BUSY_TIMEOUT = 2.0

_COPY_CHUNK = 1 << 20
# Room kept free beyond the copy itself: settling a -wal into the copy may grow it by the -wal.
_COPY_MARGIN = 16 << 20
# Opens chosen again when the file changed under the choice (a copy made while Covel wrote, a
# mode=ro open as Covel closed the store).
_OPEN_ATTEMPTS = 3
_SNAPSHOT_DIR = "snapshots"

# Errors of a mode=ro open that mean "the -shm could not be created or used" (a WAL file in a
# read-only folder). Names first; the messages only for errors that carry no name. Other
# SQLITE_READONLY_* codes (ROLLBACK: a hot journal; DBMOVED) are not about the -shm.
_SHM_FAILURE_NAMES = frozenset({
    "SQLITE_CANTOPEN", "SQLITE_IOERR_SHMOPEN", "SQLITE_IOERR_SHMSIZE", "SQLITE_IOERR_SHMMAP",
    "SQLITE_IOERR_SHMLOCK", "SQLITE_READONLY_CANTINIT", "SQLITE_READONLY_CANTLOCK", "SQLITE_READONLY_RECOVERY",
})
_SHM_FAILURE_MESSAGES = ("unable to open database file", "disk i/o error")
_HOT_JOURNAL_NAME = "SQLITE_READONLY_ROLLBACK"

# sqlite:// URL options that cannot make a connection write (value check: None = any value).
_BOOLEAN = ("1", "0", "true", "false", "yes", "no", "on", "off")
_ALLOWED_OPTIONS: dict[str, tuple[str, ...] | None] = {
    "timeout": None,
    "mode": ("ro",),
    "immutable": _BOOLEAN,
    "uri": _BOOLEAN,
    "cache": ("private",),
    "check_same_thread": _BOOLEAN,
}
_ALLOWED_TEXT = ", ".join(f"{key}=" + ("<seconds>" if values is None else "/".join(values[:2]) if values is _BOOLEAN
                                        else values[0]) for key, values in _ALLOWED_OPTIONS.items())

UNFINISHED_WRITE = "the store has an unfinished write; showing the last committed state"
SIDECARS_LEFT = ("Covel closed the store while it was being opened, so SQLite may have made a -wal and a -shm "
                 "beside it (they hold no data; Covel uses them when it next opens the store)")


# ----------------------------------------------------------------------------- the request


@dataclass(frozen=True, slots=True)
class SqliteRequest:
    """What to open: the file, the busy timeout, and whether the user asked for ``immutable=1``."""

    path: Path
    busy_timeout: float
    immutable: bool = False


def sqlite_request(url: URL, text: str, busy_timeout: float) -> SqliteRequest:
    """The file and options of a ``sqlite://`` URL (a plain path or a ``file:`` URI with its own
    query). Options that could write or that are unknown are refused with a :class:`StoreOpenError`
    naming them and the allowed ones."""
    database = url.database or ""
    options: list[tuple[str, str]] = []
    for key, value in url.query.items():
        for one in (value,) if isinstance(value, str) else value:
            options.append((key, one))
    if database.startswith("file:"):
        database, inner = _split_file_uri(database, text)
        options.extend(inner)
    if not database or database == ":memory:":
        raise StoreOpenError(localized("{location}: an in-memory SQLite database has no Covel store; give the path of "
                                       "covel.db (sqlite:///path/to/covel.db)", location=text), location=text)
    settings: dict[str, str] = {}
    for key, value in options:
        allowed = _ALLOWED_OPTIONS.get(key, ())
        if allowed == () or (allowed is not None and value.lower() not in allowed):
            raise StoreOpenError(localized(
                "{location}: the option {key}={value} is refused, because it could write to the database or is not "
                "known; Prompt Inspector only reads. Allowed: {allowed}", location=text, key=key, value=value,
                allowed=_ALLOWED_TEXT), location=text)
        settings[key] = value.lower()
    timeout = busy_timeout
    if "timeout" in settings:
        try:
            timeout = float(settings["timeout"])
        except ValueError:
            timeout = -1.0
        if not 0 <= timeout <= 3600 or timeout != timeout:
            raise StoreOpenError(localized("{location}: timeout={value} is not a number of seconds between 0 and 3600",
                                           location=text, value=settings["timeout"]), location=text)
    immutable = settings.get("immutable") in ("1", "true", "yes", "on")
    return SqliteRequest(Path(database), timeout, immutable)


def _split_file_uri(database: str, text: str) -> tuple[str, list[tuple[str, str]]]:
    """The path and the query options of a SQLite ``file:`` URI (SQLite's own rules: an optional
    ``//localhost`` authority, percent-escapes in the path, a ``#fragment`` ignored)."""
    rest = database[len("file:"):].split("#", 1)[0]
    rest, _, query = rest.partition("?")
    if rest.startswith("//"):
        authority, slash, rest = rest[2:].partition("/")
        if authority not in ("", "localhost"):
            raise StoreOpenError(localized("{location}: a file: URI names a file on this machine; {host} is another "
                                           "host", location=text, host=repr(authority)), location=text)
        rest = slash + rest
    path = unquote(rest)
    if re.match(r"^/[A-Za-z]:", path):  # file:///C:/… on Windows
        path = path[1:]
    return path, parse_qsl(query, keep_blank_values=True)


# ----------------------------------------------------------------------------- the file


def check_sqlite_file(path: Path) -> bytes:
    """The first 100 bytes (the header) of ``path``, checked before SQLite sees the file: SQLite
    treats a missing or empty file as a new database, "file is not a database" errors name no
    file, and a FIFO or device would block or never end (refused without being opened)."""
    try:
        header = read_file_header(path, SQLITE_HEADER_BYTES)
    except InputFileError as exc:
        if exc.reason == "directory":
            raise StoreNotFoundError(localized("{path} is a directory, not a database file", path=path),
                                     location=str(path)) from None
        if exc.reason == "special":
            raise StoreNotFoundError(str(exc), location=str(path)) from None
        if exc.reason == "missing":
            raise StoreNotFoundError(localized("{name} does not exist", name=path), location=str(path)) from None
        raise StoreOpenError(str(exc), location=str(path)) from None
    if not header:
        raise EmptyDatabaseError(localized("{path} is empty (0 bytes): not a Covel store", path=path),
                                 location=str(path))
    if not header.startswith(SQLITE_HEADER):
        raise NotADatabaseError(localized("{path} is not a SQLite database", path=path), location=str(path))
    return header


def sqlite_uri(path: Path, mode: str) -> str:
    """The SQLite URI that opens ``path`` with ``mode`` (``ro`` or ``immutable``)."""
    # Percent-encode so '?', '#' and '%' in a file name cannot be read as URI syntax.
    posix = path.as_posix()
    if re.match(r"^[A-Za-z]:", posix):
        posix = "/" + posix
    query = "mode=ro" if mode == "ro" else "mode=ro&immutable=1"
    return f"file:{quote(posix, safe='/:')}?{query}"


@dataclass(frozen=True, slots=True)
class FileState:
    """What lies on disk for a database: ``(size, mtime_ns, inode)`` of the file and of each
    sidecar (None when absent). Two equal states mean nothing was written in between."""

    db: tuple[int, int, int] | None
    wal: tuple[int, int, int] | None
    shm: tuple[int, int, int] | None
    journal: tuple[int, int, int] | None

    @classmethod
    def of(cls, path: Path) -> FileState:
        def one(name: str) -> tuple[int, int, int] | None:
            try:
                info = os.stat(name)
            except OSError:
                return None
            return info.st_size, info.st_mtime_ns, info.st_ino

        base = str(path)
        return cls(one(base), one(base + "-wal"), one(base + "-shm"), one(base + "-journal"))

    def same_sidecars(self, later: FileState) -> bool:
        """True when ``later`` has the same ``-wal`` and ``-shm`` files as this state: a commit
        (the -wal grows) keeps them; Covel closing the store (they go, or come back new: another
        inode, or an emptied -wal) does not. A shrunk -wal also counts as new (the cost: one more
        open after a rare checkpoint that truncates it)."""
        def inode(entry: tuple[int, int, int] | None) -> int | None:
            return None if entry is None else entry[2]

        if inode(self.wal) != inode(later.wal) or inode(self.shm) != inode(later.shm):
            return False
        return self.wal is None or later.wal is None or later.wal[0] >= self.wal[0]

    @property
    def idle_wal(self) -> bool:
        """A WAL file nobody has open: no ``-shm``, and no ``-wal`` or an empty one."""
        return self.shm is None and (self.wal is None or self.wal[0] == 0)


# ----------------------------------------------------------------------------- opening


@dataclass(slots=True)
class Opened:
    """An open SQLite store's connections and how it was opened (see the module docstring for
    ``mode``)."""

    pool: SqlitePool
    mode: str
    uri: str
    notes: list[str] = field(default_factory=list)
    copy_dir: Path | None = None
    # The file state the choice was made on, for a store that must be opened again when it
    # changes (immutable because idle, or a copy); None when SQLite itself follows the file.
    watched: FileState | None = None
    path: Path | None = None

    def stale(self) -> bool:
        """True when the file changed since this was opened, so a fresh open would read more
        (or differently): e.g. Covel opened the idle WAL file (its ``-wal``/``-shm`` appeared)."""
        return self.watched is not None and self.path is not None and FileState.of(self.path) != self.watched

    def release(self) -> None:
        """Close the connections and delete the private copy, if any."""
        self.pool.dispose()
        if self.copy_dir is not None:
            shutil.rmtree(self.copy_dir, ignore_errors=True)
            self.copy_dir = None


class _Changed(Exception):
    """The file changed while it was being opened or copied; the choice is made again."""


def _sqlite_connect(uri: str, timeout: float) -> sqlite3.Connection:
    """Every ``sqlite3`` connection of the store package is made here (tests substitute it to
    simulate failures): to the user's file only with the ``mode=ro`` / ``immutable=1`` URIs of
    :func:`sqlite_uri`, read-write only to a private copy (:func:`_settle`)."""
    # check_same_thread=False: the desktop app reads from worker threads through the pool.
    return sqlite3.connect(uri, uri=True, timeout=timeout, check_same_thread=False)


def sqlite_pool(uri: str, busy_timeout: float) -> SqlitePool:
    """The one SQLite connection factory: a pool on ``uri`` whose every connection is
    ``query_only`` with ``busy_timeout``, probed (raises ``sqlite3.Error``)."""
    return SqlitePool(lambda: _sqlite_connect(uri, busy_timeout), busy_timeout)


def open_sqlite(request: SqliteRequest, cache_dir: Path | None = None) -> Opened:
    """Open ``request.path`` read-only the way the module docstring describes. ``cache_dir`` is
    where private copies go (default: the application's cache folder); copies left there by a
    process that was killed are deleted first."""
    path = request.path.expanduser().absolute()
    location = str(path)
    root = copy_root(cache_dir)
    _sweep(root)
    replaced = False
    for attempt in range(_OPEN_ATTEMPTS):
        header = check_sqlite_file(path)
        # SQLite keeps the -wal, -shm and -journal beside the file a link points to.
        real = Path(os.path.realpath(path))
        state = FileState.of(real)
        try:
            if request.immutable:
                opened = _open_as_asked(real, location, state, request.busy_timeout, root)
            else:
                opened = _open_by_state(real, location, header, state, request.busy_timeout, root)
        except _Changed:
            continue
        if opened.mode != "ro":
            return opened
        # The choice was made on `state`; if Covel closed the store in between (its -wal and
        # -shm gone, or new ones), the mode=ro open may have met other files: choose again.
        if state.same_sidecars(FileState.of(real)) or attempt == _OPEN_ATTEMPTS - 1:
            if replaced:
                opened.notes.append(SIDECARS_LEFT)
            return opened
        replaced = True
        opened.release()
    raise StoreOpenError(localized("{location} kept changing while it was being opened (Covel is starting or "
                                   "stopping?); try again in a moment", location=location), location=location)


@contextmanager
def read_only_connection(path: str | os.PathLike[str], *,
                         busy_timeout: float = DEFAULT_BUSY_TIMEOUT) -> Iterator[sqlite3.Connection]:
    """A plain ``sqlite3`` connection to the database at ``path`` for code that reads a SQLite
    file without a :class:`~inspector.store.Store` (copying it elsewhere, say), opened as
    :func:`open_sqlite` decides: never writable, nothing created beside the file. Closed, and any
    private copy deleted, on exit. Raises :class:`StoreError` subclasses."""
    opened = open_sqlite(SqliteRequest(Path(os.fspath(path)), busy_timeout))
    try:
        raw = opened.pool.raw_connection()
        try:
            yield raw
        finally:
            raw.close()
    finally:
        opened.release()


def _pool(uri: str, timeout: float, location: str) -> SqlitePool:
    try:
        return sqlite_pool(uri, timeout)
    except sqlite3.Error as exc:
        raise translate_error(exc, location, timeout) from exc


def _journal_pending(path: Path, state: FileState) -> bool:
    """True when the ``-journal`` beside ``path`` may hold an unfinished write: it is there, not
    empty, and its first byte is not zero (SQLite's own test; a zeroed header is a finished
    write in ``journal_mode=PERSIST``). A journal that cannot be read counts as pending."""
    if state.journal is None or state.journal[0] == 0:
        return False
    try:
        return read_file_header(Path(str(path) + "-journal"), 1) != b"\x00"
    except InputFileError as exc:
        return exc.reason != "missing"


def _open_as_asked(path: Path, location: str, state: FileState, timeout: float, root: Path) -> Opened:
    """``immutable=1`` as the URL asks, unless the file's state would make it read wrong: a
    pending ``-journal`` (the file is torn until it is rolled back) or a ``-wal`` holding changes
    (immutable=1 does not read it, and the file alone may be half checkpointed). Those are read
    through a private copy, as the module docstring describes."""
    if _journal_pending(path, state):
        return _open_copy(path, location, "-journal", state, timeout, root,
                          "immutable=1 was asked, but it would read the file torn", watch=False)
    if state.wal is not None and state.wal[0] > 0:
        return _open_copy(path, location, "-wal", state, timeout, root,
                          "immutable=1 was asked, but it would not read the changes in the -wal", watch=False)
    uri = sqlite_uri(path, "immutable")
    return Opened(_pool(uri, timeout, location), "immutable", uri, [
        "opened with immutable=1 as the URL asks: SQLite reads the file without locks and does not "
        "see any later write"], path=path)


def _open_by_state(path: Path, location: str, header: bytes, state: FileState, timeout: float,
                   root: Path) -> Opened:
    wal_mode = header[18:20] == b"\x02\x02"
    if wal_mode and (state.wal is None or state.idle_wal):
        # The common case (Covel not running): no note, the mode says it (Store.read_only_mode).
        uri = sqlite_uri(path, "immutable")
        return Opened(_pool(uri, timeout, location), "immutable", uri, [], watched=state, path=path)
    if wal_mode and state.shm is None:
        return _open_copy(path, location, "-wal", state, timeout, root,
                          "the -wal holds changes but there is no -shm (Covel stopped without closing the "
                          "store?), and reading it in place would create one")
    uri = sqlite_uri(path, "ro")
    try:
        return Opened(sqlite_pool(uri, timeout), "ro", uri, path=path)
    except sqlite3.Error as exc:
        orig = exc
        name = getattr(orig, "sqlite_errorname", "") or ""
        if name == _HOT_JOURNAL_NAME and state.journal is not None:
            return _open_copy(path, location, "-journal", state, timeout, root, UNFINISHED_WRITE)
        if not (wal_mode and _is_shm_failure(orig)):
            raise translate_error(orig, location, timeout) from exc
        # The -shm cannot be used here (a read-only folder, say): read the changes in the -wal
        # through a copy, or the file itself when the -wal holds none.
        if state.wal is not None and state.wal[0] > 0:
            # Not watched: a writer that cannot be read beside would make every change a new copy.
            return _open_copy(path, location, "-wal", state, timeout, root,
                              f"read-only mode failed ({orig})", watch=False)
        uri = sqlite_uri(path, "immutable")
        return Opened(_pool(uri, timeout, location), "immutable", uri, [
            f"opened with immutable=1 because read-only mode failed ({orig}): later writes are not visible"],
            watched=state, path=path)


def _is_shm_failure(orig: BaseException | None) -> bool:
    if not isinstance(orig, sqlite3.Error):
        return False
    name = getattr(orig, "sqlite_errorname", "") or ""
    if name:
        return name in _SHM_FAILURE_NAMES
    message = str(orig).lower()
    return any(text in message for text in _SHM_FAILURE_MESSAGES)


# ----------------------------------------------------------------------------- private copies


def copy_root(cache_dir: Path | None = None) -> Path:
    """Where private copies go: ``snapshots`` in ``cache_dir`` (default: the application's cache
    folder)."""
    return (cache_dir if cache_dir is not None else default_cache_dir()) / _SNAPSHOT_DIR


def _open_copy(path: Path, location: str, sidecar: str, state: FileState, timeout: float, root: Path,
               why: str, *, watch: bool = True) -> Opened:
    copy_dir = _make_copy(path, location, sidecar, state, root)
    try:
        target = copy_dir / path.name
        _settle(target, location)
        uri = sqlite_uri(target, "immutable")
        pool = _pool(uri, timeout, location)
    except BaseException:
        shutil.rmtree(copy_dir, ignore_errors=True)
        raise
    if sidecar == "-journal":
        note = f"{UNFINISHED_WRITE} (read through a private copy in {copy_dir}, its -journal rolled back there)"
        if why != UNFINISHED_WRITE:
            note += f": {why}"
    else:
        later = "later writes are read once Covel has the file open again" if watch else \
            "later writes are not visible until it is opened again"
        note = f"read through a private copy of the file and its -wal in {copy_dir}: {why}; {later}"
    return Opened(pool, "copy", uri, [note], copy_dir=copy_dir, watched=state if watch else None, path=path)


def _make_copy(path: Path, location: str, sidecar: str, state: FileState, root: Path) -> Path:
    side = Path(str(path) + sidecar)
    sizes = (state.db[0] if state.db else 0) + (state.wal[0] if sidecar == "-wal" and state.wal else 0) + \
        (state.journal[0] if sidecar == "-journal" and state.journal else 0)
    try:
        root.mkdir(parents=True, exist_ok=True)
        free = shutil.disk_usage(root).free
    except OSError as exc:
        raise StoreOpenError(localized("{location} needs a private copy to be read without writing beside it, but "
                                       "the cache folder {folder} cannot be used: {error}", location=location,
                                       folder=root, error=exc.strerror or exc), location=location) from exc
    need = 2 * sizes + _COPY_MARGIN
    if free < need:
        raise StoreOpenError(localized(
            "{location} needs a private copy to be read without writing beside it ({need} MiB), but only {free} MiB "
            "are free in {folder}; free some space, or open the store while Covel runs", location=location,
            need=_mib(need), free=_mib(free), folder=root), location=location)
    _sweep(root)
    copy_dir = Path(tempfile.mkdtemp(prefix=f"{os.getpid()}-", dir=root))
    try:
        _copy_file(path, copy_dir / path.name, location)
        _copy_file(side, copy_dir / (path.name + sidecar), location)
        if FileState.of(path) != state:
            raise _Changed
    except BaseException:
        shutil.rmtree(copy_dir, ignore_errors=True)
        raise
    return copy_dir


def _sweep(root: Path) -> None:
    """Delete the copies of processes that ended without closing their store (POSIX only: a
    process id is checked with signal 0, which on Windows would end the process)."""
    if os.name != "posix":
        return
    try:
        entries = list(root.iterdir())
    except OSError:  # no copy was ever made here (the usual case), or the folder cannot be read
        return
    for entry in entries:
        pid = entry.name.split("-", 1)[0]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(entry, ignore_errors=True)
        except OSError:
            pass


def _mib(size: int) -> int:
    return -(-size // (1 << 20))


def _copy_file(source: Path, target: Path, location: str) -> None:
    try:
        fd = open_regular_file(source)
    except InputFileError as exc:
        if exc.reason == "missing":  # removed since it was looked at: Covel closed it
            raise _Changed from None
        raise StoreOpenError(f"{location}: {exc}", location=location) from None
    try:
        with os.fdopen(fd, "rb") as reader, open(target, "xb") as writer:
            shutil.copyfileobj(reader, writer, _COPY_CHUNK)
    except OSError as exc:
        raise StoreOpenError(localized("{location}: the private copy could not be made ({error})", location=location,
                                       error=exc.strerror or exc), location=location) from exc


def _settle(target: Path, location: str) -> None:
    """Bring the private copy to its last committed state: a read-write open (of the copy only)
    rolls a hot journal back or recovers the -wal; the -wal is then written back and removed, so
    the copy is one plain file that ``immutable=1`` reads."""
    try:
        conn = _sqlite_connect(sqlite_uri(target, "ro").replace("mode=ro", "mode=rw"), DEFAULT_BUSY_TIMEOUT)
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            if conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal":
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
                conn.execute("PRAGMA journal_mode=DELETE").fetchone()
        finally:
            conn.close()
    except sqlite3.Error as exc:
        raise StoreOpenError(localized("{location}: its private copy could not be brought to the last committed "
                                       "state ({error})", location=location, error=exc), location=location) from exc
