"""Model requests paired with their responses (covel-db.md §2.2)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..covel.events import (
    LLM_CALLING,
    LLM_PAIRING_TYPES,
    LLM_RESPONDED,
    RUNTIME_STARTED,
)
from ..covel.pairing import ResponseBinder
from ..json_guards import str_or_none
from .records import LlmCall, TraceEvent
from .schema import Reader
from .trace_events import events

__all__ = ["llm_calls", "pair_llm_calls"]


def pair_llm_calls(events: Iterable[TraceEvent]) -> list[LlmCall]:
    """Pair ``llm.calling`` with ``llm.responded`` events given in canonical order.

    Pairing (spec §2.2): per (turn, runtimeId), walking in write order, an attempt-0 calling
    starts a new tool-loop step; a response binds to the latest unanswered calling with the same
    attempt (:class:`inspector.covel.pairing.ResponseBinder`, the one binding rule). ``runtime.started`` rows among ``events`` give each call its stage; events of any
    other type are ignored, so a whole turn's events can be passed as they are.
    """
    stages: dict[tuple[str, str | None], str] = {}
    # Per (turn, runtimeId): the step counter and the binder of its responses.
    groups: dict[tuple[str, str | None], tuple[list[int], ResponseBinder[list[Any]]]] = {}
    entries: list[list[Any]] = []
    for ev in events:
        etype = ev.type
        if etype == RUNTIME_STARTED:
            stage = ev.payload.get("stage")
            key = (ev.turn_id, ev.runtime_id)
            if isinstance(stage, str) and key not in stages:
                stages[key] = stage
        elif etype == LLM_CALLING:
            key = (ev.turn_id, ev.runtime_id)
            attempt = ev.attempt or 0
            step, binder = groups.setdefault(key, ([-1], ResponseBinder()))
            # A group whose first surviving calling is a retry (earlier rows pruned) still
            # needs a step to live in.
            if attempt == 0 or step[0] < 0:
                step[0] += 1
            entry = [ev, None, attempt, step[0]]
            binder.calling(attempt, entry)
            entries.append(entry)
        elif etype == LLM_RESPONDED:
            group = groups.get((ev.turn_id, ev.runtime_id))
            if group is None:
                continue
            answered = group[1].response(ev.attempt or 0)
            if answered is not None:
                answered[1] = ev

    calls: list[LlmCall] = []
    for calling, response, attempt, step in entries:
        rid = calling.runtime_id
        payload = calling.payload
        provider = str_or_none(payload.get("provider"))
        if provider is None:
            requests = payload.get("providerRequests")
            if isinstance(requests, list):
                for request in requests:
                    if isinstance(request, dict) and str_or_none(request.get("provider")) is not None:
                        provider = request["provider"]
                        break
        started = str_or_none(payload.get("startedAt"))
        calls.append(LlmCall(
            calling=calling,
            response=response,
            runtime_id=rid,
            plugin_id=calling.plugin_id,
            attempt=attempt,
            step=step,
            stage=stages.get((calling.turn_id, rid)),
            model=str_or_none(payload.get("model")),
            provider=provider,
            started_at=started if started is not None else calling.created_at,
        ))
    return calls


def llm_calls(store: Reader, session_id: str, turn_id: str | None = None,
              runtime_id: str | None = None) -> list[LlmCall]:
    """``llm.calling`` events paired with their responses, in write order of the calls
    (see :func:`pair_llm_calls`)."""
    calls = pair_llm_calls(events(store, session_id, turn_id, LLM_PAIRING_TYPES))
    if runtime_id is not None:
        calls = [call for call in calls if call.runtime_id == runtime_id]
    return calls
