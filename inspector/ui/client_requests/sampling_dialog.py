"""The human-in-the-loop answer to `sampling/createMessage`: read the request, write the reply.

Nothing is approved automatically. The request (messages by role with every content type, system
prompt, model preferences, limits) is shown as plain text and with the result widgets; the user
writes a text reply or picks an image file, names the model and the stop reason, then approves, or
rejects with an error message the server receives.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QSettings
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from inspector.content import human_size, preview, sniff_mime
from inspector.content.visible import visible
from inspector.core.client_handlers import Rejected
from inspector.ui.client_requests.request_dialog import RequestDialog, section_title
from inspector.ui.results import ImageViewer, block_widget
from inspector.ui.widgets.plain_text import plain_label

DEFAULT_MODEL = "mcp-lens-human"
STOP_REASONS = ("endTurn", "stopSequence", "maxTokens")
MAX_REPLY_IMAGE = 20 * 1024 * 1024
USER_REJECTED = -1  # the code the official clients use for "the user said no"


def _number(value: Any) -> str:
    return f"{value:g}" if isinstance(value, int | float) and not isinstance(value, bool) else str(value)


def describe_preferences(prefs: Any) -> list[tuple[str, str]]:
    """Model preferences as (label, plain text) rows: hints in order, then the three priorities."""
    if not isinstance(prefs, dict):
        return []
    rows = []
    hints = prefs.get("hints")
    if isinstance(hints, list) and hints:
        names = [
            str(h.get("name")) if isinstance(h, dict) and h.get("name") is not None else json.dumps(h) for h in hints
        ]
        rows.append(("Model hints", ", ".join(names)))
    for key, label in (("intelligencePriority", "Intelligence"), ("speedPriority", "Speed"), ("costPriority", "Cost")):
        if key in prefs:
            rows.append((f"{label} priority", _number(prefs[key])))
    return rows


class MessageView(QFrame):
    """One sampling message: its role, then a result widget per content block."""

    def __init__(self, index: int, message: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setObjectName("samplingMessage")
        column = QVBoxLayout(self)
        column.setContentsMargins(6, 4, 6, 6)
        role = message.get("role") if isinstance(message, dict) else None
        self.role_label = section_title(f"#{index + 1} · {role if isinstance(role, str) else '(no role)'}", self)
        column.addWidget(self.role_label)
        content = message.get("content") if isinstance(message, dict) else None
        blocks = content if isinstance(content, list) else [content]
        self.blocks = [block_widget(preview(block, f"$.messages[{index}].content"), self) for block in blocks]
        for widget in self.blocks:
            column.addWidget(widget)


class SamplingDialog(RequestDialog):
    """Answer one `sampling/createMessage`. `answer()` returns the CreateMessageResult dict or raises `Rejected`."""

    def __init__(
        self,
        params: dict[str, Any],
        *,
        server: str = "the server",
        settings: QSettings | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(
            "Sampling request — MCP Lens",
            f"{server} asks for a model reply (sampling/createMessage). You are the model: nothing is sent "
            "until you approve.",
            params,
            parent,
        )
        self.settings = settings
        self.pick_image_file: Callable[[], str] = self._ask_image_file  # replaceable in tests
        self.image_bytes: bytes | None = None
        self.image_mime = ""
        split = QSplitter()
        split.setChildrenCollapsible(False)
        split.addWidget(self._request_pane(params))
        split.addWidget(self._reply_pane())
        split.setSizes([560, 420])
        self.body.addWidget(split)
        self.reject_message = QLineEdit("The user rejected the sampling request")
        self.reject_message.setToolTip("The error message the server receives when you reject")
        self.reject_message.setMinimumWidth(300)
        self.reject_button = QPushButton("Reject")
        self.reject_button.setAutoDefault(False)
        self.approve_button = QPushButton("Approve and send  (Ctrl+Enter)")
        self.approve_button.setDefault(True)
        self.buttons.addWidget(plain_label("Error message:", self, wrap=False, selectable=True))
        self.buttons.addWidget(self.reject_message, 1)
        self.buttons.addWidget(self.reject_button)
        self.buttons.addWidget(self.approve_button)
        self.reject_button.clicked.connect(self.reject_request)
        self.approve_button.clicked.connect(self.approve)
        QShortcut(QKeySequence("Ctrl+Return"), self, self.approve)
        self.reply_text.textChanged.connect(self._update_approve)
        self._update_approve()
        self.resize(1000, 680)
        self.reply_text.setFocus()

    # -- the request --------------------------------------------------------------------------
    def _request_pane(self, params: dict[str, Any]) -> QWidget:
        inner = QWidget()
        column = QVBoxLayout(inner)
        column.setContentsMargins(0, 0, 6, 0)
        system = params.get("systemPrompt")
        if isinstance(system, str):
            column.addWidget(section_title("System prompt", inner))
            self.system_prompt = QPlainTextEdit(visible(system))
            self.system_prompt.setReadOnly(True)
            self.system_prompt.setMaximumHeight(90)
            column.addWidget(self.system_prompt)
        messages = params.get("messages")
        messages = messages if isinstance(messages, list) else []
        column.addWidget(section_title(f"Messages ({len(messages)})", inner))
        self.messages = [MessageView(i, m, inner) for i, m in enumerate(messages)]
        for view in self.messages:
            column.addWidget(view)
        column.addWidget(section_title("Parameters", inner))
        form = QFormLayout()
        self.parameter_rows: dict[str, str] = {}
        for label, text in self._parameters(params):
            self.parameter_rows[label] = text
            form.addRow(
                plain_label(label, inner, wrap=False, selectable=True),
                plain_label(text, inner, wrap=True, selectable=True),
            )
        column.addLayout(form)
        column.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(inner)
        return scroll

    @staticmethod
    def _parameters(params: dict[str, Any]) -> list[tuple[str, str]]:
        rows = [("Max tokens", _number(params.get("maxTokens", "(missing)")))]
        if "temperature" in params:
            rows.append(("Temperature", _number(params["temperature"])))
        stops = params.get("stopSequences")
        if isinstance(stops, list) and stops:
            rows.append(("Stop sequences", ", ".join(json.dumps(s, ensure_ascii=False) for s in stops)))
        rows += describe_preferences(params.get("modelPreferences"))
        if "includeContext" in params:
            rows.append(("Include context", str(params["includeContext"])))
        tools = params.get("tools")
        if isinstance(tools, list) and tools:
            names = [str(t.get("name")) if isinstance(t, dict) else "?" for t in tools]
            rows.append(("Tools offered", ", ".join(names)))
        if "toolChoice" in params:
            rows.append(("Tool choice", json.dumps(params["toolChoice"], ensure_ascii=False)))
        if "metadata" in params:
            rows.append(("Metadata", json.dumps(params["metadata"], ensure_ascii=False)[:2000]))
        return rows

    # -- the reply ----------------------------------------------------------------------------
    def _reply_pane(self) -> QWidget:
        pane = QWidget()
        column = QVBoxLayout(pane)
        column.setContentsMargins(6, 0, 0, 0)
        column.addWidget(section_title("Your reply (role: assistant)", pane))
        self.kind = QComboBox()
        self.kind.addItems(["Text", "Image"])
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self.stack = QStackedWidget()
        self.reply_text = QPlainTextEdit()
        self.reply_text.setPlaceholderText("Write the model's reply here…")
        self.stack.addWidget(self.reply_text)
        image_page = QWidget()
        image_column = QVBoxLayout(image_page)
        image_column.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        self.choose_image = QPushButton("Choose image file…")
        self.choose_image.clicked.connect(self._choose_image)
        row.addWidget(self.choose_image)
        row.addStretch(1)
        self.image_info = plain_label("No image chosen", image_page, wrap=True, selectable=True)
        self.image_holder = QVBoxLayout()
        image_column.addLayout(row)
        image_column.addWidget(self.image_info)
        image_column.addLayout(self.image_holder, 1)
        image_column.addStretch(1)
        self.stack.addWidget(image_page)
        self.model_name = QLineEdit(self._setting("sampling/model", DEFAULT_MODEL))
        self.stop_reason = QComboBox()
        self.stop_reason.setEditable(True)
        self.stop_reason.addItems(STOP_REASONS)
        form = QFormLayout()
        for label, editor in (("Content", self.kind), ("Model", self.model_name), ("Stop reason", self.stop_reason)):
            form.addRow(plain_label(label, pane, wrap=False, selectable=True), editor)
        column.addLayout(form)
        column.addWidget(self.stack, 1)
        return pane

    def _setting(self, key: str, default: str) -> str:
        value = self.settings.value(key, default) if self.settings is not None else default
        return value if isinstance(value, str) and value else default

    def _kind_changed(self, index: int) -> None:
        self.stack.setCurrentIndex(index)
        self._update_approve()

    def _ask_image_file(self) -> str:
        path, _ = QFileDialog.getOpenFileName(
            self, "Reply with an image", "", "Images (*.png *.jpg *.jpeg *.gif *.webp)"
        )
        return path

    def _choose_image(self) -> None:
        path = self.pick_image_file()
        if path:
            self.load_image(Path(path))

    def load_image(self, path: Path) -> bool:
        """Use the image at `path` as the reply; a clear message when it cannot be."""
        try:
            data = path.read_bytes()
        except OSError as exc:
            self.image_info.setText(f"Could not read {path}: {exc.strerror or exc}")
            return False
        mime = sniff_mime(data)
        if mime is None or not mime.startswith("image/"):
            self.image_info.setText(f"{path.name} is not a PNG, JPEG, GIF or WebP image.")
            return False
        if len(data) > MAX_REPLY_IMAGE:
            self.image_info.setText(
                f"{path.name} is {human_size(len(data))}; pick one under {human_size(MAX_REPLY_IMAGE)}."
            )
            return False
        viewer = ImageViewer(data, max_height=240)
        if not viewer.loaded:
            viewer.deleteLater()
            self.image_info.setText(f"{path.name} looks like {mime} but could not be decoded.")
            return False
        self.image_bytes, self.image_mime = data, mime
        while self.image_holder.count():
            old = self.image_holder.takeAt(0).widget()
            if old is not None:
                old.deleteLater()
        self.image_holder.addWidget(viewer)
        self.image_info.setText(f"{path.name} · {mime} · {human_size(len(data))}")
        self.kind.setCurrentIndex(1)
        self._update_approve()
        return True

    def _update_approve(self) -> None:
        if self.outcome != "pending":
            return
        ready = self.image_bytes is not None if self.kind.currentIndex() == 1 else bool(self.reply_text.toPlainText())
        self.approve_button.setEnabled(ready)

    def reply(self) -> dict[str, Any]:
        """The CreateMessageResult the dialog would send now."""
        if self.kind.currentIndex() == 1 and self.image_bytes is not None:
            content = {
                "type": "image",
                "data": base64.b64encode(self.image_bytes).decode(),
                "mimeType": self.image_mime,
            }
        else:
            content = {"type": "text", "text": self.reply_text.toPlainText()}
        result: dict[str, Any] = {
            "role": "assistant",
            "content": content,
            "model": self.model_name.text() or DEFAULT_MODEL,
        }
        if stop := self.stop_reason.currentText().strip():
            result["stopReason"] = stop
        return result

    # -- answering ----------------------------------------------------------------------------
    def approve(self) -> None:
        if self.outcome != "pending" or not self.approve_button.isEnabled():
            return
        if self.settings is not None:
            self.settings.setValue("sampling/model", self.model_name.text())
        self.resolve(self.reply())

    def reject_request(self) -> None:
        if self.outcome == "pending":
            self.fail(Rejected(self.reject_message.text() or "The user rejected the sampling request", USER_REJECTED))

    def dismissed(self) -> None:
        self.fail(Rejected("The user closed the sampling dialog without answering", USER_REJECTED))

    def set_inputs_enabled(self, enabled: bool) -> None:
        for widget in (
            self.reply_text,
            self.kind,
            self.choose_image,
            self.model_name,
            self.stop_reason,
            self.reject_message,
        ):
            widget.setEnabled(enabled)
