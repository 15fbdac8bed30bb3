"""Dialogue history: block splitting, projection with hysteresis, role messages (spec A.6, A.7)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.writing_agent.history import (
    DEFAULT_BLOCK_LIMITS,
    SETTABLE_LIMITS,
    block_limits,
    HistoryOptions,
    append_dialogue_history_turn,
    kept_block_range,
    parse_history_messages,
    project_dialogue_history,
    split_history_blocks,
)


# --- splitting ---------------------------------------------------------------------------------

def test_rule1_headings_brackets_and_role_colons():
    text = "## 用户\n\n你好\n## 助手\n\n在\n【系统】\n提示\n用户：半角前\n助手:全角后"
    assert split_history_blocks(text) == ["## 用户\n\n你好", "## 助手\n\n在", "【系统】\n提示", "用户：半角前", "助手:全角后"]


def test_rule1_needs_whitespace_after_hashes():
    assert split_history_blocks("a\n##b\nc") == ["a", "##b", "c"]  # rule 1 gives one part; rule 3 lines


def test_rule2_blank_line_runs():
    assert split_history_blocks("one\ntwo\n\n\n\nthree\n\nfour") == ["one\ntwo", "three", "four"]


def test_rule3_lines_and_rule4_single_block():
    assert split_history_blocks("  a \n\n") == ["a"]
    assert split_history_blocks("a\n b \n") == ["a", "b"]
    assert split_history_blocks("") == [] and split_history_blocks(" \n ") == []


def test_single_heading_block_falls_to_the_blank_line_rule():
    # Rule 1 finds no split point in one "## 助手" block, so rule 2 separates heading and text.
    assert split_history_blocks("## 助手\n\n开场白") == ["## 助手", "开场白"]


def test_body_line_starting_with_bracket_starts_a_new_block():
    text = "## 助手\n\n他说：\n【旁白】雾更浓了。\n\n## 用户\n\n走"
    assert split_history_blocks(text) == ["## 助手\n\n他说：", "【旁白】雾更浓了。", "## 用户\n\n走"]


# --- projection --------------------------------------------------------------------------------

def blocks(count):
    return "\n\n".join(f"## {'用户' if i % 2 == 0 else '助手'}\n\nb{i}" for i in range(count))


@pytest.mark.parametrize("projection,text", [("fixed", ""), ("summary", ""), (None, "  "), ("full", "\n")])
def test_empty_history(projection, text):
    expected = "" if projection == "fixed" else "（尚无对话历史）"
    assert project_dialogue_history(text, projection).text == expected


def test_fixed_injects_the_placeholder_sentence():
    assert project_dialogue_history(blocks(3), " FIXED ").text == "（本步不注入历史正文）"


def test_mode_defaults_to_full_with_n_80():
    result = project_dialogue_history(blocks(161), None)
    assert result.mode == "full" and result.limit == 80
    assert project_dialogue_history(blocks(3), "unknown").limit == 80
    assert project_dialogue_history(blocks(3), "Brief").limit == 20
    assert project_dialogue_history(blocks(3), "fields").limit == 5


def test_code_window_keeps_the_last_n():
    code = HistoryOptions.code()
    result = project_dialogue_history(blocks(7), "fields", code)
    assert result.kept_start == 2 and result.kept_blocks == 5
    assert result.text.startswith("（仅最近 5 段，更早已省略）\n\n## 用户\n\nb2")
    assert project_dialogue_history(blocks(5), "fields", code).text == blocks(5)


@pytest.mark.parametrize("count,start", [
    (2, 0), (5, 0), (6, 0), (10, 0),  # up to 2n: everything
    (11, 5), (14, 5), (15, 10), (19, 10), (20, 15), (24, 15), (25, 20)])  # past 2n: cut in steps of n
def test_hysteresis_boundaries_with_n_5(count, start):
    result = project_dialogue_history(blocks(count), "fields")
    assert result.kept_start == start
    assert result.kept_blocks == count - start
    if start:
        assert 5 <= result.kept_blocks < 10
        assert result.text.startswith("（仅最近 5 段，更早已省略）\n\n")
        assert result.text.endswith(f"b{count - 1}")
    else:
        assert result.text == blocks(count)


@pytest.mark.parametrize("count,start", [(9, 0), (10, 5), (14, 5), (15, 10)])
def test_hysteresis_boundary_at_or_above_2n(count, start):
    assert kept_block_range(count, 5, HistoryOptions(boundary=">=")) == start


def test_marker_options():
    assert project_dialogue_history(blocks(12), "fields", HistoryOptions(marker="kept")).marker == "（仅最近 7 段，更早已省略）"
    none = project_dialogue_history(blocks(12), "fields", HistoryOptions(marker="none"))
    assert none.marker == "" and none.text.startswith("## 助手\n\nb5")


def test_configurable_limits():
    options = HistoryOptions(limits={"summary": 2, "full": 3})
    assert project_dialogue_history(blocks(5), "summary", options).kept_start == 2
    assert project_dialogue_history(blocks(7), "fields", options).kept_start == 3  # unlisted mode: full's n
    with pytest.raises(ValueError, match="positive integer"):
        HistoryOptions(limits={"full": 0})
    with pytest.raises(ValueError, match="boundary"):
        HistoryOptions(boundary="<")


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 400), st.integers(1, 50), st.sampled_from([">", ">="]))
def test_hysteresis_invariants(count, n, boundary):
    options = HistoryOptions(boundary=boundary)
    start = kept_block_range(count, n, options)
    kept = count - start
    assert start % n == 0
    assert kept == count or n <= kept < 2 * n
    # Growing by one block moves the cut by 0 or exactly n. The one exception is spec A.6's
    # quantised formula at n = 1: the first cut lands at floor((3 - 1) / 1) = 2, past block 1.
    moved = kept_block_range(count + 1, n, options) - start
    assert moved in (0, n) or (n == 1 and start == 0 and moved == 2)


def test_the_first_cut_at_n_1_follows_the_spec_formula():
    options = HistoryOptions(boundary=">")
    assert [kept_block_range(count, 1, options) for count in range(1, 6)] == [0, 0, 2, 3, 4]


# --- messages ----------------------------------------------------------------------------------

def test_writer_format_round_trips_into_role_messages():
    history = ""
    for role, text in [("助手", "开场"), ("用户", "  "), ("用户", "看信"), ("助手", "信封\n\n有火漆"), ("系统", "存档")]:
        history = append_dialogue_history_turn(history, role, text)
    assert history.startswith("## 助手\n\n开场\n\n## 用户\n\n看信")
    messages = parse_history_messages(history)
    assert [(m.role, m.content) for m in messages] == [
        ("assistant", "开场"), ("user", "看信"), ("assistant", "信封\n\n有火漆"), ("system", "存档")]
    with pytest.raises(ValueError):
        append_dialogue_history_turn("", "旁白", "x")


def test_heading_styles():
    text = "【用户】\n你好\n助手：在的\n系统: 提示\n## 用户\n\n再见"
    assert [(m.role, m.content) for m in parse_history_messages(text)] == [
        ("user", "你好"), ("assistant", "在的"), ("system", "提示"), ("user", "再见")]


def test_single_block_history_keeps_its_role():
    assert [(m.role, m.content) for m in parse_history_messages("## 助手\n\n开场白")] == [("assistant", "开场白")]


def test_unrecognised_blocks_policy():
    text = "（仅最近 5 段，更早已省略）\n\n## 助手\n\n他说：\n【旁白】雾更浓了。"
    default = parse_history_messages(text)
    assert [(m.role, m.content, m.recognised) for m in default] == [
        ("system", "（仅最近 5 段，更早已省略）", False), ("assistant", "他说：\n\n【旁白】雾更浓了。", True)]
    as_system = parse_history_messages(text, HistoryOptions(unrecognised="system"))
    assert [m.role for m in as_system] == ["system", "assistant", "system"]
    as_user = parse_history_messages(text, HistoryOptions(unrecognised="user"))
    assert [m.role for m in as_user] == ["user", "assistant", "user"]


def test_event_stream_fallback_block():
    messages = parse_history_messages("## 事件流\n\n[D1] 出发\n\n## 用户\n\n开始")
    assert [(m.role, m.content) for m in messages] == [("system", "## 事件流\n\n[D1] 出发"), ("user", "开始")]


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from(list("ab 用户助手系统#【】:：\n")), max_size=120))
def test_splitting_and_parsing_never_crash_and_lose_no_text(text):
    parts = split_history_blocks(text)
    assert all(p and p == p.strip() for p in parts)
    joined = "".join(parts).replace("\n", "").replace(" ", "")
    assert joined == text.replace("\n", "").replace(" ", "").replace("\r", "")
    for message in parse_history_messages(text):
        assert message.role in ("user", "assistant", "system") and message.content


def test_the_brief_takes_the_summarys_n():
    assert block_limits({}) == dict(DEFAULT_BLOCK_LIMITS)
    assert block_limits({"summary": 7, "full": 9}) == {"fields": 5, "summary": 7, "brief": 7, "full": 9}
    assert "brief" not in SETTABLE_LIMITS and set(SETTABLE_LIMITS) | {"brief"} == set(DEFAULT_BLOCK_LIMITS)
