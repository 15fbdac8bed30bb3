"""`prompt-inspector order` and `prompt-inspector assemble`, as a user runs them."""

import json

import pytest

from inspector.cli import main
from inspector.writing_agent.order import normalise, read_context_order, serialise
from resources import resource_path

SAMPLE = resource_path("samples", "writing_agent")
ORDER = SAMPLE / "order.json"
SCENARIO = SAMPLE / "scenario.yaml"


def run(capfdbinary, *argv):
    code = main([str(a) for a in argv])
    out, err = capfdbinary.readouterr()
    return code, out.decode("utf-8"), err.decode("utf-8")


def test_order_normalise_prints_the_spec_serialisation(tmp_path, capfdbinary):
    messy = tmp_path / "draft.md"
    messy.write_text("排序表草稿：\n```json\n" + json.dumps({"slots": [{"ref": "gm", "inserts": [
        {"ref": "用户.最新输入", "order": 9}, {"ref": "history", "order": 3, "投影": "摘要"},
        {"ref": "persona", "order": 5, "projection": "fixed"}]}]}, ensure_ascii=False) + "\n```\n", encoding="utf-8")
    code, out, _ = run(capfdbinary, "order", messy, "--normalise")
    assert code == 0
    assert out == serialise(read_context_order(messy.read_text(encoding="utf-8"))) + "\n"
    data = json.loads(out)
    assert [i["ref"] for i in data["slots"][0]["inserts"]] == ["persona", "对话.历史", "用户.最新输入"]


def test_order_apply_move(capfdbinary):
    op = '{"action":"move","slotRef":"narrator","index":2,"delta":-1}'
    code, out, _ = run(capfdbinary, "order", ORDER, "--apply", op, "--json")
    assert code == 0
    refs = [i["ref"] for i in json.loads(out)["document"]["slots"][1]["inserts"]]
    assert refs[1:3] == ["设计.故事推进", "设计.叙事指南"]


def test_order_apply_several_and_changes_reported(capfdbinary):
    code, out, _ = run(capfdbinary, "order", ORDER, "--apply",
                       '{"action":"move","slotRef":"narrator","index":1,"delta":-1}',
                       '{"action":"set_anchor","slotRef":"auditor","index":1,"anchor":"post_history"}')
    assert code == 0
    assert "note: narrator: persona pinned first: move undone" in out
    assert "note: auditor: the slot had no history insert" in out
    code, out, _ = run(capfdbinary, "order", ORDER, "--apply",
                       '{"action":"set_projection","slotRef":"world-simulator","index":1,"projection":"full"}',
                       "--normalise")
    assert json.loads(out)["slots"][0]["inserts"][1]["projection"] == "full"


@pytest.mark.parametrize("op,message,english", [
    ('{"action":"move","slotRef":"narrator","index":2,"delta":2}', "move 需要 slotRef、index、delta(±1)",
     "move needs slotRef, index, delta(±1)"),
    # An edit names the slot by its ref: the play-slot alias is not resolved, as in the original.
    ('{"action":"set_projection","slotRef":"gm","index":1,"projection":"full"}', "未找到槽 gm", "slot gm not found"),
    ('{"action":"replace"}', "context_order 无法解析", "context_order cannot be parsed"),
    ('{"action":"move","slotRef":"narrator","index":20,"delta":1}', "插入项下标越界", "insert index out of range"),
    ('{"action":"set_projection","slotRef":"nobody","index":0,"projection":"full"}', "未找到槽 nobody",
     "slot nobody not found"),
    ('{"action":"rename"}', "action 须为 move | set_anchor | set_projection | replace",
     "action must be move | set_anchor | set_projection | replace"),
    ('{"action":"replace","context_order":"nothing"}', "context_order 无法解析", "context_order cannot be parsed"),
])
def test_rejected_edit_exits_2_with_the_spec_message(capfdbinary, monkeypatch, op, message, english):
    # A Chinese session prints the original's message verbatim; any other prints it in English.
    monkeypatch.setenv("PROMPT_INSPECTOR_LANG", "zh_CN")
    code, out, err = run(capfdbinary, "order", ORDER, "--apply", op)
    assert code == 2 and out == ""
    assert err == f"prompt-inspector: {message}\n"
    monkeypatch.setenv("PROMPT_INSPECTOR_LANG", "en")
    code, out, err = run(capfdbinary, "order", ORDER, "--apply", op)
    assert code == 2 and out == ""
    assert err == f"prompt-inspector: {english}\n"


