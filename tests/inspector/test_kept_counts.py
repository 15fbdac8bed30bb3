"""Exact token counts kept between runs (inspector.kept_counts): the same counts as the
tokenizer gives, read back without building it, and never a failure when the file cannot be used."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector import kept_counts, tokens
from inspector.tokens import count_exact

TEXTS = ["灯笼在雾里摇晃。", "The lantern sways in the mist.", "", "a" * 3000, "灯笼在雾里摇晃。"]


@pytest.fixture
def fresh_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget this process's counts, as a new run starts without them."""
    monkeypatch.setattr(tokens, "_cache", tokens._CountCache())


def _no_tokenizer(*_args: object, **_kwargs: object) -> None:
    raise AssertionError("the tokenizer was built")


def test_counts_are_the_tokenizers_and_a_later_run_reads_them_back(tmp_path: Path, fresh_process: None,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    expected = {text: count_exact(text, "o200k_base") for text in TEXTS}
    monkeypatch.setattr(tokens, "_cache", tokens._CountCache())
    assert kept_counts.exact_counts(TEXTS, "o200k_base", tmp_path) == expected
    assert kept_counts.kept_path(tmp_path).is_file()

    monkeypatch.setattr(tokens, "_cache", tokens._CountCache())
    monkeypatch.setattr(tokens, "get_encoding", _no_tokenizer)
    assert kept_counts.exact_counts(TEXTS, "o200k_base", tmp_path) == expected
    # ...and count_exact answers them from what was read, still without the tokenizer.
    assert [count_exact(text, "o200k_base") for text in TEXTS] == [expected[t] for t in TEXTS]


def test_counts_are_kept_per_tokenizer(tmp_path: Path, fresh_process: None, monkeypatch: pytest.MonkeyPatch) -> None:
    text = "灯笼在雾里摇晃。" * 20
    o200k = kept_counts.exact_counts([text], "o200k_base", tmp_path)[text]
    cl100k = kept_counts.exact_counts([text], "cl100k_base", tmp_path)[text]
    assert o200k != cl100k
    monkeypatch.setattr(tokens, "_cache", tokens._CountCache())
    monkeypatch.setattr(tokens, "get_encoding", _no_tokenizer)
    assert kept_counts.exact_counts([text], "cl100k_base", tmp_path) == {text: cl100k}


def test_a_folder_that_cannot_be_written_still_gives_the_counts(tmp_path: Path, fresh_process: None) -> None:
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x")
    counts = kept_counts.exact_counts(["hello world"], "o200k_base", blocked)
    assert counts == {"hello world": 2}


def test_a_damaged_or_oversized_file_is_not_a_failure(tmp_path: Path, fresh_process: None,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    path = kept_counts.kept_path(tmp_path)
    path.write_bytes(b"this is not a database" * 100)
    assert kept_counts.exact_counts(["hello world"], "o200k_base", tmp_path) == {"hello world": 2}
    assert path.read_bytes().startswith(b"SQLite format 3")  # started afresh
    monkeypatch.setattr(kept_counts, "KEPT_BYTES", 10)
    monkeypatch.setattr(tokens, "_cache", tokens._CountCache())
    assert kept_counts.exact_counts(["hello world"], "o200k_base", tmp_path) == {"hello world": 2}
    # Started afresh: it is a database again, holding the count just made.
    monkeypatch.setattr(kept_counts, "KEPT_BYTES", 64 << 20)
    monkeypatch.setattr(tokens, "_cache", tokens._CountCache())
    monkeypatch.setattr(tokens, "get_encoding", _no_tokenizer)
    assert kept_counts.exact_counts(["hello world"], "o200k_base", tmp_path) == {"hello world": 2}
