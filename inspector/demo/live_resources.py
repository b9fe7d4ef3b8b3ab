"""Resources that change, for subscriptions and list changes, in both protocol eras.

- ``demo://live/counter`` changes every `TICK_SECONDS` while someone watches it; a watcher gets
  ``notifications/resources/updated`` on each change.
- Each note is listed as a resource (``demo://notes/<id>``); when a request (``delete_note``)
  changes the notes, ``notifications/resources/list_changed`` is sent, and ``resources/updated``
  to watchers of a deleted note.

Handshake era (≤ 2025-11-25): ``MCPServer`` serves neither ``resources/subscribe`` nor list changes
by itself, so a middleware (the SDK's public ``middleware=`` hook) serves subscribe/unsubscribe,
advertises both truthfully and notifies the subscribed session. 2026-07-28: the SDK serves
``subscriptions/listen`` from a `SubscriptionBus`; the middleware counts the listen streams that ask
for the counter, ticks while there is one, and publishes the changes on that bus.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.resources import FunctionResource
from mcp.server.subscriptions import ResourcesListChanged, ResourceUpdated, SubscriptionBus
from mcp_types import ResourceListChangedNotification, ResourceUpdatedNotification, ResourceUpdatedNotificationParams
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from inspector.demo.state import DemoState, connection_key

COUNTER_URI = "demo://live/counter"
NOTE_PREFIX = "demo://notes/"
TICK_SECONDS = 1.0


class LiveResources:
    """Server middleware: subscriptions per session, a ticking counter, notes listed as resources."""

    def __init__(self, state: DemoState, bus: SubscriptionBus) -> None:
        self._state = state
        self._bus = bus
        self._counter_listeners = 0  # open 2026-07-28 listen streams that asked for the counter
        self._listen_ticker: asyncio.Task[None] | None = None
        self.ticks = 0
        self.started = time.time()
        self._subscriptions: dict[str, set[str]] = {}  # connection key -> subscribed URIs
        self._sessions: dict[str, Any] = {}  # connection key -> the session to notify
        self._tickers: dict[str, asyncio.Task[None]] = {}

    def counter_text(self) -> str:
        now = time.strftime("%H:%M:%S")
        return (
            f"tick {self.ticks}\nat {now}\nThis resource changes every {TICK_SECONDS:g} s; subscribe to hear of it.\n"
        )

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS and ctx.method != "initialize":
            return await self._modern(ctx, call_next)
        if ctx.method in ("resources/subscribe", "resources/unsubscribe"):
            uri = str((ctx.params or {}).get("uri", ""))
            key = connection_key(getattr(ctx.request, "headers", None))
            if ctx.method == "resources/subscribe":
                self._subscribe(ctx.session, key, uri)
            else:
                self._unsubscribe(key, uri)
            return {}
        notes_before = set(self._state.notes)
        result = await call_next(ctx)
        if ctx.method == "initialize" and isinstance(result, dict):
            resources = result.setdefault("capabilities", {}).setdefault("resources", {})
            resources["subscribe"] = True
            resources["listChanged"] = True
        elif ctx.method == "resources/list" and isinstance(result, dict) and isinstance(result.get("resources"), list):
            result["resources"].extend(self._note_resources())
        if set(self._state.notes) != notes_before:
            await self._notes_changed(ctx, notes_before - set(self._state.notes))
        return result

    async def _modern(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        """2026-07-28: count counter listeners around their listen stream; publish note changes on the bus."""
        if ctx.method == "subscriptions/listen" and COUNTER_URI in _listened_uris(ctx.params):
            self._counter_listeners += 1
            if self._listen_ticker is None or self._listen_ticker.done():
                self._listen_ticker = asyncio.ensure_future(self._tick_for_listeners())
            try:
                return await call_next(ctx)
            finally:
                self._counter_listeners -= 1
        notes_before = set(self._state.notes)
        result = await call_next(ctx)
        if ctx.method == "resources/list" and isinstance(result, dict) and isinstance(result.get("resources"), list):
            result["resources"].extend(self._note_resources())
        if set(self._state.notes) != notes_before:
            await self._bus.publish(ResourcesListChanged())
            for note in sorted(notes_before - set(self._state.notes)):
                await self._bus.publish(ResourceUpdated(uri=NOTE_PREFIX + note))
        return result

    async def _tick_for_listeners(self) -> None:
        """While a listen stream watches the counter: advance it and publish the update."""
        while self._counter_listeners > 0:
            await asyncio.sleep(TICK_SECONDS)
            self.ticks += 1
            await self._bus.publish(ResourceUpdated(uri=COUNTER_URI))

    def _note_resources(self) -> list[dict[str, Any]]:
        return [
            {"uri": NOTE_PREFIX + note_id, "name": f"note {note_id}", "mimeType": "text/markdown"}
            for note_id in self._state.notes
        ]

    async def _notes_changed(self, ctx: ServerRequestContext[Any, Any], removed: set[str]) -> None:
        # On the request's own stream, so it arrives over Streamable HTTP too (before the result).
        session, related = ctx.session, ctx.request_id
        with contextlib.suppress(Exception):
            await session.send_notification(ResourceListChangedNotification(), related_request_id=related)
            subscribed = self._subscriptions.get(connection_key(getattr(ctx.request, "headers", None)), set())
            for uri in sorted(NOTE_PREFIX + note for note in removed if NOTE_PREFIX + note in subscribed):
                await session.send_notification(_updated(uri), related_request_id=related)

    def _subscribe(self, session: Any, key: str, uri: str) -> None:
        self._sessions[key] = session
        self._subscriptions.setdefault(key, set()).add(uri)
        if key not in self._tickers:
            self._tickers[key] = asyncio.ensure_future(self._tick(key))

    def _unsubscribe(self, key: str, uri: str) -> None:
        subscribed = self._subscriptions.get(key, set())
        subscribed.discard(uri)
        if not subscribed and (ticker := self._tickers.pop(key, None)) is not None:
            ticker.cancel()

    async def _tick(self, key: str) -> None:
        """While the session is subscribed to anything: advance the counter and tell it."""
        try:
            while True:
                await asyncio.sleep(TICK_SECONDS)
                self.ticks += 1
                if COUNTER_URI in self._subscriptions.get(key, set()):
                    await self._sessions[key].send_notification(_updated(COUNTER_URI))
        except Exception:  # the session went away: stop quietly
            pass
        finally:
            if self._tickers.get(key) is asyncio.current_task():  # not cancelled by unsubscribe
                del self._tickers[key]
                self._subscriptions.pop(key, None)
                self._sessions.pop(key, None)


def _listened_uris(params: Any) -> list[str]:
    """The resource URIs a ``subscriptions/listen`` request's filter asks for."""
    notifications = (params or {}).get("notifications") if isinstance(params, dict) else None
    uris = notifications.get("resourceSubscriptions") if isinstance(notifications, dict) else None
    return [uri for uri in uris if isinstance(uri, str)] if isinstance(uris, list) else []


def _updated(uri: str) -> ResourceUpdatedNotification:
    return ResourceUpdatedNotification(params=ResourceUpdatedNotificationParams(uri=uri))


def register(server: MCPServer, state: DemoState, bus: SubscriptionBus) -> None:
    """Add the live counter resource and the subscription middleware to ``server`` (``bus``: its listen bus)."""
    live = LiveResources(state, bus)
    server.add_resource(
        FunctionResource(
            uri=COUNTER_URI,
            name="counter",
            title="Live counter",
            description=f"Changes every {TICK_SECONDS:g} s while someone is subscribed; subscribe to it.",
            mime_type="text/plain",
            fn=live.counter_text,
        )
    )
    server.middleware.append(live)
