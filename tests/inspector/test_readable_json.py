"""JSON with its string values unescaped (the JSON tabs' "Unescaped" mode)."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from inspector.readable_json import BLOCK_QUOTE, readable_json, readable_value


def test_a_prompt_reads_as_its_lines() -> None:
    body = json.dumps({"messages": [{"role": "system", "content": "\n\n<world-lore>\n# 灯岭镇…\n说\"好\""}]},
                      ensure_ascii=True)
    assert "\\n" in body and "\\u706f" in body
    shown = readable_json(body)
    assert "\\n" not in shown and "\\u" not in shown
    lines = shown.split("\n")
    opener = next(i for i, line in enumerate(lines) if line.endswith(BLOCK_QUOTE))
    assert lines[opener] == f'      "content": {BLOCK_QUOTE}'
    assert lines[opener + 1:opener + 6] == ["", "", "        <world-lore>", "        # 灯岭镇…", '        说"好"']
    assert lines[opener + 6] == "        " + BLOCK_QUOTE


def test_a_one_line_string_stays_quoted_without_escapes() -> None:
    assert readable_value({"a": 'say "hi"\tnow'}) == '{\n  "a": "say "hi"\tnow"\n}'


def test_text_that_is_not_json_is_returned_as_is() -> None:
    assert readable_json("not json {") == "not json {"


def test_crlf_is_a_line_break() -> None:
    assert readable_value("a\r\nb\rc") == f'{BLOCK_QUOTE}\n  a\n  b\n  c\n  {BLOCK_QUOTE}'


_plain = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters='"\\'), max_size=8)
_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | _plain,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_plain, inner, max_size=3),
    max_leaves=12,
)


@given(_values)
def test_without_anything_to_unescape_it_is_the_indented_json(value) -> None:
    assert readable_value(value) == json.dumps(value, indent=2, ensure_ascii=False)
