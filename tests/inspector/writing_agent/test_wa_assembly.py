"""Order → segments → bodies → bags → preset-framed messages (spec A.3, A.4, A.8, A.9)."""

import pytest

from inspector.tokens import count_exact
from inspector.writing_agent.assembly import AssemblyError, AssemblyOptions, assemble, prepare
from inspector.writing_agent.blackboard import Blackboard, items_from_data
from inspector.writing_agent.framing import (
    BagEntry,
    Bags,
    PresetEntry,
    apply_extended_markers,
    frame_messages,
    parse_preset,
)
from inspector.writing_agent.history import HistoryOptions
from inspector.writing_agent.isolation import role_pov_hides
from inspector.writing_agent.order import parse_context_order, read_context_order
from inspector.writing_agent.scenario import load_scenario, parse_scenario
from inspector.writing_agent.segments import (
    Segment,
    TagReader,
    apply_policy,
    order_slot_to_segments,
    parse_context_segments,
    render_segment_body,
    segment_id,
)
from resources import resource_path

SAMPLE = resource_path("samples", "writing_agent")


def order_of(*inserts, ref="s"):
    return parse_context_order({"slots": [{"ref": ref, "inserts": list(inserts)}]})


# --- order → segments --------------------------------------------------------------------------

def test_order_to_segments_ids_labels_tiers_persona():
    order = order_of({"ref": "persona", "projection": "fixed"}, {"ref": "设计.a b/c", "note": "说明"},
                     {"ref": "chat.history", "projection": "summary", "note": "对话历史（按投影裁剪）"},
                     {"ref": "用户.最新输入", "label": "## 本轮"})
    segments = order_slot_to_segments(order.slots[0], "人设")
    assert [s.id for s in segments] == ["ord0-persona", "ord1-设计.a_b_c", "ord2-对话.历史", "ord3-用户.最新输入"]
    assert [s.label for s in segments] == ["## persona", "## 设计.a b/c（说明）", "## 对话.历史（对话历史（按投影裁剪））",
                                           "## 本轮"]
    assert [s.tier for s in segments] == ["static", "static", "static", "dynamic"]
    assert segments[0].inline == "人设" and segments[0].tags == ()
    assert segments[2].tags == ("对话.历史",) and segments[2].projection == "summary"
    assert [s.id for s in order_slot_to_segments(order.slots[0], "")] == [
        "ord1-设计.a_b_c", "ord2-对话.历史", "ord3-用户.最新输入"]


def test_no_history_means_all_static_and_id_keeps_cjk():
    segments = order_slot_to_segments(order_of({"ref": "a"}, {"ref": "角色.林岚.行动"}).slots[0], "")
    assert {s.tier for s in segments} == {"static"}
    assert segment_id(2.5, "x y") == "ord2.5-x_y"


def test_parse_context_segments_frontmatter():
    rows = [{"id": "persona", "tier": "static", "tags": ["角色卡.确认稿"], "label": " ## 角色设定 "},
            {"id": "history", "tier": "dynamic", "tags": ["运行.事件流"], "policy": " tail_lines_80 "},
            {"id": "turn", "tier": "Dynamic", "tags": ["可见信息", " ", "用户.最新输入"]},
            {"id": "inline", "inline": "固定文本"}, {"id": "", "tags": ["x"]}, {"id": "empty", "tags": [" "]}, "junk"]
    segments = parse_context_segments(rows)
    assert [s.id for s in segments] == ["persona", "history", "turn", "inline"]
    assert segments[0].label == "## 角色设定" and segments[1].policy == "tail_lines_80"
    assert [s.tier for s in segments] == ["static", "dynamic", "static", "static"]
    assert segments[2].tags == ("可见信息", "用户.最新输入")


# --- policies ----------------------------------------------------------------------------------

def test_tail_lines():
    assert apply_policy("a\r\nb\nc\nd", "tail_lines_2") == "c\nd"
    assert apply_policy("a\nb", "tail_lines_0") == "a\nb"
    assert apply_policy("a\nb", "latest") == "a\nb" and apply_policy("a\nb", "concat") == "a\nb"
    assert apply_policy("a\nb", "whatever") == "a\nb"


