"""Read-only by construction: no SQLite open writes to, creates beside, or reads torn data from
the user's database, whatever state it is in and whatever URL names it (issue 17).

Each case builds the file state with the ``sqlite3`` module, then checks the hash of the files
and the folder's listing before and after an open, a full read and a close, and that what was
read is the last committed state.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from inspector import cli
from inspector.follow import ChangeWatcher
from inspector.inputs import InputFileError, check_regular_file
from inspector.store import StoreError, StoreNotFoundError, StoreOpenError, open_store
from inspector.store import sqlite_open
from inspector.store.sqlite_open import UNFINISHED_WRITE

# What build_sample commits (conftest): two sessions, 14 events in s1, 5 model requests.
SESSIONS = ["s1", "s2"]
S1_EVENTS = 14
CALLS = 5


@pytest.fixture(autouse=True)
def cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The application's cache folder (where private copies go), outside the database's folder."""
    folder = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder))
    return folder


def _snapshots(cache: Path) -> list[str]:
    root = cache / "prompt-inspector" / "snapshots"
    return sorted(os.listdir(root)) if root.exists() else []


def _disk(folder: Path) -> tuple[list[str], dict[str, str]]:
    """The folder's listing, and the sha256 of every file in it but the -shm (shared memory
    that every reader, Covel's own included, writes to)."""
    names = sorted(os.listdir(folder))
    hashes = {name: hashlib.sha256((folder / name).read_bytes()).hexdigest()
              for name in names if not name.endswith("-shm") and (folder / name).is_file()}
    return names, hashes


def _read_all(store: Any) -> tuple[list[str], int, int]:
    sessions = [s.id for s in store.sessions()]
    for sid in sessions:
        store.turns(sid)
        store.events(sid)
        store.llm_calls(sid)
        store.turn_messages(sid)
        store.turn_results(sid)
    calls = len(list(store.iter_llm_calling_rows()))
    return sessions, len(store.events("s1")), calls


@pytest.fixture
def run_cli(capfdbinary: pytest.CaptureFixture[bytes]) -> Callable[..., tuple[int, str, str]]:
    def run(*argv: str) -> tuple[int, str, str]:
        capfdbinary.readouterr()
        code = cli.main(list(argv))
        out, err = capfdbinary.readouterr()
        return code, out.decode(), err.decode()

    return run


def _check_untouched(run_cli: Callable[..., tuple[int, str, str]], folder: Path, target: str, cache: Path, *,
                     mode: str, note: str | None) -> None:
    """Open ``target`` (path or URL), read everything, close; then the CLI's ``sessions`` and
    ``prefix --json``: nothing on disk changes, and the committed rows are what is read."""
    before = _disk(folder)
    with open_store(target) as store:
        assert store.read_only_mode == mode
        if note is not None:
            assert any(note in n for n in store.schema_notes), store.schema_notes
        assert _read_all(store) == (SESSIONS, S1_EVENTS, CALLS)
        assert _disk(folder)[0] == before[0]
    assert _disk(folder) == before
    code, out, err = run_cli("sessions", target)
    assert code == 0, err
    assert [line.split()[0] for line in out.splitlines()[1:] if line.strip()][:2] == SESSIONS
    if note is None:
        assert err == ""  # nothing to say: the output is as it always was
    code, out, err = run_cli("prefix", "--json", target)
    assert code == 0, err
    json.loads(out)
    if note is None:
        assert err == ""
    assert _disk(folder) == before
    assert _snapshots(cache) == []


# ------------------------------------------------------------------------ file states


def test_wal_closed_cleanly_is_read_immutable_without_creating_files(make_db, build_sample, cache: Path,
                                                                     run_cli) -> None:
    db = make_db(wal=True)
    build_sample(db)
    db.close()
    assert sorted(os.listdir(db.path.parent)) == ["covel.db"]
    # The common case (Covel not running) gives no note: the mode says it (the app's info panel).
    _check_untouched(run_cli, db.path.parent, str(db.path), cache, mode="immutable", note=None)


def test_wal_with_a_live_writer_is_read_in_place(make_db, build_sample, cache: Path, run_cli) -> None:
    db = make_db(wal=True)
    build_sample(db)
    db.commit()
    db.conn.execute("BEGIN IMMEDIATE")
    db.session("s9", created=99)  # not committed: never read
    try:
        assert sorted(os.listdir(db.path.parent)) == ["covel.db", "covel.db-shm", "covel.db-wal"]
        _check_untouched(run_cli, db.path.parent, str(db.path), cache, mode="ro", note=None)
    finally:
        db.conn.rollback()
        db.close()


