"""The numbers the CLI and the app share, computed over the demo database."""

import pytest

from inspector import views
from inspector.store import open_store
from inspector.wire.model import SRC_KERNEL_SENTINEL


@pytest.fixture(scope="module")
def store(demo_store):
    path = demo_store
    with open_store(path) as opened:
        yield opened


def _narrator_request(store, session):
    return [r for r in views.request_rows(store, session_id=session) if r["runtimeId"] == "narrator/main"][2]


@pytest.mark.parametrize("session", ["demo-lantern-deepseek", "demo-lantern-openai", "demo-lantern-gemini"])
def test_stripped_wires_get_breakpoints_from_the_kernel_copy(store, session):
    row = _narrator_request(store, session)
    detail = views.request_detail(store, row["eventId"], exact=False)
    assert detail.request.source == "provider"
    prompt = detail.segment_stack
    kinds = [c.kind for c in prompt.children]
    assert kinds[:3] == ["preamble", "cache-breakpoint", "runtime-body"]
    assert kinds.count("cache-breakpoint") == sum(b.breakpoint_after for b in detail.kernel.system)
    assert next(c for c in prompt.children if c.kind == "runtime-body").recognised_by == "sentinel"
    # The pieces are the provider's own text, cut where the kernel had its sentinels.
    pieces = [b for b in detail.request.system if b.source == SRC_KERNEL_SENTINEL]
    kernel_pieces = [b for b in detail.kernel.system if b.source == SRC_KERNEL_SENTINEL]
    assert [p.text for p in pieces] == [p.text for p in kernel_pieces]
    offsets = [p.origin_offset for p in pieces]
    assert offsets == sorted(offsets) and offsets[0] == 0


def test_anthropic_blocks_are_left_as_sent(store):
    row = _narrator_request(store, "demo-lantern-claude")
    detail = views.request_detail(store, row["eventId"], exact=False)
    assert detail.request.protocol == "anthropic-messages-v1"
    assert all(b.source != SRC_KERNEL_SENTINEL for b in detail.request.system)
    assert any(c.kind == "cache-breakpoint" for c in detail.segment_stack.children)


def test_token_shares_sum_to_one(store):
    row = _narrator_request(store, "demo-lantern-deepseek")
    detail = views.request_detail(store, row["eventId"])
    assert detail.total_exact == sum(r.exact for r in detail.roots) > 0
    assert sum(r.share for r in detail.roots) == pytest.approx(1.0)
    assert detail.turn_context is not None
    assert any(n.bag == "current-input" for n in detail.history_bags)


def test_kernel_view_keeps_the_sentinels(store):
    row = _narrator_request(store, "demo-lantern-openai")
    detail = views.request_detail(store, row["eventId"], exact=False, view="kernel")
    assert detail.request.source == "kernel"
    assert any(c.kind == "cache-breakpoint" for c in detail.segment_stack.children)


def test_unknown_and_non_request_events(store):
    assert views.request_detail(store, "no-such-id") is None
    other = store.events("demo-lantern-deepseek", types=["turn.started"])[0]
    assert views.request_detail(store, other.id) is None


# --- large stores: what opening reads, and the turn listing's two paths ----------------------------

def _full_session_rows(store):
    return views.session_rows(store, event_counts=True)


def test_session_rows_can_leave_event_counts_for_later(store):
    full = _full_session_rows(store)
    quick = views.session_rows(store, event_counts=False)
    assert [r["events"] for r in quick] == [None] * len(full)
    # Everything else is the same figure, read through the indexes.
    strip = [{k: v for k, v in r.items() if k != "events"} for r in full]
    assert [{k: v for k, v in r.items() if k != "events"} for r in quick] == strip
    counts = views.session_event_counts(store, [r["sessionId"] for r in quick])
    assert counts == {r["sessionId"]: r["events"] for r in full}
    assert all(n > 0 for n in counts.values())


def test_small_stores_count_events_when_opened(store):
    # The demo is far below the limit, so the default keeps every figure.
    assert store.approximate_trace_rows() < 1_000_000
    assert views.session_rows(store) == _full_session_rows(store)


def test_store_totals_do_not_need_event_counts(store):
    quick = views.session_rows(store, event_counts=False)
    assert views.store_totals(store, quick) == views.store_totals(store, _full_session_rows(store))
    assert views.store_totals(store)["requests"] == len(views.request_rows(store))


@pytest.mark.parametrize("session", ["demo-lantern-deepseek", "demo-lantern-anthropic"])
def test_turn_listing_aggregated_in_sql_equals_the_row_walk(store, session, monkeypatch):
    aggregated = views.turn_rows(store, session)
    # The walk over every row in canonical order is what stores without JSON functions use.
    monkeypatch.setattr(type(store.schema), "runtime_id_expr", lambda self: None)
    walked = views.turn_rows(store, session)
    assert aggregated == walked
    assert sum(r["llmCalls"] for r in aggregated) == len(views.request_rows(store, session))


def test_typed_rows_give_todays_json(store):
    from inspector.rows import SessionRow, TurnRow

    sessions = views.session_rows(store)
    assert list(sessions[0]) == ["sessionId", "world", "worldId", "locale", "phase", "status",
                                 "completedPlayerTurns", "executions", "events", "llmCalls", "createdAt", "updatedAt"]
    assert [SessionRow.from_json(r).to_json() for r in sessions] == sessions
    assert [r.to_json() for r in views.session_table(store)] == sessions
    turns = views.turn_rows(store, "demo-lantern-deepseek")
    assert list(turns[0]) == ["number", "turnId", "traceId", "origin", "commitStatus", "createdAt", "startedAt",
                              "endedAt", "durationMs", "retryScope", "parentTurnId", "events", "llmCalls",
                              "runtimeIds"]
    assert [TurnRow.from_json(r).to_json() for r in turns] == turns


