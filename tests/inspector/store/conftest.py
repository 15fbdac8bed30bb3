"""Covel databases built with the stdlib sqlite3 module, newest and old schema (covel-db.md §1)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from inspector.demo.pg import copy_to_postgres
from inspector.store import Store, open_store

# Newest schema (commit 3e5ad04c…): column names and declared types as in covel-db.md §1.
NEW_SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
  id TEXT PRIMARY KEY NOT NULL,
  world_id TEXT,
  status TEXT NOT NULL DEFAULT 'active',
  locale TEXT NOT NULL DEFAULT 'en',
  active_plugins TEXT NOT NULL DEFAULT '[]',
  metadata TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  embedding_model_id INTEGER,
  embedding_locked_at TEXT,
  runtime_model_overrides TEXT DEFAULT '{}',
  phase TEXT NOT NULL DEFAULT 'setup',
  completed_player_turns INTEGER NOT NULL DEFAULT 0,
  setup_runtimes TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS worlds (
  id TEXT PRIMARY KEY NOT NULL,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  lore TEXT,
  tags TEXT,
  locale TEXT,
  metadata TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT
);
CREATE TABLE IF NOT EXISTS trace_events (
  id TEXT PRIMARY KEY NOT NULL,
  session_id TEXT NOT NULL,
  type TEXT NOT NULL,
  trace_id TEXT NOT NULL,
  turn_id TEXT NOT NULL,
  payload TEXT,
  created_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS trace_events_session_id_idx ON trace_events (session_id);
CREATE INDEX IF NOT EXISTS trace_events_type_idx ON trace_events (session_id, type, created_at);
CREATE INDEX IF NOT EXISTS trace_events_trace_id_idx ON trace_events (session_id, trace_id);
CREATE INDEX IF NOT EXISTS trace_events_turn_id_idx ON trace_events (session_id, turn_id);
CREATE INDEX IF NOT EXISTS trace_events_created_idx ON trace_events (session_id, created_at, seq);
CREATE TABLE IF NOT EXISTS turn_results (
  id TEXT PRIMARY KEY NOT NULL,
  session_id TEXT NOT NULL,
  turn_id TEXT NOT NULL,
  runtime_results TEXT NOT NULL,
  conflicts TEXT,
  audit_result TEXT,
  origin TEXT NOT NULL,
  parent_turn_id TEXT,
  retry_scope TEXT,
  commit_status TEXT NOT NULL,
  duration_ms INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS turn_results_session_id_idx ON turn_results (session_id);
CREATE INDEX IF NOT EXISTS turn_results_turn_id_idx ON turn_results (turn_id);
CREATE INDEX IF NOT EXISTS turn_results_session_created_seq_idx ON turn_results (session_id, created_at, seq);
CREATE TABLE IF NOT EXISTS turn_messages (
  id TEXT PRIMARY KEY NOT NULL,
  session_id TEXT NOT NULL,
  turn_id TEXT NOT NULL,
  source_type TEXT NOT NULL,
  source_plugin_id TEXT,
  source_runtime_id TEXT,
  role TEXT NOT NULL,
  name TEXT,
  content TEXT NOT NULL,
  ui TEXT,
  pending_input TEXT,
  "order" INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  compacted_at_turn_id TEXT
);
CREATE INDEX IF NOT EXISTS turn_messages_session_id_idx ON turn_messages (session_id);
CREATE INDEX IF NOT EXISTS turn_messages_turn_id_idx ON turn_messages (session_id, turn_id);
CREATE TABLE IF NOT EXISTS session_summaries (
  id TEXT PRIMARY KEY NOT NULL,
  session_id TEXT NOT NULL,
  turn_range_start TEXT NOT NULL,
  turn_range_end TEXT NOT NULL,
  content TEXT NOT NULL,
  focus_sections TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS session_summaries_session_id_idx ON session_summaries (session_id);
CREATE TABLE IF NOT EXISTS messages (
  id TEXT PRIMARY KEY NOT NULL,
  session_id TEXT NOT NULL,
  role TEXT NOT NULL,
  content TEXT NOT NULL,
  metadata TEXT,
  created_at TEXT NOT NULL,
  seq INTEGER NOT NULL
);
"""

