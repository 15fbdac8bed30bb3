"""``prompt-inspector lint`` and ``render`` as a user runs them."""

from __future__ import annotations

import json

from inspector.cli import main
from inspector.zones.config import sample_path

CODES = {"unknown-variable", "zone-not-allowed", "mutable-in-system", "arg-count", "duplicate-id",
         "order-out-of-range", "input-missing-prompt", "multiple-complete", "parse-error", "loop-limit",
         "order-tie", "unused-variable"}


def run(capfdbinary, *argv):
    code = main([str(a) for a in argv])
    out, err = capfdbinary.readouterr()
    return code, out.decode("utf-8"), err.decode("utf-8")


BROKEN = {
    "blocks": [
        {"id": "a", "zone": "system", "order": 0, "template": True, "content": "{ghost}"},
        {"id": "a", "zone": "system", "order": 1, "content": "dup"},
        {"id": "far", "zone": "system", "order": 500, "content": "x"},
        {"id": "z", "zone": "system", "order": 2, "template": True, "content": "{t}{m}{lore}{if x}"},
        {"id": "c1", "zone": "system", "order": 3, "complete": True, "content": "c"},
        {"id": "c2", "zone": "system", "order": 4, "complete": True, "content": "c"},
        {"id": "i", "zone": "input", "order": 0, "template": True, "content": "no input"},
        {"id": "w", "zone": "context", "order": 0, "template": True, "content": "{while 1}x{/while}"},
        {"id": "w2", "zone": "context", "order": 0, "content": "tie"},
    ],
    "variables": [
        {"name": "t", "zones": ["context"]}, {"name": "m", "mutable": True}, {"name": "lore", "args": ["k"]},
        {"name": "x"}, {"name": "spare"},
    ],
}


def test_lint_json_covers_every_listed_code(tmp_path, capfdbinary) -> None:
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(BROKEN), encoding="utf-8")
    code, out, _ = run(capfdbinary, "lint", path, "--json")
    assert code == 1
    found = json.loads(out)
    assert {d["code"] for d in found} >= CODES
    for d in found:
        assert set(d) >= {"code", "severity", "blockId", "start", "end", "message"}
        assert d["severity"] in ("error", "warning", "info")


def test_lint_text_and_exit_status(tmp_path, capfdbinary) -> None:
    code, out, _ = run(capfdbinary, "lint", sample_path("yaml"))
    assert code == 0
    assert "preset:persona 1:43: warning [mutable-in-system]" in out and out.endswith("0 errors, 1 warning\n")
    clean = tmp_path / "clean.toml"
    clean.write_text('[[blocks]]\nid = "s"\nzone = "system"\ncontent = "hello"\n', encoding="utf-8")
    code, out, _ = run(capfdbinary, "lint", clean)
    assert code == 0 and out == f"{clean}: no problems\n"
    code, out, _ = run(capfdbinary, "lint", clean, "--json")
    assert code == 0 and json.loads(out) == []


def test_lint_reports_a_bad_file_plainly(tmp_path, capfdbinary) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"blocks": [{"id": 3, "zone": "system"}]}', encoding="utf-8")
    code, out, err = run(capfdbinary, "lint", bad)
    assert code == 1 and out == ""
    assert err == f"prompt-inspector: {bad}: blocks[0]: 'id' must be a string, found the number 3\n"
    code, _, err = run(capfdbinary, "lint", tmp_path / "none.yaml")
    assert code == 1 and "no such file" in err


def test_lint_a_covel_runtime_body(tmp_path, capfdbinary) -> None:
    body = tmp_path / "RUNTIME.md"
    body.write_text("---\nid: narrator\n---\nTurn {{ session.turnNumber }} in {{ world.nam }}\n", encoding="utf-8")
    code, out, _ = run(capfdbinary, "lint", body, "--json")
    assert code == 1
    assert [(d["code"], d["blockId"]) for d in json.loads(out)] == [
        ("covel-volatile-in-system", "RUNTIME.md"), ("covel-unknown-variable", "RUNTIME.md")]
    other = tmp_path / "body.txt"
    other.write_text("{{ world.name }}", encoding="utf-8")
    code, out, _ = run(capfdbinary, "lint", other, "--covel")
    assert code == 0 and "no problems" in out


def test_render_text_and_json(capfdbinary) -> None:
    code, out, _ = run(capfdbinary, "render", sample_path(), "--turn", "3")
    assert code == 0
    assert out.startswith("turn 3 · system note · digest ")
    assert "== context 4 (user) · environment-note ==\n环境已更新\n- date: 2024年5月16日\n" in out
    assert "== input ==\n(群聊) [来自 夜猫子] 小灯，今晚的灯会几点开始？\n" in out
    code, out, _ = run(capfdbinary, "render", sample_path("toml"), "--json", "--input", "在吗")
    data = json.loads(out)
    assert code == 0 and data["input"] == "(群聊) [来自 阿满] 在吗"
    assert set(data) >= {"system", "prelude", "contexts", "input", "values", "sectionNames", "digest"}


def test_render_turns_table_and_json(capfdbinary) -> None:
    code, out, _ = run(capfdbinary, "render", sample_path(), "--turns", "5")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 6
    assert lines[1].split()[:3] == ["0", "rendered", "-"] and lines[4].split()[:3] == ["3", "note", "yes"]
    code, out, _ = run(capfdbinary, "render", sample_path(), "--turns", "2", "--json")
    assert [r["systemAction"] for r in json.loads(out)] == ["rendered", "reused"]


def test_render_a_failed_assembly(tmp_path, capfdbinary) -> None:
    path = tmp_path / "two.json"
    path.write_text(json.dumps({"blocks": [
        {"id": "a", "zone": "system", "complete": True, "content": "A"},
        {"id": "b", "zone": "system", "order": 1, "complete": True, "content": "B"}]}), encoding="utf-8")
    code, out, err = run(capfdbinary, "render", path)
    assert code == 1 and "the assembly failed" in err and "2 complete system blocks" in err
    code, out, _ = run(capfdbinary, "render", path, "--json")
    assert code == 1 and json.loads(out)["error"]["code"] == "multiple-complete"
    code, _, err = run(capfdbinary, "render", path, "--turn", "-1")
    assert code == 1 and "cannot be negative" in err


def test_render_a_covel_body_with_variables(tmp_path, capfdbinary) -> None:
    body = tmp_path / "PLUGIN.md"
    body.write_text("---\nname: x\n---\n<world-lore>{{ world.lore }}</world-lore> {{ player.message }}\n",
                    encoding="utf-8")
    values = tmp_path / "vars.json"
    values.write_text(json.dumps({"world": {"lore": "a < b"}, "player": {"message": "hi & bye"}}), encoding="utf-8")
    code, out, _ = run(capfdbinary, "render", body, "--vars", values)
    assert code == 0 and out == "<world-lore>a &lt; b</world-lore> hi & bye\n"
    code, out, _ = run(capfdbinary, "render", body, "--json")
    data = json.loads(out)
    assert data["text"].startswith("<world-lore>灯岭镇的灯会") and data["diagnostics"]
