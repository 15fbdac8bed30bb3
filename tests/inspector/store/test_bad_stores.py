"""A partly bad store is shown, not refused: missing columns, values of the wrong type, text that
is not UTF-8 (issue 17). Each fault is checked at its boundary (the good store: no note, the same
output) and past it (the note, what is shown, the rest of the store intact)."""

from __future__ import annotations

import io
import json
import sqlite3
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from inspector import views
from inspector.cli import main
from inspector.demo.schema import columns_of, render_ddl
from inspector.store import NotACovelStoreError, StoreError, open_store
from inspector.store.columns import UNKNOWN_SESSION, UNKNOWN_TURN
from inspector.store.values import blob_literal
from inspector.turn.builder import build_turn
from inspector.turn.model import TurnNotFoundError

SID = "s1"


def _ts(ms: int) -> str:
    return f"2026-10-06T08:00:{ms // 1000:02d}.{ms % 1000:03d}Z"


def _calling(runtime: str, attempt: int = 0) -> str:
    return json.dumps({"runtimeId": runtime, "pluginId": runtime.split("/")[0], "model": "deepseek-chat",
                       "provider": "deepseek", "messages": [{"role": "user", "content": "hi"}], "tools": [],
                       "attempt": attempt})


def _write_store(path: Path) -> Path:
    """Session s1 with turns t1 and t2 (a runtime, a call and its response each, a result row
    and journal rows), session s2 with one call; in Covel's newest schema."""
    conn = sqlite3.connect(path)
    conn.executescript(render_ddl())
    for sid in (SID, "s2"):
        conn.execute("INSERT INTO sessions (id, status, locale, created_at, updated_at, phase, "
                     "completed_player_turns) VALUES (?, 'active', 'en', ?, ?, 'playing', 2)",
                     (sid, _ts(0), _ts(1)))
    rows = []
    clock = 10
    for turn, runtime in (("t1", "director/plan"), ("t2", "narrator/main")):
        for etype, payload in (("turn.started", "{}"),
                               ("runtime.started", json.dumps({"runtimeId": runtime, "stage": "narrative"})),
                               ("llm.calling", _calling(runtime)),
                               ("llm.responded", json.dumps({"runtimeId": runtime, "attempt": 0, "durationMs": 5,
                                                             "usage": {"inputTokens": 10, "outputTokens": 2}})),
                               ("turn.completed", "{}")):
            rows.append((f"ev-{len(rows):03d}", SID, etype, f"tr-{turn}", turn, payload, _ts(clock), 0))
            clock += 10
        conn.execute("INSERT INTO turn_results (id, session_id, turn_id, runtime_results, origin, commit_status, "
                     "duration_ms, created_at, seq) VALUES (?, ?, ?, '[]', 'player', 'committed', 40, ?, 0)",
                     (f"tr-{turn}", SID, turn, _ts(clock)))
        conn.execute('INSERT INTO turn_messages (id, session_id, turn_id, source_type, role, content, "order", '
                     "created_at) VALUES (?, ?, ?, 'player', 'user', ?, 0, ?)",
                     (f"tm-{turn}", SID, turn, f"line of {turn}", _ts(clock)))
    rows.append(("ev-s2", "s2", "llm.calling", "tr-u1", "u1", _calling("narrator/main"), _ts(5), 0))
    conn.executemany("INSERT INTO trace_events (id, session_id, type, trace_id, turn_id, payload, created_at, seq) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    conn.commit()
    conn.close()
    return path


def _without(path: Path, table: str, *dropped: str) -> None:
    """``table`` rebuilt without the ``dropped`` columns (its indexes go with it)."""
    conn = sqlite3.connect(path)
    kept = [r[1] for r in conn.execute(f"PRAGMA table_info({table})") if r[1] not in dropped]
    names = ", ".join(f'"{c}"' for c in kept)
    conn.executescript(f"CREATE TABLE rebuilt AS SELECT {names} FROM {table}; DROP TABLE {table}; "
                       f"ALTER TABLE rebuilt RENAME TO {table};")
    conn.close()


def _sql(path: Path, sql: str, *params: Any) -> None:
    conn = sqlite3.connect(path)
    conn.execute(sql, params)
    conn.commit()
    conn.close()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return _write_store(tmp_path / "covel.db")


@contextmanager
def _captured() -> Iterator[tuple[io.BytesIO, io.StringIO]]:
    out, err = io.BytesIO(), io.StringIO()
    saved = sys.stdout, sys.stderr
    wrapper = io.TextIOWrapper(out, encoding="utf-8")
    sys.stdout, sys.stderr = wrapper, err
    try:
        yield out, err
    finally:
        wrapper.flush()
        wrapper.detach()  # leaves ``out`` open when the wrapper goes
        sys.stdout, sys.stderr = saved


def cli(*argv: Any) -> tuple[int, str, str]:
    with _captured() as (out, err):
        code = main([str(a) for a in argv])
    return code, out.getvalue().decode("utf-8"), err.getvalue()


def _call_count(turn: Any) -> int:
    return sum(len(runtime.calls) for runtime in turn.runtimes())


def _everything(store: Any) -> dict[str, Any]:
    """What the app and the CLI read of a store, through the functions they use."""
    sessions = views.session_rows(store)
    turns = {s["sessionId"]: views.turn_rows(store, s["sessionId"]) for s in sessions}
    requests = views.request_rows(store)
    details = [views.request_anatomy(store, r["eventId"], exact=False) for r in requests]
    built = [build_turn(store, sid, t["turnId"]).to_json() for sid, rows in turns.items() for t in rows]
    return {"sessions": sessions, "turns": turns, "requests": requests,
            "details": [d.to_json() for d in details if d is not None], "built": built}


# --- the boundary: a good store has no notes, and every read below works on it ----------------

def test_a_good_store_reads_without_notes(db: Path) -> None:
    with open_store(db) as store:
        seen = _everything(store)
        assert store.schema_notes == []
    assert [s["sessionId"] for s in seen["sessions"]] == [SID, "s2"]
    assert [t["turnId"] for t in seen["turns"][SID]] == ["t1", "t2"]
    code, out, err = cli("turns", db, SID)
    assert code == 0 and err == "" and "t1" in out


# --- missing columns of trace_events ----------------------------------------------------------

def test_no_created_at_orders_by_what_exists(db: Path) -> None:
    _without(db, "trace_events", "created_at")
    with open_store(db) as store:
        assert any(n.startswith("trace_events has no created_at column") for n in store.schema_notes)
        events = store.events(SID)
        # seq is 0 everywhere: the order is the ids', as the note says.
        assert [e.id for e in events] == sorted(e.id for e in events)
        assert all(e.created_at is None for e in events)
        seen = _everything(store)
    assert [t["turnId"] for t in seen["turns"][SID]] == ["t1", "t2"]
    assert len(seen["requests"]) == 3 and len(seen["built"]) == 3
    code, out, err = cli("turns", db, SID)
    assert code == 0 and "warning: trace_events has no created_at column" in err and "t2" in out
    assert err.count("warning: trace_events has no created_at column") == 1


def test_no_turn_id_groups_a_session_under_one_turn(db: Path) -> None:
    _without(db, "trace_events", "turn_id")
    with open_store(db) as store:
        assert any(UNKNOWN_TURN in n for n in store.schema_notes)
        turns = views.turn_rows(store, SID)
        unknown = [t for t in turns if t["turnId"] == UNKNOWN_TURN]
        assert len(unknown) == 1 and unknown[0]["llmCalls"] == 2 and unknown[0]["events"] == 10
        # The result rows still name their turns; those turns just have no trace rows.
        assert {t["turnId"] for t in turns} == {UNKNOWN_TURN, "t1", "t2"}
        groups = views.turn_runtime_groups(store, SID, UNKNOWN_TURN)
        assert sum(g["requestCount"] for g in groups) == 2
        assert _call_count(build_turn(store, SID, UNKNOWN_TURN)) == 2
    for argv in (("turns", db, SID), ("requests", db), ("turn", db, "t1")):
        code, _out, err = cli(*argv)
        assert code == 0 and "Traceback" not in err and UNKNOWN_TURN in err


def test_no_session_id_reads_one_session(db: Path) -> None:
    _without(db, "trace_events", "session_id")
    with open_store(db) as store:
        rows = {s["sessionId"]: s for s in views.session_rows(store)}
        assert rows[UNKNOWN_SESSION]["llmCalls"] == 3
        assert rows[SID]["llmCalls"] == 0  # its trace rows cannot be told from s2's
        assert len(views.request_rows(store, UNKNOWN_SESSION)) == 3


@pytest.mark.parametrize("column", ["payload", "type", "id"])
def test_a_trace_table_that_cannot_be_read_is_refused(db: Path, column: str) -> None:
    _without(db, "trace_events", column)
    with pytest.raises(NotACovelStoreError, match=f"trace_events has no {column} column") as caught:
        open_store(db)
    assert str(db) in str(caught.value)
    code, out, err = cli("sessions", db)
    assert code in (1, 2) and out == "" and err.count("\n") == 1 and "Traceback" not in err


def test_a_side_table_without_its_key_is_left_out(db: Path) -> None:
    _without(db, "turn_results", "turn_id")
    _without(db, "turn_messages", "created_at")
    with open_store(db) as store:
        notes = store.schema_notes
        assert "turn_results has no turn_id column: the table is not read" in notes
        assert "turn_messages has no created_at column: read as empty" in notes
        assert [t["turnId"] for t in views.turn_rows(store, SID)] == ["t1", "t2"]
        assert [m.id for m in store.turn_messages(SID)] == ["tm-t1", "tm-t2"]


# --- values of the wrong type ---------------------------------------------------------------

def test_text_seq_is_ordered_as_empty_with_one_note(db: Path) -> None:
    _sql(db, "UPDATE trace_events SET seq = 'x' || seq")
    with open_store(db) as store:
        events = store.events(SID, "t1")
        seen = _everything(store)
        notes = [n for n in store.schema_notes if n.startswith("trace_events.seq")]
    assert len(notes) == 1 and all(e.seq is None for e in events)
    assert [t["turnId"] for t in seen["turns"][SID]] == ["t1", "t2"]


def test_a_blob_turn_id_is_shown_as_its_hex_and_found_again(db: Path) -> None:
    _sql(db, "UPDATE trace_events SET turn_id = CAST(turn_id AS BLOB) WHERE turn_id = 't2'")
    shown = blob_literal(b"t2")
    with open_store(db) as store:
        turns = {t["turnId"]: t for t in views.turn_rows(store, SID)}
        assert turns[shown]["llmCalls"] == 1 and turns["t2"]["llmCalls"] == 0  # the result row's
        assert [g["runtimeId"] for g in views.turn_runtime_groups(store, SID, shown)] == ["narrator/main"]
        requests = views.request_rows(store, SID)
        assert {r["turnId"] for r in requests} == {"t1", shown}
        assert _call_count(build_turn(store, SID, shown)) == 1
        notes = [n for n in store.schema_notes if "BLOB" in n]
    assert notes == ["trace_events.turn_id holds BLOB values where text is expected: shown as x'…' "
                     "(the bytes in hex)"]
    code, out, err = cli("requests", db, "--json")
    assert code == 0 and shown in out and err.count("trace_events.turn_id") == 1


def test_blob_and_number_timestamps_are_shown_as_stored(db: Path) -> None:
    _sql(db, "UPDATE trace_events SET created_at = CAST(created_at AS BLOB) WHERE type = 'turn.started'")
    _sql(db, "UPDATE turn_results SET created_at = CAST(created_at AS BLOB)")
    with open_store(db) as store:
        seen = _everything(store)
        notes = store.schema_notes
    assert seen["turns"][SID][0]["startedAt"].startswith("x'")
    assert seen["turns"][SID][0]["createdAt"].startswith("x'")
    assert len([n for n in notes if n.startswith("turn_results.created_at holds BLOB")]) == 1
    for argv in (("turns", db, SID), ("turn", db, "t1", "--json"), ("requests", db)):
        code, _out, err = cli(*argv)
        assert code == 0 and "Traceback" not in err


def _with_number(db: Path, value: Any) -> tuple[dict[str, Any], dict[str, Any], list[str]]:
    """``value`` stored as session s1's completed turns and as every turn's duration; the sessions
    listed, s1's first turn and the store's notes."""
    _sql(db, "UPDATE sessions SET completed_player_turns = ? WHERE id = ?", value, SID)
    _sql(db, "UPDATE turn_results SET duration_ms = ?", value)
    with open_store(db) as store:
        rows = {s["sessionId"]: s for s in views.session_rows(store)}
        return rows, views.turn_rows(store, SID)[0], store.schema_notes


@pytest.mark.parametrize("value", ["many", b"\x01\x02", 2.5])
def test_a_number_column_shows_what_is_stored(db: Path, value: Any) -> None:
    rows, turn, notes = _with_number(db, value)
    expected = blob_literal(value) if isinstance(value, bytes) else value
    assert rows[SID]["completedPlayerTurns"] == expected and rows["s2"]["completedPlayerTurns"] == 2
    assert turn["durationMs"] == (int(value) if isinstance(value, float) else expected)  # whole ms, as before
    if isinstance(value, float):
        assert notes == []  # a number is a number
    else:
        assert len([n for n in notes if n.startswith("sessions.completed_player_turns")]) == 1
    code, out, err = cli("sessions", db)
    assert code == 0 and str(expected) in out and "Traceback" not in err


@pytest.mark.parametrize(("value", "shown"), [(float("inf"), "Infinity"), (float("-inf"), "-Infinity")])
def test_a_number_that_is_not_finite_is_shown_as_javascript_prints_it(db: Path, value: float, shown: str) -> None:
    # SQLite keeps Infinity in a REAL column (and NaN as NULL); int() of it failed.
    rows, turn, notes = _with_number(db, value)
    assert rows[SID]["completedPlayerTurns"] == shown and turn["durationMs"] == shown
    assert [n for n in notes if "Infinity or NaN" in n] == [
        "sessions.completed_player_turns holds Infinity or NaN where a number is expected: shown as JavaScript "
        "prints it",
        "turn_results.duration_ms holds Infinity or NaN where a number is expected: shown as JavaScript prints it"]
    for argv in (("sessions", db), ("turns", db, SID), ("cache", "--json", db), ("prefix", "--json", db)):
        code, _out, err = cli(*argv)
        assert code == 0 and "Traceback" not in err and "internal error" not in err, (argv, err)


def test_one_note_per_column_however_many_rows(db: Path) -> None:
    conn = sqlite3.connect(db)
    conn.executemany("INSERT INTO trace_events (id, session_id, type, trace_id, turn_id, payload, created_at, seq) "
                     "VALUES (?, ?, 'tool.calling', 'tr', 't1', '{}', ?, 'bad')",
                     [(f"x{i:04d}", SID, _ts(i)) for i in range(500)])
    conn.commit()
    conn.close()
    with open_store(db) as store:
        assert len(store.events(SID)) == 510
        views.turn_rows(store, SID)
        assert store.schema_notes == ["trace_events.seq holds text where a number is expected: those rows "
                                      "are ordered as if it were empty"]


def test_text_that_is_not_utf8_is_read_as_covel_reads_it(db: Path) -> None:
    _sql(db, "UPDATE trace_events SET turn_id = CAST(X'74FF32' AS TEXT) WHERE turn_id = 't2'")
    _sql(db, "UPDATE turn_messages SET content = CAST(X'6869FE' AS TEXT)")
    with open_store(db) as store:
        turns = [t["turnId"] for t in views.turn_rows(store, SID)]
        messages = [m.content for m in store.turn_messages(SID)]
        requests = views.request_rows(store)
        # The stored bytes are not text, so the id shown cannot find them again: a clear "no turn".
        with pytest.raises(TurnNotFoundError):
            build_turn(store, SID, "t\ufffd2")
        notes = [n for n in store.schema_notes if "UTF-8" in n]
    assert "t\ufffd2" in turns and messages == ["hi\ufffd", "hi\ufffd"]
    assert sorted(notes) == sorted(f"{table} holds text that is not valid UTF-8: each bad byte sequence is shown "
                                   "as U+FFFD, as Covel reads it" for table in ("trace_events", "turn_messages"))
    assert len(requests) == 3 and {r["turnId"] for r in requests} == {"t1", "t\ufffd2", "u1"}


def test_null_turn_ids_are_shown_under_the_unknown_turn(db: Path) -> None:
    _without(db, "trace_events")  # rebuilt by CREATE TABLE AS: no NOT NULL any more
    _sql(db, "UPDATE trace_events SET turn_id = NULL WHERE turn_id = 't2'")
    with open_store(db) as store:
        turns = {t["turnId"]: t for t in views.turn_rows(store, SID)}
        assert turns[UNKNOWN_TURN]["llmCalls"] == 1
        assert len(views.turn_runtime_groups(store, SID, UNKNOWN_TURN)) == 1
        assert {r["turnId"] for r in views.request_rows(store, SID)} == {"t1", UNKNOWN_TURN}


# --- any shape: no traceback ----------------------------------------------------------------

_TABLES = ("sessions", "trace_events", "turn_results", "turn_messages", "session_summaries", "tool_calls",
           "suspensions")
_DECLARED = ("TEXT", "INTEGER", "REAL", "BLOB", "", "TEXT", "TEXT")
_WORDS = ["s1", "s2", "t1", "t2", "llm.calling", "llm.responded", "runtime.started", "turn.started",
          "narrator/main", "x'7431'", UNKNOWN_TURN, _ts(10), _ts(20), "", "player", "committed"]


class _BadUtf8:
    def __init__(self, data: bytes) -> None:
        self.data = data


_payloads = st.one_of(
    st.sampled_from([_calling("narrator/main"), _calling("narrator/main", 1), '{"runtimeId": 3}', "[]", "{",
                     '{"data": {"runtimeId": "a/b"}, "providerRequests": [{"body": 5}]}', "null", '"text"']),
    st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                 lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
                     st.sampled_from(["runtimeId", "attempt", "messages", "usage", "providerRequests", "model"]),
                     inner, max_size=3), max_leaves=6).map(json.dumps),
)
_values = st.one_of(
    st.none(),
    st.sampled_from(_WORDS),
    st.integers(min_value=-3, max_value=3),
    st.floats(allow_nan=False, width=32),
    st.binary(max_size=4),
    st.builds(_BadUtf8, st.sampled_from([b"\xff", b"t\xfe1", b"\xc3"])),
    _payloads,
)


