"""Every sentence the core writes for a person, as a template: the one place its wording lives.

The core's explanations are data too: a cache pair's reason detail, a layout finding, the routing
and confidence notes, a turn's notes are printed by the command line in English and carried by the
JSON and the kept analyses. Each is made here, from a template filled with ``str.format`` (a value
that needs a number format is passed already formatted, so a template names only what a sentence
says). The app shows these sentences in the user's language by matching them against the same
templates (:mod:`ui.views.core_texts`), so a change of wording here changes both and cannot drift.

:func:`sentence` marks a template for the translation catalog:
``resources/translations/update_ts.py`` reads its literal argument (context ``CoreTexts``).
:func:`templates` gives them all, in the order they are defined here (the order the app tries
them in). Literal braces are doubled, as ``str.format`` reads them.
"""

from __future__ import annotations

__all__ = ["cost_class_row", "sentence", "templates"]

_TEMPLATES: list[str] = []


def sentence(template: str) -> str:
    """``template``, registered as one of the core's sentences (see the module's doc)."""
    _TEMPLATES.append(template)
    return template


def templates() -> tuple[str, ...]:
    """Every template of the core's sentences, in definition order."""
    return tuple(_TEMPLATES)


# -- inspector.cache.reasons: why the cached prefix ends where it does --------------------------------

MODEL_CHANGED = sentence("{old} → {new}: caches are per model")
EXPIRED = sentence("{gap} s since this runtime's last request, over the {ttl} s TTL ({source})")
OPTIONS_CHANGED_ONE = sentence(
    "{fields} changed: the {levels} cache is keyed by it, so nothing from there on is read ({source})")
OPTIONS_CHANGED_MANY = sentence(
    "{fields} changed: the {levels} caches are keyed by it, so nothing from there on is read ({source})")
TOOLS_CHANGED = sentence("the tool definitions changed: nothing after them can be read from the cache")
SETTINGS_CHANGED = sentence("the tool choice or output schema changed: nothing after them can be read from the cache")
SYSTEM_REGROUPED = sentence(
    "the system prompt gained or lost a part here (a leading system message joined it or left it): the history "
    "after it is re-sent uncached")
SYSTEM_CHANGED = sentence("the system prompt changed: the history after it is re-sent uncached")
HISTORY_COMPACTED = sentence("history compacted: summaries replaced the oldest messages")
HISTORY_PRUNED = sentence("history pruned to stay within the token budget")
HISTORY_INSERTION_MOVED = sentence("a depth insertion inside the history moved")
HISTORY_SLID = sentence("the history window slid: its oldest message changed")
HISTORY_MESSAGE_DIFFERS = sentence("a history message differs from the previous request's")
NO_BREAKPOINT = sentence("the prefix runs to the turn context, but the request has no cache_control breakpoint")
NOTHING_TO_READ = sentence(
    "the prefix runs to the turn context, but no breakpoint of the earlier request ends within it and the "
    "lookback: there was nothing to read")
BELOW_MINIMUM = sentence("{shared} shared tokens; {source} caches no prefix under {minimum} tokens")
# ``cause`` is filled in later (inspector.cache.routing.settle), at the end of the sentence.
UNEXPLAINED = sentence("{predicted} tokens predicted cached but none reported; {cause}")
TURN_CONTEXT = sentence("the prefix runs to the turn context or later")
BREAKPOINT_MOVED_EARLIER = sentence(
    "cache_control moved earlier: the last breakpoint's prefix is {after} tokens, {before} in the previous "
    "request, so at most {after} of the {shared} shared tokens can be read")

# -- inspector.cache.pairs ------------------------------------------------------------------------------

COLD_START = sentence("the first request of this runtime in the session")
COMPARED_WITH_FAILED = sentence("the request compared with failed, so the prediction uses the last one that succeeded")

# -- inspector.cache.routing ----------------------------------------------------------------------------

ROUTE_OVERFLOW = sentence(
    "{rate} requests on its route (model, cache key, first {prefix} tokens) in the minute up to it, over the "
    "~{limit} a minute one machine takes ({source}): some overflow to machines without the cache")
NO_VISIBLE_REASON = sentence("no visible reason (eviction, routing overflow, or a relay that drops caching)")

# -- inspector.cache.verdicts: the provider's verdict beside ours, and how sure ours is --------------------

PROVIDER_REPORTS_MISSED = sentence(
    "the provider reports the miss: {reason}, {missed} input tokens missed; we found no cause of our own (our "
    "reading: {detail})")
PROVIDER_REPORTS = sentence(
    "the provider reports the miss: {reason}; we found no cause of our own (our reading: {detail})")
PROVIDER_DISAGREES_MISSED = sentence("the provider disagrees: it reports {reason}, {missed} input tokens missed")
PROVIDER_DISAGREES = sentence("the provider disagrees: it reports {reason}")
PROVIDER_AGREES_MISSED = sentence("the provider agrees: {reason}, {missed} input tokens missed")
PROVIDER_AGREES = sentence("the provider agrees: {reason}")
UNCERTAIN = sentence("uncertain: {why}")
UNCERTAIN_NOT_UNEXPLAINED = sentence(
    "uncertain, so not called unexplained: {why}; {predicted} tokens predicted cached, but a true count on the "
    "other side of the threshold would cache none (our reading: {detail})")
