"""Wires the window to server-to-client requests: dialogs for sampling and elicitation, the Roots panel.

`install_client_requests(window)` builds the `ClientHandlers` the window's `SessionController` hands
to every `Connection`, puts the Roots panel under the servers sidebar, keeps it on the profile being
connected, saves edits to that profile and tells a connected server when the roots change.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QSettings, Signal
from PySide6.QtWidgets import QTabWidget

from inspector.config.profile import ProfileError, ServerProfile
from inspector.core.client_handlers import ClientHandlers, elicitation_mode
from inspector.core.errors import LensError
from inspector.core.url_policy import check_url
from inspector.traffic.entry import Direction, Kind
from inspector.ui.client_requests.elicitation_dialog import ElicitationDialog, UrlOpener, open_in_browser
from inspector.ui.client_requests.request_dialog import RequestDialog
from inspector.ui.client_requests.roots_panel import RootsPanel, root_entries
from inspector.ui.client_requests.sampling_dialog import SamplingDialog

if TYPE_CHECKING:
    from inspector.ui.main_window import MainWindow


class ClientRequests(QObject):
    """Answers the server's requests for one window. `dialogOpened` fires for every new dialog."""

    dialogOpened = Signal(object)

    def __init__(self, window: MainWindow, roots_panel: RootsPanel, settings: QSettings) -> None:
        super().__init__(window)
        self.window = window
        self.roots_panel = roots_panel
        self.settings = settings
        self.opener: UrlOpener = open_in_browser  # replaceable: tests must not open a browser
        self.dialogs: list[RequestDialog] = []
        self.profile: ServerProfile | None = None
        self._notifying: asyncio.Future[None] | None = None
        self.sidebar_tabs: QTabWidget | None = None
        self.roots_panel.rootsChanged.connect(self._roots_edited)

    def handlers(self) -> ClientHandlers:
        return ClientHandlers(sampling=self.sampling, elicitation=self.elicitation, roots=self.list_roots)

    def pending(self) -> list[RequestDialog]:
        """Dialogs still waiting for the user."""
        return [d for d in self.dialogs if d.outcome == "pending"]

    # -- handlers (run on the qasync loop) ----------------------------------------------------
    async def sampling(self, params: dict[str, Any]) -> dict[str, Any]:
        dialog = SamplingDialog(params, server=self._server_name(), settings=self.settings, parent=self.window)
        return await self._run(dialog, "sampling request")

    async def elicitation(self, params: dict[str, Any]) -> dict[str, Any]:
        dialog = ElicitationDialog(params, server=self._server_name(), opener=self.opener, parent=self.window)
        if elicitation_mode(params) == "url" and not (verdict := check_url(params.get("url"))).allowed:
            self._note(f"refused to open the URL of an elicitation request: {verdict.reason}")
        return await self._run(dialog, "elicitation request")

    async def list_roots(self) -> list[dict[str, Any]]:
        return self.roots_panel.roots()

    async def _run(self, dialog: RequestDialog, what: str) -> Any:
        self.dialogs = [d for d in self.dialogs if d.outcome == "pending" or d.isVisible()]
        self.dialogs.append(dialog)
        key = f"dialogs/{type(dialog).__name__}/geometry"
        if (geometry := self.settings.value(key)) is not None:
            dialog.restoreGeometry(geometry)
        dialog.finished_answer.connect(lambda _how: self.settings.setValue(key, dialog.saveGeometry()))
        dialog.show()
        dialog.raise_()
        self.window.statusBar().showMessage(f"The server sent a {what}: answer it in its window", 8000)
        self.dialogOpened.emit(dialog)
        try:
            return await dialog.answer()
        except asyncio.CancelledError:
            self.window.statusBar().showMessage(f"The server withdrew a {what}", 8000)
            raise

    def _server_name(self) -> str:
        conn = self.window.session.connection
        info = conn.server_info if conn is not None else {}
        return str(info.get("name") or (self.profile.name if self.profile else "The server"))

    def _note(self, text: str) -> None:
        self.window.store.record(Direction.META, "client", Kind.LIFECYCLE, text.encode())

    # -- roots --------------------------------------------------------------------------------
    def show_profile(self, profile: ServerProfile) -> None:
        """Show and edit the roots of `profile` (the one being connected)."""
        self.profile = profile
        uris = list(profile.roots)
        if self.window.servers.is_demo(profile):
            saved = self.settings.value("roots/demo", None)
            if isinstance(saved, list):
                uris = [str(u) for u in saved]
            elif isinstance(saved, str) and saved:
                uris = [saved]
            profile.roots = uris
        self.roots_panel.set_roots(uris, profile.name)
        if self.sidebar_tabs is not None:
            self.sidebar_tabs.setTabText(1, f"Roots ({len(uris)})")

    def _roots_edited(self, uris: list[str]) -> None:
        profile = self.profile
        saved = "not saved (no server chosen)"
        if profile is not None:
            profile.roots = list(uris)
            saved = self._save(profile)
        conn = self.window.session.connection
        if conn is None:
            self.roots_panel.status.setText(f"{len(uris)} root(s), {saved}; sent on the next connection.")
            return
        self._notifying = asyncio.ensure_future(self._notify(conn, len(uris), saved))

    def _save(self, profile: ServerProfile) -> str:
        if self.window.servers.is_demo(profile):
            self.settings.setValue("roots/demo", list(profile.roots))
            return "saved"
        if self.window.servers.is_unsaved(profile):
            return "kept until you quit (save the server to keep them)"
        store = self.window.servers.store
        if profile.name not in store:
            return "not saved (the server was deleted or renamed)"
        try:
            stored = store.get(profile.name)
            stored.roots = list(profile.roots)
            store.save()
        except (ProfileError, OSError) as exc:
            return f"NOT saved: {exc}"
        return "saved"

    async def _notify(self, conn: Any, count: int, saved: str) -> None:
        try:
            await conn.notify_roots_changed()
        except (LensError, Exception) as exc:  # a closed transport: say so, never crash the window
            self.roots_panel.status.setText(f"{count} root(s), {saved}; the server was not told: {exc}")
            return
        self.roots_panel.status.setText(f"{count} root(s), {saved}; sent notifications/roots/list_changed.")


def install_client_requests(window: MainWindow) -> ClientRequests:
    """Put the Roots panel in a tab beside the server status, and give the session the window's handlers."""
    panel = RootsPanel()
    tabs = QTabWidget()
    tabs.setObjectName("sidebarTabs")
    tabs.setDocumentMode(True)
    window.left.replaceWidget(window.left.indexOf(window.status_panel), tabs)
    tabs.addTab(window.status_panel, "Server")
    tabs.addTab(panel, "Roots")
    requests = ClientRequests(window, panel, window.settings)
    requests.sidebar_tabs = tabs
    panel.rootsChanged.connect(lambda uris: tabs.setTabText(1, f"Roots ({len(uris)})"))
    window.session.handlers = requests.handlers()
    selected = window.servers.selected_profile()
    requests.show_profile(selected if selected is not None else window.servers.demo)
    return requests


__all__ = ["ClientRequests", "install_client_requests", "root_entries"]