# Values a column usually holds, so that rows of different tables meet (the same session, the
# same turn, model requests and their responses) and the odd value sits among good ones.
_USUAL = {
    "id": st.sampled_from(["e1", "e2", "e3", "e4"]),
    "session_id": st.sampled_from(["s1", "s2"]),
    "turn_id": st.sampled_from(["t1", "t2"]),
    "type": st.sampled_from(["llm.calling", "llm.calling", "llm.responded", "runtime.started", "turn.started",
                             "tool.calling"]),
    "created_at": st.sampled_from([_ts(10), _ts(20), _ts(20)]),
    "payload": _payloads,
}


def _column_values(name: str) -> Any:
    usual = _USUAL.get(name)
    return _values if usual is None else st.one_of(usual, usual, usual, _values)


@st.composite
def store_shapes(draw: Any) -> dict[str, Any]:
    """Covel's tables, each maybe left out, its columns maybe dropped, renamed or retyped, a few
    rows of values of any SQLite type."""
    shape: dict[str, Any] = {}
    for table in _TABLES:
        # sampled_from shrinks towards its first entry: the good shape.
        if table != "trace_events" and not draw(st.sampled_from([True] * 5 + [False])):
            continue
        columns = []
        for name in columns_of(table):
            essential = table == "trace_events" and name in ("id", "type", "payload")
            fate = draw(st.sampled_from(["keep"] * (28 if essential else 8) + ["drop", "rename"]))
            if fate == "drop":
                continue
            columns.append((name + "_old" if fate == "rename" else name, draw(st.sampled_from(_DECLARED))))
        if not columns:
            continue
        row = st.tuples(*(_column_values(name) for name, _type in columns)).map(list)
        shape[table] = (columns, draw(st.lists(row, min_size=3 if table == "trace_events" else 0, max_size=8)))
    return shape


