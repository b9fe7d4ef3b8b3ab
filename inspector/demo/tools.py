"""Stateless demo tools: one per kind of content, schema feature or protocol behaviour."""

import base64
import random
import zlib
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Annotated, Literal
from uuid import UUID, uuid4

import anyio
from mcp.server.mcpserver import Audio, Context, Image, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from mcp_types import (
    INVALID_PARAMS,
    BlobResourceContents,
    CallToolResult,
    ContentBlock,
    EmbeddedResource,
    Icon,
    LoggingLevel,
    ResourceLink,
    TextContent,
    TextResourceContents,
    ToolAnnotations,
)
from pydantic import Field

from inspector.demo import icons, media
from inspector.demo.models import (
    Agenda,
    Booking,
    Conditions,
    DailyForecast,
    InPerson,
    Location,
    Person,
    Priority,
    ReminderMinutes,
    WeatherReport,
)
from inspector.demo.state import DemoState, level_allows

READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
"""A pure function of its arguments: safe to call any number of times."""

IMAGE_ICON = icons.SVG_ICON
"""The gradient SVG shown for generate_image (and the server)."""


async def echo(message: Annotated[str, Field(description="Text to send back.")]) -> str:
    """Return the message unchanged. Cheap: handy for latency benchmarks."""
    return message


def generate_image(
    size: Annotated[int, Field(ge=8, le=256, description="Width and height in pixels.")] = 64,
    pattern: Annotated[media.Pattern, Field(description="What to draw.")] = "gradient",
) -> Image:
    """Draw a small square PNG (a colour gradient, rings or a checkerboard)."""
    return Image(data=media.render_png(size, pattern), format="png")


def generate_tone(
    frequency: Annotated[float, Field(ge=20, le=8000, description="Pitch in hertz (440 is concert A).")] = 440,
    duration: Annotated[float, Field(ge=0.1, le=2.0, description="Length in seconds.")] = 1.0,
) -> Audio:
    """Synthesise a sine tone as a WAV file (16-bit mono, 22 050 Hz)."""
    return Audio(data=media.render_tone(frequency, duration), format="wav")


def show_resources(
    include_binary: Annotated[bool, Field(description="Also embed a binary (base64 blob) resource.")] = True,
) -> list[ContentBlock]:
    """Return resource links (to resources this server serves) and embedded resources."""
    blocks: list[ContentBlock] = [
        TextContent(text="Links resolve with resources/read; embedded resources carry their content inline."),
        ResourceLink(
            uri="demo://docs/guide",
            name="guide",
            title="Demo server guide",
            description="What each demo tool shows.",
            mime_type="text/markdown",
        ),
        ResourceLink(uri="demo://images/gradient.png", name="gradient.png", mime_type="image/png"),
        EmbeddedResource(
            resource=TextResourceContents(
                uri="demo://data/settings.json",
                mime_type="application/json",
                text='{"theme": "dark", "font_size": 13, "features": ["traffic", "budget"]}',
            )
        ),
    ]
    if include_binary:
        blocks.append(
            EmbeddedResource(
                resource=BlobResourceContents(
                    uri="demo://images/icon.png",
                    mime_type="image/png",
                    blob=base64.b64encode(media.render_png(16, "rings")).decode(),
                )
            )
        )
    return blocks


def get_weather(
    city: Annotated[str, Field(min_length=1, max_length=80, description="City name, e.g. Lisbon.")],
    unit: Annotated[Literal["celsius", "fahrenheit"], Field(description="Temperature unit.")] = "celsius",
    days: Annotated[int, Field(ge=1, le=7, description="Number of forecast days.")] = 3,
) -> WeatherReport:
    """Current weather and a forecast for a city (simulated offline; same city, same sky)."""
    rng = random.Random(zlib.crc32(city.strip().lower().encode()))

    def convert(celsius: float) -> float:
        return celsius if unit == "celsius" else celsius * 9 / 5 + 32

    today = date.today()
    forecast = []
    for offset in range(1, days + 1):
        low = rng.uniform(-5, 20)
        forecast.append(
            DailyForecast(
                day=today + timedelta(days=offset),
                high=round(convert(low + rng.uniform(3, 12)), 1),
                low=round(convert(low), 1),
                conditions=rng.choice(list(Conditions)),
            )
        )
    return WeatherReport(
        city=city.strip(),
        unit=unit,
        temperature=round(convert(rng.uniform(-5, 30)), 1),
        humidity=rng.randint(20, 95),
        conditions=rng.choice(list(Conditions)),
        observed_at=datetime.now(UTC).replace(minute=0, second=0, microsecond=0),
        forecast=forecast,
    )


