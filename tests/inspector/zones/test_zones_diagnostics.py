"""Every diagnostic of the static check, with its severity, block, span and field."""

from __future__ import annotations

from inspector.zones import diagnostic as dg
from inspector.zones import Block, PromptConfig
from inspector.zones.config import Settings, from_data, load_config, sample_path
from inspector.zones.blocks import failed_result
from inspector.zones.diagnostics import (
    attribute, check, combined_problems, order_ties, registered_blocks, worst_by_block,
)


def diags(blocks=(), variables=(), settings=None, environment=None):
    data = {"blocks": list(blocks), "variables": list(variables)}
    if settings:
        data["settings"] = settings
    if environment:
        data["environment"] = environment
    return check(from_data(data))


def codes(found, *, skip=(dg.UNUSED_VARIABLE,)):
    return [(d.code, d.severity, d.block_id) for d in found if d.code not in skip]


def tb(bid, content, zone="system", order=0, **kw):
    return {"id": bid, "zone": zone, "order": order, "content": content, "template": True, **kw}


def test_the_sample_has_no_errors() -> None:
    found = check(load_config(sample_path()))
    assert [(d.code, d.severity, d.block_id, d.variable) for d in found] == [
        (dg.MUTABLE_IN_SYSTEM, dg.WARNING, "preset:persona", "date")]


def test_unknown_variable_with_span_and_suggestion() -> None:
    (d,) = diags([tb("b", "hi {usr_name}!")], [{"name": "user_name"}], )[:1]
    assert (d.code, d.severity, d.block_id, d.start, d.end) == (dg.UNKNOWN_VARIABLE, dg.ERROR, "b", 4, 12)
    assert "did you mean 'user_name'" in d.message
    found = diags([tb("b", "{if ghost}x{/if}{for a in nothing}{/for}{repeat times}{/repeat}")])
    assert [d.variable for d in found if d.code == dg.UNKNOWN_VARIABLE] == ["ghost", "nothing", "times"]


def test_loop_names_and_dotted_names_are_known() -> None:
    found = diags([tb("b", "{for m in members}{m.name}{/for}{user.name}", zone="context")],
                  [{"name": "members"}, {"name": "user"}])
    assert codes(found) == []


def test_zone_not_allowed() -> None:
    found = diags([tb("b", "{time}", zone="system")], [{"name": "time", "zones": ["context"]}])
    (d,) = found
    assert (d.code, d.severity, d.throws) == (dg.ZONE_NOT_ALLOWED, dg.ERROR, True)
    assert "VariableZoneError" in d.message
    (d,) = diags([tb("b", "{prompt}", zone="context")])
    assert d.code == dg.ZONE_NOT_ALLOWED and "input zone" in d.message


def test_mutable_in_system_declared_or_varying() -> None:
    found = diags([tb("b", "{mood}")], [{"name": "mood", "mutable": True}])
    assert codes(found) == [(dg.MUTABLE_IN_SYSTEM, dg.ERROR, "b")] and found[0].throws
    found = diags([tb("b", "{day}")], [{"name": "day", "values": ["Mon", "Tue"]}])
    assert codes(found) == [(dg.MUTABLE_IN_SYSTEM, dg.WARNING, "b")]
    found = diags([tb("b", "{g}")], [{"name": "g", "env": "guild"}],
                  environment={"base": {"guild": "A"}, "turns": [{}, {"guild": "B"}]})
    assert codes(found) == [(dg.MUTABLE_IN_SYSTEM, dg.WARNING, "b")]
    # The same variable in a context block is fine.
    assert codes(diags([tb("b", "{mood}", zone="context")], [{"name": "mood", "mutable": True}])) == []


def test_a_mutable_variable_reached_only_through_a_for_list() -> None:
    found = diags([tb("b", "{for m in members}{m}{/for}")], [{"name": "members", "mutable": True}])
    assert codes(found) == [(dg.MUTABLE_IN_SYSTEM, dg.ERROR, "b")]
    assert (found[0].start, found[0].end) == (10, 17)


def test_arg_count() -> None:
    variables = [{"name": "lore", "args": ["keyword", {"name": "limit", "optional": True}]}, {"name": "plain"}]
    ok = diags([tb("b", '{lore "a"}{lore "a" 2}')], variables)
    assert codes(ok) == []
    found = diags([tb("b", '{lore}{lore 1 2 3}{plain "x"}{if lore}x{/if}')], variables)
    assert [(d.code, d.start, d.end) for d in found] == [
        (dg.ARG_COUNT, 0, 6), (dg.ARG_COUNT, 6, 18), (dg.ARG_COUNT, 18, 29), (dg.ARG_COUNT, 29, 38)]
    assert "takes 1 to 2 arguments (keyword limit), given 3" in found[1].message
    assert "takes no arguments, given 1" in found[2].message