def _build(path: Path, shape: dict[str, Any]) -> None:
    if path.exists():
        path.unlink()
    conn = sqlite3.connect(path)
    for table, (columns, rows) in shape.items():
        conn.execute(f"CREATE TABLE {table} (" + ", ".join(f'"{n}" {t}' for n, t in columns) + ")")
        for row in rows:
            marks = ", ".join("CAST(? AS TEXT)" if isinstance(v, _BadUtf8) else "?" for v in row)
            conn.execute(f"INSERT INTO {table} VALUES ({marks})",
                         [v.data if isinstance(v, _BadUtf8) else v for v in row])
    conn.commit()
    conn.close()


def _core_reads(path: Path) -> tuple[str, str, str]:
    """Every read the app does; only StoreError (and a turn that is not there) may come out.
    Returns a session, a request and a turn id for the CLI to ask about."""
    try:
        store = open_store(path)
    except StoreError:
        return "s1", "ev", "t1"
    with store:
        try:
            sessions = views.session_rows(store)
            sid = sessions[0]["sessionId"] if sessions else "s1"
            turns = views.turn_rows(store, sid)
            tid = turns[0]["turnId"] if turns else "t1"
            for turn in turns[:3]:
                views.turn_runtime_groups(store, sid, turn["turnId"])
                try:
                    build_turn(store, sid, turn["turnId"]).to_json()
                except TurnNotFoundError:
                    pass
            requests = views.request_rows(store)
            eid = requests[0]["eventId"] if requests else "ev"
            for row in requests[:3]:
                detail = views.request_anatomy(store, row["eventId"], exact=False)
                if detail is not None:
                    detail.to_json()
            json.dumps([sessions, turns, requests], default=str)
        except StoreError:
            return "s1", "ev", "t1"
    return sid, eid, tid