def _crash_copy(db: Any, target: Path) -> Path:
    """The files Covel leaves when it stops without closing: the database and a -wal with the
    committed rows, no -shm (copied while the writer holds them)."""
    target.mkdir()
    shutil.copyfile(db.path, target / "covel.db")
    shutil.copyfile(str(db.path) + "-wal", target / "covel.db-wal")
    return target / "covel.db"


def test_wal_after_a_crash_without_shm_is_read_through_a_private_copy(
        make_db, build_sample, tmp_path: Path, cache: Path, run_cli) -> None:
    db = make_db(wal=True)
    build_sample(db)
    db.commit()
    crashed = _crash_copy(db, tmp_path / "crashed")
    db.close()
    assert os.path.getsize(str(crashed) + "-wal") > 0
    with open_store(crashed) as store:
        assert len(_snapshots(cache)) == 1
        assert any(n.startswith("read through a private copy") for n in store.schema_notes)
    _check_untouched(run_cli, crashed.parent, str(crashed), cache, mode="copy", note="read through a private copy")


def _write_then_exit(path: Path, *, wal: bool, commit: bool) -> None:
    """A writer that dies (``os._exit``) after committing, or in the middle of a big write whose
    pages spill into the file (tiny cache), leaving a hot journal."""
    code = textwrap.dedent(f'''
        import os, sqlite3
        conn = sqlite3.connect({str(path)!r}, isolation_level=None)
        conn.execute("PRAGMA journal_mode={'WAL' if wal else 'DELETE'}")
        conn.execute("PRAGMA cache_size=1")
        conn.execute("BEGIN")
        for n in range(3000):
            conn.execute("INSERT INTO trace_events (id, session_id, type, trace_id, turn_id, payload, created_at,"
                         " seq) VALUES (?, 's9', 'x', 't', 't', ?, '2026', ?)", ("z%d" % n, "p" * 300, n))
        conn.execute("UPDATE trace_events SET payload = payload || 'torn'")
        if {commit!r}:
            conn.execute("COMMIT")
            conn.execute("BEGIN")
            conn.execute("DELETE FROM trace_events WHERE session_id = 's9'")
        os._exit(0)
    ''')
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_wal_after_a_crash_with_its_shm_is_read_in_place(make_db, build_sample, cache: Path) -> None:
    db = make_db(wal=True)
    build_sample(db)
    db.close()
    _write_then_exit(db.path, wal=True, commit=True)
    assert sorted(os.listdir(db.path.parent)) == ["covel.db", "covel.db-shm", "covel.db-wal"]
    before = _disk(db.path.parent)
    with open_store(db.path) as store:
        assert store.read_only_mode == "ro"
        assert [s.id for s in store.sessions()] == ["s1", "s2", "s9"]
        assert len(store.events("s9")) == 3000
    assert _disk(db.path.parent) == before


def test_hot_journal_shows_the_last_committed_state(make_db, build_sample, cache: Path, run_cli) -> None:
    db = make_db()
    build_sample(db)
    db.close()
    _write_then_exit(db.path, wal=False, commit=False)
    assert sorted(os.listdir(db.path.parent)) == ["covel.db", "covel.db-journal"]
    assert os.path.getsize(str(db.path) + "-journal") > 0
    _check_untouched(run_cli, db.path.parent, str(db.path), cache, mode="copy", note=UNFINISHED_WRITE)
    with open_store(db.path) as store:
        assert [s.id for s in store.sessions()] == SESSIONS  # not s9, written but never committed
        payloads = [str(e.raw_payload) for sid in SESSIONS for e in store.events(sid)]
        assert len(payloads) == S1_EVENTS + 1 and not any("torn" in p for p in payloads)
    code, _out, err = run_cli("prefix", "--json", str(db.path))
    assert code == 0 and UNFINISHED_WRITE in err and "-wal" not in err


def test_a_rollback_journal_file_is_read_in_place(make_db, build_sample, cache: Path, run_cli) -> None:
    db = make_db()
    build_sample(db)
    db.close()
    _check_untouched(run_cli, db.path.parent, str(db.path), cache, mode="ro", note=None)


