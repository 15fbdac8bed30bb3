"""Kernel → provider body serialisation, projection and cache key (covel-assembly.md §3-4,
covel-db.md §2.3, §4)."""

from __future__ import annotations

import hashlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.covel import markers as M
from inspector.covel.assembly import AssemblyInput, LoreEntry, RuntimeSpec, Segment, assemble
from inspector.cache.rules import default_rules
from inspector.wire.protocols import (
    ALL_PROTOCOLS,
    ANTHROPIC_MESSAGES,
    GOOGLE_GENERATIVE_AI,
    OPENAI_CHAT,
    OPENAI_RESPONSES,
    PROVIDER_BODY_FIELDS,
    allowed_body_fields,
)
from inspector.wire.serialise import (
    EPHEMERAL,
    omit_image_data,
    project_body,
    prompt_cache_key_for,
    serialise,
    split_cache_segments,
    to_anthropic_messages,
    to_gemini,
    to_openai_chat,
    to_openai_responses,
)

S = M.CACHE_SENTINEL
TOOLS = [{"name": "emit-event", "description": "Emit a domain event.", "jsonSchema": {"type": "object"}}]
SYSTEM = f"PREAMBLE{S}\n\nBODY{S}\n\nSTABLE{S}\n\nBEFORE\n\nAFTER{S}\n\nTAIL"


def sys_msg(text: str) -> dict:
    return {"role": "system", "content": text}


def user(text) -> dict:
    return {"role": "user", "content": text}


def assistant(text, calls=None) -> dict:
    m = {"role": "assistant", "content": text}
    if calls:
        m["toolCalls"] = calls
    return m


def tool(call_id: str, text: str) -> dict:
    return {"role": "tool", "content": text, "toolCallId": call_id}


def cached(block_or_message) -> bool:
    content = block_or_message.get("content", block_or_message)
    if isinstance(content, list):
        return any("cache_control" in b for b in content)
    return "cache_control" in block_or_message


def marked_indices(body) -> list[int]:
    return [i for i, m in enumerate(body["messages"]) if isinstance(m["content"], list) and cached(m)]


def count_breakpoints(body) -> int:
    return json.dumps(body).count('"cache_control"')


# --- sentinel --------------------------------------------------------------------------------


def test_split_cache_segments_trims_trailing_and_drops_empty():
    pieces = split_cache_segments(f"A  \n{S}{S}\n\nB\t{S}\n\nC\n")
    assert pieces == [("A", True), ("\n\nB", True), ("\n\nC", False)]


def realistic_request():
    return assemble(
        AssemblyInput(
            locale="en",
            runtime=RuntimeSpec("narrator/main", "narrator", "You narrate.", output_kind="story",
                                completion="story", advertise_events=True),
            segments=[Segment("notes", "<character-notes>n</character-notes>", volatility="session"),
                      Segment("dims", "<world-dimensions>d</world-dimensions>", volatility="turn"),
                      Segment("rule", "Never speak for the player.", position="post-history")],
            lore=[LoreEntry("after lore", "after_plugin")],
            world_lore="The barrow.",
            event_catalog="- door-opened",
            history=[user("hello"), assistant("The lantern flickers.")],
            player_message="I raise the lantern.",
        )
    )


@settings(max_examples=40, deadline=None)
@given(
    protocol=st.sampled_from(ALL_PROTOCOLS),
    late=st.sampled_from([None, True, False]),
    strategy=st.sampled_from([None, "anthropic-explicit", "none"]),
    extra=st.lists(st.sampled_from(["system", "user", "assistant"]), max_size=4),
)
def test_sentinel_never_reaches_any_wire(protocol, late, strategy, extra):
    messages = list(realistic_request().messages)
    for role in extra:
        messages.append({"role": role, "content": [{"type": "text", "text": f"x{S}y"}]})
    body = serialise(protocol, messages, TOOLS, model="m", late_system_as_user=late, cache_strategy=strategy)
    text = json.dumps(body, ensure_ascii=False)
    assert M.CACHE_SENTINEL_NAME not in text and "\ue000" not in text


