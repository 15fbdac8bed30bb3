"""The chatluna-renderer dialect never raises, never recurses without bound and never runs
without end, whatever the text: arbitrary text, text without braces, deep nesting, endless loops,
huge outputs, failing functions."""

from __future__ import annotations

from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from inspector.jsjson import utf16_len
from inspector.zones import diagnostic as dg
from inspector.zones.lexer import STYLE_KEYS, spans, spans_utf16
from inspector.zones.renderer import (
    TOTAL_ITERATIONS,
    check_template,
    render_detailed,
    render_template,
)

VALUES = {"t": True, "f": False, "n": 3, "s": "ab", "l": [1, [2, None]], "o": {"k": "v"}, "z": None}
FUNCTIONS = {"echo": lambda args, _v: "|".join(args)}

# Pieces that make templates dense in tags, blocks, strings and operators.
_PIECES = st.sampled_from([
    "{", "}", "{{", "}}", "if ", "elseif ", "else", "/if", "for x in ", "/for", "while ", "/while", "repeat ",
    "/repeat", "t", "f", "n", "s", "l", "o", "z", "x", "echo(", ")", "(", "[", "]", ".", ",", "?", ":", '"', "'",
    "\\", "+", "-", "*", "/", "%", "==", "!=", "<", ">=", "&&", "||", "!", " ", "\n", "\r\n", "1", "2.5", "你好",
    "😀", "toString", "constructor", "__proto__", "length",
])
TEMPLATES = st.lists(_PIECES, max_size=40).map("".join)


def _assert_covers(text: str, runs: list[tuple[int, int, str]]) -> None:
    pos = 0
    for start, end, key in runs:
        assert start == pos and end > start and key in STYLE_KEYS
        pos = end
    assert pos == len(text)


@hsettings(max_examples=400, deadline=None)
@given(st.one_of(TEMPLATES, st.text(max_size=60)))
def test_any_text_renders_checks_and_highlights_without_raising(source):
    out = render_template(source, VALUES, FUNCTIONS)
    assert isinstance(out.text, str)
    assert all(isinstance(d, dg.Diagnostic) for d in out.diagnostics)
    assert dg.INTERNAL_ERROR not in [d.code for d in out.diagnostics]  # no bug of ours was caught
    for d in out.diagnostics:
        assert 0 <= d.start_utf16 <= d.end_utf16 <= utf16_len(source)
    for d in check_template(source, VALUES, FUNCTIONS):
        assert 0 <= d.start_utf16 <= d.end_utf16 <= utf16_len(source)
    _assert_covers(source, spans(source, "chatluna-renderer"))


@hsettings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_characters="{}"), max_size=200))
def test_text_without_braces_renders_unchanged(source):
    out = render_template(source, VALUES)
    assert out.text == source
    assert out.variables == () and out.diagnostics == ()
    assert check_template(source, (), ()) == ()


@hsettings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(["{{", "}}"]),
                          st.text(alphabet=st.characters(blacklist_characters="{}"), min_size=1, max_size=8)),
                max_size=20))
def test_escapes_write_one_brace(parts):
    source = "".join(parts)
    expected = "".join({"{{": "{", "}}": "}"}.get(p, p) for p in parts)
    assert render_template(source, {}).text == expected


@hsettings(max_examples=200, deadline=None)
@given(TEMPLATES)
def test_spans_map_the_text_back_to_the_source(source):
    out = render_detailed(source, VALUES, FUNCTIONS)
    if out.failed:
        assert out.text == "" and out.spans == []
        return
    pos = 0
    for s0, s1, t0, t1, verbatim in out.spans:
        assert t0 == pos and t1 > t0 and 0 <= s0 < s1 <= len(source)
        if verbatim:
            assert source[s0:s1] == out.text[t0:t1]
        pos = t1
    assert pos == len(out.text)


def test_an_expression_nested_100000_deep_is_a_parse_problem_not_a_recursion_error():
    source = "{" + "(" * 100_000 + "1" + ")" * 100_000 + "}"
    out = render_template(source, {})
    assert out.text == source  # kept as text, as the renderer keeps a tag it cannot parse
    assert [d.code for d in out.diagnostics] == [dg.PARSE_ERROR]
    assert "nested" in out.diagnostics[0].message
    for prefix in ("!" * 100_000, "t ? " * 50_000):
        assert render_template("{" + prefix + "1}", {"t": True}).diagnostics[0].code == dg.PARSE_ERROR


def test_blocks_nested_20000_deep_fail_with_an_error_and_no_recursion():
    source = "{if t}" * 20_000 + "x" + "{/if}" * 20_000
    out = render_template(source, {"t": True})
    assert out.text == ""
    errors = [d for d in out.diagnostics if d.severity == dg.ERROR]
    assert errors and errors[0].code == dg.PARSE_ERROR
    assert len(out.diagnostics) <= 202  # problems past the first 200 are counted in one note
    assert check_template(source, ["t"], ())  # the check walks it too
    _assert_covers(source, spans(source, "chatluna-renderer"))


