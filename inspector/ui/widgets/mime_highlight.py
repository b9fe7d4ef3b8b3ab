"""Syntax highlighting of a resource's text by its MIME type (or its URI's file name), with pygments.

The whole text is lexed once (multi-line strings and comments come out right) and the formats are
stored per line; `highlightBlock` only applies them. Text past `MAX_CHARS` is not highlighted.
"""

from __future__ import annotations

from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename, get_lexer_for_mimetype
from pygments.token import Token, _TokenType
from pygments.util import ClassNotFound
from PySide6.QtGui import QColor, QFont, QSyntaxHighlighter, QTextCharFormat, QTextDocument

from inspector.ui.widgets.json_view import is_dark

MAX_CHARS = 200_000
PLAIN = {"text/plain", ""}
# MIME types pygments does not list under that name → a lexer name
ALIASES = {
    "text/markdown": "markdown",
    "application/yaml": "yaml",
    "text/yaml": "yaml",
    "application/toml": "toml",
    "text/x-toml": "toml",
    "application/sql": "sql",
    "application/graphql": "graphql",
    "text/x-shellscript": "bash",
}

_DARK = {
    Token.Keyword: "#ff7b72",
    Token.Name.Function: "#d2a8ff",
    Token.Name.Class: "#f0b86e",
    Token.Name.Tag: "#7ee787",
    Token.Name.Attribute: "#79c0ff",
    Token.Name.Builtin: "#ffa657",
    Token.Literal.String: "#a5d6ff",
    Token.Literal.Number: "#f5a55b",
    Token.Comment: "#8b949e",
    Token.Operator: "#ff7b72",
    Token.Generic.Heading: "#79c0ff",
    Token.Generic.Subheading: "#79c0ff",
    Token.Generic.Strong: "#e6edf3",
    Token.Generic.Emph: "#d2a8ff",
    Token.Keyword.Constant: "#d19cf0",
    Token.Error: "#ff7b7b",
}
_LIGHT = {
    Token.Keyword: "#cf222e",
    Token.Name.Function: "#8250df",
    Token.Name.Class: "#953800",
    Token.Name.Tag: "#116329",
    Token.Name.Attribute: "#0550ae",
    Token.Name.Builtin: "#953800",
    Token.Literal.String: "#0a3069",
    Token.Literal.Number: "#b5530b",
    Token.Comment: "#6e7781",
    Token.Operator: "#cf222e",
    Token.Generic.Heading: "#0550ae",
    Token.Generic.Subheading: "#0550ae",
    Token.Generic.Strong: "#24292f",
    Token.Generic.Emph: "#8250df",
    Token.Keyword.Constant: "#9141ac",
    Token.Error: "#c01c28",
}
_BOLD = (Token.Generic.Heading, Token.Generic.Subheading, Token.Generic.Strong)


def lexer_for(mime: str | None, uri: str | None = None) -> Lexer | None:
    """A pygments lexer for this MIME type (parameters ignored), else for the URI's file name."""
    base = (mime or "").split(";", 1)[0].strip().lower()
    if base.endswith(("+json", "+xml")):
        base = "application/" + base.rsplit("+", 1)[1]
    if base not in PLAIN:
        try:
            return get_lexer_by_name(ALIASES[base]) if base in ALIASES else get_lexer_for_mimetype(base)
        except ClassNotFound:
            pass
    name = (uri or "").split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
    if "." in name:
        try:
            return get_lexer_for_filename(name)
        except ClassNotFound:
            return None
    return None


class MimeHighlighter(QSyntaxHighlighter):
    """Colours a read-only document with `lexer`; `language` names it for the UI."""

    def __init__(self, document: QTextDocument, lexer: Lexer, *, dark: bool | None = None) -> None:
        super().__init__(document)
        self.language = lexer.name
        colours = _DARK if (is_dark() if dark is None else dark) else _LIGHT
        self._formats: dict[_TokenType, QTextCharFormat] = {}
        for token, colour in colours.items():
            fmt = QTextCharFormat()
            fmt.setForeground(QColor(colour))
            if token in _BOLD:
                fmt.setFontWeight(QFont.Weight.Bold)
            self._formats[token] = fmt
        self._lines: list[list[tuple[int, int, QTextCharFormat]]] = []
        text = document.toPlainText()
        if len(text) <= MAX_CHARS:
            self._lines = self._lex(lexer, text)
        self.rehighlight()

    def _format_for(self, token: _TokenType) -> QTextCharFormat | None:
        probe: _TokenType | None = token
        while probe is not None:
            if probe in self._formats:
                return self._formats[probe]
            probe = probe.parent
        return None

    def _lex(self, lexer: Lexer, text: str) -> list[list[tuple[int, int, QTextCharFormat]]]:
        lines: list[list[tuple[int, int, QTextCharFormat]]] = [[]]
        column = 0  # in UTF-16 code units, as Qt counts
        for _, token, value in lexer.get_tokens_unprocessed(text):
            fmt = self._format_for(token)
            for index, part in enumerate(value.split("\n")):
                if index:
                    lines.append([])
                    column = 0
                length = len(part.encode("utf-16-le")) // 2
                if fmt is not None and length:
                    lines[-1].append((column, length, fmt))
                column += length
        return lines

    def highlightBlock(self, text: str) -> None:
        number = self.currentBlock().blockNumber()
        if number < len(self._lines):
            for start, length, fmt in self._lines[number]:
                self.setFormat(start, length, fmt)