# An older file: no seq anywhere, turn_count/pre_game_completed on sessions, no phase, no worlds
# table, turn_results without origin/retry_scope, no session_summaries.
OLD_SCHEMA = """
CREATE TABLE sessions (
  id TEXT PRIMARY KEY NOT NULL,
  world_id TEXT,
  status TEXT NOT NULL DEFAULT 'active',
  locale TEXT NOT NULL DEFAULT 'zh-CN',
  active_plugins TEXT NOT NULL DEFAULT '[]',
  metadata TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  turn_count INTEGER NOT NULL DEFAULT 0,
  pre_game_completed TEXT
);
CREATE TABLE trace_events (
  id TEXT PRIMARY KEY NOT NULL,
  session_id TEXT NOT NULL,
  type TEXT NOT NULL,
  trace_id TEXT NOT NULL,
  turn_id TEXT NOT NULL,
  payload TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX trace_events_session_id_idx ON trace_events (session_id);
CREATE INDEX trace_events_trace_id_idx ON trace_events (session_id, trace_id);
CREATE INDEX trace_events_turn_id_idx ON trace_events (session_id, turn_id);
CREATE TABLE turn_results (
  id TEXT PRIMARY KEY NOT NULL,
  session_id TEXT NOT NULL,
  turn_id TEXT NOT NULL,
  runtime_results TEXT NOT NULL,
  conflicts TEXT,
  audit_result TEXT,
  parent_turn_id TEXT,
  commit_status TEXT NOT NULL,
  duration_ms INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE turn_messages (
  id TEXT PRIMARY KEY NOT NULL,
  session_id TEXT NOT NULL,
  turn_id TEXT NOT NULL,
  source_type TEXT NOT NULL,
  source_plugin_id TEXT,
  source_runtime_id TEXT,
  role TEXT NOT NULL,
  name TEXT,
  content TEXT NOT NULL,
  ui TEXT,
  pending_input TEXT,
  "order" INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  compacted_at_turn_id TEXT
);
"""

_SENTINEL = object()


def ts(ms: int) -> str:
    """An ISO timestamp ``ms`` milliseconds after a fixed origin, formatted like JavaScript's."""
    seconds, millis = divmod(ms, 1000)
    minutes, seconds = divmod(seconds, 60)
    return f"2026-10-06T08:{minutes:02d}:{seconds:02d}.{millis:03d}Z"


