"""Evaluating templates: JavaScript value semantics, loops and their caps, unknown names."""

from __future__ import annotations

import math

from inspector.jsjson import UNDEFINED
from inspector.zones import diagnostic as dg
from inspector.zones.evaluate import compare, evaluate, loose_equals, to_number, to_text
from inspector.zones.template import parse_uncached


def run(source: str, values: dict | None = None, *, loop_cap: int = 100):
    values = values or {}

    def resolve(name, args):
        value = values[name]
        return value(*args) if callable(value) else value

    return evaluate(parse_uncached(source), values.keys(), resolve, loop_cap=loop_cap)


def text(source: str, values: dict | None = None, **kw) -> str:
    return run(source, values, **kw).text


def test_insertion_follows_javascript_string() -> None:
    assert text("{a}|{b}|{c}|{d}|{e}|{f}|{g}", {"a": "s", "b": 3, "c": 1.0, "d": True, "e": None,
                                               "f": [1, "x", None], "g": 0.1 + 0.2}) == \
        "s|3|1|true||1,x,|0.30000000000000004"


def test_an_object_value_warns() -> None:
    ev = run("{o}", {"o": {"k": 1}})
    assert ev.text == "[object Object]"
    assert [d.code for d in ev.diagnostics] == [dg.VALUE_TYPE]


def test_dotted_names_read_own_properties() -> None:
    values = {"user": {"name": "阿满", "tags": ["a", "b"], "toString": "own"}}
    assert text("{user.name}/{user.tags.1}/{user.tags.length}/{user.toString}/{user.missing}", values) == \
        "阿满/b/2/own/"
    # Inherited members are not own properties of a list or a string.
    assert text("{user.tags.map}{user.name.length}", values) == "2"


def test_unknown_variable_renders_as_its_own_tag() -> None:
    assert text("hi {nobody here}!") == "hi {nobody here}!"


def test_escapes_render_as_braces() -> None:
    assert text("{{{name}}}", {"name": "n"}) == "{n}"
    assert text("{{name}}", {"name": "n"}) == "{name}"


def test_call_arguments_literal_bare_and_variables() -> None:
    def lore(*args):
        return "|".join(repr(a) for a in args)

    ev = run('{lore "k w" 2 topic known}', {"lore": lore, "known": "K"})
    assert ev.text == "'k w'|2|'topic'|'K'"
    assert ev.values == {"lore k w 2 topic K": ev.text, "known": "K"}


def test_conditions_and_comparisons() -> None:
    src = '{if n > 2}big{elseif n == "2"}two{else}small{/if}'
    assert [text(src, {"n": v}) for v in (3, 2, "2", 1)] == ["big", "two", "two", "small"]
    # JavaScript truthiness: an empty list is true, 0 and "" are false.
    assert [text("{if v}T{else}F{/if}", {"v": v}) for v in ([], 0, "", "0", None, {})] == \
        ["T", "F", "F", "T", "F", "T"]
    assert text("{if missing}T{else}F{/if}") == "F"
    assert text("{if flag == true}yes{/if}", {"flag": True}) == "yes"


def test_javascript_equality_and_ordering() -> None:
    assert loose_equals(1, "1") and loose_equals(True, 1) and loose_equals(None, UNDEFINED)
    assert not loose_equals(None, 0) and not loose_equals("a", "A")
    assert loose_equals([1, 2], "1,2")
    assert compare("10", "<", "9")  # two strings: code-unit order
    assert not compare(10, "<", "9")  # otherwise numbers
    assert not compare("x", "<", 1) and not compare("x", ">=", 1)  # NaN compares false
    assert compare("\uffff", "<", "😀") is False  # code units: 0xFFFF > 0xD83D
    assert math.isnan(to_number("12px")) and to_number(" 12 ") == 12 and to_number("") == 0
    assert to_number("0x10") == 16 and math.isnan(to_number("1_000")) and math.isnan(to_number("٣"))
    assert to_text(UNDEFINED) == "" and to_text(None) == ""


def test_for_binds_the_loop_name() -> None:
    assert text("{for m in members}[{m.name}]{/for}", {"members": [{"name": "a"}, {"name": "b"}]}) == "[a][b]"


