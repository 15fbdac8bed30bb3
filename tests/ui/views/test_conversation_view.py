"""The request view's Conversation tab, JSON tabs' Unescaped mode, the search-hit highlight and
the context budget bar."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from inspector import views
from inspector.anatomy.conversation import Card, Segment
from inspector.budget import context_budget
from inspector.highlight import SENTINEL_CHIP
from ui.views.conversation_view import ConversationView
from ui.views.request_view import RequestView


def narrator(store: Any) -> str:
    return next(r["eventId"] for r in views.request_rows(store)
                if r["protocol"] == "anthropic-messages-v1" and r["runtimeId"] == "narrator/main")


def load(qtbot: Any, view: RequestView, event_id: str) -> None:
    with qtbot.waitSignal(view.loaded, timeout=20000):
        view.show_request(event_id)


def open_conversation(qtbot: Any, view: RequestView) -> ConversationView:
    view.tabs.setCurrentWidget(view.conversation_view)
    qtbot.waitUntil(lambda: not view.conversation_view.building and bool(view.conversation_view.cards), timeout=10000)
    return view.conversation_view


def test_conversation_shows_each_message_unescaped(qtbot: Any, view: RequestView, store: Any) -> None:
    load(qtbot, view, narrator(store))
    conv = open_conversation(qtbot, view)
    assert len(conv.cards) == len(view.cards)
    heads = [w.head.text() for w in conv.cards]
    assert "tools" in heads[0] and "system prompt" in heads[1]
    assert all(f"#{i + 1}</b>" in h for i, h in enumerate(heads))
    current = next(w for w in conv.cards if w.card.label == "current input")
    message = view.detail.request.messages[-1].text
    shown = "".join(part.text() for part in current.parts)
    assert shown == message  # the recorded text itself: no JSON quotes or escapes
    system = next(w for w in conv.cards if w.card.kind == "system-prompt")
    texts = [p.text() for p in system.parts]
    assert any("\n" in t for t in texts) and not any("\\n" in t for t in texts)
    # The breakpoints are chips, in the card header too.
    assert SENTINEL_CHIP in system.head.text()


def test_a_long_part_opens_on_request(qtbot: Any, view: RequestView, store: Any) -> None:
    load(qtbot, view, narrator(store))
    conv = open_conversation(qtbot, view)
    part = next(p for w in conv.cards for p in w.parts if p.segment.collapsed)
    assert not part.expanded and "open ▸" in part.text()
    assert part.toggle is not None
    part.toggle.click()
    assert part.expanded
    assert part.text() == part.display
    assert part.text().startswith(part.segment.text[:20])


def test_cards_are_built_a_few_at_a_time(qtbot: Any) -> None:
    conv = ConversationView()
    qtbot.addWidget(conv)
    conv.resize(600, 400)
    conv.show()
    text = "第一行\nline two\n" * 20
    cards = [Card(i, "user", f"history › user #{i}", "history-message", "position", 10, 10, 0.001,
                  (Segment(None, None, text, 10, 10, False, ""),)) for i in range(400)]
    conv.set_cards(cards, True)
    # Nothing is built before the event loop turns (the tab is drawn first), then a few at a time.
    assert conv.cards == [] and conv.building
    qtbot.waitUntil(lambda: len(conv.cards) > 0, timeout=5000)
    assert len(conv.cards) < len(cards)
    qtbot.waitUntil(lambda: not conv.building, timeout=20000)
    assert len(conv.cards) == len(cards)
    assert conv.highlight("LINE TWO") == 400 * 20
    # Replacing the cards deletes the old ones a few at a time too.
    conv.set_cards(cards[:2], True)
    assert conv._graveyard
    qtbot.waitUntil(lambda: not conv._graveyard and not conv.building, timeout=20000)
    assert len(conv.cards) == 2


def test_json_tabs_wrap_and_unescape(qtbot: Any, view: RequestView, store: Any) -> None:
    load(qtbot, view, narrator(store))
    pane = view.kernel_pane
    view.tabs.setCurrentWidget(pane)
    qtbot.waitUntil(lambda: pane.pending is None and "messages" in pane.shown_text(), timeout=10000)
    assert pane.wrap_box.isChecked()
    escaped = pane.shown_text()
    assert "\\n" in escaped
    pane.unescape_box.setChecked(True)
    qtbot.waitUntil(lambda: pane.pending is None and '"""' in pane.shown_text(), timeout=10000)
    shown = pane.shown_text()
    assert "<world-lore>\\n" in escaped and "<world-lore>\\n" not in shown
    assert "<world-lore>\n" in shown.replace("        ", "")
    pane.unescape_box.setChecked(False)
    qtbot.waitUntil(lambda: pane.pending is None and "\\n" in pane.shown_text(), timeout=10000)
    # Provider bodies offer the same toggle.
    assert all(not p.unescape_box.isHidden() for p in view.provider_panes)


