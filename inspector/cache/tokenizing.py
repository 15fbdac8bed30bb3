"""Token counting for the analysis: the text new in each batch of requests is tokenized on one
daemon thread (:data:`TOKENIZER`) while the next batch is read, then each part is counted and each
layout's running token sums are made (:class:`TokenJob`).
"""

from __future__ import annotations

import hashlib
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

import numpy as np

from inspector.cache.layout import Layout
from inspector.cache.parts import Part, PartTable
from inspector.cache.segments import segment_ids, split_segments
from inspector.tokens import encode_many

__all__ = ["TOKENIZER", "DaemonWorker", "TokenJob", "leading_tokens_digest"]


class DaemonWorker:
    """One daemon thread that runs the calls given to it in order. A ThreadPoolExecutor's
    threads are joined when the interpreter exits, so quitting the app would wait for a long
    tokenization (a 50 MB message takes about 20 s) nobody needs any more."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._calls: queue.SimpleQueue = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def submit(self, call: Callable[[], Any]) -> Future:
        future: Future = Future()
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
                self._thread.start()
        self._calls.put((future, call))
        return future

    def _run(self) -> None:
        while True:
            future, call = self._calls.get()
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(call())
            except BaseException as exc:  # handed to whoever waits for the result
                future.set_exception(exc)


# One thread tokenizes for every analysis (the analyser reads the next batch meanwhile).
TOKENIZER = DaemonWorker("cache-tokenizer")


class TokenJob:
    """The text new in a batch of layouts, tokenized on the tokenizer thread (see
    inspector.cache.analysis).

    Planned and finished on the analysing thread, which alone touches parts and the segment
    cache; the tokenizer thread only encodes strings, all of a batch in one call
    (:func:`inspector.tokens.encode_many`), so it waits for the interpreter lock once per batch
    rather than once per line. ``before`` is the job still running when this one is planned: what
    it tokenizes is not asked for again (it is finished first)."""

    __slots__ = ("table", "layouts", "parts", "new", "planned")

    def __init__(self, layouts: list[Layout], table: PartTable, before: TokenJob | None) -> None:
        self.table = table
        self.layouts = layouts
        self.parts: list[tuple[Part, str, list[str]]] = []  # (part, encoding, its segments)
        self.new: dict[str, dict[str, None]] = {}  # encoding -> segments in no cache yet
        self.planned: set[tuple[int, str]] = set()
        running = before.planned if before is not None else set()
        for lay in layouts:
            encoding = lay.encoding
            cache = table.segments.setdefault(encoding, {})
            pending = before.new.get(encoding, {}) if before is not None else {}
            new = self.new.setdefault(encoding, {})
            for part in lay.parts[lay.same_as_ref :]:
                key = (id(part), encoding)
                if encoding in part.counts or key in self.planned or key in running:
                    continue
                self.planned.add(key)
                segments = split_segments(part.text)
                for segment in segments:
                    if segment not in cache and segment not in pending:
                        new[segment] = None
                self.parts.append((part, encoding, segments))

    def run(self) -> dict[str, list[np.ndarray]]:
        return {encoding: encode_many(encoding, list(segments)) for encoding, segments in self.new.items() if segments}

    def finish(self, ids: dict[str, list[np.ndarray]]) -> None:
        """Store the token ids, count each part, and sum the layouts' tokens (_sum_tokens)."""
        table = self.table
        for encoding, found in ids.items():
            table.segments.setdefault(encoding, {}).update(zip(self.new[encoding], found))
            table.chars += sum(len(segment) for segment in self.new[encoding])
        for part, encoding, segments in self.parts:
            if encoding not in part.counts:
                # Looked up, not assumed: another analysis may have cleared the table meanwhile.
                pieces = segment_ids(segments, encoding, table.segments.setdefault(encoding, {}))
                part._pieces[encoding] = pieces
                part.counts[encoding] = sum(len(p) for p in pieces)
        _sum_tokens(self.layouts)


def _sum_tokens(layouts: list[Layout]) -> None:
    """The running token sums of layouts read one after another (each after its reference),
    once their new parts are counted."""
    for lay in layouts:
        k = lay.same_as_ref
        cum = lay.ref.cum[: k + 1] if lay.ref is not None else [0]  # type: ignore[index]
        total = cum[-1]
        encoding, image_tokens = lay.encoding, lay.image_tokens
        for part in lay.parts[k:]:
            total += part.token_count(encoding, image_tokens)
            cum.append(total)
        lay.cum = cum
        lay.ref = None  # the layouts of a runtime must not chain in memory


def leading_tokens_digest(lay: Layout, size: int) -> bytes:
    """A digest of the layout's first ``size`` token ids (all of them when it has fewer)."""
    chunks: list[np.ndarray] = []
    have = 0
    for part in lay.parts:
        for piece in part._pieces.get(lay.encoding, ()):
            chunks.append(piece)
            have += len(piece)
            if have >= size:
                return hashlib.blake2b(np.concatenate(chunks)[:size].tobytes(), digest_size=16).digest()
    return hashlib.blake2b(np.concatenate(chunks).tobytes() if chunks else b"", digest_size=16).digest()
