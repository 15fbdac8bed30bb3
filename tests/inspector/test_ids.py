"""Ids people can use (inspector.ids): names, prefixes, Go to… targets."""

from __future__ import annotations

import bisect
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from inspector.ids import (
    AmbiguousIdError,
    NameWords,
    Target,
    TurnNumbers,
    UnknownIdError,
    find_target,
    locate,
    request_name,
    request_name_of_row,
    resolve_id,
    short_id,
    turn_name,
    turn_number_of,
)
from inspector.store import open_store


@dataclass
class _Turn:
    turn_id: str
    number: int


class FakeStore:
    """The two Store methods inspector.ids reads, over sorted lists."""

    def __init__(self, ids: dict[str, list[str]], turns: dict[str, list[str]] | None = None) -> None:
        self.ids = {kind: sorted(values) for kind, values in ids.items()}
        self._turns = turns or {}
        self.turn_reads = 0

    def ids_with_prefix(self, kind: str, prefix: str, limit: int = 10) -> list[str]:
        values = self.ids.get(kind, [])
        start = bisect.bisect_left(values, prefix)
        return [v for v in values[start:start + limit] if v.startswith(prefix)]

    def turns(self, session_id: str) -> list[_Turn]:
        self.turn_reads += 1
        return [_Turn(t, n) for n, t in enumerate(self._turns.get(session_id, []), start=1)]


def test_a_request_is_named_by_turn_runtime_and_step_counted_from_one():
    assert request_name(4, "cc85dc70-b067", "narrator/main", 0, 0) == "Turn 4 · narrator/main · step 1"
    assert request_name(4, "cc85dc70-b067", "narrator/main", 1, 2) == "Turn 4 · narrator/main · step 2 · attempt 3"
    # A turn without a number is named by its short id; a missing runtime or step is left out.
    assert request_name(None, "cc85dc70-b067-41d4", None, None, 0) == "Turn cc85dc70"
    assert turn_name(12) == "Turn 12" and turn_name(None, None) == "Turn ?"
    assert turn_name(True, "abcdefghij") == "Turn abcdefgh"  # a bool is no number
    words = NameWords(turn="第 {number} 回合", step="第 {number} 步", attempt="第 {number} 次尝试")
    assert request_name(4, "x", "narrator/main", 0, 1, words) == "第 4 回合 · narrator/main · 第 1 步 · 第 2 次尝试"


def test_a_request_row_is_named_with_its_sessions_turn_numbers():
    row = {"eventId": "e", "sessionId": "s", "turnId": "t2", "runtimeId": "guide/main", "step": 1, "attempt": 0}
    assert request_name_of_row(row, {"t1": 1, "t2": 2}) == "Turn 2 · guide/main · step 2"
    assert request_name_of_row(row, 7) == "Turn 7 · guide/main · step 2"
    assert request_name_of_row(row, None) == "Turn t2 · guide/main · step 2"


def test_short_ids_are_eight_characters():
    assert short_id("29877d78-f5ec-4ee0-b83a-a8505c05bcfc") == "29877d78"
    assert short_id(None) == "" and short_id("abc") == "abc"


STORE = FakeStore({
    "request": ["29877d78-aaaa", "29877d79-bbbb", "3000", "30001"],
    "turn": ["cc85dc70-b067", "cc85dc71-0000"],
    "session": ["demo-lantern-claude", "demo-lantern-deepseek"],
}, {"demo-lantern-claude": ["cc85dc70-b067", "cc85dc71-0000"]})


def test_a_unique_prefix_resolves_to_its_id():
    assert resolve_id(STORE, "request", "29877d78") == "29877d78-aaaa"
    assert resolve_id(STORE, "request", " 29877d79-bbbb ") == "29877d79-bbbb"  # whole, spaces around
    assert resolve_id(STORE, "session", "demo-lantern-c") == "demo-lantern-claude"


def test_an_exact_id_is_never_ambiguous_even_when_it_starts_a_longer_one():
    assert resolve_id(STORE, "request", "3000") == "3000"
    with pytest.raises(AmbiguousIdError):
        resolve_id(STORE, "request", "300")


def test_an_ambiguous_prefix_lists_the_matches():
    with pytest.raises(AmbiguousIdError) as caught:
        resolve_id(STORE, "request", "2987", where="covel.db")
    assert caught.value.matches == ("29877d78-aaaa", "29877d79-bbbb") and not caught.value.more
    message = str(caught.value)
    assert "request id '2987' is ambiguous in covel.db" in message
    assert "29877d78-aaaa, 29877d79-bbbb all start with it" in message


def test_many_matches_are_cut_with_an_ellipsis():
    store = FakeStore({"request": [f"ab{i:02d}" for i in range(20)]})
    with pytest.raises(AmbiguousIdError) as caught:
        resolve_id(store, "request", "ab")
    assert len(caught.value.matches) == 5 and caught.value.more and str(caught.value).count("ab") > 5
    assert ", …" in str(caught.value)


