"""A 2026-07-28-only MCP server (SDK ``MCPServer``): answers ``server/discover``, refuses ``initialize``.

``python modern_only.py`` serves stdio; ``python modern_only.py --http PORT`` serves Streamable HTTP at
``http://127.0.0.1:PORT/mcp``. Tools: ``add`` (two integers → their sum as text) and ``whoami`` (the
protocol version and client name the request's ``_meta`` carried).

``initialize`` (any handshake-era version) is answered with the 2026-07-28 UnsupportedProtocolVersion
error: code -32022, ``data.supported == ["2026-07-28"]`` and ``data.requested`` the version the client
offered, the same error the SDK gives an ``initialize`` on a connection already serving 2026-07-28.
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from typing import Annotated, Any

import anyio
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.exceptions import MCPError
from mcp_types import UNSUPPORTED_PROTOCOL_VERSION
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import Field

NAME = "modern-only"


async def refuse_initialize(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """Server middleware: the handshake is not served here, whatever version it offers."""
    if ctx.method == "initialize":
        requested = (ctx.params or {}).get("protocolVersion")
        data: dict[str, Any] = {"supported": list(MODERN_PROTOCOL_VERSIONS)}
        if isinstance(requested, str):
            data["requested"] = requested
        raise MCPError(
            code=UNSUPPORTED_PROTOCOL_VERSION,
            message="Unsupported protocol version: this server speaks 2026-07-28 only (no initialize handshake)",
            data=data,
        )
    return await call_next(ctx)


def add(
    a: Annotated[int, Field(description="First addend.")], b: Annotated[int, Field(description="Second addend.")]
) -> str:
    """Add two integers."""
    return str(a + b)


def whoami(ctx: Context) -> str:
    """Say which protocol version and client this request came from (read from its own _meta)."""
    meta = (ctx.request_context.params or {}).get("_meta") or {}
    info = meta.get("io.modelcontextprotocol/clientInfo") or {}
    return f"protocol {ctx.protocol_version}; client {info.get('name', 'unknown')}"


def build_server() -> MCPServer:
    """The modern-only server: two tools and the ``initialize`` refusal."""
    server = MCPServer(NAME, version="1.0.0", instructions="A 2026-07-28-only test server.")
    server.add_tool(add, title="Add", structured_output=False)
    server.add_tool(whoami, title="Who am I", structured_output=False)
    server.middleware.insert(0, refuse_initialize)
    return server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--http", type=int, metavar="PORT", help="serve Streamable HTTP on this port at /mcp")
    args = parser.parse_args(argv)
    server = build_server()
    if args.http is None:
        run = server.run_stdio_async
    else:
        print(f"{NAME}: serving at http://127.0.0.1:{args.http}/mcp", file=sys.stderr, flush=True)
        run = partial(server.run_streamable_http_async, host="127.0.0.1", port=args.http)
    try:
        anyio.run(run)
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
