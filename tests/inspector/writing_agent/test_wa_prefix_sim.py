"""Prefix simulation: hysteresis keeps the cached prefix; the code's window breaks it every turn."""

import pytest

from inspector.writing_agent.assembly import AssemblyOptions, assemble
from inspector.writing_agent.blackboard import Blackboard, items_from_data
from inspector.writing_agent.history import HistoryOptions
from inspector.writing_agent.order import parse_context_order, read_context_order
from inspector.writing_agent.assembly import prepare
from inspector.writing_agent.prefix_sim import compare_results, simulate_prefix, turn_rows
from inspector.writing_agent.scenario import load_scenario
from resources import resource_path

SAMPLE = resource_path("samples", "writing_agent")


def synthetic(turns, projection="fields", before="人设"):
    history = "\n\n".join(f"## {'用户' if i % 2 == 0 else '助手'}\n\n第{i}段" for i in range(turns))
    order = parse_context_order({"slots": [{"ref": "gm", "inserts": [
        {"ref": "persona"}, {"ref": "设计.x"}, {"ref": "对话.历史", "projection": projection},
        {"ref": "变量.当前"}, {"ref": "用户.最新输入"}]}]})
    board = Blackboard(items_from_data({"设计.x": before, "对话.历史": history, "变量.当前": "HP 3",
                                        "用户.最新输入": "最后的输入"}))
    return order, board


def test_hysteresis_breaks_only_when_the_cut_steps():
    order, board = synthetic(30)
    sim = simulate_prefix(order, board, "gm", AssemblyOptions(persona="P"))
    assert [row.turn for row in sim.rows] == list(range(31))
    # Turn 0's fallback history is the user's first block, which turn 1 then has as real history,
    # so the first break is the first cut: n=5, cuts at 11, 15, 20, 25, 30.
    assert sim.break_turns == (11, 15, 20, 25, 30)
    row = sim.rows[11]
    assert row.reason == "history cut moved: first kept block 0 → 5" and row.break_source.startswith("chatHistory#")
    assert (row.history_start, row.history_kept) == (5, 6)
    healthy = sim.rows[12]
    assert not healthy.broke and healthy.shared_chars == healthy.expected_chars > 0 and healthy.reason == ""


def test_code_window_breaks_every_turn_past_n():
    order, board = synthetic(30)
    sim = simulate_prefix(order, board, "gm", AssemblyOptions(persona="P", history=HistoryOptions.code()))
    assert sim.break_turns == tuple(range(6, 31))
    ours = simulate_prefix(order, board, "gm", AssemblyOptions(persona="P"))
    assert ours.shared_tokens > sim.shared_tokens


def test_kept_count_marker_breaks_every_turn_after_the_first_cut():
    order, board = synthetic(20)
    sim = simulate_prefix(order, board, "gm", AssemblyOptions(persona="P", history=HistoryOptions(marker="kept")))
    assert sim.break_turns == tuple(range(11, 21))
    assert sim.rows[12].reason == "history marker changed"


def test_boundary_option_moves_the_first_cut():
    order, board = synthetic(20)
    sim = simulate_prefix(order, board, "gm", AssemblyOptions(persona="P", history=HistoryOptions(boundary=">=")))
    assert sim.break_turns == (10, 15, 20)


def test_shared_prefix_counts():
    order, board = synthetic(8)
    previous = assemble(order, board, "gm", turn=4, options=AssemblyOptions(persona="P"))
    current = assemble(order, board, "gm", turn=5, options=AssemblyOptions(persona="P"))
    row = compare_results(previous, current, "o200k_base")
    stable = [m for m in previous.messages if m.bag in (None, "before", "history")]
    assert row.shared_messages == len(stable)
    assert row.expected_chars == sum(len(m.content) for m in stable)
    assert row.shared_tokens >= sum(m.tokens for m in stable)
    assert row.total_tokens == current.total_tokens and not row.broke


def test_before_bag_change_is_named():
    order, board = synthetic(4)
    a = assemble(order, board, "gm", options=AssemblyOptions(persona="P"))
    changed = board.with_value("设计.x", "人设（改）")
    b = assemble(order, changed, "gm", options=AssemblyOptions(persona="P"))
    row = compare_results(a, b, "o200k_base")
    assert row.broke and row.reason == "before bag changed: ## 设计.x" and row.break_source == "worldBookBefore"


def test_sample_simulation_and_json():
    order = read_context_order((SAMPLE / "order.json").read_text(encoding="utf-8"))
    scenario = load_scenario(SAMPLE / "scenario.yaml")
    sim = simulate_prefix(order, scenario, "world-simulator")
    assert len(sim.rows) == 62 and sim.break_turns == (1, 41, 60)
    data = sim.to_json()
    assert data["breakTurns"] == [1, 41, 60] and data["rows"][41]["broke"] is True
    part = simulate_prefix(order, scenario, "narrator", first_turn=10, last_turn=16)
    assert [r.turn for r in part.rows] == list(range(10, 17)) and part.break_turns == (11, 15)


@pytest.mark.parametrize("slot", ["auditor", "role-decide"])
def test_every_sample_slot_simulates(slot):
    order = read_context_order((SAMPLE / "order.json").read_text(encoding="utf-8"))
    sim = simulate_prefix(order, load_scenario(SAMPLE / "scenario.yaml"), slot)
    assert len(sim.rows) == 62 and all(r.total_tokens > 0 for r in sim.rows)


def test_rows_one_at_a_time_are_the_simulations_rows():
    order, board = synthetic(12)
    options = AssemblyOptions(persona="P")
    sim = simulate_prefix(order, board, "gm", options)
    prepared = prepare(order, board, "gm", options)
    assert tuple(turn_rows(prepared)) == sim.rows
    assert tuple(turn_rows(prepared, first_turn=3, last_turn=5)) == simulate_prefix(
        order, board, "gm", options, first_turn=3, last_turn=5).rows


def test_the_first_turn_caches_nothing_and_shares_are_of_tokens():
    order, board = synthetic(12)
    sim = simulate_prefix(order, board, "gm", AssemblyOptions(persona="P"))
    first, second = sim.rows[0], sim.rows[2]
    assert first.nothing_cached and first.repeated_fraction == 0
    assert not second.nothing_cached and second.repeated_fraction == second.shared_tokens / second.total_tokens
    assert sim.repeated_fraction == sim.shared_tokens / sim.total_tokens
    empty = type(sim)(sim.slot_ref, (), sim.encoding)
    assert empty.repeated_fraction is None
