"""The request options that key a cache level, as data: the ``[cache_keys]`` section of
``resources/provider_rules.toml`` (each row: the wire protocols, the option's field path, the
cache levels a change of it drops, its sources).

A layout keeps the values of its request's keyed options (:func:`option_values`); two requests
whose values differ cannot read what the dropped levels cached (:func:`changed_options`), and
:func:`reach_after` turns the dropped levels into the first part no longer readable.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from typing import Any

from inspector.cache.rules import DEFAULT_RULES_PATH
from inspector.json_deep import json_key

__all__ = ["LEVELS", "CacheKey", "cache_keys", "changed_options", "load_cache_keys", "option_values",
           "top_level_fields"]


# The cache levels in hash order; a level dropped drops every later one with it.
LEVELS = ("tools", "system", "messages")


@dataclass(frozen=True, slots=True)
class CacheKey:
    field: str  # the body path, dotted ("output_config.effort")
    path: tuple[str, ...]
    drops: tuple[str, ...]  # the levels, in hash order
    sources: tuple[str, ...]

    @property
    def first_dropped(self) -> str:
        return self.drops[0]


def _check(rows: Any) -> dict[str, tuple[CacheKey, ...]]:
    if not isinstance(rows, list):
        raise ValueError("cache_keys.options: expected an array of tables ([[cache_keys.options]])")
    by_protocol: dict[str, list[CacheKey]] = {}
    for i, row in enumerate(rows):
        where = f"cache_keys.options[{i}]"
        if not isinstance(row, dict) or set(row) - {"protocols", "field", "drops", "sources"}:
            raise ValueError(f"{where}: expected the keys protocols, field, drops, sources")
        field, drops, protocols = row.get("field"), row.get("drops"), row.get("protocols")
        if not isinstance(field, str) or not field or not isinstance(protocols, list) or not protocols:
            raise ValueError(f"{where}: field (a string) and protocols (a list) are required")
        if not isinstance(drops, list) or not drops or any(d not in LEVELS for d in drops):
            raise ValueError(f"{where}.drops: expected a list of {', '.join(LEVELS)}")
        # A level dropped drops the later ones: keep them all, in hash order.
        first = min(LEVELS.index(d) for d in drops)
        key = CacheKey(field, tuple(field.split(".")), LEVELS[first:], tuple(row.get("sources") or ()))
        for protocol in protocols:
            by_protocol.setdefault(protocol, []).append(key)
    return {p: tuple(keys) for p, keys in by_protocol.items()}


def _read_section(path: Any) -> dict:
    with open(path, "rb") as fh:
        section = tomllib.load(fh).get("cache_keys", {})
    if not isinstance(section, dict) or set(section) - {"options"}:
        raise ValueError("cache_keys: expected the table options ([[cache_keys.options]])")
    return section


def load_cache_keys(path: Any = DEFAULT_RULES_PATH) -> dict[str, tuple[CacheKey, ...]]:
    """The keyed options per wire protocol, from the rules file's ``[cache_keys]`` section."""
    return _check(_read_section(path).get("options", []))


_keys: dict[str, tuple[CacheKey, ...]] | None = None


def cache_keys(protocol: str | None) -> tuple[CacheKey, ...]:
    """The options that key a cache level on this wire (none for an unknown one)."""
    global _keys
    if _keys is None:
        _keys = load_cache_keys()
    return _keys.get(protocol or "", ())


_top_level: dict[str | None, frozenset[str]] = {}


def top_level_fields(protocol: str | None) -> frozenset[str]:
    """The body members holding a keyed option on this wire."""
    found = _top_level.get(protocol)
    if found is None:
        found = _top_level[protocol] = frozenset(key.path[0] for key in cache_keys(protocol))
    return found


_ABSENT = object()


def _value_at(fields: dict, path: tuple[str, ...]) -> Any:
    value: Any = fields
    for name in path:
        if not isinstance(value, dict) or name not in value:
            return _ABSENT
        value = value[name]
    return value


def option_values(protocol: str | None, fields: dict) -> tuple[tuple[str, Any], ...]:
    """``(field, value key)`` of each keyed option the body sets, in table order; () when none
    (most bodies: the common case stays one tuple compare)."""
    found = []
    for key in cache_keys(protocol):
        value = _value_at(fields, key.path)
        if value is not _ABSENT:
            found.append((key.field, json_key(value)))
    return tuple(found)


def changed_options(protocol: str | None, was: tuple[tuple[str, Any], ...],
                    now: tuple[tuple[str, Any], ...]) -> list[CacheKey]:
    """The keyed options whose value differs (set, unset or changed) between two requests."""
    if was == now:
        return []
    a, b = dict(was), dict(now)
    return [key for key in cache_keys(protocol) if a.get(key.field, _ABSENT) != b.get(key.field, _ABSENT)]
