"""inspector.files.write_atomic: the old file or the new one, never half of one; the .bak copy."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector import files


def test_replaces_and_keeps_the_previous_file_as_bak(tmp_path: Path) -> None:
    target = tmp_path / "order.json"
    target.write_bytes("旧\r\n".encode())
    files.write_atomic(target, "新\n", keep_backup=True)
    assert target.read_bytes() == "新\n".encode()
    assert (tmp_path / "order.json.bak").read_bytes() == "旧\r\n".encode()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["order.json", "order.json.bak"]


def test_without_backup_no_bak_is_written(tmp_path: Path) -> None:
    target = tmp_path / "export.md"
    files.write_atomic(target, "a")
    files.write_atomic(target, "b")
    assert target.read_text() == "b" and not (tmp_path / "export.md.bak").exists()


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "config.toml"
    target.write_text("old", encoding="utf-8")

    def full_disk(_fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", full_disk)
    with pytest.raises(OSError):
        files.write_atomic(target, "new", keep_backup=True)
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["config.toml"]


# --- the one atomic save: mode, links, errors, clean-up -----------------------------------------

import errno  # noqa: E402
import hashlib  # noqa: E402
import os  # noqa: E402
import signal  # noqa: E402
import sqlite3  # noqa: E402
import stat  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from contextlib import closing  # noqa: E402

from inspector import signals  # noqa: E402

def _listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _full_disk_on_write(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every write to a file object fails as on a full disk (after the temporary file exists)."""
    import io

    real_open = open

    class FullDisk(io.BufferedWriter):
        def write(self, _data):  # type: ignore[override]
            raise OSError(errno.ENOSPC, "No space left on device")

    def fake_open(file, mode="r", *args, **kwargs):  # type: ignore[no-untyped-def]
        if "w" in mode and "b" in mode:
            raw = real_open(file, mode, *args, buffering=0, **kwargs)
            return FullDisk(raw)
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(files, "open", fake_open, raising=False)


def test_a_full_disk_names_the_users_path_and_leaves_old_file_and_folder(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "report.html"
    target.write_text("previous report", encoding="utf-8")
    before, listing = _digest(target), _listing(tmp_path)
    _full_disk_on_write(monkeypatch)
    with pytest.raises(files.SaveError) as caught:
        files.write_atomic(target, "x" * 100_000)
    assert str(caught.value) == f"cannot write {target}: No space left on device"
    assert caught.value.errno == errno.ENOSPC and caught.value.filename == str(target)
    assert ".tmp" not in str(caught.value) and isinstance(caught.value, OSError)
    assert _digest(target) == before and _listing(tmp_path) == listing


def test_a_full_disk_while_keeping_the_backup_loses_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "order.json"
    target.write_text("old", encoding="utf-8")
    before, listing = _digest(target), _listing(tmp_path)
    _full_disk_on_write(monkeypatch)
    with pytest.raises(files.SaveError, match="cannot write .*order.json.bak: No space left"):
        files.write_atomic(target, "new", keep_backup=True)
    assert _digest(target) == before and _listing(tmp_path) == listing


def test_a_failed_rename_names_the_users_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "export.md"
    target.write_text("old", encoding="utf-8")

    def refuse(src, dst):  # type: ignore[no-untyped-def]
        raise PermissionError(errno.EACCES, "Permission denied", src)

    monkeypatch.setattr(files.os, "replace", refuse)
    with pytest.raises(files.SaveError) as caught:
        files.write_atomic(target, "new")
    assert str(caught.value) == f"cannot write {target}: Permission denied"
    assert target.read_text(encoding="utf-8") == "old" and _listing(tmp_path) == ["export.md"]


def test_a_missing_folder_is_one_line_naming_the_path(tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "report.html"
    with pytest.raises(files.SaveError, match=r"cannot write .*report\.html: No such file or directory"):
        files.write_atomic(target, "x")
    assert _listing(tmp_path) == []


@pytest.mark.parametrize("mode", [0o644, 0o600, 0o640, 0o755, 0o444])
def test_the_target_keeps_its_mode(tmp_path: Path, mode: int) -> None:
    target = tmp_path / "config.toml"
    target.write_text("old", encoding="utf-8")
    target.chmod(mode)
    files.write_atomic(target, "new", keep_backup=True)
    assert stat.S_IMODE(target.stat().st_mode) == mode
    assert stat.S_IMODE((tmp_path / "config.toml.bak").stat().st_mode) == mode
    assert target.read_text(encoding="utf-8") == "new"
    assert _listing(tmp_path) == ["config.toml", "config.toml.bak"]


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_a_new_file_gets_the_umask_default_like_open(tmp_path: Path, umask: int) -> None:
    previous = os.umask(umask)
    try:
        files.write_atomic(tmp_path / "new.md", "x")
        with open(tmp_path / "plain.md", "w", encoding="utf-8") as fh:
            fh.write("x")
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "new.md").stat().st_mode) == 0o666 & ~umask
    assert stat.S_IMODE((tmp_path / "new.md").stat().st_mode) == stat.S_IMODE((tmp_path / "plain.md").stat().st_mode)


