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

__all__ = ["cost_class_row", "internal_failure", "preset_unknown_key", "read_folder", "read_too_large", "sentence",
           "templates"]

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
# A bug of ours that escaped the engine, by where it happened (inspector.zones.diagnostic.failure).
_INTERNAL_FAILURES = {
    "check": sentence("the check stopped with an unexpected error ({error}); the text is kept as it is. Please "
                      "report this"),
    "render": sentence("the render stopped with an unexpected error ({error}); the text is kept as it is. Please "
                       "report this"),
    "simulation": sentence("the simulation stopped with an unexpected error ({error}); the text is kept as it is. "
                           "Please report this"),
}
EXCLUDED_DUPLICATE_ID = sentence("duplicate id: registering it again throws")
INPUT_MODE_ONE_BLOCK = sentence("input mode {mode} applies one block only")
COVEL_UNKNOWN_VARIABLE = sentence("{path} is not a Covel template variable, so it renders as nothing")
COVEL_UNKNOWN_VARIABLE_SUGGESTED = sentence(
    "{path} is not a Covel template variable, so it renders as nothing; did you mean {suggestion}?")
# ``detail``: one of the COVEL_INSTEAD_* sentences below.
COVEL_VOLATILE_IN_SYSTEM = sentence(
    "{path} changes between turns, and the runtime body is part of the system prompt: every change rewrites the "
    "system prompt and the prefix cache stops there; {detail}")
# Covel's template variables (inspector.zones.covel_templates.CATALOG): what each is, and what
# to use instead of one that changes between turns.
COVEL_ABOUT_MESSAGE = sentence("the player's message this turn")
COVEL_ABOUT_FORM = sentence("the last submitted form, as pretty JSON text (empty when none)")
COVEL_ABOUT_FORM_RAW = sentence("the last submitted form as an object")
COVEL_ABOUT_CHARACTER = sentence("the primary seat's current character (JSON), empty when none")
COVEL_ABOUT_NPCS = sentence("profiles of every character but the current one, one per line")
COVEL_ABOUT_SESSION_ID = sentence("the session id")
COVEL_ABOUT_TURN_NUMBER = sentence("the number of the current turn")
COVEL_ABOUT_INPUTS = sentence("inputs.<pluginId>.<runtimeId>.<field>: this execution's outputs of earlier runtimes")
COVEL_ABOUT_WORLD_NAME = sentence("the world's name")
COVEL_ABOUT_WORLD_DESCRIPTION = sentence("the world's description")
COVEL_ABOUT_WORLD_TAGS = sentence("the world's tags")
COVEL_ABOUT_WORLD_LORE = sentence("the whole lore text, including the narrator-only part")
COVEL_ABOUT_WORLD_SCHEMA = sentence("the world's character schema (bookkeeping ids and times stripped)")
COVEL_ABOUT_WORLD_ENTRIES = sentence("the world's lorebook entries")
COVEL_ABOUT_DIMENSIONS = sentence(
    "world.dimensions.<id>: {{name, description?, schema, value, version}}, frozen per turn")
COVEL_ABOUT_USER_SETTINGS = sentence("userSettings.<key>: the plugin's settings (defaults merged with the player's)")
COVEL_ABOUT_GROUP = sentence("every {group}.* value, as one JSON object")
COVEL_INSTEAD_TURN_SEGMENT = sentence(
    "provide it from the plugin entry as a turn segment (prompt.segment@1 with volatility \"turn\"), which goes to "
    "the turn context instead of the system prompt")
COVEL_INSTEAD_MESSAGE = sentence("it is already the current user message; leave it out of the body")
COVEL_INSTEAD_CHARACTER = sentence(
    "use characterSheetSegments(...) from @covel/plugin-handlers-utils in the plugin entry; its <player-character> "
    "block goes to the turn context")
COVEL_INSTEAD_PROFILES = sentence(
    "use characterSheetSegments(..., {{profiles: true}}) in the plugin entry; its <character-profiles> block goes "
    "to the turn context")
COVEL_INSTEAD_INPUTS = sentence(
    "declare the field in io.inputs; it is injected as data in <runtime-inputs> in the turn context")
COVEL_INSTEAD_DIMENSIONS = sentence(
    "let world-init's <world-dimensions> turn segment carry the values, or read them with world-dimension-get")
