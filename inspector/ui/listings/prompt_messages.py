"""A `prompts/get` result: the description, then each message under its role, its content in the
result widgets (text, image, audio, resource, resource_link), and the raw JSON one click away."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from inspector.content import preview, to_json_text
from inspector.core.errors import describe_failure
from inspector.core.prompts import PromptOutcome
from inspector.ui.results.common import STYLES, BlockWidget, add_findings
from inspector.ui.results.factory import block_widget
from inspector.ui.results.outcome_header import (
    collapse_raw_toggle,
    raw_toggle,
    scroll_area,
    show_failure,
    show_status,
    status_header,
)
from inspector.ui.results.resource_blocks import EmbeddedResourceWidget, ResourceLinkWidget
from inspector.ui.results.resource_view import highlight_embedded
from inspector.ui.results.text_block import TextPane
from inspector.ui.widgets.mime_highlight import MimeHighlighter
from inspector.ui.widgets.plain_text import plain_label
from inspector.words import counted

ROLE_STYLES = {
    "user": "background:#1f6feb; color:#ffffff; border-radius:4px; padding:2px 8px; font-weight:bold;",
    "assistant": "background:#8250df; color:#ffffff; border-radius:4px; padding:2px 8px; font-weight:bold;",
}
UNKNOWN_ROLE = "background:#b3261e; color:#ffffff; border-radius:4px; padding:2px 8px; font-weight:bold;"


class PromptMessagesView(QWidget):
    """`show_prompt(outcome)` or `show_error(code, message, data)`."""

    readResourceRequested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.blocks: list[BlockWidget] = []
        self.roles: list[str] = []
        self.raw_text = ""
        self.raw_pane: TextPane | None = None
        self.status_label, self.detail_label, header = status_header("No prompt fetched yet", self)
        self.content = QWidget()
        self.column = QVBoxLayout(self.content)
        self.column.setContentsMargins(0, 0, 4, 0)
        self.column.setSpacing(8)
        self.raw_toggle = raw_toggle()
        self.raw_toggle.toggled.connect(self.set_raw_visible)
        self.scroll = scroll_area(self.content, self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(header)
        layout.addWidget(self.scroll, 1)
        self.clear()

    def clear(self) -> None:
        for block in self.blocks:
            block.dispose()
        while self.column.count():
            item = self.column.takeAt(0)
            widget = item.widget()
            if widget is not None and widget is not self.raw_toggle:
                widget.hide()
                widget.deleteLater()
        self.blocks, self.roles, self.raw_pane, self.raw_text = [], [], None, ""
        self.highlighters: list[MimeHighlighter] = []
        collapse_raw_toggle(self.raw_toggle)
        self._status("", "No prompt fetched yet", "")

    def show_prompt(self, outcome: PromptOutcome) -> None:
        self.clear()
        messages = outcome.messages
        count = len(messages)
        detail = [f"{count} message{'s' if count != 1 else ''}", f"{outcome.elapsed_ms:.0f} ms"]
        if outcome.findings:
            detail.append(counted(len(outcome.findings), "finding"))
        self._status("tool_error" if outcome.findings else "ok", f"✓ {outcome.name}", " · ".join(detail))
        if outcome.findings:
            holder = QWidget(self.content)
            findings_box = QVBoxLayout(holder)
            findings_box.setContentsMargins(0, 0, 0, 0)
            add_findings(findings_box, outcome.findings, holder)
            self.column.addWidget(holder)
        description = outcome.result.get("description")
        if isinstance(description, str) and description:
            self.column.addWidget(
                plain_label(description, self.content, style=STYLES["note"], wrap=True, selectable=True)
            )
        for index, message in enumerate(messages):
            self._add_message(index, message)
        if not messages:
            self.column.addWidget(
                plain_label("(no messages)", self.content, style=STYLES["note"], wrap=True, selectable=True)
            )
        self.raw_text = to_json_text(outcome.result)
        self.column.addWidget(self.raw_toggle)
        self.raw_toggle.show()
        self.column.addStretch(1)

    def _add_message(self, index: int, message: Any) -> None:
        role = message.get("role") if isinstance(message, dict) else None
        role_text = str(role) if isinstance(role, str) else "(no role)"
        self.roles.append(role_text)
        frame = QFrame(self.content)
        frame.setObjectName("promptMessage")
        frame.setFrameShape(QFrame.Shape.StyledPanel)
        box = QVBoxLayout(frame)
        box.setContentsMargins(8, 6, 8, 8)
        head = QHBoxLayout()
        badge = plain_label(role_text, frame, wrap=False, selectable=True)
        badge.setStyleSheet(f"QLabel {{ {ROLE_STYLES.get(role_text, UNKNOWN_ROLE)} }}")
        head.addWidget(badge)
        head.addWidget(plain_label(f"message {index + 1}", frame, wrap=False, style=STYLES["note"], selectable=True))
        head.addStretch(1)
        box.addLayout(head)
        content = message.get("content") if isinstance(message, dict) else None
        widget = block_widget(preview(content, f"$.messages[{index}].content"), frame)
        if isinstance(widget, ResourceLinkWidget):
            widget.readResourceRequested.connect(self.readResourceRequested)
        box.addWidget(widget)
        self.blocks.append(widget)
        if isinstance(widget, EmbeddedResourceWidget) and (highlighter := highlight_embedded(widget)) is not None:
            self.highlighters.append(highlighter)
        self.column.addWidget(frame)

    def show_error(self, code: Any, message: Any, data: Any = None) -> None:
        self.clear()
        self._status("protocol_error", f"JSON-RPC error {code}", str(message))
        if data is not None:
            self.column.addWidget(TextPane(to_json_text(data), is_json=True, parent=self.content))
        self.column.addStretch(1)

    def show_failure(self, error: BaseException) -> None:
        """A failure on our side or of the connection (cancel, timeout, lost): no server error to show."""
        self.clear()
        self.state = "failed"
        show_failure(self.status_label, self.detail_label, describe_failure(error))
        self.column.addStretch(1)

    def set_raw_visible(self, visible: bool) -> None:
        if visible and self.raw_pane is None and self.raw_text:
            self.raw_pane = TextPane(self.raw_text, is_json=True, max_height=480, parent=self.content)
            self.column.insertWidget(self.column.indexOf(self.raw_toggle) + 1, self.raw_pane)
        if self.raw_pane is not None:
            self.raw_pane.setVisible(visible)
        self.raw_toggle.setArrowType(Qt.ArrowType.DownArrow if visible else Qt.ArrowType.RightArrow)

    def _status(self, state: str, title: str, detail: str) -> None:
        self.state = state
        show_status(self.status_label, self.detail_label, state, title, detail)

    def role_labels(self) -> list[QLabel]:
        return [frame.findChild(QLabel) for frame in self.content.findChildren(QFrame, "promptMessage")]
