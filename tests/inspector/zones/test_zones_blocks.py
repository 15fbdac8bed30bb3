"""Assembly of the zones (spec B.2), digests and pinning (B.5), environment, turn simulation."""

from __future__ import annotations

import hashlib
import logging

from hypothesis import given, settings as hsettings, strategies as st

from inspector.jsjson import js_stringify
from inspector.zones import diagnostic as dg
from inspector.zones.blocks import TurnSimulator, build_environment, render, simulate_turns, simulated_turns
from inspector.zones.config import from_data, load_config, sample_path


def cfg(blocks=(), variables=(), environment=None, settings=None, sample="hi"):
    data = {"blocks": list(blocks), "variables": list(variables), "sampleInput": sample}
    if environment is not None:
        data["environment"] = environment
    if settings is not None:
        data["settings"] = settings
    return from_data(data)


def sys_block(bid, order, content, **kw):
    return {"id": bid, "zone": "system", "order": order, "content": content, **kw}


def test_system_blocks_sort_by_order_then_registration_and_join_with_a_blank_line() -> None:
    r = render(cfg([sys_block("c", 10, "C"), sys_block("a", -300, "A"), sys_block("b", 10, "B")]))
    assert r.system == "A\n\nC\n\nB"
    assert r.section_names == ["a", "c", "b"]
    assert r.digest == hashlib.sha256(b"a\nc\nb").hexdigest()


def test_user_and_assistant_blocks_become_prelude_in_order() -> None:
    r = render(cfg([sys_block("ex2", 86, "A1", role="assistant"), sys_block("s", 0, "S"),
                    sys_block("ex1", -50, "U1", role="user")]))
    assert r.system == "S"
    assert [(m.role, m.content, m.source) for m in r.prelude] == [("user", "U1", "ex1"), ("assistant", "A1", "ex2")]
    assert r.section_names == ["ex1", "s", "ex2"]
    assert [m.role for m in r.messages] == ["system", "user", "assistant", "user"]


def test_a_complete_block_replaces_the_system_zone() -> None:
    r = render(cfg([sys_block("a", 0, "A"), sys_block("takeover", 5, "T", complete=True),
                    {"id": "ctx", "zone": "context", "content": "C"}]))
    assert r.system == "T" and r.section_names == ["takeover"] and [m.content for m in r.contexts] == ["C"]
    assert r.block("a").target == "excluded" and "takeover" in r.block("a").reason


def test_two_complete_blocks_fail_the_assembly() -> None:
    r = render(cfg([sys_block("x", 0, "X", complete=True), sys_block("y", 1, "Y", complete=True)]))
    assert not r.ok and r.error.code == dg.MULTIPLE_COMPLETE and r.error.throws
    assert r.system == "" and r.section_names == [] and r.contexts == []


def test_complete_outside_the_system_zone_is_ignored_or_rejected() -> None:
    blocks = [sys_block("s", 0, "S"), {"id": "c", "zone": "context", "content": "C", "complete": True}]
    assert [m.content for m in render(cfg(blocks)).contexts] == ["C"]
    r = render(cfg(blocks, settings={"completeOutsideSystem": "error"}))
    assert r.contexts == [] and r.block("c").target == "excluded"


def test_duplicate_ids_leave_the_second_block_out() -> None:
    r = render(cfg([sys_block("a", 0, "first"), sys_block("a", 1, "second")]))
    assert r.system == "first" and r.section_names == ["a"]


def test_context_blocks_are_one_message_each_and_empty_ones_are_dropped() -> None:
    blocks = [{"id": "t", "zone": "context", "order": 5, "content": "time", "role": "system"},
              {"id": "e", "zone": "context", "order": 1, "template": True, "content": "{if no}x{/if}"},
              {"id": "g", "zone": "context", "order": -10, "content": "group"}]
    r = render(cfg(blocks, [{"name": "no", "example": False}]))
    assert [(m.role, m.content, m.source) for m in r.contexts] == [("user", "group", "g"), ("system", "time", "t")]
    assert r.block("e").target == "empty"
    r = render(cfg(blocks, [{"name": "no", "example": False}], settings={"contextRole": "system"}))
    assert r.contexts[0].role == "system"


