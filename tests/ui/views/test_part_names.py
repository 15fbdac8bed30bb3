"""Part labels and the cache-breakpoint chip are shown in the interface's language."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from inspector.highlight import SENTINEL_CHIP
from ui import i18n
from ui.views.part_names import part_label, sentinel_chip, value_label


@pytest.fixture
def chinese(qapp: Any) -> Iterator[None]:
    assert i18n.install_translators(qapp, "zh_CN") == "zh_CN"
    try:
        yield
    finally:
        i18n.install_translators(qapp, "en")


def test_english_labels_are_shown_as_the_core_wrote_them(qapp: Any) -> None:
    for label in ("system prompt", "<world-lore>", "[RUNTIME]", "character-get", "request settings"):
        assert part_label(label) == label
    assert sentinel_chip() == SENTINEL_CHIP


def test_messages_are_numbered_from_one(qapp: Any) -> None:
    # The core counts a request's messages from 0; a person reads them from 1 (inspector.numbering).
    assert part_label("user #0") == "user #1"
    assert part_label("system #9 (depth insertion or late system segment)") == (
        "system #10 (depth insertion or late system segment)")
    assert part_label("history › assistant #4") == "history › assistant #5"
    assert part_label("tools › tool #0") == "tools › tool #1"
    assert part_label("assistant #2 (something new)") == "assistant #3 (something new)"
    # Labels the core numbers from 1 already keep their number.
    assert part_label("system prompt (part 2)") == "system prompt (part 2)"
    assert part_label("system block 1") == "system block 1"
    assert part_label("message 3") == "message 3"


def test_chinese_labels(chinese: None) -> None:
    assert part_label("system prompt") == "系统提示词"
    assert part_label("turn context") == "回合上下文"
    assert part_label("assistant #7 (execution story)") == "助手 #8（本回合叙事）"
    assert part_label("tool #10 (tool result)") == "工具 #11（工具结果）"
    assert part_label("history › user #3") == "历史 › 用户 #4"
    assert part_label("history › depth insertion") == "历史 › 深度插入"
    assert part_label("system prompt (part 2)") == "系统提示词（第 2 部分）"
    assert part_label("system block 1") == "系统块 1"
    assert sentinel_chip() == "⟦缓存断点⟧"


def test_text_the_engine_wrote_stays_as_recorded(chinese: None) -> None:
    for label in ("<world-lore>", "[RUNTIME]", "character-get"):
        assert part_label(label) == label
    assert part_label("assistant #2 (something new)") == "助手 #3（something new）"


def test_switching_back_to_english_forgets_the_chinese_table(qapp: Any) -> None:
    i18n.install_translators(qapp, "zh_CN")
    assert part_label("history") == "历史"
    i18n.install_translators(qapp, "en")
    assert part_label("history") == "history"


def test_recorded_enumerations(qapp: Any) -> None:
    assert value_label("committed") == "committed"
    i18n.install_translators(qapp, "zh_CN")
    try:
        assert value_label("committed") == "已提交"
        assert value_label("success") == "成功"
        assert value_label("narrative") == "narrative"  # a stage: stage_label
    finally:
        i18n.install_translators(qapp, "en")


def test_roles_and_token_provenance(qapp: Any) -> None:
    from ui.views.part_names import provenance_label, role_label

    assert (role_label("user"), role_label(None), role_label("critic")) == ("user", "", "critic")
    assert provenance_label("proxy") == "proxy tokenizer"
    i18n.install_translators(qapp, "zh_CN")
    try:
        assert (role_label("user"), role_label("assistant"), role_label("critic")) == ("用户", "助手", "critic")
        assert (provenance_label("exact"), provenance_label("proxy")) == ("精确", "代理分词器")
    finally:
        i18n.install_translators(qapp, "en")


def test_stages(qapp: Any) -> None:
    from inspector.turn.model import STAGE_ORDER
    from ui.views.part_names import stage_label

    assert [stage_label(s) for s in STAGE_ORDER] == list(STAGE_ORDER)
    assert (stage_label(None), stage_label("my-plugin-stage")) == ("", "my-plugin-stage")
    i18n.install_translators(qapp, "zh_CN")
    try:
        assert all(any("\u4e00" <= ch <= "\u9fff" for ch in stage_label(s)) for s in STAGE_ORDER)
        assert stage_label("post-turn") == "回合后"
        assert stage_label("my-plugin-stage") == "my-plugin-stage"
    finally:
        i18n.install_translators(qapp, "en")
