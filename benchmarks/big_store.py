"""Build a very large Covel store (default: 10 million trace rows, about 7.5 GB) in minutes.

    python benchmarks/big_store.py                                  # benchmarks/data/big.db, 10 M rows, 7.7 GB
    python benchmarks/big_store.py --out benchmarks/data/big1g.db --rows 2000000 --bytes 1e9
    python benchmarks/big_store.py --pg-url postgresql://…          # also copy it into PostgreSQL

The rows are the demo's own (``inspector.demo``): turns of a template demo store (the benchmark
``bench.db`` when it exists, else a small demo generated once) are replayed into many sessions with
fresh ids and times, the template's session, turn and trace ids rewritten inside the payloads. Real
Covel turns with many runtimes write hundreds of small events (hooks, blocks, state patches, plugin
fetches) around a few model calls; those are added per runtime so that the average row size meets
``--bytes``/``--rows`` while ``llm.calling`` payloads stay what the demo writes (2 KB–95 KB), plus a
few very large ones (a long tool result in the history, up to ~400 KB). Covel's five session-led
indexes cost about 480 bytes per row on their own, so ten million rows make a file of 7–8 GB
(``--rows 5000000`` gives one of about 5 GB).

Speed: one connection with the journal and syncing off, ``executemany`` over prepared tuples in
one long transaction, ids that increase (UUID-shaped, time-ordered like UUIDv7, so the primary-key
index is appended to rather than split at random), and Covel's secondary indexes created after the
load, exactly as its boot DDL declares them.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sqlite3
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DATA = ROOT / "benchmarks" / "data"
DEFAULT_OUT = DATA / "big.db"
DEFAULT_TEMPLATE = DATA / "bench.db"
FALLBACK_TEMPLATE = DATA / "big_template.db"

# Small events a many-runtime turn writes around its model calls (covel-db.md §2.1), with payloads
# of the usual shapes. Braces are doubled for str.format.
_FILLER = [
    ("hook.fired", '{{"hook":"{hook}","runtimeId":"{rid}","pluginId":"{pid}","seq":{seq},"flowId":"{flow}"}}'),
    ("block.emitted", '{{"block":{{"type":"status","id":"blk-{n:x}","data":{{"label":"{label}","value":{v}}}}},'
                      '"runtimeId":"{rid}","pluginId":"{pid}","seq":{seq},"flowId":"{flow}"}}'),
    ("state.patch.applied", '{{"patch":[{{"op":"replace","path":"/dimensions/{label}","value":"{word}"}}],'
                            '"runtimeId":"{rid}","pluginId":"{pid}","seq":{seq},"flowId":"{flow}"}}'),
    ("ui.rendered", '{{"component":"{label}","runtimeId":"{rid}","pluginId":"{pid}","seq":{seq},"flowId":"{flow}"}}'),
    ("function.executing", '{{"functionId":"{label}","runtimeId":"{rid}","pluginId":"{pid}","seq":{seq},'
                           '"flowId":"{flow}"}}'),
    ("function.completed", '{{"functionId":"{label}","durationMs":{v},"runtimeId":"{rid}","pluginId":"{pid}",'
                           '"seq":{seq},"flowId":"{flow}"}}'),
    ("utils.fetch.calling", '{{"host":"api.example.org","method":"GET","runtimeId":"{rid}","pluginId":"{pid}",'
                            '"seq":{seq},"flowId":"{flow}"}}'),
    ("utils.fetch.responded", '{{"host":"api.example.org","method":"GET","status":200,"durationMs":{v},'
                              '"runtimeId":"{rid}","pluginId":"{pid}","seq":{seq},"flowId":"{flow}"}}'),
    ("asset.progress", '{{"assetId":"asset-{n:x}","progress":{p},"runtimeId":"{rid}","pluginId":"{pid}",'
                       '"seq":{seq},"flowId":"{flow}"}}'),
]
_HOOKS = ["beforeLlm", "afterLlm", "beforeTool", "afterTool", "onCommit"]
_LABELS = ["time-of-day", "weather", "mood", "location", "tension", "quest", "inventory", "fog"]
_WORDS = ["戌时", "薄雾", "小雨", "晴", "警惕", "茶馆", "石桥", "灯塔", "calm", "wary"]
FILLER_AVG_BYTES = 175  # measured mean of the payloads above


@dataclass
class TemplateTurn:
    session_id: str
    turn_id: str
    trace_id: str
    rows: list[tuple[str, bytes | None]]  # (type, payload) in canonical order
    result: tuple | None
    messages: list[tuple]
    payload_bytes: int


class Ids:
    """UUID-shaped ids that increase, as UUIDv7's time prefix makes them."""

    def __init__(self, rng: random.Random) -> None:
        self.n = 0
        self.rng = rng

    def __call__(self) -> str:
        self.n += 1
        n = self.n
        r = self.rng.getrandbits(64)
        return f"{n >> 16:08x}-{n & 0xFFFF:04x}-7{r & 0xFFF:03x}-{(r >> 12) & 0x3FFF | 0x8000:04x}-{r >> 16 & 0xFFFFFFFFFFFF:012x}"


