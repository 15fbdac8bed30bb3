"""Reading a core sentence back into its template (inspector.sentence_match), the one reading the
app's views and the command line share."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st

from inspector import wording
from inspector.sentence_match import SENTENCE_PLACEHOLDERS, SentenceTranslator

TABLE = [
    ("{key} is required", "{key} 为必填项"),
    ("{origin}: {place}: {detail}", "{origin}：{place}：{detail}"),
    ("unknown variable {name}", "未知变量 {name}"),
    ("unknown variable {name} (it renders as nothing)", "未知变量 {name}（渲染为空）"),
    ("{path} must be a string, found {found}", "{path} 必须是字符串，实际为 {found}"),
    ("{path} must be a string, found {found} (ChatLuna refuses it)", "{path} 必须是字符串，实际为 {found}（ChatLuna 拒绝）"),
    ("the number {value}", "数字 {value}"),
    ("a list", "列表"),
    ("it stops here", "在此停止"),
]


def translator() -> SentenceTranslator:
    return SentenceTranslator(TABLE, top_level="顶层", joiner="；")


def test_the_reading_that_explains_the_most_wins() -> None:
    t = translator()
    assert t.strict("<config>: blocks[0]: 'id' is required") == "<config>：blocks[0]：'id' 为必填项"
    assert t.strict("unknown variable 'x' (it renders as nothing)") == "未知变量 'x'（渲染为空）"


def test_a_file_s_top_level_is_translated_and_other_places_stay_as_written() -> None:
    t = translator()
    assert t.strict("<config>: top level: 'id' is required") == "<config>：顶层：'id' 为必填项"
    assert t.place("blocks[2]") == "blocks[2]"


def test_what_a_check_found_is_a_phrase_or_a_bare_word() -> None:
    t = translator()
    assert t.strict("x must be a string, found the number 3") == "x 必须是字符串，实际为 数字 3"
    assert t.strict("x must be a string, found null") == "x 必须是字符串，实际为 null"
    # "found" never swallows the rest of a longer sentence.
    assert t.strict("x must be a string, found a list (ChatLuna refuses it)") == "x 必须是字符串，实际为 列表（ChatLuna 拒绝）"


def test_clauses_are_read_one_by_one_and_nothing_else_is_guessed() -> None:
    t = translator()
    assert t.strict("unknown variable 'x'; it stops here") == "未知变量 'x'；在此停止"
    assert t.strict("no template says this") is None
    assert t.text("no template says this") == "no template says this"
    assert t.text("") == ""


def test_english_reads_every_sentence_of_the_core_as_written() -> None:
    # The identity table: every template read back gives the very sentence it made (a sentence
    # placeholder holding a sentence of the core, any other a plain value).
    t = SentenceTranslator((source, source) for source in wording.templates())
    for source in wording.templates():
        names = [name for _, name, _, _ in string.Formatter().parse(source) if name]
        text = source.format(**{name: wording.FOUND_A_LIST if name in SENTENCE_PLACEHOLDERS | {"found"} else "v"
                                for name in names})
        assert t.strict(text) == text, source


@given(st.text(max_size=60))
def test_any_text_is_either_read_or_left_as_written(text: str) -> None:
    t = translator()
    shown = t.text(text)
    assert shown == text or t.strict(text) == shown
