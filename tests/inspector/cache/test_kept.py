"""A session analysed once (inspector.cache.kept): what is read back equals a fresh analysis on
every demo session, on SQLite and PostgreSQL; appended rows, a rewritten store and a changed
rules table analyse again; a corrupt, truncated or foreign file is ignored with one warning; the
command line's ``--no-cache`` and ``--clear``."""

from __future__ import annotations

import json
import shutil
import sqlite3
import zlib
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from inspector.cache import kept as kept_module
from inspector.cache.analysis import analyse_session
from inspector.cache.kept import FOLDER, KeptAnalyses, analyses_of, rules_hash
from inspector.cache.results import WORKER_FAILED, CacheAnalysis
from inspector.cache.rules import default_rules, load_rules
from inspector.cli import main
from inspector.store import open_store


def _same(a: CacheAnalysis, b: CacheAnalysis) -> None:
    assert [p.to_json() for p in a.pairs] == [p.to_json() for p in b.pairs]
    assert [f.to_json() for f in a.findings] == [f.to_json() for f in b.findings]
    assert [s.to_json() for s in a.summaries] == [s.to_json() for s in b.summaries]
    assert a.warnings == b.warnings
    # The objects too: the rules each pair was judged by, the counters' order.
    assert a.pairs == b.pairs and a.findings == b.findings and a.summaries == b.summaries


def _kept_files(cache: Path) -> list[Path]:
    return sorted((cache / FOLDER).rglob("*.kept"))


def test_read_back_equals_a_fresh_analysis_on_every_demo_session(backend: str, request: pytest.FixtureRequest,
                                                                  tmp_path: Path) -> None:
    location = request.getfixturevalue("demo_sqlite" if backend == "sqlite" else "demo_postgres")
    rules = default_rules()
    warnings: list[str] = []
    with open_store(location) as store:
        ids = [s.id for s in store.sessions()]
        assert len(ids) >= 4
        fresh = analyses_of(store, ids, rules, KeptAnalyses(store, tmp_path, warn=warnings.append))
        assert len(_kept_files(tmp_path)) == len(ids)
    # Another reader of the same store (as a new process would be) reads every session back.
    with open_store(location) as store:
        keep = KeptAnalyses(store, tmp_path, warn=warnings.append)
        for analysis in fresh:
            found = keep.load(analysis.session_id, rules)
            assert found is not None and found.current
            assert found.turns == [(t.number, t.turn_id) for t in store.turns(analysis.session_id)]
            _same(found.analysis, analysis)
            _same(found.analysis, analyse_session(store, analysis.session_id, rules=rules))
        told: list[str] = []
        assert analyses_of(store, ids, rules, keep, told.append, lambda missing: pytest.fail(f"analysed {missing}"))
    assert warnings == []


def _busiest(con: sqlite3.Connection) -> str:
    return con.execute("SELECT session_id FROM trace_events WHERE type = 'llm.calling' GROUP BY session_id "
                       "ORDER BY COUNT(*) DESC LIMIT 1").fetchone()[0]


def _cut_last_turn(db: Path) -> tuple[str, str, list[tuple]]:
    """Remove the busiest session's last turn (in the store's order) from ``db``; (session, insert
    statement, its rows)."""
    with closing(sqlite3.connect(db)) as con:
        sid = _busiest(con)
        (turn,) = con.execute("SELECT turn_id FROM trace_events WHERE session_id = ? "
                              "ORDER BY created_at DESC, seq DESC LIMIT 1", (sid,)).fetchone()
        cur = con.execute("SELECT * FROM trace_events WHERE turn_id = ? ORDER BY seq", (turn,))
        cols = [d[0] for d in cur.description]
        rows = cur.fetchall()
        con.execute("DELETE FROM trace_events WHERE turn_id = ?", (turn,))
        con.commit()
    insert = f"INSERT INTO trace_events ({', '.join(cols)}) VALUES ({', '.join('?' for _ in cols)})"
    return sid, insert, rows


