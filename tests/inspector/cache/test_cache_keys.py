"""Every cache key the providers use (inspector.cache.cache_keys, layout, prediction, reasons):
Anthropic automatic caching, the request options that key a cache level, OpenAI's
prompt_cache_key and GPT-5.6 breakpoints, a breakpoint moved earlier; and the fast body reader
equal to the plain one on bodies with these fields."""

from __future__ import annotations

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_cache_analysis import (
    CC,
    Db,
    T,
    analyse,
    assistant,
    block,
    chat,
    claude,
    msg,
    user,
)

from inspector.cache.cache_keys import (
    LEVELS,
    changed_options,
    option_values,
    parse_cache_keys,
)
from inspector.cache.layout import breakpoint_ttls, build_layout
from inspector.cache.parts import PartTable
from inspector.cache.payload import decode_payload
from inspector.cache.results import REASONS
from inspector.cache.rules import RulesError, default_rules, load_rules
from inspector.wire.protocols import ANTHROPIC_MESSAGES, OPENAI_CHAT, OPENAI_RESPONSES

ANTHROPIC = {"provider": "anthropic", "protocol": ANTHROPIC_MESSAGES}


def cache_keys(protocol):
    """The shipped table's keyed options on one wire."""
    return default_rules().cache_keys.get(protocol, ())


@pytest.fixture
def db(tmp_path):
    return Db(tmp_path / "covel.db")


def anthropic_pair(db, prev, cur, *, gap=10.0, cached=None):
    db.call("s", "t1", "narrator/main", prev, at=0, **ANTHROPIC)
    db.call("s", "t2", "narrator/main", cur, at=gap, cached=cached, **ANTHROPIC)
    return analyse(db.done()).pairs[1]


# --- the table ---------------------------------------------------------------------------------


def test_the_table_names_each_option_with_its_levels_and_sources():
    keys = {k.field: k for k in cache_keys(ANTHROPIC_MESSAGES)}
    assert keys["tool_choice"].drops == keys["thinking"].drops == keys["output_config.effort"].drops == ("messages",)
    assert keys["speed"].drops == ("system", "messages")
    for protocol in (OPENAI_CHAT, OPENAI_RESPONSES):
        (key,) = cache_keys(protocol)
        assert key.field == "prompt_cache_key" and key.drops == LEVELS
    assert all(k.sources for p in (ANTHROPIC_MESSAGES, OPENAI_CHAT) for k in cache_keys(p))
    assert cache_keys("google-generative-ai-v1") == ()
    assert "options-changed" in REASONS


def test_a_malformed_row_is_refused(tmp_path):
    with pytest.raises(ValueError, match="drops"):
        parse_cache_keys({"options": [{"protocols": ["x"], "field": "f", "drops": ["everything"]}]})
    # A level dropped drops the later ones too.
    assert parse_cache_keys({"options": [{"protocols": ["x"], "field": "f", "drops": ["system"]}]})["x"][0].drops == (
        "system", "messages")
    with pytest.raises(ValueError, match="cache_keys"):
        parse_cache_keys({"elsewhere": 1})
    # In a user's rules file, the same rows are refused with the file's name.
    bad = tmp_path / "rules.toml"
    bad.write_text('[[cache_keys.options]]\nprotocols = ["x"]\nfield = "f"\ndrops = ["everything"]\n', encoding="utf-8")
    with pytest.raises(RulesError, match=r"rules\.toml: invalid rules:\n  cache_keys\.options\[0\]\.drops"):
        load_rules(bad, env={})


