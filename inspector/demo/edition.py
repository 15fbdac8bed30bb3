"""How a demo file says it is one, and which edition of the generator wrote it: two SQLite header
fields, read without opening the database (and without importing the generator)."""

from __future__ import annotations

import os
import struct

from inspector.files import SQLITE_HEADER, SQLITE_HEADER_BYTES, read_file_header
from inspector.inputs import InputFileError

__all__ = ["DEMO_APPLICATION_ID", "DEMO_FORMAT", "demo_format", "is_demo_file"]

# SQLite header field "application id" = b"CovD": lets a later run recognise its own output and
# overwrite it, while refusing to clobber a real save. Covel itself leaves this field at 0.
DEMO_APPLICATION_ID = 0x436F7644
# SQLite header field "user version": which edition of this generator wrote the file, so the app
# can replace a cached demo that an older release wrote. Raise it whenever the output changes.
DEMO_FORMAT = 2


def is_demo_file(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` is a SQLite file this generator wrote (its application id); never blocks."""
    return _demo_header(path) is not None


def _demo_header(path: str | os.PathLike[str]) -> bytes | None:
    try:
        header = read_file_header(path, SQLITE_HEADER_BYTES)
    except InputFileError:
        return None
    ours = len(header) == SQLITE_HEADER_BYTES and header.startswith(SQLITE_HEADER)
    return header if ours and struct.unpack(">I", header[68:72])[0] == DEMO_APPLICATION_ID else None


def demo_format(path: str | os.PathLike[str]) -> int | None:
    """The generator edition that wrote ``path`` (``DEMO_FORMAT`` then), or None for any other file."""
    header = _demo_header(path)
    return None if header is None else struct.unpack(">I", header[60:64])[0]
