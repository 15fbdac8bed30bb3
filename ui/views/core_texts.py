"""The core's sentences for a person, translated when a view draws them.

The headless core writes its explanations in English (a cache pair's reason detail, a layout
finding, the routing and confidence notes, a turn's notes): they are data too, printed by the
command line and carried by the JSON and by kept analyses. A view shows them through
:func:`core_text`, which matches a sentence against the English templates below (the core's own
wording, with ``{name}`` where it puts a value), translates the template and fills the values in
again. A sentence made of ``"; "``-joined clauses (a detail with the provider's verdict, a
confidence note, the failed-request note appended) is translated clause by clause. What matches
no template is shown as the core wrote it.

Values are translated by their placeholder's name: ``detail``, ``why``, ``cause`` and ``classes``
are sentences again, ``part`` and ``where`` a part label (:func:`ui.views.part_names.part_label`),
``places`` a comma-separated list of them, ``levels`` the cache levels ("tools and system"),
``short``, ``long`` and ``keep`` a duration ("5 min"); any other value (a count, a model, a rules
row, a provider's own words) is shown as recorded.

A change of the core's wording shows as an untranslated sentence: ``tests/ui/test_translations.py``
translates every detail and finding of the demo's analysis and fails on one that matches nothing.
"""

from __future__ import annotations

import re
import string
from functools import cache, lru_cache

from PySide6.QtCore import QCoreApplication

from ui.views.part_names import part_label

__all__ = ["clear_cache", "core_text", "strict_core_text", "template_sources"]

def _tr(text: str) -> str:
    return QCoreApplication.translate("CoreTexts", text)


def _pair(text: str) -> tuple[str, str]:
    return text, QCoreApplication.translate("CoreTexts", text)


@cache
def _table() -> tuple[tuple[str, str], ...]:
    """(English template, translation) of every sentence the core writes for a person. Literal
    braces in the core's text are doubled, as ``str.format`` writes them."""
    return (
        # inspector.cache.reasons: why the cached prefix ends where it does.
        _pair("{old} → {new}: caches are per model"),
        _pair("{gap} s since this runtime's last request, over the {ttl} s TTL ({source})"),
        _pair("{fields} changed: the {levels} cache is keyed by it, so nothing from there on is read ({source})"),
        _pair("{fields} changed: the {levels} caches are keyed by it, so nothing from there on is read ({source})"),
        _pair("the tool definitions changed: nothing after them can be read from the cache"),
        _pair("the tool choice or output schema changed: nothing after them can be read from the cache"),
        _pair("the system prompt gained or lost a part here (a leading system message joined it or left it): the "
              "history after it is re-sent uncached"),
        _pair("the system prompt changed: the history after it is re-sent uncached"),
        _pair("history compacted: summaries replaced the oldest messages"),
        _pair("history pruned to stay within the token budget"),
        _pair("a depth insertion inside the history moved"),
        _pair("the history window slid: its oldest message changed"),
        _pair("a history message differs from the previous request's"),
        _pair("the prefix runs to the turn context, but the request has no cache_control breakpoint"),
        _pair("the prefix runs to the turn context, but no breakpoint of the earlier request ends within it and the "
              "lookback: there was nothing to read"),
        _pair("{shared} shared tokens; {source} caches no prefix under {minimum} tokens"),
        _pair("{predicted} tokens predicted cached but none reported; {cause}"),
        _pair("the prefix runs to the turn context or later"),
        _pair("cache_control moved earlier: the last breakpoint's prefix is {after} tokens, {before} in the previous "
              "request, so at most {after} of the {shared} shared tokens can be read"),
        # inspector.cache.pairs
        _pair("the first request of this runtime in the session"),
        _pair("the request compared with failed, so the prediction uses the last one that succeeded"),
        # inspector.cache.routing
        _pair("{rate} requests on its route (model, cache key, first {prefix} tokens) in the minute up to it, over "
              "the ~{limit} a minute one machine takes ({source}): some overflow to machines without the cache"),
        _pair("no visible reason (eviction, routing overflow, or a relay that drops caching)"),
        # inspector.cache.verdicts: the provider's verdict beside ours, and how sure ours is.
        _pair("the provider reports the miss: {reason}, {missed} input tokens missed; we found no cause of our own "
              "(our reading: {detail})"),
        _pair("the provider reports the miss: {reason}; we found no cause of our own (our reading: {detail})"),
        _pair("the provider disagrees: it reports {reason}, {missed} input tokens missed"),
        _pair("the provider disagrees: it reports {reason}"),
        _pair("the provider agrees: {reason}, {missed} input tokens missed"),
        _pair("the provider agrees: {reason}"),
        _pair("uncertain: {why}"),
        _pair("uncertain, so not called unexplained: {why}; {predicted} tokens predicted cached, but a true count on "
              "the other side of the threshold would cache none (our reading: {detail})"),
        _pair("{count} tokens lie within the ±{error} error band of the proxy tokenizer ({tokenizer}) of the "
              "{minimum}-token minimum"),
        _pair("{count} tokens lie within the ±{error} error band of the proxy tokenizer ({tokenizer}) of the first "
              "{step}-token step"),
        _pair("the {gap} s gap lies within the {grace} s grace band after the {ttl} s TTL, where {family} entries "
              "have been seen to survive"),
        # inspector.cache.findings: layout problems and money.
        _pair("The system prompt changes between turns at {part} in {count} of {turns} turns (a {{{{ "
              "player.character }}}}-style value inside it?): everything after it, the whole history included, is "
              "re-sent uncached every turn. Move turn-volatile values to the turn context."),
        _pair("{count} requests carry more than {limit} cache_control breakpoints (up to {most}); Anthropic accepts "
              "at most that many, so the prediction honours only the first ones."),
        _pair("The cache_control breakpoint on the {where} is written {count} times and never read: the content "
              "before it changes every turn, so each write pays the write premium for nothing."),
        _pair("The turn context (data blocks such as <runtime-inputs>) is the last message of the request; Covel "
              "keeps it before the player message because small models copy data-block syntax into tool calls when "
              "it comes last."),
        _pair("The oldest history message changes in {count} of {turns} turns: the history window slides every "
              "turn, so no turn can reuse the previous turn's history from the cache. Trim in larger steps (Covel "
              "prunes in 30 % steps) or summarise instead."),
        _pair("A depth insertion inside the history (a lorebook or extension segment at depth n) moves in {count} of "
              "{turns} turns: the history is re-sent uncached from that point every turn. Place it in the turn "
              "context or at depth 0."),
        _pair("The input of {requests} priced requests cost {usd} USD: {classes}."),
        _pair("uncached input {usd} USD ({tokens} tokens)"),
        _pair("cache read {usd} USD ({tokens} tokens)"),
        _pair("5-minute write {usd} USD ({tokens} tokens)"),
        _pair("1-hour write {usd} USD ({tokens} tokens)"),
        _pair("The cache_control breakpoint on the {where} closes a prefix of at most {longest} tokens, under the "
              "{minimum} the model caches, in {count} of {total} requests: nothing is cached there, and it spends one "
              "of the {slots} breakpoint slots. Drop it, or move it to the end of a longer stable prefix (the end of "
              "the system prompt)."),
        _pair("None of this runtime's cache_control breakpoints can cache: the longest prefix one closes is "
              "{longest} tokens, under the {minimum} the model caches, in all {total} requests, so the breakpoints "
              "it marks ({places}) cache nothing and each spends one of the {slots} slots. Drop them, or cache on a "
              "model with a lower minimum."),
        _pair("{count} of {total} requests wrote {tokens} tokens to the cache that the next request did not read: "
              "their write premium ({usd} USD) bought nothing. The prefix they closed changes before it is reused, "
              "or the next request comes after the TTL."),
        _pair("{count} of {gaps} gaps between requests are longer than the {short} TTL but within {long}: with ttl "
              "\"{option}\" on the breakpoints the cached part would cost {saving} USD less ({cost} instead of "
              "{was}), the dearer writes included. Keep-alive requests every {short} would pay only for gaps up to "
              "about {keep}."),
        _pair("{count} of {gaps} gaps between requests are longer than the {short} TTL but within {long}: with ttl "
              "\"{option}\" on the breakpoints the cached part would cost {saving} USD less ({cost} instead of "
              "{was}), the dearer writes included."),
        # inspector.turn: what a turn's or a call's reading could not match.
        _pair("llm.responded {id} matches no llm.calling of its runtime"),
        _pair("turn_results.runtime_results: {error}"),
        _pair("context.compacted {id}: no model call follows it"),
        _pair("the call recorded no kernel messages: nothing can be matched"),
        _pair("{count} <compacted_history> envelopes match no stored summary text (rewritten by a later merge, or "
              "deleted)"),
    )


