"""The runtime rows of a big session made in a child process, for a process whose interpreter lock
must stay free.

Before the app's navigator can filter a session (a prompt search, a runtime or a model) it needs
every runtime and request of it (:func:`inspector.views.session_runtimes`). Making them is pure
Python over each request's recorded payload: two seconds for the benchmark database's
6,000-request session, in pieces of a millisecond at most. But while a background thread of the
app made them, every Python call of the GUI thread (each ``index()`` and ``data()`` of the tree it
was laying out) waited its turn for the interpreter lock: a search's filter stalled the window for
45–64 ms, and arrived after 5.5–8 s instead of 4.

So the app's jobs ask this child for the rows of sessions read together (every session of a store,
for a filter) that hold :data:`APART_MIN_REQUESTS` requests or more (:func:`apart`,
:func:`session_runtimes`). The child opens the store again by itself, read only, like the app
(:attr:`inspector.store.Store.open_spec`), makes the rows with the very function this process would
use, and sends them back :data:`PART_TURNS` turns to a frame. Each frame is unpickled on its own:
the whole 6,000-request session in one piece held the lock for 24–57 ms, a part for 3 ms at most.
The thread waiting for the answer waits in a pipe read, which lets the lock go.

Fewer requests, a store that cannot be opened again elsewhere (in memory, or read through a private
copy that a second process would have to make again) and a child that fails are read in this
process: the same rows, a slower window. The child is ``python -m inspector.rows_process``
(:mod:`inspector.child_process`); it starts on the first request, and ends after
:data:`IDLE_STOP_S` seconds without one, or right after the rows of a big session
(:data:`LEAVE_AFTER_REQUESTS`), so that the memory their payloads took goes with it. Made in this
process, that memory stayed with the app.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
from collections.abc import Iterable
from typing import Any

from inspector import views
from inspector.child_process import ChildError, OnDemandChild, read_frame, write_frame
from inspector.rows import RuntimeRow

__all__ = ["APART_MIN_REQUESTS", "CHILD", "IDLE_STOP_S", "LEAVE_AFTER_REQUESTS", "PART_TURNS", "RowsProcessError",
           "apart", "reopen_spec", "session_runtimes"]

# Sessions read together (every session of a store, for a filter) with this many model requests or
# more are read in the child: about a third of a second of Python here, where the child's start
# costs 80 ms, in the background, and its rows arrive while the window stays free.
APART_MIN_REQUESTS = 1000
# A child that made the rows of this many requests in one answer ends after it: the payloads it
# parsed (1.1 GB at its peak for the 6,000-request session) go back to the system at once, where
# a process that lived on would keep most of that memory.
LEAVE_AFTER_REQUESTS = 1000
# Turns per frame the child sends: each frame is unpickled on its own, in about 2 ms.
PART_TURNS = 64
# A child that has made no rows for this long (seconds) ends; the next request starts another.
IDLE_STOP_S = 60.0


class RowsProcessError(ChildError):
    """The child could not be started, ended, or answered with an error."""


CHILD = OnDemandChild("inspector.rows_process", "the rows process", RowsProcessError)


def reopen_spec(store: Any) -> str | None:
    """What the child opens ``store`` again with; None when it should not: an in-memory store, or
    one read through a private copy (a second process would copy the file again)."""
    if getattr(store, "read_only_mode", None) == "copy":
        return None
    return getattr(store, "open_spec", None)


def apart(store: Any, request_counts: Iterable[int | None]) -> bool:
    """Whether sessions read together, with these model requests (as listed; None when not
    counted), are read in the child: :data:`APART_MIN_REQUESTS` or more in all, and a store that
    can be opened again."""
    return reopen_spec(store) is not None and sum(n for n in request_counts if n) >= APART_MIN_REQUESTS


def session_runtimes(store: Any, session_id: str, in_child: bool, *,
                     idle_stop_s: float = IDLE_STOP_S) -> dict[str, list[RuntimeRow]]:
    """:func:`inspector.views.session_runtimes`, made in the child when ``in_child`` (see
    :func:`apart`) and the store can be opened again; in this process otherwise, and when the
    child fails."""
    spec = reopen_spec(store) if in_child else None
    if spec is None:
        return views.session_runtimes(store, session_id)
    try:
        return CHILD.run(lambda process: _ask(process, spec, session_id), idle_stop_s)
    except RowsProcessError:
        return views.session_runtimes(store, session_id)  # a slower window, the same rows


def _ask(process: subprocess.Popen[bytes], spec: str, session_id: str) -> dict[str, list[RuntimeRow]]:
    stdin, stdout = process.stdin, process.stdout
    assert stdin is not None and stdout is not None
    groups: dict[str, list[RuntimeRow]] = {}
    try:
        write_frame(stdin, (spec, session_id))
        while True:
            message = read_frame(stdout)  # waits in a pipe read, without the interpreter lock
            if message[0] == "part":
                groups.update(message[1])
            elif message[0] == "end":
                _kind, turns, leaving = message
                if turns != len(groups):
                    raise RowsProcessError(f"the rows process sent {len(groups)} of {turns} turns")
                if leaving:
                    process.wait(timeout=10)  # so that the next request starts another
                return groups
            else:
                raise RowsProcessError(str(message[1]))
    except (EOFError, OSError, ValueError, pickle.UnpicklingError, subprocess.TimeoutExpired) as exc:
        raise RowsProcessError(f"the rows process ended (status {process.poll()}): {exc}") from exc


def _serve() -> int:
    """The child's loop: a request ``(spec, session_id)`` in, its parts and an end out, until its
    input ends or it answered for :data:`LEAVE_AFTER_REQUESTS` requests or more. The store is
    opened for each request and closed after it: the child holds no file between requests, and a
    file written anew under the same name is read as it is now (a store kept open went on reading
    the old one)."""
    from inspector.store import open_store

    requests, answers = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print would break the frames
    while True:
        try:
            spec, session_id = read_frame(requests)
        except (EOFError, OSError, ValueError, TypeError, pickle.UnpicklingError):
            return 0
        try:
            with open_store(spec) as store:
                turns = list(views.session_runtimes(store, session_id).items())
        except Exception as exc:  # noqa: BLE001 - every failure is answered, the parent decides
            write_frame(answers, ("error", f"{type(exc).__name__}: {exc}"))
            continue
        for start in range(0, len(turns), PART_TURNS):
            write_frame(answers, ("part", turns[start:start + PART_TURNS]))
        leaving = sum(len(runtime.requests) for _turn, runtimes in turns for runtime in runtimes) >= LEAVE_AFTER_REQUESTS
        write_frame(answers, ("end", len(turns), leaving))
        if leaving:
            return 0


if __name__ == "__main__":
    sys.exit(_serve())
