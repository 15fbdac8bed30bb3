"""A picture of a widget written to a file the way every file is written: atomically.

The widget is rendered in memory (a ``QBuffer``) and the bytes go through
:func:`inspector.files.write_atomic_bytes`, so a full disk or a crash leaves the old file or the
new one, never a truncated image; and :func:`inspector.files.check_output_path` first refuses an
output that is one of the given inputs (the open database, the file being edited), a SQLite
database or a folder.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice
from PySide6.QtGui import QImageWriter
from PySide6.QtWidgets import QWidget

from inspector.error_boundary import EXIT_BAD_INPUT
from inspector.files import OutputPathError, SaveError, check_output_path, write_atomic_bytes

__all__ = ["image_format", "save_widget_image", "write_screenshot"]


def image_format(path: str | os.PathLike[str]) -> str:
    """The image format Qt would pick for ``path`` from its suffix (``out.jpg`` → JPEG), PNG when
    the suffix names no format Qt can write (or there is none)."""
    suffix = Path(path).suffix.lower().lstrip(".")
    writable = {bytes(name.data()).decode("ascii", "replace").lower() for name in QImageWriter.supportedImageFormats()}
    return suffix.upper() if suffix in writable else "PNG"


def save_widget_image(widget: QWidget, path: str | os.PathLike[str],
                      inputs: Iterable[str | os.PathLike[str] | None] = ()) -> Path:
    """Render ``widget`` and write it to ``path`` atomically, in the format its suffix names.

    Raises ``OutputPathError`` (nothing written) when ``path`` is one of ``inputs``, a file SQLite
    keeps beside one, a SQLite database or a folder; ``SaveError`` (an ``OSError`` naming
    ``path``) when the image cannot be encoded or written — the file already there is kept."""
    target = check_output_path(path, inputs)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    try:
        encoded = widget.grab().save(buffer, image_format(target))
    finally:
        buffer.close()
    if not encoded or data.isEmpty():
        raise SaveError(path, OSError(errno.EIO, "the image could not be encoded"))
    write_atomic_bytes(path, bytes(data.data()))
    return target


def write_screenshot(widget: QWidget, out: str | os.PathLike[str],
                     inputs: Iterable[str | os.PathLike[str] | None], code: int) -> int:
    """``--screenshot``'s save: write ``widget``'s picture to ``out`` and return the exit status,
    ``code`` when written, ``EXIT_BAD_INPUT`` (2, as ``cache --html`` gives) when ``out`` is
    refused (an input, a database, a folder, a FIFO or device) or cannot be written; either is one
    line on stderr."""
    try:
        save_widget_image(widget, out, [item or None for item in inputs])
    except (OutputPathError, OSError) as exc:
        sys.stderr.write(f"prompt-inspector: {exc}\n")
        return EXIT_BAD_INPUT
    return code