def test_loop_name_shadows_a_variable_of_the_same_name() -> None:
    ev = run("{x}{for x in xs}{x}{/for}{x}", {"x": "outer", "xs": [1, 2]})
    assert ev.text == "outer12outer"


def test_for_over_a_non_list() -> None:
    ev = run("{for c in s}{c}{/for}", {"s": "abc"})
    assert ev.text == "" and [d.code for d in ev.diagnostics] == [dg.VALUE_TYPE]
    ev = run("{for c in s}{c}{/for}", {"s": None})
    assert ev.text == "" and not ev.diagnostics


def test_repeat_counts() -> None:
    assert text("{repeat 3}r{/repeat}") == "rrr"
    assert text("{repeat n}r{/repeat}", {"n": "2"}) == "rr"
    ev = run("{repeat 2.5}r{/repeat}")
    assert ev.text == "rrr" and [d.code for d in ev.diagnostics] == [dg.VALUE_TYPE]
    ev = run("{repeat -2}r{/repeat}")
    assert ev.text == "" and [d.code for d in ev.diagnostics] == [dg.VALUE_TYPE]
    ev = run("{repeat n}r{/repeat}", {"n": "many"})
    assert ev.text == "" and [d.code for d in ev.diagnostics] == [dg.VALUE_TYPE]


def test_while_stops_at_the_cap_with_a_diagnostic() -> None:
    ev = run("{while busy}w{/while}", {"busy": True}, loop_cap=7)
    assert ev.text == "w" * 7
    assert [(d.code, d.severity) for d in ev.diagnostics] == [(dg.LOOP_LIMIT, dg.ERROR)]
    assert (ev.diagnostics[0].start, ev.diagnostics[0].end) == (0, 12)
    assert text("{while busy}w{/while}", {"busy": False}) == ""


def test_repeat_and_for_are_capped_too() -> None:
    ev = run("{repeat 1000}r{/repeat}", loop_cap=5)
    assert ev.text == "rrrrr" and [d.code for d in ev.diagnostics] == [dg.LOOP_LIMIT]
    ev = run("{for i in xs}{i}{/for}", {"xs": list(range(10))}, loop_cap=3)
    assert ev.text == "012" and [d.code for d in ev.diagnostics] == [dg.LOOP_LIMIT]


def test_nested_loops_stop_at_the_total_budget() -> None:
    ev = run("{repeat 100}{repeat 100}{repeat 100}x{/repeat}{/repeat}{/repeat}")
    # One tick for the outer iteration, then 101 per middle one: 99 middle iterations fit.
    assert ev.text == "x" * 9900
    assert any(d.code == dg.LOOP_LIMIT and "in all" in d.message for d in ev.diagnostics)


def test_output_spans_map_back_to_the_source() -> None:
    ev = run("ab{x}cd", {"x": "XYZ"})
    assert ev.text == "abXYZcd"
    assert ev.spans == [(0, 2, 0, 2, True), (2, 5, 2, 5, False), (5, 7, 5, 7, True)]


def test_values_record_catalog_reads_only() -> None:
    ev = run("{for m in ms}{m}{/for}{a}", {"ms": [1], "a": "A"})
    assert ev.values == {"ms": [1], "a": "A"} and ev.used == ["ms", "a"]


def test_number_conversion_trims_javascript_whitespace_only() -> None:
    assert to_number("\ufeff 12\u3000") == 12 and to_number("\u2028-3\n") == -3
    assert math.isnan(to_number("\x1c1")) and math.isnan(to_number("1\x85"))


def test_comparisons_across_types_table() -> None:
    # Each row: a, op, b, what JavaScript answers.
    rows = [
        ("10", "<", "9", True), ("10", "<", 9, False), (True, ">", 0, True), (None, ">=", 0, True),
        (UNDEFINED, ">=", 0, False), ([2], ">", 1, True), ([1, 2], ">", 0, False), ("", "==", 0, True),
        ("0", "==", False, True), (None, "==", False, False), ("a", "<", "b", True), ("😀", ">", "\uffff", False),
        ("中", ">", "a", True), (2, "!=", "2", False), ({"k": 1}, "==", "[object Object]", True),
    ]
    for a, op, b, expected in rows:
        assert compare(a, op, b) is expected, (a, op, b)
