"""What an edit does to a context-order document (spec A.11 and the editor's own edits):
messages, normalisation after every edit, and the properties that make undo trustworthy."""

import json

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from inspector.writing_agent.edits import (
    ERROR_BAD_ACTION,
    ERROR_DROP_OUTSIDE,
    ERROR_EMPTY_REF,
    ERROR_INDEX_OUT_OF_RANGE,
    ERROR_INSERT_WITHOUT_REF,
    ERROR_REPLACE_UNPARSEABLE,
    add_insert,
    apply_edit,
    drop_landing,
    landed_row,
    move,
    move_to,
    remove_insert,
    replace,
    set_anchor,
    set_brief,
    set_insert_text,
    set_play_slot,
    set_projection,
)
from inspector.writing_agent.order import (
    Insert,
    OrderEditError,
    normalise,
    parse_context_order,
    read_context_order,
    serialise,
)
from resources import resource_path
from wa_samples import DOC_EXAMPLE, documents, documents_with_rows, four_design_tags, refs

SAMPLE_ORDER = resource_path("samples", "writing_agent", "order.json")
WS = "world-simulator"
WS_REFS = ["worker.persona", "设计.实现机制", "设计.舞台骨架", "上下文.定稿摘要", "对话.历史", "运行.事件流",
           "变量.当前", "用户.最新输入"]


@pytest.fixture
def sample():
    return normalise(read_context_order(SAMPLE_ORDER.read_text(encoding="utf-8"))).document


def reorder(order, source, destination):
    out = list(order)
    item = out.pop(source)
    out.insert(destination - 1 if destination > source else destination, item)
    return out


# --- the edit API (A.11) -------------------------------------------------------------------------

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


# --- the editor's edits --------------------------------------------------------------------------

def test_move_to_matches_chained_engine_moves_and_checks_its_arguments(sample):
    assert [i.ref for i in move_to(sample, WS, 6, 1).document.slot(WS).inserts] == reorder(WS_REFS, 6, 1)
    with pytest.raises(OrderEditError) as bad_index:
        move_to(sample, WS, 8, 0)
    assert bad_index.value.message == "插入项下标越界"
    with pytest.raises(OrderEditError) as bad_slot:
        move_to(sample, "nobody", 1, 0)
    assert bad_slot.value.message == "未找到槽 nobody"
    with pytest.raises(OrderEditError) as bad_drop:
        move_to(sample, WS, 1, 9)
    assert bad_drop.value.message == "drop position 9 is outside 0..8"
    assert (bad_drop.value.template, bad_drop.value.values) == (ERROR_DROP_OUTSIDE, {"dest": 9, "count": 8})


@pytest.mark.parametrize(("source", "destination"), [(1, 3), (3, 1), (2, 8), (7, 5), (5, 4), (4, 6), (6, 2)])
def test_a_drop_is_the_chain_of_single_moves(sample, source, destination):
    doc, index, final = sample, source, drop_landing(source, destination)
    while index != final:
        step = 1 if final > index else -1
        doc = move(doc, WS, index, step).document
        index += step
    assert move_to(sample, WS, source, destination).document == doc
    assert [i.ref for i in doc.slot(WS).inserts] == reorder(WS_REFS, source, destination)


def test_drop_landing_counts_the_row_that_left():
    assert [drop_landing(2, d) for d in range(6)] == [0, 1, 2, 2, 3, 4]


def test_other_pure_edits(sample):
    assert add_insert(sample, WS, 99, "设计.x").document.slot(WS).inserts[-1].ref == "设计.x"
    with pytest.raises(OrderEditError) as no_ref:
        add_insert(sample, WS, 1, "  ")
    assert no_ref.value.message == ERROR_INSERT_WITHOUT_REF == no_ref.value.template
    with pytest.raises(OrderEditError) as missing:
        add_insert(sample, "nobody", 0, "设计.x")
    assert missing.value.message == "未找到槽 nobody"
    assert len(remove_insert(sample, WS, 0).document.slot(WS).inserts) == 7
    assert set_insert_text(sample, WS, 1, "note", " 空格保留 ").document.slot(WS).inserts[1].note == " 空格保留 "
    with pytest.raises(OrderEditError) as empty:
        set_insert_text(sample, WS, 1, "ref", "  ")
    assert empty.value.message == ERROR_EMPTY_REF
    off = set_play_slot(sample, "perspective", False).document
    assert off.play_slots["perspective"] is False and off.play_slots["gm"] is True
    bare = normalise(read_context_order('{"schema": "context-order.v1", "slots": []}')).document
    assert set_play_slot(bare, "chance", True).document.play_slots == {
        "auditor": True, "gm": True, "narrator": True, "perspective": False, "chance": True}
    assert set_brief(sample, "  ").document.brief is None
    assert set_brief(sample, "新").document.brief == "新"
    # The inputs are never changed.
    assert [i.ref for i in sample.slot(WS).inserts] == WS_REFS


