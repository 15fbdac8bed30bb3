"""``prompt-inspector lint`` and ``render`` as a user runs them."""

from __future__ import annotations

import json

import pytest

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
    assert "preset:persona (preset-xiaodeng) 1:43: warning [mutable-in-system]" in out and out.endswith("0 errors, 1 warning\n")
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
    assert code == 2 and out == ""
    assert err == f"prompt-inspector: {bad}: blocks[0]: 'id' must be a string, found the number 3\n"
    code, _, err = run(capfdbinary, "lint", tmp_path / "none.yaml")
    assert code == 2 and "no such file" in err


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
    assert code == 1 and out == "" and "the assembly failed" in err and "2 complete system blocks" in err
    code, out, _ = run(capfdbinary, "render", path, "--json")
    assert code == 1 and json.loads(out)["error"]["code"] == "multiple-complete"
    code, _, err = run(capfdbinary, "render", path, "--turn", "-1")
    assert code == 2 and "cannot be negative" in err


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


def _sys(bid, content, order=0, **kw):
    return {"id": bid, "zone": "system", "order": order, "content": content, **kw}


# One config per code: (blocks, variables, the code's expected (blockId, start, end, severity)).
# Content spans are UTF-16 offsets; "😀" counts 2 and "中" 1.
PER_CODE = {
    "unknown-variable": ([_sys("s", "😀中{ghost}", template=True)], [], ("s", 4, 9, "error")),
    "zone-not-allowed": ([_sys("s", "😀{t}", template=True)], [{"name": "t", "zones": ["context"]}],
                         ("s", 3, 4, "error")),
    "mutable-in-system": ([_sys("s", "{m}", template=True)], [{"name": "m", "mutable": True}], ("s", 1, 2, "error")),
    "arg-count": ([_sys("s", "😀{lore}", template=True)], [{"name": "lore", "args": ["k"]}], ("s", 2, 8, "error")),
    "duplicate-id": ([_sys("s", "a"), _sys("s", "b", 1)], [], ("s", 0, 0, "error")),
    "order-out-of-range": ([_sys("s", "a", 300)], [], ("s", 0, 0, "error")),
    "input-missing-prompt": ([{"id": "i", "zone": "input", "template": True, "content": "x"}], [],
                             ("i", 0, 0, "error")),
    "multiple-complete": ([_sys("c1", "a", complete=True), _sys("c2", "b", 1, complete=True)], [],
                          ("c1", 0, 0, "error")),
    "parse-error": ([_sys("s", "😀{if x}", template=True)], [{"name": "x"}], ("s", 2, 8, "error")),
    "loop-limit": ([_sys("s", "中{while true}x{/while}", template=True)], [], ("s", 1, 13, "warning")),
    "order-tie": ([_sys("a", "a", 5), _sys("b", "b", 5)], [], ("b", 0, 0, "warning")),
    "unused-variable": ([_sys("s", "a")], [{"name": "spare"}], (None, 0, 0, "warning")),
}


@pytest.mark.parametrize("code", sorted(CODES))
def test_each_code_through_lint_json(tmp_path, capfdbinary, code) -> None:
    blocks, variables, (block_id, start, end, severity) = PER_CODE[code]
    path = tmp_path / "one.json"
    path.write_text(json.dumps({"blocks": blocks, "variables": variables}, ensure_ascii=False), encoding="utf-8")
    status, out, err = run(capfdbinary, "lint", path, "--json")
    found = json.loads(out)
    mine = [d for d in found if d["code"] == code]
    assert len(mine) >= 1 and err == ""
    d = mine[0]
    assert (d["blockId"], d["start"], d["end"], d["severity"]) == (block_id, start, end, severity)
    assert isinstance(d["message"], str) and d["message"]
    assert status == (1 if any(x["severity"] == "error" for x in found) else 0)


@pytest.mark.parametrize("name, text", [
    ("deep.json", "[" * 100_000 + "]" * 100_000),
    ("deep.yaml", "[" * 10_000 + "]" * 10_000),
    ("bad.toml", "blocks = [\n"),
    ("types.json", '{"blocks": [{"id": "a", "zone": "system", "template": "yes"}]}'),
    ("zone.yaml", "blocks:\n  - id: a\n    zone: sytem\n"),
])
def test_bad_input_is_one_line_on_stderr(tmp_path, capfdbinary, name, text) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    for command in ("lint", "render"):
        status, out, err = run(capfdbinary, command, path, "--json")
        assert status == 2 and out == ""
        assert err.startswith(f"prompt-inspector: {path}: ") and err.count("\n") == 1 and "Traceback" not in err


def test_huge_files_are_refused_with_their_size(tmp_path, capfdbinary, monkeypatch) -> None:
    from inspector.zones import config as config_module

    monkeypatch.setattr(config_module, "MAX_CONFIG_BYTES", 10)
    for name, text in (("RUNTIME.md", "{{ world.name }} and more"), ("big.json", '{"blocks": []}   ')):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        status, out, err = run(capfdbinary, "lint", path)
        assert status == 2 and out == "" and err.startswith(f"prompt-inspector: {path}: the file is ")


def test_an_infinite_order_reads_as_javascript_writes_it(tmp_path, capfdbinary) -> None:
    path = tmp_path / "inf.json"
    path.write_text('{"blocks": [{"id": "s", "zone": "system", "order": 1e400, "content": "x"}]}', encoding="utf-8")
    status, out, _ = run(capfdbinary, "lint", path, "--json")
    assert status == 1 and json.loads(out)[0]["message"] == "system order Infinity is outside -300..299"


def test_diagnostics_name_the_plugin_that_registered_the_block(tmp_path, capfdbinary) -> None:
    # ChatLuna's docs: a diagnostic carries the block id and the plugin it came from (sourceOf).
    path = tmp_path / "src.json"
    path.write_text(json.dumps({"blocks": [
        {"id": "w:a", "zone": "system", "order": 400, "source": "weather", "template": True, "content": "{ghost}"},
        {"id": "b", "zone": "system", "order": 1, "content": "plain"}], "variables": [{"name": "spare"}]}),
        encoding="utf-8")
    _status, out, _ = run(capfdbinary, "lint", path, "--json")
    assert [(d["code"], d["blockId"], d["source"]) for d in json.loads(out)] == [
        ("order-out-of-range", "w:a", "weather"), ("unknown-variable", "w:a", "weather"),
        ("unused-variable", None, None)]
    _status, out, _ = run(capfdbinary, "lint", path)
    assert f"{path}: w:a (weather) 1:2: error [unknown-variable]" in out


def test_exit_statuses_are_the_error_boundarys_constants():
    # One table of exit statuses (inspector.error_boundary): the commands return its names, never
    # a bare number that could drift from it.
    import ast
    import inspect

    from inspector.error_boundary import EXIT_FAILED_CHECK, EXIT_OK
    from inspector.zones import commands

    literals = [node.lineno for node in ast.walk(ast.parse(inspect.getsource(commands)))
                if isinstance(node, ast.Return) and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, int)]
    assert literals == []
    assert (EXIT_OK, EXIT_FAILED_CHECK) == (0, 1)
