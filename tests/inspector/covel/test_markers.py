"""The pruned-history marker: one recogniser (covel-assembly.md §1.4: the English sentence, the
older counted form, and a Chinese variant the spec quotes only by its start)."""

from __future__ import annotations

from inspector.anatomy.labelling import leading_system_kind
from inspector.covel import markers
from inspector.covel.markers import PRUNED_MARKER_LINE, is_pruned_marker

MULTI_LINE_ZH = markers.PRUNED_MARKER_ZH_PREFIX + "，\n较早的消息已被删减 ...]"


def test_every_marker_form_is_recognised() -> None:
    for text in (markers.PRUNED_MARKER_EN, markers.PRUNED_MARKER_ZH,
                 "[... 12 older messages pruned to stay within token budget ...]",
                 "\n  " + markers.PRUNED_MARKER_EN + "\n"):
        assert is_pruned_marker(text)


def test_a_multi_line_chinese_marker_is_the_marker() -> None:
    # The spec gives only the zh variant's start, so what follows it (a line break included)
    # is part of the marker; the labeller and the turn history both ask this one function.
    assert is_pruned_marker(MULTI_LINE_ZH)
    assert leading_system_kind(MULTI_LINE_ZH) == "pruned"


def test_other_texts_are_not_the_marker() -> None:
    for text in ("", markers.PRUNED_MARKER_EN + " and more", "note: " + markers.PRUNED_MARKER_EN,
                 "[... older messages pruned ...]", "[... N older messages pruned to stay within token budget ...]"):
        assert not is_pruned_marker(text)
        assert leading_system_kind(text) != "pruned"


def test_the_marker_is_found_as_a_paragraph_of_a_joined_system_text() -> None:
    joined = "SYSTEM PROMPT\n\n" + MULTI_LINE_ZH + "\n\n<runtime-inputs>{}</runtime-inputs>"
    found = PRUNED_MARKER_LINE.search(joined)
    assert found is not None and found.start() == joined.index(markers.PRUNED_MARKER_ZH_PREFIX)
    assert PRUNED_MARKER_LINE.search("SYSTEM\n\nsee " + markers.PRUNED_MARKER_EN) is None