def _iso(ms: int) -> str:
    seconds, milli = divmod(ms, 1000)
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + f".{milli:03d}Z"


def ensure_template(path: Path | None) -> Path:
    if path is not None:
        return path
    if DEFAULT_TEMPLATE.exists():
        return DEFAULT_TEMPLATE
    if not FALLBACK_TEMPLATE.exists():
        from inspector.demo import generate_demo

        print(f"generating the template {FALLBACK_TEMPLATE} (200-turn demo) …", flush=True)
        DATA.mkdir(parents=True, exist_ok=True)
        generate_demo(FALLBACK_TEMPLATE, turns=200)
    return FALLBACK_TEMPLATE


def _big_variants(payloads: list[bytes], rng: random.Random, count: int) -> list[bytes]:
    """A few requests with a very long tool result in their history (hundreds of KB)."""
    out = []
    for raw in rng.sample(payloads, min(count, len(payloads))):
        doc = orjson.loads(raw)
        messages = doc.get("messages")
        if not isinstance(messages, list) or not messages:
            continue
        filler = "".join(rng.choice(_WORDS) + "，" for _ in range(rng.randint(60_000, 130_000)))
        messages.insert(max(0, len(messages) - 1), {"role": "user", "content": "[tool result]\n" + filler})
        out.append(orjson.dumps(doc))
    return out


def load_templates(path: Path) -> tuple[list[TemplateTurn], dict[str, tuple], list[tuple], list[str]]:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    con.text_factory = bytes
    sessions = {}
    session_cols = [r[1].decode() for r in con.execute("PRAGMA table_info(sessions)")]
    for row in con.execute("SELECT * FROM sessions"):
        sessions[row[0].decode()] = row
    worlds = con.execute("SELECT * FROM worlds").fetchall()
    turns: dict[tuple[str, str], TemplateTurn] = {}
    order: list[tuple[str, str]] = []
    for sid, tid, trace, etype, payload in con.execute(
            "SELECT session_id, turn_id, trace_id, type, payload FROM trace_events "
            "ORDER BY session_id, created_at, seq, id"):
        key = (sid.decode(), tid.decode())
        turn = turns.get(key)
        if turn is None:
            turn = turns[key] = TemplateTurn(key[0], key[1], trace.decode(), [], None, [], 0)
            order.append(key)
        turn.rows.append((etype.decode(), payload))
        turn.payload_bytes += len(payload or b"")
    result_cols = [r[1].decode() for r in con.execute("PRAGMA table_info(turn_results)")]
    for row in con.execute("SELECT * FROM turn_results ORDER BY created_at, seq, id"):
        turn = turns.get((row[1].decode(), row[2].decode()))
        if turn is not None:
            turn.result = row
    for row in con.execute("SELECT * FROM turn_messages ORDER BY created_at, \"order\", id"):
        turn = turns.get((row[1].decode(), row[2].decode()))
        if turn is not None:
            turn.messages.append(row)
    con.close()
    assert result_cols[:3] == ["id", "session_id", "turn_id"], result_cols
    return [turns[k] for k in order], sessions, worlds, session_cols


def _ddl() -> tuple[list[str], list[str]]:
    from inspector.demo.schema import render_ddl

    tables, indexes = [], []
    for statement in render_ddl().split(";"):
        statement = statement.strip()
        if not statement:
            continue
        (indexes if statement.startswith("CREATE INDEX") or statement.startswith("CREATE UNIQUE INDEX")
         else tables).append(statement)
    return tables, indexes


