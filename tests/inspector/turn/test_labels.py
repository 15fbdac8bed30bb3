"""Row labels for stepping: what a person reads counts attempts from 1."""

from __future__ import annotations

from turn_rows import demo_turn


def test_llm_calling_labels_count_attempts_from_one(demo, executions) -> None:
    turn = demo_turn(demo, executions, 0)
    calling = [ev for ev in turn.events if ev.type == "llm.calling"]
    assert calling and all(ev.payload.get("attempt") == 0 for ev in calling)
    assert all(" attempt 1 " in ev.label and "attempt 0" not in ev.label for ev in calling)


def test_unknown_rows_show_their_payload(db) -> None:
    from inspector.turn.builder import build_turn

    db.ev("t", "brand.new", {"runtimeId": "a/x", "what": "thing"}, at=0)
    with db.open() as store:
        (ev,) = build_turn(store, "s", "t").events
    assert ev.kind == "unknown" and ev.label.startswith("brand.new a/x") and '"what": "thing"' in ev.label  # the row as stored
