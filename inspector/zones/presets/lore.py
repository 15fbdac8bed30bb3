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

import heapq
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


Key = tuple  # (keyword, caseSensitive, matchWholeWord): ChatLuna's cache key of one pattern object


class PatternBank:
    """Compiled keyword patterns by key, and for each text the keys that match it searched from
    the start. Kept across renders (:class:`~inspector.zones.presets.assemble.PresetCache`): the
    history and the lore contents rarely change between edits, so most answers are looked up."""

    def __init__(self, keys: frozenset[Key], text_cache_size: int = 20_000) -> None:
        self.patterns: dict[Key, re.Pattern[str] | None] = {}
        self.errors: dict[Key, str] = {}
        for key in sorted(keys, key=repr):
            try:
                self.patterns[key] = compile_keyword(*key)
            except PatternError as exc:
                self.patterns[key] = None
                self.errors[key] = str(exc)
        live = [(k, p) for k, p in self.patterns.items() if p is not None]
        self._by_mode = {mode: [(k, p) for k, p in live if bool(k[2]) is mode] for mode in (False, True)}
        self._hits: dict[tuple[str, bool], frozenset[Key]] = {}
        self._size = text_cache_size

    def hits(self, text: str, whole_word: bool) -> frozenset[Key]:
        """The keys of that mode whose pattern matches somewhere in ``text``."""
        found = self._hits.get((text, whole_word))
        if found is None:
            found = frozenset(k for k, p in self._by_mode[whole_word] if p.search(text))
            if len(self._hits) >= self._size:
                self._hits.clear()
            self._hits[(text, whole_word)] = found
        return found


