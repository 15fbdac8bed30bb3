"""contextSegments: from an order slot or frontmatter rows, and each segment's rendered body.

../shared/spec/writing-agent.md A.3 (``contextOrderToSegments``), A.4 (``parseContextSegments``,
``readTagContent``, ``renderContextSegmentBody``, ``applyPolicy``). Reading goes through a
``TagReader``, which is where isolation is enforced: it only ever sees the blackboard view it is
given, so a tag hidden from the worker cannot come back through a fallback read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from inspector.jsjson import js_number
from inspector.tokens import DEFAULT_ENCODING, count_exact

from .blackboard import Blackboard, tag_matches
from .fragment import project_content
from .history import HistoryOptions, HistoryProjection, project_dialogue_history
from .order import Slot, history_insert_index, normalise_slot
from inspector.jsjson import js_trim
from .vocabulary import (
    CURRENT_TURN_TAG,
    DIALOGUE_HISTORY_FALLBACK_TAG,
    DIALOGUE_HISTORY_TAG,
    EVENT_STREAM_HEADING,
    EVENT_STREAM_TAG,
    USER_HEADING,
    WORKER_PERSONA_REF,
    is_history_ref,
    is_persona_ref,
)

__all__ = [
    "Segment",
    "SegmentBody",
    "TagReader",
    "order_slot_to_segments",
    "parse_context_segments",
    "segment_id",
    "segment_label",
    "ref_reads_something",
    "insert_ref_choices",
    "apply_policy",
    "render_segment_body",
    "RECAP_TAGS",
    "with_policies",
]

# Read-only recap tags the original reformats; the spec does not give the format, so their text
# is used as stored (and the segment says so in its notes).
RECAP_TAGS = frozenset({"创作.已验收内容", "创作.已验收单位"})

# contextOrderToSegments' /[^\w.\u4e00-\u9fff-]+/g: a run becomes one "_", and only the basic CJK
# block counts (an astral ideograph is two UTF-16 units outside it, so one run).
_ID_UNSAFE = re.compile(r"[^A-Za-z0-9_.\-\u4e00-\u9fff]+")
_TAIL_LINES = re.compile(r"tail_lines_(\d+)")
_TAIL_TOKENS = re.compile(r"tail_tokens_(\d+)")
_LINE_BREAK = re.compile(r"\r?\n")


@dataclass(frozen=True, slots=True)
class Segment:
    id: str
    tier: str = "static"  # "static" | "dynamic": a cache hint only, never a reordering
    tags: tuple[str, ...] = ()
    label: str = ""
    inline: str | None = None
    projection: str = ""
    policy: str = ""
    ref: str = ""  # the order insert it came from ("" for frontmatter segments)
    insert_index: int | None = None


def segment_id(order: int | float, ref: str) -> str:
    return _ID_UNSAFE.sub("_", f"ord{js_number(order)}-{ref}")


def segment_label(ref: str, note: str, label: str) -> str:
    if label:
        return label
    return f"## {ref}（{note}）" if note else f"## {ref}"


def insert_ref_choices(tags: Iterable[str]) -> list[str]:
    """The refs an insert may name: the persona, the history, then the blackboard's tags."""
    return [WORKER_PERSONA_REF, DIALOGUE_HISTORY_TAG, *tags]


def ref_reads_something(ref: str, tags: Iterable[str]) -> bool:
    """Whether an insert with this ref can send anything: the persona (the worker's text) and the
    history always can; any other ref is read as a blackboard pattern, so it needs a tag among
    ``tags`` that the pattern matches (``tag_matches``, as the segment renderer reads it)."""
    if is_persona_ref(ref) or is_history_ref(ref):
        return True
    return any(tag_matches(ref, tag) for tag in tags)