def test_tail_tokens_uses_real_token_counts():
    lines = [f"[D{i}] 第{i}件事发生在雾港的码头边。" for i in range(40)]
    text = "\n".join(lines)
    out = apply_policy(text, "tail_tokens_60")
    assert count_exact(out) <= 60 < count_exact("\n".join(lines[-(out.count("\n") + 2):]))
    assert text.endswith(out) and out.startswith("[D")
    assert apply_policy(text, "tail_tokens_60", code_policies=True) == text
    assert apply_policy("短", "tail_tokens_60") == "短"
    single = "很长的一行" * 50
    cut = apply_policy(single, "tail_tokens_5")
    assert single.endswith(cut) and 0 < count_exact(cut) <= 5
    assert count_exact(apply_policy(text, "tail_tokens_60", encoding="cl100k_base"), "cl100k_base") <= 60


# --- body rendering ----------------------------------------------------------------------------

def test_body_dedup_and_empty_tags():
    board = Blackboard(items_from_data({"a": "甲\n\n乙", "b": "乙", "c": "甲", "d": "丙", "e": ""}))
    seg = Segment("x", tags=("a", "b", "c", "e", "d", "a"))
    body = render_segment_body(seg, TagReader(board))
    assert body.text == "甲\n\n乙\n\n丙"
    assert body.empty_tags == ("e",)
    assert render_segment_body(seg, TagReader(board), skip_tags=["a"], skip_exact=["丙"]).text == "乙\n\n甲"


def test_inputs_win_over_blackboard_and_overrides_win_even_blank():
    board = Blackboard(items_from_data({"a": "board", "b": "board-b"}))
    reader = TagReader(board, inputs={"a": "input", "b": "  "}, overrides={"c": ""})
    assert reader.read("a") == "input" and reader.read("b") == "board-b"
    assert TagReader(board, overrides={"a": ""}).read("a") == ""


def test_history_fallback_from_event_stream():
    board = Blackboard(items_from_data([{"tag": "运行.事件流", "content": "e1"}, {"tag": "用户.最新输入", "content": "走"}]))
    seg = Segment("h", tags=("对话.历史",), projection="summary")
    assert render_segment_body(seg, TagReader(board)).text == "## 事件流\n\ne1\n\n## 用户\n\n走"
    assert render_segment_body(seg, TagReader(Blackboard())).text == "（尚无对话历史）"
    alt = Blackboard(items_from_data({"对话历史": "## 用户\n\n旧拼写"}))
    assert render_segment_body(seg, TagReader(alt)).text == "## 用户\n\n旧拼写"


def test_policy_is_not_applied_to_history():
    board = Blackboard(items_from_data({"对话.历史": "## 用户\n\na\n\n## 助手\n\nb"}))
    seg = Segment("h", tags=("对话.历史",), policy="tail_lines_1")
    assert render_segment_body(seg, TagReader(board)).text == "## 用户\n\na\n\n## 助手\n\nb"


# --- framing -----------------------------------------------------------------------------------

PLAY_FRAME_PRESET = [PresetEntry("main", "system", "MAIN"), PresetEntry("charDescription", marker=True),
                     PresetEntry("chatHistory", marker=True), PresetEntry("jailbreak", "system", "PHI")]
PLAY_FRAME_EXPECTED = [
    ("system", "MAIN"), ("system", "### 任务契约\n\nSKILL\n\n### 舞台\n\n古镇夜雨"), ("system", "history"),
    ("system", "### 变量\n\nHP 3"), ("user", "turn"), ("system", "PHI"), ("system", "### 尾注\n\n勿剧透")]


def test_play_frame_expectation_from_bags():
    bags = Bags(before=(BagEntry("stage", "舞台", "古镇夜雨"),), history="history",
                after=(BagEntry("vars", "变量", "HP 3"),), turn="turn", post_turn=(BagEntry("note", "尾注", "勿剧透"),))
    for as_messages in (True, False):
        messages = frame_messages(bags, PLAY_FRAME_PRESET, task_contract="SKILL", history_as_messages=as_messages)
        assert [(m.role, m.content) for m in messages] == PLAY_FRAME_EXPECTED


