"""The prefix report through its fast path (part texts written by orjson where it can vouch for
them, ``inspector.jsjson._stringify_orjson``) gives the same bytes as through the exact writer
alone, for requests of any shape: tools and structured messages of any JSON, system strings or
blocks, text with CJK, astral characters and lone surrogates."""

from __future__ import annotations

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector import jsjson
from inspector.prefix.report import build_report, report_json, report_table

_TEXT = st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF, blacklist_categories=("Cs",)), max_size=8) \
    | st.sampled_from(["灯岭镇", "한국어", "😀x", "v1.5", "2e+3", "", "a\u2028b"])
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**60), max_value=2**60)
    | st.floats(allow_nan=False, allow_infinity=False) | _TEXT,
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(_TEXT | st.sampled_from(["0", "7", "01"]), children, max_size=3),
    max_leaves=12,
)
_MESSAGE = st.fixed_dictionaries({"role": st.sampled_from(["user", "assistant", "system"]), "content": _TEXT}) \
    | st.fixed_dictionaries({"role": st.just("user"), "content": st.lists(_JSON, max_size=2)}) | _JSON
_REQUEST = st.fixed_dictionaries({
    "tools": st.lists(_JSON, max_size=2),
    "system": st.none() | _TEXT | st.lists(_JSON, max_size=2),
    "messages": st.lists(_MESSAGE, max_size=4),
})


def _rows(requests: list[dict]) -> list[tuple]:
    rows = []
    for turn, request in enumerate(requests):
        body = {k: v for k, v in request.items() if v is not None}
        payload = {"providerRequests": [{"body": body}], "runtimeId": "r"}
        # As Covel writes it: JSON.stringify's text (the exact writer's), in UTF-8.
        rows.append(("s", f"t{turn // 2}", jsjson.js_stringify(payload).encode("utf-8", "surrogatepass"), f"e{turn}"))
    return rows


def _report(rows: list[tuple]) -> tuple[str, str]:
    entries = build_report(rows)
    return report_json(entries), report_table(entries)


@settings(max_examples=100, deadline=None)
@given(st.lists(_REQUEST, min_size=2, max_size=6))
def test_fast_and_exact_writers_give_the_same_report(requests):
    rows = _rows(requests)
    fast = _report(rows)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(jsjson, "_stringify_orjson", lambda value, indent: None)
        exact = _report(rows)
    assert fast == exact


def test_the_fast_writer_takes_the_parts_of_a_covel_request():
    tool = {"type": "function", "function": {"name": "look", "parameters": {"type": "object", "properties": {}}}}
    message = {"role": "user", "content": [{"type": "text", "text": "灯岭镇"}]}
    payload = {"providerRequests": [{"body": {"tools": [tool], "messages": [message]}}], "runtimeId": "r"}
    # The texts the report compares are orjson's, and they are JSON.stringify's.
    assert jsjson._stringify_orjson(tool, None) == orjson.dumps(tool).decode() == jsjson._stringify_exact(tool, "")
    assert jsjson._stringify_orjson(message, None) == jsjson._stringify_exact(message, "")
    entries = build_report([("s", "t1", orjson.dumps(payload), "e1"), ("s", "t2", orjson.dumps(payload), "e2")])
    assert entries[0].pairs[0].first_difference == "(identical)"
    assert entries[0].first_request_chars == [len(orjson.dumps(tool).decode()) + len(orjson.dumps(message).decode())] * 2
