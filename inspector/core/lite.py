"""A lean JSON-RPC client over `StdioPipes` or `HttpPipes`, for the headless CLI's runs.

Why not the SDK here: importing `mcp` costs ~1.1 s warm on these machines, which alone breaks the
CLI's 0.8 s connect-and-list budget. This client speaks only what a one-shot CLI run needs
(initialize, requests with progress, timeouts and cancellation, ping answers) with raw dicts, and
imports nothing heavier than asyncio. Over Streamable HTTP it runs on `transports/http_pipes.py` (the
CLI's runs without a proxy or OAuth). The desktop app and the other HTTP runs use the SDK
(`connection.py`); both share the MCP layer in `operations.py`.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from contextlib import suppress
from typing import TYPE_CHECKING, Any

from inspector import __version__
from inspector.config.files import utf8
from inspector.core.calls import Progress, ProgressCallback, RequestHandle
from inspector.core.era import (
    CLIENT_CAPABILITIES_META_KEY,
    CLIENT_INFO_META_KEY,
    DEFAULT_ERA,
    METHOD_HEADER,
    PROBE_TIMEOUT_S,
    PROTOCOL_VERSION_HEADER,
    PROTOCOL_VERSION_META_KEY,
    init_from_discover,
    negotiate,
    parse_era,
    tries_modern,
)
from inspector.core.errors import (
    ConnectFailed,
    ProtocolError,
    RequestTimeout,
    describe_code,
    era_hint,
    with_unknown_ids,
)
from inspector.core.operations import Operations
from inspector.traffic.entry import Kind

if TYPE_CHECKING:  # an HTTP run never loads the stdio pipes (nor a stdio run the HTTP ones)
    from inspector.transports.http_pipes import HttpPipes
    from inspector.transports.stdio_pipes import StdioPipes

# Handshake versions this client negotiates, newest first (as the SDK's handshake list).
SUPPORTED_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")
METHOD_NOT_FOUND = -32601
CLIENT_INFO = {"name": "mcp-lens", "version": __version__}


class LiteConnection(Operations):
    """Use as ``async with LiteConnection(pipes) as conn:``; raises `ConnectFailed` on failure."""

    def __init__(
        self,
        pipes: StdioPipes | HttpPipes,
        *,
        connect_timeout: float = 30.0,
        request_timeout: float | None = 60.0,
        era: str = DEFAULT_ERA,
        remembered_era: str | None = None,
        probe_timeout: float = PROBE_TIMEOUT_S,
    ) -> None:
        super().__init__()
        self.probe_timeout = probe_timeout
        self.era_setting = parse_era(era)
        self.remembered_era = remembered_era
        self.pipes = pipes
        self.store = pipes.store
        self.connect_timeout = connect_timeout
        self.request_timeout = request_timeout
        self._next_id = 0
        self._pending: dict[int, tuple[asyncio.Future[dict[str, Any]], RequestHandle, ProgressCallback | None]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closed = False

    def describe_exit(self) -> str:
        return self.pipes.describe_exit()

    async def __aenter__(self) -> LiteConnection:
        try:
            await self.pipes.start()
            self._reader = asyncio.ensure_future(self._read_loop())
            async with asyncio.timeout(self.connect_timeout):
                self.negotiation, raw = await negotiate(
                    self.era_setting,
                    discover=self._discover,
                    initialize=self._initialize,
                    remembered=self.remembered_era,
                    probe_timeout=self.probe_timeout,
                )
            self.init = init_from_discover(raw, self.negotiation.version) if self.era == "modern" else raw
        except BaseException as exc:
            await self.aclose()
            if isinstance(exc, RequestTimeout | TimeoutError):
                raise ConnectFailed(
                    f"no answer to {'server/discover' if tries_modern(self.era_setting) else 'initialize'} "
                    f"within {self.connect_timeout:g}s ({self.describe_exit()})",
                    hint="Check that the command starts an MCP server on stdio.",
                ) from exc
            if isinstance(exc, ProtocolError):
                raise ConnectFailed(
                    f"the server refused {exc.details.get('method') or 'initialize'}: {exc.message}"
                    + describe_code(exc.code, exc.data),
                    hint=era_hint(self.era_setting, exc.code),
                ) from exc
            if isinstance(exc, OSError) and not isinstance(exc, ConnectionError):
                raise ConnectFailed(str(exc)) from exc
            raise
        return self

    async def _discover(self, version: str, timeout: float | None) -> dict[str, Any]:
        meta = {
            PROTOCOL_VERSION_META_KEY: version,
            CLIENT_INFO_META_KEY: CLIENT_INFO,
            CLIENT_CAPABILITIES_META_KEY: self.client_capabilities(),
        }
        handle = RequestHandle("server/discover", timeout=timeout or self.connect_timeout)
        try:
            return await self.request("server/discover", {"_meta": meta}, handle=handle)
        except RequestTimeout:
            raise TimeoutError from None

    async def _initialize(self, version: str) -> dict[str, Any]:
        params = {"protocolVersion": version, "capabilities": self.client_capabilities(), "clientInfo": CLIENT_INFO}
        handle = RequestHandle("initialize", timeout=self.connect_timeout)
        init = await self.request("initialize", params, handle=handle)
        if init.get("protocolVersion") not in SUPPORTED_VERSIONS:
            raise ConnectFailed(f"unsupported protocol version from the server: {init.get('protocolVersion')!r}")
        await self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return init

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        self._closed = True
        for task in (self._reader, *self._tasks):
            if task is not None:
                task.cancel()
        await self.pipes.close()

    async def _send(self, message: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        """Write one message; `headers` go with it when the pipes carry them (HTTP), else nowhere (stdio)."""
        data = utf8(json.dumps(message, ensure_ascii=False, separators=(",", ":")))  # a lone surrogate: escaped
        try:
            if getattr(self.pipes, "carries_headers", False):
                await self.pipes.send(data, headers)
            else:
                await self.pipes.send(data)
        except ConnectionError as exc:
            raise ConnectFailed(f"{exc} ({self.describe_exit()})") from exc

    async def request(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        handle: RequestHandle | None = None,
        on_progress: ProgressCallback | None = None,
        with_progress: bool = False,
    ) -> dict[str, Any]:
        if self._closed:
            raise ConnectFailed(f"connection closed: {self.describe_exit()}")
        self.refuse_removed(method)
        handle = handle or self.new_handle(method)
        self._next_id += 1
        rpc_id = handle.request_id = self._next_id
        out_params = dict(params or {})
        headers: dict[str, str] = {}
        if method == "server/discover":  # the probe's version, in its header too
            version = out_params.get("_meta", {}).get(PROTOCOL_VERSION_META_KEY)
            headers = {PROTOCOL_VERSION_HEADER: version, METHOD_HEADER: method} if version else {}
        elif self.era == "modern":
            out_params, headers = self.envelope(method, out_params, self.client_capabilities())
        elif self.protocol_version:
            headers = {PROTOCOL_VERSION_HEADER: self.protocol_version}
        if with_progress or on_progress is not None:
            out_params["_meta"] = {**out_params.get("_meta", {}), "progressToken": rpc_id}
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": rpc_id, "method": method}
        if out_params:
            message["params"] = out_params
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[rpc_id] = (future, handle, on_progress)
        since = self.store.next_seq
        try:
            await self._send(message, headers)
            async with asyncio.timeout(None) as scope:
                handle.arm(scope.reschedule, future.cancel)
                return await future
        except TimeoutError:
            await self._cancel_remote(rpc_id, "timed out")
            past_max = handle.ran_past_max()
            timeout = RequestTimeout(
                handle.describe_timeout(),
                hint="Raise the timeout, or check the server's stderr for where it is stuck.",
                method=method,
                timeout=handle.max_total if past_max else handle.timeout,
                limit="max" if past_max else "progress",
            )
            strays = [entry.rpc_id for entry in self.store.unknown_id_answers(since)]
            raise with_unknown_ids(timeout, strays, rpc_id) from None
        except asyncio.CancelledError:
            if not handle.cancelled:
                await asyncio.shield(self._cancel_remote(rpc_id, "caller cancelled"))
                raise
            await self._cancel_remote(rpc_id, "cancelled by the user")
            raise RequestTimeout(f"{method} was cancelled", method=method, cancelled=True) from None
        finally:
            self._pending.pop(rpc_id, None)
            if future.done() and not future.cancelled():
                future.exception()  # the caller already has the failure (e.g. the write failed): mark it seen

    async def _cancel_remote(self, rpc_id: int, reason: str) -> None:
        if not self._closed:
            params = {"requestId": rpc_id, "reason": reason}
            with suppress(ConnectFailed):
                await self._send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": params})

    async def _read_loop(self) -> None:
        try:
            while (item := await self.pipes.next_line()) is not None:
                _line, entry, message = item
                if entry.kind is Kind.UNPARSABLE:
                    continue
                if isinstance(message, dict):
                    self._dispatch(message, entry.kind)
        finally:
            self._closed = True
            lost = self.lost_error()
            for future, _, _ in self._pending.values():
                if not future.done():
                    future.set_exception(lost)

    def lost_error(self) -> ConnectFailed:
        """What a request still waiting is told when the server's messages end."""
        return ConnectFailed(f"connection lost: {self.describe_exit()}")

    def _dispatch(self, message: dict[str, Any], kind: Kind) -> None:
        if kind is Kind.RESPONSE or kind is Kind.ERROR:
            pending = self._pending.get(message.get("id"))  # type: ignore[arg-type]
            if pending is None or pending[0].done():
                return  # unknown id: recorded and flagged by the store
            future, handle, _ = pending
            error = message.get("error")
            if kind is Kind.ERROR and isinstance(error, dict):
                code = error.get("code") if isinstance(error.get("code"), int) else -1
                future.set_exception(
                    ProtocolError(
                        f"{handle.method} failed: {error.get('message')} (JSON-RPC error {code})",
                        code=code,
                        data=error.get("data"),
                        method=handle.method,
                    )
                )
            else:
                result = message.get("result")
                future.set_result(result if isinstance(result, dict) else {"_result": result})
        elif kind is Kind.REQUEST:
            self._spawn(self._answer(message))
        elif kind is Kind.NOTIFICATION:
            self._notification(message)

    def _notification(self, message: dict[str, Any]) -> None:
        method = message.get("method")
        params = message.get("params") if isinstance(message.get("params"), dict) else {}
        if method == "notifications/progress":
            pending = self._pending.get(params.get("progressToken"))  # type: ignore[arg-type]
            if pending is not None:
                _, handle, callback = pending
                item = Progress(params.get("progress", 0), params.get("total"), params.get("message"))
                handle.on_progress(item)
                if callback is not None and inspect.isawaitable(outcome := callback(item)):
                    self._spawn(outcome)
            return
        if method == "notifications/message":
            self.emit("log", level=params.get("level"), logger=params.get("logger"), data=params.get("data"))
            return
        if method == "notifications/tools/list_changed" and self.relist_on_change:
            self._spawn(self.relist_tools())
        self.emit("notification", method=method, params=params)

    async def _answer(self, message: dict[str, Any]) -> None:
        """Server-to-client requests: answer ping, and what the handlers declare (sampling, elicitation,
        roots: the CLI's --input-responses file); refuse the rest."""
        from inspector.core.client_handlers import Rejected

        reply: dict[str, Any] = {"jsonrpc": "2.0", "id": message.get("id")}
        method = message.get("method")
        params = message.get("params") if isinstance(message.get("params"), dict) else {}
        handlers = getattr(self, "handlers", None)
        try:
            if method == "ping":
                reply["result"] = {}
            elif method == "roots/list" and handlers is not None and handlers.roots is not None:
                reply["result"] = {"roots": await handlers.roots()}
            elif method == "sampling/createMessage" and handlers is not None and handlers.sampling is not None:
                reply["result"] = await handlers.sampling(params)
            elif method == "elicitation/create" and handlers is not None and handlers.elicitation is not None:
                reply["result"] = await handlers.elicitation(params)
            else:
                reply["error"] = {"code": METHOD_NOT_FOUND, "message": f"the CLI does not handle {method}"}
        except Rejected as exc:
            reply["error"] = {"code": exc.code, "message": exc.message}
        with suppress(ConnectFailed):
            await self._send(reply)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
