"""How fast the writing-agent preview re-assembles after an edit, and how fast the prefix simulation runs.

    python benchmarks/order_preview.py [--repeat 50] [--slot world-simulator]

The order editor re-assembles the selected slot after every edit and must show the result within
50 ms. Each figure is the median (and the worst) of ``--repeat`` runs on the shipped sample
(``resources/samples/writing_agent``: 61 history blocks, 4 slots):

* edit + preview: apply one edit (move / set_projection / set_anchor, cycling) and assemble the
  slot at the latest turn, tokens counted; steady state (token counts of unchanged texts cached);
* cold edit + preview: the same after emptying the token-count cache, so every text is encoded;
* edit + preview + prefix strip: what the editor does per edit (``OrderPreview``): apply the edit,
  assemble the latest turn and re-run the prefix simulation for the strip;
* turn slider: assemble an arbitrary turn of an already prepared slot;
* prefix simulation: every turn (0..61) assembled and compared with the one before.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from inspector import tokens  # noqa: E402
from inspector.writing_agent.assembly import assemble, assemble_prepared, prepare  # noqa: E402
from inspector.writing_agent.edits import apply_edit  # noqa: E402
from inspector.writing_agent.order import normalise, read_context_order  # noqa: E402
from inspector.writing_agent.prefix_sim import simulate_prefix  # noqa: E402
from inspector.writing_agent.preview import OrderPreview  # noqa: E402
from inspector.writing_agent.scenario import load_scenario  # noqa: E402
from resources import resource_path  # noqa: E402

SAMPLE = resource_path("samples", "writing_agent")


def timed(fn, repeat: int) -> list[float]:
    out = []
    for i in range(repeat):
        start = time.perf_counter()
        fn(i)
        out.append((time.perf_counter() - start) * 1000)
    return out


def report(name: str, samples: list[float]) -> None:
    print(f"{name:<34} median {statistics.median(samples):7.2f} ms   max {max(samples):7.2f} ms   (n={len(samples)})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--slot", default="world-simulator")
    args = parser.parse_args()

    t0 = time.perf_counter()
    order = normalise(read_context_order((SAMPLE / "order.json").read_text(encoding="utf-8"))).document
    scenario = load_scenario(SAMPLE / "scenario.yaml")
    print(f"load sample (order + scenario YAML)  {(time.perf_counter() - t0) * 1000:.1f} ms")
    t0 = time.perf_counter()
    first = assemble(order, scenario, args.slot)
    print(f"first assembly (loads the tokenizer) {(time.perf_counter() - t0) * 1000:.1f} ms; "
          f"{len(first.messages)} messages, {first.total_tokens} tokens, turn {first.turn}")

    slot = order.slot(args.slot)
    edits = [
        {"action": "move", "slotRef": slot.ref, "index": 2, "delta": 1},
        {"action": "set_projection", "slotRef": slot.ref, "index": 1, "projection": "full"},
        {"action": "set_anchor", "slotRef": slot.ref, "index": 2, "anchor": "post_history"},
        {"action": "set_projection", "slotRef": slot.ref, "index": 1, "projection": "summary"},
    ]
    state = {"order": order}

    def edit_and_preview(i: int) -> None:
        state["order"] = apply_edit(state["order"], edits[i % len(edits)]).document
        assemble(state["order"], scenario, args.slot)

    def cold_edit_and_preview(i: int) -> None:
        # Empty the content-hash count cache so that every text of the result is encoded again.
        tokens._cache = tokens._CountCache()
        edit_and_preview(i)

    report("edit + preview", timed(edit_and_preview, args.repeat))
    report("edit + preview, cold token cache", timed(cold_edit_and_preview, max(5, args.repeat // 5)))

    prepared = prepare(order, scenario, args.slot)
    turns = prepared.turn_count
    preview = OrderPreview(order, scenario, args.slot)
    preview.result()

    def edit_preview_and_strip(i: int) -> None:
        preview.apply(edits[i % len(edits)])
        preview.result()
        preview.simulation()

    report("edit + preview + prefix strip", timed(edit_preview_and_strip, max(5, args.repeat // 2)))

    report("turn slider (one turn)", timed(lambda i: assemble_prepared(prepared, (i * 7) % (turns + 1)), args.repeat))
    sim_samples = timed(lambda i: simulate_prefix(order, scenario, args.slot), max(5, args.repeat // 5))
    report(f"prefix simulation ({turns + 1} turns)", sim_samples)
    sim = simulate_prefix(order, scenario, args.slot)
    print(f"prefix breaks at turns {', '.join(map(str, sim.break_turns))}; "
          f"{sim.shared_tokens} of {sim.total_tokens} tokens repeat the previous turn")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
