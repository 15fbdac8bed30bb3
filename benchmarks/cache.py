"""Speed of the prompt-cache analysis on the largest session of the benchmark database.

    python benchmarks/cache.py                    # benchmarks/data/bench.db, 3 cold + 5 warm runs
    python benchmarks/cache.py --db PATH --cold 5 --repeat 9

Prints the median wall-clock and CPU time of the full analysis of the session with the most
model requests (every pair, names, reasons, costs and layout findings), two ways:

* cold: each run in a new process, as a user's first look at the session after starting the
  app: nothing is cached (no parts, no token counts). Loading the tokenizer's rank file and
  starting the analysis's worker process happen before the clock starts (the app does both at
  start-up; the worker pairs about half of the runtimes, see inspector/cache/worker.py).
* warm: again in one process, with the parts and their token counts kept from the run before
  (what a view sees when it reopens a session).

Also prints how soon the first pair arrives, which is what a view filling progressively waits
for. CPU time counts every thread of this process, not the worker's; on a machine shared with
other work the wall time carries their load, so both medians and the fastest run are shown.
``--alone`` analyses in one process, as with PROMPT_INSPECTOR_CACHE_WORKER=0.

    python benchmarks/cache.py --versus-alone --cold 8

alternates cold runs with and without the worker process and prints the ratio of their medians.

    python benchmarks/cache.py --against ../other-checkout --cold 12

compares two versions on a machine whose speed drifts (a shared VM can run 40 % slower for
minutes at a time): cold runs alternate between this tree and the other checkout, so both see the
same conditions, and the ratio of their medians is printed (with ``--alone``, both in one process).

    python benchmarks/cache.py --spread 60 --cold 30

spreads 30 cold runs over half an hour, a minute apart, each printed with the host's speed taken
just before it and, on Linux, the CPU time the hypervisor took from this machine during the
analysis (steal time, both cores: time the analysis wanted the CPU and did not get it); then
their median, range and how many were under 2 s, and the same for the runs it took less than
0.1 s from.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_DB = ROOT / "benchmarks" / "data" / "bench.db"


def _prepare(alone: bool = False):
    """What the app has done by the time a user opens a session: tokenizers loaded and, unless
    ``alone``, the analysis's worker process started and loaded (inspector.cache.worker)."""
    from inspector.cache.rules import default_rules
    from inspector.tokens import get_encoding

    for name in ("o200k_base", "cl100k_base"):
        get_encoding(name)
    if not alone:
        from inspector.cache.worker import start_worker

        if not start_worker().wait_ready(60):
            raise SystemExit("the analysis's worker process did not start")
    return default_rules()


def host_speed() -> float:
    """Seconds a fixed pure-Python loop takes (fastest of three): how fast the host runs right
    now. A shared VM's speed drifts by half within minutes; timings taken at different speeds
    compare only through this figure."""
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        total = 0
        for i in range(3_000_000):
            total += i
        best = min(best, time.perf_counter() - started)
    return best


def _largest_session(store):
    return max(store.sessions(), key=lambda s: s.llm_call_count)


def _timed_run(store, session_id: str, rules) -> dict:
    """One full analysis: wall and CPU seconds, time to the first pair, and its size."""
    from inspector.cache.analysis import analyse_session

    first: list[float] = []
    stolen_before = _stolen_seconds()
    started, cpu_started = time.perf_counter(), time.process_time()

    def on_pair(_pair) -> None:
        if not first:
            first.append(time.perf_counter() - started)

    analysis = analyse_session(store, session_id, rules=rules, on_pair=on_pair)
    wall, cpu, stolen_after = time.perf_counter() - started, time.process_time() - cpu_started, _stolen_seconds()
    stolen = None if stolen_before is None or stolen_after is None else stolen_after - stolen_before
    return {"wall": wall, "cpu": cpu, "stolen": stolen,
            "first": first[0] if first else None, "pairs": len(analysis.pairs),
            "findings": len(analysis.findings)}


