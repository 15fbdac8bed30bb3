"""Reading one of the core's sentences back into its template, to show it in another language.

The core writes its sentences for a person in English, from the templates of
:mod:`inspector.wording` (``{name}`` where a value goes). A :class:`SentenceTranslator` is given
those templates with their translations; it matches a sentence against them, fills the values into
the translation and returns it. The desktop app's views (``ui.views.core_texts``) and the command
line (:func:`inspector.messages.localized_sentence`) both translate through it, so the two read a
sentence the same way.

How a sentence is read:

* Each placeholder matches any text. A placeholder named ``detail``, ``why``, ``cause`` or
  ``classes`` holds a sentence of its own, read the same way; ``found`` holds what a check found,
  one of the ``FOUND_*`` phrases or a bare word (``null``, a type's name); ``path`` and ``place``
  say where something is (a place in a file, a file, a variable), the core's own "top level"
  translated. Any other value is shown through the translator's ``word`` function (a part label, a
  zone's name), or as written.
* Where several templates match ("{key} is required" matches "<config>: blocks[0]: 'id' is
  required" as a whole, with the head as its key), the reading whose literal text, nested sentences
  included, covers the most of the sentence wins; the first defined of equals.
* A sentence of ``"; "``-joined clauses that no template covers whole is read clause by clause.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable
from functools import lru_cache

__all__ = ["CLAUSE_SEPARATOR", "SENTENCE_PLACEHOLDERS", "TOP_LEVEL", "SentenceTranslator"]

# Placeholders whose value is a sentence again.
SENTENCE_PLACEHOLDERS = frozenset({"detail", "why", "cause", "classes"})
# Placeholders whose value is what a check found (a FOUND_* phrase, or a bare word).
_FOUND = "found"
# Placeholders that say where something is; the core calls a file's own keys its "top level".
_PLACES = frozenset({"path", "place"})
TOP_LEVEL = "top level"
CLAUSE_SEPARATOR = "; "


def _as_written(_name: str, value: str) -> str:
    return value


class SentenceTranslator:
    """Translates the core's sentences: ``table`` holds (English template, translation) pairs,
    ``top_level`` is :data:`TOP_LEVEL` translated, ``word(name, value)`` shows any other value
    that is neither a sentence nor what a check found, and ``joiner`` joins translated clauses."""

    def __init__(self, table: Iterable[tuple[str, str]], *, top_level: str = TOP_LEVEL,
                 word: Callable[[str, str], str] = _as_written, joiner: str = CLAUSE_SEPARATOR) -> None:
        self._compiled = tuple(_compile(source, target) for source, target in table)
        self._top_level = top_level
        self._word = word
        self._joiner = joiner
        self._best = lru_cache(maxsize=4096)(self._read)

    def strict(self, text: str) -> str | None:
        """``text`` translated, or None when some part of it matches no template."""
        best = self._best(text)
        return None if best is None else best[0]

    def text(self, text: str) -> str:
        """``text`` translated; as written when it matches no template."""
        if not text:
            return text
        shown = self.strict(text)
        return shown if shown is not None else text

    def place(self, value: str) -> str:
        """Where something is, as a person reads it: the core's "top level" translated, any other
        place (``blocks[2]``, a path) as written."""
        return self._top_level if value == TOP_LEVEL else value

    def _value(self, name: str, value: str) -> tuple[str, int] | None:
        """The value as shown and how many of its characters templates explain; None when a value
        that must be a sentence is none."""
        if name in SENTENCE_PLACEHOLDERS:
            return self._best(value)
        if name == _FOUND:
            found = self._best(value)
            if found is not None:
                return found
            # Named by no phrase: a bare word as written; anything longer means the pattern split
            # the sentence in the wrong place.
            return None if " " in value else (value, 0)
        if name in _PLACES:
            return self.place(value), 0
        return self._word(name, value), 0

    def _read(self, text: str) -> tuple[str, int] | None:
        best: tuple[str, int] | None = None
        for regex, target, names, literal_length in self._compiled:
            m = regex.fullmatch(text)
            if m is None:
                continue
            values, covered = {}, literal_length
            for name in names:
                shown = self._value(name, m.group(name))
                if shown is None:
                    break
                values[name], explained = shown
                covered += explained
            else:
                if best is not None and covered <= best[1]:
                    continue
                try:
                    best = (target.format(**values), covered)
                except (KeyError, IndexError, ValueError):
                    continue  # a translation naming another value: not this reading
        if best is not None and best[1] == len(text):
            return best
        start = text.find(CLAUSE_SEPARATOR)
        while start != -1:
            left = self._best(text[:start])
            if left is not None:
                right = self._best(text[start + len(CLAUSE_SEPARATOR):])
                if right is not None:
                    covered = left[1] + right[1] + len(CLAUSE_SEPARATOR)
                    if best is None or covered > best[1]:
                        best = (left[0] + self._joiner + right[0], covered)
                    break
            start = text.find(CLAUSE_SEPARATOR, start + 1)
        return best


def _compile(source: str, target: str) -> tuple[re.Pattern[str], str, tuple[str, ...], int]:
    """(pattern, translation, placeholder names, how many characters its literal text matches)."""
    pattern, names, literal_length = [], [], 0
    for literal, name, _spec, _conversion in string.Formatter().parse(source):
        pattern.append(re.escape(literal))
        literal_length += len(literal)
        if name is None:
            continue
        if name in names:
            pattern.append(f"(?P={name})")
        else:
            names.append(name)
            pattern.append(f"(?P<{name}>.+?)")
    return re.compile("".join(pattern), re.DOTALL), target, tuple(names), literal_length