def order_slot_to_segments(slot: Slot, persona_text: str) -> list[Segment]:
    """``contextOrderToSegments`` for one slot; the persona insert is dropped when ``persona_text`` is blank."""
    normal, _ = normalise_slot(slot)
    persona_text = js_trim(persona_text or "")
    history_at = history_insert_index(normal)
    segments = []
    for index, insert in enumerate(normal.inserts):
        common = dict(
            id=segment_id(insert.order, insert.ref),
            tier="dynamic" if history_at is not None and index > history_at else "static",
            label=segment_label(insert.ref, insert.note, insert.label),
            projection=insert.projection,
            ref=insert.ref,
            insert_index=index,
        )
        if is_persona_ref(insert.ref):
            if persona_text:
                segments.append(Segment(tags=(), inline=persona_text, **common))
        elif is_history_ref(insert.ref):
            segments.append(Segment(tags=(DIALOGUE_HISTORY_TAG,), **common))
        else:
            segments.append(Segment(tags=(insert.ref,), **common))
    return segments


def _trimmed(value: Any) -> str:
    return js_trim(value) if isinstance(value, str) else ""


def parse_context_segments(rows: Any) -> list[Segment]:
    """``parseContextSegments`` (frontmatter form): rows with an id and a tag or inline text."""
    segments = []
    for row in rows if isinstance(rows, list) else []:
        if not isinstance(row, Mapping):
            continue
        seg_id = _trimmed(row.get("id"))
        raw_tags = row.get("tags")
        tags = tuple(js_trim(t) for t in raw_tags if isinstance(t, str) and js_trim(t)) if isinstance(raw_tags, list) else ()
        inline = _trimmed(row.get("inline")) or None
        if not seg_id or not (tags or inline):
            continue
        segments.append(Segment(
            id=seg_id,
            tier="dynamic" if row.get("tier") == "dynamic" else "static",
            tags=tags,
            label=_trimmed(row.get("label")),
            inline=inline,
            projection=_trimmed(row.get("projection")),
            policy=_trimmed(row.get("policy")),
        ))
    return segments


# --- policies ----------------------------------------------------------------------------------

def _tail_within_tokens(text: str, limit: int, encoding: str) -> str:
    """The longest tail of whole lines within ``limit`` tokens; if even the last line is over,
    the longest character tail of it that fits."""
    if count_exact(text, encoding) <= limit:
        return text
    lines = _LINE_BREAK.split(text)
    lo, hi = 1, len(lines)  # binary search on how many trailing lines fit
    best = None
    while lo <= hi:
        mid = (lo + hi) // 2  # keep the last `mid` lines
        if count_exact("\n".join(lines[-mid:]), encoding) <= limit:
            best, lo = mid, mid + 1
        else:
            hi = mid - 1
    if best:
        return "\n".join(lines[-best:])
    last = lines[-1]
    lo, hi, keep = 1, len(last), 0
    while lo <= hi:
        mid = (lo + hi) // 2
        if count_exact(last[-mid:], encoding) <= limit:
            keep, lo = mid, mid + 1
        else:
            hi = mid - 1
    return last[-keep:] if keep else ""


def apply_policy(text: str, policy: str, *, encoding: str = DEFAULT_ENCODING, code_policies: bool = False) -> str:
    """``applyPolicy``. ``tail_lines_N`` keeps the last N lines. ``tail_tokens_N`` keeps the tail
    within N tokens of ``encoding`` (the public code leaves it reserved, a no-op: ``code_policies``).
    ``latest``, ``concat`` and unknown policies leave the text alone (they choose what is read)."""
    name = (policy or "").strip()
    match = _TAIL_LINES.fullmatch(name)
    if match and int(match.group(1)) > 0:
        return "\n".join(_LINE_BREAK.split(text)[-int(match.group(1)):])
    match = _TAIL_TOKENS.fullmatch(name)
    if match and int(match.group(1)) > 0 and not code_policies:
        return _tail_within_tokens(text, int(match.group(1)), encoding)
    return text


# --- reading -----------------------------------------------------------------------------------

