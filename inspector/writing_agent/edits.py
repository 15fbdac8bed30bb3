"""What an edit does to a ``context-order.v1`` document.

Every edit is pure: it takes a document, returns an :class:`EditResult` (a new, normalised
document and what normalisation changed that the user did not ask for), or raises
``OrderEditError`` with the message to show. The edit API of ../shared/spec/writing-agent.md
A.11 (``move`` ±1, ``set_projection``, ``set_anchor``, ``replace`` and ``apply_edit``, the HTTP
route's validation) is reproduced with its messages verbatim; the order editor's own edits (a
drag over several rows, adding or removing a row, a ref, note or label, a play-slot switch, the
brief) change the plain document and hand it to the same normalisation, so the persona stays
pinned and the history single and canonical whichever way an edit comes in.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from inspector.jsjson import js_is_blank, js_trim

from .order import (
    HISTORY_ADDED,
    MOVE_IGNORED,
    MOVE_UNDONE,
    PERSONA_PINNED,
    Change,
    ContextOrder,
    Insert,
    OrderEditError,
    Slot,
    find_slot,
    history_insert_index,
    normalise,
    normalise_slot,
    parse_context_order,
    parse_play_slots,
)
from .vocabulary import (
    ANCHORS,
    DEFAULT_HISTORY_NOTE,
    DIALOGUE_HISTORY_TAG,
    PLAY_SLOT_BY_KEY,
    PROJECTIONS,
    WORKER_PERSONA_REF,
    is_history_ref,
    is_persona_ref,
)

__all__ = [
    "EditResult",
    "ACTIONS",
    "TEXT_FIELDS",
    "move",
    "set_projection",
    "set_anchor",
    "replace",
    "apply_edit",
    "drop_landing",
    "move_to",
    "add_insert",
    "remove_insert",
    "set_insert_text",
    "set_play_slot",
    "set_brief",
    "landed_row",
    "ERROR_BAD_ACTION",
    "ERROR_INDEX_OUT_OF_RANGE",
    "ERROR_REPLACE_UNPARSEABLE",
    "ERROR_MOVE_ARGS",
    "ERROR_ANCHOR_ARGS",
    "ERROR_PROJECTION_ARGS",
    "ERROR_NO_ORDER",
    "ERROR_SLOT_NOT_FOUND",
    "ERROR_DROP_OUTSIDE",
    "ERROR_INSERT_WITHOUT_REF",
    "ERROR_EMPTY_REF",
]

# The HTTP route's and the session layer's messages, verbatim (A.11). A replace without a
# context_order is not validated by the route: the session layer reports it as unparseable.
ERROR_BAD_ACTION = "action 须为 move | set_anchor | set_projection | replace"
ERROR_INDEX_OUT_OF_RANGE = "插入项下标越界"
ERROR_REPLACE_UNPARSEABLE = "context_order 无法解析"
ERROR_MOVE_ARGS = "move 需要 slotRef、index、delta(±1)"
ERROR_ANCHOR_ARGS = "set_anchor 需要 slotRef、index、anchor(pre_history|post_history)"
ERROR_PROJECTION_ARGS = "set_projection 需要 slotRef、index、projection"
ERROR_NO_ORDER = "尚无上下文投影排序可编辑；请先完成游玩拓扑/细化终稿，或提交完整 replace"
ERROR_SLOT_NOT_FOUND = "未找到槽 {ref}"  # a str.format template (OrderEditError.template)

# The editor's own edits have no message in the original; these are its (``str.format`` templates,
# which a view may translate through ``OrderEditError.template``).
ERROR_DROP_OUTSIDE = "drop position {dest} is outside 0..{count}"
ERROR_INSERT_WITHOUT_REF = f"an insert needs a ref (a blackboard tag, {WORKER_PERSONA_REF} or {DIALOGUE_HISTORY_TAG})"
ERROR_EMPTY_REF = "a ref cannot be empty; remove the insert instead"

# The actions of the A.11 edit request.
ACTIONS = ("move", "set_anchor", "set_projection", "replace")

# The insert fields a user types: the ref (a blackboard tag), the label and the note.
TEXT_FIELDS = ("ref", "label", "note")

# Changes an edit makes without changing the document: a move the persona pin undoes, a move past
# the end. A chain of moves stops at the first one.
_MOVE_REFUSED = frozenset({MOVE_UNDONE, MOVE_IGNORED})


@dataclass(frozen=True, slots=True)
class EditResult:
    document: ContextOrder
    changes: list[Change]


def _slot_not_found(ref: str) -> OrderEditError:
    return OrderEditError(ERROR_SLOT_NOT_FOUND.format(ref=ref), template=ERROR_SLOT_NOT_FOUND, values={"ref": ref})


def _edit_slot(document: ContextOrder, ref: str) -> Slot | None:
    """``applyContextOrderEdit``'s lookup: the first slot whose trimmed ref equals the trimmed ``ref``."""
    wanted = js_trim(ref)
    return next((slot for slot in document.slots if js_trim(slot.ref) == wanted), None)


