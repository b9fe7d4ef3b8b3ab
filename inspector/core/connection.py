"""A connection to one MCP server on the SDK's session and dispatcher, over our tapped transports.

Negotiation goes through the SDK's `ClientSession`. Data requests go through the dispatcher's raw
request path and return the server's result dict as sent: a server that gets the shape wrong is
shown and flagged (see `findings`), never rejected wholesale.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import anyio
import mcp_types as types
from mcp.client.session import DISCOVER_TIMEOUT_SECONDS, ClientSession
from mcp.shared.exceptions import MCPError
from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher
from pydantic import ValidationError

from inspector import __version__
from inspector.core.calls import Progress, ProgressCallback, RequestHandle
from inspector.core.client_callbacks import session_callbacks
from inspector.core.client_handlers import EXTENSIONS, ClientHandlers, declared_capabilities
from inspector.core.era import (
    DEFAULT_ERA,
    LATEST_HANDSHAKE_VERSION,
    PROBE_TIMEOUT_S,
    init_from_discover,
    negotiate,
    parse_era,
    tries_modern,
)
from inspector.core.errors import (
    ConnectFailed,
    LensError,
    ProtocolError,
    RequestTimeout,
    describe_code,
    era_hint,
    with_unknown_ids,
)
from inspector.core.operations import Operations
from inspector.traffic.entry import ERA_PROBE, FALLBACK
from inspector.transports.interface import Transport

CLIENT_INFO = types.Implementation(name="mcp-lens", version=__version__)
EXIT_GRACE_S = 0.5  # how long a lost stdio connection waits for the process's exit status


class _WatchedDispatcher(JSONRPCDispatcher):
    """Calls `on_end` when its read loop ends: the transport's stream closed (or we closed it).
    `server/discover` gets no clock of its own: the SDK gives it a fixed 10 s, which a server slower to
    start (npx's first run, a Windows Python under load) missed; the connection's deadline bounds it
    instead (the connect timeout, or auto's probe), as it bounds initialize."""

    on_end: Callable[[], None] | None = None

    async def run(self, *args: Any, **kwargs: Any) -> None:
        try:
            await super().run(*args, **kwargs)
        finally:
            if self.on_end is not None:
                self.on_end()

    async def send_raw_request(self, method: str, params: Any, opts: Any = None, **kwargs: Any) -> dict[str, Any]:
        if method == "server/discover" and opts and opts.get("timeout") == DISCOVER_TIMEOUT_SECONDS:
            opts = {**opts, "timeout": None}
        return await super().send_raw_request(method, params, opts, **kwargs)


class Connection(Operations):
    """Use as ``async with Connection(transport) as conn:``; raises `ConnectFailed` on failure.

    A connection that goes away (the process exits, the HTTP server stops answering, the SSE
    stream breaks) sets `lost` to a `ConnectFailed` saying why, and `wait_closed()` returns.
    """

    def __init__(
        self,
        transport: Transport,
        *,
        connect_timeout: float = 30.0,
        request_timeout: float | None = 60.0,
        handlers: ClientHandlers | None = None,
        era: str = DEFAULT_ERA,
        remembered_era: str | None = None,
        probe_timeout: float = PROBE_TIMEOUT_S,
    ) -> None:
        super().__init__()
        self.era_setting = parse_era(era)
        self.probe_timeout = probe_timeout
        self.remembered_era = remembered_era
        self.transport = transport
        self.handlers = handlers
        self.store = transport.store
        self.connect_timeout = connect_timeout
        self.request_timeout = request_timeout
        self._stack: AsyncExitStack | None = None
        self._dispatcher: JSONRPCDispatcher | None = None
        self._tg: anyio.abc.TaskGroup | None = None
        self.session: ClientSession | None = None
        self.closed = False
        self.lost: ConnectFailed | None = None  # why the connection went away, once it has
        self._ended = asyncio.Event()
        self._established = False
        self._orderly_close = False  # closed because its user was done (not under a failing transport)
        self._stream_error: str | None = None  # the last transport error the SDK handed the session
        self._exit_wait: asyncio.Future[None] | None = None  # a lost stdio connection waiting for the exit code
        self._active: dict[int, RequestHandle] = {}  # requests waiting for the server, by id()
        self._client_turns = 0  # server-to-client requests being answered right now

    # -- lifecycle ---------------------------------------------------------------------------
    async def __aenter__(self) -> Connection:
        stack = AsyncExitStack()
        await stack.__aenter__()
        try:
            # Contexts are entered outside any timeout scope: they outlive this method.
            self.transport.notification_sink = self._on_notification
            read, write = await stack.enter_async_context(self.transport.open())
            self._dispatcher = _WatchedDispatcher(read, write)
            self._dispatcher.on_end = self._stream_ended
            self.session = ClientSession(
                dispatcher=self._dispatcher,
                logging_callback=self._on_log,
                message_handler=self._on_message,
                client_info=CLIENT_INFO,
                extensions=dict(EXTENSIONS),  # declared in initialize's capabilities (the handshake era)
                **session_callbacks(self.handlers, self._client_turn),
            )
            await stack.enter_async_context(self.session)
            self._tg = await stack.enter_async_context(anyio.create_task_group())
            stack.callback(self._tg.cancel_scope.cancel)
            with anyio.fail_after(self.connect_timeout):
                await self._negotiate(self.session)
            self._established = True
        except BaseException as exc:
            cause: BaseException = exc
            try:
                await stack.aclose()  # not in a new scope: the stack's task groups must exit in theirs
            except Exception as close_exc:  # the transport's own failure says more than "closed"
                if not isinstance(exc, OSError | ConnectFailed) and not _server_answered(exc):
                    cause = close_exc
            raise self._connect_error(cause) from cause
        self._stack = stack
        return self

    async def _negotiate(self, session: ClientSession) -> None:
        """Settle the era (see `era.negotiate`) and install it in the SDK session."""

        probed = False  # auto sent its era probe: an initialize after it is the fallback

        async def discover(version: str, timeout: float | None) -> dict[str, Any]:
            nonlocal probed
            try:
                if timeout is None:
                    return await session.send_discover(version)
                probed = True  # only auto's probe has a timeout: marked as ours, its refusal no flag
                with self.store.probing("server/discover", ERA_PROBE), anyio.fail_after(timeout):
                    return await session.send_discover(version)
            except MCPError as exc:
                raise ProtocolError(exc.message, code=exc.code, data=exc.error.data, method="server/discover") from exc

        async def initialize(version: str) -> dict[str, Any]:
            with self.store.probing("initialize", FALLBACK) if probed else contextlib.nullcontext():
                return await handshake(version)

        async def handshake(version: str) -> dict[str, Any]:
            try:
                if version == LATEST_HANDSHAKE_VERSION:
                    result = await session.initialize()
                else:  # a pinned older revision: offer exactly that version
                    params = types.InitializeRequestParams(
                        protocol_version=version,
                        capabilities=types.ClientCapabilities.model_validate(self._capabilities()),
                        client_info=CLIENT_INFO,
                    )
                    result = await session.send_request(types.InitializeRequest(params=params), types.InitializeResult)
                    session.adopt(result)
                    await session.send_notification(types.InitializedNotification())
            except MCPError as exc:
                if _closed(exc):
                    raise
                raise ProtocolError(exc.message, code=exc.code, data=exc.error.data, method="initialize") from exc
            return result.model_dump(by_alias=True, mode="json", exclude_none=True)

        self.negotiation, raw = await negotiate(
            self.era_setting,
            discover=discover,
            initialize=initialize,
            remembered=self.remembered_era,
            probe_timeout=self.probe_timeout,
        )
        if self.negotiation.era == "modern":
            session.adopt(types.DiscoverResult.model_validate(raw))
            self.init = init_from_discover(raw, self.negotiation.version)
        else:
            self.init = raw

    def _handshake_words(self) -> str:
        if self.era_setting == "auto":
            return "server/discover or initialize"
        return "server/discover" if tries_modern(self.era_setting) else "initialize"

    def _capabilities(self) -> dict[str, Any]:
        return declared_capabilities(self.handlers)

    async def __aexit__(self, exc_type: Any, exc: BaseException | None, tb: Any) -> bool:
        """Close; the body's exception goes to the transport's contexts, so a transport task group
        that cancelled the body (its server went away) takes that cancellation back, and what it
        raises instead becomes a `ConnectFailed` with ``lost=True``."""
        stack, self._stack = self._stack, None
        self.closed = True
        self._orderly_close = exc is None
        if stack is None:
            return False
        try:
            return bool(await stack.__aexit__(exc_type, exc, tb))
        except Exception as failure:
            if failure is exc:
                raise
            leaf = _leaf_exception(failure)
            if leaf is exc and isinstance(exc, LensError):  # the body's own error, wrapped by a task group
                raise exc from None
            text = f"{type(leaf).__name__}: {leaf}".rstrip(": ")
            if exc is None:  # an orderly close: a transport failing at teardown must not lose the session
                self.store.record_failure("client", f"transport error while closing: {text}", "transport error")
                return False
            raise self._lost_error("connection lost", text) from failure

    async def aclose(self) -> None:
        await self.__aexit__(None, None, None)

    def describe_exit(self) -> str:
        return self.transport.describe_exit()

    async def wait_closed(self) -> None:
        """Returns when the server is gone: the transport says so, or the connection was found lost."""
        waiters = {asyncio.ensure_future(self._ended.wait()), asyncio.ensure_future(self.transport.wait_closed())}
        try:
            await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiter in waiters:
                waiter.cancel()

    async def explain_loss(self, error: LensError) -> LensError:
        """`error` (the connection failed under us), or, when the transport finds its server refusing
        connections now, the loss in those words ("the server at URL stopped answering (connection refused)")."""
        if error.details.get("stopped"):
            return error
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.transport.check_gone(), 5.0)
        if self.transport.gone_reason is None:
            return error
        reason = self.describe_exit()
        return ConnectFailed(f"connection lost: {reason}", lost=True, reason=reason, server_exit=None, stopped=True)

    def loss(self) -> ConnectFailed:
        """Why the connection ended: the loss seen first, else what the transport says now."""
        return self.lost or self._lost_error("the connection ended")

    def _stream_ended(self) -> None:
        """The dispatcher's read loop ended while the connection was up: the server went away. A
        process closes its stdout a moment before its exit status exists: wait for it (briefly), so
        the loss says how the process ended."""
        if not self._established or self.closed:
            return
        if not self.transport.has_process:
            self._lost_error("connection lost")
            return

        async def lost_once_exited() -> None:
            await self.transport.wait_exit(EXIT_GRACE_S)
            self._lost_error("connection lost")

        self._exit_wait = asyncio.ensure_future(lost_once_exited())

    def _lost_error(self, what: str, cause: str | None = None) -> ConnectFailed:
        """A `ConnectFailed` for the connection having gone away; the first one is kept as `lost`."""
        reason = self.describe_exit()
        cause = cause or self._stream_error
        stopped = self.transport.gone_reason is not None  # an HTTP server stopped answering
        if cause and cause not in reason and not stopped:  # a server that stopped answering: said in its words
            reason = f"{reason} ({cause})"
        code = self.transport.exit_code
        error = ConnectFailed(f"{what}: {reason}", lost=True, reason=reason, server_exit=code, stopped=stopped)
        if self.lost is None:
            self.lost = error
        self._ended.set()
        return error

    def _connect_error(self, exc: BaseException) -> BaseException:
        exc = _leaf_exception(exc)
        if isinstance(exc, ConnectFailed) or not isinstance(exc, Exception):
            return exc
        if isinstance(exc, OSError):  # SpawnError and friends carry their own hint
            return ConnectFailed(str(exc))
        if isinstance(exc, TimeoutError):
            return ConnectFailed(
                f"no answer to {self._handshake_words()} within {self.connect_timeout:g}s ({self.describe_exit()})",
                hint="Check that the command starts an MCP server on stdio, or that the URL is an MCP endpoint.",
            )
        if isinstance(exc, ProtocolError):
            status = self.transport.last_status
            http = f", after HTTP {status}" if status is not None and status >= 400 else ""
            return ConnectFailed(
                f"the server refused {exc.details.get('method') or 'the connection'}: {exc.message} "
                f"(code {exc.code}{http}){describe_code(exc.code, exc.data)}",
                hint="Check the URL's path (often /mcp) and the transport (Streamable HTTP or SSE)."
                if http
                else era_hint(self.era_setting, exc.code),
            )
        if isinstance(exc, MCPError):
            if _closed(exc):
                return ConnectFailed(f"connection closed during initialize: {self.describe_exit()}")
            status = self.transport.last_status
            http = f", after HTTP {status}" if status is not None and status >= 400 else ""
            return ConnectFailed(
                f"the server refused initialize: {exc.message} (code {exc.code}{http})",
                hint="Check the URL's path (often /mcp) and the transport (Streamable HTTP or SSE)." if http else None,
            )
        if isinstance(exc, ValidationError):
            return ConnectFailed(f"the server's initialize result does not conform to the spec: {exc}")
        if isinstance(exc, LensError) and exc.kind.startswith("auth"):  # OAuth's own words: who refused, what to do
            said = exc.message if exc.kind == "auth-required" else f"sign-in failed: {exc.message}"
            return ConnectFailed(said, hint=exc.hint, auth=exc.kind)
        return ConnectFailed(f"{type(exc).__name__}: {exc} ({self.describe_exit()})")

    async def notify_roots_changed(self) -> None:
        """Tell the server the client's roots changed (`notifications/roots/list_changed`)."""
        if self.session is None or self.closed:
            raise ConnectFailed("not connected")
        await self.session.send_notification(types.RootsListChangedNotification())

    @asynccontextmanager
    async def _client_turn(self) -> AsyncIterator[None]:
        """While a handler answers the server (a person in a dialog), our requests do not time out."""
        self._client_turns += 1
        for handle in self._active.values():
            handle.hold()
        try:
            yield
        finally:
            self._client_turns -= 1
            if not self._client_turns:
                for handle in self._active.values():
                    handle.release()

    # -- notifications -----------------------------------------------------------------------
    async def _on_log(self, params: types.LoggingMessageNotificationParams) -> None:
        self.emit("log", level=params.level, logger=params.logger, data=params.data)

    async def _on_message(self, message: Any) -> None:
        """Notifications that came through the SDK (HTTP transports; progress on stdio)."""
        if isinstance(message, Exception):
            self._stream_error = f"{type(message).__name__}: {message}".rstrip(": ")
            self.emit("stream_error", error=self._stream_error)
            return
        method = getattr(message, "method", "")
        if method != "notifications/message":
            params = getattr(message, "params", None)
            dumped = params.model_dump(by_alias=True, mode="json", exclude_none=True) if params is not None else {}
            self._on_notification(method, dumped, log=False)

    def _on_notification(self, method: str, params: dict[str, Any], *, log: bool = True) -> None:
        """Every server notification ends here, whichever path it took (see `StdioTransport`)."""
        if method == "notifications/message":
            if log:
                self.emit("log", level=params.get("level"), logger=params.get("logger"), data=params.get("data"))
            return
        if method == "notifications/tools/list_changed" and self._tg is not None and self.relist_on_change:
            self._tg.start_soon(self.relist_tools)
        self.emit("notification", method=method, params=params)

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

        Raises `ProtocolError` for a JSON-RPC error, `RequestTimeout` when the progress-reset
        timeout or the hard maximum runs out or the handle is cancelled, and `ConnectFailed`
        when the connection is gone.
        """
        if self._dispatcher is None:
            raise ConnectFailed("not connected")
        self.refuse_removed(method)
        handle = handle or self.new_handle(method)
        opts: dict[str, Any] = {}
        if self.negotiation.era == "modern" and self.protocol_version:
            params, opts["headers"] = self.envelope(method, params, self._capabilities())
        elif self.protocol_version:
            opts["headers"] = {"mcp-protocol-version": self.protocol_version}

        async def progress(value: float, total: float | None, message: str | None) -> None:
            item = Progress(value, total, message)
            handle.on_progress(item)
            if on_progress is not None and inspect.isawaitable(outcome := on_progress(item)):
                await outcome

        if with_progress or on_progress is not None:
            opts["on_progress"] = progress
        result: dict[str, Any] | None = None
        since = self.store.next_seq
        with anyio.CancelScope() as scope:

            def set_deadline(when: float) -> None:
                scope.deadline = when

            handle.arm(set_deadline, scope.cancel)
            self._active[id(handle)] = handle
            if self._client_turns:
                handle.hold()
            try:
                result = await self._dispatcher.send_raw_request(method, params, opts)  # type: ignore[arg-type]
            except MCPError as exc:
                if _closed(exc):
                    if self.closed and self._orderly_close and self.lost is None:  # we closed it
                        raise ConnectFailed(f"{method} was still waiting when the connection closed") from exc
                    raise self._lost_error(f"connection lost during {method}") from exc
                raise ProtocolError(
                    f"{method} failed: {exc.message} (JSON-RPC error {exc.code})",
                    code=exc.code,
                    data=exc.data,
                    method=method,
                ) from exc
            finally:
                self._active.pop(id(handle), None)
        if result is None:
            if handle.cancelled:
                raise RequestTimeout(f"{method} was cancelled", method=method, cancelled=True)
            past_max = handle.ran_past_max()
            timeout = RequestTimeout(
                handle.describe_timeout(),
                hint="Raise the timeout, or check the server's stderr for where it is stuck.",
                method=method,
                timeout=handle.max_total if past_max else handle.timeout,
                limit="max" if past_max else "progress",
            )
            sent = self.store.sent_request(method, since)
            strays = [entry.rpc_id for entry in self.store.unknown_id_answers(since)]
            raise with_unknown_ids(timeout, strays, sent.rpc_id if sent is not None else None)
        return result


def _server_answered(exc: BaseException) -> bool:
    """Whether `exc` is the server's own error answer (initialize refused): what it said, not the closing that
    followed (the server ends when its stdin closes, and "exited with code 0" would hide its refusal)."""
    exc = _leaf_exception(exc)
    return isinstance(exc, ProtocolError) or (isinstance(exc, MCPError) and not _closed(exc))


def _closed(exc: MCPError) -> bool:
    """The SDK's own "the connection closed" (-32000, "Connection closed"), not a server's answer with the same
    code: -32000 is also the code servers use most for their own errors."""
    return exc.code == types.CONNECTION_CLOSED and exc.message == "Connection closed"


def _leaf_exception(exc: BaseException) -> BaseException:
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc
