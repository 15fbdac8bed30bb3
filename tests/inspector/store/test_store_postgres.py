"""Covel stores in PostgreSQL (STORE_BACKEND=pg, covel-db.md §5): opening, failing plainly, staying
read-only, the demo's PostgreSQL writer, and the same answers as the SQLite file holding the
same rows."""

from __future__ import annotations

import hashlib
import json
import shutil
import socket
import sqlite3
from contextlib import closing
from pathlib import Path

import psycopg
import pytest
from sqlalchemy.engine import make_url

from inspector import views
from inspector.cli import main
from inspector.demo.pg import DEMO_MARK, JSON_COLUMNS, PgWriteError, copy_to_postgres, is_postgres_url, libpq_conninfo
from inspector.store import (
    NotACovelStoreError,
    StoreAuthenticationError,
    StoreConnectionError,
    StoreNotFoundError,
    StoreOpenError,
    open_store,
)

pytestmark = pytest.mark.postgres


def _connect(url: str) -> psycopg.Connection:
    return psycopg.connect(libpq_conninfo(url), autocommit=True)


def _run(capfdbinary, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capfdbinary.readouterr()
    return code, out.decode("utf-8"), err.decode("utf-8")


# ------------------------------------------------------------------ opening and failing


def test_opens_through_every_spelling_of_the_url(demo_postgres: str) -> None:
    url = make_url(demo_postgres)
    for driver in ("postgresql+psycopg", "postgresql", "postgres"):
        text = url.set(drivername=driver).render_as_string(hide_password=False)
        with open_store(text) as store:
            assert store.read_only_mode == "ro" and store.has_seq and store.schema_notes == []
            assert "***" in store.location and (url.password or "") not in store.location
            assert [s.id for s in store.sessions()][0] == "demo-lantern-deepseek"


def test_refused_connection_is_named_plainly(pg_server_url: str) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = make_url(pg_server_url).set(port=port).render_as_string(hide_password=False)
    with pytest.raises(StoreConnectionError, match=rf"cannot connect to the PostgreSQL server at 127\.0\.0\.1:{port}: "
                       r"connection refused\. Is PostgreSQL running there") as caught:
        open_store(url)
    assert make_url(pg_server_url).password not in str(caught.value)


def test_wrong_credentials_are_named_plainly(pg_server_url: str) -> None:
    url = make_url(pg_server_url)
    for user, password in ((url.username, "not-the-password"), ("nobody_here", "x")):
        bad = url.set(username=user, password=password).render_as_string(hide_password=False)
        with pytest.raises(StoreAuthenticationError, match=rf"refused the credentials of user '{user}'") as caught:
            open_store(bad)
        message = str(caught.value)
        assert "Check the user name and password" in message and "not-the-password" not in message


def test_missing_database_is_named(pg_server_url: str) -> None:
    url = make_url(pg_server_url).set(database="no_such_database_here").render_as_string(hide_password=False)
    with pytest.raises(StoreNotFoundError, match=r"has no database named 'no_such_database_here'"):
        open_store(url)


def test_missing_schema_and_foreign_tables(pg_database_url: str, pg_schema) -> None:
    missing = make_url(pg_database_url).update_query_dict({"options": "-csearch_path=no_such_schema"})
    with pytest.raises(NotACovelStoreError, match=r"no schema named in the search_path \(no_such_schema\) exists"):
        open_store(missing.render_as_string(hide_password=False))
    empty = pg_schema()
    with pytest.raises(NotACovelStoreError, match=r"has no tables at all\. Is this the database Covel uses with "
                       r"STORE_BACKEND=pg"):
        open_store(empty)
    other = pg_schema()
    with closing(_connect(other)) as conn:
        conn.execute("CREATE TABLE things (id text)")
    with pytest.raises(NotACovelStoreError, match=r"has no trace_events table: not a Covel store\?"):
        open_store(other)


def test_missing_driver_is_reported(pg_server_url: str) -> None:
    url = make_url(pg_server_url).set(drivername="postgresql+pg8000").render_as_string(hide_password=False)
    with pytest.raises(StoreOpenError, match=r"cannot open postgresql\+pg8000://.*driver that comes with Prompt "
                       r"Inspector is psycopg: use postgresql://"):
        open_store(url)


def test_cli_prints_the_plain_message(pg_server_url: str, capfdbinary) -> None:
    bad = make_url(pg_server_url).set(password="wrong").render_as_string(hide_password=False)
    code, out, err = _run(capfdbinary, "sessions", bad)
    assert code == 2 and out == ""
    assert err.startswith("prompt-inspector: postgresql+psycopg://postgres:***@127.0.0.1:")
    assert "refused the credentials of user 'postgres'" in err and "wrong" not in err


# ------------------------------------------------------------------ read-only by construction


def _catalogue_snapshot(url: str) -> tuple:
    with closing(_connect(url)) as conn:
        objects = conn.execute("SELECT count(*) FROM pg_class").fetchone()[0]
        rows = conn.execute("SELECT count(*), max(seq) FROM trace_events").fetchone()
        temp_schemas = conn.execute(
            "SELECT count(*) FROM pg_namespace n WHERE n.nspname LIKE 'pg_temp%' AND EXISTS "
            "(SELECT 1 FROM pg_class c WHERE c.relnamespace = n.oid)").fetchone()[0]
    return objects, rows, temp_schemas


def test_every_transaction_is_read_only_and_nothing_is_created(demo_postgres: str) -> None:
    before = _catalogue_snapshot(demo_postgres)
    with open_store(demo_postgres) as store:
        sid = store.sessions()[0].id
        store.turns(sid)
        list(store.iter_llm_calling_rows(batch=5))
        views.search_requests(store, "灯岭镇")
        with store.connect() as conn:
            assert conn.scalar("SHOW transaction_read_only") == "on"
            for statement in ("CREATE TEMP TABLE scratch (a int)", "DELETE FROM trace_events",
                              "CREATE INDEX sneaky ON trace_events (type)", "SET SESSION CHARACTERISTICS AS "
                              "TRANSACTION READ WRITE; CREATE TABLE x (a int)"):
                with pytest.raises(Exception, match="read-only transaction"):
                    conn.all(statement)
                conn.rollback()
    assert _catalogue_snapshot(demo_postgres) == before


def test_a_session_that_cannot_be_read_only_is_refused(demo_postgres: str, monkeypatch) -> None:
    from inspector.store import postgres as pg_module

    monkeypatch.setattr(pg_module, "make_read_only", lambda _conn: None)
    with pytest.raises(StoreOpenError, match="could not be made read-only, so it was not used"):
        open_store(demo_postgres)


# ------------------------------------------------------------------ the demo's PostgreSQL writer


def test_demo_store_has_covels_postgresql_shape(demo_postgres: str, demo_sqlite: Path) -> None:
    with closing(_connect(demo_postgres)) as conn:
        types = dict(conn.execute(
            "SELECT table_name || '.' || column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = current_schema()").fetchall())
        indexes = {name for (name,) in conn.execute(
            "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()")}
        seq_default = conn.execute(
            "SELECT column_default FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = 'trace_events' AND column_name = 'seq'").fetchone()[0]
        seqs = [s for (s,) in conn.execute("SELECT seq FROM trace_events ORDER BY seq")]
        media = conn.execute("SELECT sha256, size, body, path FROM media_assets").fetchall()
        mark = conn.execute("SELECT obj_description('trace_events'::regclass, 'pg_class')").fetchone()[0]
    assert types["trace_events.payload"] == "jsonb" and types["turn_results.runtime_results"] == "jsonb"
    assert types["session_summaries.focus_sections"] == "jsonb" and types["sessions.active_plugins"] == "jsonb"
    assert types["trace_events.created_at"] == "text" and types["turn_messages.content"] == "text"
    assert types["media_assets.body"] == "bytea" and types["trace_events.seq"] == "bigint"
    assert {"pg_trace_events_created_idx", "pg_trace_events_turn_id_idx", "pg_media_assets_sha256_idx"} <= indexes
    # Primary keys keep PostgreSQL's own names (…_pkey), as Drizzle leaves them.
    assert not any(name.startswith("trace_events_") and not name.endswith("_pkey") for name in indexes)
    assert seq_default == "nextval('trace_events_seq_seq'::regclass)"
    assert seqs == list(range(1, len(seqs) + 1))
    assert mark == DEMO_MARK
    with closing(sqlite3.connect(f"file:{demo_sqlite}?mode=ro", uri=True)) as lite:
        (count,) = lite.execute("SELECT count(*) FROM trace_events").fetchone()
        lite_media = lite.execute("SELECT sha256, size FROM media_assets").fetchall()
    assert len(seqs) == count
    assert media and sorted((m[0], m[1]) for m in media) == sorted(lite_media)
    for sha, size, body, path in media:
        # The bytes are inline (and are the picture the request showed); no path on disk.
        assert path is None and len(body) == size and hashlib.sha256(body).hexdigest() == sha
        assert bytes(body).startswith(b"\x89PNG\r\n\x1a\n")


def test_writer_refuses_a_store_it_did_not_write(demo_sqlite: Path, pg_schema) -> None:
    url = pg_schema()
    with closing(_connect(url)) as conn:
        conn.execute("CREATE TABLE trace_events (id text)")
        conn.execute("INSERT INTO trace_events VALUES ('precious')")
    with pytest.raises(PgWriteError, match=r"already holds tables \(trace_events\) that this program did not "
                       r"write; pass overwrite \(--force\)"):
        copy_to_postgres(demo_sqlite, url)
    with closing(_connect(url)) as conn:
        assert conn.execute("SELECT id FROM trace_events").fetchall() == [("precious",)]
    assert copy_to_postgres(demo_sqlite, url, overwrite=True) > 1000
    # Its own output is replaced without being asked.
    assert copy_to_postgres(demo_sqlite, url) > 1000


def test_cli_demo_writes_into_postgresql(pg_schema, capfdbinary) -> None:
    url = pg_schema()
    code, out, _ = _run(capfdbinary, "demo", url, "--turns", "2", "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["sessions"] == 4 and summary["turns"] == 2 + 2 + 2 + 2 and "***" in summary["url"]
    assert summary["schema"].startswith("t_")
    code, out, _ = _run(capfdbinary, "sessions", url, "--json")
    assert code == 0 and len(json.loads(out)) == 4
    assert is_postgres_url(url) and is_postgres_url("postgres://h/db") and not is_postgres_url("covel.db")


# ------------------------------------------------------------------ other column types


def test_timestamp_and_jsonb_scalar_columns_read_as_sqlite_would(pg_schema) -> None:
    url = pg_schema()
    with closing(_connect(url)) as conn:
        conn.execute("CREATE TABLE trace_events (id text PRIMARY KEY, session_id text NOT NULL, type text NOT NULL, "
                     "trace_id text NOT NULL, turn_id text NOT NULL, payload jsonb, "
                     "created_at timestamp with time zone NOT NULL)")
        conn.execute("CREATE TABLE tool_calls (id text, session_id text, turn_id text, tool_name text, plugin_id text, "
                     "runtime_id text, input jsonb, output jsonb, duration_ms integer, approval_status text, "
                     "created_at text)")
        conn.execute("SET TIME ZONE 'Asia/Shanghai'")
        conn.execute("INSERT INTO trace_events VALUES ('b', 's', 'turn.started', 't', 't', '{\"runtimeCount\": 1}', "
                     "'2026-10-06T08:51:12.345Z'), ('a', 's', 'llm.calling', 't', 't', NULL, "
                     "'2026-10-06 16:51:12.345+08')")
        conn.execute("INSERT INTO tool_calls VALUES ('x', 's', 't', 'get', 'p', 'p/r', '\"123\"', '\"ok\"', 1, 'auto', "
                     "'2026-10-06T08:51:12.346Z')")
    with open_store(url) as store:
        events = store.events("s")
        (tool,) = store.tool_calls("s")
        (turn,) = store.turns("s")
    assert [(e.id, e.created_at) for e in events] == [("a", "2026-10-06T08:51:12.345Z"),
                                                      ("b", "2026-10-06T08:51:12.345Z")]
    assert events[0].payload_error == "payload is NULL" and events[1].payload == {"runtimeCount": 1}
    # A jsonb string stays a string: the driver's decoded "123" is not mistaken for JSON text.
    assert tool.input == "123" and tool.output == "ok"
    assert turn.started_at == "2026-10-06T08:51:12.345Z" and turn.duration_ms == 0


# ------------------------------------------------------------------ same rows, same answers


@pytest.fixture(scope="module")
def normalised_sqlite(demo_sqlite: Path, demo_postgres: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo file with every JSON value replaced by the text PostgreSQL gives back for it.

    jsonb keeps neither key order nor spacing (keys come back shorter-first), so a JSON part's
    characters can be ordered differently; with the same texts, both stores must answer alike."""
    path = tmp_path_factory.mktemp("normalised") / "covel.db"
    shutil.copyfile(demo_sqlite, path)
    with closing(_connect(demo_postgres)) as conn, closing(sqlite3.connect(path)) as lite:
        for table in ("trace_events", "turn_results", "turn_messages", "session_summaries", "sessions"):
            for column in sorted(JSON_COLUMNS[table]):
                if not lite.execute("SELECT 1 FROM pragma_table_info(?) WHERE name = ?", (table, column)).fetchone():
                    continue
                texts = conn.execute(f'SELECT id, "{column}"::text FROM {table}').fetchall()
                lite.executemany(f'UPDATE {table} SET "{column}" = ? WHERE id = ?', [(t, i) for i, t in texts])
        lite.commit()
    return path


def test_listings_are_identical(demo_sqlite: Path, normalised_sqlite: Path, demo_postgres: str,
                                capfdbinary) -> None:
    commands = [("sessions",), ("turns", "demo-lantern-deepseek"), ("turns", "demo-lantern-gemini"), ("requests",),
                ("requests", "--session", "demo-lantern-claude", "--runtime", "narrator/main")]
    for command in commands:
        code_a, lite, _ = _run(capfdbinary, command[0], demo_sqlite, *command[1:])
        code_b, pg, _ = _run(capfdbinary, command[0], demo_postgres, *command[1:])
        assert code_a == code_b == 0 and pg == lite, command
        code_a, lite, _ = _run(capfdbinary, command[0], demo_sqlite, *command[1:], "--json")
        code_b, pg, _ = _run(capfdbinary, command[0], demo_postgres, *command[1:], "--json")
        # Same values; a retry scope's keys come back in jsonb's order.
        assert code_a == code_b == 0 and json.loads(pg) == json.loads(lite), command
        _, same_texts, _ = _run(capfdbinary, command[0], normalised_sqlite, *command[1:], "--json")
        assert pg == same_texts, command


def _largest_request_per_protocol(path: Path) -> list[str]:
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as lite:
        rows = lite.execute("SELECT id, session_id, length(payload) FROM trace_events WHERE type = 'llm.calling' "
                            "ORDER BY length(payload) DESC").fetchall()
    best: dict[str, str] = {}
    for eid, sid, _size in rows:
        best.setdefault(sid, eid)
    return list(best.values())


def test_anatomy_matches(normalised_sqlite: Path, demo_postgres: str, capfdbinary) -> None:
    for event_id in _largest_request_per_protocol(normalised_sqlite):
        for flag in ((), ("--json",)):
            code_a, lite, _ = _run(capfdbinary, "show", normalised_sqlite, event_id, *flag)
            code_b, pg, _ = _run(capfdbinary, "show", demo_postgres, event_id, *flag)
            assert code_a == code_b == 0 and pg == lite and len(pg) > 1000


def test_prefix_report_matches_and_sizes_do_not_depend_on_key_order(
        demo_sqlite: Path, normalised_sqlite: Path, demo_postgres: str, capfdbinary) -> None:
    for args in (("--json",), (), ("--show", "narrator/main"), ("--session", "demo-lantern-claude", "--json")):
        code_a, lite, _ = _run(capfdbinary, "prefix", normalised_sqlite, *args)
        code_b, pg, err = _run(capfdbinary, "prefix", demo_postgres, *args)
        assert code_a == code_b == 0 and err == "" and pg == lite, args
    _, original, _ = _run(capfdbinary, "prefix", demo_sqlite, "--json")
    _, pg, _ = _run(capfdbinary, "prefix", demo_postgres, "--json")
    original_entries, pg_entries = json.loads(original), json.loads(pg)
    sizes = ("sessionId", "runtimeId", "turns", "calls", "totalChars", "firstRequestChars")
    assert [{k: e[k] for k in sizes} for e in pg_entries] == [{k: e[k] for k in sizes} for e in original_entries]
    assert [[(p["size"], p["tokens"]) for p in e["pairs"]] for e in pg_entries] == [
        [(p["size"], p["tokens"]) for p in e["pairs"]] for e in original_entries]
    # Where the first difference lies inside a JSON part, key order moves it (the jsonb caveat).
    assert pg_entries != original_entries


def test_search_finds_the_same_requests(demo_sqlite: Path, demo_postgres: str) -> None:
    with open_store(demo_sqlite) as lite, open_store(demo_postgres) as pg:
        for needle in ("灯岭镇", "COVEL_CACHE_BREAK", "SYSTEM-INSTRUCTION", "rows: a\ninputs", "雾潮\n", "emit-event"):
            assert views.search_requests(pg, needle) == views.search_requests(lite, needle), needle
        assert views.request_facets(pg) == views.request_facets(lite)
        assert len(views.search_requests(pg, "灯岭镇")) > 100
