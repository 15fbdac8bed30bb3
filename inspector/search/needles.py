"""What a prompt search looks for in stored payloads: the one rule, shared by the scan
(``inspector.views.search_requests``) and the search index (``inspector.search.index``)."""

from __future__ import annotations

import json


def search_needles(text: str) -> list[bytes]:
    """The byte strings a search for ``text`` looks for in a stored payload (lower-cased)."""
    # Payloads are stored as JSON, so a newline, quote or non-ASCII character in the prompt may be
    # written escaped; look for the text both as typed and as JSON would escape it.
    # Only ASCII is case-folded, on both sides, matching what bytes.lower() does to the payload.
    plain = text.encode("utf-8").lower()
    escaped = json.dumps(text, ensure_ascii=False)[1:-1].encode("utf-8").lower()
    ascii_escaped = json.dumps(text, ensure_ascii=True)[1:-1].encode("utf-8").lower()
    out: list[bytes] = []
    for needle in (plain, escaped, ascii_escaped):
        if needle not in out:
            out.append(needle)
    return out
