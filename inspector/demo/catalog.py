"""Resources, a resource template, prompts and argument completion for the demo server."""

from typing import Annotated, Literal, get_args

from mcp.server.mcpserver import Image, MCPServer, UserMessage
from mcp.server.mcpserver.exceptions import ResourceNotFoundError
from mcp.server.mcpserver.resources import FunctionResource, TextResource
from mcp_types import (
    Annotations,
    Completion,
    CompletionArgument,
    CompletionContext,
    EmbeddedResource,
    PromptReference,
    ResourceTemplateReference,
    TextResourceContents,
)
from pydantic import Field

from inspector.demo import icons, media
from inspector.demo.state import DemoState

NOTE_TEMPLATE = "demo://notes/{note_id}"
Style = Literal["bullets", "one-line", "haiku"]
STYLES: tuple[str, ...] = get_args(Style)

GUIDE = """# MCP Lens demo server

| tool | shows |
| --- | --- |
| echo | plain text |
| generate_image / generate_tone | image (PNG) and audio (WAV) content |
| show_resources | resource links and embedded text/blob resources |
| get_weather / schedule_meeting | outputSchema + structuredContent; a rich inputSchema |
| simulate_error | isError results, crashes and protocol errors |
| delete_note | a destructive tool |
| slow_task | progress notifications and cancellation |
| emit_logs | notifications/message at several levels |
| toggle_extra_tool | notifications/tools/list_changed |
| order_coffee | input mid-call: input_required + retry (2026-07-28), elicitation (older) |
| research_topic | a task: 2025-11-25 core tasks or the 2026-07-28 tasks extension |
| route_request / route_request_bad_headers | header parameters (x-mcp-header), valid and invalid |
| show_dice / reroll_dice | an MCP App (ui://demo/dice.html) that calls a tool through the bridge |
"""


def register(server: MCPServer, state: DemoState) -> None:
    """Add resources, the notes template, two prompts and a completion handler to ``server``."""
    server.add_resource(
        TextResource(
            uri="demo://docs/guide",
            name="guide",
            title="Demo server guide",
            description="What each demo tool demonstrates.",
            mime_type="text/markdown",
            text=GUIDE,
            annotations=Annotations(audience=["user"], priority=0.9),
            icons=[icons.png(), icons.remote()],
        )
    )
    server.add_resource(
        TextResource(
            uri="demo://data/settings.json",
            name="settings.json",
            title="Example settings",
            description="A small JSON document.",
            mime_type="application/json",
            text='{"theme": "dark", "font_size": 13, "features": ["traffic", "budget"]}',
            annotations=Annotations(audience=["assistant"], priority=0.3),
        )
    )
    for uri, name, mime, render in (
        ("demo://images/gradient.png", "gradient.png", "image/png", lambda: media.render_png(64, "gradient")),
        ("demo://images/icon.png", "icon.png", "image/png", lambda: media.render_png(16, "rings")),
        ("demo://audio/a440.wav", "a440.wav", "audio/wav", lambda: media.render_tone(440, 1.0)),
    ):
        server.add_resource(FunctionResource(uri=uri, name=name, mime_type=mime, fn=render, description=name))

    @server.resource(NOTE_TEMPLATE, name="note", title="Note", mime_type="text/markdown")
    async def read_note(note_id: str) -> str:
        """A note kept in the demo server's memory (see delete_note)."""
        if note_id not in state.notes:
            raise ResourceNotFoundError(f"No note {note_id!r}; notes: {', '.join(state.notes) or 'none'}")
        return state.notes[note_id]

    @server.prompt(title="Summarise a note")
    async def summarize_note(
        note_id: Annotated[str, Field(description="Which note, e.g. welcome.")],
        style: Annotated[Style, Field(description="Summary style.")] = "bullets",
    ) -> list[UserMessage]:
        """Ask the model to summarise one of the server's notes (the note is embedded)."""
        text = state.notes.get(note_id, f"(note {note_id!r} does not exist)")
        uri = NOTE_TEMPLATE.format(note_id=note_id)
        note = EmbeddedResource(resource=TextResourceContents(uri=uri, mime_type="text/markdown", text=text))
        return [UserMessage(f"Summarise this note as {style}."), UserMessage(note)]

    @server.prompt(title="Describe an image", icons=[icons.svg()])
    async def describe_image() -> list[UserMessage]:
        """A prompt whose second message is an image."""
        return [
            UserMessage("Describe the colours in this picture."),
            UserMessage(Image(data=media.render_png(32))),
        ]

    @server.completion()
    async def complete(
        ref: ResourceTemplateReference | PromptReference,
        argument: CompletionArgument,
        context: CompletionContext | None,
    ) -> Completion | None:
        """Suggest note ids and summary styles that start with what was typed."""
        if argument.name == "note_id":
            options = list(state.notes)
        elif argument.name == "style":
            options = list(STYLES)
        else:
            return None
        matches = [option for option in options if option.startswith(argument.value)]
        return Completion(values=matches, total=len(matches), has_more=False)
