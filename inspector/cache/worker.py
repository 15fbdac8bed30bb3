"""A second process for the cache analysis of big sessions.

Python runs one thread of pure-Python work at a time, and the analysis of a session is mostly
that (reading JSON, interning parts, comparing requests). On a machine with a second core, a
worker process pairs some of a session's runtimes. The analyser in the app's process reads every
request row and decides which runtimes the worker pairs; it hands the worker the ids of those
runtimes' rows as they are read, each with a hint of what it read there (a tuple the worker passes
back to the analysis unread), and, before a runtime's first row, what the session's side events
say of that runtime. The worker reads the rows themselves from the store, runs the analysis over
them (:mod:`inspector.cache.worker_process`) and sends its items back as it makes them; the
analyser merges both streams into what an analysis alone gives. This module is the channel only:
the frames, the process and the jobs, with no knowledge of what the analysis sends through them.

The worker is started when a session of :data:`WORKER_MIN_REQUESTS` requests or more is to be
analysed (:func:`worker_for_session`: the app's cache view, the ``cache`` command), never for a
smaller one, and loads the default tokenizer before it says it is ready; an analysis uses it only
when it is ready and idle, and runs alone otherwise. A worker left idle for :data:`IDLE_STOP_S`
seconds ends (its process holds about 130 MB); the next big session's analysis starts another. If the worker dies or fails, the analysis finishes alone
from the last pair it delivered, so a user never sees fewer, repeated or different pairs. The
worker opens the store by itself, read only, like the app; it ends when the app's end of its
pipe closes, however the app ended.
"""

from __future__ import annotations

import atexit
import os
import pickle
import queue
import subprocess
import threading
import time
from collections.abc import Callable
from typing import IO, Any

from inspector.child_process import read_message_bytes, start_child, write_frame

__all__ = ["IDLE_STOP_S", "WORKER_MIN_REQUESTS", "WORKER_START_WAIT_S", "AnalysisWorker", "WorkerGone",
           "claim_worker", "start_worker", "stop_worker", "worker_enabled", "worker_for_session", "worker_state"]

# A session this big (model requests) is analysed by two processes: the worker's start, about a
# second, is worth it only then (the cache command waits for it, the app starts it for such a store).
WORKER_MIN_REQUESTS = 1000
# A worker that has run no job for this long (seconds) ends; the next analysis that needs it starts
# another (about a second).
IDLE_STOP_S = 60.0
# How long the analysis of a big session waits for a worker that is loading (its start is about a
# second; a loaded machine can take much longer).
WORKER_START_WAIT_S = 15.0

# How long closing a job waits for the worker to acknowledge a cancel before it is replaced, and
# how long an analysis waits for a job that is ending to free the worker.
_CANCEL_WAIT_S = 10.0
_CLAIM_WAIT_S = 0.5
_TERMINAL = ("end", "cancelled", "error")
# Row ids handed over at once, and read by the worker in one query at most.
_SEND_BATCH = 64
FETCH_BATCH = 256


class WorkerGone(RuntimeError):
    """The worker process ended or failed in the middle of a job."""


# The worker is a plain ``python -m inspector.cache.worker_process`` child talking pickled frames
# over its stdin and stdout (:mod:`inspector.child_process`).

# -- the app's side ----------------------------------------------------------------------------

class _Job:
    """One analysis the worker runs: the ids of its rows go to it in small batches, and its
    messages come back through the worker's reader thread, so the worker never waits for the
    app to take them."""

    def __init__(self, worker: AnalysisWorker) -> None:
        self._worker = worker
        self.ended = False
        self._ids: list[tuple[int, str, tuple | None]] = []
        self._rows_ended = False

    def give(self, index: int, row: tuple, hint: tuple | None = None) -> None:
        """Hand the worker a row of one of its runtimes (``index``: its row number), with the
        analysis's hint of what it read there (handed back with the row, unread)."""
        self._ids.append((index, row[3], hint))
        if len(self._ids) >= _SEND_BATCH:
            self.flush()

    def hand_over(self, side_events: tuple) -> None:
        """Send what the side events say of a runtime dealt to the worker, before its rows."""
        if not self._worker.send(("side", side_events)):
            self._worker.inbox.put(("gone", "the worker process cannot be reached"))

    def flush(self) -> None:
        """Send the ids given since the last time (the analyser calls it after each batch)."""
        if self._ids:
            ids, self._ids = self._ids, []
            if not self._worker.send(("ids", ids)):
                self._worker.inbox.put(("gone", "the worker process cannot be reached"))

    def rows_end(self) -> None:
        self.flush()
        self._rows_ended = True
        self._worker.send(("rows-end",))

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
                if not worker.send(("cancel",)) or not worker.drain_job(_CANCEL_WAIT_S):
                    worker.broken = True  # it does not answer: replaced at the next claim
                    worker.terminate()
            elif not self._rows_ended:
                worker.send(("rows-end",))  # a failed job waits for the end of its ids
        finally:
            worker.release()


