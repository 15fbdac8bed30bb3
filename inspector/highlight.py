"""Lexing for the text panes: prompts (Covel's tags, preamble prefixes, templates, cache
sentinels, late-system wrappers) and provider bodies (JSON).

The Qt highlighter only maps ``style_key`` strings to formats; every decision about what a piece of
text *is* lives here so it can be tested without a display.

``display_text`` turns the invisible cache sentinel (U+E000 … U+E000) into a visible chip run and
keeps the offset mapping both ways, so a view can show the chip yet copy the exact recorded text.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from pygments.lexer import RegexLexer, bygroups, using
from pygments.lexers.data import JsonLexer
from pygments.token import Comment, Keyword, Name, Number, Punctuation, String, Text, Token, Whitespace

from inspector.covel import markers

CacheSentinel = Token.Prompt.CacheSentinel
SystemInstruction = Token.Prompt.SystemInstruction
CacheControl = Token.Prompt.CacheControl

# What a sentinel looks like on screen: brackets no prompt uses, so the chip cannot be confused
# with recorded text, and the lexer can find it again after the substitution.
SENTINEL_CHIP = "⟦cache breakpoint⟧"
# A view may show the chip in its own language; any short text in these brackets is a chip.
_CHIP_RE = "⟦[^⟦⟧\n]{1,60}⟧"

_SENTINEL_RE = "\ue000COVEL_CACHE_BREAK\ue000"
assert _SENTINEL_RE == markers.CACHE_SENTINEL
_PREFIXES = "|".join(t.replace("[", r"\[").replace("]", r"\]") for t in markers.PREAMBLE_TAGS)
_SI_OPEN = markers.SYSTEM_INSTRUCTION_OPEN.strip()
_SI_CLOSE = markers.SYSTEM_INSTRUCTION_CLOSE.strip()


class PromptLexer(RegexLexer):
    """Covel prompt text. Works on whole prompts and on single lines (the Qt highlighter feeds one
    block at a time), so no rule depends on state carried across lines."""

    name = "Covel prompt"
    aliases = ["covel-prompt"]
    filenames: list[str] = []

    tokens = {
        "root": [
            (_SENTINEL_RE, CacheSentinel),
            (_CHIP_RE, CacheSentinel),
            (r"^(?:%s)(?=\s|$)" % _PREFIXES, Keyword),
            (r"%s|%s" % (_SI_OPEN, _SI_CLOSE), SystemInstruction),
            # A tag line whose body is JSON: the tag, the JSON (delegated), the closing tag.
            (r"^(<[A-Za-z][\w.:-]*(?:[ \t][^>\n]*)?>)([ \t]*[\[{][^\n]*?)(</[A-Za-z][\w.:-]*>)?$",
             bygroups(Name.Tag, using(JsonLexer), Name.Tag)),
            (r"</?[A-Za-z][\w.:-]*(?:[ \t][^<>\n]*)?/?>", Name.Tag),
            (r"\{\{[^{}\n]*\}\}", Name.Variable),
            (r"\n", Whitespace),
            # Plain text: stop before anything another rule could start on.
            (r"[^<{\n\ue000⟦\[]+", Text),
            (r".", Text),
        ],
    }


_JSON = JsonLexer()
_PROMPT = PromptLexer()

# Token type → style key, most specific first (a subtype matches its ancestors' keys otherwise).
_STYLE_KEYS: list[tuple[object, str]] = [
    (CacheSentinel, "sentinel"),
    (SystemInstruction, "system-instruction"),
    (CacheControl, "cache-control"),
    (Name.Tag, "tag"),
    (Name.Variable, "template"),
    (Keyword.Constant, "json-constant"),
    (Keyword, "prefix"),
    (String.Double, "json-string"),
    (String, "json-string"),
    (Number, "json-number"),
    (Punctuation, "punctuation"),
    (Comment, "comment"),
]

STYLE_KEYS = tuple(dict.fromkeys(k for _t, k in _STYLE_KEYS)) + ("json-key", "text")


def _style_key(ttype, value: str) -> str:
    if ttype in Name.Tag and value == '"cache_control"':
        return "cache-control"
    if ttype in Name.Tag and value.startswith('"'):
        return "json-key"  # JsonLexer marks object keys as Name.Tag
    for base, key in _STYLE_KEYS:
        if ttype in base:
            return key
    return "text"


def spans(text: str, language: str = "prompt") -> list[tuple[int, int, str]]:
    """``(start, end, style_key)`` runs covering ``text`` exactly, in order, adjacent runs of the
    same key merged. Offsets are Python ``str`` indices. ``language`` is ``prompt`` or ``json``."""
    lexer = _JSON if language == "json" else _PROMPT
    out: list[tuple[int, int, str]] = []
    pos = 0
    for index, ttype, value in lexer.get_tokens_unprocessed(text):
        if not value:
            continue
        # Lexers report the offset of each token; a gap or overlap would mean a lexer bug, and
        # the view must still cover every character once, so positions are re-derived.
        start = pos
        end = start + len(value)
        key = _style_key(ttype, value)
        if out and out[-1][2] == key and out[-1][1] == start:
            out[-1] = (out[-1][0], end, key)
        else:
            out.append((start, end, key))
        pos = end
    if pos < len(text):
        out.append((pos, len(text), "text"))
    elif pos > len(text):
        # Only possible if a lexer appended characters (Pygments adds a final newline in some
        # paths); clip so offsets stay inside the text.
        clipped = []
        for s, e, k in out:
            if s >= len(text):
                break
            clipped.append((s, min(e, len(text)), k))
        out = clipped
    return out


def utf16_offsets(text: str) -> list[int] | None:
    """Prefix UTF-16 lengths of ``text`` (index i → UTF-16 offset of character i), or None when
    every character is one UTF-16 unit and offsets are the same."""
    if all(ord(ch) < 0x10000 for ch in text):
        return None
    table = [0]
    for ch in text:
        table.append(table[-1] + (2 if ord(ch) >= 0x10000 else 1))
    return table


def runs_in_utf16(text: str, runs: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """``runs`` over ``text`` (Python indices) with offsets in UTF-16 code units instead."""
    table = utf16_offsets(text)
    if table is None:
        return runs
    return [(table[s], table[e], k) for s, e, k in runs]


def spans_utf16(text: str, language: str = "prompt") -> list[tuple[int, int, str]]:
    """:func:`spans` with offsets in UTF-16 code units, what ``QSyntaxHighlighter.setFormat`` takes."""
    return runs_in_utf16(text, spans(text, language))


@dataclass(slots=True)
class DisplayText:
    """Text as shown (sentinels replaced by ``chip``, :data:`SENTINEL_CHIP` unless a view chose
    another) with the way back.

    ``chips`` holds ``(display_start, source_start)`` for each chip, in order.
    """

    source: str
    display: str
    chips: list[tuple[int, int]]
    chip: str = SENTINEL_CHIP

    def display_to_source(self, offset: int) -> int:
        """Source offset of a display offset; an offset inside a chip maps to the sentinel start."""
        i = bisect.bisect_right(self.chips, (offset, len(self.source) + 1)) - 1
        if i < 0:
            return offset
        d, s = self.chips[i]
        if offset < d + len(self.chip):
            return s
        return s + len(markers.CACHE_SENTINEL) + (offset - d - len(self.chip))

    def source_to_display(self, offset: int) -> int:
        delta = 0
        for d, s in self.chips:
            if s >= offset:
                break
            if offset < s + len(markers.CACHE_SENTINEL):
                return d
            delta = d + len(self.chip) - (s + len(markers.CACHE_SENTINEL))
        return offset + delta

    def source_slice(self, start: int, end: int) -> str:
        """The recorded text behind display range ``[start, end)``; a chip partly selected yields
        the whole sentinel, because half a sentinel is not a thing that was ever sent."""
        s = self.display_to_source(start)
        e_inside = self.display_to_source(max(start, end - 1)) if end > start else s
        # The end maps past the character at end-1 (or past the whole sentinel when it is a chip).
        e = e_inside + (len(markers.CACHE_SENTINEL) if self._in_chip(end - 1) else 1) if end > start else s
        return self.source[s:e]

    def _in_chip(self, offset: int) -> bool:
        return any(d <= offset < d + len(self.chip) for d, _s in self.chips)


def display_text(text: str, chip: str = SENTINEL_CHIP) -> DisplayText:
    chips: list[tuple[int, int]] = []
    parts: list[str] = []
    pos = 0
    dpos = 0
    sentinel = markers.CACHE_SENTINEL
    while True:
        i = text.find(sentinel, pos)
        if i < 0:
            parts.append(text[pos:])
            break
        parts.append(text[pos:i])
        dpos += i - pos
        chips.append((dpos, i))
        parts.append(chip)
        dpos += len(chip)
        pos = i + len(sentinel)
    return DisplayText(text, "".join(parts), chips, chip)


# --- prepared text for a view: display text, a cap on what is laid out, per-line spans -----------

# Laying out and highlighting megabytes of pretty-printed JSON takes the GUI thread seconds; a view
# shows this many characters first and the rest on request.
SHOW_LIMIT = 200_000


@dataclass(slots=True)
class PreparedText:
    """What a text view needs, computed off the GUI thread: ``display`` (chips and the way back),
    ``shown`` (``display.display`` or its first lines when longer than the limit) and ``lines``,
    the UTF-16 spans of each ``\\n``-separated line of ``shown`` (None: not computed)."""

    display: DisplayText
    shown: str
    language: str
    lines: list[list[tuple[int, int, str]]] | None

    @property
    def truncated(self) -> bool:
        return len(self.shown) < len(self.display.display)


# How long line_spans pauses between its slices. A pause of 0 let the lock go and took it straight
# back, before a waiting GUI thread had woken: the GUI waited for Python's switch interval (5 ms)
# at each of its calls, and the Raw event tab of the largest request stalled for 29–47 ms while
# it was lexed. A pause this long lets a waiting thread take the lock (the tab: 13–14 ms).
YIELD_S = 0.0002


def line_spans(text: str, language: str = "prompt", *, should_stop=None,
               slice_s: float = 0.002) -> list[list[tuple[int, int, str]]] | None:
    """:func:`spans_utf16` of every line of ``text`` (the Qt highlighter's blocks), lexed line by
    line exactly as the highlighter would. Meant for a worker thread: it pauses (:data:`YIELD_S`)
    every ``slice_s`` so the GUI thread is never starved, and returns None when ``should_stop()``."""
    import time

    out: list[list[tuple[int, int, str]]] = []
    clock = time.perf_counter
    mark = clock()
    for line in text.split("\n"):
        out.append(spans_utf16(line, language) if line else [])
        if clock() - mark > slice_s:
            time.sleep(YIELD_S)  # a waiting GUI thread takes the interpreter lock meanwhile
            if should_stop is not None and should_stop():
                return None
            mark = clock()
    return out


def prepare_text(text: str, language: str = "prompt", *, limit: int | None = SHOW_LIMIT,
                 highlight: bool = True, should_stop=None, chip: str = SENTINEL_CHIP) -> PreparedText:
    """Display text, cut at a line end after ``limit`` characters (None: never), with spans.
    ``chip`` is what a sentinel shows as (it must match the lexer's chip pattern)."""
    display = display_text(text, chip)
    shown = display.display
    if limit is not None and len(shown) > limit:
        cut = shown.rfind("\n", 0, limit)
        shown = shown[:cut if cut > limit // 2 else limit]
    lines = line_spans(shown, language, should_stop=should_stop) if highlight else None
    return PreparedText(display, shown, language, lines)
