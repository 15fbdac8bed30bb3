"""Markdown / JSON renderings of a request and the atomic writer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector import views
from inspector.covel import markers
from inspector.files import write_atomic
from inspector.export import (
    anatomy_json, anatomy_markdown, attempt_facts, kernel_messages_json, node_text, provider_body_json,
    raw_event_json, response_text,
)
from inspector.highlight import SENTINEL_CHIP
from inspector.jsjson import js_parse
from inspector.store import open_store


@pytest.fixture(scope="module")
def store(demo_store):
    path = demo_store
    with open_store(path) as s:
        yield s


def _first(store, protocol: str) -> str:
    return next(r["eventId"] for r in views.request_rows(store)
                if r["protocol"] == protocol and r["runtimeId"] == "narrator/main")


def test_markdown_has_bag_headings_table_and_chips(store) -> None:
    detail = views.request_detail(store, _first(store, "anthropic-messages-v1"))
    md = anatomy_markdown(detail)
    assert md.startswith(f"# Request {detail.row['eventId']}")
    assert "## system prompt" in md
    assert "## turn context" in md
    assert "| part | role | recognised by | tokens | estimate | share |" in md
    assert SENTINEL_CHIP in md
    assert markers.CACHE_SENTINEL not in md
    assert "```" in md
    assert "<runtime-inputs>" in md


def test_markdown_fence_outlasts_backticks_in_text(store) -> None:
    detail = views.request_detail(store, _first(store, "openai-chat-v1"), exact=False)
    detail.roots[-1].text = "has ``` inside"
    detail.roots[-1].children = []
    md = anatomy_markdown(detail)
    assert "````\nhas ``` inside\n````" in md


def test_anatomy_json_is_request_to_json(store) -> None:
    detail = views.request_detail(store, _first(store, "openai-chat-v1"))
    assert json.loads(anatomy_json(detail)) == json.loads(json.dumps(detail.to_json()))


def test_provider_body_per_attempt(store) -> None:
    eid = next(r["eventId"] for r in views.request_rows(store) if r["transportAttempts"] > 1)
    detail = views.request_detail(store, eid, exact=False)
    first = provider_body_json(detail, 0)
    assert first.startswith("{\n  ")
    assert js_parse(first) == detail.attempts[0].body
    both = js_parse(provider_body_json(detail))
    assert both == [a.body for a in detail.attempts]
    facts = [attempt_facts(a) for a in detail.attempts]
    assert facts[0]["statusCode"] == 429 and facts[0]["retryReason"]
    assert facts[1]["bodyRef"] is not None
    assert facts[1]["completeness"] == "complete"


def test_kernel_raw_and_response_renderings(store) -> None:
    detail = views.request_detail(store, _first(store, "anthropic-messages-v1"), exact=False)
    kernel = js_parse(kernel_messages_json(detail))
    assert kernel["messages"] == detail.payload["messages"]
    assert js_parse(raw_event_json(detail))["id"] == detail.row["eventId"]
    text = response_text(detail)
    assert detail.response["text"] in text
    assert "<usage>" in text


def test_node_text_marks_breakpoints(store) -> None:
    detail = views.request_detail(store, _first(store, "anthropic-messages-v1"), exact=False)
    stack = detail.segment_stack
    assert markers.CACHE_SENTINEL in node_text(stack)
    current = next(n for n in detail.history_bags if n.bag == "current-input")
    assert node_text(current).endswith(markers.CACHE_SENTINEL)
    bp = next(n for n in stack.children if n.is_breakpoint)
    assert node_text(bp) == markers.CACHE_SENTINEL


def test_write_atomic_replaces_and_leaves_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "out.md"
    target.write_text("old", encoding="utf-8")
    write_atomic(target, "新内容\n")
    assert target.read_text(encoding="utf-8") == "新内容\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.md"]


def test_write_atomic_cleans_up_on_failure(tmp_path: Path) -> None:
    with pytest.raises(TypeError):
        write_atomic(tmp_path / "x.txt", 42)  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []
