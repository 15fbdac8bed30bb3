"""Text cut where tiktoken's pre-tokenizer always ends a piece, so each line is tokenized once.

Long texts that differ from one request to the next (turn contexts, memory blocks, narration) share
most of their lines; the tokens of a text are the tokens of its segments joined, and each segment
is looked up in a cache of token ids by its text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

from inspector.tokens import get_encoding

__all__ = ["NO_TOKENS", "segment_ids", "split_segments", "tokenize_segments"]


NO_TOKENS = np.zeros(0, dtype=np.uint32)


# tiktoken's pre-tokenizer (the o200k_base and cl100k_base split patterns) ends a piece at a line
# break followed by a character that is neither white space nor "/": no alternative of either
# pattern matches across such a point, and none looks behind. BPE never merges across pieces, so
# the tokens of a text are the tokens of its segments cut there, joined. Long texts that differ
# from one request to the next (turn contexts, memory blocks, narration) share most of their
# lines, which are then tokenized once. Python's ``\s`` covers every character the tokenizer's
# ``\s`` (Unicode White_Space) does, so this cuts at no point where a piece could continue. The
# pattern matches the line break itself, not the empty point after it: a pattern that starts with
# a literal character is searched for, while an empty one is tried at every character.
_SEGMENT_BREAK = re.compile(r"\n(?=[^\s/])")


def split_segments(text: str) -> list[str] | tuple[str, ...]:
    """``text`` cut after each line break where a segment starts (_SEGMENT_BREAK)."""
    if not text:
        return ()
    if "\n" not in text:
        return (text,)
    pieces = _SEGMENT_BREAK.split(text)
    last = pieces.pop()
    out = [piece + "\n" for piece in pieces]
    out.append(last)
    return out


def tokenize_segments(text: str, encoding: str, cache: dict[str, np.ndarray]) -> list[np.ndarray]:
    """The token ids of ``text``'s segments, each looked up in (or added to) ``cache``."""
    return segment_ids(split_segments(text), encoding, cache)


def segment_ids(segments: Iterable[str], encoding: str, cache: dict[str, np.ndarray]) -> list[np.ndarray]:
    """The token ids of each segment, looked up in ``cache``; one missing is tokenized and added."""
    out = []
    for segment in segments:
        ids = cache.get(segment)
        if ids is None:
            ids = cache.setdefault(segment, np.array(get_encoding(encoding).encode_ordinary(segment), dtype=np.uint32))
        out.append(ids)
    return out
