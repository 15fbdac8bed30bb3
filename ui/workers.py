"""Background work in the shape of Anki's ``QueryOp``: run a callable on a thread pool, get the
result or the exception back on the GUI thread.

All database reads go through here. The store is shared by every job of one open database, so the
manager also owns store lifetime: a store that is replaced is closed only once no job still uses
it, because closing a SQLAlchemy engine under a running query leaks its connection.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, QRunnable, QThreadPool, Signal, Slot

from inspector import kept_counts
from inspector.collector import paused_collections


class _Relay(QObject):
    """Lives on the GUI thread; the worker emits through it so slots run there (queued)."""

    done = Signal(object, object, object)  # job, result, exception


class Job:
    """A handle on one submitted callable. ``cancel()`` only sets a flag the callable may poll
    (``job.cancelled``) and suppresses the callbacks; Python code cannot be interrupted."""

    def __init__(self, fn: Callable[[Job], Any], on_success: Callable[[Any], None] | None,
                 on_failure: Callable[[BaseException], None] | None, resource: Any,
                 on_discard: Callable[[Any], None] | None = None, pause_gc: bool | str = False,
                 quiet: bool = False) -> None:
        self.fn = fn
        self.quiet = quiet
        self.pause_gc = pause_gc
        self.on_discard = on_discard
        self.on_success = on_success
        self.on_failure = on_failure
        self.resource = resource
        self._cancelled = threading.Event()

    def cancel(self) -> None:
        self._cancelled.set()

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()


class _Runnable(QRunnable):
    def __init__(self, job: Job, relay: _Relay) -> None:
        super().__init__()
        self.setAutoDelete(True)
        self._job = job
        self._relay = relay

    def run(self) -> None:
        job = self._job
        # The collector's policy is the core's (inspector.collector): a job that builds rows
        # which live on runs without cycle collection, and "freeze" freezes what it made.
        pause = paused_collections(freeze=job.pause_gc == "freeze") if job.pause_gc else contextlib.nullcontext()
        # A job runs beside the GUI thread: the token counts it lacks are made in a child process
        # while this one has no tokenizer, whose build would hold the interpreter lock (and so
        # the GUI) for over 100 ms in one piece (inspector.count_process).
        with pause, kept_counts.counted_apart():
            try:
                result = job.fn(job)
            except Exception as exc:  # noqa: BLE001 - every failure is reported to the GUI thread
                self._relay.done.emit(job, None, exc)
            else:
                self._relay.done.emit(job, result, None)


class TaskManager(QObject):
    """Runs jobs on a private thread pool and tracks how many are in flight.

    ``busyChanged(int)`` carries the number of running jobs a user waits for (``busy``; quiet
    jobs are not counted), for a progress indicator.
    """

    busyChanged = Signal(int)
    # The resource (the store) of a job that ended and was not cancelled, after its callbacks:
    # reads can add to the store's schema_notes (values of the wrong type found on the way).
    jobFinished = Signal(object)

    def __init__(self, parent: QObject | None = None, *, max_threads: int = 4) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(max_threads)
        self._relay = _Relay(self)
        self._relay.done.connect(self._finish)
        self._pending: dict[int, Job] = {}
        self._retired: list[Any] = []
        self._shut_down = False

    @property
    def pending(self) -> int:
        return len(self._pending)

    @property
    def busy(self) -> int:
        """The running jobs that are not quiet."""
        return sum(not job.quiet for job in self._pending.values())

    def run(self, fn: Callable[[Job], Any], on_success: Callable[[Any], None] | None = None,
            on_failure: Callable[[BaseException], None] | None = None, *, resource: Any = None,
            on_discard: Callable[[Any], None] | None = None, pause_gc: bool | str = False,
            quiet: bool = False) -> Job:
        """Run ``fn(job)`` in the background. ``resource`` (usually the store) is kept open until
        the job finishes even if it is retired meanwhile. ``on_discard`` receives the result of a
        job that succeeded after it was cancelled, so a result owning resources (a freshly opened
        store) can still be closed.

        ``pause_gc``: keep the cyclic garbage collector off while ``fn`` runs. For jobs that parse
        many payloads: each parsed payload is thousands of containers, which trigger full
        collections that find nothing to free yet hold the interpreter lock long enough to stall the
        GUI.
        The parsed data is freed by reference counting when the job drops it. ``"freeze"``: the
        result is long-lived (navigator rows); freeze the heap (``freeze_heap``) when the job ends
        instead of leaving it all to the next young collection.

        ``quiet``: work the user did not ask for just now (following's polls): it does not count
        in ``busy``, so a progress indicator does not flash (and the window relayout and repaint)
        each time it runs."""
        if self._shut_down:
            raise RuntimeError("task manager is shut down")
        job = Job(fn, on_success, on_failure, resource, on_discard, pause_gc, quiet)
        self._pending[id(job)] = job
        self._pool.start(_Runnable(job, self._relay))
        if not quiet:
            self.busyChanged.emit(self.busy)
        return job

    def retire(self, resource: Any) -> None:
        """Close ``resource`` (anything with ``close()``) as soon as no pending job uses it."""
        if resource is None:
            return
        if any(job.resource is resource for job in self._pending.values()):
            for job in self._pending.values():
                if job.resource is resource:
                    job.cancel()
            self._retired.append(resource)
        else:
            resource.close()

    @Slot(object, object, object)
    def _finish(self, job: Job, result: Any, error: BaseException | None) -> None:
        self._pending.pop(id(job), None)
        if not job.quiet:
            self.busyChanged.emit(self.busy)
        if job.cancelled:
            if error is None and job.on_discard is not None:
                job.on_discard(result)
        else:
            if error is None:
                if job.on_success is not None:
                    job.on_success(result)
            elif job.on_failure is not None:
                job.on_failure(error)
            else:
                raise error
            if job.resource is not None:
                self.jobFinished.emit(job.resource)
        self._close_idle_retired()

    def _close_idle_retired(self) -> None:
        still: list[Any] = []
        for resource in self._retired:
            if any(job.resource is resource for job in self._pending.values()):
                still.append(resource)
            else:
                resource.close()
        self._retired = still

    def shutdown(self) -> None:
        """Cancel everything, wait for the threads, and close every retired resource."""
        self._shut_down = True
        for job in list(self._pending.values()):
            job.cancel()
        self._pool.waitForDone()
        # Results already queued for the GUI thread would arrive after this; deliver them now so
        # discarded results (open stores) are closed before the caller tears down.
        QCoreApplication.sendPostedEvents(self)
        self._pending.clear()
        for resource in self._retired:
            resource.close()
        self._retired = []
