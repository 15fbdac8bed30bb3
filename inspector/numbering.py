"""How a position is shown to a person: the one numbering rule.

Covel records turn, tool-loop step and attempt positions counted from 0 (``step``, ``attempt``
in ``trace_events`` payloads), and every JSON output keeps those recorded values. Every text a
person reads — the command line's tables and trees, the app's labels — counts from 1: the first
request of a turn is "step 1 · attempt 1".
"""

from __future__ import annotations

import re
from typing import Any


def shown(index: Any) -> Any:
    """A recorded 0-based position as a person reads it (``0`` → ``1``); a value that is not a
    whole number (None, a malformed field) is passed through unchanged for the caller to show."""
    if isinstance(index, bool) or not isinstance(index, int):
        return index
    return index + 1


def step_attempt_text(step: Any, attempt: Any) -> str:
    """``"step 1 · attempt 1"`` for the recorded step 0, attempt 0."""
    return f"step {shown(step)} · attempt {shown(attempt)}"


# A path's separator, and the arrow between a moved part's two names (``assistant #2 → assistant #4``).
_SEPARATORS = re.compile(r"( › | → )")
_MESSAGE_LABEL = re.compile(r"^(\w+) #(\d+)(?= \(|$)")


def shown_label(label: str) -> str:
    """A part label (or an ``a › b`` path of them, or a moved part's ``a → b``) of
    :mod:`inspector.anatomy.labelling` as a person reads it: a message's recorded 0-based number
    counted from 1 (``history › user #0`` → ``history › user #1``, ``system #2 (depth insertion …)``
    → ``system #3 (depth insertion …)``). The labels stay as they are in JSON and as data; the
    app's part names count the same way."""
    return "".join(_MESSAGE_LABEL.sub(lambda m: f"{m.group(1)} #{int(m.group(2)) + 1}", piece)
                   for piece in _SEPARATORS.split(label))
