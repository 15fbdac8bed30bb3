"""What reading a Covel store in PostgreSQL (``STORE_BACKEND=pg``, covel-db.md §5) needs beyond
SQLAlchemy's engine (:mod:`inspector.store.server`): the driver choice, a read-only session, catalogue reflection with column types, and
plain messages for the ways a connection fails.

The store is the team's shared, live database, so nothing here may change it: every transaction
is opened ``READ ONLY`` by the driver and the session is checked to be read-only before the first
query. No DDL, no temporary objects, no session settings that could outlive the connection.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .errors import (
    StoreAuthenticationError,
    StoreConnectionError,
    StoreConnectionLostError,
    StoreError,
    StoreLockedError,
    StoreNotFoundError,
    StoreOpenError,
)
from ..messages import localized
from .urls import scrub_text, secret_values

if TYPE_CHECKING:
    from sqlalchemy.engine import URL

__all__ = [
    "CONNECT_TIMEOUT",
    "catalogue_columns",
    "connect_args",
    "driver_message",
    "engine_args",
    "lost_connection_error",
    "make_read_only",
    "normalise_url",
    "translate_error",
]

# Seconds libpq waits for a server before giving up; without it an unreachable host hangs the
# open for the operating system's TCP timeout (minutes).
CONNECT_TIMEOUT = 10
APPLICATION_NAME = "prompt-inspector"

# psycopg (version 3) is the driver the project depends on; SQLAlchemy's default for a bare
# ``postgresql://`` is psycopg2, which is not installed.
_DEFAULT_DRIVER = "postgresql+psycopg"


def is_postgres(url: URL) -> bool:
    return url.drivername.split("+", 1)[0] in ("postgresql", "postgres")


def normalise_url(url: URL) -> URL:
    """``postgres://`` and ``postgresql://`` (as Covel's ``DATABASE_URL`` is usually written) use
    psycopg; an explicit ``postgresql+driver://`` is kept."""
    if url.drivername in ("postgres", "postgresql"):
        return url.set(drivername=_DEFAULT_DRIVER)
    if url.drivername.startswith("postgres+"):
        return url.set(drivername="postgresql+" + url.drivername.split("+", 1)[1])
    return url


def connect_args(url: URL) -> dict[str, Any]:
    """Driver arguments the URL does not set itself (a URL's own query options win)."""
    args: dict[str, Any] = {}
    if "connect_timeout" not in url.query:
        args["connect_timeout"] = CONNECT_TIMEOUT
    if "application_name" not in url.query:
        # Lets a database administrator see who holds the connection in pg_stat_activity.
        args["application_name"] = APPLICATION_NAME
    return args


def engine_args() -> dict[str, Any]:
    """SQLAlchemy engine options for a PostgreSQL store."""
    # A desktop session outlives server restarts; a dead pooled connection is replaced
    # instead of failing the next view.
    return {"pool_pre_ping": True}


def make_read_only(dbapi_connection: Any) -> None:
    """Make every transaction of this driver connection ``READ ONLY``.

    psycopg 3 then opens each transaction with ``BEGIN READ ONLY``: nothing is stored in the
    server session, so a connection pooler that hands the server connection to someone else
    afterwards passes on no setting. Other drivers get the session characteristic instead.
    """
    if hasattr(dbapi_connection, "read_only") and hasattr(dbapi_connection, "info"):
        import psycopg

        if dbapi_connection.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
            dbapi_connection.rollback()
        dbapi_connection.read_only = True
        return
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
    finally:
        cursor.close()
    # A session setting made inside a transaction vanishes with its rollback (which is what the
    # pool does on check-in), so make this one stick.
    dbapi_connection.commit()


