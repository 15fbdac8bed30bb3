"""The layers the architecture promises, as the import-linter contracts in pyproject.toml state them.

Run as a test so that CI (which runs the README's test command) enforces them, and a developer
sees a broken layer where they see every other failure."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_contracts_hold():
    # A child process: import-linter builds its import graph from the source files, and the
    # test's own imports (Qt, the app) must not stand in for what the code imports.
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports; "
         "sys.exit(lint_imports(no_cache=True, no_logo=True))"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout
