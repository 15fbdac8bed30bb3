"""Spec-review cases: rules of ../shared/spec/writing-agent.md (and the public code it describes)
that the first version of the engine missed or read differently. Each case is one rule; the
cases come from the spec, plus edges (blank and padded strings, JS Number() and String.trim(),
JS regular-expression runs, astral characters, ties)."""

import json

import pytest

from inspector.writing_agent.assembly import assemble
from inspector.writing_agent.blackboard import Blackboard, BlackboardItem, items_from_data, tag_matches
from inspector.writing_agent.framing import Bags, BagEntry, apply_extended_markers, frame_messages, parse_preset
from inspector.writing_agent.history import append_dialogue_history_turn, project_dialogue_history, split_history_blocks
from inspector.writing_agent.isolation import role_pov_hides
from inspector.writing_agent.edits import ERROR_NO_ORDER, ERROR_REPLACE_UNPARSEABLE, apply_edit, move, set_projection
from inspector.writing_agent.order import OrderEditError, merge_into_worker_set_json, parse_context_order, serialise
from inspector.writing_agent.segments import Segment, TagReader, order_slot_to_segments, parse_context_segments, \
    render_segment_body, segment_id


def refs(document, slot=0):
    return [i.ref for i in document.slots[slot].inserts]


def one_insert(row):
    return parse_context_order({"slots": [{"ref": "s", "inserts": [row]}]}).slots[0].inserts[0]


# --- A.2 parsing: strings are trimmed, a blank string counts as absent ------------------------

def test_note_and_label_are_trimmed_and_blank_falls_through_to_the_alias():
    insert = one_insert({"ref": " a ", "note": "  ", "说明": " 文风 ", "label": "", "标题": "\u3000## 指南\ufeff"})
    assert (insert.ref, insert.note, insert.label) == ("a", "文风", "## 指南")


@pytest.mark.parametrize("brief,expected", [("  ", None), ("", None), ("  先名册 ", "先名册"), (3, None)])
def test_brief_is_trimmed_and_a_blank_brief_is_omitted(brief, expected):
    doc = parse_context_order({"schema": "context-order.v1", "brief": brief})
    assert doc.brief == expected
    assert ("brief" in json.loads(serialise(doc))) is (expected is not None)


def test_slot_label_is_omitted_when_neither_given_nor_a_play_slot():
    doc = parse_context_order({"slots": [{"ref": "custom-worker", "inserts": []}, {"ref": "chance"},
                                         {"ref": "gm"}, {"id": "x", "label": "  ", "name": " 名 "}]})
    assert [(s.ref, s.label) for s in doc.slots] == [
        ("custom-worker", ""), ("chance", ""), ("world-simulator", "主世界层"), ("x", "名")]
    assert serialise(doc) == (
        '{\n  "schema": "context-order.v1",\n  "slots": [\n'
        '    {\n      "ref": "custom-worker",\n      "inserts": []\n    },\n'
        '    {\n      "ref": "chance",\n      "inserts": []\n    },\n'
        '    {\n      "ref": "world-simulator",\n      "label": "主世界层",\n      "inserts": []\n    },\n'
        '    {\n      "ref": "x",\n      "label": "名",\n      "inserts": []\n    }\n  ]\n}')


@pytest.mark.parametrize("value,expected", [
    ("0x10", 16), ("0b11", 3), ("0o7", 7), ("1e2", 100), (".5", 0.5), ("5.", 5), ("+3", 3), ("-2", -2),
    ("  ", 0), ("", 0), ("1_000", 99), ("-0x10", 99), ("infinity", 99), ("Infinity", 99), ("0x", 99),
    (True, 1), (False, 0), ([], 0), ([7], 7), (["8"], 8), ([1, 2], 99), ({}, 99), (None, 99),
    ("\ufeff12\u3000", 12), ("\x1c12", 99)])
def test_order_is_read_as_javascript_number_does(value, expected):
    insert = one_insert({"ref": "a", "order": value})
    assert insert.order == expected and type(insert.order) is type(expected)


def test_order_falls_back_to_its_alias_only_when_missing_or_null():
    assert one_insert({"ref": "a", "order": None, "序": "4"}).order == 4
    assert one_insert({"ref": "a", "order": "x", "序": 4}).order == 99


def test_agents_play_slots_recognise_an_agent_by_id_then_ref_then_label():
    doc = parse_context_order({"agents": [
        {"id": "narrator", "inserts": [{"ref": "设计.叙事指南"}]},
        {"label": "角色视角", "enabled": True},  # no ref: no slot, but it switches perspective on
        {"id": "机遇裁定", "ref": "narrator", "enabled": "false"},
    ]})
    assert [s.ref for s in doc.slots] == ["narrator"]
    assert doc.play_slots == {"auditor": True, "gm": True, "narrator": True, "perspective": True, "chance": False}