COVEL_INSTEAD_GROUP = sentence("name the field you need")
# ``detail``: the COVEL_INSTEAD_* sentence of the first of ``paths``.
COVEL_INSTEAD_GROUP_VOLATILE = sentence("name the field you need and leave out {paths}: {detail}")
COVEL_ESCAPED_IN_TAG = sentence(
    "inside <{tag}> the value is XML-escaped (&, <, > become &amp; &lt; &gt;), so it cannot close the block")


def cost_class_row(name: str, usd: str, tokens: int) -> str:
    """One billing class of :data:`COST_CLASSES`' ``classes`` (``name`` one of
    :data:`inspector.cache.pricing.COST_CLASSES`)."""
    return _COST_CLASS_ROWS[name].format(usd=usd, tokens=tokens)


# -- inspector.zones (presets, renderer, template parser): what the blocks editor's checks say ---
# ``found`` is what a check found, named by :func:`inspector.zones.config.value_kind` or the
# template render's ``_describe`` with one of these (or "null", "undefined", a type's name).
FOUND_BOOLEAN = sentence("the boolean {value}")
FOUND_NUMBER = sentence("the number {value}")
FOUND_STRING = sentence("the string {value}")
FOUND_A_STRING = sentence("a string")
FOUND_A_BOOLEAN = sentence("a boolean")
FOUND_A_LIST = sentence("a list")
FOUND_A_TABLE = sentence("a table")
FOUND_A_MAPPING = sentence("a mapping")
FOUND_AN_OBJECT = sentence("an object")

# A ChatLuna preset file (inspector.zones.presets.model).
_PRESET_UNKNOWN_KEYS = {
    "a preset": sentence("{path}: a preset has no key {key}, so ChatLuna ignores it (known: {known})"),
    "a prompt": sentence("{path}: a prompt has no key {key}, so ChatLuna ignores it (known: {known})"),
    "the lore book's settings": sentence(
        "{path}: the lore book's settings has no key {key}, so ChatLuna ignores it (known: {known})"),
    "a lore entry": sentence("{path}: a lore entry has no key {key}, so ChatLuna ignores it (known: {known})"),
    "the author's note": sentence(
        "{path}: the author's note has no key {key}, so ChatLuna ignores it (known: {known})"),
    "knowledge": sentence("{path}: knowledge has no key {key}, so ChatLuna ignores it (known: {known})"),
    "config": sentence("{path}: config has no key {key}, so ChatLuna ignores it (known: {known})"),
    "the post handler": sentence(
        "{path}: the post handler has no key {key}, so ChatLuna ignores it (known: {known})"),
}
PRESET_FIELD_REQUIRED = sentence("{path}.{key} is required")
PRESET_NOT_STRING = sentence("{path}.{key} must be a string, found {found}")
PRESET_NOT_BOOLEAN = sentence("{path}.{key} must be true or false, found {found}")
PRESET_NOT_BOOLEAN_FALSE_WORD = sentence(
    "{path}.{key} must be true or false, found {found} (ChatLuna would not read it as false)")
PRESET_NOT_WHOLE = sentence("{path}.{key} must be a whole number, found {found}")
PRESET_BELOW_MINIMUM = sentence("{path}.{key} must be {minimum} or more, found {found}")
PRESET_NOT_NUMBER = sentence("{path}.{key} must be a number, found {found}")
PRESET_NOT_CHOICE = sentence("{path}.{key} must be one of {choices}, found {value}")
PRESET_TOO_LARGE = sentence("{origin}: the text is {length} characters; a preset may be at most {limit} bytes")
PRESET_NESTED_TOO_DEEP = sentence("{origin}: values are nested more than {limit} levels deep")
PRESET_NOT_MAPPING = sentence(
    "{origin}: a ChatLuna preset is a YAML mapping with 'keywords' and 'prompts', found {found}")
PRESET_VERSION_NOT_STRING = sentence("version must be a string, found {found}")
PRESET_KEYWORDS_REQUIRED = sentence(
    "keywords is required: the names a user gives to pick this preset (ChatLuna looks every preset up by them)")
