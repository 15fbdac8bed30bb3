"""The cache analysis shared with a worker process gives exactly what an analysis alone gives:
the same pairs in the same order, routing loads counted across both processes, the same findings
and summaries; and it finishes alone, losing nothing, when the worker fails or is busy."""

from __future__ import annotations

import io
import threading
from pathlib import Path

import pytest

from inspector import child_process
from inspector.cache import sharing
from inspector.cache import worker as cache_worker
from inspector.cache.analysis import SessionCacheAnalyser
from inspector.cache.results import CacheAnalysis, CachePair
from inspector.cache.sharing import Share
from inspector.demo import generate_demo
from inspector.store import open_store

from test_cache_analysis import T, Db, assistant, chat, user

RUNTIMES = ("guide/main", "narrator/main", "affinity/main", "world/tracker")


@pytest.fixture(scope="module")
def worker():
    started = cache_worker.start_worker(idle_stop_s=None)  # not stopped for idling between tests
    assert started.wait_ready(120), started.failure
    yield started
    cache_worker.stop_worker()


@pytest.fixture
def fresh_worker():
    """A worker of its own for one test (the module's may have been replaced or stopped)."""
    cache_worker.stop_worker()
    started = cache_worker.start_worker(idle_stop_s=None)  # not stopped for idling between tests
    assert started.wait_ready(120), started.failure
    yield started
    cache_worker.stop_worker()


def run(path: Path, session: str, *, alone: bool, **kw) -> tuple[CacheAnalysis, SessionCacheAnalyser]:
    with open_store(path) as store:
        analyser = SessionCacheAnalyser(store, session, **kw)
        analyser.use_worker = not alone
        pairs = list(analyser.pairs())
    return CacheAnalysis(session, pairs, analyser.findings, analyser.summaries, analyser.warnings), analyser


def both(path: Path, session: str = "s", **kw) -> tuple[dict, dict, SessionCacheAnalyser]:
    shared, analyser = run(path, session, alone=False, **kw)
    alone, _ = run(path, session, alone=True, **kw)
    return shared.to_json(), alone.to_json(), analyser


def busy_session(db: Db, turns: int) -> Path:
    """Four runtimes a turn, one with a tool loop; all open with the same long system prompt, so
    they share one route (model, no cache key, the same first tokens) at 16 requests a minute
    and more; a row that is not JSON; a failed request."""
    system = T(1200)
    at = 0.0
    for turn in range(1, turns + 1):
        history = [m for j in range(1, turn) for m in (user(f"say {j}"), assistant(f"said {j}"))]
        for n, runtime in enumerate(RUNTIMES):
            body = chat(system, history, turn=turn, player=f"{runtime} {turn}")
            failed = runtime == "affinity/main" and turn == 3
            db.call("s", f"t{turn:03d}", runtime, body, at=at, cached=0 if failed else 1024, failed=failed)
            at += 0.9
            if n == 1:
                loop = chat(system, history, turn=turn, player=f"{runtime} {turn}",
                            tail=[assistant("calling a tool"), user("tool result")])
                db.call("s", f"t{turn:03d}", runtime, loop, at=at, cached=0)
                at += 0.9
        if turn == 2:
            db.row("s", f"t{turn:03d}", "llm.calling", None, at, raw="{not json")
    return db.done()


def test_a_shared_analysis_equals_one_alone(worker, tmp_path):
    path = busy_session(Db(tmp_path / "covel.db"), 12)
    shared, alone, analyser = both(path)
    assert analyser.shared_with_worker
    assert set(analyser._share.owner.values()) == {0, 1}  # both processes paired runtimes
    assert shared == alone
    details = [p["reasonDetail"] for p in alone["pairs"]]
    # Routes are counted across the runtimes of both processes.
    assert any("requests on its route" in d for d in details)
    assert max(p["routingRate"] for p in alone["pairs"]) > 15
    assert len(alone["warnings"]) == 1 and "skipped trace_events row" in alone["warnings"][0]


def test_a_shared_analysis_keeps_the_resume_state_one_alone_keeps(worker, tmp_path):
    """Each side gives its runtimes' part of the state (the worker's through the pipe), so a kept
    analysis made by two processes resumes in a later one as one made alone does."""
    path = busy_session(Db(tmp_path / "covel.db"), 12)
    demo = tmp_path / "demo.db"
    generate_demo(demo, turns=6)
    with open_store(demo) as store:
        sessions = [s.id for s in store.sessions()]
    for where, session in [(path, "s"), *((demo, sid) for sid in sessions)]:
        _, shared = run(where, session, alone=False)
        _, alone = run(where, session, alone=True)
        assert shared.shared_with_worker, session
        state = alone.resume_state()
        assert state is not None and state["runtimes"]
        assert shared.resume_state() == state, session


