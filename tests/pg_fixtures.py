"""PostgreSQL for the tests, loaded by ``tests/conftest.py`` so core and view tests share it: every
test that takes the ``backend`` fixture runs once on a ``covel.db`` and once on the same rows in
PostgreSQL.

Where the server comes from:

* ``PROMPT_INSPECTOR_TEST_PG_URL`` (a superuser or a role that may create databases), as
  ``.ci/run`` sets it; else
* a throwaway cluster on 127.0.0.1 started from the PostgreSQL binaries found on this machine
  (``PG_BINDIR``, the PATH, ``/usr/lib/postgresql/*/bin``) and removed afterwards; else
* under ``CI`` the PostgreSQL cases fail, saying how to get a server; elsewhere they are
  deselected and the summary says so in bold, so a developer without PostgreSQL can still run
  the rest. ``PROMPT_INSPECTOR_TEST_PG=off`` deselects them on purpose (not under ``CI``).
"""

from __future__ import annotations

import os
import secrets
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "inspector" / "store"))
import pg_cluster  # noqa: E402

PG_URL_ENV = "PROMPT_INSPECTOR_TEST_PG_URL"
PG_SWITCH_ENV = "PROMPT_INSPECTOR_TEST_PG"
BACKENDS = ("sqlite", "postgresql")


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def _left_out_reason() -> str | None:
    """Why the PostgreSQL cases are not run here, or None when they run (always under CI)."""
    if _in_ci():
        return None
    if os.environ.get(PG_SWITCH_ENV, "").lower() in ("off", "0", "no", "false"):
        return f"deselected by {PG_SWITCH_ENV}=off"
    if not os.environ.get(PG_URL_ENV) and pg_cluster.find_bindir() is None:
        return (f"no PostgreSQL on this machine (install it, or set {PG_URL_ENV} to a server URL; "
                "under CI they fail instead)")
    return None


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "postgres: the test needs a PostgreSQL server")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        callspec = getattr(item, "callspec", None)
        if callspec is not None and callspec.params.get("backend") == "postgresql":
            item.add_marker(pytest.mark.postgres)
    reason = _left_out_reason()
    if reason is None:
        return
    dropped = [item for item in items if item.get_closest_marker("postgres")]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if not item.get_closest_marker("postgres")]
        config._pg_deselected = (len(dropped), reason)  # type: ignore[attr-defined]


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:  # type: ignore[no-untyped-def]
    left_out = getattr(config, "_pg_deselected", None)
    if left_out:
        count, reason = left_out
        terminalreporter.write_line(f"{count} PostgreSQL cases NOT RUN: {reason}", yellow=True, bold=True)


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Parametrises a test over both store backends."""
    return request.param


@pytest.fixture(scope="session")
def pg_server_url() -> Iterator[str]:
    """A superuser URL of a PostgreSQL server for the whole test session."""
    given = os.environ.get(PG_URL_ENV)
    if given:
        yield given
        return
    bindir = pg_cluster.find_bindir()
    if bindir is None:
        pytest.fail(
            "PostgreSQL cases need a server and none was found: install PostgreSQL (its initdb is looked for "
            f"in $PG_BINDIR, on the PATH and in /usr/lib/postgresql/*/bin), or set {PG_URL_ENV} to a server URL, "
            f"or run without these cases with {PG_SWITCH_ENV}=off (refused when CI is set).", pytrace=False)
    directory = Path(tempfile.mkdtemp(prefix="pi-test-pg-"))
    try:
        cluster = pg_cluster.start(directory, bindir)
    except RuntimeError as exc:
        pg_cluster.stop(directory, bindir)
        pytest.fail(f"could not start a PostgreSQL server from {bindir}: {exc}", pytrace=False)
    try:
        yield cluster.url
    finally:
        cluster.stop()


def _libpq(url: str) -> str:
    from inspector.demo.pg import libpq_conninfo

    return libpq_conninfo(url)


@pytest.fixture(scope="session")
def pg_database_url(pg_server_url: str) -> Iterator[str]:
    """A database of its own for this test session, dropped at the end."""
    import psycopg
    from sqlalchemy.engine import make_url

    name = f"pi_test_{os.getpid()}_{secrets.token_hex(3)}"
    with closing(psycopg.connect(_libpq(pg_server_url), autocommit=True)) as admin:
        admin.execute(f'CREATE DATABASE "{name}" ENCODING \'UTF8\' TEMPLATE template0')
    try:
        yield make_url(pg_server_url).set(database=name).render_as_string(hide_password=False)
    finally:
        with closing(psycopg.connect(_libpq(pg_server_url), autocommit=True)) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def schema_url(database_url: str, schema: str) -> str:
    """The URL whose connections read and write ``schema`` (through their search_path)."""
    from sqlalchemy.engine import make_url

    url = make_url(database_url)
    return url.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)


@pytest.fixture
def pg_schema(pg_database_url: str) -> Iterator[Callable[[], str]]:
    """Makes fresh, empty schemas in the session's database; each call returns a URL for one."""
    import psycopg

    made: list[str] = []

    def factory() -> str:
        name = f"t_{secrets.token_hex(6)}"
        with closing(psycopg.connect(_libpq(pg_database_url), autocommit=True)) as conn:
            conn.execute(f'CREATE SCHEMA "{name}"')
        made.append(name)
        return schema_url(pg_database_url, name)

    yield factory
    if made:
        with closing(psycopg.connect(_libpq(pg_database_url), autocommit=True)) as conn:
            for name in made:
                conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')


@pytest.fixture(scope="session")
def demo_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default demo ``covel.db`` (12 main-session turns), shared by the session."""
    from inspector.demo.generator import build_demo_file

    path = tmp_path_factory.mktemp("demo-store") / "covel.db"
    build_demo_file(path)
    return path


@pytest.fixture(scope="session")
def demo_postgres(pg_database_url: str) -> Iterator[str]:
    """The same demo written into PostgreSQL by the demo generator's PostgreSQL writer."""
    import psycopg

    from inspector.demo.pg import generate_demo_pg

    with closing(psycopg.connect(_libpq(pg_database_url), autocommit=True)) as conn:
        conn.execute('CREATE SCHEMA "demo"')
    url = schema_url(pg_database_url, "demo")
    generate_demo_pg(url)
    yield url
