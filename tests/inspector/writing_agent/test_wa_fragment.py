"""Projection of non-history content (spec A.5)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.writing_agent.fragment import as_fragment, extract_json_object, project_content

FRAGMENT = {
    "schema": "context-fragment.v1", "技能": "mechanism", "brief": "三步循环", "mount": ["主世界层", "旁观维护"],
    "稳变": "少变", "正文": {"支撑点": [1], "覆盖检验": "ok"}, "自评": {"维度": []}, "追问": {"题目": []},
    "开放问题": ["风险时钟多快？"],
}
TEXT = json.dumps(FRAGMENT, ensure_ascii=False)


def test_full_or_missing_projection_is_unchanged_without_parsing():
    for projection in (None, "", "full"):
        assert project_content(TEXT, projection) == TEXT


def test_fragment_modes():
    assert project_content(TEXT, "summary") == "三步循环"
    assert project_content(TEXT, " Brief ") == "三步循环"
    assert project_content(TEXT, "fixed") == "三步循环"
    assert project_content(TEXT, "fields") == "brief: 三步循环\n字段: 支撑点、覆盖检验"
    assert project_content(TEXT, "index") == "技能：mechanism\n三步循环\n挂载：主世界层、旁观维护\n稳变：stable"


def test_other_modes_reserialise_and_drop_sidecars():
    out = project_content(TEXT, "FULL")
    assert list(json.loads(out)) == ["schema", "技能", "brief", "mount", "稳变", "正文", "开放问题"]
    assert "自评" not in out and "追问" not in out
    assert out.startswith('{\n  "schema": "context-fragment.v1",\n  "技能": "mechanism"')


def test_fields_without_object_body_and_empty_body():
    no_object = json.dumps({"brief": "b", "正文": "prose"}, ensure_ascii=False)
    assert project_content(no_object, "fields") == "b"
    empty = json.dumps({"schema": "context-fragment.v1", "brief": "b", "正文": {}}, ensure_ascii=False)
    assert project_content(empty, "fields") == "brief: b\n字段: （无）"
    no_brief = json.dumps({"schema": "context-fragment.v1", "正文": {"a": 1}})
    assert project_content(no_brief, "summary") == no_brief


def test_plain_text():
    persona = "你是旁白。" * 300  # 1500 characters
    assert project_content(persona, "fixed") == persona  # fixed on plain text: verbatim
    assert project_content(persona, "fields") == persona  # fields on plain text: no-op
    summary = project_content(persona, "summary")
    assert summary == persona[:800] + "…"
    assert project_content("短文本", "summary") == "短文本"
    assert project_content("x" * 800, "index") == "x" * 800


def test_summary_counts_utf16_units():
    text = "😀" * 500  # 1000 UTF-16 units
    out = project_content(text, "summary")
    assert out == "😀" * 400 + "…"


@pytest.mark.parametrize("obj,is_fragment", [
    ({"schema": "context-fragment.v1"}, True), ({"brief": "b", "body": 1}, True), ({"概要": "b", "正文": None}, True),
    ({"brief": "b"}, False), ({"brief": " ", "正文": {}}, False), ({"正文": {}}, False)])
def test_fragment_detection(obj, is_fragment):
    assert (as_fragment(json.dumps(obj, ensure_ascii=False)) is not None) is is_fragment


@pytest.mark.parametrize("word,value", [("稳", "stable"), ("少变", "stable"), ("中", "semi"), ("偶发", "semi"),
                                        ("变", "volatile"), ("常变", "volatile"), ("semi", "semi"), ("乱", None)])
def test_stability_synonyms(word, value):
    assert as_fragment({"schema": "context-fragment.v1", "稳变": word}).stability == value


@pytest.mark.parametrize("text", [
    '说明：\n```json\n{"schema": "context-fragment.v1", "brief": "b"}\n```',
    '{"schema": "context-fragment.v1", "brief": "b",}',
    '{"schema": "context-fragment.v1", // comment\n "brief": "b" /* x */}',
    '{\u201cschema\u201d: \u201ccontext-fragment.v1\u201d, \u201cbrief\u201d: \u201cb\u201d}',
    '{"schema": "context-fragment.v1", "brief": "b", "正文": {"a": "cut off',
    'noise {"x": 1} then {"schema": "context-fragment.v1", "brief": "b"} trailing',
])
def test_lenient_extraction(text):
    assert as_fragment(text).brief == "b"


def test_smart_quotes_inside_strings_survive_when_json_is_valid():
    text = json.dumps({"schema": "context-fragment.v1", "brief": "他说\u201c走\u201d"}, ensure_ascii=False)
    assert project_content(text, "summary") == "他说\u201c走\u201d"


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300), st.sampled_from(["summary", "fields", "fixed", "index", "FULL", "other", "full"]))
def test_projection_never_crashes(text, projection):
    assert isinstance(project_content(text, projection), str)
    assert extract_json_object(text) is None or isinstance(extract_json_object(text), dict)
