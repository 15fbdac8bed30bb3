"""Hostile input for the prompt-zones engine and its loaders: every one is bounded (a diagnostic, a
one-line message, or a budget), none raises, none hangs."""

from __future__ import annotations

import json
import os
import re
import threading
import tracemalloc
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector import safe_yaml
from inspector.cli import main
from inspector.writing_agent.scenario import ScenarioError, load_scenario
from inspector.zones import ConfigError, check, load_config, loads_config, render, simulate_turns
from inspector.zones import diagnostic as dg
from inspector.zones.blocks import MAX_TURNS
from inspector.zones.config import sample_path
from inspector.zones.diagnostics import SUGGEST_BUDGET
from inspector.zones.covel_templates import check_covel, example_variables, interpolate
from inspector.zones.covel_templates import references as covel_references
from inspector.zones.evaluate import DEFAULT_OUTPUT_LIMIT, MAX_OUTPUT_LIMIT, TOTAL_ITERATIONS
from inspector.zones.lexer import spans
from inspector.zones.template import IfBlock, parse_uncached


def _bomb(levels: int, width: int = 9) -> str:
    text = "a: &a [" + ", ".join(['"lol"'] * width) + "]\n"
    prev = "a"
    for name in "bcdefghijklmnop"[:levels]:
        text += f"{name}: &{name} [" + ", ".join([f"*{prev}"] * width) + "]\n"
        prev = name
    return text


# --- YAML aliases --------------------------------------------------------------------------------

def test_alias_bomb_is_refused_while_composing():
    text = _bomb(8)  # 9**9 values once expanded, in well under 1 KB
    assert len(text.encode()) < 1024
    with pytest.raises(safe_yaml.AliasLimitError) as info:
        safe_yaml.load(text)
    assert "alias" in info.value.problem and info.value.problem_mark is not None
    assert isinstance(info.value, yaml.YAMLError)


def test_aliases_at_the_bound_load_and_past_it_do_not():
    # One anchor of n scalars aliased k times adds k * (n + 1) nodes.
    def doc(times: int, n: int = 999) -> str:
        return "a: &a [" + ", ".join(["1"] * n) + "]\nb: [" + ", ".join(["*a"] * times) + "]\n"

    at = safe_yaml.MAX_ALIAS_NODES // 1000
    assert len(safe_yaml.load(doc(at))["b"]) == at
    with pytest.raises(safe_yaml.AliasLimitError):
        safe_yaml.load(doc(at + 1))
    with pytest.raises(safe_yaml.AliasLimitError):
        safe_yaml.load(doc(at * 50))


def test_ordinary_aliases_and_merge_keys_still_load():
    data = safe_yaml.load("a: &x {b: 1}\nc: *x\nd:\n  <<: *x\n  e: 2\n")
    assert data == {"a": {"b": 1}, "c": {"b": 1}, "d": {"b": 1, "e": 2}}
    assert safe_yaml.load("") is None
    assert safe_yaml.load("[1, 2]") == yaml.safe_load("[1, 2]")


def test_recursive_alias_is_refused():
    with pytest.raises(safe_yaml.AliasLimitError) as info:
        safe_yaml.load("a: &a [1, *a]\n")
    assert "without end" in info.value.problem


