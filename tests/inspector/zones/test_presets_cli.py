"""``prompt-inspector lint`` and ``render`` on ChatLuna preset files, as a user runs them: the
three presets ChatLuna ships, the samples, and a broken preset."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.cli import main
from inspector.zones.presets import load_preset, render_preset
from resources import resource_path

HERE = Path(__file__).parent
REAL = sorted((HERE / "chatluna_presets").glob("*.yml"))
SAMPLES = sorted(resource_path("samples", "chatluna").glob("*.yml"))


def run(capfdbinary, *argv):
    code = main([str(a) for a in argv])
    out, err = capfdbinary.readouterr()
    return code, out.decode("utf-8"), err.decode("utf-8")


def test_there_are_the_three_real_presets_and_two_samples() -> None:
    assert [p.name for p in REAL] == ["catgirl.yml", "empty.yml", "sydney.yml"]
    assert [p.name for p in SAMPLES] == ["group-helper.yml", "tea-house-fox.yml"]


@pytest.mark.parametrize("path", REAL + SAMPLES, ids=lambda p: p.name)
def test_real_presets_and_samples_lint_without_errors_and_render(path, capfdbinary) -> None:
    code, out, _ = run(capfdbinary, "lint", path, "--json")
    assert code == 0
    assert not [d for d in json.loads(out) if d["severity"] == "error"]
    code, out, _ = run(capfdbinary, "render", path, "--json", "--input", "你好呀")
    assert code == 0
    data = json.loads(out)
    preset = load_preset(path)
    prompts = [m for m in data["messages"] if m["source"] == "prompt"]
    assert len(prompts) == len(preset.prompts)
    assert data["messages"][-1]["source"] == "input"
    assert "你好呀" in data["input"]["formatted"]


def test_the_samples_show_lore_and_the_authors_note(tmp_path, capfdbinary) -> None:
    history = tmp_path / "history.json"
    history.write_text(json.dumps([
        {"role": "user", "content": "听说后面有座旧石桥？"}, {"role": "assistant", "content": "是呀客官。"},
        {"role": "user", "content": "你有几条尾巴"}, {"role": "assistant", "content": "这个嘛……"},
    ], ensure_ascii=False), encoding="utf-8")
    fox = resource_path("samples", "chatluna", "tea-house-fox.yml")
    code, out, _ = run(capfdbinary, "render", fox, "--json", "--history", history, "--input", "今晚的灯会几点开始？")
    assert code == 0
    data = json.loads(out)
    lore = {h["entry"]: h for h in data["lore"]}
    assert sorted(lore) == [1, 2, 3, 5]  # lantern (input), bridge (via the lantern entry), tails, menu (constant)
    assert lore[2]["activatedBy"] == {"entry": 1} and lore[2]["depth"] == 1
    assert lore[1]["activatedBy"] == {"message": 0}
    assert lore[5]["position"] == "before_char_defs" and lore[5]["insertedAt"] == 0
    assert data["authorsNote"]["active"] is True
    sources = [m["source"] for m in data["messages"]]
    assert sources == ["lore", "prompt", "prompt", "prompt", "lore", "prompt", "history", "history",
                       "authors_note", "history", "history", "lore", "input"]
    assert data["messages"][4]["entries"] == [1, 2]


def test_the_text_form_lists_the_messages_in_order(capfdbinary) -> None:
    code, out, _ = run(capfdbinary, "render", REAL[0], "--input", "摸摸头")
    assert code == 0
    assert out.startswith("== 1. system · prompts[0] ==\n将以下内容写入香草的设定")
    assert "== 2. assistant · prompts[1] ==\n喵~你好主人\n" in out
    assert out.endswith("== 3. user · input ==\n用户[Alice,42]说: 摸摸头\n")


BROKEN = """keywords: [broken]
prompts:
  - role: system
    content: |-
      今天是 {weekday()}，{shout(name)}！
      {if is_group}群聊里请简短回答。
