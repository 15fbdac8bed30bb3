"""Covel's prompt-prefix report (``pnpm prompt:prefix``), reproduced byte for byte, and extended.

For every (session, runtime) it compares each turn's first ``llm.calling`` request with the
previous turn's, part by part from the first character, and reports how much repeats: the part
of a request a provider's prefix cache can serve. The rules are those of Covel's
``scripts/prompt-prefix-report.mjs`` (covel-db.md §3), including the JavaScript ones: sizes and
offsets are UTF-16 code units, part texts are ``JSON.stringify`` output, rounding is
``Math.round``, absent keys are omitted.

Unlike the original, rows are streamed (only the previous turn's parts are kept per runtime), a
store without the ``seq`` column works, and an unreadable row is skipped with a warning instead of
stopping the report.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from inspector.jsjson import (
    UNDEFINED,
    has_astral,
    js_column,
    common_prefix_utf16,
    js_number,
    js_parse,
    js_quote,
    js_round,
    js_slice,
    js_stringify,
    js_to_string,
    js_truthy,
    utf16_len,
    utf16_to_index,
)
from inspector.tokens import cjk_count, covel_estimate_parts

# Characters shown before and after a first difference, as Covel's report prints them.
CONTEXT_BEFORE = 40
CONTEXT_AFTER = 80
RUNTIME_COLUMN_WIDTH = 34


class UnreadableRow(ValueError):
    """A row the original script would have crashed on; we skip it and say why."""


@dataclass(slots=True)
class RequestPart:
    """One part, as the extended report and the views describe it."""

    label: str
    text: str
    units: int  # UTF-16 length, what JavaScript's .length says
    kind: str  # "tool", "system", "system-block", "instructions", "message"
    index: int  # position within its kind (0-based)


def _get(obj: Any, key: str) -> Any:
    """``obj?.key`` for a parsed JSON value."""
    if type(obj) is dict:
        return obj.get(key, UNDEFINED)
    return UNDEFINED


def _nullish(value: Any) -> bool:
    return value is UNDEFINED or value is None


def _coalesce(*values: Any) -> Any:
    for value in values:
        if not _nullish(value):
            return value
    return values[-1]


def _stringify_part(value: Any) -> str:
    text = js_stringify(value)
    # JSON.stringify(undefined) cannot happen for parsed values; keep the type honest anyway.
    return "undefined" if text is None else text


class Request:
    """A request as the report compares it: its part texts in the order a provider hashes them.

    A large report holds hundreds of thousands of parts, so a part is just its text here; its
    label, kind and CJK count are worked out only for the few parts that need them.
    """

    __slots__ = ("texts", "units", "size", "_tools", "_system", "_has_instructions", "_messages", "_cjk")

    def __init__(self, texts: list[str], tools: list, system: Any, has_instructions: bool, messages: list):
        self.texts = texts
        joined = "".join(texts)
        if has_astral(joined):
            self.units = [utf16_len(t) for t in texts]
            self.size = sum(self.units)
        else:
            self.units = list(map(len, texts))
            self.size = len(joined)
        self._tools = tools
        self._system = system
        self._has_instructions = has_instructions
        self._messages = messages
        self._cjk: list[int | None] = [None] * len(texts)

    def __len__(self) -> int:
        return len(self.texts)

    def kind_index(self, i: int) -> tuple[str, int]:
        n_tools = len(self._tools)
        if i < n_tools:
            return "tool", i
        i -= n_tools
        if isinstance(self._system, str):
            if i == 0:
                return "system", 0
            i -= 1
        elif isinstance(self._system, list):
            if i < len(self._system):
                return "system-block", i
            i -= len(self._system)
        if self._has_instructions:
            if i == 0:
                return "instructions", 0
            i -= 1
        return "message", i

    def label(self, i: int) -> str:
        kind, index = self.kind_index(i)
        if kind == "tool":
            tool = self._tools[index]
            name = _coalesce(_get(_get(tool, "function"), "name"), _get(tool, "name"), "?")
            return f"tool {index + 1} ({js_to_string(name)})"
        if kind == "system-block":
            return f"system block {index + 1}"
        if kind in ("system", "instructions"):
            return kind
        message = self._messages[index]
        role = _coalesce(_get(message, "role"), _get(message, "type"), "?")
        return f"message {index + 1} ({js_to_string(role)})"

    def part(self, i: int) -> RequestPart:
        kind, index = self.kind_index(i)
        return RequestPart(self.label(i), self.texts[i], self.units[i], kind, index)

    def parts(self) -> list[RequestPart]:
        return [self.part(i) for i in range(len(self.texts))]

    def cjk(self, i: int) -> int:
        value = self._cjk[i]
        if value is None:
            value = self._cjk[i] = cjk_count(self.texts[i])
        return value

    def cjk_total(self, end: int | None = None) -> int:
        """The CJK count of the first ``end`` parts (all by default), each part counted once."""
        stop = len(self.texts) if end is None else end
        counts = self._cjk
        if None in counts[:stop]:
            texts = self.texts
            for i in range(stop):
                if counts[i] is None:
                    counts[i] = cjk_count(texts[i])
        return sum(counts[:stop])


def build_request(payload: Any) -> Request:
    """The parts of a request in the order a provider hashes them (``requestParts``).

    Raises UnreadableRow where the original's JavaScript would throw.
    """
    requests = _get(payload, "providerRequests")
    body: Any = UNDEFINED
    if not _nullish(requests):
        if type(requests) is not list:
            raise UnreadableRow("payload.providerRequests is not an array")
        for request in requests:
            candidate = _get(request, "body")
            if js_truthy(candidate):
                body = candidate
                break
    tools = _coalesce(_get(body, "tools"), _get(payload, "tools"), [])
    if type(tools) is not list:
        raise UnreadableRow("the request's tools are not an array")
    texts = [_stringify_part(tool) for tool in tools]
    system = _get(body, "system")
    if type(system) is str:
        texts.append(system)
    elif type(system) is list:
        texts.extend(_stringify_part(block) for block in system)
    instructions = _get(body, "instructions")
    has_instructions = type(instructions) is str
    if has_instructions:
        texts.append(instructions)
    messages = _coalesce(
        _get(body, "messages"), _get(body, "input"), _get(body, "contents"), _get(payload, "messages"), []
    )
    if type(messages) is not list:
        raise UnreadableRow("the request's messages are not an array")
    append = texts.append
    for message in messages:
        if type(message) is dict:
            content = message.get("content")
            if type(content) is str:
                append(content)
                continue
        append(_stringify_part(message))
    return Request(texts, tools, system, has_instructions, messages)


@dataclass(slots=True)
class PrefixDiff:
    shared: int
    label: str
    offset: int
    was: Any = UNDEFINED
    now: Any = UNDEFINED
    part_index: int | None = None  # index into the current request's parts, None when identical


def compare_prefix(previous: Request, current: Request) -> PrefixDiff:
    """Where two requests stop being equal (``comparePrefix``)."""
    shared = 0
    before_texts = previous.texts
    n_before = len(before_texts)
    for index, text in enumerate(current.texts):
        if index < n_before and before_texts[index] == text:
            shared += current.units[index]
            # The texts are equal, so the counts are too.
            if current._cjk[index] is None:
                current._cjk[index] = previous._cjk[index]
            continue
        before = before_texts[index] if index < n_before else None
        offset = common_prefix_utf16(before, text) if before is not None else 0
        start = max(0, offset - CONTEXT_BEFORE)
        return PrefixDiff(
            shared=shared + offset,
            label=current.label(index),
            offset=offset,
            was=js_slice(before, start, offset + CONTEXT_AFTER) if before is not None else "(no such part)",
            now=js_slice(text, start, offset + CONTEXT_AFTER),
            part_index=index,
        )
    label = "(request ends earlier)" if n_before > len(current.texts) else "(identical)"
    return PrefixDiff(shared=shared, label=label, offset=0)


def shared_estimate(request: Request, diff: PrefixDiff) -> int:
    """Covel's estimate of the joined part texts cut at ``diff.shared`` UTF-16 units."""
    if diff.part_index is None:
        return covel_estimate_parts(request.cjk_total(), diff.shared)
    cjk = request.cjk_total(diff.part_index)
    if diff.offset:
        text = request.texts[diff.part_index]
        cjk += cjk_count(text[: utf16_to_index(text, diff.offset)])
    # A cut through a surrogate pair leaves a lone high surrogate: one unit, never CJK.
    return covel_estimate_parts(cjk, diff.shared)


