"""Pygments lexers for the template languages, for the editor's highlighter.

No lexer has rules of its own: the ChatLuna lexer reads the parser's scanner (``template.lex``),
the renderer-dialect lexer the renderer's scanner and parser (``renderer.highlight_runs``) and the
Covel lexer the interpolator's matcher (``covel_templates``), so what is coloured as a tag is
exactly what the engine treats as one. v2-doc tags never span a line, so lexing one line at a time
(as ``QSyntaxHighlighter`` does) gives the same colours as lexing the whole text; renderer-dialect
tags may, so that dialect is lexed whole. Unbalanced blocks are shown by diagnostics, not by colour.

``spans``/``spans_utf16`` give ``(start, end, style_key)`` runs covering the text, the latter in
UTF-16 units for ``QSyntaxHighlighter.setFormat``.
"""

from __future__ import annotations

from pygments.lexer import Lexer
from pygments.token import (
    Error,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Token,
)

from inspector.highlight import runs_in_utf16

from . import covel_templates
from .renderer import DIALECT as RENDERER_DIALECT
from .renderer import highlight_runs
from .template import lex

TagBrace = Punctuation
LiteralBrace = Error  # a brace or tag kept as text: worth a second look
CovelVariable = Name.Variable
CovelTag = Name.Tag
CovelEscaped = Token.Zones.EscapedVariable

_KIND_TOKENS = {
    "text": Text,
    "escape": String.Escape,
    "brace": TagBrace,
    "keyword": Keyword,
    "closer": Keyword,
    "name": Name.Variable,
    "string": String,
    "number": Number,
    "operator": Operator,
    "constant": Keyword.Constant,
    "literal": LiteralBrace,
}

# Token type → style key the Qt highlighter maps to a format, most specific first.
_STYLE_KEYS = (
    (CovelEscaped, "escaped-variable"),
    (String.Escape, "escape"),
    (Keyword.Constant, "constant"),
    (Keyword, "keyword"),
    (Name.Variable, "variable"),
    (Name.Tag, "tag"),
    (String, "string"),
    (Number, "number"),
    (Operator, "operator"),
    (Punctuation, "brace"),
    (Error, "literal"),
)
STYLE_KEYS = tuple(k for _t, k in _STYLE_KEYS) + ("text",)


class ZonesTemplateLexer(Lexer):
    """ChatLuna v2 prompt templates: ``{name args}``, ``{if}``/``{for}``/``{while}``/``{repeat}``
    blocks, ``{{``/``}}`` escapes."""

    name = "ChatLuna prompt template"
    aliases = ["chatluna-template", "zones-template"]
    filenames: list[str] = []

    def get_tokens_unprocessed(self, text):
        for start, end, kind in lex(text):
            yield start, _KIND_TOKENS[kind], text[start:end]


class ChatLunaRendererLexer(Lexer):
    """The ``chatluna-renderer`` dialect (ChatLuna's published renderer): ``{expression}`` tags,
    ``{if}``/``{elseif}``/``{else}``, ``{for x in list}``, ``{while}``, ``{repeat}`` blocks,
    ``{{``/``}}`` escapes; a tag kept as text is marked ``literal``. Its tags may span lines, so
    lex the whole text (one line alone can misread a tag that starts on an earlier line)."""

    name = "ChatLuna renderer template"
    aliases = [RENDERER_DIALECT]
    filenames: list[str] = []

    def get_tokens_unprocessed(self, text):
        for start, end, kind in highlight_runs(text):
            yield start, _KIND_TOKENS[kind], text[start:end]


class CovelTemplateLexer(Lexer):
    """Covel runtime bodies: ``{{ path }}`` variables, tagged-block lines, and variables inside
    tagged blocks (whose values are XML-escaped) marked apart."""

    name = "Covel runtime template"
    aliases = ["covel-template"]
    filenames: list[str] = []

    def get_tokens_unprocessed(self, text):
        marks: list[tuple[int, int, object]] = []
        for start, end, name in covel_templates.tagged_blocks(text):
            open_len = len(name) + 2
            marks.append((start - open_len, start, CovelTag))
            marks.append((end, end + open_len + 1, CovelTag))
        for ref in covel_templates.references(text):
            marks.append((ref.start, ref.end, CovelEscaped if ref.tag is not None else CovelVariable))
        marks.sort(key=lambda m: m[0])
        pos = 0
        for start, end, ttype in marks:
            if start < pos:
                continue
            if start > pos:
                yield pos, Text, text[pos:start]
            yield start, ttype, text[start:end]
            pos = end
        if pos < len(text):
            yield pos, Text, text[pos:]


_LEXERS = {"zones": ZonesTemplateLexer(), "covel": CovelTemplateLexer(), RENDERER_DIALECT: ChatLunaRendererLexer()}


def _style_key(ttype) -> str:
    for base, key in _STYLE_KEYS:
        if ttype in base:
            return key
    return "text"


def spans(text: str, language: str = "zones") -> list[tuple[int, int, str]]:
    """``(start, end, style_key)`` runs covering ``text`` exactly, adjacent runs of one key merged;
    Python indices. ``language`` is ``zones`` (the v2-doc dialect), ``chatluna-renderer`` or
    ``covel``; the last two are for a whole text, not one line at a time."""
    out: list[tuple[int, int, str]] = []
    for start, ttype, value in _LEXERS[language].get_tokens_unprocessed(text):
        if not value:
            continue
        key = _style_key(ttype)
        end = start + len(value)
        if out and out[-1][2] == key and out[-1][1] == start:
            out[-1] = (out[-1][0], end, key)
        else:
            out.append((start, end, key))
    return out


def spans_utf16(text: str, language: str = "zones") -> list[tuple[int, int, str]]:
    """:func:`spans` in UTF-16 code units, what a Qt highlighter takes."""
    return runs_in_utf16(text, spans(text, language))