# --- Anthropic -------------------------------------------------------------------------------


def test_anthropic_two_system_breakpoints_first_and_last_boundary():
    body = to_anthropic_messages([sys_msg(SYSTEM), user("hi")], model="claude")
    blocks = body["system"]
    assert [b["text"] for b in blocks] == ["PREAMBLE", "\n\nBODY", "\n\nSTABLE", "\n\nBEFORE\n\nAFTER", "\n\nTAIL"]
    assert [("cache_control" in b) for b in blocks] == [True, False, False, True, False]
    assert blocks[0]["cache_control"] == EPHEMERAL
    assert count_breakpoints(body) <= default_rules().resolve("anthropic", None, "claude").max_breakpoints


def test_anthropic_without_sentinel_or_strategy_is_plain_string():
    assert to_anthropic_messages([sys_msg("plain"), user("hi")], model="c")["system"] == "plain"
    body = to_anthropic_messages([sys_msg(SYSTEM), user("hi")], model="c", cache_strategy=None)
    assert body["system"] == SYSTEM.replace(S, "")
    assert count_breakpoints(body) == 0


def test_anthropic_history_turn_data_action_closing_rule():
    messages = [sys_msg(SYSTEM), user("h1"), assistant("h2"), sys_msg("<runtime-inputs>{}</runtime-inputs>"),
                user("I act."), sys_msg("Closing rule.")]
    body = serialise(ANTHROPIC_MESSAGES, messages, [], model="c")
    wire = body["messages"]
    assert [m["role"] for m in wire] == ["user", "assistant", "user", "user", "user"]
    assert wire[2]["content"] == "<system-instruction>\n<runtime-inputs>{}</runtime-inputs>\n</system-instruction>"
    assert marked_indices(body) == [1, 4]
    assert wire[4]["content"][0]["text"] == M.SYSTEM_INSTRUCTION_OPEN + "Closing rule." + M.SYSTEM_INSTRUCTION_CLOSE
    assert count_breakpoints(body) == 4


def test_anthropic_no_history_turn_data_joins_system():
    messages = [sys_msg(SYSTEM), sys_msg("TURN DATA"), user("I act.")]
    body = serialise(ANTHROPIC_MESSAGES, messages, [], model="c")
    assert body["system"][-1] == {"type": "text", "text": "\n\nTAIL\n\nTURN DATA"}
    assert body["messages"] == [{"role": "user", "content": [
        {"type": "text", "text": "I act.", "cache_control": EPHEMERAL}]}]
    assert count_breakpoints(body) == 3


def test_anthropic_no_history_with_closing_rule_marks_before_first_late():
    # Our reading of the rule is mechanical: the message before the first late instruction is
    # marked even when it is the current action rather than committed history.
    messages = [sys_msg(SYSTEM), sys_msg("TURN DATA"), user("I act."), sys_msg("Closing rule.")]
    body = serialise(ANTHROPIC_MESSAGES, messages, [], model="c")
    assert marked_indices(body) == [0, 1]


def test_anthropic_no_late_instruction_only_last_message():
    body = serialise(ANTHROPIC_MESSAGES, [sys_msg(SYSTEM), user("a"), assistant("b"), user("c")], [], model="c")
    assert marked_indices(body) == [2]
    assert body["messages"][2]["content"] == [{"type": "text", "text": "c", "cache_control": EPHEMERAL}]


def test_anthropic_same_message_gets_one_breakpoint():
    body = serialise(ANTHROPIC_MESSAGES, [sys_msg("s"), user("a"), sys_msg("late")], [], model="c")
    # The message before the first late instruction is "a"; the moving one is the late message.
    assert marked_indices(body) == [0, 1]
    body = serialise(ANTHROPIC_MESSAGES, [sys_msg("s"), user("a")], [], model="c")
    assert marked_indices(body) == [0]


