"""Golden cases for the prompt-prefix report: small covel.db-shaped databases, adversarially chosen.

Each case is a list of ``trace_events`` rows whose payload is written as an exact string (so the
test controls every byte JSON.parse sees: escapes, number spellings, key order, duplicate keys),
plus the command lines to run on it. The expected outputs under ``cases/<name>/`` are the stdout
bytes of Covel's own ``scripts/prompt-prefix-report.mjs`` (commit 8d4461f0) run on the same
database; the tests never need Node.

    python tests/inspector/prefix/make_cases.py            # (re)write cases/<name>/rows.json
    python tests/inspector/prefix/make_cases.py --reference "node /path/to/prompt-prefix-report.mjs"
                                                           # ... and the expected.*.txt files

The reference script needs ``node:sqlite`` (Node 22+), or on older Node the ``DatabaseSync``
shim next to this file (``node_sqlite_shim.mjs``, over better-sqlite3, giving the values
node:sqlite gives); the script itself is never copied into this repository::

    npm install --prefix /tmp/covel better-sqlite3@12
    git -C <covel mirror> show 8d4461f0:scripts/prompt-prefix-report.mjs > /tmp/covel/prompt-prefix-report.mjs
    python tests/inspector/prefix/make_cases.py --reference "env COVEL_SHIM_MODULES=/tmp/covel node \
        --import tests/inspector/prefix/node_sqlite_shim.mjs /tmp/covel/prompt-prefix-report.mjs"

Column values need not be what Covel writes: a row's ``id``, ``session``, ``turn``, ``payload``,
``created_at`` and ``seq`` may be a string (TEXT), an integer, null, or a typed value
``{"blob": "<hex>"}`` (a BLOB), ``{"text_hex": "<hex>"}`` (TEXT holding exactly these bytes,
invalid UTF-8 included) or ``{"real": 1.5}``. A case may name a ``schema`` other than Covel's
(``SCHEMAS``): ``loose`` has untyped, nullable columns (so an integer stays an integer and a
session may be NULL), ``indexed`` adds Covel's indexes (so SQLite's plans use them).

Where Covel's script throws (JSON.parse of a payload that is not JSON, a BLOB payload, an
integer past 2**53, JSON.stringify of a value nested about 5,000 levels deep) there is no golden
output; those inputs are tested in test_edges.py instead.

Runs whose name contains ``json`` only: Covel's table printer calls ``runtimeId.padEnd`` and so
throws on an entry whose ``runtimeId`` is not a string; for such cases only ``--json`` is golden.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

CASES_DIR = Path(__file__).with_name("cases")

SCHEMA = """
CREATE TABLE trace_events (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    type TEXT NOT NULL,
    trace_id TEXT NOT NULL,
    turn_id TEXT NOT NULL,
    payload TEXT,
    created_at TEXT NOT NULL,
    seq INTEGER NOT NULL
)
"""

LOOSE_SCHEMA = """
CREATE TABLE trace_events (
    id PRIMARY KEY, session_id, type TEXT NOT NULL, trace_id, turn_id, payload, created_at, seq
)
"""

# Covel's newest indexes (covel-db.md §1.3).
COVEL_INDEXES = """
CREATE INDEX trace_events_session_id_idx ON trace_events (session_id);
CREATE INDEX trace_events_type_idx ON trace_events (session_id, type, created_at);
CREATE INDEX trace_events_trace_id_idx ON trace_events (session_id, trace_id);
CREATE INDEX trace_events_turn_id_idx ON trace_events (session_id, turn_id);
CREATE INDEX trace_events_created_idx ON trace_events (session_id, created_at, seq);
"""

SCHEMAS = {"covel": SCHEMA, "loose": LOOSE_SCHEMA, "indexed": SCHEMA + ";" + COVEL_INDEXES}

STANDARD_RUNS = {"json": ["--json"], "table": []}

_COLUMNS = ("id", "session_id", "type", "trace_id", "turn_id", "payload", "created_at", "seq")


def _sql_value(value: Any) -> tuple[str, Any]:
    """A row value as (placeholder, parameter): see the module docstring for the typed forms."""
    if isinstance(value, dict):
        if "blob" in value:
            return "?", bytes.fromhex(value["blob"])
        if "text_hex" in value:
            return "CAST(? AS TEXT)", bytes.fromhex(value["text_hex"])
        if "real" in value:
            return "?", float(value["real"])
        raise ValueError(f"unknown typed value {value!r}")
    return "?", value


def write_db(path: Path | str, rows: list[dict[str, Any]], schema: str = "covel") -> None:
    """Create a covel.db-shaped SQLite file holding ``rows`` (payloads stored verbatim)."""
    conn = sqlite3.connect(path)
    try:
        conn.executescript(SCHEMAS[schema])
        for row in rows:
            turn = row["turn"]
            values = (
                row["id"],
                row["session"],
                row.get("type", "llm.calling"),
                row.get("trace", "trace-" + turn if isinstance(turn, str) else "trace"),
                turn,
                row["payload"],
                row["created_at"],
                row["seq"],
            )
            marks, params = zip(*(_sql_value(v) for v in values))
            conn.execute(f"INSERT INTO trace_events ({', '.join(_COLUMNS)}) VALUES ({', '.join(marks)})", params)
        conn.commit()
    finally:
        conn.close()


# --- helpers for writing cases ---------------------------------------------------------------

def j(value: Any) -> str:
    """Compact JSON with raw non-ASCII (the way Covel's SQLite store writes payloads)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def ts(n: int) -> str:
    return f"2025-03-01T10:{n // 60:02d}:{n % 60:02d}.000Z"


class Rows:
    """Collects rows; every row gets a unique id and, by default, its own created_at."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []
        self.clock = 0

    def add(self, session: Any, turn: Any, payload: Any, *, at: int | None = None, seq: Any = None,
            type: str = "llm.calling", id: Any = None, created_at: Any = None) -> None:
        if at is None:
            self.clock += 1
            at = self.clock
        self.rows.append({
            "id": f"ev-{len(self.rows) + 1:03d}" if id is None else id,
            "session": session,
            "turn": turn,
            "type": type,
            "created_at": ts(at) if created_at is None else created_at,
            "seq": len(self.rows) + 1 if seq is None else seq,
            "payload": payload,
        })


def tool(name: str, description: str = "", **params: Any) -> dict:
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description or f"The {name} tool.",
            "parameters": {"type": "object", "properties": params or {"value": {"type": "string"}}},
        },
    }


def kernel(runtime: Any, messages: list, tools: list | None = None, **extra: Any) -> str:
    payload: dict[str, Any] = {"runtimeId": runtime, "stage": "main"}
    if tools is not None:
        payload["tools"] = tools
    payload["messages"] = messages
    payload.update(extra)
    return j(payload)


def provider(runtime: Any, body: Any, *, before: list | None = None, after: list | None = None,
             messages: list | None = None, tools: list | None = None) -> str:
    """A v2 llm.calling payload whose providerRequests carry ``body`` (plus other entries)."""
    requests = list(before or []) + [{"provider": "p", "url": "https://example.invalid/v1", "body": body}]
    requests += list(after or [])
    payload: dict[str, Any] = {"runtimeId": runtime, "providerRequests": requests}
    if tools is not None:
        payload["tools"] = tools
    payload["messages"] = messages if messages is not None else [{"role": "user", "content": "kernel view"}]
    return j(payload)


LONG_SYSTEM = (
    "You are the tracker of a role-play world. Keep the state table exact; write one row per change. "
    "Never invent rows; copy values verbatim. "
) * 6


# --- the cases -------------------------------------------------------------------------------

def case_spec_tracker() -> dict:
    r = Rows()
    write = [tool("write", "Write rows.", rows={"type": "array"})]
    first = {"role": "system", "content": LONG_SYSTEM}
    r.add("s1", "t1", kernel("tracker", [first, {"role": "system", "content": "rows: a\ninputs: one"}], write))
    r.add("s1", "t1", kernel("tracker", [first, {"role": "system", "content": "rows: a\ninputs: one"},
                                         {"role": "user", "content": "tool loop step"}], write))
    r.add("s1", "t2", kernel("tracker", [first, {"role": "system", "content": "rows: a\ninputs: two"}], write))
    return {"rows": r.rows, "runs": {**STANDARD_RUNS, "show": ["--show", "tracker"]}}


def case_spec_swapped_tools() -> dict:
    r = Rows()
    read, write = tool("read", "Read rows."), tool("write", "Write rows.")
    msgs = [{"role": "system", "content": "same"}]
    r.add("s1", "t1", kernel("tracker", msgs, [read, write]))
    r.add("s1", "t2", kernel("tracker", msgs, [write, read]))
    return {"rows": r.rows, "runs": {**STANDARD_RUNS, "show": ["--show", "tracker"]}}


def case_openai_chat() -> dict:
    r = Rows()
    tools = [tool("roll_dice", "Roll dice.", sides={"type": "integer"}), tool("move", "Move the player.")]
    system = {"role": "system", "content": "You narrate a dungeon. Be terse.\nRules: stay in character."}
    h = [system, {"role": "user", "content": "I open the door."}]
    body = lambda msgs: {"model": "gpt-4o", "messages": msgs, "tools": tools, "stream": True, "temperature": 0.7}
    r.add("s1", "t1", provider("narrator", body(h)))
    call = {"role": "assistant", "content": None,
            "tool_calls": [{"id": "call_1", "type": "function",
                            "function": {"name": "roll_dice", "arguments": "{\"sides\":20}"}}]}
    r.add("s1", "t1", provider("narrator", body(h + [call, {"role": "tool", "tool_call_id": "call_1",
                                                               "content": "17"}])))
    r.add("s1", "t1", provider("tracker", {"model": "gpt-4o-mini", "messages": [{"role": "system", "content": "track"}]}))
    h2 = h + [{"role": "assistant", "content": "The door creaks open."}, {"role": "user", "content": "I go in."}]
    r.add("s1", "t2", provider("narrator", body(h2)))
    h3 = h2 + [{"role": "assistant", "content": [{"type": "text", "text": "Darkness."}]},
               {"role": "user", "content": [{"type": "text", "text": "Light a torch."},
                                            {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]}]
    r.add("s1", "t3", provider("narrator", body(h3)))
    # The system prompt changes in turn 4: the difference is in message 1.
    h4 = [{"role": "system", "content": system["content"].replace("terse", "verbose")}] + h3[1:]
    r.add("s1", "t4", provider("narrator", body(h4)))
    return {"rows": r.rows, "runs": {**STANDARD_RUNS, "show": ["--show", "narrator"]}}


def case_anthropic_system() -> dict:
    r = Rows()
    tools = [{"name": "lookup", "description": "Look up lore.",
              "input_schema": {"type": "object", "properties": {"q": {"type": "string"}}}},
             {"name": "note", "description": "Take a note.", "input_schema": {"type": "object"},
              "cache_control": {"type": "ephemeral"}}]

    def body(dynamic: str, marker_on_static: bool, msgs: list) -> dict:
        static = {"type": "text", "text": "World bible: the city of Vael. " * 5}
        if marker_on_static:
            static["cache_control"] = {"type": "ephemeral"}
        return {"model": "claude-sonnet-4", "max_tokens": 1024, "tools": tools,
                "system": [static, {"type": "text", "text": dynamic}], "messages": msgs}

    m1 = [{"role": "user", "content": [{"type": "text", "text": "Where am I?", "cache_control": {"type": "ephemeral"}}]}]
    r.add("s1", "t1", provider("narrator", body("Turn 1. Time: dawn.", True, m1)))
    m2 = [{"role": "user", "content": [{"type": "text", "text": "Where am I?"}]},
          {"role": "assistant", "content": [{"type": "text", "text": "In Vael."}]},
          {"role": "user", "content": "Look around."}]
    r.add("s1", "t2", provider("narrator", body("Turn 2. Time: dawn.", True, m2)))
    r.add("s1", "t3", provider("narrator", body("Turn 2. Time: dawn.", False, m2)))
    r.add("s1", "t4", provider("narrator", {"model": "claude", "system": "plain string system", "messages": m2}))
    r.add("s1", "t5", provider("narrator", {"model": "claude", "system": "", "messages": m2}))
    return {"rows": r.rows, "runs": {**STANDARD_RUNS, "show": ["--show", "narrator"]}}


def case_responses_api() -> dict:
    r = Rows()
    tools = [{"type": "function", "name": "search", "parameters": {"type": "object"}, "strict": True}]
    items = [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Find the key."}]},
             {"type": "function_call", "call_id": "c1", "name": "search", "arguments": "{\"q\":\"key\"}"},
             {"type": "function_call_output", "call_id": "c1", "output": "under the mat"}]
    body = lambda ins, inp: {"model": "gpt-5", "instructions": ins, "input": inp, "tools": tools,
                             "reasoning": {"effort": "low"}}
    r.add("s1", "t1", provider("agent", body("Be helpful.", items[:1])))
    r.add("s1", "t2", provider("agent", body("Be helpful.", items)))
    r.add("s1", "t3", provider("agent", body("Be helpful!", items + [{"role": "user", "content": "thanks"}])))
    r.add("s1", "t4", provider("agent", {"model": "gpt-5", "instructions": ["not", "a string"], "input": items}))
    r.add("s1", "t5", provider("agent", {"model": "gpt-5", "instructions": None, "input": "a string input"
                                         if False else items}))
    return {"rows": r.rows, "runs": {**STANDARD_RUNS, "show": ["--show", "agent"]}}


def case_gemini() -> dict:
    r = Rows()
    tools = [{"functionDeclarations": [{"name": "roll", "parameters": {"type": "OBJECT"}}]}]
    contents = [{"role": "user", "parts": [{"text": "Roll for me."}]},
                {"role": "model", "parts": [{"functionCall": {"name": "roll", "args": {"n": 2}}}]},
                {"role": "user", "parts": [{"functionResponse": {"name": "roll", "response": {"v": [3, 5]}}}]}]
    body = lambda sys_text, c: {"contents": c, "systemInstruction": {"parts": [{"text": sys_text}]},
                                "tools": tools, "generationConfig": {"temperature": 1.0, "topP": 0.95}}
    r.add("s1", "t1", provider("gm", body("You are the GM.", contents[:1])))
    r.add("s1", "t2", provider("gm", body("You are the GM.", contents)))
    # Only systemInstruction changes: not part of the compared text, so "(identical)".
    r.add("s1", "t3", provider("gm", body("You are a different GM.", contents)))
    r.add("s1", "t4", provider("gm", body("x", contents[:2])))
    return {"rows": r.rows, "runs": {**STANDARD_RUNS, "show": ["--show", "gm"]}}


def case_kernel_only() -> dict:
    r = Rows()
    tools = [tool("a"), {"name": "plain"}, {"function": {"description": "nameless"}}]
    msgs = [{"role": "system", "content": "kernel system"}, {"role": "user", "content": "hello"}]
    r.add("s1", "t1", kernel("k", msgs, tools))
    r.add("s1", "t2", j({"runtimeId": "k", "providerRequests": [], "tools": tools, "messages": msgs + [
        {"role": "assistant", "content": "hi"}]}))
    r.add("s1", "t3", j({"runtimeId": "k", "providerRequests": None, "tools": tools, "messages": msgs}))
    r.add("s1", "t4", j({"runtimeId": "k", "messages": msgs}))
    r.add("s1", "t5", j({"runtimeId": "k"}))
    r.add("s1", "t6", j({"runtimeId": "k", "tools": None, "messages": None}))
    return {"rows": r.rows, "runs": {**STANDARD_RUNS, "show": ["--show", "k"]}}


def case_body_ref() -> dict:
    """find() takes the first providerRequests entry whose body is truthy."""
    r = Rows()
    kmsgs = [{"role": "user", "content": "kernel view"}]
    body = {"messages": [{"role": "user", "content": "from the body"}], "tools": [tool("b")]}
    ref = {"provider": "p", "bodyRef": {"sha256": "ab" * 32, "bytes": 1234}}
    # Runtime "r1": bodyRef first, then the body; then body before a bodyRef.
    r.add("s1", "t1", provider("r1", body, before=[ref]))
    r.add("s1", "t2", provider("r1", body, after=[ref]))
    # Falsy bodies are skipped: "", 0, false, null; the later real body is used.
    r.add("s1", "t3", provider("r1", body, before=[{"body": ""}, {"body": 0}, {"body": False}, {"body": None},
                                                 {"body": -0.0}, None, "str", 5, [], {}]))
    # Truthy non-objects and empty objects are taken: their tools/messages are absent, so the
    # kernel's payload.tools / payload.messages are used.
    for turn, odd in (("t4", {}), ("t5", []), ("t6", "text body"), ("t7", 1), ("t8", True), ("t9", [1, 2]),
                      ("t10", {"messages": None})):
        r.add("s1", turn, provider("r1", odd, after=[{"body": body}], messages=kmsgs, tools=[tool("k")]))
    # Only bodyRef entries: the kernel view.
    r.add("s1", "t11", j({"runtimeId": "r1", "providerRequests": [ref, ref], "messages": kmsgs}))
    r.add("s1", "t12", j({"runtimeId": "r1", "providerRequests": [{"body": "0"}], "messages": kmsgs}))
    return {"rows": r.rows, "runs": {**STANDARD_RUNS, "show": ["--show", "r1"]}}


def case_fallthrough() -> dict:
    """``??`` chains: null falls through, everything else (even [] or "") stops the chain."""
    r = Rows()
    inp = [{"role": "user", "content": "from input"}]
    cont = [{"role": "user", "parts": [{"text": "from contents"}]}]
    r.add("s1", "t1", provider("f", {"messages": None, "input": inp}))
    r.add("s1", "t2", provider("f", {"messages": None, "input": None, "contents": cont}))
    r.add("s1", "t3", provider("f", {"messages": None, "input": None, "contents": None}))
    r.add("s1", "t4", provider("f", {"messages": [], "input": inp}))
    r.add("s1", "t5", provider("f", {"tools": None, "messages": inp}, tools=[tool("payload_tool")]))
    r.add("s1", "t6", provider("f", {"tools": [], "messages": inp}, tools=[tool("payload_tool")]))
    r.add("s1", "t7", provider("f", {"system": None, "instructions": 5, "input": inp}))
    r.add("s1", "t8", provider("f", {"system": {"text": "object system"}, "instructions": "", "input": inp}))
    return {"rows": r.rows, "runs": {**STANDARD_RUNS, "show": ["--show", "f"]}}


def case_non_string_content() -> dict:
    r = Rows()
    msgs1 = [
        {"role": "system", "content": "s"},
        {"role": "user", "content": [{"type": "text", "text": "array content"}]},
        {"role": "assistant", "content": None, "tool_calls": []},
        {"role": "user", "content": 0},
        {"role": "user", "content": {"text": "object"}},
        {"role": "user", "content": True},
        None,
        "bare string message",
        42,
        [1, "two"],
        {"type": "only_type"},
        {"role": None, "type": "typed"},
        {"role": "", "content": "empty role"},
        {"role": 5, "content": "numeric role"},
        {"role": 1.0, "content": "float role"},
        {"role": {"x": 1}, "content": "object role"},
        {"role": [1, [2, None], "x"], "content": "array role"},
        {"role": False, "content": "false role"},
        {"content": "no role"},
    ]
    tools = [{"function": {"name": 1.5}}, {"function": {"name": None}, "name": "outer"}, {"name": False},
             {"function": "str"}, None, "tool string", {"function": {"name": ""}}, {"function": {"name": [1, 2]}}]
    r.add("s1", "t1", kernel("c", msgs1, tools))
    msgs2 = msgs1[:3] + [{"role": "user", "content": 1}] + msgs1[4:]
    r.add("s1", "t2", kernel("c", msgs2, tools))
    msgs3 = msgs2[:-1] + [{"content": "no role!"}]
    r.add("s1", "t3", kernel("c", msgs3, tools))
    return {"rows": r.rows, "runs": {**STANDARD_RUNS, "show": ["--show", "c"]}}


def case_unicode_cjk() -> dict:
    r = Rows()
    sys_zh = "你是一个角色扮演游戏的叙述者。请用中文回答，保持简洁。" * 3
    msgs = lambda last: [{"role": "system", "content": sys_zh}, {"role": "user", "content": last}]
    r.add("s1", "t1", kernel("叙事者", msgs("我打开门。🚪 안녕하세요 ＡＢＣ")))
    r.add("s1", "t2", kernel("叙事者", msgs("我打开门。🚪 안녕하세요 ＡＢＤ")))
    # Range boundaries of the CJK estimate: U+2E7F/U+2E80, U+9FFF/U+A000, U+ABFF/U+AC00,
    # U+D7AF/U+D7B0, U+F8FF/U+F900, U+FAFF/U+FB00, and an astral ideograph (U+20000, not counted).
    edges = "\u2e7f\u2e80\u9fff\ua000\uabff\uac00\ud7af\ud7b0\uf8ff\uf900\ufaff\ufb00\U00020000"
    r.add("s1", "t3", kernel("叙事者", msgs(edges)))
    r.add("s1", "t4", kernel("叙事者", msgs(edges + "中")))
    r.add("s1", "t5", kernel("叙事者", [{"role": "system", "content": sys_zh[:-1] + "！"}]))
    return {"rows": r.rows, "runs": {**STANDARD_RUNS, "show": ["--show", "叙事者"]}}


def case_surrogates() -> dict:
    """Differences inside surrogate pairs, lone surrogates (JSON escapes), context cut mid-pair."""
    r = Rows()
    pad = "x" * 39
    # 😀 U+1F600 and 😁 U+1F601 share the high surrogate D83D: the offset stops between the halves.
    r.add("s1", "t1", kernel("sur", [{"role": "user", "content": pad + "\U0001F600 tail"}]))
    r.add("s1", "t2", kernel("sur", [{"role": "user", "content": pad + "\U0001F601 tail"}]))
    # 😀 vs 🙀 (U+1F640, also D83D) after 40 emoji: the context start (offset-40) falls mid-pair.
    emo = "\U0001F389" * 30
    r.add("s1", "t3", kernel("sur", [{"role": "user", "content": emo + "\U0001F600" + emo}]))
    r.add("s1", "t4", kernel("sur", [{"role": "user", "content": emo + "\U0001F640" + emo}]))
    # Lone surrogates written as escapes; a lone high surrogate against an astral character
    # with the same high surrogate; a lone low surrogate; a reversed pair.
    r.add("s1", "t5", '{"runtimeId":"sur","messages":[{"role":"user","content":"ab\\ud83d!"}]}')
    r.add("s1", "t6", '{"runtimeId":"sur","messages":[{"role":"user","content":"ab\\ud83d\\ude00!"}]}')
    r.add("s1", "t7", '{"runtimeId":"sur","messages":[{"role":"user","content":"ab\\ud83d"}]}')
    r.add("s1", "t8", '{"runtimeId":"sur","messages":[{"role":"user","content":"ab\\ude00\\ud83d\\ud800"}]}')
    r.add("s1", "t9", '{"runtimeId":"sur","messages":[{"role":"user","content":"ab\\ude00\\ud83d\\udbff"}]}')
    # Lone surrogates inside JSON-stringified parts (tool JSON) and in labels (printed raw: U+FFFD).
    r.add("s1", "t10", '{"runtimeId":"sur","tools":[{"name":"t\\udc00","k\\ud800":"v"}],'
                       '"messages":[{"role":"r\\ud800","content":["\\udfff"]}]}')
    r.add("s1", "t11", '{"runtimeId":"sur","tools":[{"name":"t\\udc00","k\\ud800":"w"}],'
                       '"messages":[{"role":"r\\ud800","content":["\\udfff"]}]}')
    r.add("s1", "t12", '{"runtimeId":"sur","tools":[{"name":"t\\udc00","k\\ud800":"w"}],'
                       '"messages":[{"role":"r\\ud800","content":["\\udffe"]}]}')
    # Escaped pairs are whole characters after JSON.parse: same text as the raw emoji.
    r.add("s1", "t13", '{"runtimeId":"sur","messages":[{"role":"user","content":"\\ud83d\\ude00"}]}')
    r.add("s1", "t14", j({"runtimeId": "sur", "messages": [{"role": "user", "content": "\U0001F600"}]}))
    return {"rows": r.rows, "runs": {**STANDARD_RUNS, "show": ["--show", "sur"]}}


def case_control_chars() -> dict:
    r = Rows()
    ctrl = "".join(chr(c) for c in range(0x20)) + "\x7f\u2028\u2029\ufeff\"\\/\u0085"
    r.add("s1", "t1", kernel("ctl", [{"role": "user", "content": "A" + ctrl}], [{"name": "t", "d": ctrl}]))
    r.add("s1", "t2", kernel("ctl", [{"role": "user", "content": "A" + ctrl + "\t"}], [{"name": "t", "d": ctrl}]))
    r.add("s1", "t3", kernel("ctl", [{"role": "user", "content": "A" + ctrl}], [{"name": "t", "d": ctrl + "\n"}]))
    r.add("s1", "t4", kernel("ctl", [{"role": "user\u2028\n\"q\"", "content": ctrl}], [{"name": "t", "d": ctrl}]))
    return {"rows": r.rows, "runs": {**STANDARD_RUNS, "show": ["--show", "ctl"]}}


def case_numbers_and_keys() -> dict:
    """JSON.stringify of parsed numbers and objects: the spelling in the payload is not kept."""
    r = Rows()
    big_digits = "9" * 5000  # past Python's default int-parsing limit; JavaScript reads Infinity
    numbers = (
        '{"b":1,"2":0,"10":1,"4294967294":2,"4294967295":3,"01":4,"-1":5," 1":6,"1.5":7,"a":8,"a":9,'
        '"__proto__":10,"constructor":11,'
        '"n":[1.0,1e21,1E21,1e20,1e-7,1e-6,0.000001,0.1,0.1e1,1E+2,100e-2,2.5e-5,12345678901234567890,'
        '-0,-0.0,1e400,-1e400,5e-324,1.7976931348623157e308,123456789012345678901234567890,'
        '9007199254740993,-9223372036854775809,18446744073709551616,0.30000000000000004,123456789012345680000,'
        '1.23e-300,4.35,0.5e-6,' + big_digits + ']}'
    )
    tools = '[{"name":"nums","parameters":' + numbers + '},{"name":"other","x":{"3":3,"1":1,"z":0,"0":0}}]'
    msgs = '[{"role":"user","content":"q"}]'
    r.add("s1", "t1", '{"runtimeId":"num","tools":' + tools + ',"messages":' + msgs + '}')
    r.add("s1", "t2", '{"runtimeId":"num","tools":' + tools + ',"messages":[{"role":"user","content":"r"}]}')
    # Same values, other spellings and a different duplicate-key history: identical text.
    tools_b = tools.replace('"a":8,"a":9', '"a":7,"a":9').replace("1.0,1e21", "1,1000000000000000000000")
    r.add("s1", "t3", '{"runtimeId":"num","tools":' + tools_b + ',"messages":[{"role":"user","content":"r"}]}')
    r.add("s1", "t4", '{"runtimeId":"num","tools":[{"name":"other","x":{"1":1,"0":0}}],"messages":[]}')
    r.add("s1", "t5", '{"runtimeId":"num","tools":[{"name":"other","x":{"1":1,"0":-0}}],'
                      '"messages":[{"role":-0,"content":"x"},{"role":1e21,"content":"x"},'
                      '{"role":1e-7,"content":"x"},{"role":' + big_digits + ',"content":"x"}]}')
    return {"rows": r.rows, "runs": {**STANDARD_RUNS, "show": ["--show", "num"]}}


def case_bare_values() -> dict:
    """Tools and messages that are bare JSON values: each is stringified on its own."""
    r = Rows()
    r.add("s1", "t1", '{"runtimeId":"bare","tools":[1.0,0.0,-0.0,1e21,1e-7,12345678901234567890,1E400],'
                      '"messages":[2.0,"s",null,true,[1.0],-0]}')
    r.add("s1", "t2", '{"runtimeId":"bare","tools":[1.0,0.0,-0.0,1e21,1e-7,12345678901234567890,1E400],'
                      '"messages":[2.5,"s",null,true,[1.0],-0]}')
    r.add("s1", "t3", '{"runtimeId":"bare","tools":[1,0,0,1000000000000000000000,0.0000001,12345678901234567000,'
                      '2e400],"messages":[2.50,"s"]}')
    r.add("s1", "t4", '{"runtimeId":"bare","tools":[1,0,0,1000000000000000000000,0.0000001,12345678901234567000,'
                      '2e400,"\\ud800"],"messages":[]}')
    return {"rows": r.rows, "runs": {**STANDARD_RUNS, "show": ["--show", "bare"]}}


def case_runtime_ids() -> dict:
    """Non-string runtime ids: JSON only (Covel's table printer throws on them)."""
    r = Rows()
    m = lambda text: [{"role": "user", "content": text}]
    r.add("s1", "t1", kernel(7, m("a")))
    r.add("s1", "t1", kernel("7", m("b")))  # same key as 7: joins its entry
    r.add("s1", "t2", kernel("7", m("c")))
    r.add("s1", "t2", kernel(7.0, m("d")))
    r.add("s1", "t3", kernel(None, m("e")))
    r.add("s1", "t4", kernel("null", m("f")))
    r.add("s1", "t5", j({"messages": m("g")}))  # runtimeId missing: key "undefined"
    r.add("s1", "t6", kernel("undefined", m("h")))
    r.add("s1", "t7", kernel({"a": 1}, m("i")))
    r.add("s1", "t8", kernel({"b": 2}, m("j")))  # also "[object Object]"
    r.add("s1", "t9", kernel(True, m("k")))
    r.add("s1", "t10", kernel([1, 2], m("l")))
    r.add("s1", "t11", kernel("1,2", m("m")))
    r.add("s1", "t12", '{"runtimeId":-0,"messages":[]}')
    r.add("s1", "t13", '{"runtimeId":1e21,"messages":[]}')
    r.add("s1", "t14", '{"runtimeId":"1e+21","messages":[]}')
    r.add("s1", "t15", '{"runtimeId":"\\ud800","messages":[]}')
    return {"rows": r.rows, "runs": {"json": ["--json"], "session.json": ["--session", "s1", "--json"]}}


def case_payload_scalars() -> dict:
    """Payloads that parse to non-objects: no runtimeId and no parts (JSON only)."""
    r = Rows()
    for turn, payload in (("t1", "5"), ("t2", '"str"'), ("t3", "[1,2]"), ("t4", "true"), ("t5", "{}"),
                          ("t6", "  {\"runtimeId\": \"late\" , \"messages\" : [ ] }\n")):
        r.add("s1", turn, payload)
    return {"rows": r.rows, "runs": {"json": ["--json"]}}


def case_turn_patterns() -> dict:
    """Interleaved runtimes, turns and sessions; retries; identical, shorter and longer requests."""
    r = Rows()
    base = [{"role": "system", "content": "stable system prompt"}, {"role": "user", "content": "hello"}]
    longer = base + [{"role": "assistant", "content": "hi"}]
    # Runtime A runs in turns t1, t2, t1 again (appended twice), a one-turn runtime B with retries.
    r.add("s1", "t1", kernel("A", base))
    r.add("s1", "t1", kernel("B", base))
    r.add("s1", "t1", kernel("B", longer))
    r.add("s2", "u1", kernel("A", base))  # another session, interleaved in time
    r.add("s1", "t2", kernel("A", base))  # identical
    r.add("s1", "t2", kernel("A", longer))  # second call of t2: counted, not compared
    r.add("s2", "u2", kernel("A", longer))  # longer: "(no such part)"
    r.add("s1", "t1", kernel("A", longer))  # back to t1
    r.add("s1", "t3", kernel("A", base))  # request ends earlier
    r.add("s2", "u3", kernel("A", longer[:1]))
    r.add("s2", "u3", kernel("C", base))
    # Equal created_at within a session: seq decides (numerically: 9 before 10), whatever the
    # insertion order; other event types are ignored.
    r.add("s3", "v1", kernel("D", longer), at=100, seq=10)
    r.add("s3", "v0", kernel("D", base), at=100, seq=9)
    r.add("s3", "v1", j({"event": "not a request"}), at=100, seq=11, type="llm.called")
    r.add("s3", "v2", kernel("D", base), at=101, seq=1)
    r.add("s3", "v2", "not even json", at=102, seq=2, type="turn.started")
    return {"rows": r.rows, "runs": {
        **STANDARD_RUNS,
        "show": ["--show", "A"],
        "session.table": ["--session", "s2"],
        "session.json": ["--json", "--session", "s3"],
        "session_show.table": ["--session", "s1", "--show", "B"],
        "nosuch.table": ["--session", "nope"],
        "showmissing.table": ["--show", "nobody"],
    }}


def case_runtime_widths() -> dict:
    """padEnd(34) counts UTF-16 units: CJK, emoji, exactly 34, longer than 34."""
    r = Rows()
    names = ["追踪器", "🎲" * 3 + "dice", "x" * 34, "y" * 33 + "🎲", "叙事者-一个非常非常非常非常非常非常非常非常非常长的运行时名字", "ok"]
    for name in names:
        r.add("s1", "t1", kernel(name, [{"role": "user", "content": "a"}]))
    for name in names[:-1]:
        r.add("s1", "t2", kernel(name, [{"role": "user", "content": "ab"}]))
    r.add("会话-一", "t1", kernel("追踪器", [{"role": "user", "content": "中文"}]))
    r.add("会话-一", "t2", kernel("追踪器", [{"role": "user", "content": "中文字"}]))
    return {"rows": r.rows, "runs": {**STANDARD_RUNS, "show": ["--show", "追踪器"]}}


def case_rounding() -> dict:
    """Math.round halves in estimates, means and percentages."""
    r = Rows()
    # A runtime whose pairs' tokens are 2 and 3 (mean 2.5), shared 0 and 1 (mean 0.5, 20%).
    r.add("s1", "t1", kernel("h", [{"role": "user", "content": "zz"}]))
    r.add("s1", "t2", kernel("h", [{"role": "user", "content": "abcdefghij"}]))  # 2.5 -> 3
    r.add("s1", "t3", kernel("h", [{"role": "user", "content": "abcdefghijklmn"}]))  # 3.5 -> 4
    r.add("s1", "t4", kernel("h2", [{"role": "user", "content": "a"}]))
    r.add("s1", "t5", kernel("h2", [{"role": "user", "content": "abcdefghijklmnopqrstuvwxyz"}]))
    r.add("s1", "t6", kernel("h3", [{"role": "user", "content": "中a"}]))
    r.add("s1", "t7", kernel("h3", [{"role": "user", "content": "中ab"}]))  # 1 + 2/4 = 1.5 -> 2
    for i in range(9):
        r.add("s1", f"u{i}", kernel("h4", [{"role": "user", "content": "abcdefgh"[: (i % 4) + 2] + "!" * i}]))
    return {"rows": r.rows, "runs": {**STANDARD_RUNS, "show": ["--show", "h"]}}


def case_show_quotes() -> dict:
    """--show: was/now JSON-quoted, with quotes, backslashes, newlines; a runtime in two sessions."""
    r = Rows()
    a = 'He said "hello"\n\tand left \\ the room. ' * 4
    r.add("s1", "t1", kernel("q", [{"role": "user", "content": a + "END"}]))
    r.add("s2", "t1", kernel("q", [{"role": "user", "content": a}]))
    r.add("s1", "t2", kernel("q", [{"role": "user", "content": a + 'END "quoted"\r\n'}]))
    r.add("s2", "t2", kernel("q", [{"role": "user", "content": a}]))  # identical: was/now undefined
    r.add("s1", "t3", kernel("q", [{"role": "user", "content": a + 'END "quoted"\r\n'},
                                   {"role": "user", "content": "new part</script>"}]))
    r.add("s1", "t4", kernel("q\"x", [{"role": "user", "content": "1"}]))
    r.add("s1", "t5", kernel("q\"x", [{"role": "user", "content": "2"}]))
    return {"rows": r.rows, "runs": {**STANDARD_RUNS, "show": ["--show", "q"], "show2.table": ["--show", 'q"x']}}


def case_empty() -> dict:
    return {"rows": [], "runs": {**STANDARD_RUNS, "show": ["--show", "x"]}}


def case_no_requests() -> dict:
    r = Rows()
    r.add("s1", "t1", j({"runtimeId": "x"}), type="llm.called")
    r.add("s1", "t1", None, type="turn.started")
    return {"rows": r.rows, "runs": {**STANDARD_RUNS, "session.json": ["--session", "s1", "--json"]}}

# --- Covel's rules at the edges: ties, NULL and odd column types, invalid UTF-8, deep JSON ----

def _ties(r: Rows) -> None:
    """Rows equal on (created_at, seq): the script's ORDER BY leaves them in rowid order."""
    m = lambda text: [{"role": "user", "content": text}]
    # Two sessions' first calls in one millisecond, both seq 0; ids sort against the write order.
    r.add("s2", "t1", kernel("A", m("second session")), at=10, seq=0, id="ev-b")
    r.add("s1", "t1", kernel("A", m("first session")), at=10, seq=0, id="ev-a")
    # Within a session: equal created_at and seq, turns written t3 then t2 (ids the other way).
    r.add("s1", "t3", kernel("A", m("first session, turn three")), at=11, seq=1, id="ev-c")
    r.add("s1", "t2", kernel("A", m("first session, turn two")), at=11, seq=1, id="ev-0")
    r.add("s2", "t2", kernel("A", m("second session, later")), at=11, seq=1, id="ev-9")
    # A retry with the same (created_at, seq) as its turn's first call, written first.
    r.add("s1", "t4", kernel("B", m("retry written first")), at=12, seq=5, id="ev-z")
    r.add("s1", "t4", kernel("B", m("first attempt")), at=12, seq=5, id="ev-y")
    r.add("s1", "t5", kernel("B", m("first attempt!")), at=13, seq=5, id="ev-x")


def case_ties() -> dict:
    r = Rows()
    _ties(r)
    return {"rows": r.rows, "runs": {**STANDARD_RUNS, "show": ["--show", "A"],
                                     "session.json": ["--session", "s1", "--json"]}}


def case_ties_indexed() -> dict:
    """The same rows with Covel's indexes, so that SQLite walks an index (--session)."""
    r = Rows()
    _ties(r)
    return {"schema": "indexed", "rows": r.rows,
            "runs": {**STANDARD_RUNS, "session.table": ["--session", "s1"],
                     "session.json": ["--session", "s2", "--json"]}}


def case_null_ids() -> dict:
    """A NULL session or turn: `${null}` is "null" (the key of a session named "null" too)."""
    r = Rows()
    m = lambda text: [{"role": "user", "content": text}]
    r.add(None, "t1", kernel("rt", m("a")))
    r.add(None, "t2", kernel("rt", m("ab")))
    r.add("null", "t3", kernel("rt", m("abc")))  # same key as the NULL session: joins its entry
    r.add("null", "t1", kernel("other", m("x")))
    r.add("s1", None, kernel("rt", m("n1")))  # NULL turns: null === null, one turn
    r.add("s1", None, kernel("rt", m("n2")))
    r.add("s1", "t1", kernel("rt", m("n3")))
    r.add("s1", None, kernel("rt", m("n4")))
    return {"schema": "loose", "rows": r.rows, "runs": {**STANDARD_RUNS, "show": ["--show", "rt"]}}


def _hex(text: str) -> str:
    return text.encode("utf-8", "surrogatepass").hex()


def case_invalid_utf8() -> dict:
    """TEXT holding invalid UTF-8: node:sqlite decodes each bad sequence as U+FFFD."""
    r = Rows()
    bad = [b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80", b"\xe4\xb8", b"\xf0\x9f\x98", b"\xfe\xfe"]

    def payload(runtime: bytes, content: bytes, tool: bytes = b"t") -> dict:
        raw = (b'{"runtimeId":"' + runtime + b'","tools":[{"name":"' + tool + b'"}],'
               b'"messages":[{"role":"user","content":"' + content + b'"}]}')
        return {"text_hex": raw.hex()}

    r.add("s1", "t1", payload(b"u", b"abc" + b"".join(bad) + b"end"))
    r.add("s1", "t2", payload(b"u", b"abc" + b"".join(bad[:3]) + b"\xef\xbf\xbd" + b"".join(bad[4:]) + b"end"))
    r.add("s1", "t3", payload(b"u", b"abc" + b"".join(bad[:3]) + b"X", tool=b"t\xff"))
    # A runtime id and a session id with bad bytes: the table pads what Node prints.
    r.add("s1", "t1", payload(b"r\xe4\xb8\xad\xff", b"x"))
    r.add("s1", "t2", payload(b"r\xe4\xb8\xad\xff", b"xy"))
    r.add({"text_hex": "73ff31"}, "t1", payload(b"u", b"q"))
    r.add({"text_hex": "73ff31"}, "t2", payload(b"u", b"q\xc3"))
    return {"rows": r.rows, "runs": {**STANDARD_RUNS, "show": ["--show", "u"]}}


def _nested(depth: int, kind: str, leaf: str = '"leaf"') -> str:
    if kind == "array":
        return "[" * depth + leaf + "]" * depth
    return '{"k":' * depth + leaf + "}" * depth


def case_deep_json() -> dict:
    """Payload values nested 990-1,500 levels deep: V8 parses and stringifies them."""
    r = Rows()
    for depth in (990, 1023, 1500):
        for kind in ("array", "object"):
            name = f"{kind}{depth}"
            for turn, leaf in (("t1", '"a"'), ("t2", '"b"')):
                deep = _nested(depth - 3, kind, leaf)  # the payload's own levels make up the rest
                r.add("s1", turn, '{"runtimeId":"' + name + '","tools":[' + deep + '],'
                      '"messages":[{"role":"user","content":' + deep + '}]}')
    # Only the runtime id is read from a row whose messages are deep but string-content.
    deep = _nested(1500, "object")
    r.add("s1", "t1", '{"runtimeId":"flat","x":' + deep + ',"messages":[{"role":"user","content":"c"}]}')
    r.add("s1", "t2", '{"runtimeId":"flat","x":' + deep + ',"messages":[{"role":"user","content":"d"}]}')
    return {"rows": r.rows, "runs": {**STANDARD_RUNS, "show": ["--show", "object1500"]}}


def case_odd_ids() -> dict:
    """Ids of other SQLite types: node:sqlite gives numbers, null and Uint8Arrays (JSON only)."""
    r = Rows()
    m = lambda text: [{"role": "user", "content": text}]
    # A BLOB session: `${u8}` is "115,49" for both rows (one entry); in JSON an object of indices.
    r.add({"blob": "7331"}, "t1", kernel("b", m("a")))
    r.add({"blob": "7331"}, "t2", kernel("b", m("ab")))
    r.add({"blob": "7331"}, "t2", kernel("c", m("ab")))  # another entry, another Uint8Array
    r.add({"blob": ""}, "t1", kernel("b", m("empty blob")))
    # A BLOB turn is a new Uint8Array on every row: never === the last one, so every row is a turn.
    r.add("s1", {"blob": "7431"}, kernel("bt", m("x")))
    r.add("s1", {"blob": "7431"}, kernel("bt", m("xy")))
    r.add("s1", {"blob": "7431"}, kernel("bt", m("xyz")))
    # Numbers: 7 and "7" share a key; turn 1 and "1" differ (!==); REAL ids print as JS numbers.
    r.add(7, 1, kernel("n", m("i")))
    r.add("7", "1", kernel("n", m("ii")))
    r.add(7, 1, kernel("n", m("iii")))
    r.add({"real": 1.5}, {"real": 2.0}, kernel("n", m("r")))
    r.add({"real": 1e21}, 2, kernel("n", m("rr")))
    r.add({"real": 1e21}, 3, kernel("n", m("rrr")))
    # Odd ids, seq as text, created_at of other types (NULL and numbers sort first, BLOBs last).
    r.add("s9", "t1", kernel("o", m("blob id")), id={"blob": "00ff"})
    r.add("s9", "t2", kernel("o", m("int id")), id=12)
    r.add("s9", "t3", kernel("o", m("text seq 10")), at=50, seq="10")
    r.add("s9", "t4", kernel("o", m("int seq 9")), at=50, seq=9)
    r.add("s9", "t5", kernel("o", m("blob created_at")), created_at={"blob": "30"})
    r.add("s9", "t6", kernel("o", m("int created_at")), created_at=5)
    r.add("s9", "t7", kernel("o", m("null created_at")), created_at=None, seq=None)
    return {"schema": "loose", "rows": r.rows, "runs": {"json": ["--json"], "session.json": ["--session", "s9", "--json"]}}


def case_odd_ids_table() -> dict:
    """The table printer on odd session ids (strings as runtime ids, so it does not throw)."""
    r = Rows()
    m = lambda text: [{"role": "user", "content": text}]
    r.add({"blob": "7331"}, "t1", kernel("b", m("a")))
    r.add({"blob": "7331"}, "t2", kernel("b", m("ab")))
    r.add({"blob": "7331"}, "t2", kernel("c", m("ab")))  # its own Session section: another object
    r.add(7, "t1", kernel("n", m("i")))
    r.add("7", "t2", kernel("n", m("ii")))
    r.add({"real": 1e21}, "t1", kernel("n", m("r")))
    r.add({"real": 1e21}, "t2", kernel("n", m("rr")))
    r.add({"blob": ""}, "t1", kernel("e", m("x")))
    r.add({"blob": ""}, "t2", kernel("e", m("xy")))
    return {"schema": "loose", "rows": r.rows, "runs": {**STANDARD_RUNS, "show": ["--show", "b"]}}


CASES = {
    name[len("case_"):]: fn
    for name, fn in sorted(globals().items())
    if name.startswith("case_") and callable(fn)
}


def expected_name(run: str) -> str:
    """``json`` -> expected.json.txt; ``table`` -> expected.table.txt; ``show`` -> expected.show.txt."""
    return f"expected.{run}.txt"


def write_rows(name: str, case: dict) -> Path:
    folder = CASES_DIR / name
    folder.mkdir(parents=True, exist_ok=True)
    doc = {"runs": case["runs"], "rows": case["rows"]}
    if "schema" in case:
        doc = {"schema": case["schema"], **doc}
    (folder / "rows.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return folder


def run_reference(command: list[str], db: Path, args: list[str]) -> bytes:
    done = subprocess.run([*command, str(db), *args], capture_output=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"reference failed on {db} {args}: {done.stderr.decode(errors='replace')}")
    return done.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reference", help="command running Covel's script, e.g. 'node prompt-prefix-report.mjs'")
    parser.add_argument("--only", nargs="*", help="case names")
    args = parser.parse_args(argv)
    import tempfile

    for name, fn in CASES.items():
        if args.only and name not in args.only:
            continue
        case = fn()
        folder = write_rows(name, case)
        if not args.reference:
            continue
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "covel.db"
            write_db(db, case["rows"], case.get("schema", "covel"))
            for run, run_args in case["runs"].items():
                (folder / expected_name(run)).write_bytes(run_reference(shlex.split(args.reference), db, run_args))
        print(f"{name}: {len(case['rows'])} rows, {len(case['runs'])} runs", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
