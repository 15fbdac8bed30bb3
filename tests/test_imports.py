"""Each command imports what it uses: a command that lists rows of a SQLite store loads no
PostgreSQL driver, no SQLAlchemy (a SQLite file is read with ``sqlite3`` alone), no numerical
library, no tokenizer and no other engine; ``--help`` does not even
load the database layer. Structural, not timed: each command runs in a fresh interpreter, which
then lists the modules it loaded (speed is measured by ``benchmarks/cli_startup.py``)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Runs the command line as ``python -m inspector`` does, then prints the top-level modules and
# the inspector packages it loaded.
_PROBE = """
import json, runpy, sys
sys.argv = ["prompt-inspector", *json.loads(sys.argv[1])]
try:
    runpy.run_module("inspector", run_name="__main__")
except SystemExit as exc:
    assert exc.code in (0, None), exc.code
loaded = {name.split(".")[0] for name in sys.modules}
loaded |= {".".join(name.split(".")[:2]) for name in sys.modules if name.startswith("inspector.")}
sys.stderr.write("\\n" + json.dumps(sorted(loaded)) + "\\n")
"""

SERVER_DRIVER = {"psycopg", "psycopg_binary", "psycopg2", "sqlalchemy"}
NUMERICAL = {"numpy", "tiktoken", "tiktoken_ext"}
OTHER_ENGINES = {"inspector.zones", "inspector.prefix", "inspector.cache", "inspector.writing_agent",
                 "inspector.anatomy", "inspector.wire", "yaml", "PySide6"}


def _loaded(argv: list[str], cache: Path | None = None) -> set[str]:
    """What ``argv`` loaded; ``cache``: the cache folder it keeps things in (the tests' own by default)."""
    env = dict(os.environ)
    if cache is not None:
        env["XDG_CACHE_HOME"] = str(cache)
    done = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(argv)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stderr.strip().splitlines()[-1]))


@pytest.fixture(scope="module")
def demo(demo_sqlite: Path) -> tuple[str, str, str]:
    with sqlite3.connect(f"file:{demo_sqlite}?mode=ro", uri=True) as con:
        session, event = con.execute("SELECT session_id, id FROM trace_events WHERE type = 'llm.calling' "
                                     "ORDER BY created_at, seq LIMIT 1").fetchone()
    return str(demo_sqlite), session, event


def test_help_loads_no_database_layer_and_no_engine() -> None:
    loaded = _loaded(["--help"])
    assert "inspector.cli" in loaded
    assert not loaded & (SERVER_DRIVER | NUMERICAL | OTHER_ENGINES | {"inspector.store"})


@pytest.mark.parametrize("command", ["sessions", "turns", "requests"])
def test_listing_a_sqlite_store_loads_no_driver_numbers_or_engine(demo, command: str) -> None:
    db, session, _event = demo
    argv = {"sessions": ["sessions", db], "turns": ["turns", db, session], "requests": ["requests", db]}[command]
    loaded = _loaded(argv)
    assert "inspector.store" in loaded  # the command did read the store
    assert not loaded & (SERVER_DRIVER | NUMERICAL | OTHER_ENGINES)


def test_show_loads_the_tokenizer_only_for_exact_counts_not_counted_before(demo, tmp_path: Path) -> None:
    db, _session, event = demo
    estimates = _loaded(["show", db, event, "--no-exact"], tmp_path)
    assert "inspector.anatomy" in estimates
    assert not estimates & (SERVER_DRIVER | NUMERICAL)
    exact = _loaded(["show", db, event], tmp_path)
    assert "tiktoken" in exact and not exact & SERVER_DRIVER
    # The counts were kept (inspector.kept_counts): the same request again needs no tokenizer.
    again = _loaded(["show", db, event], tmp_path)
    assert "inspector.anatomy" in again and not again & (SERVER_DRIVER | NUMERICAL)


@pytest.mark.parametrize("command", ["prefix", "cache"])
def test_reports_on_a_sqlite_store_load_no_server_layer(demo, command: str) -> None:
    db, session, _event = demo
    loaded = _loaded({"prefix": ["prefix", db, "--json"], "cache": ["cache", db, "--session", session]}[command])
    assert "inspector.store" in loaded
    assert not loaded & SERVER_DRIVER
