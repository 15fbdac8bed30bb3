"""The JSON guards: each gives back a value of its type and None for anything else, and the two
integer rules differ only on a whole number written as a float."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from inspector.json_guards import (
    bool_or_none,
    int_accepting_integral_float,
    int_refusing_float,
    nonempty_str_or_none,
    number_or_none,
    str_or_none,
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True) | st.text(),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=3), children, max_size=3),
    max_leaves=8,
)


def test_integers_written_as_floats_are_where_the_two_integer_rules_part() -> None:
    assert int_refusing_float(3) == int_accepting_integral_float(3) == 3
    assert int_refusing_float(3.0) is None
    assert int_accepting_integral_float(3.0) == 3
    assert type(int_accepting_integral_float(3.0)) is int
    assert int_accepting_integral_float(-0.0) == 0
    for refused in (True, False, 3.5, math.inf, -math.inf, math.nan, "3", None, [3]):
        assert int_accepting_integral_float(refused) is None
        assert int_refusing_float(refused) is None


@given(json_values)
def test_the_integer_rules_agree_except_on_integral_floats(value: Any) -> None:
    strict, lenient = int_refusing_float(value), int_accepting_integral_float(value)
    if isinstance(value, float) and value.is_integer():
        assert strict is None and lenient == int(value)
    else:
        assert strict == lenient
    assert strict is None or (type(strict) is int and strict == value)


@given(json_values)
def test_each_guard_gives_its_type_or_none(value: Any) -> None:
    assert str_or_none(value) is (value if isinstance(value, str) else None)
    assert nonempty_str_or_none(value) is (value if isinstance(value, str) and value else None)
    assert bool_or_none(value) is (value if isinstance(value, bool) else None)
    number = number_or_none(value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        assert number is value
    else:
        assert number is None


def test_booleans_are_not_numbers_and_the_empty_string_is_a_string() -> None:
    assert number_or_none(True) is None and number_or_none(0) == 0 and number_or_none(0.5) == 0.5
    assert str_or_none("") == "" and nonempty_str_or_none("") is None
    assert bool_or_none(0) is None and bool_or_none(False) is False
