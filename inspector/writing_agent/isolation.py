"""contextIsolation: which blackboard tags a worker must not see (spec A.9).

``role_pov`` is the public code's ``filterInputsForRolePerspective``; ``blind_review`` exists only
in the design documents (hide named tags, e.g. ``核心.危险.隐藏``). The original filters only the
gathered inputs, and its blackboard fallback reads a filtered tag anyway; we apply the filter to
the blackboard view the worker reads from, so nothing hidden can come back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .blackboard import Blackboard, tag_matches
from inspector.jsjson import js_trim
from .vocabulary import CURRENT_ROLE_ID_TAG

__all__ = ["ISOLATION_MODES", "DEFAULT_BLIND_REVIEW_TAGS", "role_pov_hides", "hidden_tag_predicate",
           "default_isolation"]

ISOLATION_MODES = ("none", "role_pov", "blind_review")
DEFAULT_BLIND_REVIEW_TAGS = ("核心.危险.隐藏",)
_ROLE_PREFIX = "角色."
_PRIVATE_SUFFIXES = (".思考", ".推理.候选")


def default_isolation(worker_ref: str) -> str:
    # The executor filters for role-decide only.
    return "role_pov" if worker_ref == "role-decide" else "none"


def role_pov_hides(tag: str, role_id: str) -> bool:
    """``filterInputsForRolePerspective``: every ``角色.`` tag outside ``角色.{role_id}.`` is hidden
    (the bare ``角色.{role_id}`` too), and so is the own role's private reasoning; actions stay visible."""
    if not role_id or not tag.startswith(_ROLE_PREFIX):
        return False
    if not tag.startswith(f"{_ROLE_PREFIX}{role_id}."):
        return True
    return tag.endswith(_PRIVATE_SUFFIXES)


def hidden_tag_predicate(mode: str, board: Blackboard,
                         hidden_patterns: Iterable[str] = DEFAULT_BLIND_REVIEW_TAGS) -> Callable[[str], bool] | None:
    """The test for hidden tags under ``mode``, or None when nothing is hidden."""
    if mode not in ISOLATION_MODES:
        raise ValueError(f"contextIsolation must be one of {', '.join(ISOLATION_MODES)}, not {mode!r}")
    if mode == "role_pov":
        role_id = js_trim(board.value(CURRENT_ROLE_ID_TAG))
        if not role_id:
            return None
        return lambda tag: role_pov_hides(tag, role_id)
    if mode == "blind_review":
        patterns = tuple(p for p in hidden_patterns if p.strip())
        if not patterns:
            return None
        return lambda tag: any(tag_matches(p, tag) for p in patterns)
    return None
