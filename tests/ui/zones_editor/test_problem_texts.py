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
from inspector.zones.presets.model import PRESET_UNKNOWN_KEY
from ui import i18n
from ui.views.core_texts import strict_core_text
from ui.zones_editor.problems import block_label, message_text

_CJK = re.compile("[\u4e00-\u9fff]")
# A quoted name or value ('x'), not the apostrophe of "ChatLuna's" nor a quoted phrase of the
# sentence itself ('(no extension)', which is translated).
_QUOTED = re.compile(r"(?<![A-Za-z])'[^'()]*'(?![A-Za-z])")


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
    found = _every_kind_of_problem()
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
        for quoted in re.findall(_QUOTED, d.message):
            assert quoted in shown, (d.message, shown)


def test_zone_names_are_translated_and_english_stays_as_written(chinese: None, qapp: Any) -> None:
    (d,) = diags([tb("b", "{time}", zone="system")], [{"name": "time", "zones": ["context", "input"]}])
    assert message_text(d) == ("'time' 只能用在上下文、输入区，不能用在系统区（ChatLuna 会抛出 VariableZoneError）")
    i18n.install_translators(qapp, "en")
    assert message_text(d) == d.message == ("'time' may be used in context, input, not in the system zone "
                                            "(ChatLuna throws VariableZoneError)")


# --- the ChatLuna preset checks, the renderer, Covel's template language and config files -------

_BROKEN_PRESET = """keywords: [broken, 3]
prompts:
  - role: system
    content: |-
      今天是 {weekday()}，{shout(name)}！{ghost} {time_UTC('x')} {timeDiff('never', 'x')}
      {url('get', 'https://example.com')} {while true}x{/while}{repeat -1}y{/repeat}
      {if is_group}群聊里请简短回答。 {elseif x} {/for} {else} {for x} {1 +} {"open}
  - role: narrator
    content: x
  - role: user
    type: oddity
  - role: assistant
    content: [3, {type: text, text: 4}]
  - 5
world_lores:
  - {keywords: ['(', '/x/i'], content: lore, insertPosition: before_scenario}
  - {keywords: only}
  - {scanDepth: 2, insertPosition: after_char_defs}
  - {scanDepth: 3}
  - {keywords: [{}], content: x, insertPosition: nowhere}
  - 7
authors_note: {content: note, insertFrequency: 0, insertDepth: -1, extra: 1}
knowledge: {knowledge: 3, other: 1}
config: {loreBooksPrompt: '{other}', unknownKey: 1, postHandler: 3}
format_user_prompt: '{sender} 说了一句话'
version: [1]
extra: 1
"""


def _preset_problems() -> list[dg.Diagnostic]:
    from inspector.zones.presets import loads_preset, render_preset

    return list(render_preset(loads_preset(_BROKEN_PRESET)).diagnostics)


def _renderer_problems() -> list[dg.Diagnostic]:
    from inspector.zones.renderer import check_template, render_detailed

    sources = ["{while true}x{/while}", "{repeat 'x'}y{/repeat}", "{name.}", "{a[1}", "{f(1}", "{(1}",
               "{1 ? 2}", "{" + "!" * 300 + "x}", "{" + "(" * 300 + "x" + ")" * 300 + "}", "{x} {y @}",
               "{/if}", "{if}", "{elseif}", "{for}", "{" + "".join("{if 1}" for _ in range(300)) + "}",
               "{if (}x{/if}", "{f(x)} {x(1)}"]
    out: list[dg.Diagnostic] = []
    for source in sources:
        out += render_detailed(source, {"x": 1}, {"f": lambda args, _scope: 1 / 0}).diagnostics
        out += check_template(source, {"x"}, {"f"})
    return out


def _covel_template_problems() -> list[dg.Diagnostic]:
    from inspector.zones.blocks import render

    blocks = [tb("a", '{x y z}{if}{/if}{else x}{for a b c}{repeat}{true}{x ==}{if a b}{/nope}{/for x}{"open'),
              tb("b", "{ {a > b c}{x 'a' 1}{@}{/if}{elseif a}{if a}{else}{else}{/if}{unclosed"),
              tb("c", "{if a}never closed"),
              tb("d", "{obj}{for i in n}{i}{/for}{repeat s}x{/repeat}{repeat 1.5}x{/repeat}{repeat big}.{/repeat}"
                 "{for i in long}{i}{/for}{while t}w{/while}")]
    examples = {"obj": {"k": 1}, "n": 3, "s": "s", "big": 1e9, "long": list(range(200)), "t": True}
    config = from_data({"blocks": blocks,
                        "variables": [{"name": n} for n in ("x", "a", "b")]
                        + [{"name": n, "example": v} for n, v in examples.items()]})
    return [*check(config), *render(config).warnings]


