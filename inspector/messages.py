"""Messages for a person at the command line, in the locale's language: English by default,
Simplified Chinese when ``PROMPT_INSPECTOR_LANG=zh_CN`` says so or, without it, when the first set
of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` names a Chinese locale (``zh_CN.UTF-8``).

One translation source for the whole program: the Chinese texts live in the app's Qt catalog,
``resources/translations/prompt_inspector_zh_CN.ts``, under the context :data:`CONTEXT`, and
``resources/translations/update_ts.py`` adds every ``localized("...")`` call of the ``inspector``
package to it. The core reads that XML itself (no Qt here): a translator edits one file, and the
desktop app and the command line cannot drift apart in wording or glossary.

The source text is an English ``str.format`` template (a literal at the call, so the extractor
finds it); the values are filled in after translation, so a translation may reorder them.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import cache
from typing import Any

from resources import resource_path

__all__ = ["CONTEXT", "ENV_LANG", "SENTENCE_CONTEXT", "SUPPORTED", "catalog", "language", "language_of", "localized",
           "localized_sentence", "marked", "set_language", "translate"]

ENV_LANG = "PROMPT_INSPECTOR_LANG"
SUPPORTED = ("en", "zh_CN")
# The .ts context of the command line's messages.
CONTEXT = "CommandLine"
# The .ts context of the core's sentences (inspector.wording), which the app's views translate too.
SENTENCE_CONTEXT = "CoreTexts"
_LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
# The language the desktop app chose for its window (set_language), which its messages follow.
_chosen: str | None = None


def set_language(lang: str | None) -> None:
    """Make ``lang`` the language of this process's messages (the desktop app, once it has chosen
    its window's language from Qt's system locale, which the environment may not say); None: the
    environment's again."""
    global _chosen
    _chosen = lang


def language_of(value: str) -> str | None:
    """``en`` or ``zh_CN`` for a language setting (``zh_CN``, ``zh-cn``, ``zh_CN.UTF-8``, ``en_US``,
    ``C``); None for an empty one. Any Chinese locale reads the Simplified Chinese catalog, any
    other language English."""
    value = value.strip()
    if not value:
        return None
    code = value.split(".")[0].split("@")[0].replace("-", "_").lower()
    return "zh_CN" if code == "zh" or code.startswith("zh_") else "en"


def language(environ: Mapping[str, str] | None = None) -> str:
    """The language of this process's messages: the one :func:`set_language` gave, else the
    ``PROMPT_INSPECTOR_LANG`` override, else the locale variables in POSIX order of precedence,
    else English (``environ`` given: read from it alone)."""
    if environ is None and _chosen is not None:
        return _chosen
    env = os.environ if environ is None else environ
    for name in (ENV_LANG, *_LOCALE_VARIABLES):
        chosen = language_of(env.get(name, ""))
        if chosen is not None:
            return chosen
    return "en"


@cache
def catalog(lang: str) -> dict[tuple[str, str], str]:
    """The finished translations of ``lang``'s catalog: {(context, source): translation}; empty for
    English (the source language) and for a catalog that cannot be read."""
    if lang == "en":
        return {}
    import xml.etree.ElementTree as ET  # only a translated session reads the catalog

    path = resource_path("translations", f"prompt_inspector_{lang}.ts")
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return {}
    out: dict[tuple[str, str], str] = {}
    for context in root.iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            tr = message.find("translation")
            if tr is not None and tr.text and tr.get("type") not in ("unfinished", "obsolete", "vanished"):
                out[(name, message.findtext("source") or "")] = tr.text
    return out


def translate(text: str, *, context: str = CONTEXT, lang: str | None = None) -> str:
    """``text`` in ``lang`` (default :func:`language`); the English text when it has no translation."""
    return catalog(lang or language()).get((context, text), text)


def marked(template: str) -> str:
    """``template`` unchanged: marks a literal for the catalog where it is kept for a later
    :func:`localized` call (a table of messages) rather than passed to one directly."""
    return template


def localized(template: str, *, lang: str | None = None, **values: Any) -> str:
    """The message ``template`` (an English ``str.format`` template) in the locale's language,
    with ``values`` filled in. Pass the template as a literal: the catalog is built from the calls."""
    text = translate(template, lang=lang)
    try:
        return text.format(**values)
    except (KeyError, IndexError, ValueError):
        # A translation naming a value the template does not: the English message, never a traceback.
        return template.format(**values)


@cache
def _sentences(lang: str):  # -> SentenceTranslator
    from inspector import wording
    from inspector.sentence_match import CLAUSE_SEPARATOR, TOP_LEVEL, SentenceTranslator

    def tr(text: str) -> str:
        return translate(text, context=SENTENCE_CONTEXT, lang=lang)

    return SentenceTranslator(((source, tr(source)) for source in wording.templates()), top_level=tr(TOP_LEVEL),
                              joiner=tr(CLAUSE_SEPARATOR))


def localized_sentence(text: str, *, lang: str | None = None) -> str:
    """One of the core's sentences (made from a template of :mod:`inspector.wording`, such as a
    config file's error) in the locale's language, read as the app's views read it; as written
    when it matches no template, and in English always as written."""
    lang = lang or language()
    return text if lang == "en" else _sentences(lang).text(text)
