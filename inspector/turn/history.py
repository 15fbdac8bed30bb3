"""Which committed journal rows and summaries entered one model call's request: the history
as that call saw it, found by matching the request's kernel messages against the journal as it
stood when the call started."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from inspector import wording
from inspector.covel import markers
from inspector.json_guards import int_accepting_integral_float, nonempty_str_or_none
from inspector.store import SessionSummary, Store, TurnMessage

from .model import Pruning, Turn, TurnNotFoundError
from .texts import message_text, short
from .times import not_after

__all__ = ["CallHistory", "HistoryRow", "HistoryWindow", "SummaryUse", "iter_history", "turn_history"]


@dataclass(slots=True)
class HistoryRow:
    """A committed journal row and what became of it in one request.

    ``state``: ``sent`` (found in the request at ``request_index``), ``current`` (the request's
    current player message: a retry re-sends its source turn's), ``compacted`` (replaced by
    summary ``summary_id`` before the call), ``outside-window`` (older than the oldest row the
    runtime kept: a ``maxTurns`` window), ``pruned`` (older than the oldest kept row and the
    request was budget-pruned), ``not-sent`` (newer than the window but absent: the runtime's
    history filter left it out).
    """

    message: TurnMessage
    state: str
    request_index: int | None
    summary_id: str | None

    @property
    def in_request(self) -> bool:
        """The row's text reached the request (as history or as the current message)."""
        return self.state in ("sent", "current")


@dataclass(slots=True)
class SummaryUse:
    summary: SessionSummary
    sent: bool
    request_index: int | None
    replaces: list[str]


@dataclass(slots=True)
class HistoryWindow:
    """The span of history a windowed runtime kept: from ``first_message_id`` on."""

    first_message_id: str
    first_turn_id: str
    turn_ids: list[str]
    user_messages: int
    dropped: int


@dataclass(slots=True)
class CallHistory:
    session_id: str
    turn_id: str
    event_id: str
    runtime_id: str | None
    at: str
    rows: list[HistoryRow]
    summaries: list[SummaryUse]
    window: HistoryWindow | None
    pruned_marker: bool
    pruning: list[Pruning]
    request_messages: int
    history_end: int
    unmatched_envelopes: int
    notes: list[str]

    def rows_in(self, state: str) -> list[HistoryRow]:
        return [row for row in self.rows if row.state == state]

    def state_counts(self) -> dict[str, int]:
        """How many rows are in each state, in the order the states first appear."""
        counts: dict[str, int] = {}
        for row in self.rows:
            counts[row.state] = counts.get(row.state, 0) + 1
        return counts

    @property
    def sent_summaries(self) -> list[SummaryUse]:
        return [s for s in self.summaries if s.sent]

    def to_json(self) -> dict[str, Any]:
        return {
            "eventId": self.event_id,
            "turnId": self.turn_id,
            "runtimeId": self.runtime_id,
            "at": self.at,
            "rows": [{"messageId": r.message.id, "turnId": r.message.turn_id, "role": r.message.role,
                      "state": r.state, "requestIndex": r.request_index, "summaryId": r.summary_id}
                     for r in self.rows],
            "summaries": [{"summaryId": s.summary.id, "sent": s.sent, "requestIndex": s.request_index,
                           "replaces": s.replaces} for s in self.summaries],
            "window": None if self.window is None else {
                "firstMessageId": self.window.first_message_id, "firstTurnId": self.window.first_turn_id,
                "turnIds": self.window.turn_ids, "userMessages": self.window.user_messages,
                "dropped": self.window.dropped},
            "prunedMarker": self.pruned_marker,
            "unmatchedEnvelopes": self.unmatched_envelopes,
        }

    def to_text(self) -> str:
        lines = [f"history of call {self.event_id} ({self.runtime_id or '?'}) at {self.at}"]
        lines.append("  " + ", ".join(f"{n} {state}" for state, n in self.state_counts().items()))
        if self.window is not None:
            w = self.window
            lines.append(f"  window: {len(w.turn_ids)} turns ({w.user_messages} player messages) from "
                         f"turn {w.first_turn_id}, {w.dropped} older rows left out")
        for s in self.summaries:
            lines.append(f"  summary {s.summary.id}: {'sent' if s.sent else 'not sent'}, replaces "
                         f"{len(s.replaces)} rows")
        for row in self.rows:
            m = row.message
            where = f"#{row.request_index}" if row.request_index is not None else ""
            via = f" by {row.summary_id}" if row.summary_id else ""
            lines.append(f"  {row.state:<14} {where:<5} {m.turn_id[:8]} {m.role or '?':<9} "
                         f"{short(m.content, 60)}{via}")
        lines.extend(f"  note: {n}" for n in self.notes)
        return "\n".join(lines) + "\n"


