"""Diagnostics of the chatluna-renderer dialect: codes, severities and UTF-16 spans (CJK and
astral characters before the tag), from ``check_template`` and from ``render_template``."""

from __future__ import annotations

from inspector.zones import diagnostic as dg
from inspector.zones.renderer import check_template, render_detailed, render_template

# "😀" is two UTF-16 units, "你好" two more (Python: three characters): a tag after them starts at unit 4.
PREFIX = "😀你好"


def _one(diagnostics, code):
    found = [d for d in diagnostics if d.code == code]
    assert len(found) == 1, [(d.code, d.message) for d in diagnostics]
    return found[0]


def test_unknown_variable_span_in_utf16_after_cjk_and_astral_characters():
    source = PREFIX + "{nope}"
    d = _one(check_template(source, [], []), dg.UNKNOWN_VARIABLE)
    assert d.severity == dg.ERROR and d.variable == "nope"
    assert (d.start, d.end) == (4, 8)  # Python indices
    assert (d.start_utf16, d.end_utf16) == (5, 9)
    assert (d.line, d.column) == (1, 6)
    # Rendering reads it as nothing and says so, at the same place.
    out = render_template(source, {})
    assert out.text == PREFIX
    r = _one(out.diagnostics, dg.UNKNOWN_VARIABLE)
    assert r.severity == dg.WARNING and (r.start_utf16, r.end_utf16) == (5, 9)


def test_unknown_function_in_a_tag_and_in_a_block_header():
    source = "a\n" + PREFIX + "{ f(x) }"
    d = _one(check_template(source, ["x"], []), dg.UNKNOWN_FUNCTION)
    assert d.severity == dg.ERROR and d.variable == "f"
    assert (d.start_utf16, d.end_utf16) == (2 + 5 + 1, 2 + 5 + 2)
    assert (d.line, d.column) == (2, 7)
    out = render_template(source, {"x": 1})
    assert out.text == "a\n" + PREFIX
    assert _one(out.diagnostics, dg.UNKNOWN_FUNCTION).severity == dg.WARNING
    # In a block header the renderer throws: the whole render fails.
    header = render_detailed(PREFIX + "{if f(x)}y{/if}", {"x": 1})
    assert header.failed and header.text == ""
    e = _one(header.diagnostics, dg.UNKNOWN_FUNCTION)
    assert e.severity == dg.ERROR and (e.start_utf16, e.end_utf16) == (8, 9)


def test_a_call_of_a_variable_says_only_functions_are_called_that_way():
    d = _one(check_template("{x(1)}", ["x"], []), dg.UNKNOWN_FUNCTION)
    assert "only calls registered functions" in d.message
    assert check_template("{x(1)}{x}", ["q"], ["x"]) == ()


def test_unclosed_if_is_an_error_and_the_body_still_renders():
    source = PREFIX + "{if x}body"
    d = _one(check_template(source, ["x"], []), dg.PARSE_ERROR)
    assert d.severity == dg.ERROR and "never closed" in d.message
    assert (d.start_utf16, d.end_utf16) == (4, 10)
    assert render_template(source, {"x": True}).text == PREFIX + "body"


def test_stray_closer_and_else_outside_an_if():
    d = _one(check_template(PREFIX + "{/if}", [], []), dg.PARSE_ERROR)
    assert d.severity == dg.ERROR and (d.start_utf16, d.end_utf16) == (4, 9)
    assert render_template(PREFIX + "{/if}", {}).text == PREFIX + "{/if}"
    e = [d for d in check_template("{else}", [], []) if d.code == dg.PARSE_ERROR]
    assert e and e[0].severity == dg.ERROR


def test_malformed_tags_kept_as_text_are_warnings_or_notes():
    tag = _one(check_template(PREFIX + "{name b}", ["name", "b"], []), dg.PARSE_ERROR)
    assert tag.severity == dg.WARNING and "kept as text" in tag.message
    assert (tag.start_utf16, tag.end_utf16) == (4, 12)
    json_like = _one(check_template('{"role": "user"}', [], []), dg.PARSE_ERROR)
    assert json_like.severity == dg.INFO
    unterminated = _one(check_template(PREFIX + "{name", [], []), dg.PARSE_ERROR)
    assert unterminated.severity == dg.WARNING and (unterminated.start_utf16, unterminated.end_utf16) == (4, 5)
    for_without_in = _one(check_template("{for x}", [], []), dg.PARSE_ERROR)
    assert for_without_in.severity == dg.WARNING
    assert render_template("{for x}", {}).text == "{for x}"


def test_a_block_header_that_does_not_parse_fails_the_render():
    source = PREFIX + "{if a ==}x{/if}"
    d = _one(check_template(source, ["a"], []), dg.PARSE_ERROR)
    assert d.severity == dg.ERROR and "throws" in d.message
    assert d.start_utf16 >= 4 and d.end_utf16 <= 4 + len("{if a ==}")
    out = render_detailed(source, {"a": 1})
    assert out.failed and out.text == "" and out.variables == ()
    assert any(x.severity == dg.ERROR for x in out.diagnostics)


def test_loop_limit_warning_spans_the_while_tag():
    source = PREFIX + "{while true}{/while}"
    d = _one(render_template(source, {}).diagnostics, dg.LOOP_LIMIT)
    assert d.severity == dg.WARNING and (d.start_utf16, d.end_utf16) == (4, 16)


def test_repeat_with_a_bad_count_warns_like_the_renderer():
    out = render_template("{repeat n}x{/repeat}", {"n": -1})
    assert out.text == ""
    assert _one(out.diagnostics, dg.VALUE_TYPE).severity == dg.WARNING
    assert render_template("{repeat n}x{/repeat}", {"n": "2"}).diagnostics == ()


def test_the_check_looks_at_every_branch_and_knows_loop_variables():
    source = "{if a}{b}{elseif c}{d}{else}{e}{/if}{for item in list}{item.name}{/for}{item}"
    unknown = [d.variable for d in check_template(source, ["a", "c", "list"], []) if d.code == dg.UNKNOWN_VARIABLE]
    assert unknown == ["b", "d", "e", "item"]


def test_object_prototype_names_and_bare_functions_are_not_unknown():
    assert check_template("{toString}{constructor}{__proto__}{now}", [], ["now"]) == ()


def test_multiline_tag_positions():
    source = "line one\n你好 {if x}\n{ y +\n  z }\n{/if}"
    found = check_template(source, ["x"], [])
    z = next(d for d in found if d.variable == "z")
    assert (z.line, z.column) == (4, 3)
    y = next(d for d in found if d.variable == "y")
    assert (y.line, y.column) == (3, 3)


def test_a_while_on_a_constant_true_condition_is_flagged_by_the_check():
    d = _one(check_template(PREFIX + "{while 1}x{/while}", [], []), dg.LOOP_LIMIT)
    assert d.severity == dg.WARNING and (d.start_utf16, d.end_utf16) == (4, 13)
    assert check_template("{while 0}x{/while}{while n}x{/while}", ["n"], []) == ()


def test_a_bare_block_keyword_is_an_error():
    for word in ("if", "for", "while", "repeat", "else"):
        assert any(d.code == dg.PARSE_ERROR and d.severity == dg.ERROR
                   for d in check_template("{" + word + "}", [], [])), word
    assert render_template("a{if}b", {}).text == "ab"
