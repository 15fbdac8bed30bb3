"""One ``llm.calling`` reduced to what the analysis needs (:class:`Call`), and the anatomy's
message bags of its request over the facts cached on its parts (:class:`Locator`).
"""

from __future__ import annotations

from datetime import datetime

from inspector.anatomy.labelling import BagLayout, MessageFacts
from inspector.cache.layout import Layout
from inspector.cache.parts import Part
from inspector.cache.payload import Decoded
from inspector.cache.rules import CacheRules
from inspector.store import TokenUsage

__all__ = ["AREAS", "Call", "Locator"]

# The areas of a request in hash order (Call.area); "end" past its last part.
AREAS = ("tools", "settings", "system", "messages", "end")


def _epoch(iso: str | None) -> float | None:
    if not iso:
        return None
    try:
        return datetime.fromisoformat(iso).timestamp()
    except ValueError:
        return None


class Call:
    """One ``llm.calling`` reduced to what the analysis needs."""

    __slots__ = ("event_id", "session_id", "turn_id", "runtime_id", "model", "provider", "protocol", "attempt",
                 "step", "started_at", "t", "layout", "rules", "usage", "response_at", "_locator", "written",
                 "shared_tokens", "bp_reads", "ref", "failed", "routing_rate", "row")

    def __init__(self, event_id: str, session_id: str, turn_id: str, dec: Decoded, layout: Layout,
                 rules: CacheRules, row: int = 0) -> None:
        self.event_id = event_id
        self.row = row  # its place among the session's llm.calling rows
        self.session_id = session_id
        self.turn_id = turn_id
        self.runtime_id = dec.runtime_id
        self.model = dec.model
        self.provider = dec.provider
        self.protocol = dec.protocol
        self.attempt = dec.attempt
        self.step = 0
        self.started_at = dec.started_at
        self.t = _epoch(dec.started_at)
        self.layout = layout
        self.rules = rules
        self.usage: TokenUsage | None = None
        self.response_at: str | None = None
        # Its row's place in the store's write order (Store.llm_calling_order), which decides the
        # response that answers it.
        self.written: tuple = ()
        self._locator: Locator | None = None
        self.shared_tokens: int | None = None  # with the request it was compared to
        self.bp_reads: set[int] = set()
        # The call whose layout this one's was built against (``layout.same_as_ref`` counts the
        # parts they share); dropped once the locator is built, so calls do not chain in memory.
        self.ref: Call | None = None
        # Its response reported an error: the provider may never have read it, so it wrote nothing
        # to the cache and later requests cannot hit what it sent.
        self.failed = False
        self.routing_rate: int | None = None  # see CachePair.routing_rate

    @property
    def parts(self) -> list[Part]:
        return self.layout.parts

    @property
    def message_start(self) -> int:
        lay = self.layout
        return lay.n_tools + lay.n_settings + lay.n_system

    def cum_tokens(self) -> list[int]:
        return self.layout.cum

    @property
    def total_tokens(self) -> int:
        return self.layout.cum[-1]

    def area(self, d: int) -> int:
        """Index into :data:`AREAS` of part ``d``."""
        lay = self.layout
        if d >= len(lay.parts):
            return 4
        if d < lay.n_tools:
            return 0
        if d < lay.n_tools + lay.n_settings:
            return 1
        if d < lay.n_tools + lay.n_settings + lay.n_prompt:
            return 2
        return 3

    def locator(self) -> Locator:
        if self._locator is None:
            self._locator = Locator(self)
            self.ref = None
        return self._locator


class Locator(BagLayout):
    """The anatomy's message bags of one request (:class:`inspector.anatomy.labelling.BagLayout`) over the
    facts cached on its parts, with where each element's messages start (a Gemini content may
    hold several messages)."""

    __slots__ = ("elem_first",)

    def __init__(self, call: Call) -> None:
        start = call.message_start
        facts: list[MessageFacts] = []
        firsts: list[int] = []
        ref = call.ref
        if ref is not None and ref._locator is not None and ref.message_start == start:
            # The messages it shares with the call its layout was built against have the same facts.
            m = max(0, call.layout.same_as_ref - start)
            ref_loc = ref._locator
            if m:
                count = ref_loc.elem_first[m] if m < len(ref_loc.elem_first) else ref_loc.n
                facts = ref_loc.facts[:count]  # type: ignore[assignment]
                firsts = ref_loc.elem_first[:m]
                start += m
        lists = [part.facts() for part in call.parts[start:]]
        new = [f for group in lists for f in group]
        if len(new) == len(lists):
            firsts += range(len(facts), len(facts) + len(new))
        else:
            at = len(facts)
            for group in lists:
                firsts.append(at)
                at += len(group)
        facts += new
        self.elem_first = firsts
        super().__init__(facts)

    def region(self, k: int) -> str:
        """``history`` before the turn context (or the current input), else ``turn-context``."""
        return "history" if k < self.head_end else "turn-context"
