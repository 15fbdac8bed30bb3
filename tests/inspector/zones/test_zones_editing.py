"""The zones editor's block edits: a new block's defaults, a duplicate's id, the free-id rule."""

from __future__ import annotations

from inspector.zones import Block, PromptConfig
from inspector.zones.config import ORDER_RANGE, band_of, band_range, in_system_range
from inspector.zones.editing import NEW_BLOCK_ORDER_STEP, copy_block, free_id, new_block


def test_a_free_id_counts_from_two():
    assert free_id("my:system", set()) == "my:system"
    assert free_id("my:system", {"my:system", "my:system-2"}) == "my:system-3"


def test_a_new_block_goes_after_its_zones_last_and_stays_in_the_system_range():
    config = PromptConfig(blocks=[Block("a", "system", "x", 290), Block("b", "context", "y", 5),
                                  Block("my:context", "context", "z", 7)])
    system = new_block(config, "system")
    assert (system.id, system.zone, system.order, system.content, system.template) == (
        "my:system", "system", ORDER_RANGE[1], "", True)
    context = new_block(config, "context")
    assert (context.id, context.order) == ("my:context-2", 7 + NEW_BLOCK_ORDER_STEP)
    first_input = new_block(config, "input")
    assert (first_input.order, first_input.content) == (0, "{prompt}")


def test_a_copy_gets_an_unused_id_and_leaves_the_original_alone():
    block = Block("context:time", "context", "now", 3, purpose=None)
    copy = copy_block(block, {"context:time", "context:time-copy"})
    assert copy.id == "context:time-copy-2" and copy.content == "now" and copy is not block
    copy.content += "!"
    assert block.content == "now"


def test_range_and_bands():
    assert in_system_range(-300) and in_system_range(299) and not in_system_range(300)
    assert band_of(-300) == "identity" and band_of(60) == "world-book" and band_of(-50) is None
    assert band_range("persona") == (0, 0)
