"""The template functions koishi-plugin-chatluna 1.3.36 registers on its prompt renderer
(``ChatLunaPromptRenderService``), with a fixed clock and a seeded random source instead of the
wall clock and ``Math.random``, so a preview is the same on every render.

Each function is written from the behaviour ChatLuna shows (read in its published ``lib``), not
copied: ``time_UTC(offset)``, ``timeDiff(a, b)``, ``date``, ``isodate``, ``isotime``,
``weekday``, ``random(min, max)`` or ``random(a, b, c)``, ``pick(a, b, c)``, ``roll("2d6+1")``
and ``url(method, address, body, length)``. ``url`` fetches a page in ChatLuna; here it never
touches the network: it renders the empty string and the render reports a ``network-function``
warning.

The renderer passes a call's arguments as strings (``String(arg)``); a function used as a bare
name (``{date}``) gets no arguments. A function that throws in ChatLuna raises
:class:`FunctionFailed` here (the renderer treats both the same way).

The clock: ``now`` is an aware datetime; its UTC offset plays the server's local time zone
(``date``, ``isodate``, ``isotime``, ``weekday`` and the ``date``/``time`` variables are local
times in ChatLuna). Default :data:`DEFAULT_NOW`, seed :data:`DEFAULT_SEED`.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

from inspector import wording
from inspector.messages import localized
from inspector.jsjson import JS_SPACE, js_number, js_to_number, js_to_string, js_trim
from inspector.zones.diagnostic import NETWORK_FUNCTION

DEFAULT_NOW = "2026-01-01T09:30:00+08:00"
DEFAULT_SEED = 0

# What ChatLuna registers, in its order; the renderer knows no other function.
BUILTIN_FUNCTIONS = ("time_UTC", "timeDiff", "date", "weekday", "isotime", "isodate", "random", "pick",
                     "roll", "url")
# A diagnostic for an argument ChatLuna's function would log a warning about (or read as invalid).
FUNCTION_ARGUMENT = "function-argument"
WEEKDAYS = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")

# JavaScript dates hold at most 8.64e15 ms either side of 1970; past that toISOString throws.
_MAX_JS_TIME_MS = 8.64e15
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


class FunctionFailed(Exception):
    """A built-in function threw (as ChatLuna's would, e.g. ``roll()`` without a formula)."""


class ClockError(ValueError):
    """``--now`` that is not an ISO date-time."""


def parse_now(text: str) -> datetime:
    """An ISO 8601 date-time; without an offset it is UTC. A clear :class:`ClockError` otherwise."""
    try:
        value = datetime.fromisoformat(text.strip().replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise ClockError(localized("--now {value}: not an ISO date-time (for example {example})", value=repr(text),
                                   example=DEFAULT_NOW)) from None
    if value.tzinfo is None:
        value = value.replace(tzinfo=timezone.utc)
    return value


def js_parse_int(text: str) -> float:
    """``parseInt(text)`` for a string: leading white space, a sign, ``0x`` for hex, then digits
    up to the first that is not one; NaN when there is none."""
    match = _PARSE_INT.match(_LEADING_SPACE.sub("", text, count=1))
    if match is None:
        return math.nan
    sign, hex_digits, digits = match.groups()
    value = int(hex_digits, 16) if hex_digits else int(digits)
    return float(-value if sign == "-" else value)


_LEADING_SPACE = re.compile(f"^[{JS_SPACE}]+")
_PARSE_INT = re.compile(r"([+-]?)(?:0[xX]([0-9A-Fa-f]+)|([0-9]+))")


def js_floor(x: float) -> float:
    """``Math.floor``: a float, Infinity and NaN passing through."""
    return float(math.floor(x)) if math.isfinite(x) else x


def _ms(moment: datetime) -> float:
    return (moment - _EPOCH) / timedelta(milliseconds=1)


def _iso_utc(ms: float) -> str:
    """``new Date(ms).toISOString()``; throws (FunctionFailed) outside JavaScript's date range."""
    if not math.isfinite(ms) or abs(ms) > _MAX_JS_TIME_MS:
        raise FunctionFailed("RangeError: Invalid time value")
    moment = _EPOCH + timedelta(milliseconds=math.floor(ms))
    year = moment.year
    text = moment.strftime("-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
    return (f"{year:04d}" if 0 <= year <= 9999 else f"{'+' if year > 0 else '-'}{abs(year):06d}") + text


_ISO_DATE = re.compile(r"(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?")
_ISO_DATE_TIME = re.compile(r"(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?"
                            r"(Z|[+-]\d{2}:\d{2})?")


def parse_js_date(text: str, local: timezone) -> float | None:
    """Milliseconds since 1970 for the ISO forms ``new Date(text)`` reads the same way in every
    engine (a date alone is UTC, a date-time without an offset local time); None otherwise (an
    invalid date, or a legacy form this tool does not read)."""
    text = text.strip()
    try:
        match = _ISO_DATE.fullmatch(text)
        if match:
            y, m, d = match.group(1), match.group(2) or "01", match.group(3) or "01"
            return _ms(datetime(int(y), int(m), int(d), tzinfo=timezone.utc))
        match = _ISO_DATE_TIME.fullmatch(text)
        if match:
            y, mo, d, h, mi, s, frac, zone = match.groups()
            tz: Any = local
            if zone == "Z":
                tz = timezone.utc
            elif zone:
                sign = 1 if zone[0] == "+" else -1
                tz = timezone(sign * timedelta(hours=int(zone[1:3]), minutes=int(zone[4:6])))
            micro = int((frac or "0")[:3].ljust(3, "0")) * 1000
            if int(h) == 24 and mi == "00" and (s or "00") == "00" and not micro:
                base = datetime(int(y), int(mo), int(d), tzinfo=tz) + timedelta(days=1)
            else:
                base = datetime(int(y), int(mo), int(d), int(h), int(mi), int(s or 0), micro, tzinfo=tz)
            return _ms(base)
    except ValueError:
        return None
    return None


def time_diff_text(a_ms: float, b_ms: float) -> str:
    """ChatLuna's duration wording: "2 days, 3 hours, 1 minute", or "now" under a minute (and for
    an invalid date, whose NaN makes every part zero)."""
    diff = abs(a_ms - b_ms)
    if diff != diff:
        return "now"
    day, hour, minute = 86_400_000, 3_600_000, 60_000
    days, hours, minutes = js_floor(diff / day), js_floor(diff % day / hour), js_floor(diff % hour / minute)
    parts = []
    for n, unit in ((days, "day"), (hours, "hour"), (minutes, "minute")):
        if n > 0:
            parts.append(f"{js_number(n)} {unit}{'s' if n > 1 else ''}")
    return ", ".join(parts) or "now"


@dataclass
class FunctionNote:
    """Something a function call did that the render should report (a network function, an
    argument ChatLuna would log a warning for)."""
    function: str
    code: str
    message: str


@dataclass
class Builtins:
    """The built-in functions for one render: one clock, one random sequence from ``seed`` (so
    the same template renders the same text every time), and the notes the calls left."""
    now: datetime
    seed: int = DEFAULT_SEED
    # Instead of the seeded sequence: these values in turn, over and over (a test's Math.random).
    random_values: tuple[float, ...] = ()
    notes: list[FunctionNote] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.restart()

    def restart(self) -> None:
        """Start the random sequence again and forget the notes: one template render each, so a
        template's random values do not depend on the templates rendered before it."""
        self.notes = []
        self._rng = random.Random(self.seed)
        self._next_value = 0

    def _random(self) -> float:
        if self.random_values:
            value = self.random_values[self._next_value % len(self.random_values)]
            self._next_value += 1
            return value
        return self._rng.random()

    @property
    def local_zone(self) -> timezone:
        offset = self.now.utcoffset() or timedelta(0)
        return timezone(offset)

    def _local(self) -> datetime:
        return self.now.astimezone(self.local_zone)

    def _note(self, function: str, code: str, message: str) -> None:
        self.notes.append(FunctionNote(function, code, message))

    # -- the functions, each (args, variables) -> value -------------------------------------

    def time_utc(self, args: list[Any], _variables: Mapping[str, Any]) -> str:
        first = js_to_string(args[0]) if args else ""
        offset = js_parse_int(first) if first else 0.0
        if offset != offset:
            self._note("time_UTC", FUNCTION_ARGUMENT, wording.TIME_UTC_NOT_OFFSET.format(argument=repr(first)))
            return "Invalid UTC offset"
        return _iso_utc(_ms(self.now) + offset * 3_600_000).replace("T", " ")[:-5]

    def time_diff(self, args: list[Any], _variables: Mapping[str, Any]) -> str:
        times = []
        for i in range(2):
            text = js_to_string(args[i]) if i < len(args) else "undefined"
            ms = parse_js_date(text, self.local_zone)
            if ms is None:
                self._note("timeDiff", FUNCTION_ARGUMENT, wording.TIME_DIFF_NOT_DATE.format(value=repr(text)))
                ms = math.nan
            times.append(ms)
        return time_diff_text(times[0], times[1])

    def date(self, _args: list[Any], _variables: Mapping[str, Any]) -> str:
        return self._local().strftime("%Y-%m-%d")

    def weekday(self, _args: list[Any], _variables: Mapping[str, Any]) -> str:
        return WEEKDAYS[(self._local().weekday() + 1) % 7]

    def isotime(self, _args: list[Any], _variables: Mapping[str, Any]) -> str:
        return self._local().strftime("%H:%M:%S")

    def random(self, args: list[Any], _variables: Mapping[str, Any]) -> str:
        texts = [js_to_string(a) for a in args]
        if len(texts) == 2:
            low, high = js_to_number(texts[0]), js_to_number(texts[1])
            if low == low and high == high:
                return js_number(js_floor(self._random() * (high - low + 1) + low))
        return self._select(",".join(texts))

    def pick(self, args: list[Any], _variables: Mapping[str, Any]) -> str:
        return self._select(",".join(js_to_string(a) for a in args))

    def _select(self, joined: str) -> str:
        items = [js_trim(item) for item in joined.split(",")]
        return items[int(js_floor(self._random() * len(items)))]

    def roll(self, args: list[Any], _variables: Mapping[str, Any]) -> str:
        if not args or args[0] is None:
            raise FunctionFailed("TypeError: roll() needs a dice formula such as \"2d6+1\"")
        formula = js_to_string(args[0])
        parts = formula.split("d")
        count = 1.0
        if len(parts) > 1 and js_to_number(parts[0]) == js_to_number(parts[0]):
            count = js_parse_int(parts[0])
        last = parts[-1].split("+")
        add = 0.0
        if len(last) > 1 and js_to_number(last[1]) == js_to_number(last[1]):
            add = js_parse_int(last[1])
        sides = js_parse_int(last[0]) if js_to_number(last[0]) == js_to_number(last[0]) else 1.0
        span = count * sides - count + 1
        drawn = self._random() * span  # drawn even when the formula made the span NaN, as in ChatLuna
        result = js_floor(drawn) + count + add
        return js_number(result)

    def url(self, args: list[Any], _variables: Mapping[str, Any]) -> str:
        address = js_to_string(args[1]) if len(args) > 1 else "undefined"
        limit = js_to_string(args[3]) if len(args) > 3 else "1000"
        self._note("url", NETWORK_FUNCTION, wording.URL_NOT_FETCHED.format(address=address, limit=limit))
        return ""

    def providers(self) -> dict[str, Callable[[list[Any], Mapping[str, Any]], Any]]:
        """name -> provider, for ``render_template(functions=...)``."""
        return {
            "time_UTC": self.time_utc, "timeDiff": self.time_diff, "date": self.date, "weekday": self.weekday,
            "isotime": self.isotime, "isodate": self.date, "random": self.random, "pick": self.pick,
            "roll": self.roll, "url": self.url,
        }

    # -- the clock-derived variables ChatLuna passes to every preset template ---------------

    def locale_date_time(self) -> str:
        """``new Date().toLocaleString()`` in Node's default en-US locale: ``1/1/2026, 9:30:00 AM``
        (as recorded from Node 20; a server with another locale writes its own form, which
        ``--vars`` can set)."""
        local = self._local()
        return f"{local.month}/{local.day}/{local.year}, {self.locale_time()}"

    def locale_time(self) -> str:
        """``new Date().toLocaleTimeString()`` (en-US): ``9:30:00 AM``."""
        local = self._local()
        hour = local.hour % 12 or 12
        return f"{hour}:{local.minute:02d}:{local.second:02d} {'AM' if local.hour < 12 else 'PM'}"
