"""The demo covel.db: deterministic, Covel-shaped, and carrying every situation the browser shows."""

from __future__ import annotations

import json
import re
import sqlite3
import time
from contextlib import closing
from pathlib import Path

import pytest

from inspector.covel.markers import (
    CACHE_SENTINEL,
    CACHE_SENTINEL_NAME,
    COMPACTED_HISTORY_OPEN,
    IMAGE_OMITTED_PATTERN,
    SYSTEM_INSTRUCTION_OPEN,
)
from inspector.demo import DEMO_APPLICATION_ID, DemoSummary, generate_demo, is_demo_file
from inspector.demo.schema import TABLES
from inspector.jsjson import js_stringify
from inspector.wire.protocols import ALL_PROTOCOLS


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, DemoSummary]:
    path = tmp_path_factory.mktemp("demo") / "covel.db"
    return path, generate_demo(path)


def _rows(path: Path, sql: str, *args) -> list[tuple]:
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        return conn.execute(sql, args).fetchall()


def _payloads(path: Path, type_: str, session: str | None = None) -> list[tuple[str, dict]]:
    sql = "SELECT turn_id, payload FROM trace_events WHERE type = ?"
    args: list = [type_]
    if session:
        sql += " AND session_id = ?"
        args.append(session)
    sql += " ORDER BY session_id, created_at, seq, id"
    return [(turn, json.loads(payload)) for turn, payload in _rows(path, sql, *args)]


def test_summary(demo):
    path, summary = demo
    assert summary.path == path
    assert summary.sessions == 4
    assert summary.turns == 12 + 6 + 5 + 4
    # The main session's opening execution is no player turn (inspector.store.turn_counts).
    assert summary.executions == 13 + 6 + 5 + 4
    assert summary.bytes == path.stat().st_size
    assert summary.llm_calls == _rows(path, "SELECT count(*) FROM trace_events WHERE type = 'llm.calling'")[0][0]
    assert is_demo_file(path)


def test_deterministic_bytes(demo, tmp_path):
    path, _ = demo
    again = tmp_path / "again.db"
    generate_demo(again)
    assert again.read_bytes() == path.read_bytes()
    other = tmp_path / "other.db"
    generate_demo(other, seed=7)
    assert other.read_bytes() != path.read_bytes()


def test_single_file_and_header(demo):
    path, _ = demo
    assert not Path(str(path) + "-wal").exists()
    assert not Path(str(path) + "-journal").exists()
    assert _rows(path, "PRAGMA journal_mode")[0][0] == "delete"
    assert _rows(path, "PRAGMA application_id")[0][0] == DEMO_APPLICATION_ID


def test_refuses_to_clobber_a_real_file(tmp_path):
    real = tmp_path / "covel.db"
    with closing(sqlite3.connect(real)) as conn:
        conn.execute("CREATE TABLE sessions (id TEXT PRIMARY KEY)")
        conn.commit()
    before = real.read_bytes()
    with pytest.raises(FileExistsError):
        generate_demo(real, turns=2, sessions=1)
    assert real.read_bytes() == before
    generate_demo(real, turns=2, sessions=1, overwrite=True)
    assert is_demo_file(real)
    # A demo file may be regenerated in place without the flag.
    summary = generate_demo(real, turns=3, sessions=1)
    assert summary.turns == 3
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_schema_matches_spec(demo):
    path, _ = demo
    for table, columns, indexes in TABLES:
        info = _rows(path, f"PRAGMA table_info({table})")
        assert [row[1] for row in info] == [c[0] for c in columns], table
        assert [row[2] for row in info] == [c[1].upper() for c in columns], table
        names = {row[1] for row in _rows(path, f"PRAGMA index_list({table})")}
        assert {name for name, _, _ in indexes} <= names, table
    te = {row[1]: row for row in _rows(path, "PRAGMA table_info(trace_events)")}
    assert te["seq"][3] == 1  # NOT NULL
    idx = [row[2] for row in _rows(path, "PRAGMA index_info(trace_events_created_idx)")]
    assert idx == ["session_id", "created_at", "seq"]
    sql = _rows(path, "SELECT sql FROM sqlite_master WHERE name = 'turn_messages'")[0][0]
    assert '"order" INTEGER NOT NULL' in sql


