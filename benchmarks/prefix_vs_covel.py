"""``prefix --json`` beside Covel's own ``scripts/prompt-prefix-report.mjs``, side by side.

    python benchmarks/prefix_vs_covel.py --covel-script /path/to/prompt-prefix-report.mjs
    python benchmarks/prefix_vs_covel.py --covel-script ... --db benchmarks/data/bench.db --runs 5

Without ``--db`` it makes (once, cached) ``benchmarks/data/prefix-58mb.db``, a ~58 MB store from
the demo generator. Then it runs ours (``python -m inspector prefix DB --json``, a fresh process,
as a user runs it) and Covel's script with Node, alternating, ``--runs`` times each, and prints the
median wall time and peak memory (each child's maximum resident set size) of both, their ratios,
and whether every run's output was the same to the byte. Exit status 1 when it was not.

Covel's script is not part of this project: pass its path (or set COVEL_PREFIX_SCRIPT). On Node
older than 22.5, which has no ``node:sqlite``, it runs through the test suite's stand-in
(tests/inspector/prefix/node_sqlite_shim.mjs) over better-sqlite3, found in ``--node-modules``
(default: the script's folder; ``npm install --prefix DIR better-sqlite3@12``).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DATA = ROOT / "benchmarks" / "data"
DEFAULT_DB = DATA / "prefix-58mb.db"
# The demo's size grows by about 0.42 MB a turn at scale 1; 138 turns make about 58 MB.
DEFAULT_TURNS = 138
SHIM = ROOT / "tests" / "inspector" / "prefix" / "node_sqlite_shim.mjs"


@dataclass
class Run:
    wall: float  # seconds
    rss: float  # MB, the child's peak resident set
    digest: str  # of its standard output


def ensure_store(path: Path, turns: int, scale: float = 1.0) -> None:
    """Write the demo store at ``path`` unless it is there; prints how long that took.

    The generator runs in a process of its own: a child's peak RSS on Linux starts from its
    parent's at the fork, so this process stays small for the measurements after it."""
    if path.exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    print(f"generating {path} ({turns} turns, scale {scale}) …", flush=True)
    started = time.perf_counter()
    partial = path.with_name(path.name + ".partial")
    code = ("import sys; from inspector.demo import generate_demo; "
            "s = generate_demo(sys.argv[1], turns=int(sys.argv[2]), scale=float(sys.argv[3]), overwrite=True); "
            "print(f'{s.bytes / 1e6:.0f} MB, {s.llm_calls} requests')")
    made = subprocess.run([sys.executable, "-c", code, str(partial), str(turns), str(scale)], cwd=ROOT,
                          check=True, capture_output=True, text=True)
    partial.replace(path)
    print(f"  {made.stdout.strip()}, generated in {time.perf_counter() - started:.0f} s", flush=True)


def run_child(cmd: list[str], env: dict[str, str] | None = None) -> Run:
    """Wall time, peak RSS and output digest of one child process."""
    with tempfile.TemporaryFile() as out:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.PIPE, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        stderr = proc.stderr.read().decode("utf-8", "replace") if proc.stderr else ""
        if proc.stderr:
            proc.stderr.close()
        if os.waitstatus_to_exitcode(status) != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed: {stderr.strip()[-400:]}")
        out.seek(0)
        digest = hashlib.sha256(out.read()).hexdigest()
    return Run(wall, usage.ru_maxrss / 1024, digest)


def ours_command(db: Path) -> list[str]:
    return [sys.executable, "-m", "inspector", "prefix", str(db), "--json"]


def covel_command(script: Path, db: Path, node_modules: Path | None) -> tuple[list[str], dict[str, str]]:
    """Node running Covel's script on ``db`` (through the node:sqlite stand-in where needed)."""
    env = dict(os.environ)
    version = subprocess.run(["node", "--version"], capture_output=True, text=True, check=True).stdout
    major, minor = (int(x) for x in version.strip().lstrip("v").split(".")[:2])
    cmd = ["node"]
    if (major, minor) < (22, 5):
        env["COVEL_SHIM_MODULES"] = str(node_modules or script.parent)
        cmd += ["--import", str(SHIM)]
    return cmd + [str(script), str(db), "--json"], env


def alternate(db: Path, script: Path, node_modules: Path | None, runs: int) -> tuple[list[Run], list[Run]]:
    """``runs`` runs of each program, alternating, so both see the same load."""
    ours, theirs = [], []
    covel, env = covel_command(script, db, node_modules)
    for i in range(runs):
        # Start with the other program every second round: neither always runs after the other.
        order = ("ours", "covel") if i % 2 == 0 else ("covel", "ours")
        for name in order:
            if name == "ours":
                ours.append(run_child(ours_command(db)))
            else:
                theirs.append(run_child(covel, env))
    return ours, theirs


def median(runs: list[Run], key: str) -> float:
    return statistics.median(getattr(r, key) for r in runs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, help=f"the store to report on (default: {DEFAULT_DB}, made once)")
    parser.add_argument("--runs", type=int, default=5, help="runs of each program (default 5)")
    parser.add_argument("--covel-script", type=Path, default=os.environ.get("COVEL_PREFIX_SCRIPT"),
                        help="Covel's scripts/prompt-prefix-report.mjs (or COVEL_PREFIX_SCRIPT)")
    parser.add_argument("--node-modules", type=Path, help="where better-sqlite3 is installed (Node < 22.5)")
    args = parser.parse_args()
    if args.covel_script is None:
        parser.error("pass --covel-script (Covel's prompt-prefix-report.mjs) or set COVEL_PREFIX_SCRIPT")
    db = args.db or DEFAULT_DB
    if args.db is None:
        ensure_store(db, DEFAULT_TURNS)
    if not db.exists():
        parser.error(f"{db} does not exist")

    print(f"store: {db} ({db.stat().st_size / 1e6:.0f} MB); {args.runs} runs each, alternating", flush=True)
    ours, theirs = alternate(db, args.covel_script, args.node_modules, max(1, args.runs))
    rows = [("prefix --json (ours)", ours), ("Covel's script (Node)", theirs)]
    width = max(len(name) for name, _ in rows)
    for name, runs in rows:
        walls = " ".join(f"{r.wall:.2f}" for r in runs)
        print(f"{name.ljust(width)}  median {median(runs, 'wall'):.2f} s, {median(runs, 'rss'):.0f} MB peak"
              f"   (runs: {walls} s)")
    time_ratio = median(ours, "wall") / median(theirs, "wall")
    memory_ratio = median(ours, "rss") / median(theirs, "rss")
    print(f"{'ratio ours / Covel'.ljust(width)}  time {time_ratio:.2f}×, memory {memory_ratio:.2f}×")
    digests = {r.digest for r in ours + theirs}
    same = len(digests) == 1
    print("output: identical to the byte in every run" if same else
          f"output: DIFFERS ({len(digests)} different outputs over {len(ours) + len(theirs)} runs)")
    return 0 if same else 1


if __name__ == "__main__":
    raise SystemExit(main())
