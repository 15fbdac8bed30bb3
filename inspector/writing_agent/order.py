"""``context-order.v1`` documents: the model, lenient parsing, normalisation, serialisation, merging.

Follows ../shared/spec/writing-agent.md A.2 (format, ``parseContextOrder``, ``renumberContextOrder``,
``serializeContextOrder``, ``mergeContextOrderIntoWorkerSetJson``). The document model is plain
mutable dataclasses so an editor can hold one; what an edit does to a document (A.11 and the
editor's own edits) is :mod:`.edits`.
"""

from __future__ import annotations

import bisect
import copy
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from inspector.jsjson import JS_SPACE, UNDEFINED, js_is_blank, js_parse, js_stringify, js_to_number, js_trim

from .vocabulary import (
    CONTEXT_ORDER_SCHEMA,
    DIALOGUE_HISTORY_TAG,
    PLAY_SLOT_INPUT_KEYS,
    PLAY_SLOTS,
    is_history_ref,
    is_persona_ref,
    resolve_play_slot,
)

__all__ = [
    "Insert",
    "Slot",
    "ContextOrder",
    "Change",
    "HISTORY_ALIAS",
    "DUPLICATE_HISTORY",
    "PERSONA_PINNED",
    "ANCHOR_DROPPED",
    "RENUMBERED",
    "MOVE_UNDONE",
    "MOVE_IGNORED",
    "HISTORY_ADDED",
    "Normalised",
    "OrderEditError",
    "NoDocumentError",
    "parse_context_order",
    "read_context_order",
    "parse_play_slots",
    "play_slots_on",
    "slot_runs",
    "normalise",
    "normalise_slot",
    "to_json_object",
    "serialise",
    "merge_into_worker_set_json",
    "order_from_worker_set",
    "read_order_source",
    "find_slot",
    "history_insert_index",
    "ERROR_WORKER_SET_NOT_JSON",
    "extract_json_object_text",
]

# The session layer's message for a worker set that is not JSON, verbatim (A.11).
ERROR_WORKER_SET_NOT_JSON = "设计.worker集 无法解析为 JSON"

_UNORDERED = 99  # the order a row gets when its order is missing or not a finite number


# --- model -------------------------------------------------------------------------------------

@dataclass(slots=True)
class Insert:
    ref: str
    projection: str = "full"
    order: int | float = 0
    note: str = ""
    label: str = ""
    # Deprecated: read from old tables as "pre_history"/"post_history", dropped by normalisation.
    anchor: str | None = None


@dataclass(slots=True)
class Slot:
    ref: str
    label: str  # "" when neither the row nor the play slot names it: serialisation omits it
    inserts: list[Insert] = field(default_factory=list)


@dataclass(slots=True)
class ContextOrder:
    slots: list[Slot] = field(default_factory=list)
    brief: str | None = None
    play_slots: dict[str, Any] | None = None
    schema: str = CONTEXT_ORDER_SCHEMA

    def slot(self, ref: str) -> Slot | None:
        return find_slot(self, ref)


# What a Change is about (its ``kind``): normalisation's four, then the edits'.
HISTORY_ALIAS = "history-alias"
DUPLICATE_HISTORY = "duplicate-history"
PERSONA_PINNED = "persona-pinned"
ANCHOR_DROPPED = "anchor-dropped"
RENUMBERED = "renumbered"
MOVE_UNDONE = "move-undone"
MOVE_IGNORED = "move-ignored"
HISTORY_ADDED = "history-added"


@dataclass(frozen=True, slots=True)
class Change:
    """One thing normalisation or an edit did that the user did not literally ask for."""

    slot_ref: str | None
    kind: str  # one of the kinds above
    message: str

    @property
    def noteworthy(self) -> bool:
        """Worth telling the user after an edit: every edit renumbers, so that is no news."""
        return self.kind != RENUMBERED


@dataclass(frozen=True, slots=True)
class Normalised:
    document: ContextOrder
    changes: list[Change]