@dataclass(slots=True)
class Pair:
    size: int
    tokens: int
    shared: int
    shared_tokens: int
    first_difference: str
    offset: int
    was: Any
    now: Any
    # Beyond the original, for the extended report.
    turn_id: str = ""
    previous_turn_id: str = ""
    event_id: str | None = None
    previous_event_id: str | None = None
    part_kind: str | None = None
    part_index: int | None = None  # within its kind
    position: int | None = None  # within all parts

    def to_json(self) -> dict:
        out: dict[str, Any] = {
            "size": self.size,
            "tokens": self.tokens,
            "shared": self.shared,
            "sharedTokens": self.shared_tokens,
            "firstDifference": self.first_difference,
            "offset": self.offset,
        }
        if self.was is not UNDEFINED:
            out["was"] = self.was
        if self.now is not UNDEFINED:
            out["now"] = self.now
        return out


@dataclass(slots=True)
class _LastTurn:
    turn_id: Any  # str, or whatever odd value the column held (see js_column)
    request: Request
    event_id: str | None
    payload: Any


@dataclass(slots=True)
class RuntimeEntry:
    session_id: Any  # str, or whatever odd value the column held (see js_column)
    runtime_id: Any  # whatever payload.runtimeId held; UNDEFINED when absent
    turns: int = 0
    calls: int = 0
    total_chars: int = 0
    first_request_chars: list[int] = field(default_factory=list)
    pairs: list[Pair] = field(default_factory=list)
    last: _LastTurn | None = None

    @property
    def runtime_label(self) -> str:
        return js_to_string(self.runtime_id)

    @property
    def session_label(self) -> str:
        """``${sessionId}``: a NULL session prints as ``null``, a BLOB as its bytes ``1,2,3``."""
        return self.session_id if type(self.session_id) is str else js_to_string(self.session_id)

    def to_json(self) -> dict:
        out: dict[str, Any] = {"sessionId": self.session_id}
        if self.runtime_id is not UNDEFINED:
            out["runtimeId"] = self.runtime_id
        out["turns"] = self.turns
        out["calls"] = self.calls
        out["totalChars"] = self.total_chars
        out["firstRequestChars"] = self.first_request_chars
        out["pairs"] = [pair.to_json() for pair in self.pairs]
        return out