def test_a_copy_is_refused_when_the_disk_is_full(make_db, build_sample, tmp_path: Path, cache: Path,
                                                 monkeypatch: pytest.MonkeyPatch, run_cli) -> None:
    db = make_db(wal=True)
    build_sample(db)
    db.commit()
    crashed = _crash_copy(db, tmp_path / "crashed")
    db.close()
    before = _disk(crashed.parent)
    real = shutil.disk_usage
    monkeypatch.setattr(sqlite_open.shutil, "disk_usage",
                        lambda p: real(p)._replace(free=1 << 20))
    with pytest.raises(StoreOpenError, match=r"needs a private copy .* only 1 MiB are free in .*snapshots"):
        open_store(crashed)
    assert _disk(crashed.parent) == before
    assert _snapshots(cache) == []
    code, out, err = run_cli("sessions", str(crashed))
    assert code == 2 and out == "" and err.count("\n") == 1 and "free some space" in err


def test_a_file_that_changes_while_it_is_copied_is_refused_after_a_few_tries(
        make_db, build_sample, tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = make_db(wal=True)
    build_sample(db)
    db.commit()
    crashed = _crash_copy(db, tmp_path / "crashed")
    db.close()
    real_copy = sqlite_open._copy_file
    copies: list[Path] = []

    def copy_while_written(source: Path, target: Path, location: str) -> None:
        real_copy(source, target, location)
        copies.append(source)
        os.utime(source, ns=(1, len(copies)))  # a writer touched it meanwhile

    monkeypatch.setattr(sqlite_open, "_copy_file", copy_while_written)
    with pytest.raises(StoreOpenError, match="kept changing while it was being opened.*try again"):
        open_store(crashed)
    assert len(copies) == 2 * 3
    assert _snapshots(cache) == []


def test_copies_left_by_a_process_that_died_are_swept(make_db, build_sample, tmp_path: Path, cache: Path) -> None:
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True).stdout.strip()
    root = cache / "prompt-inspector" / "snapshots"
    (root / f"{dead}-left").mkdir(parents=True)
    (root / f"{dead}-left" / "covel.db").write_bytes(b"old copy")
    (root / "not-a-copy").mkdir()
    db = make_db(wal=True)
    build_sample(db)
    db.commit()
    crashed = _crash_copy(db, tmp_path / "crashed")
    db.close()
    with open_store(crashed) as store:
        assert store.read_only_mode == "copy"
        assert [name for name in _snapshots(cache) if not name.startswith(f"{os.getpid()}-")] == ["not-a-copy"]
    assert _snapshots(cache) == ["not-a-copy"]


def test_a_link_is_judged_by_the_files_beside_its_target(make_db, build_sample, tmp_path: Path, cache: Path) -> None:
    db = make_db(wal=True)
    build_sample(db)
    db.commit()  # a live writer: its -wal and -shm are beside the target, not beside the link
    links = tmp_path / "links"
    links.mkdir()
    (links / "covel.db").symlink_to(db.path)
    try:
        before = _disk(tmp_path), sorted(os.listdir(links))
        with open_store(links / "covel.db") as store:
            assert store.read_only_mode == "ro" and store.path == links / "covel.db"
            assert _read_all(store) == (SESSIONS, S1_EVENTS, CALLS)
        assert (_disk(tmp_path), sorted(os.listdir(links))) == before
    finally:
        db.close()
    with open_store(links / "covel.db") as store:
        assert store.read_only_mode == "immutable"
    assert sorted(os.listdir(links)) == ["covel.db"] and "covel.db-wal" not in os.listdir(tmp_path)


