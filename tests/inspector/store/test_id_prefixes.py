"""Ids found by their first characters, through the id indexes (inspector.store.id_prefixes),
on both backends: the same ids a walk over every row finds."""

from __future__ import annotations

import pytest

from inspector.store.id_prefixes import ID_KINDS, _after


def _every_id(store, kind: str) -> set[str]:
    sessions = {s.id for s in store.sessions()}
    if kind == "session":
        return sessions
    events = [e for sid in sessions for e in store.events(sid)]
    if kind == "turn":
        return {t.turn_id for sid in sessions for t in store.turns(sid)}
    if kind == "request":
        return {e.id for e in events if e.type == "llm.calling"}
    return {e.id for e in events}


@pytest.mark.parametrize("kind", ID_KINDS)
def test_every_prefix_finds_what_a_walk_over_the_rows_finds(make_db, build_sample, backend: str, kind: str) -> None:
    db = make_db()
    build_sample(db)
    with db.open() as store:
        every = _every_id(store, kind)
        assert every
        for full in every:
            for cut in range(1, len(full) + 1):
                prefix = full[:cut]
                expected = sorted(i for i in every if i.startswith(prefix))
                assert store.ids_with_prefix(kind, prefix, limit=100) == expected, (kind, prefix)


def test_a_prefix_is_limited_sorted_and_never_empty(make_db, build_sample, backend: str) -> None:
    db = make_db()
    build_sample(db)
    with db.open() as store:
        assert store.ids_with_prefix("session", "s") == ["s1", "s2"]
        assert store.ids_with_prefix("session", "s", limit=1) == ["s1"]
        assert store.ids_with_prefix("turn", "t") == ["t1", "t2", "t4"]  # t4: a result row only
        assert store.ids_with_prefix("turn", "c") == ["c1"]  # a trace row only
        assert store.ids_with_prefix("session", "") == []
        assert store.ids_with_prefix("session", "x") == []
        assert store.ids_with_prefix("session", "s\ud800") == []
        with pytest.raises(ValueError, match="unknown kind"):
            store.ids_with_prefix("world", "w")


def test_the_range_ends_just_above_every_text_with_the_prefix() -> None:
    assert _after("ab") == "ac"
    assert _after("a\ud7ff") == "a\ue000"  # past the surrogates, which no UTF-8 text holds
    assert _after("a\U0010ffff") is None