class LoreMatcher:
    """One preset's entries over a :class:`PatternBank` (built from the entries' keys when not
    given); :meth:`match` gives what ChatLuna's matcher gives, visiting only the entries whose
    keywords can match or whose patterns carry a ``lastIndex`` (any other entry's tests all fail
    from index 0 and change nothing)."""

    def __init__(self, entries: list[LoreEntry], settings: LoreSettings | None,
                 bank: PatternBank | None = None) -> None:
        settings = settings or LoreSettings()
        self.entries = entries
        self.scan_depth = DEFAULT_SCAN_DEPTH if settings.scan_depth is None else settings.scan_depth
        self.recursive = DEFAULT_RECURSIVE_SCAN if settings.recursive_scan is None else settings.recursive_scan
        self.max_depth = (DEFAULT_MAX_RECURSION_DEPTH if settings.max_recursion_depth is None
                          else settings.max_recursion_depth)
        self.bank = bank if bank is not None else PatternBank(keys_of(entries))
        self.problems = [PatternProblem(e, k[0], self.bank.errors[k]) for e in entries
                         for k in dict.fromkeys(_entry_keys(e)) if k in self.bank.errors]
        self._keys = [tuple(_entry_keys(e)) for e in entries]
        self._configs = [self._config(e) for e in entries]
        self._owners: dict[Key, list[int]] = {}
        for position, keys in enumerate(self._keys):
            for key in dict.fromkeys(keys):
                self._owners.setdefault(key, []).append(position)
        self._constants = [p for p, e in enumerate(entries) if e.constant and e.enabled]
        self._widest = max((c[0] for c in self._configs), default=0)
        self._any_whole = any(c[3] for c in self._configs)
        self._splits: dict[str, list[str]] = {}
        self._memo: dict[tuple[str, ...], list[Activation]] = {}

    def _config(self, entry: LoreEntry) -> tuple[int, bool, int, bool]:
        return (self.scan_depth if entry.scan_depth is None else entry.scan_depth,
                self.recursive if entry.recursive_scan is None else entry.recursive_scan,
                self.max_depth if entry.max_recursion_depth is None else entry.max_recursion_depth,
                bool(entry.match_whole_word))

    def _split(self, whole_word: bool, text: str) -> list[str]:
        if not whole_word:
            return [text]
        parts = self._splits.get(text)
        if parts is None:
            parts = self._splits[text] = [p for p in _SPLIT.split(text) if p]
        return parts

    def memo_match(self, texts: tuple[str, ...]) -> list[Activation]:
        """:meth:`match`, remembered for the last few message lists."""
        found = self._memo.get(texts)
        if found is None:
            if len(self._memo) >= 16:
                self._memo.pop(next(iter(self._memo)))
            found = self._memo[texts] = self.match(list(texts))
        return found

    def match(self, messages_newest_first: list[str]) -> list[Activation]:
        """The entries the messages activate, sorted by order, with what activated each."""
        found: dict[int, Activation] = {}
        last: dict[Key, int] = {}  # lastIndex of the patterns that have one (not 0)
        stack: list[tuple[list[str], int, int | None]] = [(messages_newest_first, 0, None)]
        passes = 0
        while stack and passes < MAX_PASSES:
            texts, depth, source_entry = stack.pop()
            passes += 1
            self._pass(texts, depth, source_entry, found, last, stack)
        ordered = list(found.values())
        ordered.sort(key=lambda a: a.entry.order)
        return ordered

    def _candidates(self, texts: list[str], last: dict[Key, int]) -> set[int]:
        """The entries a pass must visit: those with a keyword that matches a text they scan, the
        constant ones, and the owners of patterns with a lastIndex."""
        bank = self.bank
        out = set(self._constants)
        for m, text in enumerate(texts[:self._widest]):
            keys = set(bank.hits(text, False))
            if self._any_whole:
                for part in self._split(True, text):
                    keys |= bank.hits(part, True)
            for key in keys:
                for position in self._owners.get(key, ()):
                    if m < self._configs[position][0]:
                        out.add(position)
        for key in last:
            out.update(self._owners.get(key, ()))
        return out

    def _pass(self, texts: list[str], depth: int, source_entry: int | None, found: dict[int, Activation],
              last: dict[Key, int], stack: list) -> None:
        entries = self.entries
        queue = sorted(self._candidates(texts, last))
        queued = set(queue)
        heapq.heapify(queue)
        while queue:
            position = heapq.heappop(queue)
            entry = entries[position]
            if not entry.enabled or position in found:
                continue
            scan_depth, recursive, max_depth, whole_word = self._configs[position]
            if depth >= max_depth:
                continue
            for m, text in enumerate(texts[:scan_depth]):
                for part in self._split(whole_word, text):
                    matched, dirtied = self._test(position, part, whole_word, last)
                    for key in dirtied:
                        for owner in self._owners.get(key, ()):
                            if owner > position and owner not in queued:
                                queued.add(owner)
                                heapq.heappush(queue, owner)
                    if not matched and not entry.constant:
                        continue
                    if position not in found:
                        found[position] = Activation(entry, depth, m if source_entry is None else None, source_entry)
                    if recursive:
                        stack.append((self._split(whole_word, entry.content), depth + 1, entry.index))
                    break

    def _test(self, position: int, text: str, whole_word: bool, last: dict[Key, int]) -> tuple[bool, tuple]:
        """``keywords.some(k => regex.test(text))`` with the ``g`` flag's ``lastIndex``; also
        the keys that now carry a lastIndex."""
        hits = self.bank.hits(text, whole_word)
        for key in self._keys[position]:
            pattern = self.bank.patterns.get(key)
            if pattern is None:
                continue
            start = last.get(key, 0)
            if start == 0 and key not in hits:
                continue  # fails, and lastIndex stays 0
            found = pattern.search(text, start) if start <= len(text) else None
            if found is None:
                last.pop(key, None)
                continue
            if found.end():
                last[key] = found.end()
                return True, (key,)
            last.pop(key, None)
            return True, ()
        return False, ()


def _entry_keys(entry: LoreEntry) -> list[Key]:
    return [(k, entry.case_sensitive, entry.match_whole_word) for k in entry.keywords]


def keys_of(entries: list[LoreEntry]) -> frozenset[Key]:
    """Every pattern key the entries use (what a :class:`PatternBank` for them holds)."""
    return frozenset(k for e in entries for k in _entry_keys(e))
