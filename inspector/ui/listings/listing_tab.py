"""The base of the Resources and Prompts tabs: a capability-gated list fetched when the tab is shown,
again after the server's list_changed notification, with a one-line progress status."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QLabel, QPushButton, QWidget

from inspector.core import requires
from inspector.ui.session import SessionController
from inspector.ui.widgets.async_tasks import TaskSet
from inspector.ui.widgets.icon_images import IconSource
from inspector.ui.widgets.item_list import ItemList

ICON_SIDE = 16  # the server's icon beside each item's name


class ListingTab(QWidget):
    """A subclass sets `capability` ("resources", "prompts") and `noun`, builds `list_status` and
    `refresh_button`, implements `refresh()` starting with `begin_listing()`, `_on_state` and `_on_event`,
    and calls `watch_session()` once built."""

    capability = ""
    noun = ""
    list_status: QLabel
    refresh_button: QPushButton

    def __init__(self, session: SessionController, settings: QSettings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.settings = settings
        self.tasks = TaskSet(self)
        self.stale = True  # list again when next shown
        self.in_flight = False  # a listing is running: a list_changed meanwhile queues one more (`end_listing`)
        self.listings = 0  # completed refreshes, for tests and the status line
        self.cli_target: Callable[[], list[str] | None] = lambda: None  # set by the window
        self.icons = IconSource.of(session)

    def show_icons(self, *lists: ItemList) -> None:
        """Draw the server's icons beside the items of `lists` (redrawn when one arrives)."""
        for items in lists:
            items.set_decoration(lambda item: self.icons.icon(item, ICON_SIDE), ICON_SIDE)
            self.icons.changed.connect(items.redecorate)

    def note_icons(self, items: ItemList) -> None:
        """`items` now lists what the server sent: collect its remote icon hosts for the permission question."""
        self.icons.note(items.title, items.items)

    def watch_session(self) -> None:
        self.session.stateChanged.connect(self._on_state)
        self.session.stateChanged.connect(self._forget_flight)
        self.session.serverEvent.connect(self._on_event)
        self._on_state(self.session.state, "")

    def _on_state(self, state: str, detail: str) -> None:
        raise NotImplementedError

    def _on_event(self, event: Any) -> None:
        raise NotImplementedError

    @property
    def requester(self) -> SessionController | None:
        """The session to send on while it is connected (the core operations take it), else None."""
        return self.session if self.session.live else None

    def refresh(self) -> None:
        raise NotImplementedError

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        if self.stale and self.requester is not None:
            self.refresh()

    def list_changed(self) -> None:
        """The server's list changed: list again now if the tab is visible, else when it is next shown. A burst
        of them is coalesced: while a listing runs, they queue one more listing after it (`end_listing`)."""
        self.stale = True
        if self.isVisible() and not self.in_flight:
            self.refresh()

    def end_listing(self) -> None:
        """A listing ended (listed or failed): list once more if the server said its list changed meanwhile."""
        self.in_flight = False
        self.refresh_button.setEnabled(self.requester is not None)
        if self.stale and self.isVisible() and self.requester is not None:
            self.refresh()

    def _forget_flight(self, *_state: object) -> None:
        """A new connection (or none): whatever was listing belongs to the old one."""
        self.in_flight = False

    def begin_listing(self) -> Any:
        """The session to list on, with the status saying so; None (and why) when there is nothing to list."""
        conn = self.requester
        if conn is None:
            return None
        self.stale = False
        if not requires.declared_for(f"{self.capability}/list", conn.capabilities):
            self.list_status.setText(f"The server does not declare the {self.capability} capability.")
            return None
        self.list_status.setText("Listing…")
        self.refresh_button.setEnabled(False)
        self.in_flight = True
        return conn

    def _page_listed(self, pages: int, items: int) -> None:
        if pages > 1:
            self.list_status.setText(f"Listing… page {pages}, {items} {self.noun} so far")
