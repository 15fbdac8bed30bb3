"""The ``turn`` text outline: 1-based steps and attempts, stages in execution order."""

from __future__ import annotations

from turn_rows import demo_turn

from inspector.turn.outline import turn_outline


def test_text_outline_of_a_demo_turn(demo, executions) -> None:
    text = turn_outline(demo_turn(demo, executions, 4))
    positions = [text.index(f"stage {name}") for name in ("pre-turn", "narrative", "post-turn")]
    assert positions == sorted(positions)
    # Steps and attempts are counted from 1 in the text; the model keeps Covel's 0-based fields.
    assert "3 in parallel" in text and "failed" in text and "http attempt 1: 502" in text
    assert "tool character-upsert  completed  (step 1)" in text
    assert "step 1 · attempt 1" in text and "step 0" not in text and "attempt 0" not in text
    assert text.rstrip().splitlines()[-1].startswith("  output affinity/main success")
