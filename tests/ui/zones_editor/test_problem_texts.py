"""The blocks editor's problems in the UI's language: every message the static check writes is made
from a template of inspector.wording, so the Chinese UI shows each one in Chinese, with the names
and values of the message as the core wrote them (issue 19, item 5)."""

from __future__ import annotations

import re
from typing import Any

from inspector.zones import diagnostic as dg
from inspector.zones.config import from_data, load_config, sample_path
from inspector.zones.covel_templates import check_covel
from inspector.zones.diagnostics import check
from ui import i18n
from ui.views.core_texts import strict_core_text
from ui.zones_editor.problems import message_text

_CJK = re.compile("[\u4e00-\u9fff]")


def diags(blocks: list[dict[str, Any]], variables: list[dict[str, Any]] = (), **settings: Any) -> list[dg.Diagnostic]:
    """The static check of a config of ``blocks`` and ``variables`` (``settings``: its settings)."""
    return check(from_data({"blocks": blocks, "variables": list(variables), "settings": settings}))


def tb(bid: str, content: str, zone: str = "system", order: int = 0, **more: Any) -> dict[str, Any]:
    """A template block."""
    return dict(id=bid, zone=zone, order=order, content=content, template=True, **more)


def _every_kind_of_problem() -> list[dg.Diagnostic]:
    """A problem of each kind the static check writes (the inputs of test_zones_diagnostics)."""
    variables = [{"name": "lore", "args": ["keyword", {"name": "limit", "optional": True}]}, {"name": "plain"},
                 {"name": "one", "args": ["only"]}, {"name": "two", "args": ["a", "b"]}]
    return [
        *check(load_config(sample_path())),  # the sample's warning, the one the screenshots show
        *diags([tb("b", "hi {usr_name}!")], [{"name": "user_name"}]),
        *diags([tb("b", "{ghost}")]),
        *diags([tb("b", "{time}", zone="system")], [{"name": "time", "zones": ["context"]}]),
        *diags([tb("b", "{time}", zone="context")], [{"name": "time", "zones": []}]),
        *diags([tb("b", "{prompt}", zone="context")]),
        *diags([tb("b", "{mood}")], [{"name": "mood", "mutable": True}]),
        *diags([tb("b", "{day}")], [{"name": "day", "values": ["Mon", "Tue"]}]),
        *diags([tb("b", '{lore}{lore 1 2 3}{plain "x"}{one}{two "x"}')], variables),
        *diags([tb("a", "x"), tb("a", "{nothing}")]),
        *diags([tb("low", "x", order=-301), tb("safety", "x", order=-90, purpose="safety"),
                tb("c", "x", zone="context", purpose="tools")]),
        *diags([tb("i", "[{who}]", zone="input")], [{"name": "who"}]),
        *diags([{"id": "i", "zone": "input", "content": "[{prompt}]"}]),
        *diags([{"id": "i", "zone": "input", "content": "no input here"}]),
        *diags([tb("a", "A", complete=True), tb("b", "B", order=2, complete=True)]),
        *diags([tb("c", "x", zone="context", complete=True)]),
        *diags([tb("c", "x", zone="context", complete=True)], completeOutsideSystem="error"),
        *diags([tb("w", '{while true}x{/while}')]),
        *diags([tb("a", "x", order=10), tb("b", "x", order=10)]),
        *diags([tb("a", "{used}")], [{"name": "used"}, {"name": "unused"}]),
        *diags([tb("b", "{for x in xs}{x}{/for}{say hello}")],
               [{"name": "x"}, {"name": "xs"}, {"name": "say", "args": ["w"]}]),
        *diags([{"id": "b", "zone": "system", "content": "hi {user}"}], [{"name": "user"}]),
        *check_covel("{{ session.turnNumber }} {{ nothing.here }}\n<world-lore>{{ world.lore }}</world-lore>\n"),
    ]


def test_every_problem_of_the_check_is_shown_in_chinese(chinese: None) -> None:
    found = [d for d in _every_kind_of_problem() if d.code != dg.PARSE_ERROR]
    codes = {d.code for d in found}
    assert {dg.UNKNOWN_VARIABLE, dg.ZONE_NOT_ALLOWED, dg.MUTABLE_IN_SYSTEM, dg.ARG_COUNT, dg.DUPLICATE_ID,
            dg.ORDER_OUT_OF_RANGE, dg.ORDER_BAND, dg.INPUT_MISSING_PROMPT, dg.MULTIPLE_COMPLETE,
            dg.COMPLETE_OUTSIDE_SYSTEM, dg.LOOP_LIMIT, dg.ORDER_TIE, dg.UNUSED_VARIABLE, dg.SHADOWED_VARIABLE,
            dg.BARE_WORD, dg.TEMPLATE_OFF, dg.COVEL_UNKNOWN_VARIABLE, dg.COVEL_VOLATILE_IN_SYSTEM,
            dg.COVEL_ESCAPED_IN_TAG} <= codes
    untranslated = [d.message for d in found if strict_core_text(d.message) is None]
    assert untranslated == []
    for d in found:
        shown = message_text(d)
        assert _CJK.search(shown), shown
        # The names the message quotes stay as the core wrote them.
        for quoted in re.findall(r"'[^']*'", d.message):
            assert quoted in shown, (d.message, shown)


def test_zone_names_are_translated_and_english_stays_as_written(chinese: None, qapp: Any) -> None:
    (d,) = diags([tb("b", "{time}", zone="system")], [{"name": "time", "zones": ["context", "input"]}])
    assert message_text(d) == ("'time' 只能用在上下文、输入区，不能用在系统区（ChatLuna 会抛出 VariableZoneError）")
    i18n.install_translators(qapp, "en")
    assert message_text(d) == d.message == ("'time' may be used in context, input, not in the system zone "
                                            "(ChatLuna throws VariableZoneError)")