def test_long_flat_chains_render():
    assert render_template("{" + "1+" * 20_000 + "1}", {}).text == "20001"
    assert render_template("{s" + ".length" * 3 + "}", {"s": "abc"}).text == "0"  # 3 has no length: ""
    assert render_template("{l" + "[0]" * 5000 + "}", {"l": [[[]]]}).text == ""


def test_while_stops_at_the_renderers_cap_with_a_warning():
    out = render_template("{while true}x{/while}", {})
    assert out.text == "x" * 10_000
    [d] = out.diagnostics
    assert d.code == dg.LOOP_LIMIT and d.severity == dg.WARNING
    assert (d.start_utf16, d.end_utf16) == (0, 12)
    assert render_template("{while true}x{/while}", {}, loop_limit=5).text == "xxxxx"


def test_nested_endless_loops_stop_at_the_render_budget():
    out = render_template("{while true}{while true}{/while}{/while}", {})
    assert out.text == ""
    assert any(d.code == dg.LOOP_LIMIT and d.severity == dg.ERROR and str(TOTAL_ITERATIONS) in d.message
               for d in out.diagnostics)
    out = render_template("{repeat n}x{/repeat}", {"n": 1e300})
    assert len(out.text) == TOTAL_ITERATIONS
    assert any(d.code == dg.LOOP_LIMIT for d in out.diagnostics)


def test_the_output_budget_stops_the_text():
    out = render_template("{repeat 1000}ab{/repeat}", {}, output_limit=101)
    assert out.text == "ab" * 50 + "a"
    assert [d.code for d in out.diagnostics] == [dg.OUTPUT_LIMIT]
    big = render_template("{s}{s}{s}", {"s": "x" * 1000}, output_limit=2500)
    assert len(big.text) == 2500


def test_failing_functions_never_escape():
    def boom(_args, _vars):
        raise RuntimeError("boom")

    bare = render_template("a{boom}b", {}, {"boom": boom})
    assert bare.text == "ab" and bare.variables == ("boom",)
    assert [d.code for d in bare.diagnostics] == [dg.INTERNAL_ERROR]
    called = render_template("a{boom(1)}b", {}, {"boom": boom})
    assert called.text == "ab" and called.variables == ()
    header = render_detailed("a{if boom(1)}x{/if}b", {}, {"boom": boom})
    assert header.failed and header.text == ""


def test_rendering_does_not_change_the_values():
    values = {"l": [3, 1, 2], "o": {"k": [1]}}
    render_template("{l.join}{l.at}{l.slice}{l.flat}{o.k.push}{for x in l}{x}{/for}", values)
    assert values == {"l": [3, 1, 2], "o": {"k": [1]}}


def test_highlighting_is_in_utf16_units():
    text = "😀{if a}x{/if}"
    runs = spans_utf16(text, "chatluna-renderer")
    assert runs[0] == (0, 2, "text")
    assert runs[-1][1] == utf16_len(text)


def test_an_unexpected_error_is_one_diagnostic_not_a_traceback(monkeypatch):
    import inspector.zones.renderer as renderer

    def broken(*_args, **_kwargs):
        raise ValueError("a bug")

    monkeypatch.setattr(renderer, "render_tree", broken)
    monkeypatch.setattr(renderer, "references", broken)
    out = renderer.render_template("{x}", {"x": 1})
    assert out.text == "" and [d.code for d in out.diagnostics] == [dg.INTERNAL_ERROR]
    assert [d.code for d in renderer.check_template("{x}", [], [])] == [dg.INTERNAL_ERROR]


def test_many_steps_within_the_iteration_budget_stop_too():
    source = "{repeat 100000}" + "{z}" * 50 + "{/repeat}"
    out = render_template(source, {"z": None})
    assert out.text == ""
    assert any(d.code == dg.LOOP_LIMIT and d.severity == dg.ERROR and "steps" in d.message for d in out.diagnostics)
    huge = "{repeat 1000}{" + "1+" * 20_000 + "1}{/repeat}"
    out = render_template(huge, {})
    assert 0 < len(out.text) < 1000 * 5
    assert any("steps" in d.message for d in out.diagnostics)


def test_a_text_cut_by_the_output_budget_keeps_its_spans_exact():
    out = render_detailed("abcdef{x}", {"x": "y"}, output_limit=3)
    assert out.text == "abc" and out.spans == [(0, 3, 0, 3, True)]
    out = render_detailed("{x}abc", {"x": "yy"}, output_limit=3)
    assert out.text == "yya" and out.spans == [(0, 3, 0, 2, False), (3, 4, 2, 3, True)]


def test_array_methods_that_mutate_in_javascript_give_their_result_without_changing_the_value():
    values = {"a": [3, 1, 10, None, 2]}
    out = render_template("{a.sort}|{a.reverse}|{a.pop}|{a.shift}|{a.fill}|{a}", values)
    # sort() orders by String(item) (so 10 before 2; null is "null"); fill() with no value is undefined
    assert out.text == "1,10,2,3,|2,,10,1,3|2|3|,,,,|3,1,10,,2"
    assert values == {"a": [3, 1, 10, None, 2]}
