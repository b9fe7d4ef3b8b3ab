"""A tool that asks the client for input mid-call, in whichever way the protocol era allows.

``order_coffee`` uses the SDK's resolvers (``Resolve`` + ``Elicit`` / ``Sample``). On 2026-07-28 the
first ``tools/call`` is answered with ``resultType: "input_required"``: ``inputRequests`` (a form
elicitation, plus a sampling request when ``suggest_pastry`` is true) and an opaque, sealed
``requestState``; the client retries the same call with ``inputResponses`` and the echoed
``requestState``, and the tool finishes. On 2025-11-25 and earlier the same resolvers send classic
``elicitation/create`` and ``sampling/createMessage`` requests during the call.
"""

from typing import Annotated, Any, Literal

from mcp.server.mcpserver import ElicitationResult, MCPServer, Resolve, Sample
from mcp.server.mcpserver.resolve import Elicit
from mcp_types import CreateMessageResult, SamplingMessage, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from inspector.demo import icons

ASKS_CLIENT = ToolAnnotations(read_only_hint=True, idempotent_hint=False, open_world_hint=True)


class CoffeeOrder(BaseModel):
    """The form the user fills in (an elicitation schema: flat, primitive fields only)."""

    name: str = Field(title="Name on the cup", min_length=1)
    size: Literal["small", "medium", "large"] = Field("medium", title="Size")
    oat_milk: bool = Field(False, title="Oat milk")


def ask_order(drink: str) -> Elicit[CoffeeOrder]:
    """Resolver: ask the user how they want the drink."""
    return Elicit(f"How would you like your {drink}?", CoffeeOrder)


def ask_pastry(drink: str, suggest_pastry: bool) -> Sample | None:
    """Resolver: when asked to, have the client's model suggest a pastry (a sampling request)."""
    if not suggest_pastry:
        return None
    question = SamplingMessage(role="user", content=TextContent(text=f"Suggest one pastry to go with a {drink}."))
    return Sample([question], max_tokens=60, system_prompt="Answer with the pastry's name only.")


async def order_coffee(
    order: Annotated[ElicitationResult[CoffeeOrder], Resolve(ask_order)],
    pastry: Annotated[CreateMessageResult | None, Resolve(ask_pastry)],
    drink: Annotated[str, Field(min_length=1, description="What to order, e.g. flat white.")] = "flat white",
    suggest_pastry: Annotated[bool, Field(description="Also ask the client's model for a pastry.")] = False,
) -> dict[str, Any]:
    """Order a drink: asks the user for the details mid-call (and, optionally, the model for a pastry).

    2026-07-28: an input_required result, then a retry carrying inputResponses and requestState.
    Earlier revisions: an elicitation/create (and sampling/createMessage) request during the call.
    """
    if order.action != "accept":
        return {"drink": drink, "action": order.action, "order": None, "pastry": None}
    suggestion = None
    if pastry is not None:
        blocks = pastry.content if isinstance(pastry.content, list) else [pastry.content]
        suggestion = " ".join(block.text for block in blocks if isinstance(block, TextContent)) or None
    details = order.data
    return {
        "drink": drink,
        "action": "accept",
        "order": {"name": details.name, "size": details.size, "oat_milk": details.oat_milk},
        "pastry": suggestion,
    }


def register(server: MCPServer) -> None:
    """Add ``order_coffee`` to ``server``."""
    server.add_tool(
        order_coffee,
        title="Order a coffee (asks for input mid-call)",
        annotations=ASKS_CLIENT,
        icons=[icons.png()],
    )