def test_zones_loader_refuses_the_bomb_with_a_message(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(_bomb(8) + "blocks: []\n", encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    message = str(info.value)
    assert message.startswith(str(path)) and "alias" in message and "line" in message
    assert "\n" not in message
    with pytest.raises(ConfigError):
        loads_config("a: &a [*a]\n", "yaml")


def test_scenario_loader_refuses_the_bomb_with_a_message(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(_bomb(8), encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert str(path) in str(info.value) and "too large" in str(info.value)


# --- helpers ---------------------------------------------------------------------------------------

def within(seconds: float, fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` in a worker thread; fails the test if it has not returned after
    ``seconds`` (a generous bound for what used to hang) and re-raises what it raised."""
    box: dict = {}

    def work() -> None:
        try:
            box["value"] = fn(*args, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            box["error"] = exc

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"{getattr(fn, '__name__', fn)} still running after {seconds} s"
    if "error" in box:
        raise box["error"]
    return box["value"]


def config(*contents: str, zone: str = "system", variables: list | None = None, settings: dict | None = None):
    data = {"blocks": [{"id": f"b{i}", "zone": zone, "template": True, "content": c} for i, c in enumerate(contents)],
            "variables": variables if variables is not None else [{"name": "xs", "example": ["a", "b"]}]}
    if settings:
        data["settings"] = settings
    return loads_config(json.dumps(data), "json")


# --- nesting ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("depth", [900, 1100, 5000, 30000])
def test_deeply_nested_if_lints_and_renders(depth):
    cfg = config("{if xs}" * depth + "deep" + "{/if}" * depth)
    diagnostics = within(60, check, cfg)
    assert [d for d in diagnostics if d.code != "unused-variable"] == []
    assert within(60, render, cfg).system == "deep"
    tree = parse_uncached(cfg.blocks[0].content)
    assert sum(1 for n in tree.walk() if isinstance(n, IfBlock)) == depth


@pytest.mark.parametrize("depth", [900, 1100, 3000, 20000])
def test_deeply_nested_for_lints_and_renders(depth):
    cfg = config("{for x in xs}" * depth + "{x}" + "{/for}" * depth,
                 variables=[{"name": "xs", "example": ["a"]}])
    assert [d.code for d in within(60, check, cfg)] == []
    result = within(60, render, cfg)
    if depth <= TOTAL_ITERATIONS:
        assert result.system == "a" and result.warnings == []
    else:  # each level is one iteration of the render's shared loop budget
        assert result.system == "" and [w.code for w in result.warnings] == [dg.LOOP_LIMIT]


@pytest.mark.parametrize("kind", ["if", "for", "while", "repeat"])
def test_deep_unclosed_and_mismatched_blocks_stay_linear(kind):
    head = {"if": "{if xs}", "for": "{for x in xs}", "while": "{while xs}", "repeat": "{repeat 1}"}[kind]
    other = "for" if kind != "for" else "if"
    n = 12000
    for source in (head * n, head * n + ("{/%s}" % other) * n):
        cfg = config(source)
        diagnostics = within(60, check, cfg)
        # Unclosed blocks and stray closers are reported, one each; nothing raises.
        assert sum(1 for d in diagnostics if d.code == dg.PARSE_ERROR) == n * (1 if source == head * n else 2)
        within(60, render, cfg)
    balanced = (head + "\n") * n + ("{/%s}\n" % kind) * n
    assert not any(d.code == dg.PARSE_ERROR for d in within(60, check, config(balanced)))
    within(60, render, config(balanced))


def test_standalone_tag_trimming_is_linear_and_unchanged():
    line = "  {if xs}  \n" * 20000 + "x\n" + "\t{/if}\r\n" * 20000
    tree = within(60, parse_uncached, line)
    from inspector.zones.evaluate import evaluate

    assert evaluate(tree, {"xs"}, lambda n, a: [1]).text == "x\n"
    same_line = "{if xs}{/if}" * 30000
    assert within(60, parse_uncached, same_line).diagnostics == ()


# --- budgets ---------------------------------------------------------------------------------------

def test_output_multiplying_loops_stop_at_the_output_limit():
    long = "x" * 1000
    cfg = config("{for a in xs}{for b in xs}{for c in xs}{a}{b}{c}{/for}{/for}{/for}",
                 variables=[{"name": "xs", "example": [long] * 100}])
    tracemalloc.start()
    try:
        result = within(60, render, cfg)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(result.system) <= DEFAULT_OUTPUT_LIMIT
    codes = [w.code for w in result.warnings]
    assert codes.count(dg.OUTPUT_LIMIT) == 1
    assert peak < 40 * DEFAULT_OUTPUT_LIMIT


def test_output_limit_is_a_setting_and_exact_at_its_boundary():
    cfg = config("{repeat 10}abcd{/repeat}", settings={"outputLimit": 40})
    result = render(cfg)
    assert result.system == "abcd" * 10 and result.warnings == []
    cfg = config("{repeat 10}abcd{/repeat}", settings={"outputLimit": 39})
    result = render(cfg)
    assert result.system == "abcd" * 9
    assert [w.code for w in result.warnings] == [dg.OUTPUT_LIMIT]
    assert "39" in result.warnings[0].message and "outputLimit" in result.warnings[0].message
    # The limit is shared by every block of the render.
    cfg = config("abcd", "abcd", "abcd", settings={"outputLimit": 10}, zone="context")
    result = render(cfg)
    assert [m.content for m in result.contexts] == ["abcd", "abcd"]
    assert [w.code for w in result.warnings] == [dg.OUTPUT_LIMIT]
    with pytest.raises(ConfigError):
        config("x", settings={"outputLimit": -1})


def test_output_limit_has_an_upper_bound_exact_at_its_boundary():
    # Up to MAX_OUTPUT_LIMIT is a setting; one past it is a config error naming the bound, so a
    # config cannot turn nested loops into gigabytes of text.
    assert config("x", settings={"outputLimit": MAX_OUTPUT_LIMIT}).settings.output_limit == MAX_OUTPUT_LIMIT
    assert MAX_OUTPUT_LIMIT == 64 * 1024 * 1024 > DEFAULT_OUTPUT_LIMIT
    for too_much in (MAX_OUTPUT_LIMIT + 1, 10**15):
        with pytest.raises(ConfigError) as raised:
            config("x", settings={"outputLimit": too_much})
        message = str(raised.value)
        assert "'outputLimit' may be at most 67,108,864 (64 Mi)" in message and f"{too_much}" in message
        assert "\n" not in message


def test_loop_budget_is_per_render_not_per_block():
    blocks = ["{repeat 100}{for a in xs}{a}{/for}{/repeat}"] * 2000
    cfg = config(*blocks, zone="context", variables=[{"name": "xs", "example": ["ab"] * 100}])
    result = within(60, render, cfg)
    # 10,000 iterations in all: the first block runs 100 + 9,900 of them, then the budget is spent.
    assert [w.code for w in result.warnings] == [dg.LOOP_LIMIT]
    assert sum(len(m.content) for m in result.contexts) < 2 * TOTAL_ITERATIONS
    rows = within(60, simulate_turns, cfg, 3)
    assert all([w.code for w in row.warnings] == [dg.LOOP_LIMIT] for row in rows)


def test_loop_budget_boundary():
    # 100 blocks of 100 iterations: exactly the budget, no report; one more iteration is reported.
    cfg = config(*["{repeat 100}.{/repeat}"] * 100, zone="context")
    result = render(cfg)
    assert result.warnings == [] and len(result.contexts) == 100
    cfg = config(*["{repeat 100}.{/repeat}"] * 100 + ["{repeat 1}!{/repeat}"], zone="context")
    result = render(cfg)
    assert [w.code for w in result.warnings] == [dg.LOOP_LIMIT] and len(result.contexts) == 100


def test_huge_numbers_do_not_raise():
    for source in ["{repeat " + "9" * 5000 + "}x{/repeat}", "{repeat 1e309}x{/repeat}",
                   "{repeat " + "9" * 400 + ".5}x{/repeat}", "{if xs == " + "9" * 5000 + "}x{/if}",
                   "{xs " + "1" * 5000 + "}"]:
        cfg = config(source)
        check(cfg)
        render(cfg)
    for value in [float("inf"), 10 ** 400, float("nan"), [10 ** 400]]:
        cfg = loads_config(json.dumps({"blocks": [{"id": "b", "zone": "system", "template": True,
                                                   "content": "{repeat n}x{/repeat}{n}{if n > 3}y{/if}"}],
                                       "variables": [{"name": "n", "example": value}]}), "json")
        result = render(cfg)
        assert len(result.system) <= 1000


# --- quadratic lint --------------------------------------------------------------------------------

@pytest.mark.parametrize("piece", ["{x y =}", "😀{x y =}", "{ 3 }", "😀{unknown}", "{/for}"])
def test_many_diagnostics_on_one_long_line(piece):
    cfg = config(piece * 32000)
    diagnostics = within(60, check, cfg)
    assert len(diagnostics) >= 32000
    last = max(diagnostics, key=lambda d: d.start)
    text = cfg.blocks[0].content
    assert last.start_utf16 == len(text[:last.start].encode("utf-16-le")) // 2
    assert last.line == 1 and last.column == last.start_utf16 + 1


def test_positions_match_the_direct_computation():
    text = "a😀b\n😀😀{c\n\nd😀e{"
    pos = dg.SourcePositions(text)
    for i in range(len(text) + 1):
        before = text[:i]
        line = before.count("\n") + 1
        column = len(before.rpartition("\n")[2].encode("utf-16-le")) // 2 + 1
        assert pos.utf16(i) == len(before.encode("utf-16-le")) // 2
        assert pos.line_column(i) == (line, column)


def test_many_unterminated_covel_variables():
    source = "{{ player.message " * 8000
    assert within(60, check_covel, source) == []
    source = "{{ player.message " * 8000 + "}}" + "<a>\n" * 8000 + "{{ world.name }}"
    refs = within(60, covel_references, source)
    assert len(refs) == 2 and refs[1].path == "world.name" and refs[1].tag is None


# --- command-line counts and files -----------------------------------------------------------------

SAMPLE = str(sample_path("json"))


def run_cli(capfdbinary, *args: str) -> tuple[int, str, str]:
    status = within(60, main, list(args))
    out, err = capfdbinary.readouterr()
    return status, out.decode("utf-8"), err.decode("utf-8")


@pytest.mark.parametrize("args", [["--turns", "100000000"], ["--turns", "1001"], ["--turns", "-1"],
                                  ["--turn", "100000000"], ["--turn", "1000"]])
def test_render_counts_are_bounded(capfdbinary, args):
    status, out, err = run_cli(capfdbinary, "render", SAMPLE, *args)
    assert status != 0 and out == ""
    assert err.count("\n") == 1 and "1000" in err and "Traceback" not in err


def test_render_turns_at_the_bound_runs(capfdbinary):
    status, out, _err = run_cli(capfdbinary, "render", SAMPLE, "--turns", str(MAX_TURNS), "--json")
    assert status == 0 and len(json.loads(out)) == MAX_TURNS


def test_fail_turns_far_away_do_not_hang(tmp_path):
    data = json.loads(Path(SAMPLE).read_text(encoding="utf-8"))
    data["environment"]["contributors"][0]["failTurns"] = [100_000_000]
    cfg = loads_config(json.dumps(data), "json")
    within(60, check, cfg)
    rows = within(120, simulate_turns, cfg)
    assert len(rows) == MAX_TURNS


def test_deep_vars_file_is_refused(capfdbinary, tmp_path):
    body = tmp_path / "RUNTIME.md"
    body.write_text("{{ world.name }}\n", encoding="utf-8")
    for depth in (65, 100_000):
        deep = tmp_path / f"deep{depth}.json"
        deep.write_text('{"a":' * depth + "1" + "}" * depth, encoding="utf-8")
        status, out, err = run_cli(capfdbinary, "render", str(body), "--vars", str(deep))
        assert status != 0 and out == ""
        assert err.count("\n") == 1 and str(deep) in err and "nested deeper than 64 levels" in err
    ok = tmp_path / "ok.json"
    ok.write_text('{"world": {"name": ' + '{"a":' * 60 + '"x"' + "}" * 60 + "}}", encoding="utf-8")
    status, out, _err = run_cli(capfdbinary, "render", str(body), "--vars", str(ok))
    assert status == 0 and '"a"' in out


@pytest.mark.parametrize("command", [["lint"], ["render"], ["render", "--covel"], ["lint", "--covel"], ["vars"]])
def test_fifos_are_refused_not_opened(capfdbinary, tmp_path, command):
    fifo = tmp_path / ("pipe.md" if "--covel" in command or command == ["vars"] else "pipe.json")
    if hasattr(os, "mkfifo"):
        os.mkfifo(fifo)
        what = "named pipe"
    else:  # no named pipes here: a folder under a file's name takes the same path
        fifo.mkdir()
        what = "directory"
    body = tmp_path / "RUNTIME.md"
    body.write_text("x\n", encoding="utf-8")
    before = sorted(p.name for p in tmp_path.iterdir())
    if command == ["vars"]:
        status, out, err = run_cli(capfdbinary, "render", str(body), "--vars", str(fifo))
    else:
        status, out, err = run_cli(capfdbinary, *command, str(fifo))
    assert status != 0 and out == ""
    assert str(fifo) in err and what in err and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert body.read_text(encoding="utf-8") == "x\n"


# --- random hostile templates ----------------------------------------------------------------------

_PIECES = [
    "{if xs}", "{if n > 2}", "{if s == \"a\"}", "{elseif n}", "{else}", "{/if}", "{for x in xs}", "{for x in n}",
    "{for x in obj}", "{/for}", "{while n}", "{while true}", "{/while}", "{repeat 3}", "{repeat 1e309}",
    "{repeat 99999999999999999999999}", "{repeat " + "9" * 4400 + "}", "{repeat -1.5}", "{repeat n}", "{/repeat}",
    "{x}", "{x.length}", "{xs.0}", "{obj}", "{obj.k.k}", "{s}", "{f a b}", "{f \"q\" 'r'}", "{prompt}", "{true}",
    "{{", "}}", "{", "}", "\"", "'", "\\", "{ 3 }", "{\"json\": 1}", "{bad =}", "{/nothing}", "{if}", "{for}",
    "😀", "\r\n", "\n", " ", "\t", "\u2028", "\x00", "\ufeff", "text", "中文",
    "{{ player.message }}", "{{ world.name", "<a>\n", "</a>", "{{ }}", "{{}}", "{{ inputs.x.y }}",
]
_VARIABLES = [
    {"name": "xs", "example": ["a", "b", "c"]},
    {"name": "n", "values": [0, 3, 2.5, float("inf")]},
    {"name": "s", "example": "a"},
    {"name": "x", "example": 10 ** 30},
    {"name": "obj", "example": {"k": {"k": [1, None]}}},
    {"name": "f", "args": ["a", {"name": "b", "optional": True}], "example": {"*": "F"}},
]

hostile_templates = st.lists(st.one_of(st.sampled_from(_PIECES), st.text(max_size=8)), max_size=60).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(contents=st.lists(hostile_templates, min_size=1, max_size=4),
       zones=st.lists(st.sampled_from(["system", "context", "input"]), min_size=4, max_size=4),
       nesting=st.integers(0, 3000))
def test_random_templates_never_raise(contents, zones, nesting):
    if nesting > 2500:  # now and then, one block nests far past the recursion limit
        contents = contents + ["{if xs}" * nesting + contents[0] + "{/if}" * (nesting // 2)]
    data = {"blocks": [{"id": f"b{i}", "zone": zones[i % 4], "order": i, "template": True, "content": c}
                       for i, c in enumerate(contents)],
            "variables": _VARIABLES, "settings": {"outputLimit": 20000}, "sampleInput": "hi"}
    cfg = loads_config(json.dumps(data), "json")

    def everything():
        diagnostics = check(cfg)
        result = render(cfg, 1)
        rows = simulate_turns(cfg, 3)
        for c in contents:
            spans(c)
            spans(c, "covel")
            check_covel(c, front_matter=True)
            interpolate(c, example_variables(), front_matter=True)
        return diagnostics, result, rows

    diagnostics, result, rows = within(60, everything)
    assert all(d.code in dg.CODES for d in diagnostics + result.warnings)
    assert sum(len(m.content) for m in result.messages) <= 20000 + sum(len(c) for c in contents) + 200
    assert len(rows) == 3


# --- work that multiplies without loops ---------------------------------------------------------------

def test_big_list_read_by_many_tags_is_converted_once():
    big = list(range(200_000))
    source = "{if big == 1}y{/if}{if big > 1}y{/if}{repeat big}{/repeat}{f big}" * 5000 + "{big.length}"
    cfg = loads_config(json.dumps({"blocks": [{"id": "b", "zone": "system", "template": True, "content": source}],
                                   "variables": [{"name": "big", "example": big},
                                                 {"name": "f", "args": ["a"], "example": {"*": "F"}}]}), "json")
    result = within(60, render, cfg)
    assert result.system == "F" * 5000 + "200000"
    assert within(60, check, cfg) == []


def test_many_distinct_unknown_names_against_many_variables():
    names = [f"variable_{i}" for i in range(3000)]
    source = "".join("{%s}" % n for n in names) + "".join("{variabl_%d}" % i for i in range(3000))
    cfg = loads_config(json.dumps({"blocks": [{"id": "b", "zone": "system", "template": True, "content": source}],
                                   "variables": [{"name": n, "example": n} for n in names]}), "json")
    diagnostics = within(60, check, cfg)
    unknown = [d for d in diagnostics if d.code == dg.UNKNOWN_VARIABLE]
    assert len(unknown) == 3000
    # Hints while the comparison budget lasts (one known name per comparison), then none.
    assert unknown[0].message == "unknown variable 'variabl_0'; did you mean 'variable_0'?"
    hinted = sum(1 for d in unknown if "did you mean" in d.message)
    assert hinted == SUGGEST_BUDGET // (len(names) + 1)
    assert unknown[-1].message == "unknown variable 'variabl_2999'"


def test_many_input_blocks_chain():
    # Each link writes the previous one's text again: 1,000 links write about a million characters.
    cfg = config(*(["[{prompt}]"] * 1000), zone="input")
    result = within(60, render, cfg)
    assert result.input == "[" * 1000 + "]" * 1000
    assert result.warnings == []
    # 3,000 write nine million: the render's output limit stops it.
    cfg = config(*(["[{prompt}]"] * 3000), zone="input")
    result = within(60, render, cfg)
    assert [w.code for w in result.warnings] == [dg.OUTPUT_LIMIT]


def test_many_distinct_nested_loop_names_lint_linearly():
    n = 20000
    source = "".join("{for v%d in xs}" % i for i in range(n)) + "{v1}{v%d.x}{xs}" % (n - 1) + "{/for}" * n
    cfg = config(source)
    assert within(60, check, cfg) == []
    result = within(60, render, cfg)
    assert [w.code for w in result.warnings] == [dg.LOOP_LIMIT]


# --- random hostile configs --------------------------------------------------------------------------

_leaf = st.one_of(st.none(), st.booleans(), st.integers(-10 ** 20, 10 ** 20), st.floats(allow_nan=True),
                  st.text(max_size=6), st.sampled_from(["system", "input", "a.b", "{x}", "{for i in xs}{i}{/for}"]))
_value = st.recursive(_leaf, lambda c: st.one_of(st.lists(c, max_size=4),
                                                 st.dictionaries(st.sampled_from(["a", "k", "*", "xs"]), c, max_size=3)),
                      max_leaves=12)
_block = st.fixed_dictionaries(
    {"id": st.one_of(st.text(max_size=3), _value), "zone": st.sampled_from(["system", "context", "input"])},
    optional={"order": _value, "role": st.sampled_from(["system", "user", "assistant"]),
              "content": st.one_of(hostile_templates, st.sampled_from(["{xs}", "{prompt}", "{f 1 2}", "{repeat n}r{/repeat}"])),
              "template": st.booleans(), "complete": st.booleans(), "purpose": st.sampled_from(["persona", "tools"])})
_variable = st.fixed_dictionaries(
    {"name": st.sampled_from(["xs", "n", "f", "prompt", "obj"])},
    optional={"example": _value, "values": _value, "env": st.sampled_from(["a", "a.b", "k"]), "mutable": st.booleans(),
              "zones": st.lists(st.sampled_from(["system", "context", "input"])),
              "args": st.lists(st.sampled_from(["a", "b"]), max_size=2)})
_contributor = st.fixed_dictionaries(
    {"id": st.text(max_size=3)},
    optional={"patch": st.one_of(st.dictionaries(st.sampled_from(["a", "k"]), _value, max_size=2),
                                 st.lists(st.dictionaries(st.sampled_from(["a"]), _value, max_size=2), max_size=3)),
              "failTurns": st.lists(st.integers(0, 10 ** 9), max_size=2), "fail": st.booleans()})
_settings = st.dictionaries(
    st.sampled_from(["loopCap", "outputLimit", "pinning", "inputMode", "noteCompare", "pinCompare", "environmentMerge",
                     "noteDetail", "sectionNames", "standaloneTags", "completeOutsideSystem"]),
    st.one_of(st.integers(0, 10 ** 12), st.booleans(),
              st.sampled_from(["chain", "first", "last", "previous", "pinned", "environment", "all-variables", "deep",
                               "names", "all", "keep", "error"])), max_size=4)
hostile_configs = st.fixed_dictionaries(
    {"blocks": st.lists(_block, max_size=5), "variables": st.lists(_variable, max_size=4)},
    optional={"environment": st.fixed_dictionaries({}, optional={
        "base": st.dictionaries(st.sampled_from(["a", "k"]), _value, max_size=2),
        "turns": st.lists(st.dictionaries(st.sampled_from(["a", "k"]), _value, max_size=2), max_size=3),
        "contributors": st.lists(_contributor, max_size=2)}),
        "settings": _settings, "sampleInput": st.text(max_size=5)})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=hostile_configs)
def test_random_configs_load_or_are_refused_and_never_raise(data):
    try:
        cfg = loads_config(json.dumps(data), "json")
    except ConfigError as exc:
        assert "\n" not in str(exc)
        return

    def everything():
        check(cfg)
        render(cfg, 2)
        return simulate_turns(cfg, 3)

    assert len(within(60, everything)) == 3


def test_every_yaml_reader_goes_through_safe_yaml():
    root = Path(__file__).resolve().parents[3]
    direct = re.compile(r"(?<![\w.])yaml\.(?:safe_|full_|unsafe_)?load(?:_all)?\(")
    offenders = [str(p.relative_to(root)) for folder in ("inspector", "ui") for p in (root / folder).rglob("*.py")
                 if p.name != "safe_yaml.py" and direct.search(p.read_text(encoding="utf-8"))]
    assert offenders == []
    assert direct.search("data = yaml.safe_load(text)") and not direct.search("safe_yaml.load(text)")
