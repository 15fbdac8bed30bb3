"""Golden tests: our prompt-prefix report equals Covel's script's stdout, byte for byte.

The expected files are the stdout of Covel's ``scripts/prompt-prefix-report.mjs`` (commit
8d4461f0) run on the same databases (see make_cases.py, which regenerates them). Each case's
database is rebuilt from ``rows.json`` in a temporary directory; no Node is needed here.
"""

from __future__ import annotations

import importlib.util
import json
import sqlite3
from pathlib import Path

import pytest

from inspector import cli
from inspector.jsjson import node_text
from inspector.output import terminal_bytes
from inspector.prefix.report import build_report, report_json, report_table

HERE = Path(__file__).parent
CASES_DIR = HERE / "cases"

_spec = importlib.util.spec_from_file_location("prefix_make_cases", HERE / "make_cases.py")
make_cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_cases)


def _load(name: str) -> dict:
    return json.loads((CASES_DIR / name / "rows.json").read_text(encoding="utf-8"))


def _runs() -> list[tuple[str, str]]:
    out = []
    for folder in sorted(p for p in CASES_DIR.iterdir() if p.is_dir()):
        for run in _load(folder.name)["runs"]:
            out.append((folder.name, run))
    return out


RUNS = _runs()


def _flags(args: list[str]) -> tuple[bool, str | None, str | None]:
    """``--json`` / ``--session ID`` / ``--show RUNTIME``, as the script reads them."""
    args = list(args)
    values: dict[str, str | None] = {}
    for flag in ("--session", "--show"):
        if flag in args:
            index = args.index(flag)
            values[flag] = args[index + 1]
            del args[index : index + 2]
        else:
            values[flag] = None
    return "--json" in args, values["--session"], values["--show"]


@pytest.fixture
def case_db(tmp_path):
    def build(name: str) -> tuple[Path, dict]:
        case = _load(name)
        db = tmp_path / "covel.db"
        make_cases.write_db(db, case["rows"], case.get("schema", "covel"))
        return db, case

    return build


def _read_rows(db: Path, session: str | None) -> list[tuple]:
    conn = sqlite3.connect(db)
    conn.text_factory = node_text  # TEXT as node:sqlite gives it to the script
    try:
        sql = "SELECT session_id, turn_id, payload, id FROM trace_events WHERE type = 'llm.calling'"
        params: tuple = ()
        if session:
            sql += " AND session_id = ?"
            params = (session,)
        # What the script's "ORDER BY created_at, seq" gives: ties in rowid order (store/ordering.py).
        return conn.execute(sql + " ORDER BY created_at, seq, rowid", params).fetchall()
    finally:
        conn.close()


def test_cases_are_present():
    assert len(RUNS) >= 60
    for name, run in RUNS:
        assert (CASES_DIR / name / f"expected.{run}.txt").is_file(), (name, run)


@pytest.mark.parametrize(("name", "run"), RUNS, ids=[f"{n}-{r}" for n, r in RUNS])
def test_build_report_matches_golden(case_db, name, run):
    db, case = case_db(name)
    as_json, session, show = _flags(case["runs"][run])
    entries = build_report(_read_rows(db, session))
    text = report_json(entries) + "\n" if as_json else report_table(entries, show)
    expected = (CASES_DIR / name / f"expected.{run}.txt").read_bytes()
    assert terminal_bytes(text) == expected


@pytest.mark.parametrize(("name", "run"), RUNS, ids=[f"{n}-{r}" for n, r in RUNS])
def test_cli_matches_golden(case_db, capsysbinary, name, run):
    db, case = case_db(name)
    status = cli.main(["prefix", str(db), *case["runs"][run]])
    captured = capsysbinary.readouterr()
    assert status == 0
    assert captured.out == (CASES_DIR / name / f"expected.{run}.txt").read_bytes()


def test_rows_json_is_what_make_cases_writes():
    """The committed rows are the generator's: regenerating changes nothing."""
    for name, build in make_cases.CASES.items():
        case = build()
        expected = {"runs": case["runs"], "rows": case["rows"]}
        if "schema" in case:
            expected["schema"] = case["schema"]
        assert _load(name) == expected, name
