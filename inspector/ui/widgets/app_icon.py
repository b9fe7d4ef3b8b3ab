"""The application's window and taskbar icon."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QIcon

from inspector.resource_files import resource_dir


def set_app_icon(app: Any) -> None:
    """The window/taskbar icon, drawn from the shipped SVG (Qt's SVG icon engine renders each size)."""
    path = resource_dir() / "icons" / "mcp-lens.svg"
    if path.is_file():
        app.setWindowIcon(QIcon(str(path)))
