"""How long the prompt-zones engine takes to refuse, or to finish within its budgets, on the hostile
inputs issue 17 found (each used to hang, run out of memory or raise RecursionError).

    python benchmarks/zones_bounds.py [--repeat 3] [--only NAME]

Each case is timed ``--repeat`` times and the best run printed with the peak of Python memory
(tracemalloc, on a separate run). Nothing here asserts a time; the tests in
``tests/inspector/zones/test_bounds.py`` check the behaviour.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from inspector import safe_yaml  # noqa: E402
from inspector.zones import check, loads_config, render, simulate_turns  # noqa: E402
from inspector.zones.covel_templates import check_covel  # noqa: E402


def _config(content: str, variables: list, zone: str = "system", blocks: int = 1):
    return loads_config(json.dumps({"blocks": [{"id": f"b{i}", "zone": zone, "template": True, "content": content}
                                               for i in range(blocks)], "variables": variables}), "json")


def _bomb() -> str:
    text = "a: &a [" + ", ".join(['"lol"'] * 9) + "]\n"
    prev = "a"
    for name in "bcdefgh":
        text += f"{name}: &{name} [" + ", ".join([f"*{prev}"] * 9) + "]\n"
        prev = name
    return text + "blocks: []\n"


def _refuse_bomb() -> None:
    try:
        safe_yaml.load(_bomb())
    except safe_yaml.AliasLimitError:
        return
    raise AssertionError("the alias bomb loaded")


def cases() -> dict:
    xs = [{"name": "xs", "example": ["x" * 1000] * 100}]
    deep_if = _config("{if xs}" * 5000 + "y" + "{/if}" * 5000, xs)
    deep_for = _config("{for i in xs}" * 3000 + "y" + "{/for}" * 3000, xs)
    multiply = _config("{for a in xs}{for b in xs}{for c in xs}{a}{b}{c}{/for}{/for}{/for}", xs)
    many_blocks = _config("{repeat 100}{for a in xs}{a}{/for}{/repeat}", xs, zone="context", blocks=2000)
    bad_line = _config("😀{x y =}" * 32000, xs)
    covel = "{{ player.message " * 8000
    return {
        "yaml alias bomb (refused)": _refuse_bomb,
        "lint 5,000 nested {if}": lambda: check(deep_if),
        "render 5,000 nested {if}": lambda: render(deep_if),
        "lint 3,000 nested {for}": lambda: check(deep_for),
        "render 3,000 nested {for}": lambda: render(deep_for),
        "render three nested loops (output limit)": lambda: render(multiply),
        "render 2,000 looping blocks (one loop budget)": lambda: render(many_blocks),
        "simulate 5 turns of 2,000 looping blocks": lambda: simulate_turns(many_blocks, 5),
        "lint 32,000 bad tags on one line": lambda: check(bad_line),
        "lint 8,000 unterminated Covel variables": lambda: check_covel(covel),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default=None, help="run the cases whose name contains this")
    args = parser.parse_args(argv)
    for name, fn in cases().items():
        if args.only and args.only not in name:
            continue
        best = float("inf")
        for _ in range(max(1, args.repeat)):
            started = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - started)
        tracemalloc.start()
        try:
            fn()
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        print(f"{name:<48} {best * 1000:9.1f} ms   peak {peak / 2 ** 20:7.1f} MiB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