class CovelDb:
    """Writes rows the way Covel does (seq = 1 + max for the same session and millisecond)."""

    def __init__(self, path: Path, schema: str = "new", *, wal: bool = False,
                 pg_schema: Callable[[], str] | None = None) -> None:
        self.path = path
        self.schema = schema
        # Set for the PostgreSQL case of a test: open() copies the finished file into a fresh
        # schema there (as Covel's PostgreSQL store would hold the rows) and opens that instead.
        self._pg_schema = pg_schema
        self.url: str | None = None
        self.conn = sqlite3.connect(path)
        if wal:
            self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.executescript(NEW_SCHEMA if schema == "new" else OLD_SCHEMA)
        self._ids = 0
        self.columns = {
            table: {row[1] for row in self.conn.execute(f"PRAGMA table_info({table})")}
            for (table,) in self.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }

    def _next_id(self, prefix: str) -> str:
        self._ids += 1
        return f"{prefix}-{self._ids:04d}"

    def _insert(self, table: str, values: dict[str, Any]) -> None:
        cols = [c for c in values if c in self.columns[table]]
        names = ", ".join(f'"{c}"' for c in cols)
        marks = ", ".join("?" for _ in cols)
        self.conn.execute(f"INSERT INTO {table} ({names}) VALUES ({marks})", [values[c] for c in cols])

    def _seq(self, table: str, session_id: str, created_at: str) -> int:
        (value,) = self.conn.execute(
            f"SELECT COALESCE(MAX(seq) + 1, 0) FROM {table} WHERE session_id = ? AND created_at = ?",
            (session_id, created_at),
        ).fetchone()
        return int(value)

    def session(self, sid: str, *, world_id: str | None = None, created: int = 0, turns: int = 0,
                phase: str = "playing", locale: str = "en", status: str = "active") -> None:
        self._insert("sessions", {
            "id": sid, "world_id": world_id, "status": status, "locale": locale,
            "created_at": ts(created), "updated_at": ts(created + 1),
            "phase": phase, "completed_player_turns": turns, "turn_count": turns,
        })

    def world(self, wid: str, name: str) -> None:
        self._insert("worlds", {"id": wid, "name": name, "description": "", "created_at": ts(0)})

    def event(self, sid: str, turn: str, etype: str, payload: Any = None, *, at: int,
              trace: str | None = None, eid: str | None = None, raw: Any = _SENTINEL) -> str:
        eid = eid or self._next_id("ev")
        created = ts(at)
        body = raw if raw is not _SENTINEL else (None if payload is None else json.dumps(payload))
        values = {"id": eid, "session_id": sid, "type": etype, "trace_id": trace or turn, "turn_id": turn,
                  "payload": body, "created_at": created}
        if "seq" in self.columns["trace_events"]:
            values["seq"] = self._seq("trace_events", sid, created)
        self._insert("trace_events", values)
        return eid

    def calling(self, sid: str, turn: str, runtime: str, attempt: int = 0, *, at: int, **extra: Any) -> str:
        payload = {"runtimeId": runtime, "pluginId": runtime.split("/")[0], "slot": "story",
                   "model": "deepseek-flash", "provider": "deepseek",
                   "messages": [{"role": "user", "content": "hi"}], "tools": [], "attempt": attempt,
                   "startedAt": ts(at - 1), **extra}
        return self.event(sid, turn, "llm.calling", payload, at=at)

    def responded(self, sid: str, turn: str, runtime: str, attempt: int = 0, *, at: int,
                  usage: dict[str, int] | None = None) -> str:
        payload: dict[str, Any] = {"runtimeId": runtime, "pluginId": runtime.split("/")[0], "text": "ok",
                                   "attempt": attempt, "durationMs": 5, "finishReason": "stop"}
        if usage is not None:
            payload["usage"] = usage
        return self.event(sid, turn, "llm.responded", payload, at=at)

    def result(self, sid: str, turn: str, *, at: int, origin: str | None = "player",
               status: str = "committed", duration: int = 100, retry_scope: Any = None,
               parent: str | None = None) -> None:
        created = ts(at)
        values = {"id": self._next_id("tr"), "session_id": sid, "turn_id": turn, "runtime_results": "[]",
                  "origin": origin, "parent_turn_id": parent,
                  "retry_scope": None if retry_scope is None else json.dumps(retry_scope),
                  "commit_status": status, "duration_ms": duration, "created_at": created}
        if "seq" in self.columns["turn_results"]:
            values["seq"] = self._seq("turn_results", sid, created)
        self._insert("turn_results", values)

    def message(self, sid: str, turn: str, *, at: int, order: int, content: str, role: str = "user",
                mid: str | None = None, compacted: str | None = None, runtime: str | None = None) -> str:
        mid = mid or self._next_id("tm")
        self._insert("turn_messages", {
            "id": mid, "session_id": sid, "turn_id": turn,
            "source_type": "runtime" if runtime else "player", "source_runtime_id": runtime,
            "source_plugin_id": runtime.split("/")[0] if runtime else None, "role": role,
            "content": content, "order": order, "created_at": ts(at), "compacted_at_turn_id": compacted,
        })
        return mid

    def summary(self, sid: str, sum_id: str, *, at: int, start: str, end: str, content: str,
                focus: list[str]) -> None:
        self._insert("session_summaries", {
            "id": sum_id, "session_id": sid, "turn_range_start": start, "turn_range_end": end,
            "content": content, "focus_sections": json.dumps(focus), "created_at": ts(at),
        })

    def commit(self) -> None:
        self.conn.commit()

    @property
    def backend(self) -> str:
        return "sqlite" if self._pg_schema is None else "postgresql"

    def open(self) -> Store:
        """Close the writer and open the store read-only on this test's backend."""
        self.close()
        if self._pg_schema is None:
            return open_store(self.path)
        if self.url is None:
            self.url = self._pg_schema()
            copy_to_postgres(self.path, self.url)
        return open_store(self.url)

    def close(self) -> None:
        try:
            self.conn.commit()
        except sqlite3.ProgrammingError:
            return  # already closed
        self.conn.close()


