"""A request's layout (inspector.cache.layout): the breakpoints read from a body without building
parts (breakpoint_ttls, what the turn stepper prices a write by) are those build_layout finds."""

from __future__ import annotations

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.cache.layout import breakpoint_ttls, build_layout
from inspector.cache.parts import PartTable
from inspector.cache.payload import decode_payload
from inspector.cache.rules import default_rules
from inspector.store import open_store
from inspector.wire.protocols import ANTHROPIC_MESSAGES, OPENAI_CHAT


def _layout_ttls(body: dict, protocol: str) -> list[str | None]:
    raw = orjson.dumps({"providerRequests": [{"provider": "anthropic", "protocol": protocol, "body": body,
                                              "complete": True}], "model": "claude-sonnet-4-5",
                        "messages": []})
    dec = decode_payload(raw)
    rules = default_rules().resolve(dec.provider, dec.protocol, dec.model)
    return [ttl for _, ttl in build_layout(dec, PartTable(), rules, None).breakpoints]


_CC = st.sampled_from([None, {"type": "ephemeral"}, {"type": "ephemeral", "ttl": "1h"}, {"type": "ephemeral",
                                                                                         "ttl": "5m"}, False])


def _block(text: str, cc):
    block = {"type": "text", "text": text}
    if cc is not None:
        block["cache_control"] = cc
    return block


_BLOCKS = st.lists(st.builds(_block, st.sampled_from(["a", "b", "雾"]), _CC), max_size=3)
_TOOLS = st.lists(st.builds(lambda n, cc: {"name": n, "input_schema": {}, **({"cache_control": cc} if cc else {})},
                            st.sampled_from(["roll", "look"]), _CC), max_size=2)
_MESSAGES = st.lists(st.builds(lambda role, content: {"role": role, "content": content},
                               st.sampled_from(["user", "assistant"]), st.one_of(_BLOCKS, st.just("plain"))),
                     max_size=4)


@settings(max_examples=200, deadline=None)
@given(_TOOLS, st.one_of(_BLOCKS, st.just("a system string")), _MESSAGES)
def test_breakpoints_of_a_body_are_the_layouts(tools, system, messages):
    body = {"model": "claude-sonnet-4-5", "system": system, "messages": messages, "max_tokens": 10}
    if tools:
        body["tools"] = tools
    assert breakpoint_ttls(ANTHROPIC_MESSAGES, body) == _layout_ttls(body, ANTHROPIC_MESSAGES)


def test_other_wires_and_bodies_without_a_prompt_have_no_breakpoints():
    marked = {"role": "user", "content": [_block("a", {"type": "ephemeral"})]}
    assert breakpoint_ttls(OPENAI_CHAT, {"messages": [marked]}) == []
    assert breakpoint_ttls(ANTHROPIC_MESSAGES, {"tools": [{"name": "x", "cache_control": {"type": "ephemeral"}}]}) == []
    assert breakpoint_ttls(ANTHROPIC_MESSAGES, None) == []


def test_every_demo_request_has_the_layouts_breakpoints(demo_store):
    rules = default_rules()
    table = PartTable()
    anthropic = 0
    with open_store(demo_store) as store:
        for session in store.sessions():
            for row in store.iter_llm_calling_rows(session.id):
                dec = decode_payload(row[2])
                layout = build_layout(dec, table, rules.resolve(dec.provider, dec.protocol, dec.model), None)
                body = orjson.loads(dec.raw_body) if dec.raw_body is not None else dec.body
                assert breakpoint_ttls(dec.protocol, body) == [ttl for _, ttl in layout.breakpoints]
                anthropic += bool(layout.breakpoints)
    assert anthropic


def test_the_settings_part_holds_the_hashed_settings_and_anthropic_keys_the_rest():
    from inspector.cache.cache_keys import option_values
    from inspector.cache.layout import hashed_settings

    def keys(protocol):
        return default_rules().cache_keys.get(protocol, ())

    def keyed(protocol):
        return default_rules().resolve(None, protocol, None).keyed_fields

    fields = {"tool_choice": {"type": "any"}, "response_format": {"type": "json"}, "text": {"format": "x"},
              "thinking": {"type": "enabled"}, "temperature": 1}
    assert hashed_settings(OPENAI_CHAT, fields, keyed(OPENAI_CHAT)) == {"tool_choice": {"type": "any"}, "response_format": {"type": "json"}}
    assert hashed_settings("openai-responses-v1", fields, keyed("openai-responses-v1")) == {"tool_choice": {"type": "any"},
                                                              "response_format": {"type": "json"},
                                                              "text": {"format": "x"}}
    assert hashed_settings(ANTHROPIC_MESSAGES, fields, keyed(ANTHROPIC_MESSAGES)) == {"response_format": {"type": "json"}}
    assert option_values(keys(ANTHROPIC_MESSAGES), fields) == (("tool_choice", b'{"type":"any"}'),
                                                         ("thinking", b'{"type":"enabled"}'))
    assert option_values(keys(OPENAI_CHAT), fields) == ()
    body = {"model": "claude-sonnet-4-5", "messages": [{"role": "user", "content": "hi"}], **fields}
    raw = orjson.dumps({"providerRequests": [{"provider": "anthropic", "protocol": ANTHROPIC_MESSAGES, "body": body,
                                              "complete": True}], "model": "claude-sonnet-4-5", "messages": []})
    dec = decode_payload(raw)
    layout = build_layout(dec, PartTable(), default_rules().resolve(dec.provider, dec.protocol, dec.model), None)
    assert [p.element for p in layout.parts[layout.n_tools : layout.n_tools + layout.n_settings]] == [
        hashed_settings(ANTHROPIC_MESSAGES, fields, keyed(ANTHROPIC_MESSAGES))]
