"""How fast the live preview of a prompt-zones config updates as the user types.

    python benchmarks/zones_preview.py [--repeat 200] [--config PATH]

Each "keystroke" appends one character to one block's content (a different block each time, so
its parse is a cache miss like a real edit), then does what the editor does: the static check,
the render of the current turn, and the digest. Target: within 50 ms on the shipped sample.
Printed figures are medians (and 95th percentiles) in milliseconds; "cold" clears the parse cache
before every run, which an editor never needs to do.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from inspector.zones import check, load_config, render, simulate_turns  # noqa: E402
from inspector.zones.config import sample_path  # noqa: E402
from inspector.zones.template import parse  # noqa: E402


def _ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {statistics.median(samples) * 1000:6.2f} ms   p95 {p95 * 1000:6.2f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--config", default=str(sample_path()))
    args = parser.parse_args()

    # The sample's memory contributor fails on turn 2 on purpose; thousands of log lines would
    # only time the terminal.
    logging.getLogger("inspector.zones").setLevel(logging.ERROR)
    config = load_config(args.config)
    templates = [b for b in config.blocks if b.template] or config.blocks
    keystroke, check_only, render_only, cold, turns = [], [], [], [], []
    for i in range(args.repeat):
        block = templates[i % len(templates)]
        block.content += "字" if i % 2 else " "
        t0 = time.perf_counter()
        diagnostics = check(config)
        t1 = time.perf_counter()
        result = render(config, turn=i % 5)
        t2 = time.perf_counter()
        keystroke.append(t2 - t0)
        check_only.append(t1 - t0)
        render_only.append(t2 - t1)
        assert result.digest and diagnostics is not None

        parse.cache_clear()
        t0 = time.perf_counter()
        check(config)
        render(config, turn=i % 5)
        cold.append(time.perf_counter() - t0)

        t0 = time.perf_counter()
        simulate_turns(config, 5)
        turns.append(time.perf_counter() - t0)

    print(f"config: {args.config} ({len(config.blocks)} blocks, {len(config.variables)} variables)")
    print(f"keystroke (check + render)   {_ms(keystroke)}   target 50 ms")
    print(f"  check                      {_ms(check_only)}")
    print(f"  render                     {_ms(render_only)}")
    print(f"cold (parse cache cleared)   {_ms(cold)}")
    print(f"simulate 5 turns             {_ms(turns)}")
    return 0 if statistics.median(keystroke) < 0.050 else 1


if __name__ == "__main__":
    raise SystemExit(main())
