"""The prompt index answers exactly what the scan answers, lives in the cache directory and
follows the database it indexes."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector import views
from inspector.search import index as search_index
from inspector.demo.schema import render_ddl
from inspector.cache_folder import default_cache_dir
from inspector.search.index import SearchIndex
from inspector.store import open_store


def _write_db(path: Path, payloads: list[bytes | None], *, start: int = 0, session: str = "s1") -> list[str]:
    new = not path.exists()
    con = sqlite3.connect(path)
    if new:
        con.executescript(render_ddl())
    ids = []
    for i, payload in enumerate(payloads, start=start):
        eid = f"ev-{session}-{i:05d}"
        ids.append(eid)
        con.execute("INSERT INTO trace_events (id, session_id, type, trace_id, turn_id, payload, created_at, seq) "
                    "VALUES (?, ?, 'llm.calling', 't1', 't1', ?, ?, 0)",
                    (eid, session, payload, f"2026-01-01T00:00:{i % 60:02d}.{i % 1000:03d}Z"))
        # A small row between requests, as Covel writes them.
        con.execute("INSERT INTO trace_events (id, session_id, type, trace_id, turn_id, payload, created_at, seq) "
                    "VALUES (?, ?, 'llm.responded', 't1', 't1', '{\"text\":\"Fog\"}', ?, 1)",
                    (f"resp-{session}-{i:05d}", session, f"2026-01-01T00:00:{i % 60:02d}.{i % 1000:03d}Z"))
    con.commit()
    con.close()
    return ids


def _payload(text: str, style: int) -> bytes:
    doc = {"runtimeId": "narrator/main", "messages": [{"role": "user", "content": text}], "model": "m"}
    if style == 0:
        return orjson.dumps(doc)  # JSON.stringify's shape: non-ASCII kept, few escapes
    if style == 1:
        return json.dumps(doc, ensure_ascii=True).encode()  # \uXXXX escapes, surrogate pairs
    return json.dumps(doc, ensure_ascii=False, indent=1).encode()


def _answers(tmp: Path, db: Path, needle: str) -> tuple[set[str] | None, set[str]]:
    with open_store(db) as store:
        index = SearchIndex(store, tmp / "cache")
        assert index.build()
        return index.search(needle), views.search_requests(store, needle)


TEXT = st.text(alphabet=st.sampled_from(
    list("abcXYZ fog\"\\/\n\t'<>{}") + ["灯", "岭", "镇", "雾", "é", "É", "ß", "😀", "𝔘", "\u2028", "\x00", "\x7f", "İ", "ǅ"]),
    max_size=40)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(texts=st.lists(TEXT, min_size=1, max_size=6), styles=st.lists(st.integers(0, 2), min_size=6, max_size=6),
       data=st.data())
def test_index_equals_the_scan(tmp_path_factory, texts, styles, data):
    tmp = tmp_path_factory.mktemp("diff")
    db = tmp / "covel.db"
    payloads = [_payload(t, styles[i]) for i, t in enumerate(texts)]
    _write_db(db, payloads)
    source = data.draw(st.sampled_from(texts))
    if source and data.draw(st.booleans()):
        a = data.draw(st.integers(0, len(source)))
        b = data.draw(st.integers(a, len(source)))
        needle = source[a:b]
    else:
        needle = data.draw(TEXT)
    if data.draw(st.booleans()):
        needle = needle.swapcase()
    with open_store(db) as store:
        index = SearchIndex(store, tmp / "cache")
        assert index.build()
        scanned = views.search_requests(store, needle)
        outcome = views.search_prompts(store, needle, index=index)
        assert outcome.matches == scanned
        if len(needle) >= search_index.MIN_NEEDLE and "\x00" not in needle:
            assert outcome.via == "index" and outcome.note is None
            assert index.search(needle) == scanned
        else:
            assert index.search(needle) is None
            assert outcome.via == "scan"


@pytest.mark.parametrize("needle, expected", [
    ("FOG rolls", {0}),            # ASCII case is ignored
    ("的雾潮", {1, 2}),             # stored as UTF-8 and as \\u escapes
    ('said "hi"', {3}),             # a quote is stored escaped
    ("line one\nline two", {4}),    # so is a newline
    ("😀 end", {5}),                # an astral character, escaped as a surrogate pair in one row
    ("Émile", {6}),                 # non-ASCII case is not folded …
    ("émile", set()),               # … just as the scan does not fold it
])
def test_index_finds_what_the_scan_finds(tmp_path, needle, expected):
    texts = ["the fog rolls in", "灯岭镇的雾潮", "灯岭镇的雾潮", 'she said "hi" twice', "line one\nline two",
             "smile 😀 end", "Émile"]
    styles = [0, 0, 1, 0, 0, 1, 0]
    db = tmp_path / "covel.db"
    ids = _write_db(db, [_payload(t, s) for t, s in zip(texts, styles)])
    found, scanned = _answers(tmp_path, db, needle)
    assert found == scanned == {ids[i] for i in expected}


def test_short_needles_and_unusual_payloads_fall_back_to_the_scan(tmp_path):
    db = tmp_path / "covel.db"
    ids = _write_db(db, [_payload("ab fog", 0), b'{"messages":"fog \xff\xfe not utf-8"}', None, b"not json fog"])
    with open_store(db) as store:
        index = SearchIndex(store, tmp_path / "cache")
        assert index.build()
        assert index.search("ab") is None
        assert "shorter" in index.can_answer("ab")
        outcome = views.search_prompts(store, "ab", index=index)
        assert outcome.via == "scan" and outcome.matches == {ids[0]}
        # A payload that is not UTF-8 is checked byte by byte; a NULL payload matches nothing.
        assert index.search("fog") == views.search_requests(store, "fog") == {ids[0], ids[1], ids[3]}


def test_index_lives_in_the_cache_directory_keyed_by_the_file(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    db = data / "covel.db"
    _write_db(db, [_payload("fog", 0)])
    before = sorted(os.listdir(data))
    with open_store(db) as store:
        index = SearchIndex(store, tmp_path / "cache")
        assert index.build()
        assert index.path.parent == tmp_path / "cache" / "search"
        assert index.path.exists()
        assert index.key in index.path.name
    assert sorted(os.listdir(data)) == before  # nothing written beside the database
    # Another file gets another index.
    other = data / "other.db"
    _write_db(other, [_payload("fog", 0)])
    with open_store(other) as store:
        assert SearchIndex(store, tmp_path / "cache").path != index.path


def test_index_refuses_to_live_beside_the_database(tmp_path):
    db = tmp_path / "covel.db"
    _write_db(db, [_payload("fog", 0)])
    with open_store(db) as store:
        index = SearchIndex(store, tmp_path.parent / tmp_path.name / ".." / tmp_path.name)
        index.directory = tmp_path  # the search folder would be the database's own folder
        index.problem = index._refuse_reason()
        assert index.problem is not None and "beside" in index.problem
        assert not index.build()
        outcome = views.search_prompts(store, "fog", index=index)
        assert outcome.via == "scan" and "beside" in outcome.note
    assert sorted(p.name for p in tmp_path.iterdir()) == ["covel.db"]


def test_appended_rows_extend_the_index(tmp_path):
    db = tmp_path / "covel.db"
    first = _write_db(db, [_payload("fog one", 0), _payload("rain", 0)])
    with open_store(db) as store:
        index = SearchIndex(store, tmp_path / "cache")
        assert index.build()
        built_at = index.path.stat().st_ino
        assert index.search("fog") == {first[0]}
    later = _write_db(db, [_payload("fog two", 0)], start=10)
    more = _write_db(db, [_payload("fog three", 0)], start=0, session="s2")
    with open_store(db) as store:
        index = SearchIndex(store, tmp_path / "cache")
        assert index.ready()
        assert index.search("fog") == views.search_requests(store, "fog") == {first[0], later[0], more[0]}
        assert index.path.stat().st_ino == built_at  # extended in place, not rebuilt


def test_a_rewritten_file_rebuilds_the_index(tmp_path):
    db = tmp_path / "covel.db"
    _write_db(db, [_payload("fog one", 0), _payload("fog two", 0)])
    with open_store(db) as store:
        assert SearchIndex(store, tmp_path / "cache").build()
    # Same path and inode, new contents (a restored backup copied over it).
    replacement = tmp_path / "new.db"
    fresh = _write_db(replacement, [_payload("rain", 0), _payload("fog again", 0)], session="x")
    with open(db, "r+b") as handle:
        handle.write(replacement.read_bytes())
        handle.truncate()
    with open_store(db) as store:
        index = SearchIndex(store, tmp_path / "cache")
        assert index.ready()
        # The last indexed row is gone: extending cannot be trusted, so the index is rebuilt.
        assert index.search("fog") is None
        assert index.build()
        assert index.search("fog") == views.search_requests(store, "fog") == {fresh[1]}


def test_deleted_rows_leave_the_answers(tmp_path):
    db = tmp_path / "covel.db"
    ids = _write_db(db, [_payload("fog one", 0), _payload("fog two", 0), _payload("fog three", 0)])
    with open_store(db) as store:
        assert SearchIndex(store, tmp_path / "cache").build()
    con = sqlite3.connect(db)
    con.execute("DELETE FROM trace_events WHERE id = ?", (ids[0],))  # Covel's retention
    con.commit()
    con.close()
    with open_store(db) as store:
        index = SearchIndex(store, tmp_path / "cache")
        assert index.search("fog") == views.search_requests(store, "fog") == {ids[1], ids[2]}


def test_background_build_reports_while_the_scan_answers(tmp_path):
    db = tmp_path / "covel.db"
    ids = _write_db(db, [_payload("fog", 0)])
    with open_store(db) as store:
        index = SearchIndex(store, tmp_path / "cache")
        assert "not been built" in index.can_answer("fog")
        outcome = views.search_prompts(store, "fog", index=index)
        assert outcome.via == "scan" and outcome.matches == {ids[0]}
        done = []
        thread = index.start_build(on_done=done.append)
        thread.join(30)
        assert done == [True]
        assert views.search_prompts(store, "fog", index=index).via == "index"
        assert search_index.index_for(store, tmp_path / "cache") is search_index.index_for(store, tmp_path / "cache")


def test_session_filter(tmp_path):
    db = tmp_path / "covel.db"
    a = _write_db(db, [_payload("fog", 0)])
    b = _write_db(db, [_payload("fog", 0)], session="s2")
    with open_store(db) as store:
        index = SearchIndex(store, tmp_path / "cache")
        assert index.build()
        assert index.search("fog", "s2") == views.search_requests(store, "fog", "s2") == set(b)
        assert index.search("fog") == set(a) | set(b)


def test_small_stores_are_not_indexed(tmp_path):
    db = tmp_path / "covel.db"
    _write_db(db, [_payload("fog", 0)])
    with open_store(db) as store:
        assert not search_index.worth_indexing(store)


@pytest.mark.parametrize("platform, env, expected", [
    ("linux", {"HOME": "/home/u"}, "/home/u/.cache/prompt-inspector"),
    ("linux", {"HOME": "/home/u", "XDG_CACHE_HOME": "/var/c"}, "/var/c/prompt-inspector"),
    ("linux", {"HOME": "/home/u", "XDG_CACHE_HOME": "relative"}, "/home/u/.cache/prompt-inspector"),
    ("darwin", {"HOME": "/Users/u"}, "/Users/u/Library/Caches/prompt-inspector"),
    ("win32", {"HOME": "C:/Users/u", "LOCALAPPDATA": "C:/Users/u/AppData/Local"},
     "C:/Users/u/AppData/Local/cache/prompt-inspector"),
])
def test_default_cache_dir(platform, env, expected):
    assert default_cache_dir(env, platform) == Path(expected)


def test_postgresql_looks_for_appended_rows_once_per_change(tmp_path, pg_schema):
    # On a server a look for appended rows costs two queries per session: a search on an
    # unchanged store asks only for its change token; a commit makes the next search look again.
    import psycopg

    from inspector.demo.pg import copy_to_postgres, libpq_conninfo

    db = tmp_path / "covel.db"
    first = _write_db(db, [_payload("fog one", 0), _payload("rain", 0)])
    _write_db(db, [_payload("fog far", 0)], session="s2")
    url = pg_schema()
    copy_to_postgres(db, url)
    with open_store(url) as store:
        looks: list[str] = []
        for name in ("event_key", "iter_llm_calling_since"):
            original = getattr(store, name)

            def spy(*args, _original=original, _name=name, **kwargs):
                looks.append(_name)
                return _original(*args, **kwargs)

            setattr(store, name, spy)
        index = SearchIndex(store, tmp_path / "cache")
        assert index.build()
        looks.clear()
        assert index.search("fog one") == {first[0]}
        assert index.search("rain") == {first[1]}
        assert looks == []  # nothing committed since the build: no look

        with psycopg.connect(libpq_conninfo(url)) as writer:
            writer.execute("INSERT INTO trace_events (id, session_id, type, trace_id, turn_id, payload, created_at) "
                           "VALUES ('ev-late', 's1', 'llm.calling', 't2', 't2', %s, '2026-01-02T00:00:00.000Z')",
                           (_payload("fog late", 0).decode(),))
        assert index.search("fog") == views.search_requests(store, "fog") == {first[0], "ev-s2-00000", "ev-late"}
        assert looks  # the commit moved the token: appended rows looked for
        looks.clear()
        assert index.search("late") == {"ev-late"}
        assert looks == []