NEAR_MINIMUM = sentence(
    "{count} tokens lie within the ±{error} error band of the proxy tokenizer ({tokenizer}) of the {minimum}-token "
    "minimum")
NEAR_FIRST_STEP = sentence(
    "{count} tokens lie within the ±{error} error band of the proxy tokenizer ({tokenizer}) of the first "
    "{step}-token step")
WITHIN_GRACE = sentence(
    "the {gap} s gap lies within the {grace} s grace band after the {ttl} s TTL, where {family} entries have been "
    "seen to survive")

# -- inspector.cache.findings: layout problems and money ----------------------------------------------

VOLATILE_SYSTEM_TEXT = sentence(
    "The system prompt changes between turns at {part} in {count} of {turns} turns (a {{{{ player.character }}}}-"
    "style value inside it?): everything after it, the whole history included, is re-sent uncached every turn. "
    "Move turn-volatile values to the turn context.")
TOO_MANY_BREAKPOINTS = sentence(
    "{count} requests carry more than {limit} cache_control breakpoints (up to {most}); Anthropic accepts at most "
    "that many, so the prediction honours only the first ones.")
BREAKPOINT_NEVER_READ = sentence(
    "The cache_control breakpoint on the {where} is written {count} times and never read: the content before it "
    "changes every turn, so each write pays the write premium for nothing.")
DATA_BLOCKS_LAST = sentence(
    "The turn context (data blocks such as <runtime-inputs>) is the last message of the request; Covel keeps it "
    "before the player message because small models copy data-block syntax into tool calls when it comes last.")
SLIDING_HISTORY = sentence(
    "The oldest history message changes in {count} of {turns} turns: the history window slides every turn, so no "
    "turn can reuse the previous turn's history from the cache. Trim in larger steps (Covel prunes in 30 % steps) "
    "or summarise instead.")
MOVING_INSERTION = sentence(
    "A depth insertion inside the history (a lorebook or extension segment at depth n) moves in {count} of "
    "{turns} turns: the history is re-sent uncached from that point every turn. Place it in the turn context or "
    "at depth 0.")
COST_CLASSES = sentence("The input of {requests} priced requests cost {usd} USD: {classes}.")
_COST_CLASS_ROWS = {
    "uncached input": sentence("uncached input {usd} USD ({tokens} tokens)"),
    "cache read": sentence("cache read {usd} USD ({tokens} tokens)"),
    "5-minute write": sentence("5-minute write {usd} USD ({tokens} tokens)"),
    "1-hour write": sentence("1-hour write {usd} USD ({tokens} tokens)"),
}
WASTED_BREAKPOINT = sentence(
    "The cache_control breakpoint on the {where} closes a prefix of at most {longest} tokens, under the {minimum} "
    "the model caches, in {count} of {total} requests: nothing is cached there, and it spends one of the {slots} "
    "breakpoint slots. Drop it, or move it to the end of a longer stable prefix (the end of the system prompt).")
NO_BREAKPOINT_CAN_CACHE = sentence(
    "None of this runtime's cache_control breakpoints can cache: the longest prefix one closes is {longest} "
    "tokens, under the {minimum} the model caches, in all {total} requests, so the breakpoints it marks ({places}) "
    "cache nothing and each spends one of the {slots} slots. Drop them, or cache on a model with a lower minimum.")
DEAD_WRITES = sentence(
    "{count} of {total} requests wrote {tokens} tokens to the cache that the next request did not read: their "
    "write premium ({usd} USD) bought nothing. The prefix they closed changes before it is reused, or the next "
    "request comes after the TTL.")
ONE_HOUR_TTL_KEEP_ALIVE = sentence(
    "{count} of {gaps} gaps between requests are longer than the {short} TTL but within {long}: with ttl "
    "\"{option}\" on the breakpoints the cached part would cost {saving} USD less ({cost} instead of {was}), the "
    "dearer writes included. Keep-alive requests every {short} would pay only for gaps up to about {keep}.")
ONE_HOUR_TTL = sentence(
    "{count} of {gaps} gaps between requests are longer than the {short} TTL but within {long}: with ttl "
    "\"{option}\" on the breakpoints the cached part would cost {saving} USD less ({cost} instead of {was}), the "
    "dearer writes included.")

# -- inspector.turn: what a turn's or a call's reading could not match ----------------------------------

UNMATCHED_RESPONSE = sentence("llm.responded {id} matches no llm.calling of its runtime")
RUNTIME_RESULTS_UNREADABLE = sentence("turn_results.runtime_results: {error}")
COMPACTION_WITHOUT_CALL = sentence("context.compacted {id}: no model call follows it")
NO_KERNEL_MESSAGES = sentence("the call recorded no kernel messages: nothing can be matched")
UNMATCHED_ENVELOPES = sentence(
    "{count} <compacted_history> envelopes match no stored summary text (rewritten by a later merge, or deleted)")


def cost_class_row(name: str, usd: str, tokens: int) -> str:
    """One billing class of :data:`COST_CLASSES`' ``classes`` (``name`` one of
    :data:`inspector.cache.pricing.COST_CLASSES`)."""
    return _COST_CLASS_ROWS[name].format(usd=usd, tokens=tokens)
