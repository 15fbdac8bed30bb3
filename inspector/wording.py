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


# -- inspector.zones (the static check, blocks, Covel templates): what the blocks editor's checks say --
# ``variable``, ``name``, ``block`` and ``purpose`` come quoted (repr); ``zone`` is a zone's name and
# ``zones`` a list of them, which the app translates; ``tag`` is template text, shown as written.

ZONE_NOT_ALLOWED = sentence("{variable} may be used in {zones}, not in the {zone} zone (ChatLuna throws "
                            "VariableZoneError)")
MUTABLE_IN_SYSTEM = sentence(
    "{variable} is mutable, so it cannot enter the system zone: it would change the cached prefix on every request "
    "(ChatLuna throws MutableVariableError); move it to a context block")
VARYING_IN_SYSTEM = sentence(
    "{variable} is not declared mutable, but its sample values change between turns: the pinned system zone keeps "
    "the first value and each change adds an \"environment updated\" note; move it to a context block if it "
    "changes often")
PROMPT_OUTSIDE_INPUT = sentence("{{prompt}} is the user's input and only exists in the input zone, not the {zone} "
                                "zone")
INPUT_TEMPLATE_WITHOUT_PROMPT = sentence(
    "an input template must contain {{prompt}} (the user's input); without it the input is dropped")
INPUT_NOT_TEMPLATE = sentence(
    "this input block is not a template, so {{prompt}} is literal text and the user's input is dropped; set "
    "template: true")
INPUT_WITHOUT_PROMPT = sentence("an input block must contain {{prompt}} (the user's input) and be a template")
TAG_READS_VARIABLE = sentence(
    "{tag} reads a variable, but this block is not a template, so it is sent as literal braces; set template: true")
TAG_NAMES_VARIABLE = sentence(
    "{tag} names a variable, but this block is not a template, so it is sent as literal braces; set template: true")
BARE_WORD = sentence("{name} is not a variable, so it is passed as the text \"{text}\"; quote it to say so")
UNKNOWN_VARIABLE = sentence("unknown variable {name}")
UNKNOWN_VARIABLE_SUGGESTED = sentence("unknown variable {name}; did you mean {suggestion}?")
NO_ARGUMENTS = sentence("{variable} takes no arguments, given {given}")
ONE_ARGUMENT = sentence("{variable} takes 1 argument ({names}), given {given}")
ARGUMENTS = sentence("{variable} takes {count} arguments ({names}), given {given}")
ARGUMENT_RANGE = sentence("{variable} takes {low} to {high} arguments ({names}), given {given}")
LOOP_SHADOWS = sentence("the loop name {name} hides the variable of the same name inside this loop")
WHILE_CONSTANT = sentence("{{while}} on the constant {value} is always true: it runs until the loop limit ({limit})")
DUPLICATE_ID = sentence(
    "block id {block} is already used by block #{number}; registering it again throws, so this block is left out")
ORDER_OUT_OF_RANGE = sentence("system order {order} is outside {low}..{high}")
ORDER_OUTSIDE_BAND = sentence("order {order} is outside the {band_name} band ({band})")
COMPLETE_OUTSIDE_SYSTEM = sentence("complete is only allowed on system blocks; this block is left out")
COMPLETE_IGNORED = sentence("complete only means something in the system zone; it is ignored on this {zone} block")
PURPOSE_OUTSIDE_SYSTEM = sentence("order bands are a system-zone rule; purpose {purpose} means nothing in the {zone} "
                                  "zone")
ORDER_TIE = sentence(
    "{zone} order {order} is also used by {block}; registration order decides which comes first, and a change in "
    "plugin load order swaps them silently")
MULTIPLE_COMPLETE_CHECK = sentence(
    "{count} complete system blocks ({ids}); at most one may take over the system zone, so the assembly fails")
MULTIPLE_COMPLETE = sentence(
    "{count} complete system blocks ({ids}); only one may take over the system zone, so the assembly fails")
UNUSED_VARIABLE = sentence("variable {name} is declared but no template uses it")
CONTRIBUTOR_FAILED = sentence("environment contributor {name} failed on turn {turn} ({error}); skipped")
REPLACED_BY_COMPLETE = sentence("replaced by the complete block {block}")
INPUT_MODE_ONE_BLOCK = sentence("input mode {mode} applies one block only")
COVEL_UNKNOWN_VARIABLE = sentence("{path} is not a Covel template variable, so it renders as nothing")
COVEL_UNKNOWN_VARIABLE_SUGGESTED = sentence(
    "{path} is not a Covel template variable, so it renders as nothing; did you mean {suggestion}?")
COVEL_VOLATILE_IN_SYSTEM = sentence(
    "{path} changes between turns, and the runtime body is part of the system prompt: every change rewrites the "
    "system prompt and the prefix cache stops there; {instead}")
COVEL_ESCAPED_IN_TAG = sentence(
    "inside <{tag}> the value is XML-escaped (&, <, > become &amp; &lt; &gt;), so it cannot close the block")


def cost_class_row(name: str, usd: str, tokens: int) -> str:
    """One billing class of :data:`COST_CLASSES`' ``classes`` (``name`` one of
    :data:`inspector.cache.pricing.COST_CLASSES`)."""
    return _COST_CLASS_ROWS[name].format(usd=usd, tokens=tokens)
