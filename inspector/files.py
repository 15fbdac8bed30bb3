"""Saving files so that nothing is ever lost: the one way the app and the CLI write a file."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path


def write_atomic(path: str | os.PathLike[str], text: str, *, keep_backup: bool = False) -> Path:
    """Write ``text`` (UTF-8, line ends as given) to ``path`` through a temporary file in the same
    folder, flushed to disk and moved into place with one ``os.replace``: a crash or a full disk
    leaves either the old file or the new one, never half of one. With ``keep_backup`` the file
    being replaced is first kept as ``<name>.bak``, written the same way."""
    if not isinstance(text, str):
        raise TypeError(f"write_atomic writes text, not {type(text).__name__}")
    target = Path(path)
    if keep_backup and target.exists():
        with open(target, "rb") as src:
            _replace_with(target.with_name(target.name + ".bak"), lambda dst: shutil.copyfileobj(src, dst))
    data = text.encode("utf-8")
    _replace_with(target, lambda dst: dst.write(data))
    return target


def _replace_with(target: Path, write) -> None:  # type: ignore[no-untyped-def]
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=str(directory))
    try:
        with os.fdopen(fd, "wb") as dst:
            write(dst)
            dst.flush()
            os.fsync(dst.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