def template_sources() -> list[str]:
    """The English templates :func:`core_text` knows (for tests)."""
    return [source for source, _ in _table()]


_SENTENCES = frozenset({"detail", "why", "cause", "classes"})
_PARTS = frozenset({"part", "where"})
_DURATIONS = frozenset({"short", "long", "keep"})
_CLAUSE_SEPARATOR = "; "


@cache
def _compiled() -> tuple[tuple[re.Pattern[str], str, tuple[str, ...]], ...]:
    out = []
    for source, target in _table():
        pattern, names = [], []
        for literal, name, _spec, _conversion in string.Formatter().parse(source):
            pattern.append(re.escape(literal))
            if name is None:
                continue
            if name in names:
                pattern.append(f"(?P={name})")
            else:
                names.append(name)
                pattern.append(f"(?P<{name}>.+?)")
        out.append((re.compile("".join(pattern), re.DOTALL), target, tuple(names)))
    return tuple(out)


@cache
def _words() -> dict[str, str]:
    return {"tools": _tr("tools"), "system": _tr("system"), "messages": _tr("messages"), " and ": _tr(" and ")}


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


def _value(name: str, value: str) -> str | None:
    if name in _SENTENCES:
        return strict_core_text(value)
    if name in _PARTS:
        return part_label(value)
    if name == "places":
        return _tr(", ").join(part_label(piece) for piece in value.split(", "))
    if name == "levels":
        return _levels(value)
    if name in _DURATIONS:
        return _duration(value)
    return value


@lru_cache(maxsize=4096)
def strict_core_text(text: str) -> str | None:
    """``text`` translated, or None when some part of it matches no template."""
    for regex, target, names in _compiled():
        m = regex.fullmatch(text)
        if m is None:
            continue
        values = {}
        for name in names:
            shown = _value(name, m.group(name))
            if shown is None:
                break
            values[name] = shown
        else:
            try:
                return target.format(**values)
            except (KeyError, IndexError, ValueError):
                return None  # a translation naming another value: the English sentence instead
    start = text.find(_CLAUSE_SEPARATOR)
    while start != -1:
        left = strict_core_text(text[:start])
        if left is not None:
            right = strict_core_text(text[start + len(_CLAUSE_SEPARATOR):])
            if right is not None:
                return left + _tr("; ") + right
        start = text.find(_CLAUSE_SEPARATOR, start + 1)
    return None


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
    strict_core_text.cache_clear()