def test_a_users_rules_file_keys_the_cache_per_wire(tmp_path, db):
    """A protocol's rows in the user's file replace the shipped ones for that protocol; the other
    wires keep theirs, and the analysis run with the file keys the cache by them."""
    own = tmp_path / "rules.toml"
    own.write_text('[[cache_keys.options]]\nprotocols = ["anthropic-messages-v1"]\nfield = "metadata.user_id"\n'
                   'drops = ["messages"]\nsources = ["ours"]\n', encoding="utf-8")
    rules = load_rules(own, env={})
    assert [k.field for k in rules.cache_keys[ANTHROPIC_MESSAGES]] == ["metadata.user_id"]
    assert rules.cache_keys[OPENAI_CHAT] == cache_keys(OPENAI_CHAT)
    resolved = rules.resolve("anthropic", ANTHROPIC_MESSAGES, "claude-sonnet-4-5")
    assert resolved.keyed_fields == frozenset({"metadata"})
    # tool_choice is no longer a key of its own on this wire: it is hashed as a setting again.
    assert resolved.on("2026-10-01").keyed_options == resolved.keyed_options

    system = [block(T(3000), CC)]
    prev = {**claude(system, [msg("user", "hello")]), "metadata": {"user_id": "a"}}
    cur = {**claude(system, [msg("user", "hello"), msg("assistant", "hi"), msg("user", "next")]),
           "metadata": {"user_id": "b"}}
    db.call("s", "t1", "narrator/main", prev, at=0, **ANTHROPIC)
    db.call("s", "t2", "narrator/main", cur, at=10, **ANTHROPIC)
    path = db.done()
    shipped = analyse(path).pairs[1]
    assert shipped.reason != "options-changed"
    ours = analyse(path, rules=rules).pairs[1]
    assert ours.reason == "options-changed" and "metadata.user_id" in ours.reason_detail


def test_nested_fields_and_changes():
    was = option_values(cache_keys(ANTHROPIC_MESSAGES), {"output_config": {"effort": "low", "format": {}}})
    assert was == (("output_config.effort", b'"low"'),)
    now = option_values(cache_keys(ANTHROPIC_MESSAGES), {"output_config": {"format": {}}})
    assert [k.field for k in changed_options(cache_keys(ANTHROPIC_MESSAGES), was, now)] == ["output_config.effort"]
    assert changed_options(cache_keys(ANTHROPIC_MESSAGES), was, was) == []


# --- Anthropic automatic caching ---------------------------------------------------------------


def test_automatic_caching_reads_the_whole_earlier_prompt(db):
    """One top-level cache_control: the breakpoint sits on the last block and moves forward."""
    system = [block(T(1500))]
    prev = {**claude(system, [msg("user", "hello")]), "cache_control": CC}
    cur = {**claude(system, [msg("user", "hello"), msg("assistant", "hi"), msg("user", "next")]), "cache_control": CC}
    pair = anthropic_pair(db, prev, cur)
    assert pair.breakpoints == 1
    assert pair.predicted_cached_tokens == pair.shared_tokens > 1500
    assert pair.predicted_cache_write_tokens == pair.total_tokens - pair.predicted_cached_tokens
    assert pair.reason == "turn-context"


def test_the_automatic_breakpoint_takes_one_of_the_four_slots(db):
    """Four block markers and the automatic one: the fifth in render order, the automatic one at
    the end, is not honoured, so the end of the earlier prompt is not an entry."""
    system = [block(T(1100), CC), block(T(10), CC), block(T(10), CC), block(T(10), CC)]
    prev = {**claude(system, [msg("user", T(500))]), "cache_control": CC}
    cur = {**claude(system, [msg("user", T(500)), msg("assistant", "hi"), msg("user", "next")]), "cache_control": CC}
    pair = anthropic_pair(db, prev, cur)
    assert pair.breakpoints == 5
    assert pair.predicted_cached_tokens == 1130


def test_the_automatic_breakpoint_has_its_ttl_and_is_in_breakpoint_ttls():
    body = {**claude([block("s")], [msg("user", "hello", CC)]), "cache_control": {"type": "ephemeral", "ttl": "1h"}}
    assert breakpoint_ttls(ANTHROPIC_MESSAGES, body) == [None, "1h"]
    assert breakpoint_ttls(ANTHROPIC_MESSAGES, {**body, "cache_control": None}) == [None]