def test_seq_is_write_order_per_session_and_millisecond(demo):
    path, _ = demo
    for table in ("trace_events", "messages", "turn_results"):
        rows = _rows(path, f"SELECT session_id, created_at, seq FROM {table} ORDER BY rowid")
        seen: dict[tuple[str, str], int] = {}
        for session, created, seq in rows:
            assert seq == seen.get((session, created), 0), (table, session, created)
            seen[(session, created)] = seq + 1
            assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", created)
    shared = _rows(path, "SELECT count(*) FROM trace_events WHERE seq > 0")[0][0]
    unique = _rows(
        path,
        "SELECT count(*) FROM (SELECT 1 FROM trace_events GROUP BY session_id, created_at HAVING count(*) = 1)",
    )[0][0]
    assert shared > 0 and unique > 0
    # The canonical order never puts a row before one written earlier in the same session.
    canonical = _rows(path, "SELECT session_id, rowid FROM trace_events ORDER BY session_id, created_at, seq, id")
    by_session: dict[str, int] = {}
    for session, rowid in canonical:
        assert rowid > by_session.get(session, 0)
        by_session[session] = rowid


def test_json_columns_are_js_stringify_output(demo):
    path, _ = demo
    for table, column in (
        ("trace_events", "payload"),
        ("turn_results", "runtime_results"),
        ("turn_results", "retry_scope"),
        ("messages", "metadata"),
        ("sessions", "active_plugins"),
        ("tool_calls", "input"),
        ("runtime_outputs", "meta_data"),
    ):
        for (text,) in _rows(path, f"SELECT {column} FROM {table} WHERE {column} IS NOT NULL"):
            assert js_stringify(json.loads(text)) == text, (table, column)


def test_four_protocols_across_sessions(demo):
    path, _ = demo
    protocols = {}
    for _, payload in _payloads(path, "llm.calling"):
        for entry in payload["providerRequests"]:
            protocols.setdefault(entry["protocol"], set()).add(entry["provider"])
    assert set(protocols) == set(ALL_PROTOCOLS)
    sessions = _rows(path, "SELECT id, phase, completed_player_turns, locale, world_id FROM sessions ORDER BY id")
    assert len(sessions) == 4
    assert all(row[1] == "playing" and row[3] == "zh-CN" and row[4] == "lantern-ridge" for row in sessions)
    assert {row[0]: row[2] for row in sessions}["demo-lantern-deepseek"] == 12
    assert _rows(path, "SELECT count(*) FROM worlds")[0][0] == 1


def test_llm_calling_key_order_and_sentinel(demo):
    path, _ = demo
    order = ["providerRequests", "responseFormat", "defaults", "maxOutputTokens", "runtimeId", "pluginId", "slot",
             "model", "provider", "messages", "tools", "attempt", "startedAt", "queueWaitMs", "streaming", "flowId",
             "seq", "sourceTurnId", "runtimeIds", "sourceCommitted", "sourceFailedRuntimeIds"]
    calls = _payloads(path, "llm.calling")
    assert calls
    for _, payload in calls:
        keys = list(payload)
        assert keys == sorted(keys, key=order.index)
        system = payload["messages"][0]
        assert system["role"] == "system" and CACHE_SENTINEL in system["content"]
        for entry in payload["providerRequests"]:
            assert CACHE_SENTINEL_NAME not in js_stringify(entry.get("body", {}))
    assert {p["runtimeId"] for _, p in calls} == {
        "narrator/main", "char-creator/character-tracker", "world-init/dimension-tracker", "affinity/main",
        "guide/main",
    }


