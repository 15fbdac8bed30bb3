"""The per-user cache folder: the one definition, for everything the program keeps between runs
(the demo database, search indexes, kept cache analyses, private snapshot copies of a store), and
the one identity of a store that what is kept there is filed under."""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Any

_APP_DIR = "prompt-inspector"


def default_cache_dir(env: dict[str, str] | None = None, platform: str | None = None) -> Path:
    """The per-user cache folder of the application, as Qt's ``GenericCacheLocation`` +
    ``prompt-inspector`` gives it (where the demo database is kept)."""
    env = dict(os.environ) if env is None else env
    platform = sys.platform if platform is None else platform
    home = Path(env.get("HOME") or Path.home())
    if platform == "darwin":
        base = home / "Library" / "Caches"
    elif platform.startswith("win"):
        local = env.get("LOCALAPPDATA")
        base = (Path(local) if local else home / "AppData" / "Local") / "cache"
    else:
        xdg = env.get("XDG_CACHE_HOME")
        base = Path(xdg) if xdg and Path(xdg).is_absolute() else home / ".cache"
    return base / _APP_DIR


_HEAD_BYTES = 16384  # the first four pages of a default SQLite file: header, schema, roots


def store_identity(store: Any) -> tuple[str, dict[str, Any]]:
    """(key, description) of the database behind ``store`` (an :class:`inspector.store.Store`),
    the one identity everything kept in this folder is filed under: for a file its real path,
    device and inode (a file written anew at the same path is another store); for a server the
    URL without its password (server, port, database, user and any search_path option)."""
    if store.path is not None:
        real = Path(os.path.realpath(store.path))
        st = real.stat()
        ident = f"sqlite\0{real}\0{st.st_dev}\0{st.st_ino}"
        return hashlib.sha256(ident.encode()).hexdigest()[:32], {"kind": "sqlite", "path": str(real)}
    ident = f"url\0{store.location}"
    return hashlib.sha256(ident.encode()).hexdigest()[:32], {"kind": "url", "location": store.location}


def file_state(path: str | os.PathLike[str]) -> str:
    """Changes whenever the database file at ``path`` or its write-ahead log does: size,
    modification time and a hash of the first pages of each."""
    parts = []
    for candidate in (Path(path), Path(str(path) + "-wal")):
        try:
            st = candidate.stat()
        except OSError:
            parts.append("-")
            continue
        digest = hashlib.sha256()
        try:
            with candidate.open("rb") as handle:
                digest.update(handle.read(_HEAD_BYTES))
        except OSError:
            pass
        parts.append(f"{st.st_size}:{st.st_mtime_ns}:{digest.hexdigest()[:16]}")
    return "|".join(parts)


def beside_database(store: Any, directory: str | os.PathLike[str]) -> bool:
    """True when ``directory`` is the folder of ``store``'s database file, where nothing may be
    written."""
    if store.path is None:
        return False
    db_dir = Path(os.path.realpath(store.path)).parent
    return Path(os.path.realpath(directory)) == db_dir


def touch(path: Path) -> None:
    """Mark a kept file used (:func:`prune` removes the least recently used first)."""
    try:
        os.utime(path)
    except OSError:
        pass


def prune(root: Path, limit: int, keep: Path, suffix: str) -> None:
    """Remove the least recently used files named ``*suffix`` in the folders of ``root`` until
    they hold at most ``limit`` bytes; ``keep`` (the file just written) stays."""
    try:
        found = [(entry.stat().st_mtime_ns, entry.stat().st_size, entry)
                 for folder in root.iterdir() if folder.is_dir()
                 for entry in folder.iterdir() if entry.suffix == suffix]
    except OSError:
        return
    total = sum(size for _, size, _ in found)
    for _, size, entry in sorted(found, key=lambda item: item[0]):
        if total <= limit:
            break
        if entry == keep:
            continue
        try:
            entry.unlink()
        except OSError:
            continue
        total -= size
