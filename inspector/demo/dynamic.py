"""Tools that change server state: deleting a note and adding/removing a tool at run time."""

import random
from typing import Annotated

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import ToolAnnotations, ToolListChangedNotification
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from pydantic import Field

from inspector.demo.state import DemoState

EXTRA_TOOL = "roll_dice"


def roll_dice(
    sides: Annotated[int, Field(ge=2, le=1000, description="Faces per die.")] = 6,
    count: Annotated[int, Field(ge=1, le=20, description="Number of dice.")] = 1,
) -> str:
    """Roll some dice. This tool only exists while toggle_extra_tool has switched it on."""
    rolls = [random.randint(1, sides) for _ in range(count)]
    return f"{count}d{sides}: {', '.join(map(str, rolls))} (total {sum(rolls)})"


async def announce_tools_changed(ctx: Context) -> None:
    """Tell the client its tool list is stale, whichever protocol era it speaks.

    ``ctx.notify_tools_changed()`` only reaches 2026-07-28 ``subscriptions/listen`` streams; a
    handshake-era client gets ``notifications/tools/list_changed`` directly. It is sent on the
    request's own stream so it reliably arrives (over Streamable HTTP, before the result).
    """
    await ctx.notify_tools_changed()
    if ctx.protocol_version not in MODERN_PROTOCOL_VERSIONS:
        await ctx.session.send_notification(ToolListChangedNotification(), related_request_id=ctx.request_id)


def register(server: MCPServer, state: DemoState) -> None:
    """Add ``delete_note`` and ``toggle_extra_tool`` to ``server``."""

    async def delete_note(
        note_id: Annotated[str, Field(min_length=1, description="Note to delete, e.g. groceries.")],
    ) -> str:
        """Delete a note from the server's memory (demo data only; it is back on restart)."""
        if state.notes.pop(note_id, None) is None:
            return f"Note {note_id!r} does not exist (already deleted?). Remaining: {', '.join(state.notes)}."
        return f"Deleted note {note_id!r}. Remaining: {', '.join(state.notes) or 'none'}."

    async def toggle_extra_tool(
        ctx: Context,
        enabled: Annotated[
            bool | None,
            Field(description=f"Whether {EXTRA_TOOL} should exist; null flips the current state."),
        ] = None,
    ) -> str:
        """Add or remove the roll_dice tool and send notifications/tools/list_changed."""
        wanted = not state.extra_tool_enabled if enabled is None else enabled
        if wanted == state.extra_tool_enabled:
            return f"{EXTRA_TOOL} is already {'available' if wanted else 'absent'}; nothing changed."
        if wanted:
            server.add_tool(
                roll_dice,
                title="Roll dice",
                annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False),
                structured_output=False,
            )
        else:
            server.remove_tool(EXTRA_TOOL)
        state.extra_tool_enabled = wanted
        await announce_tools_changed(ctx)
        return f"{EXTRA_TOOL} is now {'available' if wanted else 'removed'}; the tool list changed."

    server.add_tool(
        delete_note,
        title="Delete a note",
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False
        ),
        structured_output=False,
    )
    server.add_tool(
        toggle_extra_tool,
        title="Toggle the extra tool",
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False
        ),
        structured_output=False,
    )