def test_transport_retry_with_body_ref(demo):
    path, _ = demo
    found_429 = found_502 = False
    for _, payload in _payloads(path, "llm.calling"):
        entries = payload["providerRequests"]
        if len(entries) != 2:
            continue
        first, second = entries
        assert first["schemaVersion"] == 1 and "body" in first and first["transportAttempt"] == 0
        assert second["schemaVersion"] == 2 and second["bodyRef"] == 0 and "body" not in second
        assert second["transportAttempt"] == 1
        if first["statusCode"] == 429:
            assert first["transportRetryReason"] == "http-429" and second["statusCode"] == 200
            found_429 = True
        if first["statusCode"] == 502:
            found_502 = True
    assert found_429 and found_502


def test_model_retry_attempt_one(demo):
    path, _ = demo
    responses = _payloads(path, "llm.responded", "demo-lantern-deepseek")
    errors = [p for _, p in responses if p["finishReason"] == "error"]
    assert any(p["runtimeId"] == "narrator/main" and p["attempt"] == 0 for p in errors)
    assert any(p["runtimeId"] == "narrator/main" and p["attempt"] == 1 and p["finishReason"] == "stop"
               for _, p in responses)


def test_compaction(demo):
    path, _ = demo
    (summary_id, start, end), = _rows(path, "SELECT id, turn_range_start, turn_range_end FROM session_summaries")
    compacted = _payloads(path, "context.compacted")
    assert [p["summaryId"] for _, p in compacted] == [summary_id]
    tagged = _rows(path, "SELECT turn_id FROM turn_messages WHERE compacted_at_turn_id = ?", summary_id)
    assert len(tagged) == compacted[0][1]["messagesCompacted"] > 0
    assert {start, end} <= {t for (t,) in tagged}
    later = [p for _, p in _payloads(path, "llm.calling", "demo-lantern-deepseek")
             if p["runtimeId"] == "narrator/main"
             and any(isinstance(m["content"], str) and m["content"].startswith(COMPACTED_HISTORY_OPEN)
                     for m in p["messages"])]
    assert len(later) >= 4


def test_runtime_retry_scope(demo):
    path, _ = demo
    (scope_text, origin, status), = _rows(
        path, "SELECT retry_scope, origin, commit_status FROM turn_results WHERE retry_scope IS NOT NULL")
    scope = json.loads(scope_text)
    assert list(scope) == ["sourceTurnId", "runtimeIds", "sourceCommitted", "sourceFailedRuntimeIds"]
    assert origin == "manual" and status == "committed"
    failed = _payloads(path, "runtime.failed")
    assert [(t, p["runtimeId"]) for t, p in failed] == [(scope["sourceTurnId"], "world-init/dimension-tracker")]
    (source_results,) = _rows(path, "SELECT runtime_results FROM turn_results WHERE turn_id = ?",
                              scope["sourceTurnId"])[0]
    assert "failed" in {r["status"] for r in json.loads(source_results)}
    retry_turn = _rows(path, "SELECT turn_id FROM turn_results WHERE retry_scope IS NOT NULL")[0][0]
    emitted = [p for t, p in _payloads(path, "llm.calling") if t == retry_turn]
    assert emitted and all(p["sourceTurnId"] == scope["sourceTurnId"] for p in emitted)
    started = [p for t, p in _payloads(path, "turn.started") if t == retry_turn]
    assert started[0]["recoveryAction"]["type"] == "retry_failed_runtimes"


def test_image_note_and_pictures_message(demo):
    path, _ = demo
    note = re.compile(IMAGE_OMITTED_PATTERN)
    hits = 0
    for _, payload in _payloads(path, "llm.calling"):
        for message in payload["messages"]:
            if isinstance(message["content"], list):
                images = [p for p in message["content"] if p.get("type") == "image"]
                assert all(note.match(p["image"]) for p in images)
                hits += len(images)
                body = js_stringify(payload["providerRequests"][0]["body"])
                assert "iVBORw0KGgo" in body  # the wire body carries the real PNG
    assert hits >= 2
    assert _rows(path, "SELECT count(*) FROM media_assets")[0][0] >= 2


