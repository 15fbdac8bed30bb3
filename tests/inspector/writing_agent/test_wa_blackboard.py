"""Blackboard reads (spec A.4 readTagContent), scenario files, and the shipped sample."""

import json

import pytest

from inspector.writing_agent.blackboard import Blackboard, BlackboardItem, items_from_data, tag_matches
from inspector.writing_agent.fragment import as_fragment
from inspector.writing_agent.history import split_history_blocks, block_role
from inspector.writing_agent.order import read_context_order
from inspector.writing_agent.scenario import ScenarioError, load_scenario, parse_scenario
from inspector.writing_agent.segments import insert_ref_choices, ref_reads_something
from resources import resource_path

SAMPLE = resource_path("samples", "writing_agent")


@pytest.mark.parametrize("pattern,tag,expected", [
    ("设计.实现机制", "设计.实现机制", True), ("设计.实现机制", "设计.实现机制.旧", False),
    ("设计.*", "设计.实现机制", True), ("设计.*", "设计", True), ("设计.*", "设计稿.x", False),
    ("**", "anything.at.all", True), (" 设计.* ", "设计.a", True), ("*", "x", False)])
def test_tag_patterns(pattern, tag, expected):
    assert tag_matches(pattern, tag) is expected


def board():
    return Blackboard(items_from_data([
        {"tag": "设计.b", "content": "B1", "updated": "2026-01-02T00:00:00Z"},
        {"tag": "设计.a", "content": "A1", "updated": "2026-01-01T00:00:00Z"},
        {"tag": "设计.a", "content": "A2", "updated": "2026-01-03T00:00:00Z"},
        {"tag": "设计.a", "content": "A3-archived", "updated": "2026-01-02T12:00:00Z", "archived": True},
        {"tag": "设计.c", "content": "C", "updated": 1},  # a number: seconds, the oldest
        {"tag": "其他", "content": "O"},  # no time: older than any timed item
    ]))


def test_latest_is_newest_live_item_of_any_matching_tag():
    b = board()
    assert b.latest("设计.a").content == "A2"
    assert b.latest("设计.*").content == "A2"
    assert b.latest("**").content == "A2"
    assert b.latest("nothing") is None
    assert b.value("设计.a") == "A2" and b.value("设计.*") == ""


def test_concat_takes_latest_per_tag_ordered_by_update_time():
    b = board()
    assert b.concat("设计.*") == "C\n\n---\n\nB1\n\n---\n\nA2"
    assert b.read("设计.*", "concat") == ["C\n\n---\n\nB1\n\n---\n\nA2"]
    assert b.read("设计.*") == ["A2"] and b.read("none", "concat") == []


def test_archived_items_are_never_read():
    # The newest item per tag is taken first, then archived ones are dropped (queryByPatterns).
    b = Blackboard([BlackboardItem("x", "gone", 1.0, archived=True), BlackboardItem("x", "new", 5.0)])
    assert b.value("x") == "new" and "gone" not in b.concat("**")
    assert Blackboard([BlackboardItem("x", "gone", archived=True)]).tags() == []


def test_same_time_ties_go_to_the_later_row():
    b = Blackboard(items_from_data([{"tag": "x", "content": "first", "updated": 5},
                                    {"tag": "x", "content": "second", "updated": 5}]))
    assert b.value("x") == "second"


def test_without_and_with_value():
    b = board()
    assert b.without(lambda t: t.startswith("设计.")).tags() == ["其他"]
    assert b.with_value("设计.a", "new").value("设计.a") == "new"
    assert b.with_value("设计.a", "").value("设计.a") == ""
    assert b.value("设计.a") == "A2"  # immutable


def test_mapping_form_and_structured_content():
    items = items_from_data({"用户.最新输入": "你好", "变量.当前": {"schema": "context-fragment.v1", "brief": "b"},
                             "x": [{"content": "1", "updated": 1}, {"content": "2", "updated": 2}]})
    b = Blackboard(items)
    assert b.value("用户.最新输入") == "你好"
    assert json.loads(b.value("变量.当前")) == {"schema": "context-fragment.v1", "brief": "b"}
    assert b.value("x") == "2"


