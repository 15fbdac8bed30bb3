"""Token counts with their provenance: exact (local tiktoken), Covel's estimate, a script-aware estimate.

The tokenizer data ships in ``resources/tokenizers`` and is checked against tiktoken's published
hashes on load; nothing is ever downloaded. Exact counts are cached by content hash, because the
same system prompt and history recur in every turn's requests.

Importing this module is cheap: numpy and tiktoken are imported by the functions that compute
with them (a command that only lists rows never loads them), and each encoding is built the
first time it is asked for.
"""

from __future__ import annotations

import binascii
import hashlib
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from resources import resource_path

from .jsjson import js_round, utf16_len

if TYPE_CHECKING:
    import numpy as np

# sha256 of the rank files, as tiktoken itself expects them (tiktoken_ext.openai_public).
ENCODING_HASHES = {
    "o200k_base": "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    "cl100k_base": "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
}

# Model name prefixes in the order they must be tested (gpt-4o before gpt-4); provider-caching.md §4.1.
_OPENAI_PREFIXES: tuple[tuple[str, str], ...] = (
    ("gpt-4o", "o200k_base"),
    ("gpt-4.1", "o200k_base"),
    ("gpt-4.5", "o200k_base"),
    ("gpt-5", "o200k_base"),
    ("chatgpt-4o", "o200k_base"),
    ("o1", "o200k_base"),
    ("o3", "o200k_base"),
    ("o4-mini", "o200k_base"),
    ("gpt-4", "cl100k_base"),
    ("gpt-3.5-turbo", "cl100k_base"),
    ("gpt-35-turbo", "cl100k_base"),
    ("text-embedding-3", "cl100k_base"),
    ("text-embedding-ada-002", "cl100k_base"),
    ("davinci-002", "cl100k_base"),
    ("babbage-002", "cl100k_base"),
)
DEFAULT_ENCODING = "o200k_base"


class TokenizerDataError(RuntimeError):
    """The shipped tokenizer file is missing or does not match its expected hash."""


@dataclass(frozen=True, slots=True)
class EncodingChoice:
    encoding: str
    # "exact": the model's own tokenizer; "proxy": a close public tokenizer for a model whose
    # own is not public (Claude, Gemini, DeepSeek, Qwen): a count, not the provider's count.
    provenance: str


def encoding_for_model(model: str | None) -> EncodingChoice:
    name = (model or "").strip().lower()
    if "/" in name:
        name = name.rsplit("/", 1)[1]
    for prefix, encoding in _OPENAI_PREFIXES:
        if name.startswith(prefix):
            return EncodingChoice(encoding, "exact")
    return EncodingChoice(DEFAULT_ENCODING, "proxy")


_encodings: dict[str, object] = {}
_encodings_lock = threading.Lock()


# Bytes of the rank file parsed per step (about 2,000 lines, a few milliseconds).
_RANK_SLICE = 1 << 16


def _load_ranks(name: str) -> dict[bytes, int]:
    path = resource_path("tokenizers", f"{name}.tiktoken")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TokenizerDataError(f"tokenizer data {path} cannot be read: {exc.strerror}") from exc
    digest = hashlib.sha256(data).hexdigest()
    if digest != ENCODING_HASHES[name]:
        raise TokenizerDataError(
            f"tokenizer data {path} is damaged: sha256 {digest}, expected {ENCODING_HASHES[name]}"
        )
    # One "token rank" pair per line (tiktoken's load_tiktoken_bpe): the file's hash was checked,
    # so it is the shipped file, whose words alternate token and rank. Read a slice of whole
    # lines at a time: one C call over the whole file would hold the interpreter lock for over a
    # tenth of a second, stalling the window while a request's counts are made in the background.
    ranks: dict[bytes, int] = {}
    start = 0
    while start < len(data):
        end = data.find(b"\n", start + _RANK_SLICE)
        end = len(data) if end < 0 else end + 1
        words = data[start:end].split()
        ranks.update(zip(map(binascii.a2b_base64, words[0::2]), map(int, words[1::2])))
        start = end
    return ranks


def encoding_built(name: str = DEFAULT_ENCODING) -> bool:
    """Whether this process has built ``name``'s tokenizer already (nothing is loaded)."""
    return name in _encodings


def get_encoding(name: str = DEFAULT_ENCODING):
    """A tiktoken Encoding built from the shipped rank file (never from the network)."""
    if name not in ENCODING_HASHES:
        raise ValueError(f"unknown encoding {name!r}; shipped: {', '.join(ENCODING_HASHES)}")
    with _encodings_lock:
        if name in _encodings:
            return _encodings[name]
        import tiktoken
        import tiktoken_ext.openai_public as public

        ranks = _load_ranks(name)
        # Take the split pattern and special tokens from tiktoken's own definition, but feed it
        # our verified ranks instead of letting it fetch them.
        original = public.load_tiktoken_bpe
        public.load_tiktoken_bpe = lambda *_args, **_kwargs: ranks
        try:
            params = getattr(public, name)()
        finally:
            public.load_tiktoken_bpe = original
        encoding = tiktoken.Encoding(**params)
        _encodings[name] = encoding
        return encoding


