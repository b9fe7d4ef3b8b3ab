"""The 2026-07-28 `subscriptions/listen` stream: list changes and resource updates on a modern connection.

One long-lived request per connection. It asks for every list-change kind and the subscribed resource
URIs; the server's `notifications/subscriptions/acknowledged` says which it honours, then its events
arrive as ordinary notifications stamped with ``_meta["io.modelcontextprotocol/subscriptionId"]`` (the
listen request's id), so the existing notification paths (tools relisted, the Resources tab's updates)
see them unchanged. A stream's filter is fixed when it opens: subscribing to one more URI opens a new
stream with the new filter and ends the old one once the new one is acknowledged (events are level
triggers, so an overlap repeats at most one). In the traffic log the listen request is its own flagged
line, "listening" while open, with its events paired to it. The handshake era uses `resources/subscribe`
(see `subscribe_resource`). Qt-free; works on any `Operations` (the SDK connection or the lean CLI one).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from inspector.core import requires, resources
from inspector.core.calls import RequestHandle
from inspector.core.errors import ConnectFailed, LensError, RequestTimeout
from inspector.core.operations import Event, Operations
from inspector.traffic.entry import LISTENING, TEARDOWN, Direction, Entry, Kind
from inspector.words import counted

LISTEN = "subscriptions/listen"
ACKNOWLEDGED = "notifications/subscriptions/acknowledged"
SUBSCRIPTION_ID_META_KEY = "io.modelcontextprotocol/subscriptionId"
LIST_CHANGED_KINDS = ("toolsListChanged", "promptsListChanged", "resourcesListChanged")
LISTENING_NOTE = LISTENING
ACK_TIMEOUT_S = 15.0


def listen_params(uris: list[str], capabilities: dict[str, Any] | None = None) -> dict[str, Any]:
    """The `subscriptions/listen` params: the list-change kinds the server declares (every kind when
    `capabilities` is None), plus `uris` when there are any."""
    kinds = [
        kind
        for kind, path in zip(LIST_CHANGED_KINDS, requires.LIST_CHANGED, strict=True)
        if capabilities is None or requires.declares(capabilities, path)
    ]
    notifications: dict[str, Any] = dict.fromkeys(kinds, True)
    if uris:
        notifications["resourceSubscriptions"] = list(uris)
    return {"notifications": notifications}


def subscription_id(params: Any) -> int | str | None:
    """The listen request id a stream frame is stamped with, if any."""
    meta = params.get("_meta") if isinstance(params, dict) else None
    value = meta.get(SUBSCRIPTION_ID_META_KEY) if isinstance(meta, dict) else None
    return value if isinstance(value, int | str) and not isinstance(value, bool) else None


class ListenStream:
    """The modern era's listen stream for one connection (see the module docstring).

    `state`: ``closed`` | ``opening`` | ``listening`` | ``failed``; `detail` says why in words.
    `changed` listeners are called (no arguments) whenever the state, the honoured filter or the URIs change.
    """

    def __init__(
        self,
        conn: Operations,
        *,
        ack_timeout: float = ACK_TIMEOUT_S,
        spawn: Callable[[Any], asyncio.Task[Any]] = asyncio.ensure_future,
    ) -> None:
        self.conn = conn
        self.spawn = spawn  # starts the listen request's task (a session passes its own, to cancel at shutdown)
        self.ack_timeout = ack_timeout
        self.uris: list[str] = []  # resource URIs the open stream was asked for
        self.honored: dict[str, Any] | None = None  # the server's acknowledged filter
        self.subscription_id: int | str | None = None
        self.state = "closed"
        self.detail = ""
        self.events = 0  # stream events received on the open stream
        self.changed: list[Callable[[], None]] = []
        self._handle: RequestHandle | None = None
        self._task: asyncio.Task[Any] | None = None
        self._entry: Entry | None = None
        self._ack: asyncio.Future[tuple[int | str, dict[str, Any]]] | None = None
        self._lock = asyncio.Lock()
        self._closing = False
        conn.subscribe(self._on_event)

    # -- what the user asks for --------------------------------------------------------------
    async def start(self) -> None:
        """Open the stream (list changes only, or the URIs already subscribed); not sent to a server that
        declares nothing to listen for (`requires`): the state stays closed, the detail says why."""
        if why := requires.refusal(LISTEN, self.conn.capabilities, self.conn.era):
            self._set("closed", why)
            return
        if not self.uris and not listen_params([], self.conn.capabilities)["notifications"]:
            self._set("closed", "not opened: the server declares no listChanged (Subscribe opens it for a resource)")
            return
        await self._reopen(list(self.uris))

    async def subscribe(self, uri: str) -> None:
        """Add `uri`: a new stream with it in the filter. Raises `LensError` if the server did not honour it."""
        if uri in self.uris and self.state == "listening":
            return
        if not requires.declares(self.conn.capabilities, ("resources", "subscribe")):
            raise LensError(f"not subscribed to {uri}: the server declares no resources.subscribe")
        await self._reopen([*[u for u in self.uris if u != uri], uri])
        if uri not in self.honored_uris():
            raise LensError(f"the server did not acknowledge a subscription to {uri}", hint=self.detail or None)

    async def unsubscribe(self, uri: str) -> None:
        """Remove `uri`: a new stream without it."""
        await self._reopen([u for u in self.uris if u != uri])

    async def close(self) -> None:
        """End the stream (the connection stays)."""
        async with self._lock:
            self._closing = True
            try:
                await self._end(self._handle, self._task, self._entry, "closed by MCP Lens")
            finally:
                self._closing = False
            self._handle = self._task = self._entry = None
            self.subscription_id = None
            self._set("closed", "closed by MCP Lens")

    def honored_uris(self) -> list[str]:
        subs = (self.honored or {}).get("resourceSubscriptions")
        return [u for u in subs if isinstance(u, str)] if isinstance(subs, list) else []

    def describe(self) -> str:
        """One line for a status bar: what the stream listens for, or why it is not open."""
        if self.state != "listening":
            return f"listen stream {self.state}" + (f": {self.detail}" if self.detail else "")
        honored = self.honored or {}
        kinds = [k.removesuffix("ListChanged") for k in LIST_CHANGED_KINDS if honored.get(k) is True]
        text = "listening for " + (", ".join(kinds) + " list changes" if kinds else "no list changes")
        if uris := self.honored_uris():
            text += f" and {counted(len(uris), 'resource')}"
        return text

    # -- opening and ending streams ----------------------------------------------------------
    async def _reopen(self, uris: list[str]) -> None:
        async with self._lock:
            old = (self._handle, self._task, self._entry)
            self._set("opening", "waiting for the server's acknowledgement")
            try:
                opened = await self._open(uris)
            except LensError as exc:
                if old[0] is not None:  # the old stream is still open: keep it
                    self._set("listening", f"kept the open stream: {exc.message}")
                else:
                    self._set("failed", exc.message)
                raise
            self._handle, self._task, self._entry, self.subscription_id, self.honored = opened
            self.uris = list(uris)
            self.events = 0
            self._set("listening", "")
            await self._end(*old, "replaced by a stream with a new filter")

    async def _open(self, uris: list[str]) -> tuple[RequestHandle, asyncio.Task[Any], Entry | None, Any, dict]:
        loop = asyncio.get_running_loop()
        since = self.conn.store.next_seq
        handle = RequestHandle(LISTEN)  # no timeout: the stream lives until it is closed
        self._ack = ack = loop.create_future()
        task = self.spawn(self._run(handle, listen_params(uris, self.conn.capabilities)))
        try:
            await asyncio.wait({ack, task}, timeout=self.ack_timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._ack = None
        if ack.done():
            sid, honored = ack.result()
            entry = self._find_request(sid, since)
            if entry is not None:
                self.conn.store.note(entry, LISTENING_NOTE)
                self._pair(entry, ACKNOWLEDGED, sid)
            return handle, task, entry, sid, honored
        handle.cancel()
        if task.done():
            outcome = None if task.cancelled() else task.result()
            if isinstance(outcome, LensError):
                raise LensError(f"the server refused subscriptions/listen: {outcome.message}") from outcome
            raise LensError("the server ended subscriptions/listen before acknowledging it")
        await asyncio.gather(task, return_exceptions=True)
        raise LensError(f"no acknowledgement of subscriptions/listen within {self.ack_timeout:g}s")

    async def _run(self, handle: RequestHandle, params: dict[str, Any]) -> dict[str, Any] | LensError | None:
        """The listen request, from send to its end: the result, the error (never raised: nobody awaits
        this task once the stream is open), or None when we ended it. An end we did not ask for is
        said in `state`."""
        try:
            result = await self.conn.request(LISTEN, params, handle=handle)
        except RequestTimeout as exc:
            if handle.cancelled:  # ours: closed, or replaced
                return None
            self._ended_by_server(handle, exc.message)
            return exc
        except ConnectFailed as exc:
            self._ended_by_server(handle, f"the connection ended ({exc.message})")
            return exc
        except LensError as exc:
            self._ended_by_server(handle, exc.message)
            return exc
        self._ended_by_server(handle, "the server closed the stream")
        return result

    def _ended_by_server(self, handle: RequestHandle, why: str) -> None:
        if handle is self._handle and not self._closing:
            if self._entry is not None:
                self._relabel(self._entry, f"listen stream ended: {why}")
            self._handle = self._task = self._entry = None
            self.subscription_id = None
            self._set("closed", why)

    async def _end(
        self, handle: RequestHandle | None, task: asyncio.Task[Any] | None, entry: Entry | None, why: str
    ) -> None:
        if handle is None:
            return
        if entry is not None:  # ended by us: its cancellation, and an answer to it, are no flag
            self.conn.store.mark_probe(entry, TEARDOWN)
        handle.cancel()
        if task is not None:
            await asyncio.gather(task, return_exceptions=True)
        if entry is not None:
            self._relabel(entry, f"listen stream {why}")

    def _relabel(self, entry: Entry, text: str) -> None:
        """The listen line's status: no longer "listening", but how it ended."""
        text = f"{text} at {time.strftime('%H:%M:%S')}"
        self.conn.store.note(entry, text)  # tells the traffic views; the status is the first note
        entry.notes = (text, *(n for n in entry.notes if n not in (LISTENING_NOTE, text)))

    def _find_request(self, sid: int | str, since: int) -> Entry | None:
        store = self.conn.store
        for index in range(len(store) - 1, -1, -1):
            entry = store[index]
            if entry.seq < since:
                break
            if entry.direction is Direction.OUT and entry.method == LISTEN and entry.rpc_id == sid:
                return entry
        return None

    def _pair(self, line: Entry | None, method: str, sid: int | str) -> None:
        """Pair the newest unpaired stream frame recorded for `method` with the listen `line`."""
        if line is None:
            return
        store = self.conn.store
        for index in range(len(store) - 1, max(len(store) - 50, -1), -1):
            entry = store[index]
            if entry.kind is Kind.NOTIFICATION and entry.method == method and entry.peer_seq is None:
                parsed = entry.parsed()
                if isinstance(parsed, dict) and subscription_id(parsed.get("params")) == sid:
                    entry.peer_seq = line.seq
                    return

    def _on_event(self, event: Event) -> None:
        if event.kind != "notification":
            return
        method, params = event.data.get("method"), event.data.get("params")
        sid = subscription_id(params)
        if sid is None:
            return
        if method == ACKNOWLEDGED:
            honored = params.get("notifications") if isinstance(params, dict) else None
            if self._ack is not None and not self._ack.done() and sid != self.subscription_id:
                self._ack.set_result((sid, honored if isinstance(honored, dict) else {}))
            return
        if sid == self.subscription_id and isinstance(method, str):
            self.events += 1
            self._pair(self._entry, method, sid)

    def _set(self, state: str, detail: str) -> None:
        self.state, self.detail = state, detail
        for listener in list(self.changed):
            listener()


async def subscribe_resource(conn: Operations, stream: ListenStream | None, uri: str) -> None:
    """One Subscribe for both eras: the listen stream when modern, `resources/subscribe` when legacy."""
    if conn.era == "modern" and stream is not None:
        await stream.subscribe(uri)
    else:
        await resources.subscribe(conn, uri)


async def unsubscribe_resource(conn: Operations, stream: ListenStream | None, uri: str) -> None:
    if conn.era == "modern" and stream is not None:
        await stream.unsubscribe(uri)
    else:
        await resources.unsubscribe(conn, uri)