@pytest.mark.parametrize("text", [
    # Whole text JSON but not an object: the brace slice inside it is used.
    '[{"schema": "context-order.v1", "slots": [{"ref": "s", "inserts": [{"ref": "a"}]}]}]',
    # A fence without an object is no fence for the extractor; the brace slice is used.
    '```\n[1, 2]\n```\n{"slots": [{"ref": "s", "inserts": [{"ref": "a"}]}]}',
    # A JSON object padded with JavaScript whitespace (BOM, ideographic space).
    '\ufeff\u3000{"slots": [{"ref": "s", "inserts": [{"ref": "a"}]}]}\u3000',
])
def test_json_object_text_is_extracted_as_the_original_extracts_it(text):
    assert refs(parse_context_order(text)) == ["a"]


def test_a_fenced_object_must_parse_to_be_chosen():
    text = '说明 ```json\n{"slots": [oops]}\n``` 又及 {"slots": [{"ref": "s", "inserts": [{"ref": "b"}]}]}'
    # The fence does not parse, and the first-to-last brace slice does not either: no document.
    assert parse_context_order(text) is None


# --- A.11 edits: applied to the document as held, then normalised -------------------------------

def unnormal():
    # As parseContextOrder gives it: persona last, a duplicate history insert.
    return parse_context_order({"slots": [{"ref": "s", "inserts": [
        {"ref": "a"}, {"ref": "对话.历史"}, {"ref": "b"}, {"ref": "history"}, {"ref": "persona"}]}]})


def test_edit_indices_are_positions_in_the_document_as_held():
    result = move(unnormal(), "s", 0, 1)
    assert refs(result.document) == ["persona", "对话.历史", "a", "b"]
    # index 3 is the duplicate history insert: in range, edited, then dropped by normalisation
    assert refs(set_projection(unnormal(), "s", 3, "fixed").document) == ["persona", "a", "对话.历史", "b"]
    with pytest.raises(OrderEditError, match="插入项下标越界"):
        set_projection(unnormal(), "s", 5, "fixed")


def test_slot_is_found_by_its_trimmed_ref_only():
    doc = parse_context_order({"slots": [{"ref": "gm", "inserts": [{"ref": "a"}, {"ref": "b"}]}]})
    assert doc.slots[0].ref == "world-simulator"
    with pytest.raises(OrderEditError) as info:
        apply_edit(doc, {"action": "move", "slotRef": "gm", "index": 0, "delta": 1})
    assert info.value.message == "未找到槽 gm"
    result = apply_edit(doc, {"action": " move ", "slotRef": " world-simulator ", "index": 0, "delta": 1})
    assert refs(result.document) == ["b", "a"]


@pytest.mark.parametrize("request_,message", [
    ({"action": "move", "slotRef": "s", "index": 0, "delta": 0}, "move 需要 slotRef、index、delta(±1)"),
    ({"action": "move", "slotRef": " ", "index": 0, "delta": 1}, "move 需要 slotRef、index、delta(±1)"),
    ({"action": "set_anchor", "slotRef": "s", "index": 0}, "set_anchor 需要 slotRef、index、anchor(pre_history|post_history)"),
    ({"action": "set_projection", "slotRef": "s", "index": 0, "projection": "FULL"},
     "set_projection 需要 slotRef、index、projection"),
    ({"action": "replace"}, ERROR_REPLACE_UNPARSEABLE),
    ({"action": "replace", "context_order": ""}, ERROR_REPLACE_UNPARSEABLE),
    ({"action": 5}, "action 须为 move | set_anchor | set_projection | replace"),
])
def test_validation_messages_are_the_originals(request_, message):
    with pytest.raises(OrderEditError) as info:
        apply_edit(unnormal(), request_)
    assert info.value.message == message


def test_no_current_order_message_is_the_originals():
    with pytest.raises(OrderEditError) as info:
        apply_edit(None, {"action": "set_projection", "slotRef": "s", "index": 0, "projection": "full"})
    assert info.value.message == ERROR_NO_ORDER == "尚无上下文投影排序可编辑；请先完成游玩拓扑/细化终稿，或提交完整 replace"


def test_merge_reads_the_worker_set_leniently_and_reports_the_originals_message():
    fenced = '规格如下：\n```json\n{"workers": [], "contextOrder": 1}\n```'
    merged = json.loads(merge_into_worker_set_json(fenced, unnormal()))
    assert list(merged) == ["workers", "context_order"]
    assert merged["context_order"] == json.loads(serialise(unnormal()))
    for bad in ("workers:\n  - ref: narrator\n", "[1]", ""):
        with pytest.raises(OrderEditError) as info:
            merge_into_worker_set_json(bad, unnormal())
        assert info.value.message == "设计.worker集 无法解析为 JSON"


