"""How long opening a turn takes: ``build_turn`` on a synthetic and on the largest real-shaped turn.

    python benchmarks/turn.py                      # synthetic turn + largest turn of benchmarks/data/bench.db
    python benchmarks/turn.py --db PATH --repeat 30

The timeline view must draw within 200 ms, so the model of a turn with 20 runtimes and 200 events
has to be built well inside that. Each figure is the median of ``--repeat`` builds on an open
store (the view keeps the store open), plus the first build after opening the store. The
synthetic turn has 20 runtimes of 10 trace rows each (runtime.started, hook.fired,
context.pruned, two model calls with a tool call between them, runtime.completed) spread over
all stages and the event/manual lane; every ``llm.calling`` carries about 40 kB of prompt, like
the demo's. bench.db is built by ``benchmarks/run.py``. The history of one call
(``turn_history``, opened on demand) is timed too: it reads the session's whole journal.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_DB = ROOT / "benchmarks" / "data" / "bench.db"
SESSION = "bench-synthetic"
TURN = "synthetic-turn"

# (stage, runtimes, runtimes per parallel group); None = event/manual runtimes after all stages.
LAYOUT = [("pre-turn", 2, 2), ("narrative", 1, 1), ("post-turn", 12, 4), ("audit", 3, 3), (None, 2, 2)]


def _iso(ms: int) -> str:
    seconds, millis = divmod(ms, 1000)
    minutes, seconds = divmod(seconds, 60)
    return f"2026-11-02T11:{minutes:02d}:{seconds:02d}.{millis:03d}Z"


def build_synthetic(path: Path) -> int:
    """Write a store holding one turn of 20 runtimes × 10 events; returns the event count."""
    from inspector.demo.schema import render_ddl

    conn = sqlite3.connect(path)
    conn.executescript(render_ddl())
    rows: list[tuple] = []
    tool_rows: list[tuple] = []
    seq: dict[str, int] = {}
    prose = ("雾潮涨起来的时候，檐角的铜铃叮叮作响。The lantern swings over the barrow road. " * 420)

    def event(etype: str, payload: dict, at: int) -> None:
        created = _iso(at)
        n = seq.get(created, 0)
        seq[created] = n + 1
        rows.append((f"ev-{len(rows):04d}", SESSION, etype, TURN, TURN, json.dumps(payload, ensure_ascii=False),
                     created, n))

    clock = 1000
    number = 0
    for stage, count, width in LAYOUT:
        for level_start in range(0, count, width):
            level = range(level_start, min(count, level_start + width))
            start = clock
            ends = []
            for offset, _ in enumerate(level):
                number += 1
                rid = f"plugin{number:02d}/main"
                base = {"runtimeId": rid, "pluginId": f"plugin{number:02d}"}
                t = start + offset  # a level starts together, give or take a millisecond
                event("runtime.started", {**base, **({"stage": stage} if stage else {})}, t)
                event("hook.fired", {**base, "hook": "PreLLMCall"}, t + 1)
                event("context.pruned", {**base, "prunedMessageCount": 3}, t + 2)
                messages = [{"role": "system", "content": prose}, {"role": "user", "content": f"turn input {number}"}]
                for step in range(2):
                    call_at = t + 10 + step * 400
                    event("llm.calling", {**base, "slot": "plugin", "model": "deepseek-chat", "provider": "deepseek",
                                          "messages": messages, "tools": [], "attempt": 0,
                                          "startedAt": _iso(call_at - 5), "queueWaitMs": 3}, call_at)
                    calls = [{"id": f"call-{number}-{step}", "name": "lookup", "arguments": "{}"}] if step == 0 else []
                    event("llm.responded", {**base, "text": "ok", "toolCalls": calls, "attempt": 0, "durationMs": 300,
                                            "finishReason": "tool-calls" if calls else "stop",
                                            "usage": {"inputTokens": 9000, "outputTokens": 40,
                                                      "cachedInputTokens": 8192}}, call_at + 300)
                    if step == 0:
                        event("tool.calling", {**base, "toolName": "lookup", "toolCallId": calls[0]["id"],
                                               "input": {"q": number}}, call_at + 301)
                        event("tool.completed", {**base, "toolName": "lookup", "toolCallId": calls[0]["id"],
                                                 "output": {"hits": number}, "durationMs": 20}, call_at + 321)
                        tool_rows.append((f"tc-{number}", SESSION, TURN, "lookup", base["pluginId"], rid, '{"q":1}',
                                          '{"hits":1}', 20, "auto-approved", _iso(call_at + 321)))
                end = t + 10 + 400 + 320
                event("runtime.completed", {**base, "status": "success", "durationMs": end - t}, end)
                ends.append(end)
            clock = max(ends) + 5
    rows.sort(key=lambda r: (r[6], r[7]))
    conn.executemany("INSERT INTO trace_events (id, session_id, type, trace_id, turn_id, payload, created_at, seq) "
                     "VALUES (?,?,?,?,?,?,?,?)", rows)
    conn.executemany("INSERT INTO tool_calls VALUES (?,?,?,?,?,?,?,?,?,?,?)", tool_rows)
    conn.execute("INSERT INTO turn_results (id, session_id, turn_id, runtime_results, origin, commit_status, "
                 "duration_ms, created_at, seq) VALUES ('tr', ?, ?, '[]', 'player', 'committed', ?, ?, 0)",
                 (SESSION, TURN, clock - 1000, _iso(1000)))
    conn.commit()
    conn.close()
    return len(rows)


def largest_turn(db: Path) -> tuple[str, str, int, int]:
    """(session, turn, rows, payload bytes) of the turn with the most trace rows (ties: most bytes)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        top = con.execute(
            "SELECT count(*) AS n FROM trace_events GROUP BY session_id, turn_id ORDER BY n DESC LIMIT 1"
        ).fetchone()[0]
        return con.execute(
            "SELECT session_id, turn_id, count(*) AS n, sum(length(CAST(payload AS BLOB))) AS b FROM trace_events "
            "GROUP BY session_id, turn_id HAVING n = ? ORDER BY b DESC LIMIT 1", (top,)
        ).fetchone()
    finally:
        con.close()


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def measure(db: Path, session: str, turn: str, repeat: int) -> dict[str, float]:
    from inspector.store import open_store
    from inspector.turn.builder import build_turn
    from inspector.turn.history import turn_history

    start = time.perf_counter()
    with open_store(db) as store:
        build_turn(store, session, turn)
        first = (time.perf_counter() - start) * 1000
        built = build_turn(store, session, turn)
        runtimes = sum(1 for _ in built.runtimes())
        # The history pane opens on demand; time it on the call that sent the longest request.
        calls = [c for r in built.runtimes() for c in r.calls]
        longest = max(calls, key=lambda c: len(c.call.calling.payload.get("messages") or []))
        return {
            "first": first,
            "build": median_ms(lambda: build_turn(store, session, turn), repeat),
            "build+json+text": median_ms(lambda: _render(build_turn(store, session, turn)), repeat),
            "history": median_ms(lambda: turn_history(store, session, turn, longest.event_id), max(3, repeat // 3)),
            "events": len(built.events),
            "runtimes": runtimes,
        }


def _render(turn) -> None:
    from inspector.turn.outline import turn_outline

    turn.to_json()
    turn_outline(turn)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, default=DEFAULT_DB, help="the large demo-shaped store (benchmarks/run.py)")
    parser.add_argument("--repeat", type=int, default=21)
    args = parser.parse_args()

    lines: list[tuple[str, str]] = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "synthetic.db"
        build_synthetic(path)
        r = measure(path, SESSION, TURN, args.repeat)
    lines.append((f"synthetic turn: {r['runtimes']} runtimes, {r['events']} events",
                  f"median {r['build']:.1f} ms (first after open {r['first']:.1f} ms), "
                  f"with to_json + turn_outline {r['build+json+text']:.1f} ms"))
    lines.append(("  history of its longest request (turn_history)", f"median {r['history']:.1f} ms"))

    if args.db.exists():
        session, turn, rows, size = largest_turn(args.db)
        r = measure(args.db, session, turn, args.repeat)
        lines.append((f"largest turn of {args.db.name}: {turn[:8]}…, {r['runtimes']} runtimes, {rows} events, "
                      f"{size / 1e3:.0f} kB payloads",
                      f"median {r['build']:.1f} ms (first after open {r['first']:.1f} ms), "
                      f"with to_json + turn_outline {r['build+json+text']:.1f} ms"))
        lines.append(("  history of its longest request (turn_history)", f"median {r['history']:.1f} ms"))
    else:
        lines.append((f"{args.db}", "missing: build it with `python benchmarks/run.py`"))

    width = max(len(name) for name, _ in lines)
    for name, value in lines:
        print(f"{name.ljust(width)}  {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
