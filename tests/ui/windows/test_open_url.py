"""Opening a Covel store by database URL: the dialog, passwords kept out of settings, the
keyring, and the messages for a server that refuses."""

from __future__ import annotations

import socket
import sys
import tempfile
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QDialogButtonBox
from sqlalchemy.engine import make_url

from inspector.store.urls import BadUrlError, credential_key, short_name, shown_url, split_url
from ui import credentials
from ui.windows.main_window import MainWindow
from ui.windows.open_url_dialog import OpenUrlDialog


class _FakeKeyring:
    """The part of the ``keyring`` package the app uses, in memory."""

    def __init__(self) -> None:
        self.entries: dict[tuple[str, str], str] = {}

    def get_keyring(self) -> object:
        return self

    def get_password(self, service: str, user: str) -> str | None:
        return self.entries.get((service, user))

    def set_password(self, service: str, user: str, password: str) -> None:
        self.entries[(service, user)] = password

    def delete_password(self, service: str, user: str) -> None:
        self.entries.pop((service, user), None)


@pytest.fixture
def fake_keyring(monkeypatch: pytest.MonkeyPatch) -> _FakeKeyring:
    ring = _FakeKeyring()
    module = types.ModuleType("keyring")
    for name in ("get_keyring", "get_password", "set_password", "delete_password"):
        setattr(module, name, getattr(ring, name))
    backends = types.ModuleType("keyring.backends")
    fail = types.ModuleType("keyring.backends.fail")
    fail.Keyring = type("Keyring", (), {})  # type: ignore[attr-defined]
    backends.fail = fail  # type: ignore[attr-defined]
    module.backends = backends  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "keyring", module)
    monkeypatch.setitem(sys.modules, "keyring.backends", backends)
    monkeypatch.setitem(sys.modules, "keyring.backends.fail", fail)
    return ring


@pytest.fixture
def no_keyring(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "keyring", None)  # import fails


@pytest.fixture
def window(qtbot: Any, isolated_settings: Path, errors: list[tuple[str, str]]) -> Iterator[MainWindow]:
    win = MainWindow(remember_layout=False)
    qtbot.addWidget(win)
    win.resize(1000, 650)
    win.show()
    yield win
    win.shutdown()


def _open(qtbot: Any, win: MainWindow, url: str, *, ok: bool = True) -> None:
    with qtbot.waitSignal(win.openFinished, timeout=20000) as blocker:
        win.open_database(url)
    assert blocker.args == [ok]


# --- URLs without a server -------------------------------------------------------------------

def test_the_password_is_taken_out_of_a_url() -> None:
    split = split_url(" postgresql://ann:p%40ss@db.example:5433/covel?options=-csearch_path%3Dgame ")
    assert split.public == "postgresql://ann@db.example:5433/covel?options=-csearch_path%3Dgame"
    assert split.password == "p@ss"
    assert make_url(split.with_password("p@ss")).password == "p@ss"
    assert split.with_password(None) == split.public
    assert shown_url(split.with_password("p@ss")) == "postgresql://ann:***@db.example:5433/covel?options=-csearch_path%3Dgame"
    assert credential_key(split.public) == ("prompt-inspector:postgresql://db.example:5433", "ann")
    assert short_name(split.public) == "covel/game @ db.example"
    assert short_name("postgresql://h/covel") == "covel @ h"


@pytest.mark.parametrize("text", ["", "covel.db", "postgresql://host:notaport/db", "://"])
def test_what_is_not_a_url_says_so(text: str) -> None:
    with pytest.raises(BadUrlError):
        split_url(text)


def test_dialog_moves_a_pasted_password_out_of_the_url(qtbot: Any, no_keyring: None) -> None:
    dialog = OpenUrlDialog(["postgresql://old@h/db"])
    qtbot.addWidget(dialog)
    dialog.url_box.setCurrentText("postgresql://bob:hunter2@db.local/covel")
    assert dialog.url_box.currentText() == "postgresql://bob@db.local/covel"
    assert dialog.password.text() == "hunter2"
    assert dialog.public_url() == "postgresql://bob@db.local/covel"
    assert make_url(dialog.connect_url()).password == "hunter2"
    assert not dialog.remember.isEnabled()  # no keyring: nothing can be remembered


