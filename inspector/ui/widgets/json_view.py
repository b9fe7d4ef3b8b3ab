"""A read-only text pane for wire messages: pretty, pygments-highlighted JSON, or the exact text.

Everything goes through `QPlainTextEdit.setPlainText`: server bytes are never read as markup, and
control, bidi and invisible characters are shown as escapes (`inspector.content.visible`).
Qt lays out a long wrapped line in quadratic time (a 1 MB wrapped line took 50 s here), so wrapping
is switched off for text with very long lines, and entries past `BIG_BYTES` first show a plain
preview of `PREVIEW_CHARS` characters; formatting, highlighting and the full text are on demand.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from json.encoder import encode_basestring  # type: ignore[attr-defined]  # the C string encoder
from typing import Any

from pygments.lexers.data import JsonLexer
from pygments.token import Token, _TokenType
from PySide6.QtCore import Qt
from PySide6.QtGui import (
    QColor,
    QFontDatabase,
    QGuiApplication,
    QPalette,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextDocument,
)
from PySide6.QtWidgets import QApplication, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from inspector.content import human_size
from inspector.content.visible import visible

BIG_BYTES = 200 * 1024  # past this, plain text first and highlighting on demand
PREVIEW_CHARS = 200_000  # characters shown at once for a big entry
WRAP_LIMIT = 10_000  # longest line that is still wrapped
ELIDE_CHARS = 100_000  # string values longer than this are shortened in the formatted view of a big entry
FORMAT_MAX_CHARS = 2_000_000  # formatted text shown at most (~0.8 s for a 20 MB tools/list, parse included)
HIGHLIGHT_MAX_CHARS = 1_000_000  # formatted text highlighted at most (~0.5 s of pygments)
SHOW_ALL_MAX_LINE = 1_000_000  # "Show all" only while no line is longer (a 1 MB line: ~0.3 s unwrapped)
SHOW_ALL_MAX_CHARS = 16_000_000

_LIGHT = {
    Token.Name.Tag: "#1a5fb4",
    Token.Literal.String: "#2a7e19",
    Token.Literal.Number: "#b5530b",
    Token.Keyword.Constant: "#9141ac",
    Token.Punctuation: "#777777",
    Token.Error: "#c01c28",
}
_DARK = {
    Token.Name.Tag: "#78aeff",
    Token.Literal.String: "#8fd16f",
    Token.Literal.Number: "#f5a55b",
    Token.Keyword.Constant: "#d19cf0",
    Token.Punctuation: "#9a9a9a",
    Token.Error: "#ff7b7b",
}


def is_dark(palette: QPalette | None = None) -> bool:
    palette = palette or QGuiApplication.palette()
    return palette.color(QPalette.ColorRole.Base).lightness() < 128


def pretty_json(raw: bytes) -> str | None:
    """`raw` parsed and re-indented (key order kept), or None when it is not JSON."""
    try:
        return json.dumps(json.loads(raw), indent=2, ensure_ascii=False)
    except (ValueError, RecursionError):
        return None


def pretty_json_bounded(raw: bytes, *, elide: int, max_chars: int) -> tuple[str, bool] | None:
    """Like `pretty_json` for big values: strings longer than `elide` are shortened, and output
    stops after about `max_chars` (at a line end). Returns (text, cut), or None when not JSON.
    Built lazily, so a 30 MB result costs what is shown, not what it would take to print it all."""
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    parts: list[str] = []
    size = 0
    try:
        for chunk in _iter_pretty(value, 0, elide):
            parts.append(chunk)
            size += len(chunk)
            if size > max_chars:
                text = "".join(parts)
                return text[: text.rfind("\n", 0, max_chars) + 1] + "…", True
    except RecursionError:
        return None
    return "".join(parts), False


def _scalar(value: Any, elide: int) -> str:
    if isinstance(value, str):
        if len(value) > elide:
            value = f"{value[:elide]}… [{len(value) - elide:,} more characters: see Raw or Copy message]"
        return encode_basestring(value)
    if value is True:
        return "true"
    if value is False:
        return "false"
    if value is None:
        return "null"
    return json.dumps(value)


def _iter_pretty(value: Any, depth: int, elide: int) -> Iterator[str]:
    """Chunks of `value` as `json.dumps(value, indent=2, ensure_ascii=False)` would print it."""
    if isinstance(value, dict | list) and value:
        pad = "\n" + "  " * (depth + 1)
        opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
        yield opening
        items = value.items() if isinstance(value, dict) else enumerate(value)
        separator = pad
        for key, item in items:
            yield separator + (_scalar(key, elide) + ": " if isinstance(value, dict) else "")
            separator = "," + pad
            yield from _iter_pretty(item, depth + 1, elide)
        yield "\n" + "  " * depth + closing
    elif isinstance(value, dict | list):
        yield "{}" if isinstance(value, dict) else "[]"
    else:
        yield _scalar(value, elide)


def raw_text(raw: bytes) -> str:
    """The exact bytes as text: UTF-8, with `\\xNN` for every byte that is not."""
    return raw.decode("utf-8", errors="backslashreplace")


class JsonHighlighter(QSyntaxHighlighter):
    """Colours JSON line by line with pygments' `JsonLexer` (pretty JSON never spans a line inside a token)."""

    def __init__(self, document: QTextDocument | None = None, *, dark: bool | None = None) -> None:
        super().__init__(document)
        self._lexer = JsonLexer()
        colours = _DARK if (is_dark() if dark is None else dark) else _LIGHT
        self._formats: dict[_TokenType, QTextCharFormat] = {}
        for token, colour in colours.items():
            fmt = QTextCharFormat()
            fmt.setForeground(QColor(colour))
            self._formats[token] = fmt
        self._lookup: dict[_TokenType, QTextCharFormat | None] = {}

    def _format_for(self, token: _TokenType) -> QTextCharFormat | None:
        try:
            return self._lookup[token]
        except KeyError:
            found = None
            probe: _TokenType | None = token
            while probe is not None:
                if probe in self._formats:
                    found = self._formats[probe]
                    break
                probe = probe.parent
            self._lookup[token] = found
            return found

    def highlightBlock(self, text: str) -> None:
        ascii_only = text.isascii()
        position = 0  # in UTF-16 code units, which is what Qt counts
        for _, token, value in self._lexer.get_tokens_unprocessed(text):
            length = len(value) if ascii_only else len(value.encode("utf-16-le")) // 2
            fmt = self._format_for(token)
            if fmt is not None:
                self.setFormat(position, length, fmt)
            position += length