@pytest.fixture
def make_db(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Callable[..., CovelDb]]:
    """Builds Covel databases; in a test that takes ``backend``, ``db.open()`` reads them from
    that backend."""
    made: list[CovelDb] = []
    on_postgres = "backend" in request.fixturenames and request.getfixturevalue("backend") == "postgresql"
    pg_schema = request.getfixturevalue("pg_schema") if on_postgres else None

    def factory(name: str = "covel.db", schema: str = "new", *, wal: bool = False) -> CovelDb:
        db = CovelDb(tmp_path / name, schema, wal=wal, pg_schema=pg_schema)
        made.append(db)
        return db

    yield factory
    for db in made:
        try:
            db.conn.close()
        except sqlite3.ProgrammingError:
            pass


def _build_sample(db: CovelDb) -> None:
    """Two sessions. s1: a setup turn t1 (result + trace), a main turn t2 with a tool loop and a
    retry, a trace-only turn t3, a result-only turn t4 (trace pruned)."""
    db.session("s1", world_id="w1", created=0, turns=1)
    db.session("s2", created=5)
    if "worlds" in db.columns:
        db.world("w1", "Lantern Barrow")
    db.event("s1", "t1", "turn.started", {"runtimeCount": 1}, at=10, trace="tr-a")
    db.event("s1", "t1", "runtime.started", {"runtimeId": "setup/init", "pluginId": "setup", "stage": "setup"},
             at=11, trace="tr-a")
    db.calling("s1", "t1", "setup/init", at=12)
    db.responded("s1", "t1", "setup/init", at=13, usage={"inputTokens": 10, "outputTokens": 2})
    db.event("s1", "t1", "turn.completed", {"durationMs": 9, "resultCount": 1}, at=19, trace="tr-a")
    db.result("s1", "t1", at=18, origin="player", duration=9)
    db.event("s1", "t2", "turn.started", {"runtimeCount": 1}, at=20, trace="tr-a")
    db.event("s1", "t2", "runtime.started",
             {"runtimeId": "narrator/main", "pluginId": "narrator", "stage": "narrative"}, at=20, trace="tr-a")
    db.calling("s1", "t2", "narrator/main", at=21)
    db.responded("s1", "t2", "narrator/main", at=22)
    db.calling("s1", "t2", "narrator/main", at=23)
    db.calling("s1", "t2", "narrator/main", 1, at=24)
    db.responded("s1", "t2", "narrator/main", 1, at=25,
                 usage={"inputTokens": 100, "outputTokens": 20, "cachedInputTokens": 80})
    db.event("s1", "t2", "turn.completed", {"durationMs": 10}, at=30, trace="tr-a")
    db.result("s1", "t2", at=29, origin="player", duration=10,
              retry_scope={"sourceTurnId": "t1", "runtimeIds": ["narrator/main"], "sourceCommitted": True,
                           "sourceFailedRuntimeIds": []})
    db.event("s1", "c1", "command.invoked", {"command": "save"}, at=40)
    db.result("s1", "t4", at=50, origin="manual", status="failed", duration=3)
    db.calling("s2", "u1", "narrator/main", at=15)
    db.commit()


@pytest.fixture
def build_sample() -> Callable[[CovelDb], None]:
    """The sample content (see ``_build_sample``) as a fixture, so test modules need no imports."""
    return _build_sample