def test_dialog_refuses_what_is_not_a_url(qtbot: Any, no_keyring: None) -> None:
    dialog = OpenUrlDialog([])
    qtbot.addWidget(dialog)
    dialog.url_box.setCurrentText("/home/me/covel.db")
    assert not dialog.buttons.button(QDialogButtonBox.StandardButton.Open).isEnabled()
    assert dialog.problem.isVisibleTo(dialog) and "postgresql://" in dialog.problem.text()
    dialog.url_box.setCurrentText("postgresql://h/db")
    assert dialog.buttons.button(QDialogButtonBox.StandardButton.Open).isEnabled()
    assert not dialog.problem.isVisibleTo(dialog)


def test_dialog_keeps_a_remembered_password_in_the_keyring(qtbot: Any, fake_keyring: _FakeKeyring) -> None:
    dialog = OpenUrlDialog([])
    qtbot.addWidget(dialog)
    dialog.url_box.setCurrentText("postgresql://bob@db.local:5432/covel")
    dialog.password.setText("s3cret")
    dialog.remember.setChecked(True)
    dialog.accept()
    assert fake_keyring.entries == {("prompt-inspector:postgresql://db.local:5432", "bob"): "s3cret"}
    again = OpenUrlDialog(["postgresql://bob@db.local:5432/covel"])
    qtbot.addWidget(again)
    assert again.password.text() == "s3cret" and again.remember.isChecked()
    again.remember.setChecked(False)
    again.accept()
    assert fake_keyring.entries == {}


def test_recent_urls_survive_pruning_and_files_do_not(isolated_settings: Path, tmp_path: Path) -> None:
    from ui.settings import Settings

    settings = Settings()
    gone = tmp_path / "gone.db"
    gone.write_bytes(b"")
    settings.add_recent(gone)
    settings.add_recent("postgresql://bob@db.local/covel")
    gone.unlink()
    kept, removed = settings.prune_recent()
    assert kept == ["postgresql://bob@db.local/covel"] and removed == [str(gone.resolve())]


def test_a_refused_connection_is_reported_plainly(qtbot: Any, window: MainWindow,
                                                  errors: list[tuple[str, str]], no_keyring: None) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    _open(qtbot, window, f"postgresql://ann:topsecret@127.0.0.1:{port}/covel", ok=False)
    title, text = errors[-1]
    assert "connection refused" in text and "topsecret" not in text
    assert text.startswith(f"postgresql://ann@127.0.0.1:{port}/covel could not be opened.")


# --- against a server --------------------------------------------------------------------------

@pytest.mark.postgres
def test_open_a_store_by_url_and_remember_it_without_the_password(
        qtbot: Any, window: MainWindow, demo_postgres: str, isolated_settings: Path, no_keyring: None) -> None:
    password = make_url(demo_postgres).password
    assert password
    _open(qtbot, window, demo_postgres)
    public = split_url(demo_postgres).public
    assert window.navigator.model.rowCount() == 4
    assert window.path is None and window.target == demo_postgres
    database = make_url(demo_postgres).database
    assert window.windowTitle() == f"{database}/demo @ 127.0.0.1 — Prompt Inspector"
    assert window.settings.recent_files()[0] == public
    window.settings.sync()
    stored = "".join(p.read_text(encoding="utf-8") for p in isolated_settings.rglob("*") if p.is_file())
    assert "postgresql" in stored and password not in stored
    # Reload reopens with the password held in memory.
    _open(qtbot, window, window.target)  # type: ignore[arg-type]
    assert window.navigator.model.rowCount() == 4