def test_a_new_persona_row_is_pinned_first_and_a_second_history_dropped(sample):
    without_persona = remove_insert(sample, WS, 0).document
    added = add_insert(without_persona, WS, 3, "persona")
    assert [i.ref for i in added.document.slot(WS).inserts] == ["persona", *WS_REFS[1:]]
    assert [c.kind for c in added.changes] == ["persona-pinned"]
    # The first history row is the one kept: the new one, under the canonical name.
    doubled = add_insert(sample, WS, 1, "history")
    assert [i.ref for i in doubled.document.slot(WS).inserts] == [
        "worker.persona", "对话.历史", *(r for r in WS_REFS[1:] if r != "对话.历史")]
    assert [c.kind for c in doubled.changes] == ["history-alias", "duplicate-history"]


def test_landed_row_finds_the_moved_insert_nearest_where_it_was_aimed(sample):
    moved = sample.slot(WS).inserts[6]
    result = move_to(sample, WS, 6, 1)
    assert landed_row(result.document, WS, moved, 1) == 1
    twice = add_insert(add_insert(sample, WS, 2, "设计.x").document, WS, 6, "设计.x").document
    assert landed_row(twice, WS, Insert(ref="设计.x", projection="full"), 5) == 6
    assert landed_row(twice, WS, Insert(ref="设计.x", projection="full"), 0) == 2
    assert landed_row(sample, WS, Insert(ref="nowhere"), 3) is None
    assert landed_row(sample, "nobody", moved, 3) is None


# --- properties ----------------------------------------------------------------------------------

def _slot_to_edit(raw, data):
    """A normalised document and one of its slots that an edit by the slot's ref reaches (a slot
    an earlier slot's trimmed ref shadows is never edited)."""
    document = normalise(parse_context_order(raw)).document
    slot = document.slots[data.draw(st.integers(0, len(document.slots) - 1), label="slot")]
    assume(slot is next(s for s in document.slots if s.ref.strip() == slot.ref.strip()))
    assume(len(slot.inserts) >= 2)
    return document, slot


@settings(max_examples=200, deadline=None)
@given(documents_with_rows, st.data())
def test_a_move_and_its_inverse_restore_the_document_byte_for_byte(raw, data):
    document, slot = _slot_to_edit(raw, data)
    index = data.draw(st.integers(0, len(slot.inserts) - 2), label="index")
    index, delta = data.draw(st.sampled_from(((index, 1), (index + 1, -1))), label="move")
    there = move(document, slot.ref, index, delta).document
    back = move(there, slot.ref, index + delta, -delta).document
    assert serialise(back) == serialise(document)
    assert back == document


@settings(max_examples=200, deadline=None)
@given(documents_with_rows, st.data())
def test_a_drop_and_the_drop_back_restore_the_document(raw, data):
    document, slot = _slot_to_edit(raw, data)
    source = data.draw(st.integers(0, len(slot.inserts) - 1), label="source")
    destination = data.draw(st.integers(0, len(slot.inserts)), label="destination")
    result = move_to(document, slot.ref, source, destination)
    # A chain the persona pin stops part-way leaves the row short of where it was dropped.
    assume(not any(c.kind == "move-undone" for c in result.changes))
    landed = drop_landing(source, destination)
    back = move_to(result.document, slot.ref, landed, source + 1 if source > landed else source).document
    assert serialise(back) == serialise(document)


@settings(max_examples=200, deadline=None)
@given(documents)
def test_normalise_is_idempotent(raw):
    document = parse_context_order(raw)
    assume(document is not None)
    once = normalise(document)
    twice = normalise(once.document)
    assert twice.document == once.document
    assert twice.changes == []
    assert serialise(twice.document) == serialise(once.document)


@settings(max_examples=200, deadline=None)
@given(documents, st.integers(0, 2), st.integers(0, 5),
       st.sampled_from(("up", "down", "pre_history", "post_history", "fixed", "summary", "remove", "note")))
def test_every_edit_returns_a_normal_document_and_leaves_its_input_alone(raw, slot_at, index, edit):
    document = parse_context_order(raw)
    assume(document is not None and document.slots)
    slot = document.slots[slot_at % len(document.slots)]
    assume(slot.inserts)
    index %= len(slot.inserts)  # any insert of the slot (an index past the end filtered too much)
    before = serialise(document), document == parse_context_order(raw)
    ref = slot.ref
    try:
        result = {
            "up": lambda: move(document, ref, index, -1),
            "down": lambda: move(document, ref, index, 1),
            "pre_history": lambda: set_anchor(document, ref, index, "pre_history"),
            "post_history": lambda: set_anchor(document, ref, index, "post_history"),
            "fixed": lambda: set_projection(document, ref, index, "fixed"),
            "summary": lambda: set_projection(document, ref, index, "summary"),
            "remove": lambda: remove_insert(document, ref, index),
            "note": lambda: set_insert_text(document, ref, index, "note", "n"),
        }[edit]()
    except OrderEditError as exc:
        # Only a slot whose ref another slot's trimmed ref shadows can be missed.
        assert exc.message == ERROR_INDEX_OUT_OF_RANGE
        return
    assert normalise(result.document).changes == []
    assert all(c.kind != "renumbered" for c in result.changes)
    assert (serialise(document), document == parse_context_order(raw)) == before