def test_tool_loop(demo):
    path, _ = demo
    calls = [(t, p) for t, p in _payloads(path, "llm.calling", "demo-lantern-deepseek")
             if p["runtimeId"] == "char-creator/character-tracker"]
    by_turn: dict[str, list[dict]] = {}
    for turn, payload in calls:
        by_turn.setdefault(turn, []).append(payload)
    steps = next(iter(by_turn.values()))
    assert len(steps) == 2 and [s["attempt"] for s in steps] == [0, 0]
    first, second = steps
    assert second["messages"][: len(first["messages"])] == first["messages"]
    assistant, tool = second["messages"][len(first["messages"]):]
    assert assistant["role"] == "assistant" and assistant["toolCalls"][0]["name"] == "character-upsert"
    assert tool["role"] == "tool" and tool["toolCallId"] == assistant["toolCalls"][0]["id"]
    tool_events = [t for t, _ in _payloads(path, "tool.calling", "demo-lantern-deepseek")]
    assert tool_events.count(next(iter(by_turn))) >= 1
    assert _rows(path, "SELECT count(*) FROM tool_calls")[0][0] == len(_payloads(path, "tool.completed"))


def test_prompt_change_breaks_cache(demo):
    path, _ = demo
    narrator = [p for _, p in _payloads(path, "llm.responded", "demo-lantern-deepseek")
                if p["runtimeId"] == "narrator/main" and p["finishReason"] == "stop"]
    cached = [p["usage"]["cachedInputTokens"] for p in narrator]
    # The edit of the narrator's runtime body before turn 7 cuts the cached prefix to what comes
    # before the body (the provider still holds that much); every other turn reads more.
    assert cached[0] == 0
    assert all(c > 0 for c in cached[1:])
    assert cached[6] < min(cached[1:6]) / 2 and cached[6] < min(cached[7:]) / 2
    first_per_turn: dict[str, str] = {}
    for turn, p in _payloads(path, "llm.calling", "demo-lantern-deepseek"):
        if p["runtimeId"] == "narrator/main":
            first_per_turn.setdefault(turn, p["messages"][0]["content"])
    prompts = list(first_per_turn.values())
    assert len(prompts) == 12
    assert len(set(prompts[:6])) == 1 and len(set(prompts[6:])) == 1 and prompts[5] != prompts[6]
    anthropic = [p["usage"] for _, p in _payloads(path, "llm.responded", "demo-lantern-claude")]
    assert all("cacheWriteInputTokens" in u for u in anthropic)
    assert any(u["cachedInputTokens"] > 0 for u in anthropic)


def test_lifecycle_rows_and_skip(demo):
    path, _ = demo
    skipped = _payloads(path, "runtime.skipped")
    assert skipped and all(p["runtimeId"] == "affinity/main" for _, p in skipped)
    stages = {p["runtimeId"]: p["stage"] for _, p in _payloads(path, "runtime.started")}
    assert stages == {"guide/main": "pre-turn", "narrator/main": "narrative",
                      "char-creator/character-tracker": "post-turn", "world-init/dimension-tracker": "post-turn",
                      "affinity/main": "post-turn"}
    turns = _rows(path, "SELECT count(DISTINCT turn_id) FROM trace_events")[0][0]
    assert len(_payloads(path, "turn.started")) == len(_payloads(path, "turn.completed")) == turns
    assert _rows(path, "SELECT count(*) FROM turn_results")[0][0] == turns
    assert len(_payloads(path, "message.completed")) == 27
    for _, payload in _payloads(path, "message.completed"):
        assert payload["len"] == len(payload["content"])
    # Recorder rows carry no emitter fields; emitter rows count 0, 1, 2 ... within their turn.
    for _, payload in _payloads(path, "runtime.started"):
        assert "seq" not in payload and "flowId" not in payload
    per_turn: dict[str, list[int]] = {}
    for turn, payload in _rows(path, "SELECT turn_id, payload FROM trace_events ORDER BY created_at, seq, id"):
        data = json.loads(payload)
        if "flowId" in data:
            per_turn.setdefault(turn, []).append(data["seq"])
    assert all(seqs == list(range(len(seqs))) for seqs in per_turn.values())


