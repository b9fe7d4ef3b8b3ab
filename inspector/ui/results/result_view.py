"""ResultView: a whole `tools/call` outcome — the outcome line, findings, the content blocks, the
structured content with its outputSchema violations, and the raw result JSON one click away."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QLabel, QPushButton, QVBoxLayout, QWidget

from inspector.content import ResultSummary, result_summary, to_json_text
from inspector.core.errors import ProtocolError, describe_failure
from inspector.core.operations import CallOutcome
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
from inspector.ui.results.resource_blocks import ResourceLinkWidget
from inspector.ui.results.text_block import TextPane
from inspector.ui.widgets.plain_text import plain_label


def _clear_layout(layout: QVBoxLayout) -> None:
    while layout.count():
        item = layout.takeAt(0)
        widget = item.widget()
        if widget is not None:
            if isinstance(widget, BlockWidget):
                widget.dispose()
            widget.hide()
            widget.deleteLater()


class ResultView(QWidget):
    """Shows one result (`show_result` / `show_outcome`) or one JSON-RPC error (`show_protocol_error`)."""

    readResourceRequested = Signal(str)  # a resource link's "Read resource": the workbench runs resources/read
    saveRequested = Signal()  # "Save to collection…": the workbench saves the shown call

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary: ResultSummary | None = None
        self.state = "empty"  # "ok" | "tool_error" | "protocol_error" | "failed" (no answer from the server)
        self.blocks: list[BlockWidget] = []
        self.raw_text = ""
        self.raw_pane: TextPane | None = None
        self.structured_pane: TextPane | None = None
        self.error_data_pane: TextPane | None = None
        self.structured_issue_labels: list[QLabel] = []
        self.finding_labels: list[QLabel] = []

        self.status_label, self.detail_label, header = status_header("No result yet", self)
        self.save_button = QPushButton("Save to collection…", self)
        self.save_button.setAccessibleName("Save the shown call to a collection")
        self.save_button.clicked.connect(self.saveRequested.emit)
        header.addWidget(self.save_button)

        self.content = QWidget()
        column = QVBoxLayout(self.content)
        column.setContentsMargins(0, 0, 4, 0)
        column.setSpacing(8)
        self.findings_layout = QVBoxLayout()
        self.findings_layout.setSpacing(2)
        self.blocks_layout = QVBoxLayout()
        self.blocks_layout.setSpacing(8)
        column.addLayout(self.findings_layout)
        column.addLayout(self.blocks_layout)

        self.structured_box = QFrame(self.content)
        self.structured_box.setFrameShape(QFrame.Shape.StyledPanel)
        box = QVBoxLayout(self.structured_box)
        box.setContentsMargins(8, 6, 8, 8)
        self.structured_title = plain_label("Structured content", self.structured_box, wrap=True, selectable=True)
        self.structured_title.setFont(self.status_label.font())
        self.structured_status = plain_label("", self.structured_box, wrap=True, selectable=True)
        self.structured_issues_layout = QVBoxLayout()
        self.structured_issues_layout.setSpacing(2)
        self.structured_pane_layout = QVBoxLayout()
        for item in (self.structured_title, self.structured_status):
            box.addWidget(item)
        box.addLayout(self.structured_issues_layout)
        box.addLayout(self.structured_pane_layout)
        column.addWidget(self.structured_box)

        self.raw_toggle = raw_toggle(self.content)
        self.raw_toggle.toggled.connect(self.set_raw_visible)
        self.raw_layout = QVBoxLayout()
        column.addWidget(self.raw_toggle)
        column.addLayout(self.raw_layout)
        column.addStretch(1)

        self.scroll = scroll_area(self.content, self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(6)
        layout.addLayout(header)
        layout.addWidget(self.scroll, 1)
        self.clear()

    # -- public ------------------------------------------------------------------------------------------
    def clear(self) -> None:
        """Back to the empty state; audio stops and block widgets are released."""
        for layout in (self.findings_layout, self.blocks_layout, self.structured_issues_layout):
            _clear_layout(layout)
        for layout in (self.structured_pane_layout, self.raw_layout):
            _clear_layout(layout)
        self.blocks, self.finding_labels, self.structured_issue_labels = [], [], []
        self.summary, self.raw_pane, self.structured_pane, self.error_data_pane = None, None, None, None
        self.raw_text = ""
        self.structured_box.hide()
        collapse_raw_toggle(self.raw_toggle)
        self._set_status("empty", "No result yet", "")

    def show_outcome(self, outcome: CallOutcome, tool: dict[str, Any] | None = None) -> ResultSummary:
        return self.show_result(outcome.result, tool, elapsed_ms=outcome.elapsed_ms)

    def show_result(
        self, result: Any, tool: dict[str, Any] | None = None, *, elapsed_ms: float | None = None
    ) -> ResultSummary:
        """Render a raw `tools/call` result; `tool` (its tools/list entry) supplies the outputSchema."""
        self.clear()
        summary = self.summary = result_summary(result, tool)
        count = len(summary.previews)
        details = [f"{count} content block{'s' if count != 1 else ''}"]
        if summary.has_structured:
            details.append("structured content")
        if summary.findings:
            details.append(f"{len(summary.findings)} finding{'s' if len(summary.findings) != 1 else ''}")
        if elapsed_ms is not None:
            details.append(f"{elapsed_ms:.0f} ms")
        if summary.is_error:
            details.insert(0, "the tool ran and reported a failure; the model sees this result")
            self._set_status("tool_error", "Tool error (isError: true)", " · ".join(details))
        else:
            self._set_status("ok", "✓ OK", " · ".join(details))
        self.finding_labels = add_findings(self.findings_layout, summary.result_findings, self.content)
        for spec in summary.previews:
            widget = block_widget(spec, self.content)
            if isinstance(widget, ResourceLinkWidget):
                widget.readResourceRequested.connect(self.readResourceRequested)
            self.blocks_layout.addWidget(widget)
            self.blocks.append(widget)
        if not summary.previews:
            self.blocks_layout.addWidget(
                plain_label("(no content blocks)", self.content, style=STYLES["note"], wrap=True, selectable=True)
            )
        self._show_structured(summary)
        self._set_raw(lambda: summary.raw_json, "Raw result JSON")
        return summary

    def show_protocol_error(self, code: Any, message: Any, data: Any = None) -> None:
        """A JSON-RPC error response: no result at all (unlike a tool error, which is a result)."""
        self.clear()
        self._set_status("protocol_error", f"JSON-RPC error {code}", str(message))
        self.blocks_layout.addWidget(
            plain_label(
                "The server answered with an error instead of a result.",
                self.content,
                style=STYLES["note"],
                wrap=True,
                selectable=True,
            )
        )
        if data is not None:
            self.blocks_layout.addWidget(plain_label("error.data", self.content, wrap=True, selectable=True))
            self.error_data_pane = TextPane(to_json_text(data), is_json=True, parent=self.content)
            self.blocks_layout.addWidget(self.error_data_pane)
        error = {"code": code, "message": message} | ({"data": data} if data is not None else {})
        self._set_raw(to_json_text(error), "Raw error JSON")

    def show_error(self, error: BaseException) -> None:
        """A request that raised: the server's JSON-RPC error as above, else what happened on our side
        or to the connection, in those words and with no raw error (the server sent none)."""
        if isinstance(error, ProtocolError):
            self.show_protocol_error(error.code, error.message, error.data)
            return
        self.clear()
        failure = describe_failure(error)
        self.state = "failed"
        show_failure(self.status_label, self.detail_label, failure)

    def set_raw_visible(self, visible: bool) -> None:
        """Expand or collapse the raw JSON (built on first expansion)."""
        if visible and self.raw_pane is None and self.raw_text:
            self.raw_pane = TextPane(self.raw_text, is_json=True, max_height=480, parent=self.content)
            self.raw_layout.addWidget(self.raw_pane)
        if self.raw_pane is not None:
            self.raw_pane.setVisible(visible)
        self.raw_toggle.setArrowType(Qt.ArrowType.DownArrow if visible else Qt.ArrowType.RightArrow)
        if self.raw_toggle.isChecked() != visible:
            self.raw_toggle.setChecked(visible)

    # -- internals ---------------------------------------------------------------------------------------
    def _set_status(self, state: str, title: str, detail: str) -> None:
        self.save_button.setVisible(state != "empty")
        self.state = state
        show_status(self.status_label, self.detail_label, state, title, detail)

    @property
    def raw_text(self) -> str:
        """The raw JSON shown under the toggle, built on first use (a big result's costs ~0.2 s)."""
        if callable(self._raw_source):
            self._raw_source = self._raw_source()
        return self._raw_source

    @raw_text.setter
    def raw_text(self, text: str) -> None:
        self._raw_source = text

    def _set_raw(self, text: str | Callable[[], str], title: str) -> None:
        self._raw_source = text
        self.raw_toggle.setText(title)
        self.raw_toggle.show()

    def _show_structured(self, summary: ResultSummary) -> None:
        issues = summary.structured_issues
        if not summary.has_structured and not issues:
            return
        self.structured_box.show()
        if issues:
            noun = "problem" if len(issues) == 1 else "problems"
            against = "outputSchema" if summary.output_schema is not None else "the spec"
            self.structured_status.setText(f"✖ {len(issues)} {noun} against {against}")
            self.structured_status.setStyleSheet("QLabel { color: #c62828; }")
        elif summary.output_schema is not None:
            self.structured_status.setText("✓ valid against the tool's outputSchema")
            self.structured_status.setStyleSheet("QLabel { color: #2e7d32; }")
        else:
            self.structured_status.setText("The tool declares no outputSchema: not validated.")
            self.structured_status.setStyleSheet(f"QLabel {{ {STYLES['note']} }}")
        self.structured_issue_labels = add_findings(self.structured_issues_layout, issues, self.structured_box)
        if summary.has_structured and summary.structured is not None:
            self.structured_pane = TextPane(summary.structured, is_json=True, parent=self.structured_box)
            self.structured_pane_layout.addWidget(self.structured_pane)
