"""``settings.dialect``: a zones config in the ``chatluna-renderer`` dialect renders, checks and
highlights its template blocks with the renderer; ``v2-doc`` (the default) keeps the present
language."""

from __future__ import annotations

import json

from inspector.cli import main
from inspector.zones import check, render
from inspector.zones import diagnostic as dg
from inspector.zones.config import from_data
from inspector.zones.lexer import spans
from inspector.zones.renderer import render_template

BRANCHES = "{if d}\n私聊\n{else}\n群\n{/if}\nend"


def config(blocks, variables=(), dialect="chatluna-renderer", sample="hello"):
    data = {"blocks": list(blocks), "variables": list(variables), "sampleInput": sample}
    if dialect is not None:
        data["settings"] = {"dialect": dialect}
    return from_data(data)


def block(bid, content, zone="system", order=0, **kw):
    return {"id": bid, "zone": zone, "order": order, "template": True, "content": content, **kw}


VARIABLES = [{"name": "d", "example": False}, {"name": "n", "example": "1"},
             {"name": "user", "example": {"name": "Ann", "tags": ["a", "b"]}}]


def test_blocks_render_as_the_renderer_renders_them():
    blocks = [block("s", BRANCHES), block("x", "{user.name} {user.tags} {n == 1} {n > 0} {user.tags.length + 1}",
                                          order=1)]
    result = render(config(blocks, VARIABLES))
    texts = {b.block_id: b.text for b in result.blocks}
    values = {"d": False, "n": "1", "user": {"name": "Ann", "tags": ["a", "b"]}}
    assert texts["s"] == render_template(BRANCHES, values).text == "\n群\n\nend"
    assert texts["x"] == "Ann a,b false true 3"
    assert result.system == "\n群\n\nend\n\nAnn a,b false true 3"
    assert result.error is None and result.warnings == []
    assert result.values == values


def test_v2_doc_stays_the_default():
    v2 = render(config([block("s", BRANCHES)], VARIABLES, dialect=None))
    assert v2.system == "群\nend"
    explicit = render(config([block("s", BRANCHES)], VARIABLES, dialect="v2-doc"))
    assert explicit.system == "群\nend"


def test_input_zone_reads_the_prompt_and_the_source_maps_to_the_text():
    result = render(config([block("i", "> {prompt}!", zone="input")]), input_text="你好")
    assert result.input == "> 你好!"
    rendered = result.block("i")
    assert rendered.source_to_text(0) == 0 and rendered.source_to_text(2) == 2
    assert rendered.text_to_source(len("> 你好")) == len("> {prompt}")


def test_a_render_chatluna_would_fail_leaves_the_block_empty_with_an_error():
    result = render(config([block("s", "x{if )}y{/if}"), block("t", "kept", order=1)]))
    assert result.system == "kept"
    assert result.block("s").target == "empty"
    assert any(w.code == dg.PARSE_ERROR and w.severity == dg.ERROR and w.block_id == "s" for w in result.warnings)


def test_runtime_warnings_reach_the_result():
    result = render(config([block("s", "{while true}.{/while}")]))
    assert len(result.system) == 10_000
    assert [(w.code, w.block_id) for w in result.warnings] == [(dg.LOOP_LIMIT, "s")]


def test_check_uses_the_renderer_rules():
    blocks = [block("s", "{user.name}{nope}{f(1)}{if d}x", order=0),
              block("c", "{prompt}", zone="context"),
              block("i", "{n}", zone="input"),
              {"id": "raw", "zone": "system", "order": 2, "content": "{user.name}"}]
    found = {(d.code, d.block_id) for d in check(config(blocks, VARIABLES))}
    assert (dg.UNKNOWN_VARIABLE, "s") in found
    assert (dg.UNKNOWN_FUNCTION, "s") in found
    assert (dg.PARSE_ERROR, "s") in found
    assert (dg.ZONE_NOT_ALLOWED, "c") in found
    assert (dg.INPUT_MISSING_PROMPT, "i") in found
    assert (dg.TEMPLATE_OFF, "raw") in found
    assert (dg.UNUSED_VARIABLE, None) not in found  # d, n and user are all read


def test_zone_rules_apply_to_renderer_reads():
    variables = [{"name": "m", "mutable": True, "example": "x"}, {"name": "c", "zones": ["context"], "example": 1}]
    found = [(d.code, d.severity, d.variable) for d in check(config([block("s", "{m + c}")], variables))]
    assert (dg.MUTABLE_IN_SYSTEM, dg.ERROR, "m") in found
    assert (dg.ZONE_NOT_ALLOWED, dg.ERROR, "c") in found


def test_a_clean_renderer_config_has_no_problems():
    blocks = [block("s", "{for t in user.tags}- {t}\n{/for}{if d}私聊{else}群{/if} {n}"),
              block("i", "{user.name}: {prompt}", zone="input")]
    assert check(config(blocks, VARIABLES)) == []


def test_highlighting_for_the_dialect():
    text = "{for t in list}{t.name}{/for} {bad tag}"
    runs = spans(text, "chatluna-renderer")
    kinds = [(text[s:e], k) for s, e, k in runs]
    assert ("for", "keyword") in kinds and ("in", "keyword") in kinds and ("/for", "keyword") in kinds
    assert ("t", "variable") in kinds and ("{bad tag}", "literal") in kinds
    assert runs[-1][1] == len(text)


def test_render_json_block_text_is_the_renderers_text(tmp_path, capfdbinary):
    path = tmp_path / "renderer.json"
    path.write_text(json.dumps({"settings": {"dialect": "chatluna-renderer"}, "variables": VARIABLES,
                                "blocks": [block("s", BRANCHES), block("i", "[{prompt}]", zone="input")],
                                "sampleInput": "hi"}, ensure_ascii=False), encoding="utf-8")
    code = main(["render", str(path), "--json"])
    out, _err = capfdbinary.readouterr()
    data = json.loads(out.decode("utf-8"))
    assert code == 0
    assert [b["text"] for b in data["blocks"]] == ["\n群\n\nend", "[hi]"]


def test_the_blocks_of_one_render_share_the_bounds_and_it_is_reported_once():
    endless = "{while true}{while true}{/while}{/while}"
    result = render(config([block("a", endless), block("b", endless, order=1), block("c", "after", order=2)]))
    stops = [w for w in result.warnings if w.code == dg.LOOP_LIMIT and w.severity == dg.ERROR]
    assert [w.block_id for w in stops] == ["a"]
    assert result.block("c").text == "after"  # no loop: the iteration budget does not matter to it
    full = render(config([block("s", "{repeat 9}x{/repeat}")]))
    assert full.system == "x" * 9 and full.warnings == []
