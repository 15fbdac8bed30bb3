"""Reading recorded requests: the four wires, the kernel view and providerRequests bodyRef."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.covel import markers
from inspector.wire.model import NormalisedRequest
from inspector.wire.parse import (
    chat_message_alone,
    detect_protocol,
    from_kernel,
    from_provider_body,
    provider_attempts,
    request_for,
)
from inspector.wire.protocols import (
    ANTHROPIC_MESSAGES,
    GOOGLE_GENERATIVE_AI,
    OPENAI_CHAT,
    OPENAI_RESPONSES,
)

S = markers.CACHE_SENTINEL
OPEN = markers.SYSTEM_INSTRUCTION_OPEN
CLOSE = markers.SYSTEM_INSTRUCTION_CLOSE
NOTE = "[image data omitted: 5120 base64 characters]"


def wrap(text: str) -> str:
    return OPEN + text + CLOSE


# --- kernel -------------------------------------------------------------------------------------


def kernel_payload() -> dict:
    return {
        "model": "deepseek-flash",
        "provider": "deepseek",
        "maxOutputTokens": 2048,
        "streaming": True,
        "messages": [
            {"role": "system", "content": "[RUNTIME] pre" + S + "\n\nbody" + S + "\n\ntail"},
            {"role": "system", "content": markers.PRUNED_MARKER_EN},
            {"role": "user", "content": "I raise the lantern."},
            {"role": "system", "content": "<runtime-inputs>{}</runtime-inputs>"},
            {"role": "user", "content": [{"type": "text", "text": "Pictures"}, {"type": "image", "image": NOTE, "mediaType": "image/png"}]},
            {"role": "assistant", "content": None, "toolCalls": [{"id": "c1", "name": "emit-event", "arguments": '{"a":1}'}]},
            {"role": "tool", "content": "ok", "toolCallId": "c1"},
        ],
        "tools": [{"name": "emit-event", "description": "Emit.", "jsonSchema": {"type": "object"}}],
    }


def test_kernel_splits_first_system_message_at_sentinel_and_folds_leading_systems():
    req = from_kernel(kernel_payload())
    assert req.source == "kernel"
    assert [b.text for b in req.system] == ["[RUNTIME] pre", "\n\nbody", "\n\ntail", markers.PRUNED_MARKER_EN]
    assert [b.source for b in req.system] == ["kernel-sentinel"] * 3 + ["system-message"]
    assert [b.breakpoint_after for b in req.system] == [True, True, False, False]
    # Offsets map back into the recorded string.
    original = kernel_payload()["messages"][0]["content"]
    for b in req.system[:3]:
        assert original[b.origin_offset : b.origin_offset + len(b.text)] == b.text
    assert req.system_message_count == 2
    assert [(c.where, c.index, c.origin) for c in req.cache_breakpoints] == [("system", 0, "sentinel"), ("system", 1, "sentinel")]
    assert [m.index for m in req.messages] == [2, 3, 4, 5, 6]
    assert [m.role for m in req.messages] == ["user", "system", "user", "assistant", "tool"]
    pictures = req.messages[2]
    assert [p.kind for p in pictures.parts] == ["text", "image-note"]
    assert pictures.text == "Pictures"
    call = req.messages[3].parts[0]
    assert (call.kind, call.name, call.call_id, call.text) == ("tool-call", "emit-event", "c1", '{"a":1}')
    result = req.messages[4].parts[0]
    assert (result.kind, result.call_id, result.text) == ("tool-result", "c1", "ok")
    assert req.tools[0].name == "emit-event" and req.tools[0].parameters == {"type": "object"}
    assert req.sampling == {"maxOutputTokens": 2048, "streaming": True}
    assert req.problems == []


def test_kernel_image_url_kept_and_base64_described():
    req = from_kernel({"messages": [
        {"role": "user", "content": [
            {"type": "image", "image": "https://x.test/a.png"},
            {"type": "image", "image": "iVBORw0KGgo="},
        ]},
    ]})
    parts = req.messages[0].parts
    assert [p.kind for p in parts] == ["image", "image"]
    assert parts[0].text == "https://x.test/a.png"
    assert "12 characters" in parts[1].text


# --- OpenAI Chat --------------------------------------------------------------------------------


def test_openai_chat_late_system_wrapped_and_tool_calls():
    body = {
        "model": "gpt-x",
        "messages": [
            {"role": "system", "content": "prompt"},
            {"role": "developer", "content": "more"},
            {"role": "user", "content": "hi"},
            {"role": "user", "content": wrap("<runtime-inputs>{}</runtime-inputs>")},
            {"role": "user", "content": [{"type": "text", "text": OPEN}, {"type": "text", "text": "inner"}, {"type": "text", "text": CLOSE}]},
            {"role": "system", "content": "late, option off"},
            {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "https://x.test/p.png"}}, {"type": "text", "text": NOTE}]},
            {"role": "assistant", "content": None, "tool_calls": [{"id": "t1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "t1", "content": "done"},
        ],
        "tools": [{"type": "function", "function": {"name": "f", "description": "d", "parameters": {"type": "object"}}}],
        "temperature": 0.7,
        "stream": True,
    }
    req = from_provider_body(body, OPENAI_CHAT)
    assert req.protocol == OPENAI_CHAT and not req.protocol_detected
    assert [b.text for b in req.system] == ["prompt", "more"]
    assert [b.source for b in req.system] == ["system-message", "system-message"]
    assert req.system_message_count == 2
    late = req.messages[1]
    assert late.late_system and late.role == "user" and late.index == 3
    assert late.inner_text == "<runtime-inputs>{}</runtime-inputs>"
    assert late.text.startswith(OPEN)
    parts_wrapped = req.messages[2]
    assert parts_wrapped.late_system and parts_wrapped.inner_text == "inner"
    assert req.messages[3].role == "system" and not req.messages[3].late_system
    assert [p.kind for p in req.messages[4].parts] == ["image", "image-note"]
    assert req.messages[5].parts[0].kind == "tool-call" and req.messages[5].parts[0].call_id == "t1"
    assert req.messages[6].role == "tool" and req.messages[6].parts[0].kind == "tool-result"
    assert req.tools[0].parameters == {"type": "object"}
    assert req.sampling == {"temperature": 0.7, "stream": True}
    assert req.model == "gpt-x"


def test_wrapper_needs_exact_markers():
    body = {"messages": [{"role": "user", "content": "<system-instruction>no newline</system-instruction>"}]}
    assert not from_provider_body(body, OPENAI_CHAT).messages[0].late_system


# --- OpenAI Responses ---------------------------------------------------------------------------


def test_openai_responses_items():
    body = {
        "model": "gpt-r",
        "instructions": "sys prompt",
        "input": [
            {"role": "developer", "content": "leading developer"},
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hello"}, {"type": "input_image", "image_url": "https://x.test/i.png"}]},
            {"type": "function_call", "call_id": "c9", "name": "look", "arguments": '{"q":1}'},
            {"type": "function_call_output", "call_id": "c9", "output": "seen"},
            {"role": "system", "content": "late system"},
            {"role": "assistant", "content": [{"type": "output_text", "text": "ok"}]},
        ],
        "tools": [{"type": "function", "name": "look", "description": "Look.", "parameters": {"type": "object"}}],
        "reasoning": {"effort": "low"},
        "store": False,
    }
    req = from_provider_body(body, OPENAI_RESPONSES)
    assert [(b.source, b.text) for b in req.system] == [("instructions", "sys prompt"), ("system-message", "leading developer")]
    assert req.system_message_count == 1
    roles = [(m.role, m.index) for m in req.messages]
    assert roles == [("user", 1), ("assistant", 2), ("tool", 3), ("system", 4), ("assistant", 5)]
    assert req.messages[0].parts[1].kind == "image"
    assert req.messages[1].parts[0].name == "look" and req.messages[1].parts[0].text == '{"q":1}'
    assert req.messages[2].parts[0].text == "seen" and req.messages[2].parts[0].call_id == "c9"
    assert req.tools[0].name == "look"
    assert req.sampling == {"reasoning": {"effort": "low"}, "store": False}


# --- Anthropic ----------------------------------------------------------------------------------


def test_anthropic_cache_control_blocks_and_message_breakpoints():
    eph = {"type": "ephemeral"}
    body = {
        "model": "claude-x",
        "max_tokens": 4000,
        "system": [
            {"type": "text", "text": "[RUNTIME] pre", "cache_control": eph},
            {"type": "text", "text": "body"},
            {"type": "text", "text": "lore", "cache_control": eph},
            {"type": "text", "text": "tail"},
        ],
        "messages": [
            {"role": "user", "content": markers.ANTHROPIC_CONTINUATION_OPENER},
            {"role": "assistant", "content": [{"type": "text", "text": "earlier", "cache_control": eph}]},
            {"role": "user", "content": wrap("<runtime-inputs>{}</runtime-inputs>")},
            {"role": "user", "content": [
                {"type": "text", "text": "pics"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"}},
                {"type": "image", "source": {"type": "url", "url": "https://x.test/a.png"}},
            ]},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "hmm", "signature": "s"},
                {"type": "tool_use", "id": "tu1", "name": "f", "input": {"x": 1}},
            ]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "tu1", "content": [{"type": "text", "text": "r"}], "cache_control": eph}]},
        ],
        "tools": [{"name": "f", "description": "d", "input_schema": {"type": "object"}}],
        "thinking": {"type": "enabled", "budget_tokens": 1024},
    }
    req = from_provider_body(body, ANTHROPIC_MESSAGES)
    assert [b.cache_control for b in req.system] == [True, False, True, False]
    assert all(b.source == "system-block" for b in req.system)
    assert req.system_message_count == 0
    bps = [(c.where, c.index, c.part_index, c.origin) for c in req.cache_breakpoints]
    assert bps == [
        ("system", 0, None, "cache_control"),
        ("system", 2, None, "cache_control"),
        ("message", 1, 0, "cache_control"),
        ("message", 5, 0, "cache_control"),
    ]
    assert req.messages[1].cache_breakpoint and req.messages[5].cache_breakpoint
    assert req.messages[2].late_system and req.messages[2].inner_text == "<runtime-inputs>{}</runtime-inputs>"
    assert [p.kind for p in req.messages[3].parts] == ["text", "image", "image"]
    assert req.messages[3].parts[2].text == "https://x.test/a.png"
    assert [p.kind for p in req.messages[4].parts] == ["thinking", "tool-call"]
    assert req.messages[4].parts[1].text == '{"x":1}'
    tool_msg = req.messages[5]
    assert tool_msg.role == "tool" and tool_msg.wire_role == "user" and tool_msg.text == "r"
    assert req.tools[0].parameters == {"type": "object"}
    assert req.sampling == {"max_tokens": 4000, "thinking": {"type": "enabled", "budget_tokens": 1024}}


def test_anthropic_plain_string_system():
    req = from_provider_body({"system": "one string", "messages": []}, ANTHROPIC_MESSAGES)
    assert [(b.source, b.text, b.cache_control) for b in req.system] == [("system-string", "one string", False)]
    assert req.cache_breakpoints == []


# --- Gemini -------------------------------------------------------------------------------------


def test_gemini_merged_contents_split_back():
    body = {
        "systemInstruction": {"parts": [{"text": "prompt"}, {"text": markers.PRUNED_MARKER_EN}]},
        "contents": [
            {"role": "user", "parts": [{"text": "env one"}, {"text": "env two"}, {"text": "old question"}]},
            {"role": "model", "parts": [{"thought": True, "text": "thinking"}, {"text": "old answer"}]},
            {"role": "user", "parts": [
                {"text": wrap("<runtime-inputs>{}</runtime-inputs>")},
                {"text": "Recent pictures"},
                {"inlineData": {"mimeType": "image/png", "data": NOTE}},
                {"text": "I raise the lantern."},
                {"text": wrap("post segment")},
            ]},
            {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {"a": 1}}}]},
            {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {"ok": True}}}]},
        ],
        "generationConfig": {"temperature": 0.2},
    }
    req = from_provider_body(body, GOOGLE_GENERATIVE_AI)
    assert [(b.source, b.text) for b in req.system] == [("system-instruction", "prompt"), ("system-instruction", markers.PRUNED_MARKER_EN)]
    shape = [(m.role, m.index, m.part_offset, m.late_system) for m in req.messages]
    assert shape == [
        ("user", 0, 0, False),
        ("user", 0, 1, False),
        ("user", 0, 2, False),
        ("assistant", 1, 0, False),
        ("user", 2, 0, True),
        ("user", 2, 1, False),
        ("user", 2, 3, False),
        ("user", 2, 4, True),
        ("assistant", 3, 0, False),
        ("tool", 4, 0, False),
    ]
    assert [p.kind for p in req.messages[3].parts] == ["thinking", "text"]
    assert [p.kind for p in req.messages[5].parts] == ["text", "image-note"]
    assert req.messages[4].inner_text == "<runtime-inputs>{}</runtime-inputs>"
    assert req.messages[8].parts[0].kind == "tool-call"
    assert req.sampling == {"generationConfig": {"temperature": 0.2}}


# --- detection ----------------------------------------------------------------------------------


def test_protocol_detected_from_shape_when_unknown():
    cases = [
        ({"contents": []}, GOOGLE_GENERATIVE_AI),
        ({"system": "x", "messages": []}, ANTHROPIC_MESSAGES),
        ({"messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "f", "input": {}}]}]}, ANTHROPIC_MESSAGES),
        ({"input": "hi"}, OPENAI_RESPONSES),
        ({"instructions": "x"}, OPENAI_RESPONSES),
        ({"messages": [{"role": "user", "content": "hi"}]}, OPENAI_CHAT),
    ]
    for body, expected in cases:
        assert detect_protocol(body) == expected
        req = from_provider_body(body, "chat")
        assert req.protocol == expected and req.protocol_detected and req.declared_protocol == "chat"
    assert from_provider_body({"messages": []}, None).protocol == OPENAI_CHAT
    unknown = from_provider_body({"foo": 1}, "chat")
    assert unknown.protocol is None and unknown.problems and unknown.sampling == {"foo": 1}


def test_malformed_values_are_reported_not_raised():
    req = from_provider_body({"messages": [5, {"role": 3, "content": {"x": 1}}], "tools": "nope"}, OPENAI_CHAT)
    assert len(req.problems) >= 3
    assert [m.index for m in req.messages] == [0, 1]


# --- providerRequests ---------------------------------------------------------------------------


def entry(body=None, **kw) -> dict:
    e = {"schemaVersion": 1, "provider": "deepseek", "protocol": OPENAI_CHAT, "complete": False,
         "omittedFieldCount": 1, "startedAt": "2026-10-06T08:51:12.791Z", "durationMs": 388,
         "transportAttempt": 0, "statusCode": 200}
    if body is not None:
        e["body"] = body
    e.update(kw)
    return e


BODY = {"model": "m", "messages": [{"role": "system", "content": "p"}, {"role": "user", "content": "hi"}]}


def test_v2_body_ref_resolves_backwards():
    payload = {"providerRequests": [
        entry(BODY, statusCode=None, failed=True, transportRetryReason="http-429"),
        {"schemaVersion": 2, "bodyRef": 0, "transportAttempt": 1, "startedAt": "t2", "durationMs": 12, "statusCode": 200},
    ]}
    first, second = provider_attempts(payload)
    assert first.failed and first.retry_reason == "http-429" and first.status_code is None
    assert second.body is BODY and second.body_ref == 0 and second.body_error is None
    assert second.schema_version == 2 and second.transport_attempt == 1 and second.status_code == 200
    # Fields describing the shared body come from the entry referred to.
    assert second.complete is False and second.omitted_field_count == 1 and second.protocol == OPENAI_CHAT


def test_bad_body_refs_never_raise():
    payload = {"providerRequests": [
        entry(BODY),
        {"schemaVersion": 2, "bodyRef": 5},
        {"schemaVersion": 2, "bodyRef": 3},
        {"schemaVersion": 2, "bodyRef": 1},
        {"schemaVersion": 2, "bodyRef": 2},
        {"schemaVersion": 2, "bodyRef": "0"},
        {"schemaVersion": 2, "bodyRef": -1},
        {"schemaVersion": 2, "bodyRef": 6},
        "junk",
        entry(None),
    ]}
    a = provider_attempts(payload)
    assert a[0].body is BODY
    assert a[1].body is None and a[1].body_error == "bodyRef must point backwards to an entry with a body"  # forward
    assert a[2].body_error == "bodyRef must point backwards to an entry with a body"  # forward
    assert a[3].body_error == "bodyRef must point backwards to an entry with a body"  # at a v2 entry
    assert a[4].body_error == "bodyRef must point backwards to an entry with a body"  # at a v2 entry
    assert a[5].body_error == "bodyRef missing or not an integer"
    assert a[6].body_error == "bodyRef -1 points nowhere (only 10 entries)"
    assert a[7].body_error == "bodyRef must point backwards to an entry with a body"  # self
    assert a[8].body_error == "entry is not an object"
    assert a[9].body_error == "body missing"
    nowhere = provider_attempts({"providerRequests": [entry(BODY), {"schemaVersion": 2, "bodyRef": 5}]})
    assert nowhere[1].body is None and nowhere[1].body_error == "bodyRef 5 points nowhere (only 2 entries)"


def test_request_for_prefers_first_resolved_body():
    payload = kernel_payload()
    payload["providerRequests"] = [{"schemaVersion": 2, "bodyRef": 3}, entry(BODY, protocol="chat")]
    req, attempts = request_for(payload)
    assert len(attempts) == 2
    assert req.source == "provider" and req.protocol == OPENAI_CHAT and req.protocol_detected
    assert req.complete is False and req.omitted_field_count == 1
    assert [b.text for b in req.system] == ["p"]


def test_request_for_falls_back_to_kernel():
    req, attempts = request_for(kernel_payload())
    assert req.source == "kernel" and attempts == []
    gemini_empty = kernel_payload()
    gemini_empty["providerRequests"] = [entry({"generationConfig": {}}, protocol=GOOGLE_GENERATIVE_AI)]
    req, _ = request_for(gemini_empty)
    assert req.source == "kernel" and any("no prompt fields" in p for p in req.problems)


# --- never raise --------------------------------------------------------------------------------

KEYS = st.sampled_from([
    "messages", "role", "content", "type", "text", "system", "contents", "parts", "input", "instructions",
    "tools", "function", "name", "arguments", "tool_calls", "toolCalls", "cache_control", "image", "image_url",
    "source", "data", "inlineData", "functionCall", "functionResponse", "systemInstruction", "tool_use_id",
    "call_id", "output", "providerRequests", "schemaVersion", "bodyRef", "body", "jsonSchema", "thought",
    "toolCallId", "reasoningContent", "summary", "url", "media_type",
])
ROLE_VALUES = st.sampled_from(["system", "user", "assistant", "tool", "model", "developer", "text", "image",
                               "tool_use", "tool_result", "function_call", "function_call_output", "message",
                               OPEN + "x" + CLOSE, NOTE, S, markers.PRUNED_MARKER_EN])
json_like = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20) | ROLE_VALUES,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(KEYS | st.text(max_size=5), children, max_size=6),
    max_leaves=40,
)
PROTOCOLS = st.sampled_from([OPENAI_CHAT, OPENAI_RESPONSES, ANTHROPIC_MESSAGES, GOOGLE_GENERATIVE_AI, None, "chat"])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_like, PROTOCOLS)
def test_parsers_never_raise(value, protocol):
    from inspector.anatomy.labelling import label_request

    for req in (from_provider_body(value, protocol), from_kernel(value), request_for(value)[0]):
        assert isinstance(req, NormalisedRequest)
        label_request(req)
    provider_attempts(value)
    wrapped = {"messages": value, "system": value, "contents": value, "input": value, "tools": value}
    label_request(from_provider_body(wrapped, protocol))
    label_request(from_kernel({"messages": value if isinstance(value, list) else [value], "tools": [value]}))


chat_element = json_like | st.fixed_dictionaries(
    {"role": ROLE_VALUES, "content": json_like},
    optional={"tool_calls": json_like, "reasoning_content": st.text(max_size=5), "tool_call_id": json_like,
              "name": json_like},
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chat_element)
def test_a_chat_message_alone_reads_as_in_a_list(element):
    """The cache analysis reads each message element on its own; it must be the message the list
    reader makes of it at index 1 (behind a user message, so never folded into the system)."""
    alone = chat_message_alone(element)
    [listed] = from_provider_body({"messages": [{"role": "user", "content": ""}, element]}, OPENAI_CHAT).messages[1:]
    assert repr(alone) == repr(listed)
