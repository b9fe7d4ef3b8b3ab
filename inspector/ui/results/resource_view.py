"""A `resources/read` result in the result widgets: text highlighted by MIME type, images, audio, blobs."""

from __future__ import annotations

import time

from PySide6.QtCore import QTimer
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QWidget

from inspector.core.resources import ReadOutcome, contents_as_blocks
from inspector.ui.results import ResultView
from inspector.ui.results.common import add_findings
from inspector.ui.results.resource_blocks import EmbeddedResourceWidget
from inspector.ui.widgets.mime_highlight import MimeHighlighter, lexer_for


class ResourceContentsView(ResultView):
    """`show_read(outcome)`; JSON-RPC errors through `show_protocol_error` as for tools."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.highlighters: list[MimeHighlighter] = []
        self.read_finding_labels: list = []
        self.uri: str | None = None

    def show_read(self, outcome: ReadOutcome, *, reason: str = "") -> None:
        same = self.uri == outcome.uri
        position = self.scroll.verticalScrollBar().value()
        self.highlighters = []
        self.uri = outcome.uri
        self.show_result({"content": contents_as_blocks(outcome.contents)})
        count = len(outcome.contents)
        parts = [outcome.uri, f"{count} item{'s' if count != 1 else ''}", f"{outcome.elapsed_ms:.0f} ms"]
        parts.append(f"read at {time.strftime('%H:%M:%S')}" + (f" ({reason})" if reason else ""))
        self.detail_label.setText(" · ".join(parts))
        self.read_finding_labels = add_findings(self.findings_layout, outcome.findings, self.content)
        if outcome.findings:
            self._set_status("tool_error", "Read, with findings", self.detail_label.text())
        for block in self.blocks:
            if isinstance(block, EmbeddedResourceWidget):
                self._highlight(block)
        self._set_raw(self._raw_of(outcome), "Raw result JSON")
        if same and position:  # a re-read keeps the reader's place
            QTimer.singleShot(0, self, lambda: self.scroll.verticalScrollBar().setValue(position))

    def _highlight(self, block: EmbeddedResourceWidget) -> None:
        highlighter = highlight_embedded(block)
        if highlighter is not None:
            self.highlighters.append(highlighter)

    @staticmethod
    def _raw_of(outcome: ReadOutcome) -> str:
        from inspector.content import to_json_text

        return to_json_text(outcome.result)


def highlight_embedded(block: EmbeddedResourceWidget) -> MimeHighlighter | None:
    """Highlight an embedded text resource by its MIME type (JSON is already highlighted)."""
    pane = block.pane
    if pane is None or pane.is_json:
        return None
    lexer = lexer_for(getattr(block.preview, "mime_type", None), getattr(block.preview, "uri", None))
    if lexer is None:
        return None
    if lexer.name not in ("Markdown", "reStructuredText"):
        pane.edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    block.detail_label.setText(f"{block.detail_label.text()} · highlighted as {lexer.name}")
    return MimeHighlighter(pane.edit.document(), lexer)
