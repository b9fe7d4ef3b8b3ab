"""Edit a recorded request and send it again. The dialog only edits and validates; the caller sends."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from inspector.ui.widgets.json_view import JsonHighlighter


def parse_request(text: str) -> tuple[str, Any]:
    """(method, params) from the edited JSON; raises ValueError saying what is wrong.

    `jsonrpc` and `id` may be left in or dropped: the sender assigns a fresh id.
    """
    try:
        message = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"not valid JSON: {exc}") from exc
    if not isinstance(message, dict):
        raise ValueError("the request must be a JSON object")
    method = message.get("method")
    if not isinstance(method, str) or not method:
        raise ValueError('the request needs a "method" string')
    params = message.get("params")
    if params is not None and not isinstance(params, dict | list):
        raise ValueError('"params" must be an object or an array')
    return method, params


class ResendDialog(QDialog):
    """Shows `message` pretty-printed in an editor; OK validates, then emits `resend(method, params)`."""

    resend = Signal(str, object)

    def __init__(self, message: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Re-send request — MCP Lens")
        self.resize(640, 480)
        hint = QLabel("Edit the request, then send it again. A new id is assigned when it is sent.", self)
        hint.setTextFormat(Qt.TextFormat.PlainText)
        self.editor = QPlainTextEdit(self)
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.editor.setPlainText(json.dumps(message, indent=2, ensure_ascii=False))
        self._highlighter = JsonHighlighter(self.editor.document())
        self.error = QLabel(self)
        self.error.setTextFormat(Qt.TextFormat.PlainText)
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #d03030;")
        self.error.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Send")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.buttons = buttons
        layout = QVBoxLayout(self)
        layout.addWidget(hint)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.method: str | None = None
        self.params: Any = None

    def accept(self) -> None:
        try:
            self.method, self.params = parse_request(self.editor.toPlainText())
        except ValueError as exc:
            self.error.setText(str(exc))
            self.error.show()
            return
        super().accept()
        self.resend.emit(self.method, self.params)
