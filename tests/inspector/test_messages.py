"""The command line's messages in the locale's language (inspector.messages), from the one catalog."""

from __future__ import annotations

import pytest

from inspector import messages
from inspector.messages import catalog, language, language_of, localized, translate
from inspector.writing_agent import edits
from inspector.writing_agent.errors import ENGLISH_SOURCES, edit_error_text
from inspector.writing_agent.order import ERROR_WORKER_SET_NOT_JSON, OrderEditError
from resources.translations.update_ts import extract_core


@pytest.mark.parametrize("value,lang", [
    ("zh_CN", "zh_CN"), ("zh-cn", "zh_CN"), ("zh_CN.UTF-8", "zh_CN"), ("zh", "zh_CN"), ("zh_TW.UTF-8", "zh_CN"),
    ("en_US.UTF-8", "en"), ("C", "en"), ("C.UTF-8", "en"), ("POSIX", "en"), ("de_DE@euro", "en"), ("  ", None),
    ("", None),
])
def test_language_of_a_setting(value, lang):
    assert language_of(value) == lang


def test_language_precedence():
    assert language({}) == "en"
    assert language({"LANG": "zh_CN.UTF-8"}) == "zh_CN"
    assert language({"LANG": "zh_CN.UTF-8", "LC_MESSAGES": "en_GB.UTF-8"}) == "en"
    assert language({"LANG": "en_US.UTF-8", "LC_ALL": "zh_CN.UTF-8"}) == "zh_CN"
    assert language({"LC_ALL": "zh_CN.UTF-8", "PROMPT_INSPECTOR_LANG": "en"}) == "en"
    assert language({"LANG": "C", "PROMPT_INSPECTOR_LANG": "zh_CN"}) == "zh_CN"
    # An empty variable is unset, as POSIX reads it.
    assert language({"LC_ALL": "", "LANG": "zh_CN.UTF-8"}) == "zh_CN"


def test_localized_fills_values_after_translating():
    assert localized("slot {ref} not found", lang="en", ref="gm") == "slot gm not found"
    assert localized("slot {ref} not found", lang="zh_CN", ref="gm") == "未找到槽 gm"
    # A value holding braces is not read as a template.
    assert localized("slot {ref} not found", lang="zh_CN", ref="{x}") == "未找到槽 {x}"
    # A text the catalog does not know stays English.
    assert translate("no such message in the catalog", lang="zh_CN") == "no such message in the catalog"


def test_localized_follows_the_environment(monkeypatch):
    monkeypatch.setenv("PROMPT_INSPECTOR_LANG", "zh_CN")
    assert localized("insert index out of range") == "插入项下标越界"
    monkeypatch.setenv("PROMPT_INSPECTOR_LANG", "en")
    assert localized("insert index out of range") == "insert index out of range"


def test_a_bad_translation_falls_back_to_english(monkeypatch):
    broken = dict(catalog("zh_CN"))
    broken[(messages.CONTEXT, "slot {ref} not found")] = "未找到槽 {slot}"
    monkeypatch.setattr(messages, "catalog", lambda lang: broken if lang == "zh_CN" else {})
    assert localized("slot {ref} not found", lang="zh_CN", ref="gm") == "slot gm not found"


def test_every_command_line_message_is_in_the_catalog_and_translated():
    pairs = extract_core()
    assert pairs, "the extractor finds the command line's messages"
    zh = catalog("zh_CN")
    missing = [text for ctx, text in pairs if not zh.get((ctx, text))]
    assert missing == []


def _spec_errors() -> list[OrderEditError]:
    plain = [edits.ERROR_BAD_ACTION, edits.ERROR_INDEX_OUT_OF_RANGE, edits.ERROR_REPLACE_UNPARSEABLE,
             edits.ERROR_MOVE_ARGS, edits.ERROR_ANCHOR_ARGS, edits.ERROR_PROJECTION_ARGS, edits.ERROR_NO_ORDER,
             ERROR_WORKER_SET_NOT_JSON]
    out = [OrderEditError(text) for text in plain]
    out.append(OrderEditError(edits.ERROR_SLOT_NOT_FOUND.format(ref="narrator"), template=edits.ERROR_SLOT_NOT_FOUND,
                              values={"ref": "narrator"}))
    return out


def test_a_chinese_session_reads_the_original_edit_messages_verbatim():
    for error in _spec_errors():
        assert edit_error_text(error, "zh_CN") == error.message


def test_an_english_session_reads_no_chinese_in_the_edit_messages():
    for error in _spec_errors():
        text = edit_error_text(error, "en")
        # The tag 设计.worker集 is a name, not prose: it stays as Covel spells it.
        assert not any("\u4e00" <= ch <= "\u9fff" for ch in text.replace("设计.worker集", "")), text


def test_every_edit_error_has_an_english_source():
    templates = {getattr(edits, name) for name in edits.__all__ if name.startswith("ERROR_")}
    assert templates | {ERROR_WORKER_SET_NOT_JSON} == set(ENGLISH_SOURCES)
    english = OrderEditError(edits.ERROR_DROP_OUTSIDE.format(dest=9, count=3), template=edits.ERROR_DROP_OUTSIDE,
                             values={"dest": 9, "count": 3})
    assert edit_error_text(english, "en") == "drop position 9 is outside 0..3"
    assert edit_error_text(english, "zh_CN") == "放置位置 9 超出 0..3"


