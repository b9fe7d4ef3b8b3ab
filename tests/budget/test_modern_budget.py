"""A 2026-07-28 `tools/list` is counted as it crossed the wire: icons, `_meta` and every other member of
each tool, byte for byte; the list's own cache hints and `resultType` are not part of the tools a host
puts in a model's context."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from lens_support import DEMO

from inspector.budget.breakdown import BudgetCounter
from inspector.budget.shapes import dumps
from inspector.budget.tokenizers import get_tokenizer
from inspector.config.profile import ServerProfile
from inspector.core.lite import LiteConnection
from inspector.traffic.store import TrafficStore
from inspector.transports.process import StdioCommand
from inspector.transports.stdio_pipes import StdioPipes


def modern_listing() -> tuple[str, list[dict[str, Any]], bytes]:
    """The era, the tools the core returns and the raw `tools/list` response line, from the demo."""

    async def main() -> tuple[str, list[dict[str, Any]], bytes]:
        store = TrafficStore()
        profile = ServerProfile(name="demo", transport="stdio", command=DEMO[0], args=DEMO[1:])
        async with LiteConnection(StdioPipes(StdioCommand.from_profile(profile), store), era="modern") as conn:
            tools = (await conn.list_tools()).tools
            era = conn.era
        request = next(e for e in store if e.direction == "out" and e.method == "tools/list")
        return era, tools, store.by_seq(request.peer_seq).raw

    return asyncio.run(main())


def test_a_modern_tool_list_is_counted_exactly_as_sent() -> None:
    era, tools, raw = modern_listing()
    assert era == "modern"
    result = json.loads(raw)["result"]
    assert "ttlMs" in result and "cacheScope" in result  # the list carries cache hints on the modern wire
    assert any("icons" in tool for tool in tools)
    assert tools == result["tools"]  # nothing dropped or added on the way to the budget
    for tool in tools:  # each tool's text is the wire's, byte for byte (same key order, same escapes)
        assert dumps(tool).encode() in raw, tool.get("name")
    counter = BudgetCounter(get_tokenizer("o200k_base"))
    report = counter.report(tools, "mcp")
    assert report.total == counter.count(dumps({"tools": tools}))
    with_icons = next(t for t in tools if "icons" in t)
    bare = {k: v for k, v in with_icons.items() if k != "icons"}
    assert counter.report([with_icons]).total > counter.report([bare]).total  # icons are counted
    meta = {**bare, "_meta": {"io.example/owner": "team-a"}}
    assert counter.report([meta]).total == counter.count(dumps({"tools": [meta]}))  # and a tool's _meta
