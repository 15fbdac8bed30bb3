"""The core's sentences for a person, translated when a view draws them.

The headless core writes its explanations in English (a cache pair's reason detail, a layout
finding, the routing and confidence notes, a turn's notes, the blocks editor's problems): they are
data too, printed by the command line and carried by the JSON and by kept analyses. It makes each
from a template of :mod:`inspector.wording`. A view shows them through :func:`core_text`, which
reads a sentence back into its template with :class:`inspector.sentence_match.SentenceTranslator`
(the rules of that reading are there), translates the template with the app's catalog and fills the
values in again. What matches no template is shown as the core wrote it.

Beyond the sentences and what a check found, values are shown by their placeholder's name:
``part`` and ``where`` a part label (:func:`ui.views.part_names.part_label`), ``places`` a
comma-separated list of them, ``levels`` the cache levels ("tools and system"), ``short``, ``long``
and ``keep`` a duration ("5 min"), ``zone`` and ``zones`` a prompt zone's name or a comma-separated
list of them ("system, context"); any other value (a count, a model, a rules row, a provider's own words) is shown as recorded.

A sentence the core writes without a template of :mod:`inspector.wording` shows untranslated:
``tests/ui/test_translations.py`` translates every detail and finding of the demo's analysis and
fails on one that matches nothing.
"""

from __future__ import annotations

import re
from functools import cache

from PySide6.QtCore import QCoreApplication

from inspector import wording
from inspector.sentence_match import SentenceTranslator
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


_PARTS = frozenset({"part", "where"})
_DURATIONS = frozenset({"short", "long", "keep"})
_ZONES = frozenset({"zone", "zones"})


@cache
def _words() -> dict[str, str]:
    return {"tools": _tr("tools"), "system": _tr("system"), "messages": _tr("messages"), " and ": _tr(" and "),
            "context": _tr("context"), "input": _tr("input"), "none": _tr("none")}


def _zones(value: str) -> str:
    """A zone's name, or a comma-separated list of them (``none`` for no zone)."""
    words = _words()
    return _tr(", ").join(words.get(zone, zone) for zone in value.split(", "))


def place_name(value: str) -> str:
    """Where in a file something is, as a person reads it (:meth:`SentenceTranslator.place`)."""
    return _translator().place(value)


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


def _word(name: str, value: str) -> str:
    """A value of a sentence that is neither a sentence nor what a check found, by its placeholder."""
    if name in _PARTS:
        return part_label(value)
    if name == "places":
        return _tr(", ").join(part_label(piece) for piece in value.split(", "))
    if name == "levels":
        return _levels(value)
    if name in _ZONES:
        return _zones(value)
    if name in _DURATIONS:
        return _duration(value)
    return value


@cache
def _translator() -> SentenceTranslator:
    # inspector.sentence_match.TOP_LEVEL, written out so the catalog finds it.
    return SentenceTranslator(_table(), top_level=_tr("top level"), word=_word, joiner=_tr("; "))


def strict_core_text(text: str) -> str | None:
    """``text`` translated, or None when some part of it matches no template."""
    return _translator().strict(text)


def core_text(text: str) -> str:
    """A sentence of the core as a person reads it in the UI's language (as written when it
    matches no template)."""
    return _translator().text(text)


def clear_cache() -> None:
    """Forget the translated templates (after the application's translator changes)."""
    _table.cache_clear()
    _words.cache_clear()
    _translator.cache_clear()
