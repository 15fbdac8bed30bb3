"""Part-by-part comparison: purpose-built pairs and consecutive demo turns."""

from __future__ import annotations

import copy

import pytest

from inspector import views
from inspector.anatomy.compare import ADDED, CHANGED, EQUAL, REMOVED, compare_details, parts_of
from inspector.demo import generate_demo
from inspector.store import open_store
from inspector.views import DetailNode, RequestDetail


def node(kind: str, label: str, text: str = "", *, bag: str | None = None, role: str | None = None,
         children: list[DetailNode] | None = None, source=None, start: int = 0) -> DetailNode:
    return DetailNode(kind, label, text, "marker", role, bag, source, start, start + len(text),
                      len(text), len(text), len(text), children=children or [])


def detail(roots: list[DetailNode], eid: str = "x") -> RequestDetail:
    return RequestDetail({"eventId": eid}, None, None, [], None, roots, "o200k_base", "exact",
                         0, 0, True, {}, {}, None)


def base() -> list[DetailNode]:
    src = ("system", 0)
    return [
        node("tools", "tools", children=[node("tool", "emit-event", '{"name":"emit-event"}')]),
        node("system-prompt", "system prompt", children=[
            node("preamble", "preamble", "[RUNTIME] run", source=src),
            node("cache-breakpoint", "cache breakpoint", source=src),
            node("stable-segments", "stable segments", "<world-lore>\nold town\n</world-lore>",
                 source=("system", 1), children=[
                     node("segment", "<world-lore>", "<world-lore>\nold town\n</world-lore>", source=("system", 1))]),
        ]),
        node("history", "history", bag="history", children=[
            node("message", "user #0", "hello", bag="history", role="user", source=("message", 0)),
            node("message", "assistant #1", "hi there", bag="history", role="assistant", source=("message", 1)),
        ]),
        node("current-input", "current input", "go north", bag="current-input", role="user", source=("message", 2)),
    ]


def test_identical_requests_have_no_difference() -> None:
    c = compare_details(detail(base()), detail(base()))
    assert c.identical
    assert {r.status for r in c.rows} == {EQUAL}
    assert len(c.rows) == len(parts_of(detail(base())))


def test_changed_segment_reports_offset_and_deep_path() -> None:
    right = base()
    seg = right[1].children[2]
    seg.text = seg.children[0].text = "<world-lore>\nnew town\n</world-lore>"
    c = compare_details(detail(base()), detail(right))
    fd = c.first_difference
    assert fd is not None and fd.status == CHANGED
    row = c.rows[fd.row_index]
    assert row.label == "stable segments"
    assert fd.offset == len("<world-lore>\n")
    assert row.left_text[fd.offset] == "o" and row.right_text[fd.offset] == "n"
    assert fd.path == "system prompt › stable segments › <world-lore>"


def test_history_growth_aligns_messages_not_positions() -> None:
    right = base()
    right[2].children.append(node("message", "user #2", "go north", bag="history", role="user"))
    right[2].children.append(node("message", "assistant #3", "you walk", bag="history", role="assistant"))
    right[3] = node("current-input", "current input", "look", bag="current-input", role="user")
    c = compare_details(detail(base()), detail(right))
    statuses = [(r.section, r.label, r.status) for r in c.rows]
    assert ("history", "user #0", EQUAL) in statuses
    assert ("history", "assistant #1", EQUAL) in statuses
    assert ("history", "user #2", ADDED) in statuses
    assert ("current input", "current input", CHANGED) in statuses
    assert c.first_difference.path == "history › user #2"
    assert c.first_difference.status == ADDED


def test_pruned_front_keeps_later_parts_equal() -> None:
    right = base()
    del right[2].children[0]
    c = compare_details(detail(base()), detail(right))
    statuses = [(r.label, r.status) for r in c.rows]
    assert ("user #0", REMOVED) in statuses
    assert ("assistant #1", EQUAL) in statuses
    assert ("current input", EQUAL) in statuses


def test_moved_breakpoint_and_tool_change() -> None:
    right = base()
    del right[1].children[1]
    right[0].children[0].text = '{"name":"emit-event","x":1}'
    c = compare_details(detail(base()), detail(right))
    assert c.rows[0].status == CHANGED
    assert c.first_difference.row_index == 0
    assert c.first_difference.offset == len('{"name":"emit-event"')
    assert any(r.status == REMOVED and r.label == "cache breakpoint" for r in c.rows)
    assert c.to_json()["counts"][REMOVED] == 1


def test_a_breakpoint_before_the_changed_text_is_not_the_first_difference() -> None:
    # The earlier request's wire carried no breakpoint where the later one has one; the first
    # difference is still the text that changed after it.
    left = base()
    del left[1].children[1]
    right = base()
    right[3].text = "go south"
    c = compare_details(detail(left), detail(right))
    marker = next(i for i, r in enumerate(c.rows) if r.label == "cache breakpoint")
    assert c.rows[marker].status == ADDED
    fd = c.first_difference
    assert fd.row_index > marker and fd.status == CHANGED
    assert c.rows[fd.row_index].label == "current input" and fd.offset == len("go ")


def test_a_moved_breakpoint_alone_is_still_a_difference() -> None:
    right = base()
    del right[1].children[1]
    c = compare_details(detail(base()), detail(right))
    assert not c.identical
    assert c.first_difference.status == REMOVED and c.rows[c.first_difference.row_index].label == "cache breakpoint"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    path = tmp_path_factory.mktemp("compare") / "covel.db"
    generate_demo(path, overwrite=True)
    with open_store(path) as s:
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
    assert c.rows[fd.row_index].status != EQUAL
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
