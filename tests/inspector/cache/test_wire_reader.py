"""The analysis's own body reader (inspector.cache.wire_reader): elements read by their bytes equal a full parse."""

from __future__ import annotations

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.cache.parts import PartTable
from inspector.cache.wire_reader import _body_from_bytes, _body_from_dict, _cut_elements
from inspector.wire.protocols import OPENAI_CHAT


# --- reading new elements by their bytes ---------------------------------------------------------

_TEXTS = st.lists(st.sampled_from(list('ab字 "\\}{,:\n') + ['},{"role":']), max_size=8).map("".join)
_CONTENT = st.one_of(
    _TEXTS,
    # Content parts: objects in an array, one of them starting with the same key as a message,
    # so "},{\"role\":" also appears inside an element.
    st.lists(st.one_of(st.fixed_dictionaries({"type": st.just("text"), "text": _TEXTS}),
                       st.fixed_dictionaries({"role": _TEXTS, "note": _TEXTS})), min_size=1, max_size=3),
)
_MESSAGES = st.lists(st.one_of(
    st.fixed_dictionaries({"role": st.sampled_from(["user", "assistant", "system"]), "content": _CONTENT}),
    st.fixed_dictionaries({"name": _TEXTS, "role": st.just("user"), "content": _TEXTS}),  # another first key
), max_size=8)


def _read(body: dict, ref, table):
    data = orjson.dumps(body)
    return data, _body_from_bytes(data, OPENAI_CHAT, ref, table)


@settings(max_examples=400, deadline=None)
@given(_MESSAGES, _MESSAGES, _MESSAGES, st.booleans())
def test_new_elements_read_by_their_bytes_equal_a_full_parse(before, kept, added, same_rest):
    """Each request of a runtime repeats most of the one before and adds elements; those are cut
    apart at "}," plus how an element starts, and a cut is kept only when what it cuts off parses
    (or was seen before). Whatever the elements hold, the body read this way has the parts, the
    element ends and the other members that parsing it whole gives."""
    table = PartTable()
    tools = [{"type": "function", "function": {"name": "roll"}}]
    first = {"model": "m", "messages": before + kept, "tools": tools}
    _, ref = _read(first, None, table)
    assert ref is not None
    second = {"model": "m", "messages": kept + added + before, "tools": tools if same_rest else []}
    data, body = _read(second, ref, table)
    assert body is not None
    whole = _body_from_dict(second, OPENAI_CHAT, PartTable())
    assert [p.key for p in body.parts] == [p.key for p in whole.parts]
    assert body.rest == whole.rest
    messages = second["messages"]
    for i, end in enumerate(body.ends):  # every recorded end is a true element boundary
        assert orjson.loads(b"[" + data[body.list_start : body.list_start + end] + b"]") == messages[: i + 1]


def test_an_element_seen_before_is_taken_by_its_bytes_without_parsing(monkeypatch):
    table = PartTable()
    message = {"role": "user", "content": "雾港的灯"}
    raw = orjson.dumps(message)
    seen = table.element(OPENAI_CHAT, raw, message)
    head = b'{"messages":['
    data = head + raw + b"," + raw + b"]}"
    parsed: list[bytes] = []
    real = orjson.loads
    monkeypatch.setattr(orjson, "loads", lambda b: parsed.append(bytes(b)) or real(b))
    elements, parts, ends = [], [], []
    close = len(data) - 2
    assert _cut_elements(data, len(head), close, OPENAI_CHAT, table, len(head), elements, parts, ends) == close
    assert elements == [seen, seen] and elements[0] is seen
    assert ends == [len(raw), 2 * len(raw) + 1]
    assert parsed == []


def test_a_cut_inside_an_element_is_not_kept():
    """A nested object that starts like a message ("},{\"role\":" inside an element): the slice
    before it does not parse, so the element is left for the caller to parse whole."""
    table = PartTable()
    inner = {"role": "user", "content": [{"type": "text", "text": "a"}, {"role": "x"}]}
    head = b'{"messages":['
    data = head + orjson.dumps(inner) + b"]}"
    elements, parts, ends = [], [], []
    start = len(head)
    assert _cut_elements(data, start, len(data) - 2, OPENAI_CHAT, table, start, elements, parts, ends) == start
    assert elements == [] and ends == []
