"""Token counts made in a child process (inspector.count_process) and the threads that count
there (inspector.kept_counts.counted_apart): the same counts as this process's tokenizer, without
building it here; a failed child is replaced, and counting falls back to this process."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector import count_process, kept_counts, tokens

# Lone surrogates, the separator encode_many joins with, CJK, new lines: each must cross the pipe
# unchanged.
TEXTS = ["The lantern sways in the mist.", "灯笼在雾里摇晃。", "half \ud800 a pair", "<|endoftext|> stays text",
         "line\n" * 200, "a" * 5000]


@pytest.fixture
def child() -> Iterator[None]:
    yield
    count_process.stop()


@pytest.fixture
def no_tokenizer_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process forgets its counts and tokenizers, and building one fails the test."""
    monkeypatch.setattr(tokens, "_cache", tokens._CountCache())
    monkeypatch.setattr(tokens, "_encodings", {})

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the tokenizer was built in this process")

    monkeypatch.setattr(tokens, "get_encoding", refuse)


@pytest.mark.parametrize("encoding", ["o200k_base", "cl100k_base"])
def test_the_child_counts_as_this_process_does(child: None, encoding: str) -> None:
    expected = [tokens.count_exact(text, encoding) for text in TEXTS]
    assert count_process.counts(TEXTS, encoding) == expected
    assert count_process.running()


def test_a_child_that_ended_is_replaced(child: None) -> None:
    assert count_process.counts(["hello world"], "o200k_base") == [2]
    process = count_process.CHILD.process
    assert process is not None
    process.kill()
    process.wait()
    assert count_process.counts(["hello world"], "o200k_base") == [2]  # another child
    assert count_process.CHILD.process is not process


def test_a_child_that_ends_while_counting_is_an_error_then_replaced(child: None, monkeypatch: pytest.MonkeyPatch) -> None:
    assert count_process.counts(["hello world"], "o200k_base") == [2]
    process = count_process.CHILD.process
    assert process is not None
    # Its input closed under it: it ends before it answers.
    monkeypatch.setattr(process.stdin, "write", lambda _data: process.kill())
    with pytest.raises(count_process.CountProcessError, match="ended"):
        count_process.counts(["hello world"], "o200k_base")
    assert not count_process.running()
    monkeypatch.undo()
    assert count_process.counts(["hello world"], "o200k_base") == [2]


def test_a_failure_in_the_child_is_its_answer(child: None) -> None:
    with pytest.raises(count_process.CountProcessError, match="unknown encoding"):
        count_process.counts(["x"], "p50k_base")


def test_an_idle_child_ends(child: None) -> None:
    count_process.counts(["hello world"], "o200k_base", idle_stop_s=0)
    timer = count_process.CHILD.idle_timer
    assert isinstance(timer, threading.Timer)
    timer.join()
    assert not count_process.running()


def test_a_thread_counting_apart_never_builds_the_tokenizer(tmp_path: Path, child: None,
                                                            no_tokenizer_here: None) -> None:
    expected = {text: n for text, n in zip(TEXTS, count_process.counts(TEXTS, "o200k_base"))}
    with kept_counts.counted_apart():
        assert kept_counts.exact_counts(TEXTS, "o200k_base", tmp_path) == expected
    # The counts were put in this process's cache and kept in the file, as when counted here.
    assert [tokens.count_exact(text) for text in TEXTS] == [expected[t] for t in TEXTS]
    assert kept_counts.kept_path(tmp_path).is_file()


def test_counting_apart_is_per_thread_and_ends_with_the_block(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              ) -> None:
    asked: list[list[str]] = []
    monkeypatch.setattr(tokens, "_cache", tokens._CountCache())
    monkeypatch.setattr(tokens, "_encodings", {})
    monkeypatch.setattr(count_process, "counts", lambda texts, _encoding: asked.append(texts) or [99] * len(texts))
    seen: dict[str, int] = {}
    with kept_counts.counted_apart():
        assert kept_counts.exact_counts(["apart"], "o200k_base", tmp_path) == {"apart": 99}  # the child's
        # Another thread meanwhile counts here.
        other = threading.Thread(target=lambda: seen.update(kept_counts.exact_counts(["elsewhere"], "o200k_base",
                                                                                    tmp_path)))
        other.start()
        other.join()
    # The other thread and this one after the block counted here (and built the tokenizer).
    assert seen == {"elsewhere": tokens.count_exact("elsewhere")} and asked == [["apart"]]
    after = kept_counts.exact_counts(["after the block"], "o200k_base", tmp_path)
    assert after == {"after the block": tokens.count_exact("after the block")} and asked == [["apart"]]


def test_a_built_tokenizer_counts_here_and_a_failed_child_falls_back(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(_texts: list[str], _encoding: str) -> list[int]:
        raise count_process.CountProcessError("the count process ended")

    monkeypatch.setattr(count_process, "counts", fail)
    monkeypatch.setattr(tokens, "_cache", tokens._CountCache())
    with kept_counts.counted_apart():
        assert kept_counts.exact_counts(["hello world"], "o200k_base", tmp_path / "a") == {"hello world": 2}
        tokens.get_encoding("o200k_base")
        monkeypatch.setattr(count_process, "counts", None)  # never asked once the tokenizer is here
        assert kept_counts.exact_counts(["hello there"], "o200k_base", tmp_path / "b") == {"hello there": 2}
