"""A second process for the cache analysis of big sessions.

Python runs one thread of pure-Python work at a time, and the analysis of a session is mostly
that (reading JSON, interning parts, comparing requests). On a machine with a second core, a
worker process pairs some of a session's runtimes: the analyser in the app's process reads every
request row, deals the runtimes out (``cache_analysis._Share``) and hands the worker the ids of
its rows as they are read, with what it decoded of each (where the provider body lies, the
model, the attempt), and, before a runtime's first row, what the session's responses, prunings
and compactions say of that runtime, so the worker reads and parses neither again. The worker
reads the rows themselves from the store (handing over the payloads through a pipe cost about
what it saved), sends its pairs back as it makes them, and the analyser merges both streams
into the order and the figures an analysis alone gives (``SessionCacheAnalyser._pairs_in_parallel``,
``cache_analysis._Merge``), routing loads included.

The worker is started once (the app does it at start-up, the ``cache`` command for a big session)
and loads the default tokenizer before it says it is ready; an analysis uses it only when it is
ready and idle, and runs alone otherwise. If the worker dies or fails, the analysis finishes alone
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
import sys
import threading
from pathlib import Path
from typing import IO, Any

__all__ = ["AnalysisWorker", "WorkerGone", "claim_worker", "start_worker", "stop_worker", "worker_enabled",
           "worker_state"]

# How long closing a job waits for the worker to acknowledge a cancel before it is replaced, and
# how long an analysis waits for a job that is ending to free the worker.
_CANCEL_WAIT_S = 10.0
_CLAIM_WAIT_S = 0.5
_TERMINAL = ("end", "cancelled", "error")
# Row ids handed over at once, and read by the worker in one query at most.
_SEND_BATCH = 64
_FETCH_BATCH = 256
_LENGTH_BYTES = 8


class WorkerGone(RuntimeError):
    """The worker process ended or failed in the middle of a job."""


# The worker is a plain ``python -m inspector.cache_worker`` child talking pickled frames over its
# stdin and stdout, not a multiprocessing child: those import the parent's __main__ again, which
# breaks any script that starts the app or an analysis without a main guard.

# A frame is its length (8 bytes), then a pickled message.

def _write_frame(stream: IO[bytes], message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(len(data).to_bytes(_LENGTH_BYTES, "little") + data)
    stream.flush()


def _read_exactly(stream: IO[bytes], size: int) -> bytes:
    data = stream.read(size)
    if data is None or len(data) < size:
        raise EOFError("the pipe closed")
    return data


def _read_message_bytes(stream: IO[bytes]) -> bytes:
    """The next frame's pickled message, to be unpickled by whoever takes it."""
    return _read_exactly(stream, int.from_bytes(_read_exactly(stream, _LENGTH_BYTES), "little"))


def _read_frame(stream: IO[bytes]) -> Any:
    return pickle.loads(_read_message_bytes(stream))


# -- the worker process -------------------------------------------------------------------------

def _serve(commands: IO[bytes], results: IO[bytes]) -> None:
    """Load what an analysis needs, say so, then run the jobs sent until told to stop (or until
    the app's end of the pipe closes: the app ended, however it ended)."""
    inbox: queue.Queue = queue.Queue()
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
    """Run one job: pair the rows whose ids the app hands over, until it says they are all there.
    False when told to stop meanwhile."""
    from .store import open_store

    ended: list[str] = []

    def side_events(message: tuple) -> bool:
        # A runtime's side events come before any of its rows.
        if message[0] != "side":
            return False
        analyser.take_side_events(message[1])
        return True

    def rows(store: Any) -> Any:
        # The ids come a few dozen at a time; each batch's rows are read in one query.
        while not halt.is_set() and not ended:
            message = inbox.get()
            if side_events(message):
                continue
            if message[0] != "ids":
                ended.append(message[0])
                return
            wanted = list(message[1])
            while len(wanted) < _FETCH_BATCH:
                try:
                    message = inbox.get_nowait()
                except queue.Empty:
                    break
                if side_events(message):
                    continue
                if message[0] != "ids":
                    ended.append(message[0])
                    break
                wanted += message[1]
            found = store.llm_calling_rows_by_id([event_id for _, event_id, _ in wanted], mapped=True)
            if len(found) != len(wanted):
                raise LookupError("a request row the app read is no longer in the store")
            for (index, _, hint), row in zip(wanted, found):
                yield (*row, index, hint)

    try:
        with open_store(spec) as store:
            analyser = cache_analysis.SessionCacheAnalyser(store, session_id, rules=rules, naming_mode=naming_mode)
            batch: list[tuple] = []
            for item in analyser.shared_items(rows(store), side_events_handed=True):
                batch.append(item)
                if item[0] == "m":
                    if halt.is_set():
                        break
                    _write_frame(results, ("items", batch))
                    batch = []
            if halt.is_set() or (ended and ended[0] != "rows-end"):
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
    """After a failed job: drop the row ids still coming for it."""
    if ended:
        return
    while True:
        message = inbox.get()
        if message[0] not in ("ids", "side"):
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
    """One analysis the worker runs: the ids of its rows go to it in small batches, and its
    messages come back through the worker's reader thread, so the worker never waits for the
    app to take them."""

    def __init__(self, worker: AnalysisWorker) -> None:
        self._worker = worker
        self.ended = False
        self._ids: list[tuple[int, str, tuple | None]] = []
        self._rows_ended = False

    def give(self, index: int, row: tuple, hint: tuple | None = None) -> None:
        """Hand the worker a row of one of its runtimes (``index``: its row number), with what
        was decoded of it (``cache_analysis._Decoded.hint``)."""
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

    def __init__(self) -> None:
        package_root = str(Path(__file__).resolve().parent.parent)
        env = dict(os.environ)
        # The worker runs this very code, also from a checkout that is not the installed one.
        env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
        self._process = subprocess.Popen([sys.executable, "-m", "inspector.cache_worker"], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, env=env, cwd=package_root)
        self.inbox: queue.SimpleQueue = queue.SimpleQueue()
        self._ready = threading.Event()
        self._free = threading.Condition()
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

    def claim(self, wait: float = 0.0) -> bool:
        """Take the worker for one job: only when it has loaded and no job runs, waiting up to
        ``wait`` seconds for the job that runs to end (a view switching session cancels one)."""
        with self._free:
            if not self._free.wait_for(lambda: not self.busy, wait) or not self.ready:
                return False
            self.busy = True
            return True

    def release(self) -> None:
        with self._free:
            self.busy = False
            self._free.notify()

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
        """Kill the process; returns once the results reader has seen its pipe close, so the
        worker reads as broken (not ``ready``) from then on."""
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()
        if threading.current_thread() is not self._reader:
            self._reader.join(5)

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


def claim_worker(wait: float = _CLAIM_WAIT_S) -> AnalysisWorker | None:
    """The worker, taken for one job, if one was started, has loaded, and is idle (or becomes
    idle within ``wait`` seconds). A worker that failed is replaced (the new one helps from the
    next analysis on, once it has loaded)."""
    with _worker_lock:
        worker = _worker
    if worker is None:
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


if __name__ == "__main__":
    raise SystemExit(main())
