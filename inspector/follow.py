"""Following a store while Covel writes to it: what changed since the last look.

:class:`ChangeWatcher` polls :meth:`Store.change_token` (``PRAGMA data_version`` on SQLite, the
snapshot on PostgreSQL; it also moves when a SQLite file read as a snapshot, because nothing had
it open, is opened again read-only once Covel writes to it), and only when it moved reads the rows
written since its cursor (:meth:`Store.follow_read`, canonical event order) and summarises them
per session: new and changed executions, the runtimes they touched, new requests, and changed
``sessions`` rows. A view then re-reads just those items (:func:`read_updates`). Headless: no Qt
here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from . import views
from .rows import RuntimeRow
from .store import Store, TurnInfo

# Statuses after which a turn_results row is not expected to change again.
_SETTLED = ("committed", "failed")
# How many unsettled executions are re-checked for in-place turn_results updates on each change.
MAX_OPEN_TURNS = 64


@dataclass(slots=True)
class SessionDelta:
    """What changed in one session since the previous poll.

    ``new_turns``: executions whose every row is new (they did not exist before); ``turns``:
    every execution with new rows or a changed result, in the order of its first new row (new
    ones included); ``runtimes``: per execution, the runtime ids of its new rows (None for rows
    without one); ``request_ids``: new ``llm.calling`` events; ``record``: the ``sessions`` row
    when it is new or changed."""

    session_id: str
    is_new: bool = False
    record: dict[str, Any] | None = None
    events: int = 0
    requests: int = 0
    new_turns: list[str] = field(default_factory=list)
    turns: list[str] = field(default_factory=list)
    runtimes: dict[str, list[str | None]] = field(default_factory=dict)
    request_ids: list[str] = field(default_factory=list)

    def touch(self, turn_id: str) -> None:
        if turn_id not in self.turns:
            self.turns.append(turn_id)


@dataclass(slots=True)
class StoreChanges:
    """The result of one :meth:`ChangeWatcher.poll`; ``sessions`` in order of their first change."""

    sessions: dict[str, SessionDelta] = field(default_factory=dict)
    events: int = 0

    @property
    def empty(self) -> bool:
        return not self.sessions

    @property
    def new_sessions(self) -> list[str]:
        return [sid for sid, d in self.sessions.items() if d.is_new]

    def delta(self, session_id: str) -> SessionDelta:
        found = self.sessions.get(session_id)
        if found is None:
            found = self.sessions[session_id] = SessionDelta(session_id)
        return found


class ChangeWatcher:
    """Incremental change detection over a :class:`Store`.

    :meth:`start` marks the current end of the store; each :meth:`poll` returns what was written
    since (an empty :class:`StoreChanges` when the change token did not move, which costs one
    tiny query). Not thread-safe: one poll at a time.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._token: Any = None
        self._cursor: dict[str, Any] | None = None
        self._records: dict[str, dict[str, Any]] = {}
        self._known_sessions: set[str] = set()
        # (session, turn) -> last commit status seen, for executions whose result may still change.
        self._open: dict[tuple[str, str], str | None] = {}

    @property
    def started(self) -> bool:
        return self._cursor is not None

    def start(self, known_sessions: Iterable[str] | None = None) -> None:
        """Take the store's current state as the baseline. ``known_sessions``: the sessions the
        caller already shows (others found later count as new)."""
        # Token first: a commit between the two reads moves it, so the next poll reads again.
        self._token = self.store.change_token()
        self._cursor = self.store.follow_start()
        self._records = self.store.session_records()
        self._known_sessions = set(known_sessions) if known_sessions is not None else set(self._records)
        self._open.clear()

    def poll(self) -> StoreChanges:
        if self._cursor is None:
            self.start()
            return StoreChanges()
        token = self.store.change_token()
        changes = StoreChanges()
        if token == self._token:
            return changes
        self._token = token
        batch, self._cursor = self.store.follow_read(self._cursor)
        existing = batch["existing"]
        for eid, sid, etype, turn_id, _created, _seq, runtime_id in batch["events"]:
            delta = changes.delta(sid)
            changes.events += 1
            delta.events += 1
            delta.touch(turn_id)
            if (sid, turn_id) not in existing and turn_id not in delta.new_turns:
                delta.new_turns.append(turn_id)
            if etype == "llm.calling":
                delta.requests += 1
                delta.request_ids.append(eid)
            runtimes = delta.runtimes.setdefault(turn_id, [])
            if (runtime_id is not None or etype.startswith(("llm.", "runtime."))) and runtime_id not in runtimes:
                runtimes.append(runtime_id)
        for sid, turn_id, status, _created in batch["results"]:
            delta = changes.delta(sid)
            delta.touch(turn_id)
            if (sid, turn_id) not in existing and turn_id not in delta.new_turns:
                delta.new_turns.append(turn_id)
            if status in _SETTLED:
                self._open.pop((sid, turn_id), None)
            else:
                self._remember_open(sid, turn_id, status)
        self._recheck_open(changes)
        self._diff_records(changes)
        for sid, delta in changes.sessions.items():
            if sid not in self._known_sessions:
                delta.is_new = True
                self._known_sessions.add(sid)
        return changes

    # -- helpers -----------------------------------------------------------------------------

    def _remember_open(self, sid: str, turn_id: str, status: str | None) -> None:
        self._open.pop((sid, turn_id), None)
        self._open[(sid, turn_id)] = status
        while len(self._open) > MAX_OPEN_TURNS:
            self._open.pop(next(iter(self._open)))

    def _recheck_open(self, changes: StoreChanges) -> None:
        """Covel may rewrite a pending ``turn_results`` row in place on commit: no new row shows
        that, so the results of unsettled executions are read again."""
        by_session: dict[str, list[str]] = {}
        for sid, turn_id in self._open:
            delta = changes.sessions.get(sid)
            if delta is not None and turn_id in delta.turns:
                continue
            by_session.setdefault(sid, []).append(turn_id)
        for sid, turn_ids in by_session.items():
            latest: dict[str, str | None] = {}
            for result in self.store.turn_results(sid, turn_ids):
                latest[result.turn_id] = result.commit_status
            for turn_id, status in latest.items():
                if status != self._open.get((sid, turn_id)):
                    changes.delta(sid).touch(turn_id)
                    if status in _SETTLED:
                        self._open.pop((sid, turn_id), None)
                    else:
                        self._open[(sid, turn_id)] = status

    def _diff_records(self, changes: StoreChanges) -> None:
        records = self.store.session_records()
        for sid, record in records.items():
            if self._records.get(sid) != record:
                changes.delta(sid).record = record
            elif sid in changes.sessions:
                changes.sessions[sid].record = record
        self._records = records