@pytest.mark.postgres
def test_wrong_credentials_ask_for_the_password_again(
        qtbot: Any, window: MainWindow, demo_postgres: str, no_keyring: None) -> None:
    public = split_url(demo_postgres).public
    asked: list[tuple[list[str], str, str]] = []
    password = make_url(demo_postgres).password

    def answer(recent: list[str], url: str = "", problem: str = "") -> tuple[str, str] | None:
        asked.append((recent, url, problem))
        return (split_url(public).with_password(password), public) if len(asked) == 1 else None

    window.ask_url = answer
    with qtbot.waitSignal(window.storeOpened, timeout=20000):
        window.open_database(split_url(public).with_password("wrong-password"))
    recent, url, problem = asked[0]
    assert url == public and "refused the credentials" in problem and "wrong-password" not in problem
    assert window.navigator.model.rowCount() == 4


@pytest.mark.postgres
def test_a_password_from_the_keyring_is_used(
        qtbot: Any, window: MainWindow, demo_postgres: str, fake_keyring: _FakeKeyring) -> None:
    split = split_url(demo_postgres)
    assert credentials.store_password(split.public, split.password or "")
    _open(qtbot, window, split.public)
    assert window.navigator.model.rowCount() == 4


@pytest.mark.postgres
def test_a_server_that_goes_away_keeps_the_tree_and_is_retried(
        qtbot: Any, window: MainWindow, no_keyring: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server of its own (the shared one must stay up): opened, stopped while browsing, started
    again. What was listed stays, no error dialog appears, and the failed level loads once the
    server is back."""
    sys.path.insert(0, str(Path(__file__).parents[2] / "inspector" / "store"))
    import pg_cluster

    from inspector.demo.pg import generate_demo_pg
    from ui.models import navigator_nodes as nav
    from ui.models.navigator_tree import NavigatorModel

    bindir = pg_cluster.find_bindir()
    assert bindir is not None, "PostgreSQL binaries are needed for this test"
    # Directly under the temporary folder: the server user must be able to reach it.
    directory = Path(tempfile.mkdtemp(prefix="pi-test-pg-retry-"))
    cluster = pg_cluster.start(directory, bindir)
    try:
        generate_demo_pg(cluster.url)
        monkeypatch.setattr(NavigatorModel, "RETRY_SECONDS", 0.3)
        _open(qtbot, window, cluster.url)
        model = window.navigator.model
        sessions = list(model.root.children)
        assert len(sessions) == 4
        pg_cluster.pause(directory, bindir)
        with qtbot.waitSignal(model.connectionChanged, timeout=20000) as lost:
            model.fetch(sessions[0])
        assert "cannot connect" in lost.args[0]
        qtbot.waitUntil(window.connection_label.isVisible, timeout=2000)
        assert sessions[0].state == nav.IDLE and list(model.root.children) == sessions
        pg_cluster.resume(directory, bindir)
        with qtbot.waitSignal(model.connectionChanged, timeout=30000,
                              check_params_cb=lambda reason: reason == ""):
            pass
        qtbot.waitUntil(lambda: sessions[0].state == nav.LOADED and bool(sessions[0].children), timeout=10000)
        assert not window.connection_label.isVisible()
    finally:
        pg_cluster.stop(directory, bindir)


# --- secrets in every URL form stay out of sight and out of the settings file ----------------------

_SECRET = "Sekr1t-pw"
_OTHER = "Key-pass-77"


def _settings_bytes(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file())


def _query_password_url(url: str) -> str:
    parsed = make_url(url)
    return parsed._replace(password=None).update_query_dict(
        {"password": parsed.password or ""}).render_as_string(hide_password=False)


def test_a_recent_list_saved_with_secrets_is_cleaned_when_read(isolated_settings: Path) -> None:
    from PySide6.QtCore import QSettings

    from ui.settings import Settings

    raw = QSettings()
    raw.setValue("recentFiles", [
        f"postgresql://ann:{_SECRET}@db.local/covel",
        f"postgresql://ann@db.local/covel?password={_SECRET}",
        f"postgresql://ann@db.local/other?sslpassword={_OTHER}&sslmode=require",
        f"postgresql://ann:{_SECRET}@db.local:notaport/covel",
        "/home/ann/covel.db",
    ])
    raw.sync()
    assert _SECRET.encode() in _settings_bytes(isolated_settings)
    settings = Settings()
    assert settings.recent_files() == [
        "postgresql://ann@db.local/covel",
        "postgresql://ann@db.local/other?sslmode=require",
        "postgresql://ann:***@db.local:notaport/covel",
        "/home/ann/covel.db",
    ]
    data = _settings_bytes(isolated_settings)  # re-saved at once, not when Qt gets round to it
    assert b"db.local" in data and _SECRET.encode() not in data and _OTHER.encode() not in data
    settings.add_recent(f"postgresql://bob@db.local/covel?PASSWORD={_SECRET}")
    settings.sync()
    assert settings.recent_files()[0] == "postgresql://bob@db.local/covel"
    assert _SECRET.encode() not in _settings_bytes(isolated_settings)


def test_dialog_moves_a_query_password_and_hides_other_secrets(qtbot: Any, no_keyring: None) -> None:
    dialog = OpenUrlDialog([])
    qtbot.addWidget(dialog)
    dialog.url_box.setCurrentText(
        f"postgresql://bob@db.local/covel?options=-csearch_path%3Dgame&password={_SECRET}&sslpassword={_OTHER}")
    assert dialog.url_box.currentText() == "postgresql://bob@db.local/covel?options=-csearch_path%3Dgame"
    assert dialog.password.text() == _SECRET
    assert dialog.public_url() == dialog.url_box.currentText()
    connect = make_url(dialog.connect_url())
    assert connect.password == _SECRET and connect.query["sslpassword"] == _OTHER
    assert connect.query["options"] == "-csearch_path=game"
    # Another URL typed in its place does not inherit the hidden option.
    dialog.url_box.setCurrentText("postgresql://bob@db.local/elsewhere")
    assert "sslpassword" not in make_url(dialog.connect_url()).query


def test_a_query_password_goes_to_the_keyring_like_a_userinfo_one(qtbot: Any, fake_keyring: _FakeKeyring) -> None:
    dialog = OpenUrlDialog([])
    qtbot.addWidget(dialog)
    dialog.url_box.setCurrentText(f"postgresql://bob@db.local:5432/covel?password={_SECRET}")
    dialog.remember.setChecked(True)
    dialog.accept()
    assert fake_keyring.entries == {("prompt-inspector:postgresql://db.local:5432", "bob"): _SECRET}


def test_a_refused_connection_with_a_query_password_shows_none(
        qtbot: Any, window: MainWindow, errors: list[tuple[str, str]], isolated_settings: Path,
        no_keyring: None) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    _open(qtbot, window, f"postgresql://ann@127.0.0.1:{port}/covel?password={_SECRET}&sslpassword={_OTHER}",
          ok=False)
    title, text = errors[-1]
    assert "connection refused" in text and _SECRET not in text and _OTHER not in text
    assert text.startswith(f"postgresql://ann@127.0.0.1:{port}/covel could not be opened.")
    assert _SECRET not in window.statusBar().currentMessage()
    window.settings.sync()
    assert _SECRET.encode() not in _settings_bytes(isolated_settings)


@pytest.mark.postgres
def test_a_store_opened_with_a_query_password_shows_and_keeps_none(
        qtbot: Any, window: MainWindow, demo_postgres: str, isolated_settings: Path, no_keyring: None) -> None:
    password = make_url(demo_postgres).password or ""
    assert password
    _open(qtbot, window, _query_password_url(demo_postgres))
    assert window.navigator.model.rowCount() == 4
    shown = [window.windowTitle(), window.statusBar().currentMessage(),
             *(value for _name, value in window.overview.facts)]
    for action in window.recent_actions():
        shown += [action.text(), action.toolTip(), action.statusTip(), str(action.data())]
    for text in shown:
        assert password not in text, text
    assert "postgres:***@127.0.0.1" in dict(window.overview.facts)["File"]  # moved to the userinfo
    assert window.settings.recent_files()[0] == split_url(demo_postgres).public
    window.settings.sync()
    data = _settings_bytes(isolated_settings)
    assert b"postgresql" in data and password.encode() not in data
    _open(qtbot, window, window.target)  # type: ignore[arg-type]  # reload: the password is in memory
    assert window.navigator.model.rowCount() == 4
