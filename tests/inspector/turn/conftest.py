"""Fixtures of the turn tests: the shared read-only demo store and a fresh purpose-built file."""

from __future__ import annotations

import pytest
from turn_rows import MAIN, Db

from inspector.store import open_store


@pytest.fixture(scope="module")
def demo(demo_store):
    store = open_store(demo_store)
    yield store
    store.close()


@pytest.fixture(scope="module")
def executions(demo):
    """The main session's executions in order: player turns 1–5, the retry, player turns 6–12."""
    return demo.turns(MAIN)


@pytest.fixture
def db(tmp_path) -> Db:
    return Db(tmp_path / "covel.db")
