"""The core's sentences for a person, translated when a view draws them.

The headless core writes its explanations in English (a cache pair's reason detail, a layout
finding, the routing and confidence notes, a turn's notes): they are data too, printed by the
command line and carried by the JSON and by kept analyses. It makes each from a template of
:mod:`inspector.wording`. A view shows them through :func:`core_text`, which matches a sentence
against those same templates (``{name}`` where the core put a value), translates the template and
fills the values in again. A sentence made of ``"; "``-joined clauses (a detail with the provider's verdict, a
confidence note, the failed-request note appended) is translated clause by clause. What matches
no template is shown as the core wrote it.

Values are translated by their placeholder's name: ``detail``, ``why``, ``cause`` and ``classes``
are sentences again, ``part`` and ``where`` a part label (:func:`ui.views.part_names.part_label`),
``places`` a comma-separated list of them, ``levels`` the cache levels ("tools and system"),
``short``, ``long`` and ``keep`` a duration ("5 min"), ``zone`` and ``zones`` a prompt zone's name or a
comma-separated list of them ("system, context"), ``found`` what a check found ("the number 3",
translated when a template names it), ``path`` and ``place`` where something is (a place in a file, a
file, a variable: :func:`place_name`); any other value (a count, a model, a rules row, a provider's own
words) is shown as recorded.

A sentence the core writes without a template of :mod:`inspector.wording` shows untranslated:
``tests/ui/test_translations.py`` translates every detail and finding of the demo's analysis and
fails on one that matches nothing.
"""

from __future__ import annotations

import re
import string
from functools import cache, lru_cache

from PySide6.QtCore import QCoreApplication

from inspector import wording
from ui.views.part_names import part_label

__all__ = ["clear_cache", "core_text", "place_name", "strict_core_text", "template_sources"]

def _tr(text: str) -> str:
    return QCoreApplication.translate("CoreTexts", text)


@cache
def _table() -> tuple[tuple[str, str], ...]:
    """(English template, translation) of every sentence the core writes for a person
    (:func:`inspector.wording.templates`, the one place their wording lives)."""
    return tuple((source, QCoreApplication.translate("CoreTexts", source)) for source in wording.templates())


def template_sources() -> list[str]:
    """The English templates :func:`core_text` knows (for tests)."""
    return [source for source, _ in _table()]


_SENTENCES = frozenset({"detail", "why", "cause", "classes"})
_PARTS = frozenset({"part", "where"})
_DURATIONS = frozenset({"short", "long", "keep"})
_ZONES = frozenset({"zone", "zones"})
_PLACES = frozenset({"path", "place"})
_CLAUSE_SEPARATOR = "; "


@cache
def _compiled() -> tuple[tuple[re.Pattern[str], str, tuple[str, ...], int], ...]:
    """(pattern, translation, placeholder names, how many characters its literal text matches) of
    every template."""
    out = []
    for source, target in _table():
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
        out.append((re.compile("".join(pattern), re.DOTALL), target, tuple(names), literal_length))
    return tuple(out)


@cache
def _words() -> dict[str, str]:
    return {"tools": _tr("tools"), "system": _tr("system"), "messages": _tr("messages"), " and ": _tr(" and "),
            "context": _tr("context"), "input": _tr("input"), "none": _tr("none"), "top level": _tr("top level")}


def _zones(value: str) -> str:
    """A zone's name, or a comma-separated list of them (``none`` for no zone)."""
    words = _words()
    return _tr(", ").join(words.get(zone, zone) for zone in value.split(", "))


def place_name(value: str) -> str:
    """Where in a file something is, as the core names it: its own "top level" (a config's or a
    preset's keys) in the UI's language, any other place (``blocks[2]``, a path) as written."""
    return _words()["top level"] if value == "top level" else value


def _levels(value: str) -> str:
    words = _words()
    return words[" and "].join(words.get(level, level) for level in value.split(" and "))


_DURATION = re.compile(r"(\d+) (min|s)")


def _duration(value: str) -> str:
    m = _DURATION.fullmatch(value)
    if m is None:
        return value
    unit = _tr("{n} min") if m.group(2) == "min" else _tr("{n} s")
    return unit.format(n=m.group(1))


def _value(name: str, value: str) -> tuple[str, int] | None:
    """The value of placeholder ``name`` as shown, and how much of it templates explain; None when
    a value that must be a sentence is none."""
    if name in _SENTENCES:
        return _best(value)
    if name == "found":
        found = _best(value)
        if found is not None:
            return found
        # What a check found, named by no template: a bare word ("null", a type's name) as written;
        # anything longer means the pattern split the sentence in the wrong place.
        return None if " " in value else (value, 0)
    if name in _PARTS:
        return part_label(value), 0
    if name == "places":
        return _tr(", ").join(part_label(piece) for piece in value.split(", ")), 0
    if name == "levels":
        return _levels(value), 0
    if name in _ZONES:
        return _zones(value), 0
    if name in _DURATIONS:
        return _duration(value), 0
    if name in _PLACES:
        return place_name(value), 0
    return value, 0


@lru_cache(maxsize=4096)
def _best(text: str) -> tuple[str, int] | None:
    """``text`` translated, and how many of its characters the templates explain (their literal
    text, nested sentences included); None when some part of it matches no template.

    Several templates can match one sentence: "{key} is required" matches "<config>: blocks[0]:
    'id' is required" too, with the whole head as its key. The reading that explains the most text
    wins ("{origin}: {place}: {detail}" with "{key} is required" inside), the first defined of equals.
    """
    best: tuple[str, int] | None = None
    for regex, target, names, literal_length in _compiled():
        m = regex.fullmatch(text)
        if m is None:
            continue
        values, covered = {}, literal_length
        for name in names:
            shown = _value(name, m.group(name))
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
    # A sentence of "; "-joined clauses, each a sentence of its own.
    start = text.find(_CLAUSE_SEPARATOR)
    while start != -1:
        left = _best(text[:start])
        if left is not None:
            right = _best(text[start + len(_CLAUSE_SEPARATOR):])
            if right is not None:
                covered = left[1] + right[1] + len(_CLAUSE_SEPARATOR)
                if best is None or covered > best[1]:
                    best = (left[0] + _tr("; ") + right[0], covered)
                break
        start = text.find(_CLAUSE_SEPARATOR, start + 1)
    return best


def strict_core_text(text: str) -> str | None:
    """``text`` translated, or None when some part of it matches no template."""
    best = _best(text)
    return None if best is None else best[0]


def core_text(text: str) -> str:
    """A sentence of the core as a person reads it in the UI's language (as written when it
    matches no template)."""
    if not text:
        return text
    shown = strict_core_text(text)
    return shown if shown is not None else text


def clear_cache() -> None:
    """Forget the translated templates (after the application's translator changes)."""
    _table.cache_clear()
    _compiled.cache_clear()
    _words.cache_clear()
    _best.cache_clear()