def _cold_child(db: Path, alone: bool) -> int:
    """One cold run in this (new) process; prints its figures as JSON."""
    from inspector import tokens
    from inspector.cache.parts import PARTS
    from inspector.store import open_store

    rules = _prepare(alone)
    # A new process starts with nothing cached; say so rather than trust it.
    assert not PARTS.parts and not tokens._cache._data
    with open_store(db) as store:
        result = _timed_run(store, _largest_session(store).id, rules)
    print(json.dumps(result))
    return 0


def _cold_run(db: Path, root: Path = ROOT, alone: bool = False) -> dict:
    """One cold run of the benchmark script of the checkout at ``root``, in a new process."""
    command = [sys.executable, str(root / "benchmarks" / "cache.py"), "--db", str(db), "--cold-child"]
    out = subprocess.run(command + (["--alone"] if alone else []), check=True, capture_output=True, text=True,
                         cwd=root)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _cold_runs(db: Path, count: int, alone: bool) -> list[dict]:
    return [_cold_run(db, alone=alone) for _ in range(count)]


def _versus_alone(db: Path, count: int) -> int:
    """Alternating cold runs with and without the worker process; medians and their ratio."""
    walls: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(count):
        for alone in (True, False):
            walls[alone].append(_cold_run(db, alone=alone)["wall"])
    print(f"database: {db}; {count} alternating cold runs each; host speed {host_speed():.3f} s (see host_speed)")
    for alone, found in walls.items():
        label = "alone (one process)  " if alone else "with the worker      "
        print(f"{label}: median {statistics.median(found):.2f} s, fastest {min(found):.2f} s; runs "
              + ", ".join(f"{w:.2f}" for w in found))
    ratio = statistics.median(walls[False]) / statistics.median(walls[True])
    print(f"with the worker / alone: {ratio:.2f}x the median wall time")
    return 0


def _compare(db: Path, other: Path, count: int, alone: bool = False) -> int:
    """Alternating cold runs of this tree and ``other``; medians, fastest runs and their ratio."""
    if not (other / "benchmarks" / "cache.py").is_file():
        print(f"{other} is not a checkout of this project (no benchmarks/cache.py)", file=sys.stderr)
        return 2
    runs: dict[Path, list[dict]] = {ROOT: [], other: []}
    for _ in range(count):
        for root in (other, ROOT):
            runs[root].append(_cold_run(db, root, alone=alone))
    print(f"database: {db}; {count} alternating cold runs each; host speed {host_speed():.3f} s (see host_speed)")
    medians = {}
    for root, found in runs.items():
        walls = [r["wall"] for r in found]
        medians[root] = statistics.median(walls)
        print(f"{root}: median {medians[root]:.2f} s, fastest {min(walls):.2f} s; runs "
              + ", ".join(f"{w:.2f}" for w in walls))
    print(f"this tree / {other.name}: {medians[ROOT] / medians[other]:.2f}x the median wall time")
    return 0


def _stolen_seconds() -> float | None:
    """CPU time the hypervisor has given to other machines while this one wanted it (the steal
    column of Linux's /proc/stat, all CPUs); None where the system does not say."""
    try:
        with open("/proc/stat") as stat:
            fields = stat.readline().split()
        return int(fields[8]) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError, AttributeError):
        return None


