"""Token counts by segment (inspector.cache.segments) and the tokenizer thread's jobs (inspector.cache.tokenizing):
the same tokens as the whole text, and exact counts however batches overlap."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.cache.layout import build_layout
from inspector.cache.parts import PartTable
from inspector.cache.payload import decode_payload
from inspector.cache.rules import default_rules
from inspector.cache.segments import split_segments, tokenize_segments
from inspector.cache.tokenizing import DaemonWorker, TokenJob
from inspector.store import open_store
from inspector.tokens import count_exact, get_encoding


# --- token counts by segment -------------------------------------------------------------------------

# Pieces of text that meet at every kind of boundary the tokenizers' split patterns know: line
# breaks before letters, spaces, slashes and punctuation; contractions; digits; CJK; combining
# marks; astral characters; and the white space Python and the tokenizer might not agree on.
_SEGMENT_PIECES = ["a", "Zq", "é", "字", "。", " ", "  ", "\n", "\n\n", "\r\n", "\r", "\t", "/", "'", "'ll", "s",
                   "1", "234", "!", ".", "<", "tag>", "\x1c", "\x85", "\xa0", "\u2028", "\u3000", "\u0301", "😀",
                   "\ufeff", "_"]


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_SEGMENT_PIECES), max_size=40), st.sampled_from(["o200k_base", "cl100k_base"]))
def test_tokens_by_segment_equal_the_whole_text(pieces, encoding):
    text = "".join(pieces)
    joined = [int(t) for seg in tokenize_segments(text, encoding, {}) for t in seg]
    assert joined == get_encoding(encoding).encode_ordinary(text)


def test_python_white_space_covers_the_tokenizers():
    """The segment cut never falls before a character the tokenizers' ``\\s`` (Unicode
    White_Space) matches, because Python's ``\\s`` matches each of them too."""
    white_space = [*range(0x09, 0x0E), 0x20, 0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028, 0x2029, 0x202F,
                   0x205F, 0x3000]
    assert all(re.match(r"\s", chr(c)) and chr(c).isspace() for c in white_space)
    assert split_segments("a\n b\n/c\nd\n\ne") == ["a\n b\n/c\n", "d\n\n", "e"]


# The cut as the tokenizer's patterns define it: after a line break, before a character that is
# neither white space nor "/".
_CUT = re.compile(r"(?<=\n)(?=[^\s/])")


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(_SEGMENT_PIECES), max_size=40))
def test_segments_cut_where_the_pattern_says(pieces):
    text = "".join(pieces)
    segments = list(split_segments(text))
    assert "".join(segments) == text
    assert segments == (_CUT.split(text) if text else [])


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_segments_cut_where_the_pattern_says_on_any_text(text):
    assert list(split_segments(text)) == (_CUT.split(text) if text else [])


def test_token_counts_equal_the_exact_counter(demo_store):
    """Every part of every demo request, tokenized batch by batch as the analysis does (each
    batch planned while the one before it still runs), counts what count_exact counts, and each
    request's running sum ends at the sum of its parts."""
    table = PartTable()
    with open_store(demo_store) as store:
        layouts = list(_demo_layouts(store, table))
    running = None
    for start in range(0, len(layouts), 7):
        job = TokenJob(layouts[start : start + 7], table, running[0] if running else None)
        ids = job.run()
        if running:
            running[0].finish(running[1])
        running = (job, ids)
    running[0].finish(running[1])
    parts = {(id(p), lay.encoding): (p, lay.encoding) for lay in layouts for p in lay.parts}.values()
    assert len({p.text for p, _ in parts}) > 200
    for part, encoding in parts:
        assert part.counts[encoding] == count_exact(part.text, encoding)
    for lay in layouts:
        assert lay.cum[-1] == sum(count_exact(p.text, lay.encoding) + p.images * lay.image_tokens for p in lay.parts)


def test_a_table_cleared_while_a_batch_is_tokenized_still_gives_exact_counts(demo_store):
    """Another analysis may clear the shared table between planning a batch and finishing it."""
    table = PartTable()
    with open_store(demo_store) as store:
        layouts = list(_demo_layouts(store, table))[:12]
    first = TokenJob(layouts[:6], table, None)
    first.finish(first.run())
    second = TokenJob(layouts[6:], table, None)
    ids = second.run()
    table.clear()
    second.finish(ids)
    for lay in layouts[6:]:
        for part in lay.parts:
            assert part.counts[lay.encoding] == count_exact(part.text, lay.encoding)


def test_the_tokenizer_thread_never_holds_up_exit_and_hands_on_failures():
    worker = DaemonWorker("test-worker")
    assert worker.submit(lambda: 7).result(timeout=10) == 7
    assert worker._thread.daemon

    def failing():
        raise ValueError("no tokens")

    with pytest.raises(ValueError, match="no tokens"):
        worker.submit(failing).result(timeout=10)
    assert worker.submit(lambda: 8).result(timeout=10) == 8



def _demo_layouts(store, table):
    rules = default_rules()
    for session in store.sessions():
        previous = None
        for row in store.iter_llm_calling_rows(session.id):
            dec = decode_payload(row[2])
            layout = build_layout(dec, table, rules.resolve(dec.provider, dec.protocol, dec.model), previous)
            previous = layout
            yield layout
