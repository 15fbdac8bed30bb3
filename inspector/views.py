"""What the CLI prints and the app shows, computed once over the store, the wire model and the anatomy.

Every function returns plain data so the command line, the Qt models and the tests read the same
numbers: the typed rows of :mod:`inspector.rows` (``*_table``, ``turn_runtimes``,
``session_runtimes``), their JSON (``*_rows``, ``*_runtime_groups``: exactly what the command line
prints), or small objects with ``to_json``/``to_text``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.covel.events import RUNTIME_LIFECYCLE_TYPES
from inspector.numbering import shown_label, step_attempt_text
from inspector.search.needles import search_needles
from .rows import RequestRow, RuntimeRow, SessionRow, TurnRow
from .store import LlmCall, Store
from .store.turn_counts import total_turn_counts


def session_table(store: Store, *, event_counts: bool | None = None) -> list[SessionRow]:
    """One row per session. ``events`` is None when not counted: by default on a store of more
    than a million trace rows, where counting them would hold up opening; fill them in later with
    :func:`session_event_counts`."""
    return [SessionRow.of(s) for s in store.sessions(event_counts=event_counts)]


def session_rows(store: Store, *, event_counts: bool | None = None) -> list[dict[str, Any]]:
    """:func:`session_table` as JSON (``sessions --json``, and the rows the window passes on)."""
    return [row.to_json() for row in session_table(store, event_counts=event_counts)]


def session_event_counts(store: Store, session_ids: list[str] | None = None) -> dict[str, int]:
    """Trace rows per session (the ``events`` figure :func:`session_rows` may leave out)."""
    ids = session_ids if session_ids is not None else [s.id for s in store.sessions(event_counts=False)]
    return store.session_event_counts(ids)


def turn_table(store: Store, session_id: str) -> list[TurnRow]:
    """The executions of a session, in order of first appearance (``Store.turns``)."""
    return [TurnRow.of(t) for t in store.turns(session_id)]


def turn_rows(store: Store, session_id: str) -> list[dict[str, Any]]:
    """:func:`turn_table` as JSON (``turns --json``)."""
    return [row.to_json() for row in turn_table(store, session_id)]


def request_table(store: Store, session_id: str | None = None, turn_id: str | None = None,
                  runtime_id: str | None = None) -> list[RequestRow]:
    """The model requests of a session (every session when None), narrowed to a turn or a runtime."""
    # Only the ids, in the listing's order: the per-session event counts are not needed.
    sessions = [session_id] if session_id else [s.id for s in store.sessions(event_counts=False)]
    return [RequestRow.of(call) for sid in sessions
            for call in store.llm_calls(sid, turn_id=turn_id, runtime_id=runtime_id)]


def request_rows(store: Store, session_id: str | None = None, turn_id: str | None = None,
                 runtime_id: str | None = None) -> list[dict[str, Any]]:
    """:func:`request_table` as JSON (``requests --json``)."""
    return [row.to_json() for row in request_table(store, session_id, turn_id, runtime_id)]


# --- navigator support (desktop app): runtime groups, totals, locations, prompt search ----------

def _runtimes_from(store: Store, session_id: str, turn_id: str | None) -> dict[str, list[RuntimeRow]]:
    from inspector.turn.model import RuntimeLifecycle

    calls = store.llm_calls(session_id, turn_id=turn_id)
    events = store.events(session_id, turn_id, RUNTIME_LIFECYCLE_TYPES)
    lifecycles: dict[tuple[str, str | None], RuntimeLifecycle] = {}
    by_turn: dict[str, dict[str | None, RuntimeRow]] = {}

    def group(tid: str, rid: str | None, plugin: str | None) -> RuntimeRow:
        groups = by_turn.setdefault(tid, {})
        found = groups.get(rid)
        if found is None:
            found = groups[rid] = RuntimeRow(rid, plugin)
        elif found.plugin_id is None and plugin is not None:
            found.plugin_id = plugin
        return found

    # Runtime order follows the trace: runtime.started rows first, then any runtime seen only
    # through its calls (its started row was pruned or never written).
    for ev in events:
        g = group(ev.turn_id, ev.runtime_id, ev.plugin_id)
        life = lifecycles.setdefault((ev.turn_id, ev.runtime_id), RuntimeLifecycle())
        life.apply(ev)
        g.stage, g.status, g.duration_ms, g.error = life.stage, life.status, life.duration_ms, life.error
    # Each call (its recorded rows parsed) is let go as soon as its row is made: freeing 6,000 of
    # them at once when the list went held the interpreter lock for 150 ms, a stall of the GUI
    # while the navigator loads a session in the background.
    calls.reverse()
    while calls:
        call = calls.pop()
        g = group(call.turn_id, call.runtime_id, call.plugin_id)
        if g.stage is None and call.stage is not None:
            g.stage = call.stage
        g.requests.append(RequestRow.of(call))
    return {tid: list(groups.values()) for tid, groups in by_turn.items()}


def turn_runtimes(store: Store, session_id: str, turn_id: str) -> list[RuntimeRow]:
    """The runtimes of one turn in trace order, each with its requests (:class:`RuntimeRow`).

    ``status`` is ``runtime.completed``'s status, ``failed``, ``skipped``, ``deferred``,
    ``started`` when no terminal event was written, None when only calls are known (the rule is
    :class:`inspector.turn.model.RuntimeLifecycle`); ``stage`` comes from ``runtime.started``, else
    from its first call that names one.
    """
    return _runtimes_from(store, session_id, turn_id).get(turn_id, [])


def session_runtimes(store: Store, session_id: str) -> dict[str, list[RuntimeRow]]:
    """:func:`turn_runtimes` for every turn of a session in one pass, keyed by turn id."""
    return _runtimes_from(store, session_id, None)


def turn_runtime_groups(store: Store, session_id: str, turn_id: str) -> list[dict[str, Any]]:
    """:func:`turn_runtimes` as JSON (:meth:`RuntimeRow.to_json`: ``runtimeId``, ``pluginId``,
    ``stage``, ``status``, ``durationMs``, ``error``, ``requests``, ``requestCount`` and the summed
    ``inputTokens`` / ``cachedTokens``, None when no call reported usage)."""
    return [row.to_json() for row in turn_runtimes(store, session_id, turn_id)]


def session_runtime_groups(store: Store, session_id: str) -> dict[str, list[dict[str, Any]]]:
    """:func:`session_runtimes` as JSON, keyed by turn id."""
    return {tid: [row.to_json() for row in rows] for tid, rows in session_runtimes(store, session_id).items()}


def turn_tree_rows(store: Store, session_id: str,
                   groups: dict[str, list[RuntimeRow]] | None = None) -> list[dict[str, Any]]:
    """``turn_rows`` of a session, each with its ``runtimes`` (typed, :func:`turn_runtimes`) attached:
    ``groups``, the session's :func:`session_runtimes` when they were made elsewhere
    (:mod:`inspector.rows_process`), else made here.

    Used when everything has to be in memory at once (filtering a whole store)."""
    if groups is None:
        groups = session_runtimes(store, session_id)
    rows = turn_rows(store, session_id)
    for row in rows:
        row["runtimes"] = groups.get(row["turnId"], [])
    return rows


def store_totals(store: Store, sessions: list[dict[str, Any]] | None = None) -> dict[str, int]:
    """Counts for a status line: sessions, turns (completed player turns), executions and model
    requests (:mod:`inspector.store.turn_counts` says what a turn and an execution are)."""
    rows = sessions if sessions is not None else session_rows(store)
    counts = total_turn_counts(SessionRow.from_json(r).counts for r in rows)
    return {
        "sessions": len(rows),
        "turns": counts.turns or 0,
        "executions": counts.executions,
        "requests": sum(int(r["llmCalls"] or 0) for r in rows),
    }


def request_location(store: Store, event_id: str) -> dict[str, Any] | None:
    """Where an ``llm.calling`` event sits in the session → turn → runtime tree, or None when the
    id is not an ``llm.calling`` event of this store."""
    ev = store.event(event_id)
    if ev is None or ev.type != "llm.calling":
        return None
    return {"eventId": ev.id, "sessionId": ev.session_id, "turnId": ev.turn_id, "runtimeId": ev.runtime_id}


def request_facets(store: Store) -> dict[str, list[str]]:
    """Distinct runtime ids and models of all ``llm.calling`` events, sorted, for filter menus."""
    computed = store.llm_call_facets()
    if computed is not None:
        return computed
    runtimes: set[str] = set()
    models: set[str] = set()
    from .store import parse_json_object

    stream = store.iter_llm_calling_rows()
    try:
        for _sid, _tid, raw, _eid in stream:
            payload, _error = parse_json_object(raw, merge_data=True)
            rid = payload.get("runtimeId")
            model = payload.get("model")
            if isinstance(rid, str):
                runtimes.add(rid)
            if isinstance(model, str):
                models.add(model)
    finally:
        stream.close()  # type: ignore[attr-defined]
    return {"runtimes": sorted(runtimes), "models": sorted(models)}


def search_requests(store: Store, text: str, session_id: str | None = None,
                    should_stop: Any = None, index: Any = None) -> set[str]:
    """Ids of ``llm.calling`` events whose payload (prompt, tools, provider bodies) contains
    ``text``, ignoring ASCII case the way SQL ``LIKE`` does.

    With ``index`` (an :class:`inspector.search.index.SearchIndex`) that is ready, the index
    answers; otherwise the payloads are streamed, so memory stays flat on large stores.
    ``should_stop`` (a no-argument callable) is polled between rows; when it returns true the
    search ends early and returns what it found so far.
    """
    return search_prompts(store, text, session_id=session_id, should_stop=should_stop, index=index).matches


def search_prompts(store: Store, text: str, *, session_id: str | None = None, should_stop: Any = None,
                   index: Any = None) -> Any:
    """:func:`search_requests` telling how it answered: a
    :class:`inspector.search.index.SearchOutcome` (``via`` ``index`` or ``scan``, and why the
    scan answered)."""
    from inspector.search.index import SearchOutcome

    if not text:
        return SearchOutcome(set(), "scan")
    note = None
    if index is not None:
        note = index.can_answer(text)
        if note is None:
            found = index.search(text, session_id)
            if found is not None:
                return SearchOutcome(found, "index")
            note = index.can_answer(text) or "the search index could not answer"
    return SearchOutcome(_scan_requests(store, text, session_id, should_stop), "scan", note)


def _scan_requests(store: Store, text: str, session_id: str | None, should_stop: Any) -> set[str]:
    needles = search_needles(text)
    found: set[str] = set()
    stream = store.iter_llm_calling_rows(session_id)
    try:
        for _sid, _tid, raw, eid in stream:
            if should_stop is not None and should_stop():
                break
            if raw is None:
                continue
            data = raw.encode("utf-8") if isinstance(raw, str) else bytes(raw)
            data = data.lower()
            if any(n in data for n in needles):
                found.add(eid)
    finally:
        stream.close()  # type: ignore[attr-defined]
    return found


# --- one request: anatomy with token counts ------------------------------------------------------

@dataclass(slots=True)
class DetailNode:
    """An anatomy node with its token counts, ready for a tree view or a printout."""

    kind: str
    label: str
    text: str
    recognised_by: str
    role: str | None
    bag: str | None
    source: tuple[str, int] | None
    start: int
    end: int
    exact: int
    estimate: int  # Covel's estimate (chars/4, CJK one each)
    cjk_estimate: int
    share: float = 0.0  # of the whole request's exact tokens
    children: list["DetailNode"] = field(default_factory=list)

    @property
    def is_breakpoint(self) -> bool:
        return self.kind == "cache-breakpoint"

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "label": self.label,
            "recognisedBy": self.recognised_by,
            "role": self.role,
            "bag": self.bag,
            "tokens": {"exact": self.exact, "estimate": self.estimate, "cjkEstimate": self.cjk_estimate},
            "share": round(self.share, 4),
        }
        if self.source is not None:
            out["source"] = {"kind": self.source[0], "index": self.source[1], "start": self.start, "end": self.end}
        if self.children:
            out["children"] = [c.to_json() for c in self.children]
        else:
            out["text"] = self.text
        return out


def _leaf_texts(nodes) -> list[str]:
    """The texts :func:`_detail_tree` counts: those of the nodes that have one."""
    texts: list[str] = []
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if node.text:
            texts.append(node.text)
        stack.extend(node.children)
    return texts


def _detail_tree(node, encoding: str, exact: bool) -> DetailNode:
    from .tokens import cjk_aware_estimate, count_exact, covel_estimate

    children = [_detail_tree(c, encoding, exact) for c in node.children]
    if node.text:
        ex = count_exact(node.text, encoding) if exact else 0
        est = covel_estimate(node.text)
        cjk = cjk_aware_estimate(node.text, encoding)
    else:
        ex = sum(c.exact for c in children)
        est = sum(c.estimate for c in children)
        cjk = sum(c.cjk_estimate for c in children)
    return DetailNode(node.kind, node.label, node.text, node.recognised_by, node.role, node.bag, node.source,
                      node.start, node.end, ex, est, cjk, children=children)


def _set_shares(nodes: list[DetailNode], total: int) -> None:
    for root in nodes:
        for node in root.walk():
            node.share = node.exact / total if total else 0.0


@dataclass(slots=True)
class RequestDetail:
    """Everything the request view shows about one ``llm.calling`` event."""

    row: dict[str, Any]
    request: Any  # NormalisedRequest: the provider body when recorded, else the kernel view
    kernel: Any  # NormalisedRequest built from payload.messages
    attempts: list[Any]  # ProviderAttempt, one per transport attempt
    anatomy: Any  # Anatomy of ``request``
    roots: list[DetailNode]
    encoding: str
    encoding_provenance: str
    total_exact: int
    total_estimate: int
    exact_counted: bool
    payload: dict[str, Any]
    raw_event: dict[str, Any]
    response: dict[str, Any] | None

    @property
    def record(self) -> RequestRow:
        """``row`` typed: the request's facts for the views' headers."""
        return RequestRow.from_json(self.row)

    @property
    def segment_stack(self) -> DetailNode | None:
        return next((n for n in self.roots if n.kind == "system-prompt"), None)

    @property
    def tools(self) -> DetailNode | None:
        return next((n for n in self.roots if n.kind == "tools"), None)

    @property
    def turn_context(self) -> DetailNode | None:
        return next((n for n in self.roots if n.bag == "turn-context"), None)

    @property
    def history_bags(self) -> list[DetailNode]:
        return [n for n in self.roots if n.kind not in ("system-prompt", "tools") and n.bag != "turn-context"]

    def to_json(self) -> dict[str, Any]:
        return {
            "request": self.row,
            "view": self.request.source,
            "protocol": self.request.protocol,
            "encoding": self.encoding,
            "encodingProvenance": self.encoding_provenance,
            "tokens": {"exact": self.total_exact, "estimate": self.total_estimate},
            "reportedUsage": self.response.get("usage") if self.response else None,
            "problems": list(self.request.problems),
            "anatomy": [n.to_json() for n in self.roots],
        }

    def to_text(self) -> str:
        row = self.record
        lines = [
            f"{row.event_id}  {row.runtime_id or '(no runtime)'}  turn {row.turn_id}  "
            + step_attempt_text(row.step, row.attempt),
            f"model {row.model or '?'} via {row.provider or '?'}, "
            f"{'provider body (' + (self.request.protocol or '?') + ')' if self.request.source == 'provider' else 'kernel messages'}",
            (f"tokens: {self.total_exact:,} exact ({self.encoding}, {self.encoding_provenance}), "
             if self.exact_counted else "tokens: ")
            + f"{self.total_estimate:,} Covel estimate"
            + (f"; reported input {row.input_tokens:,}" if row.input_tokens is not None else "")
            + (f", cached {row.cached_tokens:,}" if row.cached_tokens is not None else ""),
            "",
        ]
        for problem in self.request.problems:
            lines.append(f"! {problem}")
        width = 64

        def emit(node: DetailNode, depth: int) -> None:
            if node.is_breakpoint:
                lines.append(f"{'  ' * depth}── cache breakpoint ──")
                return
            label = f"{'  ' * depth}{shown_label(node.label)}"
            if node.role and node.kind not in ("system-prompt",):
                label += f" [{node.role}]"
            pad = max(1, width - len(label))
            counts = f"{node.exact:>7,} tok  {node.share * 100:5.1f}%  " if self.exact_counted else ""
            lines.append(f"{label}{' ' * pad}{counts}{node.estimate:>7,} est  ({node.recognised_by})")
            for child in node.children:
                emit(child, depth + 1)

        for root in self.roots:
            emit(root, 0)
        return "\n".join(lines) + "\n"


def _find_call(store: Store, event) -> LlmCall | None:
    for call in store.llm_calls(event.session_id, turn_id=event.turn_id, runtime_id=event.runtime_id):
        if call.id == event.id:
            return call
    return None


def request_detail(store: Store, event_id: str, *, exact: bool = True, view: str = "auto") -> RequestDetail | None:
    """The anatomy of one ``llm.calling`` event with token counts; None if there is no such event.

    ``view`` is ``auto`` (the provider body when recorded, else the kernel messages), ``provider``
    or ``kernel``.
    """
    from inspector.anatomy.kernel_view import label_as_shown
    from .tokens import encoding_for_model
    from .wire.parse import from_kernel, request_for

    event = store.event(event_id)
    if event is None or event.type != "llm.calling":
        return None
    payload = event.payload
    call = _find_call(store, event)
    record = RequestRow.of(call) if call is not None else RequestRow.of_event(event)
    preferred, attempts = request_for(payload)
    kernel = from_kernel(payload)
    request = kernel if view == "kernel" or (view == "provider" and preferred.source != "provider") else preferred
    if event.payload_error:
        request.problems.insert(0, f"payload of {event.id}: {event.payload_error}")
    # Say why a transport attempt's body cannot be shown (a bodyRef pointing nowhere, say).
    request.problems.extend(f"providerRequests[{a.index}]: {a.body_error}" for a in attempts if a.body_error)
    anatomy = label_as_shown(request, kernel)
    model = record.model or request.model
    choice = encoding_for_model(model if isinstance(model, str) else None)
    if exact:
        from .kept_counts import exact_counts

        exact_counts(_leaf_texts(anatomy.roots), choice.encoding)  # earlier runs' counts, then the rest
    roots = [_detail_tree(n, choice.encoding, exact) for n in anatomy.roots]
    total_exact = sum(r.exact for r in roots)
    total_estimate = sum(r.estimate for r in roots)
    _set_shares(roots, total_exact)
    raw_event = {
        "id": event.id, "session_id": event.session_id, "type": event.type, "trace_id": event.trace_id,
        "turn_id": event.turn_id, "created_at": event.created_at, "seq": event.seq, "payload": payload,
    }
    response = None
    if call is not None and call.response is not None:
        response = call.response.payload
    return RequestDetail(record.to_json(), request, kernel, attempts, anatomy, roots, choice.encoding, choice.provenance,
                         total_exact, total_estimate, exact, payload, raw_event, response)


def request_anatomy(store: Store, event_id: str, *, exact: bool = True) -> RequestDetail | None:
    return request_detail(store, event_id, exact=exact)


# --- request view support: comparison partners -----------------------------------------------

def previous_turn_request(store: Store, event_id: str) -> str | None:
    """The first request of the same runtime in the nearest earlier turn of the same session that
    ran that runtime, or None (first turn, another kind of event, or the runtime never ran before).

    "First" because a runtime's step 0 / attempt 0 request is the one whose prefix the provider may
    have cached, and it is what the next turn's first request should be compared against.
    """
    ev = store.event(event_id)
    if ev is None or ev.type != "llm.calling" or ev.turn_id is None:
        return None
    call = _find_call(store, ev)
    runtime_id = call.runtime_id if call is not None else ev.runtime_id
    turns = [t.turn_id for t in store.turns(ev.session_id)]
    if ev.turn_id not in turns:
        return None
    for turn_id in reversed(turns[:turns.index(ev.turn_id)]):
        calls = store.llm_calls(ev.session_id, turn_id=turn_id, runtime_id=runtime_id)
        if calls:
            return calls[0].id
    return None


def compare_candidates(store: Store, event_id: str) -> list[dict[str, Any]]:
    """``request_rows`` rows of every other request in ``event_id``'s session, each with the turn's
    ``turnNumber``, in trace order; empty when ``event_id`` is not a request."""
    ev = store.event(event_id)
    if ev is None or ev.type != "llm.calling":
        return []
    numbers = {t.turn_id: t.number for t in store.turns(ev.session_id)}
    rows = []
    for row in request_rows(store, ev.session_id):
        if row["eventId"] == event_id:
            continue
        row["turnNumber"] = numbers.get(row["turnId"])
        rows.append(row)
    return rows


def first_node(roots: list[DetailNode], predicate) -> DetailNode | None:
    """The first node (depth first, in ``roots`` order) satisfying ``predicate``, or None."""
    stack = list(reversed(roots))
    while stack:
        node = stack.pop()
        if predicate(node):
            return node
        stack.extend(reversed(node.children))
    return None


def initial_detail_node(detail: RequestDetail) -> DetailNode | None:
    """The part a request view opens on: the system prompt, else the first part of the segment
    stack (the trees are tools + segment stack, turn context, history bags, in that order)."""
    stack = [r for r in (detail.tools, detail.segment_stack) if r is not None]
    tc = detail.turn_context
    ordered = stack + ([tc] if tc else []) + list(detail.history_bags)
    return first_node(ordered, lambda n: n.kind == "system-prompt") or (stack[0] if stack else None)