def test_duplicate_id() -> None:
    found = diags([tb("a", "x"), tb("a", "{nothing}")])
    assert codes(found) == [(dg.DUPLICATE_ID, dg.ERROR, "a")]
    assert found[0].field == "id" and found[0].throws


def test_order_out_of_range_and_band() -> None:
    found = diags([tb("low", "x", order=-301), tb("high", "x", order=300), tb("ctx", "x", zone="context", order=9999)])
    assert codes(found) == [(dg.ORDER_OUT_OF_RANGE, dg.ERROR, "low"), (dg.ORDER_OUT_OF_RANGE, dg.ERROR, "high")]
    assert found[0].field == "order" and "-300..299" in found[0].message
    found = diags([tb("safety", "x", order=-90, purpose="safety"), tb("tools", "x", order=150, purpose="tools"),
                   tb("c", "x", zone="context", purpose="tools")])
    assert codes(found) == [(dg.ORDER_BAND, dg.WARNING, "safety"), (dg.ORDER_BAND, dg.WARNING, "c")]
    assert "outside the safety band (-100)" in found[0].message


def test_input_missing_prompt() -> None:
    found = diags([tb("i", "[{who}]", zone="input")], [{"name": "who"}])
    assert codes(found) == [(dg.INPUT_MISSING_PROMPT, dg.ERROR, "i")]
    found = diags([{"id": "i", "zone": "input", "content": "[{prompt}]"}])
    assert codes(found) == [(dg.INPUT_MISSING_PROMPT, dg.ERROR, "i")]
    assert "not a template" in found[0].message and (found[0].start, found[0].end) == (1, 9)
    assert codes(diags([tb("i", "{if x}{prompt}{else}({prompt}){/if}", zone="input")], [{"name": "x"}])) == []


def test_multiple_complete() -> None:
    found = diags([tb("a", "A", complete=True), tb("b", "B", order=2, complete=True), tb("c", "C", order=1)])
    assert codes(found) == [(dg.MULTIPLE_COMPLETE, dg.ERROR, "a"), (dg.MULTIPLE_COMPLETE, dg.ERROR, "b")]
    assert codes(diags([tb("a", "A", complete=True), tb("c", "C", order=1)])) == []


def test_complete_outside_system() -> None:
    found = diags([tb("c", "x", zone="context", complete=True)])
    assert codes(found) == [(dg.COMPLETE_OUTSIDE_SYSTEM, dg.WARNING, "c")]
    found = diags([tb("c", "x", zone="context", complete=True)], settings={"completeOutsideSystem": "error"})
    assert codes(found) == [(dg.COMPLETE_OUTSIDE_SYSTEM, dg.ERROR, "c")]


def test_parse_errors_carry_the_block() -> None:
    found = diags([tb("p", "x {if a}y")], [{"name": "a"}])
    assert codes(found) == [(dg.PARSE_ERROR, dg.ERROR, "p")] and (found[0].start, found[0].end) == (2, 8)


def test_loop_limit_for_a_constant_while() -> None:
    found = diags([tb("w", '{while true}x{/while}{while "y"}z{/while}{while 0}n{/while}')])
    assert codes(found) == [(dg.LOOP_LIMIT, dg.WARNING, "w"), (dg.LOOP_LIMIT, dg.WARNING, "w")]


def test_order_tie() -> None:
    found = diags([tb("a", "x", order=10), tb("b", "x", order=10), tb("c", "x", order=10, zone="context"),
                   tb("d", "x", order=10, zone="context")])
    assert codes(found) == [(dg.ORDER_TIE, dg.WARNING, "b"), (dg.ORDER_TIE, dg.WARNING, "d")]
    assert "'a'" in found[0].message and found[0].field == "order"


def test_unused_variable() -> None:
    found = diags([tb("a", "{used}"), {"id": "plain", "zone": "system", "order": 1, "content": "{{unused}}"}],
                  [{"name": "used"}, {"name": "unused"}])
    assert [(d.code, d.block_id, d.variable, d.field) for d in found] == [
        (dg.UNUSED_VARIABLE, None, "unused", "variables")]


def test_shadowed_variable_and_bare_word() -> None:
    found = diags([tb("b", "{for x in xs}{x}{/for}{say hello}")],
                  [{"name": "x"}, {"name": "xs"}, {"name": "say", "args": ["w"]}])
    assert codes(found) == [(dg.SHADOWED_VARIABLE, dg.WARNING, "b"), (dg.BARE_WORD, dg.INFO, "b")]
    assert (found[0].start, found[0].end) == (5, 6)


