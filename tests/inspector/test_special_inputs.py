"""Every loader refuses a FIFO or a device without opening it (opening one blocks forever)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.cache.rules import RulesError, load_rules
from inspector.writing_agent.scenario import ScenarioError, load_scenario
from resources import resource_path

ORDER = resource_path("samples", "writing_agent", "order.json")


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.json"
    os.mkfifo(path)
    return path


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    # A subprocess under a timeout: if a loader did open the pipe, the test fails instead of hanging.
    return subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True, text=True, timeout=60)


def test_the_rules_loader_refuses_a_fifo(fifo):
    with pytest.raises(RulesError, match="named pipe"):
        load_rules(fifo)


def test_the_scenario_loader_refuses_a_fifo(fifo):
    with pytest.raises(ScenarioError, match="named pipe"):
        load_scenario(fifo)


@pytest.mark.parametrize("which", ["order", "assemble", "rules"])
def test_commands_refuse_a_fifo_in_one_line(fifo, tmp_path, which):
    if which == "order":
        done = _cli("order", str(fifo))
    elif which == "assemble":
        done = _cli("assemble", str(ORDER), str(fifo), "--slot", "auditor")
    else:
        done = _cli("cache", str(tmp_path / "missing.db"), "--rules", str(fifo))
    assert done.returncode != 0
    assert "named pipe (FIFO), not a regular file" in done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