def test_an_unusable_cache_folder_is_a_message(make_db, build_sample, tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    db = make_db(wal=True)
    build_sample(db)
    db.commit()
    crashed = _crash_copy(db, tmp_path / "crashed")
    db.close()
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    before = _disk(crashed.parent)
    with pytest.raises(StoreOpenError,
                       match=r"crashed/covel.db needs a private copy .* the cache folder .* cannot be used"):
        open_store(crashed)
    assert _disk(crashed.parent) == before


def test_hot_journal_is_never_retried_as_immutable() -> None:
    error = sqlite3.OperationalError("attempt to write a readonly database")
    error.sqlite_errorname = "SQLITE_READONLY_ROLLBACK"  # type: ignore[attr-defined]
    assert not sqlite_open._is_shm_failure(error)
    error.sqlite_errorname = "SQLITE_READONLY_DBMOVED"  # type: ignore[attr-defined]
    assert not sqlite_open._is_shm_failure(error)
    error.sqlite_errorname = "SQLITE_READONLY_CANTINIT"  # type: ignore[attr-defined]
    assert sqlite_open._is_shm_failure(error)
    assert sqlite_open._is_shm_failure(sqlite3.OperationalError("unable to open database file"))
    assert not sqlite_open._is_shm_failure(sqlite3.OperationalError("attempt to write a readonly database"))


@pytest.mark.parametrize("state", ["wal-clean", "wal-crash", "hot-journal"])
def test_a_plain_connection_for_other_readers_takes_the_same_way(make_db, build_sample, tmp_path: Path,
                                                                cache: Path, state: str) -> None:
    db = make_db(wal=state != "hot-journal")
    build_sample(db)
    db.commit()
    target = db.path
    if state == "wal-crash":
        target = _crash_copy(db, tmp_path / "crashed")
    db.close()
    if state == "hot-journal":
        _write_then_exit(db.path, wal=False, commit=False)
    before = _disk(target.parent)
    with sqlite_open.read_only_connection(target) as conn:
        assert [r[0] for r in conn.execute("SELECT id FROM sessions ORDER BY id")] == SESSIONS
        assert conn.execute("SELECT count(*) FROM trace_events WHERE session_id = 's1'").fetchone()[0] == S1_EVENTS
        with pytest.raises(sqlite3.OperationalError, match="readonly|read-only"):
            conn.execute("DELETE FROM sessions")
        assert _disk(target.parent)[0] == before[0]
    assert _disk(target.parent) == before
    assert _snapshots(cache) == []


# ------------------------------------------------------------------------ following a file


def _writer(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    return conn


def _add_session(conn: sqlite3.Connection, sid: str) -> None:
    conn.execute("INSERT INTO sessions (id, status, locale, active_plugins, created_at, updated_at, phase) "
                 "VALUES (?, 'active', 'en', '[]', '2026-10-06T09:00:00.000Z', '2026-10-06T09:00:00.000Z', 'playing')",
                 (sid,))
    conn.execute("INSERT INTO trace_events (id, session_id, type, trace_id, turn_id, payload, created_at, seq) "
                 "VALUES (?, ?, 'turn.started', 'n1', 'n1', '{}', '2026-10-06T09:00:00.000Z', 0)", (sid + "-e", sid))
    conn.commit()


def test_idle_file_is_opened_again_read_only_when_covel_starts_writing(make_db, build_sample, cache: Path) -> None:
    db = make_db(wal=True)
    build_sample(db)
    db.close()
    writer = None
    try:
        with open_store(db.path) as store:
            assert store.read_only_mode == "immutable"
            notes = store.schema_notes
            watcher = ChangeWatcher(store)
            watcher.start()
            assert watcher.poll().empty
            writer = _writer(db.path)  # Covel starts: its -wal and -shm appear
            _add_session(writer, "s7")
            changes = watcher.poll()
            assert store.read_only_mode == "ro" and store.url.endswith("?mode=ro")
            assert changes.new_sessions == ["s7"] and changes.sessions["s7"].new_turns == ["n1"]
            assert any(n.startswith("the file changed on disk since it was opened") for n in store.schema_notes)
            assert not any("fully written back" in n for n in store.schema_notes)
            assert store.schema_notes is notes  # the same list: notes added while reading still land in it
            _add_session(writer, "s8")
            assert watcher.poll().new_sessions == ["s8"]
            assert [s.id for s in store.sessions()] == ["s1", "s2", "s7", "s8"]
    finally:
        if writer is not None:
            writer.close()  # the last connection: Covel writes the -wal back and removes both
    assert sorted(os.listdir(db.path.parent)) == ["covel.db"]


def test_reads_of_an_idle_file_follow_once_it_is_written(make_db, build_sample, cache: Path) -> None:
    # Without polling: the next read sees that the file is no longer idle.
    db = make_db(wal=True)
    build_sample(db)
    db.close()
    with open_store(db.path) as store:
        assert store.read_only_mode == "immutable"
        writer = _writer(db.path)
        try:
            _add_session(writer, "s7")
            assert [s.id for s in store.sessions()] == ["s1", "s2", "s7"]
            assert store.read_only_mode == "ro"
        finally:
            writer.close()


def test_a_private_copy_gives_way_when_covel_opens_the_file_again(
        make_db, build_sample, tmp_path: Path, cache: Path) -> None:
    db = make_db(wal=True)
    build_sample(db)
    db.commit()
    crashed = _crash_copy(db, tmp_path / "crashed")
    db.close()
    with open_store(crashed) as store:
        assert store.read_only_mode == "copy" and len(_snapshots(cache)) == 1
        watcher = ChangeWatcher(store)
        watcher.start()
        writer = _writer(crashed)  # Covel restarts: recovers the -wal, writes on
        try:
            _add_session(writer, "s7")
            assert watcher.poll().new_sessions == ["s7"]
            assert store.read_only_mode == "ro"
            assert _snapshots(cache) == []
        finally:
            writer.close()


# ------------------------------------------------------------------------ not a file


def test_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "covel.db"
    os.mkfifo(fifo)
    # In a child, under a timeout: opening a FIFO to read blocks until someone writes to it.
    done = subprocess.run([sys.executable, "-m", "inspector", "sessions", str(fifo)],
                          capture_output=True, text=True, timeout=60, cwd=Path(__file__).parents[3])
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (f"prompt-inspector: {fifo} is a named pipe (FIFO), not a regular file: "
                           "give the path of a file\n")
    with pytest.raises(StoreNotFoundError, match="named pipe"):
        open_store(fifo)
    with pytest.raises(StoreNotFoundError, match="named pipe"):
        open_store(f"sqlite:///{fifo}?timeout=1")
    assert sorted(os.listdir(tmp_path)) == ["covel.db"]


def test_check_regular_file(tmp_path: Path) -> None:
    regular = tmp_path / "a.db"
    regular.write_bytes(b"x")
    link = tmp_path / "link.db"
    link.symlink_to(regular)
    check_regular_file(regular)
    check_regular_file(link)
    os.mkfifo(tmp_path / "pipe")
    cases = {tmp_path / "missing": ("missing", "does not exist"), tmp_path: ("directory", "is a directory"),
             tmp_path / "pipe": ("special", "named pipe"), Path(os.devnull): ("special", "is a device")}
    for path, (reason, text) in cases.items():
        with pytest.raises(InputFileError, match=text) as info:
            check_regular_file(path)
        assert info.value.reason == reason and info.value.path == str(path)


def test_a_file_that_cannot_be_read_is_a_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "covel.db"
    target.write_bytes(b"SQLite format 3\x00" + bytes(84))
    real_open = os.open

    def refused(name: Any, flags: int, *args: Any) -> int:
        if str(name) == str(target):
            raise PermissionError(13, "Permission denied")
        return real_open(name, flags, *args)

    monkeypatch.setattr(os, "open", refused)
    with pytest.raises(StoreOpenError, match=r"covel\.db cannot be read: Permission denied") as info:
        open_store(target)
    assert not isinstance(info.value, StoreNotFoundError)


def test_device_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreNotFoundError, match="is a device, not a regular file"):
        open_store(os.devnull)


# ------------------------------------------------------------------------ URLs


@pytest.fixture
def crashed_wal(make_db, build_sample) -> Iterator[Path]:
    """The state a read-write open would change on close: a -wal and -shm with committed rows
    and no writer (Covel died); the last connection to close would checkpoint and delete them."""
    db = make_db(wal=True)
    build_sample(db)
    db.close()
    _write_then_exit(db.path, wal=True, commit=True)
    yield db.path


@pytest.mark.parametrize("options", ["?timeout=5", "?timeout=0.5&cache=private", "?mode=ro", "?uri=true&mode=ro"])
def test_read_only_url_options_never_write(crashed_wal: Path, options: str) -> None:
    before = _disk(crashed_wal.parent)
    with open_store(f"sqlite:///{crashed_wal}{options}") as store:
        assert store.read_only_mode == "ro"
        assert [s.id for s in store.sessions()] == ["s1", "s2", "s9"]
        if "timeout=5" in options:
            assert store.busy_timeout == 5
    assert _disk(crashed_wal.parent) == before


def test_file_uri_forms_open_the_same_file(make_db, build_sample, tmp_path: Path, cache: Path) -> None:
    db = make_db("my store.db")
    build_sample(db)
    db.close()
    before = _disk(tmp_path)
    for url in (f"sqlite:///file:{quote(str(db.path))}?mode=ro&uri=true",
                f"sqlite:///file://{quote(str(db.path))}?uri=true",
                f"sqlite:///file://localhost{quote(str(db.path))}?uri=true"):
        with open_store(url) as store:
            assert store.path == db.path and store.url == url and store.read_only_mode == "ro"
            assert _read_all(store) == (SESSIONS, S1_EVENTS, CALLS)
    assert _disk(tmp_path) == before


def test_immutable_when_the_url_asks(make_db, build_sample, cache: Path, run_cli) -> None:
    db = make_db()
    build_sample(db)
    db.close()
    url = f"sqlite:///file:{db.path}?immutable=1&uri=true"
    _check_untouched(run_cli, db.path.parent, url, cache, mode="immutable", note="as the URL asks")
    with open_store(url) as store, open_store(store.open_spec) as again:  # as the cache worker opens it
        assert again.read_only_mode == "immutable" and again.path == db.path


@pytest.mark.parametrize("options, named", [
    ("?mode=rw&uri=true", "mode=rw"),
    ("?mode=rwc", "mode=rwc"),
    ("?mode=memory", "mode=memory"),
    ("?vfs=unix-none", "vfs=unix-none"),
    ("?nolock=1", "nolock=1"),
    ("?cache=shared", "cache=shared"),
    ("?psow=0", "psow=0"),
    ("?isolation_level=IMMEDIATE", "isolation_level=IMMEDIATE"),
    ("?uri=true&immutable=1&mode=rw", "mode=rw"),
])
def test_url_options_that_could_write_are_refused(crashed_wal: Path, options: str, named: str, run_cli) -> None:
    before = _disk(crashed_wal.parent)
    for url in (f"sqlite:///{crashed_wal}{options}", f"sqlite:///file:{crashed_wal}{options}"):
        with pytest.raises(StoreOpenError, match=rf"the option {named} is refused.*Allowed: timeout="):
            open_store(url)
        code, out, err = run_cli("sessions", url)
        assert code == 2 and out == "" and err.count("\n") == 1 and named in err
    assert _disk(crashed_wal.parent) == before


def test_a_url_never_creates_a_file(tmp_path: Path) -> None:
    absent = tmp_path / "new.db"
    for url in (f"sqlite:///file:{absent}?mode=rwc&uri=true", f"sqlite:///{absent}?timeout=1",
                f"sqlite:///file:{absent}?uri=true", f"sqlite:///{absent}"):
        with pytest.raises(StoreError):
            open_store(url)
    with pytest.raises(StoreNotFoundError, match="new.db does not exist"):
        open_store(f"sqlite:///{absent}?mode=ro")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("url, message", [
    ("sqlite://", "in-memory"),
    ("sqlite:///:memory:", "in-memory"),
    ("sqlite:///file::memory:?uri=true", "in-memory"),
    ("sqlite:///file:?mode=ro&uri=true", "in-memory"),
    ("sqlite:///file://elsewhere/covel.db?uri=true", "another host"),
    ("sqlite:///covel.db?timeout=abc", "timeout=abc is not a number of seconds"),
    ("sqlite:///covel.db?timeout=-1", "timeout=-1 is not a number of seconds"),
    ("sqlite:///file:covel.db%3Fmode%3Drw?uri=true", "the option mode=rw is refused"),
])
def test_bad_sqlite_urls(url: str, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StoreError, match=message):
        open_store(url)
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("url, message", [
    ("postgresql://covel:s3cret@db.example:abc/covel", "the port 'abc' is not a number"),
    ("postgresql://covel:s3cret@[::1/covel", "closing bracket"),
    ("postgresql+psycopg://covel:s3cret@[::1:5432/covel", "closing bracket"),
    ("postgresql://covel:s3/cr@t@db.example:99x/covel?password=s3cret", "db.example:99x is not a valid"),
])
def test_bad_port_or_ipv6_is_a_message(url: str, message: str, run_cli) -> None:
    with pytest.raises(StoreOpenError, match=message) as info:
        open_store(url)
    assert "s3" not in str(info.value) and "s3" not in (info.value.location or "")
    code, out, err = run_cli("sessions", url)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err and "s3" not in err
