"""Which lore entries a conversation activates, as koishi-plugin-chatluna 1.3.36's
``LoreBookMatcher`` decides it (read in its published ``lib``; written anew here).

* The messages scanned are the history plus the message being sent, newest first; an entry looks
  at the first ``scanDepth`` of them (entry, else the lore book's settings, else 2).
* Every keyword string is a JavaScript regular expression source: ``"猫.娘"`` matches ``猫x娘``,
  and ``"/foo/i"`` is not a regex literal but the pattern ``/foo/i`` (slashes included). ChatLuna
  adds the flags ``g`` and, unless the entry says ``caseSensitive: true``, ``i`` (the lore book's
  default of case-sensitive is not what the pattern gets). ``matchWholeWord: true`` wraps the
  pattern in ``\\b…\\b`` (JavaScript's ASCII word boundary, so a CJK keyword then never matches)
  and scans the text in pieces split at punctuation and white space.
* Because of the ``g`` flag a pattern object remembers where its last match ended
  (``lastIndex``) and the next test starts there; one pattern object serves every entry with the
  same keyword, case and whole-word settings. This module keeps that state within one match.
* A ``constant`` entry activates whenever it is scanned at all; ``enabled: false`` never.
* An activated entry's own content is scanned in turn (``recursiveScan``, default true), down to
  ``maxRecursionDepth`` (default 3) levels; the last-in pass is scanned first.
* The activated entries are sorted by ``order`` (stable; 0 when missing).

JavaScript patterns are translated to Python's ``re`` (:func:`translate_pattern`). A pattern that
does not compile is reported (``lore-pattern``) and never matches (in ChatLuna it throws, and the
lore book of that chat is lost).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from inspector.jsjson import JS_SPACE

from .model import LoreEntry, LoreSettings

LORE_PATTERN = "lore-pattern"

DEFAULT_SCAN_DEPTH = 2
DEFAULT_RECURSIVE_SCAN = True
DEFAULT_MAX_RECURSION_DEPTH = 3
# Bound on scan passes: each activated entry adds at most one pass per message it matched in.
MAX_PASSES = 100_000

# ChatLuna's splitContent separators (matchWholeWord): punctuation and white space.
_SPLIT = re.compile(f"[。！？；;.!?,，、：{JS_SPACE}]+")
_NOT_LINE_END = "[^\\n\\r\\u2028\\u2029]"


class PatternError(ValueError):
    """A keyword that does not compile as a pattern."""


_QUANTIFIER = re.compile(r"\{[0-9]+(?:,[0-9]*)?\}")
_GROUP_OPENING = re.compile(r"\(\?(?::|=|!|<=|<!|<[A-Za-z_$][A-Za-z0-9_$]*>)")
_WORD = "A-Za-z0-9_"
_BOUNDARY = f"(?:(?<=[{_WORD}])(?![{_WORD}])|(?<![{_WORD}])(?=[{_WORD}]))"
_NOT_BOUNDARY = f"(?:(?<=[{_WORD}])(?=[{_WORD}])|(?<![{_WORD}])(?![{_WORD}]))"
# JavaScript's class escapes (non-unicode mode): outside a class, and inside one (None: no way to
# write it inside a Python class).
_CLASS_ESCAPES = {
    "d": ("[0-9]", "0-9"), "D": ("[^0-9]", None), "w": (f"[{_WORD}]", _WORD), "W": (f"[^{_WORD}]", None),
    "s": (f"[{JS_SPACE}]", JS_SPACE), "S": (f"[^{JS_SPACE}]", None),
}


def translate_pattern(source: str) -> str:
    """A JavaScript (non-unicode mode) regex source as a Python ``re`` pattern with the same
    meaning: ASCII ``\\d \\w \\b``, JavaScript's ``\\s`` and ``.``, ``$`` only at the end, named
    groups renamed, identity escapes of letters as the letters. :class:`PatternError` for what has
    no Python spelling (``\\S`` inside ``[...]``) or is malformed."""
    out: list[str] = []
    i, n = 0, len(source)
    in_class = False
    # After a quantifier JavaScript allows one "?" (lazy) and nothing else that repeats; Python 3.11
    # reads "a++" and "a{2}+" as possessive, which JavaScript refuses ("Nothing to repeat").
    after: str | None = None  # None | "quantifier" | "lazy"
    while i < n:
        ch = source[i]
        quantifier = _QUANTIFIER.match(source, i) if not in_class and ch == "{" else None
        if not in_class and (ch in "*+" or quantifier):
            if after is not None:
                raise PatternError(f"nothing to repeat at position {i}")
            after = "quantifier"
            end = quantifier.end() if quantifier else i + 1
            out.append(source[i:end])
            i = end
            continue
        if not in_class and ch == "?" and after is not None:
            if after == "lazy":
                raise PatternError(f"nothing to repeat at position {i}")
            after = "lazy"
            out.append("?")
            i += 1
            continue
        if not in_class and ch == "?":
            after = "quantifier"
            out.append("?")
            i += 1
            continue
        after = None
        if not in_class and source.startswith("(?", i) and not _GROUP_OPENING.match(source, i):
            raise PatternError(f"invalid group at position {i} (JavaScript knows (?:, (?=, (?!, (?<=, (?<!, (?<name>)")
        if ch == "\\":
            if i + 1 >= n:
                raise PatternError("\\ at end of pattern")
            nxt = source[i + 1]
            i += 2
            if nxt in _CLASS_ESCAPES:
                outside, inside = _CLASS_ESCAPES[nxt]
                if in_class and inside is None:
                    raise PatternError(f"\\{nxt} inside [...] cannot be checked here")
                out.append(inside if in_class else outside)
            elif nxt == "b":
                out.append("\\x08" if in_class else _BOUNDARY)
            elif nxt == "B" and not in_class:
                out.append(_NOT_BOUNDARY)
            elif nxt == "k" and source.startswith("<", i) and not in_class:
                end = source.find(">", i + 1)
                if end == -1:
                    raise PatternError("\\k< without >")
                out.append(f"(?P={source[i + 1:end]})")
                i = end + 1
            elif nxt == "c" and i < n and source[i].isascii() and source[i].isalpha():
                out.append(re.escape(chr(ord(source[i]) % 32)))
                i += 1
            elif nxt == "u" and re.fullmatch(r"[0-9A-Fa-f]{4}", source[i:i + 4]):
                out.append(re.escape(chr(int(source[i:i + 4], 16))))
                i += 4
            elif nxt == "x" and re.fullmatch(r"[0-9A-Fa-f]{2}", source[i:i + 2]):
                out.append(re.escape(chr(int(source[i:i + 2], 16))))
                i += 2
            elif nxt in "tnrfv0123456789" or not (nxt.isascii() and nxt.isalnum()):
                out.append(re.escape(nxt) if nxt not in "tnrfv0123456789" else "\\" + nxt)
            else:
                # An identity escape (\\e, \\q …) is the letter itself outside unicode mode.
                out.append(re.escape(nxt))
            continue
        if in_class:
            if ch == "]":
                in_class = False
                out.append("]")
            elif ch in "[&~|" or (ch == "-" and i > 0 and source[i - 1] == "-"):
                out.append("\\" + ch)
            else:
                out.append(ch)
            i += 1
            continue
        if ch == "[":
            if source.startswith("[^]", i):
                out.append("[\\s\\S]")
                i += 3
            elif source.startswith("[]", i):
                out.append("(?!)")
                i += 2
            else:
                in_class = True
                negated = source.startswith("[^", i)
                out.append("[^" if negated else "[")
                i += 2 if negated else 1
            continue
        if ch == ".":
            out.append(_NOT_LINE_END)
        elif ch == "$":
            out.append("(?![\\s\\S])")
        elif ch == "(" and source.startswith("(?<", i) and not source.startswith(("(?<=", "(?<!"), i):
            out.append("(?P<")
            i += 3
            continue
        else:
            out.append(ch)
        i += 1
    if in_class:
        raise PatternError("missing ] (unterminated character class)")
    return "".join(out)


def compile_keyword(keyword: str, case_sensitive: bool | None, whole_word: bool | None) -> re.Pattern[str]:
    """The pattern ChatLuna builds from a keyword (``new RegExp(pattern, "g" + ("i"?))``)."""
    source = f"\\b{keyword}\\b" if whole_word else keyword
    flags = 0 if case_sensitive else re.IGNORECASE
    try:
        return re.compile(translate_pattern(source), flags)
    except (re.error, PatternError, OverflowError, RecursionError) as exc:
        raise PatternError(str(exc)) from None


@dataclass(frozen=True)
class Activation:
    entry: LoreEntry
    # The pass that activated it: 0 for the conversation, n for the n-th level of lore content.
    depth: int
    # Which message (0 = the newest) or which activated entry's content (its index) did it.
    by_message: int | None
    by_entry: int | None


@dataclass(frozen=True)
class PatternProblem:
    entry: LoreEntry
    keyword: str
    reason: str


class LoreMatcher:
    """One preset's entries with their patterns compiled once (reuse across renders)."""

    def __init__(self, entries: list[LoreEntry], settings: LoreSettings | None) -> None:
        settings = settings or LoreSettings()
        self.entries = entries
        self.scan_depth = DEFAULT_SCAN_DEPTH if settings.scan_depth is None else settings.scan_depth
        self.recursive = DEFAULT_RECURSIVE_SCAN if settings.recursive_scan is None else settings.recursive_scan
        self.max_depth = (DEFAULT_MAX_RECURSION_DEPTH if settings.max_recursion_depth is None
                          else settings.max_recursion_depth)
        self.problems: list[PatternProblem] = []
        # Shared pattern objects, keyed as ChatLuna keys its cache (keyword, case, whole word).
        self._patterns: dict[tuple[str, bool | None, bool | None], re.Pattern[str] | None] = {}
        self._entry_patterns: list[list[tuple[tuple, re.Pattern[str] | None]]] = []
        for entry in entries:
            compiled = []
            for keyword in entry.keywords:
                key = (keyword, entry.case_sensitive, entry.match_whole_word)
                if key not in self._patterns:
                    try:
                        self._patterns[key] = compile_keyword(keyword, entry.case_sensitive, entry.match_whole_word)
                    except PatternError as exc:
                        self._patterns[key] = None
                        self.problems.append(PatternProblem(entry, keyword, str(exc)))
                compiled.append((key, self._patterns[key]))
            self._entry_patterns.append(compiled)

    def _config(self, entry: LoreEntry) -> tuple[int, bool, int, bool]:
        return (self.scan_depth if entry.scan_depth is None else entry.scan_depth,
                self.recursive if entry.recursive_scan is None else entry.recursive_scan,
                self.max_depth if entry.max_recursion_depth is None else entry.max_recursion_depth,
                bool(entry.match_whole_word))

    @staticmethod
    def _split(whole_word: bool, text: str) -> list[str]:
        return [p for p in _SPLIT.split(text) if p] if whole_word else [text]

    def match(self, messages_newest_first: list[str]) -> list[Activation]:
        """The entries the messages activate, sorted by order, with what activated each."""
        found: dict[int, Activation] = {}
        last_index: dict[tuple, int] = {}
        stack: list[tuple[list[str], int, int | None]] = [(messages_newest_first, 0, None)]
        passes = 0
        while stack and passes < MAX_PASSES:
            texts, depth, source_entry = stack.pop()
            passes += 1
            for position, entry in enumerate(self.entries):
                if not entry.enabled or position in found:
                    continue
                scan_depth, recursive, max_depth, whole_word = self._config(entry)
                if depth >= max_depth:
                    continue
                for m, text in enumerate(texts[:scan_depth]):
                    for part in self._split(whole_word, text):
                        if not self._test(position, part, last_index) and not entry.constant:
                            continue
                        if position not in found:
                            found[position] = Activation(entry, depth, m if source_entry is None else None,
                                                         source_entry)
                        if recursive:
                            stack.append((self._split(whole_word, entry.content), depth + 1, entry.index))
                        break
        ordered = list(found.values())
        ordered.sort(key=lambda a: a.entry.order)
        return ordered

    def _test(self, position: int, text: str, last_index: dict[tuple, int]) -> bool:
        """``keywords.some(k => regex.test(text))`` with the ``g`` flag's ``lastIndex``."""
        for key, pattern in self._entry_patterns[position]:
            if pattern is None:
                continue
            start = last_index.get(key, 0)
            found = pattern.search(text, start) if start <= len(text) else None
            if found is None:
                last_index[key] = 0
                continue
            end = found.end()
            last_index[key] = end
            return True
        return False
