"""What the zones editor does to a config's blocks: a new block's defaults, a duplicate, a free id.

Pure functions over the config model; the editor wraps each in an undo step.
"""

from __future__ import annotations

import copy
from collections.abc import Collection

from .blocks import PROMPT
from .config import ORDER_RANGE, Block, PromptConfig

__all__ = ["free_id", "new_block", "copy_block", "NEW_BLOCK_ORDER_STEP"]

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
