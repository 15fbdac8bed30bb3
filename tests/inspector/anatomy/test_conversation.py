"""The conversation cards of a request: one per message in request order, labelled as the
anatomy labels them, with the recorded (unescaped) text, breakpoints and collapsed long parts."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from inspector import views
from inspector.anatomy.conversation import COLLAPSE_CHARS, PATH_SEPARATOR, Card, conversation, find_hits
from inspector.store import open_store
from inspector.views import DetailNode


@pytest.fixture(scope="module")
def store(demo_store):
    with open_store(demo_store) as s:
        yield s


@pytest.fixture(scope="module")
def narrator(store):
    eid = next(r["eventId"] for r in views.request_rows(store)
               if r["protocol"] == "anthropic-messages-v1" and r["runtimeId"] == "narrator/main")
    return views.request_detail(store, eid)


def message_nodes(detail) -> list[DetailNode]:
    """Every node that is one message (or the tools, or the system prompt), in request order."""
    out = []
    for root in detail.roots:
        if root.kind in ("tools", "system-prompt") or root.source is not None or root.text:
            out.append(root)
        else:
            out.extend(c for c in root.children if not c.is_breakpoint)
    return out


def test_one_card_per_message_in_request_order(narrator) -> None:
    cards = conversation(narrator)
    nodes = message_nodes(narrator)
    assert [c.index for c in cards] == list(range(len(cards)))
    assert len(cards) == len(nodes)
    assert [c.kind for c in cards] == [n.kind for n in nodes]
    assert cards[0].label == "tools" and cards[0].role is None
    assert cards[1].label == "system prompt" and cards[1].role == "system"
    # Every message the request sends is a card, with its role.
    messages = narrator.request.messages
    carded = [c for c in cards if c.kind not in ("tools", "system-prompt")]
    assert [c.role for c in carded][-len(messages):] == [m.role for m in messages]


def test_labels_are_the_anatomy_labels(narrator) -> None:
    cards = conversation(narrator)
    for root in narrator.roots:
        if root.source is None and not root.text and root.kind not in ("tools", "system-prompt"):
            for child in root.children:
                if not child.is_breakpoint:
                    assert any(c.label == root.label + PATH_SEPARATOR + child.label for c in cards)
        else:
            assert any(c.label == root.label for c in cards)
    labels = {c.label for c in cards}
    assert "turn context" in labels and "current input" in labels


def test_text_is_the_recorded_string_not_json(narrator) -> None:
    cards = conversation(narrator)
    current = next(c for c in cards if c.label == "current input")
    message = narrator.request.messages[-1]
    assert "".join(s.text for s in current.segments) == message.text
    system = next(c for c in cards if c.kind == "system-prompt")
    lore = next(s for s in system.segments if s.label == "stable segments")
    assert "\n" in lore.text and "\\n" not in lore.text
    assert lore.text.startswith("<world-lore>\n")


def test_a_cards_text_is_what_the_anatomy_pane_shows(narrator) -> None:
    from inspector.export import node_text

    for node, card in zip(message_nodes(narrator), conversation(narrator)):
        assert card.text == node_text(node)


def test_segments_cover_the_message_text(narrator) -> None:
    """A message's labelled parts and the text between them are its whole text, in order (blank
    gaps between parts left out)."""
    for node, card in zip(message_nodes(narrator), conversation(narrator)):
        if not node.text:
            continue
        joined = "".join(s.text for s in card.segments)
        assert joined.replace("\n", "").replace(" ", "") == node.text.replace("\n", "").replace(" ", "")


def test_breakpoints_are_chips_where_they_sit(narrator) -> None:
    cards = conversation(narrator)
    system = next(c for c in cards if c.kind == "system-prompt")
    sp = narrator.segment_stack
    assert len(system.breakpoints) == sum(1 for c in sp.children if c.is_breakpoint)
    kinds = [s.breakpoint is not None for s in system.segments]
    assert kinds == [c.is_breakpoint for c in sp.children]
    assert all(label.startswith("cache breakpoint") for c in cards for label in c.breakpoints)
    assert sum(len(c.breakpoints) for c in cards) >= 1


def test_tokens_are_the_anatomy_counts(narrator) -> None:
    cards = conversation(narrator)
    total = sum(c.exact for c in cards)
    assert total == narrator.total_exact
    system = next(c for c in cards if c.kind == "system-prompt")
    assert system.exact == narrator.segment_stack.exact
    assert all(s.exact is not None for s in system.segments if s.label is not None)


def test_estimates_only_when_exact_was_not_counted(store, narrator) -> None:
    rough = views.request_detail(store, narrator.record.event_id, exact=False)
    cards = conversation(rough)
    assert all(c.exact == 0 for c in cards)
    assert all(s.exact is None for c in cards for s in c.segments)
    assert sum(c.estimate for c in cards) == rough.total_estimate


def test_long_segments_start_collapsed_with_a_preview() -> None:
    long_text = "第一行\n" + "x" * (COLLAPSE_CHARS + 10)
    leaf = DetailNode("current-input", "current input", long_text, "guess", "user", "current-input",
                      ("message", 0), 0, len(long_text), 10, 10, 10)
    detail = _detail_with([leaf])
    (card,) = conversation(detail)
    (segment,) = card.segments
    assert segment.collapsed and segment.preview.startswith("第一行")
    assert len(segment.preview) <= 300
    short = dataclasses.replace(leaf, text="short", end=5)
    (card,) = conversation(_detail_with([short]))
    assert not card.segments[0].collapsed and card.segments[0].preview == ""


def test_a_breakpoint_inside_a_plain_message_cuts_it() -> None:
    text = "before after"
    bp = DetailNode("cache-breakpoint", "cache breakpoint (cache_control)", "", "structure", "user", "history",
                    ("message", 0), 6, 6, 0, 0, 0)
    leaf = DetailNode("history-message", "user #0", text, "position", "user", "history", ("message", 0), 0,
                      len(text), 3, 3, 3, children=[bp])
    bag = DetailNode("history", "history", "", "position", None, "history", None, 0, 0, 3, 3, 3, children=[leaf])
    (card,) = conversation(_detail_with([bag]))
    assert card.label == "history › user #0"
    assert [(s.text, s.breakpoint) for s in card.segments] == [
        ("before", None), ("", "cache breakpoint (cache_control)"), (" after", None)]
    assert isinstance(card, Card) and card.chars == len(text)


def _detail_with(roots: list[DetailNode]):
    from inspector.views import RequestDetail

    return RequestDetail(row={}, request=None, kernel=None, attempts=[], anatomy=None, roots=roots,
                         encoding="o200k_base", encoding_provenance="proxy", total_exact=0, total_estimate=0,
                         exact_counted=True, payload={}, raw_event={}, response=None)


def test_find_hits_ignores_ascii_case_only() -> None:
    assert find_hits("World-Lore and world-lore", "WORLD") == [(0, 5), (15, 20)]
    assert find_hits("灯岭镇 灯岭镇", "岭镇") == [(1, 3), (5, 7)]
    assert find_hits("ÄÖ äö", "äö") == [(3, 5)]  # only ASCII is folded, as the search does
    assert find_hits("aaaa", "aa") == [(0, 2), (2, 4)]
    assert find_hits("abc", "") == [] and find_hits("", "a") == []
    assert find_hits("a a a", "a", limit=2) == [(0, 1), (2, 3)]


@given(st.text(alphabet="abAB灯Ä ä.*\n", max_size=40), st.text(alphabet="abAB灯Ää.*", min_size=1, max_size=3))
def test_find_hits_are_real_occurrences(text: str, needle: str) -> None:
    fold = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
    hay, want = text.translate(fold), needle.translate(fold)
    expected, at = [], hay.find(want)
    while at >= 0:
        expected.append((at, at + len(want)))
        at = hay.find(want, at + len(want))
    assert find_hits(text, needle) == expected
    hits = find_hits(text, needle)
    for start, end in hits:
        assert text[start:end].translate(fold) == want
