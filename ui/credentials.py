"""Database passwords in the system keyring, when there is one.

Passwords are never written to the settings file: a recent URL is remembered without its
password, and the password is kept in the platform's keyring (macOS Keychain, Windows Credential
Locker, Secret Service on Linux) through the optional ``keyring`` package. Without that package,
or with no usable backend, nothing is remembered and the user is asked again.
"""

from __future__ import annotations

import logging
from typing import Any

from inspector.store.urls import credential_key

log = logging.getLogger(__name__)


def _keyring() -> Any | None:
    """The keyring module when it has a real backend, else None."""
    try:
        import keyring
        from keyring.backends import fail
    except ImportError:
        return None
    try:
        backend = keyring.get_keyring()
    except Exception:  # a broken keyring configuration is "no keyring", not a crash
        return None
    if isinstance(backend, fail.Keyring):
        return None
    return keyring


def keyring_available() -> bool:
    return _keyring() is not None


def stored_password(public_url: str) -> str | None:
    ring = _keyring()
    if ring is None:
        return None
    service, user = credential_key(public_url)
    try:
        return ring.get_password(service, user)
    except Exception as exc:  # locked or refusing keyring: ask the user instead
        log.info("keyring lookup failed for %s: %s", service, type(exc).__name__)
        return None


def store_password(public_url: str, password: str) -> bool:
    """Remember ``password`` for the URL's server and user; False if it could not be kept."""
    ring = _keyring()
    if ring is None:
        return False
    service, user = credential_key(public_url)
    try:
        ring.set_password(service, user, password)
    except Exception as exc:
        log.info("keyring refused to store a password for %s: %s", service, type(exc).__name__)
        return False
    return True


def forget_password(public_url: str) -> None:
    ring = _keyring()
    if ring is None:
        return
    service, user = credential_key(public_url)
    try:
        ring.delete_password(service, user)
    except Exception:  # nothing stored, or the keyring refuses: either way nothing to forget
        return