# ---------------------------------------------------------------------------------------- reads

class _Only:
    """A store whose :meth:`turns` answers for some executions only, so ``views.turn_rows``
    (the one place a turn row is shaped) serves a few turns without reading the session."""

    def __init__(self, store: Store, turn_ids: list[str]) -> None:
        self._store = store
        self._turn_ids = turn_ids

    def turns(self, session_id: str) -> list[TurnInfo]:
        return self._store.turns_by_id(session_id, self._turn_ids)


def turn_rows_by_id(store: Store, session_id: str, turn_ids: list[str]) -> dict[str, dict[str, Any]]:
    """``views.turn_rows`` of some executions, keyed by turn id (``number`` is not meaningful)."""
    if not turn_ids:
        return {}
    return {row["turnId"]: row for row in views.turn_rows(_Only(store, turn_ids), session_id)}  # type: ignore[arg-type]


@dataclass(slots=True)
class FollowUpdate:
    """Fresh rows for what changed, read in the background for a view to merge.

    ``session_rows``: ``views.session_rows`` rows of new sessions; ``turn_rows``: per session,
    ``views.turn_rows`` rows of its changed executions (those the view lists); ``runtime_groups``:
    per (session, turn), ``views.turn_runtimes`` (typed rows) of executions whose runtimes the view shows.
    """

    changes: StoreChanges
    session_rows: dict[str, dict[str, Any]] = field(default_factory=dict)
    turn_rows: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    runtime_groups: dict[tuple[str, str], list[RuntimeRow]] = field(default_factory=dict)


def read_updates(store: Store, changes: StoreChanges, listed_sessions: set[str],
                 open_turns: set[tuple[str, str]],
                 also: Iterable[tuple[str, str]] = ()) -> FollowUpdate:
    """Read what a tree showing ``listed_sessions`` (their turns listed) and ``open_turns``
    (their runtimes listed) needs to merge ``changes``. ``also``: executions to refresh anyway
    (ones opened while the previous update was being read)."""
    update = FollowUpdate(changes)
    if changes.new_sessions:
        fresh = {row["sessionId"]: row for row in views.session_rows(store)}
        update.session_rows = {sid: fresh[sid] for sid in changes.new_sessions if sid in fresh}
    wanted: dict[str, list[str]] = {}
    for sid, delta in changes.sessions.items():
        if sid in listed_sessions or delta.is_new:
            wanted.setdefault(sid, []).extend(delta.turns)
    extra = [(sid, tid) for sid, tid in also]
    for sid, tid in extra:
        if sid in listed_sessions and tid not in wanted.get(sid, []):
            wanted.setdefault(sid, []).append(tid)
    for sid, turn_ids in wanted.items():
        update.turn_rows[sid] = turn_rows_by_id(store, sid, turn_ids)
        for tid in turn_ids:
            if (sid, tid) in open_turns:
                update.runtime_groups[(sid, tid)] = views.turn_runtimes(store, sid, tid)
    return update
