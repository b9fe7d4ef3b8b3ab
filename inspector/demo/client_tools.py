"""Demo tools that ask the client something: sampling, form and URL elicitation, roots.

Each one needs the matching client capability and says so plainly when the client lacks it, so an
inspector user sees what a server does with a missing capability, a refusal and an answer.
"""

import base64
from typing import Annotated, Any
from uuid import uuid4

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from mcp_types import (
    CallToolResult,
    ImageContent,
    ModelHint,
    ModelPreferences,
    SamplingMessage,
    TextContent,
    ToolAnnotations,
)
from pydantic import Field

from inspector.demo import media

ASKS_CLIENT = ToolAnnotations(read_only_hint=True, idempotent_hint=False, open_world_hint=True)
"""The answer comes from the client (a person or a model): not a pure function of the arguments."""

BOOKING_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Name", "description": "Who the table is for", "minLength": 1},
        "party_size": {
            "type": "integer",
            "title": "Party size",
            "minimum": 1,
            "maximum": 12,
            "default": 2,
        },
        "date": {"type": "string", "title": "Date", "format": "date", "default": "2026-12-24"},
        "seating": {
            "type": "string",
            "title": "Seating",
            "oneOf": [
                {"const": "indoor", "title": "Indoor"},
                {"const": "terrace", "title": "Terrace"},
                {"const": "bar", "title": "At the bar"},
            ],
            "default": "indoor",
        },
        "vegetarian": {"type": "boolean", "title": "Vegetarian menu", "default": False},
        "email": {"type": "string", "title": "Confirmation e-mail", "format": "email"},
    },
    "required": ["name", "party_size", "date"],
}

DOCS_URL = "https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation"


def _capability(ctx: Context, name: str) -> None:
    capabilities = ctx.client_capabilities
    if capabilities is None or getattr(capabilities, name, None) is None:
        raise ToolError(f"this client did not advertise the '{name}' capability, so the server cannot ask it")


async def ask_model(
    ctx: Context,
    question: Annotated[str, Field(description="What to ask the client's model.")] = "Name three colours.",
    with_image: Annotated[bool, Field(description="Attach a small PNG to the question.")] = False,
    max_tokens: Annotated[int, Field(ge=1, le=4096, description="Longest reply wanted.")] = 200,
) -> CallToolResult:
    """Ask the client's model a question (sampling/createMessage) and return its reply."""
    _capability(ctx, "sampling")
    messages = [SamplingMessage(role="user", content=TextContent(type="text", text=question))]
    if with_image:
        png = base64.b64encode(media.render_png(48, "rings")).decode()
        messages.append(
            SamplingMessage(role="user", content=ImageContent(type="image", data=png, mime_type="image/png"))
        )
    try:
        reply = await ctx.session.create_message(
            messages,
            max_tokens=max_tokens,
            system_prompt="You are the model behind an MCP Lens demo. Answer briefly.",
            temperature=0.4,
            stop_sequences=["\n\nUser:"],
            model_preferences=ModelPreferences(
                hints=[ModelHint(name="claude-sonnet"), ModelHint(name="gpt-4o")],
                cost_priority=0.2,
                speed_priority=0.5,
                intelligence_priority=0.8,
            ),
            related_request_id=ctx.request_id,
        )
    except MCPError as exc:
        raise ToolError(f"the client refused the sampling request: {exc.message} (code {exc.code})") from None
    blocks = reply.content if isinstance(reply.content, list) else [reply.content]
    stop = f", stop reason {reply.stop_reason}" if reply.stop_reason else ""
    content: list[Any] = [TextContent(type="text", text=f"{reply.model} replied{stop}:")]
    for block in blocks:
        if isinstance(block, TextContent | ImageContent):
            content.append(block)
        else:
            content.append(TextContent(type="text", text=f"[{block.type} content]"))
    return CallToolResult(content=content)


async def book_table(
    ctx: Context,
    restaurant: Annotated[str, Field(description="Where to book.")] = "Chez Lens",
) -> dict[str, Any]:
    """Ask the user for booking details through a form (elicitation, form mode) and report the answer."""
    _capability(ctx, "elicitation")
    try:
        answer = await ctx.session.elicit_form(
            message=f"Book a table at {restaurant}: who, how many and when?",
            requested_schema=BOOKING_SCHEMA,
            related_request_id=ctx.request_id,
        )
    except MCPError as exc:
        raise ToolError(f"the client refused the elicitation: {exc.message} (code {exc.code})") from None
    if answer.action != "accept":
        return {"restaurant": restaurant, "action": answer.action, "booking": None}
    return {"restaurant": restaurant, "action": "accept", "booking": answer.content or {}}


async def open_docs(
    ctx: Context,
    url: Annotated[str, Field(description="The page the user is asked to open.")] = DOCS_URL,
) -> str:
    """Ask the user to open a web page (elicitation, URL mode) and report whether they agreed."""
    _capability(ctx, "elicitation")
    elicitation_id = str(uuid4())
    try:
        answer = await ctx.session.elicit_url(
            message="Open the elicitation chapter of the MCP specification.",
            url=url,
            elicitation_id=elicitation_id,
            related_request_id=ctx.request_id,
        )
    except MCPError as exc:
        raise ToolError(f"the client refused the URL elicitation: {exc.message} (code {exc.code})") from None
    if answer.action == "accept":
        await ctx.session.send_elicit_complete(elicitation_id, related_request_id=ctx.request_id)
    return f"URL elicitation {elicitation_id}: the user chose {answer.action} for {url}"


async def list_roots(ctx: Context) -> dict[str, Any]:
    """Ask the client for its roots (roots/list): the folders it lets this server work in."""
    _capability(ctx, "roots")
    try:
        listed = await ctx.session.list_roots()
    except MCPError as exc:
        raise ToolError(f"the client refused roots/list: {exc.message} (code {exc.code})") from None
    roots = [{"uri": str(root.uri), "name": root.name} for root in listed.roots]
    return {"count": len(roots), "roots": roots}


def register(server: MCPServer) -> None:
    """Add the client-request tools to ``server``."""
    server.add_tool(
        ask_model, title="Ask the client's model (sampling)", annotations=ASKS_CLIENT, structured_output=False
    )
    server.add_tool(book_table, title="Book a table (form elicitation)", annotations=ASKS_CLIENT)
    server.add_tool(open_docs, title="Open a page (URL elicitation)", annotations=ASKS_CLIENT, structured_output=False)
    server.add_tool(list_roots, title="List the client's roots", annotations=ASKS_CLIENT)
