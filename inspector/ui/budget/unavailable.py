"""A Budget tab that explains why the token budget cannot be shown (a broken install)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QVBoxLayout, QWidget

from inspector.ui.widgets.plain_text import PlainLabel


def unavailable_tab(error: BaseException) -> QWidget:
    widget = QWidget()
    label = PlainLabel(f"The token budget is unavailable: {error}\nReinstall MCP Lens, or report this as a bug.")
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    QVBoxLayout(widget).addWidget(label)
    return widget