def test_play_frame_expectation_through_the_whole_pipeline():
    order = order_of({"ref": "舞台.当前", "label": "## 舞台"}, {"ref": "对话.历史"}, {"ref": "变量.当前", "label": "## 变量"},
                     {"ref": "用户.最新输入"}, {"ref": "尾注", "label": "## 尾注"}, ref="gm")
    board = Blackboard(items_from_data({"舞台.当前": "古镇夜雨", "对话.历史": "history", "变量.当前": "HP 3",
                                        "用户.最新输入": "turn", "尾注": "勿剧透"}))
    options = AssemblyOptions(preset=tuple(PLAY_FRAME_PRESET), task_contract="SKILL")
    result = assemble(order, board, "gm", options=options)
    assert [(m.role, m.content) for m in result.messages] == PLAY_FRAME_EXPECTED
    assert [m.bag for m in result.messages] == [None, "before", "history", "after", "turn", None, "postTurn"]
    assert result.messages[1].tokens == count_exact(PLAY_FRAME_EXPECTED[1][1])


def test_extended_markers_placement_and_idempotence():
    once = apply_extended_markers(PLAY_FRAME_PRESET)
    ids = [e.identifier for e in once]
    assert ids == ["main", "charDescription", "worldBookBefore", "chatHistory", "worldBookAfter", "currentTurn",
                   "jailbreak", "postTurn"]
    assert [e.identifier for e in apply_extended_markers(once)] == ids
    no_history = [e.identifier for e in apply_extended_markers([PresetEntry("main", content="M")])]
    assert no_history == ["main", "worldBookBefore", "chatHistory", "worldBookAfter", "currentTurn", "postTurn"]
    roles = {e.identifier: e.role for e in once}
    assert [roles[m] for m in ("worldBookBefore", "worldBookAfter", "currentTurn", "postTurn")] == [
        "system", "system", "user", "system"]


def test_preset_rows_disabled_entries_and_order_index():
    preset = parse_preset([{"identifier": "b", "content": "B", "orderIndex": 2},
                           {"identifier": "a", "content": "A", "orderIndex": 1},
                           {"identifier": "off", "content": "X", "enabled": False},
                           {"identifier": "chatHistory"}])
    assert [e.identifier for e in preset] == ["a", "b", "off", "chatHistory"]  # ties keep list order
    assert preset[3].marker
    messages = frame_messages(Bags(history="## 用户\n\n你好\n\n## 助手\n\n在"), preset)
    assert [(m.role, m.content) for m in messages] == [("system", "A"), ("system", "B"), ("user", "你好"),
                                                       ("assistant", "在")]
    single = frame_messages(Bags(history="## 用户\n\n你好"), preset, history_as_messages=False)
    assert single[-1].content == "## 用户\n\n你好" and single[-1].role == "system"
    with pytest.raises(ValueError, match="identifier"):
        parse_preset([{"content": "x"}])


# --- bags and the whole assembly ---------------------------------------------------------------

def test_bag_walk_phases_and_names():
    order = order_of({"ref": "persona"}, {"ref": "a", "label": "### 甲"}, {"ref": "对话.历史", "projection": "fields"},
                     {"ref": "b"}, {"ref": "用户.最新输入"}, {"ref": "c"}, ref="gm")
    board = Blackboard(items_from_data({"a": "A", "b": "B", "c": "C", "对话.历史": "## 用户\n\nq\n\n## 助手\n\nr",
                                        "用户.最新输入": "now"}))
    result = assemble(order, board, "gm", options=AssemblyOptions(persona="P"))
    assert [(e.name, e.content) for e in result.bags.before] == [("persona", "P"), ("甲", "A")]
    assert [(e.name, e.content) for e in result.bags.after] == [("b", "B")]
    assert result.bags.turn == "now" and [e.content for e in result.bags.post_turn] == ["C"]
    assert [s.bag for s in result.segments] == ["before", "before", "history", "after", "turn", "postTurn"]
    assert [(m.role, m.content) for m in result.messages] == [
        ("system", "### persona\n\nP\n\n### 甲\n\nA"), ("user", "q"), ("assistant", "r"), ("system", "### b\n\nB"),
        ("user", "now"), ("system", "### c\n\nC")]
    assert result.total_tokens == sum(m.tokens for m in result.messages)
    assert result.bag_tokens()["after"] == result.segments[3].tokens


