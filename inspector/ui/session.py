"""The Qt face of the core `Session` (`inspector.core.session`): its hooks re-emitted as Qt signals, its
state, facts and requests forwarded, so panels connect signals and never touch a connection.

The connection logic (states, one stop event per connect, a lost transport read as failed) lives in the
core, where scripts and tests drive it without Qt: napari's pattern of a pure model and a thin adapter.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

from inspector.config.profile import ProfileError, ServerProfile
from inspector.config.store import ProfileStore
from inspector.core.client_handlers import ClientHandlers
from inspector.core.era import Negotiation
from inspector.core.history import CallRecord
from inspector.core.session import CONNECTED, CONNECTING, DISCONNECTED, FAILED, RECOVER, Session
from inspector.traffic.store import TrafficStore

__all__ = ["CONNECTED", "CONNECTING", "DISCONNECTED", "FAILED", "RECOVER", "SessionController"]


class SessionController(QObject):
    """One server connection at a time for the window. States: disconnected → connecting → connected | failed."""

    stateChanged = Signal(str, object)  # state, detail (plain text: a str, never converted to a QString, which drops a
    # server name's lone surrogate before it can be shown as its escape)
    connected = Signal(object)  # this controller, now connected: read server_info, capabilities, …
    toolsChanged = Signal(object)  # ToolListing
    requestFinished = Signal(str, object)  # method, result dict or LensError
    serverEvent = Signal(object)  # core Event
    callUpdated = Signal(object)  # CallRecord: started, progressed or finished
    pingFinished = Signal(object)  # round trip in ms (float), or the LensError
    eraLearned = Signal(object, object)  # profile, "legacy" | None: what `auto` remembers for the server

    def __init__(
        self,
        store: TrafficStore,
        parent: QObject | None = None,
        *,
        core: Session | None = None,
        profiles: ProfileStore | None = None,
    ) -> None:
        super().__init__(parent)
        self.core = core if core is not None else Session(store)
        self.profiles = profiles  # where a learned era is saved (the window's saved servers)
        self.core.state_changed.connect(self.stateChanged.emit)
        self.core.connected.connect(lambda _core: self.connected.emit(self))
        self.core.tools_changed.connect(self.toolsChanged.emit)
        self.core.request_finished.connect(self.requestFinished.emit)
        self.core.server_event.connect(self._server_event)
        self.core.call_updated.connect(self.callUpdated.emit)
        self.core.ping_finished.connect(self.pingFinished.emit)
        self.core.era_learned.connect(self._save_learned_era)

    def _server_event(self, event: Any) -> None:
        """Server events for the panels; log lines stay in the traffic store (the Notifications pane reads
        them there), so a server flooding its log costs no Qt signal per line."""
        if event.kind != "log":
            self.serverEvent.emit(event)

    # -- state and what was negotiated -------------------------------------------------------
    @property
    def store(self) -> TrafficStore:
        return self.core.store

    @property
    def profile(self) -> ServerProfile | None:
        return self.core.profile

    @property
    def state(self) -> str:
        return self.core.state

    @property
    def detail(self) -> str:
        return self.core.detail

    @property
    def live(self) -> bool:
        return self.core.live

    @property
    def server_info(self) -> dict[str, Any]:
        return self.core.server_info

    @property
    def protocol_version(self) -> str | None:
        return self.core.protocol_version

    @property
    def capabilities(self) -> dict[str, Any]:
        return self.core.capabilities

    @property
    def negotiation(self) -> Negotiation | None:
        """The era this connection settled on, and how (None when not connected)."""
        return self.core.negotiation

    @property
    def instructions(self) -> str | None:
        return self.core.instructions

    def _save_learned_era(self, profile: ServerProfile, learned: str | None) -> None:
        """Remember in the saved profile what `auto` learned (a silent probe is not paid again)."""
        store = self.profiles
        if store is not None and profile.name in store:  # often the same object the core just changed
            store.get(profile.name).learned_era = learned
            with contextlib.suppress(OSError, ProfileError):  # unwritable: learned for this session only
                store.save()
        self.eraLearned.emit(profile, learned)

    # -- what the session is given -----------------------------------------------------------
    @property
    def handlers(self) -> ClientHandlers | None:
        return self.core.handlers

    @handlers.setter
    def handlers(self, handlers: ClientHandlers | None) -> None:
        self.core.handlers = handlers

    @property
    def auth_for(self) -> Callable[[ServerProfile], Any] | None:
        return self.core.auth_for

    @auth_for.setter
    def auth_for(self, auth_for: Callable[[ServerProfile], Any] | None) -> None:
        self.core.auth_for = auth_for

    @property
    def connect_timeout(self) -> float:
        return self.core.connect_timeout

    @connect_timeout.setter
    def connect_timeout(self, seconds: float) -> None:
        self.core.connect_timeout = seconds

    # -- lifecycle ---------------------------------------------------------------------------
    def connect_profile(self, profile: ServerProfile) -> None:
        """Disconnect from the current server (if any) and connect to `profile`."""
        self.core.connect(profile)

    def reconnect(self) -> None:
        self.core.reconnect()

    def disconnect(self) -> None:  # the session's, not QObject.disconnect (never used on this object)
        self.core.disconnect()

    async def shutdown(self) -> None:
        """Disconnect and wait until the server process is gone (used when the window closes)."""
        await self.core.shutdown()

    # -- requests ----------------------------------------------------------------------------
    async def request(self, method: str, params: dict[str, Any] | None = None, **kwargs: Any) -> dict[str, Any]:
        """One request on the current connection (a `Requester` for `inspector.core.resources` / `prompts`)."""
        return await self.core.request(method, params, **kwargs)

    async def request_rounds(self, method: str, params: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """`request`, answering input_required results round after round (prompts/get, resources/read)."""
        return await self.core.request_rounds(method, params, **kwargs)

    async def notify_roots_changed(self) -> None:
        await self.core.notify_roots_changed()

    def call_tool(
        self,
        name: str,
        arguments: dict[str, Any],
        *,
        timeout: float | None,
        max_total: float | None,
        replay: dict[str, Any] | None = None,
    ) -> CallRecord | None:
        """Start a tool call; progress and the outcome arrive through `callUpdated`. Several may run.
        `replay` answers the server's input requests (key → answer) instead of asking the user."""
        return self.core.call_tool(name, arguments, timeout=timeout, max_total=max_total, replay=replay)

    def send_request(self, method: str, params: Any) -> asyncio.Task[Any] | None:
        """Send a request the user wrote (e.g. a re-send from the traffic log) as a new request."""
        return self.core.send_request(method, params)

    def ping(self) -> asyncio.Task[Any] | None:
        """Send `ping`; the round trip (or the error) arrives through `pingFinished`."""
        return self.core.ping()
