"""The demo server over Streamable HTTP (``python -m inspector.demo --http PORT``), via the SDK client."""

import base64
from typing import Any

import anyio
import pytest
from demo_support import EXPECTED_TOOLS, assert_rich_schema, run

from inspector import __version__


def test_initialize_and_list_tools_over_http(http_session: Any) -> None:
    async def body(session: Any) -> tuple[Any, ...]:
        return session.initialize_result, (await session.list_tools()).tools

    result, tools = run(http_session, body)
    assert result.server_info.name == "mcp-lens-demo" and result.server_info.version == __version__
    assert result.capabilities.tools.list_changed is True
    by_name = {tool.name: tool for tool in tools}
    assert set(by_name) >= EXPECTED_TOOLS
    assert_rich_schema(by_name["schedule_meeting"].input_schema)


def test_echo_and_image_over_http(http_session: Any, recorder: Any) -> None:
    async def body(session: Any) -> tuple[Any, ...]:
        return await session.call_tool("echo", {"message": "over http"}), await session.call_tool("generate_image", {})

    echo, image = run(http_session, body, recorder)
    assert echo.content[0].text == "over http"
    assert base64.b64decode(image.content[0].data).startswith(b"\x89PNG\r\n\x1a\n")
    assert recorder.errors == []


def test_progress_over_http(http_session: Any) -> None:
    events: list[float] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        events.append(progress)

    async def body(session: Any) -> Any:
        return await session.call_tool("slow_task", {"steps": 3, "delay": 0.01}, progress_callback=on_progress)

    result = run(http_session, body)
    assert not result.is_error and events == [1, 2, 3]


def test_list_changed_over_http(http_session: Any, recorder: Any) -> None:
    async def body(session: Any) -> tuple[set[str], set[str]]:
        await session.call_tool("toggle_extra_tool", {"enabled": True})
        with anyio.fail_after(5):
            while "notifications/tools/list_changed" not in recorder.methods():
                await anyio.sleep(0.01)
        during = {tool.name for tool in (await session.list_tools()).tools}
        await session.call_tool("toggle_extra_tool", {"enabled": False})
        return during, {tool.name for tool in (await session.list_tools()).tools}

    during, after = run(http_session, body, recorder)
    assert "roll_dice" in during and "roll_dice" not in after
    assert recorder.methods().count("notifications/tools/list_changed") == 2


@pytest.mark.filterwarnings("ignore::mcp.shared.exceptions.MCPDeprecationWarning")
def test_log_level_is_per_http_session(http_session: Any, new_recorder: Any) -> None:
    quiet, chatty = new_recorder(), new_recorder()

    async def main() -> None:
        async with http_session(quiet) as first, http_session(chatty) as second:
            await first.set_logging_level("error")
            await first.call_tool("emit_logs", {})
            await second.call_tool("emit_logs", {})

    anyio.run(main)
    assert [entry.level for entry in quiet.logs] == ["error"]
    assert [entry.level for entry in chatty.logs] == ["debug", "info", "warning", "error"]
