"""Exact token counts kept between runs, in the user's cache folder.

Building a tokenizer takes longer (0.2–0.4 s) than everything else ``show`` does on a request,
and the texts recur: the same system prompt and history are in every turn's requests, and a
request looked at once is looked at again. A count depends only on the text and the tokenizer's
rank file, so it is kept under the text's content hash (:func:`inspector.tokens.content_key`) and
the rank file's SHA-256 (:data:`inspector.tokens.ENCODING_HASHES`): a count is never stale. The
tokenizer is built only for texts no earlier run counted.

The file is a cache: when it cannot be read or written (a read-only folder, another process
holding it, a damaged file) the counts are computed as if it were not there. It is started
afresh when it grows past :data:`KEPT_BYTES`.

Where the counts no earlier run kept are made: in this process, unless the thread asking works
:func:`counted_apart` (the desktop app's background jobs do, for the GUI thread's sake) and this
process has not built the tokenizer anyway; then in a child process
(:mod:`inspector.count_process`), and here again if the child fails.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path

from . import tokens
from .cache_folder import default_cache_dir

__all__ = ["KEPT_BYTES", "KEPT_FILE", "counted_apart", "exact_counts", "kept_path"]

KEPT_FILE = "token-counts-v1.sqlite"
# About a million counts; past it the file starts again (counts are cheap to make again).
KEPT_BYTES = 64 << 20
# Seconds to wait for another process writing the file before going without it.
_WAIT = 0.5
_CHUNK = 500
# Whether the thread counts in a child process (counted_apart), per thread.
_apart = threading.local()


@contextlib.contextmanager
def counted_apart() -> Iterator[None]:
    """Within it, the counts this thread needs and no earlier run kept are made in a child
    process while this process has not built the tokenizer: its build holds the interpreter lock
    for over 100 ms in one piece, which freezes a window whose GUI thread needs the lock meanwhile
    (see :mod:`inspector.count_process`). For threads working beside a GUI thread; nests."""
    before = getattr(_apart, "on", False)
    _apart.on = True
    try:
        yield
    finally:
        _apart.on = before


def kept_path(cache_dir: Path | None = None) -> Path:
    return (cache_dir if cache_dir is not None else default_cache_dir()) / KEPT_FILE


def exact_counts(texts: Iterable[str], encoding: str, cache_dir: Path | None = None) -> dict[str, int]:
    """The exact count of each of ``texts`` under ``encoding``: from this process, else from the
    kept file, else counted (and kept). Also puts them in :mod:`inspector.tokens`' own cache, so
    :func:`inspector.tokens.count_exact` answers them without the tokenizer."""
    counts: dict[str, int] = {}
    wanted: list[str] = []
    for text in dict.fromkeys(texts):
        known = tokens.cached_exact(text, encoding)
        if known is None:
            wanted.append(text)
        else:
            counts[text] = known
    if not wanted:
        return counts
    namespace = f"{encoding}:{tokens.ENCODING_HASHES.get(encoding, '')}"
    keys = {text: tokens.content_key(text) for text in wanted}
    connection = _open(kept_path(cache_dir))
    try:
        kept = _read(connection, namespace, list(keys.values())) if connection is not None else {}
        for text in wanted:
            count = kept.get(keys[text])
            if count is not None:
                tokens.remember_exact(text, encoding, count)
                counts[text] = count
        new = [text for text in wanted if text not in counts]
        fresh: list[tuple[str, bytes, int]] = []
        for text, count in zip(new, _count(new, encoding)):
            tokens.remember_exact(text, encoding, count)
            fresh.append((namespace, keys[text], count))
            counts[text] = count
        if connection is not None and fresh:
            _write(connection, fresh)
    finally:
        if connection is not None:
            connection.close()
    return counts


def _count(texts: list[str], encoding: str) -> list[int]:
    """The exact counts of ``texts``: in the child process when counting apart and the tokenizer
    is not built here, else (or when the child fails) here."""
    if texts and getattr(_apart, "on", False) and not tokens.encoding_built(encoding):
        from . import count_process

        try:
            return count_process.counts(texts, encoding)
        except count_process.CountProcessError:
            return _count_here(texts, encoding)  # a slower window, but the same counts
    return _count_here(texts, encoding)


def _count_here(texts: list[str], encoding: str) -> list[int]:
    return [tokens.count_exact(text, encoding) for text in texts]


def _open(path: Path, *, again: bool = True) -> sqlite3.Connection | None:
    """The kept file, made if missing, started afresh if too big or not a database."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists() and path.stat().st_size > KEPT_BYTES:
            os.unlink(path)
        connection = sqlite3.connect(path, timeout=_WAIT)
    except (OSError, sqlite3.Error):
        return None
    try:
        connection.execute("CREATE TABLE IF NOT EXISTS counts (encoding TEXT NOT NULL, key BLOB NOT NULL, "
                           "count INTEGER NOT NULL, PRIMARY KEY (encoding, key)) WITHOUT ROWID")
        return connection
    except sqlite3.DatabaseError as exc:
        connection.close()
        if not again or isinstance(exc, sqlite3.OperationalError):  # locked, read-only: leave it be
            return None
        try:
            os.unlink(path)  # damaged: what it held is only counts, made again as needed
        except OSError:
            return None
        return _open(path, again=False)


def _read(connection: sqlite3.Connection, namespace: str, keys: list[bytes]) -> dict[bytes, int]:
    found: dict[bytes, int] = {}
    try:
        for start in range(0, len(keys), _CHUNK):
            chunk = keys[start:start + _CHUNK]
            rows = connection.execute(
                f"SELECT key, count FROM counts WHERE encoding = ? AND key IN ({','.join('?' * len(chunk))})",
                [namespace, *chunk])
            found.update((key, count) for key, count in rows if isinstance(count, int))
    except sqlite3.Error:
        return {}
    return found


def _write(connection: sqlite3.Connection, rows: list[tuple[str, bytes, int]]) -> None:
    try:
        with connection:
            connection.executemany("INSERT OR REPLACE INTO counts (encoding, key, count) VALUES (?, ?, ?)", rows)
    except sqlite3.Error:
        return  # another process holds the file, or it went bad: the counts made are still right
