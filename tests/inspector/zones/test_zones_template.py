"""The template grammar (spec B.3): constructs, the edge cases the spec lists, failure tolerance,
spans; and, with Hypothesis, that parsing never raises and spans always tile the source."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from inspector.zones import diagnostic as dg
from inspector.zones.template import (
    ForBlock,
    IfBlock,
    RepeatBlock,
    Text,
    VarTag,
    WhileBlock,
    lex,
    parse,
    parse_uncached,
)


def only(source: str):
    t = parse_uncached(source)
    assert len(t.nodes) == 1, t.nodes
    return t.nodes[0]


def codes(source: str) -> list[tuple[str, str]]:
    return [(d.code, d.severity) for d in parse_uncached(source).diagnostics]


def test_variable_and_call_arguments() -> None:
    node = only('{lore "dragon gate" 3 -1.5 topic true}')
    assert isinstance(node, VarTag) and node.name == "lore"
    assert [(a.kind, a.value) for a in node.args] == [
        ("string", "dragon gate"), ("number", 3), ("number", -1.5), ("word", "topic"), ("constant", True)]
    assert (node.name_start, node.name_end) == (1, 5)
    assert [(a.start, a.end) for a in node.args] == [(6, 19), (20, 21), (22, 26), (27, 32), (33, 37)]


def test_quoted_strings_keep_braces_and_escapes() -> None:
    node = only(r'''{say "a}b" 'it\'s' "x\"y\n"}''')
    assert [a.value for a in node.args] == ["a}b", "it's", 'x"y\n']


def test_unicode_names() -> None:
    node = only("{变量名 参数1}")
    assert node.name == "变量名" and node.args[0].value == "参数1"


def test_dotted_and_prefixed_names() -> None:
    assert only("{user.name}").name == "user.name"
    assert only("{my-plugin:mood}").name == "my-plugin:mood"


def test_escapes_next_to_tags() -> None:
    # The spec's edge case: {{{name}}} is a literal brace, the tag, a literal brace.
    t = parse_uncached("{{{name}}}")
    kinds = [(type(n).__name__, getattr(n, "text", None)) for n in t.nodes]
    assert kinds == [("Text", "{"), ("VarTag", None), ("Text", "}")]
    assert not t.diagnostics
    # {{name}} is plain text "{name}", not a tag.
    t = parse_uncached("{{name}}")
    assert [n.text for n in t.nodes] == ["{", "name", "}"] and not t.diagnostics
    # }} is special outside tags too; a lone } is plain text.
    assert [n.text for n in parse_uncached("a}}b}c").nodes] == ["a", "}", "b}c"]


def test_if_elseif_else_with_comparisons() -> None:
    node = only('{if n >= 3}a{elseif mode == "group"}b{elseif flag}c{else}d{/if}')
    assert isinstance(node, IfBlock)
    assert [b.keyword for b in node.branches] == ["if", "elseif", "elseif", "else"]
    c0, c1, c2 = (b.condition for b in node.branches[:3])
    assert (c0.left.value, c0.op, c0.right.value) == ("n", ">=", 3)
    assert (c1.op, c1.right.kind, c1.right.value) == ("==", "string", "group")
    assert c2.op is None and c2.left.value == "flag"
    assert node.branches[3].condition is None


def test_every_operator_parses() -> None:
    for op in ("==", "!=", "<", "<=", ">", ">="):
        assert only(f"{{if a {op} 1}}x{{/if}}").branches[0].condition.op == op


def test_loops() -> None:
    node = only("{for x in items}{x}{/for}")
    assert isinstance(node, ForBlock) and node.var == "x" and node.iterable.value == "items"
    assert isinstance(node.body[0], VarTag)
    assert isinstance(only("{while busy}w{/while}"), WhileBlock)
    rep = only("{repeat 3}r{/repeat}")
    assert isinstance(rep, RepeatBlock) and rep.count.value == 3


def test_nested_blocks() -> None:
    node = only("{for g in groups}{if g.active}{repeat 2}{g.name}{/repeat}{/if}{/for}")
    inner_if = node.body[0]
    assert isinstance(inner_if, IfBlock)
    assert isinstance(inner_if.branches[0].body[0], RepeatBlock)


def test_malformed_tags_stay_literal_with_a_diagnostic() -> None:
    for source in ("{if}", "{else x}", "{for x of xs}", "{repeat}", "{a == b}", "{/iff}", "{name @x}",
                   "{if a and b}", "{true}", "{repeat 1 2}"):
        t = parse_uncached(source)
        assert [n.kind for n in t.nodes] == ["literal"], source
        assert t.nodes[0].text == source
        assert [(d.code, d.severity) for d in t.diagnostics] == [(dg.PARSE_ERROR, dg.ERROR)], source


def test_unescaped_json_is_kept_with_a_warning() -> None:
    # The docs: embedding unescaped JSON does not break parsing.
    source = 'data: {"a": 1, "b": [2]} {} { 3 }'
    t = parse_uncached(source)
    assert "".join(n.text for n in t.nodes) == source
    assert {(d.code, d.severity) for d in t.diagnostics} == {(dg.PARSE_ERROR, dg.WARNING)}
    assert len(t.diagnostics) == 3


def test_a_brace_without_closer_on_its_line() -> None:
    t = parse_uncached("{name\n}")
    assert [n.text for n in t.nodes] == ["{", "name\n}"]
    assert codes("{name\n}") == [(dg.PARSE_ERROR, dg.WARNING)]
    assert t.diagnostics[0].start == 0 and t.diagnostics[0].end == 1


def test_unclosed_block_keeps_its_tag_and_parses_its_body() -> None:
    t = parse_uncached("a{if x}b{name}c")
    assert [type(n).__name__ for n in t.nodes] == ["Text", "Text", "Text", "VarTag", "Text"]
    assert t.nodes[1].kind == "literal" and t.nodes[1].text == "{if x}"
    assert codes("a{if x}b{name}c") == [(dg.PARSE_ERROR, dg.ERROR)]


def test_unclosed_if_with_branches_keeps_every_branch_tag() -> None:
    t = parse_uncached("{if a}x{else}y")
    assert [n.text for n in t.nodes] == ["{if a}", "x", "{else}", "y"]


def test_stray_closers_and_branches() -> None:
    assert codes("{/if}") == [(dg.PARSE_ERROR, dg.ERROR)]
    assert codes("x{else}y") == [(dg.PARSE_ERROR, dg.ERROR)]
    assert codes("{elseif a}") == [(dg.PARSE_ERROR, dg.ERROR)]
    t = parse_uncached("{if a}1{else}2{else}3{/if}")
    assert isinstance(t.nodes[0], IfBlock) and len(t.nodes[0].branches) == 2
    assert codes("{if a}1{else}2{else}3{/if}") == [(dg.PARSE_ERROR, dg.ERROR)]


def test_a_closer_recovers_an_outer_block() -> None:
    # The missing {/for} does not swallow the {/if}: the for is closed as unclosed text.
    t = parse_uncached("{if a}{for x in l}{x}{/if}after")
    node = t.nodes[0]
    assert isinstance(node, IfBlock) and t.nodes[1].text == "after"
    assert [type(n).__name__ for n in node.branches[0].body] == ["Text", "VarTag"]
    assert len(t.diagnostics) == 1 and "never closed" in t.diagnostics[0].message


def test_standalone_block_tags_leave_no_blank_lines() -> None:
    source = "a\n{if x}\n  b\n{else}\nc\n{/if}\nd"
    t = parse_uncached(source)
    texts = [n.text for n in t.nodes if isinstance(n, Text)]
    assert texts == ["a\n", "d"]
    branches = t.nodes[1].branches
    assert branches[0].body[0].text == "  b\n" and branches[1].body[0].text == "c\n"
    kept = parse_uncached(source, trim_standalone=False)
    assert kept.nodes[1].branches[0].body[0].text == "\n  b\n"
    # A tag sharing its line with text is not standalone.
    assert parse_uncached("x {if a}\ny{/if}").nodes[0].text == "x "


def test_spans_and_utf16_positions_with_astral_characters() -> None:
    t = parse_uncached("😀{unknown tag @}")
    d = t.diagnostics[0]
    assert (d.start, d.end) == (14, 15)  # the bad token "@"
    assert (d.start_utf16, d.end_utf16) == (15, 16)  # the emoji is two UTF-16 units
    assert (d.line, d.column) == (1, 16)


def test_line_and_column() -> None:
    d = parse_uncached("ok\n  {if}").diagnostics[0]
    assert (d.line, d.column) == (2, 3)


def test_parse_is_cached_per_source() -> None:
    assert parse("cached {x}") is parse("cached {x}")
    assert parse("cached {x}", False) is not parse("cached {x}", True)


def test_lexer_classes() -> None:
    source = '{{ {if n >= 2}{lore "k" 3 true}{/if} {"j": 1}'
    runs = {source[s:e]: k for s, e, k in lex(source)}
    assert runs["{{"] == "escape"
    assert runs["if"] == "keyword" and runs["/if"] == "closer"
    assert runs[">="] == "operator" and runs["lore"] == "name"
    assert runs['"k"'] == "string" and runs["3"] == "number" and runs["true"] == "constant"
    assert runs['{"j": 1}'] == "literal"


# --- Hypothesis --------------------------------------------------------------------------------

_ALPHABET = st.sampled_from(list("{}{}{}ab x=<>!\"'\\/.\n\t-0123😀中") + [
    "{if ", "{elseif ", "{else}", "{/if}", "{for x in ", "{/for}", "{while ", "{/while}",
    "{repeat ", "{/repeat}", "==", " in ", "{{", "}}"])
_SOURCES = st.lists(_ALPHABET, max_size=40).map("".join)


def _tiles(nodes, start: int, end: int) -> None:
    pos = start
    for node in nodes:
        assert node.start == pos, (node, pos)
        assert node.end > node.start
        if isinstance(node, IfBlock):
            bpos = node.start
            for branch in node.branches:
                assert branch.start == bpos
                _tiles(branch.body, branch.tag_end, branch.end)
                bpos = branch.end
            assert bpos == node.close_start
        elif isinstance(node, (ForBlock, WhileBlock, RepeatBlock)):
            _tiles(node.body, node.tag_end, node.close_start)
        pos = node.end
    assert pos == end


@settings(max_examples=600, deadline=None)
@given(_SOURCES)
def test_parser_never_raises_and_spans_tile_the_source(source: str) -> None:
    for trim in (True, False):
        t = parse_uncached(source, trim)
        _tiles(t.nodes, 0, len(source))
        for d in t.diagnostics:
            assert 0 <= d.start <= d.end <= len(source)
            assert d.code == dg.PARSE_ERROR
        for node in t.walk():
            assert 0 <= node.start <= node.end <= len(source)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_parser_never_raises_on_any_text(source: str) -> None:
    t = parse_uncached(source)
    _tiles(t.nodes, 0, len(source))
    # Without trimming, plain text and malformed tags come out exactly as written.
    for node in parse_uncached(source, False).walk():
        if isinstance(node, Text) and node.kind != "escape":
            assert node.text == source[node.start:node.end]


@settings(max_examples=300, deadline=None)
@given(_SOURCES)
def test_lexer_runs_cover_the_source(source: str) -> None:
    pos = 0
    for s, e, _k in lex(source):
        assert s == pos and e > s
        pos = e
    assert pos == len(source)


def test_an_unterminated_string_says_so() -> None:
    # The line has a '}', but it sits inside the open string: the tag never ends.
    t = parse_uncached('前 {lore "灯会} 后')
    assert [(d.severity, d.start, d.end) for d in t.diagnostics] == [("error", 2, 3)]
    assert "string" in t.diagnostics[0].message and "never closed" in t.diagnostics[0].message
    assert "".join(n.text for n in t.nodes) == '前 {lore "灯会} 后'


def test_nested_ifs_close_innermost_first() -> None:
    t = parse_uncached("{if a}{if b}AB{elseif c}AC{/if}{else}{if d}D{/if}{/if}")
    outer = t.nodes[0]
    assert isinstance(outer, IfBlock) and not t.diagnostics
    assert [b.keyword for b in outer.branches] == ["if", "else"]
    inner, = outer.branches[0].body
    assert [b.keyword for b in inner.branches] == ["if", "elseif"]
    assert isinstance(outer.branches[1].body[0], IfBlock)


def test_escapes_right_against_block_tags() -> None:
    t = parse_uncached("{{{if a}}}{{{/if}}}")
    assert [type(n).__name__ for n in t.nodes] == ["Text", "IfBlock", "Text"] and not t.diagnostics
    assert [n.text for n in t.nodes[1].branches[0].body] == ["}", "{"]


# Pieces that form whole tags, broken tags and quotes around braces, so generated sources reach
# every branch of the scanner and parser rather than mostly plain text.
_TAGS = st.sampled_from(list("{}ab =<>!\"'\\/.\n\r\t-0123😀中") + [
    "{a}", "{a.b}", "{a 1 \"x}\" b}", "{/x}", "{if a}", "{if a == 1}", "{if a < \"b\"}", "{elseif b}", "{else}",
    "{/if}", "{for x in a}", "{/for}", "{while a}", "{/while}", "{repeat 2}", "{/repeat}", "{{", "}}", "{{{a}}}",
    "{\"j\": 1}", "{if", "{for x in}", "'", "\\\""])
_TAG_SOURCES = st.lists(_TAGS, max_size=60).map("".join)


@settings(max_examples=600, deadline=None)
@given(_TAG_SOURCES)
def test_spans_tile_and_positions_agree_on_tag_heavy_sources(source: str) -> None:
    from inspector.jsjson import utf16_len

    for trim in (True, False):
        t = parse_uncached(source, trim)
        _tiles(t.nodes, 0, len(source))
        for d in t.diagnostics:
            assert d.start_utf16 == utf16_len(source[:d.start]) and d.end_utf16 == utf16_len(source[:d.end])
            line_start = source.rfind("\n", 0, d.start) + 1
            assert d.line == source.count("\n", 0, d.start) + 1
            assert d.column == utf16_len(source[line_start:d.start]) + 1
    # Untrimmed, the leaf texts put back together are the source with each escape halved.
    untrimmed = parse_uncached(source, False)
    leaves = [n for n in untrimmed.walk() if isinstance(n, Text)]
    assert all(n.text == source[n.start:n.end] for n in leaves if n.kind != "escape")


@settings(max_examples=400, deadline=None)
@given(_TAG_SOURCES, st.sampled_from([None, 0, 1, "", "b", [], [1, "😀"], {"b": 2}, True]))
def test_evaluation_never_raises_and_maps_every_output_character(source: str, value) -> None:
    from inspector.zones.evaluate import evaluate

    ev = evaluate(parse_uncached(source), {"a", "b"}, lambda name, args: value, loop_cap=3)
    pos = 0
    for s0, s1, t0, t1, verbatim in ev.spans:
        assert t0 == pos and t1 > t0 and 0 <= s0 <= s1 <= len(source)
        if verbatim:
            assert ev.text[t0:t1] == source[s0:s1]
        pos = t1
    assert pos == len(ev.text)
