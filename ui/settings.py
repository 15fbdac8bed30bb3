"""Persistent preferences through ``QSettings`` (native location; tests redirect it).

Non-string values are always read with an explicit ``type=``: on some platforms booleans and
lists come back as strings otherwise.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings
from PySide6.QtWidgets import QSplitter

from inspector.store.urls import looks_like_url, public_url

MAX_RECENT = 10
_RECENT_KEY = "recentFiles"


class Settings:
    def __init__(self, settings: QSettings | None = None) -> None:
        self._s = settings if settings is not None else QSettings()

    # ------------------------------------------------------------------ recent files

    def recent_files(self) -> list[str]:
        """The recent files and URLs, newest first. A URL saved with a secret in it (by an older
        version, or by hand) is cleaned here and the list saved again without it."""
        value = self._s.value(_RECENT_KEY, [], type=list)
        stored = [str(v) for v in value if v]
        files = list(dict.fromkeys(public_url(f) if looks_like_url(f) else f for f in stored))
        if files != stored:
            self._s.setValue(_RECENT_KEY, files)
            self._s.sync()  # the secret leaves the file now, not when Qt gets round to it
        return files

    def add_recent(self, path: str | os.PathLike[str]) -> list[str]:
        """Put ``path`` first (absolute, de-duplicated), keep at most ``MAX_RECENT``. A database
        URL is kept without its secrets (:func:`inspector.store.urls.public_url`)."""
        text = os.fspath(path)
        full = public_url(text) if looks_like_url(text) else str(Path(path).resolve())
        files = [full] + [f for f in self.recent_files() if f != full]
        files = files[:MAX_RECENT]
        self._s.setValue(_RECENT_KEY, files)
        return files

    def prune_recent(self) -> tuple[list[str], list[str]]:
        """Drop entries whose file no longer exists (URLs stay). Returns ``(kept, removed)``."""
        kept: list[str] = []
        removed: list[str] = []
        for f in self.recent_files():
            # A server may be down for a while; only a file that is gone is certainly stale.
            (kept if looks_like_url(f) or Path(f).is_file() else removed).append(f)
        if removed:
            self._s.setValue(_RECENT_KEY, kept)
        return kept, removed

    def sync(self) -> None:
        """Write pending changes to permanent storage now (Qt otherwise does so later)."""
        self._s.sync()

    def clear_recent(self) -> None:
        self._s.setValue(_RECENT_KEY, [])

    # ------------------------------------------------------------------ window layout

    def geometry(self, key: str) -> QByteArray | None:
        value = self._s.value(f"window/{key}", None, type=QByteArray)
        return value if value is not None and not value.isEmpty() else None

    def set_geometry(self, key: str, value: QByteArray) -> None:
        self._s.setValue(f"window/{key}", value)

    def dock_size(self, key: str) -> int | None:
        value = self._s.value(f"docks/{key}", 0, type=int)
        return value if isinstance(value, int) and value > 0 else None

    def set_dock_size(self, key: str, size: int) -> None:
        self._s.setValue(f"docks/{key}", int(size))

    def splitter_sizes(self, key: str) -> list[int] | None:
        value = self._s.value(f"splitters/{key}", None, type=list)
        try:
            sizes = [int(v) for v in value or []]
        except (TypeError, ValueError):
            return None
        return sizes if sizes and all(s >= 0 for s in sizes) and any(sizes) else None

    def set_splitter_sizes(self, key: str, sizes: list[int]) -> None:
        self._s.setValue(f"splitters/{key}", [int(s) for s in sizes])


# ---------------------------------------------------------------------------------- layout memory

_layout_memory: bool | None = None


def set_layout_memory(enabled: bool | None) -> None:
    """Turn remembering and restoring the user's splitter sizes on or off (``None``: the
    default, on except under the offscreen platform, where screenshots and tests must start from
    the built-in proportions whatever a user saved)."""
    global _layout_memory
    _layout_memory = enabled


def layout_memory() -> bool:
    if _layout_memory is not None:
        return _layout_memory
    from PySide6.QtGui import QGuiApplication

    return QGuiApplication.platformName() != "offscreen"


def remember_splitter(splitter: QSplitter, key: str) -> bool:
    """Restore the sizes the user last gave ``splitter`` (saved under ``key``) and save them
    again whenever the user drags a handle. Returns True when saved sizes were restored (the
    caller then skips its own initial proportions). Sizes saved for another number of panes are
    ignored."""
    if not layout_memory():
        return False
    settings = Settings()
    sizes = settings.splitter_sizes(key)
    restored = sizes is not None and len(sizes) == splitter.count()
    if restored:
        splitter.setSizes(sizes)
    splitter.splitterMoved.connect(lambda _pos, _index: settings.set_splitter_sizes(key, splitter.sizes()))
    return restored
