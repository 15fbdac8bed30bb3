"""The chatluna-renderer dialect against texts recorded from the real renderer
(``renderer_cases.json``, written by ``make_renderer_cases.mjs`` with
``@chatluna/shared-prompt-renderer`` 1.0.5): every case's text byte for byte, the variables it
read, whether the render fails, and the console warnings as diagnostics. ``check_case`` and the
providers serve ``test_renderer_cases.py`` too (``renderer_cases_more.json``)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from inspector.jsjson import UNDEFINED, js_stringify, js_to_number
from inspector.zones import diagnostic as dg
from inspector.zones.renderer import render_detailed, render_template


def load(name: str) -> dict:
    return json.loads(Path(__file__).with_name(name).read_text(encoding="utf-8"))


DATA = load("renderer_cases.json")
CASES = DATA["cases"]

_TAGGED = {"undefined": UNDEFINED, "NaN": math.nan, "Infinity": math.inf, "-Infinity": -math.inf, "-0": -0.0}


def js_value(value: Any) -> Any:
    """A recorded variable as a JS value: tagged objects become undefined/NaN/±Infinity/-0,
    integers become numbers (doubles, as JSON.parse makes them)."""
    if isinstance(value, dict):
        if set(value) == {"$js"}:
            return _TAGGED[value["$js"]]
        return {k: js_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [js_value(v) for v in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


class _Failure(Exception):
    pass


def providers() -> dict[str, Any]:
    """Python twins of the recorder's functions (``function_definitions``), fresh per case."""
    calls = {"more": 0}

    def upper(args, _vars):
        if not args:
            return ""
        return "".join(chr(ord(c) - 32) if "a" <= c <= "z" else c for c in args[0])

    def more(_args, _vars):
        calls["more"] += 1
        return calls["more"] <= 3

    def fail(_args, _vars):
        raise _Failure("boom")

    def lookup(args, variables):
        return variables.get(args[0], UNDEFINED) if args else UNDEFINED

    return {
        "upper": upper,
        "join": lambda args, _v: "-".join(args),
        "add": lambda args, _v: js_to_number(args[0]) + js_to_number(args[1]) if len(args) > 1 else math.nan,
        "echo_args": lambda args, _v: js_stringify(list(args)),
        "count_args": lambda args, _v: float(len(args)),
        "get_user": lambda _a, _v: {"name": "Alice", "age": 30.0, "tags": ["a", "b"], "profile": {"city": "Beijing"}},
        "list3": lambda _a, _v: [1.0, 2.0, 3.0],
        "nothing": lambda _a, _v: UNDEFINED,
        "yes": lambda _a, _v: True,
        "zero": lambda _a, _v: 0.0,
        "fail": fail,
        "more": more,
        "lookup": lookup,
        "name": lambda _a, _v: "from-function",
        # renderer_cases_more.json's two
        "echo": lambda args, _v: "|".join(args),
        "k": lambda _a, _v: "K",
    }


def _functions(case: dict) -> dict[str, Any]:
    available = providers()
    missing = set(case["functions"]) - set(available)
    assert not missing, f"the test has no provider for {sorted(missing)}"
    return {name: available[name] for name in case["functions"]}


def test_the_file_covers_enough():
    assert DATA["version"] == "1.0.5"
    assert len(CASES) >= 80
    assert len({c["name"] for c in CASES}) == len(CASES)
    assert set(DATA["function_definitions"]) <= set(providers())


def check_case(case: dict) -> None:
    """Render one recorded case and compare everything the recorder wrote down."""
    out = render_detailed(case["source"], js_value(case["variables"]), _functions(case), spans=False)
    errors = [d for d in out.diagnostics if d.severity == dg.ERROR and d.code in (dg.PARSE_ERROR, dg.UNKNOWN_FUNCTION)]
    if case["error"] is not None:
        assert out.failed, f"the renderer rejects this ({case['error']}); we rendered {out.text!r}"
        assert out.text == ""
        assert errors, "a failing render must say why with an error"
        return
    assert not out.failed, [d.message for d in out.diagnostics]
    assert out.text.encode("utf-16-le", "surrogatepass") == case["text"].encode("utf-16-le", "surrogatepass")
    assert list(out.variables) == case["variables_read"]
    codes = [d.code for d in out.diagnostics]
    for warning in case["warnings"]:
        if warning.startswith("While loop exceeded"):
            assert dg.LOOP_LIMIT in codes
        elif warning.startswith("Repeat count must be a number"):
            assert dg.VALUE_TYPE in codes
        elif warning.startswith("Failed to call function"):
            assert dg.INTERNAL_ERROR in codes
        else:
            pytest.fail(f"unrecognised recorded warning {warning!r}")
    if not case["warnings"]:
        assert dg.LOOP_LIMIT not in codes


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_recorded_case(case):
    check_case(case)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_public_api_agrees(case):
    """``render_template`` gives the same text and names as the detailed form."""
    out = render_template(case["source"], js_value(case["variables"]), _functions(case))
    if case["error"] is None:
        assert out.text == case["text"]
        assert list(out.variables) == case["variables_read"]
    else:
        assert out.text == ""
        assert any(d.severity == dg.ERROR for d in out.diagnostics)