def test_input_blocks_chain_around_prompt() -> None:
    blocks = [{"id": "b", "zone": "input", "order": 2, "template": True, "content": "<{prompt}>"},
              {"id": "a", "zone": "input", "order": 1, "template": True, "content": "[{who}] {prompt}"}]
    variables = [{"name": "who", "example": "阿满"}]
    assert render(cfg(blocks, variables), input_text="你好").input == "<[阿满] 你好>"
    assert render(cfg(blocks, variables, settings={"inputMode": "first"}), input_text="x").input == "[阿满] x"
    last = render(cfg(blocks, variables, settings={"inputMode": "last"}), input_text="x")
    assert last.input == "<x>" and last.block("a").target == "excluded"
    assert render(cfg([], variables), input_text="raw").input == "raw"


def test_a_non_template_input_block_keeps_prompt_literally() -> None:
    r = render(cfg([{"id": "i", "zone": "input", "content": "[{prompt}]"}]), input_text="lost")
    assert r.input == "[{prompt}]"


def test_digest_is_stable_and_follows_layout_not_content() -> None:
    base = [sys_block("a", 0, "A", template=True), sys_block("b", 1, "B")]
    first, second = render(cfg(base)), render(cfg(base))
    assert first.digest == second.digest and first.content_digest == second.content_digest
    edited = render(cfg([sys_block("a", 0, "A changed"), sys_block("b", 1, "B")]))
    assert edited.digest == first.digest and edited.content_digest != first.content_digest
    moved = render(cfg([sys_block("a", 2, "A"), sys_block("b", 1, "B")]))
    assert moved.digest != first.digest
    expected = {"system": "A\n\nB", "prelude": []}
    assert first.content_digest == hashlib.sha256(js_stringify(expected).encode()).hexdigest()


def test_section_names_can_cover_every_zone() -> None:
    blocks = [sys_block("s", 0, "S"), {"id": "c", "zone": "context", "content": "C"},
              {"id": "i", "zone": "input", "template": True, "content": "{prompt}"}]
    assert render(cfg(blocks)).section_names == ["s"]
    assert render(cfg(blocks, settings={"sectionNames": "all"})).section_names == ["s", "c", "i"]


def test_rendered_blocks_map_offsets_in_their_message() -> None:
    blocks = [sys_block("a", 0, "AA"), sys_block("b", 1, "x{v}y", template=True)]
    r = render(cfg(blocks, [{"name": "v", "example": "VAL"}]))
    b = r.block("b")
    assert r.system[b.offset:b.offset + len(b.text)] == "xVALy" and b.offset == 4
    assert b.source_to_text(0) == 0 and b.source_to_text(2) == 1 and b.source_to_text(4) == 4
    assert b.text_to_source(2) == 1 and b.text_to_source(4) == 4
    plain = r.block("a")
    assert plain.source_to_text(1) == 1 and plain.text_to_source(2) == 2


def test_contributors_merge_in_order_and_a_failure_is_a_logged_warning(caplog) -> None:
    environment = {"base": {"extra": {"a": 1}, "guild": "G"},
                   "contributors": [{"id": "one", "patch": {"extra": {"b": 2}}},
                                    {"id": "bad", "patch": {"guild": "X"}, "failTurns": [1], "error": "boom"},
                                    {"id": "two", "patch": [{"t": 0}, {"t": 1}]}]}
    config = cfg(environment=environment)
    env, warnings = build_environment(config, 0)
    assert env == {"extra": {"b": 2}, "guild": "X", "t": 0}  # shallow: "extra" replaced
    with caplog.at_level(logging.WARNING, logger="inspector.zones"):
        env, warnings = build_environment(config, 1)
    assert env == {"extra": {"b": 2}, "guild": "G", "t": 1}
    assert [w.code for w in warnings] == [dg.CONTRIBUTOR_FAILED] and "boom" in warnings[0].message
    assert any("'bad'" in rec.message for rec in caplog.records)
    deep = cfg(environment=environment, settings={"environmentMerge": "deep"})
    assert build_environment(deep, 0)[0]["extra"] == {"a": 1, "b": 2}


def test_variables_read_the_environment_of_their_turn() -> None:
    config = cfg([{"id": "c", "zone": "context", "template": True, "content": "{g}"}],
                 [{"name": "g", "env": "guild.name", "zones": ["context"]}],
                 {"base": {"guild": {"name": "A"}}, "turns": [{}, {"guild": {"name": "B"}}]})
    assert [render(config, t).contexts[0].content for t in range(3)] == ["A", "B", "B"]


