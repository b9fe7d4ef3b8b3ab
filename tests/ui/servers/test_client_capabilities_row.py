"""The Server panel says which client capabilities the app declares, and that `mcp-lens --cli` declares
fewer (issue 22: server-everything listed 17 tools to the app and 13 to the CLI, nothing said why)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel
from ui_support import connect

from inspector.core.client_handlers import APP_CAPABILITIES
from inspector.ui.main_window import MainWindow


def test_the_server_panel_names_what_the_app_declares(qtbot, window: MainWindow) -> None:
    connect(qtbot, window)
    row = next(w for w in window.findChildren(QLabel) if w.accessibleName() == "Client capabilities")
    assert all(name in row.text() for name in APP_CAPABILITIES)
    assert window.session.handlers.capabilities() == list(APP_CAPABILITIES)  # what it says is what it sends
    assert "mcp-lens --cli" in row.toolTip() and "--input-responses" in row.toolTip()
