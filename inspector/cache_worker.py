"""A second process for the cache analysis of big sessions.

Python runs one thread of pure-Python work at a time, and the analysis of a session is mostly
that (reading JSON, interning parts, comparing requests). On a machine with a second core, a
worker process pairs some of a session's runtimes: the analyser in the app's process reads every
request row, deals the runtimes out (``cache_analysis._Share``) and hands the worker the rows of
its runtimes over a pipe as they are read; the worker sends its pairs back as it makes them, and
the analyser merges both streams into the order and the figures an analysis alone gives
(``SessionCacheAnalyser._pairs_in_parallel``, ``cache_analysis._Merge``), routing loads included.

The worker is started once (the app does it at start-up, the ``cache`` command for a big session)
and loads the default tokenizer before it says it is ready; an analysis uses it only when it is
ready and idle, and runs alone otherwise. If the worker dies or fails, the analysis finishes alone
from the last pair it delivered, so a user never sees fewer, repeated or different pairs. The
worker opens the store by itself (for the responses and other side events), read only, like the
app; it ends when the app's end of its pipe closes, however the app ended.
"""

from __future__ import annotations

import atexit
import os
import pickle
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

__all__ = ["AnalysisWorker", "WorkerGone", "claim_worker", "start_worker", "stop_worker", "worker_enabled",
           "worker_state"]

# How long closing a job waits for the worker to acknowledge a cancel before it is replaced.
_CANCEL_WAIT_S = 10.0
_TERMINAL = ("end", "cancelled", "error")
# Rows handed over but not yet paired, at most, on each side of the pipe.
_ROWS_AHEAD = 512
_LENGTH_BYTES = 8


class WorkerGone(RuntimeError):
    """The worker process ended or failed in the middle of a job."""


# The worker is a plain ``python -m inspector.cache_worker`` child talking pickled frames over its
# stdin and stdout, not a multiprocessing child: those import the parent's __main__ again, which
# breaks any script that starts the app or an analysis without a main guard.

# A frame is its length (8 bytes), its kind (1 byte) and its body: a pickled message, or a row handed
# to the worker: a pickled header then the payload's bytes as they are, so the half gigabyte of
# payloads a big session holds is never copied into a pickle (pipe writes release the GIL).
_MESSAGE, _ROW = b"m", b"r"


