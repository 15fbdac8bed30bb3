"""The request options that key a cache level, as data: the ``[cache_keys]`` section of
``resources/provider_rules.toml`` (each row: the wire protocols, the option's field path, the
cache levels a change of it drops, its sources).

The rules loader (inspector.cache.rules) parses and merges the section with this module, and each
resolved :class:`~inspector.cache.rules.CacheRules` carries its wire's keys (``keyed_options``), so
a user's ``--rules`` file keys the cache as the shipped table does. A layout keeps the values of its
request's keyed options (:func:`option_values`); two requests whose values differ cannot read what
the dropped levels cached (:func:`changed_options`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.json_deep import json_key
from inspector.messages import localized

__all__ = ["LEVELS", "CacheKey", "changed_options", "merge_cache_keys", "option_values", "parse_cache_keys",
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
        raise ValueError(localized("cache_keys.options: expected an array of tables ([[cache_keys.options]])"))
    by_protocol: dict[str, list[CacheKey]] = {}
    for i, row in enumerate(rows):
        where = f"cache_keys.options[{i}]"
        if not isinstance(row, dict) or set(row) - {"protocols", "field", "drops", "sources"}:
            raise ValueError(localized("{where}: expected the keys protocols, field, drops, sources", where=where))
        field, drops, protocols = row.get("field"), row.get("drops"), row.get("protocols")
        if not isinstance(field, str) or not field or not isinstance(protocols, list) or not protocols:
            raise ValueError(localized("{where}: field (a string) and protocols (a list) are required", where=where))
        if not isinstance(drops, list) or not drops or any(d not in LEVELS for d in drops):
            raise ValueError(localized("{where}.drops: expected a list of {levels}", where=where,
                                       levels=", ".join(LEVELS)))
        # A level dropped drops the later ones: keep them all, in hash order.
        first = min(LEVELS.index(d) for d in drops)
        key = CacheKey(field, tuple(field.split(".")), LEVELS[first:], tuple(row.get("sources") or ()))
        for protocol in protocols:
            by_protocol.setdefault(protocol, []).append(key)
    return {p: tuple(keys) for p, keys in by_protocol.items()}


def parse_cache_keys(section: Any, where: str = "cache_keys") -> dict[str, tuple[CacheKey, ...]]:
    """The keyed options per wire protocol of one rules file's ``[cache_keys]`` section (``{}``
    when the file has none). Raises ValueError naming the offending row."""
    if section is None:
        return {}
    if not isinstance(section, dict) or set(section) - {"options"}:
        raise ValueError(localized("{where}: expected the table options ([[cache_keys.options]])", where=where))
    return _check(section.get("options", []))


def merge_cache_keys(base: dict[str, tuple[CacheKey, ...]], user: dict[str, tuple[CacheKey, ...]]
                     ) -> dict[str, tuple[CacheKey, ...]]:
    """A protocol's rows in the user's file replace the shipped rows for that protocol; the other
    protocols keep theirs."""
    return {**base, **user}


def top_level_fields(keys: tuple[CacheKey, ...]) -> frozenset[str]:
    """The body members holding one of these keyed options."""
    return frozenset(key.path[0] for key in keys)


_ABSENT = object()


def _value_at(fields: dict, path: tuple[str, ...]) -> Any:
    value: Any = fields
    for name in path:
        if not isinstance(value, dict) or name not in value:
            return _ABSENT
        value = value[name]
    return value


def option_values(keys: tuple[CacheKey, ...], fields: dict) -> tuple[tuple[str, Any], ...]:
    """``(field, value key)`` of each keyed option the body sets, in table order; () when none
    (most bodies: the common case stays one tuple compare)."""
    found = []
    for key in keys:
        value = _value_at(fields, key.path)
        if value is not _ABSENT:
            found.append((key.field, json_key(value)))
    return tuple(found)


def changed_options(keys: tuple[CacheKey, ...], was: tuple[tuple[str, Any], ...],
                    now: tuple[tuple[str, Any], ...]) -> list[CacheKey]:
    """The keyed options whose value differs (set, unset or changed) between two requests."""
    if was == now:
        return []
    a, b = dict(was), dict(now)
    return [key for key in keys if a.get(key.field, _ABSENT) != b.get(key.field, _ABSENT)]
