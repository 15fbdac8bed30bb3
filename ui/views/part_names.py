"""The shown (translated) names of request parts.

The core labels every part in English (``inspector.anatomy.labelling``), and those labels are also data: the
CLI prints them, the JSON carries them and the compare view matches parts by them. The views
translate them only when they draw them, here. A label the table does not know (an XML tag such as
``<world-lore>``, a tool's name, a preamble tag) is shown as recorded, because it is text the
engine itself wrote.
"""

from __future__ import annotations

import re
from functools import cache

from inspector.numbering import shown


def _tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("PartNames", text)


@cache
def _whole_labels() -> dict[str, str]:
    # Built on first use: QCoreApplication.translate needs the translator installed first.
    return {
        "system prompt": _tr("system prompt"),
        "preamble": _tr("preamble"),
        "runtime body": _tr("runtime body"),
        "stable segments": _tr("stable segments"),
        "world info (before plugin)": _tr("world info (before plugin)"),
        "world info (after plugin)": _tr("world info (after plugin)"),
        "world info (after plugin; may include before-plugin entries)":
            _tr("world info (after plugin; may include before-plugin entries)"),
        "session injects": _tr("session injects"),
        "turn segments": _tr("turn segments"),
        "turn context": _tr("turn context"),
        "tools": _tr("tools"),
        "pre-history": _tr("pre-history"),
        "summaries": _tr("summaries"),
        "summary note": _tr("summary note"),
        "history": _tr("history"),
        "response format": _tr("response format"),
        "pictures": _tr("pictures"),
        "current input": _tr("current input"),
        "current input (blank-input cue)": _tr("current input (blank-input cue)"),
        "execution story": _tr("execution story"),
        "closing cue": _tr("closing cue"),
        "post-history (or depth-0 insertions)": _tr("post-history (or depth-0 insertions)"),
        "tool loop": _tr("tool loop"),
        "leading system message (pre-history or depth insertion)":
            _tr("leading system message (pre-history or depth insertion)"),
        "cache breakpoint (sentinel)": _tr("cache breakpoint (sentinel)"),
        "cache breakpoint (cache_control)": _tr("cache breakpoint (cache_control)"),
        "continuation opener": _tr("continuation opener"),
        "pruned-history marker": _tr("pruned-history marker"),
        "unrecognised text before the runtime body": _tr("unrecognised text before the runtime body"),
        "untagged segment": _tr("untagged segment"),
        "untagged text": _tr("untagged text"),
        "[Compacted history: …] (legacy)": _tr("[Compacted history: …] (legacy)"),
        # What the cache analysis names a first difference or a finding's part by.
        "request settings": _tr("request settings"),
        "(request ends earlier)": _tr("(request ends earlier)"),
        "(identical)": _tr("(identical)"),
        "(no earlier request)": _tr("(no earlier request)"),
        "depth insertion": _tr("depth insertion"),
        "cache breakpoints": _tr("cache breakpoints"),
        "every breakpoint": _tr("every breakpoint"),
        "cache writes": _tr("cache writes"),
        "cache TTL": _tr("cache TTL"),
        "input cost": _tr("input cost"),
    }


@cache
def _roles() -> dict[str, str]:
    """The roles a message label starts with (``user #0``)."""
    return {
        "system": _tr("system"),
        "user": _tr("user"),
        "assistant": _tr("assistant"),
        "tool": _tr("tool"),
        "developer": _tr("developer"),
        "model": _tr("model"),
    }


def role_label(role: str | None) -> str:
    """A message's role as shown (``user`` → "user" / "用户"); an unknown role as recorded, none as ""."""
    if not role:
        return ""
    return _roles().get(role, role)


def provenance_label(provenance: str) -> str:
    """How a token count was made (:class:`inspector.tokens.EncodingChoice`): ``exact`` or ``proxy``."""
    return {"exact": _tr("exact"), "proxy": _tr("proxy tokenizer")}.get(provenance, provenance)


@cache
def _numbered() -> dict[str, str]:
    """Labels the core numbers from 1 already: their templates."""
    return {
        "system prompt (part {n})": _tr("system prompt (part {n})"),
        "system block {n}": _tr("system block {n}"),
        "message {n}": _tr("message {n}"),
    }