Row = tuple  # (session_id, turn_id, payload text/bytes/None, event_id)
Warn = Callable[[str], None]
PairHook = Callable[[RuntimeEntry, Pair, Any, Any, Request, Request], None]


def build_report(rows: Iterable[Row], warn: Warn | None = None, on_pair: PairHook | None = None) -> list[RuntimeEntry]:
    """``firstRequestsPerTurn`` + ``buildReport`` over rows in the store's canonical order.

    Only the previous turn's request is kept per runtime, so memory stays flat however large the
    store. ``on_pair`` sees each new pair with both payloads and requests while they are still
    held, which is how the extended report adds exact tokens and anatomy names without a second
    pass.
    """
    entries: dict[str, RuntimeEntry] = {}
    for row in rows:
        # The ids as node:sqlite hands them to the script: a BLOB is a Uint8Array, which is equal
        # only to itself, so a BLOB turn id starts a new turn on every row, as it does for Covel.
        session_id, turn_id, raw = js_column(row[0]), js_column(row[1]), row[2]
        event_id = row[3] if len(row) > 3 else None
        try:
            if raw is None:
                raise UnreadableRow("payload is NULL")
            try:
                payload = js_parse(raw)
            except ValueError as exc:
                raise UnreadableRow(f"payload is not JSON ({exc})") from None
            if payload is None:
                raise UnreadableRow("payload is null")
            request = build_request(payload)
        except UnreadableRow as exc:
            if warn is not None:
                where = f"trace_events row {js_to_string(event_id)}" if event_id is not None else "an llm.calling row"
                warn(f"skipped {where} (session {js_to_string(session_id)}, turn {js_to_string(turn_id)}): {exc}")
            continue
        runtime_id = _get(payload, "runtimeId")
        session_key = session_id if type(session_id) is str else js_to_string(session_id)
        key = f"{session_key}\u0000{runtime_id if type(runtime_id) is str else js_to_string(runtime_id)}"
        entry = entries.get(key)
        if entry is None:
            entry = entries[key] = RuntimeEntry(session_id, runtime_id)
        size = request.size
        entry.calls += 1
        entry.total_chars += size
        if entry.last is not None and entry.last.turn_id == turn_id:
            continue
        entry.turns += 1
        entry.first_request_chars.append(size)
        previous = entry.last
        if previous is not None:
            diff = compare_prefix(previous.request, request)
            position = diff.part_index
            kind, index = request.kind_index(position) if position is not None else (None, None)
            pair = Pair(
                size=size,
                tokens=covel_estimate_parts(request.cjk_total(), size),
                shared=diff.shared,
                shared_tokens=shared_estimate(request, diff),
                first_difference=diff.label,
                offset=diff.offset,
                was=diff.was,
                now=diff.now,
                turn_id=turn_id,
                previous_turn_id=previous.turn_id,
                event_id=event_id,
                previous_event_id=previous.event_id,
                part_kind=kind,
                part_index=index,
                position=position,
            )
            entry.pairs.append(pair)
            if on_pair is not None:
                on_pair(entry, pair, previous.payload, payload, previous.request, request)
        entry.last = _LastTurn(turn_id, request, event_id, payload if on_pair is not None else None)
    for entry in entries.values():
        entry.last = None
    return list(entries.values())