def test_anthropic_continuation_opener_and_tools():
    calls = [{"id": "c1", "name": "roll", "arguments": '{"d":20}'}, {"id": "c2", "name": "roll", "arguments": ""}]
    messages = [sys_msg("s"), assistant("Earlier.", calls), tool("c1", "17"), tool("c2", "3"), user("go")]
    body = serialise(ANTHROPIC_MESSAGES, messages, TOOLS, model="c", max_tokens=1024, sampling={"temperature": 0.7})
    assert list(body) == ["model", "max_tokens", "system", "messages", "tools", "temperature", "stream"]
    wire = body["messages"]
    assert wire[0] == {"role": "user", "content": M.ANTHROPIC_CONTINUATION_OPENER}
    assert wire[1]["content"] == [
        {"type": "text", "text": "Earlier."},
        {"type": "tool_use", "id": "c1", "name": "roll", "input": {"d": 20}},
        {"type": "tool_use", "id": "c2", "name": "roll", "input": {}},
    ]
    assert wire[2] == {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "c1", "content": "17"},
        {"type": "tool_result", "tool_use_id": "c2", "content": "3"},
    ]}
    assert body["tools"] == [{"name": "emit-event", "description": "Emit a domain event.", "input_schema": {"type": "object"}}]
    assert body["max_tokens"] == 1024


def test_anthropic_images():
    content = [{"type": "text", "text": "look"},
               {"type": "image", "image": "aGVsbG8=", "mediaType": "image/jpeg"},
               {"type": "image", "image": "https://cdn.example/p.png", "mediaType": "image/png"},
               {"type": "image", "image": "[image data omitted: 8 base64 characters]", "mediaType": "image/png"}]
    body = to_anthropic_messages([sys_msg("s"), user(content), user("go")], model="c")
    assert body["messages"][0]["content"] == [
        {"type": "text", "text": "look"},
        {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "aGVsbG8="}},
        {"type": "image", "source": {"type": "url", "url": "https://cdn.example/p.png"}},
        {"type": "text", "text": "[image data omitted: 8 base64 characters]"},
    ]


# --- OpenAI Chat -----------------------------------------------------------------------------


def test_openai_chat_shapes():
    calls = [{"id": "c1", "name": "roll", "arguments": '{"d":20}'}]
    messages = [sys_msg(SYSTEM), user("hi"), assistant(None, calls), tool("c1", "17"),
                user([{"type": "text", "text": "pic"}, {"type": "image", "image": "aGk=", "mediaType": "image/png"}])]
    body = serialise(OPENAI_CHAT, messages, TOOLS, model="gpt", max_tokens=500, sampling={"temperature": 1},
                     prompt_cache_key="covel-x")
    assert list(body) == ["model", "messages", "tools", "temperature", "max_tokens", "prompt_cache_key", "stream",
                          "stream_options"]
    assert body["messages"][0] == {"role": "system", "content": SYSTEM.replace(S, "")}
    assert body["messages"][2] == {"role": "assistant", "content": None, "tool_calls": [
        {"id": "c1", "type": "function", "function": {"name": "roll", "arguments": '{"d":20}'}}]}
    assert body["messages"][3] == {"role": "tool", "tool_call_id": "c1", "content": "17"}
    assert body["messages"][4]["content"][1] == {"type": "image_url", "image_url": {"url": "data:image/png;base64,aGk="}}
    assert body["tools"] == [{"type": "function", "function": {
        "name": "emit-event", "description": "Emit a domain event.", "parameters": {"type": "object"}}}]
    assert body["stream_options"] == {"include_usage": True}


def test_openai_chat_late_system_default_off_and_opt_in():
    messages = [sys_msg("s"), user("hi"), sys_msg("late"),
                {"role": "system", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}]
    off = to_openai_chat(messages, model="m")
    assert [m["role"] for m in off["messages"]] == ["system", "user", "system", "system"]
    on = serialise(OPENAI_CHAT, messages, [], model="m", late_system_as_user=True)
    assert on["messages"][0] == {"role": "system", "content": "s"}
    assert on["messages"][2] == {"role": "user", "content": "<system-instruction>\nlate\n</system-instruction>"}
    assert on["messages"][3] == {"role": "user", "content": [
        {"type": "text", "text": M.SYSTEM_INSTRUCTION_OPEN}, {"type": "text", "text": "a"},
        {"type": "text", "text": "b"}, {"type": "text", "text": M.SYSTEM_INSTRUCTION_CLOSE}]}


