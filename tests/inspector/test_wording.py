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