def _write_frame(stream: IO[bytes], message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write((len(data) + 1).to_bytes(_LENGTH_BYTES, "little") + _MESSAGE + data)
    stream.flush()


def _write_row(stream: IO[bytes], index: int, row: tuple) -> None:
    raw = row[2]
    follows = type(raw) is bytes  # anything else (text, a NULL) travels in the header
    head = pickle.dumps((row[0], row[1], None if follows else raw, row[3], index, follows),
                        protocol=pickle.HIGHEST_PROTOCOL)
    if not follows:
        raw = b""
    size = 1 + 4 + len(head) + len(raw)
    stream.write(size.to_bytes(_LENGTH_BYTES, "little") + _ROW + len(head).to_bytes(4, "little") + head)
    stream.write(raw)


def _read_exactly(stream: IO[bytes], size: int) -> bytes:
    data = stream.read(size)
    if data is None or len(data) < size:
        raise EOFError("the pipe closed")
    return data


def _read_message_bytes(stream: IO[bytes]) -> bytes:
    """The pickled body of the next frame, which must be a message (the results pipe carries no
    rows); unpickled by whoever takes it."""
    size = int.from_bytes(_read_exactly(stream, _LENGTH_BYTES), "little")
    if _read_exactly(stream, 1) != _MESSAGE:
        raise ValueError("a row frame on the results pipe")
    return _read_exactly(stream, size - 1)


def _read_frame(stream: IO[bytes]) -> Any:
    size = int.from_bytes(_read_exactly(stream, _LENGTH_BYTES), "little")
    kind = _read_exactly(stream, 1)
    if kind == _MESSAGE:
        return pickle.loads(_read_exactly(stream, size - 1))
    head_size = int.from_bytes(_read_exactly(stream, 4), "little")
    session_id, turn_id, raw, event_id, index, follows = pickle.loads(_read_exactly(stream, head_size))
    if follows:
        raw = _read_exactly(stream, size - 5 - head_size)
    return ("row", (session_id, turn_id, raw, event_id, index))


# -- the worker process -------------------------------------------------------------------------

def _serve(commands: IO[bytes], results: IO[bytes]) -> None:
    """Load what an analysis needs, say so, then run the jobs sent until told to stop (or until
    the app's end of the pipe closes: the app ended, however it ended)."""
    # Bounded: when the worker falls behind, the app's sender waits instead of either side
    # holding a session's payloads in memory.
    inbox: queue.Queue = queue.Queue(maxsize=_ROWS_AHEAD)
    halt = threading.Event()  # a cancel or stop has come: the running job ends at once

    def read_commands() -> None:
        while True:
            try:
                command = _read_frame(commands)
            except (EOFError, OSError, pickle.UnpicklingError, ValueError):
                command = ("stop",)
            if command[0] in ("cancel", "stop"):
                halt.set()
            inbox.put(command)
            if command[0] == "stop":
                return

    threading.Thread(target=read_commands, name="cache-worker-commands", daemon=True).start()
    try:
        from . import cache_analysis
        from .tokens import DEFAULT_ENCODING, get_encoding

        get_encoding(DEFAULT_ENCODING)  # as the app does at start-up; another loads when first used
    except Exception as exc:  # reported, then the worker ends: analyses run alone
        _write_frame(results, ("failed", f"{type(exc).__name__}: {exc}"))
        return
    _write_frame(results, ("ready",))
    while True:
        command = inbox.get()
        if command[0] == "stop":
            return
        if command[0] == "analyse":
            halt.clear()  # a cancel read before this job's command was for a job that had ended
            if not _analyse(cache_analysis, inbox, halt, results, *command[1:]):
                return
        # anything else is a row or a cancel of a job that has ended


def _analyse(cache_analysis: Any, inbox: queue.Queue, halt: threading.Event, results: IO[bytes], spec: str,
             session_id: str, rules: Any, naming_mode: str) -> bool:
    """Run one job: pair the rows the app hands over until it says they are all there. False
    when told to stop meanwhile."""
    from .store import open_store

    ended: list[str] = []

    def rows() -> Any:
        while not halt.is_set():
            message = inbox.get()
            if message[0] == "row":
                yield message[1]
            else:
                ended.append(message[0])
                return

    try:
        with open_store(spec) as store:
            analyser = cache_analysis.SessionCacheAnalyser(store, session_id, rules=rules, naming_mode=naming_mode)
            batch: list[tuple] = []
            for item in analyser.shared_items(rows()):
                batch.append(item)
                if item[0] == "m":
                    if halt.is_set():
                        break
                    _write_frame(results, ("items", batch))
                    batch = []
            if halt.is_set():
                _write_frame(results, ("cancelled",))
                return "stop" not in ended
            _write_frame(results, ("end", analyser.groups))
    except (BrokenPipeError, EOFError):
        return False
    except Exception as exc:  # the analyser in the app finishes the job alone
        _skip_rows(inbox, ended)
        _write_frame(results, ("error", f"{type(exc).__name__}: {exc}"))
    return True


def _skip_rows(inbox: queue.Queue, ended: list[str]) -> None:
    """After a failed job: drop the rows still coming for it."""
    if ended:
        return
    while True:
        message = inbox.get()
        if message[0] != "row":
            if message[0] == "stop":
                inbox.put(message)
            return


def main() -> int:
    channel = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    # Anything else that writes to stdout (a library's print) must not break the frames: it goes
    # where errors go (nowhere under a windowed launcher, which has no stderr).
    try:
        elsewhere = sys.stderr.fileno()
    except (AttributeError, OSError, ValueError):
        elsewhere = os.open(os.devnull, os.O_WRONLY)
    os.dup2(elsewhere, sys.stdout.fileno())
    try:
        _serve(sys.stdin.buffer, channel)
    except BrokenPipeError:
        pass
    return 0


# -- the app's side ----------------------------------------------------------------------------

class _Job:
    """One analysis the worker runs. Rows go to it through a thread of their own, and its
    messages come back through the worker's reader thread, so neither side waits for a pipe."""

    def __init__(self, worker: AnalysisWorker) -> None:
        self._worker = worker
        self.ended = False
        self._cancelled = False
        self._outbox: queue.Queue = queue.Queue(maxsize=_ROWS_AHEAD)
        self._sender = threading.Thread(target=self._send, name="cache-worker-rows", daemon=True)
        self._sender.start()

    def _send(self) -> None:
        worker = self._worker
        while True:
            entry = self._outbox.get()
            if entry[0] == "row" and self._cancelled:
                continue
            try:
                with worker.write_lock:
                    if entry[0] == "row":
                        _write_row(worker.commands, entry[1], entry[2])
                    else:
                        _write_frame(worker.commands, entry)
            except (OSError, ValueError):
                worker.broken = True
                return
            if entry[0] in ("rows-end", "cancel"):
                return

    def give(self, index: int, row: tuple) -> None:
        """Hand the worker a row of one of its runtimes (``index``: its row number). Waits while
        the worker is too far behind."""
        self._outbox.put(("row", index, row))

    def rows_end(self) -> None:
        self._outbox.put(("rows-end",))

    def take(self, block: bool) -> list[tuple]:
        """The messages that have come (waiting for one when ``block``). Raises WorkerGone when
        the worker failed or ended; its "end" message is the last one returned."""
        found: list[tuple] = []
        worker = self._worker
        try:
            message = worker.message(block=block)
            while True:
                if message[0] in ("error", "gone", "cancelled"):
                    self.ended = True
                    raise WorkerGone(message[1] if len(message) > 1 else message[0])
                found.append(message)
                if message[0] == "end":
                    self.ended = True
                    return found
                message = worker.message(block=False)
        except queue.Empty:
            return found

    def close(self) -> None:
        """End the job (cancelling it if the worker still runs it) and free the worker."""
        worker = self._worker
        try:
            if not self.ended:
                self.ended = True
                self._cancelled = True
                self._outbox.put(("cancel",))
                self._sender.join(_CANCEL_WAIT_S)
                if self._sender.is_alive() or not worker.drain_job(_CANCEL_WAIT_S):
                    worker.broken = True  # it does not answer: replaced at the next claim
                    worker.terminate()
            elif self._sender.is_alive():
                self._cancelled = True  # the worker failed: the rows left are not needed
                self._outbox.put(("rows-end",))
                self._sender.join(_CANCEL_WAIT_S)
        finally:
            worker.release()


class AnalysisWorker:
    """The worker process, and a thread that reads what it sends."""

    def __init__(self) -> None:
        package_root = str(Path(__file__).resolve().parent.parent)
        env = dict(os.environ)
        # The worker runs this very code, also from a checkout that is not the installed one.
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
        self._process = subprocess.Popen([sys.executable, "-m", "inspector.cache_worker"], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, env=env, cwd=package_root)
        self.inbox: queue.SimpleQueue = queue.SimpleQueue()
        self._ready = threading.Event()
        self._lock = threading.Lock()
        self.write_lock = threading.Lock()  # one frame at a time on the commands pipe
        self.busy = False
        self.broken = False
        self.failure: str | None = None
        self._reader = threading.Thread(target=self._read, name="cache-worker-results", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        # A job's messages are queued as the bytes that came: this thread holds the interpreter
        # lock as little as it can, and the analysing thread, which unpickles them when it takes
        # them (message()), does not wait for it.
        stream = self._process.stdout
        while True:
            try:
                data = _read_message_bytes(stream)  # type: ignore[arg-type]
                message = pickle.loads(data) if not self._ready.is_set() else data
            except (EOFError, OSError, pickle.UnpicklingError, ValueError) as exc:
                self.broken = True
                self._ready.set()
                self.inbox.put(("gone", f"the worker process ended ({exc or type(exc).__name__})"))
                return
            if type(message) is bytes:
                self.inbox.put(message)
            elif message[0] == "ready":
                self._ready.set()
            elif message[0] == "failed":
                self.broken, self.failure = True, message[1]
                self._ready.set()

    def message(self, block: bool = True, timeout: float | None = None) -> tuple:
        """The next message of the running job (queue.Empty when none comes in time)."""
        found = self.inbox.get(block=block, timeout=timeout)
        if type(found) is bytes:
            try:
                return pickle.loads(found)
            except (pickle.UnpicklingError, EOFError, ValueError, AttributeError) as exc:
                return ("error", f"a message of the worker cannot be read: {exc}")
        return found

    @property
    def ready(self) -> bool:
        return self._ready.is_set() and not self.broken

    def wait_ready(self, timeout: float) -> bool:
        """Block until the worker has loaded (or ``timeout`` seconds passed)."""
        self._ready.wait(timeout)
        return self.ready

    def claim(self) -> bool:
        """Take the worker for one job: only when it has loaded and no job runs."""
        with self._lock:
            if self.busy or not self.ready:
                return False
            self.busy = True
            return True

    def release(self) -> None:
        with self._lock:
            self.busy = False

    @property
    def commands(self) -> IO[bytes]:
        return self._process.stdin  # type: ignore[return-value]

    def send(self, message: tuple) -> bool:
        try:
            with self.write_lock:
                _write_frame(self.commands, message)
            return True
        except (OSError, ValueError):
            self.broken = True
            return False

    def drain_job(self, timeout: float) -> bool:
        """After a cancel: drop the job's messages up to its last one (False if none came)."""
        while True:
            try:
                message = self.message(timeout=timeout)
            except queue.Empty:
                return False
            if message[0] in _TERMINAL:
                return True
            if message[0] == "gone":
                return False

    def start_job(self, spec: str, session_id: str, rules: Any, naming_mode: str) -> _Job:
        """Send one analysis to the (claimed) worker; rows go and items come back through the job."""
        if not self.send(("analyse", spec, session_id, rules, naming_mode)):
            self.release()
            raise WorkerGone("the worker process cannot be reached")
        return _Job(self)

    @property
    def alive(self) -> bool:
        return self._process.poll() is None

    def terminate(self) -> None:
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()

    def close(self) -> None:
        self.send(("stop",))
        try:
            self._process.stdin.close()  # type: ignore[union-attr]
        except OSError:
            pass
        try:
            self._process.wait(2)
        except subprocess.TimeoutExpired:
            self.terminate()
        self._reader.join(2)
        self._process.stdout.close()  # type: ignore[union-attr]


_worker: AnalysisWorker | None = None
_worker_lock = threading.Lock()
# Set to 0 to keep every analysis in the app's process (one core, less memory).
ENABLE_VARIABLE = "PROMPT_INSPECTOR_CACHE_WORKER"


def worker_enabled() -> bool:
    """Unless turned off, or the machine has a single core (two processes would take turns)."""
    if os.environ.get(ENABLE_VARIABLE, "1").strip().lower() in ("0", "false", "no", "off"):
        return False
    return (os.cpu_count() or 1) >= 2


def start_worker() -> AnalysisWorker:
    """Start the worker process (or the one that replaces a failed one). It loads in the
    background; analyses use it once it is ready."""
    global _worker
    with _worker_lock:
        if _worker is not None and (_worker.broken or not _worker.alive) and not _worker.busy:
            _worker.close()
            _worker = None
        if _worker is None:
            _worker = AnalysisWorker()
        return _worker


def stop_worker() -> None:
    global _worker
    with _worker_lock:
        if _worker is not None:
            _worker.close()
            _worker = None


def claim_worker() -> AnalysisWorker | None:
    """The worker, taken for one job, if one was started, has loaded, and is idle. A worker that
    failed is replaced (the new one helps from the next analysis on, once it has loaded)."""
    with _worker_lock:
        worker = _worker
    if worker is None:
        return None
    if (worker.broken or not worker.alive) and not worker.busy:
        start_worker()
        return None
    return worker if worker.claim() else None


def worker_state() -> str:
    """For the status line and the CLI: "none", "loading", "ready", "busy" or "failed"."""
    worker = _worker
    if worker is None:
        return "none"
    if worker.broken or not worker.alive:
        return "failed"
    if worker.busy:
        return "busy"
    return "ready" if worker.ready else "loading"


atexit.register(stop_worker)


if __name__ == "__main__":
    raise SystemExit(main())