# --- options that key a cache level ------------------------------------------------------------


@pytest.mark.parametrize(("field", "was", "now", "levels", "read"), [
    ("tool_choice", None, {"type": "any"}, "messages cache is", 1100),
    ("thinking", {"type": "enabled", "budget_tokens": 2048}, {"type": "disabled"}, "messages cache is", 1100),
    ("output_config.effort", "high", "low", "messages cache is", 1100),
    ("speed", None, "fast", "system and messages caches are", 0),
])
def test_a_changed_option_drops_its_levels(db, field, was, now, levels, read):
    system = [block(T(1100), CC)]
    history = [msg("user", T(600)), msg("assistant", "hi", CC)]
    prev = claude(system, history)
    cur = claude(system, history + [msg("user", "next", CC)])
    for body, value in ((prev, was), (cur, now)):
        if value is not None:
            if "." in field:
                body["output_config"] = {field.split(".")[1]: value}
            else:
                body[field] = value
    pair = anthropic_pair(db, prev, cur)
    assert pair.predicted_cached_tokens == read
    assert pair.reason == "options-changed"
    assert pair.reason_detail.startswith(f"{field} changed: the {levels} keyed by it")
    assert pair.to_json()["reason"] == "options-changed"


def test_an_unchanged_option_keeps_every_level(db):
    system = [block(T(1100), CC)]
    history = [msg("user", T(600)), msg("assistant", "hi", CC)]
    prev = {**claude(system, history), "speed": "fast", "output_config": {"effort": "low"}}
    cur = {**claude(system, history + [msg("user", "next", CC)]), "speed": "fast", "output_config": {"effort": "low"}}
    pair = anthropic_pair(db, prev, cur)
    assert pair.predicted_cached_tokens > 1700 and pair.reason == "turn-context"


def test_a_system_change_before_the_dropped_level_keeps_its_reason(db):
    """The option drops the messages, but the text differs earlier, in the system prompt."""
    prev = claude([block(T(1100), CC)], [msg("user", "hello", CC)])
    cur = {**claude([block(T(1100) + " more", CC)], [msg("user", "hello", CC)]), "tool_choice": {"type": "any"}}
    pair = anthropic_pair(db, prev, cur)
    assert pair.reason == "system-changed"


def _openai_turns(db, keys, *, cached=None):
    system = T(1100)
    for i, key in enumerate(keys):
        body = chat(system, [user(f"step {j}") for j in range(i)], turn=i + 1, player=f"go {i}")
        if key is not None:
            body["prompt_cache_key"] = key
        db.call("s", f"t{i + 1}", "narrator/main", body, at=i * 10, cached=(cached or [0] * len(keys))[i])
    return analyse(db.done()).pairs


def test_a_changed_prompt_cache_key_reads_nothing(db):
    pairs = _openai_turns(db, ["a", "a", "b"], cached=[0, 1024, 0])
    assert pairs[1].predicted_cached_tokens == 1024 and pairs[1].reason == "turn-context"
    assert pairs[2].predicted_cached_tokens == 0
    assert pairs[2].reason == "options-changed"
    assert pairs[2].reason_detail.startswith("prompt_cache_key changed: the tools and system and messages caches")


def test_a_prompt_cache_key_set_for_the_first_time_is_a_change(db):
    pairs = _openai_turns(db, [None, "a"])
    assert pairs[1].predicted_cached_tokens == 0 and pairs[1].reason == "options-changed"


# --- OpenAI GPT-5.6 breakpoints ------------------------------------------------------------------


def _marked(text, marker=True):
    return {"role": "user", "content": [{"type": "text", "text": text,
                                         **({"prompt_cache_breakpoint": marker} if marker is not None else {})}]}