def test_a_symlink_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    real_dir = tmp_path / "dotfiles"
    real_dir.mkdir()
    real = real_dir / "order.json"
    real.write_text("old", encoding="utf-8")
    real.chmod(0o640)
    link = tmp_path / "order.json"
    link.symlink_to(real)
    files.write_atomic(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text(encoding="utf-8") == "new" and stat.S_IMODE(real.stat().st_mode) == 0o640
    assert _listing(tmp_path) == ["dotfiles", "order.json"] and _listing(real_dir) == ["order.json"]


def test_a_dangling_symlink_creates_its_target(tmp_path: Path) -> None:
    link = tmp_path / "report.html"
    link.symlink_to(tmp_path / "real.html")
    files.write_atomic(link, "page")
    assert link.is_symlink() and (tmp_path / "real.html").read_text(encoding="utf-8") == "page"
    assert _listing(tmp_path) == ["real.html", "report.html"]


def test_bytes_are_written_as_given(tmp_path: Path) -> None:
    target = tmp_path / "blob.bin"
    files.write_atomic_bytes(target, b"\x00\xff\r\n")
    assert target.read_bytes() == b"\x00\xff\r\n" and _listing(tmp_path) == ["blob.bin"]
    with pytest.raises(TypeError):
        files.write_atomic_bytes(target, "text")  # type: ignore[arg-type]


def test_atomic_output_leaves_nothing_when_the_writer_fails(tmp_path: Path) -> None:
    target = tmp_path / "covel.db"
    target.write_bytes(b"old")
    with pytest.raises(KeyboardInterrupt):
        with files.atomic_output(target) as tmp:
            assert tmp.parent == tmp_path and tmp.exists()
            tmp.write_bytes(b"half")
            raise KeyboardInterrupt
    assert target.read_bytes() == b"old" and _listing(tmp_path) == ["covel.db"]


# --- outputs never touch inputs ------------------------------------------------------------------


def _sqlite(path: Path) -> Path:
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE TABLE t (x)")
        conn.commit()
    return path


def test_check_output_refuses_the_input_itself_and_its_sidecars(tmp_path: Path) -> None:
    db = _sqlite(tmp_path / "covel.db")
    before, listing = _digest(db), _listing(tmp_path)
    with pytest.raises(files.OutputPathError, match="it is the input"):
        files.check_output_path(db, [db])
    with pytest.raises(files.OutputPathError, match="it is the input"):
        files.check_output_path(tmp_path / "." / "covel.db", [str(db)])
    for tail in ("-wal", "-shm", "-journal"):
        with pytest.raises(files.OutputPathError, match="SQLite keeps a file of that name"):
            files.check_output_path(str(db) + tail, [db])
    assert _digest(db) == before and _listing(tmp_path) == listing


def test_check_output_sees_through_links(tmp_path: Path) -> None:
    db = _sqlite(tmp_path / "covel.db")
    (tmp_path / "soft.db").symlink_to(db)
    os.link(db, tmp_path / "hard.db")
    for name in ("soft.db", "hard.db"):
        with pytest.raises(files.OutputPathError, match="it is the input"):
            files.check_output_path(tmp_path / name, [db])
        with pytest.raises(files.OutputPathError, match="it is the input"):
            files.check_output_path(db, [tmp_path / name])


def test_check_output_refuses_any_sqlite_file_and_a_folder(tmp_path: Path) -> None:
    other = _sqlite(tmp_path / "other.db")
    with pytest.raises(files.OutputPathError, match="is a SQLite database"):
        files.check_output_path(other, [])
    assert files.check_output_path(other, [], may_replace_database=True) == other
    assert files.check_output_path(other, [], may_replace_database=lambda p: p == other) == other
    with pytest.raises(files.OutputPathError, match="is a SQLite database"):
        files.check_output_path(other, [], may_replace_database=lambda p: False)
    with pytest.raises(files.OutputPathError, match="is a folder"):
        files.check_output_path(tmp_path, [])
    with pytest.raises(files.OutputPathError, match="empty"):
        files.check_output_path("", [])


def test_check_output_accepts_new_and_ordinary_files(tmp_path: Path) -> None:
    db = _sqlite(tmp_path / "covel.db")
    (tmp_path / "old.html").write_text("x", encoding="utf-8")
    for name in ("report.html", "old.html", "covel.db.html"):
        assert files.check_output_path(tmp_path / name, [db, None, "postgresql://h/db"]) == tmp_path / name
    assert files.is_sqlite_file(db) and not files.is_sqlite_file(tmp_path / "old.html")
    assert not files.is_sqlite_file(tmp_path / "missing")


# --- SIGTERM turned into the Ctrl-C path while writing ------------------------------------------


def test_sigterm_during_a_save_raises_and_cleans_up(tmp_path: Path) -> None:
    target = tmp_path / "report.html"
    target.write_text("old", encoding="utf-8")
    previous = signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        with pytest.raises(signals.Terminated):
            with files.atomic_output(target) as tmp:
                tmp.write_bytes(b"half")
                os.kill(os.getpid(), signal.SIGTERM)
                for _ in range(1000):  # the handler runs between bytecodes
                    pass
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert target.read_text(encoding="utf-8") == "old" and _listing(tmp_path) == ["report.html"]
    assert issubclass(signals.Terminated, KeyboardInterrupt)


def test_a_handler_someone_else_installed_is_left_alone() -> None:
    def mine(signum, frame):  # type: ignore[no-untyped-def]
        pass

    previous = signal.signal(signal.SIGTERM, mine)
    try:
        with signals.sigterm_as_interrupt():
            assert signal.getsignal(signal.SIGTERM) is mine
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        with signals.sigterm_as_interrupt():
            assert signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL
            with signals.sigterm_as_interrupt():
                pass
            assert signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_outside_the_main_thread_nothing_is_installed(tmp_path: Path) -> None:
    import threading

    seen: list[object] = []

    def work() -> None:
        with signals.sigterm_as_interrupt():
            seen.append(signal.getsignal(signal.SIGTERM))
        files.write_atomic(tmp_path / "a.txt", "x")

    before = signal.getsignal(signal.SIGTERM)
    thread = threading.Thread(target=work)
    thread.start()
    thread.join(30)
    assert seen == [before] and (tmp_path / "a.txt").read_text(encoding="utf-8") == "x"
    assert sys.modules["inspector.signals"] is signals


def test_an_interrupt_while_the_temporary_file_is_being_made_leaves_nothing(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "report.html"
    target.write_text("old", encoding="utf-8")

    def interrupted(*_args) -> None:  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt

    monkeypatch.setattr(files, "_chmod", interrupted)
    with pytest.raises(KeyboardInterrupt):
        files.write_atomic(target, "new")
    assert target.read_text(encoding="utf-8") == "old" and _listing(tmp_path) == ["report.html"]


# --- the one header reader, which never blocks; a FIFO or device is no output -------------------


def test_read_file_header_reads_up_to_size_and_no_more(tmp_path: Path) -> None:
    db = _sqlite(tmp_path / "covel.db")
    header = files.read_file_header(db)
    assert len(header) == files.SQLITE_HEADER_BYTES == 100 and header.startswith(files.SQLITE_HEADER)
    short = tmp_path / "short"
    short.write_bytes(files.SQLITE_HEADER[:-1])  # one byte short of the magic
    assert files.read_file_header(short) == files.SQLITE_HEADER[:-1] and not files.is_sqlite_file(short)
    exact = tmp_path / "exact"
    exact.write_bytes(files.SQLITE_HEADER)  # the magic and nothing else
    assert files.is_sqlite_file(exact) and files.read_file_header(exact, 4) == b"SQLi"
    empty = tmp_path / "empty"
    empty.touch()
    assert files.read_file_header(empty) == b"" and not files.is_sqlite_file(empty)


@pytest.mark.parametrize(("make", "reason"), [
    (lambda p: None, "missing"),
    (lambda p: p.mkdir(), "directory"),
    (lambda p: os.mkfifo(p), "special"),
])
def test_read_file_header_refuses_what_is_not_a_regular_file(tmp_path: Path, make, reason) -> None:
    from inspector.inputs import InputFileError

    path = tmp_path / "thing"
    make(path)
    with pytest.raises(InputFileError) as raised:
        files.read_file_header(path)
    assert raised.value.reason == reason and str(path) in str(raised.value)
    assert not files.is_sqlite_file(path)


def _run_bounded(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    # A regression here blocks forever (an open() of a FIFO waits for a writer): a child process
    # under a timeout turns that into a failure instead of a hung test run.
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=60)


def test_a_fifo_output_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "report.html"
    os.mkfifo(fifo)
    before = _listing(tmp_path)
    done = _run_bounded("import sys\n"
                        "from inspector import files\n"
                        "print(files.is_sqlite_file(sys.argv[1]))\n"
                        "try:\n"
                        "    files.check_output_path(sys.argv[1])\n"
                        "except files.OutputPathError as exc:\n"
                        "    print(exc)\n", str(fifo))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["False", f"cannot write {fifo}: {fifo} is a named pipe (FIFO), not a "
                                                 "regular file: give the path of a file"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and _listing(tmp_path) == before


def test_a_device_or_a_link_to_a_fifo_is_no_output(tmp_path: Path) -> None:
    with pytest.raises(files.OutputPathError, match=r"^cannot write /dev/null: /dev/null is a device, not a regular"):
        files.check_output_path("/dev/null")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    link = tmp_path / "out.html"
    link.symlink_to(fifo)
    with pytest.raises(files.OutputPathError, match="named pipe"):
        files.check_output_path(link)
    # A dangling link and a new file are still fine outputs.
    (tmp_path / "dangling.html").symlink_to(tmp_path / "nowhere.html")
    assert files.check_output_path(tmp_path / "dangling.html") == tmp_path / "dangling.html"


def test_a_url_input_is_skipped_by_the_store_urls_rule(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Whether an input is a URL is decided by inspector.store.urls.looks_like_url alone.
    from inspector.store import urls

    db = _sqlite(tmp_path / "covel.db")
    decided: list[str] = []
    real = urls.looks_like_url

    def spy(text):  # type: ignore[no-untyped-def]
        decided.append(os.fspath(text))
        return real(text)

    monkeypatch.setattr(urls, "looks_like_url", spy)
    assert files.check_output_path(tmp_path / "r.html", ["postgresql://h/db", db]) == tmp_path / "r.html"
    assert decided == ["postgresql://h/db", str(db)]
    with pytest.raises(files.OutputPathError, match="it is the input"):
        files.check_output_path(db, [db])
