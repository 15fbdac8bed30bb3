"""The writing-agent blackboard: tagged text items with an update time and an archived flag.

Reads follow ../shared/spec/writing-agent.md A.4 (``readTagContent``): a pattern is an exact tag,
``prefix.*`` (the prefix and every tag under ``prefix.``) or ``**`` (everything); ``latest`` gives the newest
matching item, ``concat`` the newest item of every matching tag, oldest first, joined with
"\\n\\n---\\n\\n". The newest item of a tag is found first and dropped when it is archived, so an
archived newest version hides its tag (the original archives a tag's current item).
"""

from __future__ import annotations

import datetime as _dt
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from inspector.jsjson import js_stringify

from .vocabulary import CONCAT_SEPARATOR

__all__ = ["BlackboardItem", "Blackboard", "BlackboardError", "tag_matches", "items_from_data", "parse_time",
           "FULL_ACCESS"]


class BlackboardError(ValueError):
    """A blackboard file or row that cannot be read; the message names the row."""


FULL_ACCESS = "**"


def tag_matches(pattern: str, tag: str) -> bool:
    """``tagMatchesPattern``: ``**`` matches every tag, ``prefix.*`` the prefix itself and every
    tag under ``prefix.``, anything else only itself."""
    pattern = pattern.strip()
    if pattern == FULL_ACCESS:
        return True
    if pattern.endswith(".*"):
        prefix = pattern[:-2]
        return tag == prefix or tag.startswith(prefix + ".")
    return tag == pattern


@dataclass(frozen=True, slots=True)
class BlackboardItem:
    tag: str
    content: str
    # Seconds since the epoch, or None when the row gave no time; file order breaks ties.
    updated_at: float | None = None
    archived: bool = False
    source: str = ""
    seq: int = 0

    @property
    def sort_key(self) -> tuple[float, int]:
        return (-math.inf if self.updated_at is None else self.updated_at, self.seq)


class Blackboard:
    """An immutable set of items with the reads assembly needs, indexed for repeated reads."""

    def __init__(self, items: Iterable[BlackboardItem] = ()) -> None:
        self._items = tuple(items)
        newest: dict[str, BlackboardItem] = {}
        for item in self._items:
            current = newest.get(item.tag)
            if current is None or item.sort_key >= current.sort_key:
                newest[item.tag] = item
        self._latest = {tag: item for tag, item in newest.items() if not item.archived}
        self._match_cache: dict[str, tuple[BlackboardItem, ...]] = {}

    @property
    def items(self) -> tuple[BlackboardItem, ...]:
        return self._items

    def tags(self) -> list[str]:
        """Tags with at least one live (non-archived) item, in first-seen order."""
        return list(self._latest)

    def matching(self, pattern: str) -> tuple[BlackboardItem, ...]:
        """The newest live item of every tag the pattern matches, oldest first."""
        cached = self._match_cache.get(pattern)
        if cached is None:
            cached = tuple(sorted((i for t, i in self._latest.items() if tag_matches(pattern, t)),
                                  key=lambda item: item.sort_key))
            self._match_cache[pattern] = cached
        return cached

    def latest(self, pattern: str) -> BlackboardItem | None:
        found = self.matching(pattern)
        return found[-1] if found else None

    def concat(self, pattern: str) -> str:
        """What a ``concat`` read of one pattern gives (``readTagContent`` joins the items)."""
        return "\n\n".join(content for content in self.read(pattern, "concat") if content)

    def read(self, pattern: str, merge: str = "latest") -> list[str]:
        """The item contents ``queryByPatterns([pattern], merge)`` returns: for ``latest`` the
        newest one; for ``concat`` one text, the matches joined with "\\n\\n---\\n\\n", except
        that ``**`` returns every tag's item on its own, oldest first."""
        found = self.matching(pattern)
        if not found:
            return []
        if merge != "concat":
            return [found[-1].content]
        if pattern.strip() == FULL_ACCESS:
            return [item.content for item in found]
        return [CONCAT_SEPARATOR.join(item.content for item in found)]

    def value(self, tag: str) -> str:
        """The newest live content of exactly ``tag``, or ""."""
        item = self._latest.get(tag)
        return item.content if item else ""

    def without(self, hidden: Callable[[str], bool]) -> Blackboard:
        """The blackboard minus every item whose tag ``hidden`` accepts."""
        return Blackboard(item for item in self._items if not hidden(item.tag))

    def with_value(self, tag: str, content: str) -> Blackboard:
        """A copy where ``tag`` reads ``content`` (as the newest item); an empty content hides the tag."""
        newest = max((i.sort_key for i in self._items), default=(0.0, 0))
        kept = [item for item in self._items if item.tag != tag]
        if content:
            stamp = None if newest[0] == -math.inf else newest[0]
            kept.append(BlackboardItem(tag, content, stamp, False, "override", newest[1] + 1))
        return Blackboard(kept)

    def __len__(self) -> int:
        return len(self._items)


