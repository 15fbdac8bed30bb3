"""Rows for the turn tests: a Covel file written row by row as Covel writes it, and the demo
store's main session."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from inspector.demo.schema import render_ddl
from inspector.store import open_store
from inspector.turn.builder import build_turn
from inspector.turn.model import Turn

MAIN = "demo-lantern-deepseek"
POST_TURN = ["char-creator/character-tracker", "world-init/dimension-tracker", "affinity/main"]


def demo_turn(demo, executions, index: int) -> Turn:
    return build_turn(demo, MAIN, executions[index].turn_id)


def ts(ms: int) -> str:
    seconds, millis = divmod(ms, 1000)
    minutes, seconds = divmod(seconds, 60)
    return f"2026-10-06T08:{minutes:02d}:{seconds:02d}.{millis:03d}Z"


_RAW = object()


class Db:
    """A Covel file with the newest schema, written row by row as Covel writes it."""

    def __init__(self, path: Path, session: str = "s") -> None:
        self.path = path
        self.sid = session
        self.conn = sqlite3.connect(path)
        self.conn.executescript(render_ddl())
        self.ids = 0
        self.seq: dict[tuple[str, str], int] = {}

    def _id(self, prefix: str) -> str:
        self.ids += 1
        return f"{prefix}-{self.ids:03d}"

    def _seq(self, table: str, created: str) -> int:
        key = (table, created)
        value = self.seq.get(key, 0)
        self.seq[key] = value + 1
        return value

    def ev(self, turn: str, etype: str, payload: Any = None, *, at: int, raw: Any = _RAW) -> str:
        eid = self._id("ev")
        body = payload if raw is _RAW else raw
        text = body if isinstance(body, str) or body is None else json.dumps(body)
        created = ts(at)
        self.conn.execute("INSERT INTO trace_events (id, session_id, type, trace_id, turn_id, payload, created_at,"
                          " seq) VALUES (?,?,?,?,?,?,?,?)",
                          (eid, self.sid, etype, turn, turn, text, created, self._seq("trace_events", created)))
        return eid

    def started(self, turn: str, rid: str, stage: str | None, *, at: int) -> str:
        payload = {"runtimeId": rid, "pluginId": rid.split("/")[0]}
        if stage is not None:
            payload["stage"] = stage
        return self.ev(turn, "runtime.started", payload, at=at)

    def completed(self, turn: str, rid: str, *, at: int, status: str = "success") -> str:
        return self.ev(turn, "runtime.completed", {"runtimeId": rid, "pluginId": rid.split("/")[0],
                                                   "status": status, "durationMs": 1}, at=at)

    def call(self, turn: str, rid: str | None, *, at: int, attempt: int = 0, messages: list | None = None,
             tool_calls: list | None = None, usage: dict | None = None, end: int | None = None,
             **extra: Any) -> str:
        payload: dict[str, Any] = {"runtimeId": rid, "pluginId": rid.split("/")[0] if rid else None,
                                   "model": "m", "provider": "p", "attempt": attempt,
                                   "messages": messages or [{"role": "user", "content": "hi"}],
                                   "startedAt": ts(at - 1), **extra}
        if rid is None:
            del payload["runtimeId"], payload["pluginId"]
        eid = self.ev(turn, "llm.calling", payload, at=at)
        response = {"attempt": attempt, "text": "ok", "finishReason": "tool-calls" if tool_calls else "stop",
                    "toolCalls": tool_calls or [], "durationMs": (end or at + 1) - at + 1,
                    "usage": usage or {"inputTokens": 10, "outputTokens": 1}}
        if rid is not None:
            response.update(runtimeId=rid, pluginId=rid.split("/")[0])
        self.ev(turn, "llm.responded", response, at=end or at + 1)
        return eid

    def result(self, turn: str, results: list[dict], *, at: int, origin: str = "player",
               status: str = "committed", scope: dict | None = None) -> None:
        created = ts(at)
        self.conn.execute(
            "INSERT INTO turn_results (id, session_id, turn_id, runtime_results, origin, retry_scope, commit_status,"
            " duration_ms, created_at, seq) VALUES (?,?,?,?,?,?,?,?,?,?)",
            (self._id("tr"), self.sid, turn, json.dumps(results), origin, json.dumps(scope) if scope else None,
             status, 50, created, self._seq("turn_results", created)))

    def message(self, turn: str, content: str, *, at: int, role: str = "user", runtime: str | None = None,
                order: int = 0, compacted: str | None = None) -> str:
        mid = self._id("tm")
        self.conn.execute(
            'INSERT INTO turn_messages (id, session_id, turn_id, source_type, source_plugin_id, source_runtime_id,'
            ' role, name, content, "order", created_at, compacted_at_turn_id) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)',
            (mid, self.sid, turn, "runtime" if runtime else "player", runtime.split("/")[0] if runtime else None,
             runtime, role, runtime, content, order, ts(at), compacted))
        return mid

    def summary(self, sid: str, content: str, *, at: int) -> None:
        self.conn.execute("INSERT INTO session_summaries VALUES (?,?,?,?,?,?,?)",
                          (sid, self.sid, "a", "b", content, '["plot"]', ts(at)))

    def tool_row(self, turn: str, rid: str, name: str, *, at: int, output: Any = None) -> None:
        self.conn.execute("INSERT INTO tool_calls VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                          (self._id("tc"), self.sid, turn, name, rid.split("/")[0], rid, '{"q":1}',
                           json.dumps(output), 7, "auto-approved", ts(at)))

    def suspension(self, sid: str, turn: str, rid: str, *, at: int, resolved: int | None = None) -> None:
        self.conn.execute("INSERT INTO suspensions VALUES (?,?,?,?,?,?,?,?,?,?)",
                          (sid, self.sid, turn, rid, rid.split("/")[0], "pick a door",
                           '{"type":"object","properties":{"door":{"type":"string"}}}',
                           '{"currentTurnUserMessages":1}', ts(at), ts(resolved) if resolved else None))

    def open(self):
        self.conn.commit()
        self.conn.close()
        return open_store(self.path)
