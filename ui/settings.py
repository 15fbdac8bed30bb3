"""Persistent preferences through ``QSettings`` (native location; tests redirect it).

Non-string values are always read with an explicit ``type=``: on some platforms booleans and
lists come back as strings otherwise.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings

MAX_RECENT = 10
_RECENT_KEY = "recentFiles"


class Settings:
    def __init__(self, settings: QSettings | None = None) -> None:
        self._s = settings if settings is not None else QSettings()

    # ------------------------------------------------------------------ recent files

    def recent_files(self) -> list[str]:
        value = self._s.value(_RECENT_KEY, [], type=list)
        return [str(v) for v in value if v]

    def add_recent(self, path: str | os.PathLike[str]) -> list[str]:
        """Put ``path`` first (absolute, de-duplicated), keep at most ``MAX_RECENT``. A database
        URL is kept as given: the caller has taken its password out."""
        text = os.fspath(path)
        full = text if "://" in text else str(Path(path).resolve())
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
            (kept if "://" in f or Path(f).is_file() else removed).append(f)
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

    def sync(self) -> None:
        self._s.sync()