# Joins texts for encode_many: a special token ends the ordinary text before it, and the tokenizer
# splits and merges each stretch between special tokens on its own.
_SEPARATOR = "<|endoftext|>"


def encode_many(name: str, texts: list[str]) -> list[np.ndarray]:
    """The token ids of each of ``texts`` (as ``encode_ordinary`` gives them), in one call into
    the tokenizer: the texts are joined with a special token, which the tokenizer never merges
    across, and the ids are cut at it. One call releases the interpreter lock once for the whole
    lot, where a call per text would wait for the lock again after each (see cache_analysis)."""
    import numpy as np

    encoding = get_encoding(name)
    joinable: list[int] = []
    alone: list[int] = []  # texts holding the separator's own characters, read as ordinary text
    for i, text in enumerate(texts):
        (alone if _SEPARATOR in text else joinable).append(i)
    out: list[np.ndarray] = [np.zeros(0, dtype=np.uint32)] * len(texts)
    if joinable:
        joined = _SEPARATOR.join(texts[i] for i in joinable)
        try:
            ids = encoding.encode_to_numpy(joined, allowed_special={_SEPARATOR}, disallowed_special=())
        except UnicodeEncodeError:
            # What encode_ordinary does with lone surrogates: each becomes U+FFFD (the separator
            # keeps a pair from forming across two texts).
            joined = joined.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
            ids = encoding.encode_to_numpy(joined, allowed_special={_SEPARATOR}, disallowed_special=())
        cuts = np.flatnonzero(ids == encoding.eot_token).tolist()
        if len(cuts) != len(joinable) - 1:
            raise RuntimeError(f"{name}: {len(joinable)} texts joined gave {len(cuts) + 1} pieces")
        start = 0
        for i, end in zip(joinable, cuts + [len(ids)]):
            out[i] = ids[start:end]
            start = end + 1
    for i in alone:
        out[i] = np.array(encoding.encode_ordinary(texts[i]), dtype=np.uint32)
    return out


class _CountCache:
    def __init__(self, capacity: int = 200_000) -> None:
        self._data: OrderedDict[tuple[str, bytes], int] = OrderedDict()
        self._capacity = capacity
        self._lock = threading.Lock()

    def get(self, key):
        with self._lock:
            value = self._data.get(key)
            if value is not None:
                self._data.move_to_end(key)
            return value

    def put(self, key, value: int) -> None:
        with self._lock:
            self._data[key] = value
            if len(self._data) > self._capacity:
                self._data.popitem(last=False)


_cache = _CountCache()


