"""Database URLs as a user types, remembers and sees them, and the secrets they carry.

A URL may carry secrets: the password in its userinfo (``postgresql://ann:secret@host/db``), or
libpq connection options in its query (``?password=…``, ``?sslpassword=…``; see
:data:`SECRET_OPTIONS`). What is remembered (recent lists, settings) and what is shown (titles,
status messages, error text) is the URL without them; the secrets travel separately and only to the
driver (or the keyring). This module is the one place that knows which parts are secret. Parsing
follows SQLAlchemy's URL rules, so what is accepted here is what
:func:`inspector.store.open_store` accepts.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..messages import localized

if TYPE_CHECKING:
    from sqlalchemy.engine import URL

# libpq connection keywords whose value is a secret: those libpq itself marks as password fields
# (``PQconndefaults`` dispchar ``*``: password, sslpassword, oauth_client_secret) and the SCRAM keys
# (dispchar ``D``), which stand in for the password. libpq spells its keywords in lower case only;
# any spelling is treated as secret here, so a mistyped ``PASSWORD=`` is not shown either.
SECRET_OPTIONS = ("password", "sslpassword", "oauth_client_secret", "scram_client_key", "scram_server_key")
# The option that is the password itself: it goes where the userinfo password goes.
PASSWORD_OPTION = "password"
# Environment variables libpq reads a secret from; their values are never echoed either.
SECRET_ENVIRONMENT = ("PGPASSWORD",)
HIDDEN = "***"
# Rendered in place of a secret query value, then replaced by HIDDEN (SQLAlchemy would
# percent-encode the asterisks themselves).
_PLACEHOLDER = "PIHIDDENVALUE0"


class BadUrlError(ValueError):
    """The text is not a database URL; the message says what is wrong in plain words."""


def make_url(text: str) -> URL:
    """``text`` parsed by SQLAlchemy's URL rules (``ValueError`` when it does not parse).
    SQLAlchemy is loaded here, when a URL is parsed: never for a file path."""
    if not looks_like_url(text):
        # What SQLAlchemy says of such text, without loading it for a file path.
        raise ValueError("Could not parse SQLAlchemy URL from given URL string")
    from sqlalchemy.engine import make_url as parse
    from sqlalchemy.exc import ArgumentError

    try:
        return parse(text)
    except ArgumentError as exc:
        raise ValueError(str(exc)) from None


# ``scheme://`` at the start (RFC 3986 scheme letters): the one rule for "is this a URL?".
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*://")


def looks_like_url(text: str | os.PathLike[str]) -> bool:
    """True for ``scheme://…`` text (the scheme at the start): a file path, even one with ``://``
    somewhere inside, is not a URL."""
    name = os.fspath(text)
    if isinstance(name, bytes):
        name = os.fsdecode(name)
    return _SCHEME.match(name) is not None


def unparsed_url(text: str) -> str:
    """Text that looked like a URL but did not parse, as it may be shown: its scheme and host
    only. Everything up to the last ``@`` is dropped first (a password may hold ``?``, ``/`` or
    ``:``), then the host ends at the first ``/``, ``?`` or ``#``; when a secret option stands
    before that ``@`` (``?password=a@b``) the host may be part of the secret and is hidden."""
    scheme, _, rest = text.strip().partition("://")
    hidden, at, after = rest.rpartition("@")
    host = re.split(r"[/?#]", after, maxsplit=1)[0]
    if at and _SECRET_NAME.search(hidden):
        host = HIDDEN
    return f"{scheme}://{host}"


def bad_url_message(text: str, error: BaseException) -> tuple[str, str]:
    """``(message, shown)`` for text that looks like a URL but that SQLAlchemy could not parse
    (``error``): the message names it as :func:`unparsed_url` shows it and says what is wrong (a
    port that is not a number is quoted only when it stands in the shown host)."""
    shown = unparsed_url(text)
    port = re.search(r"invalid literal for int\(\) with base 10: '(.*)'", str(error))
    if "[" in shown and "]" not in shown:
        what = "an IPv6 address needs its closing bracket, as in postgresql://user@[::1]:5432/covel"
    elif port and port.group(1) and shown.endswith(":" + port.group(1)):
        what = f"the port '{port.group(1)}' is not a number"
    elif port:
        what = "the port is not a number"
    else:
        what = f"{scrub_text(str(error), [text])}; the port, if given, is a number"
    return f"{shown} is not a valid database URL: {what}", shown


def is_secret_option(name: str) -> bool:
    """True for a URL query option / libpq keyword whose value is a secret."""
    return name.strip().lower() in SECRET_OPTIONS


def _last(value: str | tuple[str, ...]) -> str:
    # A repeated option: the driver (like libpq) takes the last one.
    return value[-1] if isinstance(value, tuple) else value


@dataclass(frozen=True, slots=True)
class SplitUrl:
    """A URL without its secrets (``public``, safe to store and show), its password (from the
    userinfo or the ``password`` query option) and its other secret query options."""

    public: str
    password: str | None
    secrets: tuple[tuple[str, str], ...] = ()

    def with_password(self, password: str | None) -> str:
        """The URL to connect with: ``public`` with ``password`` (if any) and the other secret
        options put back."""
        url = make_url(self.public)
        if password and url.username:
            url = url.set(password=password)
        elif password:
            # Without a user name there is no userinfo to hold it (the text form would drop it).
            url = url.update_query_dict({PASSWORD_OPTION: password})
        if self.secrets:
            url = url.update_query_pairs(self.secrets)
        return url.render_as_string(hide_password=False)


def _parse(text: str | URL) -> URL:
    if not isinstance(text, str):
        return text
    text = text.strip()
    if not looks_like_url(text):
        raise BadUrlError(localized("a database URL looks like postgresql://user@host:5432/database"))
    try:
        return make_url(text)
    except ValueError as exc:
        raise BadUrlError(localized("not a database URL: {reason}", reason=scrub_text(str(exc), [text]))) from None


def split_url(text: str | URL) -> SplitUrl:
    """Parse ``text`` and take its secrets out: the userinfo password and a ``password`` query
    option become :attr:`SplitUrl.password` (the query option wins, as it does for the driver);
    other secret options go to :attr:`SplitUrl.secrets`. Raises :class:`BadUrlError`."""
    url = _parse(text)
    password = str(url.password) if url.password else None
    secrets: list[tuple[str, str]] = []
    for name, value in url.query.items():
        if not is_secret_option(name):
            continue
        if name.lower() == PASSWORD_OPTION:
            password = _last(value) or password
        else:
            secrets.append((name, _last(value)))
    # URL.set(password=None) means "leave it"; the named-tuple replace really removes it.
    public_url = url._replace(password=None).difference_update_query(
        [name for name in url.query if is_secret_option(name)])
    public = public_url.render_as_string(hide_password=False)
    return SplitUrl(public, password, tuple(secrets))


def public_url(text: str) -> str:
    """``text`` as it may be remembered (recent list, settings): without any secret (a URL with
    none comes back as written). Text that is not a URL comes back with whatever looks like a
    secret in it masked."""
    try:
        split = split_url(text)
    except BadUrlError:
        return scrub_text(text)
    return split.public if split.password is not None or split.secrets else text


def shown_url(text: str | URL) -> str:
    """``text`` as it may be displayed or logged: the password and every secret option replaced by
    ``***``. Text that does not parse is masked with :func:`scrub_text`."""
    try:
        url = make_url(text) if isinstance(text, str) else text
    except ValueError:
        return scrub_text(text) if isinstance(text, str) else str(text)
    hidden = {name: _PLACEHOLDER for name in url.query if is_secret_option(name)}
    if hidden:
        url = url.update_query_dict(hidden)
    return url.render_as_string(hide_password=True).replace(_PLACEHOLDER, HIDDEN)


def secret_values(url: str | URL | None) -> list[str]:
    """Every secret a connection made from ``url`` may use: the URL's password and secret options,
    and the values of the secret environment variables libpq reads (``PGPASSWORD``)."""
    found: list[str] = []
    if url is not None:
        try:
            parsed = make_url(url) if isinstance(url, str) else url
        except ValueError:
            parsed = None
        if parsed is not None:
            if parsed.password:
                found.append(str(parsed.password))
            for name, value in parsed.query.items():
                if is_secret_option(name):
                    found.extend(value if isinstance(value, tuple) else (value,))
    found.extend(os.environ.get(name) or "" for name in SECRET_ENVIRONMENT)
    return [value for value in found if value]


_OPTION_NAMES = "|".join(SECRET_OPTIONS)
# ``password=secret`` as in a libpq keyword/value string (value bare or single-quoted, with \'
# escapes) or a URL query (value up to the next ``&``), in any letter case.
_SECRET_ASSIGNMENT = re.compile(
    rf"(?i)\b({_OPTION_NAMES})(\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s&'\"]+)")
_SECRET_NAME = re.compile(rf"(?i)\b({_OPTION_NAMES})\s*=")
# What may follow a value already masked (``password=***: …``) and is not part of it.
_AFTER_HIDDEN = re.compile(r"[:;,.)\]}]*")
# ``scheme://user:secret@`` (the userinfo password).
_USERINFO = re.compile(r"(?i)([a-z][a-z0-9+.\-]*://[^:/@\s]*:)([^@\s]*)(@)")


def scrub_text(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` (a driver's error message, a path that was meant to be a URL …) with every secret
    masked: userinfo passwords, ``password=…``-style options, and each of ``secrets`` wherever it
    appears (a value of one or two characters only where it stands alone, so that it does not
    mask letters of the words around it)."""
    text = _USERINFO.sub(lambda m: m.group(1) + HIDDEN + m.group(3), text)
    text = _SECRET_ASSIGNMENT.sub(_mask_assignment, text)
    for secret in sorted({s for s in secrets if s}, key=len, reverse=True):
        if secret == HIDDEN:
            continue
        if len(secret) >= 3:
            text = text.replace(secret, HIDDEN)
        else:
            text = re.sub(rf"(?<![\w]){re.escape(secret)}(?![\w])", HIDDEN, text)
    return text


