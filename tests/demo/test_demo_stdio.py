"""The demo server over stdio, driven by the SDK client against a real ``python -m inspector.demo``."""

import base64
import io
import json
import struct
import wave
from typing import Any

import anyio
import jsonschema
import mcp_types as types
import pytest
from demo_support import EXPECTED_TOOLS, assert_rich_schema, run
from mcp.shared.exceptions import MCPError

from inspector import __version__


def test_initialize_reports_identity_and_capabilities(stdio_session: Any) -> None:
    async def body(session: Any) -> types.InitializeResult:
        return session.initialize_result

    result = run(stdio_session, body)
    assert result.server_info.name == "mcp-lens-demo"
    assert result.server_info.version == __version__
    assert "demo server" in (result.instructions or "")
    assert result.capabilities.tools is not None and result.capabilities.tools.list_changed is True
    assert result.capabilities.logging is not None
    assert result.capabilities.resources is not None and result.capabilities.prompts is not None


def test_tools_have_titles_descriptions_and_annotations(stdio_session: Any) -> None:
    async def body(session: Any) -> list[types.Tool]:
        return (await session.list_tools()).tools

    tools = {tool.name: tool for tool in run(stdio_session, body)}
    assert set(tools) == EXPECTED_TOOLS
    for tool in tools.values():
        assert tool.title and tool.description and tool.annotations is not None, tool.name
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
    assert tools["delete_note"].annotations.destructive_hint is True
    assert tools["delete_note"].annotations.idempotent_hint is True
    assert tools["echo"].annotations.read_only_hint is True
    assert tools["get_weather"].annotations.open_world_hint is True
    assert tools["get_weather"].output_schema is not None
    assert tools["generate_image"].icons


def test_input_schema_uses_every_json_schema_feature(stdio_session: Any) -> None:
    async def body(session: Any) -> list[types.Tool]:
        return (await session.list_tools()).tools

    tools = {tool.name: tool for tool in run(stdio_session, body)}
    assert_rich_schema(tools["schedule_meeting"].input_schema)
    assert tools["schedule_meeting"].output_schema is not None


def test_echo_returns_the_message(stdio_session: Any, recorder: Any) -> None:
    async def body(session: Any) -> types.CallToolResult:
        return await session.call_tool("echo", {"message": "héllo ✓"})

    result = run(stdio_session, body, recorder)
    assert not result.is_error
    assert [block.text for block in result.content] == ["héllo ✓"]
    assert result.structured_content is None
    assert recorder.errors == []


def test_image_tool_returns_a_png(stdio_session: Any) -> None:
    async def body(session: Any) -> types.CallToolResult:
        return await session.call_tool("generate_image", {"size": 48, "pattern": "rings"})

    (block,) = run(stdio_session, body).content
    assert block.type == "image" and block.mime_type == "image/png"
    png = base64.b64decode(block.data)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert png[12:16] == b"IHDR" and struct.unpack(">II", png[16:24]) == (48, 48)


def test_audio_tool_returns_a_wav_tone(stdio_session: Any) -> None:
    async def body(session: Any) -> types.CallToolResult:
        return await session.call_tool("generate_tone", {"frequency": 660, "duration": 1.5})

    (block,) = run(stdio_session, body).content
    assert block.type == "audio" and block.mime_type == "audio/wav"
    with wave.open(io.BytesIO(base64.b64decode(block.data))) as wav:
        assert (wav.getnchannels(), wav.getsampwidth(), wav.getframerate()) == (1, 2, 22050)
        assert 1.0 <= wav.getnframes() / wav.getframerate() <= 2.0


def test_resource_links_resolve_and_embedded_resources_carry_content(stdio_session: Any) -> None:
    async def body(session: Any) -> tuple[Any, ...]:
        result = await session.call_tool("show_resources", {})
        links = [block for block in result.content if block.type == "resource_link"]
        reads = [await session.read_resource(link.uri) for link in links]
        listed = {str(resource.uri) for resource in (await session.list_resources()).resources}
        return result, links, reads, listed

    result, links, reads, listed = run(stdio_session, body)
    assert len(links) == 2 and {str(link.uri) for link in links} <= listed
    for link, read in zip(links, reads, strict=True):
        (contents,) = read.contents
        assert contents.mime_type == link.mime_type
    assert reads[0].contents[0].text.startswith("# MCP Lens demo server")
    assert base64.b64decode(reads[1].contents[0].blob).startswith(b"\x89PNG")
    embedded = [block.resource for block in result.content if block.type == "resource"]
    assert json.loads(embedded[0].text)["theme"] == "dark"
    assert base64.b64decode(embedded[1].blob).startswith(b"\x89PNG")


def test_structured_content_matches_output_schema(stdio_session: Any) -> None:
    async def body(session: Any) -> tuple[types.Tool, types.CallToolResult]:
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        return tools["get_weather"], await session.call_tool("get_weather", {"city": "Lisbon", "days": 4})

    tool, result = run(stdio_session, body)
    assert not result.is_error
    jsonschema.validate(result.structured_content, tool.output_schema)
    assert result.structured_content["city"] == "Lisbon"
    assert len(result.structured_content["forecast"]) == 4
    assert json.loads(result.content[0].text) == result.structured_content  # text mirror for old clients


def test_schedule_meeting_accepts_a_full_form(stdio_session: Any) -> None:
    arguments = {
        "title": "Planning",
        "day": "2030-03-04",
        "starts_at": "2030-03-04T09:30:00+01:00",
        "organizer": {"name": "Ada", "email": "ada@example.com"},
        "attendees": [{"name": "Bob", "email": "bob@example.com", "optional": True}],
        "location": {"kind": "in_person", "room": "4.2", "floor": 4},
        "reminder": 5,
        "priority": "high",
        "series_id": "12345678-1234-5678-1234-567812345678",
    }

    async def body(session: Any) -> tuple[types.CallToolResult, types.CallToolResult]:
        good = await session.call_tool("schedule_meeting", arguments)
        bad = await session.call_tool("schedule_meeting", {**arguments, "location": {"kind": "carrier pigeon"}})
        return good, bad

    good, bad = run(stdio_session, body)
    assert not good.is_error
    assert good.structured_content["invited"] == 2 and good.structured_content["where"] == "room 4.2"
    assert bad.is_error


def test_error_tool_fails_in_three_ways(stdio_session: Any) -> None:
    async def body(session: Any) -> tuple[Any, ...]:
        result = await session.call_tool("simulate_error", {})
        crash = await session.call_tool("simulate_error", {"mode": "exception"})
        with pytest.raises(MCPError) as protocol:
            await session.call_tool("simulate_error", {"mode": "protocol"})
        return result, crash, protocol.value

    result, crash, protocol = run(stdio_session, body)
    assert result.is_error is True
    assert "isError" in " ".join(block.text for block in result.content)
    assert crash.is_error is True and "simulated crash" not in crash.content[0].text
    assert protocol.error.code == types.INVALID_PARAMS


def test_progress_is_reported_for_every_step(stdio_session: Any) -> None:
    events: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        events.append((progress, total, message))

    async def body(session: Any) -> types.CallToolResult:
        return await session.call_tool("slow_task", {"steps": 4, "delay": 0.01}, progress_callback=on_progress)

    result = run(stdio_session, body)
    assert "Finished 4 steps" in result.content[0].text
    assert [(p, t) for p, t, _ in events] == [(1, 4), (2, 4), (3, 4), (4, 4)]
    assert events[-1][2] == "Step 4 of 4"


def test_toggle_extra_tool_sends_list_changed(stdio_session: Any, recorder: Any) -> None:
    async def body(session: Any) -> tuple[Any, ...]:
        before = {tool.name for tool in (await session.list_tools()).tools}
        await session.call_tool("toggle_extra_tool", {})
        with anyio.fail_after(5):
            while "notifications/tools/list_changed" not in recorder.methods():
                await anyio.sleep(0.01)
        during = {tool.name for tool in (await session.list_tools()).tools}
        rolled = await session.call_tool("roll_dice", {"count": 2, "sides": 6})
        await session.call_tool("toggle_extra_tool", {"enabled": False})
        after = {tool.name for tool in (await session.list_tools()).tools}
        return before, during, rolled, after

    before, during, rolled, after = run(stdio_session, body, recorder)
    assert "roll_dice" not in before and during == before | {"roll_dice"} and after == before
    assert "2d6:" in rolled.content[0].text
    assert recorder.methods().count("notifications/tools/list_changed") == 2


@pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")
def test_emit_logs_sends_log_messages_and_honours_set_level(stdio_session: Any, recorder: Any) -> None:
    async def body(session: Any) -> None:
        await session.call_tool("emit_logs", {"message": "first"})
        await session.set_logging_level("warning")
        await session.call_tool("emit_logs", {"message": "second", "levels": ["debug", "info", "error"]})

    run(stdio_session, body, recorder)
    levels = [
        (entry.level, entry.data if isinstance(entry.data, str) else entry.data["message"]) for entry in recorder.logs
    ]
    assert levels == [
        ("debug", "first"),
        ("info", "first"),
        ("warning", "first"),
        ("error", "first"),
        ("error", "second"),
    ]
    assert all(entry.logger == "mcp-lens-demo" for entry in recorder.logs)


def test_delete_note_removes_the_note_resource(stdio_session: Any) -> None:
    async def body(session: Any) -> tuple[Any, ...]:
        before = await session.read_resource("demo://notes/groceries")
        deleted = await session.call_tool("delete_note", {"note_id": "groceries"})
        with pytest.raises(MCPError) as gone:
            await session.read_resource("demo://notes/groceries")
        again = await session.call_tool("delete_note", {"note_id": "groceries"})
        return before, deleted, gone.value, again

    before, deleted, gone, again = run(stdio_session, body)
    assert "coffee" in before.contents[0].text
    assert "Deleted note 'groceries'" in deleted.content[0].text
    assert "No note 'groceries'" in gone.error.message
    assert not again.is_error and "does not exist" in again.content[0].text


def test_prompts_templates_and_completion(stdio_session: Any) -> None:
    async def body(session: Any) -> tuple[Any, ...]:
        prompts = {prompt.name for prompt in (await session.list_prompts()).prompts}
        summary = await session.get_prompt("summarize_note", {"note_id": "ideas", "style": "haiku"})
        image = await session.get_prompt("describe_image", {})
        templates = (await session.list_resource_templates()).resource_templates
        ref = types.ResourceTemplateReference(uri="demo://notes/{note_id}")
        completion = await session.complete(ref, {"name": "note_id", "value": "gr"})
        return prompts, summary, image, templates, completion

    prompts, summary, image, templates, completion = run(stdio_session, body)
    assert prompts == {"summarize_note", "describe_image"}
    assert summary.messages[1].content.type == "resource"
    assert "Render every content type" in summary.messages[1].content.resource.text
    assert image.messages[1].content.type == "image"
    assert [template.uri_template for template in templates] == ["demo://notes/{note_id}"]
    assert completion.completion.values == ["groceries"]