def test_rejected_edit_follows_the_locale_without_the_override(capfdbinary, monkeypatch):
    monkeypatch.delenv("PROMPT_INSPECTOR_LANG", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert run(capfdbinary, "order", ORDER, "--apply", '{"action":"rename"}')[2].endswith("action 须为 move | "
                                                                                       "set_anchor | set_projection | replace\n")
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert run(capfdbinary, "order", ORDER, "--apply", '{"action":"rename"}')[2] == (
        "prompt-inspector: action must be move | set_anchor | set_projection | replace\n")


def test_order_reads_a_worker_set_as_the_editor_does(tmp_path, capfdbinary):
    worker_set = tmp_path / "workers.json"
    worker_set.write_text(json.dumps({"workers": [], "context_order": json.loads(ORDER.read_text(encoding="utf-8"))},
                                     ensure_ascii=False), encoding="utf-8")
    code, out, _ = run(capfdbinary, "order", worker_set, "--normalise")
    assert code == 0
    assert out == serialise(read_context_order(ORDER.read_text(encoding="utf-8"))) + "\n"


def test_order_bad_inputs(tmp_path, capfdbinary, monkeypatch):
    monkeypatch.setenv("PROMPT_INSPECTOR_LANG", "en")
    code, _, err = run(capfdbinary, "order", tmp_path / "missing.json")
    assert code == 2 and "cannot read" in err
    (tmp_path / "x.txt").write_text("just prose", encoding="utf-8")
    code, _, err = run(capfdbinary, "order", tmp_path / "x.txt")
    assert code == 2 and "no context-order.v1 document" in err
    code, _, err = run(capfdbinary, "order", ORDER, "--apply", "{not json")
    assert code == 2 and "is not JSON" in err


def test_order_table_text(capfdbinary):
    code, out, _ = run(capfdbinary, "order", ORDER)
    assert code == 0 and "world-simulator  主世界层" in out and "summary  对话.历史" in out
    document = normalise(read_context_order(ORDER.read_text(encoding="utf-8"))).document
    assert out.count("\n  ") >= sum(len(s.inserts) for s in document.slots)


def test_assemble_json(capfdbinary):
    code, out, _ = run(capfdbinary, "assemble", ORDER, SCENARIO, "--slot", "gm", "--turn", "12", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["slot"] == "world-simulator" and data["turn"] == 12 and data["turnCount"] == 61
    assert data["totalTokens"] == sum(m["tokens"] for m in data["messages"])
    assert set(data["bags"]) == {"before", "history", "after", "turn", "postTurn"}
    assert data["messages"][-1]["role"] == "user"
    assert [s["bag"] for s in data["segments"]][:2] == ["before", "before"]


def test_assemble_text_and_options(capfdbinary):
    code, out, _ = run(capfdbinary, "assemble", ORDER, SCENARIO, "--slot", "narrator")
    assert code == 0 and out.startswith("narrator (叙事转述) · turn 61/61") and "variant card_rp" in out
    code, leak, _ = run(capfdbinary, "assemble", ORDER, SCENARIO, "--slot", "role-decide", "--leak")
    code2, safe, _ = run(capfdbinary, "assemble", ORDER, SCENARIO, "--slot", "role-decide")
    assert code == code2 == 0 and "沈砚私下留着半箱零件" in leak and "沈砚私下留着半箱零件" not in safe


def test_assemble_simulate(capfdbinary):
    code, out, _ = run(capfdbinary, "assemble", ORDER, SCENARIO, "--slot", "world-simulator", "--simulate", "--json")
    assert code == 0 and json.loads(out)["breakTurns"] == [1, 41, 60]
    code, out, _ = run(capfdbinary, "assemble", ORDER, SCENARIO, "--slot", "world-simulator", "--simulate",
                       "--history-mode", "window")
    assert code == 0 and "prefix breaks at 1, 21, 22," in out


def test_assemble_errors(tmp_path, capfdbinary):
    code, _, err = run(capfdbinary, "assemble", ORDER, SCENARIO, "--slot", "chance")
    assert code == 2 and "no slot 'chance'" in err
    code, _, err = run(capfdbinary, "assemble", ORDER, SCENARIO, "--slot", "gm", "--turn", "99")
    assert code == 2 and "outside 0..61" in err
    (tmp_path / "bad.yaml").write_text("blackboard: [{content: x}]\n", encoding="utf-8")
    code, _, err = run(capfdbinary, "assemble", ORDER, tmp_path / "bad.yaml", "--slot", "gm")
    assert code == 2 and "has no tag" in err
