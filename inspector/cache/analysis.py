"""Prompt-cache analysis: where each request stops repeating the one before, why, and what the
provider will cache.

For every runtime of a session it pairs each turn's first request with the previous turn's, and
each later call of a turn (tool-loop step or retry) with the call before it. Per pair it measures
the shared prefix in the order providers hash a request (tools, request settings, system,
messages) in UTF-16 units and in tokens, names the first difference as an anatomy part,
predicts the cached tokens under the provider's rules (:mod:`inspector.cache.rules`), puts the
reported cached tokens beside them, gives the reason the cached prefix ends where it does, and
prices what was not cached. After the last pair it runs Covel's layout checks.

Speed is the design constraint: a 1,000-turn session holds about half a gigabyte of payloads,
and almost all of it repeats from one request to the next. So a payload is read only as far as
the provider body (:mod:`.payload`); the leading messages whose bytes recur from the runtime's
previous request are taken as they were, without parsing, and a later message whose bytes were
seen before is known by them (:mod:`.wire_reader`); what is new is interned by content (equal parts
are the same object, compared by identity; :mod:`.parts`); anatomy facts and names are computed
once per distinct part, and tokens once per distinct line of text (:mod:`.segments`,
:mod:`.tokenizing`). The anatomy's message-bag rules (:class:`inspector.anatomy.labelling.BagLayout`)
run over the per-message facts cached on the parts instead of labelling every request in full
(:class:`inspector.cache.calls.Locator`); the full labeller is still used for the part that differs
when it needs one (:mod:`.naming`).

This module is the analyser: it reads the rows, hands each runtime's finished turns to the pair
maker (:mod:`.pairs`), shares the work with the worker process (:mod:`.sharing`) and resumes a
finished analysis (:mod:`.resume`). Results are delivered progressively:
:meth:`SessionCacheAnalyser.pairs` is a generator that yields each pair as soon as its turn of
that runtime is complete and the batch of requests that completed it has been read (batches grow
from two requests to ``_READ_AHEAD``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from typing import Any

from inspector.cache.calls import Call
from inspector.cache.layout import build_layout
from inspector.cache.naming import DifferenceNamer
from inspector.cache.pairs import PairMaker, RuntimeState
from inspector.cache.parts import PARTS
from inspector.cache.payload import Unreadable, decode_payload, decoded_from_hint
from inspector.cache.results import (
    WORKER_FAILED,
    CacheAnalysis,
    CachePair,
    Finding,
    RuntimeSummary,
    copy_summary,
)
from inspector.cache.resume import Checkpoint, ResumeCursor
from inspector.cache.resume_state import StateError, parse_state, part_doc, restore_evidence, state_doc
from inspector.cache.routing import Routes, route_of, settle
from inspector.cache.rules import RuleSet, default_rules
from inspector.cache.sharing import AT_END, Merge, Share, settled
from inspector.cache.side_events import SIDE_EVENTS, SideEvents
from inspector.cache.tokenizing import TOKENIZER, TokenJob
from inspector.collector import fewer_collections
from inspector.json_deep import NESTED_TOO_DEEP
from inspector.store import Store, parse_json_object
from inspector.store.ordering import order_key

__all__ = ["SessionCacheAnalyser", "analyse_session", "analyse_store", "iter_cache_pairs", "run_analysis"]

# Requests read before their tokens are counted and their pairs made, at most.
_READ_AHEAD = 256


class SessionCacheAnalyser:
    """The cache analysis of one session, delivered as it goes.

    ``pairs()`` is a generator: each :class:`CachePair` is yielded as soon as the turn it belongs
    to is complete for its runtime (its responses are bound then) and the batch of requests read
    with the one that completed it is counted, in the session's order of turns. After it is
    exhausted, :attr:`findings`, :attr:`summaries` and :attr:`warnings` are
    complete. Closing the generator early (a view switching session) releases the store's
    cursor. The analyser reads the store only while ``pairs()`` or ``resume()`` runs.

    While a store grows (following a running engine), :meth:`resume` brings a finished analysis
    up to date from the rows written since, yielding only new and changed pairs.
    """

    def __init__(self, store: Store, session_id: str, *, rules: RuleSet | None = None,
                 runtime_id: str | None = None, naming_mode: str = "fast",
                 warn: Callable[[str], None] | None = None) -> None:
        self._namer = DifferenceNamer(naming_mode, store)
        self.store = store
        self.session_id = session_id
        self.rules = rules if rules is not None else default_rules()
        self.runtime_filter = runtime_id
        self.naming_mode = naming_mode
        self._warn = warn
        self.findings: list[Finding] = []
        self.summaries: list[RuntimeSummary] = []
        self.warnings: list[str] = []
        self._states: dict[str | None, RuntimeState] = {}
        self._side = SideEvents()
        self._maker = PairMaker(self._side, self._namer)
        self._routes = Routes()
        # Set to False to analyse in this process even when a worker process is running.
        self.use_worker = True
        self._share: Share | None = None  # which runtimes go to the worker, when this side decides
        self._shared = False  # pairing only some runtimes (either side of a shared analysis)
        self.shared_with_worker = False  # pairs() ran with the worker process to its end
        self._worker_part: dict[str, Any] | None = None  # then: its part of the resume state
        # and each pair's routing rate and rules, by event id
        self._delivered: dict[str, tuple[int | None, Any]] = {}
        self._rows = 0  # llm.calling rows read so far (a call's ``row``)
        # per runtime, in the order of their first requests: (that request's row, the runtime's
        # findings, its summary); complete with findings and summaries
        self.groups: list[tuple[int, list[Finding], RuntimeSummary]] = []
        self._done = False
        # What resume() needs to read only what was written since the last run.
        self._resumable = False
        self._cursor = ResumeCursor()
        self._written: dict[str, tuple] = {}  # request event id -> its write-order key
        self.restarted = False  # the last resume() analysed the session again from its start

    # -- public --------------------------------------------------------------------------------

    def pairs(self) -> Iterator[CachePair]:
        if self._done:
            raise RuntimeError("pairs() was already run; create a new analyser")
        with fewer_collections():
            worker = self._parallel_worker()
            if worker is not None:
                yield from self._pairs_in_parallel(worker)
                return
            self._done = True
            yield from settled(self._items())

    def resume(self, turn_ids: Iterable[str] | None = None) -> Iterator[CachePair]:
        """After :meth:`pairs` (or a previous resume) ran to its end: the pairs that are new or
        changed since, reading only the requests written since and the side events of the turns
        they may touch. Each turn's last pairs are made again (its later requests or responses may
        change them), keyed by ``event_id`` like the earlier ones. ``turn_ids``: the executions
        with new rows when the caller knows them (a follow delta); None reads every side event of
        the session. Whenever the new rows could change an earlier, settled pair (a row sorting
        before one already read, a response to a settled turn), the session is analysed again
        from the start and every pair is yielded. Findings and summaries are then those of the
        whole session so far, equal to a fresh analysis's. An analysis shared with a worker
        process (:mod:`inspector.cache.worker`) holds only its own runtimes: its first resume
        analyses the session again, in this process."""
        self.restarted = False
        with fewer_collections():
            if not self._resumable and self.shared_with_worker:
                self._take_state()  # a shared analysis goes on from its state, in this process
            if not self._resumable:
                yield from self._restart()
                return
            self._resumable = False
            side = self._cursor.new_side_events(self.store, self.session_id, self._side, self._states.values(), turn_ids)
            rows = self._cursor.new_calling_rows(self.store, self.session_id, self._written)
            if side is None or rows is None:
                yield from self._restart()
                return
            self._side.load(side)
            yield from settled(self._consume(iter(rows)))
            yield from settled(self._finish())

    def _restart(self) -> Iterator[CachePair]:
        fresh = self._fresh()
        for name in fresh.__dict__:
            setattr(self, name, getattr(fresh, name))
        self._done = True
        self.restarted = True
        yield from settled(self._items())

    # -- a resume state kept between processes (inspector.cache.resume_state) ------------------

    def resume_state(self) -> dict[str, Any] | None:
        """What :meth:`restored` needs to resume this analysis in another process, as plain JSON;
        None when it cannot be resumed there (it did not run to its end, was shared with the
        worker process, is restricted to one runtime or names differences in the full mode)."""
        if self.runtime_filter is not None or self.naming_mode != "fast":
            return None
        if self.shared_with_worker:  # this side's runtimes and the worker's part
            if self._worker_part is None:
                return None
            return state_doc(self._states.values(), self._rows, self._routes.times, self._cursor, self._side.seen,
                             self._worker_part, {event_id: rate for event_id, (rate, _) in self._delivered.items()})
        if not self._resumable or self._shared:
            return None
        return state_doc(self._states.values(), self._rows, self._routes.times, self._cursor, self._side.seen)

    def worker_part(self) -> dict[str, Any] | None:
        """The worker's side of a shared analysis, at its end: its runtimes' part of the resume
        state, which the app's side puts together with its own (:meth:`resume_state`)."""
        return part_doc(self._states.values(), self._cursor.read_turns)

    @classmethod
    def restored(cls, store: Store, analysis: CacheAnalysis, state: Any, *, rules: RuleSet | None = None,
                 warn: Callable[[str], None] | None = None) -> SessionCacheAnalyser:
        """An analyser that stands where the one whose :meth:`resume_state` gave ``state`` stood
        after making ``analysis``: its :meth:`resume` reads only what the store gained since. The
        runtimes' live calls are read again from ``store``; the state is checked value by value.
        :class:`StateError` when it is malformed or its requests are no longer in the store."""
        return cls._from_state(store, analysis.session_id, state, analysis.warnings,
                               {pair.event_id: pair.rules for pair in analysis.pairs}, rules=rules, warn=warn)

    @classmethod
    def _from_state(cls, store: Store, session_id: str, state: Any, warnings: list[str], rules_of: dict[str, Any], *,
                    rules: RuleSet | None, warn: Callable[[str], None] | None) -> SessionCacheAnalyser:
        """:meth:`restored`, given the analysis's warnings and its pairs' rules by event id."""
        parsed = parse_state(state, session_id)
        analyser = cls(store, session_id, rules=rules, warn=warn)
        analyser.use_worker = False
        analyser._done = True
        analyser.warnings = list(warnings)
        analyser._rows = parsed.rows
        PARTS.trim()
        wanted = [facts.event_id for runtime in parsed.runtimes for facts in runtime.calls]
        rows = {row[3]: row for row in store.llm_calling_rows_by_id(wanted)}
        layouts = []
        for runtime in parsed.runtimes:
            runtime_state = RuntimeState(session_id, runtime.runtime_id, runtime.first_row)
            calls = []
            for facts in runtime.calls:
                calls.append(analyser._call_again(rows.get(facts.event_id), facts, runtime.runtime_id,
                                                  calls[-1] if calls else None))
                layouts.append(calls[-1].layout)
            role = {name: calls[i] if i is not None else None for name, i in runtime.roles.items()}
            runtime_state.turn_id, runtime_state.step = runtime.turn_id, runtime.step
            runtime_state.pending = [calls[i] for i in runtime.pending]
            runtime_state.last, runtime_state.last_ok = role["last"], role["lastOk"]
            runtime_state.turn_first, runtime_state.last_read = role["turnFirst"], role["lastRead"]
            runtime_state.summary = runtime.summary

            def rules_by_event(event_id: str) -> Any:
                found = rules_of.get(event_id)
                if found is None:
                    raise StateError("its evidence names a pair the analysis does not hold")
                return found

            runtime_state.evidence = restore_evidence(runtime.evidence, {c.event_id: c.bp_reads for c in calls},
                                               rules_by_event)
            analyser._states[runtime.runtime_id] = runtime_state
        job = TokenJob(layouts, PARTS, None)
        job.finish(job.run())
        analyser._routes.times = parsed.routes
        cursor = analyser._cursor
        cursor.calls_seen, cursor.read_turns = parsed.calls_seen, parsed.read_turns
        cursor.last_event_id, cursor.cursor, cursor.last_order = parsed.last_event_id, parsed.cursor, parsed.last_order
        # The side events the pairs still to be made read are those of the pending turns; the
        # rest are known as seen, so a resume tells a new one from an old one.
        open_turns = dict.fromkeys(s.turn_id for s in analyser._states.values() if s.pending and s.turn_id is not None)
        analyser._side.load(ev for turn_id in open_turns for ev in store.events(session_id, turn_id, types=SIDE_EVENTS)
                            if ev.id in parsed.side_seen)
        analyser._side.seen.update(parsed.side_seen)
        analyser._written.update((c.event_id, c.written) for s in analyser._states.values() for c in s.pending)
        analyser._resumable = True
        return analyser

    def _take_state(self) -> None:
        """After an analysis shared with the worker process: stand where it ended, from its resume
        state (its runtimes' states built again in this process), so that :meth:`resume` reads
        only the rows written since; unchanged when its state cannot be had."""
        state = self.resume_state()
        if state is None:
            return
        try:
            again = self._from_state(self.store, self.session_id, state, self.warnings,
                                     {event_id: rules for event_id, (_, rules) in self._delivered.items()},
                                     rules=self.rules, warn=self._warn)
        except StateError:
            return
        for name in again.__dict__:
            setattr(self, name, getattr(again, name))

    def _call_again(self, row: tuple | None, facts: Any, runtime_id: str | None, reference: Call | None) -> Call:
        """A live call of a resume state (:class:`inspector.cache.resume_state.CallFacts`) built
        again from its row, with the values the analysis had given it."""
        if row is None or row[0] != self.session_id:
            raise StateError("a request it names is no longer in the session")
        try:
            dec = decode_payload(row[2])
            call = self._call_of((row[0], row[1], row[3]), dec, facts.row, reference)
        except (Unreadable, ValueError, TypeError, RecursionError):
            raise StateError("a request it names no longer reads as it did") from None
        if dec.runtime_id != runtime_id:
            raise StateError("a request it names is another runtime's")
        call.step, call.written, call.usage = facts.step, facts.written, facts.usage
        call.response_at, call.failed, call.shared_tokens = facts.response_at, facts.failed, facts.shared_tokens
        call.routing_rate = facts.routing_rate
        call.bp_reads = facts.reads
        return call

    def _fresh(self, warn: Callable[[str], None] | None = None) -> SessionCacheAnalyser:
        """A new analyser of the same session, with the same settings, that analyses alone."""
        fresh = SessionCacheAnalyser(self.store, self.session_id, rules=self.rules, runtime_id=self.runtime_filter,
                                     naming_mode=self.naming_mode, warn=warn if warn is not None else self._warn)
        fresh.use_worker = False
        return fresh


    # -- sharing the work with a worker process -----------------------------------------------

    def shared_items(self, rows: Iterable[tuple], *, side_events_handed: bool = False) -> Iterator[tuple]:
        """The worker's side of a shared analysis: the stream of items (see below) of the rows it
        is handed, each ``(session_id, turn_id, raw, event_id, row number, (decode hint, write-order
        key))``. With
        ``side_events_handed``, the side events of its runtimes come from the app's side
        (:meth:`take_side_events`, before their rows) instead of being read again."""
        if self._done:
            raise RuntimeError("pairs() was already run; create a new analyser")
        self._done = True
        self.use_worker = False
        self._shared = True
        with fewer_collections():
            PARTS.trim()
            if not side_events_handed:
                self._side.load(self.store.events(self.session_id, types=SIDE_EVENTS))
            yield from self._consume(rows)
            yield from self._finish()

    def take_side_events(self, handed: tuple) -> None:
        """The worker's side: take what the app's side said of one of its runtimes' side events."""
        self._side.take(handed)

    def _parallel_worker(self) -> Any:
        """A worker process claimed for this analysis, when one is ready and it can help."""
        if not self.use_worker or self.runtime_filter is not None or self._shared:
            return None
        spec = getattr(self.store, "open_spec", None)
        if spec is None:
            return None
        from inspector.cache.worker import claim_worker

        return claim_worker()

    def _pairs_in_parallel(self, worker: Any) -> Iterator[CachePair]:
        """pairs(), with the worker process pairing about half of the runtimes."""
        from inspector.cache.worker import WorkerGone

        merge = Merge()
        delivered: tuple | None = None  # the key of the last pair yielded
        delivered_ = self._delivered
        try:
            job = worker.start_job(self.store.open_spec, self.session_id, self.rules, self.naming_mode)
        except WorkerGone:
            self.use_worker = False
            yield from self.pairs()
            return
        self._done = True
        self._shared = True
        self._share = Share(job.give, lambda runtime_id: job.hand_over(self._side.of_runtime(runtime_id)))
        own = self._items(job.rows_end)
        try:
            try:
                for item in own:
                    merge.add(0, item)
                    if item[0] == "m":
                        job.flush()
                        merge.receive(job.take(block=False))
                        for key, pair in merge.ready():
                            delivered = key
                            delivered_[pair.event_id] = (pair.routing_rate, pair.rules)
                            yield pair
                while not job.ended:
                    merge.receive(job.take(block=True))
                    for key, pair in merge.ready():
                        delivered = key
                        delivered_[pair.event_id] = (pair.routing_rate, pair.rules)
                        yield pair
            except WorkerGone as exc:
                own.close()
                job.close()
                yield from self._finish_alone(delivered, str(exc))
                return
        finally:
            own.close()
            job.close()
        self._worker_part = merge.worker_part
        self._routes = merge.counter  # it counted every route, in row order, as an analysis alone does
        self.groups = sorted(self.groups + merge.groups, key=lambda group: group[0])
        self.findings = [f for _, found, _ in self.groups for f in found]
        self.summaries = [summary for _, _, summary in self.groups]
        self._resumable = False  # this analyser holds only its own runtimes (see resume())
        self.shared_with_worker = True

    def _finish_alone(self, delivered: tuple | None, why: str) -> Iterator[CachePair]:
        """The worker failed: analyse the session again here and yield the pairs after the last
        one delivered (an analysis makes them in the same order), so none is lost or repeated."""
        said = set(self.warnings)
        warn = self._warn

        def once(message: str) -> None:
            if message not in said and warn is not None:
                warn(message)

        fresh = self._fresh(warn=once)
        fresh._done = True
        fresh._note(f"{WORKER_FAILED} ({why}); the analysis finished in this process")
        for item in fresh._items():
            if item[0] == "p" and (delivered is None or item[1] > delivered):
                settle(item[2], item[3])
                yield item[2]
        for name in fresh.__dict__:
            setattr(self, name, getattr(fresh, name))


    # -- the stream of pairs and marks ---------------------------------------------------------
    #
    # The analysis runs as a stream of items: ("p", key, pair, gap, row) for a pair, keyed by its
    # place in the order of a whole analysis (PairMaker.flush), with the gap for its routing note
    # (routing.settle) and the row of its request; ("m", watermark, routes) after each batch:
    # every pair keyed before ``watermark`` (a row number) has come, with the (row, time, route)
    # of each request of the batch when this analyser holds only some runtimes (sharing.Share).
    # Alone, an analyser counts each route's load itself, in row order (_take), and its pairs
    # come out in key order.

    def _items(self, rows_read: Callable[[], None] | None = None) -> Iterator[tuple]:
        """The whole stream; ``rows_read`` is called once the last row has been read."""
        PARTS.trim()
        self._side.load(self.store.events(self.session_id, types=SIDE_EVENTS))
        self._written = self.store.llm_calling_order(self.session_id)
        rows = self.store.iter_llm_calling_rows(self.session_id, mapped=True)
        try:
            yield from self._consume(rows if self._share is None else self._share.window(rows), rows_read)
        finally:
            close = getattr(rows, "close", None)
            if close is not None:
                close()
        yield from self._finish()

    def _consume(self, rows: Iterable[tuple], rows_read: Callable[[], None] | None = None) -> Iterator[tuple]:
        # Requests are read a few at a time; the first batches are small so the first pairs come
        # at once. The tokenizer releases the interpreter lock, so each batch's new text is
        # tokenized on a thread of its own while the next batch is read and the one before it
        # paired: on a second core the tokens cost next to nothing.
        running: tuple[list[Call], int, TokenJob, Future] | None = None
        for calls, read in self._batches(rows):
            job = TokenJob([call.layout for call in calls], PARTS, running[2] if running else None)
            started = TOKENIZER.submit(job.run)
            if running is not None:
                yield from self._take(*running)
            running = (calls, read, job, started)
        if rows_read is not None:
            rows_read()
        if running is not None:
            yield from self._take(*running)
        yield ("m", self._rows, [])

    def _batches(self, rows: Iterable[tuple]) -> Iterator[tuple[list[Call], int]]:
        """Batches of calls, each with the number of rows read when it was full."""
        batch: list[Call] = []
        size = 2
        for row in rows:
            call = self._read(row)
            if call is not None:
                batch.append(call)
            if len(batch) >= size:
                yield batch, self._rows
                batch = []
                size = min(2 * size, _READ_AHEAD)
        if batch:
            yield batch, self._rows

    def _finish(self) -> Iterator[tuple]:
        """Flush each runtime's last turn, then put those turns back as pending: a later resume
        adds the requests that arrive for them and makes their pairs again."""
        saved = [Checkpoint(state, self._side.responses) for state in self._states.values() if state.pending]
        for state in self._states.values():
            yield from self._maker.flush(state, AT_END)
        self.groups = [(state.first_row, self._findings_of(state), copy_summary(state.summary))
                       for state in self._states.values()]
        for checkpoint in saved:
            checkpoint.restore()
        self.findings = [f for _, found, _ in self.groups for f in found]
        self.summaries = [summary for _, _, summary in self.groups]
        self._resumable = True
        yield ("m", AT_END, [])

    def _take(self, calls: list[Call], read: int, job: TokenJob, tokenized: Future) -> Iterator[tuple]:
        """Once the new text of requests just read is tokenized, count their tokens, then add
        each to its runtime's turn, making the pairs of every turn that the request completes."""
        job.finish(tokenized.result())
        routes: list[tuple[int, float, tuple]] = []
        alone = not self._shared
        for call in calls:
            state = self._states[call.runtime_id]
            if state.turn_id != call.turn_id:
                yield from self._maker.flush(state, call.row)
                state.turn_id = call.turn_id
                state.step = -1
            if call.attempt == 0 or state.step < 0:
                state.step += 1
            call.step = state.step
            route = route_of(call)
            if route is not None:
                if alone:
                    call.routing_rate = self._routes.count(route, call.t)  # type: ignore[arg-type]
                else:
                    routes.append((call.row, call.t, route))
            state.pending.append(call)
        yield ("m", read, routes)


    # -- reading -------------------------------------------------------------------------------

    def _note(self, message: str) -> None:
        self.warnings.append(message)
        if self._warn is not None:
            self._warn(message)

    def _written_of(self, event_id: str) -> tuple:
        """A request row's place in write order (what binds its response, Covel's rule)."""
        found = self._written.get(event_id)
        if found is None:  # written after the order was read: the store grows meanwhile
            ev = self.store.event(event_id)
            found = self._written[event_id] = order_key(ev) if ev is not None else ("\U0010ffff", 0, event_id)
        return found

    def _read(self, row: tuple) -> Call | None:
        session_id, turn_id, raw = row[0], row[1], row[2]
        event_id = row[3] if len(row) > 3 else ""
        index = row[4] if len(row) > 4 else self._rows  # the worker is handed rows with their number
        self._rows = index + 1
        self._cursor.saw_call(event_id)
        share = self._share
        handed = row[5] if len(row) > 5 else None
        try:
            # The worker is handed each row with what the app's side decoded of it.
            dec = decode_payload(raw) if handed is None else decoded_from_hint(raw, handed[0])
        except (Unreadable, ValueError, TypeError) as exc:
            self._note(f"skipped trace_events row {event_id} (turn {turn_id}): {exc}")
            return None
        if self.runtime_filter is not None and dec.runtime_id != self.runtime_filter:
            return None
        if share is not None and not share.owns(dec.runtime_id, row):
            share.give(index, row, (dec.hint(), self._written_of(event_id)))
            return None
        state = self._states.get(dec.runtime_id)
        try:
            call = self._call_of((session_id, turn_id, event_id), dec, index,
                                 state.last_read if state is not None else None)
        except RecursionError:  # our walks recurse; V8 (Covel) reads such a payload
            self._note(f"skipped trace_events row {event_id} (turn {turn_id}): {NESTED_TOO_DEEP}")
            return None
        if state is None:
            state = self._states[dec.runtime_id] = RuntimeState(self.session_id, dec.runtime_id, index)
        self._cursor.read_turns.add((turn_id, dec.runtime_id))
        if self.naming_mode == "full":
            self._namer.payloads[event_id] = parse_json_object(raw, merge_data=True)[0]
        call.written = self._written_of(event_id) if handed is None else handed[1]
        state.last_read = call
        return call

    def _call_of(self, ids: tuple[str, str, str], dec: Any, index: int, reference: Call | None) -> Call:
        """The call of a decoded row (``ids``: its session, turn and event id), its layout built
        against ``reference`` (the runtime's request read before it) when there is one: what
        equals it is taken as it is."""
        rules = self.rules.resolve(dec.provider, dec.protocol, dec.model, dec.started_at)  # priced on its own day
        layout = build_layout(dec, PARTS, rules, reference.layout if reference is not None else None)
        session_id, turn_id, event_id = ids
        call = Call(event_id, session_id, turn_id, dec, layout, rules, index)
        if reference is not None and layout.same_as_ref:
            call.ref = reference
        return call

    def _findings_of(self, state: RuntimeState) -> list[Finding]:
        return state.evidence.findings(self.session_id, state.runtime_id, state.summary.pairs,
                                       state.breakpoint_limit())


