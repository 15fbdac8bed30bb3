"""The prefix path on inputs Covel's script cannot be recorded on (it throws), and the
guarantees behind the edge golden cases: the order of tied rows, NULL and BLOB ids, invalid
UTF-8, deep nesting. Where the script stops, the behaviour here is ours, and documented:

* a payload nested about 5,000 levels or more: Node's JSON.stringify throws "Maximum call stack
  size exceeded" and the script stops; we write the part (iterative) and the report goes on;
* a payload stored as a BLOB: JSON.parse(String(Uint8Array)) is not JSON and the script stops;
  we read the BLOB's bytes as its UTF-8 text;
* an integer id past 2**53: node:sqlite throws ERR_OUT_OF_RANGE; we print it as a JS number.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from inspector import cli
from inspector.prefix.report import build_report, report_json, report_table
from inspector.store import open_store

HERE = Path(__file__).parent
_spec = importlib.util.spec_from_file_location("prefix_make_cases_edges", HERE / "make_cases.py")
make_cases = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_cases)
Rows, kernel, write_db = make_cases.Rows, make_cases.kernel, make_cases.write_db


def _m(text: str) -> list:
    return [{"role": "user", "content": text}]


def _run(capsysbinary, *args: str) -> tuple[int, str, str]:
    status = cli.main(["prefix", *args])
    captured = capsysbinary.readouterr()
    return status, captured.out.decode("utf-8"), captured.err.decode("utf-8")


def test_ten_thousand_levels_are_reported_not_skipped(tmp_path, capsysbinary):
    r = Rows()
    deep = "[" * 10_000 + "]" * 10_000
    for turn, tail in (("t1", "a"), ("t2", "b")):
        r.add("s1", turn, '{"runtimeId":"d","tools":[' + deep + '],"messages":[{"role":"user","content":"' + tail + '"}]}')
    db = tmp_path / "covel.db"
    write_db(db, r.rows)
    status, out, err = _run(capsysbinary, str(db), "--json")
    assert status == 0 and "skipped" not in err
    assert '"firstRequestChars": [\n      20001,\n      20001\n    ]' in out
    assert '"shared": 20000' in out and '"firstDifference": "message 1 (user)"' in out


def test_null_session_and_odd_ids_in_warnings(tmp_path):
    warnings: list[str] = []
    rows = [(None, None, b"not json", "ev-1"), (b"\x01\x02", 7, None, "ev-2"), ("s", "t", b"null", None)]
    assert build_report(rows, warn=warnings.append) == []
    assert warnings[0].startswith("skipped trace_events row ev-1 (session null, turn null): payload is not JSON")
    assert warnings[1] == "skipped trace_events row ev-2 (session 1,2, turn 7): payload is NULL"
    assert warnings[2] == "skipped an llm.calling row (session s, turn t): payload is null"


def test_blob_payload_is_read_as_its_text_and_big_integers_do_not_crash(tmp_path, capsysbinary):
    r = Rows()
    r.add("s1", "t1", {"blob": kernel("b", _m("from a blob")).encode().hex()})
    r.add("s1", "t2", kernel("b", _m("from a blob!")))
    r.add(2**60, 2**60 + 1, kernel("n", _m("x")), id=2**62)
    r.add(2**60, 2**60, kernel("n", _m("xy")))
    db = tmp_path / "covel.db"
    write_db(db, r.rows, "loose")
    status, out, _ = _run(capsysbinary, str(db), "--json")
    assert status == 0
    assert '"sessionId": "s1"' in out and '"firstDifference": "message 1 (user)"' in out
    assert '"sessionId": 1152921504606847000' in out  # a double, as JavaScript would print it
    status, out, _ = _run(capsysbinary, str(db))
    assert status == 0 and "Session 1152921504606847000" in out


def test_invalid_utf8_ids_and_payloads_read_through_the_store(tmp_path):
    r = Rows()
    r.add({"text_hex": "73ff"}, {"text_hex": "74c3"}, {"text_hex": (b'{"runtimeId":"r\xff","messages":[]}').hex()})
    db = tmp_path / "covel.db"
    write_db(db, r.rows)
    with open_store(db) as store:
        rows = list(store.iter_llm_calling_rows())
    assert [row[:2] for row in rows] == [("s\ufffd", "t\ufffd")]
    (entry,) = build_report(rows)
    assert entry.session_id == "s\ufffd" and entry.runtime_id == "r\ufffd"
    assert "Session s\ufffd\n" in report_table([entry])


def test_tied_rows_come_in_write_order_whatever_their_ids(tmp_path):
    r = Rows()
    for n, rid in enumerate(["ev-9", "ev-1", "ev-5", "ev-0"]):
        r.add(f"s{n % 2}", f"t{n}", kernel("A", _m(str(n))), at=1, seq=0, id=rid)
    for schema in ("covel", "indexed"):
        db = tmp_path / f"{schema}.db"
        write_db(db, r.rows, schema)
        with open_store(db) as store:
            assert [row[3] for row in store.iter_llm_calling_rows()] == ["ev-9", "ev-1", "ev-5", "ev-0"]
            assert [row[3] for row in store.iter_llm_calling_rows("s0")] == ["ev-9", "ev-5"]
        with open_store(db) as store:
            report = report_json(build_report(store.iter_llm_calling_rows()))
        assert report.index('"sessionId": "s0"') < report.index('"sessionId": "s1"')


def _digest(folder: Path) -> tuple[list[str], str]:
    return sorted(os.listdir(folder)), hashlib.sha256((folder / "covel.db").read_bytes()).hexdigest()


@pytest.mark.parametrize("command", ["show", "cache"])
def test_show_and_cache_on_deep_payloads_give_results_or_a_row_message(tmp_path, command):
    r = Rows()
    for turn, leaf in (("t1", '"a"'), ("t2", '"b"')):
        deep = "[" * 1500 + leaf + "]" * 1500
        body = ('{"model":"gpt-4o","tools":[' + deep + '],"messages":[{"role":"user","content":[' + deep + ']}]}')
        r.add("s1", turn, '{"runtimeId":"d","providerRequests":[{"provider":"openai","url":"https://x.invalid",'
                          '"body":' + body + '}],"messages":[]}')
    db = tmp_path / "covel.db"
    write_db(db, r.rows)
    before = _digest(tmp_path)
    args = ["show", str(db), "ev-002", "--no-exact"] if command == "show" else ["cache", str(db)]
    done = subprocess.run([sys.executable, "-m", "inspector", *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "recursion limit was reached" not in done.stderr
    if command == "show":
        name, detail = done.stdout.split("\n", 1)
        assert name == "Turn 2 · d · step 1" and detail.startswith("ev-002  d  turn t2")
    else:
        assert "skipped trace_events row ev-002 (turn t2): the payload is nested deeper" in done.stderr
    assert _digest(tmp_path) == before
