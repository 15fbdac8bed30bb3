"""The executions of a session (inspector.store.turns)."""

from __future__ import annotations


from inspector.store import Store


def _open(db) -> Store:
    return db.open()


# ------------------------------------------------------------------ turns


def test_turns_cover_trace_only_and_result_only_turns(make_db, build_sample, backend: str) -> None:
    db = make_db()
    build_sample(db)
    with _open(db) as store:
        turns = store.turns("s1")
        assert store.turns("nobody") == []
    assert [(t.number, t.turn_id) for t in turns] == [(1, "t1"), (2, "t2"), (3, "c1"), (4, "t4")]
    t1, t2, c1, t4 = turns
    assert (t1.origin, t1.commit_status, t1.trace_id, t1.duration_ms) == ("player", "committed", "tr-a", 9)
    assert (t1.started_at, t1.ended_at) == ("2026-10-06T08:00:00.010Z", "2026-10-06T08:00:00.019Z")
    assert t1.runtime_ids == ("setup/init",)
    assert (t1.event_count, t1.llm_call_count) == (5, 1)
    assert t2.retry_scope == {"sourceTurnId": "t1", "runtimeIds": ["narrator/main"], "sourceCommitted": True,
                              "sourceFailedRuntimeIds": []}
    assert (t2.event_count, t2.llm_call_count, t2.runtime_ids) == (8, 3, ("narrator/main",))
    assert t1.retry_scope is None
    # Trace-only (a command invocation): no result row.
    assert (c1.origin, c1.commit_status, c1.has_result, c1.event_count) == (None, None, False, 1)
    assert c1.duration_ms == 0 and c1.created_at == "2026-10-06T08:00:00.040Z"
    # Result-only (trace pruned by retention).
    assert (t4.origin, t4.commit_status, t4.has_result, t4.event_count) == ("manual", "failed", True, 0)
    assert (t4.started_at, t4.ended_at, t4.trace_id, t4.duration_ms, t4.runtime_ids) == (None, None, None, 3, ())


def test_turn_order_uses_the_earlier_of_result_and_first_event(make_db, backend: str) -> None:
    db = make_db()
    db.session("s", created=0)
    db.result("s", "late-trace", at=5)
    db.event("s", "early", "turn.started", {}, at=3)
    db.result("s", "early", at=9)
    db.event("s", "late-trace", "turn.started", {}, at=7)
    with _open(db) as store:
        assert [t.turn_id for t in store.turns("s")] == ["early", "late-trace"]


def test_null_origin_means_player_and_old_results_without_origin(make_db, backend: str) -> None:
    db = make_db(schema="old")
    db.conn.execute("ALTER TABLE turn_results ADD COLUMN origin TEXT")
    db.columns["turn_results"].add("origin")
    db.session("s")
    db.result("s", "a", at=1, origin=None)
    db.result("s", "b", at=2, origin="follower")
    with _open(db) as store:
        assert [(t.turn_id, t.origin) for t in store.turns("s")] == [("a", "player"), ("b", "follower")]

    db2 = make_db("old.db", schema="old")
    db2.session("s")
    db2.result("s", "a", at=1)
    with _open(db2) as store:
        (turn,) = store.turns("s")
    assert (turn.origin, turn.retry_scope, turn.commit_status) == ("player", None, "committed")


def test_turns_survive_bad_payloads(make_db) -> None:
    db = make_db()
    db.session("s")
    db.event("s", "t", "runtime.started", None, at=1, raw="{not json")
    db.event("s", "t", "runtime.started", None, at=2, raw='"just a string"')
    db.event("s", "t", "runtime.started", {"data": {"runtimeId": "old/rt"}}, at=3)
    db.event("s", "t", "runtime.started", {"runtimeId": "new/rt"}, at=4)
    with _open(db) as store:
        (turn,) = store.turns("s")
    assert turn.runtime_ids == ("old/rt", "new/rt")
    assert turn.event_count == 4
