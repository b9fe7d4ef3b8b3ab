"""Shared pieces of the result widgets: their styles, the block frame, error tiles, saving bytes.

Every server string reaches the screen through `plain_label` (`ui/widgets/plain_text.py`) or
`setPlainText`: never rich text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from inspector.config.files import write_atomic
from inspector.content import Preview, extension_for, human_size
from inspector.core.findings import Finding
from inspector.ui.widgets.plain_text import clip as clip  # (the listings import it from here)
from inspector.ui.widgets.plain_text import plain_label, shown

MAX_FINDINGS_SHOWN = 30

STYLES = {
    "ok": "background:#e6f4ea; color:#0f5323; border:1px solid #9fd4ae; border-radius:4px; padding:4px 8px;",
    "tool_error": "background:#fff4e5; color:#8a4b00; border:1px solid #f0b45c; border-radius:4px; padding:4px 8px;",
    "protocol_error": "background:#b3261e; color:#ffffff; border:1px solid #8c1d18; border-radius:4px;"
    " padding:4px 8px; font-weight:bold;",
    "error_tile": "background:#fdecea; color:#7a1c16; border:1px dashed #e0908a; border-radius:4px; padding:10px;",
    "flag": "background:#fff8d6; color:#6b5200; border:1px solid #e8d27a; border-radius:4px; padding:3px 6px;",
    "note": "color:#6e6e6e;",
}
SEVERITY_COLOURS = {"error": "#c62828", "warning": "#b26a00"}


def finding_text(finding: Finding) -> str:
    return f"{finding.severity}: {finding.path} — {finding.message} (expected {finding.expected})"


def finding_label(finding: Finding, parent: QWidget | None = None) -> QLabel:
    colour = SEVERITY_COLOURS.get(finding.severity, "#b26a00")
    label = plain_label(
        ("⚠ " if finding.severity == "warning" else "✖ ") + finding_text(finding), parent, wrap=True, selectable=True
    )
    label.setStyleSheet(f"QLabel {{ color: {colour}; }}")
    return label


def add_findings(layout: QVBoxLayout, findings: tuple[Finding, ...] | list[Finding], parent: QWidget) -> list[QLabel]:
    """One label per finding (at most MAX_FINDINGS_SHOWN, then a count)."""
    labels = [finding_label(f, parent) for f in findings[:MAX_FINDINGS_SHOWN]]
    if len(findings) > MAX_FINDINGS_SHOWN:
        labels.append(
            plain_label(
                f"… and {len(findings) - MAX_FINDINGS_SHOWN} more (see Raw result JSON)",
                parent,
                wrap=True,
                selectable=True,
            )
        )
    for label in labels:
        layout.addWidget(label)
    return labels


def safe_file_name(name: str | None, mime: str | None, default_stem: str) -> str:
    """A harmless suggested file name: the last path segment of `name` (a uri), or `default_stem`."""
    stem = ""
    if name:
        stem = re.sub(r"[^A-Za-z0-9._-]+", "_", name.rstrip("/").rsplit("/", 1)[-1]).strip("._")[:80]
    if not stem:
        stem = default_stem
    return stem if "." in stem else f"{stem}.{extension_for(mime)}"


def ask_and_save(parent: QWidget, data: bytes, suggested: str) -> Path | None:
    """Ask for a path and write `data` there; errors are shown, never raised."""
    path, _ = QFileDialog.getSaveFileName(parent, "Save as", str(Path.home() / suggested))
    if not path:
        return None
    try:
        write_atomic(path, data)
    except OSError as exc:
        box = QMessageBox(QMessageBox.Icon.Warning, "Save failed", "", QMessageBox.StandardButton.Ok, parent)
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setText(f"Could not write {path}: {exc}")
        box.exec()
        return None
    return Path(path)


class ErrorTile(QLabel):
    """Why a payload cannot be shown, with its size; plain text in a dashed box."""

    def __init__(self, reason: str, byte_size: int | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        size = f"\n{human_size(byte_size)}" if byte_size is not None else ""
        self.setText(shown(reason) + size)
        self.setStyleSheet(f"QLabel {{ {STYLES['error_tile']} }}")
        self.setMinimumHeight(56)


class BlockWidget(QFrame):
    """The frame around one content block: a title line, annotations, findings, then `body`."""

    def __init__(self, preview: Preview, title: str, detail: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.preview = preview
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setObjectName("resultBlock")
        outer = QVBoxLayout(self)
        outer.setContentsMargins(8, 6, 8, 8)
        outer.setSpacing(4)
        head = QHBoxLayout()
        head.setSpacing(8)
        self.title_label = plain_label(title, self, wrap=False, selectable=True)
        font = self.title_label.font()
        font.setBold(True)
        self.title_label.setFont(font)
        self.detail_label = plain_label(detail, self, wrap=True, selectable=True)
        self.detail_label.setStyleSheet(f"QLabel {{ {STYLES['note']} }}")
        head.addWidget(self.title_label)
        head.addWidget(self.detail_label, 1)
        described = preview.annotations.describe()
        self.annotations_label = plain_label(described, self, wrap=False, selectable=True)
        self.annotations_label.setStyleSheet(f"QLabel {{ {STYLES['note']} }}")
        self.annotations_label.setVisible(bool(described))
        head.addWidget(self.annotations_label)
        self.header_layout = head
        outer.addLayout(head)
        self.finding_labels = add_findings(outer, preview.findings, self)
        self.body = QVBoxLayout()
        self.body.setSpacing(4)
        outer.addLayout(self.body)

    def add_action(self, text: str, slot: Callable[[], Any]) -> QPushButton:
        """A button at the right end of the title line."""
        button = QPushButton(text, self)
        button.setAutoDefault(False)
        button.clicked.connect(slot)
        self.header_layout.addWidget(button)
        return button

    def dispose(self) -> None:
        """Release resources before deletion (players stop); most blocks hold none."""