class JsonView(QWidget):
    """A read-only text pane with an info bar for big entries.

    `show_json(raw)` shows pretty, highlighted JSON (or the text when it is not JSON);
    `show_raw(raw)` shows the exact bytes as text. Big entries show a plain preview first with
    "Format and highlight" / "Show all" buttons, each bounded so that a click costs about a second
    at most: the formatted text is cut at `FORMAT_MAX_CHARS` and highlighted up to
    `HIGHLIGHT_MAX_CHARS`; "Show all" is offered while no line is longer than `SHOW_ALL_MAX_LINE`.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.copy_hint = "Copy message copies it all"  # how to get a large entry whole where this view is
        self.edit = QPlainTextEdit(self)
        self.edit.setReadOnly(True)
        self.edit.setAccessibleName("JSON text")
        self.edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.highlighter = JsonHighlighter(None)
        self.info = QLabel(self)
        self.info.setTextFormat(Qt.TextFormat.PlainText)
        self.info.setWordWrap(True)
        self.format_button = QPushButton("Format and highlight", self)
        self.format_button.clicked.connect(self.format_now)
        self.all_button = QPushButton("Show all", self)
        self.all_button.clicked.connect(self.show_all)
        self._bar = QWidget(self)
        bar = QHBoxLayout(self._bar)
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(self.info, 1)
        bar.addWidget(self.format_button)
        bar.addWidget(self.all_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self._bar)
        layout.addWidget(self.edit, 1)
        self._raw = b""
        self._json_mode = False
        self.highlighted = False
        self.truncated = False
        self._bar.hide()

    # -- public --------------------------------------------------------------------------------
    def clear(self) -> None:
        self._raw = b""
        self.truncated = False
        self._set_text("", highlight=False)
        self._bar.hide()

    def text(self) -> str:
        return self.edit.toPlainText()

    def show_json(self, raw: bytes) -> None:
        self._raw, self._json_mode = raw, True
        if len(raw) > BIG_BYTES:
            self._show_preview()
            return
        pretty = pretty_json(raw)
        self.truncated = False
        self._bar.hide()
        self._set_text(pretty if pretty is not None else raw_text(raw), highlight=pretty is not None)

    def show_raw(self, raw: bytes) -> None:
        self._raw, self._json_mode = raw, False
        if len(raw) > BIG_BYTES:
            self._show_preview()
            return
        self.truncated = False
        self._bar.hide()
        self._set_text(raw_text(raw), highlight=False)

    def format_now(self) -> None:
        """Pretty-print (long strings shortened, very long output cut) and highlight when small enough."""
        with _busy():
            formatted = pretty_json_bounded(self._raw, elide=ELIDE_CHARS, max_chars=FORMAT_MAX_CHARS)
            if formatted is None:
                self.info.setText(f"{self._size_text()}: not JSON, nothing to format.")
                self.format_button.setEnabled(False)
                return
            pretty, cut = formatted
            highlight = len(pretty) <= HIGHLIGHT_MAX_CHARS
            self._set_text(pretty, highlight=highlight)
        self.truncated = cut
        notes = [f"string values over {ELIDE_CHARS:,} characters shortened"]
        if cut:
            notes.append(f"cut after {FORMAT_MAX_CHARS:,} characters")
        if not highlight:
            notes.append("too large to highlight")
        self.info.setText(f"{self._size_text()}: formatted; {'; '.join(notes)}. {self.copy_hint}.")
        self.format_button.hide()
        self.all_button.hide()

    def show_all(self) -> None:
        """The whole entry as plain text (only offered while that stays fast, see `SHOW_ALL_MAX_LINE`)."""
        with _busy():
            self._set_text(raw_text(self._raw), highlight=False)
        self.truncated = False
        self.info.setText(f"{self._size_text()}: all of it, as plain text.")
        self.all_button.hide()

    # -- internals -----------------------------------------------------------------------------
    def _size_text(self) -> str:
        return f"Large entry ({human_size(len(self._raw), short=True)})"

    def _show_preview(self) -> None:
        text = raw_text(self._raw)
        self.truncated = len(text) > PREVIEW_CHARS
        self._set_text(text[:PREVIEW_CHARS], highlight=False)
        longest = len(text) if "\n" not in text else max(map(len, text.split("\n")))
        can_show_all = self.truncated and longest <= SHOW_ALL_MAX_LINE and len(text) <= SHOW_ALL_MAX_CHARS
        info = f"{self._size_text()}: plain text"
        if self.truncated:
            info += f", the first {PREVIEW_CHARS:,} of {len(text):,} characters"
            if not can_show_all:
                info += f" (too long to show whole here: {self.copy_hint})"
        self.info.setText(info + ".")
        self.format_button.setVisible(self._json_mode)
        self.format_button.setEnabled(True)
        self.all_button.setVisible(can_show_all)
        self._bar.show()

    def _set_text(self, text: str, *, highlight: bool) -> None:
        longest = max(map(len, text.split("\n")), default=0) if len(text) > WRAP_LIMIT else 0
        wrap = longest <= WRAP_LIMIT
        self.edit.setLineWrapMode(
            QPlainTextEdit.LineWrapMode.WidgetWidth if wrap else QPlainTextEdit.LineWrapMode.NoWrap
        )
        # Detached while the text is set; attaching re-highlights once, on the next event-loop tick.
        self.highlighter.setDocument(None)
        self.edit.setPlainText(visible(text))  # escapes, bidi and invisible characters shown, never obeyed
        if highlight:
            self.highlighter.setDocument(self.edit.document())
        self.highlighted = highlight


class _busy:
    def __enter__(self) -> None:
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)

    def __exit__(self, *exc: object) -> None:
        QApplication.restoreOverrideCursor()
