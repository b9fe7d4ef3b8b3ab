"""The host side of an MCP App's JSON-RPC bridge, transport-agnostic (no Qt).

The view relays raw postMessage texts: `receive(text)` for one the app posted, `send(text)` (set by the
view) to deliver one to the app. Every message both ways is recorded in the session's `TrafficStore`
with transport "app": app → host as `Direction.OUT` (the app is the client), host → app as `IN`.
The view should run each `receive` as its own task, so a slow tool call does not hold up a ping.
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from inspector import __version__
from inspector.apps import csp
from inspector.apps.ui_resource import UiResource, app_may_call, is_read_only
from inspector.traffic.entry import Direction, Entry
from inspector.traffic.store import TrafficStore

TRANSPORT = "app"
PROTOCOL_VERSION = "2026-01-26"  # the extension's latest
SUPPORTED_VERSIONS = (PROTOCOL_VERSION,)
MAX_MESSAGE_BYTES = 1_000_000
MAX_PER_SECOND = 200

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR = -32700, -32600, -32601, -32602, -32603
USER_DECLINED = -32000  # a tools/call the user refused
CUT_OFF = -32001  # the bridge stopped answering a flooding app


class AppHost(Protocol):
    """What the bridge needs from the UI."""

    async def call_tool(self, name: str, arguments: dict) -> dict: ...  # the CallToolResult; raises on failure
    async def read_resource(self, uri: str) -> dict: ...
    async def confirm_tool_call(self, name: str, arguments: dict, tool: dict | None) -> bool: ...
    async def open_link(self, url: str) -> bool: ...  # the UI applies the URL rule and asks; True if opened
    async def message(self, params: dict) -> None: ...  # ui/message: show it to the user
    def resize(self, width: int | None, height: int | None) -> None: ...


class BridgeError(Exception):
    """Answer the app's request with this JSON-RPC error."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code


