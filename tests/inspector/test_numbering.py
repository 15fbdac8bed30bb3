"""The one numbering rule: what a person reads counts from 1 (inspector.numbering)."""

import pytest

from inspector.numbering import shown, shown_label, step_attempt_text


def test_positions_count_from_one_and_odd_values_pass_through():
    assert shown(0) == 1 and shown(4) == 5
    assert shown(None) is None and shown("3") == "3" and shown(True) is True
    assert step_attempt_text(0, 1) == "step 1 · attempt 2"


@pytest.mark.parametrize(("label", "shown_as"), [
    ("history › user #0", "history › user #1"),
    ("system #2 (depth insertion or late system segment)", "system #3 (depth insertion or late system segment)"),
    ("history › assistant #2 → assistant #4", "history › assistant #3 → assistant #5"),
    ("tool-loop › tool #7 (tool result)", "tool-loop › tool #8 (tool result)"),
    # Not a message number: left as recorded.
    ("system prompt (part 2)", "system prompt (part 2)"),
    ("turn context › <world-lore>", "turn context › <world-lore>"),
    ("user #12x", "user #12x"),
    ("a #1 b", "a #1 b"),
])
def test_message_numbers_in_labels_count_from_one(label, shown_as):
    assert shown_label(label) == shown_as


def test_the_app_and_the_command_line_number_a_label_the_same_way():
    from ui.views.part_names import part_label

    for label in ("history › user #0", "history › system #4 (depth insertion or late system segment)",
                  "assistant #0 (tool calls)"):
        assert part_label(label) == shown_label(label)  # English: the same text