@pytest.mark.parametrize("with_state", [True, False])
def test_appended_rows_resume_from_the_kept_state(demo_sqlite: Path, tmp_path: Path, with_state: bool) -> None:
    """A kept analysis the session has outgrown goes on from the rows written since; one kept
    without a resume state (an earlier version's file) is analysed whole again."""
    db = tmp_path / "growing.db"
    shutil.copy(demo_sqlite, db)
    sid, insert, rows = _cut_last_turn(db)
    rules = default_rules()
    cache = tmp_path / "cache"
    with open_store(db) as store:
        before = analyses_of(store, [sid], rules, KeptAnalyses(store, cache))[0]
        if not with_state:
            keep = KeptAnalyses(store, cache)
            keep.save(before, rules, keep.mark(sid), [(t.number, t.turn_id) for t in store.turns(sid)])
    with closing(sqlite3.connect(db)) as con:
        con.executemany(insert, rows)
        con.commit()
    with open_store(db) as store:
        keep = KeptAnalyses(store, cache)
        assert keep.load(sid, rules) is None
        grown = keep.load(sid, rules, grown=True)  # what the app shows while it brings it up to date
        assert grown is not None and not grown.current and (grown.resume is not None) == with_state
        _same(grown.analysis, before)
        asked: list[list[str]] = []
        whole = store.iter_llm_calling_rows
        read_whole: list[str] = []

        def reading_whole(*args: Any, **kwargs: Any) -> Any:
            read_whole.append(sid)
            return whole(*args, **kwargs)

        store.iter_llm_calling_rows = reading_whole  # type: ignore[method-assign]
        after = analyses_of(store, [sid], rules, keep, None, asked.append)[0]
        store.iter_llm_calling_rows = whole  # type: ignore[method-assign]
        assert asked == ([] if with_state else [[sid]])  # the worker is started for a whole analysis only
        assert read_whole == ([] if with_state else [sid])
        _same(after, analyse_session(store, sid, rules=rules))
        assert len(after.pairs) > len(before.pairs)
        found = keep.load(sid, rules)
        assert found is not None and found.current
        _same(found.analysis, after)


def test_a_rewritten_store_analyses_again(demo_sqlite: Path, tmp_path: Path) -> None:
    db = tmp_path / "covel.db"
    shutil.copy(demo_sqlite, db)
    rules = default_rules()
    cache = tmp_path / "cache"
    with open_store(db) as store:
        sid = store.sessions()[0].id
        analyses_of(store, [sid], rules, KeptAnalyses(store, cache))
    # Rewritten in place (the same file): every trace row written again, in another order, so
    # the rows keep their count but not their write-order keys.
    with closing(sqlite3.connect(db)) as con:
        con.executescript("CREATE TEMP TABLE old AS SELECT * FROM trace_events; DELETE FROM trace_events; "
                          "INSERT INTO trace_events SELECT * FROM old ORDER BY seq DESC; DROP TABLE old;")
        con.commit()
    with open_store(db) as store:
        keep = KeptAnalyses(store, cache)
        assert keep.load(sid, rules) is None and keep.load(sid, rules, grown=True) is None
        again = analyses_of(store, [sid], rules, keep, None, lambda missing: None)[0]
        _same(again, analyse_session(store, sid, rules=rules))
        assert keep.load(sid, rules) is not None
    # Replaced by another file at the same path: another store, nothing of the old one is read.
    replacement = tmp_path / "new.db"
    shutil.copy(demo_sqlite, replacement)
    replacement.replace(db)
    with open_store(db) as store:
        assert KeptAnalyses(store, cache).load(sid, rules) is None