class OrderEditError(ValueError):
    """A rejected edit; ``message`` is the spec's error string (HTTP 400 in the original).

    ``template`` and ``values``: the message before formatting, for a view that shows it in
    another language (``message == template.format(**values)``)."""

    def __init__(self, message: str, *, template: str | None = None, values: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.template = template if template is not None else message
        self.values = dict(values or {})


class NoDocumentError(ValueError):
    """The input holds no context-order.v1 document ("no document" in the original)."""


# --- parsing -----------------------------------------------------------------------------------

# A fence counts only around an object literal (```json optional, any case), as in the original's
# /```(?:json)?\s*(\{[\s\S]*?\})\s*```/i. That pattern backtracks quadratically on text with many
# openings and no closing (each opening scans to the end), so ``_fenced_object`` finds the same
# match in one pass over the fences instead.
_FENCE_MARK = "```"
_JSON_WORD = re.compile("json", re.IGNORECASE)
_SPACES = re.compile(f"[{JS_SPACE}]*")
_SPACE = re.compile(f"[{JS_SPACE}]")


def _fenced_object(text: str) -> str | None:
    """The object literal of the first fenced block: what the original's fence pattern captures.

    The match starts at the first fence followed by an optional ``json`` (any case), spaces and a
    ``{``, and ends at the first ``}`` after that brace which only spaces separate from a fence.
    Every fence is looked at once; every run of spaces is skipped once."""
    fences = []
    at = text.find(_FENCE_MARK)
    while at >= 0:
        fences.append(at)
        at = text.find(_FENCE_MARK, at + 1)
    if len(fences) < 2:
        return None
    # The closing braces: a '}' that only spaces separate from a following fence.
    closers = []
    for fence in fences:
        end = fence
        while end > 0 and _SPACE.match(text, end - 1):
            end -= 1
        if end > 0 and text[end - 1] == "}":
            closers.append(end - 1)
    if not closers:
        return None
    for fence in fences:
        start = fence + len(_FENCE_MARK)
        word = _JSON_WORD.match(text, start)
        if word:
            start = word.end()
        start = _SPACES.match(text, start).end()
        if start >= closers[-1]:
            return None
        if text.startswith("{", start):
            close = closers[bisect.bisect_right(closers, start)]
            return text[start:close + 1]
    return None


def _parses(text: str) -> bool:
    try:
        js_parse(text)
    except ValueError:
        return False
    return True


def extract_json_object_text(raw: str) -> str | None:
    """``extractJsonObjectText``: the trimmed text if it starts with ``{`` and parses, else a
    fenced object that parses, else the first-``{``-to-last-``}`` slice if it parses, else None."""
    text = js_trim(raw)
    if not text:
        return None
    if text.startswith("{") and _parses(text):
        return text
    fenced = _fenced_object(text)
    if fenced is not None and _parses(fenced):
        return js_trim(fenced)
    first, last = text.find("{"), text.rfind("}")
    if first >= 0 and last > first:
        sliced = text[first:last + 1]
        return sliced if _parses(sliced) else None
    return None


def _json_root(source: str) -> tuple[Any, str]:
    """``JSON.parse(extractJsonObjectText(raw) ?? raw.trim())``; the value, or None and why not."""
    try:
        return js_parse(extract_json_object_text(source) or js_trim(source)), ""
    except ValueError as exc:
        return None, f"no JSON object found ({exc})"


def _parse_root(source: Any) -> tuple[dict | None, str]:
    if isinstance(source, Mapping):
        return dict(source), ""
    if isinstance(source, (bytes, bytearray)):
        source = bytes(source).decode("utf-8", "replace")
    if not isinstance(source, str):
        return None, f"expected a JSON object or text, got {type(source).__name__}"
    root, reason = _json_root(source)
    if reason:
        return None, reason
    if not isinstance(root, dict):
        return None, "the JSON value is not an object"
    return root, ""


def _first_present(row: Mapping, *keys: str) -> Any:
    """``row[a] ?? row[b] ?? …``: the first key whose value is neither null nor missing; the last
    key's value otherwise (null when present as null, ``UNDEFINED`` when missing)."""
    for key in keys:
        if row.get(key) is not None:
            return row[key]
    return row.get(keys[-1], UNDEFINED)


def _first_text(row: Mapping, *keys: str) -> str:
    """``asString(row[a]) ?? asString(row[b]) ?? …``: the first non-blank string, trimmed."""
    for key in keys:
        value = row.get(key)
        if not js_is_blank(value):
            return js_trim(value)
    return ""


def _order_value(value: Any) -> int | float:
    """A finite number as is, anything else through ``Number()``; NaN and infinities become 99."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        number = float(value) if isinstance(value, float) else value
        if isinstance(number, int):
            return number
    else:
        number = math.nan if value is UNDEFINED else js_to_number(value)
    if not math.isfinite(number):
        return _UNORDERED
    return int(number) if number.is_integer() else number


_PROJECTION_ALIASES = {"summary": "summary", "fields": "fields", "fixed": "fixed", "full": "full",
                       "摘要": "summary", "字段": "fields"}
_POST_HISTORY_WORDS = frozenset({"post_history", "dynamic", "历史后"})


def _parse_insert(row: Any) -> Insert | None:
    if not isinstance(row, Mapping):
        return None
    ref = _first_text(row, "ref", "tag", "源")
    if not ref:
        return None
    projection = _first_present(row, "projection", "投影")
    anchor_value = _first_present(row, "anchor", "锚点")
    anchor = None
    if anchor_value is not None and anchor_value is not UNDEFINED:
        anchor = "post_history" if anchor_value in _POST_HISTORY_WORDS else "pre_history"
    return Insert(
        ref=ref,
        projection=_PROJECTION_ALIASES.get(projection, "full") if isinstance(projection, str) else "full",
        order=_order_value(_first_present(row, "order", "序")),
        note=_first_text(row, "note", "说明"),
        label=_first_text(row, "label", "标题"),
        anchor=anchor,
    )


def _parse_slot(row: Any) -> Slot | None:
    if not isinstance(row, Mapping):
        return None
    ref = _first_text(row, "ref", "id")
    if not ref:
        return None
    play_slot = resolve_play_slot(ref)
    if play_slot is not None:
        # The slot's *default* ref, never a play_slots.refs override (A.2 step 4).
        ref = play_slot.default_ref
    # The on-demand chance slot has no default label in the original, and a custom slot none.
    default_label = play_slot.label if play_slot is not None and play_slot.key != "chance" else ""
    label = _first_text(row, "label", "name") or default_label
    raw_inserts = row.get("inserts")
    inserts = [i for i in map(_parse_insert, raw_inserts if isinstance(raw_inserts, list) else []) if i]
    inserts.sort(key=lambda insert: insert.order)  # list.sort is stable, as Array.prototype.sort is
    return Slot(ref=ref, label=label, inserts=inserts)


def _default_play_slots() -> dict[str, Any]:
    return {slot.key: slot.default_on for slot in PLAY_SLOTS}


def parse_play_slots(value: Any) -> dict[str, Any] | None:
    """``parsePlaySlots``: the defaults overridden by boolean alias keys, plus an optional ``refs`` map."""
    if not isinstance(value, Mapping):
        return None
    slots = _default_play_slots()
    for key, slot_key in PLAY_SLOT_INPUT_KEYS:
        if isinstance(value.get(key), bool):
            slots[slot_key] = value[key]
    refs = value.get("refs")
    if isinstance(refs, Mapping):
        # Only the slot keys, in the slots' order; an empty map is left out.
        kept = {slot.key: js_trim(refs[slot.key]) for slot in PLAY_SLOTS if not js_is_blank(refs.get(slot.key))}
        if kept:
            slots["refs"] = kept
    return slots


def play_slots_on(document: ContextOrder) -> dict[str, bool]:
    """Which play slots run each turn, by key: the document's ``play_slots`` as ``parsePlaySlots``
    reads them (its defaults when the document has none)."""
    slots = parse_play_slots(document.play_slots or {})
    return {slot.key: bool(slots[slot.key]) for slot in PLAY_SLOTS}


def slot_runs(document: ContextOrder, slot_ref: str) -> bool | None:
    """Whether the worker in ``slot_ref`` runs each turn; None when it is no play slot."""
    play = resolve_play_slot(slot_ref)
    return None if play is None else play_slots_on(document)[play.key]


def _agent_enabled(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, bool):
        return value
    if value == "false":
        return False
    if isinstance(value, (int, float)) and value == 0:
        return False
    return True


def _parse(source: Any) -> tuple[ContextOrder | None, str]:
    root, reason = _parse_root(source)
    if root is None:
        return None, reason
    slots: list[Slot] = []
    play_slots = None
    agents = root.get("agents")
    if isinstance(agents, list):
        enabled_rows = [row for row in agents if isinstance(row, Mapping) and _agent_enabled(row.get("enabled"))]
        slots = [s for s in map(_parse_slot, enabled_rows) if s]
        if slots:
            play_slots = _default_play_slots()
            for row in agents:
                if not isinstance(row, Mapping):
                    continue
                play_slot = resolve_play_slot(_first_text(row, "id", "ref", "label"))
                if play_slot is not None:
                    play_slots[play_slot.key] = _agent_enabled(row.get("enabled"))
    if not slots:
        raw_slots = root.get("slots")
        slots = [s for s in map(_parse_slot, raw_slots if isinstance(raw_slots, list) else []) if s]
        play_slots = parse_play_slots(_first_present(root, "play_slots", "playSlots"))
    if not slots and root.get("schema") != CONTEXT_ORDER_SCHEMA:
        return None, f"no slots and schema is not {CONTEXT_ORDER_SCHEMA}"
    return ContextOrder(slots=slots, brief=_first_text(root, "brief") or None, play_slots=play_slots), ""


def parse_context_order(source: Any) -> ContextOrder | None:
    """``parseContextOrder``: a document from an object or text, or None ("no document").

    The result is as read (orders, aliases, anchors untouched); ``normalise`` it before showing it.
    """
    return _parse(source)[0]


def read_context_order(source: Any) -> ContextOrder:
    """Like ``parse_context_order`` but raises ``NoDocumentError`` saying why nothing was found."""
    document, reason = _parse(source)
    if document is None:
        raise NoDocumentError(f"no {CONTEXT_ORDER_SCHEMA} document: {reason}")
    return document


# --- normalisation -----------------------------------------------------------------------------

def normalise_slot(slot: Slot) -> tuple[Slot, list[Change]]:
    """``renumberContextOrder`` for one slot (A.2): canonical history ref, one history insert,
    persona first, orders 0..n-1, no anchors."""
    changes: list[Change] = []
    inserts: list[Insert] = []
    seen_history = False
    for index, insert in enumerate(slot.inserts):
        insert = copy.copy(insert)
        if is_history_ref(insert.ref):
            if seen_history:
                changes.append(Change(slot.ref, DUPLICATE_HISTORY,
                                      f"history insert {insert.ref!r} at index {index} dropped: "
                                      "only the first history insert is kept"))
                continue
            seen_history = True
            if insert.ref != DIALOGUE_HISTORY_TAG:
                changes.append(Change(slot.ref, HISTORY_ALIAS,
                                      f"history alias {insert.ref!r} rewritten to {DIALOGUE_HISTORY_TAG!r}"))
                insert.ref = DIALOGUE_HISTORY_TAG
        inserts.append(insert)
    persona_at = next((i for i, insert in enumerate(inserts) if is_persona_ref(insert.ref)), None)
    if persona_at:
        inserts.insert(0, inserts.pop(persona_at))
        changes.append(Change(slot.ref, PERSONA_PINNED,
                              f"persona pinned first: moved from index {persona_at} to 0"))
    renumbered = False
    for index, insert in enumerate(inserts):
        if insert.anchor is not None:
            changes.append(Change(slot.ref, ANCHOR_DROPPED,
                                  f"deprecated anchor {insert.anchor!r} of {insert.ref!r} dropped"))
            insert.anchor = None
        if insert.order != index or isinstance(insert.order, float):
            renumbered = True
            insert.order = index
    if renumbered:
        changes.append(Change(slot.ref, RENUMBERED, f"orders renumbered 0..{len(inserts) - 1}"))
    return Slot(ref=slot.ref, label=slot.label, inserts=inserts), changes


def normalise(document: ContextOrder) -> Normalised:
    """The normalised copy of ``document`` and what changed (an empty list: it was normal)."""
    changes: list[Change] = []
    slots = []
    for slot in document.slots:
        normal, slot_changes = normalise_slot(slot)
        slots.append(normal)
        changes.extend(slot_changes)
    return Normalised(ContextOrder(slots=slots, brief=document.brief,
                                   play_slots=copy.deepcopy(document.play_slots),
                                   schema=CONTEXT_ORDER_SCHEMA), changes)


# --- serialisation -----------------------------------------------------------------------------

def to_json_object(document: ContextOrder) -> dict[str, Any]:
    """The normalised document as a JSON object in the spec's key order, with its omissions."""
    normal = normalise(document).document
    obj: dict[str, Any] = {"schema": CONTEXT_ORDER_SCHEMA}
    if normal.brief is not None:
        obj["brief"] = normal.brief
    if normal.play_slots is not None:
        obj["play_slots"] = copy.deepcopy(normal.play_slots)
    slots = []
    for slot in normal.slots:
        inserts = []
        for insert in slot.inserts:
            row: dict[str, Any] = {"order": insert.order, "ref": insert.ref, "projection": insert.projection}
            if insert.note:
                row["note"] = insert.note
            if insert.label:
                row["label"] = insert.label
            inserts.append(row)
        row_slot: dict[str, Any] = {"ref": slot.ref}
        if slot.label:
            row_slot["label"] = slot.label
        row_slot["inserts"] = inserts
        slots.append(row_slot)
    obj["slots"] = slots
    return obj


def serialise(document: ContextOrder) -> str:
    """``serializeContextOrder``: normalise, then JSON.stringify with a 2-space indent (no final newline)."""
    return js_stringify(to_json_object(document), indent=2)


def merge_into_worker_set_json(worker_set_json: str, document: ContextOrder) -> str:
    """``mergeContextOrderIntoWorkerSetJson``: the worker set with ``context_order`` replaced by
    the normalised document and any camel-case ``contextOrder`` removed."""
    root, _ = _json_root(worker_set_json) if isinstance(worker_set_json, str) else (None, "")
    if not isinstance(root, dict):
        # Also a legacy YAML worker set: it cannot be merged.
        raise OrderEditError(ERROR_WORKER_SET_NOT_JSON)
    root["context_order"] = to_json_object(document)
    root.pop("contextOrder", None)
    return js_stringify(root, indent=2)


def order_from_worker_set(worker_set_json: str) -> ContextOrder | None:
    """The order a worker set (``设计.worker集`` JSON) holds under ``context_order`` (else the
    camel-case ``contextOrder``), or None: the inverse of ``merge_into_worker_set_json``."""
    try:
        root = js_parse(worker_set_json)
    except ValueError:
        return None
    if not isinstance(root, dict):
        return None
    inner = root.get("context_order", root.get("contextOrder"))
    return parse_context_order(inner) if isinstance(inner, (dict, str)) else None


def read_order_source(text: str) -> tuple[ContextOrder, str | None]:
    """The order a file's text holds, as read (not normalised), and the worker-set JSON it sits in
    (None when the text is the order itself): a context-order.v1 document or any text with one,
    else a worker set with the order under ``context_order``. Raises ``NoDocumentError`` saying
    why the text holds no order."""
    try:
        return read_context_order(text), None
    except NoDocumentError:
        document = order_from_worker_set(text)
        if document is None:
            raise
        return document, text


# --- looking up ----------------------------------------------------------------------------------

def find_slot(document: ContextOrder, ref: str) -> Slot | None:
    """The slot named ``ref``: exactly, else through the play-slot aliases (``gm`` finds
    ``world-simulator``). For looking a worker up; an edit looks its slot up as strictly as
    the original (:mod:`.edits`)."""
    for slot in document.slots:
        if slot.ref == ref:
            return slot
    play_slot = resolve_play_slot(ref) if isinstance(ref, str) else None
    if play_slot is not None:
        for slot in document.slots:
            if slot.ref == play_slot.default_ref:
                return slot
    return None


def history_insert_index(slot: Slot) -> int | None:
    """The index of the slot's (first) history insert, or None: the row the bags are cut at."""
    return next((i for i, insert in enumerate(slot.inserts) if is_history_ref(insert.ref)), None)

