"""The Notifications pane's log-level control: sends `logging/setLevel` (only to servers with `logging`)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QWidget

from inspector.core import prompts
from inspector.ui.session import CONNECTED, SessionController
from inspector.ui.widgets.async_tasks import TaskSet, error_text

UNSET = "server default"


class LogLevelControl(QWidget):
    """A combo of the eight syslog levels; choosing one sends `logging/setLevel` at once."""

    def __init__(self, session: SessionController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.tasks = TaskSet(self)
        self.combo = QComboBox()
        self.combo.setObjectName("logLevel")
        self.combo.addItem(UNSET)
        self.combo.addItems(list(prompts.LOG_LEVELS))
        self.combo.setToolTip("Minimum level of the log messages the server sends (logging/setLevel)")
        self.combo.activated.connect(self._chosen)
        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.applied: str | None = None  # the level the server accepted last
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        label = QLabel("Log level")
        label.setBuddy(self.combo)  # the combo's accessible name
        layout.addWidget(label)
        layout.addWidget(self.combo)
        layout.addWidget(self.status)
        session.stateChanged.connect(self._on_state)
        self._on_state(session.state, "")

    def _on_state(self, state: str, _detail: str) -> None:
        supported = self.session.live and prompts.supports_logging(self.session.capabilities)
        if state == CONNECTED or state == "connecting":
            self.applied = None
            self.combo.setCurrentIndex(0)
            self.status.setText("")
        self.combo.setEnabled(supported)
        if state == CONNECTED and not supported:
            self.combo.setToolTip("The server does not declare the logging capability")
        elif supported:
            self.combo.setToolTip("Minimum level of the log messages the server sends (logging/setLevel)")

    def set_level(self, level: str) -> None:
        """Choose `level` as if the user picked it in the combo."""
        index = self.combo.findText(level)
        if index > 0:
            self.combo.setCurrentIndex(index)
            self._chosen(index)

    def _chosen(self, index: int) -> None:
        if index <= 0 or not self.session.live:
            return
        level = self.combo.itemText(index)
        self.status.setText("…")
        self.tasks.start(prompts.set_log_level(self.session, level), lambda outcome: self._done(level, outcome))

    def _done(self, level: str, outcome: Any) -> None:
        if isinstance(outcome, BaseException):
            self.status.setText("✖")
            self.status.setToolTip(f"logging/setLevel {level} failed: {error_text(outcome)}")
            previous = self.combo.findText(self.applied) if self.applied else 0
            self.combo.setCurrentIndex(max(previous, 0))
            return
        self.applied = level
        self.status.setText("✓")
        self.status.setToolTip(f"The server accepted level {level}")