def test_a_changed_rules_table_analyses_again(demo_sqlite: Path, tmp_path: Path) -> None:
    own = tmp_path / "rules.toml"
    own.write_text('[[families.anthropic.models]]\nmatch = ["*"]\nmin_cacheable_tokens = 64\n', encoding="utf-8")
    shipped, changed = default_rules(), load_rules(own)
    assert rules_hash(shipped) != rules_hash(changed)
    assert rules_hash(load_rules(None, env={})) == rules_hash(shipped)
    cache = tmp_path / "cache"
    with open_store(demo_sqlite) as store:
        sid = next(s.id for s in store.sessions() if "claude" in s.id)
        keep = KeptAnalyses(store, cache)
        analyses_of(store, [sid], shipped, keep)
        assert keep.load(sid, changed) is None
        asked: list[list[str]] = []
        with_changed = analyses_of(store, [sid], changed, keep, None, asked.append)[0]
        assert asked == [[sid]]
        _same(with_changed, analyse_session(store, sid, rules=changed))
        assert [p.to_json() for p in with_changed.pairs] != [p.to_json() for p in
                                                             analyse_session(store, sid, rules=shipped).pairs]
        found = keep.load(sid, changed)
        assert found is not None
        _same(found.analysis, with_changed)


def _damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    head, _, body = data.partition(b"\n{")
    header_line, _, compressed = (b"{" + body).partition(b"\n")
    header = json.loads(header_line)
    if how == "truncated":
        path.write_bytes(data[: len(data) - 100])
    elif how == "flipped":
        path.write_bytes(data[:-50] + bytes([data[-50] ^ 0xFF]) + data[-49:])
    elif how == "foreign":
        path.write_bytes(b"SQLite format 3\x00" + bytes(200))
    elif how == "empty":
        path.write_bytes(b"")
    elif how in ("wrong-types", "not-json"):
        # A well-formed file (checksum right) whose body is not what this version writes.
        doc = json.loads(zlib.decompress(compressed))
        if how == "wrong-types":
            doc["pairs"][doc["pairs"].__len__() - 5][0] = "seven"  # an int column holding text
            raw = json.dumps(doc).encode()
        else:
            raw = b"[1, 2"
        fresh = zlib.compress(raw)
        header.update(bodyBytes=len(fresh), crc32=zlib.crc32(fresh))
        path.write_bytes(head + b"\n" + json.dumps(header).encode() + b"\n" + fresh)
    elif how == "other-format":
        header["format"] = 999
        path.write_bytes(head + b"\n" + json.dumps(header).encode() + b"\n" + compressed)
    else:
        raise AssertionError(how)


@pytest.mark.parametrize("how", ["truncated", "flipped", "foreign", "empty", "wrong-types", "not-json",
                                 "other-format"])
def test_a_damaged_file_is_ignored_with_one_warning(demo_sqlite: Path, tmp_path: Path, how: str) -> None:
    rules = default_rules()
    with open_store(demo_sqlite) as store:
        sid = store.sessions()[0].id
        fresh = analyses_of(store, [sid], rules, KeptAnalyses(store, tmp_path))[0]
        (path,) = _kept_files(tmp_path)
        _damage(path, how)
        told: list[str] = []
        keep = KeptAnalyses(store, tmp_path, warn=told.append)
        assert keep.load(sid, rules) is None
        assert keep.load(sid, rules) is None
        assert len(told) == 1 and str(path) in told[0] and "analysed again" in told[0]
        again = analyses_of(store, [sid], rules, keep, told.append)[0]
        _same(again, fresh)
        assert len(told) == 1
        found = keep.load(sid, rules)  # written anew, valid
        assert found is not None
        _same(found.analysis, fresh)


def test_a_file_of_another_session_is_refused(demo_sqlite: Path, tmp_path: Path) -> None:
    rules = default_rules()
    told: list[str] = []
    with open_store(demo_sqlite) as store:
        first, second = [s.id for s in store.sessions()][:2]
        keep = KeptAnalyses(store, tmp_path, warn=told.append)
        analyses_of(store, [first], rules, keep)
        shutil.copy(keep.path_for(first), keep.path_for(second))
        assert keep.load(second, rules) is None
    assert len(told) == 1 and "another store or session" in told[0]


