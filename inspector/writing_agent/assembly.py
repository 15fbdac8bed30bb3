"""One worker's prompt from an order table and a scenario: segments → bodies → bags → messages.

../shared/spec/writing-agent.md A.3–A.9. ``assemble`` is the whole pipeline for one slot at one
turn; ``prepare`` does the turn-independent part once (segments, isolation, profile, gathered
inputs) so that a preview or the prefix simulation only redoes what a turn changes. Turn k means
the history as it stood after its first k blocks (``None``: all of it).

Where we differ from the public code, on purpose and switchable:
* history cut: block-level hysteresis (``AssemblyOptions.history``; ``HistoryOptions.code()`` is
  the code's sliding window);
* the history marker expands into real role messages (``history_as_messages``);
* ``tail_tokens_N`` keeps a tail of N real tokens, and a segment policy ``latest``/``concat``
  chooses how that segment is read (``code_policies=True``: both reserved no-ops, as in the code);
* isolation filters the blackboard the worker reads, not only its gathered inputs
  (``leak_through_blackboard=True`` reproduces the original's fallback leak).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from inspector.tokens import DEFAULT_ENCODING, count_exact

from .blackboard import Blackboard
from .framing import Bags, BagEntry, FramedMessage, PresetEntry, frame_messages
from .history import HistoryOptions, HistoryProjection, block_role, history_prefix, split_history_blocks
from .isolation import hidden_tag_predicate
from inspector.jsjson import js_trim
from inspector.messages import localized
from .order import ContextOrder, find_slot
from .scenario import Scenario, WorkerConfig, history_turn_limit
from .segments import Segment, SegmentBody, TagReader, order_slot_to_segments, render_segment_body, with_policies
from .vocabulary import (
    CONTEXT_BRIEF_TAG,
    CURRENT_TURN_TAG,
    DIALOGUE_HISTORY_FALLBACK_TAG,
    DIALOGUE_HISTORY_TAG,
    is_current_turn_ref,
    is_history_ref,
    resolve_play_slot,
)

__all__ = [
    "AssemblyOptions",
    "AssemblyError",
    "Message",
    "SegmentContribution",
    "AssemblyResult",
    "Prepared",
    "prepare",
    "assemble",
    "assemble_prepared",
    "BAG_NAMES",
]

BAG_NAMES = ("before", "history", "after", "turn", "postTurn")


class AssemblyError(ValueError):
    """The slot cannot be assembled (no such slot, turn out of range); the message says why."""


@dataclass(frozen=True, slots=True)
class AssemblyOptions:
    encoding: str = DEFAULT_ENCODING
    history: HistoryOptions = field(default_factory=HistoryOptions)
    history_as_messages: bool = True
    code_policies: bool = False
    leak_through_blackboard: bool = False
    isolation: str | None = None  # None: the worker's own
    variant: str | None = None  # None: the manifest's choice; "": no variant
    persona: str | None = None  # None: the worker's persona text
    task_contract: str | None = None  # None: the worker's task text
    preset: tuple[PresetEntry, ...] | None = None  # None: the scenario's, else chatHistory only
    input_merge: str | None = None  # None: the worker's


@dataclass(frozen=True, slots=True)
class Message:
    role: str
    content: str
    tokens: int
    source: str  # preset entry ("main", "worldBookBefore", "chatHistory#3", …)
    bag: str | None  # the bag it came from, None for the preset's own entries


@dataclass(frozen=True, slots=True)
class SegmentContribution:
    id: str
    ref: str
    label: str
    tier: str
    projection: str
    policy: str
    tags: tuple[str, ...]
    text: str
    tokens: int
    bag: str | None  # before/history/after/turn/postTurn; None when the body is empty
    insert_index: int | None
    history: HistoryProjection | None = None
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class AssemblyResult:
    slot_ref: str
    worker_name: str
    turn: int
    turn_count: int
    messages: tuple[Message, ...]
    bags: Bags
    segments: tuple[SegmentContribution, ...]
    warnings: tuple[str, ...]
    encoding: str
    isolation: str
    hidden_tags: tuple[str, ...]
    variant: str
    history: HistoryProjection | None

    @property
    def total_tokens(self) -> int:
        return sum(m.tokens for m in self.messages)

    def bag_tokens(self) -> dict[str, int]:
        return {name: sum(s.tokens for s in self.segments if s.bag == name) for name in BAG_NAMES}

    def to_json(self) -> dict[str, Any]:
        def entries(bag):
            return [{"id": e.id, "name": e.name, "content": e.content} for e in bag]

        def history(h):
            if h is None:
                return None
            return {"mode": h.mode, "totalBlocks": h.total_blocks, "keptStart": h.kept_start,
                    "keptBlocks": h.kept_blocks, "limit": h.limit, "marker": h.marker}

        return {
            "slot": self.slot_ref, "worker": self.worker_name, "turn": self.turn, "turnCount": self.turn_count,
            "encoding": self.encoding, "isolation": self.isolation, "hiddenTags": list(self.hidden_tags),
            "variant": self.variant, "totalTokens": self.total_tokens,
            "messages": [{"role": m.role, "content": m.content, "tokens": m.tokens, "source": m.source,
                          "bag": m.bag} for m in self.messages],
            "bags": {"before": entries(self.bags.before), "history": self.bags.history,
                     "after": entries(self.bags.after), "turn": self.bags.turn,
                     "postTurn": entries(self.bags.post_turn)},
            "bagTokens": self.bag_tokens(),
            "segments": [{"id": s.id, "ref": s.ref, "label": s.label, "tier": s.tier, "projection": s.projection,
                          "policy": s.policy, "tags": list(s.tags), "bag": s.bag, "tokens": s.tokens,
                          "insertIndex": s.insert_index, "history": history(s.history), "notes": list(s.notes),
                          "text": s.text} for s in self.segments],
            "history": history(self.history),
            "warnings": list(self.warnings),
        }


# --- preparation (turn-independent) ------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Prepared:
    slot_ref: str
    worker: WorkerConfig
    segments: tuple[Segment, ...]
    view: Blackboard  # what the worker may read (isolation applied)
    fallback_board: Blackboard  # what the reader falls back to (``view``, unless reproducing the leak)
    history_blocks: tuple[str, ...]
    history_options: HistoryOptions
    options: AssemblyOptions
    isolation: str
    hidden_tags: tuple[str, ...]
    variant: str
    preset: tuple[PresetEntry, ...] | None
    task_contract: str
    input_tags: tuple[str, ...]
    merge: str
    warnings: tuple[str, ...]
    # Bodies (and their token counts) of segments no turn changes, filled by the first assembly:
    # the slider and the prefix simulation then only re-render the history and turn segments.
    body_cache: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def turn_count(self) -> int:
        return len(self.history_blocks)


def _canonical_slot_ref(order: ContextOrder | None, slot_ref: str) -> tuple[str, Any]:
    slot = find_slot(order, slot_ref) if order is not None else None
    if slot is not None:
        return slot.ref, slot
    play_slot = resolve_play_slot(slot_ref.strip())
    return (play_slot.default_ref if play_slot else slot_ref.strip()), None


def prepare(order: ContextOrder | None, scenario: Scenario | Blackboard, slot_ref: str,
            options: AssemblyOptions | None = None) -> Prepared:
    options = options or AssemblyOptions()
    if isinstance(scenario, Blackboard):
        scenario = Scenario(scenario)
    ref, slot = _canonical_slot_ref(order, slot_ref)
    worker = scenario.worker(ref)
    warnings: list[str] = []

    isolation = options.isolation if options.isolation is not None else worker.isolation
    board = scenario.blackboard
    hides = hidden_tag_predicate(isolation, board, worker.hidden_tags)
    hidden = tuple(t for t in board.tags() if hides(t)) if hides else ()
    view = board.without(hides) if hides else board
    if options.leak_through_blackboard and hides:
        warnings.append(f"{isolation}: reproducing the original's leak: hidden tags are still read "
                        "through the blackboard fallback")

    profile = scenario.profile.get(worker.ref, {})
    variant_name = options.variant if options.variant is not None else profile.get("variant", "")
    variant = worker.variants.get(variant_name) if variant_name else None
    if variant_name and variant is None:
        warnings.append(f"contextProfile variant {variant_name!r} is not defined for {worker.ref}; ignored")
    history_policy = profile.get("historyPolicy") or (variant.history_policy if variant else "")
    history_options = options.history
    if history_policy:
        limit = history_turn_limit(history_policy)
        if limit is None:
            warnings.append(f"historyPolicy {history_policy!r} is not last_N_turns; ignored")
        else:
            history_options = replace(history_options, limits={mode: limit for mode in history_options.limits})

    persona = options.persona if options.persona is not None else worker.persona
    if variant is not None and variant.segments:
        segments = list(variant.segments)
    elif slot is not None:
        segments = order_slot_to_segments(slot, persona)
        if any(i.ref in ("worker.persona", "persona") for i in slot.inserts) and not persona.strip():
            warnings.append(f"{ref}: the persona insert is dropped: the worker has no persona text")
    elif worker.segments:
        segments = list(worker.segments)
        warnings.append(f"{ref}: no slot in the order; using the worker's own contextSegments")
    else:
        known = ", ".join(s.ref for s in order.slots) if order is not None and order.slots else "none"
        raise AssemblyError(localized("no slot {slot} in the order (slots: {known}) and no contextSegments for it",
                                      slot=repr(slot_ref), known=known))
    policies = {**worker.policies, **(variant.policies if variant else {})}
    segments = with_policies(segments, policies)
    if not any(is_history_ref(t) for s in segments for t in s.tags):
        warnings.append(f"{ref}: no {DIALOGUE_HISTORY_TAG} insert: the history is not sent "
                        "(unless the worker gathers it as an input)")
    for seg in segments:
        for tag in seg.tags:
            if hides and hides(tag):
                warnings.append(f"{seg.label or seg.id}: {tag} is hidden by {isolation} isolation")

    raw_history = view.value(DIALOGUE_HISTORY_TAG) or view.value(DIALOGUE_HISTORY_FALLBACK_TAG)
    blocks = tuple(split_history_blocks(raw_history)) if raw_history.strip() else ()
    input_tags = tuple(dict.fromkeys([t for s in segments for t in s.tags] + [CONTEXT_BRIEF_TAG]
                                     + list(worker.input_tags)))
    return Prepared(
        slot_ref=ref, worker=worker, segments=tuple(segments), view=view,
        fallback_board=board if options.leak_through_blackboard else view,
        history_blocks=blocks, history_options=history_options, options=options, isolation=isolation,
        hidden_tags=hidden, variant=variant.name if variant else "",
        preset=options.preset if options.preset is not None else scenario.preset,
        task_contract=options.task_contract if options.task_contract is not None else worker.task,
        input_tags=input_tags, merge=options.input_merge or worker.input_merge, warnings=tuple(warnings),
    )


# --- one turn ----------------------------------------------------------------------------------

def _turn_overrides(prepared: Prepared, turn: int) -> tuple[dict[str, str], list[str] | None]:
    blocks = prepared.history_blocks
    if turn >= len(blocks):
        return {}, list(blocks) or None
    overrides = {DIALOGUE_HISTORY_TAG: history_prefix(list(blocks), turn), DIALOGUE_HISTORY_FALLBACK_TAG: ""}
    # The block that follows is what the user typed next, when it is a user block.
    role, content = block_role(blocks[turn])
    if role == "user" and content:
        overrides[CURRENT_TURN_TAG] = content
    return overrides, (list(blocks[:turn]) or None)


_TURN_OVERRIDDEN_TAGS = frozenset({DIALOGUE_HISTORY_TAG, DIALOGUE_HISTORY_FALLBACK_TAG, CURRENT_TURN_TAG})


def _turn_dependent(tag: str) -> bool:
    """Whether what a tag reads can change with the turn (the replay overrides these tags)."""
    return tag in _TURN_OVERRIDDEN_TAGS or is_history_ref(tag) or is_current_turn_ref(tag)


def _segment_merge(segment: Segment, prepared: Prepared) -> str:
    if not prepared.options.code_policies and segment.policy in ("latest", "concat"):
        return segment.policy
    return prepared.merge


def _bag_name(label: str, fallback: str) -> str:
    # label.replace(/^#+\s*/, "").trim() || id
    return js_trim(label.lstrip("#")) or fallback


def assemble_prepared(prepared: Prepared, turn: int | None = None) -> AssemblyResult:
    options = prepared.options
    count = prepared.turn_count
    if turn is None:
        turn = count
    if isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn <= count:
        raise AssemblyError(f"turn {turn!r} is outside 0..{count} (the history has {count} blocks)")
    overrides, blocks = _turn_overrides(prepared, turn)
    gather = TagReader(prepared.view, overrides=overrides, merge=prepared.merge)
    inputs = {tag: gather.read(tag) for tag in prepared.input_tags if not is_history_ref(tag)}
    if any(is_history_ref(t) for t in prepared.input_tags):
        inputs[DIALOGUE_HISTORY_TAG] = gather.read(DIALOGUE_HISTORY_TAG)
    reader = TagReader(prepared.fallback_board, inputs=inputs, overrides=overrides, merge=prepared.merge)
    warnings = list(prepared.warnings)

    before: list[BagEntry] = []
    after: list[BagEntry] = []
    post: list[BagEntry] = []
    history_text = turn_text = ""
    phase = "before"
    contributions = []
    history_projection = None
    for segment in prepared.segments:
        cached = prepared.body_cache.get(segment.id)
        if cached is None:
            body: SegmentBody = render_segment_body(
                segment, reader, history_options=prepared.history_options, history_blocks=blocks,
                encoding=options.encoding, code_policies=options.code_policies,
                merge=_segment_merge(segment, prepared))
            tokens = count_exact(body.text, options.encoding)
            if not any(_turn_dependent(tag) for tag in segment.tags):
                prepared.body_cache[segment.id] = (body, tokens)
        else:
            body, tokens = cached
        for tag in body.empty_tags:
            if tag in prepared.hidden_tags:
                continue  # already reported as hidden
            warnings.append(f"{segment.label or segment.id}: {tag} is empty on the blackboard")
        # worldInfoPackFromSegments trims every body before it lands in a bag.
        text = js_trim(body.text)
        if any(is_history_ref(t) for t in segment.tags):
            history_text, phase, bag = text, "after", "history"
            history_projection = body.history
        elif any(is_current_turn_ref(t) for t in segment.tags):
            turn_text, phase, bag = text, "postTurn", "turn"
        else:
            bag = phase if text else None
            if bag is not None:
                entry = BagEntry(segment.id, _bag_name(segment.label, segment.id), text)
                {"before": before, "after": after, "postTurn": post}[phase].append(entry)
        contributions.append(SegmentContribution(
            id=segment.id, ref=segment.ref, label=segment.label, tier=segment.tier, projection=segment.projection,
            policy=segment.policy, tags=segment.tags, text=body.text,
            tokens=tokens, bag=bag if text else None,
            insert_index=segment.insert_index, history=body.history, notes=body.notes))
    if not history_text and js_trim(inputs.get(DIALOGUE_HISTORY_TAG, "")):
        history_text = js_trim(inputs[DIALOGUE_HISTORY_TAG])
        warnings.append("no history segment: the gathered history is sent unprojected")
    if not turn_text and js_trim(inputs.get(CURRENT_TURN_TAG, "")):
        turn_text = js_trim(inputs[CURRENT_TURN_TAG])
    bags = Bags(tuple(before), history_text, tuple(after), turn_text, tuple(post))
    framed: list[FramedMessage] = frame_messages(
        bags, prepared.preset, task_contract=prepared.task_contract,
        history_as_messages=options.history_as_messages, history_options=prepared.history_options)
    messages = tuple(Message(m.role, m.content, count_exact(m.content, options.encoding), m.source, m.bag)
                     for m in framed)
    return AssemblyResult(
        slot_ref=prepared.slot_ref, worker_name=prepared.worker.name or prepared.slot_ref, turn=turn,
        turn_count=count, messages=messages, bags=bags, segments=tuple(contributions),
        warnings=tuple(dict.fromkeys(warnings)), encoding=options.encoding, isolation=prepared.isolation,
        hidden_tags=prepared.hidden_tags, variant=prepared.variant, history=history_projection)


def assemble(order: ContextOrder | None, scenario: Scenario | Blackboard, slot_ref: str,
             turn: int | None = None, options: AssemblyOptions | None = None) -> AssemblyResult:
    """The messages worker ``slot_ref`` is sent at ``turn`` (None: the latest), with its bags,
    each segment's contribution and warnings."""
    return assemble_prepared(prepare(order, scenario, slot_ref, options), turn)

