"""context-order.v1: lenient parsing, normalisation, serialisation and merging (spec A.2)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.writing_agent.order import (
    ContextOrder,
    Insert,
    NoDocumentError,
    OrderEditError,
    Slot,
    merge_into_worker_set_json,
    order_from_worker_set,
    normalise,
    parse_context_order,
    parse_play_slots,
    play_slots_on,
    read_context_order,
    read_order_source,
    serialise,
    slot_runs,
)
from wa_samples import DOC_EXAMPLE, documents, four_design_tags, refs


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


def test_the_order_of_a_worker_set_is_read_back():
    merged = merge_into_worker_set_json(json.dumps({"workers": []}), four_design_tags())
    assert order_from_worker_set(merged) == normalise(four_design_tags()).document
    camel = json.dumps({"contextOrder": json.loads(serialise(four_design_tags()))})
    assert order_from_worker_set(camel) == normalise(four_design_tags()).document
    assert order_from_worker_set(json.dumps({"context_order": 3})) is None
    assert order_from_worker_set("[1]") is None and order_from_worker_set("not json") is None


def test_an_order_is_read_from_its_own_text_or_from_a_worker_set():
    text = json.dumps(DOC_EXAMPLE, ensure_ascii=False)
    assert read_order_source(text) == (parse_context_order(DOC_EXAMPLE), None)
    worker_set = json.dumps({"workers": [], "contextOrder": DOC_EXAMPLE}, ensure_ascii=False)
    assert read_order_source(worker_set) == (parse_context_order(DOC_EXAMPLE), worker_set)
    with pytest.raises(NoDocumentError, match="no context-order.v1 document"):
        read_order_source(json.dumps({"workers": []}))


def test_which_slots_run_each_turn():
    doc = parse_context_order(DOC_EXAMPLE)
    assert play_slots_on(doc) == {"auditor": True, "gm": True, "narrator": True, "perspective": False,
                                  "chance": False}
    assert slot_runs(doc, "world-simulator") is True and slot_runs(doc, "role-decide") is False
    assert slot_runs(doc, "somebody-else") is None
    # Without play_slots the defaults hold.
    bare = parse_context_order({"schema": "context-order.v1", "slots": []})
    assert bare.play_slots is None and play_slots_on(bare) == parse_play_slots({})


# --- property: parse after serialise is the identity on normalised documents -------------------

@settings(max_examples=300, deadline=None)
@given(documents)
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