def test_only_system_messages_are_never_late():
    body = serialise(OPENAI_CHAT, [sys_msg("a"), sys_msg("b")], [], model="m", late_system_as_user=True)
    assert [m["role"] for m in body["messages"]] == ["system", "system"]


# --- OpenAI Responses ------------------------------------------------------------------------


def test_openai_responses_shapes():
    calls = [{"id": "c1", "name": "roll", "arguments": "{}"}]
    messages = [sys_msg(SYSTEM), sys_msg("TC"), user("hi"), assistant("Rolling.", calls), tool("c1", "4"),
                sys_msg("late"), user([{"type": "image", "image": "https://x.example/a.png", "mediaType": "image/png"}])]
    body = serialise(OPENAI_RESPONSES, messages, TOOLS, model="gpt", max_tokens=99, stream=False)
    assert list(body) == ["model", "instructions", "input", "tools", "max_output_tokens", "stream"]
    assert body["instructions"] == SYSTEM.replace(S, "") + "\n\nTC"
    assert body["input"] == [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "Rolling."},
        {"type": "function_call", "call_id": "c1", "name": "roll", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "4"},
        {"role": "system", "content": "late"},
        {"role": "user", "content": [{"type": "input_image", "image_url": "https://x.example/a.png"}]},
    ]
    assert body["tools"] == [{"type": "function", "name": "emit-event", "description": "Emit a domain event.",
                              "parameters": {"type": "object"}}]
    wrapped = to_openai_responses(messages, model="gpt", late_system_as_user=True)
    assert wrapped["input"][4] == {"role": "user", "content": "<system-instruction>\nlate\n</system-instruction>"}


# --- Gemini ----------------------------------------------------------------------------------


def test_gemini_system_instruction_merging_and_shapes():
    messages = [sys_msg(SYSTEM), user("a"), user("b"), sys_msg("turn data"), user("act"),
                assistant("m1"), assistant("m2"), sys_msg("rule")]
    body = serialise(GOOGLE_GENERATIVE_AI, messages, TOOLS, model="gemini", max_tokens=256,
                     sampling={"temperature": 0.5, "top_p": 0.9})
    assert list(body) == ["contents", "systemInstruction", "generationConfig", "tools"]
    assert body["systemInstruction"] == {"parts": [{"text": SYSTEM.replace(S, "")}]}
    assert body["contents"] == [
        {"role": "user", "parts": [{"text": "a"}, {"text": "b"},
                                   {"text": "<system-instruction>\nturn data\n</system-instruction>"}, {"text": "act"}]},
        {"role": "model", "parts": [{"text": "m1"}, {"text": "m2"}]},
        {"role": "user", "parts": [{"text": "<system-instruction>\nrule\n</system-instruction>"}]},
    ]
    assert body["generationConfig"] == {"temperature": 0.5, "topP": 0.9, "maxOutputTokens": 256}
    assert body["tools"] == [{"functionDeclarations": [
        {"name": "emit-event", "description": "Emit a domain event.", "parametersJsonSchema": {"type": "object"}}]}]