def test_template_off_warns_when_braces_name_a_variable() -> None:
    found = diags([{"id": "b", "zone": "system", "content": "hi {user}"}], [{"name": "user"}])
    assert codes(found, skip=()) == [(dg.TEMPLATE_OFF, dg.WARNING, "b"), (dg.UNUSED_VARIABLE, dg.WARNING, None)]


def test_json_form_uses_utf16_offsets() -> None:
    (d,) = diags([tb("b", "😀{ghost}")])
    data = d.to_json()
    assert {k: data[k] for k in ("code", "severity", "blockId", "start", "end")} == {
        "code": "unknown-variable", "severity": "error", "blockId": "b", "start": 3, "end": 8}
    assert (d.start, d.end) == (2, 7) and data["message"] == "unknown variable 'ghost'"


def test_check_does_not_reparse_unchanged_blocks() -> None:
    from inspector.zones.template import parse

    parse.cache_clear()
    config = load_config(sample_path())
    check(config)
    misses = parse.cache_info().misses
    config.blocks[0].content += " 改"
    check(config)
    assert parse.cache_info().misses == misses + 1


def test_attribute_pairs_duplicate_ids_with_the_later_blocks() -> None:
    blocks = [Block("a", "system", "x"), Block("b", "system", "{nope}", template=True), Block("a", "context", "y"),
              Block("a", "input", "z")]
    rows = attribute(blocks, check(PromptConfig(blocks=blocks)))
    duplicates = [i for d, i in rows if d.code == dg.DUPLICATE_ID]
    assert duplicates == [2, 3]
    assert [i for d, i in rows if d.code == dg.UNKNOWN_VARIABLE] == [1]


def test_the_worst_problem_of_each_block() -> None:
    def diag(severity, message):
        return dg.field_diagnostic(dg.ORDER_TIE, severity, message, "a", "order")

    rows = [(diag(dg.INFO, "note"), 0), (diag(dg.WARNING, "w1"), 0), (diag(dg.WARNING, "w2"), 0),
            (diag(dg.ERROR, "e"), 1), (diag(dg.ERROR, "config-wide"), None)]
    assert worst_by_block(rows) == {0: (dg.WARNING, 3, "w1"), 1: (dg.ERROR, 1, "e")}
    assert [dg.severity_rank(s) for s in (dg.ERROR, dg.WARNING, dg.INFO, "other")] == [0, 1, 2, 3]


def test_ties_are_among_the_blocks_chatluna_registers() -> None:
    blocks = [Block("a", "system", "x", 10), Block("b", "system", "y", 10), Block("a", "system", "z", 10),
              Block("c", "context", "w", 10), Block("d", "context", "v", 10, complete=True)]
    config = PromptConfig(blocks=blocks)
    assert registered_blocks(config) == [0, 1, 3, 4]
    assert order_ties(config) == {("system", 10): [0, 1], ("context", 10): [3, 4]}
    strict = PromptConfig(blocks=blocks, settings=Settings(complete_outside_system="error"))
    assert registered_blocks(strict) == [0, 1, 3]
    assert order_ties(strict) == {("system", 10): [0, 1]}
    # The check's tie warnings are the same groups: every block after the first of each.
    tied = [i for d, i in attribute(blocks, check(config)) if d.code == dg.ORDER_TIE]
    assert tied == [1, 4]


def test_severities_are_counted_with_anything_else_as_a_note() -> None:
    found = [dg.field_diagnostic(dg.ORDER_TIE, severity, "m", "a", "order")
             for severity in (dg.ERROR, dg.WARNING, dg.WARNING, dg.INFO, "hint")]
    assert dg.severity_counts(found) == {dg.ERROR: 1, dg.WARNING: 2, dg.INFO: 2}
    assert dg.severity_counts([]) == {dg.ERROR: 0, dg.WARNING: 0, dg.INFO: 0}


def test_the_problems_are_the_checks_and_what_rendering_found_besides() -> None:
    tie = dg.field_diagnostic(dg.ORDER_TIE, dg.WARNING, "tie", "a", "order")
    unused = dg.field_diagnostic(dg.UNUSED_VARIABLE, dg.WARNING, "unused", None, "variables")
    twice = dg.field_diagnostic(dg.MULTIPLE_COMPLETE, dg.ERROR, "two complete", "a", "complete")
    # A render error the check already names is not repeated; a warning it did not give is added.
    result = failed_result(0, twice, warnings=[tie, unused])
    assert combined_problems([tie, twice], result) == [tie, twice, unused]
    crash = dg.failure(RuntimeError("boom"), "render")
    assert combined_problems([tie], failed_result(0, crash)) == [tie, crash]
    other = dg.field_diagnostic(dg.ARG_COUNT, dg.ERROR, "args", "a", "content")
    assert combined_problems([tie], failed_result(0, other)) == [tie, other]
