"""Secrets in database URLs are never shown or kept, and a read that fails half-way is a message.

A password reaches the program in a URL's userinfo (``postgresql://ann:secret@h/db``), in its
query (``?password=secret``, libpq's keyword, in any letter case) or beside it (``?sslpassword=…``,
``PGPASSWORD``). Whatever the form, the text a person sees (error messages, ``Store.location``)
and what is remembered carries ``***`` or nothing in its place, while the driver still gets it.
The desktop side (recent list, settings file, dialog) is tested in ``tests/ui/test_open_url.py``.
"""

from __future__ import annotations

import hashlib
import os
import socket
import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy.engine import make_url

import pg_cluster
from inspector.demo.pg import generate_demo_pg, libpq_conninfo
from inspector.store import (
    StoreAuthenticationError,
    StoreConnectionError,
    StoreConnectionLostError,
    StoreDamagedError,
    StoreError,
    StoreNotFoundError,
    open_store,
)
from inspector.store.postgres import translate_error
from inspector.store.urls import (
    SECRET_OPTIONS,
    BadUrlError,
    public_url,
    scrub_text,
    secret_values,
    shown_url,
    split_url,
)

SECRET = "Sekr1t-pw"
OTHER = "Key-pass-77"


@pytest.fixture(autouse=True)
def _no_pgpassword(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tests set PGPASSWORD themselves where they need it."""
    monkeypatch.delenv("PGPASSWORD", raising=False)


def _query_url(url: str, **options: str) -> str:
    """``url`` with its password moved from the userinfo into the query (and ``options`` added)."""
    parsed = make_url(url)
    moved = {"password": parsed.password or "", **options}
    return parsed._replace(password=None).update_query_dict(moved).render_as_string(hide_password=False)


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _assert_clean(text: str, *secrets: str) -> None:
    for secret in secrets:
        assert secret not in text and quote(secret, safe="") not in text, text


# --- every URL form, no server -----------------------------------------------------------------

FORMS = [
    # (text as typed, the password the driver must get, other secret options it must get)
    (f"postgresql://ann:{SECRET}@db.example:5433/covel", SECRET, {}),
    (f"postgresql://ann@db.example:5433/covel?password={SECRET}", SECRET, {}),
    (f"postgres://ann@db.example/covel?options=-csearch_path%3Dgame&password={SECRET}", SECRET, {}),
    (f"postgresql+psycopg://ann:Old-pw-1@db.example/covel?password={SECRET}", SECRET, {}),  # the query wins
    (f"postgresql:///covel?host=%2Frun%2Fpostgresql&password={SECRET}", SECRET, {}),  # no user at all
    (f"postgresql://ann@db.example/covel?PASSWORD={SECRET}", SECRET, {}),
    (f"postgresql://ann:{SECRET}@db.example/covel?sslmode=require&sslpassword={OTHER}", SECRET,
     {"sslpassword": OTHER}),
    (f"postgresql://ann@db.example/covel?oauth_client_secret={OTHER}", None, {"oauth_client_secret": OTHER}),
    ("postgresql://ann:p%40ss%2Fw%3Ard@db.example/covel", "p@ss/w:rd", {}),
]


@pytest.mark.parametrize(("text", "password", "others"), FORMS)
def test_every_form_is_split_shown_and_put_back(text: str, password: str | None, others: dict[str, str]) -> None:
    secrets = secret_values(text)  # every secret in the text, also one the query overrides
    assert {s for s in (password, *others.values()) if s} <= set(secrets)
    split = split_url(text)
    assert split.password == password and dict(split.secrets) == others
    _assert_clean(split.public, *secrets)
    assert public_url(text) == split.public
    public = make_url(split.public)
    assert public.password is None and not [k for k in public.query if k.lower() in SECRET_OPTIONS]
    assert public.host == make_url(text).host and public.database == make_url(text).database

    shown = shown_url(text)
    _assert_clean(shown, *secrets)
    assert "***" in shown and shown_url(make_url(text)) == shown

    # What the driver gets: the same password and secret options, the rest unchanged.
    back = make_url(split.with_password(split.password))
    got = back.password or back.query.get("password")
    assert got == password
    assert {k: v for k, v in back.query.items() if k in others} == others
    assert back.query.get("options") == make_url(text).query.get("options")


def test_a_url_without_secrets_is_kept_as_written() -> None:
    for text in ("postgresql://ann@db.example/covel?options=-c%20search_path%3Dgame", "sqlite:////tmp/x%20y.db"):
        assert public_url(text) == text and secret_values(text) == []
    assert shown_url("postgresql://ann@db.example/covel") == "postgresql://ann@db.example/covel"


def test_a_url_that_does_not_parse_is_still_masked() -> None:
    text = f"postgresql://ann:{SECRET}@db.example:notaport/covel?password={SECRET}"
    with pytest.raises(BadUrlError) as caught:
        split_url(text)
    _assert_clean(str(caught.value), SECRET)
    for masked in (shown_url(text), public_url(text)):
        _assert_clean(masked, SECRET)
        assert masked.startswith("postgresql://ann:***@db.example:notaport/covel")


@pytest.mark.parametrize("text", [
    f"host=db.example password={SECRET} dbname=covel",
    f"host=db.example password = '{SECRET} \\' x' dbname=covel",
    f"connection failed: PASSWORD={SECRET}, sslpassword={OTHER}",
    f"could not open postgresql://ann:{SECRET}@db.example/covel",
])
def test_free_text_is_masked(text: str) -> None:
    masked = scrub_text(text)
    _assert_clean(masked, SECRET, OTHER)
    assert "***" in masked


def test_known_secrets_are_masked_wherever_they_appear() -> None:
    assert scrub_text(f"token {SECRET} rejected", [SECRET]) == "token *** rejected"
    # A one-letter password is masked where it stands alone, not inside the words around it.
    assert scrub_text('password "x" for user ann exceeds the limit x', ["x"]) == \
        'password "***" for user ann exceeds the limit ***'


@given(st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=40))
def test_any_password_in_either_place_never_shows(secret: str) -> None:
    secret = "PW" + secret
    for text in (f"postgresql://ann:{quote(secret, safe='')}@db.example/covel",
                 f"postgresql://ann@db.example/covel?password={quote(secret, safe='')}&sslpassword="
                 f"{quote(secret, safe='')}"):
        split = split_url(text)
        assert split.password == secret
        for out in (split.public, shown_url(text)):
            assert secret not in out and quote(secret, safe="") not in out
            assert make_url(out).password in (None, "***")


# --- error messages ----------------------------------------------------------------------------

def test_a_refused_connection_never_shows_a_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PGPASSWORD", "Env-secret-42")
    port = _closed_port()
    for text in (f"postgresql://ann:{SECRET}@127.0.0.1:{port}/covel",
                 f"postgresql://ann@127.0.0.1:{port}/covel?password={SECRET}&sslpassword={OTHER}",
                 f"postgresql://ann@127.0.0.1:{port}/covel"):
        with pytest.raises(StoreConnectionError, match=r"connection refused") as caught:
            open_store(text)
        message = str(caught.value)
        _assert_clean(message, SECRET, OTHER, "Env-secret-42")
        assert caught.value.location == shown_url(make_url(text).set(drivername="postgresql+psycopg"))
        assert message.startswith(caught.value.location)


def test_a_driver_message_that_echoes_a_secret_is_masked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PGPASSWORD", "Env-secret-42")
    url = make_url(f"postgresql+psycopg://ann@db.example/covel?password={SECRET}&sslpassword={OTHER}")

    class EchoingError(Exception):
        sqlstate = None

    for echoed in (f'invalid connection option in "host=db.example password={SECRET}"',
                   f"server said {OTHER}; env was Env-secret-42",
                   f"FATAL:  could not use postgresql://ann:{SECRET}@db.example/covel"):
        error = translate_error(EchoingError(echoed), shown_url(url), url)
        assert isinstance(error, StoreError)
        _assert_clean(str(error), SECRET, OTHER, "Env-secret-42")


# --- against the test server -------------------------------------------------------------------

@pytest.mark.postgres
def test_a_missing_database_and_a_wrong_password_name_no_secret(pg_server_url: str) -> None:
    right = make_url(pg_server_url).password or ""
    for text in (make_url(pg_server_url).set(database="no_such_db_here").render_as_string(hide_password=False),
                 _query_url(make_url(pg_server_url).set(database="no_such_db_here")
                            .render_as_string(hide_password=False))):
        with pytest.raises(StoreNotFoundError, match=r"has no database named 'no_such_db_here'") as caught:
            open_store(text)
        _assert_clean(str(caught.value), right)
    wrong = _query_url(make_url(pg_server_url).set(password="Wrong-pass-9").render_as_string(hide_password=False))
    with pytest.raises(StoreAuthenticationError, match=r"refused the credentials of user") as caught:
        open_store(wrong)
    _assert_clean(str(caught.value), "Wrong-pass-9", right)


@pytest.mark.postgres
def test_a_query_password_opens_and_is_never_shown(demo_postgres: str) -> None:
    password = make_url(demo_postgres).password or ""
    text = _query_url(demo_postgres)
    assert password and f"password={password}" in text
    with open_store(text) as store:
        assert len(store.sessions()) == 4
        for shown in (store.location, store.url, repr(store)):
            _assert_clean(shown, password)
            assert "password=***" in shown
        # Only the cache analysis's worker process gets the secret (through a pipe, never argv).
        assert make_url(store.open_spec).query["password"] == password


def _terminate_readers(admin_url: str) -> int:
    with closing(psycopg.connect(libpq_conninfo(admin_url), autocommit=True)) as admin:
        row = admin.execute("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                            "WHERE application_name = 'prompt-inspector' AND pid <> pg_backend_pid()").fetchone()
    return int(row[0])


@pytest.mark.postgres
def test_a_connection_terminated_mid_read_is_a_plain_error(demo_postgres: str, pg_server_url: str) -> None:
    password = make_url(demo_postgres).password or ""
    with open_store(_query_url(demo_postgres)) as store:
        rows = store.iter_llm_calling_rows(batch=1)
        assert next(rows)
        assert _terminate_readers(pg_server_url) >= 1
        with pytest.raises(StoreConnectionLostError) as caught:
            for _ in rows:
                pass
        message = str(caught.value)
        assert message.startswith(f"lost the connection to {store.location} while reading (")
        assert message.endswith("; is the server running?") and "\n" not in message
        _assert_clean(message, password)
        # The server is still there: the next read connects again.
        assert len(store.sessions()) == 4
        # A raw driver cursor (as the SQLite fast paths use) fails the same way.
        with pytest.raises(StoreConnectionLostError, match=r"^lost the connection to "):
            with store.connect() as conn:
                assert _terminate_readers(pg_server_url) >= 1
                conn.raw.execute("SELECT 1")
        assert len(store.sessions()) == 4


@pytest.mark.postgres
def test_a_server_stopped_mid_read_is_a_plain_error() -> None:
    """A server of its own (the shared one must stay up), stopped while a read streams."""
    bindir = pg_cluster.find_bindir()
    assert bindir is not None, "PostgreSQL binaries are needed for this test"
    directory = Path(tempfile.mkdtemp(prefix="pi-test-pg-stop-"))
    cluster = pg_cluster.start(directory, bindir)
    try:
        generate_demo_pg(cluster.url, turns=3)
        password = make_url(cluster.url).password or ""
        with open_store(_query_url(cluster.url)) as store:
            rows = store.iter_llm_calling_rows(batch=1)
            assert next(rows)
            pg_cluster.stop(directory, bindir)
            with pytest.raises(StoreConnectionLostError, match=r"^lost the connection to .* while reading") as lost:
                for _ in rows:
                    pass
            with pytest.raises(StoreConnectionError, match=r"connection refused") as refused:
                store.sessions()
            for error in (lost.value, refused.value):
                assert isinstance(error, StoreError)
                _assert_clean(str(error), password)
    finally:
        pg_cluster.stop(directory, bindir)


# --- a damaged SQLite file ---------------------------------------------------------------------

def _listing(folder: Path) -> list[tuple[str, int]]:
    return sorted((p.name, p.stat().st_size) for p in folder.iterdir())


def test_a_corrupt_page_is_a_plain_error_naming_the_file(tmp_path: Path) -> None:
    from inspector import views
    from inspector.demo.generator import build_demo_file

    path = tmp_path / "covel.db"
    build_demo_file(path)
    with closing(sqlite3.connect(path)) as conn:
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
    data = bytearray(path.read_bytes())
    # The middle third of the file (table and index pages; the schema is on the first pages).
    for page in range(pages // 3, 2 * pages // 3):
        data[page * page_size:(page + 1) * page_size] = bytes([0xA5]) * page_size
    path.write_bytes(bytes(data))
    digest, listing = hashlib.sha256(path.read_bytes()).hexdigest(), _listing(tmp_path)

    with pytest.raises(StoreDamagedError) as caught:
        with open_store(path) as store:
            for row in views.session_rows(store):
                store.events(row["sessionId"])
            for _ in store.iter_llm_calling_rows():
                pass
    message = str(caught.value)
    assert message.startswith(f"{path}: the file is damaged (")
    assert f"sqlite3 -readonly {path} .recover" in message and "\n" not in message
    assert caught.value.location == str(path)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest and _listing(tmp_path) == listing


def test_a_healthy_file_reads_as_before(tmp_path: Path) -> None:
    """The shared error path changes nothing on good input."""
    from inspector import views
    from inspector.demo.generator import build_demo_file

    path = tmp_path / "covel.db"
    build_demo_file(path, turns=2)
    with open_store(path) as store:
        assert views.session_rows(store) and sum(1 for _ in store.iter_llm_calling_rows()) > 0
    assert os.listdir(tmp_path) == ["covel.db"]


# --- the command line --------------------------------------------------------------------------

def _cli(capfdbinary: pytest.CaptureFixture[bytes], *argv: str) -> tuple[int, str, str]:
    from inspector.cli import main

    code = main(list(argv))
    out, err = capfdbinary.readouterr()
    return code, out.decode("utf-8"), err.decode("utf-8")


def test_the_cli_names_a_refused_url_without_its_secrets(capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    port = _closed_port()
    code, out, err = _cli(capfdbinary, "sessions",
                          f"postgresql://ann@127.0.0.1:{port}/covel?password={SECRET}&sslpassword={OTHER}")
    assert code != 0 and out == "" and "Traceback" not in err and err.count("\n") == 1
    assert err.startswith(f"prompt-inspector: postgresql+psycopg://ann@127.0.0.1:{port}/covel?password=***")
    _assert_clean(err, SECRET, OTHER)


@pytest.mark.postgres
def test_the_cli_names_refused_credentials_without_them(pg_server_url: str,
                                                        capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    right = make_url(pg_server_url).password or ""
    wrong = _query_url(make_url(pg_server_url).set(password="Wrong-pass-9").render_as_string(hide_password=False))
    code, out, err = _cli(capfdbinary, "sessions", wrong)
    assert code != 0 and out == "" and "Traceback" not in err and err.count("\n") == 1
    assert "refused the credentials of user" in err
    _assert_clean(err, "Wrong-pass-9", right)