class AnalysisWorker:
    """The worker process, and a thread that reads what it sends."""

    def __init__(self, *, idle_stop_s: float | None = None,
                 on_idle: Callable[[AnalysisWorker], None] | None = None) -> None:
        """``idle_stop_s``: once loaded, the worker ends after that many seconds without a job
        (None: never), calling ``on_idle`` with itself first (from its idle watch thread)."""
        self._process = start_child("inspector.cache.worker_process")
        self.inbox: queue.SimpleQueue = queue.SimpleQueue()
        self._ready = threading.Event()
        self._free = threading.Condition()
        self.write_lock = threading.Lock()  # one frame at a time on the commands pipe
        self.busy = False
        self.broken = False
        self.failure: str | None = None
        # Idle since (monotonic seconds; None while loading or busy); retired: stopped for idling,
        # never claimed again.
        self._idle_since: float | None = None
        self.retired = False
        self._closing = False
        self._reader = threading.Thread(target=self._read, name="cache-worker-results", daemon=True)
        self._reader.start()
        if idle_stop_s is not None:
            threading.Thread(target=self._watch_idle, args=(idle_stop_s, on_idle), name="cache-worker-idle",
                             daemon=True).start()

    def _became_idle(self) -> None:
        with self._free:
            self._idle_since = time.monotonic()
            self._free.notify_all()

    def _watch_idle(self, idle_stop_s: float, on_idle: Callable[[AnalysisWorker], None] | None) -> None:
        """End the worker once it has been loaded and idle for ``idle_stop_s`` seconds."""
        with self._free:
            while True:
                if self._closing or self.broken:
                    return
                since = None if self.busy else self._idle_since
                if since is None:
                    self._free.wait(idle_stop_s)
                    continue
                left = since + idle_stop_s - time.monotonic()
                if left <= 0:
                    self.retired = True  # no claim takes it from here on
                    break
                self._free.wait(left)
        if on_idle is not None:
            on_idle(self)
        self.close()

    def _read(self) -> None:
        # A job's messages are queued as the bytes that came: this thread holds the interpreter
        # lock as little as it can, and the analysing thread, which unpickles them when it takes
        # them (message()), does not wait for it.
        stream = self._process.stdout
        while True:
            try:
                data = read_message_bytes(stream)  # type: ignore[arg-type]
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
                self._became_idle()
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
        return self._ready.is_set() and not self.broken and not self.retired

    def wait_ready(self, timeout: float) -> bool:
        """Block until the worker has loaded (or ``timeout`` seconds passed)."""
        self._ready.wait(timeout)
        return self.ready

    def claim(self, wait: float = 0.0) -> bool:
        """Take the worker for one job: only when it has loaded and no job runs, waiting up to
        ``wait`` seconds for the job that runs to end (a view switching session cancels one)."""
        with self._free:
            if not self._free.wait_for(lambda: not self.busy, wait) or not self.ready:
                return False
            self.busy = True
            self._idle_since = None
            return True

    def release(self) -> None:
        with self._free:
            self.busy = False
            self._idle_since = time.monotonic()
            self._free.notify_all()

    @property
    def commands(self) -> IO[bytes]:
        return self._process.stdin  # type: ignore[return-value]

    def send(self, message: tuple) -> bool:
        try:
            with self.write_lock:
                write_frame(self.commands, message)
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
        """Kill the process; returns once the results reader has seen its pipe close, so the
        worker reads as broken (not ``ready``) from then on."""
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()
        if threading.current_thread() is not self._reader:
            self._reader.join(5)

    def close(self) -> None:
        with self._free:
            self._closing = True
            self._free.notify_all()
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


def _retired(worker: AnalysisWorker) -> None:
    """An idle worker is ending: the next start starts another."""
    global _worker
    with _worker_lock:
        if _worker is worker:
            _worker = None


def start_worker(*, idle_stop_s: float | None = IDLE_STOP_S) -> AnalysisWorker:
    """Start the worker process (or the one that replaces a failed or retired one). It loads in
    the background; analyses use it once it is ready; it ends after ``idle_stop_s`` seconds
    without a job (None: when the program ends)."""
    global _worker
    with _worker_lock:
        if _worker is not None and (_worker.broken or _worker.retired or not _worker.alive) and not _worker.busy:
            _worker.close()
            _worker = None
        if _worker is None:
            _worker = AnalysisWorker(idle_stop_s=idle_stop_s, on_idle=_retired)
        return _worker


def worker_for_session(requests: Any, *, wait_s: float = WORKER_START_WAIT_S,
                       idle_stop_s: float | None = IDLE_STOP_S) -> AnalysisWorker | None:
    """Before analysing a session of ``requests`` model requests: for a big one (at least
    :data:`WORKER_MIN_REQUESTS`), the worker, started if it is not running (or stopped for idling),
    waited for up to ``wait_s`` seconds while it loads. None for a smaller session or when the
    worker is turned off. Call it off the GUI thread: it may wait."""
    try:
        count = int(requests or 0)
    except (TypeError, ValueError):  # a damaged store's count kept as text
        return None
    if count < WORKER_MIN_REQUESTS or not worker_enabled():
        return None
    worker = start_worker(idle_stop_s=idle_stop_s)
    if wait_s > 0:
        worker.wait_ready(wait_s)
    return worker


def stop_worker() -> None:
    global _worker
    with _worker_lock:
        if _worker is not None:
            _worker.close()
            _worker = None


def claim_worker(wait: float = _CLAIM_WAIT_S) -> AnalysisWorker | None:
    """The worker, taken for one job, if one was started, has loaded, and is idle (or becomes
    idle within ``wait`` seconds). A worker that failed is replaced (the new one helps from the
    next analysis on, once it has loaded)."""
    with _worker_lock:
        worker = _worker
    if worker is None:
        return None
    if worker.retired:
        return None
    if (worker.broken or not worker.alive) and not worker.busy:
        start_worker()
        return None
    return worker if worker.claim(wait) else None


def worker_state() -> str:
    """What the worker is doing: "none" (not started), "loading", "ready", "busy" or "failed"."""
    worker = _worker
    if worker is None:
        return "none"
    if worker.broken or not worker.alive:
        return "failed"
    if worker.busy:
        return "busy"
    return "ready" if worker.ready else "loading"


atexit.register(stop_worker)