# --- output, as the original prints it ---------------------------------------------------------

def _pad_end(text: str, width: int) -> str:
    return text + " " * max(0, width - utf16_len(text))


def _pad_start(text: str, width: int) -> str:
    return " " * max(0, width - utf16_len(text)) + text


def report_json(entries: list[RuntimeEntry]) -> str:
    """``JSON.stringify(report, null, 2)``."""
    return js_stringify([entry.to_json() for entry in entries], indent=2)


def report_table(entries: list[RuntimeEntry], show_runtime: str | None = None) -> str:
    """The text table (``printTable``), both ``console.log`` calls included."""
    lines: list[str] = []
    # A Set of the ids: strings and numbers by value, a BLOB's Uint8Array by identity (JsBytes).
    sessions = list(dict.fromkeys(entry.session_id for entry in entries))
    for session_id in sessions:
        lines.append(f"\nSession {session_id if type(session_id) is str else js_to_string(session_id)}")
        lines.append(
            " ".join(
                [
                    _pad_end("runtime", RUNTIME_COLUMN_WIDTH),
                    "turns",
                    "calls",
                    _pad_start("req tok", 8),
                    _pad_start("shared", 8),
                    "  %",
                    " first difference",
                ]
            )
        )
        all_tokens = 0
        all_shared = 0
        for entry in entries:
            if entry.session_id != session_id:
                continue
            # The original pads runtimeId as a string and throws when it is missing; we print it.
            name = _pad_end(entry.runtime_label, RUNTIME_COLUMN_WIDTH)
            if not entry.pairs:
                lines.append(" ".join([name, _pad_start(str(entry.turns), 5), _pad_start(str(entry.calls), 5), "(one turn only)"]))
                continue
            tokens = sum(p.tokens for p in entry.pairs)
            shared = sum(p.shared_tokens for p in entry.pairs)
            all_tokens += tokens
            all_shared += shared
            count = len(entry.pairs)
            last = entry.pairs[-1]
            lines.append(
                " ".join(
                    [
                        name,
                        _pad_start(str(entry.turns), 5),
                        _pad_start(str(entry.calls), 5),
                        _pad_start(js_number(js_round(tokens / count)), 8),
                        _pad_start(js_number(js_round(shared / count)), 8),
                        _pad_start(js_number(js_round(100 * shared / max(1, tokens))), 3),
                        f" {last.first_difference} +{last.offset}",
                    ]
                )
            )
        lines.append(
            f"first request of each later turn: {all_tokens} estimated tokens, {all_shared} "
            f"({js_number(js_round(100 * all_shared / max(1, all_tokens)))}%) repeat the previous turn from the start"
        )
    if show_runtime:
        for entry in entries:
            if not isinstance(entry.runtime_id, str) or entry.runtime_id != show_runtime:
                continue
            for index, pair in enumerate(entry.pairs):
                lines.append(
                    f"\n{entry.session_label} {entry.runtime_label} turn {index + 1} -> {index + 2}: "
                    f"{pair.first_difference} +{pair.offset}"
                )
                lines.append(f"  was: {_js_log_value(pair.was)}")
                lines.append(f"  now: {_js_log_value(pair.now)}")
    footer = (
        "\nreq tok / shared: mean estimated tokens of a turn's first request, and of the part equal to the previous turn's.\n"
        "These are prefix measurements on the recorded request, not a provider's bill."
    )
    return "\n".join(lines) + "\n" + footer + "\n"


def _js_log_value(value: Any) -> str:
    # `${JSON.stringify(undefined)}` is the text "undefined".
    return "undefined" if value is UNDEFINED else js_quote(value)
