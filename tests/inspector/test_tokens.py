import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector import tokens
from inspector.jsjson import js_round
from inspector.tokens import (
    SCRIPT_RANGES,
    TokenizerDataError,
    cjk_aware_estimate,
    cjk_count,
    count_exact,
    count_tokens,
    covel_estimate,
    encoding_for_model,
    script_counts,
)


def test_exact_counts_match_known_tiktoken_values():
    # Reference values from tiktoken with the same rank files.
    assert count_exact("hello world", "o200k_base") == 2
    assert count_exact("hello world", "cl100k_base") == 2
    assert count_exact("", "o200k_base") == 0
    enc = tokens.get_encoding("o200k_base")
    text = "灯笼在雾里摇晃。The lantern sways in the mist."
    assert count_exact(text, "o200k_base") == len(enc.encode(text))


def test_special_token_text_is_counted_as_plain_text():
    # A prompt may quote "<|endoftext|>"; it must be counted, never raise.
    assert count_exact("<|endoftext|>", "o200k_base") > 1


def test_shipped_files_match_tiktokens_hashes():
    for name, expected in tokens.ENCODING_HASHES.items():
        data = tokens.resource_path("tokenizers", f"{name}.tiktoken").read_bytes()
        assert hashlib.sha256(data).hexdigest() == expected


def test_ranks_are_read_as_tiktoken_reads_them():
    # tiktoken's own reader, line by line, on the shipped files: the same ranks as the bulk read.
    import base64

    for name in tokens.ENCODING_HASHES:
        data = tokens.resource_path("tokenizers", f"{name}.tiktoken").read_bytes()
        expected = {base64.b64decode(token): int(rank) for token, rank in (line.split() for line in data.splitlines() if line)}
        assert tokens._load_ranks(name) == expected


def test_damaged_tokenizer_file_is_refused(tmp_path, monkeypatch):
    bad = tmp_path / "tokenizers"
    bad.mkdir()
    (bad / "cl100k_base.tiktoken").write_bytes(b"aGVsbG8= 0\n")
    monkeypatch.setattr(tokens, "resource_path", lambda *parts: tmp_path.joinpath(*parts))
    with pytest.raises(TokenizerDataError, match="damaged"):
        tokens._load_ranks("cl100k_base")


def test_loading_never_touches_the_network(monkeypatch):
    import tiktoken.load

    def refuse(*_args, **_kwargs):
        raise AssertionError("tried to download tokenizer data")

    monkeypatch.setattr(tiktoken.load, "read_file", refuse)
    monkeypatch.setattr(tiktoken.load, "read_file_cached", refuse)
    monkeypatch.setattr(tokens, "_encodings", {})
    assert count_exact("offline", "cl100k_base") >= 1


@pytest.mark.parametrize(
    ("model", "encoding", "provenance"),
    [
        ("gpt-4o-mini", "o200k_base", "exact"),
        ("gpt-4.1", "o200k_base", "exact"),
        ("gpt-4-turbo", "cl100k_base", "exact"),
        ("gpt-3.5-turbo", "cl100k_base", "exact"),
        ("openai/gpt-5", "o200k_base", "exact"),
        ("claude-sonnet-4", "o200k_base", "proxy"),
        ("deepseek-flash", "o200k_base", "proxy"),
        (None, "o200k_base", "proxy"),
    ],
)
def test_encoding_for_model(model, encoding, provenance):
    choice = encoding_for_model(model)
    assert (choice.encoding, choice.provenance) == (encoding, provenance)


def test_gpt4o_is_matched_before_gpt4():
    assert encoding_for_model("gpt-4o").encoding == "o200k_base"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", 0),
        ("abcd", 1),
        ("abcdef", 2),  # 1.5 rounds up, as Math.round does
        ("ab", 1),  # 0.5 rounds up
        ("a", 0),
        ("你好", 2),
        ("你好ab", 3),  # 2 + 0.5
        ("한국", 2),  # Hangul syllables count as CJK
        ("\U0001F600", 1),  # one astral char is two UTF-16 units: 0.5 -> 1
        ("\u2e80\u9fff\uac00\ud7af\uf900\ufaff", 6),  # range boundaries
        ("\u2e7f\ua000", 1),  # just outside: 2 units / 4 = 0.5 -> 1
    ],
)
def test_covel_estimate_follows_the_script(text, expected):
    assert covel_estimate(text) == expected


