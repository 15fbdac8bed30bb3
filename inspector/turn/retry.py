"""A retry execution: which runtimes it re-ran and which results it reused instead of running
them again (covel-assembly.md §7.1)."""

from __future__ import annotations

from typing import Any

from inspector.json_guards import nonempty_str_or_none
from inspector.store import Store, TurnResult

from .model import Retry, SeededResult

__all__ = ["find_retry", "str_list"]


def str_list(value: Any) -> list[str]:
    """The strings of a JSON list (anything else gives none)."""
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def find_retry(store: Store, session_id: str, turn_id: str, result: TurnResult | None,
               recovery: dict[str, Any] | None, trace_scope: dict[str, Any] | None) -> Retry | None:
    """What this execution re-ran and reused: from its result row's retry scope, else a scope
    found in the trace, else ``turn.started.recoveryAction`` alone; None when it is no retry."""
    scope = result.retry_scope if result is not None else None
    source = "turn_results"
    if scope is None and trace_scope is not None:
        scope, source = trace_scope, "trace"
    action_type = nonempty_str_or_none(recovery.get("type")) if recovery else None
    action_payload = recovery.get("payload") if recovery and isinstance(recovery.get("payload"), dict) else {}
    if scope is None and recovery is None:
        return None
    if scope is None:
        scope, source = {}, "recovery-action"
    source_turn = nonempty_str_or_none(scope.get("sourceTurnId")) or nonempty_str_or_none(action_payload.get("retryFromTurnId"))
    runtime_ids = str_list(scope.get("runtimeIds"))
    if not runtime_ids:
        runtime_ids = str_list(action_payload.get("runtimeIds"))
        single = nonempty_str_or_none(action_payload.get("runtimeId"))
        if single and single not in runtime_ids:
            runtime_ids.append(single)
    committed = scope.get("sourceCommitted")
    retry = Retry(
        kind=action_type or "runtime-retry", source=source, source_turn_id=source_turn,
        runtime_ids=runtime_ids, source_committed=committed if isinstance(committed, bool) else None,
        source_failed_runtime_ids=str_list(scope.get("sourceFailedRuntimeIds")),
        recovery_action=recovery, seeded=[])
    if source_turn and runtime_ids:
        retry.seeded = _seeds(store, session_id, turn_id, source_turn, set(runtime_ids))
    return retry


def _seeds(store: Store, session_id: str, turn_id: str, source_turn: str, rerun: set[str]) -> list[SeededResult]:
    """Successful results of the source and of earlier committed retries of the same source
    (covel-assembly.md §7.1): reused, not re-run."""
    rows = store.turn_results(session_id)
    latest: dict[str, TurnResult] = {}
    for row in rows:
        latest[row.turn_id] = row
    me = latest.get(turn_id)
    my_key = (me.created_at or "", me.seq or 0) if me is not None else None
    sources: list[TurnResult] = []
    if source_turn in latest:
        sources.append(latest[source_turn])
    for tid, row in latest.items():
        if tid in (turn_id, source_turn):
            continue
        scope = row.retry_scope
        if not scope or scope.get("sourceTurnId") != source_turn or row.commit_status != "committed":
            continue
        if my_key is not None and (row.created_at or "", row.seq or 0) >= my_key:
            continue
        sources.append(row)
    seeded: dict[str, SeededResult] = {}
    for row in sources:
        for entry in row.runtime_results:
            rid = nonempty_str_or_none(entry.get("runtimeId"))
            if rid is None or rid in rerun or entry.get("status") != "success":
                continue
            seeded[rid] = SeededResult(
                runtime_id=rid, plugin_id=nonempty_str_or_none(entry.get("pluginId")), stage=nonempty_str_or_none(entry.get("stage")),
                status="success", from_turn_id=row.turn_id, output=entry.get("output"))
    return list(seeded.values())
