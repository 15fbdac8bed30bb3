"""Covel request assembly (covel-assembly.md §1-2, §5, §9)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.cache.rules import default_rules
from inspector.covel import markers as M
from inspector.covel.assembly import (
    PART_NAMES,
    AssemblyInput,
    LoreEntry,
    RuntimeSpec,
    Segment,
    Summary,
    apply_budget,
    assemble,
    build_preamble,
    compacted_history_text,
    instruction_locale,
    select_segments,
)


def runtime(**kw) -> RuntimeSpec:
    base = dict(runtime_id="narrator/main", plugin_id="narrator", body="You narrate the barrow.")
    base.update(kw)
    return RuntimeSpec(**base)


def story_runtime(**kw) -> RuntimeSpec:
    return runtime(output_kind="story", completion="story", **kw)


def inp(**kw) -> AssemblyInput:
    kw.setdefault("locale", "en")
    kw.setdefault("runtime", story_runtime())
    kw.setdefault("player_message", "I raise the lantern.")
    return AssemblyInput(**kw)


def contents(req) -> list:
    return [m["content"] for m in req.messages]


def roles(req) -> list:
    return [m["role"] for m in req.messages]


def part(req, name):
    return next(p for p in req.system_parts if p.name == name)


# --- preamble -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("zh", "zh"), ("zh-CN", "zh"), ("zh_Hans", "zh"), ("zh-Hant", "en"), ("zh-TW", "en"), ("en-US", "en"),
     ("ja", "en"), (None, "en")],
)
def test_instruction_locale(locale, expected):
    assert instruction_locale(locale) == expected


@pytest.mark.parametrize(
    ("spec", "completion_lines"),
    [
        (dict(completion="story", output_kind="story"), 1),
        (dict(completion="completing-tool", complete_after_tools=("finish-scene",)), 2),
        (dict(completion="structured-output"), 1),
        (dict(completion="runtime-done"), 1),
        (dict(completion="runtime-done", require_tool_use=True), 2),
    ],
)
@pytest.mark.parametrize("locale", ["en", "zh-CN"])
def test_preamble_lines_by_tag(spec, completion_lines, locale):
    text = build_preamble(locale, runtime(**spec))
    lines = text.split("\n")
    tags = [next(t for t in M.PREAMBLE_TAGS if line.startswith(t)) for line in lines]
    assert tags == ["[RUNTIME]"] * 3 + ["[LANGUAGE]"] * 2 + ["[COMPLETION]"] * completion_lines
    first = M.PREAMBLE_RUNTIME_ZH_FIRST_LINE if locale == "zh-CN" else M.PREAMBLE_RUNTIME_EN_FIRST_LINE
    assert lines[0] == first


def test_preamble_completion_variants_differ():
    tool = build_preamble("en", runtime(completion="completing-tool", complete_after_tools=("finish-scene",)))
    assert "finish-scene" in tool and "Do not call runtime-done" in tool
    assert "runtime-done" in build_preamble("en", runtime())
    assert "JSON" in build_preamble("en", runtime(completion="structured-output"))
    assert build_preamble("en", runtime()) != build_preamble("en", runtime(require_tool_use=True))


def test_zh_preamble_is_chinese_and_zh_hant_is_english():
    assert "简体中文" in build_preamble("zh", runtime())
    assert build_preamble("zh-Hant", runtime()).startswith(M.PREAMBLE_RUNTIME_EN_FIRST_LINE)


def test_no_locale_means_no_preamble_part():
    req = assemble(inp(locale=None))
    assert [p.name for p in req.system_parts] == ["runtime-body"]
    assert req.system_prompt == "You narrate the barrow." + M.CACHE_SENTINEL


def test_unknown_completion_mode_is_rejected():
    with pytest.raises(ValueError):
        build_preamble("en", runtime(completion="whenever"))


# --- segments: selection, sort, placement --------------------------------------------------


def test_audience_filter():
    segs = [
        Segment("all", "a"),
        Segment("mine", "b", audience="self", provider_plugin_id="narrator"),
        Segment("theirs", "c", audience="self", provider_plugin_id="memory"),
        Segment("story", "d", audience="story"),
        Segment("contract", "e", audience={"contract": "narrative-engine@1"}),
        Segment("other-contract", "f", audience={"contract": "other@1"}),
    ]
    story = story_runtime(output_contract="narrative-engine@1")
    # Empty provider ids sort before "narrator".
    assert [s.id for s in select_segments(segs, story)] == ["all", "contract", "story", "mine"]
    plain = runtime(plugin_id="memory")
    assert [s.id for s in select_segments(segs, plain)] == ["all", "theirs"]


def test_sort_volatility_then_order_then_provider_code_units_then_id():
    segs = [
        Segment("t", "", volatility="turn", order=-5),
        Segment("s", "", volatility="session", order=-5),
        Segment("b-order1", "", order=1),
        # U+1F600 is a surrogate pair (D83D...) in UTF-16, so it sorts BEFORE U+FFFF there,
        # although its code point is larger.
        Segment("x", "", provider_plugin_id="\uffff"),
        Segment("y", "", provider_plugin_id="\U0001F600"),
        Segment("b", "", provider_plugin_id=""),
        Segment("a", "", provider_plugin_id=""),
    ]
    ordered = [s.id for s in select_segments(segs, runtime())]
    assert ordered == ["a", "b", "y", "x", "b-order1", "s", "t"]


def test_placement_table():
    segs = [
        Segment("sys-stable", "S1", position="system", role="user"),
        Segment("sys-session", "S2", position="system", volatility="session"),
        Segment("sys-turn", "T1", position="system", volatility="turn"),
        Segment("pre-stable", "P1", position="pre-history", order=-1),
        Segment("pre-turn", "P7", position="pre-history", role="system", volatility="turn"),
        Segment("pre-user", "PU", position="pre-history", role="user", volatility="turn"),
        Segment("pre-assistant", "PA", position="pre-history", role="assistant"),
        Segment("post", "POST", position="post-history", volatility="turn"),
        Segment("post-user", "POSTU", position="post-history", role="user"),
        Segment("deep", "D", position={"depth": 1}),
    ]
    req = assemble(inp(segments=segs, history=[{"role": "user", "content": "h1"}, {"role": "assistant", "content": "h2"}]))
    # Part 3 interleaves system and system-role pre-history segments by sort order.
    assert part(req, "stable-segments").text == "P1\n\nS1\n\nS2"
    assert part(req, "turn-segments").text == "P7"
    assert req.turn_context == "T1"
    # Post-history keeps the sort order: the stable segment before the turn-volatile one.
    assert roles(req) == ["system", "assistant", "user", "user", "assistant", "system", "system", "user", "user", "system"]
    assert contents(req)[1:] == ["PA", "PU", "h1", "h2", "D", "T1", "I raise the lantern.", "POSTU", "POST"]


def test_unknown_position_is_rejected():
    with pytest.raises(ValueError):
        assemble(inp(segments=[Segment("x", "x", position="sideways")]))


# --- system prompt parts and sentinels -----------------------------------------------------


def full_input(**kw) -> AssemblyInput:
    return inp(
        runtime=story_runtime(advertise_events=True),
        segments=[
            Segment("notes", "<character-notes>n</character-notes>", volatility="session"),
            Segment("dims", "<world-dimensions>d</world-dimensions>", volatility="turn", audience="story"),
            Segment("late", "P7", position="pre-history", volatility="turn"),
        ],
        lore=[
            LoreEntry("before-2", "before_plugin", order=2),
            LoreEntry("before-1a", "before_plugin", order=1),
            LoreEntry("before-1b", "before_plugin", order=1),
            LoreEntry("after", "after_plugin"),
        ],
        world_lore="The barrow </world-lore> & more",
        event_catalog="- door-opened <x>",
        activation={"payload": {"k": 1}, "source": "stage", "detached": False},
        **kw,
    )


def test_parts_in_render_order_with_sentinels_after_1_2_3_6():
    req = assemble(full_input())
    assert [p.name for p in req.system_parts] == list(PART_NAMES)
    assert [p.name for p in req.system_parts if p.sentinel_after] == [
        "preamble", "runtime-body", "stable-segments", "world-info-after"]
    expected = "\n\n".join(p.text + (M.CACHE_SENTINEL if p.sentinel_after else "") for p in req.system_parts)
    assert req.system_prompt == expected
    assert req.messages[0] == {"role": "system", "content": req.system_prompt}
    assert req.system_prompt.count(M.CACHE_SENTINEL) == 4
    # The turn-volatile part 7 sits after the last sentinel.
    assert req.system_prompt.rsplit(M.CACHE_SENTINEL, 1)[1] == "\n\nP7"


def test_world_lore_first_in_part_3_escaped_and_story_only():
    req = assemble(full_input())
    stable = part(req, "stable-segments").text
    assert stable.startswith("<world-lore>\nThe barrow &lt;/world-lore&gt; &amp; more\n</world-lore>\n\n")
    assert stable.count("</world-lore>") == 1
    assert stable.endswith("<character-notes>n</character-notes>")
    plain = assemble(inp(runtime=runtime(), world_lore="lore"))
    assert "world-lore" not in plain.system_prompt


def test_world_lore_is_fitted_with_ellipsis_line():
    lore = "\n".join(f"line {i} " + "word " * 40 for i in range(2000))
    text = part(assemble(inp(world_lore=lore)), "stable-segments").text
    assert text.endswith("\n…\n</world-lore>")
    assert len(text) < len(lore)


def test_lore_before_sorted_by_order_then_arrival_and_after_part():
    req = assemble(full_input())
    assert part(req, "world-info-before").text == "before-1a\n\nbefore-1b\n\nbefore-2"
    assert part(req, "world-info-after").text == "after"


def test_session_injects_events_then_stage_activation():
    text = part(assemble(full_input()), "session-injects").text
    events, activation = text.split("\n</available-events>\n")
    assert events == "<available-events>\n- door-opened &lt;x&gt;\n" + M.EMIT_EVENT_LINE_EN
    assert activation == '<runtime-activation>{"source":"stage","detached":false,"payload":{"k":1}}</runtime-activation>'


def test_events_need_advertise_flag_and_catalog():
    assert "available-events" not in assemble(inp(event_catalog="- x")).system_prompt
    assert "available-events" not in assemble(inp(runtime=story_runtime(advertise_events=True))).system_prompt


def test_zh_event_line():
    req = assemble(inp(locale="zh-CN", runtime=story_runtime(advertise_events=True), event_catalog="- x"))
    assert M.EMIT_EVENT_LINE_ZH in req.system_prompt


def test_without_after_lore_parts_4_and_5_fall_in_open_tail():
    req = assemble(inp(lore=[LoreEntry("before")], activation={"source": "stage", "detached": False, "payload": None}))
    tail = req.system_prompt.rsplit(M.CACHE_SENTINEL, 1)[1]
    assert tail.startswith("\n\nbefore\n\n<runtime-activation>")


@settings(max_examples=60, deadline=None)
@given(
    flags=st.lists(st.booleans(), min_size=7, max_size=7),
    locale=st.sampled_from([None, "en", "zh"]),
)
def test_sentinel_count_never_exceeds_four(flags, locale):
    lore = []
    if flags[0]:
        lore.append(LoreEntry("b", "before_plugin"))
    if flags[1]:
        lore.append(LoreEntry("a", "after_plugin"))
    segs = []
    if flags[2]:
        segs.append(Segment("s", "stable"))
    if flags[3]:
        segs.append(Segment("t", "turn", position="pre-history", volatility="turn"))
    req = assemble(
        inp(
            locale=locale,
            runtime=story_runtime(advertise_events=flags[4]),
            event_catalog="- e" if flags[5] else None,
            world_lore="w" if flags[6] else None,
            lore=lore,
            segments=segs,
        )
    )
    count = req.system_prompt.count(M.CACHE_SENTINEL)
    assert count <= default_rules().resolve("anthropic", None, "claude").max_breakpoints
    assert count == sum(p.sentinel_after for p in req.system_parts)
    assert all(p.text for p in req.system_parts)


# --- turn context --------------------------------------------------------------------------


def test_turn_context_data_lines_then_segments():
    req = assemble(
        inp(
            inject_blocks=[("narrator-output", "a < b"), ("existing-entries", "x")],
            input_slots={"scene": {"cardinality": "one", "value": "dusk"}},
            export_slots={"log": {"cardinality": "many", "items": []}},
            activation={"source": "event", "detached": True, "payload": {"e": "door"}},
            segments=[
                Segment("mem", "<memory-block>m</memory-block>", volatility="turn"),
                Segment("pc", "<player-character>p</player-character>", volatility="turn", order=1),
            ],
        )
    )
    assert req.turn_context == (
        "<narrator-output>a &lt; b</narrator-output>\n"
        "<existing-entries>x</existing-entries>\n"
        '<runtime-inputs>{"scene":{"cardinality":"one","value":"dusk"}}</runtime-inputs>\n'
        '<runtime-exports>{"log":{"cardinality":"many","items":[]}}</runtime-exports>\n'
        '<runtime-activation>{"source":"event","detached":true,"payload":{"e":"door"}}</runtime-activation>'
        "\n\n<memory-block>m</memory-block>\n\n<player-character>p</player-character>"
    )
    assert req.messages[req.turn_context_index] == {"role": "system", "content": req.turn_context}
    assert req.turn_context_index == req.current_input_index - 1
    assert "runtime-activation" not in req.system_prompt


def test_story_slot_replaced_by_note():
    req = assemble(
        inp(
            runtime=runtime(),
            execution_story=["The door opens."],
            input_slots={"story": {"cardinality": "one", "value": "The door opens."}, "n": {"value": 2}},
        )
    )
    data = json.loads(req.turn_context.removeprefix("<runtime-inputs>").removesuffix("</runtime-inputs>"))
    assert data == {"story": {"cardinality": "one", "value": M.RUNTIME_INPUTS_STORY_NOTE}, "n": {"value": 2}}


def test_no_turn_context():
    req = assemble(inp())
    assert req.turn_context is None and req.turn_context_index is None
    assert req.current_input_index == 1


# --- messages ------------------------------------------------------------------------------


def test_typical_layout_order():
    pictures = [{"type": "image", "image": "https://img.example/a.png", "mediaType": "image/png"}]
    req = assemble(
        inp(
            runtime=runtime(),
            segments=[
                Segment("pre", "PRE", position="pre-history", role="user"),
                Segment("dims", "DIMS", volatility="turn"),
                Segment("post", "POST", position="post-history"),
            ],
            summaries=[Summary("s1", "Earlier.", ("plot",), "2026-01-01T00:00:00.000Z")],
            history=[{"role": "user", "content": "h1"}, {"role": "assistant", "content": "h2"}],
            pictures=pictures,
            execution_story=["Story one.", "", "Story two."],
        )
    )
    assert roles(req) == ["system", "user", "user", "user", "assistant", "system", "user", "user",
                          "assistant", "assistant", "user", "system"]
    c = contents(req)
    assert c[1] == "PRE"
    assert c[2].startswith(M.COMPACTED_HISTORY_OPEN)
    assert c[3:5] == ["h1", "h2"]
    assert c[5] == "DIMS"
    assert c[6][0]["type"] == "text" and c[6][1:] == pictures
    assert c[7] == "I raise the lantern."
    assert c[8:10] == ["Story one.", "Story two."]
    assert c[10] == M.CLOSING_CUE_EN
    assert c[11] == "POST"
    assert req.current_input_index == 7 and req.turn_context_index == 5


def test_blank_input_cues():
    assert contents(assemble(inp(player_message="  ")))[-1] == M.BLANK_INPUT_CUE_EN
    assert contents(assemble(inp(player_message="", locale="zh")))[-1] == M.BLANK_INPUT_CUE_ZH
    manual = contents(assemble(inp(player_message="", manual_trigger=True)))[-1]
    assert manual == M.MANUAL_TRIGGER_CUE_EN_PREFIX + "narrator/main" + M.MANUAL_TRIGGER_CUE_EN_SUFFIX


def test_zh_closing_cue():
    req = assemble(inp(locale="zh-CN", runtime=runtime(), execution_story=["故事。"]))
    assert contents(req)[-1] == M.CLOSING_CUE_ZH


def test_execution_story_without_text_has_no_cue():
    assert contents(assemble(inp(execution_story=["", ""])))[-1] == "I raise the lantern."


def test_kernel_key_order_and_private_keys_stripped():
    history = [
        {"_summaryId": None, "name": "p", "content": "hi", "role": "user"},
        {"toolCalls": [{"id": "c1", "name": "roll", "arguments": "{}"}], "content": None, "role": "assistant"},
        {"toolCallId": "c1", "content": "4", "role": "tool", "_rowId": "r9"},
    ]
    req = assemble(inp(history=history))
    assert [list(m) for m in req.messages[1:4]] == [
        ["role", "content", "name"], ["role", "content", "toolCalls"], ["role", "content", "toolCallId"]]
    assert "_summaryId" in history[0]  # the caller's rows are not mutated


# --- depth insertion -----------------------------------------------------------------------


def base_history(n: int) -> list[dict]:
    return [{"role": "user" if i % 2 == 0 else "assistant", "content": f"h{i}"} for i in range(n)]


def test_depth_insertion_index_is_length_minus_depth():
    # conversation = h0 h1 h2 + player = 4 messages; depth 2 lands before h2.
    req = assemble(inp(history=base_history(3), lore=[LoreEntry("L", "at_depth", depth=2)]))
    assert contents(req)[1:] == ["h0", "h1", "L", "h2", "I raise the lantern."]


def test_depth_zero_or_negative_appends_and_large_depth_goes_first():
    req = assemble(
        inp(
            history=base_history(2),
            lore=[LoreEntry("NEG", "at_depth", depth=-3), LoreEntry("BIG", "at_depth", depth=99)],
            segments=[Segment("zero", "ZERO", position={"depth": 0}),
                      Segment("eq", "EQ", position={"depth": 3})],
        )
    )
    # Both EQ (depth 3 = length) and BIG clamp to index 0 and keep depth order there.
    assert contents(req)[1:] == ["EQ", "BIG", "h0", "h1", "I raise the lantern.", "NEG", "ZERO"]


def test_depth_sorted_by_depth_then_order_equal_keep_declaration():
    req = assemble(
        inp(
            history=base_history(4),
            lore=[
                LoreEntry("A-d1-o5", "at_depth", depth=1, order=5),
                LoreEntry("B-d1-o0", "at_depth", depth=1, order=0),
                LoreEntry("C-d2", "at_depth", depth=2, role="user"),
                LoreEntry("D-d1-o0", "at_depth", depth=1, order=0),
            ],
            segments=[Segment("seg", "E-d1-o0", position={"depth": 1}, role="assistant")],
        )
    )
    assert contents(req)[1:] == ["h0", "h1", "h2", "C-d2", "h3", "B-d1-o0", "D-d1-o0", "E-d1-o0", "A-d1-o5",
                                 "I raise the lantern."]
    assert req.messages[4]["role"] == "user" and req.messages[8]["role"] == "assistant"


def test_depth_counts_conversation_only_and_turn_context_follows_depth_one():
    req = assemble(
        inp(
            history=base_history(2),
            execution_story=["S"],
            segments=[Segment("dims", "TC", volatility="turn"), Segment("d", "D3", position={"depth": 3})],
        )
    )
    # base = h0 h1 player S cue (5); depth 3 -> index 2, just before the player message; the turn
    # context then goes after it, immediately before the player message.
    assert contents(req)[1:] == ["h0", "h1", "D3", "TC", "I raise the lantern.", "S", M.CLOSING_CUE_EN]
    assert req.current_input_index == 5


# --- summaries -----------------------------------------------------------------------------


def test_envelope_format():
    text = compacted_history_text(Summary("s", "They met.", ("plot", "npc")), "en")
    assert text == (
        "<compacted_history>\n# sections: plot, npc\nThey met.\n</compacted_history>\n" + M.COMPACTED_HISTORY_NOTE_EN)
    assert compacted_history_text(Summary("s", "x"), "zh").endswith(M.COMPACTED_HISTORY_NOTE_ZH)


def test_summary_substitution():
    summaries = [
        Summary("late", "LATE", created_at="2026-01-03T00:00:00.000Z"),
        Summary("ref", "REF", created_at="2026-01-02T00:00:00.000Z"),
        Summary("early", "EARLY", created_at="2026-01-01T00:00:00.000Z"),
    ]
    history = [
        {"role": "user", "content": "raw0"},
        {"role": "user", "content": "c1", "_summaryId": "ref"},
        {"role": "assistant", "content": "c2", "_summaryId": "ref"},
        {"role": "user", "content": "orphan", "_summaryId": "gone"},
        {"role": "assistant", "content": "raw1"},
    ]
    req = assemble(inp(summaries=summaries, history=history))
    c = contents(req)[1:]
    assert "\nEARLY\n" in c[0] and "\nLATE\n" in c[1]
    assert c[2] == "raw0"
    assert "\nREF\n" in c[3]
    assert c[4:] == ["raw1", "I raise the lantern."]
    assert all(m["role"] == "user" for m in req.messages[1:3])
    assert not any("_summaryId" in m for m in req.messages)


def test_max_turns_keeps_last_turns_and_drops_summaries():
    history = [
        {"role": "user", "content": "u1"}, {"role": "assistant", "content": "a1"},
        {"role": "user", "content": "u2"}, {"role": "assistant", "content": "a2"},
        {"role": "tool", "content": "t2", "toolCallId": "x"},
        {"role": "user", "content": "u3"}, {"role": "assistant", "content": "a3"},
    ]
    summaries = [Summary("s", "S")]
    req = assemble(inp(runtime=story_runtime(max_turns=2), history=history, summaries=summaries))
    assert contents(req)[1:] == ["u2", "a2", "t2", "u3", "a3", "I raise the lantern."]
    kept = assemble(inp(runtime=story_runtime(max_turns=1, include_summaries=True), history=history,
                        summaries=summaries))
    assert contents(kept)[1].startswith(M.COMPACTED_HISTORY_OPEN)
    assert contents(kept)[2:] == ["u3", "a3", "I raise the lantern."]


def test_deterministic():
    assert assemble(full_input(history=base_history(3))) == assemble(full_input(history=base_history(3)))


# --- budget --------------------------------------------------------------------------------


def chars(text: str) -> int:
    return len(text)


def test_budget_under_cap_is_unchanged():
    msgs = [{"role": "system", "content": "sys"}, {"role": "user", "content": "hi"}]
    result = apply_budget(msgs, 100, chars)
    assert result.messages == msgs and result.pruned_message_count == 0 and result.within_budget


def test_budget_prunes_in_steps_protects_window_and_envelopes():
    env = compacted_history_text(Summary("s", "S"), "en")
    msgs = [
        {"role": "system", "content": "S" * 100},
        {"role": "user", "content": env},
        {"role": "user", "content": "a" * 100},
        {"role": "assistant", "content": "b" * 100},
        {"role": "user", "content": "c" * 100},
        {"role": "assistant", "content": "d" * 100},
        {"role": "system", "content": "turn context"},
        {"role": "user", "content": "now"},
    ]
    total = sum(len(m["content"]) for m in msgs)
    cap = total - 50
    # Over by 50 (+ the marker); a step is 30% of the cap, so one step drops far more than that.
    result = apply_budget(msgs, cap, chars)
    assert result.messages[0] == msgs[0]
    assert result.messages[1] == {"role": "system", "content": M.PRUNED_MARKER_EN}
    assert result.messages[2]["content"] == env
    step = -(-cap * 3 // 10)
    dropped_chars = sum(len(m["content"]) for m in msgs) - sum(
        len(m["content"]) for m in result.messages if m["content"] != M.PRUNED_MARKER_EN)
    assert dropped_chars >= step
    assert result.messages[-2:] == msgs[-2:]
    assert result.within_budget


def test_budget_drops_orphaned_tool_results_and_uses_zh_marker():
    msgs = [
        {"role": "system", "content": "sys"},
        {"role": "assistant", "content": None, "toolCalls": [{"id": "c1", "name": "roll", "arguments": "{}"}]},
        {"role": "tool", "content": "x" * 10, "toolCallId": "c1"},
        {"role": "user", "content": "u" * 50},
        {"role": "user", "content": "now"},
    ]
    result = apply_budget(msgs, 60, chars, locale="zh")
    assert result.messages[1]["content"] == M.PRUNED_MARKER_ZH
    assert all(m["role"] != "tool" for m in result.messages)


def test_budget_counts_images_and_aux_fields():
    msgs = [
        {"role": "system", "content": "s"},
        {"role": "user", "content": [{"type": "image", "image": "u", "mediaType": "image/png"}]},
        {"role": "user", "content": "now"},
    ]
    # 1 + 1500 per image + 3: only the image message is over, and it is outside the window.
    result = apply_budget(msgs, 1000, chars)
    assert result.pruned_message_count == 1
    assert [m["content"] for m in result.messages] == ["s", M.PRUNED_MARKER_EN, "now"]
    named = {"role": "user", "content": "x", "name": "bob"}
    assert apply_budget([named], 1, chars).total_tokens == 1 + len('{"name":"bob"}')