def _gpt56(db, prev_messages, cur_messages, options, *, gap=10.0):
    for turn, messages, at in (("t1", prev_messages, 0), ("t2", cur_messages, gap)):
        body = {"model": "gpt-5.6", "messages": messages, "max_tokens": 512}
        if options is not None:
            body["prompt_cache_options"] = options
        db.call("s", turn, "narrator/main", body, at=at)
    return analyse(db.done()).pairs[1]


def test_explicit_mode_reads_only_at_the_earlier_breakpoints(db):
    head = {"role": "system", "content": T(1300)}
    prev = [head, _marked(T(200)), user("hello")]
    cur = [head, _marked(T(200)), user("hello"), assistant("hi"), user("next")]
    pair = _gpt56(db, prev, cur, {"mode": "explicit"})
    # The entry ends after the marked block, not at the end of the earlier prompt, and is not
    # rounded to 128 tokens.
    assert pair.breakpoints == 1
    assert 1500 <= pair.predicted_cached_tokens < pair.shared_tokens
    assert pair.predicted_cached_tokens % 128 != 0


def test_explicit_mode_without_a_breakpoint_caches_nothing(db):
    head = {"role": "system", "content": T(1300)}
    pair = _gpt56(db, [head, user("hello")], [head, user("hello"), assistant("hi"), user("next")],
                  {"mode": "explicit"})
    assert pair.predicted_cached_tokens == 0


def test_implicit_mode_adds_the_end_of_the_earlier_prompt(db):
    head = {"role": "system", "content": T(1300)}
    prev = [head, _marked(T(200)), user("hello")]
    cur = [head, _marked(T(200)), user("hello"), assistant("hi"), user("next")]
    pair = _gpt56(db, prev, cur, {"mode": "implicit"})
    assert pair.predicted_cached_tokens == pair.shared_tokens


def test_the_breakpoint_is_not_content(db):
    """A breakpoint moving to the newest block changes no part of the prefix."""
    head = {"role": "system", "content": T(1300)}
    prev = [head, _marked("a"), _marked("b", None)]
    cur = [head, _marked("a", None), _marked("b"), assistant("hi")]
    pair = _gpt56(db, prev, cur, {"mode": "implicit"})
    assert pair.region in ("turn-context", "end") and pair.reason == "turn-context"


def test_explicit_mode_predicts_the_writes_past_what_was_read(db, tmp_path):
    """The provider writes an entry at each breakpoint at least the minimum long (reported in
    cache_write_tokens); the pair predicts the part of the furthest one that was not read, and
    prices it at the model's write multiplier."""
    head = {"role": "system", "content": T(1300)}
    prev = [head, _marked(T(200)), user("hello")]
    cur = [head, _marked(T(200)), user("hello"), assistant("hi"), _marked(T(300))]
    db.call("s", "t1", "narrator/main", {"model": "gpt-5.6", "messages": prev, "max_tokens": 512,
                                         "prompt_cache_options": {"mode": "explicit"}}, at=0)
    db.call("s", "t2", "narrator/main", {"model": "gpt-5.6", "messages": cur, "max_tokens": 512,
                                         "prompt_cache_options": {"mode": "explicit"}}, at=10)
    priced = tmp_path / "price.toml"
    priced.write_text('[[families.openai.models]]\nmatch = ["gpt-5.6*"]\nwrite_multiplier = 1.25\n'
                      'ttl_seconds = 1800\ninput_price_per_mtok = 2.0\n', encoding="utf-8")
    first, second = analyse(db.done(), rules=load_rules(priced, env={})).pairs
    assert first.predicted_cached_tokens == 0
    # Cold: everything up to its one breakpoint is written.
    assert 1500 <= first.predicted_cache_write_tokens < first.total_tokens
    assert second.breakpoints == 2
    assert second.predicted_cache_write_tokens > 0
    assert second.predicted_cached_tokens + second.predicted_cache_write_tokens <= second.total_tokens
    rules = second.rules
    uncached = second.total_tokens - second.predicted_cached_tokens
    premium = second.predicted_cache_write_tokens * (rules.write_multiplier - 1)
    assert rules.write_multiplier == 1.25
    assert second.uncached_cost_usd == pytest.approx(
        (uncached + premium) * rules.input_price_per_mtok / 1e6, abs=1e-6)