def test_turn_alias_ref_reads_its_literal_tag():
    # Only history aliases are canonicalised; a current-turn alias still marks the turn bag.
    order = order_of({"ref": "user.latest"}, ref="gm")
    board = Blackboard(items_from_data({"user.latest": "typed", "用户.最新输入": "canonical"}))
    assert assemble(order, board, "gm").bags.turn == "typed"
    empty = assemble(order, Blackboard(items_from_data({"用户.最新输入": "canonical"})), "gm")
    assert empty.bags.turn == "" and "## user.latest: user.latest is empty on the blackboard" in empty.warnings


def test_unprojected_history_fallback_from_gathered_inputs():
    order = order_of({"ref": "a"}, ref="gm")
    history = "\n\n".join(f"## 用户\n\n{i}" for i in range(30))
    board = Blackboard(items_from_data({"a": "A", "对话.历史": history, "用户.最新输入": "now"}))
    scenario = parse_scenario({"blackboard": board_rows(board), "workers": {"world-simulator": {"input_tags": ["对话.历史", "用户.最新输入"]}}})
    result = assemble(order, scenario, "gm")
    assert result.bags.history == history and result.bags.turn == "now"
    assert "no history segment: the gathered history is sent unprojected" in result.warnings
    assert len([m for m in result.messages if m.bag == "history"]) == 30
    assert assemble(order, board, "gm").bags.history == ""  # not gathered: not sent


def board_rows(board):
    return [{"tag": i.tag, "content": i.content} for i in board.items]


def test_slot_errors_and_turn_range():
    order = order_of({"ref": "a"}, ref="narrator")
    with pytest.raises(AssemblyError, match="no slot 'gm' in the order"):
        assemble(order, Blackboard(), "gm")
    with pytest.raises(AssemblyError, match="outside 0..0"):
        assemble(order, Blackboard(), "narrator", turn=1)
    assert assemble(order, Blackboard(), "叙事转述").slot_ref == "narrator"


def test_worker_segments_used_when_order_has_no_slot():
    scenario = parse_scenario({"blackboard": {"世界.蓝图": "雾港"}, "workers": {"narrator": {
        "segments": [{"id": "world", "tags": ["世界.蓝图"], "label": "## 世界"}]}}})
    result = assemble(None, scenario, "narrator")
    assert result.bags.before[0].content == "雾港"


# --- the sample --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def sample():
    return (read_context_order((SAMPLE / "order.json").read_text(encoding="utf-8")),
            load_scenario(SAMPLE / "scenario.yaml"))


def test_sample_world_simulator(sample):
    order, scenario = sample
    result = assemble(order, scenario, "world-simulator")
    assert result.turn == result.turn_count == 61
    assert result.history.kept_start == 40 and result.history.limit == 20
    assert result.messages[0].content.startswith("### 任务契约\n\n")
    assert result.messages[-1].role == "user" and result.messages[-1].bag == "turn"
    roles = {m.role for m in result.messages if m.bag == "history"}
    assert roles == {"system", "user", "assistant"}  # the marker, then real turns
    events = next(s for s in result.segments if s.ref == "运行.事件流")
    assert events.policy == "tail_tokens_200" and 0 < events.tokens <= 200
    assert result.warnings == ()


def test_sample_turn_slider(sample):
    order, scenario = sample
    first = assemble(order, scenario, "world-simulator", turn=3)
    assert first.history.total_blocks == 3
    # block 3 is what the user typed next
    assert first.bags.turn == "去仓库门口，不进去，先听里面有没有动静。"
    assert assemble(order, scenario, "world-simulator", turn=4).bags.turn == scenario.blackboard.value("用户.最新输入")


