"""Database URLs as a user types, remembers and sees them.

A URL may carry a password. What is remembered (recent lists, settings) and what is shown
(titles, status messages, error text) is the URL without it; the password travels separately and
only to the driver. Parsing follows SQLAlchemy's URL rules, so what is accepted here is what
:func:`inspector.store.open_store` accepts.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError


class BadUrlError(ValueError):
    """The text is not a database URL; the message says what is wrong in plain words."""


def looks_like_url(text: str | os.PathLike[str]) -> bool:
    """True for ``scheme://…`` text: a path never contains ``://``, a URL always does."""
    return "://" in os.fspath(text)


@dataclass(frozen=True, slots=True)
class SplitUrl:
    """A URL without its password (``public``, safe to store and show), and the password."""

    public: str
    password: str | None

    def with_password(self, password: str | None) -> str:
        """The URL to connect with: ``public`` with ``password`` put back (if any)."""
        url = make_url(self.public)
        if password:
            url = url.set(password=password)
        return url.render_as_string(hide_password=False)


def split_url(text: str) -> SplitUrl:
    """Parse ``text`` and take its password out. Raises :class:`BadUrlError`."""
    text = text.strip()
    if not looks_like_url(text):
        raise BadUrlError("a database URL looks like postgresql://user@host:5432/database")
    try:
        url = make_url(text)
    except (ArgumentError, ValueError) as exc:
        raise BadUrlError(f"not a database URL: {exc}") from None
    password = url.password if url.password else None
    # URL.set(password=None) means "leave it"; the named-tuple replace really removes it.
    public = url._replace(password=None).render_as_string(hide_password=False)
    return SplitUrl(public, str(password) if password is not None else None)


def shown_url(text: str) -> str:
    """``text`` as it may be displayed or logged: the password replaced by ``***``."""
    try:
        return make_url(text).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return text


def short_name(public: str) -> str:
    """A window-title name for a URL: ``database/schema @ host`` (the schema when the URL's
    ``search_path`` option names one); the whole URL, password hidden, when it has no host."""
    import re

    try:
        url = make_url(public)
    except (ArgumentError, ValueError):
        return public
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