def test_a_shared_analysis_resumes_in_this_process_from_the_rows_written_since(worker, tmp_path):
    import sqlite3
    from contextlib import closing

    from inspector.cache.analysis import analyse_session, run_analysis
    from inspector.cache.resume import merged_pairs

    path = busy_session(Db(tmp_path / "covel.db"), 12)
    with closing(sqlite3.connect(path)) as conn:
        cur = conn.execute("SELECT * FROM trace_events ORDER BY rowid DESC LIMIT 7")
        cols, tail = [d[0] for d in cur.description], cur.fetchall()[::-1]
        conn.execute("DELETE FROM trace_events WHERE rowid IN (SELECT rowid FROM trace_events ORDER BY rowid DESC "
                     "LIMIT 7)")
        conn.commit()
    with open_store(path) as store:
        analyser = SessionCacheAnalyser(store, "s")
        first = run_analysis(analyser, analyser.pairs())
        assert analyser.shared_with_worker
        with closing(sqlite3.connect(path)) as conn:
            conn.executemany(f"INSERT INTO trace_events ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)})",
                             tail)
            conn.commit()
        whole = store.iter_llm_calling_rows
        store.iter_llm_calling_rows = None  # a resume that read the session whole would fail here
        again = run_analysis(analyser, analyser.resume())
        store.iter_llm_calling_rows = whole
        assert not analyser.restarted and 0 < len(again.pairs) < len(first.pairs)
        fresh = analyse_session(store, "s")
    assert [p.to_json() for p in merged_pairs(first.pairs, again.pairs, False)] == [p.to_json() for p in fresh.pairs]
    assert [f.to_json() for f in again.findings] == [f.to_json() for f in fresh.findings]
    assert [s.to_json() for s in again.summaries] == [s.to_json() for s in fresh.summaries]
    assert again.warnings == fresh.warnings


def test_the_worker_is_handed_the_side_events_of_its_runtimes(worker, tmp_path):
    # The history loses its oldest turn at turn 4 (each runtime's pruning says so) and again at
    # turn 6 (a compaction of the whole turn says so): the reasons rest on those side events.
    db = Db(tmp_path / "covel.db")
    at = 0.0
    for turn in range(1, 9):
        oldest = 1 if turn < 4 else 2 if turn < 6 else 3
        history = [m for j in range(oldest, turn) for m in (user(f"say {j}"), assistant(f"said {j}"))]
        for runtime in RUNTIMES:
            db.call("s", f"t{turn}", runtime, chat(T(1200), history, turn=turn, player=f"{runtime} {turn}"), at=at,
                    cached=1024)
            if turn == 4:
                db.row("s", f"t{turn}", "context.pruned", {"runtimeId": runtime, "removed": 2}, at + 0.5)
            at += 1.0
        if turn == 6:
            db.row("s", f"t{turn}", "context.compacted", {"summaryChars": 40}, at)
    shared, alone, analyser = both(db.done())
    assert shared == alone
    theirs = {runtime for runtime, side in analyser._share.owner.items() if side == 1}
    details = {(p["runtimeId"], p["turnId"]): p["reasonDetail"] for p in alone["pairs"] if p["kind"] == "turn"}
    assert theirs
    for runtime in theirs:
        assert details[(runtime, "t4")].startswith("history pruned to stay within the token budget")
        assert details[(runtime, "t6")].startswith("history compacted: summaries replaced the oldest messages")
        assert not details[(runtime, "t5")].startswith("history")


def test_every_demo_session_analyses_the_same_shared(worker, tmp_path):
    path = tmp_path / "demo.db"
    generate_demo(path, turns=8)
    with open_store(path) as store:
        sessions = [s.id for s in store.sessions()]
    assert len(sessions) >= 4
    for session in sessions:
        shared, alone, analyser = both(path, session)
        assert analyser.shared_with_worker
        assert shared == alone, session


def test_the_worker_opens_each_kind_of_store_the_app_opened(worker, backend, request):
    location = request.getfixturevalue("demo_sqlite" if backend == "sqlite" else "demo_postgres")
    with open_store(location) as store:
        sessions = [s.id for s in store.sessions()]
    for session in sessions:
        shared, alone, analyser = both(location, session)
        assert analyser.shared_with_worker
        assert shared == alone, session