# One catalogue query for every table the reader uses: the column names in table order and their
# SQL types (jsonb and timestamp columns are read differently). Only the schema that unqualified
# names resolve to counts, because that is where Covel created its tables.
CATALOGUE_SQL = """
SELECT c.relname, a.attname, pg_catalog.format_type(a.atttypid, a.atttypmod)
FROM pg_catalog.pg_class c
JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid
WHERE n.nspname = pg_catalog.current_schema()
  AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
  AND a.attnum > 0 AND NOT a.attisdropped
ORDER BY c.relname, a.attnum
"""


def catalogue_columns(conn: Any) -> tuple[str | None, dict[str, list[tuple[str, str]]]]:
    """``(schema, {table: [(column, type), …]})`` for the connection's current schema. ``schema``
    is None when no schema on the ``search_path`` exists."""
    schema = conn.scalar("SELECT pg_catalog.current_schema()")
    if schema is None:
        return None, {}
    tables: dict[str, list[tuple[str, str]]] = {}
    for table, column, sql_type in conn.all(CATALOGUE_SQL):
        tables.setdefault(table, []).append((column, sql_type))
    return schema, tables


def search_path(conn: Any) -> str:
    return str(conn.scalar("SHOW search_path"))


def is_json_type(sql_type: str) -> bool:
    return sql_type in ("jsonb", "json")


def is_timestamp_type(sql_type: str) -> bool:
    return sql_type.startswith("timestamp")


def is_text_type(sql_type: str) -> bool:
    return sql_type == "text" or sql_type.startswith(("character varying", "character(", "character"))


# --- failures ------------------------------------------------------------------------------------

# libpq reports connection failures as text only (no SQLSTATE reaches the client), so they are
# recognised by the phrases libpq and the server use (English messages; lc_messages=C servers).
_REFUSED = ("connection refused",)
_NO_HOST = ("could not translate host name", "name or service not known", "nodename nor servname",
            "no address associated with hostname", "temporary failure in name resolution")
_NO_SOCKET = ("no such file or directory",)
_TIMEOUT = ("timeout expired", "timed out")
_UNREACHABLE = ("network is unreachable", "no route to host", "server closed the connection unexpectedly",
                "connection reset by peer", "could not receive data from server", "server does not support ssl")
_AUTH = ("password authentication failed", "no password supplied", "authentication failed",
         "no pg_hba.conf entry", "peer authentication failed", "ident authentication failed",
         "password is required", "password must be given")
_ROLE_MISSING = re.compile(r'role "([^"]*)" does not exist')
_DB_MISSING = re.compile(r'database "([^"]*)" does not exist')


def _reason(message: str) -> str:
    """The server's or libpq's own reason, without psycopg's "connection failed: connection to
    server at …" preamble (the caller names the server itself)."""
    text = message.strip()
    fatal = re.search(r"(?:FATAL|ERROR):\s+(.*)", text)
    if fatal:
        return fatal.group(1).strip().splitlines()[0]
    lines = re.split(r'failed:\s+', text)[-1].strip().splitlines()
    return lines[0].rstrip(".") if lines else (text or "no reason given")


def _server(url: URL | None) -> str:
    if url is None:
        return "the PostgreSQL server"
    host = url.host or url.query.get("host") or "the local socket"
    if isinstance(host, tuple):
        host = ",".join(host)
    port = url.port or url.query.get("port") or 5432
    return f"the PostgreSQL server at {host}:{port}" if url.host or url.query.get("host") else (
        f"the PostgreSQL server on {host} (port {port})")


def driver_message(orig: BaseException | None, url: URL | None) -> str:
    """The driver's message with every secret masked: psycopg and libpq may echo connection
    options (``password=…``) or a URL back."""
    return scrub_text(str(orig), secret_values(url)) if orig is not None else "unknown error"


# SQLSTATEs of a server connection that ended: class 08 (connection exception) and the server
# shutting down or terminating the backend (57P01 admin_shutdown, 57P02 crash_shutdown,
# 57P03 cannot_connect_now, 57P05 idle_session_timeout).
_LOST_SQLSTATES = ("57P01", "57P02", "57P03", "57P05")


