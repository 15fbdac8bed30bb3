"""Figures on very large stores, SQLite and PostgreSQL side by side.

    python benchmarks/big_store.py                   # once: benchmarks/data/big.db (10 M rows)
    python benchmarks/large.py [--db benchmarks/data/big.db] [--url postgresql://…] [--repeat 5]
    python benchmarks/large.py --db benchmarks/data/big1g.db --search-only      # the 1 GB search target
    python benchmarks/large.py --listing-only                 # opening and the turn listings alone
    python benchmarks/large.py --url postgresql://… --search-against OTHER_CHECKOUT --cache DIR

For each store: what opening the window reads (open + session rows + totals), the turn listing of
the largest session, the anatomy of the largest request, ``prefix --json`` on one session (a fresh
process), search (building the index once, cold, into a temporary cache directory, then indexed
query medians beside one scan), and the peak resident memory of a fresh process that browses
(open, list turns, expand runtimes, select requests). Medians of --repeat runs.

``--search-against CHECKOUT`` compares indexed searches of this tree and another checkout instead:
the index is built once into ``--cache DIR`` (kept there for the next run), then fresh processes
of the two checkouts take turns opening the store (``--url`` when given, else ``--db``) and
searching each needle; it prints the medians and their ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from run import median_child  # noqa: E402  (benchmarks/run.py)

NEEDLES = ["灯岭镇的雾潮", "雾婆犹豫了很久", "narrator/main", "Runtime-Done", "\\n出场", "xyzzy-not-there"]


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def largest_request(db: Path) -> str:
    with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as con:
        best = None
        sessions = [r[0] for r in con.execute(
            "WITH RECURSIVE s(x) AS (SELECT (SELECT min(session_id) FROM trace_events) UNION ALL "
            "SELECT (SELECT min(session_id) FROM trace_events WHERE session_id > s.x) FROM s WHERE x IS NOT NULL) "
            "SELECT x FROM s WHERE x IS NOT NULL")]
        for sid in sessions:
            row = con.execute("SELECT id, length(CAST(payload AS BLOB)) n FROM trace_events "
                              "WHERE session_id = ? AND type = 'llm.calling' ORDER BY n DESC LIMIT 1", (sid,)).fetchone()
            if row and (best is None or row[1] > best[1]):
                best = row
        return best[0]


BROWSE = r"""
import json, resource, sys, time
sys.path.insert(0, sys.argv[2])
from inspector import views
from inspector.store import open_store
store = open_store(sys.argv[1])
sessions = views.session_rows(store)
views.store_totals(store, sessions)
big = max(sessions, key=lambda r: r["executions"] or 0)
turns = views.turn_rows(store, big["sessionId"])
opened = 0
for turn in turns[:: max(1, len(turns) // 25)]:
    for group in views.turn_runtime_groups(store, big["sessionId"], turn["turnId"]):
        for request in group["requests"][:2]:
            views.request_detail(store, request["eventId"])
            opened += 1
for extra in sys.argv[3:]:
    views.request_detail(store, extra)
print(json.dumps({"rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "requests": opened}))
"""


SEARCH = r"""
import json, statistics, sys, time
sys.path.insert(0, sys.argv[2])
from inspector.search.index import SearchIndex
from inspector.store import open_store
with open_store(sys.argv[1]) as store:
    index = SearchIndex(store, sys.argv[3])
    if sys.argv[5:] == ["build"]:
        sys.exit(0 if index.ready() or index.build() else 1)
    out = {}
    for needle in json.loads(sys.argv[4]):
        times = []
        for _ in range(3):
            start = time.perf_counter()
            found = index.search(needle)
            times.append(time.perf_counter() - start)
        out[needle] = [statistics.median(times), len(found)]
print(json.dumps(out))
"""


def search_against(target: str, other: Path, cache: Path, repeat: int) -> None:
    """Indexed searches of this tree and ``other``, alternating fresh processes (see the module)."""
    needles = json.dumps(NEEDLES)
    subprocess.run([sys.executable, "-c", SEARCH, target, str(ROOT), str(cache), needles, "build"], check=True)
    runs: dict[str, list[dict]] = {"this": [], "other": []}
    for _ in range(repeat):
        for name, checkout in (("this", ROOT), ("other", other)):
            out = subprocess.run([sys.executable, "-c", SEARCH, target, str(checkout), str(cache), needles],
                                 check=True, stdout=subprocess.PIPE, text=True, cwd=checkout).stdout
            runs[name].append(json.loads(out.strip().splitlines()[-1]))
    print(f"indexed search on {target.split('@')[-1]}, medians of {repeat} processes × 3 searches")
    print(f"{'needle':<28}{'hits':>8}{'this':>10}{'other':>10}{'ratio':>8}")
    for needle in NEEDLES:
        mine = statistics.median(r[needle][0] for r in runs["this"]) * 1000
        theirs = statistics.median(r[needle][0] for r in runs["other"]) * 1000
        print(f"{needle!r:<28}{runs['this'][0][needle][1]:>8,}{mine:>8.0f}ms{theirs:>8.0f}ms{mine / theirs:>7.2f}×")


def browse_peak(target: str, largest: str) -> dict:
    out = subprocess.run([sys.executable, "-c", BROWSE, target, str(ROOT), largest], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def figures(target: str, event_id: str, repeat: int, *, search_only: bool = False,
            listing_only: bool = False) -> dict[str, str]:
    from inspector import tokens, views
    from inspector.search import index as search_index
    from inspector.store import open_store

    out: dict[str, str] = {}
    with open_store(target) as store:
        sessions = views.session_rows(store)
        big = max(sessions, key=lambda r: r["executions"] or 0)
        rows = store.approximate_trace_rows()
    out["trace rows (approx.) / sessions / turns of the largest"] = f"{rows:,} / {len(sessions)} / {big['executions']:,}"

    if not search_only:
        def open_window() -> None:
            with open_store(target) as store:
                views.store_totals(store, views.session_rows(store))

        out["open: store + session rows + totals"] = f"{median_ms(open_window, repeat):.0f} ms"
        with open_store(target) as store:
            start = time.perf_counter()
            views.session_event_counts(store)
            out["  then event counts (background)"] = f"{(time.perf_counter() - start) * 1000:.0f} ms"
            store.keep_turn_figures = False  # every listing reads the session, as a first one does
            turns = views.turn_rows(store, big["sessionId"])
            out[f"turn listing ({len(turns):,} turns, {sum(t['events'] for t in turns):,} rows)"] = (
                f"{median_ms(lambda: views.turn_rows(store, big['sessionId']), repeat):.0f} ms")

            def anatomy() -> None:
                tokens._cache = tokens._CountCache()
                views.request_detail(store, event_id)

            if not listing_only:
                tokens.get_encoding("o200k_base")
                out["anatomy of the largest request (cold counts)"] = f"{median_ms(anatomy, repeat):.0f} ms"
        before = os.environ.get("XDG_CACHE_HOME")
        firsts = []
        for _ in range(repeat):
            # A first listing as a user meets it: a new store, a cache folder with nothing kept.
            with tempfile.TemporaryDirectory(prefix="pi-first-") as fresh:
                os.environ["XDG_CACHE_HOME"] = fresh
                with open_store(target) as store:
                    start = time.perf_counter()
                    views.turn_rows(store, big["sessionId"])
                    firsts.append(time.perf_counter() - start)
        out["  the first listing, a new store and cache folder"] = f"{statistics.median(firsts) * 1000:.0f} ms"
        with tempfile.TemporaryDirectory(prefix="pi-kept-") as kept:
            # Listed again in a new process: the figures kept by the first listing, in a cache
            # folder of this run's own.
            os.environ["XDG_CACHE_HOME"] = kept
            with open_store(target) as store:
                views.turn_rows(store, big["sessionId"])

            def listed_again() -> None:
                with open_store(target) as again:
                    views.turn_rows(again, big["sessionId"])

            out["  the same listing again, a new store (turn figures kept)"] = f"{median_ms(listed_again, repeat):.0f} ms"
            if before is None:
                del os.environ["XDG_CACHE_HOME"]
            else:
                os.environ["XDG_CACHE_HOME"] = before
        if listing_only:
            return out
        wall, rss = median_child([sys.executable, "-m", "inspector", "prefix", target, "--session",
                                  big["sessionId"], "--json"], max(1, repeat // 2))
        out[f"prefix --json --session {big['sessionId']} (fresh process)"] = f"{wall:.2f} s, {rss:.0f} MB peak"

    with tempfile.TemporaryDirectory(prefix="pi-cache-") as cache, open_store(target) as store:
        index = search_index.SearchIndex(store, cache)
        start = time.perf_counter()
        peak_before = _rss_mb()
        index.build()
        out["search index: cold build"] = (f"{time.perf_counter() - start:.1f} s, "
                                           f"{index.path.stat().st_size / 1e6:.0f} MB on disk, "
                                           f"RSS {peak_before:.0f} → {_rss_mb():.0f} MB")
        for needle in NEEDLES:
            found = views.search_requests(store, needle, index=index)
            ms = median_ms(lambda: views.search_requests(store, needle, index=index), repeat)
            out[f"  indexed search {needle!r} ({len(found):,} hits)"] = f"{ms:.0f} ms"
        start = time.perf_counter()
        scanned = views.search_requests(store, NEEDLES[1])
        out[f"  scan, for comparison {NEEDLES[1]!r} ({len(scanned):,} hits)"] = (
            f"{(time.perf_counter() - start) * 1000:.0f} ms")
    if not search_only:
        peak = browse_peak(target, event_id)
        out[f"peak RSS browsing (open, list, expand, {peak['requests'] + 1} requests)"] = f"{peak['rss_mb']:.0f} MB"
    return out


def _rss_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, default=ROOT / "benchmarks" / "data" / "big.db")
    parser.add_argument("--url", help="the same data in PostgreSQL (big_store.py --pg-url)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--search-only", action="store_true")
    parser.add_argument("--listing-only", action="store_true",
                        help="only opening and the turn listings (first, fresh each time, and kept)")
    parser.add_argument("--search-against", type=Path, metavar="CHECKOUT",
                        help="compare indexed searches with another checkout (see above)")
    parser.add_argument("--cache", type=Path, help="with --search-against: where the index is kept")
    args = parser.parse_args()
    if args.search_against is not None:
        if args.cache is None:
            raise SystemExit("--search-against needs --cache DIR (the index is built there once)")
        search_against(args.url or str(args.db), args.search_against.resolve(), args.cache, args.repeat)
        return 0
    if not args.db.exists():
        raise SystemExit(f"{args.db} does not exist: run benchmarks/big_store.py first")
    print(f"{args.db}: {args.db.stat().st_size / 1e9:.2f} GB", flush=True)
    event_id = largest_request(args.db)
    columns = {"SQLite": figures(str(args.db), event_id, args.repeat, search_only=args.search_only,
                                 listing_only=args.listing_only)}
    if args.url:
        columns["PostgreSQL"] = figures(args.url, event_id, args.repeat, search_only=args.search_only,
                                      listing_only=args.listing_only)
    names = list(columns["SQLite"])
    width = max(len(n) for n in names)
    print(f"{'median of ' + str(args.repeat):<{width}}  " + "  ".join(f"{c:>34}" for c in columns))
    for name in names:
        print(f"{name:<{width}}  " + "  ".join(f"{columns[c].get(name, ''):>34}" for c in columns))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
