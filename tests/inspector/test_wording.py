"""The core's sentences for a person are templates in one place (inspector.wording): each names its
values, none is written twice, and the core's sentences come from them (the demo's analysis is
translated by them in tests/ui/test_translations.py)."""

from __future__ import annotations

import string

from inspector import wording
from inspector.cache.pricing import COST_CLASSES


def test_every_template_names_its_values_and_none_is_written_twice() -> None:
    found = wording.templates()
    assert len(found) == len(set(found)) > 40
    for template in found:
        names = [name for _, name, _, _ in string.Formatter().parse(template) if name is not None]
        assert all(name.isidentifier() for name in names), template  # no positional or indexed field
        assert template.format(**{name: "x" for name in names})  # formats without a value missing


def test_each_billing_class_has_its_row() -> None:
    assert [wording.cost_class_row(name, "0.0100", 7) for name in COST_CLASSES] == [
        "uncached input 0.0100 USD (7 tokens)", "cache read 0.0100 USD (7 tokens)",
        "5-minute write 0.0100 USD (7 tokens)", "1-hour write 0.0100 USD (7 tokens)"]


def test_a_template_with_literal_braces_writes_them_once() -> None:
    text = wording.VOLATILE_SYSTEM_TEXT.format(part="system › kernel", count=3, turns=4)
    assert "(a {{ player.character }}-style value inside it?)" in text


def test_no_name_of_the_module_is_given_twice() -> None:
    # A second assignment would silently replace the first sentence everywhere it is used.
    import ast
    from pathlib import Path

    tree = ast.parse(Path(wording.__file__).read_text(encoding="utf-8"))
    names = [target.id for node in tree.body if isinstance(node, ast.Assign)
             for target in node.targets if isinstance(target, ast.Name)]
    names += [node.name for node in tree.body if isinstance(node, ast.FunctionDef)]
    assert len(names) == len(set(names)), sorted(n for n in set(names) if names.count(n) > 1)


def test_a_zones_input_block_and_a_chatluna_input_format_each_say_their_own_problem() -> None:
    from inspector.zones.config import from_data
    from inspector.zones.diagnostics import check
    from inspector.zones.presets import loads_preset, render_preset

    (zones,) = [d for d in check(from_data({"blocks": [{"id": "i", "zone": "input", "content": "hello"}]}))
                if d.code == "input-missing-prompt"]
    assert zones.message == "an input block must contain {prompt} (the user's input) and be a template"
    preset = loads_preset("keywords: [x]\nprompts: []\nformat_user_prompt: '{sender} 说了一句话'\n")
    (chatluna,) = [d for d in render_preset(preset).diagnostics if d.code == "input-missing-prompt"]
    assert chatluna.message.startswith("format_user_prompt never writes {prompt}: ChatLuna replaces")
