"""Small context-order documents the order and edit tests share."""

from hypothesis import strategies as st

from inspector.writing_agent.order import parse_context_order

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


def four_design_tags():
    return parse_context_order({"slots": [{"ref": "narrator", "inserts": [
        {"ref": "worker.persona", "projection": "fixed"}, {"ref": "设计.叙事指南"}, {"ref": "设计.故事推进"},
        {"ref": "对话.历史", "projection": "summary"}, {"ref": "用户.最新输入"}]}]})


# Raw documents as a model or a person might write them: aliases, junk orders, anchors, play slots.
_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
_ref = _text.map(str.strip).filter(bool)
_insert_rows = st.fixed_dictionaries(
    {"ref": st.one_of(_ref, st.sampled_from(["对话.历史", "history", "persona", "worker.persona", "用户.最新输入"]))},
    optional={"projection": st.sampled_from(["full", "summary", "fields", "fixed", "摘要", "字段", "FULL", ""]),
              "order": st.one_of(st.integers(-5, 120), st.floats(allow_nan=True), _text),
              "note": _text, "label": _text, "anchor": st.sampled_from(["post_history", "pre_history", "dynamic"])})
def _slot_rows(min_inserts):
    return st.fixed_dictionaries(
        {"ref": st.one_of(_ref, st.sampled_from(["gm", "narrator", "旁观维护", "role-decide", "chance"])),
         "inserts": st.lists(_insert_rows, min_size=min_inserts, max_size=6)},
        optional={"label": _text})


def _documents(min_slots, min_inserts):
    return st.fixed_dictionaries(
        {"schema": st.just("context-order.v1"), "slots": st.lists(_slot_rows(min_inserts), min_size=min_slots,
                                                                 max_size=3)},
        optional={"brief": _text,
                  "play_slots": st.dictionaries(st.sampled_from(["auditor", "gm", "world", "rng", "refs"]),
                                                st.one_of(st.booleans(), st.dictionaries(
                                                    st.sampled_from(["gm", "narrator"]), _ref, max_size=2)),
                                                max_size=4)})


documents = _documents(0, 0)
# Documents with at least one slot of at least two rows: something to move.
documents_with_rows = _documents(1, 2)
