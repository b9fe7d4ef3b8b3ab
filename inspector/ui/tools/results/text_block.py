"""Text panes: a read-only editor that grows with its text, and the text / unknown block widgets."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import QHBoxLayout, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from inspector.content import TextPreview, UnknownPreview, human_size, to_json_text
from inspector.content.visible import visible
from inspector.ui.tools.results.common import BlockWidget, plain_label
from inspector.ui.widgets.json_view import JsonHighlighter

BIG_CHARS = 200_000  # past this: plain text first, highlighting on demand
SHOWN_CHARS = 2_000_000  # past this: the first part only, "Show all" on demand
WRAP_LIMIT = 10_000  # Qt wraps a long line in quadratic time: no wrapping past this line length


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
        self.info = plain_label("", self)
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
        self.truncated = len(self.full_text) > SHOWN_CHARS
        self._set(self.full_text[:SHOWN_CHARS] if self.truncated else self.full_text)
        self.all_button.setVisible(self.truncated)
        big = len(self.full_text) > BIG_CHARS
        self.highlight_button.setVisible(is_json and big)
        if is_json and not big:
            self.highlight()
        if self.truncated:
            self.info.setText(f"Showing the first {human_size(SHOWN_CHARS)} characters.")
        elif is_json and big:
            self.info.setText("Large JSON: shown without highlighting.")
        self._update_bar()

    def _update_bar(self) -> None:
        buttons = (self.highlight_button, self.all_button, self.copy_button)
        self.bar.setVisible(bool(self.info.text()) or any(not b.isHidden() for b in buttons))

    def _set(self, text: str) -> None:
        longest = max((len(line) for line in text.splitlines()), default=0)
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
        if self.highlighter is None:
            self.highlighter = JsonHighlighter(self.edit.document())
        self.highlight_button.hide()
        self.info.setText("" if not self.truncated else self.info.text())
        self._update_bar()

    def show_all(self) -> None:
        self.truncated = False
        self._set(self.full_text)
        self.all_button.hide()
        self.info.setText("")
        self._update_bar()


class TextBlockWidget(BlockWidget):
    """A `text` block: JSON pretty-printed and highlighted when it parses, plain text otherwise."""

    def __init__(self, preview: TextPreview, parent: QWidget | None = None) -> None:
        detail = f"{'JSON' if preview.is_json else 'plain text'} · {len(preview.text):,} characters"
        super().__init__(preview, "Text", detail, parent)
        text = to_json_text(preview.json_value) if preview.is_json else preview.text
        self.pane = TextPane(text, is_json=preview.is_json, show_copy=False, parent=self)
        self.body.addWidget(self.pane)
        self.copy_button = self.add_action("Copy", self.pane.copy)


class UnknownBlockWidget(BlockWidget):
    """A block this inspector cannot render: flagged, and shown as raw JSON."""

    def __init__(self, preview: UnknownPreview, parent: QWidget | None = None) -> None:
        super().__init__(preview, "Unknown block", "", parent)
        self.flag = plain_label(preview.reason, self, style="flag")
        self.body.addWidget(self.flag)
        self.pane = TextPane(preview.raw_json, is_json=True, show_copy=False, parent=self)
        self.body.addWidget(self.pane)
        self.copy_button = self.add_action("Copy", self.pane.copy)
