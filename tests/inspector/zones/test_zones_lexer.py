"""The Pygments lexers for the editor's highlighter."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st
from pygments.token import Keyword, Name

from inspector.zones.lexer import CovelTemplateLexer, ZonesTemplateLexer, spans, spans_utf16


def keys(text: str, language: str = "zones") -> dict[str, str]:
    return {text[s:e]: k for s, e, k in spans(text, language)}


def test_zones_template_keys() -> None:
    k = keys('{{x}} {if n > 1}{lore "a" 2 null}{/if} {"json": 1}')
    assert k["{{"] == "escape" and k["if"] == "keyword" and k["/if"] == "keyword"
    assert k[">"] == "operator" and k["lore"] == "variable" and k['"a"'] == "string"
    assert k["2"] == "number" and k["null"] == "constant" and k['{"json": 1}'] == "literal"


def test_pygments_tokens() -> None:
    tokens = list(ZonesTemplateLexer().get_tokens("{for x in xs}{x}{/for}"))
    assert (Keyword, "for") in tokens and (Keyword, "in") in tokens and (Name.Variable, "xs") in tokens


def test_covel_keys() -> None:
    text = "Hi {{ world.name }}\n<world-lore>{{ world.lore }}</world-lore>"
    k = keys(text, "covel")
    assert k["{{ world.name }}"] == "variable" and k["{{ world.lore }}"] == "escaped-variable"
    assert k["<world-lore>"] == "tag" and k["</world-lore>"] == "tag"
    assert "".join(v for _i, _t, v in CovelTemplateLexer().get_tokens_unprocessed(text)) == text


def test_utf16_offsets() -> None:
    assert spans_utf16("😀{x}") == [(0, 2, "text"), (2, 3, "brace"), (3, 4, "variable"), (4, 5, "brace")]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(list("{}<>/ab \n😀\"") + ["{{ a }}", "<t>", "</t>", "{if a}", "{/if}"]),
                max_size=30).map("".join),
       st.sampled_from(["zones", "covel"]))
def test_runs_cover_the_text(text: str, language: str) -> None:
    pos = 0
    for s, e, _k in spans(text, language):
        assert s == pos and e > s
        pos = e
    assert pos == len(text)