def _cjk_by_definition(text: str) -> int:
    """Covel's estimateTokens loop: each code point in one of the ranges counts."""
    return sum(1 for ch in text if any(lo <= ord(ch) <= hi for lo, hi in tokens.COVEL_CJK_RANGES))


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF))
       | st.text(st.sampled_from("\u2e7f\u2e80\u2eff\u2f00\u9fff\ua000\uabff\uac00\ud6ff\ud700\ud7af\ud7b0"
                                 "\ud7ff\ud800\udfff\uf8ff\uf900\ufaff\ufb00a灯한😀")))
def test_cjk_count_is_the_estimators_definition(text):
    assert cjk_count(text) == _cjk_by_definition(text)


def test_cjk_count_of_every_code_point():
    every = "".join(map(chr, range(0x110000)))
    assert cjk_count(every) == _cjk_by_definition(every) == (0x9FFF - 0x2E80 + 1) + (0xD7AF - 0xAC00 + 1) + 0x200


def test_cjk_count_ranges():
    assert cjk_count("abc") == 0
    assert cjk_count("灯笼abc한") == 3
    assert cjk_count("\ud800") == 0  # a lone surrogate is not CJK and does not crash


def test_cjk_aware_estimate_prices_chinese_higher_than_chars_over_four():
    chinese = "灯笼在雾里摇晃，客栈的门半掩着。" * 20
    assert cjk_aware_estimate(chinese) > len(chinese) / 4
    assert cjk_aware_estimate("hello world " * 10) == round(120 * 0.25)
    # Against the real tokenizer, the script-aware estimate is far closer than chars/4.
    exact = count_exact(chinese)
    assert abs(cjk_aware_estimate(chinese) - exact) < abs(len(chinese) / 4 - exact)


def test_count_tokens_carries_provenance():
    counts = count_tokens("你好, world", model="gpt-4o")
    assert counts.encoding == "o200k_base" and counts.provenance == "exact"
    assert counts.covel_estimate == covel_estimate("你好, world")
    assert counts.exact == count_exact("你好, world", "o200k_base")


# Pieces that meet the separator encode_many joins texts with: the whole special token, its halves,
# and what might merge with it (angle brackets, pipes, letters, spaces, line breaks), and the halves of
# a surrogate pair, which must not pair up across two texts.
_JOIN_PIECES = ["<|endoftext|>", "<|", "|>", "endoftext", "<", "|", ">", "a", " ", "\n", "字", "1", "<|fim_prefix|>", "",
                "\ud800", "\ud83d", "\ude00"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_JOIN_PIECES), max_size=8).map("".join), max_size=12),
       st.sampled_from(["o200k_base", "cl100k_base"]))
def test_encode_many_equals_encoding_each_text(texts, encoding):
    got = tokens.encode_many(encoding, texts)
    assert len(got) == len(texts)
    for ids, text in zip(got, texts):
        assert ids.tolist() == tokens.get_encoding(encoding).encode_ordinary(text)


# The script-aware estimate's counts, written out character by character, and the estimate as it
# was computed with numpy before the command line stopped loading it.
def _script_of(char: str) -> str:
    code = ord(char)
    for script, ranges in SCRIPT_RANGES.items():
        if any(lo <= code <= hi for lo, hi in ranges):
            return script
    return "ascii" if code < 0x80 else "other_non_ascii"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF, blacklist_categories=()), max_size=80)
       | st.text(alphabet="abc 灯岭镇の가あ\u3000\uff01\u2e80\u11ff\ud800\udfff\U0001f600", max_size=80))
def test_script_counts_are_the_counts_of_each_character(text: str) -> None:
    expected = {"ascii": 0, "han": 0, "kana": 0, "hangul": 0, "other_non_ascii": 0}
    for char in text:
        expected[_script_of(char)] += 1
    assert script_counts(text) == expected
    if text and not text.isascii():
        import numpy as np

        cps = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        rates = {"han": 0.793, "kana": 0.740, "hangul": 0.604, "other_non_ascii": 0.5, "ascii": 0.25}

        def among(*ranges: tuple[int, int]) -> int:
            return int(np.count_nonzero(np.logical_or.reduce([(cps >= lo) & (cps <= hi) for lo, hi in ranges])))

        han, kana, hangul = (among(*SCRIPT_RANGES[s]) for s in ("han", "kana", "hangul"))
        ascii_count = int(np.count_nonzero(cps < 0x80))
        other = len(cps) - han - kana - hangul - ascii_count
        total = (han * rates["han"] + kana * rates["kana"] + hangul * rates["hangul"]
                 + other * rates["other_non_ascii"] + ascii_count * rates["ascii"])
        assert cjk_aware_estimate(text, "o200k_base") == js_round(total)