def test_merge_keeps_integer_like_keys_first_as_json_stringify_does():
    merged = merge_into_worker_set_json('{"b": 1, "2": 2, "a": {"10": 0, "1": 1}}', unnormal())
    assert merged.index('"2"') < merged.index('"b"') and merged.index('"1"') < merged.index('"10"')


# --- A.6 history text: JavaScript trim and \s ---------------------------------------------------

def test_history_trim_is_javascripts():
    assert project_dialogue_history("\ufeff\u3000\n", "full").text == "（尚无对话历史）"
    # \x1c..\x1f are whitespace to Python, not to JavaScript
    assert project_dialogue_history("\x1f", "full").text == "\x1f"


def test_rule1_heading_needs_javascript_whitespace_after_the_hashes():
    assert split_history_blocks("甲\n\n乙\n##\x1f丙") == ["甲", "乙\n##\x1f丙"]
    assert split_history_blocks("甲\n##\ufeff丙") == ["甲", "##\ufeff丙"]


def test_append_trims_the_existing_history_as_the_writer_does():
    assert append_dialogue_history_turn("  ## 用户\n\n甲 \n", "助手", " 乙 ") == "## 用户\n\n甲\n\n## 助手\n\n乙"
    assert append_dialogue_history_turn("  ## 用户\n\n甲 \n", "助手", "  ") == "## 用户\n\n甲"
    assert append_dialogue_history_turn("", "用户", "甲") == "## 用户\n\n甲"


# --- A.4 blackboard reads -----------------------------------------------------------------------

def test_prefix_pattern_matches_the_prefix_itself():
    assert tag_matches("设计.*", "设计") and tag_matches("设计.*", "设计.a.b")
    assert not tag_matches("设计.*", "设计稿")


def test_an_archived_latest_item_hides_its_tag():
    board = Blackboard([BlackboardItem("x", "old", 1.0), BlackboardItem("x", "draft", 5.0, archived=True),
                        BlackboardItem("y", "live", 2.0)])
    assert board.value("x") == "" and board.latest("x") is None and board.tags() == ["y"]
    assert board.concat("**") == "live"


def test_full_access_concat_returns_separate_items_joined_by_a_blank_line():
    board = Blackboard(items_from_data([{"tag": "a", "content": "A", "updated": 1},
                                        {"tag": "b", "content": "B", "updated": 2}]))
    assert TagReader(board).read("**", "concat") == "A\n\nB"
    assert TagReader(board).read("*.none.*", "concat") == ""
    assert Blackboard(items_from_data([{"tag": "p.a", "content": "A", "updated": 1},
                                       {"tag": "p.b", "content": "B", "updated": 2}])).concat("p.*") == "A\n\n---\n\nB"


def test_latest_reads_and_inputs_are_trimmed_before_the_policy():
    board = Blackboard(items_from_data([{"tag": "log", "content": "一\n二\n三\n\n"}]))
    segment = Segment("s", tags=("log",), policy="tail_lines_1")
    assert render_segment_body(segment, TagReader(board)).text == "三"
    assert TagReader(board, inputs={"log": "  甲\n"}).read("log") == "甲"


# --- A.3 / A.4 segments --------------------------------------------------------------------------

@pytest.mark.parametrize("order,ref,expected", [
    (0, "a  b//c", "ord0-a_b_c"),  # a run of other characters becomes one "_"
    (1, "㐀x", "ord1-_x"),  # CJK extension A is not in \u4e00-\u9fff
    (2, "𠀀", "ord2-_"),  # an astral ideograph: two UTF-16 units, one run
    (3, "設計.漢字-1_x", "ord3-設計.漢字-1_x"),
])
def test_segment_id_replaces_runs_like_the_original_regex(order, ref, expected):
    assert segment_id(order, ref) == expected


def test_persona_text_is_trimmed_and_a_blank_persona_is_dropped():
    slot = parse_context_order({"slots": [{"ref": "s", "inserts": [
        {"ref": "persona", "projection": "fixed"}, {"ref": "a"}]}]}).slots[0]
    assert order_slot_to_segments(slot, "  人设\n")[0].inline == "人设"
    assert [s.ref for s in order_slot_to_segments(slot, " \n ")] == ["a"]


def test_frontmatter_inline_is_trimmed_and_blank_inline_is_none():
    rows = [{"id": "p", "inline": "  人设 "}, {"id": "q", "inline": "  "}, {"id": "r", "inline": " ", "tags": ["t"]}]
    segments = parse_context_segments(rows)
    assert [(s.id, s.inline) for s in segments] == [("p", "人设"), ("r", None)]


# --- A.8 framing ---------------------------------------------------------------------------------

def test_a_preset_that_defines_an_own_marker_keeps_its_entry():
    preset = parse_preset([{"identifier": "main", "content": "MAIN"}, {"identifier": "chatHistory"},
                           {"identifier": "currentTurn", "role": "system"},
                           {"identifier": "postTurn", "content": "固定尾注"}])
    framed = apply_extended_markers(preset)
    assert [e.identifier for e in framed] == ["main", "worldBookBefore", "chatHistory", "worldBookAfter",
                                              "currentTurn", "postTurn"]
    messages = frame_messages(Bags(turn="本轮", post_turn=(BagEntry("x", "尾", "袋"),)), preset)
    assert [(m.role, m.content) for m in messages] == [("system", "MAIN"), ("system", "本轮"), ("system", "固定尾注")]


def test_bag_entries_are_trimmed():
    order = parse_context_order({"slots": [{"ref": "s", "inserts": [{"ref": "a"}]}]})
    board = Blackboard(items_from_data([{"tag": "a", "content": "\n  正文  \n"}]))
    result = assemble(order, board, "s")
    assert result.bags.before[0].content == "正文"
    assert result.messages[0].content == "### a\n\n正文"


# --- A.9 isolation -------------------------------------------------------------------------------

def test_role_pov_hides_the_bare_own_role_tag():
    assert role_pov_hides("角色.林岚", "林岚") is True
    assert role_pov_hides("角色.林岚.行动", "林岚") is False


# --- bad scenario files: a clear message, never a traceback or a hang ----------------------------

@pytest.mark.parametrize("name,text,message", [
    ("deep.yaml", "[" * 50000, "nested too deeply"),
    ("deep.json", "[" * 50000, "nested too deeply"),
    ("bomb.yaml", "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join([f'*{chr(97 + i)}'] * 10)}]\n" for i in range(7)),
     "too large"),
    ("board.yaml", "blackboard: 5\n", "board.yaml: blackboard must be a list of items or a mapping of tags, not int"),
])
def test_unusable_scenario_files_get_a_clear_message(tmp_path, name, text, message):
    from inspector.writing_agent.scenario import ScenarioError, load_scenario

    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert message in str(info.value) and "blackboard blackboard" not in str(info.value)


# --- A.2 serialisation: JSON.stringify(…, null, 2) escaping ---------------------------------------

def test_serialisation_escapes_as_json_stringify_does():
    note = 'a"b\\c/d\u2028e\x00f\x1fg\x7fh😀i\ud800'
    doc = parse_context_order({"slots": [{"ref": "s", "label": "标\t签", "inserts": [{"ref": "设计.x", "note": note}]}]})
    text = serialise(doc)
    assert '"label": "标\\t签"' in text
    # Only ", \, and control characters below U+0020 are escaped (lower-case hex), plus lone
    # surrogates; "/", U+2028, DEL and astral characters stay as they are.
    assert '"note": "a\\"b\\\\c/d\u2028e\\u0000f\\u001fg\x7fh😀i\\ud800"' in text
    assert parse_context_order(text).slots[0].inserts[0].note == note


def test_serialisation_of_numbers_and_empty_lists():
    doc = parse_context_order({"schema": "context-order.v1", "play_slots": {"refs": {"gm": " 主 "}}, "slots": [
        {"ref": "s", "inserts": [{"ref": "b", "order": 2.5}, {"ref": "a", "order": -1e21}]}]})
    assert serialise(doc) == (
        '{\n  "schema": "context-order.v1",\n  "play_slots": {\n    "auditor": true,\n    "gm": true,\n'
        '    "narrator": true,\n    "perspective": false,\n    "chance": false,\n    "refs": {\n      "gm": "主"\n'
        '    }\n  },\n  "slots": [\n    {\n      "ref": "s",\n      "inserts": [\n        {\n          "order": 0,\n'
        '          "ref": "a",\n          "projection": "full"\n        },\n        {\n          "order": 1,\n'
        '          "ref": "b",\n          "projection": "full"\n        }\n      ]\n    }\n  ]\n}')


# --- A.5 fields: the body's keys in JavaScript's own-property order ------------------------------

def test_fields_lists_integer_like_keys_first_as_object_keys_does():
    from inspector.writing_agent.fragment import project_content

    fragment = json.dumps({"schema": "context-fragment.v1", "brief": "摘要", "正文": {"b": 1, "2": 2, "a": 3, "1": 0}},
                          ensure_ascii=False)
    assert project_content(fragment, "fields") == "brief: 摘要\n字段: 1、2、b、a"
