"""Where each wire keeps its prompt (inspector.wire.fields): the wire reader and the cache
analysis's own reader read the same leading system messages and the same prompt fields."""

from __future__ import annotations

import orjson
import pytest

from inspector.cache.layout import build_layout
from inspector.cache.parts import PartTable
from inspector.cache.payload import decode_payload
from inspector.cache.rules import default_rules
from inspector.wire.fields import LIST_KEYS, PROMPT_FIELDS, SYSTEM_ROLES
from inspector.wire.parse import from_kernel, from_provider_body, request_for
from inspector.wire.protocols import ALL_PROTOCOLS, OPENAI_CHAT, OPENAI_RESPONSES


def test_every_wire_has_its_list_field_among_the_prompt_fields():
    assert set(LIST_KEYS) == set(ALL_PROTOCOLS)
    assert set(LIST_KEYS.values()) <= set(PROMPT_FIELDS)


def _analysis_system_count(protocol: str | None, messages: list) -> int:
    if protocol is None:
        payload = {"messages": messages}
    else:
        payload = {"providerRequests": [{"provider": "openai", "protocol": protocol,
                                         "body": {"model": "gpt-4o", LIST_KEYS[protocol]: messages}, "complete": True}],
                   "model": "gpt-4o", "messages": []}
    dec = decode_payload(orjson.dumps(payload))
    rules = default_rules().resolve(dec.provider, dec.protocol, dec.model)
    return build_layout(dec, PartTable(), rules, None).n_system


@pytest.mark.parametrize("protocol", [OPENAI_CHAT, OPENAI_RESPONSES])
@pytest.mark.parametrize("role", sorted(SYSTEM_ROLES) + ["user", "assistant"])
def test_a_leading_message_of_a_system_role_is_the_system_prompt_for_both_readers(protocol, role):
    messages = [{"role": role, "content": "Be brief."}, {"role": "user", "content": "hi"}]
    body = {"model": "gpt-4o", LIST_KEYS[protocol]: messages}
    read = from_provider_body(body, protocol)
    assert (read.system_message_count == 1) is (role in SYSTEM_ROLES)
    assert _analysis_system_count(protocol, messages) == read.system_message_count


@pytest.mark.parametrize("role", sorted(SYSTEM_ROLES) + ["user", "tool"])
def test_the_kernel_view_has_the_same_system_roles_for_both_readers(role):
    # The request view folded a leading "developer" kernel message into the system prompt while
    # the analysis took it for history; both take every system role now.
    messages = [{"role": role, "content": "Be brief."}, {"role": "user", "content": "hi"}]
    leading = 1 if role in SYSTEM_ROLES else 0
    assert from_kernel({"messages": messages}).system_message_count == leading
    assert _analysis_system_count(None, messages) == leading


@pytest.mark.parametrize("field", PROMPT_FIELDS)
def test_a_body_is_read_as_the_prompt_when_it_has_any_prompt_field(field):
    payload = {"providerRequests": [{"provider": "openai", "protocol": OPENAI_CHAT,
                                     "body": {"model": "gpt-4o", field: []}, "complete": True}],
               "model": "gpt-4o", "messages": [{"role": "user", "content": "kernel"}]}
    request, _ = request_for(payload)
    assert request.source == "provider"
    dec = decode_payload(orjson.dumps(payload))
    assert dec.raw_body is not None or dec.body is not None


def test_a_body_without_prompt_fields_falls_back_to_the_kernel_view_for_both():
    payload = {"providerRequests": [{"provider": "openai", "protocol": OPENAI_CHAT, "body": {"model": "gpt-4o"},
                                     "complete": True}],
               "model": "gpt-4o", "messages": [{"role": "user", "content": "kernel"}]}
    request, _ = request_for(payload)
    assert request.source == "kernel"
    dec = decode_payload(orjson.dumps(payload))
    rules = default_rules().resolve(dec.provider, dec.protocol, dec.model)
    layout = build_layout(dec, PartTable(), rules, None)
    assert layout.body is None and [p.text for p in layout.parts] == ["kernel"]
