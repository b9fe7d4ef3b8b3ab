"""The About dialog: versions of everything that matters when reporting a bug."""

from __future__ import annotations

import platform
import sys
from importlib import metadata

import PySide6
from PySide6.QtCore import Qt, qVersion
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from inspector import __version__


def _dist_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def versions_text() -> str:
    rows = [
        ("MCP Lens", __version__),
        ("Python", f"{platform.python_version()} ({sys.executable})"),
        ("Qt", qVersion()),
        ("PySide6", PySide6.__version__),
        ("MCP SDK (mcp)", _dist_version("mcp")),
        ("qasync", _dist_version("qasync")),
        ("jsonschema", _dist_version("jsonschema")),
        ("tiktoken", _dist_version("tiktoken")),
        ("Platform", f"{platform.system()} {platform.release()} ({platform.machine()})"),
        ("Qt platform", QGuiApplication.platformName()),
    ]
    return "\n".join(f"{name}: {value}" for name, value in rows)


def show_about(parent: QWidget | None) -> QDialog:
    dialog = QDialog(parent)
    dialog.setObjectName("aboutDialog")
    dialog.setWindowTitle("About MCP Lens")
    title = QLabel("MCP Lens — an inspector and debugger for Model Context Protocol servers")
    title.setTextFormat(Qt.TextFormat.PlainText)
    title.setWordWrap(True)
    text = QPlainTextEdit(versions_text(), readOnly=True)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    copy = buttons.addButton("Copy versions", QDialogButtonBox.ButtonRole.ActionRole)
    copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(text.toPlainText()))
    buttons.rejected.connect(dialog.reject)
    layout = QVBoxLayout(dialog)
    layout.addWidget(title)
    layout.addWidget(text)
    layout.addWidget(buttons)
    dialog.resize(560, 340)
    dialog.show()
    return dialog