PRESET_KEYWORDS_NOT_LIST = sentence("keywords must be a list of at least one name, found {found}")
PRESET_KEYWORD_NOT_STRING = sentence("keywords[{index}] must be a string, found {found}")
PRESET_PROMPTS_REQUIRED = sentence(
    "prompts is required (a list of {{role, content}}; [] for none): ChatLuna cannot load a preset without it")
PRESET_PROMPTS_NOT_LIST = sentence("prompts must be a list of {{role, content}}, found {found}")
PRESET_PROMPT_NOT_MAPPING = sentence("{path} must be a mapping with role and content, found {found}")
PRESET_PROMPT_ROLE_MISSING = sentence("{path}.role must be one of system, user, assistant, found {found}")
PRESET_PROMPT_ROLE_UNKNOWN = sentence(
    "{path}.role must be one of system, user, assistant, found {found} (ChatLuna refuses the whole preset: "
    "\"Unknown role\")")
PRESET_PROMPT_TYPE_UNKNOWN = sentence(
    "{path}.type {type} is none of {types}; it only labels the message (lore entries are placed by description, "
    "scenario and first_message)")
PRESET_PROMPT_CONTENT_REQUIRED = sentence(
    "{path}.content is required (ChatLuna refuses the whole preset: \"Content is required\")")
PRESET_PROMPT_CONTENT_KIND = sentence("{path}.content must be text or a list of content parts, found {found}")
PRESET_PROMPT_PART_KIND = sentence(
    "{path}.content[{index}] must be a content part such as {{type: text, text: ...}}, found {found}")
PRESET_PROMPT_PART_TEXT = sentence("{path}.content[{index}].text must be a string, found {found}")
PRESET_LORE_POSITION_UNRULED = sentence(
    "{path}.insertPosition {position} (ChatLuna 1.3.36 has no rule for it and inserts the entry as the second "
    "message)")
PRESET_LORES_NOT_LIST = sentence(
    "world_lores must be a list of lore entries (and one optional settings mapping), found {found}")
PRESET_LORE_NOT_MAPPING = sentence("{path} must be a mapping, found {found}")
PRESET_LORE_HALF_ENTRY = sentence("{path} has {present} but no {missing}, so ChatLuna does not read it as an entry")
PRESET_LORE_HALF_ENTRY_SETTINGS = sentence(
    "{path} has {present} but no {missing}, so ChatLuna does not read it as an entry but as the settings of the "
    "lore book")
PRESET_LORE_SECOND_SETTINGS = sentence(
    "{path}: a second settings mapping; ChatLuna uses only the first (world_lores[{index}])")
PRESET_LORE_SETTINGS_POSITION = sentence(
    "{path}.insertPosition: ChatLuna 1.3.36 does not apply the settings' insertPosition to the entries; give it "
    "on each entry")
PRESET_LORE_KEYWORDS_KIND = sentence("{path}.keywords must be a keyword or a list of them, found {found}")
PRESET_LORE_KEYWORD_NOT_STRING = sentence("{path}.keywords[{index}] must be a string, found {found}")
PRESET_NOTE_NOT_MAPPING = sentence("{path} must be a mapping with content, found {found}")
PRESET_KNOWLEDGE_NOT_MAPPING = sentence("knowledge must be a mapping {{knowledge, prompt}}, found {found}")
PRESET_KNOWLEDGE_NAMES = sentence(
    "knowledge.knowledge must be a knowledge base name or a list of them, found {found}")
PRESET_CONFIG_NOT_MAPPING = sentence("config must be a mapping, found {found}")
PRESET_POST_HANDLER_NOT_MAPPING = sentence(
    "config.postHandler must be a mapping {{prefix, postfix, variables, censor}}, found {found}")
PRESET_NOT_WRITABLE = sentence("the preset cannot be written back as YAML that reads the same; nothing was saved")

# What ChatLuna sends for a preset (inspector.zones.presets.assemble, .functions).
LORE_PROMPT_UNCLOSED = sentence("a '{{' is not closed")
LORE_PROMPT_OTHER_VARIABLE = sentence(
    "{{{name}}} is not a variable it has (only {{input}}; write {{{{ and }}}} for braces)")
