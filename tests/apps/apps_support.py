"""Helpers for the MCP Apps tests: a host as the UI would be, and an app that posts raw JSON texts."""

from __future__ import annotations

import json
from typing import Any

from inspector.apps.bridge import AppBridge


class RecordingHost:
    """An `AppHost` that answers as told and remembers what the bridge asked of it. `call` runs a tool
    (a real connection's `call_tool` in the tests that need one)."""

    def __init__(self, call: Any = None, *, confirm: bool = True, open_links: bool = False) -> None:
        self.call = call
        self.confirm = confirm
        self.open_links = open_links
        self.asked: list[str] = []  # tools the user was asked to confirm
        self.links: list[str] = []
        self.messages: list[dict] = []
        self.sizes: list[tuple[int | None, int | None]] = []

    async def call_tool(self, name: str, arguments: dict) -> dict:
        if self.call is None:
            raise RuntimeError("no server in this test")
        return (await self.call(name, arguments)).result

    async def read_resource(self, uri: str) -> dict:
        return {"contents": [{"uri": uri, "mimeType": "text/plain", "text": "read by the host"}]}

    async def confirm_tool_call(self, name: str, arguments: dict, tool: dict | None) -> bool:
        self.asked.append(name)
        return self.confirm

    async def open_link(self, url: str) -> bool:
        self.links.append(url)
        return self.open_links

    async def message(self, params: dict) -> None:
        self.messages.append(params)

    def resize(self, width: int | None, height: int | None) -> None:
        self.sizes.append((width, height))


class FakeApp:
    """The app's side as raw texts: what it posts to the bridge, and what the bridge sent it."""

    def __init__(self, bridge: AppBridge) -> None:
        self.bridge = bridge
        self.inbox: list[dict[str, Any]] = []
        self.next_id = 0
        bridge.send = lambda text: self.inbox.append(json.loads(text))

    async def post(self, message: dict[str, Any] | str) -> None:
        await self.bridge.receive(message if isinstance(message, str) else json.dumps(message))

    async def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Post a request; return the bridge's answer to it."""
        self.next_id += 1
        await self.post({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params or {}})
        return next(m for m in reversed(self.inbox) if m.get("id") == self.next_id and "method" not in m)

    async def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        await self.post({"jsonrpc": "2.0", "method": method, "params": params or {}})

    def notifications(self, method: str) -> list[dict[str, Any]]:
        return [m for m in self.inbox if m.get("method") == method]
