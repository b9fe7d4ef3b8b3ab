"""A small pygments JSON highlighter for result panes (line by line on a QPlainTextEdit document)."""

from __future__ import annotations

from pygments.lexers.data import JsonLexer
from pygments.token import Token, _TokenType
from PySide6.QtGui import QColor, QGuiApplication, QPalette, QSyntaxHighlighter, QTextCharFormat, QTextDocument

_LIGHT = {
    Token.Name.Tag: "#1a5fb4",
    Token.Literal.String: "#26801a",
    Token.Literal.Number: "#b5530b",
    Token.Keyword.Constant: "#8f3fae",
    Token.Punctuation: "#6e6e6e",
    Token.Error: "#c01c28",
}
_DARK = {
    Token.Name.Tag: "#79aefc",
    Token.Literal.String: "#8fd16f",
    Token.Literal.Number: "#f5a55b",
    Token.Keyword.Constant: "#d19cf0",
    Token.Punctuation: "#9a9a9a",
    Token.Error: "#ff7b7b",
}


def palette_is_dark(palette: QPalette | None = None) -> bool:
    palette = palette or QGuiApplication.palette()
    return palette.color(QPalette.ColorRole.Base).lightness() < 128


class JsonSyntaxHighlighter(QSyntaxHighlighter):
    """Colours pretty-printed JSON; each line is lexed on its own (no token spans two lines)."""

    def __init__(self, document: QTextDocument | None = None, *, dark: bool | None = None) -> None:
        super().__init__(document)
        self._lexer = JsonLexer()
        colours = _DARK if (palette_is_dark() if dark is None else dark) else _LIGHT
        self._formats: dict[_TokenType, QTextCharFormat] = {}
        for token, colour in colours.items():
            fmt = QTextCharFormat()
            fmt.setForeground(QColor(colour))
            self._formats[token] = fmt
        self._cache: dict[_TokenType, QTextCharFormat | None] = {}

    def _format(self, token: _TokenType) -> QTextCharFormat | None:
        if token not in self._cache:
            probe: _TokenType | None = token
            while probe is not None and probe not in self._formats:
                probe = probe.parent
            self._cache[token] = self._formats.get(probe) if probe is not None else None
        return self._cache[token]

    def highlightBlock(self, text: str) -> None:
        ascii_only = text.isascii()
        position = 0  # Qt counts UTF-16 code units
        for _, token, value in self._lexer.get_tokens_unprocessed(text):
            length = len(value) if ascii_only else len(value.encode("utf-16-le")) // 2
            fmt = self._format(token)
            if fmt is not None:
                self.setFormat(position, length, fmt)
            position += length
