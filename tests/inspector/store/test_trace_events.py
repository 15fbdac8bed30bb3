"""Trace rows in canonical order and their payloads (inspector.store.trace_events, records)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from inspector.store import Store, parse_json_object


def _open(db) -> Store:
    return db.open()


# ------------------------------------------------------------------ events and payloads


def test_canonical_order_with_seq(make_db, backend: str) -> None:
    db = make_db()
    db.session("s")
    # Same millisecond: write order (seq) beats the id.
    db.event("s", "t", "a", {}, at=5, eid="zz")
    db.event("s", "t", "b", {}, at=5, eid="aa")
    db.event("s", "t", "c", {}, at=4, eid="mm")
    with _open(db) as store:
        events = store.events("s")
    if backend == "sqlite":
        assert [(e.id, e.seq) for e in events] == [("mm", 0), ("zz", 0), ("aa", 1)]
    else:
        # PostgreSQL numbers writes from one sequence per table (covel-db.md §5): same order.
        assert [(e.id, e.seq) for e in events] == [("mm", 3), ("zz", 1), ("aa", 2)]


def test_canonical_order_without_seq(make_db, backend: str) -> None:
    db = make_db(schema="old")
    db.session("s")
    db.event("s", "t", "a", {}, at=5, eid="zz")
    db.event("s", "t", "b", {}, at=5, eid="aa")
    db.event("s", "t", "c", {}, at=4, eid="mm")
    with _open(db) as store:
        events = store.events("s")
    assert [(e.id, e.seq) for e in events] == [("mm", None), ("aa", None), ("zz", None)]


def test_event_filters_and_lookup(make_db, build_sample, backend: str) -> None:
    db = make_db()
    build_sample(db)
    with _open(db) as store:
        assert [e.type for e in store.events("s1", turn_id="t1")] == [
            "turn.started", "runtime.started", "llm.calling", "llm.responded", "turn.completed"]
        assert len(store.events("s1", types=["llm.calling"])) == 4
        assert len(store.events("s1", types="llm.responded")) == 3
        assert store.events("s1", turn_id="t1", types=[]) == []
        first = store.events("s1")[0]
        again = store.event(first.id)
        assert again == first and again is not first
        assert store.event("missing") is None


def test_payload_accessors_and_legacy_data_merge(make_db, backend: str) -> None:
    db = make_db()
    db.session("s")
    db.event("s", "t", "llm.calling", {"data": {"runtimeId": "a/b", "pluginId": "a", "attempt": 2, "x": 1},
                                       "x": 2}, at=1)
    db.event("s", "t", "llm.calling", {"runtimeId": "top", "data": {"runtimeId": "nested"}}, at=2)
    with _open(db) as store:
        legacy, modern = store.events("s")
    assert legacy.payload["x"] == 2
    assert (legacy.runtime_id, legacy.plugin_id, legacy.attempt, legacy.payload_error) == ("a/b", "a", 2, None)
    assert modern.runtime_id == "top"
    # SQLite hands the column over as bytes, PostgreSQL the jsonb's text form.
    assert isinstance(legacy.raw_payload, bytes if backend == "sqlite" else str)
    assert json.loads(legacy.raw_text or "") ["x"] == 2


@pytest.mark.parametrize(
    ("raw", "error"),
    [
        (None, "payload is NULL"),
        ("null", "payload is a JSON null, not an object"),
        ("[1, 2]", "payload is a JSON array, not an object"),
        ("42", "payload is a JSON number, not an object"),
        ("{oops", "payload is not valid JSON"),
        ("", "payload is not valid JSON"),
        (b"\xff\xfe{}", "payload is not valid JSON"),
    ],
)
def test_bad_payload_is_listed_with_an_error(make_db, raw: Any, error: str) -> None:
    db = make_db()
    db.session("s")
    db.event("s", "t", "llm.calling", None, at=1, raw=raw, eid="bad")
    db.event("s", "t", "llm.calling", {"runtimeId": "r"}, at=2, eid="good")
    with _open(db) as store:
        bad, good = store.events("s")
        calls = store.llm_calls("s")
        rows = list(store.iter_llm_calling_rows("s"))
    assert bad.id == "bad"
    assert bad.payload == {}
    assert bad.payload_error is not None and bad.payload_error.startswith(error)
    assert (bad.runtime_id, bad.attempt) == (None, None)
    assert good.payload_error is None
    assert [c.calling.id for c in calls] == ["bad", "good"]
    assert [r[3] for r in rows] == ["bad", "good"]


def test_payload_is_parsed_once(make_db, backend: str) -> None:
    db = make_db()
    db.session("s")
    db.event("s", "t", "x", {"a": 1}, at=1)
    with _open(db) as store:
        (ev,) = store.events("s")
    assert ev.payload is ev.payload


def test_parse_json_object_reads_json_as_javascript_does() -> None:
    # JSON.parse refuses NaN, so Covel could not have read such a row either: say so.
    value, error = parse_json_object('{"a": NaN}')
    assert value == {} and error is not None and "NaN" in error
    assert parse_json_object({"already": "decoded"}) == ({"already": "decoded"}, None)


def test_parse_json_object_reads_any_nesting_depth_as_covel_does() -> None:
    # V8's JSON.parse has no depth limit, so Covel reads these rows; so do we (json_deep).
    for depth in (900, 1030, 10_000):
        value, error = parse_json_object(('{"a":' + "[" * depth + "]" * depth + "}").encode())
        assert error is None and list(value) == ["a"]
        levels, node = 0, value["a"]
        while node:
            levels, node = levels + 1, node[0]
        assert levels == depth - 1


@pytest.mark.parametrize("schema", ["new", "old"])
def test_one_turn_is_read_in_canonical_order(make_db, schema: str, backend: str) -> None:
    db = make_db(schema=schema)
    db.session("s")
    db.event("s", "t", "a", {}, at=5, eid="zz")
    db.event("s", "t", "b", {}, at=5, eid="aa")
    db.event("s", "other", "x", {}, at=5, eid="bb")
    db.event("s", "t", "c", {}, at=4, eid="mm")
    db.event("s", "t", "d", {}, at=6, eid="ab")
    with _open(db) as store:
        whole = [e.id for e in store.events("s") if e.turn_id == "t"]
        one = [e.id for e in store.events("s", "t")]
        typed = [e.id for e in store.events("s", "t", ["a", "b"])]
    assert one == whole
    assert one == (["mm", "zz", "aa", "ab"] if schema == "new" else ["mm", "aa", "zz", "ab"])
    assert typed == [i for i in one if i in ("zz", "aa")]


@pytest.mark.parametrize("schema", ["new", "old"])
def test_llm_calling_order_keys_sort_as_the_canonical_order(make_db, schema: str, backend: str) -> None:
    db = make_db(schema=schema)
    db.session("s")
    # Ties on created_at (and on seq) are broken by seq, then id byte-wise.
    for n, (at, eid) in enumerate([(3, "c-b"), (1, "c-z"), (3, "c-a"), (2, "c-é"), (2, "c-e"), (1, "c-y")]):
        db.event("s", f"t{n % 2}", "llm.calling", {"runtimeId": "r", "n": n}, at=at, eid=eid)
    db.event("s", "t0", "llm.responded", {"runtimeId": "r"}, at=4, eid="reply")
    db.event("other", "t0", "llm.calling", {"runtimeId": "r"}, at=1, eid="elsewhere")
    with db.open() as store:
        order = store.llm_calling_order("s")
        canonical = [e.id for e in store.events("s", types=["llm.calling"])]
    assert sorted(order, key=order.__getitem__) == canonical
    assert set(order) == {"c-b", "c-z", "c-a", "c-é", "c-e", "c-y"}


def test_the_canonical_key_sorts_as_the_database_orders(make_db, backend: str) -> None:
    from inspector.store.ordering import order_key

    db = make_db()
    db.session("s")
    for n, (at, eid) in enumerate([(2, "b"), (1, "é"), (2, "a"), (1, "e"), (3, "Z")]):
        db.event("s", f"t{n % 2}", "turn.started", {"n": n}, at=at, eid=eid)
    with db.open() as store:
        ordered = store.events("s")  # ORDER BY in the database
        one_turn = store.events("s", "t0")  # sorted here by the key
    assert sorted(ordered, key=order_key) == ordered
    assert [e.id for e in one_turn] == [e.id for e in ordered if e.turn_id == "t0"]
