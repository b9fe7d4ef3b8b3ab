"""Text panes: a read-only editor that grows with its text, and the text / unknown block widgets.

A big text (past `BIG_CHARS`) is shown as it came, plain, its first `PREVIEW_CHARS` at once; "Format and
highlight" (JSON) and "Show all" are on demand, and "Show all" appends the rest in slices, one per
event-loop turn, so the window keeps answering while 50 MB is laid out. The pane keeps the whole text
for Copy; the result's Save writes it whole."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, Qt, QTimer
from PySide6.QtGui import QFontDatabase, QGuiApplication, QTextCursor
from PySide6.QtWidgets import QHBoxLayout, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from inspector.config.files import utf8
from inspector.content import TextPreview, UnknownPreview, human_size, to_json_text
from inspector.content.visible import visible
from inspector.ui.results.common import STYLES, BlockWidget
from inspector.ui.widgets.json_view import ELIDE_CHARS, HIGHLIGHT_MAX_CHARS, JsonHighlighter, pretty_json_bounded
from inspector.ui.widgets.plain_text import plain_label

BIG_CHARS = 200_000  # past this: plain text first, as it came; formatting and highlighting on demand
PREVIEW_CHARS = 200_000  # what a big text shows at once
SHOWN_CHARS = 2_000_000  # formatted text shown at most by "Format and highlight"
SLICE_CHARS = 256 * 1024  # "Show all" appends this much per event-loop turn (~30 ms of layout)
SHOW_ALL_MAX_LINE = 100_000  # "Show all" only while no line is longer (appending to a long line is quadratic)
WRAP_LIMIT = 10_000  # Qt wraps a long line in quadratic time: no wrapping past this line length


def display_text(text: str, is_json: bool, value: Any) -> str:
    """What a pane shows first: small JSON pretty-printed, anything big as it came (formatting 50 MB of
    JSON in Python takes seconds)."""
    return to_json_text(value) if is_json and len(text) <= BIG_CHARS else text


def has_line_longer(text: str, limit: int) -> bool:
    """Whether a line of `text` is longer than `limit`: a jump of `limit` characters per step (50 MB in
    a few hundred `rfind` calls, no list of its lines)."""
    start = 0
    while len(text) - start > limit:
        newline = text.rfind("\n", start, start + limit + 1)
        if newline < 0:
            return True
        start = newline + 1
    return False


class AutoHeightEdit(QPlainTextEdit):
    """A read-only QPlainTextEdit as tall as its text, between `min_lines` and `max_height` pixels."""

    def __init__(self, parent: QWidget | None = None, *, max_height: int = 360, min_lines: int = 1) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.max_height, self.min_lines = max_height, min_lines
        self.document().documentLayout().documentSizeChanged.connect(self._fit)
        self._fit()

    def _fit(self, *_: Any) -> None:
        margins = self.contentsMargins()
        height = max(self._content_height(), self.min_lines * self.fontMetrics().lineSpacing())
        height += 2 * self.document().documentMargin() + margins.top() + margins.bottom() + 2 * self.frameWidth()
        if self.lineWrapMode() == QPlainTextEdit.LineWrapMode.NoWrap and self._too_wide():
            height += self.horizontalScrollBar().sizeHint().height()
        self.setFixedHeight(min(round(height), self.max_height))

    def _content_height(self) -> float:
        """Laid-out height of the blocks, stopping once past `max_height` (big texts stay cheap)."""
        total = 0.0
        block = self.document().firstBlock()
        while block.isValid() and total <= self.max_height:
            total += self.blockBoundingRect(block).height()
            block = block.next()
        return total

    def _too_wide(self) -> bool:
        return self.document().idealWidth() > self.viewport().width()

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._fit()

    def changeEvent(self, event: Any) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._fit()


class TextPane(QWidget):
    """Text in an `AutoHeightEdit` with a Copy button; `is_json` text is monospaced and highlighted."""

    def __init__(
        self,
        text: str,
        *,
        is_json: bool = False,
        max_height: int = 360,
        show_copy: bool = True,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.is_json = is_json
        self.full_text = text
        self.edit = AutoHeightEdit(self, max_height=max_height)
        if is_json:
            self.edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.highlighter: JsonHighlighter | None = None
        self.copy_button = QPushButton("Copy", self)
        self.copy_button.clicked.connect(self.copy)
        self.highlight_button = QPushButton("Highlight", self)
        self.highlight_button.clicked.connect(self.highlight)
        self.all_button = QPushButton(f"Show all ({human_size(len(self.full_text))})", self)
        self.all_button.clicked.connect(self.show_all)
        self.copy_button.setVisible(show_copy)
        self.info = plain_label("", self, wrap=True, selectable=True)
        self.bar = QWidget(self)
        bar = QHBoxLayout(self.bar)
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(self.info, 1)
        for button in (self.highlight_button, self.all_button, self.copy_button):
            button.setAutoDefault(False)
            bar.addWidget(button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.edit)
        layout.addWidget(self.bar)
        big = len(self.full_text) > BIG_CHARS
        self.truncated = big and len(self.full_text) > PREVIEW_CHARS
        self._slices: list[str] = []
        self._loader = QTimer(self)
        self._loader.setInterval(0)
        self._loader.timeout.connect(self._append_slice)
        self._set(self.full_text[:PREVIEW_CHARS] if self.truncated else self.full_text)
        self.all_button.setVisible(self.truncated and not has_line_longer(self.full_text, SHOW_ALL_MAX_LINE))
        self.highlight_button.setText("Format and highlight" if big else "Highlight")
        self.highlight_button.setVisible(is_json and big)
        if is_json and not big:
            self.highlight()
        if self.truncated:
            whole = "" if not self.all_button.isHidden() else " (its lines are too long to show whole: Copy has it all)"
            self.info.setText(
                f"Showing the first {PREVIEW_CHARS:,} of {len(self.full_text):,} characters, as they came{whole}."
            )
        elif is_json and big:
            self.info.setText("Large JSON: shown as it came, without highlighting.")
        self._update_bar()

    def _update_bar(self) -> None:
        buttons = (self.highlight_button, self.all_button, self.copy_button)
        self.bar.setVisible(bool(self.info.text()) or any(not b.isHidden() for b in buttons))

    def _set(self, text: str, *, wrap: bool | None = None) -> None:
        longest = max((len(line) for line in text.splitlines()), default=0)
        if wrap is None:
            wrap = not self.is_json and longest <= WRAP_LIMIT
        self.edit.setLineWrapMode(
            QPlainTextEdit.LineWrapMode.WidgetWidth if wrap else QPlainTextEdit.LineWrapMode.NoWrap
        )
        self.edit.setPlainText(visible(text))  # escapes, bidi and invisible characters shown, never obeyed

    def text(self) -> str:
        return self.edit.toPlainText()

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.full_text)

    def highlight(self) -> None:
        """Highlight the JSON; a big one is first formatted (bounded: long strings shortened, the output
        cut at `SHOWN_CHARS`, highlighted only up to `HIGHLIGHT_MAX_CHARS`)."""
        if len(self.full_text) > BIG_CHARS:
            self._loader.stop()
            formatted = pretty_json_bounded(utf8(self.full_text), elide=ELIDE_CHARS, max_chars=SHOWN_CHARS)
            pretty, cut = formatted if formatted is not None else (self.full_text[:SHOWN_CHARS], True)
            self.truncated = cut
            self._set(pretty, wrap=False)
            self.all_button.setVisible(False)
            notes = ["Formatted"] + (["cut (Copy copies it all)"] if cut else [])
            if len(pretty) > HIGHLIGHT_MAX_CHARS:
                notes.append("too large to highlight")
                self.info.setText("; ".join(notes) + ".")
                self.highlight_button.hide()
                self._update_bar()
                return
            self.info.setText("; ".join(notes) + ".")
        if self.highlighter is None:
            self.highlighter = JsonHighlighter(self.edit.document())
        self.highlight_button.hide()
        if len(self.full_text) <= BIG_CHARS:
            self.info.setText("" if not self.truncated else self.info.text())
        self._update_bar()

    def show_all(self) -> None:
        """Append the rest of the text, a slice per event-loop turn (`loading` while it runs)."""
        if not self.truncated or self._loader.isActive():
            return
        rest = self.full_text[PREVIEW_CHARS:]
        self._slices = [rest[i : i + SLICE_CHARS] for i in range(0, len(rest), SLICE_CHARS)]
        self._slices.reverse()
        self.all_button.hide()
        self._loader.start()

    @property
    def loading(self) -> bool:
        return self._loader.isActive()

    def _append_slice(self) -> None:
        if not self._slices:
            self._loader.stop()
            self._done_loading()
            return
        cursor = QTextCursor(self.edit.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertText(self._slices.pop())
        shown, total = self.edit.document().characterCount() - 1, len(self.full_text)
        self.info.setText(f"Loading… {shown:,} of {total:,} characters.")

    def _done_loading(self) -> None:
        self.truncated = False
        self.all_button.hide()
        self.info.setText("")
        self._update_bar()


class TextBlockWidget(BlockWidget):
    """A `text` block: JSON pretty-printed and highlighted when it parses, plain text otherwise."""

    def __init__(self, preview: TextPreview, parent: QWidget | None = None) -> None:
        looks_json = preview.is_json or (len(preview.text) > BIG_CHARS and preview.text.lstrip()[:1] in ("{", "["))
        kind = "JSON" if preview.is_json else "text that looks like JSON" if looks_json else "plain text"
        super().__init__(preview, "Text", f"{kind} · {len(preview.text):,} characters", parent)
        text = display_text(preview.text, preview.is_json, preview.json_value)
        self.pane = TextPane(text, is_json=looks_json, show_copy=False, parent=self)
        self.body.addWidget(self.pane)
        self.copy_button = self.add_action("Copy", self.pane.copy)


class UnknownBlockWidget(BlockWidget):
    """A block this inspector cannot render: flagged, and shown as raw JSON."""

    def __init__(self, preview: UnknownPreview, parent: QWidget | None = None) -> None:
        super().__init__(preview, "Unknown block", "", parent)
        self.flag = plain_label(preview.reason, self, style=STYLES["flag"], wrap=True, selectable=True)
        self.body.addWidget(self.flag)
        self.pane = TextPane(preview.raw_json, is_json=True, show_copy=False, parent=self)
        self.body.addWidget(self.pane)
        self.copy_button = self.add_action("Copy", self.pane.copy)
