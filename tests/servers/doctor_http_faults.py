"""A Streamable HTTP MCP server (SDK ``MCPServer``, both eras) with HTTP-level faults planted on demand,
for the doctor's checks that the official conformance suite's ``server`` mode also makes.

    python doctor_http_faults.py --port PORT [--fault NAME ...]

Serves ``http://127.0.0.1:PORT/mcp``: one read-only tool (``echo``), one resource (``note://hello``), one
prompt (``greet``). Clean, it passes the suite's generic scenarios. Each ``--fault`` plants one fault:

- ``host``: no DNS-rebinding protection (a foreign ``Host`` / ``Origin`` is served);
- ``not-found``: an unknown resource is answered with -32000 (as server-everything does), not -32602;
- ``session``: session ids are ignored: an unknown or ended ``Mcp-Session-Id`` is served with the live
  session, and DELETE says 200 without ending anything;
- ``headers``: the 2026-07-28 ``Mcp-Method`` / ``Mcp-Name`` headers are not checked against the body
  (rewritten to match it before the SDK sees them);
- ``caching``: 2026-07-28 list results carry no ``ttlMs`` / ``cacheScope``.
"""

from __future__ import annotations

import argparse
import json
from typing import Annotated, Any

import anyio
import uvicorn
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, ToolAnnotations
from pydantic import Field

FAULTS = ("host", "not-found", "session", "headers", "caching")
CACHE_FIELDS = ("ttlMs", "cacheScope")


def echo(text: Annotated[str, Field(description="What to say back.")] = "hi") -> str:
    """Say the text back."""
    return text


def build_server(faults: set[str]) -> MCPServer:
    middleware = []
    if "not-found" in faults:
        middleware.append(_wrong_not_found_code)
    if "caching" in faults:
        middleware.append(_no_cache_hints)
    server = MCPServer("doctor-http-faults", version="1.0.0", middleware=middleware)
    server.add_tool(echo, annotations=ToolAnnotations(read_only_hint=True), structured_output=False)

    @server.resource("note://hello", description="A short note.")
    def hello() -> str:
        return "hello"

    @server.prompt(description="Greet someone.")
    def greet(name: str = "you") -> str:
        return f"Hello, {name}!"

    return server


async def _wrong_not_found_code(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    try:
        return await call_next(ctx)
    except MCPError as exc:
        if ctx.method == "resources/read" and exc.code == INVALID_PARAMS:
            raise MCPError(code=-32000, message="Resource not found") from None
        raise


async def _no_cache_hints(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    result = await call_next(ctx)
    if isinstance(result, dict):
        return {key: value for key, value in result.items() if key not in CACHE_FIELDS}
    dump = getattr(result, "model_dump", None)
    if dump is not None and ctx.method.endswith("/list"):
        return {k: v for k, v in dump(by_alias=True, exclude_none=True).items() if k not in CACHE_FIELDS}
    return result


class IgnoreSessions:
    """ASGI: requests with a session id the server never issued (or one ended) reach the live session;
    DELETE is answered 200 and ends nothing."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.issued: list[str] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = [(k, v) for k, v in scope["headers"]]
        sid = next((v.decode() for k, v in headers if k == b"mcp-session-id"), None)
        if scope["method"] == "DELETE" and sid is not None:
            await send({"type": "http.response.start", "status": 200, "headers": []})
            await send({"type": "http.response.body", "body": b""})
            return
        if sid is not None and sid not in self.issued and self.issued:
            live = self.issued[-1].encode()
            scope = {**scope, "headers": [(k, live if k == b"mcp-session-id" else v) for k, v in headers]}

        async def noting(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                for k, v in message.get("headers", []):
                    if k.lower() == b"mcp-session-id" and v.decode() not in self.issued:
                        self.issued.append(v.decode())
            await send(message)

        await self.app(scope, receive, noting)


class TrustHeaders:
    """ASGI: ``Mcp-Method`` and ``Mcp-Name`` rewritten from the body, so a mismatch is never noticed."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        chunks = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        try:
            value = json.loads(body)
        except ValueError:
            value = None
        headers = [(k, v) for k, v in scope["headers"] if k.lower() not in (b"mcp-method", b"mcp-name")]
        if isinstance(value, dict) and isinstance(value.get("method"), str):
            headers.append((b"mcp-method", value["method"].encode()))
            params = value.get("params") if isinstance(value.get("params"), dict) else {}
            name = params.get("name") or params.get("uri")
            if isinstance(name, str):
                headers.append((b"mcp-name", name.encode()))
        scope = {**scope, "headers": headers}
        sent = False

        async def replay() -> dict[str, Any]:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--fault", action="append", default=[], choices=FAULTS)
    args = parser.parse_args()
    faults = set(args.fault)
    security = None
    if "host" in faults:
        security = TransportSecuritySettings(enable_dns_rebinding_protection=False)
    app: Any = build_server(faults).streamable_http_app(transport_security=security, host="127.0.0.1")
    if "session" in faults:
        app = IgnoreSessions(app)
    if "headers" in faults:
        app = TrustHeaders(app)
    config = uvicorn.Config(app, host="127.0.0.1", port=args.port, log_level="warning")
    anyio.run(uvicorn.Server(config).serve)


if __name__ == "__main__":
    main()
