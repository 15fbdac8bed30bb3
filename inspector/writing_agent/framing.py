"""Bags → preset-framed chat messages (spec A.8: ``applyExtendedMarkers`` + ``assemblePresetMessages``).

The five bags (before, history, after, turn, postTurn) become the app's markers around the
preset's ``chatHistory`` entry; the task contract leads the before bag as ``任务契约``; the preset
is walked in order and every enabled, non-empty entry gives one message with the entry's role.
With ``history_as_messages`` (design document A) the history marker expands into real role
messages (``parse_history_messages``); without it the history is one message, as in the code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .history import HistoryOptions, parse_history_messages
from inspector.jsjson import js_trim

__all__ = ["PresetEntry", "BagEntry", "Bags", "FramedMessage", "apply_extended_markers", "bag_text",
           "frame_messages", "parse_preset", "DEFAULT_PRESET", "TASK_CONTRACT_NAME", "EXTENDED_MARKERS"]

TASK_CONTRACT_NAME = "任务契约"
CHAT_HISTORY = "chatHistory"
# The app's own markers and their roles; chatHistory is the preset's (SillyTavern) marker.
EXTENDED_MARKERS: Mapping[str, str] = {
    "worldBookBefore": "system", "chatHistory": "system", "worldBookAfter": "system",
    "currentTurn": "user", "postTurn": "system",
}
_OWN_MARKERS = ("worldBookBefore", "worldBookAfter", "currentTurn", "postTurn")
# SillyTavern markers this engine never fills.
_UNFILLED_MARKERS = frozenset({"worldInfoBefore", "charDescription", "charPersonality", "scenario",
                               "worldInfoAfter", "dialogueExamples", "personaDescription"})
_KNOWN_MARKERS = _UNFILLED_MARKERS | set(EXTENDED_MARKERS)


@dataclass(frozen=True, slots=True)
class PresetEntry:
    identifier: str
    role: str = "system"
    content: str = ""
    enabled: bool = True
    marker: bool = False
    name: str = ""


@dataclass(frozen=True, slots=True)
class BagEntry:
    id: str
    name: str
    content: str


@dataclass(frozen=True, slots=True)
class Bags:
    before: tuple[BagEntry, ...] = ()
    history: str = ""
    after: tuple[BagEntry, ...] = ()
    turn: str = ""
    post_turn: tuple[BagEntry, ...] = ()


@dataclass(frozen=True, slots=True)
class FramedMessage:
    role: str
    content: str
    source: str  # the preset entry, e.g. "main", "worldBookBefore", "chatHistory#3"
    bag: str | None = None  # before/history/after/turn/postTurn when it came from a bag


DEFAULT_PRESET: tuple[PresetEntry, ...] = (PresetEntry(CHAT_HISTORY, marker=True),)


def parse_preset(rows: Any) -> list[PresetEntry]:
    """Preset entries from rows ``{identifier, role?, content?, enabled?, marker?, name?, orderIndex?}``,
    walked by ``orderIndex`` (list position when absent)."""
    if not isinstance(rows, list):
        raise ValueError("preset must be a list of entries")
    indexed = []
    for position, row in enumerate(rows):
        if not isinstance(row, Mapping) or not isinstance(row.get("identifier"), str) or not row["identifier"].strip():
            raise ValueError(f"preset entry {position + 1} needs an identifier")
        identifier = row["identifier"].strip()
        role = row.get("role", "system")
        if role not in ("system", "user", "assistant"):
            raise ValueError(f"preset entry {identifier}: role must be system, user or assistant, not {role!r}")
        marker = row.get("marker")
        order_index = row.get("orderIndex", position)
        if not isinstance(order_index, (int, float)) or isinstance(order_index, bool):
            raise ValueError(f"preset entry {identifier}: orderIndex must be a number")
        indexed.append((order_index, position, PresetEntry(
            identifier=identifier, role=role,
            content=row.get("content") if isinstance(row.get("content"), str) else "",
            enabled=row.get("enabled", True) is not False,
            marker=marker if isinstance(marker, bool) else identifier in _KNOWN_MARKERS,
            name=row.get("name") if isinstance(row.get("name"), str) else "",
        )))
    return [entry for _, _, entry in sorted(indexed, key=lambda t: (t[0], t[1]))]


def apply_extended_markers(preset: Sequence[PresetEntry]) -> list[PresetEntry]:
    """The app's markers around ``chatHistory`` (all five at the end when there is none); idempotent.

    A preset that already has an entry for one of them keeps that entry (its role, content,
    enabled flag): the original only adds a marker entry that is missing, and moves its own four
    to their places."""
    entries = [e for e in preset if e.identifier not in _OWN_MARKERS]
    marker = {name: PresetEntry(name, role, marker=True) for name, role in EXTENDED_MARKERS.items()}
    for entry in preset:
        if entry.identifier in _OWN_MARKERS:
            marker[entry.identifier] = entry
    at = next((i for i, e in enumerate(entries) if e.identifier == CHAT_HISTORY), None)
    if at is None:
        return entries + [marker[name] for name in EXTENDED_MARKERS]
    return (entries[:at] + [marker["worldBookBefore"], entries[at], marker["worldBookAfter"], marker["currentTurn"]]
            + entries[at + 1:] + [marker["postTurn"]])


def bag_text(entries: Sequence[BagEntry]) -> str:
    """``formatWorldInfoEntries``: ``### {name}`` and the content, blank-line separated (no heading without a name)."""
    parts = []
    for entry in entries:
        body, title = js_trim(entry.content), js_trim(entry.name)
        if body:
            parts.append(f"### {title}\n\n{body}" if title else body)
    return "\n\n".join(parts)


def frame_messages(
    bags: Bags,
    preset: Sequence[PresetEntry] | None = None,
    *,
    task_contract: str = "",
    history_as_messages: bool = True,
    history_options: HistoryOptions | None = None,
) -> list[FramedMessage]:
    before = list(bags.before)
    if js_trim(task_contract):
        before.insert(0, BagEntry("task-system", TASK_CONTRACT_NAME, js_trim(task_contract)))
    resolved = {
        "worldBookBefore": (bag_text(before), "before"),
        "worldBookAfter": (bag_text(bags.after), "after"),
        "postTurn": (bag_text(bags.post_turn), "postTurn"),
        "chatHistory": (js_trim(bags.history), "history"),
        "currentTurn": (js_trim(bags.turn), "turn"),
    }
    messages: list[FramedMessage] = []
    for entry in apply_extended_markers(preset if preset is not None else DEFAULT_PRESET):
        if not entry.enabled:
            continue
        content = js_trim(entry.content)
        if content:
            messages.append(FramedMessage(entry.role, content, entry.identifier))
            continue
        if not entry.marker or entry.identifier not in resolved:
            continue
        text, bag = resolved[entry.identifier]
        if not text:
            continue
        if entry.identifier == CHAT_HISTORY and history_as_messages:
            for n, message in enumerate(parse_history_messages(text, history_options)):
                messages.append(FramedMessage(message.role, message.content, f"{CHAT_HISTORY}#{n}", bag))
            continue
        messages.append(FramedMessage(entry.role, text, entry.identifier, bag))
    return messages
