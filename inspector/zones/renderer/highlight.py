"""Highlighting runs for a renderer template, read from the renderer's own scanner and parser, so
what is coloured as a tag is exactly what renders as one; a tag kept as text is ``literal``.

Tags may span lines in this dialect, so the runs are for the whole text (an editor colours each
line from them), not for one line at a time.
"""

from __future__ import annotations

from .lexer import (
    ESCAPE,
    TAG,
    TEXT,
    ExpressionError,
    scan_template,
    tokenize_expression,
    trim_span,
)
from .parser import Text, parse, walk

__all__ = ["runs"]

_TOKEN_KIND = {"identifier": "name", "string": "string", "number": "number", "keyword": "constant",
               "operator": "operator", "punctuation": "operator"}
_KEYWORDS = ("if ", "elseif ", "for ", "while ", "repeat ")
_BARE = {"/if": "closer", "/for": "closer", "/while": "closer", "/repeat": "closer", "else": "keyword"}


def _literal_starts(nodes: list) -> set[int]:
    """Where each piece kept as text starts (every text node's start)."""
    return {node.start for node in walk(nodes) if isinstance(node, Text)}


def _expression(source: str, start: int, end: int, out: list[tuple[int, int, str]]) -> None:
    try:
        tokens = tokenize_expression(source, start, end)
    except ExpressionError:
        out.append((start, end, "literal"))
        return
    pos = start
    for tok in tokens:
        if tok.type == "eof":
            break
        if tok.start > pos:
            out.append((pos, tok.start, "text"))
        out.append((tok.start, tok.end, _TOKEN_KIND[tok.type]))
        pos = tok.end
    if pos < end:
        out.append((pos, end, "text"))


def _tag(source: str, start: int, end: int, out: list[tuple[int, int, str]]) -> None:
    out.append((start, start + 1, "brace"))
    lo, hi = trim_span(source, start + 1, end - 1)
    if lo > start + 1:
        out.append((start + 1, lo, "text"))
    trimmed = source[lo:hi]
    bare = _BARE.get(trimmed)
    if bare is not None:
        out.append((lo, hi, bare))
    else:
        keyword = next((k for k in _KEYWORDS if trimmed.startswith(k)), None)
        if keyword is None:
            _expression(source, lo, hi, out)
        else:
            word_end = lo + len(keyword) - 1
            out.append((lo, word_end, "keyword"))
            rest = word_end
            if keyword == "for ":
                at = source.find(" in ", word_end, hi)
                if at >= 0:
                    var_lo, var_hi = trim_span(source, word_end, at)
                    if var_lo > word_end:
                        out.append((word_end, var_lo, "text"))
                    if var_hi > var_lo:
                        out.append((var_lo, var_hi, "name"))
                    out.append((var_hi, at + 1, "text"))
                    out.append((at + 1, at + 3, "keyword"))
                    rest = at + 3
            _expression(source, rest, hi, out)
    if hi < end - 1:
        out.append((hi, end - 1, "text"))
    out.append((end - 1, end, "brace"))


def runs(source: str) -> list[tuple[int, int, str]]:
    """``(start, end, kind)`` covering ``source`` in order, Python indices; kinds: text, escape,
    brace, keyword, closer, name, string, number, operator, constant, literal."""
    literal = _literal_starts(parse(source).nodes)
    out: list[tuple[int, int, str]] = []
    for kind, start, end, _value in scan_template(source):
        if kind == TEXT:
            out.append((start, end, "text"))
        elif kind == ESCAPE:
            out.append((start, end, "escape"))
        elif kind == TAG and start not in literal:
            _tag(source, start, end, out)
        else:
            out.append((start, end, "literal"))
    return [r for r in out if r[1] > r[0]]
