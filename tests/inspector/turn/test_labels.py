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


def test_every_known_row_type_has_a_name_a_person_reads() -> None:
    from inspector.covel.events import KNOWN_TYPES
    from inspector.turn.labels import EVENT_NAMES, event_name

    assert set(EVENT_NAMES) == set(KNOWN_TYPES)
    assert event_name("llm.calling") == "Model call"
    assert event_name("llm.responded") == "Model response"
    # Words, not the recorded type: no dotted names, each a capitalised phrase.
    assert all("." not in name and name[0].isupper() for name in EVENT_NAMES.values())
    assert event_name("brand.new") is None  # an unknown type is shown as recorded


def test_event_names_are_in_the_catalog_and_translated() -> None:
    from inspector.messages import translate
    from inspector.turn.labels import EVENT_NAMES

    for name in EVENT_NAMES.values():
        assert translate(name, lang="zh_CN") != name, name
    assert translate("Model call", lang="en") == "Model call"
