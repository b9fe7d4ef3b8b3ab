"""The lean client (`core/lite.py`) over Streamable HTTP (`transports/http_pipes.py`), as the CLI's lean HTTP
runs use it (`cli/http_lean.py` says when): what it records and how it fails are said as the SDK path says them.
Built by `core/open_connection.py`."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

from inspector.core.era import tries_modern
from inspector.core.errors import ConnectFailed, ProtocolError, RequestTimeout, describe_code
from inspector.core.lite import LiteConnection
from inspector.traffic.entry import ERA_PROBE, FALLBACK
from inspector.transports.http_pipes import HttpPipes

URL_HINT = "Check the URL's path (often /mcp) and the transport (Streamable HTTP or SSE)."


class LeanHttpConnection(LiteConnection):
    """The lean client over HTTP; a failed connect is told in the SDK path's words (with the HTTP status)."""

    pipes: HttpPipes
    _probed = False  # auto sent its era probe: an initialize after it is the fallback

    async def _discover(self, version: str, timeout: float | None) -> dict[str, Any]:
        """As the SDK path records it: auto's probe (the one with a timeout) and its answer are our probe."""
        if timeout is None:
            return await super()._discover(version, timeout)
        self._probed = True
        with self.store.probing("server/discover", ERA_PROBE):
            return await super()._discover(version, timeout)

    async def _initialize(self, version: str) -> dict[str, Any]:
        with self.store.probing("initialize", FALLBACK) if self._probed else nullcontext():
            return await super()._initialize(version)

    async def __aenter__(self) -> LeanHttpConnection:
        try:
            await super().__aenter__()
        except ConnectFailed as exc:
            raise self._in_http_words(exc) from exc.__cause__
        return self

    def lost_error(self) -> ConnectFailed:
        """As the SDK path says it: lost, why, and whether the server stopped answering."""
        reason = self.describe_exit()
        stopped = self.pipes.gone_reason is not None
        return ConnectFailed(f"connection lost: {reason}", lost=True, reason=reason, stopped=stopped)

    def _in_http_words(self, exc: ConnectFailed) -> ConnectFailed:
        cause = exc.__cause__
        if isinstance(cause, RequestTimeout | TimeoutError):
            words = "server/discover or initialize" if self.era_setting == "auto" else None
            words = words or ("server/discover" if tries_modern(self.era_setting) else "initialize")
            return ConnectFailed(
                f"no answer to {words} within {self.connect_timeout:g}s ({self.describe_exit()})",
                hint="Check that the command starts an MCP server on stdio, or that the URL is an MCP endpoint.",
            )
        if not isinstance(cause, ProtocolError):
            return exc
        method = cause.details.get("method") or "the connection"
        message = cause.message.removeprefix(f"{method} failed: ").removesuffix(f" (JSON-RPC error {cause.code})")
        status = self.pipes.last_status
        http = f", after HTTP {status}" if status is not None and status >= 400 else ""
        return ConnectFailed(
            f"the server refused {method}: {message} (code {cause.code}{http}){describe_code(cause.code, cause.data)}",
            hint=URL_HINT if http else exc.hint,
        )
