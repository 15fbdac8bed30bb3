"""One answer to "where do these two requests first differ": the divergence function, Compare and
the cache analysis agree on every consecutive pair of the demo's sessions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from inspector import views
from inspector.anatomy.compare import compare_details
from inspector.anatomy.divergence import (
    IDENTICAL,
    common_prefix,
    common_prefix_plain,
    context_around,
    context_point,
    request_divergence,
)
from inspector.cache.analysis import analyse_session
from inspector.jsjson import utf16_len
from inspector.prefix.report import CONTEXT_AFTER, CONTEXT_BEFORE
from inspector.store import open_store

CLAUDE = "demo-lantern-claude"

# Texts that share a long prefix often (the common case) and astral characters now and then.
_alphabet = st.sampled_from(["a", "b", "\n", "中", "\U0001F600", "\ue000"])
_texts = st.lists(_alphabet, max_size=60).map("".join)


@given(_texts, _texts, _texts)
def test_the_fast_common_prefix_is_the_plain_one(shared: str, a: str, b: str) -> None:
    for x, y in ((shared + a, shared + b), (a, b), (shared, shared + a), (shared + a, shared)):
        assert common_prefix(x, y) == common_prefix_plain(x, y)
        n = common_prefix(x, y)
        assert x[:n] == y[:n] and (n == min(len(x), len(y)) or x[n] != y[n])


@given(_texts, st.integers(min_value=0, max_value=80))
def test_the_point_of_an_excerpt_is_where_the_difference_is(text: str, at: int) -> None:
    at = min(at, len(text))
    excerpt = context_around(text, at)
    assert excerpt == text[max(0, at - CONTEXT_BEFORE):at + CONTEXT_AFTER]
    k = context_point(excerpt, utf16_len(text[:at]))
    assert excerpt[k:k + 1] == text[at:at + 1]


@pytest.fixture(scope="module")
def demo_pairs(demo_store: Path) -> list[tuple[Any, Any, Any]]:
    """Every compared pair of every demo session: (cache pair, earlier detail, later detail)."""
    out = []
    with open_store(demo_store) as store:
        for row in views.session_rows(store):
            for pair in analyse_session(store, row["sessionId"]).pairs:
                if pair.previous_event_id is None:
                    continue
                out.append((pair, views.request_detail(store, pair.previous_event_id, exact=False),
                            views.request_detail(store, pair.event_id, exact=False)))
    return out


def test_compare_names_the_analysis_first_difference_for_every_demo_pair(demo_pairs) -> None:
    assert len(demo_pairs) > 100
    sessions = set()
    for pair, left, right in demo_pairs:
        fd = compare_details(left, right).first_difference
        got = (fd.path, fd.offset, fd.was, fd.now) if fd is not None else (IDENTICAL, 0, None, None)
        assert got == (pair.first_difference, pair.offset, pair.was, pair.now), (pair.session_id, pair.event_id)
        sessions.add(pair.session_id)
    assert len(sessions) == 4  # every protocol of the demo: Anthropic, OpenAI chat, Gemini, DeepSeek


def test_the_issue_case_a_breakpoint_chip_is_not_the_difference(demo_pairs) -> None:
    # Compare used to name "history › user #0 at character 18", where only the moving Anthropic
    # breakpoint differs; the provider first reads differently at the reply that follows it.
    pair, left, right = next(p for p in demo_pairs if p[0].session_id == CLAUDE and p[0].kind == "turn"
                             and p[0].runtime_id == "world-init/dimension-tracker"
                             and p[0].first_difference == "history › assistant #1")
    c = compare_details(left, right)
    assert c.first_difference.path == "history › assistant #1" and c.first_difference.offset == 0
    user = next(r for r in c.rows if r.left_label == "user #0" and r.right_label == "user #0")
    assert user.breakpoints_differ and user.status == "equal"


def test_a_kernel_cut_system_prompt_is_named_by_its_pieces(demo_pairs) -> None:
    # The OpenAI wire strips the sentinels; the kernel copy says where the world info starts, so
    # a world-info entry dropped from the end is named there, not in the runtime body.
    named = [p for p, _l, _r in demo_pairs if p.session_id == "demo-lantern-openai" and p.region == "system"]
    assert named and all("runtime body" not in p.first_difference for p in named)
    assert any(p.first_difference.startswith("system prompt › world info (after plugin") for p in named)


def test_the_divergence_of_identical_requests_is_none(demo_pairs) -> None:
    _pair, left, _right = demo_pairs[0]
    assert request_divergence(left.request, left.request, left.anatomy, left.anatomy) is None


def test_a_request_that_ends_earlier_is_named_so(demo_pairs) -> None:
    _pair, left, right = demo_pairs[1]
    d = request_divergence(right.request, left.request, right.anatomy, left.anatomy)
    assert d is not None
    shorter = request_divergence(left.request, _truncated(left.request), left.anatomy, left.anatomy)
    assert shorter is not None and shorter.name == "(request ends earlier)" and shorter.right.part is None


def _truncated(request: Any) -> Any:
    from dataclasses import replace

    return replace(request, messages=request.messages[:-1])
