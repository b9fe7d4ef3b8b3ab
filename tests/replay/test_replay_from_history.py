"""History as a record for `mcp-lens replay` (issue 27 point 3): the server's tools and each call whose
result History kept, answered as recorded; the same call twice in the order the results came."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

from inspector.core.history import CallRecord
from inspector.replay.from_history import write_history_record
from inspector.replay.mock import MockServer
from inspector.replay.record import open_record


def kept(tool: str, arguments: dict[str, Any], text: str | None, started: float) -> CallRecord:
    record = CallRecord(tool, arguments, None, started=started)
    if text is not None:
        record.finish({"content": [{"type": "text", "text": text}]})
    return record


def answers(path: Path, *requests: dict[str, Any]) -> list[dict[str, Any]]:
    replay = open_record(path)
    out: io.BytesIO = io.BytesIO()
    mock = MockServer(replay, out.write, lambda _text: None, fast=True)
    try:
        for n, asked in enumerate(requests, start=10):
            mock.handle(json.dumps({"jsonrpc": "2.0", "id": n, **asked}).encode())
    finally:
        replay.close()
    return [json.loads(line) for line in out.getvalue().splitlines()]


def echo(text: str) -> dict[str, Any]:
    return {"method": "tools/call", "params": {"name": "echo", "arguments": {"message": text}}}


def test_history_calls_are_served_in_order_with_the_servers_tool_list(tmp_path: Path) -> None:
    calls = [  # History lists the newest first
        kept("echo", {"message": "a"}, "second a", 3.0),
        kept("echo", {"message": "b"}, None, 2.0),  # failed: no result kept
        kept("echo", {"message": "a"}, "first a", 1.0),
    ]
    tools = [{"name": "echo", "inputSchema": {"type": "object", "properties": {"message": {"type": "string"}}}}]
    made = write_history_record("demo", calls, tools, tmp_path / "mocks")
    assert (made.served, made.left_out, made.listed) == (2, 1, True)
    assert oct(made.path.stat().st_mode & 0o777) == "0o600"
    got = answers(
        made.path,
        {"method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}}},
        {"method": "tools/list"},
        echo("a"),
        echo("a"),
        echo("b"),
    )
    assert got[0]["result"]["capabilities"] == {"tools": {}} and got[0]["id"] == 10
    assert got[1]["result"] == {"tools": tools}
    assert [g["result"]["content"][0]["text"] for g in got[2:4]] == ["first a", "second a"]
    assert got[4]["error"]["message"].startswith("mcp-lens replay: no recorded answer to tools/call")


def test_without_a_listing_the_tools_are_history_s_names(tmp_path: Path) -> None:
    made = write_history_record("offline", [kept("add", {"a": 1}, "2", 1.0)], None, tmp_path)
    got = answers(made.path, {"method": "tools/list"})
    assert got[0]["result"] == {"tools": [{"name": "add", "inputSchema": {"type": "object"}}]}
    assert not made.listed
