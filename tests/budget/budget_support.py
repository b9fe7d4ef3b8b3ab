"""Helpers for the budget tests: real tool lists from the demo server and server-everything."""

from __future__ import annotations

import asyncio
from typing import Any

from lens_support import DEMO

from inspector.config.profile import ServerProfile
from inspector.core.lite import LiteConnection
from inspector.traffic.store import TrafficStore
from inspector.transports.process import StdioCommand
from inspector.transports.stdio_pipes import StdioPipes


def _profile(argv: list[str]) -> ServerProfile:
    return ServerProfile(name="test", transport="stdio", command=argv[0], args=argv[1:])


def list_tools(argv: list[str]) -> list[dict[str, Any]]:
    """The raw ``tools/list`` result of a stdio server."""

    async def main() -> list[dict[str, Any]]:
        pipes = StdioPipes(StdioCommand.from_profile(_profile(argv)), TrafficStore())
        async with LiteConnection(pipes) as conn:
            return (await conn.list_tools()).tools

    return asyncio.run(main())


def demo_before_after_toggle() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The demo's tool list, then again after ``toggle_extra_tool`` added ``roll_dice`` (one session)."""

    async def main() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        pipes = StdioPipes(StdioCommand.from_profile(_profile(DEMO)), TrafficStore())
        async with LiteConnection(pipes) as conn:
            before = (await conn.list_tools()).tools
            outcome = await conn.call_tool("toggle_extra_tool", {})
            assert not outcome.is_error, outcome.result
            after = (await conn.list_tools()).tools
            return before, after

    return asyncio.run(main())