@cache
def _qualifiers() -> dict[str, str]:
    """What follows ``role #n`` in a message's label."""
    return {
        "pre-history extension message": _tr("pre-history extension message"),
        "depth insertion or late system segment": _tr("depth insertion or late system segment"),
        "execution story": _tr("execution story"),
        "post-history segment or depth-0 insertion": _tr("post-history segment or depth-0 insertion"),
        "tool calls": _tr("tool calls"),
        "tool result": _tr("tool result"),
        "steering or retry hint": _tr("steering or retry hint"),
    }


def sentinel_chip() -> str:
    """What a cache sentinel shows as in a text view (``inspector.highlight`` finds any short text
    in these brackets again)."""
    return _tr("⟦cache breakpoint⟧")


# ``user #0``, ``system #3 (depth insertion or late system segment)``, ``tool #2``: the core counts
# messages (and tools) from 0, as the request holds them; a person reads them from 1.
_MESSAGE_LABEL = re.compile(r"^(\w+) #(\d+)(?: \((.+)\))?$")
_NUMBERED_LABEL = re.compile(r"^(system prompt \(part |system block |message )(\d+)(\)?)$")
_PATH_SEPARATOR = " › "


def part_label(label: str) -> str:
    """The shown name of one core label (or of a ``a › b`` path of them): translated, and a
    message's 0-based number shown from 1 (``user #0`` → "user #1")."""
    if _PATH_SEPARATOR in label:
        return _PATH_SEPARATOR.join(part_label(piece) for piece in label.split(_PATH_SEPARATOR))
    whole = _whole_labels().get(label)
    if whole is not None:
        return whole
    m = _MESSAGE_LABEL.match(label)
    if m is not None:
        # A role or qualifier the table does not know is shown as recorded, the number from 1 still.
        number = _tr("{role} #{n}").format(role=_roles().get(m.group(1), m.group(1)), n=shown(int(m.group(2))))
        if m.group(3) is None:
            return number
        qualifier = _qualifiers().get(m.group(3), m.group(3))
        return _tr("{label} ({qualifier})").format(label=number, qualifier=qualifier)
    m = _NUMBERED_LABEL.match(label)
    if m is not None:
        template = _numbered().get(f"{m.group(1)}{{n}}{m.group(3)}")
        if template is not None:
            return template.format(n=m.group(2))
    return label


@cache
def _recorded_values() -> dict[str, str]:
    """Covel's enumerations as the navigator shows them: session phase, turn origin and commit
    status, runtime status (spec covel-db §2). Stages: :func:`stage_label`."""
    return {
        "setup": _tr("setup"),
        "playing": _tr("playing"),
        "player": _tr("player"),
        "manual": _tr("manual"),
        "follower": _tr("follower"),
        "recursive": _tr("recursive"),
        "continuation": _tr("continuation"),
        "pending": _tr("pending"),
        "committed": _tr("committed"),
        "uncommitted": _tr("uncommitted"),
        "failed": _tr("failed"),
        "success": _tr("success"),
        "started": _tr("started"),
        "skipped": _tr("skipped"),
        "deferred": _tr("deferred"),
        "suspended": _tr("suspended"),
        "completed": _tr("completed"),
    }


def _stage_tr(text: str) -> str:
    from PySide6.QtCore import QCoreApplication

    return QCoreApplication.translate("Stages", text)  # its own context: "setup" is a session phase too


@cache
def _stages() -> dict[str, str]:
    """Covel's stages (``inspector.turn.model.STAGE_ORDER``); a plugin's own stage stays as recorded."""
    return {
        "setup": _stage_tr("setup"),
        "pre-turn": _stage_tr("pre-turn"),
        "narrative": _stage_tr("narrative"),
        "post-turn": _stage_tr("post-turn"),
        "audit": _stage_tr("audit"),
    }


def stage_label(stage: str | None) -> str:
    """A runtime's stage as shown (``post-turn`` → "post-turn" / "回合后"); none as ""."""
    if not stage:
        return ""
    return _stages().get(stage, stage)


def value_label(value: str) -> str:
    """The shown name of a recorded enumeration value; an unknown one as recorded."""
    return _recorded_values().get(value, value)


def clear_cache() -> None:
    """Forget the translated tables (after the application's translator changes)."""
    _whole_labels.cache_clear()
    _qualifiers.cache_clear()
    _roles.cache_clear()
    _numbered.cache_clear()
    _recorded_values.cache_clear()
    _stages.cache_clear()
