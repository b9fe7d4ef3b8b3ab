"""A message from a stdio server is parsed once: the recorder's parse is the one the session gets (a
50 MB result parsed by the recorder and again by the SDK held the event loop twice as long)."""

from __future__ import annotations

import asyncio
import json
import sys
from unittest import mock

import mcp_types
from lens_support import REPO

from inspector.config.profile import ServerProfile
from inspector.core.connection import Connection
from inspector.core.lite import LiteConnection
from inspector.core.targets import make_transport
from inspector.traffic.store import TrafficStore
from inspector.transports.process import StdioCommand
from inspector.transports.stdio_pipes import StdioPipes

BIG = [sys.executable, str(REPO / "tests/servers/big.py"), "result", "2000000"]


def _counting_loads():
    calls: list[int] = []
    real = json.loads

    def loads(raw, *args, **kwargs):
        calls.append(len(raw))
        return real(raw, *args, **kwargs)

    return calls, loads


def test_the_session_gets_the_recorders_parse_of_a_big_result() -> None:
    store = TrafficStore()
    profile = ServerProfile("big", command=BIG[0], args=BIG[1:], protocol_era="legacy")
    calls, loads = _counting_loads()
    validated_json: list[int] = []
    real = mcp_types.jsonrpc_message_adapter

    class Adapter:  # the SDK's message adapter, noting what it is asked to parse from bytes
        def validate_json(self, data, *args, **kwargs):
            validated_json.append(len(data))
            return real.validate_json(data, *args, **kwargs)

        def __getattr__(self, name):
            return getattr(real, name)

    adapter = Adapter()

    async def main() -> dict:
        async with Connection(make_transport(profile, store)) as conn:
            await conn.list_tools()
            with mock.patch("json.loads", loads), mock.patch.object(mcp_types, "jsonrpc_message_adapter", adapter):
                return (await conn.call_tool("big_result", {})).result

    result = asyncio.run(main())
    assert len(result["content"][0]["text"]) > 1_000_000
    assert [size for size in calls if size > 1_000_000] == [max(calls)]  # the 2 MB line: one parse
    assert validated_json == []  # … and the SDK's model is built from that parse, not from the bytes again


def test_the_lean_client_parses_a_big_result_once() -> None:
    store = TrafficStore()
    calls, loads = _counting_loads()

    async def main() -> dict:
        async with LiteConnection(StdioPipes(StdioCommand(BIG[0], BIG[1:]), store), era="legacy") as client:
            with mock.patch("json.loads", loads):
                return await client.request("tools/call", {"name": "big_result", "arguments": {}})

    result = asyncio.run(main())
    assert len(result["content"][0]["text"]) > 1_000_000
    assert [size for size in calls if size > 1_000_000] == [max(calls)]