@pytest.mark.parametrize("text", ["nope", "", "   "])
def test_an_unknown_id_says_what_was_not_found(text):
    with pytest.raises(UnknownIdError) as caught:
        resolve_id(STORE, "turn", text, where="covel.db")
    assert str(caught.value).startswith(f"no turn {text.strip()!r} in covel.db")


def test_an_unknown_kind_is_a_programming_error():
    with pytest.raises(ValueError, match="unknown kind"):
        resolve_id(STORE, "tool", "x")


@given(st.lists(st.text("0123456789abcdef-", min_size=1, max_size=12), min_size=1, max_size=30, unique=True),
       st.text("0123456789abcdef-", min_size=1, max_size=6))
def test_resolving_agrees_with_startswith(ids, prefix):
    store = FakeStore({"event": ids})
    matching = sorted(i for i in ids if i.startswith(prefix))
    if prefix in ids:
        assert resolve_id(store, "event", prefix) == prefix
    elif len(matching) == 1:
        assert resolve_id(store, "event", prefix) == matching[0]
    elif not matching:
        with pytest.raises(UnknownIdError):
            resolve_id(store, "event", prefix)
    else:
        with pytest.raises(AmbiguousIdError) as caught:
            resolve_id(store, "event", prefix)
        assert list(caught.value.matches) == matching[:5] and caught.value.more == (len(matching) > 5)


@pytest.mark.parametrize(("text", "number"), [("#4", 4), ("4", 4), ("turn 12", 12), ("Turn12", 12), ("t3", 3),
                                              (" 7 ", 7), ("29877d78", None), ("123456", None), ("#", None),
                                              ("turn", None), ("4a", None)])
def test_turn_numbers_in_go_to_text(text, number):
    assert turn_number_of(text) == number


def test_go_to_finds_a_turn_number_in_the_session_or_an_id_of_any_kind():
    assert find_target(STORE, "#2", "demo-lantern-claude") == Target("turn", "cc85dc71-0000", "demo-lantern-claude")
    assert find_target(STORE, "29877d78") == Target("request", "29877d78-aaaa")
    assert find_target(STORE, "cc85dc70") == Target("turn", "cc85dc70-b067")
    assert find_target(STORE, "demo-lantern-d") == Target("session", "demo-lantern-deepseek")
    with pytest.raises(UnknownIdError, match="no turn '#9'"):
        find_target(STORE, "9", "demo-lantern-claude")
    with pytest.raises(AmbiguousIdError) as caught:
        find_target(STORE, "cc85dc7")
    assert caught.value.matches == ("cc85dc70-b067", "cc85dc71-0000")
    assert "turn cc85dc70-b067, turn cc85dc71-0000 all start with it" in str(caught.value)
    with pytest.raises(UnknownIdError, match="no request, turn or session 'zz'"):
        find_target(STORE, "zz")


def test_a_target_knows_its_navigator_path():
    assert Target("session", "s").path() == [("session", "s")]
    assert Target("turn", "t", "s").path() == [("session", "s"), ("turn", "t")]
    assert Target("request", "e", "s", "t", "r").path() == [("session", "s"), ("turn", "t"), ("runtime", "r"),
                                                          ("request", "e")]
    assert Target("request", "e").path() == []  # not located yet


def test_turn_numbers_are_read_once_per_session_and_again_for_a_new_turn():
    store = FakeStore({}, {"s": ["t1", "t2"]})
    numbers = TurnNumbers()
    assert numbers.number(store, "s", "t2") == 2 and numbers.number(store, "s", "t1") == 1
    assert store.turn_reads == 1
    store._turns["s"].append("t3")  # the followed store grew
    assert numbers.number(store, "s", "t3") == 3 and store.turn_reads == 2
    assert numbers.number(store, None, "t3") is None
    other = FakeStore({}, {"s": ["x"]})
    assert numbers.number(other, "s", "x") == 1  # another store starts over


def test_prefixes_and_locations_on_the_demo_store(demo_store):
    with open_store(demo_store) as store:
        calls = store.llm_calls("demo-lantern-claude")
        call = calls[3]
        assert resolve_id(store, "request", short_id(call.id)) == call.id
        assert resolve_id(store, "turn", short_id(call.turn_id)) == call.turn_id
        assert resolve_id(store, "session", "demo-lantern-cl") == "demo-lantern-claude"
        with pytest.raises(AmbiguousIdError):
            resolve_id(store, "session", "demo-lantern")
        found = locate(store, find_target(store, short_id(call.id)))
        assert found.path() == [("session", "demo-lantern-claude"), ("turn", call.turn_id),
                                ("runtime", call.runtime_id), ("request", call.id)]
        turn = locate(store, find_target(store, "#2", "demo-lantern-claude"))
        assert turn.path() == [("session", "demo-lantern-claude"), ("turn", store.turns("demo-lantern-claude")[1].turn_id)]