def _is_index(value: Any) -> bool:
    """``Number.isFinite`` of a JSON number: an integer too large for a double (past 309 digits)
    is Infinity in JavaScript, so not an index."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def _target(document: ContextOrder, slot_ref: Any, index: Any) -> tuple[ContextOrder, Slot, int]:
    """A working copy of the document as held (not normalised first: the original edits the
    order it parsed, and normalises after), its slot and the checked index."""
    working = copy.deepcopy(document)
    slot = _edit_slot(working, slot_ref)
    if slot is None:
        raise _slot_not_found(js_trim(slot_ref))
    # A fractional index inside the range is rejected too: the original would index past its
    # array (a TypeError or a silent no-op), which is no result worth reproducing.
    whole = isinstance(index, int) or index.is_integer()
    if not (whole and 0 <= index < len(slot.inserts)):
        raise OrderEditError(ERROR_INDEX_OUT_OF_RANGE)
    return working, slot, int(index)


def _finish(working: ContextOrder) -> EditResult:
    normal = normalise(working)
    return EditResult(normal.document, [c for c in normal.changes if c.noteworthy])


def _has_slot_ref(value: Any) -> bool:
    return not js_is_blank(value)


# --- the edit API (A.11) -------------------------------------------------------------------------

def move(document: ContextOrder, slot_ref: str, index: int, delta: int) -> EditResult:
    """Swap insert ``index`` with its neighbour ``index + delta`` (delta ±1)."""
    if not (_has_slot_ref(slot_ref) and _is_index(index) and _is_index(delta) and delta in (1, -1)):
        raise OrderEditError(ERROR_MOVE_ARGS)
    working, slot, index = _target(document, slot_ref, index)
    other = index + int(delta)
    if not 0 <= other < len(slot.inserts):
        result = _finish(working)
        return EditResult(result.document, [Change(slot.ref, MOVE_IGNORED,
                                                   f"nothing at index {other}: move ignored")] + result.changes)
    unmoved = normalise_slot(slot)[0].inserts
    persona_involved = is_persona_ref(slot.inserts[index].ref) or is_persona_ref(slot.inserts[other].ref)
    slot.inserts[index], slot.inserts[other] = slot.inserts[other], slot.inserts[index]
    result = _finish(working)
    undone = persona_involved and any(s.ref == slot.ref and s.inserts == unmoved for s in result.document.slots)
    if undone:
        return EditResult(result.document, [Change(slot.ref, MOVE_UNDONE, "persona pinned first: move undone")]
                          + [c for c in result.changes if c.kind != PERSONA_PINNED])
    return result


def set_projection(document: ContextOrder, slot_ref: str, index: int, projection: str) -> EditResult:
    if not (_has_slot_ref(slot_ref) and _is_index(index) and projection in PROJECTIONS):
        raise OrderEditError(ERROR_PROJECTION_ARGS)
    working, slot, index = _target(document, slot_ref, index)
    slot.inserts[index].projection = projection
    return _finish(working)


def set_anchor(document: ContextOrder, slot_ref: str, index: int, anchor: str) -> EditResult:
    """Move insert ``index`` just before (``pre_history``) or just after (``post_history``) the
    history insert, adding a history insert first if the slot has none."""
    if not (_has_slot_ref(slot_ref) and _is_index(index) and anchor in ANCHORS):
        raise OrderEditError(ERROR_ANCHOR_ARGS)
    working, slot, index = _target(document, slot_ref, index)
    if is_history_ref(slot.inserts[index].ref):
        return _finish(working)
    item = slot.inserts.pop(index)
    extra: list[Change] = []
    history_at = history_insert_index(slot)
    if history_at is None:
        count = len(slot.inserts)
        history_at = min(max(1, math.ceil(count / 2)), count)
        slot.inserts.insert(history_at, Insert(ref=DIALOGUE_HISTORY_TAG, projection="summary",
                                               note=DEFAULT_HISTORY_NOTE))
        extra.append(Change(slot.ref, HISTORY_ADDED,
                            f"the slot had no history insert: {DIALOGUE_HISTORY_TAG} added at index {history_at}"))
    slot.inserts.insert(history_at if anchor == "pre_history" else history_at + 1, item)
    result = _finish(working)
    return EditResult(result.document, extra + result.changes)


def replace(document: ContextOrder | None, context_order: Any) -> EditResult:
    """Parse ``context_order`` leniently and normalise it; a missing or unreadable one is
    "context_order 无法解析", as in the original (its route does not check the field)."""
    parsed = parse_context_order(context_order) if context_order is not None else None
    if parsed is None:
        raise OrderEditError(ERROR_REPLACE_UNPARSEABLE)
    return _finish(parsed)


def apply_edit(document: ContextOrder | None, request: Mapping[str, Any]) -> EditResult:
    """One request of ``POST /api/sessions/:id/context-order`` (A.11), validated like the original:
    the action and the slot ref are trimmed, then each action checks its own fields."""
    if not isinstance(request, Mapping):
        raise OrderEditError(ERROR_BAD_ACTION)
    action = request.get("action")
    # A non-string action makes the original's route throw a TypeError; we name the valid actions.
    action = js_trim(action) if isinstance(action, str) else None
    if action not in ACTIONS:
        raise OrderEditError(ERROR_BAD_ACTION)
    if action == "replace":
        return replace(document, request.get("context_order"))
    slot_ref, index = request.get("slotRef"), request.get("index")
    if action == "move" and not (_has_slot_ref(slot_ref) and _is_index(index)
                                 and _is_index(request.get("delta")) and request.get("delta") in (1, -1)):
        raise OrderEditError(ERROR_MOVE_ARGS)
    if action == "set_anchor" and not (_has_slot_ref(slot_ref) and _is_index(index)
                                       and request.get("anchor") in ANCHORS):
        raise OrderEditError(ERROR_ANCHOR_ARGS)
    if action == "set_projection" and not (_has_slot_ref(slot_ref) and _is_index(index)
                                           and request.get("projection") in PROJECTIONS):
        raise OrderEditError(ERROR_PROJECTION_ARGS)
    if document is None:
        raise OrderEditError(ERROR_NO_ORDER)
    slot_ref = js_trim(slot_ref)
    if action == "move":
        return move(document, slot_ref, index, request["delta"])
    if action == "set_anchor":
        return set_anchor(document, slot_ref, index, request["anchor"])
    return set_projection(document, slot_ref, index, request["projection"])


# --- the editor's edits ----------------------------------------------------------------------------

def drop_landing(source: int, destination: int) -> int:
    """The index a row moved from ``source`` to before the row now at ``destination`` ends up
    at (once it has left its old place, the rows below it move up by one)."""
    return destination - 1 if destination > source else destination


def move_to(document: ContextOrder, slot_ref: str, source: int, destination: int) -> EditResult:
    """Move insert ``source`` so it lands before the row that is now at ``destination``
    (``len`` = to the end), as a drag-and-drop does: a chain of ±1 moves, so each step is
    normalised exactly as the edit API would normalise it (a step that would move an item above
    the persona is undone, and says so)."""
    working, slot, source = _target(document, slot_ref, source)
    count = len(slot.inserts)
    if not (isinstance(destination, int) and 0 <= destination <= count):
        raise OrderEditError(ERROR_DROP_OUTSIDE.format(dest=destination, count=count),
                             template=ERROR_DROP_OUTSIDE, values={"dest": destination, "count": count})
    final = drop_landing(source, destination)
    changes: list[Change] = []
    index = source
    step = 1 if final > source else -1
    while index != final:
        result = move(working, slot.ref, index, step)
        working = result.document
        for change in result.changes:
            if change not in changes:
                changes.append(change)
        if any(c.kind in _MOVE_REFUSED for c in result.changes):
            break
        index += step
    return EditResult(working, changes)


def add_insert(document: ContextOrder, slot_ref: str, index: int, ref: str, projection: str = "full",
               note: str = "", label: str = "") -> EditResult:
    """A new insert at ``index`` (``len``: at the end; clamped into the slot) of the slot, then
    normalised (a new persona row is pinned first, a second history row dropped)."""
    ref = ref.strip()
    if not ref:
        raise OrderEditError(ERROR_INSERT_WITHOUT_REF)
    working = normalise(document).document
    slot = find_slot(working, slot_ref)
    if slot is None:
        raise _slot_not_found(js_trim(slot_ref))
    index = max(0, min(index, len(slot.inserts)))
    slot.inserts.insert(index, Insert(ref=ref, projection=projection, note=note, label=label))
    return _finish(working)


def remove_insert(document: ContextOrder, slot_ref: str, index: int) -> EditResult:
    working, slot, index = _target(document, slot_ref, index)
    del slot.inserts[index]
    return _finish(working)


def set_insert_text(document: ContextOrder, slot_ref: str, index: int, field_name: str, value: str) -> EditResult:
    """Change an insert's ref, label or note. A ref is trimmed and may not be empty (the
    parser drops an insert without one); labels and notes are kept as typed."""
    if field_name not in TEXT_FIELDS:
        raise ValueError(f"not an editable text field: {field_name!r}")
    working, slot, index = _target(document, slot_ref, index)
    if field_name == "ref":
        value = value.strip()
        if not value:
            raise OrderEditError(ERROR_EMPTY_REF)
    setattr(slot.inserts[index], field_name, value)
    return _finish(working)


def set_play_slot(document: ContextOrder, key: str, enabled: bool) -> EditResult:
    """Switch a play slot on or off. A document without ``play_slots`` starts from the defaults
    (``parsePlaySlots`` of an empty object), so the other slots keep their meaning."""
    if key not in PLAY_SLOT_BY_KEY:
        raise ValueError(f"not a play slot: {key!r}")
    working = normalise(document).document
    slots = copy.deepcopy(working.play_slots) if working.play_slots is not None else parse_play_slots({})
    slots[key] = bool(enabled)
    working.play_slots = slots
    return _finish(working)


def set_brief(document: ContextOrder, brief: str) -> EditResult:
    """The document's ``brief``; an empty text removes it (it is then not written)."""
    working = normalise(document).document
    working.brief = brief if brief.strip() else None
    return _finish(working)


def landed_row(document: ContextOrder, slot_ref: str, insert: Insert, near: int) -> int | None:
    """Where ``insert`` (matched by ref, projection, note and label) sits in the slot after an
    edit: the matching row nearest ``near`` when it repeats, None when it is gone."""
    slot = document.slot(slot_ref)
    same = [i for i, other in enumerate(slot.inserts if slot else [])
            if (other.ref, other.projection, other.note, other.label)
            == (insert.ref, insert.projection, insert.note, insert.label)]
    return min(same, key=lambda i: abs(i - near)) if same else None
