"""The cache analysis's worker process itself: ``python -m inspector.cache.worker_process``.

:mod:`inspector.cache.worker` starts this process and talks to it (the app's side); this module
is what runs inside it: it loads what an analysis needs, says it is ready, and pairs the runtimes
it is dealt with :mod:`inspector.cache.analysis`. Keeping the two sides apart lets the analysis
use the worker without the worker's module importing the analysis back.
"""

from __future__ import annotations

import os
import pickle
import queue
import sys
import threading
from typing import IO, Any

from inspector.cache.worker import FETCH_BATCH
from inspector.child_process import read_frame, write_frame


def _serve(commands: IO[bytes], results: IO[bytes]) -> None:
    """Load what an analysis needs, say so, then run the jobs sent until told to stop (or until
    the app's end of the pipe closes: the app ended, however it ended)."""
    inbox: queue.Queue = queue.Queue()
    halt = threading.Event()  # a cancel or stop has come: the running job ends at once

    def read_commands() -> None:
        while True:
            try:
                command = read_frame(commands)
            except (EOFError, OSError, pickle.UnpicklingError, ValueError):
                command = ("stop",)
            if command[0] in ("cancel", "stop"):
                halt.set()
            inbox.put(command)
            if command[0] == "stop":
                return

    threading.Thread(target=read_commands, name="cache-worker-commands", daemon=True).start()
    try:
        from inspector.cache import analysis as cache_analysis
        from inspector.tokens import DEFAULT_ENCODING, get_encoding

        get_encoding(DEFAULT_ENCODING)  # as the app does at start-up; another loads when first used
    except Exception as exc:  # reported, then the worker ends: analyses run alone
        write_frame(results, ("failed", f"{type(exc).__name__}: {exc}"))
        return
    write_frame(results, ("ready",))
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
    from inspector.store import open_store

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
            while len(wanted) < FETCH_BATCH:
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
                    write_frame(results, ("items", batch))
                    batch = []
            if halt.is_set() or (ended and ended[0] != "rows-end"):
                write_frame(results, ("cancelled",))
                return "stop" not in ended
            write_frame(results, ("end", analyser.groups, analyser.worker_part()))
    except (BrokenPipeError, EOFError):
        return False
    except Exception as exc:  # the analyser in the app finishes the job alone
        _skip_rows(inbox, ended)
        write_frame(results, ("error", f"{type(exc).__name__}: {exc}"))
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


if __name__ == "__main__":
    raise SystemExit(main())
