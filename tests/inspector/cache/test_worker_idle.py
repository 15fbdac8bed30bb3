"""The cache worker process starts only for a big session's analysis and ends after a while
idle (issue 19 item 8); a short idle timeout stands in for the real minute."""

from __future__ import annotations

import time

import pytest

from inspector.cache import worker as cache_worker

IDLE = 0.5  # seconds


@pytest.fixture(autouse=True)
def no_worker(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(cache_worker, "worker_enabled", lambda: True)
    cache_worker.stop_worker()
    yield
    cache_worker.stop_worker()


def wait_for(condition, timeout: float = 30.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


def test_the_default_idle_stop_is_a_minute():
    assert cache_worker.IDLE_STOP_S == 60.0
    assert cache_worker.WORKER_MIN_REQUESTS == 1000


def test_a_small_session_starts_no_worker():
    assert cache_worker.worker_for_session(cache_worker.WORKER_MIN_REQUESTS - 1) is None
    assert cache_worker.worker_for_session(None) is None
    assert cache_worker.worker_for_session("many") is None  # a damaged count
    assert cache_worker.worker_state() == "none"


def test_an_idle_worker_ends_and_the_next_big_analysis_starts_another():
    first = cache_worker.worker_for_session(cache_worker.WORKER_MIN_REQUESTS, wait_s=120, idle_stop_s=IDLE)
    assert first is not None and first.ready, first.failure if first else None
    assert cache_worker.worker_state() == "ready"
    assert wait_for(lambda: not first.alive)
    assert first.retired and not first.ready
    assert cache_worker.worker_state() == "none"
    assert cache_worker.claim_worker() is None  # no analysis takes it, none is started by asking
    assert cache_worker.worker_state() == "none"

    second = cache_worker.worker_for_session(str(cache_worker.WORKER_MIN_REQUESTS), wait_s=120, idle_stop_s=IDLE)
    assert second is not None and second is not first
    assert second.ready and second.alive


def test_a_busy_worker_is_not_stopped_and_the_idle_time_counts_from_its_last_job():
    worker = cache_worker.start_worker(idle_stop_s=IDLE)
    assert worker.wait_ready(120), worker.failure
    claimed = cache_worker.claim_worker()
    assert claimed is worker and worker.busy
    time.sleep(3 * IDLE)
    assert worker.alive and not worker.retired  # a job runs: it stays
    worker.release()
    released = time.monotonic()
    assert wait_for(lambda: not worker.alive)
    assert time.monotonic() - released >= IDLE
    assert cache_worker.worker_state() == "none"


def test_a_worker_without_an_idle_stop_stays():
    worker = cache_worker.start_worker(idle_stop_s=None)
    assert worker.wait_ready(120), worker.failure
    time.sleep(3 * IDLE)
    assert worker.alive and worker.ready
    assert cache_worker.worker_for_session(5000, wait_s=0) is worker  # the running one is reused