LORE_PROMPT_SINGLE_CLOSER = sentence("a single '}}' (write }}}} for a brace)")
# ``detail``: one of the three above.
LORE_PROMPT_THROWS = sentence("config.loreBooksPrompt: {detail}; LangChain throws there and the chat fails")
NOTE_NEVER = sentence("insertFrequency 0: never inserted")
NOTE_ALWAYS = sentence("insertFrequency below 0: inserted on every turn")
NOTE_DUE = sentence("turn {turn}: ChatLuna's counter is {count}, a multiple of insertFrequency {frequency}")
NOTE_NOT_DUE = sentence("turn {turn}: ChatLuna's counter is {count}, not a multiple of insertFrequency {frequency}")
NOTE_EMPTY = sentence("the note renders as the empty string, which ChatLuna leaves out")
# ``reason``: the pattern's own error (Python's ``re`` or the JavaScript translation's), as written.
LORE_KEYWORD_NOT_PATTERN = sentence(
    "world_lores[{index}]: keyword {keyword} is not a regular expression ({reason}); ChatLuna builds one from "
    "every keyword, so this throws there and no lore entry is used for that chat")
LORE_KEYWORD_SLASHES = sentence(
    "world_lores[{index}]: keyword {keyword} looks like a /regex/ literal, but ChatLuna reads every keyword as the "
    "pattern itself: this one only matches text containing the slashes (write the pattern without slashes and "
    "flags)")
PRESET_INPUT_WITHOUT_PROMPT = sentence(
    "format_user_prompt never writes {{prompt}}: ChatLuna replaces what the user said with this text, so the "
    "user's message is lost")
TIME_UTC_NOT_OFFSET = sentence("time_UTC({argument}): not a UTC offset; ChatLuna renders \"Invalid UTC offset\"")
TIME_DIFF_NOT_DATE = sentence(
    "timeDiff: {value} is not an ISO date or date-time; it counts as an invalid date (\"now\")")
URL_NOT_FETCHED = sentence(
    "url(): ChatLuna fetches {address} here and inserts up to {limit} characters of the reply; this tool does not "
    "use the network, so the call renders as the empty string")

# The chatluna-renderer dialect: checks and the render (inspector.zones.renderer). ``error`` is the
# JavaScript error the renderer would throw, or the Python one a function raised, as written.
RENDERER_UNKNOWN_FUNCTION = sentence("unknown function {name}: ChatLuna's renderer throws on the call")
RENDERER_UNKNOWN_FUNCTION_VARIABLE = sentence(
    "unknown function {name}: ChatLuna's renderer throws on the call; {name} is a variable, and the renderer only "
    "calls registered functions this way")
RENDERER_UNKNOWN_VARIABLE = sentence("unknown variable {name} (it renders as nothing)")
RENDERER_WHILE_ALWAYS_TRUE = sentence(
    "this {{while}} condition is always true: ChatLuna stops the loop after {limit} iterations (and logs a warning)")
RENDERER_OUTPUT_LIMIT = sentence("the render would write more than {limit} characters; it stops here")
RENDERER_ITERATION_LIMIT = sentence(
    "the render ran more than {limit} loop iterations in all; it stops here (ChatLuna would go on)")
RENDERER_STEP_LIMIT = sentence("the render took more than {limit} steps in all; it stops here (ChatLuna would go on)")
RENDERER_FUNCTION_FAILED_READ = sentence("the function {name} failed ({error}); it reads as nothing")
RENDERER_FUNCTION_FAILED = sentence("the function {name} failed ({error})")
RENDERER_UNKNOWN_VARIABLE_READ = sentence("unknown variable {name}: it reads as nothing")
RENDERER_UNKNOWN_FUNCTION_IN_HEADER = sentence(
    "unknown function {name}: ChatLuna's renderer throws here, and the whole template fails to render")
RENDERER_UNKNOWN_FUNCTION_IN_TAG = sentence(
    "unknown function {name}: ChatLuna's renderer throws here, and the tag writes nothing")
RENDERER_HEADER_THROWS = sentence(
    "evaluating this block's expression throws ({error}); ChatLuna's renderer fails on the whole template")
RENDERER_TAG_THROWS = sentence("evaluating this tag throws in ChatLuna's renderer ({error}), so it writes nothing")
RENDERER_WHILE_LIMIT = sentence(
    "{{while}} was still true after {limit} iterations; ChatLuna stops it there and logs a warning")
RENDERER_REPEAT_COUNT = sentence(
    "{{repeat}} needs a number of at least 0, got {value}; ChatLuna skips the block and logs a warning")
