"""The chatluna-renderer dialect on the cases of ``renderer_cases_more.json`` (recorded by
``make_renderer_cases.mjs`` from ``@chatluna/shared-prompt-renderer`` 1.0.5, beside the main
golden file): names that resolve through ``Object.prototype`` (``{constructor}``,
``{toString}``), the built-in methods a template reaches as properties (``{s.toUpperCase}``,
``{a.join}``, ``{x.toFixed}``), number formatting and arithmetic, whitespace around tags."""

from __future__ import annotations

import copy

import pytest
from test_renderer_golden import check_case, js_value, load, providers

from inspector.zones.renderer import render_template

DATA = load("renderer_cases_more.json")
CASES = DATA["cases"]


def test_the_file_covers_the_extra_ground():
    assert DATA["version"] == "1.0.5"
    assert len(CASES) >= 200
    assert set(DATA["function_definitions"]) <= set(providers())
    sources = {c["source"] for c in CASES}
    assert {"{constructor}", "{toString}", "{s.toUpperCase}", "{a.join}", "{x.toFixed}"} <= sources


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_recorded_case(case):
    check_case(case)


def test_values_are_not_modified_by_rendering():
    for case in CASES:
        values = js_value(case["variables"])
        before = copy.deepcopy(values)
        functions = {name: providers()[name] for name in case["functions"]}
        render_template(case["source"], values, functions)
        assert repr(values) == repr(before), case["name"]