def content_key(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()


def cached_exact(text: str, encoding: str = DEFAULT_ENCODING) -> int | None:
    """The exact count of ``text`` if this process has it already, else None (nothing loaded)."""
    return 0 if not text else _cache.get((encoding, content_key(text)))


def remember_exact(text: str, encoding: str, count: int) -> None:
    """Take ``count`` as the exact count of ``text`` (one kept from an earlier run)."""
    if text:
        _cache.put((encoding, content_key(text)), count)


def count_exact(text: str, encoding: str = DEFAULT_ENCODING) -> int:
    """Exact token count under ``encoding``, cached by content hash. Special-token text counts as text."""
    if not text:
        return 0
    key = (encoding, content_key(text))
    cached = _cache.get(key)
    if cached is not None:
        return cached
    enc = get_encoding(encoding)
    value = len(enc.encode_ordinary(text))
    _cache.put(key, value)
    return value


# --- estimates --------------------------------------------------------------------------------

# The code points Covel's estimator counts as one token each (prompt-prefix-report's
# estimateTokens): U+2E80–9FFF, U+AC00–D7AF, U+F900–FAFF.
COVEL_CJK_RANGES = ((0x2E80, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF))
# Counted in one pass over the UTF-16 high bytes (a character's 256-wide row): the rows wholly in
# the ranges are kept by bytes.translate and counted by its length; the two rows the ranges cut
# (U+2Exx, U+D7xx) are rare and counted character by character when present. Astral characters
# and lone surrogates have high bytes D8–DF, in no range, as the estimator has them.
_WHOLE_ROWS = {row for lo, hi in COVEL_CJK_RANGES for row in range(lo >> 8, (hi >> 8) + 1)
               if lo <= row << 8 and row << 8 | 0xFF <= hi}
_CUT_ROWS = {row for lo, hi in COVEL_CJK_RANGES for row in (lo >> 8, hi >> 8)} - _WHOLE_ROWS
_NOT_WHOLE_ROWS = bytes(row for row in range(256) if row not in _WHOLE_ROWS)
_CUT_ROW_BYTES = [bytes([row]) for row in sorted(_CUT_ROWS)]
_CUT_ROW_CJK = re.compile("[" + "".join(f"\\u{max(lo, row << 8):04x}-\\u{min(hi, row << 8 | 0xFF):04x}"
                                        for lo, hi in COVEL_CJK_RANGES for row in sorted(_CUT_ROWS)
                                        if lo >> 8 <= row <= hi >> 8) + "]")


def cjk_count(text: str) -> int:
    """Code points in the ranges Covel's estimator counts as one token each (prompt-prefix-report)."""
    if text.isascii():
        return 0
    rows = text.encode("utf-16-be", "surrogatepass")[::2]
    count = len(rows.translate(None, _NOT_WHOLE_ROWS))
    if any(row in rows for row in _CUT_ROW_BYTES):
        count += len(_CUT_ROW_CJK.findall(text))
    return count


def covel_estimate_parts(cjk: int, units: int) -> int:
    """Covel's estimate from its two additive inputs: CJK code points and UTF-16 length."""
    return js_round(cjk + (units - cjk) / 4)


def covel_estimate(text: str) -> int:
    """``estimateTokens`` of Covel's prompt-prefix report, exactly (covel-db.md §3 step 6)."""
    return covel_estimate_parts(cjk_count(text), utf16_len(text))


# Tokens per character by script for the script-aware estimate (provider-caching.md §4.4, the
# o200k figures; cl100k spends markedly more on CJK).
_SCRIPT_RATES = {
    "o200k_base": {"han": 0.793, "kana": 0.740, "hangul": 0.604, "other_non_ascii": 0.5, "ascii": 0.25},
    "cl100k_base": {"han": 1.3, "kana": 1.2, "hangul": 1.1, "other_non_ascii": 0.6, "ascii": 0.25},
}


# The scripts the estimate prices apart, as code point ranges (the Han row includes CJK punctuation
# and the full-width forms, which tokenizers spend about as much on).
SCRIPT_RANGES = {
    "han": ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0xF900, 0xFAFF), (0x2E80, 0x2FDF), (0x3000, 0x303F),
            (0xFF00, 0xFFEF)),
    "kana": ((0x3040, 0x30FF),),
    "hangul": ((0xAC00, 0xD7AF), (0x1100, 0x11FF)),
}
_SCRIPT_CLASSES = {script: re.compile("[" + "".join(f"\\u{lo:04x}-\\u{hi:04x}" for lo, hi in ranges) + "]+")
                   for script, ranges in SCRIPT_RANGES.items()}


def script_counts(text: str) -> dict[str, int]:
    """Code points of ``text`` per script of :data:`SCRIPT_RANGES`, plus ``ascii`` and
    ``other_non_ascii`` (the rest); each found by deleting the script's characters in one regex
    pass and measuring what went."""
    counts = {"ascii": len(text.encode("ascii", "ignore"))}
    for script, pattern in _SCRIPT_CLASSES.items():
        counts[script] = len(text) - len(pattern.sub("", text))
    counts["other_non_ascii"] = len(text) - sum(counts.values())
    return counts


def cjk_aware_estimate(text: str, encoding: str = DEFAULT_ENCODING) -> int:
    """A script-aware estimate for when no exact count is wanted: Han, kana and hangul are priced
    per character at measured densities instead of Covel's flat one token per CJK character."""
    if not text:
        return 0
    rates = _SCRIPT_RATES.get(encoding, _SCRIPT_RATES[DEFAULT_ENCODING])
    if text.isascii():
        return js_round(len(text) * rates["ascii"])
    counts = script_counts(text)
    return js_round(sum(counts[script] * rates[script] for script in
                        ("han", "kana", "hangul", "other_non_ascii", "ascii")))


@dataclass(frozen=True, slots=True)
class TokenCounts:
    """Every count of one text, each with where it came from."""

    exact: int
    encoding: str
    provenance: str  # "exact" or "proxy" (see EncodingChoice)
    covel_estimate: int
    cjk_estimate: int


def count_tokens(text: str, model: str | None = None) -> TokenCounts:
    choice = encoding_for_model(model)
    return TokenCounts(
        exact=count_exact(text, choice.encoding),
        encoding=choice.encoding,
        provenance=choice.provenance,
        covel_estimate=covel_estimate(text),
        cjk_estimate=cjk_aware_estimate(text, choice.encoding),
    )
