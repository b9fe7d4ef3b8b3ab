"""Before the doctor runs: which of the server's tools it may call. Those the server marks
``readOnlyHint: true`` are ticked, the others are not and say why; the doctor never calls a tool the
user did not tick (besides one name that does not exist, to see the error the server gives)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from inspector.ui.widgets.plain_text import item_text, window_title

NEVER = "The doctor never calls a tool you did not tick."
HOW = (
    "Each ticked tool is called with arguments its inputSchema rejects (to see the error it gives) and, "
    "when it declares an outputSchema, with the form's default arguments (to check structuredContent). "
    "It also calls one tool name that does not exist. Tools the server marks readOnlyHint: true are "
    "ticked; the others may change something and are not."
)
NOT_CONNECTED = (
    "The server's tool list is not known here (not connected). The doctor will call only the tools the "
    "server marks readOnlyHint: true (connect first to choose), and one tool name that does not exist."
)


def read_only(tool: dict[str, Any]) -> bool:
    hints = tool.get("annotations")
    return isinstance(hints, dict) and hints.get("readOnlyHint") is True


class DoctorToolsDialog(QDialog):
    """Opened without blocking; `on_start(ticked)` runs on Start: the tool names ticked, or None when
    no tool list was known (then the doctor calls only readOnlyHint tools)."""

    def __init__(
        self,
        parent: QWidget,
        server: str,
        tools: list[dict[str, Any]] | None,
        on_start: Callable[[frozenset[str] | None], None],
    ) -> None:
        super().__init__(parent)
        self.setObjectName("doctorToolsDialog")
        self.setWindowTitle(window_title(f"Run the doctor on {server}"))
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.known = tools is not None
        layout = QVBoxLayout(self)
        for text in (HOW, NEVER) if self.known else (NOT_CONNECTED,):
            label = QLabel(text)
            label.setTextFormat(Qt.TextFormat.PlainText)
            label.setWordWrap(True)
            layout.addWidget(label)
        self.list = QListWidget()
        self.list.setAccessibleName("Tools the doctor may call")
        for tool in tools or []:
            name = str(tool.get("name"))
            safe = read_only(tool)
            why = "read-only (readOnlyHint: true)" if safe else "not marked read-only: may change something"
            item = QListWidgetItem(item_text(f"{name} — {why}"))
            item.setData(Qt.ItemDataRole.UserRole, name)
            item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if safe else Qt.CheckState.Unchecked)
            self.list.addItem(item)
        self.list.setVisible(self.known)
        layout.addWidget(self.list)
        buttons = QDialogButtonBox()
        start = buttons.addButton("Start", QDialogButtonBox.ButtonRole.AcceptRole)
        start.setAccessibleName("Start")
        cancel = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        cancel.setAccessibleName("Cancel")
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.accepted.connect(lambda: on_start(self.ticked()))
        self.resize(560, 420 if self.known else 180)

    def ticked(self) -> frozenset[str] | None:
        if not self.known:
            return None
        items = (self.list.item(i) for i in range(self.list.count()))
        return frozenset(
            str(item.data(Qt.ItemDataRole.UserRole)) for item in items if item.checkState() == Qt.CheckState.Checked
        )
