"""The PySide6 desktop app over :mod:`inspector`."""

from ._compat import protect_none

protect_none()
