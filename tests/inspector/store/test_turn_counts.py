"""What a turn and an execution are, and how they are counted (inspector.store.turn_counts)."""

from __future__ import annotations

from inspector.store.turn_counts import (
    EXECUTIONS_LABEL,
    TURNS_LABEL,
    TurnCounts,
    completed_player_turns,
    session_turn_counts,
    total_turn_counts,
)


def test_completed_player_turns_falls_back_to_the_older_turn_count() -> None:
    assert completed_player_turns({"completed_player_turns": 7, "turn_count": 3}) == 7
    # PostgreSQL of that era allowed NULL in the new column while the old one held the number.
    assert completed_player_turns({"completed_player_turns": None, "turn_count": 3}) == 3
    assert completed_player_turns({"turn_count": 2}) == 2
    assert completed_player_turns({}) is None


def test_a_turn_count_that_is_not_a_whole_number_is_unknown() -> None:
    assert TurnCounts.of(12, 13) == TurnCounts(12, 13)
    assert TurnCounts.of("many", 4) == TurnCounts(None, 4)
    assert TurnCounts.of(True, None) == TurnCounts(None, 0)


def test_totals_add_what_is_known() -> None:
    assert total_turn_counts([TurnCounts(12, 13), TurnCounts(None, 2), TurnCounts(6, 6)]) == TurnCounts(18, 21)
    assert total_turn_counts([]) == TurnCounts(0, 0)
    assert (TURNS_LABEL, EXECUTIONS_LABEL) == ("turns", "executions")


def test_a_sessions_counts_on_a_store(make_db, build_sample, backend: str) -> None:
    db = make_db()
    build_sample(db)
    with db.open() as store:
        s1 = next(s for s in store.sessions() if s.id == "s1")
    assert session_turn_counts(s1) == TurnCounts(s1.completed_player_turns, s1.execution_count) == TurnCounts(1, 4)