RENDERER_TOO_DEEP = sentence("the template is nested too deeply to render")
RENDERER_ELSEIF_OUTSIDE_IF = sentence("{{elseif}} outside an {{if}}; it is kept as text")
# ``detail``: an expression's parse error (the RENDERER_EXPRESSION_* sentences below).
RENDERER_NOT_A_TAG = sentence("not a tag ({detail}), so it is kept as text")
RENDERER_HEADER_UNPARSED = sentence(
    "this block's expression does not parse ({detail}); ChatLuna's renderer throws on it and the whole template "
    "fails to render")
RENDERER_BRACE_UNCLOSED = sentence("this {{ is never closed by a }}, so it and the rest of the text are kept as text")
RENDERER_BLOCKS_TOO_DEEP = sentence(
    "blocks nested deeper than {limit} levels; ChatLuna's renderer runs out of stack and fails")
RENDERER_FOR_WITHOUT_IN = sentence("{{for}} needs \"NAME in LIST\"; without \" in \" the tag is kept as text")
RENDERER_STRAY_CLOSER = sentence("{{{closer}}} closes no open {{{block}}}; it is kept as text")
RENDERER_BRANCH_AS_VARIABLE = sentence(
    "{{{keyword}}} outside an {{if}} is read as a variable named {name} (it renders as nothing)")
RENDERER_KEYWORD_AS_VARIABLE = sentence(
    "{{{keyword}}} without anything after it opens no block: it is read as a variable named {name} (it renders "
    "as nothing)")
RENDERER_BLOCK_UNCLOSED = sentence(
    "{{{block}}} is never closed: add {{/{block}}} (ChatLuna renders the rest of the text as its body)")
RENDERER_MORE_PROBLEMS = sentence("{count} more parse problems after this one are not listed")

# Covel's template language: the parser's and the render's findings (inspector.zones.template, .evaluate).
TEMPLATE_EXPECTED_VALUE = sentence("expected a value (a quoted string, a number or a name), found {token}")
TEMPLATE_NEEDS_CONDITION = sentence(
    "{{{keyword}}} needs a condition, e.g. {{{keyword} name}} or {{{keyword} name == \"x\"}}")
TEMPLATE_CONDITION_SHAPE = sentence(
    "a condition is one value or 'value OP value' (OP one of {operators}); logical operators are not part of the "
    "language")
TEMPLATE_CONDITION_TWO_VALUES = sentence("a condition compares exactly two values")
TEMPLATE_UNEXPECTED_IN_TAG = sentence("unexpected {token} in a tag")
TEMPLATE_UNKNOWN_CLOSER = sentence("unknown closing tag {{{closer}}}; blocks close with {closers}")
TEMPLATE_CLOSER_TAKES_NOTHING = sentence("{{{closer}}} takes nothing after it")
TEMPLATE_ELSE_TAKES_NOTHING = sentence("{{else}} takes nothing after it; use {{elseif condition}}")
TEMPLATE_FOR_SHAPE = sentence("a loop is written {{for name in list}}")
TEMPLATE_REPEAT_SHAPE = sentence("a repeat is written {{repeat count}}")
TEMPLATE_CONSTANT_TAG = sentence("{{{name}}} is a constant, not a variable")
TEMPLATE_OPERATOR_OUTSIDE_CONDITION = sentence("an operator ({operator}) only appears in a condition")
# ``detail``: one of the TEMPLATE_* sentences above.
TEMPLATE_TAG_KEPT = sentence("{detail}; the tag is kept as text")
TEMPLATE_BLOCK_UNCLOSED = sentence("{{{block}}} is never closed with {{/{block}}}; its tag is kept as text")
TEMPLATE_STRING_UNCLOSED = sentence(
    "a quoted string in this tag is never closed on its line, so the tag never ends; the '{{' is kept as text")
TEMPLATE_STRAY_BRACE = sentence(
    "'{{' opens no tag (there is no '}}' on this line); it is kept as text. Write '{{{{' for a literal brace")
TEMPLATE_NOT_A_TAG = sentence(
    "this is not a tag, so it is kept as text; write '{{{{' and '}}}}' for literal braces")