def test_implicit_mode_writes_the_whole_prompt_and_older_models_write_nothing(db):
    head = {"role": "system", "content": T(1300)}
    msgs = [head, user("hello")]
    pair = _gpt56(db, msgs, msgs + [assistant("hi"), user("next")], {"mode": "implicit"})
    assert pair.predicted_cache_write_tokens == pair.total_tokens - pair.predicted_cached_tokens > 0


def test_a_request_off_the_breakpoint_scheme_predicts_no_write(tmp_path):
    other = Db(tmp_path / "o.db")
    head = {"role": "system", "content": T(1300)}
    for turn, at in (("t1", 0), ("t2", 10)):
        other.call("s", turn, "narrator/main", {"model": "gpt-5.6", "messages": [head, user(turn)], "max_tokens": 9},
                   at=at)
    assert [p.predicted_cache_write_tokens for p in analyse(other.done()).pairs] == [0, 0]


@pytest.mark.parametrize(("options", "gap", "read"), [
    ({"mode": "explicit", "ttl": "30m"}, 1800, True), ({"mode": "explicit", "ttl": "30m"}, 1801, False),
    # No ttl named: the model's TTL in the rules table, 30 minutes on GPT-5.6, not the 600 s of
    # older models.
    ({"mode": "explicit"}, 1800, True), (None, 1800, True), (None, 1801, False)])
def test_the_options_ttl_is_the_entries_life(db, options, gap, read):
    head = {"role": "system", "content": T(1300)}
    pair = _gpt56(db, [head, _marked("a")], [head, _marked("a"), user("next")], options, gap=gap)
    assert pair.ttl_seconds == 1800
    assert (pair.predicted_cached_tokens > 0) is read
    assert pair.reason == ("turn-context" if read else "expired")


# --- a breakpoint moved earlier ----------------------------------------------------------------


def test_a_breakpoint_moved_earlier_explains_a_smaller_read(db):
    system = [block(T(1100), CC)]
    history = [msg("user", T(600)), msg("assistant", "hi")]
    prev = claude(system, history[:1] + [msg("assistant", "hi", CC)])
    # The same prefix and more, but the only breakpoint is back on the system prompt.
    cur = claude(system, history + [msg("user", "next")])
    pair = anthropic_pair(db, prev, cur)
    assert pair.predicted_cached_tokens == 1100
    assert pair.reason == "options-changed"
    assert pair.reason_detail.startswith("cache_control moved earlier: the last breakpoint's prefix is 1100 tokens")


# --- the fast reader equals the plain one on bodies with these fields ----------------------------


_CCS = st.sampled_from([None, CC, {"type": "ephemeral", "ttl": "1h"}])
_TEXT = st.sampled_from(["a", "b", "雾 fog", T(3)])
_MARK = st.sampled_from([None, True, {"ttl": "30m"}])


def _anthropic_body(messages, system, top, options, first):
    """The options and the top-level cache_control before the message list (``first``) or after it."""
    extra = {**options, **({"cache_control": top} if top is not None else {})}
    if first:
        return {"model": "claude-sonnet-4-5", **extra, "system": system, "messages": messages, "max_tokens": 10}
    return {"model": "claude-sonnet-4-5", "max_tokens": 10, "system": system, "messages": messages, **extra}


