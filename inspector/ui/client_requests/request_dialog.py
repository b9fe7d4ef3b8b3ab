"""`RequestDialog`: a non-modal dialog that answers one server-to-client request through a future.

The handler coroutine opens the dialog with `show()` and awaits `answer()`; the event loop keeps
running, so several requests can each have their own dialog. When the server cancels the request
or the connection ends, the awaiting task is cancelled: the dialog then says so and keeps what the
user typed on screen, with every input disabled.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from inspector.ui.results.common import STYLES
from inspector.ui.widgets.plain_text import plain_label

WITHDRAWN = "The server withdrew this request (it cancelled it, or the connection ended). Nothing was sent."


class RequestDialog(QDialog):
    """Base for the sampling and elicitation dialogs. Subclasses fill `body` and `buttons`."""

    finished_answer = Signal(str)  # "answered" | "withdrawn"

    def __init__(self, title: str, intro: str, params: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setModal(False)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        self.params = params
        self.future: asyncio.Future[Any] = asyncio.get_event_loop().create_future()
        self.outcome = "pending"  # "answered" | "withdrawn"
        self.banner = plain_label("", self, wrap=True, selectable=True)
        self.banner.setVisible(False)
        self.intro = plain_label(intro, self, wrap=True, selectable=True)
        font = self.intro.font()
        font.setBold(True)
        self.intro.setFont(font)
        self.body = QVBoxLayout()
        self.buttons = QHBoxLayout()
        self.copy_button = QPushButton("Copy request JSON")
        self.copy_button.setAutoDefault(False)
        self.copy_button.setToolTip("Copy the request's params as JSON")
        self.copy_button.clicked.connect(self.copy_request)
        self.buttons.addWidget(self.copy_button)
        self.buttons.addStretch(1)
        self.close_button = QPushButton("Close")
        self.close_button.setVisible(False)
        self.close_button.clicked.connect(self.close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(self.intro)
        layout.addLayout(self.body, 1)
        layout.addLayout(self.buttons)
        self.buttons.addWidget(self.close_button)
        QShortcut(QKeySequence("Ctrl+Shift+C"), self, self.copy_request)

    # -- answering ----------------------------------------------------------------------------
    async def answer(self) -> Any:
        """Wait for the user's answer; a cancelled wait (server cancel, disconnect) marks the dialog withdrawn."""
        try:
            return await self.future
        except asyncio.CancelledError:
            self.withdraw(WITHDRAWN)
            raise

    def resolve(self, value: Any) -> None:
        if not self.future.done():
            self.future.set_result(value)
        self.outcome = "answered"
        self.finished_answer.emit("answered")
        self.hide()

    def fail(self, exc: BaseException) -> None:
        if not self.future.done():
            self.future.set_exception(exc)
        self.outcome = "answered"
        self.finished_answer.emit("answered")
        self.hide()

    def withdraw(self, reason: str) -> None:
        """The request is gone: say so, disable the inputs, leave only Close."""
        if self.outcome != "pending":
            return
        self.outcome = "withdrawn"
        if not self.future.done():
            self.future.cancel()
        self.show_banner(reason, "tool_error")
        for index in range(self.buttons.count()):
            widget = self.buttons.itemAt(index).widget()
            if isinstance(widget, QPushButton) and widget not in (self.copy_button, self.close_button):
                widget.setEnabled(False)
        self.set_inputs_enabled(False)
        self.close_button.setVisible(True)
        self.close_button.setDefault(True)
        self.finished_answer.emit("withdrawn")

    def set_inputs_enabled(self, enabled: bool) -> None:
        """Subclasses disable their editors here."""

    def show_banner(self, text: str, style: str) -> None:
        self.banner.setText(text)
        self.banner.setStyleSheet(f"QLabel {{ {STYLES[style]} }}")
        self.banner.setVisible(True)

    def dismissed(self) -> None:
        """The user closed the window (or pressed Escape) without answering; subclasses answer for them."""
        raise NotImplementedError

    def reject(self) -> None:  # Escape, the window's close button, `close()`
        if self.outcome == "pending":
            self.dismissed()
        super().reject()

    def copy_request(self) -> None:
        QGuiApplication.clipboard().setText(json.dumps(self.params, indent=2, ensure_ascii=False))


def section_title(text: str, parent: QWidget | None = None) -> QLabel:
    label = plain_label(text, parent, wrap=False, selectable=True)
    font = label.font()
    font.setBold(True)
    label.setFont(font)
    return label