def lost_connection_error(orig: BaseException | None, location: str, url: URL | None, *,
                          invalidated: bool = False) -> StoreError | None:
    """The error for a failure in the middle of a read that means the connection is gone (the
    server stopped, restarted, or terminated this session), else None. ``invalidated``: SQLAlchemy
    has already judged the connection dead."""
    import psycopg

    sqlstate = getattr(orig, "sqlstate", None) or ""
    gone = (invalidated or sqlstate.startswith("08") or sqlstate in _LOST_SQLSTATES
            or (not sqlstate and isinstance(orig, (psycopg.OperationalError, psycopg.InterfaceError))))
    if not gone:
        return None
    reason = _reason(driver_message(orig, url))
    return StoreConnectionLostError(
        f"lost the connection to {location} while reading ({reason}); is the server running?",
        location=location)


def translate_error(orig: BaseException | None, location: str, url: URL | None) -> StoreError:
    """A typed error with a plain message for a failure of the driver, naming the URL (secrets
    hidden) it concerns."""
    message = driver_message(orig, url)
    lower = message.lower()
    sqlstate = getattr(orig, "sqlstate", None) or ""
    reason = _reason(message)
    server = _server(url)
    user = url.username if url is not None and url.username else None

    if sqlstate in ("55P03", "40P01") or "lock timeout" in lower:
        return StoreLockedError(localized("{location}: waited too long for a lock ({reason}); try again in a moment",
                                          location=location, reason=reason), location=location)
    if sqlstate == "42501" or "permission denied" in lower:
        return StoreOpenError(localized("{location}: {reason}. The user needs SELECT on Covel's tables.",
                                        location=location, reason=reason), location=location)
    if sqlstate == "3D000" or (_DB_MISSING.search(message) and not sqlstate):
        found = _DB_MISSING.search(message)
        name = found.group(1) if found else (url.database if url is not None else "?")
        return StoreNotFoundError(localized("{location}: {server} has no database named {name}", location=location,
                                            server=server, name=repr(name)), location=location)
    if sqlstate.startswith("28") or any(p in lower for p in _AUTH) or _ROLE_MISSING.search(message):
        advice = localized("Check the user name and password in the URL (or PGPASSWORD / ~/.pgpass).")
        refused = (localized("{location}: {server} refused the credentials of user {user} ({reason}).",
                             location=location, server=server, user=repr(user), reason=reason) if user else
                   localized("{location}: {server} refused the credentials of the user ({reason}).",
                             location=location, server=server, reason=reason))
        return StoreAuthenticationError(f"{refused} {advice}", location=location)
    if any(p in lower for p in _REFUSED):
        return StoreConnectionError(localized(
            "{location}: cannot connect to {server}: connection refused. Is PostgreSQL running there and accepting "
            "TCP/IP connections on that port?", location=location, server=server), location=location)
    if any(p in lower for p in _NO_HOST):
        host = url.host if url is not None else "?"
        return StoreConnectionError(localized("{location}: cannot connect: the host name {host} is not known "
                                              "({reason})", location=location, host=repr(host), reason=reason),
                                    location=location)
    if any(p in lower for p in _TIMEOUT):
        return StoreConnectionError(localized(
            "{location}: cannot connect to {server}: no answer within the connection timeout ({reason})",
            location=location, server=server, reason=reason), location=location)
    if any(p in lower for p in _NO_SOCKET) and "socket" in lower:
        return StoreConnectionError(localized(
            "{location}: cannot connect to {server}: no server is listening on its socket ({reason})",
            location=location, server=server, reason=reason), location=location)
    if any(p in lower for p in _UNREACHABLE) or sqlstate.startswith("08"):
        return StoreConnectionError(localized("{location}: cannot talk to {server} ({reason})", location=location,
                                              server=server, reason=reason), location=location)
    return StoreOpenError(f"{location}: {reason}", location=location)
