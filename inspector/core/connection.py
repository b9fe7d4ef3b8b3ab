"""A connection to one MCP server, on the SDK's session and dispatcher, with our transports' tap.

Negotiation goes through the SDK's `ClientSession`. Data requests go through the dispatcher's raw
request path and return the server's result dict as sent: a server that gets the shape wrong is
shown and flagged (see `findings`), never rejected wholesale.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import Any, Protocol

import anyio
import mcp_types as types
from mcp.client.session import ClientSession
from mcp.shared.exceptions import MCPError
from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher
from pydantic import ValidationError

from inspector import __version__
from inspector.core.calls import Progress, ProgressCallback, RequestHandle
from inspector.core.errors import ConnectFailed, ProtocolError, RequestTimeout, ToolFailed, UnknownTool
from inspector.core.findings import Finding, check_call_result, check_list_page, check_tools
from inspector.traffic.store import TrafficStore

MAX_PAGES = 1000


class Transport(Protocol):
    store: TrafficStore

    def open(self) -> Any: ...
    def describe_exit(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Event:
    """Something the server did that a UI or script may want to react to."""

    kind: str  # "log" | "tools_changed" | "notification" | "stream_error" | "closed"
    data: dict[str, Any]


@dataclass
class ToolListing:
    tools: list[dict[str, Any]]
    pages: int
    findings: list[Finding] = field(default_factory=list)

    def by_name(self, name: str) -> dict[str, Any] | None:
        return next((t for t in self.tools if isinstance(t, dict) and t.get("name") == name), None)


@dataclass
class CallOutcome:
    result: dict[str, Any]
    findings: list[Finding]
    elapsed_ms: float
    progress: list[Progress]

    @property
    def is_error(self) -> bool:
        return self.result.get("isError") is True


class Connection:
    """Use as ``async with Connection(transport, connect_timeout=…) as conn:``."""

    def __init__(
        self,
        transport: Transport,
        *,
        connect_timeout: float = 30.0,
        request_timeout: float | None = 60.0,
        on_event: Callable[[Event], None] | None = None,
    ) -> None:
        self.transport = transport
        self.store = transport.store
        self.connect_timeout = connect_timeout
        self.request_timeout = request_timeout
        self._listeners: list[Callable[[Event], None]] = [on_event] if on_event else []
        self._stack: AsyncExitStack | None = None
        self._dispatcher: JSONRPCDispatcher | None = None
        self._tg: anyio.abc.TaskGroup | None = None
        self.session: ClientSession | None = None
        self.init_result: types.InitializeResult | None = None
        self.tools: ToolListing | None = None
        self.closed = False

    # -- lifecycle ---------------------------------------------------------------------------
    async def __aenter__(self) -> Connection:
        stack = AsyncExitStack()
        await stack.__aenter__()
        try:
            # Contexts are entered outside any timeout scope: they outlive this method.
            read, write = await stack.enter_async_context(self.transport.open())
            self._dispatcher = JSONRPCDispatcher(read, write)
            self.session = ClientSession(
                dispatcher=self._dispatcher,
                logging_callback=self._on_log,
                message_handler=self._on_message,
                client_info=types.Implementation(name="mcp-lens", version=__version__),
            )
            await stack.enter_async_context(self.session)
            self._tg = await stack.enter_async_context(anyio.create_task_group())
            stack.callback(self._tg.cancel_scope.cancel)
            with anyio.fail_after(self.connect_timeout):
                self.init_result = await self.session.initialize()
        except BaseException as exc:
            await stack.aclose()  # not in a new scope: the stack's task groups must exit in theirs
            raise self._connect_error(exc) from exc
        self._stack = stack
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        stack, self._stack = self._stack, None
        if stack is not None:
            await stack.aclose()
        self.closed = True

    def _connect_error(self, exc: BaseException) -> BaseException:
        if isinstance(exc, ConnectFailed):
            return exc
        if isinstance(exc, OSError):  # SpawnError and friends carry their own hint
            return ConnectFailed(str(exc))
        if isinstance(exc, TimeoutError):
            return ConnectFailed(
                f"no answer to initialize within {self.connect_timeout:g}s ({self.transport.describe_exit()})",
                hint="Check that the command starts an MCP server on stdio, or that the URL is an MCP endpoint.",
            )
        if isinstance(exc, MCPError):
            if exc.code == types.CONNECTION_CLOSED:
                return ConnectFailed(f"connection closed during initialize: {self.transport.describe_exit()}")
            return ConnectFailed(f"the server refused initialize: {exc.message} (code {exc.code})")
        if isinstance(exc, ValidationError):
            return ConnectFailed(f"the server's initialize result does not conform to the spec: {exc}")
        if isinstance(exc, RuntimeError):
            return ConnectFailed(str(exc))
        if isinstance(exc, Exception):
            leaf = _leaf_exception(exc)
            return ConnectFailed(f"{type(leaf).__name__}: {leaf} ({self.transport.describe_exit()})")
        return exc

    # -- what was negotiated -----------------------------------------------------------------
    @property
    def protocol_version(self) -> str | None:
        return self.init_result.protocol_version if self.init_result else None

    @property
    def server_info(self) -> dict[str, Any]:
        return self.init_result.server_info.model_dump(by_alias=True, exclude_none=True) if self.init_result else {}

    @property
    def capabilities(self) -> dict[str, Any]:
        if not self.init_result:
            return {}
        return self.init_result.capabilities.model_dump(by_alias=True, exclude_none=True)

    @property
    def instructions(self) -> str | None:
        return self.init_result.instructions if self.init_result else None

    # -- events ------------------------------------------------------------------------------
    def subscribe(self, listener: Callable[[Event], None]) -> None:
        self._listeners.append(listener)

    def _emit(self, kind: str, **data: Any) -> None:
        event = Event(kind, data)
        for listener in list(self._listeners):
            listener(event)

    async def _on_log(self, params: types.LoggingMessageNotificationParams) -> None:
        self._emit("log", level=params.level, logger=params.logger, data=params.data)

    async def _on_message(self, message: Any) -> None:
        if isinstance(message, Exception):
            self._emit("stream_error", error=f"{type(message).__name__}: {message}")
            return
        if isinstance(message, types.ToolListChangedNotification) and self._tg is not None:
            self._tg.start_soon(self._relist_tools)
        method = getattr(message, "method", "")
        if method != "notifications/message":
            params = getattr(message, "params", None)
            dumped = params.model_dump(by_alias=True, exclude_none=True) if params is not None else {}
            self._emit("notification", method=method, params=dumped)

    async def _relist_tools(self) -> None:
        try:
            listing = await self.list_tools()
        except Exception as exc:  # reported, never fatal
            self._emit("stream_error", error=f"re-listing tools after list_changed failed: {exc}")
            return
        self._emit("tools_changed", listing=listing)

    # -- requests ----------------------------------------------------------------------------
    async def request(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        handle: RequestHandle | None = None,
        on_progress: ProgressCallback | None = None,
        with_progress: bool = False,
    ) -> dict[str, Any]:
        """Send any request and return the raw result dict.

        With `with_progress` (or an `on_progress`), the request carries a progress token.

        Raises `ProtocolError` for a JSON-RPC error, `RequestTimeout` when the (progress-reset)
        timeout or the hard maximum runs out, `ConnectFailed` when the connection is gone; a
        cancelled handle raises `anyio.get_cancelled_exc_class()` only if the caller's own scope
        was cancelled, otherwise `RequestTimeout` with ``cancelled=True``.
        """
        if self._dispatcher is None or self.session is None:
            raise ConnectFailed("not connected")
        handle = handle or RequestHandle(method, timeout=self.request_timeout)
        opts: dict[str, Any] = {}
        if self.protocol_version:
            opts["headers"] = {"mcp-protocol-version": self.protocol_version}

        async def progress(value: float, total: float | None, message: str | None) -> None:
            item = Progress(value, total, message)
            handle._on_progress(item)
            if on_progress is not None:
                outcome = on_progress(item)
                if inspect.isawaitable(outcome):
                    await outcome

        if with_progress or on_progress is not None:
            opts["on_progress"] = progress
        result: dict[str, Any] | None = None
        with anyio.CancelScope() as scope:
            handle._arm(scope)
            try:
                result = await self._dispatcher.send_raw_request(method, params, opts)  # type: ignore[arg-type]
            except MCPError as exc:
                if exc.code == types.CONNECTION_CLOSED and exc.message == "Connection closed":
                    raise ConnectFailed(
                        f"connection lost during {method}: {self.transport.describe_exit()}", method=method
                    ) from exc
                raise ProtocolError(
                    f"{method} failed: {exc.message} (JSON-RPC error {exc.code})",
                    code=exc.code,
                    data=exc.data,
                    method=method,
                ) from exc
        if result is None:
            if handle.cancelled:
                raise RequestTimeout(f"{method} was cancelled", method=method, cancelled=True)
            handle.timed_out = True
            raise RequestTimeout(
                f"{method} timed out after {handle.timeout:g}s without a response or progress"
                if handle.timeout is not None
                else f"{method} ran past its maximum of {handle.max_total:g}s",
                hint="Raise the timeout, or check the server's stderr for where it is stuck.",
                method=method,
            )
        return result

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
            params = {"cursor": cursor} if cursor is not None else None
            page = await self.request("tools/list", params)
            base = f"$[page {pages}]" if pages else "$"
            pages += 1
            findings.extend(check_list_page(page, base))
            if isinstance(page.get("tools"), list):
                tools.extend(page["tools"])
            cursor = page.get("nextCursor") if isinstance(page.get("nextCursor"), str) else None
            if cursor is None:
                break
            if cursor in seen_cursors or pages >= MAX_PAGES:
                findings.append(
                    Finding(
                        f"pagination does not end (cursor {cursor!r} repeats)",
                        f"{base}.nextCursor",
                        "a new cursor",
                    )
                )
                break
            seen_cursors.add(cursor)
        findings[:0] = []
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
        tool = self.tools.by_name(name) if self.tools else None
        if check_known:
            if self.tools is None:
                await self.list_tools()
                tool = self.tools.by_name(name) if self.tools else None
            if tool is None:
                names = ", ".join(sorted(str(t.get("name")) for t in self.tools.tools if isinstance(t, dict)))
                raise UnknownTool(f"no tool named {name!r}", hint=f"available tools: {names or '(none)'}")
        handle = handle or RequestHandle(
            "tools/call",
            timeout=timeout if timeout is not None else self.request_timeout,
            max_total=max_total,
        )
        started = time.perf_counter()
        result = await self.request(
            "tools/call",
            {"name": name, "arguments": arguments or {}},
            handle=handle,
            on_progress=on_progress,
            with_progress=True,
        )
        outcome = CallOutcome(
            result, check_call_result(result, tool), (time.perf_counter() - started) * 1000, handle.progress
        )
        if raise_on_error and outcome.is_error:
            raise ToolFailed(f"tool {name!r} returned isError: true", result=result)
        return outcome


def _leaf_exception(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc
