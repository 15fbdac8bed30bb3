"""Routing: automatic caches pick the machine whose cache a request can read by its route (the
model, the cache key, a hash of the first tokens; provider-caching §3.2). How many requests went
on each route in the minute up to each one, and the note a pair's reason gets when that was more
than one machine takes.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from inspector import wording
from inspector.cache.calls import Call
from inspector.cache.rules import CacheRules, over_routing_limit
from inspector.cache.tokenizing import leading_tokens_digest
from inspector.json_deep import json_key

__all__ = ["ROUTE_APPENDED", "ROUTE_CAUSE", "Routes", "over_routing_limit", "overflow_note", "route_of", "settle"]


def overflow_note(rules: CacheRules, rate: int | None) -> str | None:
    """Why a request may have missed although its prefix was cached: its route carried more
    requests a minute than one machine takes (provider-caching §3.2)."""
    if not over_routing_limit(rules, rate):
        return None
    return wording.ROUTE_OVERFLOW.format(rate=rate, prefix=rules.routing_prefix_tokens,
                                         limit=f"{rules.overflow_requests_per_minute:g}", source=rules.source)


# A pair's reason detail may name its route's load (overflow_note), which is known only once every
# request before it has been read, by whichever process read it (inspector.cache.worker). So the detail is
# made with a gap at that place, and settle fills it: with "; <note>" or nothing after a reason
# (ROUTE_APPENDED), or with the note or wording.NO_VISIBLE_REASON in an unexplained miss (ROUTE_CAUSE).
ROUTE_APPENDED = "appended"


ROUTE_CAUSE = "cause"


def settle(pair: Any, gap: tuple[int, str] | None) -> None:
    """Fill the routing gap of a :class:`~inspector.cache.results.CachePair`'s ``reason_detail``
    once its ``routing_rate`` is known."""
    if gap is None:
        return
    at, kind = gap
    note = overflow_note(pair.rules, pair.routing_rate)
    if kind == ROUTE_CAUSE:
        text = note if note is not None else wording.NO_VISIBLE_REASON
    else:
        text = f"; {note}" if note is not None else ""
    pair.reason_detail = pair.reason_detail[:at] + text + pair.reason_detail[at:]


class Routes:
    """How many requests went on each route in the minute up to each one, it included, counted in
    the order the requests were written (CachePair.routing_rate)."""

    __slots__ = ("times",)

    def __init__(self) -> None:
        # per route, the times of its requests not yet a minute older than its latest (what a
        # resume state keeps: inspector.cache.resume_state)
        self.times: dict[tuple, deque[float]] = {}

    def count(self, route: tuple, t: float) -> int:
        times = self.times.get(route)
        if times is None:
            times = self.times[route] = deque()
        while times and times[0] <= t - 60:
            times.popleft()
        times.append(t)
        return len(times)


def route_of(call: Call) -> tuple | None:
    """The route that picks the machine whose cache a request can read (provider-caching
    §3.2): the model, the cache key, and a hash of the first tokens. None where the rules do
    not route by prefix or the request has no time."""
    size = call.rules.routing_prefix_tokens
    if size is None or call.t is None:
        return None
    lay = call.layout
    rest = lay.body.rest if lay.body is not None else {}
    key = rest.get("prompt_cache_key", rest.get("user"))
    return (call.model, None if key is None else json_key(key), leading_tokens_digest(lay, size))
