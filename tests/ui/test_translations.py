"""The Chinese catalog is complete and consistent, and what the core writes for a person is shown in
Chinese in a Chinese window: part labels and paths (numbered from 1), cache reasons and their
details, findings, regions."""

from __future__ import annotations

import re
import string
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from inspector.anatomy.labelling import BAG_LABELS
from inspector.cache.results import FINDING_KINDS, REASONS, REGIONS
from resources.translations.update_ts import (
    TS_FILE,
    all_strings,
    glossary_problems,
    read_ts,
)
from ui.views.cache_texts import (
    finding_message_text,
    reason_detail_text,
    reason_name,
    region_name,
)
from ui.views.core_texts import core_text, strict_core_text, template_sources
from ui.views.part_names import part_label


def _cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


# --- the catalog ---------------------------------------------------------------------------------

def test_the_catalog_has_no_unfinished_entry() -> None:
    root = ET.parse(TS_FILE).getroot()
    unfinished = [message.findtext("source") for message in root.iter("message")
                  if (message.find("translation") is not None
                      and message.find("translation").get("type") == "unfinished")]  # type: ignore[union-attr]
    assert unfinished == []


def test_every_source_string_is_translated() -> None:
    translations = read_ts()
    missing = [pair for pair in all_strings() if not translations.get(pair)]
    assert missing == []


def test_the_glossary_holds() -> None:
    assert glossary_problems(read_ts()) == []


def test_the_glossary_check_finds_mixed_words() -> None:
    problems = glossary_problems({("X", "{n} tokens"): "{n} 个令牌", ("X", "Turns"): "轮次",
                                  ("X", "Provider"): "提供商", ("X", "Id"): "Id", ("X", "Input tokens"): "输入词元"})
    # 令牌 and 词元, each also without "token"; 轮次; 提供商; Id
    assert len(problems) == 7
    assert glossary_problems({("X", "{n} tokens"): "{n} 个 token", ("X", "Turn id"): "回合 ID"}) == []
    # A placeholder named token is no word "token", and a path's <id> part is code.
    assert glossary_problems({("X", "unexpected {token}"): "意外的 {token}",
                              ("X", "world.dimensions.<id>: frozen"): "world.dimensions.<id>：冻结"}) == []


def _fields(text: str) -> list[str] | None:
    try:
        return sorted(f"{name}:{spec}" for _, name, spec, _ in string.Formatter().parse(text) if name is not None)
    except ValueError:
        return None  # not a str.format template (a literal brace in prose)


def test_translations_keep_their_placeholders_and_accelerators() -> None:
    wrong = []
    for (ctx, source), text in read_ts().items():
        fields = _fields(source)
        if fields is not None and _fields(text) != fields:
            wrong.append((ctx, source, text))
        if source.count("%n") != text.count("%n"):
            wrong.append((ctx, source, text))
        if re.search(r"&[A-Za-z]", source) and not re.search(r"&[A-Za-z]", text):
            wrong.append((ctx, source, text))
    assert wrong == []


def test_every_core_sentence_template_is_translated() -> None:
    translations = read_ts()
    assert [source for source in template_sources() if not translations.get(("CoreTexts", source))] == []


# --- the core's keys and labels ------------------------------------------------------------------

def test_every_reason_region_and_finding_kind_has_a_chinese_name(chinese: None) -> None:
    from ui.views.findings_list import finding_title

    for key in REASONS:
        assert _cjk(reason_name(key)), key
    for key in REGIONS:
        assert _cjk(region_name(key)), key
    for kind in FINDING_KINDS:
        assert _cjk(finding_title(kind)), kind
    assert reason_name("below-minimum") == "低于最小长度"


def test_english_names_of_reasons_read_as_words(qapp: Any) -> None:
    assert reason_name("below-minimum") == "below the minimum"
    assert reason_name("something-new") == "something-new"


def test_every_bag_label_is_translated(chinese: None) -> None:
    for label in BAG_LABELS.values():
        assert _cjk(part_label(label)), label


def test_chinese_paths_and_numbers(chinese: None) -> None:
    assert part_label("history › depth insertion") == "历史 › 深度插入"
    assert part_label("history › user #0") == "历史 › 用户 #1"
    assert part_label("tools › tool #0") == "工具 › 工具 #1"
    assert part_label("(no earlier request)") == "（没有更早的请求）"


# --- the core's sentences ------------------------------------------------------------------------

def test_english_sentences_stay_as_the_core_wrote_them(qapp: Any) -> None:
    text = "1051 shared tokens; anthropic/claude-haiku-4-5* caches no prefix under 4096 tokens"
    assert core_text(text) == text
    assert core_text("a sentence no template knows") == "a sentence no template knows"


def test_a_detail_is_translated_clause_by_clause(chinese: None) -> None:
    detail = ("1051 shared tokens; anthropic/claude-haiku-4-5* caches no prefix under 4096 tokens; uncertain: "
              "1051 tokens lie within the ±15% error band of the proxy tokenizer (o200k_base) of the 1024-token "
              "minimum; the request compared with failed, so the prediction uses the last one that succeeded")
    assert reason_detail_text(detail) == (
        "共享 1051 个 token；anthropic/claude-haiku-4-5* 不缓存短于 4096 个 token 的前缀；不确定：1051 个 token 落在"
        "代理分词器（o200k_base）±15% 的误差范围内，接近 1024 个 token 的最小长度；用于比较的请求失败了，因此预测改用"
        "最近一个成功的请求")


