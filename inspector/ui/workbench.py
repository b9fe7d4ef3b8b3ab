"""The Tools tab: pick a tool, fill its form, call it, watch progress, read the result, re-run from history."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.core.history import CallRecord
from inspector.ui.call_panels import CallsPanel, HistoryView
from inspector.ui.form.tool_form import ToolForm
from inspector.ui.layout_parts import bare_column, named_splitter, title_label
from inspector.ui.results import ResultView
from inspector.ui.results.common import plain_label
from inspector.ui.run_keys import RunKeyFilter
from inspector.ui.session import CONNECTED, SessionController
from inspector.ui.tool_list import ToolList, ToolRow


class ToolWorkbench(QWidget):
    def __init__(self, session: SessionController, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.settings = settings
        self.row: ToolRow | None = None
        self.form: ToolForm | None = None
        self.shown_record: CallRecord | None = None
        self.confirm = self._ask_destructive  # replaceable, so tests can answer for the user

        self.tools = ToolList()
        self.title = title_label(1.25)
        self.badges = plain_label()
        self.description = plain_label()
        self.findings = plain_label()
        self.findings.setStyleSheet("color: #c0392b;")
        self.form_box = QVBoxLayout()
        self.call_button = QPushButton("Call  (Ctrl+Enter)")
        self.call_button.setObjectName("callButton")
        self.timeout = QDoubleSpinBox(minimum=0.5, maximum=86_400, value=60, suffix=" s", decimals=1)
        self.timeout.setToolTip("Timeout without a response or a progress notification")
        self.timeout.setAccessibleName("Timeout")
        self.max_total = QDoubleSpinBox(minimum=0, maximum=86_400, value=0, suffix=" s", decimals=1)
        self.max_total.setSpecialValueText("no limit")
        self.max_total.setToolTip("Hard limit that progress does not reset")
        self.ask_first = QCheckBox("Ask before calling (destructive)")
        self.ask_first.toggled.connect(self._remember_ask_first)
        self.calls = CallsPanel()
        self.result = ResultView()
        self.history = HistoryView()
        self._build_layout()

        self.tools.toolSelected.connect(self.show_tool)
        self.call_button.clicked.connect(self.call_current)
        self.run_keys = RunKeyFilter(self, self.call_current)  # Ctrl+Enter inside the tab
        session.callUpdated.connect(self._on_call)
        session.toolsChanged.connect(self.tools.set_listing)
        session.stateChanged.connect(lambda state, _detail: self.call_button.setEnabled(state == CONNECTED))
        self.history.rerunRequested.connect(self.rerun)
        self.history.editRequested.connect(self.edit)
        self.history.recordSelected.connect(self._show_record)
        self.result.readResourceRequested.connect(self.read_resource)
        self.show_tool(None)

    def _build_layout(self) -> None:
        head = QVBoxLayout()
        for widget in (self.title, self.badges, self.description, self.findings):
            head.addWidget(widget)
        call_bar = QHBoxLayout()
        call_bar.addWidget(self.call_button)
        call_bar.addWidget(QLabel("Timeout"))
        call_bar.addWidget(self.timeout)
        call_bar.addWidget(QLabel("Max"))
        call_bar.addWidget(self.max_total)
        call_bar.addWidget(self.ask_first)
        call_bar.addStretch(1)
        top, top_layout = bare_column()
        top_layout.addLayout(head)
        top_layout.addLayout(self.form_box, 1)
        top_layout.addLayout(call_bar)
        top_layout.addWidget(self.calls)
        self.lower = QTabWidget()
        self.lower.setObjectName("resultTabs")
        self.lower.addTab(self.result, "Result")
        self.lower.addTab(self.history, "History")
        right = named_splitter("workbenchRight", top, self.lower, sizes=[520, 380], vertical=True)
        self.split = named_splitter("workbenchSplitter", self.tools, right, sizes=[260, 740], stretch=(0, 1))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.split)

    # -- tools -------------------------------------------------------------------------------
    def set_listing(self, listing: Any) -> None:
        self.tools.set_listing(listing)

    def clear(self) -> None:
        self.tools.clear()
        self.result.clear()

    def show_tool(self, row: ToolRow | None) -> None:
        """Show a tool's form; a re-listed tool whose schema did not change keeps what was typed."""
        same = self.row is not None and row is not None and self.row.name == row.name
        if same and self.form is not None and _schema(self.row) == _schema(row):
            self.row = row
            return
        self.row = row
        if self.form is not None:
            self.form_box.removeWidget(self.form)
            self.form.deleteLater()
            self.form = None
        if row is None:
            self.title.setText("Select a tool")
            for label in (self.badges, self.description, self.findings):
                label.setText("")
            self.ask_first.hide()
            return
        self.title.setText(f"{row.title} ({row.name})" if row.title and row.title != row.name else row.name)
        self.badges.setText(" · ".join(row.badges))
        self.description.setText(row.description or "(no description)")
        self.findings.setText("\n".join(f"⚠ {finding}" for finding in row.findings))
        schema = _schema(row)
        self.form = ToolForm(schema if isinstance(schema, dict) else None)
        self.form.setObjectName("toolForm")
        self.form_box.addWidget(self.form, 1)
        destructive = "destructive" in row.badges
        self.ask_first.setVisible(destructive)
        self.ask_first.setChecked(destructive and self._ask_setting(row.name))

    # -- calling -----------------------------------------------------------------------------
    def call_current(self) -> CallRecord | None:
        if self.row is None or self.form is None or self.session.state != CONNECTED:
            return None
        arguments = self.form.arguments()
        issues = self.form.validate()
        if issues and not self._send_anyway(issues):
            return None
        asks = "destructive" in self.row.badges and self.ask_first.isChecked()
        if asks and not self.confirm(self.row.name, arguments):
            return None
        return self._call(self.row.name, arguments)

    def _call(self, name: str, arguments: Any) -> CallRecord | None:
        max_total = self.max_total.value() or None
        args = arguments if isinstance(arguments, dict) else {}
        record = self.session.call_tool(name, args, timeout=self.timeout.value(), max_total=max_total)
        if record is not None:
            self.shown_record = record
            self.result.clear()
        return record

    def _send_anyway(self, issues: list[Any]) -> bool:
        text = "\n".join(str(issue) for issue in issues[:20])
        box = QMessageBox(QMessageBox.Icon.Warning, "Arguments do not match the schema", "", parent=self)
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setText(f"{len(issues)} problem(s) with the arguments:\n\n{text}\n\nSend them anyway?")
        box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
        return box.exec() == QMessageBox.StandardButton.Yes

    def _ask_destructive(self, name: str, arguments: Any) -> bool:
        dialog = QDialog(self)
        dialog.setWindowTitle("Call a destructive tool?")
        text = QPlainTextEdit(json.dumps(arguments, indent=2, ensure_ascii=False), readOnly=True)
        again = QCheckBox("Don't ask again for this tool")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Yes | QDialogButtonBox.StandardButton.No)
        buttons.accepted.connect(dialog.accept)
        buttons.rejected.connect(dialog.reject)
        layout = QVBoxLayout(dialog)
        layout.addWidget(plain_label(f"{name} is annotated destructiveHint: true. It will be called with:"))
        layout.addWidget(text)
        layout.addWidget(again)
        layout.addWidget(buttons)
        accepted = dialog.exec() == QDialog.DialogCode.Accepted
        if accepted and again.isChecked():
            self.ask_first.setChecked(False)
        return accepted

    def _ask_setting(self, name: str) -> bool:
        return self.settings.value(f"confirm/{name}", True, type=bool)

    def _remember_ask_first(self, on: bool) -> None:
        if self.row is not None and "destructive" in self.row.badges:
            self.settings.setValue(f"confirm/{self.row.name}", on)

    def _on_call(self, record: CallRecord) -> None:
        self.calls.update_call(record)
        self.history.update_call(record)
        if record.done and record is self.shown_record:
            self._show_record(record)

    def _show_record(self, record: CallRecord) -> None:
        self.shown_record = record
        if not record.done:
            self.result.clear()
            return
        tool = self.tools.model.all and next((r.tool for r in self.tools.model.all if r.name == record.tool), None)
        if record.result is not None:
            self.result.show_result(record.result, tool, elapsed_ms=record.duration_ms)
        elif record.error is not None:  # the server's JSON-RPC error, or a failure on our side said as such
            self.result.show_error(record.error)
        self.lower.setCurrentWidget(self.result)

    def rerun(self, record: CallRecord) -> CallRecord | None:
        return self._call(record.tool, record.arguments)

    def edit(self, record: CallRecord) -> None:
        if self.tools.select(record.tool) and self.form is not None:
            self.form.set_arguments(record.arguments)

    def read_resource(self, uri: str) -> None:
        """A resource link was clicked: read it and show the contents as embedded resources."""
        task = self.session.send_request("resources/read", {"uri": uri})
        if task is None:
            return

        def done(method: str, outcome: Any) -> None:
            if method != "resources/read":
                return
            self.session.requestFinished.disconnect(done)
            if isinstance(outcome, dict):
                contents = outcome.get("contents") if isinstance(outcome.get("contents"), list) else []
                blocks = [{"type": "resource", "resource": c} for c in contents]
                self.result.show_result({"content": blocks}, None)
            elif isinstance(outcome, BaseException):
                self.result.show_error(outcome)

        self.session.requestFinished.connect(done)


def _schema(row: ToolRow | None) -> Any:
    return row.tool.get("inputSchema") if row is not None and isinstance(row.tool, dict) else None
