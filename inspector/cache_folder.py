"""The per-user cache folder: the one definition, for everything the program keeps between runs
(the demo database, search indexes, private snapshot copies of a store)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

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