def test_sample_profile_variant(sample):
    order, scenario = sample
    card = assemble(order, scenario, "narrator")
    assert card.variant == "card_rp"
    progress = next(s for s in card.segments if s.ref == "设计.故事推进")
    assert progress.policy == "tail_lines_6"
    short = assemble(order, scenario, "narrator", options=AssemblyOptions(variant="short_emotion_flow"))
    assert short.history.limit == 6  # last_3_turns: three user + assistant pairs
    none = assemble(order, scenario, "narrator", options=AssemblyOptions(variant=""))
    assert none.variant == "" and none.history.limit == 5
    unknown = assemble(order, scenario, "narrator", options=AssemblyOptions(variant="nope"))
    assert any("'nope' is not defined" in w for w in unknown.warnings)


def test_code_policies_switch(sample):
    order, scenario = sample
    ours = assemble(order, scenario, "world-simulator")
    code = assemble(order, scenario, "world-simulator", options=AssemblyOptions(code_policies=True))
    ours_events = next(s for s in ours.segments if s.ref == "运行.事件流")
    code_events = next(s for s in code.segments if s.ref == "运行.事件流")
    assert code_events.text == scenario.blackboard.value("运行.事件流") != ours_events.text


# --- isolation ---------------------------------------------------------------------------------

@pytest.mark.parametrize("tag,hidden", [
    ("角色.沈砚.秘密", True), ("角色.沈砚", True), ("角色.列表", True), ("角色.林岚.行动", False),
    ("角色.林岚.行动.候选", False), ("角色.林岚.思考", True), ("角色.林岚.推理.候选", True), ("角色.林岚", True),
    ("角色.林岚二.x", True), ("世界.蓝图", False)])
def test_role_pov_rules(tag, hidden):
    assert role_pov_hides(tag, "林岚") is hidden
    assert role_pov_hides(tag, "") is False


def test_role_pov_really_holds_where_the_original_leaks(sample):
    order, scenario = sample
    secret = scenario.blackboard.value("角色.沈砚.秘密")
    thought = scenario.blackboard.value("角色.林岚.思考")
    ours = assemble(order, scenario, "role-decide")
    text = "\n".join(m.content for m in ours.messages)
    assert secret not in text and thought not in text
    assert scenario.blackboard.value("角色.林岚.行动") in text
    assert "角色.沈砚.秘密" in ours.hidden_tags and "角色.林岚.行动" not in ours.hidden_tags
    assert any("角色.沈砚.秘密 is hidden by role_pov" in w for w in ours.warnings)
    leaky = assemble(order, scenario, "role-decide", options=AssemblyOptions(leak_through_blackboard=True))
    leaked = "\n".join(m.content for m in leaky.messages)
    assert secret in leaked and thought in leaked  # the original's blackboard fallback
    assert any("leak" in w for w in leaky.warnings)


def test_blind_review_hides_named_tags(sample):
    order, scenario = sample
    danger = scenario.blackboard.value("核心.危险.隐藏")
    result = assemble(order, scenario, "auditor")
    assert result.isolation == "blind_review" and danger not in "\n".join(m.content for m in result.messages)
    opened = assemble(order, scenario, "auditor", options=AssemblyOptions(isolation="none"))
    assert danger in "\n".join(m.content for m in opened.messages)


def test_isolation_covers_patterns_too():
    order = order_of({"ref": "角色.*"}, ref="role-decide")
    board = Blackboard(items_from_data([{"tag": "世界.当前角色.id", "content": "甲"},
                                        {"tag": "角色.乙.秘密", "content": "乙的秘密", "updated": 9},
                                        {"tag": "角色.甲.行动", "content": "甲的行动", "updated": 1}]))
    result = assemble(order, board, "role-decide")
    assert result.bags.before[0].content == "甲的行动"


def test_prepare_is_reusable_across_turns(sample):
    order, scenario = sample
    prepared = prepare(order, scenario, "narrator", AssemblyOptions(history=HistoryOptions(marker="none")))
    assert prepared.turn_count == 61 and prepared.variant == "card_rp"