def iter_cache_pairs(store: Store, session_id: str, *, rules: RuleSet | None = None,
                     runtime_id: str | None = None) -> Iterator[CachePair]:
    """The pairs of one session, progressively (see :class:`SessionCacheAnalyser`)."""
    return SessionCacheAnalyser(store, session_id, rules=rules, runtime_id=runtime_id).pairs()


def analyse_session(store: Store, session_id: str, *, rules: RuleSet | None = None,
                    runtime_id: str | None = None, on_pair: Callable[[CachePair], None] | None = None,
                    should_stop: Callable[[], bool] | None = None, naming_mode: str = "fast",
                    warn: Callable[[str], None] | None = None) -> CacheAnalysis:
    """The whole analysis of one session. ``on_pair`` sees each pair as it is made;
    ``should_stop`` is polled between pairs (a cancelled view) and ends the run early."""
    analyser = SessionCacheAnalyser(store, session_id, rules=rules, runtime_id=runtime_id,
                                    naming_mode=naming_mode, warn=warn)
    return run_analysis(analyser, analyser.pairs(), on_pair=on_pair, should_stop=should_stop)


def run_analysis(analyser: SessionCacheAnalyser, gen: Iterator[CachePair], *,
                 on_pair: Callable[[CachePair], None] | None = None,
                 should_stop: Callable[[], bool] | None = None) -> CacheAnalysis:
    """The :class:`CacheAnalysis` of ``gen``, a run of ``analyser`` (its :meth:`pairs` or
    :meth:`resume`) taken to its end or until ``should_stop``; closed whatever happens."""
    pairs: list[CachePair] = []
    try:
        for pair in gen:
            pairs.append(pair)
            if on_pair is not None:
                on_pair(pair)
            if should_stop is not None and should_stop():
                break
    finally:
        gen.close()
    return CacheAnalysis(analyser.session_id, pairs, analyser.findings, analyser.summaries, analyser.warnings)


def analyse_store(store: Store, session_id: str | None = None, *, rules: RuleSet | None = None,
                  runtime_id: str | None = None, warn: Callable[[str], None] | None = None) -> list[CacheAnalysis]:
    """Every session (or the one asked for), in the store's session order."""
    ids: Iterable[str] = [session_id] if session_id is not None else [s.id for s in store.sessions()]
    return [analyse_session(store, sid, rules=rules, runtime_id=runtime_id, warn=warn) for sid in ids]
