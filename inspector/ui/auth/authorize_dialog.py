"""The confirmation shown before the system browser opens an OAuth authorization URL."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QPlainTextEdit, QVBoxLayout, QWidget

from inspector.auth.browser import check_browser_url
from inspector.content.visible import visible
from inspector.ui.widgets.plain_text import PlainLabel


class AuthorizeDialog(QDialog):
    """Shows the full authorization URL; Open in browser, Copy URL or Cancel."""

    def __init__(self, url: str, server: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Sign in — open the authorization page?")
        self.setObjectName("authorizeDialog")
        layout = QVBoxLayout(self)
        intro = PlainLabel(
            f"{server} asks you to sign in. MCP Lens will open this address in your browser; "
            "check that it is the sign-in page you expect:"
        )
        intro.setTextFormat(Qt.TextFormat.PlainText)
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.url_view = QPlainTextEdit()
        self.url_view.setReadOnly(True)
        self.url_view.setPlainText(visible(url))
        self.url_view.setMinimumSize(560, 110)
        layout.addWidget(self.url_view)
        buttons = QDialogButtonBox()
        self.open_button = buttons.addButton("&Open in browser", QDialogButtonBox.ButtonRole.AcceptRole)
        copy = buttons.addButton("&Copy URL", QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(url))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.open_button.setDefault(True)


async def ask_to_open(parent: QWidget, url: str, server: str) -> bool:
    """Show `AuthorizeDialog` (window-modal, not blocking the loop); True if the user chose Open."""
    check_browser_url(url)
    dialog = AuthorizeDialog(url, server, parent)
    done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
    dialog.finished.connect(lambda code: done.done() or done.set_result(code == QDialog.DialogCode.Accepted))
    dialog.open()
    try:
        return await done
    finally:
        dialog.deleteLater()
