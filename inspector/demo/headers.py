"""Tools with header parameters (SEP-2243: ``x-mcp-header`` in an inputSchema property).

On Streamable HTTP in the 2026-07-28 era a client mirrors each annotated argument into an
``Mcp-Param-<Name>`` header (and sends ``Mcp-Method`` / ``Mcp-Name``); the server checks them against
the body. ``route_request`` has valid annotations and reports the ``Mcp-*`` headers it received.
``route_request_bad_headers`` is listed with *invalid* annotations (``x-mcp-header`` on a ``number``
property and a case-insensitive duplicate), which a 2026-07-28 client must refuse to call and
should flag. The SDK refuses to register an invalid annotation, so that tool is registered plain and
its listing is rewritten by a middleware (the SDK's public ``middleware=`` hook).
"""

from collections.abc import Mapping
from typing import Annotated, Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.mcpserver import Context, MCPServer
from mcp_types import ToolAnnotations
from pydantic import Field

from inspector.demo import icons

BAD_TOOL = "route_request_bad_headers"
INVALID_ANNOTATIONS = {"region": "Region", "zone": "region", "score": "Score"}
"""What the bad tool's listing claims: ``zone`` duplicates ``Region`` ignoring case; ``score`` is a number."""


def _header(name: str) -> dict[str, Any]:
    """``json_schema_extra`` that annotates a property as the header parameter ``Mcp-Param-<name>``."""
    return {"x-mcp-header": name}


READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)


def _received(headers: Mapping[str, str] | None) -> str:
    if headers is None:
        return "No HTTP headers: this request did not come over HTTP (stdio)."
    shown = sorted((name, value) for name, value in headers.items() if name.lower().startswith("mcp-"))
    if not shown:
        return "No Mcp-* headers arrived with this request."
    return "Mcp-* headers received:\n" + "\n".join(f"{name}: {value}" for name, value in shown)


async def route_request(
    ctx: Context,
    region: Annotated[str, Field(description="Where to route, e.g. eu-west.", json_schema_extra=_header("Region"))],
    priority: Annotated[int, Field(ge=0, le=9, description="0 (low) to 9.", json_schema_extra=_header("Priority"))] = 5,
    dry_run: Annotated[bool, Field(description="Plan only.", json_schema_extra=_header("DryRun"))] = False,
    query: Annotated[str, Field(description="Request text (not a header).")] = "status",
) -> str:
    """Route a request; region, priority and dry_run travel as Mcp-Param-* headers on modern HTTP."""
    plan = "would route" if dry_run else "routed"
    return f"{plan} {query!r} to {region} at priority {priority}.\n{_received(ctx.headers)}"


async def route_request_bad_headers(
    ctx: Context,
    region: Annotated[str, Field(description="Where to route.")] = "eu-west",
    zone: Annotated[str, Field(description="Availability zone.")] = "a",
    score: Annotated[float, Field(description="A float: may not be a header parameter.")] = 0.5,
) -> str:
    """Listed with invalid x-mcp-header annotations: a 2026-07-28 client must not call it."""
    return f"called with region={region}, zone={zone}, score={score}.\n{_received(ctx.headers)}"


async def invalid_headers_listing(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
    """Server middleware: put the invalid ``x-mcp-header`` annotations on the bad tool's listing."""
    result = await call_next(ctx)
    if ctx.method == "tools/list" and isinstance(result, dict):
        for tool in result.get("tools") or []:
            if isinstance(tool, dict) and tool.get("name") == BAD_TOOL:
                properties = tool.get("inputSchema", {}).get("properties", {})
                for name, header in INVALID_ANNOTATIONS.items():
                    if isinstance(properties.get(name), dict):
                        properties[name]["x-mcp-header"] = header
    return result


def register(server: MCPServer) -> None:
    """Add the two header-parameter tools and the listing middleware to ``server``."""
    server.add_tool(
        route_request,
        title="Route a request (header parameters)",
        annotations=READ_ONLY,
        structured_output=False,
        icons=[icons.hostile_svg()],
    )
    server.add_tool(
        route_request_bad_headers,
        title="Bad header parameters",
        annotations=READ_ONLY,
        structured_output=False,
    )
    server.middleware.append(invalid_headers_listing)
