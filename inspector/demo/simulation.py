"""The demo's session simulator: one execution's trace rows, model requests, results and journal,
turn after turn, as Covel writes them while a player plays."""

from __future__ import annotations

import base64
import hashlib
import math
import random
from dataclasses import dataclass, field
from typing import Any

from inspector.covel.assembly import (
    AssemblyInput,
    LoreEntry,
    RuntimeSpec,
    Segment,
    Summary,
    assemble,
)
from inspector.cache.prediction import automatic_cached
from inspector.cache.rules import default_rules
from inspector.jsjson import common_prefix_utf16, js_parse, js_stringify
from inspector.tokens import count_exact, covel_estimate
from inspector.wire.protocols import ANTHROPIC_MESSAGES
from inspector.wire.serialise import omit_image_data, project_body, prompt_cache_key_for, serialise

from . import world as W

from .basics import F_COMPACT, F_HTTP_429, F_IMAGE, F_MODEL_RETRY, F_PROMPT_EDIT, F_RUNTIME_FAIL, F_SKIP, F_SKIP_AGAIN, Ids, STAGE_RANK, anthropic_stream, iso_at, png_base64, prefix_text, recurs
from .runtimes import POST_TURN, Runtime, TOOLS, build_runtimes
from .session_configs import SessionConfig
from .writer import DemoWriter


# --- events of one execution ------------------------------------------------------------------


@dataclass
class TraceRow:
    ms: int
    order: int
    type: str
    payload: dict
    emitter: bool


@dataclass
class Execution:
    """One execution (turn id): its trace rows are collected, ordered, then numbered."""

    turn_id: str
    trace_id: str
    retry_scope: dict | None = None
    events: list[TraceRow] = field(default_factory=list)
    _order: int = 0

    def emit(self, ms: int, type_: str, payload: dict, *, emitter: bool = True) -> None:
        self.events.append(TraceRow(ms, self._order, type_, payload, emitter))
        self._order += 1


@dataclass
class CallResult:
    text: str
    tool_calls: list[dict]
    end_ms: int
    usage: dict


# --- the session simulator --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Sent:
    """What a runtime last sent, as its provider's cache keeps it: the cacheable text, the
    breakpoint offsets in it and the tokens up to each, its tokens, the tokens it shared with
    the request before it (None: nothing to compare), and when (ms)."""

    text: str
    marks: tuple[int, ...]
    mark_tokens: tuple[int, ...]
    tokens: int
    shared_tokens: int | None
    at: int


