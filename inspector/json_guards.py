"""Guards for values read out of parsed JSON: each takes any value and gives it back when it has
the expected type, else None. One module, so two readers that mean the same rule share it, and two
that mean different rules say which by the guard's name.

The one place readers differ is a whole number written as a float (``3.0``): JavaScript has one
number type, so Covel's own readers see ``3.0`` as ``3`` (:func:`int_accepting_integral_float`);
a provider body's fields are read as the provider's schema has them, where ``3.0`` is not an
integer field's value (:func:`int_refusing_float`). Booleans are never numbers (JSON keeps them
apart; only Python's ``bool`` is an ``int``).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "bool_or_none",
    "int_accepting_integral_float",
    "int_refusing_float",
    "nonempty_str_or_none",
    "number_or_none",
    "str_or_none",
]


def str_or_none(value: Any) -> str | None:
    """A JSON string (the empty one included), else None."""
    return value if isinstance(value, str) else None


def nonempty_str_or_none(value: Any) -> str | None:
    """A JSON string that is not empty, else None."""
    return value if isinstance(value, str) and value else None


def number_or_none(value: Any) -> int | float | None:
    """A JSON number (int or float, not a boolean), else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value


def bool_or_none(value: Any) -> bool | None:
    """A JSON boolean, else None."""
    return value if isinstance(value, bool) else None


def int_refusing_float(value: Any) -> int | None:
    """A JSON integer written as one (``3``), else None: ``3.0`` and booleans are refused."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def int_accepting_integral_float(value: Any) -> int | None:
    """A JSON number that is a whole number, as an int (``3`` and ``3.0`` give ``3``, as
    JavaScript reads both), else None; booleans are refused."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None
