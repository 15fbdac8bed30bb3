"""A small but realistic covel.db written row by row with sqlite3, in Covel's newest schema."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from inspector.demo.schema import columns_of, render_ddl


def _ts(ms: int) -> str:
    seconds, millis = divmod(ms, 1000)
    minutes, seconds = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    return f"2026-10-06T{8 + hours:02d}:{minutes:02d}:{seconds:02d}.{millis:03d}Z"


class _Writer:
    def __init__(self, path: Path) -> None:
        self.conn = sqlite3.connect(path)
        self.conn.executescript(render_ddl())
        self.cols = {t: set(columns_of(t)) for t in ("sessions", "worlds", "trace_events", "turn_results")}
        self.n = 0
        self.seq: dict[tuple[str, str], int] = {}

    def insert(self, table: str, values: dict[str, Any]) -> None:
        names = [c for c in values if c in self.cols[table]]
        self.conn.execute(
            f"INSERT INTO {table} ({', '.join(chr(34) + c + chr(34) for c in names)}) "
            f"VALUES ({', '.join('?' for _ in names)})",
            [values[c] for c in names],
        )

    def event(self, sid: str, turn: str, etype: str, payload: dict[str, Any], at: int) -> str:
        self.n += 1
        eid = f"ev-{self.n:05d}"
        created = _ts(at)
        key = (sid, created)
        self.seq[key] = self.seq.get(key, -1) + 1
        self.insert("trace_events", {
            "id": eid, "session_id": sid, "type": etype, "trace_id": f"tr-{turn}", "turn_id": turn,
            "payload": json.dumps(payload, ensure_ascii=False), "created_at": created, "seq": self.seq[key],
        })
        return eid


_RUNTIMES = [
    # runtime id, stage, model, provider
    ("director/plan", "planning", "deepseek-chat", "deepseek"),
    ("narrator/main", "narrative", "claude-sonnet-4-5", "anthropic"),
    ("memory/update", "post", "gpt-4.1-mini", "openai"),
]

_LINES = [
    "雾潮漫过雾桥的时候，沈青灯提着长明灯站在桥头。",
    "The lantern keeper asks about the extinguished lamps on the north slope.",
    "老周的茶馆里雨声不断，白姨低声说起旧矿口的古冢。",
    "A traveller arrives at the inn with a lamp that remembers nothing.",
]


def build_sample_store(path: Path, *, turns: int = 4) -> Path:
    """Two sessions; the first has ``turns`` player turns with three runtimes each (a tool loop in
    the narrator, a retry on turn 2, a failed memory runtime on the last turn)."""
    w = _Writer(path)
    w.insert("worlds", {"id": "lantern-ridge", "name": "灯岭镇", "description": "灯火小镇",
                        "created_at": _ts(0)})
    for sid, world, locale, n_turns in (("sess-lantern", "lantern-ridge", "zh-CN", turns),
                                        ("sess-harbor", None, "en", 1)):
        w.insert("sessions", {
            "id": sid, "world_id": world, "status": "active", "locale": locale,
            "created_at": _ts(0), "updated_at": _ts(1000), "phase": "playing",
            "completed_player_turns": n_turns,
        })
        history: list[dict[str, str]] = [{"role": "system", "content": "你是灯岭镇的叙述者。保持克制的文风。"}]
        clock = 1000
        for t in range(n_turns):
            turn = f"{sid}-turn-{t + 1:02d}"
            line = _LINES[t % len(_LINES)]
            history.append({"role": "user", "content": f"{line} (turn {t + 1}, marker-{sid}-{t + 1})"})
            w.event(sid, turn, "turn.started", {"runtimeCount": len(_RUNTIMES)}, clock)
            for r_index, (rid, stage, model, provider) in enumerate(_RUNTIMES):
                plugin = rid.split("/")[0]
                clock += 10
                w.event(sid, turn, "runtime.started", {"runtimeId": rid, "pluginId": plugin, "stage": stage}, clock)
                steps = 2 if rid == "narrator/main" else 1
                for step in range(steps):
                    attempts = 2 if (rid == "narrator/main" and t == 1 and step == 0) else 1
                    for attempt in range(attempts):
                        clock += 5
                        messages = history + ([{"role": "tool", "content": "lamp_registry: 3 lamps dark"}]
                                              if step else [])
                        w.event(sid, turn, "llm.calling", {
                            "runtimeId": rid, "pluginId": plugin, "slot": "story", "model": model,
                            "provider": provider, "messages": messages, "tools": [],
                            "attempt": attempt, "startedAt": _ts(clock - 1),
                            "providerRequests": [{"protocol": f"{provider}-chat", "provider": provider,
                                                  "body": {"model": model, "messages": messages}}],
                        }, clock)
                        clock += 700 + 37 * r_index + 11 * t
                        base = 900 + 180 * t + 40 * step + 60 * r_index
                        usage = {"inputTokens": base, "outputTokens": 120 + 7 * t,
                                 "cachedInputTokens": (base * 3) // 4 if t else 0}
                        failed = attempt == 0 and attempts == 2
                        w.event(sid, turn, "llm.responded", {
                            "runtimeId": rid, "pluginId": plugin, "attempt": attempt,
                            "durationMs": 700 + 37 * r_index + 11 * t,
                            "finishReason": "error" if failed else ("tool_calls" if step + 1 < steps else "stop"),
                            **({} if failed else {"usage": usage}),
                            "text": "灯芯噼啪一声。",
                        }, clock)
                clock += 3
                if rid == "memory/update" and t == n_turns - 1 and n_turns > 1:
                    w.event(sid, turn, "runtime.failed",
                            {"runtimeId": rid, "pluginId": plugin, "error": "memory store timed out"}, clock)
                else:
                    w.event(sid, turn, "runtime.completed",
                            {"runtimeId": rid, "pluginId": plugin, "status": "completed", "durationMs": 900}, clock)
            history.append({"role": "assistant", "content": "灯芯噼啪一声，雾又退了一步。"})
            clock += 20
            w.event(sid, turn, "turn.completed", {"durationMs": 2500 + t, "resultCount": 3}, clock)
            w.insert("turn_results", {
                "id": f"tr-{turn}", "session_id": sid, "turn_id": turn, "runtime_results": "[]",
                "origin": "player", "commit_status": "committed", "duration_ms": 2500 + 40 * t,
                "created_at": _ts(clock), "seq": 0,
            })
            clock += 1000
    w.conn.commit()
    w.conn.close()
    return path
