"""A scenario file: the blackboard plus what the runtime knows about its workers.

One JSON or YAML file feeds the assembler: the blackboard items, each worker's persona text,
task contract, isolation and contextProfile variants, the manifest's variant choice per worker,
and an optional preset. Only ``blackboard`` is required; a file that is just a list of items, or
a mapping of tags to contents, is a blackboard on its own.

    blackboard: [{tag, content, updated?, archived?, source?}, …]   # or {tag: content, …}
    workers:
      world-simulator:
        name: 主世界层
        persona: "…"            # the inline persona segment's text
        task: "…"               # the task contract (任务契约) that leads the before bag
        isolation: none | role_pov | blind_review
        hidden_tags: [核心.危险.隐藏]   # blind_review
        input_merge: latest | concat
        input_tags: [对话.历史]  # gathered inputs beyond the segments' own tags
        policies: {ref-or-tag-or-segment-id: tail_lines_40}
        segments: [contextSegments rows]   # used when the order has no slot for this worker
        variants: {name: {policies?, segments?, historyPolicy?}}
    contextProfile: {world-simulator: {variant: light_rules, historyPolicy: last_15_turns}}
    preset: [{identifier, role?, content?, enabled?, marker?}, …]
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..inputs import InputFileError, refuse_special_file
from ..messages import localized
from .blackboard import Blackboard, BlackboardError, items_from_data
from .framing import PresetEntry, parse_preset
from .isolation import DEFAULT_BLIND_REVIEW_TAGS, ISOLATION_MODES, default_isolation
from .segments import Segment, parse_context_segments

__all__ = ["Variant", "WorkerConfig", "Scenario", "ScenarioError", "parse_scenario", "load_scenario",
           "history_turn_limit"]

_LAST_TURNS = re.compile(r"last_(\d+)_turns")


class ScenarioError(ValueError):
    """A scenario file that cannot be used; the message says where."""


@dataclass(frozen=True, slots=True)
class Variant:
    name: str
    policies: Mapping[str, str] = field(default_factory=dict)
    segments: tuple[Segment, ...] | None = None
    history_policy: str = ""


@dataclass(frozen=True, slots=True)
class WorkerConfig:
    ref: str
    name: str = ""
    persona: str = ""
    task: str = ""
    isolation: str = "none"
    hidden_tags: tuple[str, ...] = DEFAULT_BLIND_REVIEW_TAGS
    input_merge: str = "latest"
    input_tags: tuple[str, ...] = ()
    policies: Mapping[str, str] = field(default_factory=dict)
    segments: tuple[Segment, ...] | None = None
    variants: Mapping[str, Variant] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Scenario:
    blackboard: Blackboard
    workers: Mapping[str, WorkerConfig] = field(default_factory=dict)
    profile: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    preset: tuple[PresetEntry, ...] | None = None
    path: Path | None = None

    def worker(self, ref: str) -> WorkerConfig:
        return self.workers.get(ref) or WorkerConfig(ref=ref, isolation=default_isolation(ref))


def history_turn_limit(history_policy: str) -> int | None:
    """``last_N_turns`` as a block count for the history cut. The documents give no rule; we read a
    turn as one user block plus one assistant block, so N turns are 2N blocks."""
    match = _LAST_TURNS.fullmatch((history_policy or "").strip())
    return 2 * int(match.group(1)) if match and int(match.group(1)) > 0 else None


def _str_map(value: Any, where: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(isinstance(v, str) for v in value.values()):
        raise ScenarioError(localized("{where} must map names to policy strings", where=where))
    return {str(k): v.strip() for k, v in value.items()}


def _segments(value: Any, where: str) -> tuple[Segment, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list):
        raise ScenarioError(localized("{where} must be a list of contextSegments rows", where=where))
    return tuple(parse_context_segments(value))


def _text(row: Mapping, key: str, where: str) -> str:
    value = row.get(key, "")
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ScenarioError(localized("{where}.{key} must be text", where=where, key=key))
    return value


def _worker(ref: str, row: Any) -> WorkerConfig:
    where = f"workers.{ref}"
    if not isinstance(row, Mapping):
        raise ScenarioError(localized("{where} must be a mapping", where=where))
    isolation = row.get("isolation", row.get("contextIsolation", default_isolation(ref)))
    if isolation not in ISOLATION_MODES:
        raise ScenarioError(localized("{where}.isolation must be one of {modes}, not {value}", where=where,
                                       modes=", ".join(ISOLATION_MODES), value=repr(isolation)))
    merge = row.get("input_merge", row.get("inputMerge", "latest"))
    if merge not in ("latest", "concat"):
        raise ScenarioError(localized("{where}.input_merge must be latest or concat, not {value}", where=where,
                                       value=repr(merge)))
    hidden = row.get("hidden_tags", list(DEFAULT_BLIND_REVIEW_TAGS))
    input_tags = row.get("input_tags", [])
    for key, value in (("hidden_tags", hidden), ("input_tags", input_tags)):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ScenarioError(localized("{where}.{key} must be a list of tags", where=where, key=key))
    variants = {}
    raw_variants = row.get("variants") or {}
    if not isinstance(raw_variants, Mapping):
        raise ScenarioError(localized("{where}.variants must be a mapping of variant names", where=where))
    for name, spec in raw_variants.items():
        vwhere = f"{where}.variants.{name}"
        if not isinstance(spec, Mapping):
            raise ScenarioError(localized("{where} must be a mapping", where=vwhere))
        variants[str(name)] = Variant(
            name=str(name),
            policies=_str_map(spec.get("policies"), f"{vwhere}.policies"),
            segments=_segments(spec.get("segments", spec.get("contextSegments")), f"{vwhere}.segments"),
            history_policy=_text(spec, "historyPolicy", vwhere).strip(),
        )
    return WorkerConfig(
        ref=ref,
        name=_text(row, "name", where),
        persona=_text(row, "persona", where),
        task=_text(row, "task", where),
        isolation=isolation,
        hidden_tags=tuple(hidden),
        input_merge=merge,
        input_tags=tuple(t.strip() for t in input_tags if t.strip()),
        policies=_str_map(row.get("policies"), f"{where}.policies"),
        segments=_segments(row.get("segments", row.get("contextSegments")), f"{where}.segments"),
        variants=variants,
    )


def parse_scenario(data: Any, path: Path | None = None) -> Scenario:
    try:
        if isinstance(data, Mapping) and ("blackboard" in data or "items" in data):
            board = Blackboard(items_from_data(data.get("blackboard", data.get("items"))))
            workers_raw = data.get("workers") or {}
            if not isinstance(workers_raw, Mapping):
                raise ScenarioError(localized("workers must be a mapping of worker refs"))
            workers = {str(ref): _worker(str(ref), row) for ref, row in workers_raw.items()}
            profile_raw = data.get("contextProfile")
            if profile_raw is None and isinstance(data.get("manifest"), Mapping):
                profile_raw = data["manifest"].get("contextProfile")
            profile_raw = profile_raw or {}
            if not isinstance(profile_raw, Mapping) or not all(isinstance(v, Mapping) for v in profile_raw.values()):
                raise ScenarioError(localized("contextProfile must map worker refs to {{variant, historyPolicy}}"))
            profile = {str(k): {kk: str(vv) for kk, vv in v.items() if isinstance(vv, str)}
                       for k, v in profile_raw.items()}
            preset = None
            if data.get("preset") is not None:
                try:
                    preset = tuple(parse_preset(data["preset"]))
                except ValueError as exc:
                    raise ScenarioError(str(exc)) from None
            return Scenario(board, workers, profile, preset, path)
        return Scenario(Blackboard(items_from_data(data)), path=path)
    except BlackboardError as exc:
        raise ScenarioError(f"blackboard {exc}") from None


# More values than any real scenario holds; a YAML file past it is an alias bomb (a few lines
# whose anchors expand to millions of values), which would otherwise hang the assembler.
MAX_VALUES = 1_000_000


def _count_values(data: Any, limit: int) -> int:
    """The number of values in ``data`` with shared (aliased) parts counted every time, up to ``limit``."""
    count, stack = 0, [data]
    while stack and count <= limit:
        value = stack.pop()
        count += 1
        if isinstance(value, Mapping):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return count


def load_scenario(path: str | Path) -> Scenario:
    """A scenario from a ``.json``, ``.yaml`` or ``.yml`` file (other names: JSON if it parses, else YAML)."""
    from inspector import safe_yaml  # aliases bounded while composing (one YAML loader for every reader)

    path = Path(path)
    try:
        refuse_special_file(path)  # a FIFO or a device would block the read forever
        text = path.read_text(encoding="utf-8")
    except InputFileError as exc:
        raise ScenarioError(str(exc)) from None
    except OSError as exc:
        raise ScenarioError(localized("cannot read {path}: {reason}", path=path, reason=exc.strerror)) from None
    except UnicodeDecodeError:
        raise ScenarioError(localized("{path} is not UTF-8 text", path=path)) from None
    try:
        if path.suffix.lower() == ".json":
            data = json.loads(text)
        elif path.suffix.lower() in (".yaml", ".yml"):
            data = safe_yaml.load(text)
        else:
            try:
                data = json.loads(text)
            except ValueError:
                data = safe_yaml.load(text)
    except safe_yaml.AliasLimitError as exc:
        raise ScenarioError(f"{path}: too large: {exc.problem} (line {exc.problem_mark.line + 1})") from None
    except (ValueError, yaml.YAMLError) as exc:
        raise ScenarioError(f"{path}: not valid JSON or YAML: {str(exc).splitlines()[0]}") from None
    except RecursionError:
        raise ScenarioError(localized("{path}: nested too deeply to read", path=path)) from None
    if _count_values(data, MAX_VALUES) > MAX_VALUES:
        raise ScenarioError(f"{path}: too large: more than {MAX_VALUES:,} values once YAML aliases are expanded")
    try:
        return parse_scenario(data, path)
    except ScenarioError as exc:
        raise ScenarioError(f"{path}: {exc}") from None
    except RecursionError:
        raise ScenarioError(localized("{path}: nested too deeply to read", path=path)) from None