@dataclass(slots=True)
class TagReader:
    """``readTagContent``: ``overrides`` win even when blank (the turn replay sets the history
    this way), then a non-blank gathered ``inputs`` value, then the blackboard."""

    blackboard: Blackboard
    inputs: Mapping[str, str] = field(default_factory=dict)
    overrides: Mapping[str, str] = field(default_factory=dict)
    merge: str = "latest"

    def read(self, tag: str, merge: str | None = None) -> str:
        if tag in self.overrides:
            return self.overrides[tag]
        value = self.inputs.get(tag)
        if isinstance(value, str) and js_trim(value):
            return js_trim(value)
        merge = merge or self.merge
        contents = self.blackboard.read(tag, merge)
        if merge == "concat":
            return "\n\n".join(content for content in contents if content)
        return js_trim(contents[-1]) if contents else ""

    def history_text(self) -> str:
        """The raw history: ``对话.历史``, else ``对话历史``, else the event-stream fallback."""
        text = self.read(DIALOGUE_HISTORY_TAG) or self.read(DIALOGUE_HISTORY_FALLBACK_TAG)
        if js_trim(text):
            return js_trim(text)
        parts = []
        events = js_trim(self.read(EVENT_STREAM_TAG, "concat"))
        if events:
            parts.append(f"{EVENT_STREAM_HEADING}\n\n{events}")
        turn = js_trim(self.read(CURRENT_TURN_TAG))
        if turn:
            parts.append(f"{USER_HEADING}\n\n{turn}")
        return "\n\n".join(parts)


@dataclass(frozen=True, slots=True)
class SegmentBody:
    text: str
    history: HistoryProjection | None = None
    empty_tags: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


def _is_duplicate(part: str, earlier: list[str], seen: set[str], skip_exact: frozenset[str]) -> bool:
    if not part or part in skip_exact or part in seen:
        return True
    return any(e == part or ("\n\n" + part) in e or e.startswith(part + "\n\n") for e in earlier)


def render_segment_body(
    segment: Segment,
    reader: TagReader,
    *,
    history_options: HistoryOptions | None = None,
    history_blocks: list[str] | None = None,
    skip_tags: Iterable[str] = (),
    skip_exact: Iterable[str] = (),
    encoding: str = DEFAULT_ENCODING,
    code_policies: bool = False,
    merge: str | None = None,
) -> SegmentBody:
    """``renderContextSegmentBody`` (A.4). ``history_blocks`` may pass the ready split of the
    history text the reader returns (the turn replay has it already)."""
    if segment.inline is not None and js_trim(segment.inline):
        return SegmentBody(project_content(js_trim(segment.inline), segment.projection))
    skip = frozenset(skip_tags)
    exact = frozenset(skip_exact)
    parts: list[str] = []
    seen: set[str] = set()
    history = None
    empty: list[str] = []
    notes: list[str] = []
    for tag in segment.tags:
        if tag in skip:
            continue
        if is_history_ref(tag):
            raw = reader.history_text()
            history = project_dialogue_history(raw, segment.projection, history_options,
                                               history_blocks if history_blocks is not None and raw.strip() else None)
            part = js_trim(history.text)
        else:
            content = reader.read(tag, merge)
            if not content:
                empty.append(tag)
                continue
            if tag in RECAP_TAGS:
                notes.append(f"{tag}: recap formatting is not specified; shown as stored")
            part = project_content(apply_policy(content, segment.policy, encoding=encoding,
                                                code_policies=code_policies), segment.projection)
            part = js_trim(part)
        if _is_duplicate(part, parts, seen, exact):
            continue
        seen.add(part)
        parts.append(part)
    return SegmentBody("\n\n".join(parts), history, tuple(empty), tuple(notes))


def with_policies(segments: list[Segment], policies: Mapping[str, str]) -> list[Segment]:
    """Segments with policies set by id, by insert ref or by tag (first match in that order)."""
    if not policies:
        return segments
    out = []
    for seg in segments:
        policy = policies.get(seg.id) or policies.get(seg.ref) or next(
            (policies[t] for t in seg.tags if t in policies), None)
        out.append(replace(seg, policy=policy) if policy else seg)
    return out

