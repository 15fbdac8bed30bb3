"""The same figures on SQLite and on PostgreSQL, for the same data.

    python benchmarks/pg.py                          # a 200-turn demo, loaded into a throwaway server
    python benchmarks/pg.py --db benchmarks/data/bench.db --url postgresql://user:pw@host/db
    python benchmarks/pg.py --turns 1000 --repeat 5

The data is a demo store (``--turns``, ``--scale``) or an existing ``covel.db`` (``--db``; the
531 MB benchmark file takes a few minutes to load). It is copied into PostgreSQL with the demo's
PostgreSQL writer, into ``--url`` (a database or schema it may fill) or, without one, into a
throwaway cluster started from the PostgreSQL binaries on this machine. Each figure is the median
of ``--repeat`` runs; ``prefix --json`` runs as a fresh process with its peak memory.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "inspector" / "store"))

from run import median_call, median_child  # noqa: E402  (benchmarks/run.py)


def largest_request(db: Path) -> str:
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as con:
        return con.execute("SELECT id FROM trace_events WHERE type = 'llm.calling' "
                           "ORDER BY length(payload) DESC LIMIT 1").fetchone()[0]


def figures(target: str, event_id: str, repeat: int) -> dict[str, str]:
    from inspector import tokens, views
    from inspector.store import open_store

    with open_store(target) as store:
        biggest = max(store.sessions(), key=lambda s: s.event_count)
    out: dict[str, str] = {}

    def open_and_sessions() -> None:
        with open_store(target) as store:
            views.session_rows(store)

    def open_and_turns() -> None:
        with open_store(target) as store:
            views.turn_rows(store, biggest.id)

    out["open + list sessions"] = f"{median_call(open_and_sessions, repeat) * 1000:.0f} ms"
    out[f"open + list turns of {biggest.id}"] = f"{median_call(open_and_turns, repeat) * 1000:.0f} ms"
    with open_store(target) as store:
        tokens.get_encoding("o200k_base")

        def anatomy() -> None:
            tokens._cache = tokens._CountCache()
            views.request_detail(store, event_id)

        out["anatomy of the largest request (cold counts)"] = f"{median_call(anatomy, repeat) * 1000:.0f} ms"
        needle = "灯岭镇的雾潮"
        out[f"search {needle!r} across every request"] = (
            f"{median_call(lambda: views.search_requests(store, needle), repeat) * 1000:.0f} ms")
    wall, rss = median_child([sys.executable, "-m", "inspector", "prefix", target, "--json"], repeat)
    out["prefix --json (fresh process)"] = f"{wall:.2f} s, {rss:.0f} MB peak"
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, help="an existing covel.db to load (default: generate a demo)")
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--url", help="PostgreSQL URL to load into (default: a throwaway local server)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    from inspector.demo.generator import build_demo_file
    from inspector.demo.pg import copy_to_postgres

    work = Path(tempfile.mkdtemp(prefix="pi-bench-pg-"))
    work.chmod(0o755)  # as root the server runs as "postgres" and must reach its directory inside
    cluster = None
    try:
        media: dict[str, bytes] = {}
        if args.db is None:
            db = work / "covel.db"
            print(f"generating a {args.turns}-turn demo …", flush=True)
            media = build_demo_file(db, turns=args.turns, scale=args.scale).media
        else:
            db = args.db
        url = args.url
        if url is None:
            import pg_cluster

            cluster = pg_cluster.start(work / "pg")
            url = cluster.url
        start = time.perf_counter()
        rows = copy_to_postgres(db, url, media=media, overwrite=args.url is None)
        print(f"{db}: {db.stat().st_size / 1e6:.0f} MB, {rows:,} rows loaded into PostgreSQL in "
              f"{time.perf_counter() - start:.0f} s\n", flush=True)

        event_id = largest_request(db)
        lite = figures(str(db), event_id, args.repeat)
        pg = figures(url, event_id, args.repeat)
        width = max(len(name) for name in lite)
        print(f"{'median of ' + str(args.repeat):<{width}}  {'SQLite':>22}  {'PostgreSQL':>22}")
        for name in lite:
            print(f"{name:<{width}}  {lite[name]:>22}  {pg[name]:>22}")
    finally:
        if cluster is not None:
            cluster.stop()
        import shutil

        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