def _is_envelope(text: str) -> bool:
    stripped = text.lstrip()
    return stripped.startswith(markers.COMPACTED_HISTORY_OPEN) or stripped.startswith(markers.LEGACY_COMPACTED_PREFIX)


def turn_history(store: Store, session_id: str, turn_id: str, event_id: str) -> CallHistory:
    """Which committed journal rows and summaries entered the request of ``llm.calling``
    ``event_id``, found by matching the request's kernel messages against the journal as it stood
    when the call started. Raises :class:`TurnNotFoundError` when the event is not a model call of
    that turn."""
    ev = store.event(event_id)
    if ev is None or ev.type != "llm.calling" or ev.turn_id != turn_id or ev.session_id != session_id:
        raise TurnNotFoundError(f"{event_id!r} is not an llm.calling event of turn {turn_id!r}")
    payload = ev.payload
    at = nonempty_str_or_none(payload.get("startedAt")) or ev.created_at
    runtime_id = ev.runtime_id
    notes: list[str] = []
    raw_messages = payload.get("messages")
    messages = raw_messages if isinstance(raw_messages, list) else []
    if not isinstance(raw_messages, list):
        notes.append(wording.NO_KERNEL_MESSAGES)
    texts = [message_text(m) for m in messages]
    stripped = [t.strip() for t in texts]
    roles = [m.get("role") if isinstance(m, dict) else None for m in messages]

    journal = store.turn_messages(session_id)
    all_summaries = store.session_summaries(session_id)
    known_summaries = {s.id: s for s in all_summaries}
    candidates = [m for m in journal
                  if m.turn_id != turn_id and m.created_at is not None and not_after(m.created_at, at)]

    # History ends where the current player message stands, and that text may repeat an older
    # message, so matching stays in front of it. A retry re-sends its source turn's message.
    current_rows = [m for m in journal if m.turn_id == turn_id and m.source_type == "player"]
    if not current_rows:
        results = store.turn_results(session_id, [turn_id])
        scope = results[-1].retry_scope if results else None
        source = nonempty_str_or_none(payload.get("sourceTurnId")) or (nonempty_str_or_none(scope.get("sourceTurnId")) if scope else None)
        if source:
            current_rows = [m for m in candidates if m.turn_id == source and m.source_type == "player"]
    history_end = len(messages)
    current_id = None
    if current_rows and current_rows[-1].content is not None:
        text = current_rows[-1].content.strip()
        for i in range(len(messages) - 1, -1, -1):
            if roles[i] == "user" and stripped[i] == text:
                history_end = i
                current_id = current_rows[-1].id
                break

    # Which rows were compacted when the call started. Compaction always takes the oldest
    # uncompacted rows, so the compacted rows form a prefix of the journal; counting back from
    # today's prefix by the rows each later context.compacted took gives the prefix at the call.
    # (compacted_by alone cannot say: a merge re-points rows to the oldest summary and keeps its
    # creation time.) Counting back also survives the retention sweep, which deletes the oldest
    # trace rows first.
    compacted_now = [m for m in journal if m.compacted_by]
    later = 0
    for compaction in store.events(session_id, types=("context.compacted",)):
        if not not_after(compaction.created_at, at):
            later += int_accepting_integral_float(compaction.payload.get("messagesCompacted")) or 0
    compacted_then = {m.id for m in compacted_now[:max(0, len(compacted_now) - later)]}

    def replaced_before_call(m: TurnMessage) -> bool:
        if m.id not in compacted_then:
            return False
        summary = known_summaries.get(m.compacted_by or "")
        return summary is None or not_after(summary.created_at, at)

    # Walk backwards: the newest rows sit right before the current message, so a repeated text
    # binds to its nearest occurrence. Compacted rows are matched too: a merge re-points rows to
    # the oldest summary's id and keeps its creation time, so compacted_by cannot tell when a row
    # was compacted; the request itself can.
    found: dict[str, int] = {}
    j = history_end - 1
    for m in reversed(candidates):
        if m.id == current_id:
            continue
        content = (m.content or "").strip()
        k = j
        while k >= 0 and not (roles[k] == m.role and stripped[k] == content):
            k -= 1
        if k >= 0:
            found[m.id] = k
            j = k - 1

    pruned_marker = any(roles[i] == "system" and markers.is_pruned_marker(texts[i]) for i in range(history_end))
    pruning: list[Pruning] = []
    for other in store.events(session_id, turn_id, ("context.pruned", "llm.calling")):
        if other.id == event_id:
            break
        if other.runtime_id != runtime_id:
            continue
        if other.type == "llm.calling":
            # Pruning before an earlier call of this runtime belongs to that call.
            pruning.clear()
        else:
            pruning.append(Pruning(
                event_id=other.id, created_at=other.created_at, runtime_id=runtime_id, call_event_id=event_id,
                pruned_messages=int_accepting_integral_float(other.payload.get("prunedMessageCount")),
                truncated_tool_results=int_accepting_integral_float(other.payload.get("truncatedToolResultCount")),
                truncated_summaries=int_accepting_integral_float(other.payload.get("truncatedSummaryCount"))))
    pruned = pruned_marker or any((p.pruned_messages or 0) > 0 for p in pruning)

    first_sent = next((i for i, m in enumerate(candidates) if m.id in found), None)
    rows: list[HistoryRow] = []
    for i, m in enumerate(candidates):
        if m.id == current_id:
            rows.append(HistoryRow(m, "current", history_end, None))
        elif m.id in found:
            rows.append(HistoryRow(m, "sent", found[m.id], None))
        elif replaced_before_call(m):
            rows.append(HistoryRow(m, "compacted", None, m.compacted_by))
        elif first_sent is not None and i < first_sent:
            rows.append(HistoryRow(m, "pruned" if pruned else "outside-window", None, None))
        else:
            rows.append(HistoryRow(m, "not-sent", None, None))

    window = None
    dropped = sum(1 for r in rows if r.state == "outside-window")
    if dropped and first_sent is not None:
        sent_rows = [r.message for r in rows if r.state == "sent"]
        window = HistoryWindow(
            first_message_id=candidates[first_sent].id, first_turn_id=candidates[first_sent].turn_id,
            turn_ids=list(dict.fromkeys(m.turn_id for m in sent_rows)),
            user_messages=sum(1 for m in sent_rows if m.role == "user"), dropped=dropped)

    envelopes = [i for i in range(history_end) if roles[i] == "user" and _is_envelope(texts[i])]
    matched: set[int] = set()
    uses: list[SummaryUse] = []
    for summary in all_summaries:
        if not not_after(summary.created_at, at):
            continue
        content = (summary.content or "").strip()
        index = next((i for i in envelopes if content and content in texts[i]), None)
        if index is not None:
            matched.add(index)
        replaces = [m.id for m in journal if m.compacted_by == summary.id]
        uses.append(SummaryUse(summary=summary, sent=index is not None, request_index=index, replaces=replaces))
    unmatched = len(envelopes) - len(matched)
    if unmatched:
        notes.append(wording.UNMATCHED_ENVELOPES.format(count=unmatched))
    return CallHistory(session_id=session_id, turn_id=turn_id, event_id=event_id, runtime_id=runtime_id, at=at,
                       rows=rows, summaries=uses, window=window, pruned_marker=pruned_marker, pruning=pruning,
                       request_messages=len(messages), history_end=history_end, unmatched_envelopes=unmatched,
                       notes=notes)


def iter_history(store: Store, turn: Turn) -> Iterable[CallHistory]:
    """:func:`turn_history` of every model call of ``turn``, in execution order."""
    for runtime in turn.runtimes():
        for call in runtime.calls:
            yield turn_history(store, turn.session_id, turn.turn_id, call.event_id)