TEMPLATE_BRANCH_OUTSIDE_IF = sentence("{{{keyword}}} outside an {{if}} block; kept as text")
TEMPLATE_BRANCH_AFTER_ELSE = sentence("{{{keyword}}} after {{else}}; kept as text")
TEMPLATE_STRAY_CLOSER = sentence("{{/{block}}} closes no open {{{block}}}; kept as text")
TEMPLATE_OUTPUT_LIMIT = sentence(
    "the render would write more than {limit} characters in all (settings.outputLimit); writing stopped here")
TEMPLATE_ITERATION_LIMIT = sentence(
    "the render looped more than {limit} times in all (every block of one render shares this budget); rendering "
    "stopped here")
TEMPLATE_WHILE_LIMIT = sentence(
    "{{while}} was still true after {limit} iterations (values do not change during one render); stopped at the "
    "loop limit")
TEMPLATE_OBJECT_VALUE = sentence(
    "{name} is an object, which renders as '[object Object]'; give a string or pick a property (name.key)")
TEMPLATE_FOR_NOT_LIST = sentence("{{for}} needs a list, but this is {found}; the loop runs zero times")
TEMPLATE_FOR_LIMIT = sentence("the list has {count} items; only the first {limit} are rendered (loop limit)")
TEMPLATE_REPEAT_NOT_NUMBER = sentence("{{repeat}} needs a number, but this is {found}; it repeats zero times")
TEMPLATE_REPEAT_ENDLESS = sentence("{{repeat}} count {count} is not a whole number >= 0; it repeats without end")
TEMPLATE_REPEAT_NOT_WHOLE = sentence("{{repeat}} count {count} is not a whole number >= 0; it repeats {times} times")
TEMPLATE_REPEAT_LIMIT = sentence("{{repeat}} asks for {count} repetitions; only {limit} are rendered (loop limit)")

# A prompt-zones config file (inspector.zones.config). ``place`` is where in the file ("blocks[2]
# (id 'persona')"), ``origin`` the file.
CONFIG_EXPECTED_TABLE = sentence("expected a table/object, found {found}")
CONFIG_UNKNOWN_KEY = sentence("unknown key {key} (known: {known})")
CONFIG_REQUIRED = sentence("{key} is required")
CONFIG_NOT_STRING = sentence("{key} must be a string, found {found}")
CONFIG_NOT_CHOICE = sentence("{key} must be one of {choices}, found {value}")
CONFIG_NOT_BOOLEAN = sentence("{key} must be true or false, found {found}")
CONFIG_NOT_NUMBER = sentence("{key} must be a number, found {found}")
CONFIG_NESTED_TOO_DEEP = sentence("values are nested more than {limit} levels deep")
CONFIG_EXPECTED_LIST = sentence("expected a list, found {found}")
CONFIG_VARIABLE_TWICE = sentence("variable {name} is declared twice")
CONFIG_BAD_VARIABLE_NAME = sentence("'name' must be a word without spaces or braces, found {name}")
CONFIG_ZONES_NOT_LIST = sentence("'zones' must be a list of zone names, found {found}")
CONFIG_UNKNOWN_ZONE = sentence("'zones' lists {name}; zones are {known}")
CONFIG_ARGS_NOT_LIST = sentence("'args' must be a list, found {found}")
CONFIG_BAD_ARGUMENT = sentence("an argument is a name or {{name, optional}}, found {found}")
CONFIG_MIXED_ENVIRONMENT = sentence(
    "mixes the plain form (key {key}) with the per-turn form ({used}); put plain values under 'base', or drop "
    "{used} and write the environment as one mapping")
CONFIG_EXPECTED_TABLES = sentence("expected a list of tables, found {found}")
CONFIG_FAIL_TURNS = sentence("'failTurns' must be a list of turn numbers")
CONFIG_NOT_WHOLE = sentence("{key} must be a whole number >= 0, found {found}")
CONFIG_ABOVE_MAXIMUM = sentence("{key} may be at most {most} ({mebi} Mi), found {found}")
CONFIG_UNKNOWN_SUFFIX = sentence("{path}: unknown config format {suffix}; use .json, .yaml, .yml or .toml")
CONFIG_NO_EXTENSION = sentence("{path}: unknown config format '(no extension)'; use .json, .yaml, .yml or .toml")
CONFIG_UNKNOWN_FORMAT = sentence("unknown config format {format}")
CONFIG_FILE_UNKNOWN_FORMAT = sentence("{origin}: unknown config format {format}")
# A file (a config or a preset) its reader refused, ``format`` JSON, YAML or TOML.
FILE_NOT_VALID_DEEP = sentence("{origin}: not valid {format}: nested too deeply to read")
FILE_NOT_VALID_DIGITS = sentence(
    "{origin}: not valid {format}: an integer literal has more digits than can be read (the limit is 4300)")