def test_gemini_function_responses_stand_alone_and_deferred_instruction():
    calls = [{"id": "c1", "name": "roll", "arguments": '{"d":6}'}, {"id": "c2", "name": "look", "arguments": "{}"}]
    messages = [sys_msg("s"), user("go"), assistant("Let me roll.", calls), sys_msg("between"),
                tool("c1", "5"), tool("c2", "dark"), user("then?"), assistant(None, [{"id": "c3", "name": "roll",
                                                                                     "arguments": "{}"}]),
                assistant("after")]
    contents = to_gemini(messages)["contents"]
    assert contents == [
        {"role": "user", "parts": [{"text": "go"}]},
        {"role": "model", "parts": [{"text": "Let me roll."}, {"functionCall": {"name": "roll", "args": {"d": 6}}},
                                    {"functionCall": {"name": "look", "args": {}}}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "roll", "response": {"content": "5"}}},
                                   {"functionResponse": {"name": "look", "response": {"content": "dark"}}}]},
        # Two user contents in a row: the instruction deferred past the responses, then the text.
        {"role": "user", "parts": [{"text": "<system-instruction>\nbetween\n</system-instruction>"},
                                   {"text": "then?"}]},
        {"role": "model", "parts": [{"functionCall": {"name": "roll", "args": {}}}]},
        # A model content with function calls is never merged with the next model content.
        {"role": "model", "parts": [{"text": "after"}]},
    ]


def test_gemini_text_after_function_response_is_next_user_content():
    messages = [sys_msg("s"), user("go"), assistant(None, [{"id": "c1", "name": "roll", "arguments": "{}"}]),
                tool("c1", "5"), sys_msg("late"), user("ok")]
    contents = to_gemini(messages)["contents"]
    assert [c["role"] for c in contents] == ["user", "model", "user", "user"]
    assert contents[3]["parts"] == [{"text": "<system-instruction>\nlate\n</system-instruction>"}, {"text": "ok"}]


def test_gemini_option_off_old_shape():
    messages = [sys_msg("s"), user("a"), user("b"), sys_msg("late"), user("c")]
    body = serialise(GOOGLE_GENERATIVE_AI, messages, [], model="g", late_system_as_user=False)
    assert body["systemInstruction"] == {"parts": [{"text": "s"}, {"text": "late"}]}
    assert body["contents"] == [{"role": "user", "parts": [{"text": "a"}]}, {"role": "user", "parts": [{"text": "b"}]},
                                {"role": "user", "parts": [{"text": "c"}]}]


def test_gemini_late_parts_joined_empty_skipped_non_text_rejected():
    parts = {"role": "system", "content": [{"type": "text", "text": "x"}, {"type": "text", "text": "y"}]}
    body = to_gemini([user("a"), parts, sys_msg("")])
    assert body["contents"] == [{"role": "user", "parts": [
        {"text": "a"}, {"text": "<system-instruction>\nx\ny\n</system-instruction>"}]}]
    assert "systemInstruction" not in body
    image_system = {"role": "system", "content": [{"type": "image", "image": "aGk=", "mediaType": "image/png"}]}
    with pytest.raises(ValueError, match="Gemini system instructions require text"):
        to_gemini([user("a"), image_system])


def test_gemini_images():
    content = [{"type": "image", "image": "data:image/webp;base64,UklG", "mediaType": "image/png"},
               {"type": "image", "image": "https://x.example/p.png", "mediaType": "image/png"}]
    assert to_gemini([user(content)])["contents"][0]["parts"] == [
        {"inlineData": {"mimeType": "image/webp", "data": "UklG"}},
        {"fileData": {"mimeType": "image/png", "fileUri": "https://x.example/p.png"}},
    ]


def test_unknown_protocol():
    with pytest.raises(ValueError):
        serialise("chat", [], [], model="m")


# --- projection, cache key, trace copy ------------------------------------------------------


def test_projection_drops_and_counts_non_model_fields():
    body = serialise(OPENAI_CHAT, [sys_msg("s"), user("hi")], TOOLS, model="m", prompt_cache_key="covel-abc")
    body["metadata"] = {"session": "x"}
    projected, complete, omitted = project_body(body, OPENAI_CHAT)
    assert "prompt_cache_key" not in projected and "metadata" not in projected
    assert (complete, omitted) == (False, 2)
    assert list(projected) == ["model", "messages", "tools", "stream", "stream_options"]
    clean, complete, omitted = project_body({"model": "m", "messages": []}, OPENAI_CHAT)
    assert (clean, complete, omitted) == ({"model": "m", "messages": []}, True, 0)


