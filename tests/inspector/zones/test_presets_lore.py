"""Lore entries: which a conversation activates (as ChatLuna 1.3.36's LoreBookMatcher), where
they and the author's note are inserted, and the keyword patterns."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from inspector.zones.presets import PresetCache, PresetOptions, loads_preset, render_preset
from inspector.zones.presets.assemble import find_message_index, format_lore_prompt
from inspector.zones.presets.lore import LoreMatcher, PatternError, compile_keyword, translate_pattern
from inspector.zones.presets.model import LoreEntry, LoreSettings


def entry(index, keywords, content="", **kw) -> LoreEntry:
    return LoreEntry(index, tuple(keywords), content or f"c{index}", **kw)


def active(entries, messages, settings=None) -> list[int]:
    return [a.entry.index for a in LoreMatcher(entries, settings).match(messages)]


def test_only_the_newest_scan_depth_messages_are_scanned() -> None:
    entries = [entry(0, ["苹果"]), entry(1, ["香蕉"]), entry(2, ["桃"], scan_depth=3)]
    newest_first = ["今天", "香蕉", "桃子和苹果"]
    assert active(entries, newest_first) == [1, 2]  # default scanDepth 2; entry 2 looks at 3
    assert active(entries, newest_first, LoreSettings(scan_depth=3)) == [0, 1, 2]
    assert active([entry(2, ["桃"], scan_depth=2)], newest_first) == []


def test_keywords_are_patterns_case_insensitive_unless_said() -> None:
    assert active([entry(0, ["c.t"])], ["a CAT"]) == [0]
    assert active([entry(0, ["c.t"], case_sensitive=True)], ["a CAT"]) == []
    assert active([entry(0, ["/cat/i"])], ["a cat"]) == []
    assert active([entry(0, ["/cat/i"])], ["see /cat/i"]) == [0]


def test_whole_words_use_the_ascii_boundary() -> None:
    assert active([entry(0, ["tea"], match_whole_word=True)], ["Tea, please"]) == [0]
    assert active([entry(0, ["tea"], match_whole_word=True)], ["steam"]) == []
    # \b is ASCII in JavaScript: a CJK keyword never has a word boundary around it.
    assert active([entry(0, ["茶"], match_whole_word=True)], ["茶"]) == []


def test_constant_disabled_recursion_and_order() -> None:
    entries = [
        entry(0, ["never"], constant=True, order=3),
        entry(1, ["桥"], "桥边有一只狐狸", order=2),
        entry(2, ["狐狸"], "狐狸有三条尾巴", order=1),
        entry(3, ["尾巴"], "尾巴很软"),
        entry(4, ["桥"], enabled=False),
    ]
    result = LoreMatcher(entries, LoreSettings(max_recursion_depth=2)).match(["我们去桥那边"])
    assert [a.entry.index for a in result] == [2, 1, 0]  # 3 is two levels down: past maxRecursionDepth 2
    by = {a.entry.index: (a.depth, a.by_message, a.by_entry) for a in result}
    assert by == {0: (0, 0, None), 1: (0, 0, None), 2: (1, None, 1)}
    assert active(entries, ["我们去桥那边"]) == [3, 2, 1, 0]  # default depth 3
    assert active(entries, ["我们去桥那边"], LoreSettings(recursive_scan=False)) == [1, 0]


def test_the_g_flag_remembers_where_the_last_match_ended() -> None:
    # Two entries share the pattern object for "ab": after the first matches "xxab" (lastIndex 4)
    # the second's test of the same text starts at 4 and fails, so it stays out.
    entries = [entry(0, ["ab"]), entry(1, ["ab"])]
    assert active(entries, ["xxab"]) == [0]
    # With a second message the failed test resets lastIndex and the next message matches.
    assert active(entries, ["ab", "xxxxab"]) == [0, 1]


def test_patterns_translate_javascript_syntax() -> None:
    assert compile_keyword(r"(?<y>\d{4})-\k<y>", None, None).search("2024-2024")
    assert compile_keyword(r"^end$", True, None).search("end\n") is None
    assert compile_keyword(r"a.b", True, None).search("a\rb") is None
    assert compile_keyword(r"\e", True, None).search("e")
    assert compile_keyword(r"[^]", True, None).search("\n")
    assert translate_pattern("[]") == "(?!)"
    for bad in ["(", "[a", "a\\", r"[\S]", "C++", "a{2}+", "a??+", "(?>a)", "(?i)a", "(?P<n>a)"]:
        with pytest.raises(PatternError):
            compile_keyword(bad, None, None)


def test_a_bad_pattern_is_an_error_and_never_matches() -> None:
    preset = loads_preset("keywords: [x]\nprompts: []\nworld_lores:\n  - keywords: ['C++', 猫]\n    content: c\n")
    result = render_preset(preset, PresetOptions(input="猫 C++"))
    (d,) = [d for d in result.diagnostics if d.code == "lore-pattern"]
    assert d.severity == "error" and d.block_id == "world_lores[0]" and "'C++'" in d.message
    assert [h.entry for h in result.lore] == [0]  # the other keyword still matches here


def test_a_slash_keyword_gets_a_warning() -> None:
    preset = loads_preset("keywords: [x]\nprompts: []\nworld_lores:\n  - keywords: ['/cat/i']\n    content: c\n")
    result = render_preset(preset)
    (d,) = [d for d in result.diagnostics if d.code == "lore-pattern"]
    assert d.severity == "warning" and "slashes" in d.message


PRESET = """
keywords: [t]
prompts:
  - {role: system, type: description, content: D}
  - {role: system, type: personality, content: P}
  - {role: system, type: scenario, content: S}
  - {role: assistant, type: first_message, content: F}
