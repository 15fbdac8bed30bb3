"""Distinct runtimes and models worked out by the database (inspector.store.facets)."""

from __future__ import annotations

import pytest


# --- filter facets worked out by the database ------------------------------------------------

_FACET_PAYLOADS = [
    {"runtimeId": "narrator/main", "model": "deepseek-chat"},
    {"runtimeId": "guide/main", "model": "claude-haiku-4-5", "data": {"runtimeId": "ignored", "model": "ignored"}},
    {"data": {"runtimeId": "legacy/nested", "model": "gpt-4o"}},  # old schema: fields under data
    {"runtimeId": 7, "data": {"runtimeId": "hidden-by-top-level"}},  # not a string: no facet
    {"runtimeId": None, "model": None},
    {"runtimeId": "角色/追踪", "model": "模型😀"},
    {"runtimeId": "", "model": "quote\"and\\backslash"},
    ["not", "an", "object"],
    "just a string",
    {"data": "not an object", "model": "m-only"},
]


def test_facets_from_the_database_equal_the_python_scan(make_db, backend: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from inspector import views

    db = make_db()
    db.session("s1")
    for i, payload in enumerate(_FACET_PAYLOADS):
        db.event("s1", "t1", "llm.calling", payload, at=i)
    if backend == "sqlite":  # jsonb cannot hold text that is not JSON
        db.event("s1", "t1", "llm.calling", raw="{not json", at=99)
    db.commit()
    with db.open() as store:
        computed = store.llm_call_facets()
        monkeypatch.setattr(store, "llm_call_facets", lambda: None)
        scanned = views.request_facets(store)
    assert computed == scanned
    assert computed == {"runtimes": ["", "guide/main", "legacy/nested", "narrator/main", "角色/追踪"],
                        "models": ["claude-haiku-4-5", "deepseek-chat", "gpt-4o", "m-only",
                                   "quote\"and\\backslash", "模型😀"]}
