"""Exact token counts made in a child process, for a process whose interpreter lock must stay free.

Building a tokenizer holds the interpreter lock of the process that builds it for over a tenth of a
second in one piece (tiktoken's encoder is made in a single call that never lets go of the lock;
``inspector.tokens`` already reads the rank file a slice at a time). In the desktop app that is a
frozen window: every Python call the GUI thread makes meanwhile (a timer, each ``data()`` of a
painted tree) waits for it. The tokenizer also takes about 100 MB. So a GUI process's jobs ask this
child for the counts no earlier run kept (:func:`inspector.kept_counts.counted_apart`): the child
builds its tokenizer in its own interpreter, and the thread waiting for the answer waits in a
pipe read, which lets the lock go.

The child is a plain ``python -m inspector.count_process`` reading one JSON line per request
(``{"encoding": …, "texts": […]}``) and answering one (``{"counts": […]}`` or ``{"error": …}``);
JSON keeps every text exactly, lone surrogates too. It starts on the first count asked for and
ends after :data:`IDLE_STOP_S` seconds without one (or when this process ends: its stdin closes);
the next count starts another. It counts with :func:`inspector.tokens.count_exact`, the very
function this process would use, so a count is the same wherever it was made.
"""

from __future__ import annotations

import json
import subprocess
import sys

from inspector.child_process import ChildError, OnDemandChild

__all__ = ["CHILD", "IDLE_STOP_S", "CountProcessError", "counts", "running", "stop"]

# A child that has counted nothing for this long (seconds) ends; the next count starts another
# (about half a second, most of it building the tokenizer).
IDLE_STOP_S = 60.0


class CountProcessError(ChildError):
    """The child could not be started, ended, or answered with an error."""


def _ask(process: subprocess.Popen[bytes], encoding: str, texts: list[str]) -> list[int]:
    stdin, stdout = process.stdin, process.stdout
    assert stdin is not None and stdout is not None
    try:
        stdin.write(json.dumps({"encoding": encoding, "texts": texts}).encode("ascii") + b"\n")
        stdin.flush()
        line = stdout.readline()  # waits without the interpreter lock
    except (OSError, ValueError) as exc:
        raise CountProcessError(f"the count process ended: {exc}") from exc
    if not line:
        raise CountProcessError(f"the count process ended (status {process.poll()})")
    try:
        answer = json.loads(line)
    except ValueError as exc:
        raise CountProcessError(f"the count process answered {line[:80]!r}") from exc
    if "error" in answer:
        raise CountProcessError(str(answer["error"]))
    found = answer.get("counts")
    if not isinstance(found, list) or len(found) != len(texts) or not all(isinstance(c, int) for c in found):
        raise CountProcessError("the count process answered the wrong number of counts")
    return found


CHILD = OnDemandChild("inspector.count_process", "the count process", CountProcessError)


def counts(texts: list[str], encoding: str, *, idle_stop_s: float = IDLE_STOP_S) -> list[int]:
    """The exact count of each of ``texts`` under ``encoding``, made by the child (started if it
    is not running). Raises :class:`CountProcessError` when the child fails; the child is then
    stopped, and the next call starts another."""
    if not texts:
        return []
    return CHILD.run(lambda process: _ask(process, encoding, texts), idle_stop_s)


def running() -> bool:
    """Whether a child is running now."""
    return CHILD.running()


def stop() -> None:
    """End the child, if one runs (also when this process ends)."""
    CHILD.stop()


def _serve() -> int:
    """The child's loop: a JSON line in, a JSON line out, until its input ends."""
    from inspector.tokens import ENCODING_HASHES, count_exact

    for line in sys.stdin.buffer:
        try:
            request = json.loads(line)
            encoding, texts = request["encoding"], request["texts"]
            if encoding not in ENCODING_HASHES:
                raise ValueError(f"unknown encoding {encoding!r}")
            answer: dict[str, object] = {"counts": [count_exact(text, encoding) for text in texts]}
        except Exception as exc:  # noqa: BLE001 - every failure is answered, the parent decides
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.buffer.write(json.dumps(answer).encode("ascii") + b"\n")
        sys.stdout.buffer.flush()
    return 0


if __name__ == "__main__":
    sys.exit(_serve())