def test_full_naming_mode_is_shared_too(worker, tmp_path):
    path = busy_session(Db(tmp_path / "covel.db"), 4)
    shared, alone, _ = both(path, naming_mode="full")
    assert shared == alone


def test_the_analysis_finishes_alone_when_the_worker_dies(worker, tmp_path):
    path = busy_session(Db(tmp_path / "covel.db"), 40)
    alone, _ = run(path, "s", alone=True)
    warned: list[str] = []
    with open_store(path) as store:
        analyser = SessionCacheAnalyser(store, "s", warn=warned.append)
        pairs = analyser.pairs()
        got = [next(pairs)]
        worker._process.kill()  # mid-analysis: the worker still has most of its runtimes to pair
        got += list(pairs)
    assert not analyser.shared_with_worker
    assert [p.to_json() for p in got] == [p.to_json() for p in alone.pairs]
    assert [f.to_json() for f in analyser.findings] == [f.to_json() for f in alone.findings]
    assert [s.to_json() for s in analyser.summaries] == [s.to_json() for s in alone.summaries]
    assert any("worker process failed" in w for w in analyser.warnings)
    assert sorted(set(warned)) == sorted(warned)  # nothing said twice
    # The failed worker is replaced; analyses use the new one once it has loaded.
    assert cache_worker.claim_worker() is None
    replacement = cache_worker.start_worker(idle_stop_s=None)
    assert replacement is not worker and replacement.wait_ready(120)
    shared, alone_json, analyser = both(path)
    assert analyser.shared_with_worker and shared == alone_json


def test_an_analysis_closed_early_leaves_the_worker_usable(fresh_worker, tmp_path):
    path = busy_session(Db(tmp_path / "covel.db"), 30)
    with open_store(path) as store:
        pairs = SessionCacheAnalyser(store, "s").pairs()
        next(pairs)
        pairs.close()  # a view switching session
    assert not fresh_worker.busy and fresh_worker.alive and not fresh_worker.broken
    shared, alone, analyser = both(path)
    assert analyser.shared_with_worker and shared == alone


def test_a_second_analysis_runs_alone_while_the_worker_is_busy(fresh_worker, tmp_path):
    path = busy_session(Db(tmp_path / "covel.db"), 10)
    with open_store(path) as store:
        first = SessionCacheAnalyser(store, "s")
        pairs = first.pairs()
        next(pairs)
        assert fresh_worker.busy
        second, analyser = run(path, "s", alone=False)
        assert not analyser.shared_with_worker
        rest = list(pairs)
    assert first.shared_with_worker and len(rest) + 1 == len(second.pairs)


def test_a_runtime_filter_is_analysed_alone(worker, tmp_path):
    path = busy_session(Db(tmp_path / "covel.db"), 3)
    shared, analyser = run(path, "s", alone=False, runtime_id="narrator/main")
    assert not analyser.shared_with_worker and {p.runtime_id for p in shared.pairs} == {"narrator/main"}


def test_the_worker_opens_the_file_the_app_opened(tmp_path):
    path = busy_session(Db(tmp_path / "covel.db"), 1)
    for spec in (path, f"sqlite:///{path}"):
        with open_store(spec) as store:
            assert store.open_spec == str(path.absolute())


def test_no_worker_means_one_process(tmp_path):
    cache_worker.stop_worker()
    path = busy_session(Db(tmp_path / "covel.db"), 3)
    _, analyser = run(path, "s", alone=False)
    assert not analyser.shared_with_worker


def rows_of(runtimes_and_sizes):
    return [("s", "t", b'{"providerRequests":[{"body":{}}],"runtimeId":"%s"}' % r.encode() + b" " * size, f"e{i}")
            for i, (r, size) in enumerate(runtimes_and_sizes)]


def test_runtimes_are_dealt_by_the_payload_bytes_of_the_first_rows(monkeypatch):
    # a: two small requests a turn; b, c: one big each; d: one small
    turn = [("a", 10), ("a", 10), ("b", 5000), ("c", 4000), ("d", 10)]
    rows = rows_of(turn * 20)
    monkeypatch.setattr(sharing, "decode_payload",
                        lambda raw: type("D", (), {"runtime_id": raw.split(b'"runtimeId":"')[1].split(b'"')[0].decode()}))
    share = Share(lambda i, r, hint: None)
    assert list(share.window(rows)) == rows
    # The heaviest first: b to the worker (a tie), c here; the small ones join the worker while
    # it stays further below its share (60 %) than this side below its 40 %.
    assert share.owner == {"b": 1, "c": 0, "a": 1, "d": 1}
    late = rows_of([("e", 3000)])[0]  # first seen after the window: weighed by its request
    assert share.owns("e", late) == (share.owner["e"] == 0)
    assert share.loads[share.owner["e"]] >= len(late[2])


