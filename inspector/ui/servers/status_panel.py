"""What was negotiated with the server: state, protocol version, server info, capabilities, instructions."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFormLayout, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from inspector.core.errors import describe_failure


def _label(object_name: str) -> QLabel:
    label = QLabel()
    label.setObjectName(object_name)
    label.setTextFormat(Qt.TextFormat.PlainText)  # server-controlled text is never rich text
    label.setWordWrap(True)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def describe_capabilities(capabilities: dict[str, Any]) -> str:
    parts = []
    for name in sorted(capabilities):
        value = capabilities[name]
        flags = [k for k, v in value.items() if v is True] if isinstance(value, dict) else []
        parts.append(f"{name} ({', '.join(flags)})" if flags else name)
    return ", ".join(parts) or "none"


def ping_text(outcome: Any) -> str:
    """The status bar's line for a Server › Ping: the round trip, or what went wrong."""
    if isinstance(outcome, int | float):
        return f"Ping: {outcome:.1f} ms round trip"
    failure = describe_failure(outcome)
    return f"Ping failed: {failure.title} — {failure.detail.splitlines()[0] if failure.detail else ''}".rstrip(" —")


class StatusPanel(QWidget):
    """Shown under the server list; empty fields read "—"."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = _label("connectionState")
        self.server = _label("serverInfo")
        self.protocol = _label("protocolVersion")
        self.capabilities = _label("capabilities")
        self.instructions = QPlainTextEdit(readOnly=True)
        self.instructions.setObjectName("instructions")
        self.instructions.setAccessibleName("Server instructions")
        self.instructions.setPlaceholderText("The server sent no instructions.")
        self.instructions.setMinimumHeight(40)  # a few lines: the sidebar stays short enough for a small window
        form = QFormLayout()
        form.addRow("State", self.state)
        form.addRow("Server", self.server)
        form.addRow("Protocol", self.protocol)
        form.addRow("Capabilities", self.capabilities)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(form)
        layout.addWidget(QLabel("Instructions"))
        layout.addWidget(self.instructions, 1)
        self.show_state("disconnected", "not connected")

    def show_state(self, state: str, detail: str) -> None:
        self.state.setText(detail or state)
        self.state.setProperty("state", state)
        if state != "connected":
            self.show_connection(None)

    def show_connection(self, conn: Any) -> None:
        """What `conn` negotiated (the session, once connected: server_info, protocol_version, capabilities,
        instructions); None clears the fields."""
        if conn is None:
            for label in (self.server, self.protocol, self.capabilities):
                label.setText("—")
            self.instructions.setPlainText("")
            return
        info = conn.server_info
        title = f" — {info['title']}" if info.get("title") else ""
        self.server.setText(f"{info.get('name', '?')} {info.get('version', '')}".strip() + title)
        self.protocol.setText(conn.protocol_version or "—")
        self.capabilities.setText(describe_capabilities(conn.capabilities))
        self.capabilities.setToolTip(json.dumps(conn.capabilities, indent=2))
        self.instructions.setPlainText(conn.instructions or "")
