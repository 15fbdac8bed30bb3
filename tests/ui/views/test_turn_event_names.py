"""The stepper names a trace row in words ("Model call", "模型调用"), the core's name for its type
(inspector.turn.labels.event_name), with the recorded type one hover away; a type the core does not
know is shown as recorded."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from inspector.store import open_store
from inspector.turn.builder import build_turn
from ui import i18n
from ui.views import part_names
from ui.views.turn_stepper import TurnView
from ui.views.turn_texts import event_type_text
from ui.workers import TaskManager

MAIN = "demo-lantern-deepseek"


@pytest.fixture
def view(qtbot: Any, demo_store: Path) -> Iterator[tuple[TurnView, Any]]:
    tasks = TaskManager()
    with open_store(demo_store) as store:
        v = TurnView(tasks, lambda: store)
        qtbot.addWidget(v)
        v.resize(1200, 800)
        v.show()
        qtbot.waitExposed(v)
        turn_id = next(t for t in store.turns(MAIN) if t.number == 2).turn_id
        try:
            yield v, build_turn(store, MAIN, turn_id)
        finally:
            v.pause()
            tasks.shutdown()


@pytest.fixture
def chinese(qapp: Any) -> Iterator[None]:
    i18n.install_translators(qapp, "zh_CN")
    part_names.clear_cache()
    try:
        yield
    finally:
        i18n.install_translators(qapp, "en")
        part_names.clear_cache()


def _title_at(v: TurnView, turn: Any, etype: str) -> str:
    v.step_to(next(e.index for e in turn.events if e.type == etype))
    return v.event_title.text()


def test_the_event_title_says_what_the_row_is_in_words(view: tuple[TurnView, Any]) -> None:
    v, turn = view
    v.set_turn(turn)
    for etype, words in (("llm.calling", "Model call"), ("llm.responded", "Model response"),
                         ("runtime.started", "Runtime started"), ("turn.started", "Turn started")):
        title = _title_at(v, turn, etype)
        assert words in title and etype not in title, title
        assert v.event_title.toolTip().startswith(etype + "\n")  # the recorded type on hover
    tool = next(e for e in turn.events if e.type.startswith("tool."))
    assert "Tool " in _title_at(v, turn, tool.type)


def test_the_event_title_in_chinese(view: tuple[TurnView, Any], chinese: None) -> None:
    v, turn = view
    v.set_turn(turn)
    title = _title_at(v, turn, "llm.calling")
    assert "模型调用" in title and "llm.calling" not in title and "Model call" not in title
    assert "模型响应" in _title_at(v, turn, "llm.responded")


def test_an_unknown_type_is_shown_as_recorded(qapp: Any) -> None:
    assert event_type_text("brand.new") == "brand.new"
    assert event_type_text("context.pruned") == "History pruned"