def test_highlight_search_marks_hits_in_the_open_request(qtbot: Any, view: RequestView, store: Any) -> None:
    load(qtbot, view, narrator(store))
    assert view.select_node(lambda n: n.kind == "system-prompt")
    hits = view.highlight_search("runtime")  # "[RUNTIME]" in the preamble: ASCII case ignored
    assert hits > 0
    assert len(view.text_pane.editor.extraSelections()) == hits
    conv = open_conversation(qtbot, view)
    assert view.tabs.currentWidget() is conv
    assert view.highlight_search("RUNTIME") >= hits
    assert any("background:" in p.label.text() and p.label.textFormat() == Qt.TextFormat.RichText
               for w in conv.cards for p in w.parts)
    # A pane filled later gets the marks when it is filled.
    view.tabs.setCurrentWidget(view.raw_pane)
    qtbot.waitUntil(lambda: view.raw_pane.pending is None, timeout=10000)
    assert view.raw_pane.editor.extraSelections()
    assert view.highlight_search("") == 0
    assert not view.raw_pane.editor.extraSelections()
    # A pane off screen is cleared (or marked) when it is shown again.
    view.tabs.setCurrentIndex(0)
    assert not view.text_pane.editor.extraSelections()
    assert not any("background:" in p.label.text() and p.label.textFormat() == Qt.TextFormat.RichText
                   for w in conv.cards for p in w.parts)


def test_budget_bar_shows_the_window_and_max_tokens(qtbot: Any, view: RequestView, store: Any) -> None:
    load(qtbot, view, narrator(store))
    bar = view.budget_bar
    assert bar.isVisible()
    b = view.budget
    assert b is not None and b.known
    assert f"{b.window:,}" in bar.text() and f"{b.requested_output:,}" in bar.text()
    assert "max_tokens" in bar.text()
    assert "https://" in bar.toolTip()


def test_budget_bar_says_an_unknown_model_is_unknown(qtbot: Any, view: RequestView) -> None:
    view.budget_bar.set_budget(context_budget("llama-local", 5_000, "counted", 512, "max_tokens", None))
    assert "not known" in view.budget_bar.text() and "llama-local" in view.budget_bar.text()
    assert "%" not in view.budget_bar.text()


def test_budget_bar_says_what_is_over(qtbot: Any, view: RequestView) -> None:
    from inspector.cache.model_limits import ModelLimits

    limits = ModelLimits(("m",), 1_000, 500, True, "https://example.test", None)
    view.budget_bar.set_budget(context_budget("m", 900, "counted", 400, "max_tokens", (limits, "m")))
    assert "over the context window" in view.budget_bar.text()


def test_ctrl_f_finds_in_the_conversation(qtbot: Any, view: RequestView, store: Any) -> None:
    load(qtbot, view, narrator(store))
    conv = open_conversation(qtbot, view)
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert conv.find_edit.isVisible()
    qtbot.keyClicks(conv.find_edit, "world-lore")
    qtbot.waitUntil(lambda: "matches" in conv.find_status.text(), timeout=5000)
    assert any(p.label.textFormat() == Qt.TextFormat.RichText for w in conv.cards for p in w.parts)
    qtbot.keyClick(conv.find_edit, Qt.Key.Key_Escape)
    assert not conv.find_edit.isVisible()
    assert not any(p.label.textFormat() == Qt.TextFormat.RichText for w in conv.cards for p in w.parts)
    # Closing the find line marks the request's search text again.
    view.highlight_search("RUNTIME")
    qtbot.keyClick(view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(conv.find_edit, "world-lore")
    qtbot.waitUntil(lambda: "matches" in conv.find_status.text(), timeout=5000)
    qtbot.keyClick(conv.find_edit, Qt.Key.Key_Escape)
    marked = [p.label.text() for w in conv.cards for p in w.parts if p.label.textFormat() == Qt.TextFormat.RichText]
    assert marked and all("world-lore</span>" not in t for t in marked) and any("RUNTIME</span>" in t for t in marked)


def test_a_card_copies_its_recorded_text(qtbot: Any, view: RequestView, store: Any) -> None:
    from PySide6.QtGui import QGuiApplication

    from inspector.covel import markers

    load(qtbot, view, narrator(store))
    conv = open_conversation(qtbot, view)
    current = next(w for w in conv.cards if w.card.label == "current input")
    current.copy_button.click()
    copied = QGuiApplication.clipboard().text()
    assert copied.startswith(view.detail.request.messages[-1].text)
    # Its cache breakpoint is the sentinel the provider was sent, not the chip shown.
    assert copied.endswith(markers.CACHE_SENTINEL) and SENTINEL_CHIP not in copied