class SessionSim:
    def __init__(self, cfg: SessionConfig, rng: random.Random, ids: Ids, out: DemoWriter, scale: float) -> None:
        self.cfg = cfg
        self.rng = rng
        self.ids = ids
        self.out = out
        self.scale = scale
        self.now = cfg.start_ms
        self.narrator_body = W.NARRATOR_BODY_V1
        self.history: list[dict] = []  # uncompacted committed rows: {id, turn_id, role, content}
        self.summaries: list[Summary] = []
        self.summary_ranges: dict[str, list[str]] = {}
        self.scenes_since_compaction: list[W.Scene] = []
        self.turns_since_compaction = 0
        self.last_body: dict[str, _Sent] = {}
        self.dimensions = {"time-of-day": "酉时", "fog-tide": 2, "extinguished-lamps": 3, "guild-trust": 0}
        self.known_characters: list[str] = ["沈青灯", "老周"]
        self.affinity: dict[str, int] = {npc.name: 0 for npc in W.NPCS}
        self.llm_calls = 0
        self.completed_player_turns = 0
        self.memory: list[str] = []
        # (sha256, size, created_at, bytes): SQLite keeps a path, PostgreSQL the bytes (covel-db.md §5).
        self.media: list[tuple[str, int, str, bytes]] = []

    # -- static context ------------------------------------------------------------------------

    def _segments(self, scene: W.Scene) -> list[Segment]:
        d = self.dimensions
        sheet = js_stringify(
            {"name": self.cfg.player.name, "background": self.cfg.player.background,
             "goal": self.cfg.player.goal, **self.cfg.player.fields},
            indent=2,
        )
        profiles = "\n".join(
            f"- {npc.name} [{npc.kind}] | {npc.description} | 好感 {self.affinity[npc.name]:+d}"
            for npc in W.NPCS
            if npc.name in self.known_characters
        )
        memory = "\n".join(f"- {m}" for m in self.memory[-6:]) or "- （暂无）"
        return [
            Segment("static-dimensions", W.STATIC_DIMENSIONS, "system", audience="story",
                    volatility="session", provider_plugin_id="world-init"),
            Segment(
                "dimensions",
                "<world-dimensions>\n"
                f"时辰：{d['time-of-day']}\n雾潮高度：{d['fog-tide']}/10\n本季熄灭的寄灯：{d['extinguished-lamps']} 盏\n"
                f"守灯会信任：{d['guild-trust']:+d}\nValues are complete unless cut with …\n</world-dimensions>",
                "system", audience="story", volatility="turn", provider_plugin_id="world-init",
            ),
            Segment("dimension-rules", W.DIMENSION_RULES, "system", audience="self", volatility="session",
                    provider_plugin_id="world-init"),
            Segment(
                "dimension-values",
                "<dimension-values>\n" + "\n".join(f"{k}: {js_stringify(v)}" for k, v in d.items())
                + "\n</dimension-values>",
                "system", audience="self", volatility="turn", provider_plugin_id="world-init",
            ),
            Segment("memory-block", f"<memory-block>\n# 近期要点\n{memory}\n</memory-block>", "system",
                    audience="story", volatility="turn", provider_plugin_id="memory"),
            Segment(
                "character-sheets",
                f"<player-character>\n{sheet}\n</player-character>\n<character-profiles>\n{profiles}\n</character-profiles>",
                "system", audience="self", volatility="turn", provider_plugin_id="narrator",
            ),
            Segment("character-notes", W.CHARACTER_NOTES, "system", audience="story", volatility="session",
                    provider_plugin_id="character-blueprint"),
            Segment("affinity-format", "格式提醒：每行“角色名 变化 理由”，变化写成 +1 或 -2 这样的带符号整数。",
                    "post-history", audience="self", volatility="stable", provider_plugin_id="affinity"),
        ]

    def _lore(self) -> list[LoreEntry]:
        return [
            LoreEntry(W.LORE_BEFORE[0], "before_plugin", order=10),
            LoreEntry(W.LORE_BEFORE[1], "before_plugin", order=20),
            LoreEntry(W.LORE_AFTER[0], "after_plugin", order=10),
            LoreEntry(W.LORE_AT_DEPTH, "at_depth", order=0, depth=4, role="system"),
        ]

    # -- clock ---------------------------------------------------------------------------------

    def _advance(self, lo: int, hi: int) -> int:
        self.now += self.rng.randint(lo, hi)
        return self.now

    # -- usage ---------------------------------------------------------------------------------

    def _usage(self, key: str, model: str, body: dict, body_text: str, output_tokens: int, at: int) -> dict:
        """What the provider reports for one request, by the shipped rules table (the rules the
        analysis predicts with: minimum, granularity, breakpoints, TTL, tokenizer), so the demo
        never contradicts them. Tokens are counted with the rules' tokenizer; a request after the
        previous one's TTL reads nothing."""
        rules = default_rules().resolve(self.cfg.provider, self.cfg.protocol, model)

        def count(text: str) -> int:
            return count_exact(text, rules.tokenizer) if text else 0

        tokens = count(body_text)
        previous = self.last_body.get(key)
        if previous is not None and (at - previous.at) / 1000 > rules.ttl_seconds:
            previous = None  # expired
        if self.cfg.protocol == ANTHROPIC_MESSAGES:
            # Anthropic caches the prefix at each breakpoint of a request; a later request reads the
            # longest of those prefixes it repeats. The markers themselves are not content, so the
            # comparison runs on the body text with them removed.
            content, marks = anthropic_stream(body)
            marks = marks[: rules.max_breakpoints or 0]
            read = 0
            if previous is not None:
                shared = common_prefix_utf16(previous.text, content)
                read_at = max((m for m, n in zip(previous.marks, previous.mark_tokens)
                               if m <= shared and n >= rules.min_cacheable_tokens), default=0)
                read = count(content[:read_at])
            mark_tokens = tuple(count(content[:m]) for m in marks)
            last = max((n for n in mark_tokens if n >= rules.min_cacheable_tokens), default=0)
            write = max(0, last - read)
            self.last_body[key] = _Sent(content, tuple(marks), mark_tokens, tokens, None, at)
            return {"inputTokens": max(tokens, read + write), "outputTokens": output_tokens,
                    "cachedInputTokens": read, "cacheWriteInputTokens": write}
        content = prefix_text(body)
        cached = shared_tokens = 0
        if previous is not None:
            shared_tokens = count(content[: common_prefix_utf16(previous.text, content)])
            cached = automatic_cached(rules, shared_tokens, previous.tokens, previous.shared_tokens)
        self.last_body[key] = _Sent(content, (), (), tokens, shared_tokens if previous is not None else None, at)
        return {"inputTokens": max(tokens, cached), "outputTokens": output_tokens, "cachedInputTokens": cached}

    # -- one model call ------------------------------------------------------------------------

    def _tool_call_id(self) -> str:
        return self.cfg.tool_call_prefix + self.ids.hex(24)

    def _call(
        self,
        ex: Execution,
        rt: Runtime,
        kernel: list[dict],
        start_ms: int,
        *,
        text: str,
        tool_calls: list[dict],
        attempt: int = 0,
        http: str = "ok",
        fail: str | None = None,
    ) -> CallResult:
        """Emit one llm.calling / llm.responded pair; ``http`` is ok, 429 or 502 (both retried)."""
        spec = rt.spec
        slot = {"story": self.cfg.story, "plugin": self.cfg.plugin, "fast": self.cfg.fast}[rt.slot]
        tools = [TOOLS[name] for name in rt.tools]
        body = serialise(
            self.cfg.protocol, kernel, tools, model=slot.model,
            late_system_as_user=slot.late_system_as_user, cache_strategy=self.cfg.cache_strategy,
            max_tokens=rt.max_output_tokens, stream=rt.streaming,
            prompt_cache_key=prompt_cache_key_for(self.cfg.session_id, spec.runtime_id)
            if self.cfg.prompt_cache_key else None,
        )
        projected, complete, omitted = project_body(body, self.cfg.protocol)
        queue_wait = self.rng.randint(0, 40) if rt.stage == "post-turn" else None
        started = start_ms + (queue_wait or 0)
        entries = []
        t = started
        base = {"schemaVersion": 1, "provider": self.cfg.provider, "protocol": self.cfg.protocol,
                "body": projected, "complete": complete, "omittedFieldCount": omitted}
        if http in ("429", "502"):
            first = self.rng.randint(180, 900)
            entries.append({**base, "startedAt": iso_at(t), "durationMs": first, "transportAttempt": 0,
                            "logicalAttempt": attempt,
                            "transportRetryReason": "http-429" if http == "429" else "http-5xx",
                            "statusCode": int(http)})
            t += first + (self.rng.randint(1000, 2500) if http == "429" else self.rng.randint(300, 800))
            second = self.rng.randint(250, 1200)
            entries.append({"schemaVersion": 2, "provider": self.cfg.provider, "protocol": self.cfg.protocol,
                            "bodyRef": 0, "complete": complete, "omittedFieldCount": omitted,
                            "startedAt": iso_at(t), "durationMs": second, "transportAttempt": 1,
                            "logicalAttempt": attempt, "statusCode": 200 if http == "429" else 502})
            t += second
        else:
            headers = self.rng.randint(250, 1400)
            entries.append({**base, "startedAt": iso_at(started), "durationMs": headers, "transportAttempt": 0,
                            "logicalAttempt": attempt, "statusCode": 200})
            t += headers

        payload: dict[str, Any] = {"providerRequests": entries}
        if rt.defaults:
            payload["defaults"] = rt.defaults
        payload["maxOutputTokens"] = rt.max_output_tokens
        payload.update(
            runtimeId=spec.runtime_id, pluginId=spec.plugin_id, slot=slot.name, model=slot.model,
            provider=self.cfg.provider, messages=omit_image_data(kernel), tools=tools, attempt=attempt,
            startedAt=iso_at(started),
        )
        if queue_wait is not None:
            payload["queueWaitMs"] = queue_wait
        if rt.streaming:
            payload["streaming"] = True
        # The calling row is persisted once the transport attempts are known.
        ex.emit(t, "llm.calling", payload)
        self.llm_calls += 1

        if fail is not None:
            end = t + self.rng.randint(200, 4000)
            responded = {"runtimeId": spec.runtime_id, "pluginId": spec.plugin_id, "text": "", "toolCalls": [],
                         "usage": {"inputTokens": 0, "outputTokens": 0}, "finishReason": "error",
                         "error": fail, "durationMs": end - started, "attempt": attempt}
            if rt.streaming:
                responded["streaming"] = True
            ex.emit(end, "llm.responded", responded)
            return CallResult("", [], end, responded["usage"])

        output_tokens = covel_estimate(text) + sum(covel_estimate(c["arguments"]) for c in tool_calls) + 3
        usage = self._usage(spec.runtime_id, slot.model, projected, js_stringify(projected), output_tokens, started)
        per_token = 28 if rt.streaming else 12
        end = t + output_tokens * per_token + self.rng.randint(50, 600)
        responded = {"runtimeId": spec.runtime_id, "pluginId": spec.plugin_id, "text": text,
                     "toolCalls": tool_calls, "usage": usage,
                     "finishReason": "tool-calls" if tool_calls else "stop",
                     "durationMs": end - started, "attempt": attempt}
        if rt.streaming:
            responded["streaming"] = True
        ex.emit(end, "llm.responded", responded)
        return CallResult(text, tool_calls, end, usage)

    def _tool(self, ex: Execution, rt: Runtime, call: dict, output: Any, at: int) -> int:
        duration = self.rng.randint(3, 60)
        base = {"runtimeId": rt.spec.runtime_id, "pluginId": rt.spec.plugin_id,
                "toolName": call["name"], "toolCallId": call["id"]}
        ex.emit(at, "tool.calling", {**base, "input": js_parse_args(call)})
        ex.emit(at + duration, "tool.completed", {**base, "output": output, "durationMs": duration})
        self.out.add(
            "tool_calls", id=self.ids.uuid(), session_id=self.cfg.session_id, turn_id=ex.turn_id,
            tool_name=call["name"], plugin_id=rt.spec.plugin_id, runtime_id=rt.spec.runtime_id,
            input=call["arguments"], output=js_stringify(output), duration_ms=duration,
            approval_status="auto-approved", created_at=iso_at(at + duration),
        )
        return at + duration

    # -- assembly ------------------------------------------------------------------------------

    def _kernel(self, rt: Runtime, scene: W.Scene, player: str, *, history: list[dict], story: list[str],
                slots: dict | None, pictures: list[dict] | None = None, inject: list | None = None) -> list[dict]:
        spec = rt.spec if rt.spec.runtime_id != "narrator/main" else RuntimeSpec(
            **{**rt.spec.__dict__, "body": self.narrator_body})
        inp = AssemblyInput(
            locale="zh-CN", runtime=spec, segments=self._segments(scene), lore=self._lore(),
            world_lore=W.WORLD_LORE, event_catalog=W.EVENT_CATALOG, input_slots=slots,
            inject_blocks=inject or [], history=history, summaries=list(self.summaries),
            player_message=player, execution_story=story, pictures=pictures or [],
        )
        return assemble(inp).messages

    def _history_view(self) -> list[dict]:
        return [{"role": row["role"], "content": row["content"]} for row in self.history]

    # -- compaction ----------------------------------------------------------------------------

    def _history_tokens(self) -> int:
        return sum(row["tokens"] for row in self.history) + sum(covel_estimate(s.content) for s in self.summaries)

    def _maybe_compact(self, ex: Execution, at: int, force: bool) -> int:
        window = min(self.cfg.window, 64000)
        if not force and self._history_tokens() + 6000 < window * 0.6:
            return at
        # Protect the last two user turns (the player row starts each turn).
        user_rows = [i for i, row in enumerate(self.history) if row["role"] == "user"]
        if len(user_rows) < 3:
            return at
        cut = user_rows[-2]
        span = self.history[:cut]
        source_tokens = sum(row["tokens"] for row in span)
        max_total = max(128, min(8192, int(window * 0.12)))
        max_segment = max(128, min(2048, int(window * 0.04), max_total))
        budget = min(max_segment, max(128, math.ceil(source_tokens * 0.25)))
        content = self._summary_prose(budget)
        summary_id = self.ids.uuid()
        focus = ["剧情", "人物关系", "线索"]
        created = iso_at(at)
        new = Summary(summary_id, content, tuple(focus), created)
        merged: list[str] = []
        self.summaries.append(new)
        self.summary_ranges[summary_id] = [span[0]["turn_id"], span[-1]["turn_id"]]
        self.out.add("session_summaries", id=summary_id, session_id=self.cfg.session_id,
                     turn_range_start=span[0]["turn_id"], turn_range_end=span[-1]["turn_id"],
                     content=content, focus_sections=js_stringify(focus), created_at=created)
        self.out.flush()
        self.out.conn.executemany(
            "UPDATE turn_messages SET compacted_at_turn_id = ? WHERE id = ?",
            [(summary_id, row["id"]) for row in span],
        )
        # Merge the oldest segments while over the segment count or the total budget.
        while len(self.summaries) > 8 or sum(covel_estimate(s.content) for s in self.summaries) > max_total:
            keep, drop = self.summaries[0], self.summaries[1]
            merged.append(drop.id)
            merged_text = self._summary_prose(max_segment)
            kept = Summary(keep.id, merged_text, keep.focus_sections, keep.created_at)
            self.summaries[0:2] = [kept]
            self.summary_ranges[keep.id] = [self.summary_ranges[keep.id][0], self.summary_ranges.pop(drop.id)[1]]
            conn = self.out.conn
            conn.execute("UPDATE session_summaries SET content = ?, turn_range_end = ? WHERE id = ?",
                         (merged_text, self.summary_ranges[keep.id][1], keep.id))
            conn.execute("DELETE FROM session_summaries WHERE id = ?", (drop.id,))
            conn.execute("UPDATE turn_messages SET compacted_at_turn_id = ? WHERE compacted_at_turn_id = ?",
                         (keep.id, drop.id))
        summary_tokens = covel_estimate(content)
        ex.emit(at, "context.compacted", {
            "summaryId": summary_id,
            "summaryIds": [s.id for s in self.summaries],
            "messagesCompacted": len(span),
            "tokenSavings": max(0, source_tokens - summary_tokens),
            "focusSections": focus,
            "summariesMerged": len(merged),
            "summaryTokens": summary_tokens,
            "totalSummaryTokens": sum(covel_estimate(s.content) for s in self.summaries),
            "summaryTruncated": False,
        }, emitter=False)
        self.history = self.history[cut:]
        self.scenes_since_compaction = self.scenes_since_compaction[-2:]
        self.turns_since_compaction = 0
        return at + 1

    def _summary_prose(self, budget_tokens: int) -> str:
        scenes = self.scenes_since_compaction or [W.new_scene(self.rng)]
        parts = [W.summary_text(self.rng, scenes, self.turns_since_compaction or len(scenes))]
        while covel_estimate("".join(parts)) < budget_tokens * 0.8:
            parts.append(W.summary_text(self.rng, self.rng.sample(scenes, min(3, len(scenes))), len(scenes)))
        text = "".join(parts)
        while covel_estimate(text) > budget_tokens:
            text = text[: int(len(text) * 0.9)]
        return text

    # -- a player turn -------------------------------------------------------------------------

    def play(self) -> None:
        for turn in range(1, self.cfg.turns + 1):
            self._player_turn(turn)
        self.out.flush()

    def _flags(self, turn: int) -> dict[str, bool]:
        total = self.cfg.turns
        if not self.cfg.main:
            return {"skip": turn == 2, "model_retry": False, "http_429": False, "fail": False,
                    "image": self.cfg.protocol == ANTHROPIC_MESSAGES and turn == 3,
                    "prompt_edit": False, "compact": False}
        return {
            "skip": recurs(turn, F_SKIP, total) or recurs(turn, F_SKIP_AGAIN, total),
            "model_retry": recurs(turn, F_MODEL_RETRY, total),
            "http_429": recurs(turn, F_HTTP_429, total),
            "fail": recurs(turn, F_RUNTIME_FAIL, total),
            "image": recurs(turn, F_IMAGE, total),
            "prompt_edit": turn == min(F_PROMPT_EDIT, total),
            "compact": turn == min(F_COMPACT, total),
        }

    def _player_turn(self, turn: int) -> None:
        cfg, rng = self.cfg, self.rng
        f = self._flags(turn)
        scene = W.new_scene(rng)
        player = W.player_input(rng, scene)
        pictures: list[dict] = []
        if f["image"]:
            player = "我把随身带的那张旧画摊开给大家看（图片已上传）：" + player
            data = png_base64(rng)
            pictures = [{"type": "image", "image": data, "mediaType": "image/png"}]
        if f["prompt_edit"]:
            self.narrator_body = W.NARRATOR_BODY_V2
        turn_id = self.ids.uuid()
        ex = Execution(turn_id, turn_id if cfg.trace_is_turn else self.ids.uuid())
        emitter_only: list[str] = []
        t0 = self._advance(20_000, 140_000)
        for part in pictures:
            raw = base64.b64decode(part["image"])
            self.media.append((hashlib.sha256(raw).hexdigest(), len(raw), iso_at(t0), raw))
        runtimes = build_runtimes(self.narrator_body)
        self.out.add("interaction_records", id=self.ids.uuid(), session_id=cfg.session_id, turn_id=turn_id,
                     timestamp=iso_at(t0), source="player", channel="chat", type="message",
                     target_plugin_id=None, target_runtime_id=None,
                     payload=js_stringify({"text": player}), meta_data=None, created_at=iso_at(t0))
        ex.emit(t0, "turn.started", {"runtimeCount": len(runtimes)}, emitter=False)
        results: list[dict] = []

        # pre-turn: the guide reads a short window plus the summaries.
        guide = runtimes["guide/main"]
        t = t0 + rng.randint(2, 9)
        ex.emit(t, "runtime.started", {"runtimeId": "guide/main", "pluginId": "guide", "stage": "pre-turn"},
                emitter=False)
        hint = W.guide_hint(rng, scene)
        kernel = self._kernel(guide, scene, player, history=self._history_view(), story=[], slots=None)
        done = {"id": self._tool_call_id(), "name": "runtime-done",
                "arguments": js_stringify({"summary": hint.split("\n")[0]})}
        res = self._call(ex, guide, kernel, t + 1, text=hint, tool_calls=[done])
        t = res.end_ms + rng.randint(1, 8)
        ex.emit(t, "runtime.completed", {"runtimeId": "guide/main", "pluginId": "guide", "status": "success",
                                         "durationMs": t - t0}, emitter=False)
        results.append(self._result(guide, "success", hint, res.usage, t - t0))

        # narrative: the narrator; the shared-history compaction barrier runs before its request.
        narrator = runtimes["narrator/main"]
        n0 = t + rng.randint(0, 3)
        ex.emit(n0, "runtime.started", {"runtimeId": "narrator/main", "pluginId": "narrator",
                                        "stage": "narrative"}, emitter=False)
        t = self._maybe_compact(ex, n0 + rng.randint(40, 400), f["compact"])
        story = W.story_reply(rng, scene, self.scale)
        slots = {"guide": {"cardinality": "one", "value": hint,
                           "source": {"pluginId": "guide", "runtimeId": "guide/main"}}}
        kernel = self._kernel(narrator, scene, player, history=self._history_view(), story=[], slots=slots,
                              pictures=pictures)
        attempt = 0
        if f["model_retry"]:
            res = self._call(ex, narrator, kernel, t + 1, text="", tool_calls=[],
                             fail="stream interrupted: socket hang up")
            t = res.end_ms + rng.randint(500, 1500)
            attempt = 1
        res = self._call(ex, narrator, kernel, t + 1, text=story, tool_calls=[], attempt=attempt,
                         http="429" if f["http_429"] else "ok")
        t = res.end_ms
        ex.emit(t, "message.completed", {"runtimeId": "narrator/main", "pluginId": "narrator", "content": story,
                                         "len": len(story), "deltaCount": max(1, len(story) // 7)})
        t += rng.randint(0, 2)
        ex.emit(t, "runtime.completed", {"runtimeId": "narrator/main", "pluginId": "narrator",
                                         "status": "success", "durationMs": t - n0}, emitter=False)
        results.append(self._result(narrator, "success", story, res.usage, t - n0))
        emitter_only.append(story)

        # post-turn: three runtimes in one DAG level, started in the same millisecond.
        p0 = t + rng.randint(1, 4)
        history = self._history_view()
        ends = [p0]
        for rid in POST_TURN:
            ex.emit(p0, "runtime.started", {"runtimeId": rid, "pluginId": rid.split("/")[0],
                                            "stage": "post-turn"}, emitter=False)
        for rid in POST_TURN:
            rt = runtimes[rid]
            if rid == "affinity/main" and f["skip"]:
                ex.emit(p0 + rng.randint(0, 2), "runtime.skipped", {
                    "runtimeId": rid, "pluginId": "affinity", "stage": "post-turn",
                    "reason": "guard: 本回合没有与非玩家角色的实质互动"}, emitter=False)
                results.append({"runtimeId": rid, "pluginId": "affinity", "status": "skipped",
                                "reason": "guard"})
                continue
            end, result = self._post_turn(ex, rt, scene, player, history, story, p0,
                                          fail=rid == "world-init/dimension-tracker" and f["fail"])
            ends.append(end)
            results.append(result)

        # commit
        commit = max(ends) + rng.randint(5, 40)
        self._commit(ex, turn, player, story, results, commit, t0, scene)
        if f["fail"]:
            self._retry_failed(turn_id, player, story, scene, history)

    def _post_turn(self, ex: Execution, rt: Runtime, scene: W.Scene, player: str, history: list[dict],
                   story: str, p0: int, *, fail: bool, source: str | None = None) -> tuple[int, dict]:
        rng = self.rng
        rid, pid = rt.spec.runtime_id, rt.spec.plugin_id
        slot_name = "narrator-output" if rid == "affinity/main" else "narrative"
        slots = {slot_name: {"cardinality": "one", "value": story,
                             "source": {"pluginId": "narrator", "runtimeId": "narrator/main"}}}
        inject = [("known-characters", "、".join(self.known_characters))] if rid.startswith("char-creator") else None
        # A retry after commit projects no execution story: the story is already in history.
        exec_story = [] if source else [story]
        kernel = self._kernel(rt, scene, player, history=history, story=exec_story, slots=slots, inject=inject)
        t = p0 + rng.randint(1, 30)
        if rid == "char-creator/character-tracker":
            target = scene.npc if scene.npc.name not in self.known_characters else scene.second
            args = {"name": target.name, "type": "npc", "description": target.description,
                    "fields": {"性格": target.trait, "初次出场": scene.place}}
            call = {"id": self._tool_call_id(), "name": "character-upsert", "arguments": js_stringify(args)}
            res = self._call(ex, rt, kernel, t, text="", tool_calls=[call])
            created = target.name not in self.known_characters
            output = {"ok": True, "created": created, "name": target.name}
            t = self._tool(ex, rt, call, output, res.end_ms + 1)
            if created:
                self.known_characters.append(target.name)
            # The second step re-sends the request with the tool exchange appended.
            kernel2 = kernel + [
                {"role": "assistant", "content": None, "toolCalls": [call]},
                {"role": "tool", "content": js_stringify(output), "toolCallId": call["id"], "name": call["name"]},
            ]
            note = f"{'新建' if created else '更新'}了{target.name}的档案。"
            done = {"id": self._tool_call_id(), "name": "runtime-done", "arguments": js_stringify({"summary": note})}
            res2 = self._call(ex, rt, kernel2, t + rng.randint(2, 20), text=note, tool_calls=[done])
            end = res2.end_ms + 1
            usage = {k: res.usage.get(k, 0) + res2.usage.get(k, 0) for k in res2.usage}
            ex.emit(end, "runtime.completed", {"runtimeId": rid, "pluginId": pid, "status": "success",
                                               "durationMs": end - p0}, emitter=False)
            return end, self._result(rt, "success", {"summary": note, "toolCallList": [call["name"]]}, usage,
                                     end - p0)
        if rid == "world-init/dimension-tracker":
            if fail:
                res = self._call(ex, rt, kernel, t, text="", tool_calls=[], http="502",
                                 fail="Provider returned HTTP 502 Bad Gateway after 2 attempts")
                end = res.end_ms + 1
                error = "LLM call failed: Provider returned HTTP 502 Bad Gateway after 2 attempts"
                ex.emit(end, "runtime.failed", {"runtimeId": rid, "pluginId": pid, "error": error}, emitter=False)
                return end, {"runtimeId": rid, "pluginId": pid, "stage": "post-turn", "status": "failed",
                             "error": error, "durationMs": end - p0}
            d = self.dimensions
            order = ["卯时", "辰时", "午时", "申时", "酉时", "戌时", "亥时", "子时"]
            new_time = order[(order.index(d["time-of-day"]) + rng.randint(0, 2)) % len(order)]
            changes = [{"id": "time-of-day", "value": new_time}]
            fog = 0 if new_time == "卯时" else min(10, d["fog-tide"] + rng.randint(0, 2))
            if fog != d["fog-tide"]:
                changes.append({"id": "fog-tide", "value": fog})
            if rng.random() < 0.3:
                changes.append({"id": "extinguished-lamps", "value": d["extinguished-lamps"] + 1})
            call = {"id": self._tool_call_id(), "name": "dimension-update", "arguments": js_stringify({"changes": changes})}
            res = self._call(ex, rt, kernel, t, text="", tool_calls=[call])
            for change in changes:
                d[change["id"]] = change["value"]
            end = self._tool(ex, rt, call, {"ok": True, "applied": len(changes)}, res.end_ms + 1) + 1
            ex.emit(end, "runtime.completed", {"runtimeId": rid, "pluginId": pid, "status": "success",
                                               "durationMs": end - p0}, emitter=False)
            return end, self._result(rt, "success", {"changes": changes}, res.usage, end - p0)
        lines = W.affinity_lines(rng, scene)
        done = {"id": self._tool_call_id(), "name": "runtime-done", "arguments": js_stringify({"summary": lines})}
        res = self._call(ex, rt, kernel, t, text=lines, tool_calls=[done])
        for line in lines.split("\n"):
            name, delta, _ = line.split(" ", 2)
            self.affinity[name] += int(delta)
        end = res.end_ms + 1
        ex.emit(end, "runtime.completed", {"runtimeId": rid, "pluginId": pid, "status": "success",
                                           "durationMs": end - p0}, emitter=False)
        return end, self._result(rt, "success", lines, res.usage, end - p0)

    @staticmethod
    def _result(rt: Runtime, status: str, output: Any, usage: dict, duration: int) -> dict:
        return {"runtimeId": rt.spec.runtime_id, "pluginId": rt.spec.plugin_id, "stage": rt.stage,
                "status": status, "output": output, "usage": usage, "durationMs": duration}

    # -- commit and trace writing --------------------------------------------------------------

    def _write_trace(self, ex: Execution) -> None:
        seq = 0
        scope = ex.retry_scope
        for ev in sorted(ex.events, key=lambda e: (e.ms, e.order)):
            payload = ev.payload
            if ev.emitter:
                payload = {**payload, "flowId": ex.trace_id, "seq": seq}
                seq += 1
                if scope:
                    payload.update(scope)
            self.out.add("trace_events", id=self.ids.uuid(), session_id=self.cfg.session_id, type=ev.type,
                         trace_id=ex.trace_id, turn_id=ex.turn_id, payload=js_stringify(payload),
                         created_at=iso_at(ev.ms))
        self.now = max(self.now, max(ev.ms for ev in ex.events))

    def _commit(self, ex: Execution, turn: int, player: str, story: str, results: list[dict], commit: int,
                t0: int, scene: W.Scene) -> None:
        cfg = self.cfg
        created = iso_at(commit)
        ex.emit(commit, "turn.completed", {"durationMs": commit - t0, "resultCount": len(results),
                                           "committed": True}, emitter=False)
        self._write_trace(ex)
        tr_id = self.ids.uuid()
        self.out.add("turn_results", id=tr_id, session_id=cfg.session_id, turn_id=ex.turn_id,
                     runtime_results=js_stringify(results), conflicts=js_stringify([]), audit_result=None,
                     origin="player", parent_turn_id=None, retry_scope=None, commit_status="committed",
                     duration_ms=commit - t0, created_at=iso_at(t0))
        rows = [
            ("player", None, None, "user", None, player, 0),
            ("runtime", "narrator", "narrator/main", "assistant", "narrator/main", story, STAGE_RANK["narrative"]),
        ]
        for source_type, plugin, runtime, role, name, content, order in rows:
            row_id = self.ids.uuid()
            self.out.add("turn_messages", id=row_id, session_id=cfg.session_id, turn_id=ex.turn_id,
                         source_type=source_type, source_plugin_id=plugin, source_runtime_id=runtime, role=role,
                         name=name, content=content, ui=None, pending_input=None, order=order, created_at=created,
                         compacted_at_turn_id=None)
            self.history.append({"id": row_id, "turn_id": ex.turn_id, "role": role, "content": content,
                                 "tokens": covel_estimate(content)})
        self.out.add("messages", id=self.ids.uuid(), session_id=cfg.session_id, role="user", content=player,
                     metadata=js_stringify({"turnId": ex.turn_id, "kind": "player"}), created_at=created)
        self.out.add("messages", id=self.ids.uuid(), session_id=cfg.session_id, role="assistant", content=story,
                     metadata=js_stringify({"turnId": ex.turn_id, "runtimeId": "narrator/main",
                                            "pluginId": "narrator", "kind": "narrative"}), created_at=created)
        for result in results:
            if result["status"] != "success":
                continue
            meta = {"stage": result["stage"], "durationMs": result["durationMs"]}
            output = result["output"]
            if isinstance(output, dict) and "toolCallList" in output:
                meta["toolCallList"] = output["toolCallList"]
            self.out.add("runtime_outputs", id=self.ids.uuid(), session_id=cfg.session_id, turn_id=ex.turn_id,
                         runtime_result_id=tr_id, plugin_id=result["pluginId"], runtime_id=result["runtimeId"],
                         timestamp=created, results=js_stringify([output]), meta_data=js_stringify(meta),
                         created_at=created)
        self.out.add("logical_turn_ledger", session_id=cfg.session_id, logical_turn_id=self.ids.uuid(),
                     completed_by_execution_id=ex.turn_id, completed_at=created)
        self.completed_player_turns += 1
        self.scenes_since_compaction.append(scene)
        self.turns_since_compaction += 1
        self.memory.append(f"{scene.time}在{scene.place}见到{scene.npc.name}")
        self.now = max(self.now, commit)

    def _retry_failed(self, source_turn: str, player: str, story: str, scene: W.Scene, history: list[dict]) -> None:
        """The player pressed "retry failed runtimes": a new execution re-runs only those."""
        rid = "world-init/dimension-tracker"
        turn_id = self.ids.uuid()
        scope = {"sourceTurnId": source_turn, "runtimeIds": [rid], "sourceCommitted": True,
                 "sourceFailedRuntimeIds": [rid]}
        ex = Execution(turn_id, turn_id if self.cfg.trace_is_turn else self.ids.uuid(), retry_scope=scope)
        t0 = self._advance(8_000, 30_000)
        ex.emit(t0, "turn.started", {"runtimeCount": 1, "recoveryAction": {
            "type": "retry_failed_runtimes", "payload": {"runtimeIds": [rid], "retryFromTurnId": source_turn}}},
            emitter=False)
        rt = build_runtimes(self.narrator_body)[rid]
        p0 = t0 + self.rng.randint(2, 10)
        ex.emit(p0, "runtime.started", {"runtimeId": rid, "pluginId": "world-init", "stage": "post-turn"},
                emitter=False)
        end, result = self._post_turn(ex, rt, scene, player, history, story, p0, fail=False, source=source_turn)
        commit = end + self.rng.randint(5, 30)
        ex.emit(commit, "turn.completed", {"durationMs": commit - t0, "resultCount": 1, "committed": True},
                emitter=False)
        self._write_trace(ex)
        tr_id = self.ids.uuid()
        self.out.add("turn_results", id=tr_id, session_id=self.cfg.session_id, turn_id=turn_id,
                     runtime_results=js_stringify([result]), conflicts=js_stringify([]), audit_result=None,
                     origin="manual", parent_turn_id=None, retry_scope=js_stringify(scope),
                     commit_status="committed", duration_ms=commit - t0, created_at=iso_at(t0))
        self.out.add("runtime_outputs", id=self.ids.uuid(), session_id=self.cfg.session_id, turn_id=turn_id,
                     runtime_result_id=tr_id, plugin_id="world-init", runtime_id=rid, timestamp=iso_at(commit),
                     results=js_stringify([result["output"]]),
                     meta_data=js_stringify({"stage": "post-turn", "durationMs": result["durationMs"]}),
                     created_at=iso_at(commit))
        self.now = max(self.now, commit)


def js_parse_args(call: dict) -> Any:
    return js_parse(call["arguments"])