class AppBridge:
    """One rendered app's bridge. `initialized` turns true at `ui/notifications/initialized`; `flagged`
    lists, in words, what the app did wrong (the traffic log flags the entries too)."""

    def __init__(
        self,
        *,
        tool: dict,
        resource: UiResource,
        store: TrafficStore,
        host: AppHost,
        host_context: dict,
        source: str | None,
        tools: list[dict] | None = None,
    ) -> None:
        self.tool = tool
        self.resource = resource
        self.store = store
        self.host = host
        self.host_context = host_context
        self.source = source
        self.tools = tools  # the server's tool list, when known: an app may call only tools in it
        self.send: Callable[[str], None] = lambda text: None
        # told what changed (set by the view): "initialized", "size", "model-context", "log", "flagged",
        # "request-teardown" (the app asks to be closed)
        self.on_change: Callable[[str], None] = lambda what: None
        self.initialized = False
        self.flagged: list[str] = []
        self.app_info: dict[str, Any] | None = None
        self.model_context: dict[str, Any] | None = None  # the last ui/update-model-context
        self.logs: list[dict[str, Any]] = []  # the app's notifications/message
        self.size: tuple[int | None, int | None] = (None, None)
        self.cut_off = False
        self.dropped = 0
        self.torn_down = False
        self._queue: list[dict[str, Any]] = []  # tool-input / tool-result until initialized
        self._times: deque[float] = deque()
        self._next_id = 0
        self._handlers: dict[str, Callable[[Any], Awaitable[Any]]] = {
            "ui/initialize": self._initialize,
            "tools/call": self._call_tool,
            "resources/read": self._read_resource,
            "ui/message": self._message,
            "ui/open-link": self._open_link,
            "ui/request-display-mode": self._display_mode,
            "ui/update-model-context": self._update_model_context,
            "ping": self._ping,
        }

    # -- host → app --------------------------------------------------------------------------
    def tool_input(self, arguments: dict) -> None:
        """Hand the app the tool's arguments (`ui/notifications/tool-input`), once it is initialized."""
        self._notify_when_ready("ui/notifications/tool-input", {"arguments": arguments})

    def tool_result(self, result: dict) -> None:
        """Hand the app the tool's result (`ui/notifications/tool-result`), once it is initialized."""
        self._notify_when_ready("ui/notifications/tool-result", result)

    def tool_cancelled(self, reason: str | None = None) -> None:
        """Tell the app the tool call was cancelled (`ui/notifications/tool-cancelled`)."""
        self._notify_when_ready("ui/notifications/tool-cancelled", {"reason": reason} if reason else {})

    def context_changed(self, changes: dict) -> None:
        """Tell the app what changed in its host context, e.g. the theme (`ui/notifications/host-context-changed`)."""
        self.host_context = {**self.host_context, **changes}
        self._notify_when_ready("ui/notifications/host-context-changed", changes)

    def teardown(self) -> None:
        """Ask the app to clean up before it goes (`ui/resource-teardown`)."""
        if self.torn_down:
            return
        self.torn_down = True
        self._next_id += 1
        self._post({"jsonrpc": "2.0", "id": self._next_id, "method": "ui/resource-teardown", "params": {}})

    def _notify_when_ready(self, method: str, params: dict) -> None:
        message = {"jsonrpc": "2.0", "method": method, "params": params}
        if self.initialized:
            self._post(message)
        else:
            self._queue.append(message)

    def _post(self, message: dict[str, Any]) -> Entry:
        text = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
        entry = self.store.record_message(Direction.IN, TRANSPORT, text.encode(), source=self.source)
        self.send(text)
        return entry

    def _answer(self, rpc_id: Any, result: dict[str, Any]) -> None:
        self._post({"jsonrpc": "2.0", "id": rpc_id, "result": result})

    def _error(self, rpc_id: Any, code: int, message: str) -> Entry:
        return self._post({"jsonrpc": "2.0", "id": rpc_id, "error": {"code": code, "message": message}})

    # -- app → host --------------------------------------------------------------------------
    async def receive(self, text: str) -> None:
        """Handle one raw message the app posted: record it, then answer it as the extension says."""
        if self.cut_off:
            self.dropped += 1
            return
        raw = text.encode("utf-8", errors="replace")
        entry = self.store.record_message(Direction.OUT, TRANSPORT, raw, source=self.source)
        if self._flooding(len(raw)):
            self._cut(entry, len(raw))
            return
        try:
            message = json.loads(text)
        except ValueError as exc:
            self._flag(entry, f"the app posted invalid JSON ({exc})")
            self._error(None, PARSE_ERROR, f"Parse error: {exc}")
            return
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            self._flag(entry, "the app posted something that is not a JSON-RPC 2.0 message")
            self._error(message.get("id") if isinstance(message, dict) else None, INVALID_REQUEST, "Invalid Request")
            return
        method = message.get("method")
        if not isinstance(method, str):
            self._response(message)
        elif "id" in message:
            await self._request(entry, message["id"], method, message.get("params"))
        else:
            self._notification(method, message.get("params"))

    async def _request(self, entry: Entry, rpc_id: Any, method: str, params: Any) -> None:
        handler = self._handlers.get(method)
        if handler is None:
            self._error(rpc_id, METHOD_NOT_FOUND, f"Method not found: {method}")
            return
        try:
            result = await handler(params if params is not None else {})
        except BridgeError as exc:
            self._error(rpc_id, exc.code, str(exc))
            return
        except Exception as exc:  # the host's failure goes back to the app as an error
            self._error(rpc_id, INTERNAL_ERROR, f"{method} failed: {exc}")
            return
        self._answer(rpc_id, result)

    def _notification(self, method: str, params: Any) -> None:
        params = params if isinstance(params, dict) else {}
        if method == "ui/notifications/initialized":
            self.initialized = True
            queued, self._queue = self._queue, []
            for message in queued:
                self._post(message)
            self.on_change("initialized")
        elif method == "ui/notifications/size-changed":
            width, height = (_pixels(params.get(key)) for key in ("width", "height"))
            self.size = (width, height)
            self.host.resize(width, height)
            self.on_change("size")
        elif method == "ui/notifications/request-teardown":
            self.on_change("request-teardown")
        elif method == "notifications/message":
            self.logs.append(params)
            self.on_change("log")

    def _response(self, message: dict[str, Any]) -> None:
        """The app answers our request (only `ui/resource-teardown` is ever asked)."""

    # -- flood control -----------------------------------------------------------------------
    def _flooding(self, size: int) -> bool:
        now = time.monotonic()
        self._times.append(now)
        while self._times and now - self._times[0] > 1.0:
            self._times.popleft()
        return size > MAX_MESSAGE_BYTES or len(self._times) > MAX_PER_SECOND

    def _cut(self, entry: Entry, size: int) -> None:
        if size > MAX_MESSAGE_BYTES:
            why = f"the app posted a message of {size:,} bytes (over {MAX_MESSAGE_BYTES:,})"
        else:
            why = f"the app posted more than {MAX_PER_SECOND} messages in one second"
        self.cut_off = True
        self._flag(entry, f"{why}; the bridge answers nothing more from it")
        rpc_id = entry.rpc_id
        self._error(rpc_id, CUT_OFF, f"MCP Lens stopped answering this app: {why}")

    def _flag(self, entry: Entry, why: str) -> None:
        self.flagged.append(why)
        self.store.note(entry, why)
        self.on_change("flagged")

    # -- the app's requests ------------------------------------------------------------------
    async def _initialize(self, params: Any) -> dict[str, Any]:
        params = params if isinstance(params, dict) else {}
        info = params.get("appInfo")
        self.app_info = info if isinstance(info, dict) else None
        asked = params.get("protocolVersion")
        context = {
            "toolInfo": {"tool": self.tool},
            "theme": "light",
            "displayMode": "inline",
            "availableDisplayModes": ["inline"],
            "platform": "desktop",
            "userAgent": f"MCP Lens {__version__}",
            **self.host_context,
        }
        return {
            "protocolVersion": asked if asked in SUPPORTED_VERSIONS else PROTOCOL_VERSION,
            "hostInfo": {"name": "mcp-lens", "title": "MCP Lens", "version": __version__},
            "hostCapabilities": {
                "openLinks": {},
                "serverTools": {},
                "serverResources": {},
                "logging": {},
                "message": {"text": {}},
                "updateModelContext": {"text": {}, "structuredContent": {}},
                "sandbox": {"csp": _clean_csp(self.resource.csp), "permissions": {}},
            },
            "hostContext": context,
        }

    def _find_tool(self, name: str) -> dict | None:
        if self.tool.get("name") == name:
            return self.tool
        return next((t for t in self.tools or [] if isinstance(t, dict) and t.get("name") == name), None)

    async def _call_tool(self, params: Any) -> dict:
        name = params.get("name") if isinstance(params, dict) else None
        arguments = params.get("arguments", {}) if isinstance(params, dict) else None
        if not isinstance(name, str) or not isinstance(arguments, dict):
            raise BridgeError(INVALID_PARAMS, "tools/call needs a tool name and an arguments object")
        tool = self._find_tool(name)
        if tool is None and self.tools is not None:
            raise BridgeError(INVALID_PARAMS, f"Unknown tool: {name}")
        if tool is not None and not app_may_call(tool):
            raise BridgeError(INVALID_PARAMS, f"The tool {name} is not visible to apps (its visibility is model only)")
        if not is_read_only(tool) and not await self.host.confirm_tool_call(name, arguments, tool):
            raise BridgeError(USER_DECLINED, f"The user declined the call to {name}")
        return await self.host.call_tool(name, arguments)

    async def _read_resource(self, params: Any) -> dict:
        uri = params.get("uri") if isinstance(params, dict) else None
        if not isinstance(uri, str):
            raise BridgeError(INVALID_PARAMS, "resources/read needs a uri")
        return await self.host.read_resource(uri)

    async def _message(self, params: Any) -> dict:
        if not isinstance(params, dict) or not isinstance(params.get("content"), list):
            raise BridgeError(INVALID_PARAMS, "ui/message needs a content list")
        await self.host.message(params)
        return {}

    async def _open_link(self, params: Any) -> dict:
        url = params.get("url") if isinstance(params, dict) else None
        if not isinstance(url, str):
            raise BridgeError(INVALID_PARAMS, "ui/open-link needs a url")
        return {} if await self.host.open_link(url) else {"isError": True}

    async def _display_mode(self, params: Any) -> dict:
        return {"mode": "inline"}  # the only mode MCP Lens shows an app in

    async def _update_model_context(self, params: Any) -> dict:
        self.model_context = params if isinstance(params, dict) else {}
        self.on_change("model-context")
        return {}

    async def _ping(self, params: Any) -> dict:
        return {}


def _pixels(value: Any) -> int | None:
    return int(value) if isinstance(value, int | float) and not isinstance(value, bool) and value >= 0 else None


def _clean_csp(csp_meta: dict[str, Any]) -> dict[str, list[str]]:
    """The origins the host applies, per `_meta.ui.csp` key (malformed ones dropped)."""
    return {key: origins for kind, key in csp.KINDS.items() if (origins := csp.declared(csp_meta, kind))}
