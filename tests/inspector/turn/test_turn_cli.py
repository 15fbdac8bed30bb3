"""``prompt-inspector turn DB TURN_ID [--json]`` on the demo database, as a user runs it."""

from __future__ import annotations

import json

import pytest

from inspector.cli import main
from inspector.cli.registry import NAMES
from inspector.store import open_store

MAIN = "demo-lantern-deepseek"
RUNTIME_KEYS = {"runtimeId", "pluginId", "status", "startedAt", "endedAt", "group", "calls", "tools"}
CALL_KEYS = {"eventId", "attempt", "step", "model", "provider", "inputTokens", "cachedTokens"}


@pytest.fixture(scope="module")
def demo_db(demo_store):
    return demo_store


@pytest.fixture(scope="module")
def turn_ids(demo_db):
    with open_store(demo_db) as store:
        return [t.turn_id for t in store.turns(MAIN)]


def run(capfdbinary, *argv):
    code = main([str(a) for a in argv])
    out, err = capfdbinary.readouterr()
    return code, out.decode("utf-8"), err.decode("utf-8")


def test_turn_is_a_subcommand() -> None:
    assert "turn" in NAMES


def test_turn_json_follows_the_contract(demo_db, turn_ids, capfdbinary) -> None:
    code, out, err = run(capfdbinary, "turn", demo_db, turn_ids[0], "--json")
    assert code == 0 and err == ""
    doc = json.loads(out)
    assert set(doc) == {"turnId", "origin", "commitStatus", "stages", "unstaged"}
    assert (doc["turnId"], doc["origin"], doc["commitStatus"]) == (turn_ids[0], "player", "committed")
    assert [s["name"] for s in doc["stages"]] == ["pre-turn", "narrative", "post-turn"]
    assert doc["unstaged"] == []
    for stage in doc["stages"]:
        assert set(stage) == {"name", "runtimes"}
        for runtime in stage["runtimes"]:
            assert set(runtime) == RUNTIME_KEYS and runtime["status"] == "success"
            assert runtime["startedAt"] < runtime["endedAt"]
            for call in runtime["calls"]:
                assert set(call) == CALL_KEYS and call["provider"] == "deepseek"
            for tool in runtime["tools"]:
                assert set(tool) == {"name", "status"}
    post = doc["stages"][2]["runtimes"]
    assert {r["group"] for r in post} == {3}
    tracker = next(r for r in post if r["runtimeId"] == "char-creator/character-tracker")
    assert [(c["step"], c["attempt"]) for c in tracker["calls"]] == [(0, 0), (1, 0)]
    assert tracker["tools"] == [{"name": "character-upsert", "status": "completed"}]
    assert all(isinstance(c["inputTokens"], int) for c in tracker["calls"])


def test_turn_json_of_failure_and_retry(demo_db, turn_ids, capfdbinary) -> None:
    _, out, _ = run(capfdbinary, "turn", demo_db, turn_ids[4], "--json")
    post = json.loads(out)["stages"][2]["runtimes"]
    assert {r["runtimeId"]: r["status"] for r in post}["world-init/dimension-tracker"] == "failed"
    _, out, _ = run(capfdbinary, "turn", demo_db, turn_ids[5], "--json")
    retry = json.loads(out)
    assert retry["origin"] == "manual"
    assert [(s["name"], [r["runtimeId"] for r in s["runtimes"]]) for s in retry["stages"]] == [
        ("post-turn", ["world-init/dimension-tracker"])]
    _, out, _ = run(capfdbinary, "turn", demo_db, turn_ids[1], "--json")
    skipped = {r["runtimeId"]: r for r in json.loads(out)["stages"][2]["runtimes"]}["affinity/main"]
    assert skipped["status"] == "skipped" and skipped["calls"] == []


def test_turn_text_outline(demo_db, turn_ids, capfdbinary) -> None:
    code, text, _ = run(capfdbinary, "turn", demo_db, turn_ids[5])
    assert code == 0
    assert text.startswith(f"Turn 6\nturn {turn_ids[5]}  session {MAIN}\n")  # its name, then the full id
    assert "retry (retry_failed_runtimes) of turn " + turn_ids[4] in text
    assert "seeded: guide/main" in text and "stage post-turn" in text
    assert "tool dimension-update  completed" in text
    code, text, _ = run(capfdbinary, "turn", demo_db, turn_ids[8])
    lines = text.splitlines()
    stage_lines = [line for line in lines if line.startswith("stage ")]
    assert [line.split()[1] for line in stage_lines] == ["pre-turn", "narrative", "post-turn"]
    assert any("context.compacted: 10 messages" in line for line in lines)
    assert any(line.strip().startswith("player: ") for line in lines)


def test_turn_unknown_id(demo_db, capfdbinary) -> None:
    code, out, err = run(capfdbinary, "turn", demo_db, "no-such-turn")
    assert code == 2 and out == ""
    assert err.strip() == f"prompt-inspector: no turn 'no-such-turn' in {demo_db} (an id or the start of one)"


def test_turn_missing_database(tmp_path, capfdbinary) -> None:
    code, _, err = run(capfdbinary, "turn", tmp_path / "absent.db", "x")
    assert code == 2 and "does not exist" in err