def test_writing_agent_input_errors_follow_the_language(monkeypatch, capfdbinary, tmp_path):
    from inspector.cli import main
    from resources import resource_path

    sample = resource_path("samples", "writing_agent")
    argv = ["assemble", str(sample / "order.json"), str(sample / "scenario.yaml"), "--slot", "nobody"]
    monkeypatch.setenv("PROMPT_INSPECTOR_LANG", "en")
    assert main(argv) != 0
    assert "prompt-inspector: no slot 'nobody' in the order" in capfdbinary.readouterr().err.decode()
    monkeypatch.setenv("PROMPT_INSPECTOR_LANG", "zh_CN")
    assert main(argv) != 0
    assert "prompt-inspector: 排序中没有槽 'nobody'" in capfdbinary.readouterr().err.decode()
    missing = tmp_path / "missing.yaml"
    assert main(["assemble", str(sample / "order.json"), str(missing), "--slot", "narrator"]) != 0
    assert f"无法读取 {missing}" in capfdbinary.readouterr().err.decode()


def test_a_file_that_cannot_be_opened_or_written_is_explained_in_the_locale(monkeypatch, capfdbinary, tmp_path):
    from inspector.cli import main

    import sqlite3

    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    conn.close()
    text = tmp_path / "notes.txt"
    text.write_text("not a database", encoding="utf-8")
    folder = tmp_path / "SQLite"  # a folder, whatever its name says: no hint to replace it
    folder.mkdir()
    cases = [(["sessions", str(tmp_path)], "{0} is a directory, not a database file", "{0} 是目录，不是数据库文件"),
             (["demo", str(folder)], "cannot write {0}: it is a folder; name a file to write",
              "无法写入 {0}：它是文件夹；请指定要写入的文件"),
             (["sessions", str(tmp_path / "missing.db")], "{0} does not exist", "{0} 不存在"),
             (["sessions", str(empty)], "{0} is empty (0 bytes): not a Covel store", "{0} 是空文件（0 字节）：不是 Covel 存储"),
             (["sessions", str(text)], "{0} is not a SQLite database", "{0} 不是 SQLite 数据库"),
             (["demo", str(tmp_path)], "cannot write {0}: it is a folder; name a file to write",
              "无法写入 {0}：它是文件夹；请指定要写入的文件"),
             (["demo", str(other)], "cannot write {0}: it is a SQLite database, which this command does not overwrite; "
              "choose another output file (or pass --force to replace it)",
              "无法写入 {0}：它是 SQLite 数据库，本命令不会覆盖它；请另选输出文件（或加上 --force 替换它）"),
             (["demo", str(text)], "cannot write {0}: the file exists and is not a demo database; choose another file "
              "or pass --force to replace it", "无法写入 {0}：该文件已存在，且不是演示数据库；请另选文件，或加上 --force 替换它")]
    for argv, english, chinese in cases:
        for lang, expected in (("en", english), ("zh_CN", chinese)):
            monkeypatch.setenv("PROMPT_INSPECTOR_LANG", lang)
            assert main(argv) == 2
            err = capfdbinary.readouterr().err.decode()
            assert err == f"prompt-inspector: {expected.format(argv[1])}\n", (lang, argv)


def test_the_desktop_app_s_language_is_the_process_s(monkeypatch):
    from inspector import messages

    monkeypatch.setenv("PROMPT_INSPECTOR_LANG", "en")
    monkeypatch.setattr(messages, "_chosen", None)
    messages.set_language("zh_CN")
    assert messages.language() == "zh_CN"
    assert localized("{name} does not exist", name="x.db") == "x.db 不存在"
    # An explicit environment is read as given.
    assert messages.language({"LANG": "en_US.UTF-8"}) == "en"
    messages.set_language(None)
    assert messages.language() == "en"


def test_a_config_file_s_error_reads_in_the_locale_on_the_command_line(monkeypatch, capfdbinary, tmp_path):
    from inspector.cli import main

    config = tmp_path / "c.json"
    config.write_text('{"blocks": [{"id": "a", "zone": "moon"}]}', encoding="utf-8")
    preset = tmp_path / "p.yml"
    preset.write_text("a: [\n", encoding="utf-8")
    for lang, expected in (
            ("en", [f"{config}: blocks[0] (id 'a'): 'zone' must be one of system, context, input, found 'moon'",
                    f"{preset}: not valid YAML: expected the node content, but found '<stream end>' at line 2, "
                    "column 1"]),
            ("zh_CN", [f"{config}：blocks[0] (id 'a')：'zone' 必须是 system, context, input 之一，实际为 'moon'",
                       f"{preset}：不是有效的 YAML：expected the node content, but found '<stream end>'（第 2 行，第 1 列）"])):
        monkeypatch.setenv("PROMPT_INSPECTOR_LANG", lang)
        for path, line in zip((config, preset), expected):
            assert main(["lint", str(path)]) == 2
            assert capfdbinary.readouterr().err.decode() == f"prompt-inspector: {line}\n"
