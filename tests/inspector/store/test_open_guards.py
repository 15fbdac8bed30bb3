"""The store's open guards found by the issue-17 review: an asked-for immutable=1 that would read
wrong, Covel closing the store during an open, one URL rule, secrets of URLs that do not parse,
backends without a read-only guard, the private-copy sweep, the one SQLite engine factory."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from inspector import cli
from inspector.jsjson import node_text
from inspector.store import StoreOpenError, open_store
from inspector.store import sqlite_open
from inspector.store.columns import node_text_factory
from inspector.store.sqlite_open import SIDECARS_LEFT, UNFINISHED_WRITE, read_only_connection
from inspector.store.urls import HIDDEN, bad_url_message, looks_like_url, scrub_text, unparsed_url

SESSIONS = ["s1", "s2"]


@pytest.fixture(autouse=True)
def cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    return folder


def _disk(folder: Path) -> tuple[list[str], dict[str, str]]:
    names = sorted(os.listdir(folder))
    return names, {name: hashlib.sha256((folder / name).read_bytes()).hexdigest()
                   for name in names if (folder / name).is_file()}


def _snapshots(cache: Path) -> list[str]:
    root = cache / "prompt-inspector" / "snapshots"
    return sorted(os.listdir(root)) if root.exists() else []


def _run(capfd: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capfd.readouterr()
    code = cli.main(list(argv))
    out, err = capfd.readouterr()
    return code, out, err


# ----------------------------------------------------------------- 3: immutable=1 as asked


def _hot_journal(path: Path) -> None:
    """A writer that dies in the middle of a big write whose pages spilled into the file."""
    code = (
        "import os, sqlite3\n"
        f"conn = sqlite3.connect({str(path)!r}, isolation_level=None)\n"
        "conn.execute('PRAGMA cache_size=1')\n"
        "conn.execute('BEGIN')\n"
        "for n in range(3000):\n"
        "    conn.execute(\"INSERT INTO trace_events (id, session_id, type, trace_id, turn_id, payload, created_at,"
        " seq) VALUES (?, 's9', 'x', 't', 't', ?, '2026', ?)\", ('z%d' % n, 'p' * 300, n))\n"
        "conn.execute(\"UPDATE trace_events SET payload = payload || 'torn'\")\n"
        "os._exit(0)\n")
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_immutable_url_with_a_hot_journal_reads_the_last_committed_state(
        make_db, build_sample, cache: Path, capfd: pytest.CaptureFixture[str]) -> None:
    db = make_db()
    build_sample(db)
    db.close()
    _hot_journal(db.path)
    folder = db.path.parent
    before = _disk(folder)
    assert before[0] == ["covel.db", "covel.db-journal"]
    url = f"sqlite:///{db.path}?immutable=1"
    with open_store(url) as store:
        assert store.read_only_mode == "copy"
        assert any(UNFINISHED_WRITE in n and "immutable=1 was asked" in n for n in store.schema_notes)
        assert [s.id for s in store.sessions()] == SESSIONS
        assert not any("torn" in str(e.raw_payload) for e in store.events("s1"))
    code, out, err = _run(capfd, "prefix", "--json", url)
    assert code == 0 and "damaged" not in err and "immutable=1 was asked" in err
    json.loads(out)
    assert _disk(folder) == before and _snapshots(cache) == []


def test_immutable_url_with_a_wal_holding_changes_reads_them(make_db, build_sample, tmp_path: Path,
                                                             cache: Path) -> None:
    db = make_db(wal=True)
    build_sample(db)
    db.commit()  # every row is in the -wal
    crashed = tmp_path / "crashed"
    crashed.mkdir()
    shutil.copyfile(db.path, crashed / "covel.db")
    shutil.copyfile(str(db.path) + "-wal", crashed / "covel.db-wal")
    db.close()
    before = _disk(crashed)
    with open_store(f"sqlite:///{crashed / 'covel.db'}?immutable=1") as store:
        assert store.read_only_mode == "copy"
        assert any("would not read the changes in the -wal" in n for n in store.schema_notes)
        assert [s.id for s in store.sessions()] == SESSIONS
    assert _disk(crashed) == before and _snapshots(cache) == []


@pytest.mark.parametrize("journal", [b"", b"\x00" * 512])
def test_immutable_url_with_a_finished_journal_is_opened_as_asked(make_db, build_sample, journal: bytes) -> None:
    # The boundary: an empty -journal (TRUNCATE) or a zeroed header (PERSIST) is no unfinished write.
    db = make_db()
    build_sample(db)
    db.close()
    Path(str(db.path) + "-journal").write_bytes(journal)
    before = _disk(db.path.parent)
    with open_store(f"sqlite:///{db.path}?immutable=1") as store:
        assert store.read_only_mode == "immutable"
        assert [s.id for s in store.sessions()] == SESSIONS
    assert _disk(db.path.parent) == before


# ----------------------------------------------------------------- 6: Covel closes during the open


def test_covel_closing_during_a_read_only_open_is_noticed(make_db, build_sample,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    db = make_db(wal=True)
    build_sample(db)
    db.commit()  # Covel has it open: -wal and -shm are there, so mode=ro is chosen
    main_hash = hashlib.sha256(db.path.read_bytes()).hexdigest()
    real_connect = sqlite_open._sqlite_connect
    opened: list[str] = []

    def covel_closes_first(uri: str, timeout: float) -> sqlite3.Connection:
        if not opened:
            db.close()  # checkpoints and removes its -wal and -shm, between the choice and the open
            main_hash_after_close.append(hashlib.sha256(db.path.read_bytes()).hexdigest())
        opened.append(uri)
        return real_connect(uri, timeout)

    main_hash_after_close: list[str] = []
    monkeypatch.setattr(sqlite_open, "_sqlite_connect", covel_closes_first)
    with open_store(db.path) as store:
        assert store.read_only_mode == "ro"
        assert SIDECARS_LEFT in store.schema_notes
        assert [s.id for s in store.sessions()] == SESSIONS
    assert len({uri for uri in opened}) == 1 and len(opened) >= 2  # opened, found changed, chosen again
    assert hashlib.sha256(db.path.read_bytes()).hexdigest() == main_hash_after_close[0] != main_hash


def test_a_commit_during_a_read_only_open_is_no_reason_to_open_again(make_db, build_sample,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    db = make_db(wal=True)
    build_sample(db)
    db.commit()
    real_connect = sqlite_open._sqlite_connect
    opened: list[str] = []

    def covel_commits(uri: str, timeout: float) -> sqlite3.Connection:
        if not opened:
            db.session("s3")
            db.commit()  # the -wal grows; the same -wal and -shm stay
        opened.append(uri)
        return real_connect(uri, timeout)

    monkeypatch.setattr(sqlite_open, "_sqlite_connect", covel_commits)
    try:
        listing = sorted(os.listdir(db.path.parent))
        with open_store(db.path) as store:
            assert store.read_only_mode == "ro" and SIDECARS_LEFT not in store.schema_notes
            assert len(opened) == 1
        assert sorted(os.listdir(db.path.parent)) == listing
    finally:
        db.close()


# ----------------------------------------------------------------- 16: the sweep


def test_a_plain_open_sweeps_the_copies_of_a_killed_process(make_db, build_sample, cache: Path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True).stdout.strip()
    root = cache / "prompt-inspector" / "snapshots"
    (root / f"{dead}-left").mkdir(parents=True)
    (root / f"{dead}-left" / "covel.db").write_bytes(b"old copy")
    (root / f"{os.getppid()}-alive").mkdir()  # a running process's copy stays
    db = make_db()
    build_sample(db)
    db.close()
    before = _disk(db.path.parent)
    with open_store(db.path) as store:  # no copy is needed for this one
        assert store.read_only_mode == "ro"
    assert _snapshots(cache) == [f"{os.getppid()}-alive"]
    assert _disk(db.path.parent) == before


def test_a_plain_open_with_no_cache_folder_creates_none(make_db, build_sample, cache: Path) -> None:
    db = make_db()
    build_sample(db)
    db.close()
    with open_store(db.path):
        pass
    assert os.listdir(cache) == []


# ----------------------------------------------------------------- 10: one engine factory


def test_a_plain_connection_is_made_by_the_one_factory_and_is_query_only(
        make_db, build_sample, monkeypatch: pytest.MonkeyPatch) -> None:
    db = make_db()
    build_sample(db)
    db.close()
    made: list[str] = []
    real_connect = sqlite_open._sqlite_connect

    def recording(uri: str, timeout: float) -> sqlite3.Connection:
        made.append(uri)
        return real_connect(uri, timeout)

    monkeypatch.setattr(sqlite_open, "_sqlite_connect", recording)
    before = _disk(db.path.parent)
    with read_only_connection(db.path) as conn:
        assert conn.execute("PRAGMA query_only").fetchone() == (1,)
        assert conn.execute("PRAGMA busy_timeout").fetchone() == (int(sqlite_open.DEFAULT_BUSY_TIMEOUT * 1000),)
        with pytest.raises(sqlite3.OperationalError):
            conn.execute("CREATE TABLE x (y)")
    assert made and all("mode=ro" in uri for uri in made)
    assert _disk(db.path.parent) == before


# ----------------------------------------------------------------- 11: one URL rule


@pytest.mark.parametrize("text, expected", [
    ("sqlite:///covel.db", True),
    ("postgresql://u@h/db", True),
    ("postgresql+psycopg://u@h/db", True),
    ("/data/a://b/covel.db", False),  # "://" inside a path
    ("covel://", True),
    ("1sqlite:///x", False),  # a scheme starts with a letter
    ("://x", False),
    ("covel.db", False),
    (Path("/tmp/x.db"), False),
])
def test_looks_like_url_is_a_scheme_at_the_start(text: Any, expected: bool) -> None:
    assert looks_like_url(text) is expected


def test_a_path_with_a_scheme_like_part_is_opened_as_a_file(make_db, build_sample, tmp_path: Path) -> None:
    db = make_db()
    build_sample(db)
    db.close()
    (tmp_path / "a:").mkdir()
    shutil.copyfile(db.path, tmp_path / "a:" / "covel.db")
    with open_store(f"{tmp_path}/a://covel.db") as store:
        assert [s.id for s in store.sessions()] == SESSIONS


# ----------------------------------------------------------------- 4, 17: secrets of shown URLs


@pytest.mark.parametrize("text, shown", [
    ("postgresql://bob:s3cretQ?x@127.0.0.1:abc/covel", "postgresql://127.0.0.1:abc"),
    ("postgresql://bob:s3/cr:et@db.example:abc/covel?x=1", "postgresql://db.example:abc"),
    ("postgresql://db.example:abc/covel?password=s3c@ret", f"postgresql://{HIDDEN}"),
    ("postgresql://db.example:abc/covel", "postgresql://db.example:abc"),
])
def test_a_url_that_does_not_parse_is_shown_by_scheme_and_host(text: str, shown: str) -> None:
    assert unparsed_url(text) == shown
    assert "s3c" not in unparsed_url(text)


def test_a_password_with_a_question_mark_is_not_shown(capfd: pytest.CaptureFixture[str]) -> None:
    url = "postgresql://bob:s3cretQ?x@127.0.0.1:abc/covel"
    with pytest.raises(StoreOpenError) as info:
        open_store(url)
    assert "s3cret" not in str(info.value) and "127.0.0.1" in str(info.value)
    assert "the port 'abc' is not a number" in str(info.value)
    code, out, err = _run(capfd, "sessions", url)
    assert code == 2 and out == "" and "s3cret" not in err and err.count("\n") == 1


def test_a_port_inside_a_secret_is_not_quoted() -> None:
    # SQLAlchemy reads the port from inside the query value here; it is never quoted.
    message, shown = bad_url_message("postgresql://h:1/db?password=se@x:cret",
                                     ValueError("invalid literal for int() with base 10: 'cret'"))
    assert "cret" not in message and shown == f"postgresql://{HIDDEN}"


@pytest.mark.parametrize("text, expected", [
    ("postgresql://h/db?password=***: cannot connect", "postgresql://h/db?password=***: cannot connect"),
    ("password=***. done", "password=***. done"),
    ("password=***", "password=***"),
    ("password=abc: cannot connect", "password=*** cannot connect"),
    ("password=***abc cannot connect", "password=*** cannot connect"),  # not masked yet: masked
])
def test_a_masked_value_is_not_masked_again(text: str, expected: str) -> None:
    assert scrub_text(text) == expected
    assert scrub_text(scrub_text(text)) == scrub_text(text)


# ----------------------------------------------------------------- 20: other backends


@pytest.mark.parametrize("url", ["mysql://bob:s3cret@db.example/covel", "mssql+pyodbc://bob:s3cret@dsn",
                                 "oracle://bob:s3cret@db.example/covel", "duckdb:///covel.duckdb"])
def test_backends_without_a_read_only_guard_are_refused(url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capfd: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StoreOpenError, match="is not a Covel store backend") as info:
        open_store(url)
    assert "s3cret" not in str(info.value)
    code, out, err = _run(capfd, "sessions", url)
    assert code == 2 and out == "" and err.count("\n") == 1 and "s3cret" not in err
    assert os.listdir(tmp_path) == []


# ----------------------------------------------------------------- 14: the text factory, the options


def test_the_text_factory_is_put_back_even_after_an_error() -> None:
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("CREATE TABLE t (x)")
        conn.execute("INSERT INTO t VALUES (CAST(x'ff41' AS TEXT))")
        with pytest.raises(RuntimeError), node_text_factory(conn):
            assert conn.text_factory is node_text
            assert conn.execute("SELECT x FROM t").fetchone() == ("\ufffdA",)
            raise RuntimeError
        assert conn.text_factory is str
    finally:
        conn.close()


def test_every_allowed_url_option_is_named_when_one_is_refused(make_db, build_sample) -> None:
    db = make_db()
    build_sample(db)
    db.close()
    with pytest.raises(StoreOpenError) as info:
        open_store(f"sqlite:///{db.path}?nolock=1")
    for name in ("timeout=", "mode=ro", "immutable=", "uri=", "cache=private", "check_same_thread="):
        assert name in str(info.value)
    with open_store(f"sqlite:///{db.path}?check_same_thread=0") as store:  # allowed, as the message says
        assert [s.id for s in store.sessions()] == SESSIONS
