"""Ids people can use: how a turn and a request are named where a person reads them, and how a
prefix a person typed is resolved to the one id it stands for.

Covel's ids are UUIDs. A person reads a turn as "Turn 4" (its number in the session, in order of
first appearance: :attr:`inspector.store.TurnInfo.number`) and a request as
"Turn 4 · narrator/main · step 1" (its runtime and its tool-loop step counted from 1,
:mod:`inspector.numbering`; "· attempt 2" when it is a retry). Tables print an id's first
:data:`SHORT_ID_LENGTH` characters, and every command, ``--select`` and the app's Go to… accept
any unique prefix of an id back (:func:`resolve_id`): an unknown id and an ambiguous prefix are
errors (:class:`UnknownIdError`, :class:`AmbiguousIdError`) that say which.

The lookup is one range query on the id's index per kind (``Store.ids_with_prefix``), never a
scan: a prefix costs the same on a store of ten million rows as on the demo.

The words of a name are English by default; the app passes its translated words
(:class:`NameWords`), so the rule (which parts, counted from where, when the attempt shows) stays
here and the command line and the window name the same request the same way.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from inspector.messages import localized, marked, translate
from inspector.numbering import shown

__all__ = [
    "ENGLISH",
    "KINDS",
    "SHORT_ID_LENGTH",
    "AmbiguousIdError",
    "IdError",
    "NameWords",
    "Target",
    "TurnNumbers",
    "UnknownIdError",
    "find_target",
    "locate",
    "request_name",
    "request_name_of_row",
    "request_names",
    "resolve_id",
    "resolve_turn_number",
    "short_id",
    "turn_name",
    "turn_number_of",
    "turn_numbers",
]

SHORT_ID_LENGTH = 8
"""How many characters of an id a table prints (a prefix that is unique in practice)."""

SESSION, TURN, REQUEST, EVENT = "session", "turn", "request", "event"
KINDS: tuple[str, ...] = (SESSION, TURN, REQUEST, EVENT)
"""The kinds of id a prefix is looked up among (what ``Store.ids_with_prefix`` reads)."""

MATCHES_SHOWN = 5
"""How many matches an ambiguous prefix's error lists (one more is read to know there are more)."""

_KIND_WORDS = {SESSION: "session", TURN: "turn", REQUEST: "request", EVENT: "trace event"}
ANY_KIND = "request, turn or session"
"""The kind Go to… looks an id up among (:func:`find_target`)."""


def _kind_word(kind: str) -> str:
    """A kind of id in the messages' language (the English word is :attr:`IdError.kind`)."""
    words = {"session": marked("session"), "turn": marked("turn"), "request": marked("request"),
             "trace event": marked("trace event"), ANY_KIND: marked("request, turn or session")}
    return translate(words[kind]) if kind in words else kind


class _Store(Protocol):
    def ids_with_prefix(self, kind: str, prefix: str, limit: int = 10) -> list[str]: ...

    def turns(self, session_id: str) -> list[Any]: ...


def short_id(value: Any) -> str:
    """An id as a table prints it: its first :data:`SHORT_ID_LENGTH` characters ("" for none)."""
    return "" if value is None else str(value)[:SHORT_ID_LENGTH]


# --- errors -------------------------------------------------------------------------------------

