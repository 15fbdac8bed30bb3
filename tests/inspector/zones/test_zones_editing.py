"""The zones editor's block edits: a new block's defaults, a duplicate's id, the free-id rule."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from inspector.jsjson import UNDEFINED
from inspector.zones import Block, PromptConfig, Variable
from inspector.zones.config import ORDER_RANGE, ArgSpec, band_of, band_range, in_system_range, is_variable_name
from inspector.zones.editing import (
    NEW_BLOCK_ORDER_STEP, args_text, copy_block, free_id, new_block, parse_args_text, with_turn_value,
)


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


def test_variable_names_are_one_word():
    assert is_variable_name("角色") and is_variable_name("user.name")
    assert not any(is_variable_name(n) for n in ("", "a b", "a\tb", "{a}", "a}"))


def test_setting_a_turns_value_keeps_what_the_turns_before_read():
    listed = Variable("mood", values=["calm", "tense"])
    assert with_turn_value(listed, 4, "angry").values == ["calm", "tense", "tense", "tense", "angry"]
    assert with_turn_value(listed, 0, "x").values == ["x", "tense"]
    single = Variable("mood", values="calm")
    assert with_turn_value(single, 2, "x").values == ["calm", "calm", "x"]
    from_env = Variable("hp", env="player.hp")
    assert with_turn_value(from_env, 2, 9, [{"player": {"hp": 3}}, {"player": {"hp": 4}}]).values == [3, 4, 9]
    assert with_turn_value(from_env, 1, 9).values == [None, 9]
    assert with_turn_value(Variable("mood", values=[]), 2, "x").values[2] == "x"


def test_clearing_a_turn_drops_it_and_the_turns_after():
    listed = Variable("mood", values=["calm", "tense", "angry"])
    assert with_turn_value(listed, 1, UNDEFINED).values == ["calm"]
    assert with_turn_value(listed, 0, UNDEFINED).values is UNDEFINED
    assert with_turn_value(listed, 3, UNDEFINED) is None
    assert with_turn_value(Variable("mood", values="calm"), 0, UNDEFINED) is None


def test_arguments_as_one_line():
    previous = (ArgSpec("who", False, "the speaker"),)
    args = parse_args_text(" who, when? ,, ", previous)
    assert args == (ArgSpec("who", False, "the speaker"), ArgSpec("when", True, ""))
    assert args_text(args) == "who, when?"


@given(st.lists(st.tuples(st.text("abc.xyz", min_size=1), st.booleans()), max_size=5))
def test_the_argument_line_reads_back(pairs):
    args = tuple(ArgSpec(name, optional) for name, optional in pairs)
    assert parse_args_text(args_text(args)) == args