def _config_errors() -> list[str]:
    from inspector.zones.config import ConfigError, format_of, loads_config

    bad = [{"blocks": 3}, {"blocks": [3]}, {"blocks": [{"id": "a", "zone": "nowhere"}]}, {"blocks": [{"zone": "x"}]},
           {"blocks": [{"id": 3, "zone": "system"}]}, {"blocks": [{"id": "a", "zone": "system", "template": 1}]},
           {"blocks": [{"id": "a", "zone": "system", "order": "x"}]}, {"nope": 1}, {"variables": 1},
           {"variables": [{"name": "a"}, {"name": "a"}]}, {"variables": [{"name": "a b"}]},
           {"variables": [{"name": "a", "zones": 3}]}, {"variables": [{"name": "a", "zones": ["moon"]}]},
           {"variables": [{"name": "a", "args": 3}]}, {"variables": [{"name": "a", "args": [3]}]},
           {"environment": {"base": {}, "x": 1}}, {"environment": {"turns": 3}},
           {"environment": {"contributors": [{"id": "c", "failTurns": "x"}]}},
           {"settings": {"loopCap": -1}}, {"settings": {"outputLimit": 1 << 40}}]
    out = []
    for data in bad:
        try:
            from_data(data)
        except ConfigError as exc:
            out.append(str(exc))
    for text, fmt in [("{", "json"), ("a: [", "yaml"), ("a = ", "toml"), ("x", "ini"), ("[[[[[", "json")]:
        try:
            loads_config(text, fmt)
        except ConfigError as exc:
            out.append(str(exc))
    for name in ("config", "config.ini"):
        try:
            format_of(name)
        except ConfigError as exc:
            out.append(str(exc))
    return out


def _shown_in_chinese(messages: list[str]) -> None:
    untranslated = [m for m in messages if strict_core_text(m) is None]
    assert untranslated == []
    for message in messages:
        shown = strict_core_text(message)
        assert _CJK.search(shown), shown
        for quoted in re.findall(_QUOTED, message):
            assert quoted in shown, (message, shown)


def test_every_problem_of_a_chatluna_preset_is_shown_in_chinese(chinese: None) -> None:
    found = _preset_problems()
    codes = {d.code for d in found}
    assert {PRESET_UNKNOWN_KEY, dg.UNKNOWN_VARIABLE, dg.LOOP_LIMIT, dg.PARSE_ERROR, dg.INPUT_MISSING_PROMPT,
            dg.NETWORK_FUNCTION} <= codes, codes
    assert len(found) >= 30
    _shown_in_chinese([d.message for d in found])


def test_every_problem_of_the_renderer_is_shown_in_chinese(chinese: None) -> None:
    found = _renderer_problems()
    assert {dg.LOOP_LIMIT, dg.PARSE_ERROR, dg.UNKNOWN_VARIABLE, dg.VALUE_TYPE, dg.INTERNAL_ERROR} <= {d.code for d in found}
    _shown_in_chinese([d.message for d in found])


def test_every_problem_of_covel_style_templates_is_shown_in_chinese(chinese: None) -> None:
    found = _covel_template_problems()
    assert sum(d.code == dg.PARSE_ERROR for d in found) >= 15
    assert {dg.VALUE_TYPE, dg.LOOP_LIMIT} <= {d.code for d in found}
    _shown_in_chinese([d.message for d in found])


def test_a_config_file_that_cannot_be_used_is_explained_in_chinese(chinese: None) -> None:
    errors = _config_errors()
    assert len(errors) == 27
    _shown_in_chinese(errors)


def test_a_preset_file_that_cannot_be_read_is_explained_in_chinese(chinese: None) -> None:
    from inspector.zones.presets import PresetError, loads_preset

    errors = []
    for text in ("a: [", "3", "x" * (1 << 21), "[" * 200 + "]" * 200):
        try:
            loads_preset(text)
        except PresetError as exc:
            errors.append(str(exc))
    assert len(errors) == 4
    _shown_in_chinese(errors)


def test_the_reading_that_explains_most_of_a_sentence_wins(chinese: None) -> None:
    # "{key} is required" matches the whole line too, with "<config>: blocks[0]: 'id'" as its key;
    # the place and the nested sentence explain more of it.
    assert strict_core_text("<config>: blocks[0]: 'id' is required") == "<config>：blocks[0]：'id' 为必填项"
    # "unknown variable {name}" matches with "'ghost' (it renders as nothing)" as the name.
    assert strict_core_text("unknown variable 'ghost' (it renders as nothing)") == "未知变量 'ghost'（渲染为空）"
    # What a check found is one of its phrases or a bare word, never half a sentence.
    role = "prompts[1].role must be one of system, user, assistant, found the string 'narrator'"
    assert strict_core_text(role) == "prompts[1].role 必须是 system、user、assistant 之一，实际为 字符串 'narrator'"
    assert strict_core_text(role + " (ChatLuna refuses the whole preset: \"Unknown role\")") == (
        "prompts[1].role 必须是 system、user、assistant 之一，实际为 字符串 'narrator'（ChatLuna 会拒绝整个预设："
        "\"Unknown role\"）")
    assert strict_core_text("a condition compares exactly two values") == "条件必须恰好比较两个值"
    assert strict_core_text("config.postHandler must be a mapping {prefix, postfix, variables, censor}, found null") \
        == "config.postHandler 必须是映射 {prefix, postfix, variables, censor}，实际为 null"


def test_a_problem_of_the_file_itself_is_placed_at_the_top_level_in_chinese(chinese: None) -> None:
    assert block_label("top level") == "顶层"
    assert block_label("keywords[1]") == "keywords[1]"
    assert block_label(None) == "—"


def test_an_unexpected_error_of_ours_is_reported_in_chinese(chinese: None) -> None:
    for stage, word in (("check", "检查"), ("render", "渲染"), ("simulation", "模拟")):
        shown = message_text(dg.failure(ValueError("boom"), stage))
        assert shown == f"{word}因意外错误而中止（ValueError: boom）；文本保持原样。请报告此问题"
