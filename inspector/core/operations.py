"""MCP operations shared by every client flavour: listing and calling tools, ping, events.

A subclass supplies `request()` (send one JSON-RPC request, return the raw result dict) and fills
`init` with the raw initialize result.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from inspector import __version__
from inspector.core import era, requires
from inspector.core.calls import Progress, ProgressCallback, RequestHandle
from inspector.core.client_handlers import declared_capabilities
from inspector.core.errors import LensError, RequestTimeout, ToolFailed, UnknownTool
from inspector.core.findings import Finding, check_call_result, check_list_page, check_tools
from inspector.core.input_required import (
    Answerer,
    Round,
    RoundListener,
    cancellable,
    drive,
    handlers_answerer,
    is_input_required,
)
from inspector.traffic.store import TrafficStore

THREADED_CHECK_TOOLS = 500  # a longer tool list is checked on a worker thread

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
        self.negotiation = era.Negotiation()
        self.log_level: str | None = None  # modern era: asked for in each request's _meta
        self.tools: ToolListing | None = None
        self.relist_on_change = True  # a one-shot CLI run turns this off
        self.input_answerer: Answerer | None = None  # answers input_required (else the handlers, if any)
        self._relisting = False  # a relist_tools is in flight
        self._relist_again = False  # …and another was asked for meanwhile
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
    def era(self) -> str:
        """``legacy`` (initialize handshake) or ``modern`` (2026-07-28, stateless)."""
        return self.negotiation.era

    @property
    def discover_result(self) -> dict[str, Any] | None:
        return self.negotiation.discover

    def envelope(
        self, method: str, params: dict[str, Any] | None, capabilities: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, str]]:
        """A modern request's params (with the `_meta` envelope) and HTTP headers."""
        extra: dict[str, str] = {}
        if method == "tools/call" and params and self.tools is not None:
            arguments = params.get("arguments") if isinstance(params.get("arguments"), dict) else {}
            extra = era.header_params(self.tools.by_name(str(params.get("name"))), arguments)
        if self.log_level:
            meta = dict((params or {}).get("_meta") or {})
            meta.setdefault(era.LOG_LEVEL_META_KEY, self.log_level)
            params = {**(params or {}), "_meta": meta}
        return era.envelope(
            method,
            params,
            version=self.protocol_version or era.MODERN_PROTOCOL_VERSIONS[-1],
            client_info={"name": "mcp-lens", "version": __version__},
            capabilities=capabilities,
            extra_headers=extra,
        )

    def refuse_removed(self, method: str) -> None:
        """Raise when `method` does not exist in the era this connection speaks (e.g. ping when modern)."""
        if self.era == "modern" and (why := era.REMOVED_IN_MODERN.get(method)):
            raise LensError(why, hint="Connect with the protocol era set to legacy to use it.")

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

    async def relist_tools(self, on_error: Callable[[LensError], None] | None = None) -> None:
        """List tools on MCP Lens's own initiative (at connect, after `notifications/tools/list_changed`) and
        raise `tools_changed`. Coalesced: while a listing is in flight, any number of further asks make one
        more listing after it (a burst of five list_changed costs two tools/list, not five). Sent only to a
        server that declares tools (`requires`); a failure goes to `on_error`, else a `stream_error` event."""
        if self._relisting:
            self._relist_again = True
            return
        self._relisting = True
        try:
            again = True
            while again:
                self._relist_again = False
                try:
                    if why := requires.refusal("tools/list", self.capabilities, self.era):
                        raise LensError(f"tools/list {why}")
                    listing = await self.list_tools()
                except Exception as exc:  # reported, never fatal
                    error = exc if isinstance(exc, LensError) else LensError(f"{type(exc).__name__}: {exc}")
                    if on_error is not None:
                        on_error(error)
                    else:
                        self.emit("stream_error", error=f"re-listing tools after list_changed failed: {exc}")
                    return
                self.emit("tools_changed", listing=listing)
                again = self._relist_again
        finally:
            self._relisting = False

    # -- multi round-trip requests (input_required) -------------------------------------------
    def answerer(self) -> Answerer | None:
        """Who answers a modern server's input requests: the set answerer, else the client handlers."""
        if self.input_answerer is not None:
            return self.input_answerer
        handlers = getattr(self, "handlers", None)
        if handlers is None:
            return None
        return handlers.input or handlers_answerer(handlers)

    def client_capabilities(self) -> dict[str, Any]:
        """The client capabilities a modern request's `_meta` declares: those the handlers answer, and
        the extensions MCP Lens implements."""
        return declared_capabilities(getattr(self, "handlers", None))

    async def request_rounds(
        self,
        method: str,
        params: dict[str, Any],
        *,
        handle: RequestHandle | None = None,
        on_progress: ProgressCallback | None = None,
        with_progress: bool = False,
        on_round: RoundListener | None = None,
        answerer: Answerer | None = None,
    ) -> dict[str, Any]:
        """`request()`, answering input_required results round after round (see `input_required`).
        Every round's request and response are tagged in the traffic log as one group."""

        async def send(round_params: dict[str, Any], current: Round) -> dict[str, Any]:
            since = self.store.next_seq
            if handle is not None and handle.cancelled:
                raise RequestTimeout(f"{method} was cancelled", method=method, cancelled=True)
            result: Any = None
            try:
                result = await self.request(
                    method, round_params, handle=handle, on_progress=on_progress, with_progress=with_progress
                )
                return result
            finally:
                if current.number > 1 or is_input_required(result):
                    self.store.mark_round(since, method, round_params, group=current.group, title=current.title)

        answering = cancellable(answerer or self.answerer(), handle, method)
        return await drive(method, params, send, answering, on_round=on_round)

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
        if len(tools) > THREADED_CHECK_TOOLS:  # on a worker thread: the event loop (the window) keeps turning
            findings.extend(await asyncio.to_thread(check_tools, tools))
        else:
            findings.extend(check_tools(tools))
        if self.era == "modern":
            findings.extend(header_findings(tools))
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
        on_round: RoundListener | None = None,
        answerer: Answerer | None = None,
    ) -> CallOutcome:
        """Call a tool with a progress token; the timeout restarts on each progress notification."""
        if check_known:
            listing = self.tools or await self.list_tools()
            if listing.by_name(name) is None:
                names = ", ".join(sorted(listing.names())) or "(none)"
                raise UnknownTool(f"no tool named {name!r}", hint=f"available tools: {names}")
        tool = self.tools.by_name(name) if self.tools else None
        if self.era == "modern" and tool is not None and (why := era.invalid_header_params(tool)):
            raise LensError(
                f"tool {name!r} has invalid header parameters ({why}); a 2026-07-28 client must not call it",
                hint="Fix the tool's x-mcp-header annotations, or connect in the legacy era.",
            )
        handle = handle or self.new_handle("tools/call", timeout, max_total)
        started = time.perf_counter()
        params = {"name": name, "arguments": arguments or {}}
        since = self.store.next_seq
        result = await self.request_rounds(
            "tools/call",
            params,
            handle=handle,
            on_progress=on_progress,
            with_progress=True,
            on_round=on_round,
            answerer=answerer,
        )
        elapsed = (time.perf_counter() - started) * 1000
        outcome = CallOutcome(result, check_call_result(result, tool), elapsed, handle.progress)
        if errors := [f for f in outcome.findings if f.severity == "error"]:  # the traffic log flags the response
            more = f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
            self.store.flag_response("tools/call", result, f"finding: {errors[0]}{more}", since_seq=since)
        if raise_on_error and outcome.is_error:
            raise ToolFailed(f"tool {name!r} returned isError: true", result=result)
        return outcome


def header_findings(tools: list[Any]) -> list[Finding]:
    """Modern era: a tool whose `x-mcp-header` annotations are invalid, which a client must drop."""
    out = []
    for index, tool in enumerate(tools):
        if isinstance(tool, dict) and (why := era.invalid_header_params(tool)):
            out.append(
                Finding(
                    f"tool {tool.get('name')!r}: invalid header parameters: {why}; "
                    "a 2026-07-28 client must drop this tool (MCP Lens lists it, flagged, and will not call it)",
                    f"$.tools[{index}].inputSchema",
                    "x-mcp-header only on string/integer/boolean properties reached by properties alone, "
                    "each an HTTP token, unique ignoring case",
                )
            )
    return out
