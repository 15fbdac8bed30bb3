"""context-order.v1: lenient parsing, normalisation, serialisation, edits and merging (spec A.2, A.11)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.writing_agent.order import (
    ERROR_BAD_ACTION,
    ERROR_INDEX_OUT_OF_RANGE,
    ERROR_REPLACE_UNPARSEABLE,
    ContextOrder,
    Insert,
    NoDocumentError,
    OrderEditError,
    Slot,
    apply_edit,
    merge_into_worker_set_json,
    move,
    normalise,
    parse_context_order,
    parse_play_slots,
    read_context_order,
    replace,
    serialise,
    set_anchor,
    set_projection,
)

DOC_EXAMPLE = {
    "schema": "context-order.v1",
    "brief": "先名册再分配：旁观 + 主世界层 + 转述",
    "play_slots": {"auditor": True, "gm": True, "narrator": True, "perspective": False},
    "slots": [{
        "ref": "world-simulator",
        "inserts": [
            {"order": 0, "ref": "worker.persona", "projection": "fixed"},
            {"order": 1, "ref": "设计.实现机制", "projection": "summary"},
            {"order": 2, "ref": "对话.历史", "projection": "summary", "note": "按投影裁剪"},
            {"order": 3, "ref": "变量.当前", "projection": "fields"},
            {"order": 4, "ref": "用户.最新输入", "projection": "full"},
        ],
    }],
}


def refs(document, slot=0):
    return [i.ref for i in document.slots[slot].inserts]


# --- parsing -----------------------------------------------------------------------------------

def test_design_document_example_parses_as_is():
    doc = parse_context_order(DOC_EXAMPLE)
    assert doc.brief == DOC_EXAMPLE["brief"]
    slot = doc.slots[0]
    assert slot.ref == "world-simulator" and slot.label == "主世界层"
    assert [(i.order, i.ref, i.projection, i.note) for i in slot.inserts] == [
        (0, "worker.persona", "fixed", ""), (1, "设计.实现机制", "summary", ""),
        (2, "对话.历史", "summary", "按投影裁剪"), (3, "变量.当前", "fields", ""), (4, "用户.最新输入", "full", "")]
    assert normalise(doc).changes == []


def test_text_forms_whole_json_fenced_block_and_brace_slice():
    text = json.dumps(DOC_EXAMPLE, ensure_ascii=False)
    assert refs(parse_context_order(text)) == refs(parse_context_order(DOC_EXAMPLE))
    fenced = f"这是排序表：\n```json\n{text}\n```\n以上。{{不是这个}}"
    assert refs(parse_context_order(fenced)) == refs(parse_context_order(DOC_EXAMPLE))
    sliced = f"排序表如下 {text} 完"
    assert refs(parse_context_order(sliced)) == refs(parse_context_order(DOC_EXAMPLE))


@pytest.mark.parametrize("source", ["", "not json at all", "[1, 2]", "```json\n{broken\n```", 42,
                                    {"schema": "other.v1"}, {"slots": []}, {"slots": [{"inserts": []}]}])
def test_no_document(source):
    assert parse_context_order(source) is None
    with pytest.raises(NoDocumentError, match="no context-order.v1 document"):
        read_context_order(source)


def test_right_schema_with_zero_slots_is_a_valid_document():
    doc = parse_context_order({"schema": "context-order.v1"})
    assert doc is not None and doc.slots == [] and doc.play_slots is None
    assert serialise(doc) == '{\n  "schema": "context-order.v1",\n  "slots": []\n}'


def test_insert_field_aliases():
    doc = parse_context_order({"slots": [{"id": "narrator", "inserts": [
        {"序": "1", "源": "设计.叙事指南", "投影": "摘要", "说明": "文风", "标题": "## 文风"},
        {"order": "x", "tag": "变量.当前", "projection": "字段"},
        {"序": 0, "ref": "worker.persona", "projection": "fixed"},
        {"order": 2, "projection": "summary"},  # no ref: dropped
    ]}]})
    ins = doc.slots[0].inserts
    assert [(i.order, i.ref, i.projection, i.note, i.label) for i in ins] == [
        (0, "worker.persona", "fixed", "", ""), (1, "设计.叙事指南", "summary", "文风", "## 文风"),
        (99, "变量.当前", "fields", "", "")]


@pytest.mark.parametrize("value,expected", [
    ("summary", "summary"), ("fields", "fields"), ("fixed", "fixed"), ("full", "full"), ("摘要", "summary"),
    ("字段", "fields"), ("Summary", "full"), (" summary", "full"), (None, "full"), (3, "full"), ("全文", "full")])
def test_projection_is_exact_or_full(value, expected):
    row = {"ref": "a"} if value is None else {"ref": "a", "projection": value}
    assert parse_context_order({"slots": [{"ref": "s", "inserts": [row]}]}).slots[0].inserts[0].projection == expected


@pytest.mark.parametrize("value,expected", [
    (3, 3), ("4", 4), ("2.5", 2.5), (" 7 ", 7), ("", 0), ("abc", 99), (None, 99), (True, 1),
    (float("inf"), 99), ("Infinity", 99), ("NaN", 99)])
def test_order_values(value, expected):
    row = {"ref": "a", "order": value}
    assert parse_context_order({"slots": [{"ref": "s", "inserts": [row]}]}).slots[0].inserts[0].order == expected


@pytest.mark.parametrize("value,expected", [
    ("post_history", "post_history"), ("dynamic", "post_history"), ("历史后", "post_history"),
    ("pre_history", "pre_history"), ("static", "pre_history"), ("", "pre_history")])
def test_anchor_is_read_and_dropped_on_write(value, expected):
    doc = parse_context_order({"slots": [{"ref": "s", "inserts": [{"ref": "a", "order": 0, "锚点": value}]}]})
    assert doc.slots[0].inserts[0].anchor == expected
    assert "anchor" not in serialise(doc) and "锚点" not in serialise(doc)
    assert [c.kind for c in normalise(doc).changes] == ["anchor-dropped"]


def test_sort_by_order_is_stable():
    doc = parse_context_order({"slots": [{"ref": "s", "inserts": [
        {"ref": "b", "order": 1}, {"ref": "a", "order": 1}, {"ref": "z", "order": 0}, {"ref": "u"}]}]})
    assert refs(doc) == ["z", "b", "a", "u"]


def test_slot_ref_aliases_resolve_to_default_ref_not_refs_override():
    doc = parse_context_order({"play_slots": {"refs": {"gm": "my-gm"}}, "slots": [
        {"ref": "gm", "inserts": []}, {"ref": "主世界层"}, {"id": "Narrator"}, {"ref": "叙事转述", "label": "旁白"},
        {"ref": "表格管理"}, {"ref": "custom-worker", "name": "自定义"}]})
    assert [(s.ref, s.label) for s in doc.slots] == [
        ("world-simulator", "主世界层"), ("world-simulator", "主世界层"), ("narrator", "叙事转述"),
        ("narrator", "旁白"), ("auditor", "旁观维护"), ("custom-worker", "自定义")]
    assert doc.play_slots["refs"] == {"gm": "my-gm"}


def test_play_slots_from_camel_case_and_alias_keys():
    doc = parse_context_order({"schema": "context-order.v1", "playSlots": {"旁观": False, "world": False, "rng": True,
                                                                         "perspective": "yes"}})
    assert doc.play_slots == {"auditor": False, "gm": False, "narrator": True, "perspective": False, "chance": True}
    assert parse_play_slots("on") is None and parse_play_slots([]) is None


def test_agents_form():
    doc = parse_context_order({"agents": [
        {"id": "gm", "enabled": True, "when": "每轮", "inserts": [{"ref": "用户.最新输入"}, {"ref": "persona", "order": -1}]},
        {"id": "narrator", "inserts": [{"ref": "设计.叙事指南"}]},
        {"id": "auditor", "enabled": "false", "inserts": [{"ref": "x"}]},
        {"id": "perspective", "enabled": 1},
        {"id": "chance", "enabled": 0},
    ], "slots": [{"ref": "ignored"}], "play_slots": {"auditor": True}})
    assert [s.ref for s in doc.slots] == ["world-simulator", "narrator", "role-decide"]
    assert refs(doc) == ["persona", "用户.最新输入"]
    assert doc.play_slots == {"auditor": False, "gm": True, "narrator": True, "perspective": True, "chance": False}


def test_agents_all_disabled_fall_back_to_slots():
    doc = parse_context_order({"agents": [{"id": "gm", "enabled": False, "inserts": [{"ref": "a"}]}],
                               "slots": [{"ref": "narrator", "inserts": [{"ref": "b"}]}],
                               "play_slots": {"gm": False}})
    assert [s.ref for s in doc.slots] == ["narrator"] and refs(doc) == ["b"]
    assert doc.play_slots["gm"] is False


# --- normalisation and serialisation -----------------------------------------------------------

def test_normalise_history_aliases_one_history_persona_first_renumber():
    doc = parse_context_order({"slots": [{"ref": "gm", "inserts": [
        {"ref": "设计.实现机制", "order": 5}, {"ref": "chat.history", "order": 6, "projection": "fields"},
        {"ref": "persona", "order": 7}, {"ref": "历史对话", "order": 8}, {"ref": "worker.persona", "order": 9},
        {"ref": " history ", "order": 10}]}]})
    result = normalise(doc)
    assert refs(result.document) == ["persona", "设计.实现机制", "对话.历史", "worker.persona"]
    assert [i.order for i in result.document.slots[0].inserts] == [0, 1, 2, 3]
    assert result.document.slots[0].inserts[2].projection == "fields"
    kinds = [c.kind for c in result.changes]
    assert kinds.count("history-alias") == 1  # only the kept one is reported
    assert kinds.count("duplicate-history") == 2
    assert "persona-pinned" in kinds and "renumbered" in kinds
    assert any(c.message == "persona pinned first: moved from index 2 to 0" for c in result.changes)
    # normalising is idempotent
    assert normalise(result.document).changes == []
    assert normalise(result.document).document == result.document


def test_serialisation_key_order_and_omissions():
    doc = ContextOrder(slots=[Slot("narrator", "叙事转述", [
        Insert("worker.persona", "fixed", 3, note="", label=""),
        Insert("设计.叙事指南", "summary", 4, note="文风", label="## 指南")])])
    text = serialise(doc)
    assert text == (
        '{\n  "schema": "context-order.v1",\n  "slots": [\n    {\n      "ref": "narrator",\n'
        '      "label": "叙事转述",\n      "inserts": [\n        {\n          "order": 0,\n'
        '          "ref": "worker.persona",\n          "projection": "fixed"\n        },\n        {\n'
        '          "order": 1,\n          "ref": "设计.叙事指南",\n          "projection": "summary",\n'
        '          "note": "文风",\n          "label": "## 指南"\n        }\n      ]\n    }\n  ]\n}')
    doc.brief = ""
    doc.play_slots = {"auditor": True}
    assert list(json.loads(serialise(doc))) == ["schema", "brief", "play_slots", "slots"]


def test_serialise_of_design_example_matches_input_shape():
    data = json.loads(serialise(parse_context_order(DOC_EXAMPLE)))
    assert data["slots"][0]["inserts"] == DOC_EXAMPLE["slots"][0]["inserts"]
    assert data["slots"][0]["label"] == "主世界层"
    assert data["play_slots"] == {**DOC_EXAMPLE["play_slots"], "chance": False}


# --- edits -------------------------------------------------------------------------------------

def four_design_tags():
    return parse_context_order({"slots": [{"ref": "narrator", "inserts": [
        {"ref": "worker.persona", "projection": "fixed"}, {"ref": "设计.叙事指南"}, {"ref": "设计.故事推进"},
        {"ref": "对话.历史", "projection": "summary"}, {"ref": "用户.最新输入"}]}]})


def test_move_index_2_by_minus_1_swaps_two_design_tags():
    result = move(four_design_tags(), "narrator", 2, -1)
    assert refs(result.document) == ["worker.persona", "设计.故事推进", "设计.叙事指南", "对话.历史", "用户.最新输入"]
    assert result.changes == []
    assert apply_edit(four_design_tags(), {"action": "move", "slotRef": "narrator", "index": 2, "delta": -1}) == result


def test_move_out_of_range_is_a_silent_no_op():
    doc = four_design_tags()
    result = move(doc, "narrator", 4, 1)
    assert refs(result.document) == refs(doc)
    assert [c.kind for c in result.changes] == ["move-ignored"]


def test_move_persona_is_undone_by_normalisation():
    doc = four_design_tags()
    for index, delta in ((0, 1), (1, -1)):
        result = move(doc, "narrator", index, delta)
        assert refs(result.document) == refs(doc)
        assert [c.message for c in result.changes] == ["persona pinned first: move undone"]


@pytest.mark.parametrize("request_,message", [
    ({"action": "move", "slotRef": "narrator", "index": 1, "delta": 2}, "move 需要 slotRef、index、delta(±1)"),
    ({"action": "move", "slotRef": "narrator", "index": "1", "delta": 1}, "move 需要 slotRef、index、delta(±1)"),
    ({"action": "move", "index": 1, "delta": 1}, "move 需要 slotRef、index、delta(±1)"),
    ({"action": "move", "slotRef": "narrator", "index": 1, "delta": True}, "move 需要 slotRef、index、delta(±1)"),
    ({"action": "move", "slotRef": "nobody", "index": 1, "delta": 1}, "未找到槽 nobody"),
    ({"action": "move", "slotRef": "narrator", "index": 5, "delta": -1}, ERROR_INDEX_OUT_OF_RANGE),
    ({"action": "move", "slotRef": "narrator", "index": -1, "delta": 1}, ERROR_INDEX_OUT_OF_RANGE),
    ({"action": "move", "slotRef": "narrator", "index": 1.5, "delta": 1}, ERROR_INDEX_OUT_OF_RANGE),
    ({"action": "set_anchor", "slotRef": "narrator", "index": 1, "anchor": "dynamic"},
     "set_anchor 需要 slotRef、index、anchor(pre_history|post_history)"),
    ({"action": "set_anchor", "slotRef": "narrator", "index": 9, "anchor": "pre_history"}, ERROR_INDEX_OUT_OF_RANGE),
    ({"action": "set_projection", "slotRef": "narrator", "index": 1, "projection": "摘要"},
     "set_projection 需要 slotRef、index、projection"),
    ({"action": "set_projection", "slotRef": "gm", "index": 1, "projection": "full"}, "未找到槽 gm"),
    ({"action": "replace"}, ERROR_REPLACE_UNPARSEABLE),
    ({"action": "replace", "context_order": "no json here"}, ERROR_REPLACE_UNPARSEABLE),
    ({"action": "delete"}, ERROR_BAD_ACTION),
    ({}, ERROR_BAD_ACTION),
])
def test_edit_errors_carry_the_spec_message(request_, message):
    with pytest.raises(OrderEditError) as info:
        apply_edit(four_design_tags(), request_)
    assert info.value.message == message == str(info.value)


def test_no_current_order_only_replace_works():
    with pytest.raises(OrderEditError):
        apply_edit(None, {"action": "move", "slotRef": "narrator", "index": 1, "delta": 1})
    result = apply_edit(None, {"action": "replace", "context_order": json.dumps(DOC_EXAMPLE)})
    assert refs(result.document)[2] == "对话.历史"


def test_edits_find_the_slot_by_its_ref_not_through_play_slot_aliases():
    # applyContextOrderEdit compares trimmed refs only; the lookup for assembly is lenient.
    doc = parse_context_order(DOC_EXAMPLE)
    assert refs(move(doc, " world-simulator ", 3, -1).document)[2:4] == ["变量.当前", "对话.历史"]
    with pytest.raises(OrderEditError, match="未找到槽 gm"):
        move(doc, "gm", 3, -1)
    assert doc.slot("gm") is doc.slots[0]


def test_set_projection():
    result = set_projection(four_design_tags(), "narrator", 3, "fixed")
    assert result.document.slots[0].inserts[3].projection == "fixed"


def test_set_anchor_post_history_puts_item_after_history():
    result = set_anchor(four_design_tags(), "narrator", 1, "post_history")
    assert refs(result.document) == ["worker.persona", "设计.故事推进", "对话.历史", "设计.叙事指南", "用户.最新输入"]


def test_set_anchor_pre_history_on_last_item_moves_turn_before_history():
    result = set_anchor(four_design_tags(), "narrator", 4, "pre_history")
    assert refs(result.document) == ["worker.persona", "设计.叙事指南", "设计.故事推进", "用户.最新输入", "对话.历史"]


def test_set_anchor_on_history_itself_does_nothing():
    doc = four_design_tags()
    assert refs(set_anchor(doc, "narrator", 3, "post_history").document) == refs(doc)


@pytest.mark.parametrize("count,anchor,expected", [
    # remaining after removal: 3 items -> history at min(max(1, ceil(3/2)), 3) = 2
    (4, "pre_history", ["worker.persona", "b", "x", "对话.历史", "c"]),
    (4, "post_history", ["worker.persona", "b", "对话.历史", "x", "c"]),
    # remaining 1 -> history at min(max(1, 1), 1) = 1
    (2, "pre_history", ["worker.persona", "x", "对话.历史"]),
    # remaining 0 -> history at min(max(1, 0), 0) = 0
    (1, "post_history", ["对话.历史", "x"]),
])
def test_set_anchor_inserts_missing_history(count, anchor, expected):
    names = ["worker.persona", "x", "b", "c"][:count] if count > 1 else ["x"]
    doc = parse_context_order({"slots": [{"ref": "s", "inserts": [{"ref": r} for r in names]}]})
    result = set_anchor(doc, "s", names.index("x"), anchor)
    assert refs(result.document) == expected
    history = next(i for i in result.document.slots[0].inserts if i.ref == "对话.历史")
    assert history.projection == "summary" and history.note == "对话历史（按投影裁剪）"
    assert [c.kind for c in result.changes] == ["history-added"]


def test_replace_parses_leniently_and_normalises():
    result = replace(four_design_tags(), "新表：\n```\n" + json.dumps(
        {"slots": [{"ref": "gm", "inserts": [{"ref": "a"}, {"ref": "persona"}]}]}) + "\n```")
    assert refs(result.document) == ["persona", "a"]
    assert [c.kind for c in result.changes] == ["persona-pinned"]


def test_edits_do_not_mutate_their_input():
    doc = four_design_tags()
    before = serialise(doc)
    move(doc, "narrator", 2, -1)
    set_anchor(doc, "narrator", 1, "post_history")
    set_projection(doc, "narrator", 1, "fixed")
    assert serialise(doc) == before


# --- merging -----------------------------------------------------------------------------------

def test_merge_into_worker_set_json():
    worker_set = json.dumps({"workers": [{"ref": "narrator"}], "contextOrder": {"old": True},
                             "context_order": {"schema": "old"}, "play_slots": {"gm": True}})
    merged = json.loads(merge_into_worker_set_json(worker_set, four_design_tags()))
    assert merged["context_order"]["schema"] == "context-order.v1"
    assert "contextOrder" not in merged
    assert list(merged) == ["workers", "context_order", "play_slots"]
    assert merged["context_order"] == json.loads(serialise(four_design_tags()))


@pytest.mark.parametrize("worker_set", ["workers:\n  - ref: narrator\n", "[1]", ""])
def test_merge_rejects_non_object_worker_sets(worker_set):
    with pytest.raises(OrderEditError, match="设计.worker集 无法解析为 JSON"):
        merge_into_worker_set_json(worker_set, four_design_tags())


# --- property: parse after serialise is the identity on normalised documents -------------------

_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
_ref = _text.map(str.strip).filter(bool)
_insert_rows = st.fixed_dictionaries(
    {"ref": st.one_of(_ref, st.sampled_from(["对话.历史", "history", "persona", "worker.persona", "用户.最新输入"]))},
    optional={"projection": st.sampled_from(["full", "summary", "fields", "fixed", "摘要", "字段", "FULL", ""]),
              "order": st.one_of(st.integers(-5, 120), st.floats(allow_nan=True), _text),
              "note": _text, "label": _text, "anchor": st.sampled_from(["post_history", "pre_history", "dynamic"])})
_slot_rows = st.fixed_dictionaries(
    {"ref": st.one_of(_ref, st.sampled_from(["gm", "narrator", "旁观维护", "role-decide", "chance"])),
     "inserts": st.lists(_insert_rows, max_size=6)},
    optional={"label": _text})
_documents = st.fixed_dictionaries(
    {"schema": st.just("context-order.v1"), "slots": st.lists(_slot_rows, max_size=3)},
    optional={"brief": _text,
              "play_slots": st.dictionaries(st.sampled_from(["auditor", "gm", "world", "rng", "refs"]),
                                            st.one_of(st.booleans(), st.dictionaries(
                                                st.sampled_from(["gm", "narrator"]), _ref, max_size=2)),
                                            max_size=4)})


@settings(max_examples=300, deadline=None)
@given(_documents)
def test_parse_after_serialise_is_identity_on_normalised_documents(raw):
    normal = normalise(parse_context_order(raw)).document
    text = serialise(normal)
    again = parse_context_order(text)
    assert again == normal
    assert normalise(again).changes == []
    assert serialise(again) == text


@settings(max_examples=200, deadline=None)
@given(st.one_of(st.text(max_size=200), st.binary(max_size=100), st.integers(), st.none(),
                 st.lists(st.integers(), max_size=3)))
def test_parser_never_crashes_on_junk(junk):
    result = parse_context_order(junk)
    assert result is None or isinstance(result, ContextOrder)
