"""Runs one server connection at a time on the qasync loop and reports it to the window as Qt signals.

A connection is entered and left by one dedicated task (the SDK's cancel scopes are task-bound);
requests the user makes run as tasks of their own on the same loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal

from inspector.config.profile import ServerProfile
from inspector.core.errors import ConnectFailed, LensError, RequestTimeout, describe_failure
from inspector.core.history import CallRecord
from inspector.core.operations import Event
from inspector.traffic.entry import Direction, Kind
from inspector.traffic.store import TrafficStore

DISCONNECTED, CONNECTING, CONNECTED, FAILED = "disconnected", "connecting", "connected", "failed"
RECOVER = "Server › Reconnect (Ctrl+R) once it is back."


async def _until_first(*waits: Any) -> None:
    """Wait until the first of the awaitables finishes; cancel the others."""
    tasks = [asyncio.ensure_future(w) for w in waits]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()


class SessionController(QObject):
    """Owns the current `Connection`. States: disconnected → connecting → connected | failed."""

    stateChanged = Signal(str, str)  # state, detail (plain text)
    connected = Signal(object)  # the Connection
    toolsChanged = Signal(object)  # ToolListing
    requestFinished = Signal(str, object)  # method, result dict or LensError
    serverEvent = Signal(object)  # core Event
    callUpdated = Signal(object)  # CallRecord: started, progressed or finished
    pingFinished = Signal(object)  # round trip in ms (float), or the LensError

    def __init__(self, store: TrafficStore, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.profile: ServerProfile | None = None
        self.connection: Any = None
        self.state = DISCONNECTED
        self.detail = ""
        self._runner: asyncio.Task[None] | None = None
        self._stop: asyncio.Event | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.connect_timeout = 30.0
        self.handlers: Any = None  # ClientHandlers the window answers server requests with (sampling, …)
        # OAuth: profile → httpx2.Auth (the Auth tab's provider; None for stdio or a static token)
        self.auth_for: Callable[[ServerProfile], Any] | None = None

    # -- lifecycle ---------------------------------------------------------------------------
    def connect_profile(self, profile: ServerProfile) -> None:
        """Disconnect from the current server (if any) and connect to `profile`."""
        previous = self._runner
        self.disconnect()  # the previous run (connected or still waiting for its own predecessor)
        self._stop = stop = asyncio.Event()  # this run's own: a later connect or a shutdown sets it
        self.profile = profile
        self._set_state(CONNECTING, f"connecting to {profile.name}…")
        self._runner = asyncio.ensure_future(self._run(profile, previous, stop))

    def reconnect(self) -> None:
        if self.profile is not None:
            self.connect_profile(self.profile)

    def disconnect(self) -> None:
        if self._stop is not None:
            self._stop.set()

    async def shutdown(self) -> None:
        """Disconnect and wait until the server process is gone (used when the window closes)."""
        self.disconnect()
        for task in list(self._tasks):
            task.cancel()
        if self._runner is not None:
            await asyncio.gather(self._runner, return_exceptions=True)

    async def _run(self, profile: ServerProfile, previous: asyncio.Task[None] | None, stop: asyncio.Event) -> None:
        if previous is not None and not previous.done():
            await asyncio.gather(previous, return_exceptions=True)
        if stop.is_set():  # superseded by a later connect, or disconnected / closed, while waiting
            if self._runner is asyncio.current_task():
                self._set_state(DISCONNECTED, "disconnected")
            return
        from inspector.core.connection import Connection  # the SDK import is slow: only when needed
        from inspector.core.targets import make_transport

        try:
            auth = self.auth_for(profile) if self.auth_for is not None else None
            transport = make_transport(profile, self.store, auth=auth)
            async with Connection(transport, connect_timeout=self.connect_timeout, handlers=self.handlers) as conn:
                self.connection = conn
                conn.subscribe(self._on_event)
                name = conn.server_info.get("name", profile.name)
                self._set_state(CONNECTED, f"connected to {name} (protocol {conn.protocol_version})")
                self.connected.emit(conn)
                self._spawn(self._list_tools())
                await _until_first(conn.wait_closed(), stop.wait())
            self.connection = None
            if stop.is_set() and conn.lost is None:
                self._set_state(DISCONNECTED, "disconnected")
            else:
                self._lost(conn.loss())
        except LensError as exc:
            self.connection = None
            if exc.details.get("lost"):  # the transport failed under an open connection
                self._lost(exc)
                return
            self.store.record_failure("client", f"connect failed: {exc.message}", "connect failed")
            self._set_state(FAILED, exc.message + (f"\n{exc.hint}" if exc.hint else ""))
        except Exception as exc:  # never let a broken server take the window down
            self.connection = None
            self._set_state(FAILED, f"{type(exc).__name__}: {exc}")

    def _lost(self, error: LensError) -> None:
        """An open connection went away: FAILED, saying why and how to come back."""
        failure = describe_failure(error)
        if error.details.get("server_exit") is None:  # a process exit is in the record already
            self.store.record_failure("client", f"connection lost: {failure.detail}", "connection lost")
        self._set_state(FAILED, f"Not connected: {failure.title}. {RECOVER}\n{failure.detail}")

    def _note(self, text: str) -> None:
        self.store.record(Direction.META, "client", Kind.LIFECYCLE, text.encode())

    def _set_state(self, state: str, detail: str) -> None:
        self.state, self.detail = state, detail
        self.stateChanged.emit(state, detail)

    def _on_event(self, event: Event) -> None:
        if event.kind == "tools_changed":
            self.toolsChanged.emit(event.data["listing"])
        self.serverEvent.emit(event)

    # -- requests ----------------------------------------------------------------------------
    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _list_tools(self) -> None:
        conn = self.connection
        if conn is None:
            return
        try:
            listing = await conn.list_tools()
        except LensError as exc:
            self.requestFinished.emit("tools/list", exc)
            return
        self.toolsChanged.emit(listing)

    def call_tool(
        self, name: str, arguments: dict[str, Any], *, timeout: float | None, max_total: float | None
    ) -> CallRecord | None:
        """Start a tool call; progress and the outcome arrive through `callUpdated`. Several may run."""
        conn = self.connection
        if conn is None:
            return None
        record = CallRecord(name, dict(arguments), conn.new_handle("tools/call", timeout, max_total))

        def progressed(_item: Any) -> None:
            self.callUpdated.emit(record)

        async def run() -> None:
            try:
                outcome = await conn.call_tool(name, arguments, handle=record.handle, on_progress=progressed)
            except LensError as exc:
                record.finish(error=exc)
            except Exception as exc:  # whatever broke, the call ends visibly (never a silent no-op)
                record.finish(error=LensError(f"{type(exc).__name__}: {exc}"))
            except asyncio.CancelledError:
                record.finish(error=RequestTimeout("the call was abandoned", cancelled=True))
                self.callUpdated.emit(record)
                raise
            else:
                record.findings = outcome.findings
                record.finish(result=outcome.result)
            self.callUpdated.emit(record)

        self._spawn(run())
        self.callUpdated.emit(record)
        return record

    def send_request(self, method: str, params: Any) -> asyncio.Task[Any] | None:
        """Send a request the user wrote (e.g. a re-send from the traffic log) as a new request."""
        conn = self.connection
        if conn is None:
            return None

        async def run() -> None:
            try:
                result = await conn.request(method, params if isinstance(params, dict) else None)
            except LensError as exc:
                self.requestFinished.emit(method, exc)
                return
            except Exception as exc:  # never a silent no-op
                self.requestFinished.emit(method, LensError(f"{type(exc).__name__}: {exc}"))
                return
            self.requestFinished.emit(method, result)

        return self._spawn(run())

    def ping(self) -> asyncio.Task[Any] | None:
        """Send `ping`; the round trip (or the error) arrives through `pingFinished`."""
        conn = self.connection
        if conn is None:
            self.pingFinished.emit(ConnectFailed("not connected", hint=RECOVER))
            return None

        async def run() -> None:
            try:
                self.pingFinished.emit(await conn.ping())
            except LensError as exc:
                self.pingFinished.emit(exc)

        return self._spawn(run())