def test_an_unexplained_miss_with_its_route_cause(chinese: None) -> None:
    detail = ("2048 tokens predicted cached but none reported; no visible reason (eviction, routing overflow, or a "
              "relay that drops caching)")
    assert reason_detail_text(detail) == (
        "预测缓存 2048 个 token，但报告为零；没有可见原因（缓存被逐出、路由溢出，或中转服务丢弃了缓存设置）")
    agreed = ("the system prompt changed: the history after it is re-sent uncached; the provider agrees: "
              "prefix_changed, 300 input tokens missed")
    assert reason_detail_text(agreed) == ("系统提示词已改变：其后的历史会以未缓存方式重新发送；服务商的判断一致："
                                          "prefix_changed，300 个输入 token 未命中")


def test_values_inside_a_sentence_are_translated_by_their_kind(chinese: None) -> None:
    assert core_text("temperature, top_p changed: the system and messages caches are keyed by it, so nothing "
                     "from there on is read (anthropic/claude*)") == (
        "temperature, top_p 已改变：系统和消息缓存以它为键，因此从那里起的内容都不会被读取（anthropic/claude*）")
    message = ("The cache_control breakpoint on the tool loop is written 6 times and never read: the content before "
               "it changes every turn, so each write pays the write premium for nothing.")
    assert finding_message_text(message).startswith("「工具循环」上的 cache_control 断点被写入 6 次")
    ttl = ("3 of 5 gaps between requests are longer than the 5 min TTL but within 60 min: with ttl \"1h\" on the "
           "breakpoints the cached part would cost 0.0100 USD less (0.0200 instead of 0.0300), the dearer writes "
           "included. Keep-alive requests every 5 min would pay only for gaps up to about 17 min.")
    shown = finding_message_text(ttl)
    assert "5 分钟" in shown and "60 分钟" in shown and "17 分钟" in shown and not re.search("[a-z]{4,} [a-z]{4,}", shown)


def test_the_demo_analysis_reads_in_chinese(chinese: None, demo_store: Path) -> None:
    from inspector.cache.analysis import analyse_store
    from inspector.store import open_store

    with open_store(demo_store) as store:
        analyses = analyse_store(store)
    analyses = analyses if isinstance(analyses, list) else [analyses]
    pairs = [pair for analysis in analyses for pair in analysis.pairs]
    findings = [finding for analysis in analyses for finding in analysis.findings]
    assert pairs and findings
    untranslated = [pair.reason_detail for pair in pairs if strict_core_text(pair.reason_detail) is None]
    untranslated += [finding.message for finding in findings if strict_core_text(finding.message) is None]
    assert untranslated == []
    for pair in pairs:
        assert _cjk(reason_name(pair.reason)), pair.reason
        shown = part_label(pair.first_difference)
        # Every piece is translated unless it is a name the engine wrote (an XML tag, a tool's name).
        for piece in shown.split(" › "):
            assert _cjk(piece) or piece.startswith("<") or re.fullmatch(r"[\w-]+", piece), pair.first_difference
        assert not re.search(r"#0\b", shown)
    for finding in findings:
        assert _cjk(part_label(finding.part)), finding.part


# The core modules whose sentences a view shows (reason details, findings, routing and confidence
# notes, a turn's notes): every piece of prose they write must lie in a template of core_texts or
# be a label part_names translates, so a new or reworded sentence fails here, not in a screenshot.
_CORE_PROSE = ("inspector/cache/reasons.py", "inspector/cache/verdicts.py", "inspector/cache/routing.py",
               "inspector/cache/findings.py", "inspector/cache/pairs.py", "inspector/turn/builder.py",
               "inspector/zones/diagnostics.py", "inspector/zones/blocks.py", "inspector/zones/covel_templates.py",
               "inspector/zones/template.py", "inspector/zones/evaluate.py", "inspector/zones/config.py",
               "inspector/zones/presets/model.py", "inspector/zones/presets/assemble.py",
               "inspector/zones/presets/functions.py", "inspector/zones/renderer/__init__.py",
               "inspector/zones/renderer/parser.py", "inspector/zones/renderer/lexer.py",
               "inspector/zones/renderer/evaluate.py")


# Texts in those modules that are no sentence of ours: the JavaScript errors ChatLuna's renderer and
# functions throw (shown as ChatLuna writes them, inside a translated sentence), and Python's own
# error text a check looks for.
_NOT_PROSE = frozenset({"Expression is not callable", " cannot be called this way", "not an expression: ",
                        "RangeError: Invalid time value", 'TypeError: roll() needs a dice formula such as "2d6+1"',
                        "integer string conversion"})


def _prose_pieces(path: Path) -> Iterator[tuple[int, str]]:
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    # A command-line message (inspector.messages.localized) is translated in its own context.
    docstrings |= {id(node.args[0]) for node in ast.walk(tree)
                   if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("localized", "marked")
                   and node.args}
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            for value in node.values:
                if isinstance(value, ast.Constant):
                    yield node.lineno, value.value
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node.lineno, node.value


def test_every_sentence_the_core_writes_has_a_template(chinese: None) -> None:
    root = Path(__file__).resolve().parents[2]
    templates = [source.replace("{{", "{").replace("}}", "}") for source in template_sources()]
    missing = []
    for name in _CORE_PROSE:
        for line, piece in _prose_pieces(root / name):
            text = piece.strip(" ;")
            if piece in _NOT_PROSE or "(?" in piece or piece.startswith("\\A"):
                continue  # not prose, or a regular expression
            if len(text.split()) < 3 or any(text in template for template in templates):
                continue
            if _cjk(part_label(text)):
                continue  # a label: part_names translates it
            missing.append(f"{name}:{line}: {piece!r}")
    assert missing == []
