"""Handshake-era (protocol ≤ 2025-11-25) extras the SDK does not switch on by itself.

``MCPServer`` answers ``initialize`` with ``tools.listChanged: false`` and no ``logging``
capability, yet the demo sends both kinds of notification. This middleware (the SDK's public
``middleware=`` hook) advertises them truthfully and serves ``logging/setLevel``. On the
2026-07-28 wire the SDK derives both from ``subscriptions/listen`` and per-request log opt-in.
"""

from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, SetLevelRequestParams
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import ValidationError

from inspector.demo.state import DemoState, connection_key


class HandshakeCapabilities:
    """Server middleware: advertise ``tools.listChanged`` and ``logging``; store the log level."""

    def __init__(self, state: DemoState) -> None:
        self._state = state

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        if ctx.method == "logging/setLevel" and ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
            return self._set_level(ctx)
        result = await call_next(ctx)
        if ctx.method == "initialize" and isinstance(result, dict):
            capabilities = result.setdefault("capabilities", {})
            capabilities.setdefault("tools", {})["listChanged"] = True
            capabilities.setdefault("logging", {})
        return result

    def _set_level(self, ctx: ServerRequestContext[Any, Any]) -> HandlerResult:
        try:
            params = SetLevelRequestParams.model_validate(ctx.params or {}, by_name=False)
        except ValidationError as exc:
            raise MCPError(code=INVALID_PARAMS, message="Invalid logging level", data=str(exc)) from None
        headers = getattr(ctx.request, "headers", None)
        self._state.log_levels[connection_key(headers)] = params.level
        return {}
