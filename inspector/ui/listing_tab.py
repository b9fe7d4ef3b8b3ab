"""The base of the Resources and Prompts tabs: a capability-gated list fetched when the tab is shown,
again after the server's list_changed notification, with a one-line progress status."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QLabel, QPushButton, QWidget

from inspector.ui.session import CONNECTED, SessionController


class ListingTab(QWidget):
    """A subclass sets `capability` ("resources", "prompts") and `noun`, builds `list_status` and
    `refresh_button`, and implements `refresh()` starting with `begin_listing()`."""

    capability = ""
    noun = ""
    session: SessionController
    list_status: QLabel
    refresh_button: QPushButton
    stale: bool  # list again when next shown

    @property
    def conn(self) -> Any:
        return self.session.connection if self.session.state == CONNECTED else None

    def refresh(self) -> None:
        raise NotImplementedError

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        if self.stale and self.conn is not None:
            self.refresh()

    def list_changed(self) -> None:
        """The server's list changed: list again now if the tab is visible, else when it is next shown."""
        self.stale = True
        if self.isVisible():
            self.refresh()

    def begin_listing(self) -> Any:
        """The connection to list on, with the status saying so; None (and why) when there is nothing to list."""
        conn = self.conn
        if conn is None:
            return None
        self.stale = False
        if not isinstance(conn.capabilities.get(self.capability), dict):
            self.list_status.setText(f"The server does not declare the {self.capability} capability.")
            return None
        self.list_status.setText("Listing…")
        self.refresh_button.setEnabled(False)
        return conn

    def _page_listed(self, pages: int, items: int) -> None:
        if pages > 1:
            self.list_status.setText(f"Listing… page {pages}, {items} {self.noun} so far")