@pytest.mark.parametrize("data,message", [
    ([{"content": "no tag"}], "item 1: has no tag"),
    ([{"tag": "x", "archived": "yes"}], "archived must be true or false"),
    ([{"tag": "x", "updated": "yesterday"}], "neither an ISO time nor a number"),
    ([42], "expected a mapping"),
    ("text", "must be a list of items or a mapping"),
])
def test_bad_rows_are_named(data, message):
    with pytest.raises(ValueError, match=message):
        items_from_data(data)


def test_scenario_files(tmp_path):
    (tmp_path / "b.json").write_text(json.dumps([{"tag": "a", "content": "1"}]), encoding="utf-8")
    assert load_scenario(tmp_path / "b.json").blackboard.value("a") == "1"
    (tmp_path / "b.yaml").write_text("blackboard:\n  a: 1\nworkers:\n  narrator:\n    persona: P\n", encoding="utf-8")
    scenario = load_scenario(tmp_path / "b.yaml")
    assert scenario.worker("narrator").persona == "P" and scenario.worker("role-decide").isolation == "role_pov"
    (tmp_path / "bad.yaml").write_text("blackboard: [\n", encoding="utf-8")
    with pytest.raises(ScenarioError, match="not valid JSON or YAML"):
        load_scenario(tmp_path / "bad.yaml")
    with pytest.raises(ScenarioError, match="cannot read"):
        load_scenario(tmp_path / "missing.yaml")
    with pytest.raises(ScenarioError, match="workers.x.isolation"):
        parse_scenario({"blackboard": [], "workers": {"x": {"isolation": "secret"}}})
    with pytest.raises(ScenarioError, match="blackboard item 1"):
        parse_scenario({"blackboard": [{"content": "x"}]})


def test_sample_scenario_is_realistic():
    scenario = load_scenario(SAMPLE / "scenario.yaml")
    b = scenario.blackboard
    design = [t for t in b.tags() if t.startswith("设计.")]
    assert len(design) >= 3
    assert all(as_fragment(b.value(t)) is not None for t in design)
    assert as_fragment(b.value("变量.当前")).brief.startswith("第三天傍晚")  # the archived draft is newer but skipped
    blocks = split_history_blocks(b.value("对话.历史"))
    roles = [block_role(block)[0] for block in blocks]
    assert roles.count("user") >= 30 and roles.count("assistant") >= 30
    assert b.value("用户.最新输入").strip()
    assert all(scenario.worker(ref).persona for ref in ("world-simulator", "narrator", "auditor", "role-decide"))
    order = read_context_order((SAMPLE / "order.json").read_text(encoding="utf-8"))
    assert [s.ref for s in order.slots] == ["world-simulator", "narrator", "auditor", "role-decide"]


@pytest.mark.parametrize(("ref", "tags", "reads"), [
    ("worker.persona", [], True), ("persona", [], True), ("history", [], True), ("对话.历史", [], True),
    ("设计.x", ["设计.x"], True), (" 设计.x ", ["设计.x"], True), ("设计.x", ["设计.y"], False),
    # A prefix pattern reads the prefix itself and every tag under it, and nothing that only starts alike.
    ("设计.*", ["设计"], True), ("设计.*", ["设计.x.y"], True), ("设计.*", ["设计x"], False),
    ("**", ["a"], True), ("**", [], False),
])
def test_a_ref_reads_something_when_a_tag_matches_it_as_the_renderer_reads(ref, tags, reads):
    assert ref_reads_something(ref, tags) is reads


def test_the_refs_an_insert_may_name():
    assert insert_ref_choices(["a", "b"]) == ["worker.persona", "对话.历史", "a", "b"]
