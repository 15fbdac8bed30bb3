"""Projection of non-history content, and the ``context-fragment.v1`` shape it understands.

../shared/spec/writing-agent.md A.5 (``applyProjection`` → ``projectFragmentContent``): ``full``
returns the text untouched; any other projection parses the text leniently as a fragment and,
for a fragment, keeps its brief, its field names or a canonical re-serialisation; plain text is
only ever head-truncated (``summary``/``brief``/``index``) or left alone.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from inspector.jsjson import js_parse, js_slice, js_stringify, utf16_len

from .vocabulary import CONTEXT_FRAGMENT_SCHEMA

__all__ = ["Fragment", "extract_json_object", "as_fragment", "project_content", "PLAIN_SUMMARY_LIMIT"]

PLAIN_SUMMARY_LIMIT = 800  # UTF-16 units kept by summary/brief/index of plain text
_STABILITY = {"stable": "stable", "semi": "semi", "volatile": "volatile",
              "稳": "stable", "少变": "stable", "中": "semi", "偶发": "semi", "变": "volatile", "常变": "volatile"}


@dataclass(frozen=True, slots=True)
class Fragment:
    brief: str
    skill: str | None
    mount: list[str] | None
    stability: str | None
    body: Any  # 正文, absent -> None with has_body False
    has_body: bool
    open_questions: Any
    has_open_questions: bool


# --- lenient JSON ------------------------------------------------------------------------------

_FENCE = re.compile(r"```[ \t]*[A-Za-z]*[ \t]*\r?\n?([\s\S]*?)(?:```|\Z)")
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")
_SMART_DOUBLE = str.maketrans({"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"'})


def _strip_comments(text: str) -> str:
    out, i, n, in_string = [], 0, len(text), False
    while i < n:
        ch = text[i]
        if in_string:
            out.append(ch)
            if ch == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 2
                continue
            if ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
            out.append(ch)
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def _repair_truncation(text: str) -> str:
    """Close what a cut-off reply left open: a string, then the brackets, innermost first."""
    stack, in_string, escaped = [], False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            stack.append("}" if ch == "{" else "]")
        elif ch in "}]" and stack:
            stack.pop()
    repaired = text + ('"' if in_string else "")
    repaired = re.sub(r"[,:\s]+$", "", repaired)
    return repaired + "".join(reversed(stack))


def _balanced_objects(text: str) -> list[str]:
    found, depth, start, in_string, escaped = [], 0, -1, False, False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
            continue
        if ch == '"':
            in_string = depth > 0
        elif ch == "{":
            if depth == 0:
                start = i
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0:
                found.append(text[start:i + 1])
    return found


def _try_object(text: str) -> dict | None:
    try:
        value = js_parse(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def extract_json_object(text: str) -> dict | None:
    """The JSON object a model meant to write, or None: strict, unfenced, softened (comments,
    trailing commas, smart quotes), truncation repaired, or the last balanced ``{…}`` that parses."""
    if not isinstance(text, str) or "{" not in text:
        return None
    candidate = text.strip()
    found = _try_object(candidate)
    if found is not None:
        return found
    fenced = _FENCE.search(candidate)
    if fenced:
        candidate = fenced.group(1).strip()
        found = _try_object(candidate)
        if found is not None:
            return found
    brace = candidate.find("{")
    if brace < 0:
        return None
    softened = _TRAILING_COMMA.sub(r"\1", _strip_comments(candidate[brace:]))
    for attempt in (softened, softened.translate(_SMART_DOUBLE)):
        found = _try_object(attempt) or _try_object(_TRAILING_COMMA.sub(r"\1", _repair_truncation(attempt)))
        if found is not None:
            return found
    for chunk in reversed(_balanced_objects(candidate)):
        found = _try_object(chunk)
        if found is not None:
            return found
    return None


# --- fragments ---------------------------------------------------------------------------------

def _string(obj: Mapping, *keys: str) -> str | None:
    for key in keys:
        value = obj.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def as_fragment(value: Any) -> Fragment | None:
    """The fragment in ``value`` (text or object), or None when it is not one."""
    obj = extract_json_object(value) if isinstance(value, str) else value
    if not isinstance(obj, Mapping):
        return None
    brief = _string(obj, "brief", "概要") or ""
    has_body_key = "正文" in obj or "body" in obj
    if obj.get("schema") != CONTEXT_FRAGMENT_SCHEMA and not (brief and has_body_key):
        return None
    mount_value = obj.get("mount", obj.get("挂载"))
    if isinstance(mount_value, str):
        mount = [mount_value.strip()] if mount_value.strip() else None
    elif isinstance(mount_value, list):
        mount = [m.strip() for m in mount_value if isinstance(m, str) and m.strip()] or None
    else:
        mount = None
    stability_value = obj.get("稳变")
    stability = _STABILITY.get(stability_value.strip()) if isinstance(stability_value, str) else None
    body_key = "正文" if "正文" in obj else "body"
    questions_key = "开放问题" if "开放问题" in obj else "open_questions"
    return Fragment(
        brief=brief,
        skill=_string(obj, "技能", "skill", "name"),
        mount=mount,
        stability=stability,
        body=obj.get(body_key),
        has_body=has_body_key,
        open_questions=obj.get(questions_key),
        has_open_questions=questions_key in obj,
    )


def _canonical_json(fragment: Fragment) -> str:
    obj: dict[str, Any] = {"schema": CONTEXT_FRAGMENT_SCHEMA}
    if fragment.skill is not None:
        obj["技能"] = fragment.skill
    obj["brief"] = fragment.brief
    if fragment.mount is not None:
        obj["mount"] = fragment.mount
    if fragment.stability is not None:
        obj["稳变"] = fragment.stability
    if fragment.has_body:
        obj["正文"] = fragment.body
    if fragment.has_open_questions:
        obj["开放问题"] = fragment.open_questions
    return js_stringify(obj, indent=2)


def project_content(content: str, projection: str | None) -> str:
    """``applyProjection`` for one non-history text (A.5)."""
    if not projection or projection == "full":
        return content
    mode = projection.strip().lower()
    fragment = as_fragment(content)
    if fragment is None:
        if mode in ("summary", "brief", "index") and utf16_len(content) > PLAIN_SUMMARY_LIMIT:
            return js_slice(content, 0, PLAIN_SUMMARY_LIMIT) + "…"
        return content
    brief_or_raw = fragment.brief or content
    if mode in ("summary", "brief", "fixed"):
        return brief_or_raw
    if mode == "index":
        lines = []
        if fragment.skill:
            lines.append(f"技能：{fragment.skill}")
        if fragment.brief:
            lines.append(fragment.brief)
        if fragment.mount:
            lines.append("挂载：" + "、".join(fragment.mount))
        if fragment.stability:
            lines.append(f"稳变：{fragment.stability}")
        return "\n".join(lines) if lines else brief_or_raw
    if mode == "fields":
        if isinstance(fragment.body, Mapping):
            # Object.keys order (integer-like keys first, ascending): the order JSON.stringify writes.
            keys = "、".join(js_parse(js_stringify(dict(fragment.body)))) or "（无）"
            return f"brief: {fragment.brief}\n字段: {keys}"
        return brief_or_raw
    return _canonical_json(fragment)