def build(out: Path, *, rows: int, total_bytes: float, template: Path, seed: int, big_session_turns: int,
          force: bool, early_turns: int = 150) -> None:
    if out.exists():
        if not force:
            print(f"{out} exists (use --force to rebuild)")
            return
        out.unlink()
    free = shutil.disk_usage(out.parent if out.parent.exists() else DATA).free
    need = total_bytes * 1.35
    if free < need:
        raise SystemExit(f"not enough free disk: {free / 1e9:.1f} GB free, about {need / 1e9:.1f} GB needed")
    rng = random.Random(seed)
    ids = Ids(rng)
    started = time.perf_counter()
    turns, template_sessions, worlds, session_cols = load_templates(template)
    calls = [p for t in turns for (ty, p) in t.rows if ty == "llm.calling" and p]
    giants = _big_variants(calls, rng, 24)
    print(f"template {template.name}: {len(turns)} turns, {len(calls)} requests, {len(giants)} very large "
          f"variants ({time.perf_counter() - started:.1f} s)", flush=True)
    by_session: dict[str, list[TemplateTurn]] = {}
    for t in turns:
        by_session.setdefault(t.session_id, []).append(t)
    # Early turns only: their requests (a short history) are the sizes most sessions have.
    by_session = {sid: ts[:early_turns] for sid, ts in by_session.items()}
    template_ids = sorted(by_session)

    out.parent.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(out, isolation_level=None)
    for pragma in ("journal_mode=OFF", "synchronous=OFF", "locking_mode=EXCLUSIVE", "cache_size=-1000000",
                   "temp_store=MEMORY"):
        con.execute(f"PRAGMA {pragma}")
    tables, indexes = _ddl()
    for statement in tables:
        con.execute(statement)
    # Covel's boot would have switched a live file to WAL; the finished file is set to WAL below.
    con.execute("BEGIN")
    con.executemany(f"INSERT INTO worlds VALUES ({','.join('?' * len(worlds[0]))})", worlds)

    avg_row = total_bytes / rows
    insert_event = "INSERT INTO trace_events (id, session_id, type, trace_id, turn_id, payload, created_at, seq) " \
                   "VALUES (?,?,?,?,?,?,?,?)"
    result_width = len(turns[0].result) if turns[0].result is not None else 0
    insert_result = f"INSERT INTO turn_results VALUES ({','.join('?' * result_width)})"
    message_width = len(turns[0].messages[0]) if turns[0].messages else 0
    insert_message = f"INSERT INTO turn_messages VALUES ({','.join('?' * message_width)})"
    insert_session = f"INSERT INTO sessions ({','.join(session_cols)}) VALUES ({','.join('?' * len(session_cols))})"

    written = 0
    written_bytes = 0
    session_no = 0
    clock = 1_767_225_600_000  # 2026-01-01
    batch: list[tuple] = []
    results: list[tuple] = []
    messages: list[tuple] = []
    total_turns = 0
    requests = 0
    last_report = time.perf_counter()
    fill_at = 0
    while written < rows:
        tmpl_sid = template_ids[session_no % len(template_ids)]
        source = by_session[tmpl_sid]
        n_turns = big_session_turns if session_no == 0 else rng.randint(5, 120)
        # Client-chosen session ids are allowed (covel-db.md §1.1); short ones keep the five
        # session-led indexes, which dominate a 10-million-row file, nearer real proportions.
        sid = f"bench-{session_no:05d}"
        sid_old, sid_new = tmpl_sid.encode(), sid.encode()
        session_no += 1
        start_ms = clock
        first_turn = rng.randrange(len(source))
        completed = 0
        for k in range(n_turns):
            if written >= rows:
                break
            t = source[(first_turn + k) % len(source)]
            turn_id = ids()
            trace_id = turn_id if t.trace_id == t.turn_id else ids()
            old_turn, new_turn = t.turn_id.encode(), turn_id.encode()
            old_trace, new_trace = t.trace_id.encode(), trace_id.encode()
            # Enough small events that the store's mean row size meets the target.
            turn_rows = len(t.rows)
            extra = max(8, int((t.payload_bytes - avg_row * turn_rows) / max(1.0, avg_row - FILLER_AVG_BYTES)))
            starts = [i for i, (ty, _p) in enumerate(t.rows) if ty == "runtime.started"] or [0]
            per = [0] * len(t.rows)
            share, rest = divmod(extra, len(starts))
            for j, i in enumerate(starts):
                per[i] = share + (1 if j < rest else 0)
            last_ms, seq = -1, 0
            runtime, plugin = "narrator/main", "narrator"
            emitter_seq = 0
            for i, (etype, payload) in enumerate(t.rows):
                if payload is not None:
                    if etype == "llm.calling" and giants and rng.random() < 0.004:
                        payload = giants[rng.randrange(len(giants))]
                    payload = payload.replace(old_turn, new_turn).replace(sid_old, sid_new)
                    if old_trace != old_turn:
                        payload = payload.replace(old_trace, new_trace)
                    if etype == "runtime.started":
                        doc = orjson.loads(payload)
                        runtime = doc.get("runtimeId", runtime)
                        plugin = doc.get("pluginId", plugin)
                clock += rng.choice((0, 1, 2, 3, 5, 9, 40))
                seq = seq + 1 if clock == last_ms else 0
                last_ms = clock
                batch.append((ids(), sid, etype, trace_id, turn_id, payload, _iso(clock), seq))
                written_bytes += len(payload or b"")
                if etype == "llm.calling":
                    requests += 1
                for _ in range(per[i]):
                    kind, shape = _FILLER[fill_at % len(_FILLER)]
                    fill_at += 1 + (fill_at & 3 == 0)
                    emitter_seq += 1
                    text = shape.format(hook=_HOOKS[fill_at % 5], rid=runtime, pid=plugin, seq=emitter_seq,
                                        flow=trace_id, n=fill_at, label=_LABELS[fill_at % 8],
                                        word=_WORDS[fill_at % 10], v=fill_at % 997, p=(fill_at % 100) / 100)
                    clock += rng.choice((0, 1, 1, 2, 4))
                    seq = seq + 1 if clock == last_ms else 0
                    last_ms = clock
                    data = text.encode()
                    batch.append((ids(), sid, kind, trace_id, turn_id, data, _iso(clock), seq))
                    written_bytes += len(data)
            written += turn_rows + extra
            total_turns += 1
            completed += 1
            if t.result is not None:
                r = list(t.result)
                r[0], r[1], r[2] = ids(), sid, turn_id
                cols = result_width
                # runtime_results text keeps the template's; created_at/seq are the last two columns.
                r[cols - 2], r[cols - 1] = _iso(clock), 0
                results.append(tuple(v.decode() if isinstance(v, bytes) else v for v in r))
            for m in t.messages:
                row = list(m)
                row[0], row[1], row[2] = ids(), sid, turn_id
                row[12] = _iso(clock)
                messages.append(tuple(v.decode() if isinstance(v, bytes) else v for v in row))
            if len(batch) >= 20_000:
                con.executemany(insert_event, batch)
                batch.clear()
                if results:
                    con.executemany(insert_result, results)
                    results.clear()
                if messages:
                    con.executemany(insert_message, messages)
                    messages.clear()
                now = time.perf_counter()
                if now - last_report > 10:
                    last_report = now
                    print(f"  {written:,} rows, {written_bytes / 1e9:.2f} GB payload, {total_turns:,} turns, "
                          f"{session_no} sessions ({now - started:.0f} s)", flush=True)
            clock += rng.randint(20_000, 200_000)
        meta = list(template_sessions[tmpl_sid])
        meta[0] = sid_new
        srow = dict(zip(session_cols, meta))
        srow["created_at"] = _iso(start_ms).encode()
        srow["updated_at"] = _iso(clock).encode()
        if "completed_player_turns" in srow:
            srow["completed_player_turns"] = completed
        con.execute(insert_session, tuple(v.decode() if isinstance(v, bytes) else v for v in srow.values()))
    if batch:
        con.executemany(insert_event, batch)
    if results:
        con.executemany(insert_result, results)
    if messages:
        con.executemany(insert_message, messages)
    con.execute("COMMIT")
    loaded = time.perf_counter()
    print(f"loaded {written:,} trace rows ({requests:,} requests), {total_turns:,} turns, {session_no} sessions "
          f"in {loaded - started:.0f} s; creating indexes …", flush=True)
    for statement in indexes:
        con.execute(statement)
    # No ANALYZE: Covel never runs it, so a real file has no sqlite_stat1 to guide the planner.
    con.execute("PRAGMA journal_mode=WAL")
    con.close()
    print(f"{out}: {out.stat().st_size / 1e9:.2f} GB in {time.perf_counter() - started:.0f} s "
          f"(indexes {time.perf_counter() - loaded:.0f} s)", flush=True)