def pinned_config(**settings):
    return cfg([sys_block("persona", 0, "今天是 {date}", template=True),
                {"id": "t", "zone": "context", "template": True, "content": "{time}"}],
               [{"name": "date", "values": ["D1", "D1", "D2", "D2"]},
                {"name": "time", "mutable": True, "zones": ["context"], "values": ["t0", "t1", "t2", "t3"]}],
               settings=settings or None)


def test_pinning_keeps_the_system_zone_and_adds_a_note() -> None:
    rows = simulate_turns(pinned_config())
    assert [r.system_action for r in rows] == ["rendered", "reused", "note", "note"]
    assert len({r.digest for r in rows}) == 1 and len({r.content_digest for r in rows}) == 1
    assert rows[2].note == "环境已更新\n- date: D2" and rows[2].changes == {"date": ("D1", "D2")}
    r = render(pinned_config(), 2)
    assert r.system == "今天是 D1"
    assert [(m.content, m.source) for m in r.contexts] == [("t2", "t"), ("环境已更新\n- date: D2", "environment-note")]
    # A mutable context-only variable (time) never causes a note: moving fields to context is the fix.
    assert "time" not in rows[3].changes


def test_note_settings() -> None:
    rows = simulate_turns(pinned_config(noteCompare="previous"))
    assert [r.system_action for r in rows] == ["rendered", "reused", "note", "reused"]
    r = render(pinned_config(noteDetail="names", noteTitle="Environment updated", notePosition="first"), 2)
    assert r.contexts[0].content == "Environment updated: date"
    rows = simulate_turns(pinned_config(pinCompare="all-variables"))
    assert [sorted(r.changes) for r in rows] == [[], ["time"], ["date", "time"], ["date", "time"]]


def test_without_pinning_the_system_zone_re_renders() -> None:
    rows = simulate_turns(pinned_config(pinning=False))
    assert [r.system_action for r in rows] == ["rendered", "unchanged", "re-rendered", "unchanged"]
    assert rows[1].content_digest == rows[0].content_digest != rows[2].content_digest
    assert rows[0].digest == rows[2].digest  # same layout
    assert all(r.note is None for r in rows)
    assert render(pinned_config(pinning=False), 3).system == "今天是 D2"


def test_pin_compare_environment() -> None:
    config = cfg([sys_block("s", 0, "S")], environment={"base": {"g": {"n": "A"}}, "turns": [{}, {"g": {"n": "B"}}]},
                 settings={"pinCompare": "environment"})
    rows = simulate_turns(config)
    assert [r.system_action for r in rows] == ["rendered", "note"] and rows[1].note == "环境已更新\n- g.n: B"


def test_simulator_steps_and_counts_turns() -> None:
    sample = load_config(sample_path())
    assert simulated_turns(sample) == 5
    sim = TurnSimulator(sample)
    rows = [sim.step() for _ in range(5)]
    assert [r.turn for r in rows] == [0, 1, 2, 3, 4]
    assert rows[0].system_rerendered and not rows[1].system_rerendered
    assert rows[3].note_added and "date" in rows[3].changes
    assert [w.code for w in rows[2].warnings] == [dg.CONTRIBUTOR_FAILED]
    assert sim.result(3).environment["guild"]["name"] == "灯岭镇茶馆·灯会夜"
    assert len(simulate_turns(sample, 2)) == 2


def test_the_sample_renders_every_zone() -> None:
    r = render(load_config(sample_path()))
    assert r.system.startswith("你是 小灯") and "【世界书·灯会】每月十五晚上七点" in r.system
    assert "可用工具：web_search、set_reminder。" in r.system
    assert [m.role for m in r.prelude] == ["user", "assistant"]
    assert [m.source for m in r.contexts] == ["context:time", "context:group", "context:weather"]
    assert r.contexts[1].content == "你在「灯岭镇茶馆」群里。最近说话的人：\n- 阿满（老住户）\n群里还有其他人，说话要简短。\n"
    assert r.input == "(群聊) [来自 阿满] 小灯，今晚的灯会几点开始？"
    assert r.values["lore 灯会"] == "每月十五晚上七点在镇口点灯，持续到子时。"
    assert r.warnings == []
    data = r.to_json()
    assert data["contexts"][0] == "现在是 2024-05-15 18:42。" and data["sectionNames"][0] == "core:identity"


# --- values compare as JavaScript values --------------------------------------------------------

