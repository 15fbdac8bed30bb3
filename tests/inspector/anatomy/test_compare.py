"""Part-by-part comparison: purpose-built pairs and consecutive demo turns."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from inspector import views
from inspector.anatomy.compare import ADDED, CHANGED, EQUAL, MOVED, REMOVED, compare_details, parts_of
from inspector.anatomy.labelling import AnatomyNode, label_request
from inspector.store import open_store
from inspector.views import DetailNode, RequestDetail
from inspector.wire.parse import from_provider_body

ANTHROPIC = "anthropic-messages-v1"
CHAT = "openai-chat-v1"


def _node(n: AnatomyNode) -> DetailNode:
    children = [_node(c) for c in n.children]
    size = len(n.text) if n.text else sum(c.exact for c in children)
    return DetailNode(n.kind, n.label, n.text, n.recognised_by, n.role, n.bag, n.source, n.start, n.end,
                      size, size, size, children=children)


def detail(body: dict[str, Any], protocol: str = ANTHROPIC, eid: str = "x") -> RequestDetail:
    """A request as the request view holds it, from a provider body (token counts: characters)."""
    request = from_provider_body(copy.deepcopy(body), protocol)
    anatomy = label_request(request)
    roots = [_node(n) for n in anatomy.roots]
    payload = {"providerRequests": [{"protocol": protocol, "body": body}]}
    return RequestDetail({"eventId": eid}, request, request, [], anatomy, roots, "o200k_base", "exact",
                         0, 0, True, payload, {}, None)


TOOL = {"name": "emit-event", "description": "emit", "input_schema": {"type": "object"}}


def base() -> dict[str, Any]:
    return {
        "model": "claude",
        "tools": [copy.deepcopy(TOOL)],
        "system": [
            {"type": "text", "text": "[RUNTIME] run", "cache_control": {"type": "ephemeral"}},
            {"type": "text", "text": "<world-lore>\nold town\n</world-lore>"},
        ],
        "messages": [
            {"role": "user", "content": "hello"},
            {"role": "assistant", "content": "hi there"},
            {"role": "user", "content": "go north"},
        ],
    }


def test_identical_requests_have_no_difference() -> None:
    c = compare_details(detail(base()), detail(base()))
    assert c.identical and c.first_difference is None
    assert {r.status for r in c.rows} == {EQUAL}
    assert len(c.rows) == len(parts_of(detail(base())))


def test_changed_segment_reports_offset_and_deep_path() -> None:
    right = base()
    right["system"][1]["text"] = "<world-lore>\nnew town\n</world-lore>"
    c = compare_details(detail(base()), detail(right))
    fd = c.first_difference
    assert fd is not None and fd.status(c.rows) == CHANGED
    row = c.rows[fd.row_index]
    assert fd.left_row == fd.right_row == fd.row_index
    assert fd.offset == len("<world-lore>\n")  # UTF-16 units into the system block
    assert row.right_text[fd.right_offset] == "n" and row.left_text[fd.left_offset] == "o"
    assert fd.path.startswith("system prompt")
    assert fd.now == "<world-lore>\nnew town\n</world-lore>" and fd.was == "<world-lore>\nold town\n</world-lore>"


def test_history_growth_aligns_messages_not_positions() -> None:
    right = base()
    right["messages"] += [{"role": "assistant", "content": "you walk"}, {"role": "user", "content": "look"}]
    c = compare_details(detail(base()), detail(right))
    statuses = [(r.section, r.label, r.status) for r in c.rows]
    assert ("history", "user #0", EQUAL) in statuses
    assert ("history", "assistant #1", EQUAL) in statuses
    assert any(s == ADDED for _sec, _label, s in statuses)
    # The provider reads the earlier request's last message again as history: the prefix ends
    # where the new reply starts.
    assert c.first_difference.path == "history › assistant #3"
    assert c.first_difference.offset == 0
    assert c.first_difference.left_row is None  # the earlier request ended there


def test_pruned_front_keeps_later_parts_equal() -> None:
    right = base()
    del right["messages"][0]
    c = compare_details(detail(base()), detail(right))
    statuses = [(r.label, r.status) for r in c.rows]
    assert any(s == REMOVED for _label, s in statuses)
    assert any(label.startswith("assistant") and s == EQUAL for label, s in statuses)


def test_tool_change_is_the_first_difference() -> None:
    right = base()
    right["tools"][0]["description"] = "emit it"
    c = compare_details(detail(base()), detail(right))
    assert c.rows[0].status == CHANGED
    fd = c.first_difference
    assert fd.row_index == 0 and fd.path == "tools › emit-event"
    wire = json.dumps(TOOL, separators=(",", ":"))
    assert fd.offset == wire.index('"description":"emit') + len('"description":"emit')


def test_a_breakpoint_before_the_changed_text_is_not_the_first_difference() -> None:
    # The earlier request's wire carried no breakpoint where the later one has one; the first
    # difference is still the text that changed after it.
    left = base()
    del left["system"][0]["cache_control"]
    right = base()
    right["messages"][2]["content"] = "go south"
    c = compare_details(detail(left), detail(right))
    fd = c.first_difference
    assert fd.status(c.rows) == CHANGED
    assert c.rows[fd.row_index].label == "current input" and fd.offset == len("go ")
    marker = next(i for i, r in enumerate(c.rows) if "cache breakpoint" in r.label)
    assert c.rows[marker].status == ADDED and fd.row_index > marker


def test_a_moved_breakpoint_alone_is_not_a_difference_the_provider_reads() -> None:
    right = base()
    del right["system"][0]["cache_control"]
    right["messages"][0] = {"role": "user", "content": [{"type": "text", "text": "hello",
                                                         "cache_control": {"type": "ephemeral"}}]}
    c = compare_details(detail(base()), detail(right))
    assert not c.identical
    assert c.first_difference is None
    assert any(r.status in (ADDED, REMOVED) and "cache breakpoint" in r.label for r in c.rows)
    assert "only cache breakpoints differ" in c.to_text()


def test_a_moved_depth_insertion_is_one_moved_row_and_not_the_named_difference() -> None:
    # The case: a depth insertion one message from the end moves on as the history grows.
    depth = {"role": "system", "content": "<system-instruction>\nlamps never lie\n</system-instruction>"}
    system = {"role": "system", "content": "[RUNTIME] narrator"}
    left = {"model": "gpt-4o", "messages": [system, {"role": "user", "content": "hello"}, depth,
                                              {"role": "assistant", "content": "hi there"},
                                              {"role": "user", "content": "go north"}]}
    right = {"model": "gpt-4o", "messages": [system, {"role": "user", "content": "hello"},
                                               {"role": "assistant", "content": "hi there"},
                                               {"role": "user", "content": "go north"}, depth,
                                               {"role": "assistant", "content": "you walk"},
                                               {"role": "user", "content": "look"}]}
    c = compare_details(detail(left, CHAT), detail(right, CHAT))
    moved = [r for r in c.rows if r.status == MOVED]
    assert len(moved) == 1 and moved[0].left_text == moved[0].right_text
    assert moved[0].left_label != moved[0].right_label and " → " in moved[0].label
    assert not any(r.status in (ADDED, REMOVED) and r.right_text == moved[0].right_text for r in c.rows)
    fd = c.first_difference
    # Read by position, the earlier request had the insertion where this one has the reply.
    assert fd.path == "history › assistant #1" and fd.offset == 0
    assert c.rows[fd.left_row].status == MOVED and fd.right_row != fd.left_row
    assert c.counts()[MOVED] == 1


def test_rows_name_both_sides_when_they_differ() -> None:
    right = base()
    earlier = [{"role": "user", "content": "earlier"}, {"role": "assistant", "content": "ok"}]
    right["messages"] = earlier + right["messages"]
    c = compare_details(detail(base()), detail(right))
    renamed = [r for r in c.rows if r.left is not None and r.right is not None and r.left_label != r.right_label]
    assert renamed
    for row in renamed:
        assert row.label == f"{row.left_label} → {row.right_label}"
        assert row.to_json()["leftLabel"] == row.left_label and row.to_json()["rightLabel"] == row.right_label


@pytest.fixture(scope="module")
def store(demo_store):
    with open_store(demo_store) as s:
        yield s


def test_consecutive_demo_turns(store) -> None:
    rows = [r for r in views.request_rows(store)
            if r["runtimeId"] == "narrator/main" and r["protocol"] == "anthropic-messages-v1"]
    later = rows[1]["eventId"]
    earlier = views.previous_turn_request(store, later)
    assert earlier == rows[0]["eventId"]
    a = views.request_detail(store, earlier, exact=False)
    b = views.request_detail(store, later, exact=False)
    c = compare_details(a, b)
    by_section = {(r.section, r.status) for r in c.rows}
    # The static prefix is shared; the new turn adds history and changes the turn data.
    assert ("system prompt", EQUAL) in by_section
    assert ("history", ADDED) in by_section
    assert ("turn context", CHANGED) in by_section
    fd = c.first_difference
    assert fd is not None
    assert all(r.status == EQUAL for r in c.rows[:fd.row_index])
    # The point lies in a part that changed, or where an equal part ends in one request and the
    # other goes on (a system block that held the turn context too).
    named = c.rows[fd.row_index]
    assert named.status != EQUAL or fd.right_offset == len(named.right_text)
    # Reversed, the same parts show as removed.
    back = compare_details(b, a)
    assert ("history", REMOVED) in {(r.section, r.status) for r in back.rows}
    assert copy.deepcopy(c.to_json())["left"] == earlier


def test_previous_turn_and_candidates(store) -> None:
    first = views.request_rows(store)[0]["eventId"]
    assert views.previous_turn_request(store, first) is None
    assert views.previous_turn_request(store, "no-such-event") is None
    cands = views.compare_candidates(store, first)
    assert cands and all(r["eventId"] != first for r in cands)
    assert all(r["sessionId"] == views.request_rows(store)[0]["sessionId"] for r in cands)
    assert all(isinstance(r["turnNumber"], int) for r in cands)