format_user_prompt: '{sender} 说了一句话'
"""


def test_an_unknown_function_an_unclosed_if_and_no_prompt_fail_the_lint(tmp_path, capfdbinary) -> None:
    path = tmp_path / "broken.yml"
    path.write_text(BROKEN, encoding="utf-8")
    code, out, _ = run(capfdbinary, "lint", path, "--json")
    assert code == 1
    found = [(d["code"], d["blockId"], d["line"], d["column"]) for d in json.loads(out)
             if d["severity"] == "error"]
    assert found == [("unknown-function", "prompts[0]", 1, 18), ("parse-error", "prompts[0]", 2, 1),
                     ("input-missing-prompt", "format_user_prompt", 1, 1)]
    code, out, _ = run(capfdbinary, "lint", path)
    assert code == 1
    assert f"{path}: prompts[0] 1:18: error [unknown-function] unknown function 'shout'" in out
    assert out.endswith("3 errors, 0 warnings\n")
    code, _, _ = run(capfdbinary, "render", path)
    assert code == 1


def test_render_options_clock_seed_vars(tmp_path, capfdbinary) -> None:
    path = tmp_path / "p.yml"
    path.write_text("keywords: [p]\nprompts:\n  - role: system\n    content: '{name} {isodate()} {isotime()} "
                    "{weekday} {random(1, 100)} {url(\"GET\", \"https://example.com\")}|'\n", encoding="utf-8")
    variables = tmp_path / "vars.json"
    variables.write_text('{"name": "小月"}', encoding="utf-8")
    argv = ("render", path, "--json", "--now", "2026-03-15T02:30:05+08:00", "--seed", "7", "--vars", variables)
    code, out, _ = run(capfdbinary, *argv)
    assert code == 0
    data = json.loads(out)
    text = data["messages"][0]["content"]
    assert text.startswith("小月 2026-03-15 02:30:05 Sunday ") and text.endswith(" |")
    assert [d["code"] for d in data["diagnostics"]] == ["network-function"]
    assert data["clock"] == {"now": "2026-03-15T02:30:05+08:00", "seed": 7}
    assert json.loads(run(capfdbinary, *argv)[1]) == data  # deterministic
    assert text.split()[4] == "33"  # random.Random(7): the first draw
    other = json.loads(run(capfdbinary, *argv[:-4], "--seed", "8")[1])["messages"][0]["content"]
    assert other.split()[4] == "23"


@pytest.mark.parametrize("argv, message", [
    (("--now", "yesterday"), "--now 'yesterday': not an ISO date-time"),
    (("--history", "{h}"), "{h}: message 1: role must be one of system, user, assistant"),
    (("--turns", "3"), "--turn and --turns simulate a zones config's turns"),
])
def test_bad_render_options_are_one_message(tmp_path, capfdbinary, argv, message) -> None:
    history = tmp_path / "h.json"
    history.write_text('[{"role": "bot", "content": "x"}]', encoding="utf-8")
    argv = tuple(a.replace("{h}", str(history)) for a in argv)
    message = message.replace("{h}", str(history))
    code, out, err = run(capfdbinary, "render", REAL[0], *argv)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_zones_configs_keep_working_and_refuse_preset_options(capfdbinary) -> None:
    sample = resource_path("samples", "zones", "group-chat.yaml")
    code, out, _ = run(capfdbinary, "render", sample, "--json")
    assert code == 0 and "system" in json.loads(out)
    code, _, err = run(capfdbinary, "render", sample, "--now", "2026-01-01T00:00:00Z")
    assert code == 2 and "--now is for ChatLuna preset files" in err


def test_a_broken_yaml_preset_is_one_message(tmp_path, capfdbinary) -> None:
    path = tmp_path / "p.yml"
    path.write_text("keywords: [a]\nprompts: [\n", encoding="utf-8")
    code, out, err = run(capfdbinary, "lint", path)
    assert code == 2 and "not valid YAML" in err and "Traceback" not in err


def test_render_preset_reports_what_the_lint_reports() -> None:
    preset = load_preset(SAMPLES[1])
    assert render_preset(preset).diagnostics == ()
