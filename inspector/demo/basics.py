"""The demo's building blocks: its clock, ids, images, an Anthropic stream, and the turns where each
recorded situation happens."""

from __future__ import annotations

import base64
import random
import struct
import uuid
import zlib
from datetime import datetime, timedelta, timezone

from inspector.jsjson import js_stringify


EPOCH = datetime(2026, 11, 2, 11, 30, 0, tzinfo=timezone.utc)

# Stage ranks double as turn_messages."order" for runtime rows (covel-db.md §1.5).
STAGE_RANK = {"setup": 0, "pre-turn": 1, "narrative": 2, "post-turn": 3, "audit": 4}

# Main-session turns (1-based) where each recorded situation first happens. With turns > 12 the
# transient ones recur every RECUR turns so a long benchmark session keeps all kinds of rows.
F_SKIP = 2
F_MODEL_RETRY = 3
F_HTTP_429 = 4
F_RUNTIME_FAIL = 5
F_IMAGE = 6
F_PROMPT_EDIT = 7
F_COMPACT = 8
F_SKIP_AGAIN = 10
RECUR = 40

# --- small utilities --------------------------------------------------------------------------


def iso_at(ms: int) -> str:
    """``new Date(ms).toISOString()``."""
    moment = EPOCH + timedelta(milliseconds=ms)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


class Ids:
    """UUIDv4-shaped ids from the seeded RNG, so reruns give the same ids."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def uuid(self) -> str:
        return str(uuid.UUID(int=self._rng.getrandbits(128), version=4))

    def hex(self, n: int) -> str:
        return f"{self._rng.getrandbits(4 * n):0{n}x}"


def png_base64(rng: random.Random, width: int = 24, height: int = 16) -> str:
    """A small but valid PNG, so the base64 in the wire body decodes to a real image."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    rows = bytearray()
    for _ in range(height):
        rows.append(0)
        for _ in range(width):
            shade = rng.randint(150, 235)
            rows.extend((shade, shade - rng.randint(20, 60), rng.randint(40, 90)))
    png = (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(bytes(rows), 9))
        + chunk(b"IEND", b"")
    )
    return base64.b64encode(png).decode("ascii")


def anthropic_stream(body: dict) -> tuple[str, list[int]]:
    """The cacheable content of an Anthropic body in prefix order (tools, system, messages), and
    the offsets where its ``cache_control`` breakpoints end.

    A text block and a plain string with the same text are the same tokens to the provider, and
    the marker is not content, so both are normalised away before prefixes are compared.
    """
    pieces: list[str] = []
    size = 0
    marks: list[int] = []

    def add(text: str) -> None:
        nonlocal size
        pieces.append(text)
        size += len(text)

    for tool in body.get("tools") or ():
        add(js_stringify(tool))
    system = body.get("system")
    blocks = [{"type": "text", "text": system}] if isinstance(system, str) else (system or [])
    for block in blocks:
        add(block.get("text", ""))
        if "cache_control" in block:
            marks.append(size)
    for message in body.get("messages") or ():
        add("\x00" + message.get("role", ""))
        content = message.get("content")
        if isinstance(content, str):
            add(content)
            continue
        for block in content or ():
            if block.get("type") == "text":
                add(block.get("text", ""))
            else:
                add(js_stringify({k: v for k, v in block.items() if k != "cache_control"}))
            if "cache_control" in block:
                marks.append(size)
    return "".join(pieces), marks


# The fields an automatic prefix cache reads, in the order providers hash them (tools, the system
# instruction, then the conversation), per wire; the other fields (model, limits, stream) are
# not prompt content.
_PREFIX_FIELDS = ("tools", "instructions", "systemInstruction", "messages", "input", "contents")


def prefix_text(body: dict) -> str:
    """The cacheable content of a body for an automatic prefix cache, in hash order: the one
    text whose shared prefix the demo's simulated provider reads from its cache."""
    return "\x00".join(js_stringify(body[key]) for key in _PREFIX_FIELDS if key in body)


def recurs(turn: int, first: int, total: int) -> bool:
    first = min(first, total)
    return turn == first or (turn > 12 and (turn - first) % RECUR == 0)