_ANTHROPIC_OPTIONS = st.fixed_dictionaries({}, optional={
    "thinking": st.sampled_from([{"type": "enabled", "budget_tokens": 1024}, {"type": "disabled"}]),
    "tool_choice": st.sampled_from([{"type": "auto"}, {"type": "any"}]),
    "speed": st.sampled_from(["fast", "standard"]),
    "output_config": st.sampled_from([{"effort": "low"}, {"effort": "high", "format": {"type": "json_schema"}}]),
})
_ANTHROPIC_MESSAGES = st.lists(st.builds(
    lambda role, text, cc: {"role": role, "content": [{"type": "text", "text": text, **({"cache_control": cc} if cc else {})}]},
    st.sampled_from(["user", "assistant"]), _TEXT, _CCS), min_size=1, max_size=5)
_OPENAI_OPTIONS = st.fixed_dictionaries({}, optional={
    "prompt_cache_key": st.sampled_from(["k1", "k2"]),
    "prompt_cache_options": st.sampled_from([{"mode": "explicit"}, {"mode": "implicit", "ttl": "30m"}, {}]),
})
_OPENAI_MESSAGES = st.lists(st.builds(
    lambda role, text, mark: {"role": role, "content": [{"type": "text", "text": text,
                                                         **({"prompt_cache_breakpoint": mark} if mark else {})}]},
    st.sampled_from(["user", "assistant"]), _TEXT, _MARK), min_size=1, max_size=5)


def _decoded(body, protocol, provider, *, plain):
    raw = orjson.dumps({"providerRequests": [{"provider": provider, "protocol": protocol, "body": body,
                                              "complete": True}], "model": body["model"], "messages": []})
    dec = decode_payload(raw)
    if plain:
        dec.raw_body, dec.body = None, body
    return dec


def _shape(layout):
    return ([p.key for p in layout.parts], layout.breakpoints, layout.options, layout.breakpoint_mode,
            layout.breakpoint_ttl, layout.n_tools, layout.n_settings, layout.n_system)


def _fast_equals_plain(prev, cur, protocol, provider):
    rules = default_rules().resolve(provider, protocol, cur["model"])
    table = PartTable()
    ref = build_layout(_decoded(prev, protocol, provider, plain=False), table, rules, None)
    fast = build_layout(_decoded(cur, protocol, provider, plain=False), table, rules, ref)
    plain = build_layout(_decoded(cur, protocol, provider, plain=True), PartTable(), rules, None)
    assert _shape(fast) == _shape(plain)
    if protocol == ANTHROPIC_MESSAGES:
        assert breakpoint_ttls(protocol, cur) == [ttl for _, ttl in plain.breakpoints]


@settings(max_examples=150, deadline=None)
@given(_ANTHROPIC_MESSAGES, _ANTHROPIC_MESSAGES, _CCS, _CCS, _ANTHROPIC_OPTIONS, _ANTHROPIC_OPTIONS, st.booleans(),
       st.booleans())
def test_fast_reader_equals_plain_on_anthropic_bodies_with_the_new_fields(head, more, top1, top2, opt1, opt2, first1,
                                                                          first2):
    system = [block("sys", CC)]
    prev = _anthropic_body(head, system, top1, opt1, first1)
    cur = _anthropic_body(head + more, system, top2, opt2, first2)
    _fast_equals_plain(prev, cur, ANTHROPIC_MESSAGES, "anthropic")


@settings(max_examples=150, deadline=None)
@given(_OPENAI_MESSAGES, _OPENAI_MESSAGES, _OPENAI_OPTIONS, _OPENAI_OPTIONS)
def test_fast_reader_equals_plain_on_openai_bodies_with_the_new_fields(head, more, opt1, opt2):
    messages = [{"role": "system", "content": "sys"}]
    prev = {"model": "gpt-5.6", "messages": messages + head, "max_tokens": 10, **opt1}
    cur = {"model": "gpt-5.6", "messages": messages + head + more, **opt2, "max_tokens": 10}
    _fast_equals_plain(prev, cur, OPENAI_CHAT, "openai")