FILE_NOT_VALID_AT = sentence("{origin}: not valid {format}: {problem} at line {line}, column {column}")
FILE_NOT_VALID = sentence("{origin}: not valid {format}: {problem}")
# Reading a config-like file (inspector.zones.config.read_text_file), by the kind of file read.
_READ_TOO_LARGE = {
    "file": sentence("{path}: the file is {size} bytes; a file may be at most {limit} bytes"),
    "config": sentence("{path}: the file is {size} bytes; a config may be at most {limit} bytes"),
    "preset": sentence("{path}: the file is {size} bytes; a preset may be at most {limit} bytes"),
}
_READ_FOLDER = {
    "file": sentence("{path}: is a directory, not a file"),
    "config": sentence("{path}: is a directory, not a config"),
    "preset": sentence("{path}: is a directory, not a preset"),
}
READ_NO_FILE = sentence("{path}: no such file")
READ_FAILED = sentence("{path}: cannot read: {error}")
READ_NOT_UTF8 = sentence("{path}: not UTF-8 text (byte {offset})")
CONFIG_TOML_NULL = sentence(
    "TOML has no null, and a list of per-turn values cannot skip one; save this config as JSON or YAML")
CONFIG_TOML_TYPE = sentence("cannot write {type} to TOML")
# ``detail``: one of the CONFIG_* sentences above. Last of them: it would match many a sentence.
CONFIG_PROBLEM = sentence("{origin}: {place}: {detail}")

# The chatluna-renderer's expression parse errors (inspector.zones.renderer.lexer, .parser), the
# ``detail`` of RENDERER_NOT_A_TAG and RENDERER_HEADER_UNPARSED. Last: "unexpected {token}" would
# match any sentence that starts so.
RENDERER_EXPRESSION_UNTERMINATED_STRING = sentence("unterminated string literal")
RENDERER_EXPRESSION_BAD_CHARACTER = sentence("unexpected character {character}")
RENDERER_EXPRESSION_TREE_TOO_DEEP = sentence("the expression is nested deeper than {limit} levels")
RENDERER_EXPRESSION_TRAILING = sentence("unexpected token after the expression")
RENDERER_EXPRESSION_TOO_DEEP = sentence("the expression is nested too deeply (more than {limit} levels)")
RENDERER_EXPRESSION_NO_COLON = sentence('expected ":" in the conditional expression')
RENDERER_EXPRESSION_PREFIXES = sentence("too many prefix operators in a row")
RENDERER_EXPRESSION_NO_NAME = sentence('expected a name after "."')
RENDERER_EXPRESSION_NO_BRACKET = sentence('expected "]"')
RENDERER_EXPRESSION_NO_PARENTHESIS = sentence('expected ")"')
RENDERER_EXPRESSION_END = sentence("unexpected end of the expression")
RENDERER_EXPRESSION_UNEXPECTED = sentence("unexpected {token}")


def preset_unknown_key(what: str, path: str, key: str, known: str) -> str:
    """A key a preset's ``what`` ("a preset", "a lore entry" …) does not have, which ChatLuna
    ignores (``key`` already quoted, ``known`` the keys it has, comma-joined)."""
    return _PRESET_UNKNOWN_KEYS[what].format(path=path, key=key, known=known)


def read_too_large(what: str, path: str, size: int, limit: int) -> str:
    """A ``what`` ("file", "config" or "preset") larger than may be read."""
    return _READ_TOO_LARGE[what].format(path=path, size=size, limit=limit)


def read_folder(what: str, path: str) -> str:
    """A folder given where a ``what`` ("file", "config" or "preset") was expected."""
    return _READ_FOLDER[what].format(path=path)


def internal_failure(stage: str, error: str) -> str:
    """An unexpected error of ours in ``stage`` ("check", "render" or "simulation")."""
    return _INTERNAL_FAILURES[stage].format(error=error)