class IdError(ValueError):
    """An id a person gave does not name exactly one thing. ``kind`` is one of :data:`KINDS` (or a
    few of them, joined by "or"), ``text`` what was given."""

    def __init__(self, kind: str, text: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.text = text


class UnknownIdError(IdError):
    """No id of that kind starts with the text given."""

    def __init__(self, kind: str, text: str, where: str | None = None) -> None:
        word = _kind_word(kind)
        if where:
            message = localized("no {kind} {text} in {where} (an id or the start of one)", kind=word, text=repr(text),
                                where=where)
        else:
            message = localized("no {kind} {text} (an id or the start of one)", kind=word, text=repr(text))
        super().__init__(kind, text, message)


class AmbiguousIdError(IdError):
    """More than one id of that kind starts with the text given; ``matches`` lists them (at most
    :data:`MATCHES_SHOWN`) and ``more`` says whether there were others; ``labels``, when given, is
    how the message names them (with their kinds)."""

    def __init__(self, kind: str, text: str, matches: Sequence[str], more: bool, where: str | None = None,
                 labels: Sequence[str] | None = None) -> None:
        listed = ", ".join(labels if labels is not None else matches) + (", …" if more else "")
        word = _kind_word(kind)
        if where:
            message = localized("{kind} id {text} is ambiguous in {where}: {ids} all start with it; give more of "
                                "the id", kind=word, text=repr(text), where=where, ids=listed)
        else:
            message = localized("{kind} id {text} is ambiguous: {ids} all start with it; give more of the id",
                                kind=word, text=repr(text), ids=listed)
        super().__init__(kind, text, message)
        self.matches = tuple(matches)
        self.more = more


# --- resolving a prefix -------------------------------------------------------------------------

def _matches(store: _Store, kind: str, text: str) -> tuple[list[str], bool]:
    """The ids of ``kind`` starting with ``text`` (at most :data:`MATCHES_SHOWN`), and whether there
    are more; an exact id comes alone, even when it is the prefix of a longer one."""
    found = list(store.ids_with_prefix(kind, text, MATCHES_SHOWN + 1))
    if text in found:
        return [text], False
    return found[:MATCHES_SHOWN], len(found) > MATCHES_SHOWN


def resolve_id(store: _Store, kind: str, text: str, *, where: str | None = None) -> str:
    """The one id of ``kind`` (:data:`KINDS`) that ``text`` is, or is the start of. Raises
    :class:`UnknownIdError` when none is, :class:`AmbiguousIdError` when several are (an exact id
    is never ambiguous). ``where`` names the store in the message."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind of id {kind!r}")
    word = _KIND_WORDS[kind]
    text = text.strip()
    if not text:
        raise UnknownIdError(word, text, where)
    found, more = _matches(store, kind, text)
    if not found:
        raise UnknownIdError(word, text, where)
    if len(found) > 1:
        raise AmbiguousIdError(word, text, found, more, where)
    return found[0]


def turn_numbers(store: _Store, session_id: str) -> dict[str, int]:
    """Each execution of a session → its number ("Turn 4"), in order of first appearance."""
    return {t.turn_id: t.number for t in store.turns(session_id)}


class TurnNumbers:
    """Turn numbers of sessions, read once per session of one store (:func:`turn_numbers`: most
    of a second for a 1,000-turn session) and again when a turn not numbered yet is asked for (a
    followed store grows). For views that name request after request; safe to share between
    threads."""

    def __init__(self) -> None:
        self._store: Any = None
        self._sessions: dict[str, dict[str, int]] = {}
        self._lock = threading.Lock()

    def of_session(self, store: _Store, session_id: str) -> dict[str, int]:
        with self._lock:
            if store is not self._store:
                self._store, self._sessions = store, {}
            known = self._sessions.get(session_id)
        if known is None:
            known = turn_numbers(store, session_id)
            with self._lock:
                if store is self._store:
                    self._sessions[session_id] = known
        return known

    def number(self, store: _Store, session_id: str | None, turn_id: str | None) -> int | None:
        """The number of ``turn_id`` in ``session_id`` (None when either is missing or unknown)."""
        if session_id is None or turn_id is None:
            return None
        known = self.of_session(store, session_id)
        if turn_id not in known:
            with self._lock:
                self._sessions.pop(session_id, None)
            known = self.of_session(store, session_id)
        return known.get(turn_id)


def resolve_turn_number(store: _Store, session_id: str, number: int, *, where: str | None = None) -> str:
    """The id of the session's turn numbered ``number`` (counted from 1, as :func:`turn_name`)."""
    for turn_id, n in turn_numbers(store, session_id).items():
        if n == number:
            return turn_id
    raise UnknownIdError("turn", f"#{number}", where or f"session {session_id}")


@dataclass(frozen=True, slots=True)
class Target:
    """What a Go to… text named: a request, a turn or a session, with where it sits (``turn_id``
    and ``session_id`` are None when not known without reading more)."""

    kind: str  # REQUEST, TURN or SESSION
    id: str
    session_id: str | None = None
    turn_id: str | None = None
    runtime_id: str | None = None

    def path(self) -> list[tuple[str, str]]:
        """Where it sits in the session → turn → runtime → request tree, as far as known: the
        navigator's path (``[("session", id), ("turn", id), ("runtime", id), ("request", id)]``)."""
        if self.kind == SESSION:
            return [(SESSION, self.id)]
        steps = [(SESSION, self.session_id)]
        if self.kind == TURN:
            steps.append((TURN, self.id))
        else:
            steps += [(TURN, self.turn_id), ("runtime", self.runtime_id), (REQUEST, self.id)]
        path: list[tuple[str, str]] = []
        for kind, value in steps:
            if value is None:
                break
            path.append((kind, value))
        return path


_TURN_NUMBER = re.compile(r"^(?:#|turn\s*|t)\s*(\d{1,7})$", re.IGNORECASE)
_PLAIN_NUMBER = re.compile(r"^\d{1,5}$")


def turn_number_of(text: str) -> int | None:
    """The turn number a Go to… text names: ``#4``, ``turn 4``, ``t4``, or a plain number of up to
    five digits (an id prefix a person copies from a table is eight characters); None otherwise."""
    text = text.strip()
    m = _TURN_NUMBER.match(text)
    if m is not None:
        return int(m.group(1))
    return int(text) if _PLAIN_NUMBER.match(text) else None


def find_target(store: _Store, text: str, session_id: str | None = None, *, where: str | None = None) -> Target:
    """What ``text`` names for Go to…: a turn number of ``session_id`` (:func:`turn_number_of`), or
    the one request, turn or session id it is or starts (looked up in that order: all three kinds
    together must hold exactly one match). Raises :class:`IdError` as :func:`resolve_id`."""
    number = turn_number_of(text)
    if number is not None and session_id is not None:
        return Target(TURN, resolve_turn_number(store, session_id, number, where=where), session_id)
    text = text.strip()
    if not text:
        raise UnknownIdError(ANY_KIND, text, where)
    found: list[tuple[str, str]] = []
    more = False
    for kind in (REQUEST, TURN, SESSION):
        ids, extra = _matches(store, kind, text)
        if ids == [text]:
            return Target(kind, text)  # an exact id wins over longer ids it starts
        found.extend((kind, i) for i in ids)
        more = more or extra
    if not found:
        raise UnknownIdError(ANY_KIND, text, where)
    if len(found) > 1:
        shown_ = found[:MATCHES_SHOWN]
        raise AmbiguousIdError(ANY_KIND, text, [i for _k, i in shown_],
                               more or len(found) > MATCHES_SHOWN, where,
                               labels=[f"{_kind_word(_KIND_WORDS[k])} {i}" for k, i in shown_])
    kind, found_id = found[0]
    return Target(kind, found_id)


def locate(store: Any, target: Target) -> Target:
    """``target`` with the session, turn and runtime it sits in filled in (one read by its id)."""
    if target.kind == SESSION:
        return Target(SESSION, target.id, target.id)
    if target.kind == TURN:
        return Target(TURN, target.id, target.session_id or store.session_of_turn(target.id), target.id)
    event = store.event(target.id)
    if event is None:
        return target
    return Target(REQUEST, target.id, event.session_id, event.turn_id, event.runtime_id)


# --- names --------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class NameWords:
    """The words of a name, with ``{number}`` / ``{id}`` where the value goes. The app passes its
    translations; the command line uses :data:`ENGLISH`."""

    turn: str = "Turn {number}"
    turn_without_number: str = "Turn {id}"
    step: str = "step {number}"
    attempt: str = "attempt {number}"
    separator: str = " · "


ENGLISH = NameWords()


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def turn_name(number: Any, turn_id: Any = None, words: NameWords = ENGLISH) -> str:
    """"Turn 4"; a turn whose number is not known is named by its short id ("Turn cc85dc70")."""
    if _whole(number):
        return words.turn.format(number=number)
    return words.turn_without_number.format(id=short_id(turn_id) or "?")


def request_name(turn_number: Any, turn_id: Any, runtime_id: Any, step: Any, attempt: Any,
                 words: NameWords = ENGLISH) -> str:
    """"Turn 4 · narrator/main · step 1": the turn, the runtime, the tool-loop step counted from
    1, and "attempt N" when the request is a retry (a recorded attempt above 0)."""
    parts = [turn_name(turn_number, turn_id, words)]
    if runtime_id:
        parts.append(str(runtime_id))
    if _whole(step):
        parts.append(words.step.format(number=shown(step)))
    if _whole(attempt) and attempt > 0:
        parts.append(words.attempt.format(number=shown(attempt)))
    return words.separator.join(parts)


def request_name_of_row(row: Mapping[str, Any], numbers: Mapping[str, int] | int | None,
                        words: NameWords = ENGLISH) -> str:
    """:func:`request_name` of a request row's JSON (``inspector.rows.RequestRow.to_json``: the
    ``requests`` rows, ``RequestDetail.row``); ``numbers`` is the turn's number, or
    :func:`turn_numbers` of its session."""
    turn_id = row.get("turnId")
    number = numbers.get(turn_id) if isinstance(numbers, Mapping) else numbers
    return request_name(number, turn_id, row.get("runtimeId"), row.get("step"), row.get("attempt"), words)


def request_names(store: _Store, rows: Iterable[Mapping[str, Any]], words: NameWords = ENGLISH) -> list[str]:
    """The names of request rows, reading each session's turn numbers once."""
    numbers: dict[str, dict[str, int]] = {}
    names = []
    for row in rows:
        session_id = row.get("sessionId")
        if session_id is not None and session_id not in numbers:
            numbers[session_id] = turn_numbers(store, session_id)
        names.append(request_name_of_row(row, numbers.get(session_id) if session_id is not None else None, words))
    return names
