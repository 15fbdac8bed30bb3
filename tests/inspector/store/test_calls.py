"""Model requests paired with their responses (inspector.store.calls)."""

from __future__ import annotations


from inspector.store import LlmCall, Store, TokenUsage, TraceEvent


def _open(db) -> Store:
    return db.open()


# ------------------------------------------------------------------ llm calls


def test_llm_pairing_retry_and_tool_loop(make_db, build_sample, backend: str) -> None:
    db = make_db()
    build_sample(db)
    with _open(db) as store:
        calls = store.llm_calls("s1", turn_id="t2")
        everything = store.llm_calls("s1")
        only_setup = store.llm_calls("s1", runtime_id="setup/init")
    assert [(c.step, c.attempt, c.response is not None) for c in calls] == [
        (0, 0, True), (1, 0, False), (1, 1, True)]
    first, unanswered, retry = calls
    assert first.response is not None and first.response.payload["attempt"] == 0
    assert retry.response is not None and retry.response.payload["attempt"] == 1
    assert unanswered.usage is None
    assert retry.usage == TokenUsage(100, 20, 80, None)
    assert first.usage is None  # responded without usage
    assert {c.stage for c in calls} == {"narrative"}
    assert (first.runtime_id, first.plugin_id, first.model, first.provider) == (
        "narrator/main", "narrator", "deepseek-flash", "deepseek")
    assert first.started_at == "2026-10-06T08:00:00.020Z"  # payload.startedAt, not created_at
    assert first.turn_id == "t2" and first.session_id == "s1" and first.id == first.calling.id
    assert len(everything) == 4
    assert [(c.stage, c.step) for c in only_setup] == [("setup", 0)]
    assert only_setup[0].usage == TokenUsage(10, 2, None, None)


def test_llm_pairing_binds_to_latest_unanswered_same_attempt(make_db, backend: str) -> None:
    db = make_db()
    db.session("s")
    db.calling("s", "t", "a/x", 0, at=1)
    db.calling("s", "t", "b/y", 0, at=2)  # another runtime interleaved: its own group
    db.calling("s", "t", "a/x", 1, at=3)
    db.calling("s", "t", "a/x", 2, at=4)
    db.responded("s", "t", "a/x", 1, at=5)
    db.responded("s", "t", "b/y", 0, at=6)
    db.responded("s", "t", "a/x", 0, at=7)
    db.calling("s", "t", "a/x", 0, at=8)  # next tool-loop step
    db.calling("s", "t", "a/x", 0, at=9)  # and another, never answered
    db.responded("s", "t", "a/x", 0, at=10)
    db.responded("s", "other-turn", "a/x", 0, at=11)  # orphan: no calling in that turn
    with _open(db) as store:
        calls = store.llm_calls("s")
    summary = [(c.runtime_id, c.step, c.attempt, c.response.created_at[-4:-1] if c.response else None)
               for c in calls]
    assert summary == [
        ("a/x", 0, 0, "007"),
        ("b/y", 0, 0, "006"),
        ("a/x", 0, 1, "005"),
        ("a/x", 0, 2, None),
        ("a/x", 1, 0, None),
        ("a/x", 2, 0, "010"),
    ]
    assert all(c.stage is None for c in calls)


def test_first_surviving_call_is_a_retry(make_db, backend: str) -> None:
    db = make_db()
    db.session("s")
    db.calling("s", "t", "a/x", 1, at=1)
    db.calling("s", "t", "a/x", 2, at=2)
    db.calling("s", "t", "a/x", 0, at=3)
    with _open(db) as store:
        assert [(c.step, c.attempt) for c in store.llm_calls("s")] == [(0, 1), (0, 2), (1, 0)]


def test_provider_requests_and_provider_fallback(make_db, backend: str) -> None:
    db = make_db()
    db.session("s")
    requests = [{"schemaVersion": 1, "provider": "anthropic", "body": {"model": "m"}},
                {"schemaVersion": 2, "bodyRef": 0}]
    db.calling("s", "t", "a/x", at=1, provider=None, providerRequests=requests)
    db.event("s", "t", "llm.calling", {"runtimeId": "old/rt"}, at=2)
    with _open(db) as store:
        modern, legacy = store.llm_calls("s")
    assert modern.provider_requests == requests
    assert modern.provider == "anthropic"
    assert legacy.provider_requests == [] and legacy.provider is None and legacy.model is None
    assert legacy.started_at == legacy.calling.created_at
    assert isinstance(modern, LlmCall) and isinstance(modern.calling, TraceEvent)


def test_pair_llm_calls_ignores_other_types(make_db, backend: str) -> None:
    from inspector.store import pair_llm_calls

    db = make_db()
    db.session("s")
    db.event("s", "t", "runtime.started", {"runtimeId": "a/x", "stage": "narrative"}, at=1)
    db.calling("s", "t", "a/x", at=2)
    db.event("s", "t", "tool.completed", {"runtimeId": "a/x", "attempt": 0}, at=3)
    db.responded("s", "t", "a/x", at=4)
    with _open(db) as store:
        events = store.events("s", "t")
        assert [c.id for c in pair_llm_calls(events)] == [c.id for c in store.llm_calls("s", "t")]
    (call,) = pair_llm_calls(events)
    assert call.response is not None and call.response.type == "llm.responded" and call.stage == "narrative"
