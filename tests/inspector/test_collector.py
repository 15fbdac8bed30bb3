"""Rarer cycle collections during an analysis (inspector.collector): thresholds raised while any
analysis runs, put back when the last ends, and an analysis that makes no reference cycles, which
is what makes collecting rarely safe."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.cache.analysis import SessionCacheAnalyser
from inspector.collector import ANALYSIS_THRESHOLD, fewer_collections, freeze_heap, paused_collections
from inspector.demo import generate_demo
from inspector.store import open_store


@pytest.fixture
def default_thresholds() -> Iterator[tuple[int, int, int]]:
    saved = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield gc.get_threshold()
    gc.set_threshold(*saved)


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("collector") / "demo.db"
    generate_demo(path, turns=4)
    return path


def test_raised_within_and_restored_after(default_thresholds):
    with fewer_collections():
        assert gc.get_threshold() == (ANALYSIS_THRESHOLD, 10, 10)
    assert gc.get_threshold() == default_thresholds


def test_nested_keeps_raised_until_the_outer_ends(default_thresholds):
    with fewer_collections():
        with fewer_collections():
            pass
        assert gc.get_threshold()[0] == ANALYSIS_THRESHOLD
    assert gc.get_threshold() == default_thresholds


def test_overlapping_threads_restore_when_the_last_leaves(default_thresholds):
    entered, release = threading.Event(), threading.Event()
    seen_after_main_left: list[int] = []

    def other() -> None:
        with fewer_collections():
            entered.set()
            release.wait(5)
            seen_after_main_left.append(gc.get_threshold()[0])

    thread = threading.Thread(target=other)
    with fewer_collections():
        thread.start()
        assert entered.wait(5)
    assert gc.get_threshold()[0] == ANALYSIS_THRESHOLD  # the other analysis still runs
    release.set()
    thread.join(5)
    assert seen_after_main_left == [ANALYSIS_THRESHOLD]
    assert gc.get_threshold() == default_thresholds


def test_restored_when_the_body_raises(default_thresholds):
    with pytest.raises(KeyError), fewer_collections():
        raise KeyError("x")
    assert gc.get_threshold() == default_thresholds


def test_a_higher_or_disabled_threshold_is_left_alone():
    saved = gc.get_threshold()
    try:
        for thresholds in ((0, 10, 10), (ANALYSIS_THRESHOLD * 2, 10, 10)):
            gc.set_threshold(*thresholds)
            with fewer_collections():
                assert gc.get_threshold() == thresholds
            assert gc.get_threshold() == thresholds
    finally:
        gc.set_threshold(*saved)


def test_a_threshold_set_meanwhile_is_kept(default_thresholds):
    with fewer_collections():
        gc.set_threshold(5000, 10, 10)
    assert gc.get_threshold() == (5000, 10, 10)


def test_an_analysis_runs_with_the_raised_threshold_and_puts_it_back(demo_db, default_thresholds):
    during: list[int] = []
    with open_store(demo_db) as store:
        session = max(store.sessions(), key=lambda s: s.llm_call_count)
        analyser = SessionCacheAnalyser(store, session.id)
        analyser.use_worker = False
        for _ in analyser.pairs():
            during.append(gc.get_threshold()[0])
    assert during and set(during) == {ANALYSIS_THRESHOLD}
    assert gc.get_threshold() == default_thresholds


def test_an_analysis_leaves_no_reference_cycles(demo_db):
    """Why collecting rarely costs no memory: what an analysis makes is freed by reference counting
    alone. The few cycles a collection finds are SQLAlchemy's statement objects (a handful per
    query), none of the analysis's own."""
    with open_store(demo_db) as store:
        sessions = store.sessions()
        gc.collect()
        gc.disable()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            pairs = 0
            for session in sessions:
                analyser = SessionCacheAnalyser(store, session.id)
                analyser.use_worker = False
                pairs += len(list(analyser.pairs()))
                del analyser
            gc.collect()
            garbage = list(gc.garbage)
        finally:
            gc.garbage.clear()
            gc.set_debug(0)
            gc.enable()
    assert pairs > 50
    ours = [o for o in garbage if type(o).__module__.startswith("inspector")]
    assert ours == []
    assert len(garbage) < 20 * len(sessions)


def test_paused_collections_nest_and_resume_when_the_last_leaves():
    assert gc.isenabled()
    with paused_collections():
        assert not gc.isenabled()
        with paused_collections():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_paused_collections_with_freeze_keep_what_was_made_out_of_collections():
    gc.unfreeze()
    try:
        with paused_collections(freeze=True):
            made = [[n] for n in range(1000)]
        assert gc.get_freeze_count() >= len(made)
        assert gc.isenabled()
        gc.unfreeze()
        freeze_heap()
        assert gc.get_freeze_count() >= len(made)
    finally:
        gc.unfreeze()
