"""Fixtures for the desktop app: a small realistic covel.db and isolated settings.

The database comes from ``inspector.demo.generate_demo`` when that module is present (it writes a
realistic save); otherwise ``covel_sample`` writes one row by row with sqlite3, in Covel's
newest schema. Tests read their expectations back through ``inspector.views`` so they hold for
either source.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox

from covel_sample import build_sample_store

def make_store_file(path: Path) -> Path:
    try:
        from inspector.demo import generate_demo  # type: ignore[attr-defined]
    except ImportError:
        return build_sample_store(path)
    generate_demo(path, turns=3, overwrite=True)
    return path


@pytest.fixture
def covel_db(tmp_path: Path) -> Path:
    return make_store_file(tmp_path / "covel.db")


@pytest.fixture
def sample_db(tmp_path: Path) -> Path:
    """Always the hand-built sample, for tests that depend on its exact shape."""
    folder = tmp_path / "sample"
    folder.mkdir()
    return build_sample_store(folder / "covel.db")


@pytest.fixture
def isolated_settings(qapp: Any, tmp_path: Path) -> Iterator[Path]:
    """Point QSettings (INI, user scope) at tmp_path and use a throwaway organisation name, so tests
    never read or write the real recent-files list."""
    app = qapp
    old_org, old_app = app.organizationName(), app.applicationName()
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    app.setOrganizationName("prompt-inspector-tests")
    app.setApplicationName("prompt-inspector-tests")
    yield tmp_path / "settings"
    app.setOrganizationName(old_org)
    app.setApplicationName(old_app)


@pytest.fixture
def store(covel_db: Path) -> Iterator[Any]:
    """The demo store, open read-only for one test."""
    from inspector.store import open_store

    with open_store(covel_db) as opened:
        yield opened


@pytest.fixture
def view(qtbot: Any, store: Any) -> Iterator[Any]:
    """A shown RequestView over ``store``, with its own task manager."""
    from ui.views.request_view import RequestView
    from ui.workers import TaskManager

    tasks = TaskManager()
    widget = RequestView(tasks, lambda: store)
    qtbot.addWidget(widget)
    widget.resize(1000, 800)
    widget.show()
    yield widget
    tasks.shutdown()


@pytest.fixture
def errors(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Capture QMessageBox.warning instead of opening a modal dialog."""
    seen: list[tuple[str, str]] = []

    def fake(_parent: Any, title: str, text: str, *_args: Any, **_kwargs: Any) -> QMessageBox.StandardButton:
        seen.append((title, text))
        return QMessageBox.StandardButton.Ok

    monkeypatch.setattr(QMessageBox, "warning", staticmethod(fake))
    return seen


@pytest.fixture(params=["en", "zh_CN"])
def language(request: pytest.FixtureRequest, qapp: Any) -> Iterator[str]:
    """The UI's language for one test, each of the two the app ships, English again after."""
    from ui import i18n
    from ui.views import part_names

    i18n.install_translators(qapp, request.param)
    part_names.clear_cache()
    try:
        yield request.param
    finally:
        i18n.install_translators(qapp, "en")
        part_names.clear_cache()


@pytest.fixture
def chinese(qapp: Any) -> Iterator[None]:
    """The app's translators in Simplified Chinese for the test, English again after it."""
    from ui import i18n

    assert i18n.install_translators(qapp, "zh_CN") == "zh_CN"
    try:
        yield
    finally:
        i18n.install_translators(qapp, "en")
