"""One server connection at a time, as a state machine any front end drives: the window (through the Qt
adapter `inspector.ui.session`), scripts and tests. States: disconnected → connecting → connected | failed.

A connection is entered and left by one dedicated task (the SDK's cancel scopes are task-bound); each
connect has its own stop event, so a later connect or a shutdown stops a run still waiting for its
predecessor. Requests run as tasks of their own on the same loop. What happens is told to plain-Python
listeners (`Hook`s); the SDK is imported only when the first connection starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Callable
from typing import Any

from inspector import startup
from inspector.config.profile import ServerProfile
from inspector.core.client_handlers import ClientHandlers
from inspector.core.era import Negotiation, learned_era
from inspector.core.errors import ConnectFailed, LensError, RequestTimeout, describe_failure
from inspector.core.history import CallRecord
from inspector.core.input_required import Round, recording_answerer
from inspector.core.listen import ListenStream, subscribe_resource, unsubscribe_resource
from inspector.core.operations import Event, Operations, ToolListing
from inspector.traffic.store import TrafficStore

DISCONNECTED, CONNECTING, CONNECTED, FAILED = "disconnected", "connecting", "connected", "failed"
RECOVER = "Server › Reconnect (Ctrl+R) once it is back."
RESTART = "Server › Reconnect (Ctrl+R) starts it again."  # a stdio server: the app starts it itself


class Hook:
    """Listeners called in order with the arguments of each `emit` (napari's evented pattern, minus Qt)."""

    def __init__(self) -> None:
        self._listeners: list[Callable[..., Any]] = []

    def connect(self, listener: Callable[..., Any]) -> None:
        self._listeners.append(listener)

    def disconnect(self, listener: Callable[..., Any]) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def emit(self, *args: Any) -> None:
        for listener in list(self._listeners):
            listener(*args)


async def _until_first(*waits: Any) -> None:
    """Wait until the first of the awaitables finishes; cancel the others."""
    tasks = [asyncio.ensure_future(w) for w in waits]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()


def _cancel_on(stop: asyncio.Event) -> asyncio.Future[Any]:
    """Cancel the current task when `stop` is set (until the returned watcher is cancelled)."""
    task = asyncio.current_task()
    watcher = asyncio.ensure_future(stop.wait())
    if task is not None:
        watcher.add_done_callback(lambda done: None if done.cancelled() else task.cancel())
    return watcher


def _uncancel() -> None:
    """The current task's cancellation was ours and is handled: the task goes on as if not cancelled."""
    task = asyncio.current_task()
    if task is not None and task.cancelling():
        task.uncancel()


async def _open(profile: ServerProfile, store: TrafficStore, auth: Any, timeout: float, handlers: Any) -> Any:
    """The `Connection` for `profile` (not entered yet). The SDK import is slow (0.6 s on a quiet machine):
    only when needed, on a thread of its own so the loop (a window) goes on meanwhile, and a stdio server
    is started first, so its own start-up overlaps that import (the first connection's)."""
    process = _spawn_early(profile)
    try:
        startup.mark("sdk-importing")
        await asyncio.to_thread(load_sdk)
        startup.mark("sdk-imported")
        from inspector.core.open_connection import open_connection

        return open_connection(
            profile,
            store,
            lean=False,
            auth=auth,
            process=process,
            connect_timeout=timeout,
            handlers=handlers,
            remembered_era=profile.learned_era,
        )
    except BaseException:
        if process is not None:
            process.kill()
            process.wait()
        raise


def load_sdk() -> None:
    """Import the SDK's session and dispatcher (what `core/connection.py` is built on); any thread may, at
    once: Python's import locks make a second caller wait for the first."""
    import mcp.client.session
    import mcp.shared.jsonrpc_dispatcher  # noqa: F401


def _spawn_early(profile: ServerProfile) -> Any:
    """The started server process of a stdio profile (the one the app started for it before its window,
    `core/prestart.py`, if any), or None (not stdio, or it could not start: the transport then tries
    again and reports why, as it always has)."""
    if profile.transport != "stdio":
        return None
    from inspector.core import prestart
    from inspector.transports.process import SpawnError, StdioCommand, spawn

    try:
        command = StdioCommand.from_profile(profile)
        if (process := prestart.claim(command)) is not None:  # the app started it before its window
            return process
        return spawn(command)
    except (SpawnError, ValueError):
        return None


class Session:
    """The current connection and what it negotiated; every request goes through here.

    Hooks: `state_changed(state, detail)`, `connected(session)`, `tools_changed(ToolListing)`,
    `request_finished(method, result dict | LensError)`, `server_event(Event)`, `call_updated(CallRecord)`,
    `ping_finished(ms | LensError)`.
    """

    def __init__(self, store: TrafficStore, *, connect_timeout: float = 30.0) -> None:
        self.store = store
        self.profile: ServerProfile | None = None
        self.state = DISCONNECTED
        self.detail = ""
        self.connect_timeout = connect_timeout
        self.handlers: ClientHandlers | None = None  # answers the server's requests (sampling, …)
        # OAuth: profile → httpx2.Auth (the Auth tab's provider; None for stdio or a static token)
        self.auth_for: Callable[[ServerProfile], Any] | None = None
        self.state_changed = Hook()
        self.connected = Hook()
        self.tools_changed = Hook()
        self.request_finished = Hook()
        self.server_event = Hook()
        self.call_updated = Hook()
        self.ping_finished = Hook()
        self.era_learned = Hook()  # (profile, "legacy" | "modern"): `auto` found this server's era
        self.listen_changed = Hook()  # (ListenStream | None): the modern era's listen stream opened, changed, ended
        self.listen: ListenStream | None = None  # the connection's subscriptions/listen stream (modern era)
        self._conn: Operations | None = None
        self._runner: asyncio.Task[None] | None = None
        self._stop: asyncio.Event | None = None
        self._tasks: set[asyncio.Task[Any]] = set()

    # -- what was negotiated -----------------------------------------------------------------
    @property
    def live(self) -> bool:
        """Connected, with a connection to send on."""
        return self.state == CONNECTED and self._conn is not None

    @property
    def server_info(self) -> dict[str, Any]:
        return self._conn.server_info if self._conn is not None else {}

    @property
    def protocol_version(self) -> str | None:
        return self._conn.protocol_version if self._conn is not None else None

    @property
    def capabilities(self) -> dict[str, Any]:
        return self._conn.capabilities if self._conn is not None else {}

    @property
    def negotiation(self) -> Negotiation | None:
        """The era this connection settled on, and how (None when not connected)."""
        return self._conn.negotiation if self._conn is not None else None

    @property
    def instructions(self) -> str | None:
        return self._conn.instructions if self._conn is not None else None

    # -- lifecycle ---------------------------------------------------------------------------
    def connect(self, profile: ServerProfile) -> asyncio.Task[None]:
        """Disconnect from the current server (if any) and connect to `profile`; returns the run's task."""
        previous = self._runner
        self.disconnect()  # the previous run (connected or still waiting for its own predecessor)
        self._stop = stop = asyncio.Event()  # this run's own: a later connect or a shutdown sets it
        self.profile = profile
        self._set_state(CONNECTING, f"connecting to {profile.name}…")
        self._runner = asyncio.ensure_future(self._run(profile, previous, stop))
        return self._runner

    def reconnect(self) -> None:
        if self.profile is not None:
            self.connect(self.profile)

    def disconnect(self) -> None:
        if self._stop is not None:
            self._stop.set()

    async def shutdown(self) -> None:
        """Disconnect and wait until the server process is gone (the window closing, a script ending)."""
        await self._close_listen()
        self.disconnect()
        for task in list(self._tasks):
            task.cancel()
        if self._runner is not None:
            await asyncio.gather(self._runner, return_exceptions=True)

    async def wait_settled(self) -> str:
        """Wait while the latest connect is connecting; the state it settled in (connected, failed or
        disconnected)."""
        while self.state == CONNECTING and self._runner is not None and not self._runner.done():
            await asyncio.wait({self._runner}, timeout=0.05)
        return self.state

    async def _run(self, profile: ServerProfile, previous: asyncio.Task[None] | None, stop: asyncio.Event) -> None:
        """One connect, start to end. Only the latest connect's run reports states: a run superseded
        by a later connect (or stopped by a shutdown) ends quietly, its failures still in the record."""
        if previous is not None and not previous.done():
            await asyncio.gather(previous, return_exceptions=True)
        if stop.is_set():  # superseded by a later connect, or disconnected / closed, while waiting
            self._report(DISCONNECTED, "disconnected")
            return
        opened: Operations | None = None  # this run's connection, once it is open
        stopper = _cancel_on(stop)  # a stop while the server has not answered initialize ends the wait
        try:
            auth = self.auth_for(profile) if self.auth_for is not None else None
            async with await _open(profile, self.store, auth, self.connect_timeout, self.handlers) as conn:
                stopper.cancel()
                opened = conn
                if self._is_current():
                    self._conn = conn
                    conn.subscribe(self._on_event)
                    name = conn.server_info.get("name", profile.name)
                    self._learn_era(profile, conn.negotiation)
                    self._set_state(CONNECTED, f"connected to {name}: {conn.negotiation.describe()}")
                    self.connected.emit(self)
                    self._spawn(self._list_tools())
                    if conn.era == "modern":
                        self._spawn(self._start_listen(conn))
                await _until_first(conn.wait_closed(), stop.wait())
                if stop.is_set():
                    await self._close_listen()  # ended by its request's own cancellation, not torn down
            self._forget(opened)
            if stop.is_set() and conn.lost is None:
                self._report(DISCONNECTED, "disconnected")
            else:
                self._lost(await conn.explain_loss(conn.loss()))
        except LensError as exc:
            self._forget(opened)
            if exc.details.get("lost"):  # the transport failed under an open connection
                explain = getattr(opened, "explain_loss", None)
                self._lost(await explain(exc) if explain is not None else exc)
                return
            self.store.record_failure("client", f"connect failed: {exc.message}", "connect failed")
            self._report(FAILED, exc.message + (f"\n{exc.hint}" if exc.hint else ""))
        except Exception as exc:  # never let a broken server take the front end down
            self._forget(opened)
            self._report(FAILED, f"{type(exc).__name__}: {exc}")
        except asyncio.CancelledError:
            self._forget(opened)
            if not stop.is_set():  # not ours (the loop is ending): let it through
                raise
            _uncancel()
            self._report(DISCONNECTED, "disconnected")
        finally:
            stopper.cancel()

    def _learn_era(self, profile: ServerProfile, negotiation: Negotiation) -> None:
        """`auto` remembers a server that left its probe unanswered (it cost seconds), so it is not
        probed again; a server that answered it is probed again next time (a cheap round trip)."""
        if negotiation.setting != "auto" or negotiation.remembered:
            return
        learned = learned_era(negotiation)
        if profile.learned_era != learned:
            profile.learned_era = learned
            self.era_learned.emit(profile, learned)

    def _is_current(self) -> bool:
        """This task is the latest connect's run."""
        return self._runner is asyncio.current_task()

    def _forget(self, conn: Operations | None) -> None:
        """The run's connection closed: the session has none (a later run sets its own once this one ends)."""
        if self._is_current() or (conn is not None and self._conn is conn):
            self._conn = None
        if self.listen is not None and (conn is None or self.listen.conn is conn):
            self.listen = None
            self.listen_changed.emit(None)

    async def _start_listen(self, conn: Operations) -> None:
        """Modern era: open the listen stream (list changes now; resource subscriptions join it later)."""
        stream = ListenStream(conn, spawn=self._spawn)
        stream.changed.append(lambda: self.listen_changed.emit(stream) if self.listen is stream else None)
        self.listen = stream
        with contextlib.suppress(LensError):  # said by the stream's state, which the listeners saw
            await stream.start()

    async def _close_listen(self) -> None:
        """End the listen stream (if open) before its connection closes: an HTTP stream aborted in order."""
        stream = self.listen
        if stream is not None and stream.state in ("listening", "opening"):
            with contextlib.suppress(Exception, asyncio.TimeoutError):
                await asyncio.wait_for(stream.close(), 1.0)

    async def subscribe_resource(self, uri: str) -> None:
        """One Subscribe for both eras: the listen stream when modern, `resources/subscribe` when legacy."""
        await subscribe_resource(self._live_conn(), self.listen, uri)

    async def unsubscribe_resource(self, uri: str) -> None:
        await unsubscribe_resource(self._live_conn(), self.listen, uri)

    def set_log_level(self, level: str | None) -> None:
        """Modern era: the level every later request asks for in its `_meta` (None: not asked for)."""
        self._live_conn().log_level = level

    def _report(self, state: str, detail: str) -> None:
        if self._is_current():
            self._set_state(state, detail)

    def _lost(self, error: LensError) -> None:
        """An open connection went away: FAILED, saying why and how to come back."""
        failure = describe_failure(error)
        if error.details.get("server_exit") is None:  # a process exit is in the record already
            self.store.record_failure("client", f"connection lost: {failure.detail}", "connection lost")
        if error.details.get("stopped"):  # an HTTP server that stopped answering: said first, in its words
            self._report(FAILED, f"disconnected: {error.details.get('reason')}. {RECOVER}")
            return
        detail, code = failure.detail, error.details.get("server_exit")
        if isinstance(code, int):  # the title says how the process ended: not said twice (stderr's lines stay)
            detail = re.sub(rf"^[^\n]*?exited with code {code}(?: \([^)]*\))?[;:.]?\s*", "", detail)
        recover = RESTART if self.profile is not None and self.profile.transport == "stdio" else RECOVER
        self._report(FAILED, f"Not connected: {failure.title}. {recover}" + (f"\n{detail}" if detail else ""))

    def _set_state(self, state: str, detail: str) -> None:
        self.state, self.detail = state, detail
        self.state_changed.emit(state, detail)

    def _on_event(self, event: Event) -> None:
        if event.kind == "tools_changed":
            self.tools_changed.emit(event.data["listing"])
        self.server_event.emit(event)

    # -- requests ----------------------------------------------------------------------------
    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _live_conn(self) -> Operations:
        if self._conn is None:
            raise ConnectFailed("not connected", hint=RECOVER)
        return self._conn

    async def request(self, method: str, params: dict[str, Any] | None = None, **kwargs: Any) -> dict[str, Any]:
        """Send one request on the current connection and return the raw result (the core operations in
        `inspector.core.resources` / `prompts` take the session as their requester)."""
        return await self._live_conn().request(method, params, **kwargs)

    async def request_rounds(self, method: str, params: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """`request`, answering the server's input_required results (prompts/get, resources/read)."""
        return await self._live_conn().request_rounds(method, params, **kwargs)

    async def notify_roots_changed(self) -> None:
        """Tell the server the client's roots changed (`notifications/roots/list_changed`)."""
        conn = self._live_conn()
        notify = getattr(conn, "notify_roots_changed", None)
        if notify is None:
            raise ConnectFailed("this connection cannot send notifications")
        await notify()

    async def list_tools(self) -> ToolListing:
        return await self._live_conn().list_tools()

    async def _list_tools(self) -> None:
        """The first tools/list of a connection: through the same coalescing as the re-lists after
        list_changed (a server announcing its tools one by one while we list costs one more listing);
        the listing arrives as a `tools_changed` event."""
        conn = self._conn
        if conn is None:
            return
        await conn.relist_tools(on_error=lambda exc: self.request_finished.emit("tools/list", exc))

    def call_tool(
        self,
        name: str,
        arguments: dict[str, Any],
        *,
        timeout: float | None,
        max_total: float | None,
        replay: dict[str, Any] | None = None,
    ) -> CallRecord | None:
        """Start a tool call; progress and the outcome arrive through `call_updated`. Several may run.
        Input the server asks for (input_required) goes to the handlers, or comes from `replay` (key → answer)."""
        conn = self._conn
        if conn is None:
            return None
        record = CallRecord(name, dict(arguments), conn.new_handle("tools/call", timeout, max_total))

        def progressed(_item: Any) -> None:
            self.call_updated.emit(record)

        def on_round(current: Round) -> None:
            record.round, record.waiting = current.number, current.waiting
            self.call_updated.emit(record)

        async def run() -> None:
            try:
                outcome = await conn.call_tool(
                    name,
                    arguments,
                    handle=record.handle,
                    on_progress=progressed,
                    on_round=on_round,
                    answerer=recording_answerer(conn.answerer(), record.answers, replay),
                )
            except LensError as exc:
                record.finish(error=exc)
            except Exception as exc:  # whatever broke, the call ends visibly (never a silent no-op)
                record.finish(error=LensError(f"{type(exc).__name__}: {exc}"))
            except asyncio.CancelledError:
                record.finish(error=RequestTimeout("the call was abandoned", cancelled=True))
                self.call_updated.emit(record)
                raise
            else:
                record.findings = outcome.findings
                record.finish(result=outcome.result)
            self.call_updated.emit(record)

        self._spawn(run())
        self.call_updated.emit(record)
        return record

    def send_request(self, method: str, params: Any) -> asyncio.Task[Any] | None:
        """Send a request the user wrote (e.g. a re-send from the traffic log); the outcome arrives
        through `request_finished`."""
        conn = self._conn
        if conn is None:
            return None

        async def run() -> None:
            try:
                result = await conn.request(method, params if isinstance(params, dict) else None)
            except LensError as exc:
                self.request_finished.emit(method, exc)
                return
            except Exception as exc:  # never a silent no-op
                self.request_finished.emit(method, LensError(f"{type(exc).__name__}: {exc}"))
                return
            self.request_finished.emit(method, result)

        return self._spawn(run())

    def ping(self) -> asyncio.Task[Any] | None:
        """Send `ping`; the round trip in ms (or the error) arrives through `ping_finished`."""
        conn = self._conn
        if conn is None:
            self.ping_finished.emit(ConnectFailed("not connected", hint=RECOVER))
            return None

        async def run() -> None:
            try:
                self.ping_finished.emit(await conn.ping())
            except LensError as exc:
                self.ping_finished.emit(exc)

        return self._spawn(run())
