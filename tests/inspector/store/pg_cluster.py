"""A throwaway PostgreSQL cluster on loopback for the tests (standard library only).

The test fixtures start one when no server URL is given, and ``.ci/run`` starts one with the
system Python before the virtual environment exists, so both go through this file:

    python3 tests/inspector/store/pg_cluster.py start DIR   # prints the server URL
    python3 tests/inspector/store/pg_cluster.py stop DIR

The cluster lives in DIR (created; removed by ``stop``), listens on 127.0.0.1 on a free port,
and requires a password over TCP (so the tests can check what wrong credentials look like).
PostgreSQL refuses to run as root; as root the server runs as the ``postgres`` system user.
"""

from __future__ import annotations

import glob
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

SUPERUSER = "postgres"
URL_FILE = "url"


def find_bindir() -> Path | None:
    """Where initdb, pg_ctl and postgres are: $PG_BINDIR, the PATH, then the distributions'
    versioned directories (Debian/Ubuntu keep them off the PATH), newest version first."""
    explicit = os.environ.get("PG_BINDIR")
    if explicit and (Path(explicit) / "initdb").exists():
        return Path(explicit)
    on_path = shutil.which("initdb")
    if on_path:
        return Path(on_path).resolve().parent
    candidates = glob.glob("/usr/lib/postgresql/*/bin/initdb") + glob.glob("/usr/pgsql-*/bin/initdb")

    def version(path: str) -> tuple[int, ...]:
        return tuple(int(n) for n in re.findall(r"\d+", path)) or (0,)

    for path in sorted(candidates, key=version, reverse=True):
        if os.access(path, os.X_OK):
            return Path(path).parent
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _as_server_user() -> list[str]:
    """The command prefix that runs a program as a user PostgreSQL accepts."""
    if os.geteuid() != 0:
        return []
    import pwd

    try:
        pwd.getpwnam("postgres")
    except KeyError:
        raise RuntimeError("running as root and there is no 'postgres' user to run the server as") from None
    runuser = shutil.which("runuser")
    if runuser:
        return [runuser, "-u", "postgres", "--"]
    return ["su", "postgres", "-s", "/bin/sh", "-c", '"$0" "$@"']


def _chown_to_server_user(path: Path) -> None:
    if os.geteuid() == 0:
        shutil.chown(path, "postgres", "postgres")


def _run(cmd: list[str], what: str) -> None:
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd="/")
    if proc.returncode != 0:
        raise RuntimeError(f"{what} failed ({proc.returncode}): {proc.stdout.strip()[-2000:]}")


@dataclass
class Cluster:
    directory: Path
    url: str
    bindir: Path

    def stop(self) -> None:
        stop(self.directory, self.bindir)


def start(directory: Path, bindir: Path | None = None) -> Cluster:
    """initdb into ``directory``/data and start the server; returns its superuser URL. As root,
    the ``postgres`` user must be able to reach ``directory`` (its parents must be searchable)."""
    bindir = bindir or find_bindir()
    if bindir is None:
        raise RuntimeError("PostgreSQL's initdb was not found (set PG_BINDIR, or install PostgreSQL)")
    directory.mkdir(parents=True, exist_ok=True)
    # The server user must be able to reach its data directory.
    directory.chmod(0o755)
    _chown_to_server_user(directory)
    password = secrets.token_hex(12)
    pwfile = directory / "pw"
    pwfile.write_text(password)
    _chown_to_server_user(pwfile)
    prefix = _as_server_user()
    data = directory / "data"
    _run(prefix + [str(bindir / "initdb"), "-D", str(data), "-U", SUPERUSER, f"--pwfile={pwfile}",
                   "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8", "--no-sync",
                   "--locale=C.UTF-8" if _has_c_utf8() else "--locale=C"], "initdb")
    pwfile.unlink()
    last_error = None
    for _ in range(5):
        port = _free_port()
        options = (f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={directory} "
                   "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=60")
        try:
            _run(prefix + [str(bindir / "pg_ctl"), "-D", str(data), "-l", str(directory / "server.log"), "-w",
                           "-t", "60", "-o", options, "start"], "pg_ctl start")
        except RuntimeError as exc:
            # Another process may have taken the port between the probe and the start.
            last_error = exc
            time.sleep(0.2)
            continue
        url = f"postgresql+psycopg://{SUPERUSER}:{password}@127.0.0.1:{port}/postgres"
        (directory / URL_FILE).write_text(url)
        return Cluster(directory, url, bindir)
    log = directory / "server.log"
    tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
    raise RuntimeError(f"the PostgreSQL server did not start: {last_error}\n{tail}")


def pause(directory: Path, bindir: Path | None = None) -> None:
    """Stop the server but keep its data, as when a database server goes away for a while."""
    bindir = bindir or find_bindir()
    _run(_as_server_user() + [str(bindir / "pg_ctl"), "-D", str(directory / "data"), "-m", "fast", "-w", "stop"],
         "pg_ctl stop")


def resume(directory: Path, bindir: Path | None = None) -> None:
    """Start a paused server again on the port and with the settings it had."""
    bindir = bindir or find_bindir()
    port = re.search(r":(\d+)/", (directory / URL_FILE).read_text()).group(1)  # type: ignore[union-attr]
    options = (f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={directory} "
               "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=60")
    _run(_as_server_user() + [str(bindir / "pg_ctl"), "-D", str(directory / "data"), "-l",
                              str(directory / "server.log"), "-w", "-t", "60", "-o", options, "start"], "pg_ctl start")


def _has_c_utf8() -> bool:
    try:
        out = subprocess.run(["locale", "-a"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    except OSError:
        return False
    return any(line.lower() in ("c.utf8", "c.utf-8") for line in out.split())


def stop(directory: Path, bindir: Path | None = None) -> None:
    """Stop the server (immediately: its data is thrown away) and delete ``directory``."""
    bindir = bindir or find_bindir()
    data = directory / "data"
    if bindir is not None and (data / "postmaster.pid").exists():
        subprocess.run(_as_server_user() + [str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w",
                                            "stop"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/")
    shutil.rmtree(directory, ignore_errors=True)


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("start", "stop"):
        sys.stderr.write("usage: pg_cluster.py start|stop DIR\n")
        return 2
    directory = Path(argv[1]).absolute()
    if argv[0] == "start":
        try:
            cluster = start(directory)
        except RuntimeError as exc:
            sys.stderr.write(f"pg_cluster: {exc}\n")
            return 1
        print(cluster.url)
    else:
        stop(directory)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
