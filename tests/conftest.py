import atexit
import os
import shutil
import stat
import tempfile
from pathlib import Path

import pytest

# Views are tested without a display; set before any Qt import.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# The per-user cache folder (the demo database, search indexes, kept cache analyses) is a fresh
# one for the run, so tests neither write the real one nor read what an earlier run kept there.
# Tests that need their own set XDG_CACHE_HOME themselves.
_TEST_CACHE = tempfile.mkdtemp(prefix="pi-test-cache-")
os.environ["XDG_CACHE_HOME"] = _TEST_CACHE
atexit.register(shutil.rmtree, _TEST_CACHE, ignore_errors=True)

# PostgreSQL servers, databases and the backend parametrisation, for core and view tests alike.
pytest_plugins = ["pg_fixtures"]


@pytest.fixture(scope="session")
def demo_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built-in demo store with its default arguments, generated once for the whole run and
    made read-only: every test reading it sees the same rows, and a test that would change it
    fails instead of spoiling the others (a test that damages a store copies it first)."""
    from inspector.demo import generate_demo

    path = tmp_path_factory.mktemp("demo-store") / "covel.db"
    generate_demo(path)
    path.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    return path