def test_one_and_one_point_zero_are_the_same_value_for_pinning() -> None:
    # YAML/JSON/TOML give 1 and 1.0 as different Python types; in JavaScript they are one number.
    config = cfg([sys_block("s", 0, "{x}", template=True)], [{"name": "x", "values": [1, 1.0]}])
    assert not config.variables[0].varies()
    assert [row.system_action for row in simulate_turns(config)] == ["rendered", "reused"]
    from inspector.zones.diagnostics import check

    assert [d.code for d in check(config)] == []


def test_a_nested_change_from_true_to_one_is_a_change() -> None:
    # Python's True == 1 must not hide a change JavaScript sees.
    config = cfg([sys_block("s", 0, "{x.a}", template=True)], [{"name": "x", "values": [{"a": True}, {"a": 1}]}])
    assert config.variables[0].varies()
    rows = simulate_turns(config)
    assert rows[1].system_action == "note" and rows[1].note == "环境已更新\n- x: {\"a\":1}"


def test_object_key_order_is_not_a_change() -> None:
    config = cfg([sys_block("s", 0, "{x.a}", template=True)],
                 [{"name": "x", "values": [{"a": 1, "b": 2}, {"b": 2, "a": 1}]}])
    assert [row.system_action for row in simulate_turns(config)] == ["rendered", "reused"]


def test_a_prelude_block_that_renders_empty_sends_no_message() -> None:
    r = render(cfg([sys_block("s", 0, "S"), sys_block("u", 80, "{if flag}Q{/if}", role="user", template=True),
                    sys_block("a", 81, "A", role="assistant")], [{"name": "flag", "values": False}]))
    assert [(m.role, m.content) for m in r.prelude] == [("assistant", "A")]
    assert r.block("u").target == "empty" and r.block("a").message_index == 0
    assert r.section_names == ["s", "u", "a"]


def test_render_warnings_name_the_block_and_its_plugin() -> None:
    r = render(cfg([sys_block("s", 0, "{while true}x{/while}", template=True, source="loop-plugin")],
                   settings={"loopCap": 2}))
    assert [(w.code, w.block_id, w.source) for w in r.warnings] == [(dg.LOOP_LIMIT, "s", "loop-plugin")]


# --- Hypothesis: any config the loader accepts renders and checks without raising ------------------

_CONTENT = st.lists(st.sampled_from(["{a}", "{b 1}", "{prompt}", "{if a}", "{else}", "{/if}", "{for x in b}", "{x}",
                                     "{/for}", "{while a}", "{/while}", "{repeat a}", "{/repeat}", "{{", "}}", "{",
                                     "中", "😀", "\n", " ", "text"]), max_size=12).map("".join)
_VALUE = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([0.5, 1.0, "", "s", "2"]),
                   st.lists(st.integers(0, 2), max_size=3), st.dictionaries(st.sampled_from(["k", "*"]), st.text(max_size=2),
                                                                          max_size=2))
_BLOCK = st.fixed_dictionaries({
    "id": st.sampled_from(["p", "q", "r", "s"]), "zone": st.sampled_from(["system", "context", "input"]),
    "order": st.sampled_from([-301, -300, 0, 0, 5, 299, 300]), "content": _CONTENT, "template": st.booleans(),
    "complete": st.booleans(), "role": st.sampled_from([None, "system", "user", "assistant"])})


@hsettings(max_examples=150, deadline=None)
@given(blocks=st.lists(_BLOCK, max_size=5), a=st.lists(_VALUE, max_size=3), b=_VALUE,
       pin=st.booleans(), mode=st.sampled_from(["chain", "first", "last"]))
def test_any_config_renders_and_checks_without_raising(blocks, a, b, pin, mode) -> None:
    from inspector.zones.diagnostics import check

    blocks = [{k: v for k, v in blk.items() if v is not None} for blk in blocks]
    config = cfg(blocks, [{"name": "a", "values": a, "mutable": False}, {"name": "b", "args": [{"name": "n", "optional": True}],
                                                                           "values": b}],
                 settings={"pinning": pin, "inputMode": mode, "loopCap": 3})
    check(config)
    for row in simulate_turns(config, 3):
        assert len(row.digest) == 64
    r = render(config, 1)
    if r.ok:
        assert r.digest == hashlib.sha256("\n".join(r.section_names).encode()).hexdigest()
        assert all(m.content for m in r.prelude + r.contexts)
