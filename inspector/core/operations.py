"""MCP operations shared by every client flavour: listing and calling tools, ping, events.

A subclass supplies `request()` (send one JSON-RPC request, return the raw result dict) and fills
`init` with the raw initialize result.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from inspector.core.calls import Progress, ProgressCallback, RequestHandle
from inspector.core.errors import ToolFailed, UnknownTool
from inspector.core.findings import Finding, check_call_result, check_list_page, check_tools
from inspector.traffic.store import TrafficStore

MAX_PAGES = 1000


@dataclass(frozen=True, slots=True)
class Event:
    """Something the server did that a UI or script may want to react to."""

    kind: str  # "log" | "tools_changed" | "notification" | "stream_error"
    data: dict[str, Any]


@dataclass
class ToolListing:
    tools: list[Any]
    pages: int
    findings: list[Finding] = field(default_factory=list)

    def by_name(self, name: str) -> dict[str, Any] | None:
        return next((t for t in self.tools if isinstance(t, dict) and t.get("name") == name), None)

    def names(self) -> list[str]:
        return [str(t.get("name")) for t in self.tools if isinstance(t, dict)]


@dataclass
class CallOutcome:
    result: dict[str, Any]
    findings: list[Finding]
    elapsed_ms: float
    progress: list[Progress]

    @property
    def is_error(self) -> bool:
        return self.result.get("isError") is True


class Operations:
    """The MCP layer over a raw `request()`."""

    store: TrafficStore
    request_timeout: float | None

    def __init__(self) -> None:
        self.init: dict[str, Any] = {}
        self.tools: ToolListing | None = None
        self.relist_on_change = True  # a one-shot CLI run turns this off
        self._listeners: list[Callable[[Event], None]] = []

    async def request(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        handle: RequestHandle | None = None,
        on_progress: ProgressCallback | None = None,
        with_progress: bool = False,
    ) -> dict[str, Any]:
        raise NotImplementedError

    def describe_exit(self) -> str:
        raise NotImplementedError

    # -- what was negotiated -----------------------------------------------------------------
    @property
    def protocol_version(self) -> str | None:
        value = self.init.get("protocolVersion")
        return value if isinstance(value, str) else None

    @property
    def server_info(self) -> dict[str, Any]:
        value = self.init.get("serverInfo")
        return value if isinstance(value, dict) else {}

    @property
    def capabilities(self) -> dict[str, Any]:
        value = self.init.get("capabilities")
        return value if isinstance(value, dict) else {}

    @property
    def instructions(self) -> str | None:
        value = self.init.get("instructions")
        return value if isinstance(value, str) else None

    # -- events ------------------------------------------------------------------------------
    def subscribe(self, listener: Callable[[Event], None]) -> None:
        self._listeners.append(listener)

    def emit(self, kind: str, **data: Any) -> None:
        event = Event(kind, data)
        for listener in list(self._listeners):
            listener(event)

    async def relist_tools(self) -> None:
        """React to `notifications/tools/list_changed`: list again and raise `tools_changed`."""
        try:
            listing = await self.list_tools()
        except Exception as exc:  # reported, never fatal
            self.emit("stream_error", error=f"re-listing tools after list_changed failed: {exc}")
            return
        self.emit("tools_changed", listing=listing)

    # -- operations --------------------------------------------------------------------------
    def new_handle(self, method: str, timeout: float | None = None, max_total: float | None = None) -> RequestHandle:
        return RequestHandle(
            method, timeout=timeout if timeout is not None else self.request_timeout, max_total=max_total
        )

    async def ping(self) -> float:
        """Round trip in milliseconds."""
        started = time.perf_counter()
        await self.request("ping")
        return (time.perf_counter() - started) * 1000.0

    async def list_tools(self) -> ToolListing:
        """All pages of `tools/list`, concatenated; conformance problems become findings."""
        tools: list[Any] = []
        findings: list[Finding] = []
        cursor: str | None = None
        seen_cursors: set[str] = set()
        pages = 0
        while True:
            page = await self.request("tools/list", {"cursor": cursor} if cursor is not None else None)
            base = f"$[page {pages}]" if pages else "$"
            pages += 1
            findings.extend(check_list_page(page, base))
            if isinstance(page.get("tools"), list):
                tools.extend(page["tools"])
            next_cursor = page.get("nextCursor")
            cursor = next_cursor if isinstance(next_cursor, str) else None
            if cursor is None:
                break
            if cursor in seen_cursors or pages >= MAX_PAGES:
                where = f"{base}.nextCursor"
                findings.append(Finding(f"pagination does not end (cursor {cursor!r} repeats)", where, "a new cursor"))
                break
            seen_cursors.add(cursor)
        findings.extend(check_tools(tools))
        self.tools = ToolListing(tools=tools, pages=pages, findings=findings)
        return self.tools

    async def call_tool(
        self,
        name: str,
        arguments: dict[str, Any] | None = None,
        *,
        timeout: float | None = None,
        max_total: float | None = None,
        on_progress: ProgressCallback | None = None,
        handle: RequestHandle | None = None,
        check_known: bool = False,
        raise_on_error: bool = False,
    ) -> CallOutcome:
        """Call a tool with a progress token; the timeout restarts on each progress notification."""
        if check_known:
            listing = self.tools or await self.list_tools()
            if listing.by_name(name) is None:
                names = ", ".join(sorted(listing.names())) or "(none)"
                raise UnknownTool(f"no tool named {name!r}", hint=f"available tools: {names}")
        tool = self.tools.by_name(name) if self.tools else None
        handle = handle or self.new_handle("tools/call", timeout, max_total)
        started = time.perf_counter()
        params = {"name": name, "arguments": arguments or {}}
        since = self.store.next_seq
        result = await self.request("tools/call", params, handle=handle, on_progress=on_progress, with_progress=True)
        elapsed = (time.perf_counter() - started) * 1000
        outcome = CallOutcome(result, check_call_result(result, tool), elapsed, handle.progress)
        if errors := [f for f in outcome.findings if f.severity == "error"]:  # the traffic log flags the response
            more = f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
            self.store.flag_response("tools/call", result, f"finding: {errors[0]}{more}", since_seq=since)
        if raise_on_error and outcome.is_error:
            raise ToolFailed(f"tool {name!r} returned isError: true", result=result)
        return outcome
