"""Stages and parallel groups: runtimes of one stage whose intervals overlap ran in one DAG level
(Covel writes no stage or level event; covel-assembly.md §7)."""

from __future__ import annotations

from .model import STAGE_ORDER, ParallelGroup, Runtime, Stage
from .times import epoch_ms, offset_ms

__all__ = ["order_and_group", "stages_of"]


def stages_of(runtimes: list[Runtime],
              start_ms: float | None) -> tuple[list[Stage], list[Runtime], list[ParallelGroup]]:
    """The runtimes by stage in execution order (known stages first, then unknown ones by start),
    each split into parallel groups numbered 1, 2, … across the turn; and the runtimes with no
    stage, grouped the same way, after all stages."""
    by_stage: dict[str, list[Runtime]] = {}
    unstaged: list[Runtime] = []
    for runtime in runtimes:
        if runtime.stage is None:
            unstaged.append(runtime)
        else:
            by_stage.setdefault(runtime.stage, []).append(runtime)

    def first_start(runtimes: list[Runtime]) -> float:
        known = [r.start_ms for r in runtimes if r.start_ms is not None]
        return min(known) if known else float("inf")

    names = [s for s in STAGE_ORDER if s in by_stage]
    names += sorted((s for s in by_stage if s not in STAGE_ORDER), key=lambda s: first_start(by_stage[s]))
    counter = [0]
    stages: list[Stage] = []
    for name in names:
        ordered, groups = order_and_group(by_stage[name], name, counter)
        starts = [r.started_at for r in ordered if r.started_at]
        ends = [r.ended_at for r in ordered if r.ended_at]
        started = min(starts, key=lambda s: epoch_ms(s) or 0.0) if starts else None
        ended = max(ends, key=lambda s: epoch_ms(s) or 0.0) if ends else None
        stages.append(Stage(name=name, known=name in STAGE_ORDER, started_at=started, ended_at=ended,
                            start_ms=offset_ms(started, start_ms), end_ms=offset_ms(ended, start_ms),
                            runtimes=ordered, groups=groups))
    unstaged, unstaged_groups = order_and_group(unstaged, None, counter)
    return stages, unstaged, unstaged_groups


def order_and_group(runtimes: list[Runtime], stage: str | None,
                    counter: list[int]) -> tuple[list[Runtime], list[ParallelGroup]]:
    """Sort runtimes by start and split them into parallel groups.

    Two runtimes share a group when their intervals overlap or they started in the same
    millisecond; overlap is transitive (a level is one connected run). Runtimes without any time
    (known only from ``turn_results``) keep their order at the end, in no group.
    """
    timed = [r for r in runtimes if r.start_ms is not None]
    untimed = [r for r in runtimes if r.start_ms is None]
    # Stable: runtimes that started together keep their trace order.
    timed.sort(key=lambda r: r.start_ms if r.start_ms is not None else 0.0)
    groups: list[ParallelGroup] = []
    current: ParallelGroup | None = None
    for runtime in timed:
        start = runtime.start_ms if runtime.start_ms is not None else 0.0
        end = runtime.end_ms if runtime.end_ms is not None else start
        if current is not None and current.start_ms is not None and current.end_ms is not None and (
                start < current.end_ms or start == current.start_ms):
            current.runtimes.append(runtime)
            if end > current.end_ms:
                current.end_ms = end
                current.ended_at = runtime.ended_at or runtime.started_at
        else:
            counter[0] += 1
            current = ParallelGroup(index=counter[0], stage=stage, started_at=runtime.started_at,
                                    ended_at=runtime.ended_at or runtime.started_at, start_ms=start, end_ms=end,
                                    runtimes=[runtime])
            groups.append(current)
        runtime.group = current.index
    return timed + untimed, groups
