"""Server-to-client requests: dialogs for sampling and elicitation, and the Roots panel.

`ClientRequests.handlers()` are the `ClientHandlers` the session hands to every connection. It keeps
the Roots panel (`roots_panel`, placed by the window) on the profile being connected, saves edits to
that profile and tells a connected server when the roots change.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QSettings, Signal
from PySide6.QtWidgets import QWidget

from inspector.config.profile import ProfileError, ServerProfile
from inspector.core.client_handlers import ClientHandlers, elicitation_mode
from inspector.core.errors import LensError
from inspector.core.history import CallRecord
from inspector.core.url_policy import check_url
from inspector.core.url_required import required_elicitations
from inspector.traffic.entry import Direction, Kind
from inspector.ui.client_requests.elicitation_dialog import ElicitationDialog, UrlOpener, open_in_browser
from inspector.ui.client_requests.request_dialog import RequestDialog
from inspector.ui.client_requests.roots_panel import RootsPanel, root_entries
from inspector.ui.client_requests.sampling_dialog import SamplingDialog
from inspector.ui.removed_in_modern import deprecated_note, follow_era
from inspector.ui.widgets.splitter_memory import saved_state
from inspector.words import counted

if TYPE_CHECKING:
    from inspector.ui.servers.panel import ServersPanel
    from inspector.ui.session import SessionController


class ClientRequests(QObject):
    """Answers the server's requests for one window. `dialogOpened` fires for every new dialog,
    `statusMessage` with a line for the status bar, `rootsCounted` with the number of roots shown."""

    dialogOpened = Signal(object)
    statusMessage = Signal(str)
    rootsCounted = Signal(int)

    def __init__(self, session: SessionController, servers: ServersPanel, settings: QSettings, parent: QWidget) -> None:
        super().__init__(parent)
        self.session = session
        self.servers = servers  # which profile is the demo, unsaved, or saved (and where)
        self.settings = settings
        self.dialog_parent = parent
        self.roots_panel = RootsPanel()
        self.opener: UrlOpener = open_in_browser  # replaceable: tests must not open a browser
        self.dialogs: list[RequestDialog] = []
        self.profile: ServerProfile | None = None
        self._notifying: asyncio.Future[None] | None = None
        self.roots_panel.rootsChanged.connect(self._roots_edited)
        self.roots_panel.rootsChanged.connect(lambda uris: self.rootsCounted.emit(len(uris)))
        follow_era(session, self.roots_panel.mark_deprecated, "roots")
        self._url_required: set[int] = set()  # calls whose -32042 elicitations were shown
        self._showing: set[asyncio.Future[None]] = set()
        session.callUpdated.connect(self._call_updated)

    def handlers(self) -> ClientHandlers:
        return ClientHandlers(sampling=self.sampling, elicitation=self.elicitation, roots=self.list_roots)

    def pending(self) -> list[RequestDialog]:
        """Dialogs still waiting for the user."""
        return [d for d in self.dialogs if d.outcome == "pending"]

    # -- handlers (run on the qasync loop) ----------------------------------------------------
    async def sampling(self, params: dict[str, Any]) -> dict[str, Any]:
        dialog = SamplingDialog(params, server=self._server_name(), settings=self.settings, parent=self.dialog_parent)
        if note := deprecated_note(self.session, "sampling"):
            dialog.show_banner(f"{note} (MCP Lens still answers it)", "note")
        return await self._run(dialog, "sampling request")

    async def elicitation(self, params: dict[str, Any]) -> dict[str, Any]:
        dialog = ElicitationDialog(params, server=self._server_name(), opener=self.opener, parent=self.dialog_parent)
        if elicitation_mode(params) == "url" and not (verdict := check_url(params.get("url"))).allowed:
            self._note(f"refused to open the URL of an elicitation request: {verdict.reason}")
        return await self._run(dialog, "elicitation request")

    # -- error -32042: URL elicitation required -------------------------------------------------
    def _call_updated(self, record: CallRecord) -> None:
        """A call refused with -32042: show each URL elicitation its error carries, as a URL-mode request."""
        if record.error is None or record.id in self._url_required:
            return
        elicitations = required_elicitations(record.error)
        if elicitations:
            self._url_required.add(record.id)
            showing = asyncio.ensure_future(self._complete_first(record, elicitations))
            self._showing.add(showing)
            showing.add_done_callback(self._showing.discard)

    async def _complete_first(self, record: CallRecord, elicitations: list[dict[str, Any]]) -> None:
        for params in elicitations:
            dialog = ElicitationDialog(
                params,
                server=self._server_name(),
                opener=self.opener,
                parent=self.dialog_parent,
                via="error -32042 to your call of " + record.tool + ": URL elicitation required",
            )
            if (verdict := dialog.verdict) is not None and not verdict.allowed:
                self._note(f"refused to open the URL of a -32042 URL elicitation: {verdict.reason}")
            answer = await self._run(dialog, "URL elicitation (error -32042)")
            if not isinstance(answer, dict) or answer.get("action") != "accept":
                self.statusMessage.emit(f"{record.tool} needs that page first: it was not opened")
                return
        self.statusMessage.emit(f"Opened: once you are done on that page, call {record.tool} again")

    async def list_roots(self) -> list[dict[str, Any]]:
        return self.roots_panel.roots()

    async def _run(self, dialog: RequestDialog, what: str) -> Any:
        self.dialogs = [d for d in self.dialogs if d.outcome == "pending" or d.isVisible()]
        self.dialogs.append(dialog)
        key = f"dialogs/{type(dialog).__name__}/geometry"
        if (geometry := saved_state(self.settings, key)) is not None:
            dialog.restoreGeometry(geometry)
        dialog.finished_answer.connect(lambda _how: self.settings.setValue(key, dialog.saveGeometry()))
        dialog.show()
        dialog.raise_()
        article = "an" if what[0] in "aeiou" else "a"
        self.statusMessage.emit(f"The server sent {article} {what}: answer it in its window")
        self.dialogOpened.emit(dialog)
        try:
            answer = await dialog.answer()
            self.statusMessage.emit(f"Your answer to the {what} went to the server")
            return answer
        except asyncio.CancelledError:
            self.statusMessage.emit(f"The server withdrew the {what}")
            raise

    def _server_name(self) -> str:
        info = self.session.server_info
        return str(info.get("name") or (self.profile.name if self.profile else "The server"))

    def _note(self, text: str) -> None:
        self.session.store.record(Direction.META, "client", Kind.LIFECYCLE, text.encode())

    # -- roots --------------------------------------------------------------------------------
    def show_profile(self, profile: ServerProfile) -> None:
        """Show and edit the roots of `profile` (the one being connected)."""
        self.profile = profile
        uris = list(profile.roots)
        if self.servers.is_demo(profile):
            saved = self.settings.value("roots/demo", None)
            if isinstance(saved, list):
                uris = [str(u) for u in saved]
            elif isinstance(saved, str) and saved:
                uris = [saved]
            profile.roots = uris
        self.roots_panel.set_roots(uris, profile.name)
        self.rootsCounted.emit(len(uris))

    def _roots_edited(self, uris: list[str]) -> None:
        profile = self.profile
        saved = "not saved (no server chosen)"
        if profile is not None:
            profile.roots = list(uris)
            saved = self._save(profile)
        if not self.session.live:
            self.roots_panel.status.setText(f"{counted(len(uris), 'root')}, {saved}; sent on the next connection.")
            return
        self._notifying = asyncio.ensure_future(self._notify(len(uris), saved))

    def _save(self, profile: ServerProfile) -> str:
        if self.servers.is_demo(profile):
            self.settings.setValue("roots/demo", list(profile.roots))
            return "saved"
        if self.servers.is_unsaved(profile):
            return "kept until you quit (save the server to keep them)"
        store = self.servers.store
        if profile.name not in store:
            return "not saved (the server was deleted or renamed)"
        try:
            stored = store.get(profile.name)
            stored.roots = list(profile.roots)
            store.save()
        except (ProfileError, OSError) as exc:
            return f"NOT saved: {exc}"
        return "saved"

    async def _notify(self, count: int, saved: str) -> None:
        try:
            await self.session.notify_roots_changed()
        except (LensError, Exception) as exc:  # a closed transport: say so, never crash the window
            self.roots_panel.status.setText(f"{counted(count, 'root')}, {saved}; the server was not told: {exc}")
            return
        self.roots_panel.status.setText(f"{counted(count, 'root')}, {saved}; sent notifications/roots/list_changed.")


__all__ = ["ClientRequests", "root_entries"]