def test_turn_messages_and_chat_log(demo):
    path, _ = demo
    rows = _rows(path, 'SELECT turn_id, role, "order", source_type FROM turn_messages '
                       "WHERE session_id = 'demo-lantern-deepseek' ORDER BY created_at, \"order\", id")
    assert len(rows) == 24
    assert [(r[1], r[2], r[3]) for r in rows[:2]] == [("user", 0, "player"), ("assistant", 2, "runtime")]
    assert _rows(path, "SELECT count(*) FROM logical_turn_ledger")[0][0] == 27
    assert _rows(path, "SELECT count(*) FROM messages")[0][0] == 54


def test_chinese_content(demo):
    path, _ = demo
    stories = [c for (c,) in _rows(path, "SELECT content FROM turn_messages WHERE role = 'assistant'")]
    inputs = [c for (c,) in _rows(path, "SELECT content FROM turn_messages WHERE role = 'user'")]
    assert len(set(stories)) == len(stories) and len(set(inputs)) > len(inputs) // 2
    assert all(sum("\u4e00" <= ch <= "\u9fff" for ch in s) > len(s) // 2 for s in stories)
    lore = _rows(path, "SELECT lore FROM worlds")[0][0]
    assert "灯岭镇" in lore


def test_late_system_as_user_on_deepseek_story_slot(demo):
    path, _ = demo
    wrapped = plain = 0
    for _, payload in _payloads(path, "llm.calling", "demo-lantern-deepseek"):
        body = payload["providerRequests"][0]["body"]
        text = js_stringify(body["messages"])
        if payload["slot"] == "story" and SYSTEM_INSTRUCTION_OPEN.strip() in text:
            wrapped += 1
        if payload["slot"] == "plugin" and SYSTEM_INSTRUCTION_OPEN.strip() not in text:
            plain += 1
    assert wrapped >= 10 and plain > 0


def test_scale_stretches_prose(tmp_path):
    small = generate_demo(tmp_path / "a.db", turns=3, sessions=1, scale=1.0)
    large = generate_demo(tmp_path / "b.db", turns=3, sessions=1, scale=3.0)
    assert large.bytes > small.bytes
    (short,) = _rows(tmp_path / "a.db", "SELECT avg(length(content)) FROM turn_messages WHERE role = 'assistant'")[0]
    (long,) = _rows(tmp_path / "b.db", "SELECT avg(length(content)) FROM turn_messages WHERE role = 'assistant'")[0]
    assert long > 2 * short


def test_argument_checks(tmp_path):
    with pytest.raises(ValueError):
        generate_demo(tmp_path / "x.db", turns=0)
    with pytest.raises(ValueError):
        generate_demo(tmp_path / "x.db", scale=0)
    with pytest.raises(ValueError):
        generate_demo(tmp_path / "x.db", sessions=0)
    assert not (tmp_path / "x.db").exists()


def test_demo_format_is_stamped_and_read_back(tmp_path):
    from inspector.demo import DEMO_FORMAT, demo_format

    path = tmp_path / "d.db"
    generate_demo(path, turns=2)
    assert demo_format(path) == DEMO_FORMAT
    other = tmp_path / "other.db"
    other.write_bytes(b"not a database")
    assert demo_format(other) is None



def test_a_demo_file_is_told_by_its_full_header(demo: tuple[Path, DemoSummary, float], tmp_path: Path) -> None:
    from inspector.demo import DEMO_FORMAT, demo_format

    header = demo[0].read_bytes()[:100]
    whole = tmp_path / "whole.db"
    whole.write_bytes(header)  # exactly the header: still told apart by its application id
    assert is_demo_file(whole) and demo_format(whole) == DEMO_FORMAT
    cut = tmp_path / "cut.db"
    cut.write_bytes(header[:99])  # one byte short of it: not one
    assert not is_demo_file(cut) and demo_format(cut) is None
    assert not is_demo_file(tmp_path / "missing.db") and not is_demo_file(tmp_path)


def test_a_fifo_is_no_demo_file_and_reading_it_does_not_block(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    fifo = tmp_path / "covel.db"
    os.mkfifo(fifo)
    # An open() of a FIFO waits for a writer for good: a child process under a timeout turns a
    # regression into a failure instead of a hung test run.
    done = subprocess.run([sys.executable, "-c", "import sys\nfrom inspector.demo import demo_format, is_demo_file\n"
                           "print(is_demo_file(sys.argv[1]), demo_format(sys.argv[1]))", str(fifo)],
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (0, "False None\n"), done.stderr
    assert sorted(os.listdir(tmp_path)) == ["covel.db"]


# --- bounded arguments, safe targets, nothing left behind (issue 17) ----------------------------

import hashlib  # noqa: E402
import os  # noqa: E402
import signal  # noqa: E402
import stat  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402

from inspector.demo.writer import DemoWriter  # noqa: E402
from inspector.demo import limits  # noqa: E402
from inspector.files import OutputPathError, SaveError  # noqa: E402


def _listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("turns", [-1, 0, limits.MAX_TURNS + 1, 10**11, 10**5000, True, 1.5, "3", None],
                         ids=["-1", "0", "max+1", "1e11", "1e5000", "True", "1.5", "str", "None"])
def test_turns_out_of_bounds_are_refused_before_anything_is_written(tmp_path, turns):
    with pytest.raises(ValueError, match="turns must be") as caught:
        generate_demo(tmp_path / "x.db", turns=turns)
    assert len(str(caught.value)) < 120
    assert _listing(tmp_path) == []


@pytest.mark.parametrize("scale", [float("nan"), float("inf"), -float("inf"), -1.0, 0.0, limits.MAX_SCALE * 1.01,
                                   "2", None, True])
def test_scale_out_of_bounds_is_refused(tmp_path, scale):
    with pytest.raises(ValueError, match="scale must be"):
        generate_demo(tmp_path / "x.db", scale=scale)
    assert _listing(tmp_path) == []


@pytest.mark.parametrize("sessions", [0, -3, limits.MAX_SESSIONS + 1, 2.0])
def test_sessions_out_of_bounds_are_refused(tmp_path, sessions):
    with pytest.raises(ValueError, match="sessions must be"):
        generate_demo(tmp_path / "x.db", sessions=sessions)
    assert _listing(tmp_path) == []


def test_the_bounds_keep_every_benchmark_value_valid():
    # benchmarks/run.py and benchmarks/pg.py: --turns 1000 (1,015 turns in all) at --scale 1;
    # big_store.py's template: 200 turns.
    assert limits.check_turns(1) == 1 and limits.check_turns(1000) == 1000
    assert limits.check_turns(limits.MAX_TURNS) == limits.MAX_TURNS >= 10 * 1000
    assert limits.check_scale(1.0) == 1.0 and limits.check_scale(limits.MAX_SCALE) == limits.MAX_SCALE
    assert limits.check_scale(1e-3) == 1e-3 and limits.check_scale(3) == 3.0
    assert limits.check_sessions(None) == 4 and limits.check_sessions(1) == 1


def test_a_folder_is_never_the_target(tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "keep.txt").write_text("x", encoding="utf-8")
    for overwrite in (False, True):
        with pytest.raises(OutputPathError, match="is a folder"):
            generate_demo(folder, turns=2, sessions=1, overwrite=overwrite)
    assert _listing(tmp_path) == ["out"] and _listing(folder) == ["keep.txt"]


def test_a_regenerated_demo_keeps_the_files_mode(tmp_path):
    path = tmp_path / "covel.db"
    generate_demo(path, turns=2, sessions=1)
    path.chmod(0o640)
    generate_demo(path, turns=3, sessions=1)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640 and _listing(tmp_path) == ["covel.db"]


def test_a_full_disk_while_building_keeps_the_old_demo_and_leaves_no_temporary(tmp_path, monkeypatch):
    path = tmp_path / "covel.db"
    generate_demo(path, turns=2, sessions=1)
    before, listing = _digest(path), _listing(tmp_path)

    def full(self):  # type: ignore[no-untyped-def]
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(DemoWriter, "flush", full)
    with pytest.raises(SaveError) as caught:
        generate_demo(path, turns=3, sessions=1)
    assert str(caught.value) == f"cannot write {path}: No space left on device"
    assert _digest(path) == before and _listing(tmp_path) == listing


def _run_cli(*argv: str, cwd: Path, preexec=None, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[3]))
    return subprocess.run([sys.executable, "-m", "inspector", *argv], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout, preexec_fn=preexec)


def test_a_real_write_failure_is_one_line_and_loses_nothing(tmp_path):
    """A file-size limit makes the kernel refuse writes past 1 MB, as a full disk would."""
    import resource

    path = tmp_path / "covel.db"
    generate_demo(path, turns=2, sessions=1)
    before, listing = _digest(path), _listing(tmp_path)

    def limit_file_size() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (1_000_000, 1_000_000))

    done = _run_cli("demo", "covel.db", "--turns", "40", cwd=tmp_path, preexec=limit_file_size)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("prompt-inspector: cannot write covel.db: ")
    assert len(done.stderr.splitlines()) == 1 and "Traceback" not in done.stderr and ".tmp" not in done.stderr
    assert _digest(path) == before and _listing(tmp_path) == listing


def test_sigterm_during_a_long_build_removes_the_temporary_file(tmp_path):
    path = tmp_path / "covel.db"
    generate_demo(path, turns=2, sessions=1)
    before, listing = _digest(path), _listing(tmp_path)
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[3]))
    proc = subprocess.Popen([sys.executable, "-m", "inspector", "demo", "covel.db", "--turns", str(limits.MAX_TURNS)],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]:
            assert proc.poll() is None and time.monotonic() < deadline, "the build never started"
            time.sleep(0.05)
        time.sleep(0.5)  # well into the build
        assert [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")][0].stat().st_size > 0
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130 and out == ""
    assert err == "prompt-inspector: interrupted\n"
    assert _digest(path) == before and _listing(tmp_path) == listing


# Every row of the demo for these arguments, as demo format 2 writes them (its reported usage
# from the shipped rules table); the seed fixes every byte, so a change here is a change of output
# and needs a new DEMO_FORMAT.
_RECORDED_ROWS = {
    (12, 1.0): "683556826399a6fce424b6b39aae2e00a6fb677159731687ae8843c701bb65dd",
    (3, 0.5): "e2d932c3153be72bb95f0d77c456877e407bda50ad7147390197b31d1b021cca",
}


def _rows_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn:
        digest.update(repr(conn.execute("PRAGMA application_id").fetchone()).encode())
        for name, sql in conn.execute("SELECT name, sql FROM sqlite_master ORDER BY name").fetchall():
            digest.update((name + (sql or "")).encode())
            if sql and sql.startswith("CREATE TABLE"):
                for row in conn.execute(f'SELECT * FROM "{name}" ORDER BY rowid'):
                    digest.update(repr(row).encode())
    return digest.hexdigest()


@pytest.mark.parametrize(("turns", "scale"), list(_RECORDED_ROWS))
def test_the_demo_rows_equal_the_recorded_digest(tmp_path: Path, turns: int, scale: float) -> None:
    path = tmp_path / "covel.db"
    generate_demo(path, turns=turns, scale=scale)
    assert _rows_digest(path) == _RECORDED_ROWS[(turns, scale)]


def test_the_summary_counts_turns_and_executions_as_every_view_does(demo) -> None:
    from inspector import views
    from inspector.store import open_store

    path, summary = demo
    with open_store(path) as store:
        totals = views.store_totals(store)
    assert (summary.sessions, summary.turns, summary.executions, summary.llm_calls) == (
        totals["sessions"], totals["turns"], totals["executions"], totals["requests"])


def test_recognising_a_demo_file_does_not_import_the_generator():
    import subprocess
    import sys

    from inspector.demo import DEMO_FORMAT

    code = ("import sys, inspector.demo as demo; "
            "print('inspector.demo.generator' in sys.modules, demo.DEMO_FORMAT, demo.is_demo_file.__module__); "
            "demo.generate_demo; print('inspector.demo.generator' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[3]).stdout.split()
    assert out == ["False", str(DEMO_FORMAT), "inspector.demo.edition", "True"]
