"""How long re-rendering a large ChatLuna preset takes after one edit, through the path the blocks
editor takes per edit: the edited slot's text set on its ``PresetDocument`` (inspector.zones.presets
.editing), then ``render_preset(doc.current(), options, cache)`` with one ``PresetCache`` kept
across edits.

    python benchmarks/zones_preset.py [--repeat 200] [--prompts 200] [--lore 500] [--history 100]

The preset is generated (seeded, so every run builds the same one) in ChatLuna's ``RawPreset``
YAML and read with ``PresetDocument.from_text``: ``--prompts`` prompts (a system prompt with
description, personality and scenario parts, then alternating example messages; every one a
template with conditions, loops and built-in function calls), a ``world_lores`` book of ``--lore``
entries (plain and pattern keywords, the four insert positions ChatLuna places, constant, disabled
and ordered entries, scan depths, recursion), an author's note and a ``format_user_prompt``; the
sample history has ``--history`` messages that name some of the lore keywords, so a few dozen
entries activate.

Three runs of ``--repeat`` edits each: one prompt's text, one lore entry's text, the
``format_user_prompt`` (a different slot each time where there are several; a character added, as
typing does), each followed by a render of the whole preset: the prompts, the formatted input, the
lore activation and insertion, the author's note and every diagnostic. Printed figures are medians
and 95th percentiles in milliseconds; "cold" renders with an empty cache (opening the file).
Target: under 50 ms per edit (the median of every run); the exit status is 1 when a run misses it.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from inspector.zones.presets import PresetCache, PresetOptions, PresetRender, render_preset  # noqa: E402
from inspector.zones.presets.editing import INPUT, LORE, PROMPT, PresetDocument  # noqa: E402

TARGET_MS = 50.0
# The insert positions ChatLuna 1.3.36 has a rule for (before_ and after_scenario have none).
POSITIONS = ("before_char_defs", "after_char_defs", "before_example_messages", "after_example_messages")
TOPICS = ("猫", "月亮", "咖啡", "魔法", "城堡", "dragon", "forest", "雨天", "图书馆", "星星")


def _ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {statistics.median(samples):7.2f} ms   p95 {p95:7.2f} ms"


def _prompt(i: int, rng: random.Random) -> dict:
    topic = TOPICS[i % len(TOPICS)]
    if i == 0:
        return {"role": "system", "type": "description", "content":
                "你是{name}，一位住在{topic}旁的向导。\n{if is_group}\n你在群聊「{group_name}」中回答大家。\n{else}\n"
                "你在和{user}私聊。\n{/if}\n今天是{date()}（{weekday}），现在 {isotime()}。".replace("{topic}", topic)}
    if i == 1:
        return {"role": "system", "type": "personality", "content":
                "性格：{pick(\"温柔\", \"好奇\", \"安静\")}。口头禅重复 {random(1, 3)} 次：{repeat 2}喵{/repeat}"}
    if i == 2:
        return {"role": "system", "type": "scenario", "content":
                "场景：{built.platform} 上的 {is_private ? \"私聊\" : \"群聊\"}，距上次对话 {idle_duration}。"}
    role = "user" if i % 2 else "assistant"
    lines = [f"示例 {i}：关于{topic}的对话。" + "这是一段用来占位的较长说明文字。" * rng.randint(1, 4)]
    lines.append("{if user_id == \"42\"}老朋友 {user}{elseif is_group}群友{else}新朋友{/if}")
    lines.append("{for x in tags}[{x}]{/for} 掷骰 {roll(\"2d6+1\")} · {time_UTC(8)}")
    if i % 7 == 0:
        lines.append("{{ 原样输出的大括号 }} 和 {\"key\": \"value\"} 样式的 JSON")
    return {"role": role, "type": "first_message" if i == 3 else None, "content": "\n".join(lines)}


def _lore_entry(i: int, rng: random.Random) -> dict:
    topic = TOPICS[i % len(TOPICS)]
    keyword = f"{topic}{i}"
    entry: dict = {"keywords": [keyword] if i % 5 else [keyword, f"{topic}.{{0,2}}传说{i}"],
                   "content": f"关于「{keyword}」的设定：{{name}}知道它的来历。" + "细节。" * rng.randint(1, 6)}
    if i % 3 == 0:
        entry["insertPosition"] = POSITIONS[i % len(POSITIONS)]
    if i % 11 == 0:
        entry["scanDepth"] = 1 + i % 4
    if i % 13 == 0:
        entry["order"] = rng.randint(-5, 5)
    if i % 17 == 0:
        entry["constant"] = True
    if i % 19 == 0:
        entry["enabled"] = False
    if i % 23 == 0:
        entry["caseSensitive"] = True
    if i % 29 == 0:
        entry["content"] += f" 参见 {TOPICS[(i + 1) % len(TOPICS)]}{i + 1}。"  # recursion
    return entry


def build_preset_yaml(prompts: int, lore: int, seed: int = 20) -> str:
    """The generated preset, as YAML text (JSON is YAML; ChatLuna's loader reads it)."""
    rng = random.Random(seed)
    data = {
        "keywords": ["bench", "基准"],
        "prompts": [{k: v for k, v in _prompt(i, rng).items() if v is not None} for i in range(prompts)],
        "format_user_prompt": "用户[{sender},{sender_id}]在 {date} 说: {prompt}",
        "world_lores": [{"scanDepth": 4, "tokenLimit": 2000, "recursiveScan": True, "maxRecursionDepth": 2}] + [_lore_entry(i, rng) for i in range(lore)],
        "authors_note": {"content": "（作者注：{name}保持角色，不要跳出设定。）", "insertPosition": "in_chat",
                         "insertDepth": 2, "insertFrequency": 1},
        "version": "1.0.0",
    }
    return json.dumps(data, ensure_ascii=False, indent=1)


def build_history(messages: int, lore: int, seed: int = 21) -> list[dict[str, str]]:
    rng = random.Random(seed)
    out = []
    for i in range(messages):
        role = "user" if i % 2 == 0 else "assistant"
        text = f"第 {i} 条消息，" + "随便聊聊。" * rng.randint(1, 5)
        if i % 4 == 0:
            k = rng.randrange(lore)
            text += f" 说起{TOPICS[k % len(TOPICS)]}{k}……"
        out.append({"role": role, "content": text})
    return out


def _time_edits(doc: PresetDocument, kind: str, repeat: int, options: PresetOptions,
                cache: PresetCache) -> tuple[list[float], PresetRender]:
    """Edit slots of one kind in turn (a character added, as typing does) and render each time."""
    slots = [s for s in doc.slots if s.kind == kind and s.editable]
    samples = []
    result = None
    for k in range(repeat):
        slot = slots[k % len(slots)]
        slot.content += "字" if k % 2 else " "
        t0 = time.perf_counter()
        result = render_preset(doc.current(), options, cache)
        samples.append((time.perf_counter() - t0) * 1000)
        # The edit must have reached what ChatLuna would send.
        if kind == PROMPT:
            assert next(r for r in result.prompts if r.block_id == slot.block_id).source == slot.content
        elif kind == INPUT:
            assert result.formatted_input.startswith(slot.content.split("{", 1)[0])
    assert result is not None
    return samples, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=200, help="edits to time per kind (default 200)")
    parser.add_argument("--prompts", type=int, default=200, help="prompts (blocks) in the preset (default 200)")
    parser.add_argument("--lore", type=int, default=500, help="lore entries (default 500)")
    parser.add_argument("--history", type=int, default=100, help="history messages (default 100)")
    args = parser.parse_args(argv)
    if args.prompts < 4 or args.lore < 1 or args.history < 0 or args.repeat < 1:
        parser.error("need at least 4 prompts, 1 lore entry, 0 history messages and 1 repeat")

    text = build_preset_yaml(args.prompts, args.lore)
    t0 = time.perf_counter()
    doc = PresetDocument.from_text(text, "<benchmark preset>")
    load_ms = (time.perf_counter() - t0) * 1000
    options = PresetOptions(input="今天想聊聊猫3和月亮的事", variables={"tags": ["友好", "耐心", "简洁"]},
                            history=build_history(args.history, args.lore))

    cold = []
    for _ in range(5):
        t0 = time.perf_counter()
        render_preset(doc.current(), options, PresetCache())
        cold.append((time.perf_counter() - t0) * 1000)

    cache = PresetCache()
    render_preset(doc.current(), options, cache)  # the editor's first render, when the file opens
    runs = {}
    for kind, label in ((PROMPT, "edit a prompt"), (LORE, "edit a lore entry"), (INPUT, "edit format_user_prompt")):
        runs[label], result = _time_edits(doc, kind, args.repeat, options, cache)

    preset = doc.preset
    lore_messages = sum(1 for m in result.messages if m.source == "lore")
    kinds = ", ".join(f"{n} {code} ({severity})" for (code, severity), n in
                      sorted(Counter((d.code, d.severity) for d in result.diagnostics).items())) or "none"
    print(f"preset: {len(preset.prompts)} prompts, {len(preset.lore_entries)} lore entries, "
          f"{len(options.history)} history messages ({len(text)} characters of YAML, read in {load_ms:.0f} ms)")
    print(f"last render: {len(result.messages)} messages, {len(result.lore)} lore entries activated in "
          f"{lore_messages} inserted groups; diagnostics: {kinds}")
    print(f"{'cold render (empty cache)':<32} {_ms(cold)}")
    for label, samples in runs.items():
        print(f"{label + ' + render':<32} {_ms(samples)}   target {TARGET_MS:.0f} ms   ({args.repeat} edits)")
    worst = max(statistics.median(samples) for samples in runs.values())
    return 0 if worst <= TARGET_MS else 1


if __name__ == "__main__":
    raise SystemExit(main())
