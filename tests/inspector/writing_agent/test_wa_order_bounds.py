"""The order reader on hostile input: huge edit indexes and text built to make a fence search slow
(issue 17). The fence scan must find exactly what the original's pattern finds, in one pass."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from inspector.cli import main
from inspector.jsjson import JS_SPACE
from inspector.writing_agent.edits import (
    ERROR_ANCHOR_ARGS,
    ERROR_INDEX_OUT_OF_RANGE,
    ERROR_MOVE_ARGS,
    ERROR_PROJECTION_ARGS,
    apply_edit,
)
from inspector.writing_agent.order import (
    ContextOrder,
    Insert,
    OrderEditError,
    Slot,
    _fenced_object,
    extract_json_object_text,
)
from resources import resource_path

ORDER = resource_path("samples", "writing_agent") / "order.json"
REPO = Path(__file__).resolve().parents[3]

# The original's pattern, as this reader used it before: the reference the one-pass scan must equal.
OLD_FENCE = re.compile(f"```(?:json)?[{JS_SPACE}]*(\\{{[\\s\\S]*?\\}})[{JS_SPACE}]*```", re.IGNORECASE)


def _old(text: str) -> str | None:
    found = OLD_FENCE.search(text)
    return found.group(1) if found else None


# Pieces that matter to the pattern (fences, braces, the json word in odd cases, JS spaces, the
# Unicode case folds of "s"), so short random texts hit every branch; short, so the old pattern is fast.
PIECES = ["```", "`", "``", "````", "{", "}", "{}", "json", "JSON", "jSoN", "js", "jſon", " ", "\n", "\t",
          "\u3000", "\u00a0", "\ufeff", "x", '"a":1', '{"a":1}', "j"]
texts = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts)
@example("```json {}x```")
@example("```json\n{\"a\":1}\n```")
@example("````{}````")
@example("```JSON {a}``` ```{b}```")
@example("```json x``` ```{}```")
@example("``` ``` {}```")
def test_the_scan_finds_what_the_original_pattern_finds(text: str) -> None:
    assert _fenced_object(text) == _old(text)


# Near-misses of fenced blocks, glued together: openings with and without a brace, bodies with
# braces, closings with and without the fence, so that most texts hold a match somewhere.
_spaces = st.sampled_from(["", " ", "\n", " \u3000\t", "\ufeff"])
_block = st.tuples(st.sampled_from(["```", "``", "````", "x```"]), st.sampled_from(["", "json", "JSON", "jſon", "js"]),
                   _spaces, st.sampled_from(["{", "", "x{"]), st.sampled_from(["", '"a":1', "}", "{}", "``` {", "x"]),
                   st.sampled_from(["}", "", "}x", "}}"]), _spaces,
                   st.sampled_from(["```", "``", "", "````"])).map("".join)
blocks = st.lists(_block, min_size=1, max_size=6).map("".join)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(blocks)
def test_the_scan_agrees_on_near_misses_of_fenced_blocks(text: str) -> None:
    assert _fenced_object(text) == _old(text)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="`{}json \n\u3000x\"a:1,", max_size=60))
def test_the_scan_agrees_on_any_text_of_those_characters(text: str) -> None:
    assert _fenced_object(text) == _old(text)


def test_a_fenced_document_is_still_found() -> None:
    doc = {"schema": "context-order.v1", "slots": [{"ref": "gm", "inserts": [{"ref": "a", "order": 1}]}]}
    text = "prose ``` not this\n```json\n" + json.dumps(doc) + "\n```\ntrailing {"
    assert json.loads(extract_json_object_text(text)) == doc


def test_the_quadratic_input_is_read_at_once(tmp_path: Path) -> None:
    """Repeated "```json {}x" made the old backtracking pattern quadratic in the length of the file;
    the scan is linear now. Run in a child process under a generous timeout so that a regression
    fails instead of stalling the suite."""
    path = tmp_path / "draft.md"
    path.write_text("```json {}x" * 20_000, encoding="utf-8")
    digest, listing = hashlib.sha256(path.read_bytes()).hexdigest(), sorted(os.listdir(tmp_path))
    env = dict(os.environ, PYTHONPATH=str(REPO))
    done = subprocess.run([sys.executable, "-m", "inspector", "order", str(path)], env=env, capture_output=True,
                          text=True, timeout=20)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"prompt-inspector: {path}: no context-order.v1 document")
    assert len(done.stderr.splitlines()) == 1
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest and sorted(os.listdir(tmp_path)) == listing


# --- edit indexes past what a double holds ----------------------------------------------------


def _doc() -> ContextOrder:
    inserts = [Insert(ref="a", order=0), Insert(ref="b", order=1)]
    return ContextOrder(slots=[Slot(ref="narrator", label="叙事", inserts=inserts)])


HUGE = int("9" * 309)  # past the largest double: Infinity in JavaScript, so not a finite index
BIG_FINITE = 10 ** 300  # a double, but far out of range


@pytest.mark.parametrize(("request_", "message"), [
    ({"action": "move", "slotRef": "narrator", "index": HUGE, "delta": -1}, ERROR_MOVE_ARGS),
    ({"action": "move", "slotRef": "narrator", "index": -HUGE, "delta": 1}, ERROR_MOVE_ARGS),
    ({"action": "move", "slotRef": "narrator", "index": 0, "delta": HUGE}, ERROR_MOVE_ARGS),
    ({"action": "set_anchor", "slotRef": "narrator", "index": HUGE, "anchor": "pre_history"}, ERROR_ANCHOR_ARGS),
    ({"action": "set_projection", "slotRef": "narrator", "index": HUGE, "projection": "full"},
     ERROR_PROJECTION_ARGS),
    ({"action": "move", "slotRef": "narrator", "index": BIG_FINITE, "delta": -1}, ERROR_INDEX_OUT_OF_RANGE),
    ({"action": "move", "slotRef": "narrator", "index": -BIG_FINITE, "delta": 1}, ERROR_INDEX_OUT_OF_RANGE),
    ({"action": "set_projection", "slotRef": "narrator", "index": 2, "projection": "full"},
     ERROR_INDEX_OUT_OF_RANGE),
    ({"action": "set_projection", "slotRef": "narrator", "index": 0.5, "projection": "full"},
     ERROR_INDEX_OUT_OF_RANGE),
])
def test_huge_indexes_are_the_specs_messages(request_, message) -> None:
    with pytest.raises(OrderEditError) as caught:
        apply_edit(_doc(), request_)
    assert caught.value.message == message


def test_in_range_integer_indexes_still_edit() -> None:
    result = apply_edit(_doc(), {"action": "move", "slotRef": "narrator", "index": 1, "delta": -1})
    assert [i.ref for i in result.document.slots[0].inserts] == ["b", "a"]
    result = apply_edit(_doc(), {"action": "move", "slotRef": "narrator", "index": 1.0, "delta": -1})
    assert [i.ref for i in result.document.slots[0].inserts] == ["b", "a"]


@pytest.mark.parametrize("digits", [308, 309, 310, 311, 400])
def test_the_cli_answers_a_309_digit_index_with_one_line(capfdbinary, monkeypatch, digits) -> None:
    monkeypatch.setenv("PROMPT_INSPECTOR_LANG", "zh_CN")  # the spec's messages, verbatim
    op = '{"action":"move","slotRef":"narrator","index":%s,"delta":-1}' % ("9" * digits)
    code = main(["order", str(ORDER), "--apply", op])
    out, err = capfdbinary.readouterr()
    assert code == 2 and out == b""
    assert err.decode() in (f"prompt-inspector: {ERROR_MOVE_ARGS}\n", f"prompt-inspector: {ERROR_INDEX_OUT_OF_RANGE}\n")
    if digits >= 309:
        assert err.decode() == f"prompt-inspector: {ERROR_MOVE_ARGS}\n"
