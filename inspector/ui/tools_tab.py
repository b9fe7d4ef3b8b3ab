"""The Tools tab: the server's tools with their annotations and findings (the call workbench comes later)."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

HINTS = (("readOnlyHint", "read-only"), ("destructiveHint", "destructive"), ("idempotentHint", "idempotent"))
HINTS += (("openWorldHint", "open-world"),)


def badges(tool: dict[str, Any]) -> list[str]:
    annotations = tool.get("annotations") if isinstance(tool.get("annotations"), dict) else {}
    return [label for key, label in HINTS if annotations.get(key) is True]


class ToolsTab(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.list = QListWidget()
        self.list.setObjectName("toolList")
        self.summary = QLabel("No tools listed yet.")
        self.summary.setTextFormat(Qt.TextFormat.PlainText)
        self.detail = QPlainTextEdit(readOnly=True)
        self.detail.setObjectName("toolDetail")
        self.list.currentRowChanged.connect(self._show)
        split = QSplitter()
        split.setObjectName("toolsSplitter")
        split.addWidget(self.list)
        split.addWidget(self.detail)
        split.setSizes([280, 520])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.summary)
        layout.addWidget(split)
        self._tools: list[Any] = []
        self._findings: dict[int, list[str]] = {}

    def show_listing(self, listing: Any) -> None:
        """Show a `ToolListing`, keeping the selected tool selected when it still exists."""
        current = self.list.currentItem()
        keep = current.data(Qt.ItemDataRole.UserRole) if current else None
        self._tools = list(listing.tools)
        self._findings = {}
        for finding in listing.findings:
            if finding.path.startswith("$.tools["):
                index = int(finding.path[len("$.tools[") :].split("]", 1)[0])
                self._findings.setdefault(index, []).append(str(finding))
        self.list.clear()
        for index, tool in enumerate(self._tools):
            name = str(tool.get("name", "?")) if isinstance(tool, dict) else "(not an object)"
            marks = " ⚠" if index in self._findings else ""
            item = QListWidgetItem(f"{name}{marks}")
            item.setData(Qt.ItemDataRole.UserRole, name)
            if isinstance(tool, dict) and tool.get("description"):
                item.setToolTip(str(tool["description"])[:500])
            self.list.addItem(item)
            if name == keep:
                self.list.setCurrentItem(item)
        flagged = f", {len(self._findings)} with findings" if self._findings else ""
        self.summary.setText(f"{len(self._tools)} tools over {listing.pages} page(s){flagged}")

    def clear(self) -> None:
        self.list.clear()
        self._tools = []
        self.summary.setText("No tools listed yet.")
        self.detail.setPlainText("")

    def _show(self, row: int) -> None:
        if not 0 <= row < len(self._tools):
            self.detail.setPlainText("")
            return
        tool = self._tools[row]
        if not isinstance(tool, dict):
            self.detail.setPlainText(json.dumps(tool, indent=2))
            return
        lines = [str(tool.get("title") or tool.get("name", "")), ""]
        if marks := badges(tool):
            lines += ["[" + "] [".join(marks) + "]", ""]
        lines += [str(tool.get("description") or "(no description)"), ""]
        lines += [f"finding: {f}" for f in self._findings.get(row, [])]
        lines += ["inputSchema:", json.dumps(tool.get("inputSchema"), indent=2, ensure_ascii=False)]
        if "outputSchema" in tool:
            lines += ["", "outputSchema:", json.dumps(tool["outputSchema"], indent=2, ensure_ascii=False)]
        self.detail.setPlainText("\n".join(lines))