def test_projection_keeps_gemini_fields_only_for_gemini():
    body = to_gemini([sys_msg("s"), user("hi")], TOOLS, max_tokens=10)
    projected, complete, omitted = project_body(body, GOOGLE_GENERATIVE_AI)
    assert projected == body and complete and omitted == 0
    _, complete, omitted = project_body(body, OPENAI_CHAT)
    assert omitted == 3 and not complete  # contents, systemInstruction, generationConfig; tools stays
    assert "contents" not in PROVIDER_BODY_FIELDS and "contents" in allowed_body_fields(GOOGLE_GENERATIVE_AI)


def test_projection_redacts_secret_urls():
    content = [{"type": "image_url", "image_url": {"url": "https://user:pw@cdn.example/a.png"}},
               {"type": "image_url", "image_url": {"url": "https://cdn.example/a.png?sig=abc"}},
               {"type": "image_url", "image_url": {"url": "https://cdn.example/a.png"}},
               {"type": "text", "text": "see https://x.example/?q=1 for more"}]
    projected, complete, omitted = project_body({"model": "m", "messages": [{"role": "user", "content": content}]},
                                                OPENAI_CHAT)
    parts = projected["messages"][0]["content"]
    assert parts[0]["image_url"]["url"] == M.REDACTED_URL
    assert parts[1]["image_url"]["url"] == M.REDACTED_URL
    assert parts[2]["image_url"]["url"] == "https://cdn.example/a.png"
    assert parts[3]["text"] == "see https://x.example/?q=1 for more"
    assert not complete and omitted == 0
    assert content[0]["image_url"]["url"].startswith("https://user")  # input untouched


def test_prompt_cache_key():
    key = prompt_cache_key_for("lantern-barrow-replay", "narrator/main")
    expected = hashlib.sha256(b"lantern-barrow-replay\nnarrator/main").hexdigest()[:32]
    assert key == "covel-" + expected and len(key) == 38
    assert key != prompt_cache_key_for("lantern-barrow-replay", "tracker/main")


def test_prompt_cache_key_only_on_openai_wires():
    for protocol in (ANTHROPIC_MESSAGES, GOOGLE_GENERATIVE_AI):
        body = serialise(protocol, [sys_msg("s"), user("u")], [], model="m", prompt_cache_key="covel-k")
        assert "prompt_cache_key" not in json.dumps(body)


def test_trace_copy_omits_base64_and_serialises_note_as_text():
    messages = [user([{"type": "text", "text": "pic"},
                      {"type": "image", "image": "data:image/png;base64,aGVsbG8=", "mediaType": "image/png"},
                      {"type": "image", "image": "https://x.example/a.png", "mediaType": "image/png"}])]
    copy = omit_image_data(messages)
    assert copy[0]["content"][1] == {"type": "image", "image": "[image data omitted: 8 base64 characters]",
                                     "mediaType": "image/png"}
    assert copy[0]["content"][2] == messages[0]["content"][2]
    assert messages[0]["content"][1]["image"].startswith("data:")
    chat = to_openai_chat(copy, model="m")
    assert chat["messages"][0]["content"][1] == {"type": "text", "text": "[image data omitted: 8 base64 characters]"}
    assert to_gemini(copy)["contents"][0]["parts"][1] == {"text": "[image data omitted: 8 base64 characters]"}


def test_serialise_is_pure_and_deterministic():
    messages = [sys_msg(SYSTEM), user([{"type": "text", "text": "x"}]),
                assistant(None, [{"id": "c", "name": "n", "arguments": "{}"}]), tool("c", "r"), sys_msg("late")]
    snapshot = json.dumps(messages)
    for protocol in ALL_PROTOCOLS:
        assert serialise(protocol, messages, TOOLS, model="m") == serialise(protocol, messages, TOOLS, model="m")
        assert json.dumps(messages) == snapshot
