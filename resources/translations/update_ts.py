"""Keep ``prompt_inspector_zh_CN.ts`` in step with the UI and compile it.

``python -m resources.translations.update_ts`` finds every string the ``ui`` package passes to
``QCoreApplication.translate`` (directly or through a module's one-line ``_tr``-style helper) and
every command-line message of the ``inspector`` package (the literal first argument of
``inspector.messages.localized`` or ``marked``, context ``CommandLine``, read back by the core from
this same .ts) and every sentence of ``inspector.wording`` (``sentence``'s literal argument,
context ``CoreTexts``, which the app's views translate by template), adds missing ones to the .ts as unfinished, keeps the translations already written, marks strings
no longer used as obsolete, and runs ``pyside6-lrelease``. The translations themselves are
edited by hand (or in Qt Linguist) in the .ts file.

pyside6-lupdate is not used because it only recognises ``self.tr`` and literal
``QCoreApplication.translate`` calls, not the helpers.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
UI_DIR = HERE.parent.parent / "ui"
CORE_DIR = HERE.parent.parent / "inspector"
# inspector.messages: the functions whose literal first argument is a command-line message.
CORE_MESSAGE_FUNCTIONS = ("localized", "marked")
CORE_CONTEXT = "CommandLine"
# inspector.wording: the function whose literal argument is one of the core's sentences for a
# person (the app translates them by template, ui.views.core_texts).
CORE_SENTENCE_FUNCTION = "sentence"
SENTENCE_CONTEXT = "CoreTexts"
TS_FILE = HERE / "prompt_inspector_zh_CN.ts"
QM_FILE = HERE / "prompt_inspector_zh_CN.qm"


# The glossary (README.md beside this file): (English term as a regular expression, the one Chinese
# word for it, words that must not stand for it). A translation of a source naming the term must use
# the word (None: the check is only that the other words never appear).
GLOSSARY: tuple[tuple[str, str, tuple[str, ...], bool], ...] = (
    # (term, word, forbidden words, the word is required where the term appears)
    (r"\btokens?\b", "token", ("令牌", "词元"), True),
    (r"\bturns?\b", "回合", ("轮次",), False),
    (r"\bproviders?\b", "服务商", ("提供商", "供应商"), False),
    (r"\bids?\b", "ID", (), False),
)
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
# "id" as a word in Chinese text (not inside a name such as runtime_id, a {placeholder} or a path's
# <id> part).
_LOWER_ID = re.compile(r"(?<![A-Za-z0-9_.<])(?:id|Id|ids)(?![A-Za-z0-9_])")


def glossary_problems(translations: dict[tuple[str, str], str]) -> list[str]:
    """Every translation that breaks the glossary, as a line for a person."""
    problems = []
    for (ctx, source), text in translations.items():
        bare = _PLACEHOLDER.sub("", text)
        for term, word, forbidden, required in GLOSSARY:
            for bad in forbidden:
                if bad in bare:
                    problems.append(f"[{ctx}] {source!r}: {bad!r} where the glossary says {word!r}")
            # A placeholder's name ({token}) is no word of the sentence.
            if required and re.search(term, _PLACEHOLDER.sub("", source), re.IGNORECASE) \
                    and word.lower() not in bare.lower():
                problems.append(f"[{ctx}] {source!r}: {text!r} does not say {word!r}")
        if ctx != CORE_CONTEXT and _LOWER_ID.search(bare):
            problems.append(f"[{ctx}] {source!r}: {text!r} writes 'id' where the glossary says 'ID'")
    return problems


def _is_translate(call: ast.AST) -> bool:
    return (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and call.func.attr == "translate" and len(call.args) >= 2
            and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str))


def _helpers(tree: ast.Module) -> dict[str, str]:
    """``def _tr(text): return QCoreApplication.translate("Ctx", text)`` → {"_tr": "Ctx"} (and a helper
    returning ``text, QCoreApplication.translate("Ctx", text)``)."""
    found: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for stmt in node.body:
                if not isinstance(stmt, ast.Return) or stmt.value is None:
                    continue
                # Also ``return text, QCoreApplication.translate("Ctx", text)``: a (source, translation) pair.
                values = stmt.value.elts if isinstance(stmt.value, ast.Tuple) else [stmt.value]
                for value in values:
                    if _is_translate(value):
                        found[node.name] = value.args[0].value  # type: ignore[attr-defined]
    return found


def extract(ui_dir: Path = UI_DIR) -> list[tuple[str, str]]:
    """(context, source text) pairs in file order, without duplicates."""
    seen: list[tuple[str, str]] = []
    for path in sorted(ui_dir.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        helpers = _helpers(tree)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            first = node.args[0]
            if isinstance(node.func, ast.Name) and node.func.id in helpers:
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    pair = (helpers[node.func.id], first.value)
                    if pair not in seen:
                        seen.append(pair)
            elif _is_translate(node):
                text = node.args[1]
                if isinstance(text, ast.Constant) and isinstance(text.value, str):
                    pair = (first.value, text.value)  # type: ignore[attr-defined]
                    if pair not in seen:
                        seen.append(pair)
    return seen


def extract_core(core_dir: Path = CORE_DIR) -> list[tuple[str, str]]:
    """The command line's messages, (``CommandLine``, template), and the core's sentences,
    (``CoreTexts``, template), in file order, without duplicates."""
    seen: list[tuple[str, str]] = []
    for path in sorted(core_dir.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            first = node.args[0]
            context = CORE_CONTEXT if name in CORE_MESSAGE_FUNCTIONS else (
                SENTENCE_CONTEXT if name == CORE_SENTENCE_FUNCTION else None)
            if context is not None and isinstance(first, ast.Constant) and isinstance(first.value, str):
                pair = (context, first.value)
                if pair not in seen:
                    seen.append(pair)
    return seen


def all_strings() -> list[tuple[str, str]]:
    """Every string the catalog translates: the app's, then the command line's."""
    app = extract()
    return app + [pair for pair in extract_core() if pair not in app]


def read_ts(path: Path = TS_FILE) -> dict[tuple[str, str], str]:
    """Finished translations in the .ts: {(context, source): translation}."""
    if not path.exists():
        return {}
    out: dict[tuple[str, str], str] = {}
    for context in ET.parse(path).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            source = message.findtext("source") or ""
            tr = message.find("translation")
            if tr is not None and tr.get("type") not in ("unfinished", "obsolete", "vanished") and tr.text:
                out[(name, source)] = tr.text
    return out


def write_ts(pairs: list[tuple[str, str]], translations: dict[tuple[str, str], str],
             path: Path = TS_FILE) -> None:
    root = ET.Element("TS", version="2.1", language="zh_CN", sourcelanguage="en")
    contexts: dict[str, ET.Element] = {}
    for ctx, source in pairs:
        context = contexts.get(ctx)
        if context is None:
            context = contexts[ctx] = ET.SubElement(root, "context")
            ET.SubElement(context, "name").text = ctx
        message = ET.SubElement(context, "message")
        ET.SubElement(message, "source").text = source
        tr = ET.SubElement(message, "translation")
        text = translations.get((ctx, source))
        if text:
            tr.text = text
        else:
            tr.set("type", "unfinished")
    used = set(pairs)
    for (ctx, source), text in translations.items():
        if (ctx, source) in used:
            continue
        context = contexts.get(ctx)
        if context is None:
            context = contexts[ctx] = ET.SubElement(root, "context")
            ET.SubElement(context, "name").text = ctx
        message = ET.SubElement(context, "message")
        ET.SubElement(message, "source").text = source
        ET.SubElement(message, "translation", type="vanished").text = text
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    path.write_text('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + body + "\n", encoding="utf-8")


def _lrelease() -> str:
    # The binary PySide6 ships is preferred over the pyside6-lrelease wrapper script: a wrapper
    # left behind by another PySide6 release fails before it compiles anything.
    import PySide6

    bundled = Path(list(PySide6.__path__)[0]).resolve() / ("lrelease.exe" if sys.platform == "win32" else "lrelease")
    if bundled.exists():
        return str(bundled)
    return shutil.which("pyside6-lrelease") or str(Path(sys.executable).with_name("pyside6-lrelease"))


def compile_qm(ts: Path = TS_FILE, qm: Path = QM_FILE) -> None:
    subprocess.run([_lrelease(), "-silent", str(ts), "-qm", str(qm)], check=True)


def main() -> int:
    pairs = all_strings()
    translations = read_ts()
    write_ts(pairs, translations)
    compile_qm()
    missing = [p for p in pairs if p not in translations]
    for ctx, source in missing:
        print(f"untranslated: [{ctx}] {source}")
    problems = glossary_problems({pair: translations[pair] for pair in pairs if pair in translations})
    for line in problems:
        print(f"glossary: {line}")
    return 1 if missing or problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