def test_never_beside_the_database_bounded_and_not_after_a_failed_worker(demo_sqlite: Path, tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "covel.db"
    shutil.copy(demo_sqlite, db)
    rules = default_rules()
    with open_store(db) as store:
        sid = store.sessions()[0].id
        beside = KeptAnalyses(store, tmp_path.parent)
        beside.root = beside.directory = tmp_path  # a cache folder that is the database's
        beside.usable = not kept_module.beside_database(store, beside.directory)
        assert not beside.usable
        analysis = analyse_session(store, sid, rules=rules)
        assert beside.save(analysis, rules, beside.mark(sid), []) is None
        assert sorted(p.name for p in tmp_path.iterdir()) == ["covel.db"]

        keep = KeptAnalyses(store, tmp_path / "cache")
        failed = CacheAnalysis(sid, analysis.pairs, analysis.findings, analysis.summaries,
                               [f"{WORKER_FAILED} (gone); the analysis finished in this process"])
        assert keep.save(failed, rules, keep.mark(sid), []) is None
        monkeypatch.setattr(kept_module, "MAX_FILE_BYTES", 100)
        assert keep.save(analysis, rules, keep.mark(sid), []) is None
        assert _kept_files(tmp_path / "cache") == []


def test_the_folder_keeps_under_its_limit(demo_sqlite: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = default_rules()
    with open_store(demo_sqlite) as store:
        ids = [s.id for s in store.sessions()]
        keep = KeptAnalyses(store, tmp_path)
        analyses = [analyse_session(store, sid, rules=rules) for sid in ids]
        sizes = []
        for analysis in analyses:
            path = keep.save(analysis, rules, keep.mark(analysis.session_id), [])
            assert path is not None
            sizes.append(path.stat().st_size)
        monkeypatch.setattr(kept_module, "FOLDER_LIMIT_BYTES", sizes[-1] + sizes[-2])
        keep.save(analyses[-1], rules, keep.mark(ids[-1]), [])
        total = sum(p.stat().st_size for p in _kept_files(tmp_path))
        assert total <= sizes[-1] + sizes[-2]
        assert keep.path_for(ids[-1]).exists()


def _cli(capfdbinary: pytest.CaptureFixture[bytes], *argv: object) -> tuple[int, bytes, bytes]:
    try:
        code = main([str(a) for a in argv])
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capfdbinary.readouterr()
    return code, out, err


def test_command_line_keeps_reads_skips_and_clears(demo_store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    cache = tmp_path / "prompt-inspector"
    code, plain, _ = _cli(capfdbinary, "cache", demo_store, "--json", "--no-cache")
    assert code == 0 and _kept_files(cache) == []
    code, first, _ = _cli(capfdbinary, "cache", demo_store, "--json")
    assert code == 0 and first == plain and len(_kept_files(cache)) == 4
    stamps = [p.stat().st_mtime_ns for p in _kept_files(cache)]
    for argv in (["--json"], ["--json", "--findings"], ["--csv"], []):
        assert _cli(capfdbinary, "cache", demo_store, *argv)[1] == _cli(capfdbinary, "cache", demo_store, *argv,
                                                                        "--no-cache")[1]
    assert [p.stat().st_mtime_ns for p in _kept_files(cache)] >= stamps
    code, out, _ = _cli(capfdbinary, "cache", demo_store, "--clear", "--session", "demo-lantern-claude")
    assert code == 0 and out.startswith(b"removed 1 kept cache analysis (") and b"demo-lantern-claude" in out
    assert len(_kept_files(cache)) == 3
    code, out, _ = _cli(capfdbinary, "cache", demo_store, "--clear")
    assert code == 0 and out.startswith(b"removed 3 kept cache analyses (") and str(cache).encode() in out
    assert _kept_files(cache) == []
    code, out, _ = _cli(capfdbinary, "cache", demo_store, "--clear")
    assert code == 0 and out.startswith(b"no kept cache analysis of every session")


def _values(kinds: frozenset[type] | None) -> Any:
    from hypothesis import strategies as st

    text = st.text(st.characters(blacklist_categories=()), max_size=12)  # lone surrogates included
    made = {str: text, int: st.integers(), float: st.floats(allow_nan=False), bool: st.booleans(),
            type(None): st.none()}
    return st.one_of(*[made[k] for k in sorted(kinds or (), key=lambda k: k.__name__) if k in made])


def _pair_strategy() -> Any:
    import dataclasses as dc

    from hypothesis import strategies as st

    from inspector.cache.results import CachePair

    rules = default_rules()
    fields = {f.name: _values(kept_module._PAIR_TYPES[i]) for i, f in enumerate(dc.fields(CachePair))
              if f.name != "rules"}
    fields.update(provider=st.sampled_from([None, "anthropic", "openai", "google", "deepseek"]),
                  protocol=st.sampled_from([None, "anthropic-messages", "openai-chat"]),
                  model=st.sampled_from([None, "claude-sonnet-4-5", "gpt-5", "gemini-2.5-pro", "odd/Model"]),
                  started_at=st.sampled_from([None, "2025-01-01T00:00:00Z", "2026-06-30T12:00:00.000Z", "x"]),
                  session_id=st.just("s"))

    def build(values: dict[str, Any]) -> CachePair:
        chosen = rules.resolve(values["provider"], values["protocol"], values["model"], values["started_at"])
        return CachePair(rules=chosen, **values)

    return st.fixed_dictionaries(fields).map(build)


def test_any_pairs_findings_and_summaries_read_back_the_same(tmp_path_factory: pytest.TempPathFactory) -> None:
    from collections import Counter

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from inspector.cache.results import Finding, RuntimeSummary

    text = st.text(st.characters(blacklist_categories=()), max_size=8)
    json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | text,
                               lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
                               max_leaves=6)
    findings = st.builds(Finding, kind=text, severity=text, session_id=st.just("s"), runtime_id=st.none() | text,
                         part=text, count=st.integers(), out_of=st.integers(), turn_ids=st.lists(text, max_size=3),
                         message=text, example=st.none() | st.dictionaries(text, json_values, max_size=3))
    summaries = st.builds(RuntimeSummary, session_id=st.just("s"), runtime_id=st.none() | text,
                          pairs=st.integers(), uncached_cost_usd=st.floats(allow_nan=False), priced=st.booleans(),
                          reasons=st.dictionaries(text, st.integers(), max_size=4).map(Counter))
    rules = default_rules()

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(pairs=st.lists(_pair_strategy(), max_size=5), found=st.lists(findings, max_size=3),
           sums=st.lists(summaries, max_size=3), warnings=st.lists(text, max_size=2),
           turns=st.lists(st.tuples(st.integers(), text), max_size=4),
           resume=st.none() | st.dictionaries(text, json_values, max_size=3))
    def check(pairs: list, found: list, sums: list, warnings: list[str], turns: list[tuple[int, str]],
              resume: dict | None) -> None:
        analysis = CacheAnalysis("s", pairs, found, sums, warnings)
        raw = kept_module._encode_body(analysis, turns, resume).encode("ascii")
        back, back_turns, back_resume = kept_module._decode_body(zlib.compress(raw), {}, "s", rules)
        assert back_resume == resume
        assert back.pairs == analysis.pairs and back.findings == analysis.findings
        assert back.summaries == analysis.summaries and back.warnings == analysis.warnings
        assert [list(s.reasons.items()) for s in back.summaries] == [list(s.reasons.items()) for s in sums]
        assert back_turns == turns

    check()