def _spread(db: Path, count: int, pause: float, alone: bool) -> int:
    """Cold runs ``pause`` seconds apart, each with the host's speed just before it: a median over
    half an hour says more about a drifting host than a set of runs taken within a minute."""
    found: list[tuple[float, dict]] = []
    print(f"database: {db}; {count} cold runs, {pause:.0f} s apart")
    for n in range(count):
        if n:
            time.sleep(pause)
        speed = host_speed()
        run = _cold_run(db, alone=alone)
        found.append((speed, run))
        steal = "" if run.get("stolen") is None else f"  stolen {run['stolen']:.2f} s"
        first = "" if run["first"] is None else f"  first pair {run['first'] * 1000:.0f} ms"
        print(f"{time.strftime('%H:%M:%S')}  host speed {speed:.3f} s  wall {run['wall']:.2f} s  "
              f"CPU {run['cpu']:.2f} s{first}{steal}", flush=True)
    walls = sorted(run["wall"] for _, run in found)
    speeds = [speed for speed, _ in found]
    print(f"median {statistics.median(walls):.2f} s, fastest {walls[0]:.2f} s, slowest {walls[-1]:.2f} s; "
          f"{sum(w < 2 for w in walls)} of {len(walls)} under 2 s; host speed {min(speeds):.3f}–{max(speeds):.3f} s "
          f"(median {statistics.median(speeds):.3f} s)")
    calm = sorted(run["wall"] for _, run in found if run.get("stolen") is not None and run["stolen"] < _CALM_STEAL_S)
    if calm:
        print(f"the {len(calm)} runs the hypervisor took less than {_CALM_STEAL_S:.1f} s from: median "
              f"{statistics.median(calm):.2f} s, slowest {calm[-1]:.2f} s; {sum(w < 2 for w in calm)} under 2 s")
    return 0


# Steal time under which a run counts as undisturbed by other machines on the host.
_CALM_STEAL_S = 0.1


def _summary(runs: list[dict], key: str) -> str:
    values = [r[key] for r in runs]
    return f"{statistics.median(values):.2f} s"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, default=DEFAULT_DB)
    parser.add_argument("--repeat", type=int, default=5, help="warm runs (default 5)")
    parser.add_argument("--cold", type=int, default=3, help="cold runs, each in a new process (default 3)")
    parser.add_argument("--against", type=Path, metavar="CHECKOUT",
                        help="alternate cold runs with another checkout of the project and compare")
    parser.add_argument("--alone", action="store_true",
                        help="analyse in one process, without the worker process (inspector.cache.worker)")
    parser.add_argument("--versus-alone", action="store_true",
                        help="alternate cold runs with and without the worker process and compare")
    parser.add_argument("--spread", type=float, metavar="SECONDS",
                        help="only cold runs (--cold of them), SECONDS apart, each with the host's speed")
    parser.add_argument("--cold-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not args.db.exists():
        print(f"{args.db} does not exist; build it with: python benchmarks/run.py", file=sys.stderr)
        return 2
    if args.cold_child:
        return _cold_child(args.db, args.alone)
    if args.versus_alone:
        return _versus_alone(args.db.resolve(), max(1, args.cold))
    if args.spread is not None:
        return _spread(args.db.resolve(), max(1, args.cold), max(0.0, args.spread), args.alone)
    if args.against is not None:
        return _compare(args.db.resolve(), args.against.resolve(), max(1, args.cold), args.alone)

    from inspector.store import open_store

    cold = _cold_runs(args.db, max(1, args.cold), args.alone)
    rules = _prepare(args.alone)
    with open_store(args.db) as store:
        session = _largest_session(store)
        print(f"database: {args.db} ({args.db.stat().st_size / 1e6:.0f} MB); session {session.id}: "
              f"{session.llm_call_count} model requests")
        _timed_run(store, session.id, rules)  # fills the caches the warm runs reuse
        warm = [_timed_run(store, session.id, rules) for _ in range(max(1, args.repeat))]

    print(f"pairs: {warm[0]['pairs']}, layout findings: {warm[0]['findings']}; "
          f"host speed {host_speed():.3f} s (a fixed loop; see host_speed)")
    for name, runs in (("cold (new process, nothing cached)", cold), ("warm (parts and token counts cached)", warm)):
        walls = ", ".join(f"{r['wall']:.2f}" for r in runs)
        print(f"{name}, median of {len(runs)}: {_summary(runs, 'wall')} wall, {_summary(runs, 'cpu')} CPU; "
              f"fastest {min(r['wall'] for r in runs):.2f} s; runs {walls}")
        print(f"    first pair after {statistics.median(r['first'] for r in runs) * 1000:.0f} ms (median)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