def load_postgres(source: Path, url: str) -> None:
    """Copy the store into PostgreSQL with COPY (the demo's PostgreSQL writer: jsonb payloads,
    Covel's indexes created after the rows)."""
    from inspector.demo.pg import copy_to_postgres

    started = time.perf_counter()

    def progress(table: str, total: int) -> None:
        print(f"  {table}: {total:,} rows so far ({time.perf_counter() - started:.0f} s)", flush=True)

    rows = copy_to_postgres(source, url, overwrite=True, progress=progress)
    print(f"loaded {rows:,} rows into PostgreSQL in {time.perf_counter() - started:.0f} s", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--rows", type=int, default=10_000_000, help="trace rows to write")
    parser.add_argument("--bytes", type=float, default=2.7e9,
                        help="target payload bytes; Covel's five indexes add about 480 bytes per row on top")
    parser.add_argument("--template", type=Path, help="covel.db whose turns are replayed (default: bench.db)")
    parser.add_argument("--big-session-turns", type=int, default=1000,
                        help="turns of the first session (the big one the turn listing is measured on)")
    parser.add_argument("--seed", type=int, default=20261130)
    parser.add_argument("--force", action="store_true", help="replace --out")
    parser.add_argument("--pg-url", help="also copy the store into this PostgreSQL database/schema")
    args = parser.parse_args()
    build(args.out, rows=args.rows, total_bytes=args.bytes, template=ensure_template(args.template),
          seed=args.seed, big_session_turns=args.big_session_turns, force=args.force)
    if args.pg_url:
        load_postgres(args.out, args.pg_url)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    raise SystemExit(main())
