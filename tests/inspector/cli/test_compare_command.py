"""``compare DB EVENT_A EVENT_B [--json]``: the Compare view on the command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from inspector.numbering import shown_label

from inspector import views
from inspector.anatomy.compare import MOVED, compare_details
from inspector.cache.analysis import analyse_session
from inspector.cli import main
from inspector.store import open_store


def run(capfdbinary: Any, *argv: Any) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capfdbinary.readouterr()
    return code, out.decode("utf-8"), err.decode("utf-8")


@pytest.fixture(scope="module")
def depth_pair(demo_store: Path) -> Any:
    """A DeepSeek turn pair whose depth insertion moved with the growing history."""
    with open_store(demo_store) as store:
        for pair in analyse_session(store, "demo-lantern-deepseek").pairs:
            if pair.kind != "turn" or pair.previous_event_id is None:
                continue
            left = views.request_detail(store, pair.previous_event_id, exact=False)
            right = views.request_detail(store, pair.event_id, exact=False)
            if any(r.status == MOVED for r in compare_details(left, right).rows):
                return pair
    raise AssertionError("the demo has no moved depth insertion")


def test_json_names_the_analysis_first_difference(demo_store: Path, depth_pair: Any, capfdbinary: Any) -> None:
    code, out, err = run(capfdbinary, "compare", demo_store, depth_pair.previous_event_id, depth_pair.event_id,
                         "--json", "--no-exact")
    assert code == 0, err
    data = json.loads(out)
    assert (data["left"], data["right"]) == (depth_pair.previous_event_id, depth_pair.event_id)
    assert data["firstDifference"] == depth_pair.first_difference
    assert data["offset"] == depth_pair.offset and data["offsetUnit"] == "utf-16"
    assert (data["was"], data["now"]) == (depth_pair.was, depth_pair.now)
    assert data["counts"]["moved"] >= 1
    rows = data["rows"]
    at = data["firstDifferenceRows"]
    assert at["right"] is not None and rows[at["right"]]["right"] is not None
    moved = [r for r in rows if r["status"] == "moved"]
    assert moved and all(r["leftLabel"] and r["rightLabel"] for r in moved)
    assert sum(data["counts"].values()) == len(rows)


def test_text_shows_the_aligned_parts_numbered_from_one(demo_store: Path, depth_pair: Any, capfdbinary: Any) -> None:
    code, out, err = run(capfdbinary, "compare", demo_store, depth_pair.previous_event_id, depth_pair.event_id)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == ("Turn 2 · world-init/dimension-tracker · step 1 → "
                        "Turn 3 · world-init/dimension-tracker · step 1")
    assert lines[1] == f"left  {depth_pair.previous_event_id}"
    assert lines[2] == f"right {depth_pair.event_id}"
    assert f"first difference: {shown_label(depth_pair.first_difference)} at character " in out
    assert f"was: {json.dumps(depth_pair.was, ensure_ascii=False)}" in out
    assert f"now: {json.dumps(depth_pair.now, ensure_ascii=False)}" in out
    table = lines[lines.index("") + 1:]
    assert table[0].split()[:4] == ["#", "status", "section", "part"]
    assert table[1].split()[0] == "1" and table[-1].split()[0] == str(len(table) - 1)
    assert any(" moved " in line and " → " in line for line in table)
    assert sum("◀ first difference" in line for line in table) >= 1


def test_a_request_compared_with_itself_is_identical(demo_store: Path, depth_pair: Any, capfdbinary: Any) -> None:
    code, out, _ = run(capfdbinary, "compare", demo_store, depth_pair.event_id, depth_pair.event_id, "--json",
                       "--no-exact")
    data = json.loads(out)
    assert code == 0 and data["firstDifference"] is None and data["offset"] is None
    assert {r["status"] for r in data["rows"]} == {"equal"}
    code, out, _ = run(capfdbinary, "compare", demo_store, depth_pair.event_id, depth_pair.event_id, "--no-exact")
    assert "The provider reads both requests the same." in out


@pytest.mark.parametrize("which", [0, 1])
def test_an_unknown_event_is_a_one_line_error(demo_store: Path, depth_pair: Any, capfdbinary: Any, which: int) -> None:
    ids = [depth_pair.previous_event_id, depth_pair.event_id]
    ids[which] = "no-such-event"
    code, out, err = run(capfdbinary, "compare", demo_store, *ids)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "no request 'no-such-event'" in err