# --- reading rows ------------------------------------------------------------------------------

def parse_time(value: Any, where: str = "") -> float | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise BlackboardError(f"{where}updated time {value!r} is not a time")
    if isinstance(value, (int, float)):
        if not math.isfinite(value):
            raise BlackboardError(f"{where}updated time {value!r} is not a time")
        return float(value)
    if isinstance(value, _dt.datetime):
        moment = value if value.tzinfo else value.replace(tzinfo=_dt.timezone.utc)
        return moment.timestamp()
    if isinstance(value, _dt.date):
        return _dt.datetime(value.year, value.month, value.day, tzinfo=_dt.timezone.utc).timestamp()
    if isinstance(value, str):
        text = value.strip()
        try:
            return parse_time(_dt.datetime.fromisoformat(text.replace("Z", "+00:00")), where)
        except ValueError:
            pass
        try:
            return parse_time(float(text), where)
        except ValueError:
            raise BlackboardError(f"{where}updated time {value!r} is neither an ISO time nor a number") from None
    raise BlackboardError(f"{where}updated time of type {type(value).__name__} is not a time")


def _plain(value: Any) -> Any:
    """YAML values as JSON ones: times become ISO strings."""
    if isinstance(value, (_dt.datetime, _dt.date)):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _content_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    # A structured value (a context-fragment.v1 written as YAML) is stored as its JSON text,
    # because the blackboard holds text and the projection parses text.
    return js_stringify(_plain(value), indent=2)


def items_from_data(data: Any) -> list[BlackboardItem]:
    """Items from a list of rows ``{tag, content, updated?, archived?, source?}`` or from a
    mapping ``tag -> content`` (or ``tag -> row`` / ``tag -> [rows]``)."""
    rows: list[tuple[str | None, Any]] = []
    if isinstance(data, list):
        rows = [(None, row) for row in data]
    elif isinstance(data, Mapping):
        for tag, value in data.items():
            if isinstance(value, list) and all(isinstance(v, Mapping) for v in value) and value:
                rows.extend((str(tag), v) for v in value)
            else:
                rows.append((str(tag), value))
    elif data is not None:
        raise BlackboardError(f"must be a list of items or a mapping of tags, not {type(data).__name__}")
    items = []
    for seq, (tag, row) in enumerate(rows):
        where = f"item {seq + 1}{f' ({tag})' if tag else ''}: "
        if tag is not None and not (isinstance(row, Mapping) and ("content" in row or "value" in row)):
            items.append(BlackboardItem(tag, _content_text(row), None, False, "", seq))
            continue
        if not isinstance(row, Mapping):
            raise BlackboardError(f"{where}expected a mapping with tag and content")
        row_tag = tag if tag is not None else row.get("tag")
        if not isinstance(row_tag, str) or not row_tag.strip():
            raise BlackboardError(f"{where}has no tag")
        archived = row.get("archived", False)
        if not isinstance(archived, bool):
            raise BlackboardError(f"{where}archived must be true or false")
        updated = next((row[k] for k in ("updated_at", "updatedAt", "updated") if k in row), None)
        source = row.get("source")
        items.append(BlackboardItem(
            tag=row_tag.strip(),
            content=_content_text(row["content"] if "content" in row else row.get("value")),
            updated_at=parse_time(updated, where),
            archived=archived,
            source=source if isinstance(source, str) else "",
            seq=seq,
        ))
    return items

