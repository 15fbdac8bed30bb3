"""What the zones editor does to a config's blocks: a new block's defaults, a duplicate, a free id.

Pure functions over the config model; the editor wraps each in an undo step.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from inspector.jsjson import UNDEFINED

from .blocks import PROMPT
from .config import ORDER_RANGE, ArgSpec, Block, PromptConfig, Variable

__all__ = ["free_id", "new_block", "copy_block", "NEW_BLOCK_ORDER_STEP", "with_turn_value", "args_text",
           "parse_args_text"]

# A new block goes this far after the zone's last block, so there is room to put one between.
NEW_BLOCK_ORDER_STEP = 10


def free_id(base: str, taken: Collection[str]) -> str:
    """``base`` if no block uses it, else ``base-2``, ``base-3`` …: the first one free."""
    candidate, n = base, 2
    while candidate in taken:
        candidate = f"{base}-{n}"
        n += 1
    return candidate


def new_block(config: PromptConfig, zone: str) -> Block:
    """A new template block for ``zone``: after the zone's last block (a system block no further
    than the end of the system range), and an input block that keeps the user's input."""
    orders = [b.order for b in config.blocks if b.zone == zone]
    order: int | float = (max(orders) + NEW_BLOCK_ORDER_STEP) if orders else 0
    if zone == "system":
        order = min(order, ORDER_RANGE[1])
    content = "{" + PROMPT + "}" if zone == "input" else ""
    return Block(free_id(f"my:{zone}", {b.id for b in config.blocks}), zone, content, order, template=True)


def copy_block(block: Block, taken: Collection[str]) -> Block:
    """A duplicate of ``block`` under an id no other block uses (``id-copy``, ``id-copy-2`` …)."""
    new = copy.deepcopy(block)
    new.id = free_id(f"{block.id}-copy", taken)
    return new


def with_turn_value(variable: Variable, turn: int, value: Any,
                    environments: Sequence[Mapping[str, Any]] = ()) -> Variable | None:
    """``variable`` with its value on ``turn`` set to ``value`` (None: nothing changes).

    The turns before it keep what they read: a list of per-turn values is extended with its last
    value (which is what those turns read), and a variable without values takes each turn's
    value as it reads it now (from ``environments[turn]``, else None). ``UNDEFINED`` clears the
    turn and every turn after it, so the ones after read the last value that remains."""
    current: list = (list(variable.values) if isinstance(variable.values, list)
                     else [variable.values] if variable.has_values else [])
    if value is UNDEFINED:
        if not isinstance(variable.values, list) or turn >= len(variable.values):
            return None
        kept = current[:turn]
        return dataclasses.replace(variable, values=kept if kept else UNDEFINED)
    while len(current) < turn:
        t = len(current)
        if current and variable.has_values:
            current.append(current[-1])
        else:
            found, resolved = variable.value_at(t, environments[t] if t < len(environments) else {})
            current.append(resolved if found else None)
    if turn < len(current):
        current[turn] = value
    else:
        current.append(value)
    return dataclasses.replace(variable, values=current)


def args_text(args: Sequence[ArgSpec]) -> str:
    """A variable's arguments as one line: names, comma-separated, an optional one with ``?``."""
    return ", ".join(a.name + ("?" if a.optional else "") for a in args)


def parse_args_text(text: str, previous: Sequence[ArgSpec] = ()) -> tuple[ArgSpec, ...]:
    """The arguments ``args_text`` writes, read back; an argument keeps the description it had
    under the same name in ``previous``."""
    described = {a.name: a.description for a in previous}
    args = []
    for raw in (a.strip() for a in text.split(",")):
        if not raw:
            continue
        name = raw.rstrip("?").strip()
        args.append(ArgSpec(name, raw.endswith("?"), described.get(name, "")))
    return tuple(args)