def _mask_assignment(match: re.Match[str]) -> str:
    value = match.group(3)
    if value.startswith(HIDDEN) and _AFTER_HIDDEN.fullmatch(value, len(HIDDEN)):
        return match.group(0)  # masked already: keep what follows it (``***: cannot connect``)
    return match.group(1) + match.group(2) + HIDDEN


def short_name(public: str) -> str:
    """A window-title name for a URL: ``database/schema @ host`` (the schema when the URL's
    ``search_path`` option names one); the whole URL, secrets hidden, when it has no host."""
    try:
        url = make_url(public)
    except ValueError:
        return shown_url(public)
    if not url.host:
        return shown_url(public)
    name = url.database or ""
    options = url.query.get("options")
    options = options if isinstance(options, str) else " ".join(options or ())
    found = re.search(r"search_path\s*=\s*([^\s,]+)", options)
    if found:
        name += "/" + found.group(1)
    return f"{name} @ {url.host}"


def credential_key(public: str) -> tuple[str, str]:
    """``(service, user)`` under which a URL's password is kept in a keyring: one entry per
    server and user (not per database), like ``~/.pgpass`` without a database column."""
    url = make_url(public)
    host = url.host or "localhost"
    port = url.port or ""
    return f"prompt-inspector:{url.get_backend_name()}://{host}:{port}", url.username or ""
