"""The bounds on the demo generator's arguments, for the library and the ``demo`` command alike.

The benchmarks need at most 1,000 main-session turns (1,015 in all, about 530 MB) at scale 1; the
bounds leave ten times that room while keeping a typo (``--turns 100000000000``) from running for
days or filling the disk.
"""

from __future__ import annotations

import math

MAX_TURNS = 10_000
MAX_SCALE = 100.0
MAX_SESSIONS = 1_000


def _shown(value: object) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**30:
        # (str() of an integer past 4,300 digits raises.)
        return f"a number of about {int(value.bit_length() * 0.30103) + 1:,} digits"
    text = f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def check_turns(turns: int) -> int:
    """``turns`` if it is a usable main-session length, else ``ValueError`` saying what is."""
    if isinstance(turns, bool) or not isinstance(turns, int):
        raise ValueError(f"turns must be a whole number from 1 to {MAX_TURNS:,}, not {_shown(turns)}")
    if not 1 <= turns <= MAX_TURNS:
        raise ValueError(f"turns must be from 1 to {MAX_TURNS:,}, not {_shown(turns)}")
    return turns


def check_scale(scale: float) -> float:
    """``scale`` if it is a usable prose multiplier (finite, above 0, at most ``MAX_SCALE``)."""
    if isinstance(scale, bool) or not isinstance(scale, (int, float)):
        raise ValueError(f"scale must be a number above 0 and at most {MAX_SCALE:g}, not {_shown(scale)}")
    if not (math.isfinite(scale) and 0 < scale <= MAX_SCALE):
        raise ValueError(f"scale must be above 0 and at most {MAX_SCALE:g}, not {_shown(scale)}")
    return float(scale)


def check_sessions(sessions: int | None) -> int:
    """The number of sessions to play (4 when None), once it is known to be usable."""
    count = 4 if sessions is None else sessions
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_SESSIONS:
        raise ValueError(f"sessions must be from 1 to {MAX_SESSIONS:,}, not {_shown(sessions)}")
    return count
