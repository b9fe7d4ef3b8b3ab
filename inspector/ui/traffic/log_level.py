"""The Notifications pane's log-level control, in either era.

Legacy: choosing a level sends `logging/setLevel` (only to servers declaring `logging`). 2026-07-28
removes that method: the level travels in every later request's `_meta`
(``io.modelcontextprotocol/logLevel``), and logging itself is marked deprecated in that revision.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QWidget

from inspector.core import prompts
from inspector.ui.removed_in_modern import DEPRECATED_MARK, is_modern
from inspector.ui.session import CONNECTED, SessionController
from inspector.ui.widgets.async_tasks import TaskSet, error_text
from inspector.ui.widgets.plain_text import safe_tooltip

UNSET = "server default"
UNSET_MODERN = "no logs"  # 2026-07-28: a server sends no log message unless a request asks for a level
LEGACY_TIP = "Minimum level of the log messages the server sends (logging/setLevel)"
MODERN_TIP = (
    "Minimum level of the log messages the server sends with each response: asked for in every request's "
    "_meta (io.modelcontextprotocol/logLevel); logging/setLevel is removed in 2026-07-28"
)


class LogLevelControl(QWidget):
    """A combo of the eight syslog levels; choosing one sends `logging/setLevel` at once."""

    def __init__(self, session: SessionController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.tasks = TaskSet(self)
        self.combo = QComboBox()
        self.combo.setObjectName("logLevel")
        self.combo.setAccessibleName("Log level")
        self.combo.addItem(UNSET)
        self.combo.addItems(list(prompts.LOG_LEVELS))
        self.combo.setToolTip(LEGACY_TIP)
        self.combo.activated.connect(self._chosen)
        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.deprecated = QLabel()  # "logging: deprecated in 2026-07-28" when the server is modern
        self.deprecated.setObjectName("loggingDeprecated")
        self.deprecated.setTextFormat(Qt.TextFormat.PlainText)
        self.deprecated.setStyleSheet("QLabel { color: #9a6700; }")
        self.applied: str | None = None  # the level the server accepted last
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        label = QLabel("Log level")
        label.setBuddy(self.combo)  # the combo's accessible name
        layout.addWidget(label)
        layout.addWidget(self.combo)
        layout.addWidget(self.status)
        layout.addWidget(self.deprecated)
        session.stateChanged.connect(self._on_state)
        self._on_state(session.state, "")

    def _on_state(self, state: str, _detail: str) -> None:
        modern = is_modern(self.session)
        declared = self.session.live and prompts.supports_logging(self.session.capabilities)
        if state == CONNECTED or state == "connecting":
            self.applied = None
            self.combo.setCurrentIndex(0)
            self.status.setText("")
            self.status.setToolTip("")
        self.combo.setItemText(0, UNSET_MODERN if modern else UNSET)
        self.combo.setEnabled(declared or modern)  # modern: our own request _meta, whatever the server declares
        self.deprecated.setText(f"logging: {DEPRECATED_MARK}" if modern else "")
        self.deprecated.setToolTip(
            "2026-07-28 deprecates logging: a server still may send log messages with a response when the "
            "request asks for a level"
            if modern
            else ""
        )
        if modern:
            self.combo.setToolTip(MODERN_TIP)
        elif state == CONNECTED and not declared:
            self.combo.setToolTip("The server does not declare the logging capability")
        elif declared:
            self.combo.setToolTip(LEGACY_TIP)

    def set_level(self, level: str) -> None:
        """Choose `level` as if the user picked it in the combo."""
        index = self.combo.findText(level)
        if index > 0:
            self.combo.setCurrentIndex(index)
            self._chosen(index)

    def _chosen(self, index: int) -> None:
        if not self.session.live:
            return
        if is_modern(self.session):  # no request: every later one carries the level in its _meta
            level = self.combo.itemText(index) if index > 0 else None
            self.session.core.set_log_level(level)
            self.applied = level
            self.status.setText("✓")
            self.status.setToolTip(
                f"Every request now asks for level {level} in its _meta"
                if level
                else "Requests ask for no log level: a 2026-07-28 server sends no log messages"
            )
            return
        if index <= 0:
            return
        level = self.combo.itemText(index)
        self.status.setText("…")
        self.tasks.start(prompts.set_log_level(self.session, level), lambda outcome: self._done(level, outcome))

    def _done(self, level: str, outcome: Any) -> None:
        if isinstance(outcome, BaseException):
            self.status.setText("✖")
            self.status.setToolTip(safe_tooltip(f"logging/setLevel {level} failed: {error_text(outcome)}"))
            previous = self.combo.findText(self.applied) if self.applied else 0
            self.combo.setCurrentIndex(max(previous, 0))
            return
        self.applied = level
        self.status.setText("✓")
        self.status.setToolTip(f"The server accepted level {level}")
