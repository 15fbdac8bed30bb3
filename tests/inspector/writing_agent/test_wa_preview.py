"""OrderPreview: the editor's live preview over the sample."""

import pytest

from inspector.writing_agent.assembly import AssemblyOptions
from inspector.writing_agent.history import HistoryOptions
from inspector.writing_agent.order import OrderEditError, read_context_order
from inspector.writing_agent.preview import OrderPreview
from inspector.writing_agent.scenario import load_scenario
from resources import resource_path

SAMPLE = resource_path("samples", "writing_agent")


@pytest.fixture()
def preview():
    order = read_context_order((SAMPLE / "order.json").read_text(encoding="utf-8"))
    return OrderPreview(order, load_scenario(SAMPLE / "scenario.yaml"), "world-simulator")


def test_edit_updates_result_and_strip(preview):
    before = preview.result()
    assert preview.result() is before  # cached until the next edit
    assert preview.simulation().break_turns == (1, 41, 60)
    result = preview.apply({"action": "set_projection", "slotRef": "world-simulator", "index": 4, "projection": "fields"})
    assert result.changes == []
    after = preview.result()
    assert after.history.limit == 5 and after.total_tokens < before.total_tokens
    assert preview.simulation().break_turns[:3] == (1, 11, 15)


def test_rejected_edit_leaves_the_preview_alone(preview):
    order = preview.order
    with pytest.raises(OrderEditError, match="插入项下标越界"):
        preview.apply({"action": "move", "slotRef": "world-simulator", "index": 30, "delta": 1})
    assert preview.order is order


def test_turn_slider_slot_and_options(preview):
    assert preview.turn_count == 61
    assert preview.result(10).turn == 10 and preview.result(10).history.total_blocks == 10
    preview.set_slot("narrator")
    assert preview.result().slot_ref == "narrator"
    preview.set_options(AssemblyOptions(history=HistoryOptions.code()))
    assert len(preview.simulation().break_turns) > 40
    changes = preview.set_order(read_context_order({"slots": [{"ref": "narrator", "inserts": [
        {"ref": "用户.最新输入"}, {"ref": "persona"}]}]}))
    assert [c.kind for c in changes] == ["persona-pinned", "renumbered"]  # orders were 99, 99
    assert [s.ref for s in preview.result().segments] == ["persona", "用户.最新输入"]