def test_the_worker_can_be_turned_off_and_is_off_on_one_core(monkeypatch):
    monkeypatch.setattr(cache_worker.os, "cpu_count", lambda: 8)
    for off in ("0", "off", "False"):
        monkeypatch.setenv(cache_worker.ENABLE_VARIABLE, off)
        assert not cache_worker.worker_enabled()
    monkeypatch.setenv(cache_worker.ENABLE_VARIABLE, "1")
    assert cache_worker.worker_enabled()
    monkeypatch.setattr(cache_worker.os, "cpu_count", lambda: 1)
    assert not cache_worker.worker_enabled()


def test_messages_cross_the_pipe_unchanged():
    stream = io.BytesIO()
    sent = [("ids", [(7, "ev-1", None), (9, "ev-2", (10, 1, 5, "openai-chat-v1", "openai", "gpt-4o", "r", 0, None))]), ("items", [("m", 3, [(1, 2.5, ("gpt-4o", None, b"\x00"))])]),
            ("rows-end",)]
    for message in sent:
        child_process.write_frame(stream, message)
    stream.seek(0)
    assert [child_process.read_frame(stream) for _ in sent] == sent
    with pytest.raises(EOFError):
        child_process.read_frame(stream)


def test_pairs_cross_the_pipe_with_every_field(tmp_path):
    path = busy_session(Db(tmp_path / "covel.db"), 3)
    analysis, _ = run(path, "s", alone=True)
    pairs = analysis.pairs
    assert any(p.routing_rate is not None for p in pairs) and any(p.previous_event_id is None for p in pairs)
    stream = io.BytesIO()
    child_process.write_frame(stream, ("items", [("p", (i, 0, 0), pair, None, i) for i, pair in enumerate(pairs)]))
    stream.seek(0)
    back = [item[2] for item in child_process.read_frame(stream)[1]]
    assert back == pairs
    assert [p.to_json() for p in back] == [p.to_json() for p in pairs]
    assert all(type(p) is CachePair for p in back)


def test_a_worker_that_cannot_be_reached_is_not_claimed(fresh_worker):
    fresh_worker.terminate()
    assert not fresh_worker.wait_ready(60)
    assert cache_worker.worker_state() == "failed"
    assert cache_worker.claim_worker() is None  # and a replacement starts loading
    cache_worker.stop_worker()
    assert cache_worker.worker_state() == "none"


def test_stopping_while_loading_does_not_hang():
    cache_worker.stop_worker()
    started = cache_worker.start_worker()
    done = threading.Event()
    threading.Thread(target=lambda: (cache_worker.stop_worker(), done.set()), daemon=True).start()
    assert done.wait(30)
    assert not started.alive


def test_the_cache_command_shares_a_big_session_and_prints_the_same(tmp_path, capsys, monkeypatch):
    from inspector.cli import main

    cache_worker.stop_worker()
    path = busy_session(Db(tmp_path / "covel.db"), 200)  # 1,000 requests: the command starts a worker
    try:
        assert main(["cache", str(path), "--json"]) == 0
        shared = capsys.readouterr()
        assert cache_worker.worker_state() == "ready"
    finally:
        cache_worker.stop_worker()
    monkeypatch.setenv(cache_worker.ENABLE_VARIABLE, "0")
    assert main(["cache", str(path), "--json"]) == 0
    alone = capsys.readouterr()
    assert cache_worker.worker_state() == "none"
    assert shared.out == alone.out and shared.err == alone.err


def test_the_cache_command_says_when_the_worker_cannot_help(tmp_path, capsys, monkeypatch):
    from inspector.cli import main

    def failed(self, timeout):
        self.broken, self.failure = True, "no tokenizer"
        return False

    cache_worker.stop_worker()
    monkeypatch.setattr(cache_worker.AnalysisWorker, "wait_ready", failed)
    path = busy_session(Db(tmp_path / "covel.db"), 200)
    try:
        assert main(["cache", str(path), "--json"]) == 0
    finally:
        cache_worker.stop_worker()
    err = capsys.readouterr().err
    assert "the analysis runs in one process: its worker process failed: no tokenizer" in err