REQUEST_KEYS = ["eventId", "sessionId", "turnId", "runtimeId", "pluginId", "stage", "step", "attempt", "model",
                "provider", "protocol", "transportAttempts", "startedAt", "responseEventId", "finishReason",
                "durationMs", "inputTokens", "outputTokens", "cachedTokens", "cacheWriteTokens"]
RUNTIME_KEYS = ["runtimeId", "pluginId", "stage", "status", "durationMs", "error", "requests", "requestCount",
                "inputTokens", "cachedTokens"]


def test_typed_request_rows_give_todays_json(store):
    from inspector.rows import RequestRow

    table = views.request_table(store)
    rows = views.request_rows(store)
    assert len(rows) == len(table) > 0
    assert all(list(r) == REQUEST_KEYS for r in rows)
    assert [r.to_json() for r in table] == rows
    assert [RequestRow.from_json(r).to_json() for r in rows] == rows
    assert [RequestRow.from_json(r.to_json()) for r in table] == table
    # The provider falls back to the wire's when the call names none; usage only where reported.
    assert any(r["responseEventId"] is not None and r["inputTokens"] is not None for r in rows)
    assert all(r["durationMs"] is None or isinstance(r["durationMs"], (int, float)) for r in rows)


def test_a_request_without_an_assembled_call_has_the_same_keys():
    from types import SimpleNamespace

    from inspector.rows import RequestRow

    event = SimpleNamespace(id="e1", session_id="s", turn_id="t", runtime_id="narrator/main", plugin_id=None,
                            attempt=None, payload={"model": "m", "provider": "p", "startedAt": 1.5})
    row = RequestRow.of_event(event)
    assert list(row.to_json()) == REQUEST_KEYS
    assert (row.step, row.attempt, row.model, row.transport_attempts, row.input_tokens) == (0, 0, "m", 0, None)
    assert RequestRow.from_json(row.to_json()) == row


def test_typed_runtime_rows_give_todays_json(store):
    from inspector.rows import RuntimeRow

    checked = 0
    for session in views.session_rows(store):
        sid = session["sessionId"]
        by_turn = views.session_runtimes(store, sid)
        assert {tid: [g.to_json() for g in groups] for tid, groups in by_turn.items()} == \
            views.session_runtime_groups(store, sid)
        for turn in views.turn_rows(store, sid):
            typed = views.turn_runtimes(store, sid, turn["turnId"])
            groups = views.turn_runtime_groups(store, sid, turn["turnId"])
            assert typed == by_turn.get(turn["turnId"], [])
            assert [g.to_json() for g in typed] == groups
            assert [RuntimeRow.from_json(g).to_json() for g in groups] == groups
            assert [RuntimeRow.from_json(g.to_json()) for g in typed] == typed
            for group in groups:
                assert list(group) == RUNTIME_KEYS
                assert group["requests"] == views.request_rows(store, sid, turn["turnId"], group["runtimeId"])
                assert group["requestCount"] == len(group["requests"])
                inputs = [r["inputTokens"] for r in group["requests"] if isinstance(r["inputTokens"], int)]
                assert group["inputTokens"] == (sum(inputs) if inputs else None)
                checked += 1
    assert checked > 0


def test_a_runtime_known_only_by_its_calls_sums_nothing_when_no_usage():
    from inspector.rows import RequestRow, RuntimeRow

    request = RequestRow.from_json({"eventId": "e1", "inputTokens": None, "cachedTokens": "12"})
    row = RuntimeRow("narrator/main", None, requests=[request])
    assert (row.request_count, row.input_tokens, row.cached_tokens) == (1, None, None)
    assert row.to_json()["status"] is None


def test_a_turn_is_a_completed_player_turn_and_an_execution_any_run(store):
    # The demo's main session: twelve player turns and the opening execution (origin manual).
    rows = {r["sessionId"]: r for r in views.session_rows(store)}
    main = rows["demo-lantern-deepseek"]
    assert (main["completedPlayerTurns"], main["executions"]) == (12, 13)
    origins = [t["origin"] for t in views.turn_rows(store, "demo-lantern-deepseek")]
    assert origins.count("player") == 12 and len(origins) == 13
    assert views.store_totals(store) == {"sessions": 4, "turns": 27, "executions": 28, "requests": 159}


def test_a_followed_session_row_grows_and_takes_the_old_schemas_turn_count():
    from inspector.rows import SessionRow

    row = SessionRow("s", "w", None, None, None, None, 2, 3, None, 4, None, None)
    grown = row.followed(events=5, requests=1, new_executions=2,
                         record={"turn_count": 7, "completed_player_turns": None, "phase": "playing"})
    assert (grown.events, grown.llm_calls, grown.executions, grown.completed_player_turns, grown.phase) == (
        None, 5, 5, 7, "playing")
    counted = SessionRow("s", "w", None, None, None, None, 2, 3, 10, 4, None, None).followed(
        events=5, requests=0, new_executions=0, record=None)
    assert (counted.events, counted.completed_player_turns) == (15, 2)
    assert row.counts.turns == 2 and SessionRow.from_json({**row.to_json(), "completedPlayerTurns": "many"}).counts.turns is None
