"""Listing sessions and their figures (inspector.store.sessions), on newest and old schemas."""

from __future__ import annotations


from inspector.store import Store


def _open(db) -> Store:
    return db.open()


# ------------------------------------------------------------------ sessions


def test_sessions_newest_schema(make_db, build_sample, backend: str) -> None:
    db = make_db()
    build_sample(db)
    with _open(db) as store:
        assert store.schema_notes == []
        assert store.has_seq
        s1, s2 = store.sessions()
    assert (s1.id, s1.world_id, s1.world_name, s1.phase, s1.status, s1.locale) == (
        "s1", "w1", "Lantern Barrow", "playing", "active", "en")
    assert s1.completed_player_turns == 1
    assert (s1.execution_count, s1.event_count, s1.llm_call_count) == (4, 14, 4)
    assert s1.created_at == "2026-10-06T08:00:00.000Z"
    assert (s2.id, s2.world_name, s2.execution_count, s2.event_count, s2.llm_call_count) == ("s2", None, 1, 1, 1)


def test_sessions_old_schema_uses_turn_count(make_db, build_sample, backend: str) -> None:
    db = make_db(schema="old")
    build_sample(db)
    with _open(db) as store:
        assert not store.has_seq
        notes = "\n".join(store.schema_notes)
        s1, _s2 = store.sessions()
    assert "trace_events has no seq column: events ordered by created_at, id" in notes
    assert "turn_count instead of completed_player_turns" in notes
    assert "no phase column" in notes
    assert "no worlds table" in notes
    assert "turn_results has no origin column" in notes
    assert "no session_summaries table" in notes
    assert s1.completed_player_turns == 1
    assert s1.phase is None and s1.world_id == "w1" and s1.world_name is None
    assert s1.locale == "en"
    assert (s1.execution_count, s1.event_count, s1.llm_call_count) == (4, 14, 4)


def test_completed_player_turns_wins_over_turn_count(make_db, backend: str) -> None:
    db = make_db(schema="old")
    db.conn.execute("ALTER TABLE sessions ADD COLUMN completed_player_turns INTEGER")
    db.columns["sessions"].add("completed_player_turns")
    db._insert("sessions", {"id": "a", "created_at": "x", "updated_at": "x", "turn_count": 3,
                            "completed_player_turns": 7})
    db._insert("sessions", {"id": "b", "created_at": "y", "updated_at": "y", "turn_count": 2,
                            "completed_player_turns": None})
    db.event("a", "t", "turn.started", {}, at=1)
    with _open(db) as store:
        turns = {s.id: s.completed_player_turns for s in store.sessions()}
    # NULL completed_player_turns (PostgreSQL of that era) falls back to turn_count.
    assert turns == {"a": 7, "b": 2}


def test_session_known_only_from_trace_rows(make_db, backend: str) -> None:
    db = make_db()
    db.event("ghost", "t1", "turn.started", {}, at=1)
    with _open(db) as store:
        (ghost,) = store.sessions()
    assert ghost.id == "ghost" and ghost.status is None and ghost.created_at is None
    assert (ghost.event_count, ghost.execution_count) == (1, 1)
