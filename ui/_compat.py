"""Work-arounds for defects of the Qt binding that the app cannot avoid by writing code differently.

PySide6 6.12.0 on CPython 3.11 drops one reference to ``None`` on every call of a C++ method that
returns ``void`` (``QSyntaxHighlighter.setFormat``, ``QObject.setObjectName`` …), and some calls
lose references to ``True``/``False`` too. CPython 3.12 made these singletons immortal, so there the
defect is harmless; on 3.11 a count reaches zero after some thousands of calls and the interpreter
aborts ("none_dealloc: deallocating None") — highlighting one large prompt is enough. The project
excludes that release (pyproject.toml); should it be installed anyway, :func:`protect_none` gives
the three singletons the effectively unbounded count 3.12 gives them, so the lost references can
never bring them to zero.
"""

from __future__ import annotations

import ctypes
import sys

# Far more than any process can drop, far below the ssize_t limit, like 3.12's immortal count.
_HEADROOM = 1 << 40


def none_leaks() -> bool:
    """True when a void C++ method of this binding loses a reference to ``None``."""
    if sys.implementation.name != "cpython" or sys.version_info >= (3, 12):
        return False
    from PySide6.QtCore import QObject

    probe = QObject()
    before = sys.getrefcount(None)
    for _ in range(8):
        probe.setObjectName("probe")
    return sys.getrefcount(None) < before


def protect_none() -> bool:
    """Raise ``None``'s reference count out of reach when the binding leaks it; True if it did.
    Safe to call more than once."""
    if sys.implementation.name != "cpython" or sys.version_info >= (3, 12):
        return False
    counts = [ctypes.c_ssize_t.from_address(id(obj)) for obj in (None, True, False)]
    if counts[0].value >= _HEADROOM // 2:
        return True
    if not none_leaks():
        return False
    for refcnt in counts:
        refcnt.value += _HEADROOM
    return True
