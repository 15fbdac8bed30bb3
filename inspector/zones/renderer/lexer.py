"""The renderer's two scanners: template text into pieces, and a tag's expression into tokens.

Template pieces (what ChatLuna's template lexer produces, with source positions):

* ``{{`` writes ``{`` and ``}}`` writes ``}``, anywhere outside a tag;
* ``{`` opens a tag that runs to the ``}`` matching it: inner braces nest, and a quoted string
  (``"…"`` or ``'…'``, a backslash escaping the next character) hides braces. A tag may span
  lines. When no ``}`` closes it, the ``{`` and everything after it is kept as text;
* anything else is text (a lone ``}`` included).

Expression tokens: strings (with ``\\n \\t \\r`` escapes, any other escaped character standing
for itself), numbers (digits with an optional fraction; no sign, exponent or leading dot),
ASCII identifiers (``$`` and ``_`` allowed), the keywords ``true false null``, the operators
``== != <= >= && || + - * / % < > !`` and the punctuation ``( ) [ ] . , ? :``. Whitespace is
JavaScript's ``\\s``. Anything else (``=``, ``&``, a non-ASCII letter outside a string) is an error.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from inspector import wording
from inspector.jsjson import JS_SPACE

__all__ = [
    "ESCAPE",
    "TAG",
    "TEXT",
    "UNTERMINATED",
    "ExpressionError",
    "Piece",
    "Token",
    "scan_template",
    "tokenize_expression",
    "trim_span",
]

TEXT = "text"
ESCAPE = "escape"
TAG = "tag"
UNTERMINATED = "unterminated"  # a "{" with no "}" to close it: kept as text, to the end


class Piece(NamedTuple):
    kind: str  # TEXT | ESCAPE | TAG | UNTERMINATED
    start: int  # source span (a tag's includes its braces)
    end: int
    value: str  # the text written (TEXT, ESCAPE, UNTERMINATED) or the tag's content (TAG)


_TEXT_STOP = re.compile(r"\{|\}\}")
_IN_TAG = re.compile(r"[{}\"']")
_REST_OF_STRING = {'"': re.compile(r'(?:[^"\\]|\\[\s\S])*+"'), "'": re.compile(r"(?:[^'\\]|\\[\s\S])*+'")}


def _tag_end(source: str, open_at: int) -> int:
    """The index of the ``}`` closing the tag opened at ``open_at``, or -1."""
    depth = 1
    pos = open_at + 1
    search = _IN_TAG.search
    while True:
        m = search(source, pos)
        if m is None:
            return -1
        ch = m.group()
        if ch == "{":
            depth += 1
            pos = m.end()
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return m.start()
            pos = m.end()
        else:
            rest = _REST_OF_STRING[ch].match(source, m.end())
            if rest is None:
                return -1
            pos = rest.end()


def scan_template(source: str) -> list[Piece]:
    pieces: list[Piece] = []
    pos = 0
    n = len(source)
    stop = _TEXT_STOP.search
    while pos < n:
        if source.startswith("{{", pos):
            pieces.append(Piece(ESCAPE, pos, pos + 2, "{"))
            pos += 2
        elif source.startswith("}}", pos):
            pieces.append(Piece(ESCAPE, pos, pos + 2, "}"))
            pos += 2
        elif source[pos] == "{":
            close = _tag_end(source, pos)
            if close < 0:
                pieces.append(Piece(UNTERMINATED, pos, n, source[pos:]))
                pos = n
            else:
                pieces.append(Piece(TAG, pos, close + 1, source[pos + 1:close]))
                pos = close + 1
        else:
            m = stop(source, pos)
            end = n if m is None else m.start()
            pieces.append(Piece(TEXT, pos, end, source[pos:end]))
            pos = end
    return pieces


# --- expressions -------------------------------------------------------------------------------

class Token(NamedTuple):
    type: str  # "string" | "number" | "identifier" | "keyword" | "operator" | "punctuation" | "eof"
    value: object
    start: int  # span in the text given to tokenize_expression
    end: int


class ExpressionError(Exception):
    """An expression that does not parse: ``start``/``end`` locate it in the tokenized text."""

    def __init__(self, message: str, start: int, end: int) -> None:
        super().__init__(message)
        self.message = message
        self.start = start
        self.end = end


_SPACE = re.compile(f"[{JS_SPACE}]*")
_LEADING = re.compile(f"[{JS_SPACE}]*")
_TRAILING = re.compile(f"[{JS_SPACE}]*\\Z")
_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]*)?")
_IDENTIFIER = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_STRING_BODY = {'"': re.compile(r'(?:[^"\\]|\\[\s\S])*+"'), "'": re.compile(r"(?:[^'\\]|\\[\s\S])*+'")}
_ESCAPE = re.compile(r"\\([\s\S])")
_ESCAPED = {"n": "\n", "t": "\t", "r": "\r"}
_TWO = frozenset(("==", "!=", "<=", ">=", "&&", "||"))
_OPERATORS = frozenset("+-*/%<>!")
_PUNCTUATION = frozenset("()[].,?:")
KEYWORDS = frozenset(("true", "false", "null"))


def trim_span(text: str, start: int = 0, end: int | None = None) -> tuple[int, int]:
    """The span of ``text[start:end]`` without JavaScript whitespace at its ends (``trim()``)."""
    end = len(text) if end is None else end
    lead = _LEADING.match(text, start, end).end()
    if lead == end:
        return end, end
    trail = _TRAILING.search(text, lead, end).start()
    return lead, trail


def tokenize_expression(text: str, start: int = 0, end: int | None = None) -> list[Token]:
    """Tokens of ``text[start:end]`` (positions are indices into ``text``), ending with an
    ``eof`` token. Raises :class:`ExpressionError`."""
    end = len(text) if end is None else end
    pos = start
    tokens: list[Token] = []
    append = tokens.append
    while True:
        pos = _SPACE.match(text, pos, end).end()
        if pos >= end:
            break
        ch = text[pos]
        if ch == '"' or ch == "'":
            m = _STRING_BODY[ch].match(text, pos + 1, end)
            if m is None:
                raise ExpressionError(wording.RENDERER_EXPRESSION_UNTERMINATED_STRING, pos, end)
            raw = text[pos + 1:m.end() - 1]
            value = _ESCAPE.sub(lambda e: _ESCAPED.get(e.group(1), e.group(1)), raw) if "\\" in raw else raw
            append(Token("string", value, pos, m.end()))
            pos = m.end()
        elif "0" <= ch <= "9":
            m = _NUMBER.match(text, pos, end)
            append(Token("number", float(m.group()), pos, m.end()))
            pos = m.end()
        elif ch.isascii() and (ch.isalpha() or ch in "_$"):
            m = _IDENTIFIER.match(text, pos, end)
            name = m.group()
            append(Token("keyword" if name in KEYWORDS else "identifier", name, pos, m.end()))
            pos = m.end()
        elif text[pos:pos + 2] in _TWO and pos + 2 <= end:
            append(Token("operator", text[pos:pos + 2], pos, pos + 2))
            pos += 2
        elif ch in _OPERATORS:
            append(Token("operator", ch, pos, pos + 1))
            pos += 1
        elif ch in _PUNCTUATION:
            append(Token("punctuation", ch, pos, pos + 1))
            pos += 1
        else:
            raise ExpressionError(wording.RENDERER_EXPRESSION_BAD_CHARACTER.format(character=repr(ch)), pos, pos + 1)
    append(Token("eof", None, end, end))
    return tokens
