"""Starting this package's child processes, and the frames the pickling ones talk in.

The app keeps its interpreter lock free for the GUI thread by doing long pure-Python work in
children: token counts (:mod:`inspector.count_process`), the navigator's runtime rows
(:mod:`inspector.rows_process`) and the cache analysis of big sessions
(:mod:`inspector.cache.worker`). Each is a plain ``python -m MODULE`` talking over its stdin and
stdout, not a :mod:`multiprocessing` child: those import the parent's ``__main__`` again, which
breaks any script that starts the app or an analysis without a main guard.

A frame is its length (8 bytes, little-endian), then one pickled message. Pickles cross only
between this package's own processes.
"""

from __future__ import annotations

import atexit
import os
import pickle
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any, TypeVar

__all__ = ["ChildError", "OnDemandChild", "read_frame", "read_message_bytes", "start_child", "write_frame"]

T = TypeVar("T")

_LENGTH_BYTES = 8


def start_child(module: str) -> subprocess.Popen[bytes]:
    """``python -m module`` with pipes on its stdin and stdout, running this very code (also from
    a checkout that is not the installed one). Raises :class:`OSError` when it cannot start."""
    package_root = str(Path(__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    return subprocess.Popen([sys.executable, "-m", module], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            env=env, cwd=package_root)


def write_frame(stream: IO[bytes], message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(len(data).to_bytes(_LENGTH_BYTES, "little") + data)
    stream.flush()


def _read_exactly(stream: IO[bytes], size: int) -> bytes:
    data = stream.read(size)
    if data is None or len(data) < size:
        raise EOFError("the pipe closed")
    return data


def read_message_bytes(stream: IO[bytes]) -> bytes:
    """The next frame's pickled message, to be unpickled by whoever takes it."""
    return _read_exactly(stream, int.from_bytes(_read_exactly(stream, _LENGTH_BYTES), "little"))


def read_frame(stream: IO[bytes]) -> Any:
    return pickle.loads(read_message_bytes(stream))


class ChildError(RuntimeError):
    """A child could not be started, ended, or answered with an error."""


class OnDemandChild:
    """One child process for one kind of request, started by the first request and ended after
    ``idle_stop_s`` seconds without one, or when this process ends (its stdin closes, and the
    child ends at the end of its input). A request that fails ends the child; the next starts
    another. One request at a time: the others wait for it."""

    def __init__(self, module: str, name: str, error: type[ChildError] = ChildError) -> None:
        self.module = module
        self.name = name  # "the count process", for messages
        self.error = error
        self.process: subprocess.Popen[bytes] | None = None
        self.idle_timer: threading.Timer | None = None
        self._lock = threading.Lock()  # held while the child answers
        atexit.register(self.stop)

    def run(self, exchange: Callable[[subprocess.Popen[bytes]], T], idle_stop_s: float) -> T:
        """``exchange(process)``: one request and its answer on the child's pipes, the child
        started first if it is not running."""
        with self._lock:
            if self.idle_timer is not None:
                self.idle_timer.cancel()
                self.idle_timer = None
            if self.process is not None and self.process.poll() is not None:
                self._close()  # it ended by itself: another starts
            if self.process is None:
                try:
                    self.process = start_child(self.module)
                except OSError as exc:
                    raise self.error(f"{self.name} cannot start: {exc.strerror or exc}") from exc
            process = self.process
            try:
                answer = exchange(process)
            except BaseException:
                self._close()  # its pipes are in an unknown state
                raise
            self.idle_timer = threading.Timer(idle_stop_s, self._stop_if_idle, args=(process,))
            self.idle_timer.daemon = True
            self.idle_timer.start()
            return answer

    def running(self) -> bool:
        """Whether a child is running now."""
        return self.process is not None

    def stop(self) -> None:
        """End the child, if one runs."""
        with self._lock:
            if self.idle_timer is not None:
                self.idle_timer.cancel()
                self.idle_timer = None
            self._close()

    def _stop_if_idle(self, process: subprocess.Popen[bytes]) -> None:
        with self._lock:
            if self.process is process:
                self._close()

    def _close(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        try:
            if process.stdin is not None:
                process.stdin.close()  # the child ends at the end of its input
            process.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()