world_lores:
  - {keywords: 甲, content: 'A {name}', insertPosition: after_char_defs}
  - {keywords: 乙, content: B, insertPosition: before_char_defs, order: -1}
  - {keywords: 丙, content: C}
  - {keywords: 丁, content: E, insertPosition: after_char_defs}
  - {keywords: 戊, content: G, insertPosition: before_example_messages}
authors_note: {content: 'N {name}', insertDepth: 1}
"""


def test_lore_groups_and_the_note_go_where_chatluna_puts_them() -> None:
    preset = loads_preset(PRESET)
    history = ({"role": "user", "content": "h1"}, {"role": "assistant", "content": "h2"})
    result = render_preset(preset, PresetOptions(input="甲乙丙丁戊", history=history, variables={"name": "狐"}))
    shown = [(m.source, m.content) for m in result.messages]
    assert shown == [
        ("lore", "B"),  # before_char_defs: at the description
        ("prompt", "D"), ("prompt", "P"), ("prompt", "S"),
        ("lore", "A 狐\nE"),  # after_char_defs: after the scenario, the group's entries joined
        ("lore", "G"),  # before_example_messages: at first_message (moved by the inserts before it)
        ("prompt", "F"),
        # The note goes in first (in_chat, insertDepth 1: one before the last of the six messages).
        ("authors_note", "N 狐"),
        ("history", "h1"), ("history", "h2"),
        ("lore", "C"),  # no insertPosition: after everything so far
        ("input", "甲乙丙丁戊"),
    ]
    assert {h.entry: h.inserted_at for h in result.lore} == {1: 0, 0: 4, 3: 4, 4: 5, 2: 10}
    assert result.authors_note.active and result.authors_note.inserted_at == 7
    assert [h.entry for h in result.lore] == [1, 0, 2, 3, 4]  # sorted by order


@pytest.mark.parametrize("frequency, users, expected", [
    (1, 0, True), (2, 0, False), (2, 1, False), (2, 2, True), (2, 3, False), (2, 4, True),
    (3, 3, True), (0, 0, False), (-1, 5, True),
])
def test_the_note_follows_chatlunas_counter(frequency, users, expected) -> None:
    preset = loads_preset(f"keywords: [t]\nprompts: []\nauthors_note: {{content: n, insertFrequency: {frequency}}}")
    history = tuple({"role": "user", "content": "u"} for _ in range(users))
    result = render_preset(preset, PresetOptions(history=history))
    assert result.authors_note.active is expected
    assert any(m.source == "authors_note" for m in result.messages) is expected


def test_find_message_index_keeps_chatlunas_fallbacks() -> None:
    assert find_message_index([None, None], 2, "before_char_defs") == 1
    assert find_message_index([None, None], 2, "after_char_defs") == 3
    assert find_message_index([None, None, None], 3, "after_example_messages") == 2
    assert find_message_index([None], 1, "before_scenario") == 1
    assert find_message_index([], 0, "in_chat") == -1


def test_the_lore_books_prompt_is_a_langchain_template() -> None:
    assert format_lore_prompt("Lore:\n{input}\n{{x}}", "a\nb") == ("Lore:\na\nb\n{x}", None)
    assert format_lore_prompt("{input} {other}", "a")[1].startswith("{other} is not a variable")
    assert format_lore_prompt("{input", "a")[1] == "a '{' is not closed"
    preset = loads_preset("keywords: [t]\nprompts: []\nworld_lores: [{keywords: k, content: c}]\n"
                          "config: {loreBooksPrompt: '[{input}] {oops}'}")
    result = render_preset(preset, PresetOptions(input="k"))
    assert [d.code for d in result.diagnostics] == ["lore-prompt"]
    assert not [m for m in result.messages if m.source == "lore"]


def test_the_cache_reuses_the_matcher_and_the_match() -> None:
    preset = loads_preset(PRESET)
    cache = PresetCache()
    first = render_preset(preset, PresetOptions(input="甲"), cache)
    second = render_preset(preset, PresetOptions(input="甲"), cache)
    assert first == second
    assert len(cache._matchers) == 1
    (matcher,) = cache._matchers.values()
    assert len(matcher._memo) == 1


def _reference(entries, settings, messages) -> list[tuple[int, int, int | None, int | None]]:
    """ChatLuna's matcher loop written out plainly (every entry, every text, every keyword, one
    lastIndex per shared pattern), to check the matcher's shortcuts change nothing."""
    import re as _re

    from inspector.zones.presets.lore import _SPLIT

    m = LoreMatcher(entries, settings)
    patterns = m.bank.patterns

    def split(whole, text):
        return [p for p in _SPLIT.split(text) if p] if whole else [text]

    found, last, stack = {}, {}, [(messages, 0, None)]
    while stack:
        texts, depth, src = stack.pop()
        for pos, e in enumerate(entries):
            if not e.enabled or pos in found:
                continue
            sd, rec, md, ww = m._config(e)
            if depth >= md:
                continue
            for i, text in enumerate(texts[:sd]):
                for part in split(ww, text):
                    hit = False
                    for k in e.keywords:
                        key = (k, e.case_sensitive, e.match_whole_word)
                        pat = patterns[key]
                        if pat is None:
                            continue
                        start = last.get(key, 0)
                        mt = pat.search(part, start) if start <= len(part) else None
                        if mt is None:
                            last[key] = 0
                            continue
                        last[key] = mt.end()
                        hit = True
                        break
                    if not hit and not e.constant:
                        continue
                    found.setdefault(pos, (e.index, depth, i if src is None else None, src))
                    if rec:
                        stack.append((split(ww, e.content), depth + 1, e.index))
                    break
    assert _re  # the module is only imported for the split pattern's sake
    return sorted(found.values(), key=lambda t: entries[[x.index for x in entries].index(t[0])].order)


WORDS = ["ab", "b", "a.", "猫", "tea", "x", "^a", "b$"]


@given(st.lists(st.tuples(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
                          st.text(alphabet="ab猫 tex.,", max_size=8), st.booleans(), st.booleans(),
                          st.booleans(), st.integers(0, 3), st.sampled_from([None, True, False])),
                min_size=1, max_size=8),
       st.lists(st.text(alphabet="ab猫 tex.,", max_size=10), min_size=1, max_size=4),
       st.integers(1, 3))
@settings(max_examples=300, deadline=None)
def test_the_matcher_gives_what_chatlunas_loop_gives(specs, messages, depth) -> None:
    entries = [LoreEntry(i, tuple(words), content, constant=constant, match_whole_word=whole,
                         enabled=enabled, order=order, case_sensitive=case)
               for i, (words, content, constant, whole, enabled, order, case) in enumerate(specs)]
    settings_ = LoreSettings(max_recursion_depth=depth)
    got = [(a.entry.index, a.depth, a.by_message, a.by_entry) for a in LoreMatcher(entries, settings_).match(messages)]
    assert got == _reference(entries, settings_, messages)