# (command, options, positionals): the positionals go after "--", as an id may start with "-".
_COMMANDS = (("sessions", (), ()), ("turns", (), ("{sid}",)), ("requests", (), ()), ("show", ("--no-exact",), ("{eid}",)),
             ("turn", (), ("{tid}",)), ("prefix", ("--json",), ()), ("cache", ("--json",), ()))


def _argv(command: tuple[str, tuple[str, ...], tuple[str, ...]], path: Path, ids: dict[str, str]) -> list[Any]:
    name, options, positionals = command
    return [name, *options, "--", path, *(p.format(**ids) for p in positionals)]


# No shrinking: each example runs every command on a fresh file, so shrinking one failure would take
# far longer than finding it; a failing shape is reported as drawn.
@settings(max_examples=50, deadline=None, database=None, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(shape=store_shapes())
def test_no_store_shape_gives_a_traceback(tmp_path: Path, shape: dict[str, Any]) -> None:
    path = tmp_path / "shape.db"
    _build(path, shape)
    sid, eid, tid = _core_reads(path)
    for command in _COMMANDS:
        argv = _argv(command, path, {"sid": sid, "eid": eid, "tid": tid})
        code, _out, err = cli(*argv)
        assert code in (0, 1, 2), (argv, err)
        assert "Traceback" not in err and "internal error" not in err, (argv, err)


def test_the_shapes_run_in_bounded_time(tmp_path: Path) -> None:
    """One bad shape of every kind at once, read through everything under a generous bound: a
    shape that made a reader loop or retry without end fails here instead of stalling the suite."""
    shape = {"trace_events": ([("id", "BLOB"), ("session_id", ""), ("type", "TEXT"), ("turn_id", "INTEGER"),
                               ("payload", "REAL"), ("seq", "TEXT")],
                              [[b"\x00", "s1", "llm.calling", _BadUtf8(b"\xff"), _calling("a/b"), "x"],
                               [1, "s1", "llm.responded", b"t", "{", 2.5]]),
             "sessions": ([("id", "BLOB"), ("completed_player_turns", "TEXT"), ("created_at", "INTEGER")],
                          [[b"s1", "many", 5], ["s1", None, b"\x01"]])}
    path = tmp_path / "shape.db"
    _build(path, shape)
    started = time.monotonic()
    sid, eid, tid = _core_reads(path)
    for command in _COMMANDS:
        code, _out, err = cli(*_argv(command, path, {"sid": sid, "eid": eid, "tid": tid}))
        assert code in (0, 1, 2) and "Traceback" not in err, err
    assert time.monotonic() - started < 30