def schedule_meeting(
    title: Annotated[str, Field(min_length=1, max_length=120, description="Short meeting title.")],
    day: Annotated[date, Field(description="Calendar day of the meeting.")],
    starts_at: Annotated[datetime, Field(description="Start time, ISO 8601 with a time zone.")],
    organizer: Annotated[Person, Field(description="Who owns the meeting.")],
    location: Annotated[Location, Field(description="Where: a room (in_person) or a video call (online).")],
    attendees: Annotated[Sequence[Person], Field(max_length=50, description="Invited people.")] = (),
    agenda: Annotated[Sequence[Agenda], Field(description="Agenda items, in order.")] = (),
    duration_minutes: Annotated[int, Field(ge=5, le=480, multiple_of=5, description="Length in minutes.")] = 30,
    priority: Annotated[Priority, Field(description="Urgency.")] = Priority.NORMAL,
    reminder: Annotated[ReminderMinutes, Field(description="Reminder lead time, in minutes.")] = (
        ReminderMinutes.FIFTEEN
    ),
    notes: Annotated[str | None, Field(description="Free-form notes; null for none.")] = None,
    series_id: Annotated[UUID | None, Field(description="Recurring series this belongs to.")] = None,
) -> Booking:
    """Pretend to book a meeting (nothing is stored). Its form exercises every schema feature."""
    if starts_at.date() != day:
        raise ToolError(f"starts_at is on {starts_at.date()}, not on the meeting day {day}")
    where = f"room {location.room}" if isinstance(location, InPerson) else str(location.url)
    return Booking(
        booking_id=uuid4(),
        title=title,
        starts_at=starts_at,
        ends_at=starts_at + timedelta(minutes=duration_minutes),
        invited=1 + len(attendees),
        where=where,
    )


async def simulate_error(
    mode: Annotated[
        Literal["result", "exception", "protocol"],
        Field(
            description="result: isError tool result with an explanation; exception: the tool raises "
            "(the SDK hides the message); protocol: a JSON-RPC error instead of a result."
        ),
    ] = "result",
) -> CallToolResult:
    """Fail on purpose, in one of the three ways a tool call can fail."""
    if mode == "exception":
        raise RuntimeError("simulated crash (this text stays on the server)")
    if mode == "protocol":
        raise MCPError(code=INVALID_PARAMS, message="Simulated protocol error", data={"mode": mode})
    return CallToolResult(
        is_error=True,
        content=[
            TextContent(text="The simulated upstream service refused the request (HTTP 503)."),
            TextContent(text="This is a tool *result* with isError: true, so the model can read it and retry."),
        ],
    )


async def slow_task(
    ctx: Context,
    steps: Annotated[int, Field(ge=1, le=100, description="Number of steps.")] = 5,
    delay: Annotated[float, Field(ge=0, le=10, description="Seconds to wait per step.")] = 0.5,
) -> str:
    """Work for steps × delay seconds, reporting progress after each step. Cancellable."""
    started = anyio.current_time()
    for step in range(1, steps + 1):
        await anyio.sleep(delay)  # a cancelled request stops here
        await ctx.report_progress(step, steps, f"Step {step} of {steps}")
    return f"Finished {steps} steps in {anyio.current_time() - started:.2f} s."


def register(server: MCPServer, state: DemoState) -> None:
    """Add the stateless tools (and the logging tool, which reads ``state``) to ``server``."""
    server.add_tool(echo, title="Echo", annotations=READ_ONLY, structured_output=False)
    server.add_tool(
        generate_image,
        title="Generate image",
        annotations=READ_ONLY,
        icons=[Icon(src=IMAGE_ICON, mime_type="image/svg+xml", sizes=["any"])],
    )
    server.add_tool(generate_tone, title="Generate tone", annotations=READ_ONLY)
    server.add_tool(show_resources, title="Resource links and embedded resources", annotations=READ_ONLY)
    server.add_tool(
        get_weather,
        title="Weather (structured output)",
        annotations=ToolAnnotations(read_only_hint=True, idempotent_hint=False, open_world_hint=True),
    )
    server.add_tool(
        schedule_meeting,
        title="Schedule a meeting",
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False),
    )
    server.add_tool(simulate_error, title="Simulate an error", annotations=READ_ONLY, structured_output=False)
    server.add_tool(slow_task, title="Slow task with progress", annotations=READ_ONLY, structured_output=False)
    server.add_tool(
        _emit_logs_tool(state),
        name="emit_logs",
        title="Emit log messages",
        annotations=READ_ONLY,
        structured_output=False,
    )


def _emit_logs_tool(state: DemoState) -> Callable[..., Awaitable[str]]:
    """The ``emit_logs`` tool, bound to ``state`` for the per-connection log level."""

    async def emit_logs(
        ctx: Context,
        message: Annotated[str, Field(description="Text carried by every log message.")] = "Hello from the demo",
        levels: Annotated[Sequence[LoggingLevel], Field(min_length=1, description="Levels to emit, in order.")] = (
            "debug",
            "info",
            "warning",
            "error",
        ),
    ) -> str:
        """Send notifications/message log entries at several levels (honours logging/setLevel)."""
        minimum = state.min_log_level(ctx.headers)
        sent = [level for level in levels if level_allows(minimum, level)]
        for index, level in enumerate(sent):
            data: object = message if index % 2 == 0 else {"message": message, "level": level, "index": index}
            await ctx.session.send_log_message(level, data, logger="mcp-lens-demo", related_request_id=ctx.request_id)
        skipped = len(levels) - len(sent)
        note = f"; skipped {skipped} below the requested level {minimum!r}" if skipped else ""
        return f"Sent {len(sent)} log {'message' if len(sent) == 1 else 'messages'}{note}."

    return emit_logs
